// Small DOM helpers shared by the screens.

const SVGNS = "http://www.w3.org/2000/svg";

export function svg(markup, { cls = "", viewBox = "0 0 24 24", label = null } = {}) {
  const s = document.createElementNS(SVGNS, "svg");
  s.setAttribute("viewBox", viewBox);
  if (cls) s.setAttribute("class", cls);
  if (label) {
    s.setAttribute("role", "img");
    s.setAttribute("aria-label", label);
  } else {
    s.setAttribute("aria-hidden", "true");
    s.setAttribute("focusable", "false");
  }
  s.innerHTML = markup;
  return s;
}

// h("button.btn.primary", {onclick, "aria-label": ...}, "text", child, ...)
export function h(spec, attrs = {}, ...children) {
  let tag = "div";
  let id = "";
  const classes = [];
  for (const [, sigil, word] of spec.matchAll(/([.#]?)([^.#]+)/g)) {
    if (sigil === ".") classes.push(word);
    else if (sigil === "#") id = word;
    else tag = word;
  }
  const el = document.createElement(tag);
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = {};
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "class") el.className += ` ${v}`;
    else if (k === "text") el.textContent = v;
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// Screen-reader announcements (polite live region; assertive for urgent ones).
let liveTimer = null;
let alertTimer = null;
const pending = [];
export function announce(text, { urgent = false } = {}) {
  if (!text) return;
  const region = document.getElementById(urgent ? "alert" : "live");
  if (!region) return;
  if (urgent) {
    region.textContent = "";
    clearTimeout(alertTimer);
    alertTimer = setTimeout(() => {
      region.textContent = text;
      alertTimer = null;
    }, 30);
    return;
  }
  pending.push(text);
  if (liveTimer) return;
  liveTimer = setTimeout(() => {
    region.textContent = pending.splice(0).join(". ");
    liveTimer = null;
  }, 120);
}

// Forget what was said and what was about to be (a language switch: the words queued a
// moment before were in the old language, and would be written after the switch).
export function clearAnnouncements() {
  clearTimeout(liveTimer);
  clearTimeout(alertTimer);
  liveTimer = alertTimer = null;
  pending.length = 0;
  for (const id of ["live", "alert"]) {
    const region = document.getElementById(id);
    if (region) region.textContent = "";
  }
}

let toastTimer = null;
let toastText = null;
// A short message at the top. `text` may be a function, so that a language switch
// (refreshToast) rewords a toast still on screen.
export function toast(text, ms = 3200) {
  let el = document.querySelector(".toast");
  if (!el) {
    el = h("div.toast", { role: "status" });
    document.body.append(el);
  }
  toastText = text;
  el.textContent = typeof text === "function" ? text() : text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
    toastText = null;
  }, ms);
}

// A toast belongs to the screen that raised it ("Waiting for 2 more players" from the
// lobby's Start must not stand over the table that follows): a new screen removes it.
export function clearToast() {
  clearTimeout(toastTimer);
  toastText = null;
  const el = document.querySelector(".toast");
  if (el) el.hidden = true;
}

// A short hint beside what was pressed ("You can't play that card now"), for the eye: it
// asks nothing, blocks nothing (clicks go through it) and goes by itself. Screen readers
// get the same words from announce(); the bubble itself is hidden from them.
let tipTimer = null;
export function tip(anchor, text, ms = 2400) {
  let el = document.querySelector(".tip-bubble");
  if (!el) {
    el = h("div.tip-bubble", { "aria-hidden": "true" });
    document.body.append(el);
  }
  el.textContent = text;
  el.hidden = false;
  const r = anchor.getBoundingClientRect();
  const half = Math.min(el.offsetWidth, window.innerWidth - 16) / 2;
  const x = Math.max(8 + half, Math.min(window.innerWidth - 8 - half, r.left + r.width / 2));
  el.style.left = `${x}px`;
  el.style.top = `${Math.max(8, r.top - 8)}px`;
  clearTimeout(tipTimer);
  tipTimer = setTimeout(() => {
    el.hidden = true;
  }, ms);
}

export function refreshToast() {
  const el = document.querySelector(".toast");
  if (el && !el.hidden && typeof toastText === "function") el.textContent = toastText();
}

export function initial(name) {
  const s = String(name || "?").trim();
  return (s[0] || "?").toUpperCase();
}

export const reducedMotion = () =>
  window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Replace the children of `root` with `nodes`, keeping keyboard focus (and a text field's
// caret) on the element with the same data-focus-key, and the horizontal scroll of elements with data-keep-scroll.
export function morph(root, nodes) {
  const active = document.activeElement;
  const focusKey = active && root.contains(active) ? active.dataset.focusKey : null;
  // a text field being typed in keeps its caret (or selection) in the field drawn anew
  const caret =
    focusKey && typeof active.selectionStart === "number"
      ? [active.selectionStart, active.selectionEnd, active.selectionDirection]
      : null;
  const scrolls = {};
  for (const el of root.querySelectorAll("[data-keep-scroll]")) {
    scrolls[el.dataset.keepScroll] = el.scrollLeft;
  }
  root.replaceChildren(...nodes);
  for (const el of root.querySelectorAll("[data-keep-scroll]")) {
    const left = scrolls[el.dataset.keepScroll];
    if (left !== undefined) el.scrollLeft = left;
  }
  if (focusKey) {
    const again =
      root.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`) ||
      root.querySelector(`[data-focus-fallback="${CSS.escape(focusKey.split(":")[0])}"]`);
    if (again) {
      again.focus({ preventScroll: true });
      if (caret && typeof again.selectionStart === "number") {
        try {
          again.setSelectionRange(...caret);
        } catch {
          // a field whose type has no caret (number, email): left as focus put it
        }
      }
    }
  }
}
