// A player's switches kept in this browser (localStorage: "on" or "off"), on unless turned
// off: the sound (shell/sound.js), the one-key shortcuts (shell/keys.js). A choice made on
// this page is followed even where the storage refuses it (private mode), until it closes.
import { h } from "../ui.js";

export function storedSwitch(key) {
  let memory = null;
  function on() {
    if (memory !== null) return memory;
    try {
      return localStorage.getItem(key) !== "off";
    } catch {
      return true; // storage refused: on, for this page
    }
  }
  function set(value) {
    try {
      localStorage.setItem(key, value ? "on" : "off");
    } catch {
      // not kept: the page still follows the button until it is closed
    }
    memory = value;
  }
  return { on, set };
}

// The button of a switch, among the table's tools: pressed while on. Its name says what
// it is ("Sound"); its pressed state, read out by screen readers, whether it is on; the
// tooltip says both. `icon(on)`: its picture.
export function switchButton(sw, { cls, focusKey, label, titleOn, titleOff, icon, onToggle }) {
  const on = sw.on();
  return h(
    `button.btn.ghost.tool-switch.${cls}`,
    {
      type: "button",
      "aria-pressed": on ? "true" : "false",
      "aria-label": label,
      title: on ? titleOn : titleOff,
      dataset: { focusKey },
      onclick: () => {
        sw.set(!sw.on());
        onToggle();
      },
    },
    icon(on),
  );
}
