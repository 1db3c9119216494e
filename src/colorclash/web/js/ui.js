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

// ---------- listeners and properties that morph() carries over ----------
//
// morph() keeps an element already on the page when the new drawing has "the same" one,
// so a listener added to the new element must reach the kept one (and the kept one's old
// listeners, with their stale closures, must go). Listeners are therefore recorded here:
// each element gets one dispatcher per event type, which calls the functions recorded for
// it; morph() moves the record from the new element to the kept one. A handler must find
// its element through ev.currentTarget, never through a variable of the render that made
// it (that one is the new element, thrown away when an old one is kept).
const listeners = new WeakMap(); // element -> {type: [fn, ...]}
const props = new WeakMap(); // element -> {property: value} assigned by h()

function dispatch(ev) {
  const fns = (listeners.get(ev.currentTarget) || {})[ev.type];
  if (fns) for (const fn of [...fns]) fn.call(ev.currentTarget, ev);
}

// Listen to `type` on `el` in a way that morph() can carry over (use it, not
// addEventListener, on anything drawn into <main>).
export function on(el, type, fn) {
  let map = listeners.get(el);
  if (!map) listeners.set(el, (map = {}));
  if (!map[type]) {
    map[type] = [];
    el.addEventListener(type, dispatch);
  }
  map[type].push(fn);
  return el;
}

function propsOf(el) {
  let p = props.get(el);
  if (!p) props.set(el, (p = {}));
  return p;
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
    if (k.startsWith("on") && typeof v === "function") on(el, k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "class") el.className += ` ${v}`;
    else if (k === "text") el.textContent = v;
    else if (k in el && typeof v !== "string") {
      el[k] = v;
      propsOf(el)[k] = v; // morph() sets it again on a kept node
    }
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
    region.textContent = joinSentences(pending.splice(0));
    liveTimer = null;
  }, 120);
}

// Pieces said at once, each ended once: "It is not your turn. Computer played ...", not
// "turn.. Computer" (an accessibility review heard the doubled stop).
export function joinSentences(pieces) {
  let out = "";
  for (const piece of pieces) {
    if (out) out += /[.!?…:]$/.test(out) ? " " : ". ";
    out += piece.trim();
  }
  return out;
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
let toastId = 0;
// A short message at the top. `text` may be a function, so that a language switch
// (refreshToast) rewords a toast still on screen. Returns the toast's id, for
// clearToast(id). Screen readers are told it through announce() (the toast was its own
// live region, made and filled at once: the first one was often not read); a caller that
// says it already, more urgently, passes `{ say: false }`.
export function toast(text, ms = 3200, { say = true } = {}) {
  toastId += 1;
  let el = document.querySelector(".toast");
  if (!el) {
    el = h("div.toast");
    document.body.append(el);
  }
  toastText = text;
  el.textContent = typeof text === "function" ? text() : text;
  if (say) announce(el.textContent);
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
    toastText = null;
  }, ms);
  return toastId;
}

// A toast belongs to the screen that raised it ("Waiting for 2 more players" from the
// lobby's Start must not stand over the table that follows): a new screen removes it.
// With an id, only that toast, if it is still the one shown (a later one stays).
export function clearToast(id = null) {
  if (id !== null && id !== toastId) return;
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
  // measured where it has the whole width (at the last tip's place, near the right edge,
  // it shrank to a column of six lines, and was centred off the screen's left)
  el.style.left = "0px";
  el.style.top = "0px";
  el.style.width = "";
  // (kept at that width: placed by its centre, a fixed box shrinks to the room left of
  // the screen's right edge)
  const width = Math.ceil(el.getBoundingClientRect().width);
  el.style.width = `${width}px`;
  const r = anchor.getBoundingClientRect();
  const half = Math.min(width, window.innerWidth - 16) / 2;
  const x = Math.max(8 + half, Math.min(window.innerWidth - 8 - half, r.left + r.width / 2));
  el.style.left = `${x}px`;
  // above the anchor, or under it where there is no room above (a row at the top of a
  // phone's table put its first lines over the screen's top)
  const below = r.top - 8 - el.offsetHeight < 8;
  el.classList.toggle("below", below);
  el.style.top = `${below ? r.bottom + 8 : aboveTheFloor(anchor, r, el.offsetHeight) - 8}px`;
  clearTimeout(tipTimer);
  tipTimer = setTimeout(() => {
    el.hidden = true;
  }, ms);
}

// Where a hint above ``anchor`` ends: the anchor's top, or, for one under the top of
// your own bar (the game marks it [data-banner-floor], as for the banners: a card of your
// hand), the bar's top where the room above holds the hint. Stood on the card, it hid
// your turn line and your Draw button, often the next thing to press (player review).
function aboveTheFloor(anchor, r, height) {
  const floor = document.querySelector("main [data-banner-floor]");
  if (!floor || floor.contains(anchor)) return r.top;
  const top = floor.getBoundingClientRect().top;
  return r.top > top && top - 8 - height >= 8 ? top : r.top;
}

// The hint goes with what it was about: a language switch, another screen, a panel or
// dialog opened over the table (a Turkish hint stood over the English Moves panel).
export function clearTip() {
  clearTimeout(tipTimer);
  const el = document.querySelector(".tip-bubble");
  if (el) el.hidden = true;
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

// ---------- morph: draw a screen over the one on the page, in place ----------
//
// Every redraw builds the whole screen anew with h() (about once a second while computer
// players move). morph() walks the old and the new trees together and keeps every old
// node that has a counterpart in the new drawing, patching it in place (attributes,
// properties, listeners, text); only what really changed is inserted or removed. It used
// to replaceChildren(): a screen reader's reading position sat on nodes thrown away at
// each state, and a role=status region inserted anew each time was announced unreliably.
// On a kept node the keyboard focus, a text field's caret and a list's scroll stay by
// themselves (the old ways of putting them back remain for nodes that were replaced).
//
// Two nodes are "the same" when nodeType, namespace and tag match and:
// - if either has data-key (an item of a list whose items move or come and go: a card of
//   a hand, a line of the history), the data-keys are equal;
// - else id and data-focus-key are equal (both absent counts as equal).
// Nodes with data-key, id or data-focus-key are found wherever they are among the old
// siblings (and moved); the others pair in order.
// data-morph="replace" on a new element puts it in fresh, never patched over an old one:
// for what must animate when it appears (the card just laid on the pile).

function keyOf(n) {
  if (n.nodeType !== 1) return null;
  const tag = `${n.namespaceURI} ${n.tagName}`;
  const key = n.getAttribute("data-key");
  if (key !== null) return `${tag} key:${key}`;
  const fk = n.getAttribute("data-focus-key");
  return n.id || fk !== null ? `${tag} #${n.id} fk:${fk}` : null;
}

const fresh = (n) => n.nodeType === 1 && n.getAttribute("data-morph") === "replace";

// An unkeyed old node `o` may be patched into the unkeyed new node `n`.
function fits(o, n) {
  if (!o || o.nodeType !== n.nodeType || fresh(n)) return false;
  if (o.nodeType !== 1) return true;
  return o.namespaceURI === n.namespaceURI && o.tagName === n.tagName && keyOf(o) === null;
}

function morphChildren(oldP, newP) {
  const news = [...newP.childNodes];
  const wanted = new Set(news.map((n) => !fresh(n) && keyOf(n)).filter(Boolean));
  const pool = new Map(); // key -> the old keyed nodes, in order
  for (const o of oldP.childNodes) {
    const k = keyOf(o);
    if (k) pool.set(k, [...(pool.get(k) || []), o]);
  }
  let cur = oldP.firstChild; // everything before it is done
  const drop = (node) => {
    const next = node.nextSibling;
    node.remove();
    return next;
  };
  news.forEach((n, i) => {
    // old keyed nodes that nothing new asks for go at once (so that the ones after them
    // stay where they are instead of being moved over them)
    while (cur && keyOf(cur) && !wanted.has(keyOf(cur))) cur = drop(cur);
    let match = null;
    const k = !fresh(n) && keyOf(n);
    if (k) {
      const list = pool.get(k);
      match = list && list.length ? list.shift() : null;
    } else if (fits(cur, n)) {
      match = cur;
    } else if (cur && !fits(cur, news[i + 1] || n)) {
      // cur fits neither this node nor the next: look a little ahead for one that fits
      // this one, over nodes nothing asks for (an error line gone from above a form)
      let s = cur.nextSibling;
      for (let steps = 0; s && steps < 8 && !fits(s, n); steps += 1) {
        if (keyOf(s) && wanted.has(keyOf(s))) s = null;
        else s = s.nextSibling;
      }
      if (s && fits(s, n)) {
        while (cur !== s) cur = drop(cur);
        match = s;
      }
    }
    if (match) {
      if (match === cur) cur = cur.nextSibling;
      else oldP.insertBefore(match, cur); // a keyed node from further on
      patch(match, n);
    } else {
      oldP.insertBefore(n, cur);
    }
  });
  while (cur) cur = drop(cur);
}

const textField = (el) =>
  el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && typeof el.selectionStart === "number");

// Make the kept node `o` what the new node `n` says.
function patch(o, n) {
  if (o.nodeType !== 1) {
    if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
    return;
  }
  for (const a of [...n.attributes]) {
    if (o.getAttributeNS(a.namespaceURI, a.localName) !== a.value) o.setAttributeNS(a.namespaceURI, a.name, a.value);
  }
  for (const a of [...o.attributes]) {
    // (a <dialog> opened with showModal() stays open: its `open` is not the drawing's;
    // nor a <details> the player opened)
    if ((o.tagName === "DIALOG" || o.tagName === "DETAILS") && a.name === "open") continue;
    if (!n.hasAttributeNS(a.namespaceURI, a.localName)) o.removeAttributeNS(a.namespaceURI, a.localName);
  }
  // listeners: the new node's, through the dispatcher; none of the old ones
  const was = listeners.get(o) || {};
  const now = listeners.get(n) || {};
  for (const type of Object.keys(was)) if (!now[type]) o.removeEventListener(type, dispatch);
  for (const type of Object.keys(now)) if (!was[type]) o.addEventListener(type, dispatch);
  if (listeners.has(n)) listeners.set(o, now);
  else listeners.delete(o);
  // properties h() assigned, and a render's own expandos (a strip's label function)
  const p = props.get(n);
  if (p) {
    for (const [k, v] of Object.entries(p)) if (o[k] !== v) o[k] = v;
    props.set(o, p);
  } else props.delete(o);
  // (not a <select>'s or a <form>'s indexes: those are its options and fields)
  for (const k of Object.keys(n)) if (!/^\d+$/.test(k)) o[k] = n[k];
  // a <select>'s value, read before its children are patched: an option the old one did
  // not have is moved over from the new drawing, and the new one would then read as its
  // first option (a Practice menu showed "1" and the game dealt 5 computers)
  const chosenValue = n.tagName === "SELECT" ? n.value : null;
  morphChildren(o, n);
  // form state lives in properties, not attributes
  if (o.tagName === "INPUT" || o.tagName === "TEXTAREA") {
    if (o.value !== n.value) {
      // a field being typed in keeps its caret (the drawing says the same value as what
      // was typed, unless the app changed it)
      const typing = o === document.activeElement && textField(o);
      const caret = typing ? [o.selectionStart, o.selectionEnd, o.selectionDirection] : null;
      o.value = n.value;
      if (caret) {
        const len = o.value.length;
        o.setSelectionRange(Math.min(caret[0], len), Math.min(caret[1], len), caret[2]);
      }
    }
    if (o.tagName === "INPUT") {
      o.checked = n.checked;
      o.indeterminate = n.indeterminate;
    }
  } else if (o.tagName === "OPTION") {
    o.selected = n.selected;
  } else if (o.tagName === "SELECT") {
    if (o.value !== chosenValue) o.value = chosenValue;
  }
}

// Draw `nodes` as the children of `root`, in place (above). Keyboard focus on a node that
// had to be replaced or moved goes to the element with the same data-focus-key (else to
// the data-focus-fallback named by the key's first part), with a text field's caret; the
// horizontal scroll of a replaced data-keep-scroll element is kept.
export function morph(root, nodes) {
  const active = document.activeElement;
  const inside = active && active !== root && root.contains(active);
  const focusKey = inside && active.dataset ? active.dataset.focusKey : null;
  const caret =
    focusKey && typeof active.selectionStart === "number"
      ? [active.selectionStart, active.selectionEnd, active.selectionDirection]
      : null;
  const scrolls = {};
  for (const el of root.querySelectorAll("[data-keep-scroll]")) {
    scrolls[el.dataset.keepScroll] = el.scrollLeft;
  }
  const drawing = document.createDocumentFragment();
  drawing.append(...nodes);
  morphChildren(root, drawing);
  for (const el of root.querySelectorAll("[data-keep-scroll]")) {
    const left = scrolls[el.dataset.keepScroll];
    if (left !== undefined && el.scrollLeft !== left) el.scrollLeft = left;
  }
  if (focusKey && document.activeElement !== active) {
    const parts = focusKey.split(":");
    const place = parts.length > 2 ? `${parts.slice(0, -1).join(":")}:` : null;
    const again =
      root.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`) ||
      // an item gone from a list whose keys say its place ("card:2:Y5", a card played
      // from the middle of the hand): the item now in its place, not the list's first
      // (a long hand lost the player's place; player QA)
      (place && root.querySelector(`[data-focus-key^="${CSS.escape(place)}"]`)) ||
      root.querySelector(`[data-focus-fallback="${CSS.escape(parts[0])}"]`);
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

// Drawn and not folded away: a closed <details>' content keeps its boxes in Chrome (it is
// skipped content, which checkVisibility() knows, where there is one)
export function shown(e) {
  return e.checkVisibility ? e.checkVisibility() : e.getClientRects().length > 0;
}
