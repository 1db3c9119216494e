// Coloretto as the shell sees it (docs/client.md, "Adding a game to the client"): its
// table, its words (catalog /i18n/coloretto/<lang>.json, every key "coloretto.*"), its
// styles, its How to play. Registered by its key in ../index.js.
import { t } from "../../i18n.js";
import { renderCard } from "./cards.js";
import { bannersFor, describeMoment } from "./events.js";
import { PRESETS, renderRules, sidePoints } from "./rules.js";
import { afterRender, animatePlay, onState, renderTable, tableKeydown } from "./table.js";

export const coloretto = {
  key: "coloretto",
  catalog: "coloretto",
  styles: "/css/games/coloretto.css",
  name: () => t("coloretto.name"),
  about: () => t("coloretto.about"),
  presets: PRESETS,
  presetName: () => t("coloretto.name"), // one preset: the game itself
  optionLabel: (name) => (name === "scoring" ? t("coloretto.option.scoring") : null),
  choiceLabel: (name, value) => (name === "scoring" ? t(`coloretto.side.${value}`) : null),
  // the chosen side's points under its menu: the name alone told a newcomer nothing
  // (newcomer review); the points are the engine's (the option's facts)
  choiceNote: (name, value, option) => {
    const points = sidePoints(option, value);
    return name === "scoring" && points ? t("coloretto.side.note", { values: points.join(", ") }) : null;
  },
  // the seat comes back as soon as its player opens the table again (docs/protocol.md)
  leaveText: ({ link }) => t("coloretto.table.leaveConfirm", { link }),
  renderTable,
  afterRender,
  onState,
  tableKeydown,
  animatePlay,
  describeMoment,
  bannersFor,
  renderRules,
  heroCards: ({ small = false } = {}) =>
    (small ? ["orange", "joker", "+2"] : ["orange", "blue", "joker", "+2"]).map((c) => renderCard(c, { label: false })),
  scenes: () => import("./scenes.js").then((m) => m.loadScenes()), // the dev page (dev.html)
};
