// "How to play" for each Color Clash table, in short player language, from the catalogs
// (keys howto.*). Which paragraphs a table gets follows its rule options (spec section 4),
// so the five pages share their common parts and differ exactly where the rules do.
import { t } from "../../i18n.js";
import { h } from "../../ui.js";
import { renderCard } from "./cards.js";
import { valuesKey } from "./results.js";

export const PRESETS = ["classic-table", "standard", "family", "siege", "day-night"];

// The rule options of each preset that the pages explain (engine/presets.py).
const RULES = {
  standard: { deck: "standard", first: "actions", w4: "restricted", stack: "none", call: "manual", play: "on", score: "winner", length: "standard", clock: "draw" },
  family: { deck: "standard", first: "number", w4: "restricted", stack: "none", call: "auto", play: "on", score: "winner", length: "family", clock: "draw" },
  "classic-table": { deck: "classic-table", first: "number", w4: "free", stack: "classic", call: "none", play: "ends", score: "table", length: "one", clock: "bot", extra: "bomb" },
  siege: { deck: "siege", first: "number", w4: "free", stack: "ranked", call: "none", play: "ends", score: "table", length: "one", clock: "bot", extra: "shield" },
  "day-night": { deck: "day-night", first: "number", w4: "none", stack: "same", call: "none", play: "ends", score: "table", length: "one", clock: "bot", extra: "flip" },
};

const CARD_ROWS = {
  standard: [["R-skip", "skip"], ["B-reverse", "reverse"], ["Y+2", "plus2"], ["W", "wild"], ["W+4", "wild4"]],
  "classic-table": [["R-skip", "skip"], ["B-reverse", "reverse"], ["Y+2", "plus2"], ["W", "wild"], ["W+4", "wild4"], ["G-bomb", "bomb"]],
  siege: [["R-skip", "skip"], ["B-reverse", "reverse"], ["Y+2", "plus2"], ["W", "wild"], ["W+4", "wild4"], ["G-shield", "shield"]],
  "day-night": [
    ["R+1", "plus1"], ["B-skip", "skip"], ["Y-reverse", "reverse"], ["G-flip", "flip"], ["W", "wild"], ["W-clock", "clock"],
    ["R+5", "plus5"], ["B-skipall", "skipall"], ["W-hunt", "hunt"],
  ],
};

// L and C only where there is a call to make and to catch (standard); the other presets
// call for you (family) or not at all (the table presets)
export const keyHelp = (call) => (call === "manual" ? "table.keyHelp" : "table.keyHelpNoCall");

function section(id, title, ...body) {
  return h("section.howto-section", { "aria-labelledby": `howto-${id}` }, h("h2", { id: `howto-${id}` }, title), body);
}

const p = (key, vars) => h("p", t(key, vars));

function cardTable(r) {
  const rows = CARD_ROWS[r.deck];
  return h(
    "ul.howto-cards",
    rows.map(([card, what]) => {
      let key = `howto.card.${what}`;
      if (what === "wild4") key = r.w4 === "restricted" ? "howto.card.wild4Restricted" : "howto.card.wild4";
      return h("li", renderCard(card, { size: "face" }), h("span", h("strong", t(`howto.name.${what}`)), " ", t(key)));
    }),
  );
}

// The page body for one preset: [h1, intro, sections...]
export function renderRules(preset, { headingLevel = 1 } = {}) {
  const r = RULES[preset] || RULES["classic-table"];
  const title = t("howto.title", { table: t(`preset.${preset}`) });
  return [
    h(headingLevel === 1 ? "h1" : "h2", { id: "howto-title" }, title),
    h("p.lead.howto-lead", t(`howto.intro.${preset}`)),
    section("goal", t("howto.h.goal"), p("howto.goal"), p(`howto.length.${r.length}`)),
    section(
      "deal",
      t("howto.h.deal"),
      p("howto.colours"),
      p(r.deck === "day-night" ? "howto.deal.dayNight" : r.first === "actions" ? "howto.deal.actions" : "howto.deal.number"),
    ),
    section(
      "turn",
      t("howto.h.turn"),
      h("ul", h("li", t("howto.turn.match")), h("li", t("howto.turn.draw")), h("li", t(r.clock === "bot" ? "howto.turn.drawnTable" : "howto.turn.drawnStandard"))),
    ),
    section("cards", t("howto.h.cards"), r.deck === "day-night" ? p("howto.dayNight") : null, cardTable(r)),
    section("stack", t("howto.h.stack"), p(`howto.stack.${r.stack}`)),
    section("last", t("howto.h.last"), p(`howto.call.${r.call}`)),
    section(
      "end",
      t("howto.h.end"),
      p(r.play === "on" ? "howto.end.playOn" : "howto.end.now"),
      p(r.score === "table" ? "howto.score.table" : "howto.score.winner"),
      p(valuesKey(r.deck)),
    ),
    section("clock", t("howto.h.clock"), p(`howto.clock.${r.clock}`), p(r.length === "one" ? "howto.awayOne" : "howto.away")),
    section("keys", t("howto.h.keys"), p(keyHelp(r.call))),
  ];
}
