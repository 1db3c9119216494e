// A sideways strip of items that may not all fit (a long hand on a phone): the list
// scrolls, snaps to whole items, fades at an edge where more items wait, and shows a
// button at each such edge that says how many items are hidden there (and how many of
// them are highlighted, e.g. playable cards). The buttons browse one screen at a time.
import { h, on, reducedMotion } from "../ui.js";

// strip(list, {label(side, hidden, highlighted) -> string, highlight: selector})
// `list` is the scrolling element (it gets data-scroller); returns the wrapper.
export function strip(list, { label, highlight = null, cls = "strip" }) {
  list.dataset.scroller = "";
  const button = (side) =>
    h(
      "button.hand-more",
      {
        type: "button",
        hidden: true,
        dataset: { side, focusKey: `strip:${side}` },
        // (the list found from the button: a redraw may keep the old list, not this one)
        onclick: (ev) => browse(ev.currentTarget.parentElement.querySelector("[data-scroller]"), side === "end" ? 1 : -1),
      },
      h("span.more-arrow", { "aria-hidden": "true" }, side === "end" ? "›" : "‹"),
      h("span.more-count", { "aria-hidden": "true" }),
    );
  const wrap = h(`div.${cls}`, button("start"), list, button("end"));
  wrap._label = label;
  wrap._highlight = highlight;
  on(list, "scroll", (ev) => schedule(ev.currentTarget.parentElement));
  return wrap;
}

function browse(list, dir) {
  const page = Math.max(list.clientWidth * 0.8, 60);
  list.scrollBy({ left: dir * page, behavior: reducedMotion() ? "auto" : "smooth" });
}

function schedule(wrap) {
  if (wrap._raf) return;
  wrap._raf = requestAnimationFrame(() => {
    wrap._raf = 0;
    updateStrip(wrap);
  });
}

// Items hidden on each side: the part of an item one can see and touch (up to where the
// next, overlapping item begins) is less than 60 % inside the strip's visible box.
function hidden(wrap) {
  const list = wrap.querySelector("[data-scroller]");
  const box = list.getBoundingClientRect();
  const out = { start: [], end: [] };
  const items = [...list.children];
  const rects = items.map((li) => li.getBoundingClientRect());
  items.forEach((li, i) => {
    const r = rects[i];
    const own = rects[i + 1] ? Math.min(r.right, rects[i + 1].left) : r.right;
    const width = Math.max(own - r.left, 1);
    const seen = Math.min(own, box.right) - Math.max(r.left, box.left);
    if (seen / width >= 0.6) return;
    if (r.left < box.left) out.start.push(li);
    else out.end.push(li);
  });
  return out;
}

// Show or hide the edge buttons and fades after a redraw, a scroll or a resize.
export function updateStrip(wrap) {
  if (!wrap || !wrap.isConnected) return;
  const h2 = hidden(wrap);
  for (const side of ["start", "end"]) {
    const btn = wrap.querySelector(`.hand-more[data-side=${side}]`);
    const items = h2[side];
    const lit = wrap._highlight ? items.filter((li) => li.querySelector(wrap._highlight)).length : 0;
    btn.hidden = !items.length;
    wrap.dataset[side === "start" ? "moreStart" : "moreEnd"] = items.length ? "true" : "false";
    if (!items.length) continue;
    btn.setAttribute("aria-label", wrap._label(side, items.length, lit));
    btn.querySelector(".more-count").textContent = String(items.length);
    btn.classList.toggle("lit", lit > 0);
  }
}

// Bring the highlighted items into view if none is wholly in view. A keyboard focus left
// on an item that is not highlighted (a card that cannot be played now) moves to the first
// highlighted one: at a new turn the focus stayed on a dimmed card.
export function revealHighlighted(wrap) {
  if (!wrap || !wrap._highlight) return;
  const list = wrap.querySelector("[data-scroller]");
  const box = list.getBoundingClientRect();
  const lit = [...list.querySelectorAll(wrap._highlight)];
  if (!lit.length) return;
  const active = document.activeElement;
  if (active && active !== list && list.contains(active) && !active.matches(wrap._highlight)) {
    lit[0].focus({ preventScroll: true });
  }
  const whole = (el) => {
    const r = el.getBoundingClientRect();
    return r.left >= box.left - 1 && r.right <= box.right + 1;
  };
  if (lit.some(whole)) return;
  // the first one at the start of the strip (where cards snap), the ones after it in view
  const li = lit[0].closest("li") || lit[0];
  const pad = parseFloat(getComputedStyle(list).scrollPaddingLeft) || 0;
  list.scrollLeft += li.getBoundingClientRect().left - (box.left + pad);
  updateStrip(wrap);
}
