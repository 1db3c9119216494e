// The table's one-key shortcuts (a game's letters and digits: D to draw, 1-6 to pick a
// row): on by default; the history panel's keyboard button turns them off, and the
// choice is kept in this browser (localStorage "cc.keys"). A speech-input user's dictated
// word, or a key meant for a screen reader's own browse mode, must not play a card
// (WCAG 2.1.4: character key shortcuts can be turned off). Tab, the arrows, Enter, Space
// and Escape are not shortcuts and always work.
import { t } from "../i18n.js";
import { h, svg } from "../ui.js";

const KEY = "cc.keys";
let memory = null; // the choice made on this page (kept also when storage refuses it)

export function keysOn() {
  if (memory !== null) return memory;
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true; // storage refused (private mode): on, for this page
  }
}

function setKeysOn(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // not kept: the page still follows the button until it is closed
  }
  memory = on;
}

// Is this key one the switch turns off? A single printable character with no modifier
// (Space excepted: it presses the focused button).
export function isShortcut(ev) {
  return ev.key.length === 1 && ev.key !== " ";
}

const ICON =
  '<rect x="2.5" y="6.5" width="19" height="11" rx="2" fill="none" stroke="currentColor" stroke-width="1.8"/>' +
  '<path d="M6 10h1M9.5 10h1M13 10h1M16.5 10h1M8 14h8" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>';
const OFF = '<path d="M3 3l18 18" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';

// The keyboard button: pressed while the shortcuts are on (its name says what it is, its
// pressed state whether they are on; the tooltip says both). The page says it too: with
// the shortcuts off, the tables' key lines are not shown (body[data-keys=off]).
export function keysButton({ onToggle }) {
  const on = keysOn();
  return h(
    "button.btn.ghost.keys-toggle",
    {
      type: "button",
      "aria-pressed": on ? "true" : "false",
      "aria-label": t("keys.label"),
      title: t(on ? "keys.on" : "keys.off"),
      dataset: { focusKey: "keys:toggle" },
      onclick: () => {
        setKeysOn(!keysOn());
        showKeysState();
        onToggle();
      },
    },
    svg(ICON + (on ? "" : OFF), { cls: "keys-icon" }),
  );
}

// body[data-keys]: "off" hides the tables' lines of keys (css)
export function showKeysState() {
  document.body.dataset.keys = keysOn() ? "on" : "off";
}
