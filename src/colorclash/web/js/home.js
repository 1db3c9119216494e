// Home: Play Now, Practice, Quick Match, Create private room, Join by code.
import { t } from "./i18n.js";
import { h } from "./ui.js";

export function presetOptions(presets, selected) {
  const names = presets && presets.presets ? presets.presets.map((p) => p.name) : ["classic-table"];
  return names.map((name) =>
    h("option", { value: name, selected: name === selected }, t(`preset.${name}`)),
  );
}

export function renderHome(ctx, act) {
  const { presets, name, busy, error, codeError, rulesLinks = [], hero = [] } = ctx;
  const def = (presets && presets.default) || "classic-table";
  const levels = (presets && presets.bot_levels) || ["random", "easy", "medium", "hard"];

  const nameInput = h("input#player-name", {
    type: "text",
    value: name || "",
    maxlength: "20",
    autocomplete: "nickname",
    "aria-describedby": "name-help",
    dataset: { focusKey: "home:name" },
    oninput: (e) => act.setName(e.target.value),
  });

  const bots = h(
    "select#practice-bots",
    { dataset: { focusKey: "home:bots" } },
    [1, 2, 3, 4, 5].map((n) => h("option", { value: String(n), selected: n === 3 }, String(n))),
  );
  const level = h(
    "select#practice-level",
    { dataset: { focusKey: "home:level" } },
    levels.map((l) => h("option", { value: l, selected: l === "easy" }, t(`level.${l}`))),
  );
  const practicePreset = h("select#practice-preset", presetOptions(presets, def));
  const roomPreset = h("select#room-preset", presetOptions(presets, def));
  const quickPreset = h("select#quick-preset", presetOptions(presets, def));
  // No browser validation (its messages speak the browser's language): the app checks
  // the code and says what is wrong under the field, in the site's language.
  const code = h("input#join-code.code-input", {
    type: "text",
    maxlength: "6",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    inputmode: "text",
    placeholder: "ABCDEF",
    "aria-invalid": codeError ? "true" : undefined,
    "aria-describedby": codeError ? "join-code-error" : undefined,
    dataset: { focusKey: "home:code" },
    oninput: () => act.codeInput(),
  });

  const disabled = busy ? true : undefined;

  return [
    h(
      "div.page.home",
      h(
        "div.hero",
        h("div.hero-cards", { "aria-hidden": "true" }, hero),
        h("div", h("h1", t("app.name")), h("p.lead", t("home.tagline"))),
      ),
      error ? h("p.error-msg", { role: "alert" }, error) : null,
      h(
        "div.panel",
        { style: "margin-bottom:14px" },
        h(
          "label.field",
          { for: "player-name" },
          t("home.yourName"),
          nameInput,
        ),
        h("p.muted", { id: "name-help", style: "margin:0" }, t("home.nameHelp")),
      ),
      h(
        "div.grid.home-actions",
        h(
          "section.panel",
          { "aria-labelledby": "h-playnow" },
          h("h2", { id: "h-playnow" }, t("home.playNow")),
          h("p.muted", t("home.playNowHelp")),
          h(
            "button.btn.primary.big#btn-play-now",
            { type: "button", disabled, onclick: () => act.playNow() },
            t("home.playNow"),
          ),
        ),
        h(
          "section.panel",
          { "aria-labelledby": "h-practice" },
          h("h2", { id: "h-practice" }, t("home.practice")),
          h(
            "div.row",
            h("label.field", { for: "practice-bots" }, t("home.computerPlayers"), bots),
            h("label.field", { for: "practice-level" }, t("home.level"), level),
          ),
          h("label.field", { for: "practice-preset" }, t("home.table"), practicePreset),
          h(
            "button.btn.big#btn-practice",
            {
              type: "button",
              disabled,
              onclick: () =>
                act.practice({
                  bots: Number(bots.value),
                  level: level.value,
                  preset: practicePreset.value,
                }),
            },
            t("home.startPractice"),
          ),
        ),
        h(
          "section.panel",
          { "aria-labelledby": "h-quick" },
          h("h2", { id: "h-quick" }, t("home.quickMatch")),
          h("p.muted", t("home.quickHelp")),
          h("label.field", { for: "quick-preset" }, t("home.table"), quickPreset),
          h(
            "button.btn.big#btn-quick",
            { type: "button", disabled, onclick: () => act.quickMatch(quickPreset.value) },
            t("home.findPlayers"),
          ),
        ),
        h(
          "section.panel",
          { "aria-labelledby": "h-private" },
          h("h2", { id: "h-private" }, t("home.privateRoom")),
          h("p.muted", t("home.privateHelp")),
          h("label.field", { for: "room-preset" }, t("home.table"), roomPreset),
          h(
            "button.btn.big#btn-create",
            { type: "button", disabled, onclick: () => act.createRoom({ preset: roomPreset.value }) },
            t("home.createRoom"),
          ),
        ),
        h(
          "section.panel",
          { "aria-labelledby": "h-join" },
          h("h2", { id: "h-join" }, t("home.joinByCode")),
          h(
            "form",
            {
              novalidate: true,
              onsubmit: (e) => {
                e.preventDefault();
                act.joinCode(code.value);
              },
            },
            h("label.field", { for: "join-code" }, t("home.roomCode"), code),
            codeError ? h("p.field-error#join-code-error", { role: "alert" }, codeError) : null,
            h("button.btn.big#btn-join", { type: "submit", disabled }, t("home.join")),
          ),
        ),
      ),
      rulesLinks.length
        ? h(
            "section.panel.rules-links",
            { "aria-labelledby": "h-rules" },
            h("h2", { id: "h-rules" }, t("howto.home")),
            h("p.muted", t("howto.homeHelp")),
            h(
              "ul",
              rulesLinks.map((p) =>
                h(
                  "li",
                  h(
                    "a.btn",
                    {
                      href: `/?rules=${p}`,
                      dataset: { focusKey: `rules:${p}` },
                      onclick: (e) => {
                        e.preventDefault();
                        act.rules(p);
                      },
                    },
                    t(`preset.${p}`),
                  ),
                ),
              ),
            ),
          )
        : null,
      h("p.pledge", t("home.pledge")),
    ),
  ];
}

export function queueDialog({ waiting, name }, act) {
  return h(
    "div.overlay",
    { style: "position:fixed" },
    h(
      "div.dialog.queue-box",
      { role: "dialog", "aria-modal": "true", "aria-labelledby": "q-title" },
      h("h2", { id: "q-title" }, t("quick.title")),
      h("div.spinner", { "aria-hidden": "true" }),
      name ? h("p", t("quick.yourName", { name })) : null,
      h("p", { role: "status" }, t("quick.waiting", { n: waiting ?? 1 })),
      h(
        "button.btn#btn-quick-cancel",
        { type: "button", dataset: { focusKey: "quick:cancel" }, onclick: () => act.cancelQuick() },
        t("common.cancel"),
      ),
    ),
  );
}
