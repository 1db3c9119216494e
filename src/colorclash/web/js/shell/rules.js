// "How to play": a page per game and preset (/?rules=PRESET, with &game=KEY for any game
// but the default) and the same text in a dialog over a running table (leaving the
// table's page would leave the seat). The game module writes the text (renderRules); the
// shell frames it.
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { dialogButton, modal } from "./dialog.js";
import { presetLabel } from "./games.js";

// The paragraph on a lost connection, with this site's numbers (GET /api/games' `away`:
// the seconds a seat waits, a turn's seconds for a player away); none while they have not
// come (the operator sets them: the page does not guess).
export function awayParagraph(key, away) {
  if (!away) return null;
  return h("p.howto-away", t(key, { grace: Math.round(away.grace), turn: Math.round(away.turn_clock) }));
}

export function rulesTitle(game, preset) {
  return t("howto.title", { table: presetLabel(game, preset) });
}

// clockRunning: it is your turn and its clock runs on while you read (the server plays
// the turn when it runs out: a practice player reading the rules lost a turn unwarned).
// def: the game's GET /api/games entry (its options' facts: a rule's numbers come from
// the engine, not from a copy in the client), null while it has not come.
// view: the table's (its own rule options, where the game words them); unavailable: the
// games' answer could not be had (the page says so rather than wait for it); away: the
// site's numbers for a lost connection (awayParagraph).
// Every game's page ends with how the site keeps the game fair, and what that makes
// public (a record anyone with the link may check; the names at the table): a privacy
// review found neither said anywhere a player looks.
function fairPlay() {
  return h(
    "section.howto-section",
    { "aria-labelledby": "howto-fair" },
    h("h2", { id: "howto-fair" }, t("howto.h.fair")),
    h("p", t("howto.fair")),
  );
}

export function rulesDialog(game, preset, onClose, { clockRunning = false, def = null, view = null, unavailable = false, away = null } = {}) {
  return modal({
    title: rulesTitle(game, preset),
    cls: "howto-dialog",
    overlayCls: "howto-overlay",
    content: [
      clockRunning ? h("p.howto-clock", { role: "status" }, t("howto.clockRunning")) : null,
      h("div.howto.howto-in-dialog", game.renderRules(preset, { headingLevel: 2, def, view, unavailable, away }).slice(1), fairPlay()),
    ],
    actions: [dialogButton(t("common.close"), onClose, { primary: true, focusKey: "rules:close", autofocus: true })],
    onClose,
  });
}

// The page: the game's other tables' pages (when it has several), the text, a way home.
// go(path) navigates; pathOf(preset) is the address of a preset's page; def and
// unavailable as above.
export function rulesPage(game, preset, go, pathOf = (p) => `/?rules=${p}`, { def = null, unavailable = false, away = null } = {}) {
  const link = (path, label) =>
    h("a", { href: path, onclick: (e) => { e.preventDefault(); go(path); } }, label);
  const presets = game.presets || [];
  return [
    h(
      "div.page.howto-page",
      presets.length > 1
        ? h(
            "nav.howto-nav",
            { "aria-label": t("howto.otherTables") },
            h(
              "ul",
              presets.map((p) =>
                h(
                  "li",
                  p === preset
                    ? h("span.current", { "aria-current": "page" }, presetLabel(game, p))
                    : link(pathOf(p), presetLabel(game, p)),
                ),
              ),
            ),
          )
        : null,
      h("article.panel.howto", { dataset: { game: game.key } }, game.renderRules(preset, { def, unavailable, away }), fairPlay()),
      h(
        "div.row",
        { style: "margin-top:14px" },
        h("a.btn.primary.big", { href: "/", onclick: (e) => { e.preventDefault(); go("/"); } }, t("common.home")),
      ),
    ),
  ];
}
