// Home: the game picker (every game of GET /api/games that this client can draw), then for
// the chosen game Play Now, Practice, Quick Match (queue dialog) and Create private room,
// with the choices of the game's definition; Join by code; How to play links.
import { t } from "./i18n.js";
import {
  definitionOf,
  moduleOf,
  optionField,
  optionsOf,
  playableGames,
  presetLabel,
  presetNames,
} from "./shell/games.js";
import { animalName, levelName } from "./shell/seats.js";
import { h } from "./ui.js";

// The home form of one game, filled with its defaults (the app keeps one per game).
export function homeForm(def) {
  const preset = def.default_preset;
  const max = def.seats.max - 1;
  return {
    bots: Math.max(1, Math.min(max, (def.seats.default || 2) - 1)),
    level: def.default_level || def.bot_levels[0],
    practicePreset: preset,
    practiceOptions: {},
    quickPreset: preset,
    roomPreset: preset,
    roomOptions: {},
  };
}

// A menu of the game's presets (none for a game of one).
function presetSelect(game, def, id, value, onChange) {
  const names = presetNames(def);
  if (names.length < 2) return null; // nothing to choose
  return h(
    "label.field",
    { for: id },
    t("home.table"),
    h(
      `select#${id}`,
      { dataset: { focusKey: `home:${id}` }, onchange: (e) => onChange(e.target.value) },
      names.map((p) => h("option", { value: p, selected: p === value }, presetLabel(game, p))),
    ),
  );
}

function gamePicker(ctx, act) {
  const games = playableGames(ctx.games);
  if (games.length < 2) return null;
  const chosen = games.find((def) => def.key === ctx.game);
  return h(
    "section.panel.game-picker",
    { "aria-labelledby": "h-games" },
    h("h2", { id: "h-games" }, t("home.chooseGame")),
    h(
      "div.game-choices",
      { role: "radiogroup", "aria-labelledby": "h-games" },
      games.map((def) => {
        const game = moduleOf(def.key);
        const chosen = def.key === ctx.game;
        const id = `game-${def.key}`;
        return h(
          `label.game-choice${chosen ? ".chosen" : ""}`,
          { for: id, dataset: { game: def.key } },
          h(`input#${id}`, {
            type: "radio",
            name: "game",
            value: def.key,
            checked: chosen,
            "aria-describedby": `${id}-about`,
            dataset: { focusKey: `home:${id}` },
            onchange: () => act.chooseGame(def.key),
          }),
          h("span.game-art", { "aria-hidden": "true" }, game.heroCards({ small: true })),
          h(
            "span.game-text",
            h("span.game-name", game.name()),
            h("span.game-seats", { "aria-hidden": "true" }, seatsText(def)),
            // each game's description stays its radio's, for screen readers; the eye
            // reads the chosen one's under the cards (small cards: Play Now in view)
            h("span.game-about.sr-only", { id: `${id}-about` }, game.about(), " ", seatsText(def)),
          ),
        );
      }),
    ),
    chosen
      ? h(
          "p.game-chosen-about",
          h("span", { "aria-hidden": "true" }, moduleOf(chosen.key).about()),
          " ",
          // the rules where a newcomer chooses the game (the "How to play" panel is under
          // every panel, 1,600 px down a desktop's page: player review)
          // ("How to play" to the eye, after the game's words; its name to the ear)
          rulesLink(act, chosen.default_preset, t("howto.home"), "rules:picker", "a.rules-link", {
            "aria-label": t("home.howToPlay", { game: moduleOf(chosen.key).name() }),
          }),
        )
      : null,
  );
}

function rulesLink(act, preset, label, focusKey, tag = "a.rules-link", attrs = {}) {
  return h(
    tag,
    {
      ...attrs,
      href: act.rulesPath(preset),
      dataset: { focusKey },
      onclick: (e) => {
        e.preventDefault();
        act.rules(preset);
      },
    },
    label,
  );
}

function seatsText(def) {
  return def.seats.min === def.seats.max
    ? t("home.seatsExact", { n: def.seats.min })
    : t("home.seatsRange", { min: def.seats.min, max: def.seats.max });
}

// A room made here seats fewer than its game may (the site's limit for rooms opened
// without a host key): said before the room is made, where the game picker said "2–6
// players" and the lobby then stopped at 4.
function privateSeatsText(def) {
  const most = def && def.guest_max_seats;
  return most && most < def.seats.max ? ` ${t("room.seatsCap", { n: most })}` : null;
}

// When a Quick Match table starts. A game whose Quick Match table is its smallest (Rainbow:
// two players) never starts one with fewer after a wait.
function quickSeatsText(def) {
  const n = def.quick_match_seats;
  return t(n <= def.seats.min ? "home.quickSeatsFull" : "home.quickSeats", { n });
}

export function renderHome(ctx, act) {
  const { name, busy, error, codeError, codeDraft, form } = ctx;
  const def = definitionOf(ctx.games, ctx.game);
  const game = def ? moduleOf(def.key) : null;

  const nameInput = h("input#player-name", {
    type: "text",
    value: name || "",
    maxlength: "20",
    autocomplete: "nickname",
    "aria-describedby": "name-help",
    placeholder: t("home.defaultName"), // the name used when the field is left empty
    dataset: { focusKey: "home:name" },
    oninput: (e) => act.setName(e.target.value),
  });
  // No browser validation (its messages speak the browser's language): the app checks
  // the code and says what is wrong under the field, in the site's language.
  const code = h("input#join-code.code-input", {
    type: "text",
    value: codeDraft || "",
    // (room for more than six: a pasted " ABCDEF" or invite link is cut to its code on
    // Join, not to its first six characters)
    maxlength: "200",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    inputmode: "text",
    placeholder: "ABCDEF",
    "aria-invalid": codeError ? "true" : undefined,
    "aria-describedby": codeError ? "join-code-error" : undefined,
    dataset: { focusKey: "home:code" },
    oninput: (e) => act.codeInput(e.target.value),
  });
  const disabled = busy ? true : undefined;

  const joinPanel = h(
    "section.panel",
    { "aria-labelledby": "h-join" },
    h("h2", { id: "h-join" }, t("home.joinByCode")),
    h(
      "form",
      {
        novalidate: true,
        onsubmit: (e) => {
          e.preventDefault();
          // (the field on the page: a redraw may have kept the old one, not `code`)
          act.joinCode(e.currentTarget.querySelector("#join-code").value);
        },
      },
      h("label.field", { for: "join-code" }, t("home.roomCode"), code),
      codeError ? h("p.field-error#join-code-error", { role: "alert" }, codeError) : null,
      h("button.btn.big#btn-join", { type: "submit", disabled }, t("home.join")),
    ),
  );

  let panels = [];
  let rules = null;
  if (def && form) {
    const levels = def.bot_levels || [];
    const botChoices = [];
    for (let n = Math.max(1, def.seats.min - 1); n < def.seats.max; n += 1) botChoices.push(n);
    // (the match length too: a learner could not practise a match of several rounds)
    const practiceOptions = optionsOf(def, form.practicePreset);
    const roomOptions = optionsOf(def, form.roomPreset);
    // (the server's table, GET /api/games; three where an older process left it out,
    // as in a rolling upgrade: "NaN computer players" else)
    const playNowBots = (def.play_now_seats || Math.min(3, def.seats.max)) - 1;
    panels = [
      h(
        "section.panel",
        { "aria-labelledby": "h-playnow" },
        h("h3", { id: "h-playnow" }, t("home.playNow")),
        h("p.muted", t("home.playNowHelp", { table: presetLabel(game, def.default_preset), n: playNowBots })),
        h(
          "button.btn.primary.big#btn-play-now",
          { type: "button", disabled, onclick: () => act.playNow() },
          t("home.playNow"),
        ),
      ),
      h(
        "section.panel",
        { "aria-labelledby": "h-practice" },
        h("h3", { id: "h-practice" }, t("home.practice")),
        h(
          "div.row",
          h(
            "label.field",
            { for: "practice-bots" },
            t("home.computerPlayers"),
            // a duel has one opponent: said, not offered as a choice of one
            botChoices.length === 1
              ? h("output#practice-bots.field-value", String(botChoices[0]))
              : h(
                  "select#practice-bots",
                  { dataset: { focusKey: "home:bots" }, onchange: (e) => act.form({ bots: Number(e.target.value) }) },
                  botChoices.map((n) => h("option", { value: String(n), selected: n === form.bots }, String(n))),
                ),
          ),
          h(
            "label.field",
            { for: "practice-level" },
            t("home.level"),
            h(
              "select#practice-level",
              { dataset: { focusKey: "home:level" }, onchange: (e) => act.form({ level: e.target.value }) },
              levels.map((l) => h("option", { value: l, selected: l === form.level }, levelName(def.key, l) ?? l)),
            ),
          ),
        ),
        presetSelect(game, def, "practice-preset", form.practicePreset, (p) =>
          act.form({ practicePreset: p, practiceOptions: {} }),
        ),
        h(
          "div.row",
          practiceOptions.map((o) =>
            optionField(game, o, form.practiceOptions[o.name], {
              id: `practice-opt-${o.name}`,
              onChange: (v) => act.form({ practiceOptions: { ...form.practiceOptions, [o.name]: v } }),
            }),
          ),
        ),
        h(
          "button.btn.big#btn-practice",
          { type: "button", disabled, onclick: () => act.practice() },
          t("home.startPractice"),
        ),
      ),
      h(
        "section.panel",
        { "aria-labelledby": "h-quick" },
        h("h3", { id: "h-quick" }, t("home.quickMatch")),
        h("p.muted", t("home.quickHelp"), " ", quickSeatsText(def)),
        presetSelect(game, def, "quick-preset", form.quickPreset, (p) => act.form({ quickPreset: p })),
        h(
          "button.btn.big#btn-quick",
          { type: "button", disabled, onclick: () => act.quickMatch() },
          t("home.findPlayers"),
        ),
      ),
      h(
        "section.panel",
        { "aria-labelledby": "h-private" },
        h("h3", { id: "h-private" }, t("home.privateRoom")),
        h("p.muted", t("home.privateHelp"), privateSeatsText(def)),
        presetSelect(game, def, "room-preset", form.roomPreset, (p) => act.form({ roomPreset: p, roomOptions: {} })),
        h(
          "div.row",
          roomOptions.map((o) =>
            optionField(game, o, form.roomOptions[o.name], {
              id: `room-opt-${o.name}`,
              onChange: (v) => act.form({ roomOptions: { ...form.roomOptions, [o.name]: v } }),
            }),
          ),
        ),
        h(
          "button.btn.big#btn-create",
          { type: "button", disabled, onclick: () => act.createRoom() },
          t("home.createRoom"),
        ),
      ),
    ];
    const presets = game.presets || [];
    rules = presets.length
      ? h(
          "section.panel.rules-links",
          { "aria-labelledby": "h-rules" },
          h("h2", { id: "h-rules" }, t("howto.home")),
          h("p.muted", t("howto.homeHelp", { game: game.name() })),
          h(
            "ul",
            presets.map((p) =>
              h(
                "li",
                rulesLink(act, p, presetLabel(game, p), `rules:${p}`, "a.btn"),
              ),
            ),
          ),
        )
      : null;
  }

  return [
    h(
      "div.page.home",
      h(
        "div.hero",
        h("div.hero-cards", { "aria-hidden": "true" }, game ? game.heroCards() : []),
        h("div", h("h1", t("app.name")), h("p.lead", t("home.tagline"))),
      ),
      error ? h("p.error-msg", { role: "alert" }, error) : null,
      resumePanel(ctx.resume, act),
      h(
        "div.panel.name-panel",
        h("label.field", { for: "player-name" }, t("home.yourName"), nameInput),
        h("p.muted", { id: "name-help", style: "margin:0" }, t("home.nameHelp")),
      ),
      gamePicker(ctx, act),
      def
        ? h(
            "section.home-game",
            { "aria-labelledby": "h-play-game" },
            h("h2.home-game-title", { id: "h-play-game" }, t("home.playGame", { game: game.name() })),
            h("div.grid.home-actions", panels, joinPanel),
          )
        : [h("p.muted", { role: "status" }, t("common.loading")), h("div.grid.home-actions", joinPanel)],
      rules,
      h("p.pledge", t("home.pledge")),
    ),
  ];
}

// A table this browser still holds a seat at (left by the browser's Back): the way back.
function resumePanel(resume, act) {
  if (!resume || !resume.length) return null;
  const entry = (r, i) => {
    const playing = r.status === "playing";
    const game = r.game ? moduleOf(r.game) : null;
    // (left: when the seat comes back is the game's to say: Color Clash's at the next
    // round, not as soon as the table is open again)
    const text = r.left
      ? (game && game.resumeLeftText ? game.resumeLeftText(r.code) : t("home.resumeLeft", { code: r.code }))
      : t(playing ? "home.resumePlaying" : "home.resumeLobby", { code: r.code });
    return h(
      "li.resume-entry",
      h("p", text),
      h(
        `a.btn${i === 0 ? ".primary#btn-resume" : ""}`,
        { href: `/r/${r.code}`, dataset: { focusKey: `home:resume:${r.code}`, code: r.code },
          onclick: (ev) => { ev.preventDefault(); act.resume(r.code); } },
        t(playing ? "home.resumeTable" : "home.resumeRoom"),
      ),
    );
  };
  return h("div.panel.resume", { role: "status" }, h("ul.resume-list", resume.map(entry)));
}

// long: waited a while (app.js): matching can take time; the computer is offered instead.
export function queueDialog({ waiting, name, long = false, title = "" }, act) {
  return h(
    "div.overlay",
    { style: "position:fixed" },
    h(
      "div.dialog.queue-box",
      {
        role: "dialog",
        "aria-modal": "true",
        tabindex: "-1", // a click on its text keeps the focus in it (shell/dialog.js)
        "aria-labelledby": "q-title",
        // Escape cancels, as in every other dialog of the site
        onkeydown: (ev) => {
          if (ev.key === "Escape") {
            ev.preventDefault();
            act.cancelQuick();
          }
        },
      },
      h("h2", { id: "q-title" }, t("quick.title")),
      // the table waited for (it said only "Quick Match": a player review)
      title ? h("p.queue-table", title) : null,
      h("div.spinner", { "aria-hidden": "true" }),
      // no table yet: the name is the one you will play under ("At this table" read oddly)
      name ? h("p", t("quick.yourNameQueue", { name: animalName(name) })) : null,
      // the count is of people, you among them: "1 person waiting" read as someone else there
      h("p", { role: "status" }, (waiting ?? 1) > 1 ? t("quick.waitingOthers", { n: waiting - 1 }) : t("quick.waitingAlone")),
      long ? h("p.queue-slow", { role: "status" }, t("quick.slow")) : null,
      long
        ? h(
          "button.btn.primary.big#btn-quick-computer",
          { type: "button", dataset: { focusKey: "quick:computer" }, onclick: () => act.playComputerInstead() },
          t("quick.playComputer"),
        )
        : null,
      h(
        "button.btn#btn-quick-cancel",
        { type: "button", dataset: { focusKey: "quick:cancel" }, onclick: () => act.cancelQuick() },
        t("common.cancel"),
      ),
    ),
  );
}
