// "How to play": a page per table (/?rules=PRESET) and the same text in a dialog over a
// running table (leaving the table's page would leave the seat). The game module writes
// the text (renderRules); the shell frames it.
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { dialogButton, modal } from "./dialog.js";

export function rulesDialog(game, preset, onClose) {
  return modal({
    title: t("howto.title", { table: game.presetName ? game.presetName(preset) : t(`preset.${preset}`) }),
    cls: "howto-dialog",
    overlayCls: "howto-overlay",
    content: [h("div.howto.howto-in-dialog", game.renderRules(preset, { headingLevel: 2 }).slice(1))],
    actions: [dialogButton(t("common.close"), onClose, { primary: true, focusKey: "rules:close", autofocus: true })],
    onClose,
  });
}

// The page: the other tables' pages, the text, a way home. go(path) navigates.
export function rulesPage(game, preset, go) {
  const link = (path, label) =>
    h("a", { href: path, onclick: (e) => { e.preventDefault(); go(path); } }, label);
  return [
    h(
      "div.page.howto-page",
      h(
        "nav.howto-nav",
        { "aria-label": t("howto.otherTables") },
        h(
          "ul",
          game.presets.map((p) =>
            h(
              "li",
              p === preset
                ? h("span.current", { "aria-current": "page" }, t(`preset.${p}`))
                : link(`/?rules=${p}`, t(`preset.${p}`)),
            ),
          ),
        ),
      ),
      h("article.panel.howto", game.renderRules(preset)),
      h(
        "div.row",
        { style: "margin-top:14px" },
        h("a.btn.primary.big", { href: "/", onclick: (e) => { e.preventDefault(); go("/"); } }, t("common.home")),
      ),
    ),
  ];
}
