// Rainbow as the shell sees it (docs/client.md, "Shell and table modules"): registered by
// the game's key (view.game) in ../index.js. Its words are in its own catalog
// (i18n/rainbow/<lang>.json, every key "rainbow.*"), its looks in css/games/rainbow.css.
import { t } from "../../i18n.js";
import { bannersFor, describeMoment } from "./events.js";
import { renderFace } from "./faces.js";
import { PRESETS, renderRules } from "./rules.js";
import { afterRender, animatePlay, renderTable, tableKeydown } from "./table.js";

const CATALOG = "rainbow";
const STYLES = "/css/games/rainbow.css";

export const rainbow = {
  key: "rainbow",
  catalog: CATALOG,
  styles: STYLES,
  name: () => t("rainbow.name"),
  about: () => t("rainbow.about"),
  presets: PRESETS,
  presetName: () => t("rainbow.name"), // one preset: the game itself
  // the seat comes back as soon as its player opens the table again (docs/protocol.md)
  leaveText: ({ link }) => t("rainbow.leaveConfirm", { link }),
  renderTable, // (model, act) -> nodes
  afterRender, // (root, {revealPlayable}) after the table is on screen
  tableKeydown, // (event, {view}, act)
  animatePlay, // (root, events, me)
  describeMoment, // (events, {room, me, view}) -> one line
  bannersFor, // (events, {room, me, view}) -> banner items
  renderRules, // (preset) -> nodes of the "How to play" page
  heroCards: ({ small = false } = {}) =>
    (small ? ["red", "yellow", "blue"] : ["red", "orange", "yellow", "green", "blue", "indigo", "violet"]).map((c) =>
      renderFace(c, { size: "md" }),
    ),
};
