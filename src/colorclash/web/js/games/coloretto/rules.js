// "How to play" Coloretto, in short player language, from the game's catalog
// (coloretto.howto.*): the goal, the cards (each colour with its shape), the start, a turn,
// the round, the end and the points (both sides of the scoring card), time, keys.
import { t } from "../../i18n.js";
import { awayParagraph } from "../../shell/rules.js";
import { h } from "../../ui.js";
import { cardLabel, COLOURS, JOKER, LAST, PLUS2, renderCard } from "./cards.js";

export const PRESETS = ["standard"];

function section(id, title, ...body) {
  return h("section.howto-section", { "aria-labelledby": `howto-${id}` }, h("h2", { id: `howto-${id}` }, title), body);
}

const p = (key, vars) => h("p", t(key, vars));

function cardList() {
  const item = (card, text) => h("li", renderCard(card, { size: "howto" }), h("span", text));
  return h(
    "ul.howto-cards.ct-howto-cards",
    COLOURS.map((c) => item(c, cardLabel(c))),
    item(JOKER, [h("strong", cardLabel(JOKER)), " ", t("coloretto.howto.joker")]),
    item(PLUS2, [h("strong", cardLabel(PLUS2)), " ", t("coloretto.howto.plus2")]),
    item(LAST, [h("strong", cardLabel(LAST)), " ", t("coloretto.howto.lastCard")]),
  );
}

// The points of a scoring side, from the scoring option's facts in the game's GET
// /api/games entry (the engine's numbers: the client keeps no copy of the rule); null when
// the entry or the side is unknown.
export function sidePoints(option, side) {
  const fact = option && option.facts && option.facts[side];
  return fact && Array.isArray(fact.points) ? fact.points : null;
}

function scoringOption(def) {
  const options = (def && def.presets && def.presets[PRESETS[0]] && def.presets[PRESETS[0]].options) || [];
  return options.find((o) => o.name === "scoring") || null;
}

// The two sides' points, a row each; over a table whose game's entry has not come, its
// own side's (the view's); nothing else until it comes (the page is drawn again then).
export function scoringTable(def, view = null) {
  const option = scoringOption(def);
  let sides = ((option && option.choices) || []).map((side) => [side, sidePoints(option, side)]).filter(([, v]) => v);
  if (!sides.length && view && Array.isArray(view.scoring_points)) sides = [[view.scoring_side, view.scoring_points]];
  if (!sides.length) return null;
  const counts = ["1", "2", "3", "4", "5", "6+"];
  return h(
    "div.results-scroll",
    h(
      "table.ct-scoring-table",
      h("caption", t("coloretto.howto.tableCaption")),
      h(
        "thead",
        h("tr", h("th", { scope: "col" }, t("coloretto.howto.cards")), counts.map((c) => h("th.num", { scope: "col" }, c))),
      ),
      h(
        "tbody",
        sides.map(([side, values]) =>
          h(
            `tr.side-${side}`,
            h("th", { scope: "row" }, t(`coloretto.side.${side}`)),
            values.map((v) => h("td.num", String(v))),
          ),
        ),
      ),
    ),
  );
}

// The page body: [h1, intro, sections...]
// def: the game's GET /api/games entry (the scoring table's numbers)
export function renderRules(preset, { headingLevel = 1, def = null, view = null, away = null } = {}) {
  return [
    h(headingLevel === 1 ? "h1" : "h2", { id: "howto-title" }, t("howto.title", { table: t("coloretto.name") })),
    h("p.lead.howto-lead", t("coloretto.howto.intro")),
    section("goal", t("howto.h.goal"), p("coloretto.howto.goal")),
    section("cards", t("coloretto.howto.h.cards"), p("coloretto.howto.colours"), cardList()),
    section("start", t("coloretto.howto.h.start"), p("coloretto.howto.rows"), p("coloretto.howto.start"), p("coloretto.howto.two")),
    section(
      "turn",
      t("howto.h.turn"),
      h("ul", h("li", t("coloretto.howto.turn.draw")), h("li", t("coloretto.howto.turn.take")), h("li", t("coloretto.howto.turn.full"))),
    ),
    section("round", t("coloretto.howto.h.round"), p("coloretto.howto.round"), p("coloretto.howto.alone")),
    section(
      "end",
      t("coloretto.howto.h.end"),
      p("coloretto.howto.end"),
      p("coloretto.howto.count"),
      scoringTable(def, view),
      p("coloretto.howto.best"),
      p("coloretto.howto.example"),
      p("coloretto.howto.win"),
    ),
    section("clock", t("howto.h.clock"), p("howto.clock.bot"), awayParagraph("coloretto.howto.away", away)),
    // (the table's own line names its last row, "1 to 4"; away from a table there is no
    // count to give: it read "1 to {n}")
    section("keys", t("howto.h.keys"), p("coloretto.howto.keys")),
  ];
}
