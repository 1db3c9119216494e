// The table's sounds: three rising notes when a table opens for you (Quick Match found
// players, the host started), a two-note chime when your turn comes (a player in another
// tab hears it), and one short low note when your own clock reaches its last 10 seconds.
// Made with the Web Audio API: no sound files to fetch. On by default, as on lichess; the
// history panel's speaker button turns them off, and the choice is kept in this browser
// (localStorage "cc.sound"). Browsers let a page make sound only after the player has
// clicked or pressed a key in it, so the audio context starts at the first one.
import { t } from "../i18n.js";
import { svg } from "../ui.js";
import { storedSwitch, switchButton } from "./prefs.js";

const sound = storedSwitch("cc.sound");
const isOn = sound.on;

// [frequency Hz, start s, length s] of each note
const TONES = {
  start: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.28]],
  turn: [[659, 0, 0.14], [880, 0.15, 0.22]],
  low: [[392, 0, 0.16]],
};

let ctx = null;

// The sounds asked for while sound is on, newest last (the browser tests read it: a
// headless browser has no loudspeaker to listen to).
export const played = [];

function unlock() {
  if (!ctx) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      ctx = new Context();
    } catch {
      return;
    }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
}

for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, unlock, { capture: true, passive: true });
}

// A table that opens on your turn says so once: the start, not the turn's chime after it.
const QUIET_AFTER_START_MS = 1500;
let startedAt = -Infinity;

export function play(name) {
  if (!isOn() || !TONES[name]) return;
  if (name === "start") startedAt = performance.now();
  else if (name === "turn" && performance.now() - startedAt < QUIET_AFTER_START_MS) return;
  played.push(name);
  if (played.length > 20) played.shift();
  if (!ctx || ctx.state !== "running") return;
  const now = ctx.currentTime;
  for (const [freq, at, len] of TONES[name]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + at);
    osc.stop(now + at + len + 0.03);
  }
}

// The low-clock note sounds once per clock: when your own clock (not a between-rounds
// wait) that started above 10 seconds gets to 10. Returns true at that moment (the
// caller says it too: a screen reader's user heard of the clock only once it had run out).
const LOW_MS = 10_000;
let lowFor = null;

export function checkLowClock(clock, me) {
  if (!clock || clock.seat !== me || clock.kind === "next" || clock.total <= LOW_MS + 500) return false;
  const key = clock.localDeadline;
  if (lowFor === key) return false;
  if (clock.localDeadline - performance.now() <= LOW_MS) {
    lowFor = key;
    play("low");
    return true;
  }
  return false;
}

const SPEAKER = '<path d="M3 9v6h4l5 4V5L7 9H3z" fill="currentColor"/>';
const MARK = {
  on: '<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12"',
  off: '<path d="M16 9l6 6M22 9l-6 6"',
};
const STROKE = ' fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';

const icon = (on) => svg(SPEAKER + MARK[on ? "on" : "off"] + STROKE, { cls: "sound-icon" });

// The speaker button: pressed while sound is on (shell/prefs.js).
export function soundButton({ onToggle }) {
  return switchButton(sound, {
    cls: "sound-toggle",
    focusKey: "sound:toggle",
    label: t("sound.label"),
    titleOn: t("sound.on"),
    titleOff: t("sound.off"),
    icon,
    onToggle,
  });
}
