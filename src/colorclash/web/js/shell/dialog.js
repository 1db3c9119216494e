// The site's own modal dialogs (never the browser's confirm()/alert()): a title, content,
// a row of equal buttons. Tab stays inside the dialog, Escape closes it when it may be
// closed, and shell/focus.js moves the focus in when it opens and back when it closes.
import { h, on, shown } from "../ui.js";

// modal({title, content, actions, onClose, cls, overlayCls, id, label})
//   title: the heading (also the dialog's accessible name), content: nodes,
//   actions: buttons (made with dialogButton), onClose: Escape / outside click (optional).
//   A button or field marked data-autofocus gets the focus when the dialog opens.
export function modal({ title, content = [], actions = [], onClose = null, cls = "", overlayCls = "",
  id = null, describedBy = null, dataset = {} }) {
  // the same id at every redraw (it was a new number each time): the kept dialog's
  // heading stays the same node (ui.js morph pairs nodes by id)
  const titleId = `${id || `dlg-${(cls || overlayCls || "dialog").split(".")[0]}`}-title`;
  const dlg = h(
    `div.dialog${cls ? `.${cls}` : ""}`,
    {
      role: "dialog",
      "aria-modal": "true",
      // a click on the dialog's text takes the focus to the dialog, not to <main> behind
      // it (out of the Tab trap, and Escape no longer closed it; player QA)
      tabindex: "-1",
      "aria-labelledby": titleId,
      "aria-describedby": describedBy || undefined,
      id: id || undefined,
    },
    h("h2", { id: titleId }, title),
    content,
    actions.length ? h("div.dialog-actions", { dataset: { count: String(actions.length) } }, actions) : null,
  );
  const overlay = h(`div.overlay${overlayCls ? `.${overlayCls}` : ""}`, { dataset }, dlg);
  on(overlay, "keydown", (ev) => {
    if (ev.key === "Escape" && onClose) {
      ev.preventDefault();
      ev.stopPropagation();
      onClose();
    } else if (ev.key === "Tab") {
      trapTab(ev.currentTarget.querySelector("[role=dialog]"), ev);
    }
  });
  if (onClose) {
    on(overlay, "click", (ev) => {
      if (ev.target === ev.currentTarget) onClose();
    });
  }
  return overlay;
}

// A dialog button; `primary` marks the main one, `focusKey` keeps focus across redraws.
export function dialogButton(label, onclick, { primary = false, focusKey = null, autofocus = false,
  disabled = false, pressed = null, cls = "" } = {}) {
  return h(
    `button.btn.big${primary ? ".primary" : ""}${cls ? `.${cls}` : ""}`,
    {
      type: "button",
      onclick,
      disabled: disabled || undefined,
      "aria-pressed": pressed === null ? undefined : String(pressed),
      dataset: { ...(focusKey ? { focusKey } : {}), ...(autofocus ? { autofocus: "" } : {}) },
    },
    label,
  );
}

function focusables(root) {
  // (a <details>' summary too: the results' Fair play was skipped by Tab)
  return [...root.querySelectorAll("button, [href], input, select, textarea, summary, [tabindex]")].filter(
    (e) => !e.disabled && e.tabIndex >= 0 && shown(e),
  );
}

function trapTab(dlg, ev) {
  const f = focusables(dlg);
  if (!f.length) return;
  const i = f.indexOf(document.activeElement);
  const next = ev.shiftKey ? (i <= 0 ? f.length - 1 : i - 1) : (i + 1) % f.length;
  f[next].focus();
  ev.preventDefault();
}

// A question with two answers, in the site's own dialog: the safe answer (`no`) is the
// main button and has the focus; Escape or a click outside is `no` too. The other
// (leaving a table...) is a plain button, never the one that catches the eye.
export function confirmDialog({ title, text, yes, no, onYes, onNo, key = "confirm", overlayCls = "" }) {
  return modal({
    title,
    overlayCls,
    content: [h("p", text)],
    actions: [
      dialogButton(no, onNo, { primary: true, focusKey: `${key}:no`, autofocus: true }),
      dialogButton(yes, onYes, { focusKey: `${key}:yes` }),
    ],
    onClose: onNo,
  });
}
