// The move history of a table: the last few moments ("Bo played Red 7 · You are skipped"),
// newest last. The app keeps the raw events of each moment and the game module describes
// them at every redraw, so the history always speaks the current language. A socket's
// first state brings the match's earlier moments (`recent`): a reload keeps the history.
//
// It is a region with a heading and an ordered list, always in the accessibility tree.
// On a wide screen it is a panel beside the table; on a phone only its newest line shows
// until the toggle (historyToggle) opens the whole list over the table.
import { h } from "../ui.js";

// As many moments as a socket's first state brings (server/model.py RECENT_MOMENTS): with
// 8, the desktop's panel stood half empty and the turns played for you while away
// scrolled out of it.
export const HISTORY_SIZE = 30;

// Keep the events of a new moment (a state with events) in `moments`, newest last.
export function remember(moments, events, moment) {
  if (!events || !events.length) return moments;
  const next = [...moments, { events, moment }];
  return next.length > HISTORY_SIZE ? next.slice(next.length - HISTORY_SIZE) : next;
}

// The moments a socket's first state brings (`recent`, after a reload or a reconnection),
// oldest first, each {seq, events}: they replace those kept, since the server's list also
// holds what happened while the page was away. `key(seq)` names each moment.
export function recall(recent, key) {
  return (recent || []).reduce((moments, m) => remember(moments, m.events, key(m.seq)), []);
}

// lines: [string], newest last (empty lines are dropped); keys: a name for each line (its
// moment), so that a redraw keeps the lines on the page while the list grows at its end
// and drops its oldest (ui.js morph).
// `focusable`: the panel is on screen and its list may scroll, so the list takes a Tab
// stop (keyboard users scroll it); shut on a phone it must not (an invisible stop). The
// heading stays put; only the list scrolls (the heading used to scroll away with it).
// `tools`: the shell's buttons for the table as a whole (the sound), in the heading's row.
export function historyPanel({ title, lines, keys = [], open = false, empty = "", onClose = null, closeLabel = "",
  focusable = false, tools = null }) {
  const shown = lines.map((line, i) => ({ line, key: keys[i] != null ? String(keys[i]) : `#${i}` }))
    .filter((s) => s.line);
  return h(
    `section.history#history${open ? ".open" : ""}`,
    { "aria-labelledby": "history-title" },
    h(
      "div.history-head",
      h("h2.history-title", { id: "history-title" }, title),
      tools,
      onClose
        ? h(
            "button.btn.ghost.history-close",
            { type: "button", onclick: onClose, dataset: { focusKey: "history:close" } },
            closeLabel,
          )
        : null,
    ),
    shown.length
      ? h(
          "ol.history-list",
          { tabindex: focusable ? "0" : undefined, "aria-labelledby": "history-title" },
          shown.map(({ line, key }, i) => h(`li${i === shown.length - 1 ? ".newest" : ""}`, { dataset: { key } }, line)),
        )
      : h("p.history-empty", empty),
  );
}

// The phone's button that opens and closes the history panel.
export function historyToggle({ label, open, onToggle }) {
  return h(
    "button.btn.ghost.history-toggle",
    {
      type: "button",
      "aria-expanded": open ? "true" : "false",
      "aria-controls": "history",
      dataset: { focusKey: "history:toggle" },
      onclick: onToggle,
    },
    h("span.history-icon", { "aria-hidden": "true" }, "☰"),
    h("span.history-toggle-label", label),
  );
}
