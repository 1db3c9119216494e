// "How to play" for each Color Clash table, in short player language, from the catalogs
// (keys howto.*). Which paragraphs a table gets follows its rule options (spec section 4),
// so the five pages share their common parts and differ exactly where the rules do.
import { t } from "../../i18n.js";
import { awayParagraph } from "../../shell/rules.js";
import { h } from "../../ui.js";
import { renderCard } from "./cards.js";
import { valuesKey } from "./results.js";

export const PRESETS = ["classic-table", "standard", "family", "siege", "day-night"];

// The rule options the page words, from the engine's (engine/presets.py): a table's own
// (its view's `options`) or the preset's (its `rules` in GET /api/games). The client keeps
// no copy of a preset; null while neither has come.
function rulesOf(preset, def, view) {
  const own = view && view.preset === preset && view.options;
  const listed = def && def.presets && def.presets[preset] && def.presets[preset].rules;
  if (!own && !listed) return null;
  const o = { ...listed, ...own };
  const matches = o.match_choices || [];
  return {
    deck: o.deck,
    first: o.first_card,
    w4: o.wild4_restricted ? "restricted" : "free",
    stack: o.stacking,
    call: o.call,
    play: o.play_on ? "on" : "ends",
    score: o.scoring,
    // one round only; a match to 500 offered; else a match of rounds (family)
    length: matches.length <= 1 ? "one" : matches.includes("500") ? "standard" : "family",
    // this table plays one round (a Standard table's default): a substitute plays to its
    // end, and the away paragraph promised "until the next round" (a rules review)
    oneRound: matches.length <= 1 || (own && o.rounds === 1),
    clock: o.timeout_policy,
    // over a running table of several rounds or points: its own length (the page said
    // "one round by default" over a table of three: stop review)
    thisMatch: own && matches.length > 1 ? { rounds: o.rounds, target: o.target } : null,
  };
}

// the penalty cards that a stack of this table can answer (their line says "draws and
// loses their turn"; on these tables it waits for an answer first: see Penalties)
const ANSWERED = { classic: ["plus2"], ranked: ["plus2", "wild4"], same: ["plus1", "plus5"] };

// (rounds 0: a match to `target` points, as the engine's options say it)
function thisMatchLine({ rounds, target }) {
  const length = rounds === 0 ? t("room.firstTo", { n: target }) : t("room.rounds", { n: rounds });
  return p("howto.length.thisTable", { length });
}

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
      // Skip is a day card in Day & Night (the night has Skip Everyone), as the others marked so
      const name = what === "skip" && r.deck === "day-night" ? "howto.name.skipDay" : `howto.name.${what}`;
      const answered = (ANSWERED[r.stack] || []).includes(what) ? ` ${t("howto.card.answered")}` : "";
      return h("li", renderCard(card, { size: "face" }), h("span", h("strong", t(name)), " ", t(key) + answered));
    }),
  );
}

// The page body for one preset: [h1, intro, sections...]; def: the game's GET /api/games
// entry, view: the table's (the dialog over a table)
export function renderRules(preset, { headingLevel = 1, def = null, view = null, unavailable = false, away = null } = {}) {
  const r = rulesOf(preset, def, view);
  const title = t("howto.title", { table: t(`preset.${preset}`) });
  const head = [
    h(headingLevel === 1 ? "h1" : "h2", { id: "howto-title" }, title),
    h("p.lead.howto-lead", t(`howto.intro.${preset}`)),
  ];
  // (the page is drawn again when the games' answer comes; it may not: said so)
  if (!r) {
    return [
      ...head,
      unavailable
        ? h("p.howto-unavailable", { role: "alert" }, t("error.network"))
        : h("div.spinner", { role: "status", "aria-label": t("common.loading") }),
    ];
  }
  return [
    ...head,
    section("goal", t("howto.h.goal"), p("howto.goal"), p(`howto.length.${r.length}`), r.thisMatch && thisMatchLine(r.thisMatch)),
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
      p("howto.end.dead"),
    ),
    section("clock", t("howto.h.clock"), p(`howto.clock.${r.clock}`), awayParagraph(r.oneRound ? "howto.awayOne" : "howto.away", away)),
    section("keys", t("howto.h.keys"), p(keyHelp(r.call))),
  ];
}
