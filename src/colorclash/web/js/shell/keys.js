// The table's one-key shortcuts (a game's letters and digits: D to draw, 1-6 to pick a
// row): on by default; the keyboard button beside the speaker turns them off, and the
// choice is kept in this browser ("cc.keys", shell/prefs.js). A speech-input user's
// dictated word, or a key meant for a screen reader's own browse mode, must not play a
// card (WCAG 2.1.4: character key shortcuts can be turned off). Tab, the arrows, Enter,
// Space and Escape are not shortcuts and always work; so do the keys of a dialog that has
// the focus (the Wild's colour chooser: 1-4, R/B/Y/G), which act only there.
import { t } from "../i18n.js";
import { svg } from "../ui.js";
import { storedSwitch, switchButton } from "./prefs.js";

const keys = storedSwitch("cc.keys");
export const keysOn = keys.on;

// Is this key one the switch turns off? A single printable character (Space excepted:
// it presses the focused button).
export function isShortcut(ev) {
  return ev.key.length === 1 && ev.key !== " ";
}

const BOARD =
  '<rect x="2.5" y="6.5" width="19" height="11" rx="2" fill="none" stroke="currentColor" stroke-width="1.8"/>' +
  '<path d="M6 10h1M9.5 10h1M13 10h1M16.5 10h1M8 14h8" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>';
const OFF = '<path d="M3 3l18 18" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
const icon = (on) => svg(BOARD + (on ? "" : OFF), { cls: "keys-icon" });

// The keyboard button (shell/prefs.js). With the shortcuts off the page does not offer
// them: the tables' lines of keys and the keys' badges on buttons are hidden
// (body[data-keys=off], css).
export function keysButton({ onToggle }) {
  return switchButton(keys, {
    cls: "keys-toggle",
    focusKey: "keys:toggle",
    label: t("keys.label"),
    titleOn: t("keys.on"),
    titleOff: t("keys.off"),
    icon,
    onToggle: () => {
      showKeysState();
      onToggle();
    },
  });
}

export function showKeysState() {
  document.body.dataset.keys = keysOn() ? "on" : "off";
}
