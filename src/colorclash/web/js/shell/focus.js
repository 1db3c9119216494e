// Where the keyboard focus goes after each redraw of the page.
//
// - A screen that just opened focuses its most useful control: the element with the
//   lowest data-initial-focus rank (on a table: a playable card, else the main action,
//   else the hand), or <main> when it has none, so that screen readers start there.
// - A dialog that just opened takes the focus (its [data-autofocus] control, else its
//   first button) and remembers where the focus was; when it closes, the focus goes back
//   there (or, if that control is gone, to the screen's most useful control).
// - A control that had the focus and is gone after a redraw (Rainbow's End turn, once
//   pressed) hands it to the screen's most useful control: never the page body, where
//   the next Tab would start again from the top of the page.
import { shown } from "../ui.js";

// How the person last gave input, on <html data-input>: "touch", "pointer" or "keys". A
// finger's second tap is told from a deliberate one (app.js), and a touch screen shows
// the focus ring only once keys are used (css/app.css): not for typing in a field (a
// phone's own keyboard, typing a name, brought the ring back).
let input = null;
let tap = null; // the last finger's tap: {x, y, t}
function setInput(how) {
  input = how;
  document.documentElement.dataset.input = how;
}
document.addEventListener("pointerdown", (ev) => {
  const touch = ev.pointerType === "touch";
  if (touch) tap = { x: ev.clientX, y: ev.clientY, t: performance.now() };
  setInput(touch ? "touch" : "pointer");
}, { capture: true, passive: true });
document.addEventListener("keydown", (ev) => {
  if (ev.isComposing || ev.keyCode === 229) return; // a phone's keyboard, composing
  if (ev.target && ev.target.closest && ev.target.closest("input, textarea, [contenteditable]")) return;
  setInput("keys");
}, { capture: true, passive: true });

// The tap that gave the input now, if a finger's (null after keys or a mouse).
export function lastTap() {
  return input === "touch" ? tap : null;
}

let returnTo = null; // {id, focusKey} of what had the focus before the open dialog
let held = null; // the element that had the focus when the last redraw settled
let lastFocused = null; // the last element that took the focus, on any screen
let movedTo = null; // what took the focus since the last redraw settled (Tab, a click)
document.addEventListener("focusin", (ev) => {
  lastFocused = ev.target;
  movedTo = ev.target;
});

export function initialTarget(root) {
  let best = null;
  for (const el of root.querySelectorAll("[data-initial-focus]")) {
    if (!el.getClientRects().length) continue;
    const rank = Number(el.dataset.initialFocus);
    if (!best || rank < Number(best.dataset.initialFocus)) best = el;
  }
  return best;
}

function openDialog(root) {
  const all = root.querySelectorAll(".overlay [role=dialog]");
  return all.length ? all[all.length - 1] : null;
}

function lost(main) {
  const a = document.activeElement;
  return !a || a === document.body || a === main || !document.contains(a);
}

function focusIn(el) {
  if (el) el.focus({ preventScroll: true });
}

export function settleFocus(main, { newScreen = false } = {}) {
  const dialog = openDialog(main);
  if (dialog) {
    if (!dialog.contains(document.activeElement)) {
      // (the control that opened it may have lost the focus on the way: Quick Match's
      // button, disabled and redrawn while its request ran; the focus goes back to it all
      // the same, found again by its id or focus key)
      const a = lost(main) && lastFocused ? lastFocused : document.activeElement;
      if (!returnTo && a && a !== document.body && a !== main) {
        returnTo = { id: a.id || null, focusKey: a.dataset ? a.dataset.focusKey || null : null };
      }
      // (the first shown: the results' record link, folded away, came first and took nothing)
      focusIn(dialog.querySelector("[data-autofocus]:not([disabled])") ||
        [...dialog.querySelectorAll("button:not([disabled]), [href], input, select")].find(shown));
    }
    // (the dialog's control is what the focus is on now: when a press closes the dialog
    // with nothing to go back to (Play again, after the results took the focus from
    // <main>), its loss is seen below; it stayed on the page body: keyboard review)
    held = document.activeElement !== document.body ? document.activeElement : held;
    movedTo = null;
    return;
  }
  if (returnTo) {
    const back = returnTo;
    returnTo = null;
    if (lost(main) || newScreen) {
      const el =
        (back.id && document.getElementById(back.id)) ||
        (back.focusKey && document.querySelector(`[data-focus-key="${CSS.escape(back.focusKey)}"]`)) ||
        initialTarget(main);
      if (el && el.getClientRects().length) {
        focusIn(el);
        return;
      }
    }
  }
  if (newScreen && (lost(main) || !main.contains(document.activeElement))) {
    focusIn(main.querySelector("[autofocus]") || initialTarget(main) || main);
  } else if (lost(main) && [held, movedTo].some((el) => el && !document.contains(el))) {
    // (movedTo too: a control reached by Tab after the last redraw, and replaced by the
    // next one, was never `held`; only since then: the focus a reader gave up, a click
    // on the page's text, is not pulled back states later)
    focusIn(initialTarget(main) || main);
  }
  held = document.activeElement !== document.body ? document.activeElement : null;
  movedTo = null;
}

// Forget the remembered place (leaving a screen for good).
export function resetFocus() {
  returnTo = null;
}
