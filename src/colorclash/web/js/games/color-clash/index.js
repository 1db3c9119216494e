// Color Clash as the shell sees it: one table module per game, registered by the game's
// key (view.game). The shell calls only what is listed here.
import { renderCard } from "./cards.js";
import { bannersFor, describeMoment } from "./events.js";
import { PRESETS, renderRules } from "./rules.js";
import { afterRender, animatePlay, renderTable, tableKeydown } from "./table.js";

export const colorClash = {
  key: "color-clash",
  presets: PRESETS,
  renderTable, // (model, act) -> nodes
  afterRender, // (root, {revealPlayable}) after the table is on screen
  tableKeydown, // (event, {view}, act)
  animatePlay, // (root, events, me)
  describeMoment, // (events, {room, me, view}) -> one line
  bannersFor, // (events, {room, me, view}) -> banner items
  renderRules, // (preset) -> nodes of the "How to play" page
  heroCards: () => ["R7", "B-skip", "Y+2", "W+4"].map((c) => renderCard(c)),
};
