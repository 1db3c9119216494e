// Color Clash as the shell sees it: one table module per game, registered by the game's
// key (view.game, room.game) in ../index.js. The shell calls only what is listed here.
// (Color Clash's strings predate the games' own catalogs and live in the shell's.)
import { t } from "../../i18n.js";
import { renderCard } from "./cards.js";
import { bannersFor, describeMoment, noNextRound } from "./events.js";
import { PRESETS, renderRules } from "./rules.js";
import { afterRender, animatePlay, onState, renderTable, tableKeydown } from "./table.js";

function matchLabel(m) {
  if (String(m) === "500") return t("room.firstTo", { n: 500 });
  return t("room.rounds", { n: Number(m) });
}

export const colorClash = {
  key: "color-clash",
  catalog: null, // its strings are in the shell's catalogs
  styles: null, // its styles are in css/app.css
  name: () => t("game.color-clash.name"),
  about: () => t("game.color-clash.about"),
  presets: PRESETS, // the How to play pages, in this order
  presetName: (preset) => t(`preset.${preset}`),
  optionLabel: (name) => (name === "match" ? t("room.match") : null),
  choiceLabel: (name, value) => (name === "match" ? matchLabel(value) : null),
  // a substitute plays the seat until the next round: a one-round game, or a match's
  // last round, has none
  leaveText: ({ view, link }) =>
    noNextRound(view) ? t("table.leaveConfirmOneRound") : t("table.leaveConfirm", { link }),
  // whether a player who leaves now can take the seat back (the home page then offers it)
  canComeBack: (view) => !noNextRound(view),
  // the home page's line for a table left: the seat comes back at the next round (the
  // shell's "until you take it back" read as at once: flow review)
  resumeLeftText: (code) => t("home.resumeLeftNextRound", { code }),
  // the words of a refusal of an action that raced another player's and lost (a catch
  // or a call once the last-card window had closed), not "It is not your turn"
  raceLostKey: (actionType) =>
    actionType === "catch" ? "table.catchTooLate" : actionType === "call" ? "table.callTooLate" : null,
  renderTable, // (model, act) -> nodes
  afterRender, // (root, {revealPlayable}) after the table is on screen
  onState, // ({prev, view, ui}) -> patch of ui, at each new state
  tableKeydown, // (event, {view}, act)
  animatePlay, // (root, events, me)
  describeMoment, // (events, {room, me, view}) -> one line
  bannersFor, // (events, {room, me, view}) -> banner items
  renderRules, // (preset) -> nodes of the "How to play" page
  heroCards: ({ small = false } = {}) =>
    (small ? ["R7", "B-skip", "W+4"] : ["R7", "B-skip", "Y+2", "W+4"]).map((c) => renderCard(c)),
};
