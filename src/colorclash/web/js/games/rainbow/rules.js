// "How to play" Rainbow, in short player language, from the game's catalog (keys
// rainbow.howto.*): the goal, the nine colours and their symbols, who sees what, a turn,
// the check at its end, the end of the game, playing on this site, time and keys.
import { t } from "../../i18n.js";
import { awayParagraph } from "../../shell/rules.js";
import { h } from "../../ui.js";
import { COLORS, colorName, renderFace, shapeName } from "./faces.js";

export const PRESETS = ["standard"];

function rulesTitle() {
  return t("howto.title", { table: t("rainbow.name") });
}

function section(id, title, ...body) {
  return h(
    "section.howto-section",
    { "aria-labelledby": `rb-howto-${id}` },
    h("h2", { id: `rb-howto-${id}` }, title),
    body,
  );
}

const p = (key, vars) => h("p", t(key, vars));
const li = (key, vars) => h("li", t(key, vars));

function colourList() {
  return h(
    "ul.howto-cards.rb-howto-colours",
    COLORS.map((c) =>
      h(
        "li",
        renderFace(c, { size: "sm" }),
        h("span", h("strong", colorName(c)), ` (${shapeName(c)})`, c === "white" || c === "black" ? ` ${t(`rainbow.howto.role.${c}`)}` : ""),
      ),
    ),
  );
}

// The page body: [h1, intro, sections...] (the dialog drops the h1: its title says it).
export function renderRules(preset, { headingLevel = 1, away = null } = {}) {
  return [
    h(headingLevel === 1 ? "h1" : "h2", { id: "howto-title" }, rulesTitle(preset)),
    h("p.lead.howto-lead", t("rainbow.howto.intro")),
    section("goal", t("howto.h.goal"), p("rainbow.howto.goal")),
    section("cards", t("rainbow.howto.h.cards"), p("rainbow.howto.cards"), colourList()),
    section("see", t("rainbow.howto.h.see"), p("rainbow.howto.see"), p("rainbow.howto.underneath")),
    section(
      "turn",
      t("howto.h.turn"),
      h("ol", li("rainbow.howto.turn.first"), li("rainbow.howto.turn.more"), li("rainbow.howto.turn.end")),
    ),
    section(
      "check",
      t("rainbow.howto.h.check"),
      p("rainbow.howto.check"),
      h("ul", li("rainbow.howto.check.shadow"), li("rainbow.howto.check.error"), li("rainbow.howto.check.rainbow")),
      p("rainbow.howto.check.after"),
    ),
    section("end", t("rainbow.howto.h.end"), p("rainbow.howto.end"), p("rainbow.howto.end.score")),
    // (the time a seat waits, and coming back: the other games' pages said it, this one
    // did not: a rules review)
    section("site", t("rainbow.howto.h.site"), p("rainbow.howto.site"), p("rainbow.howto.clock"), awayParagraph("rainbow.howto.away", away)),
    section("keys", t("howto.h.keys"), p("rainbow.keyHelp")),
  ];
}
