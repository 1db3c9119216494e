// Room (lobby): code, invite link, QR, seats with ready marks, host settings and Start.
import { t } from "./i18n.js";
import {
  choiceLabel,
  definitionOf,
  moduleOf,
  optionField,
  optionLabel,
  optionsOf,
  presetLabel,
  presetNames,
  settingsPatch,
  tableTitle,
} from "./shell/games.js";
import { absence, botIcon, computerLabel, seatName } from "./shell/seats.js";
import { h, initial } from "./ui.js";

// The room's game: its table module and its definition (GET /api/games).
function gameOfRoom(room, games) {
  return { game: moduleOf(room.game), def: definitionOf(games, room.game) };
}

export function roomTitle(room, games) {
  const { game, def } = gameOfRoom(room, games);
  return tableTitle(game, def, room.settings.preset);
}

function seatRow(room, seat, me, isHost, act) {
  const s = room.seats[seat];
  const mine = seat === me;
  const tags = [];
  if (mine) tags.push(h("span.tag.you", t("seat.youTag")));
  if (room.host === seat) tags.push(h("span.tag.host", t("room.host")));
  const away = absence(room, seat);
  if (away) tags.push(h("span.tag.away", t(away)));
  let status = null;
  if (s.kind === "human") {
    const ready = s.ready || room.host === seat;
    status = h(
      `span.ready-mark${ready ? ".yes" : ""}`,
      h("span", { "aria-hidden": "true" }, ready ? "✓" : "…"),
      ready ? t("room.ready") : t("room.notReady"),
    );
  } else if (s.kind === "bot") {
    status = h("span.ready-mark.yes", h("span", { "aria-hidden": "true" }, "✓"), t("room.ready"));
  }
  const controls = [];
  if (isHost && s.kind === "empty") {
    controls.push(
      h(
        "button.btn",
        {
          type: "button",
          dataset: { focusKey: `seat:${seat}:add-bot` },
          onclick: () => act.addBot(seat),
          "aria-label": t("room.addBotSeat", { n: seat + 1 }),
        },
        t("room.addBot"),
      ),
    );
  }
  if (isHost && s.kind === "bot") {
    controls.push(
      h(
        "button.btn.danger",
        {
          type: "button",
          dataset: { focusKey: `seat:${seat}:rm-bot` },
          onclick: () => act.removeBot(seat),
          "aria-label": t("room.removeBotSeat", { n: seat + 1 }),
        },
        t("room.removeBot"),
      ),
    );
  }
  if (isHost && s.kind === "human" && seat !== room.host && seat !== room.host_away) {
    // someone who took a seat and never came (or anyone who got the code) must not hold
    // the table: the host frees the seat; they may join again with the link (not the
    // host whose part passed while they were away: the server keeps their seat)
    controls.push(
      h(
        "button.btn.danger",
        {
          type: "button",
          dataset: { focusKey: `seat:${seat}:rm-player` },
          onclick: () => act.removePlayer(seat),
          "aria-label": t("room.removePlayerSeat", { name: seatName(room, seat), n: seat + 1 }),
        },
        t("room.removeBot"),
      ),
    );
  }
  const av = h(`div.avatar${s.kind === "bot" ? ".bot" : ""}`, { "aria-hidden": "true" });
  if (s.kind === "bot") av.append(botIcon());
  else if (s.kind === "human") av.append(h("span", initial(s.name)));
  return h(
    `li.seat-row${mine ? ".me" : ""}`,
    { dataset: { seat: String(seat), kind: s.kind } },
    av,
    h(
      "span.name",
      s.kind === "empty" ? h("span.empty", t("room.emptySeat", { n: seat + 1 })) : seatName(room, seat),
      s.kind === "bot" ? h("span.tag.bot", computerLabel(room, seat)) : null,
      tags,
    ),
    status,
    controls,
  );
}

function settingsForm(room, games, isHost, act) {
  const st = room.settings || {};
  const { game, def } = gameOfRoom(room, games);
  const options = optionsOf(def, st.preset);
  if (!isHost) {
    const items = [];
    if (presetNames(def).length > 1) items.push([t("room.preset"), presetLabel(game, st.preset)]);
    items.push([t("room.seats"), String(st.seats)]);
    for (const o of options) items.push([optionLabel(game, o.name), choiceLabel(game, o.name, st[o.name])]);
    return h("dl.settings-summary", items.map(([k, v]) => [h("dt", k), h("dd", v)]));
  }
  const maxSeats = room.max_seats ?? (def ? Math.min(def.seats.max, def.guest_max_seats || def.seats.max) : st.seats);
  // the game allows more than this room may hold (a guest's room: spec 9): say why
  const capped = def && maxSeats < def.seats.max;
  const minSeats = def ? def.seats.min : st.seats;
  const seatChoices = [];
  for (let n = minSeats; n <= Math.max(maxSeats, st.seats || 0); n += 1) seatChoices.push(n);
  const presets = presetNames(def);
  return h(
    "form.settings-form",
    { onsubmit: (e) => e.preventDefault() },
    h(
      "div.row",
      presets.length > 1
        ? h(
            "label.field",
            { for: "set-preset" },
            t("room.preset"),
            h(
              "select#set-preset",
              { dataset: { focusKey: "set:preset" }, onchange: (e) => act.settings({ preset: e.target.value }) },
              presets.map((p) => h("option", { value: p, selected: p === st.preset }, presetLabel(game, p))),
            ),
          )
        : null,
      // a game of one table size (Rainbow: two) has nothing to choose: said, not a menu
      // of one choice
      seatChoices.length > 1
        ? h(
            "label.field",
            { for: "set-seats" },
            t("room.seats"),
            h(
              "select#set-seats",
              { dataset: { focusKey: "set:seats" }, onchange: (e) => act.settings({ seats: Number(e.target.value) }) },
              // fewer seats than someone's seat number cannot be set (the last seats
              // must be empty: the server refuses it): not offered, greyed out
              seatChoices.map((n) => h("option", {
                value: String(n),
                selected: n === st.seats,
                disabled: n !== st.seats && (room.seats || []).slice(n).some((s) => s.kind !== "empty") || undefined,
              }, String(n))),
            ),
          )
        : h("div.field.field-fixed#set-seats-fixed", h("span", t("room.seats")), h("strong", String(st.seats))),
    ),
    capped ? h("p.muted.seats-cap", t("room.seatsCap", { n: maxSeats })) : null,
    h(
      "div.row",
      options.map((o) =>
        optionField(game, o, st[o.name], {
          id: `set-${o.name}`,
          focusKey: `set:${o.name}`,
          onChange: (v) => act.settings(settingsPatch(o.name, v)),
        }),
      ),
    ),
  );
}

export function renderRoom(ctx, act) {
  const { room, me, games, inviteUrl, qrUrl } = ctx;
  const isHost = room.host === me;
  const seats = room.seats || [];
  const empty = seats.filter((s) => s.kind === "empty").length;
  const notReady = seats.filter(
    (s, i) => s.kind === "human" && !s.ready && i !== room.host,
  ).length;
  const mine = seats[me] || {};
  let statusText;
  // the table could start now at fewer seats: the host is told so (two friends in a room
  // of the default four read "Waiting for 2 more players (or add computers)" and waited)
  const { def } = gameOfRoom(room, games);
  const taken = seats.length - empty;
  // (only when the empty seats are the last ones: the Seats menu takes away no taken
  // seat, and the hint named a number greyed out there, a middle seat freed by a leave)
  const lastEmpty = seats.slice(taken).every((s) => s.kind === "empty");
  if (empty && isHost && def && taken >= def.seats.min && lastEmpty) statusText = t("room.waitingSeatsFewer", { n: empty, m: taken });
  else if (empty) statusText = t(isHost ? "room.waitingSeats" : "room.waitingSeatsGuest", { n: empty });
  // a guest who has not said ready is the one waited for: "Waiting for 1 player" was them
  else if (!isHost && mine.kind === "human" && !mine.ready) statusText = t("room.waitingForYou");
  else if (notReady) statusText = t("room.waitingReady", { n: notReady });
  else statusText = isHost ? t("room.allReady") : t("room.waitHostStart");
  // a ready guest whose connection is gone: the host is told before starting (their first
  // turns would run out on their clock while they are away; a player review)
  const gone = seats.filter((s, i) => i !== me && absence(room, i) === "seat.away");
  if (isHost && !empty && !notReady && gone.length === 1) statusText = t("room.allReadyOneAway", { name: gone[0].name });
  else if (isHost && !empty && !notReady && gone.length) statusText = t("room.allReadyAway", { n: gone.length });
  // a host who closed the page: the server passes the part on after a while (COLORCLASH_HOST_GRACE)
  const host = room.host != null ? seats[room.host] : null;
  if (!isHost && host && host.kind === "human" && !host.connected) statusText = t("results.waitHostAway");

  const linkInput = h("input#invite-link", {
    type: "text",
    readOnly: true,
    value: inviteUrl,
    "aria-label": t("room.inviteLink"),
    dataset: { focusKey: "room:link" }, // drawn again (someone joins): still focused, selected
    onfocus: (e) => e.target.select(),
  });
  const start = isHost
    ? h(
        "button.btn.primary.big#btn-start",
        {
          type: "button",
          dataset: { focusKey: "room:start" },
          "aria-disabled": empty || notReady ? "true" : "false",
          "aria-describedby": "room-status",
          onclick: () => act.start(),
        },
        t("room.start"),
      )
    : h(
        "button.btn.primary.big#btn-ready",
        {
          type: "button",
          dataset: { focusKey: "room:ready" },
          "aria-pressed": mine.ready ? "true" : "false",
          onclick: () => act.ready(!mine.ready),
        },
        mine.ready ? t("room.imReady") : t("room.markReady"),
      );
  // What comes first on a phone: a host with seats to fill needs the code, the link and
  // the QR; a guest, or a host whose seats are all taken, needs the seats (the QR folds
  // away). Start / I'm ready is in the action bar, which stays at the foot of a phone's
  // screen whatever the length of the page (css: .room-action).
  const shareFirst = isHost && empty > 0;
  return [
    h(
      `div.page.room${shareFirst ? ".share-first" : ""}`,
      h(
        "section.panel.room-share",
        { "aria-labelledby": "room-title" },
        h(
          "div.room-head",
          h(
            "div",
            // the screen's heading takes the focus when it opens (a screen reader reads the
            // room from its title and code on; the focus on <main> read the whole lobby at
            // once: an accessibility review), and Tab goes on to the invite link
            h("h1#room-title", { tabindex: "-1", dataset: { initialFocus: "9" } }, t("room.title")),
            h("p.room-code#room-code", { "aria-label": t("room.codeSpelled", { code: room.code.split("").join(" ") }) }, room.code),
            h("p.muted.room-game", roomTitle(room, games)),
            h(
              "div.invite",
              linkInput,
              h(
                "button.btn#btn-copy",
                { type: "button", dataset: { focusKey: "room:copy" }, onclick: () => act.copy(inviteUrl) },
                t("room.copyLink"),
              ),
              // a phone's own sharing (to a chat, a message): one tap where copying and
              // pasting take four; only where the browser has it
              typeof navigator.share === "function"
                ? h(
                    "button.btn#btn-share",
                    { type: "button", dataset: { focusKey: "room:share" }, onclick: () => act.share(inviteUrl, room.code) },
                    t("room.share"),
                  )
                : null,
            ),
          ),
          h("img.qr", { src: qrUrl, alt: t("room.qrAlt"), width: "148", height: "148" }),
        ),
      ),
      h(
        "div.room-body",
        h(
          "section.panel.room-seats",
          { "aria-labelledby": "seats-title" },
          h("h2#seats-title", t("room.players", { n: seats.length - empty, total: seats.length })),
          h("ul.seats", seats.map((_, i) => seatRow(room, i, me, isHost, act))),
        ),
        h(
          "section.panel.room-settings",
          { "aria-labelledby": "settings-title" },
          h("h2#settings-title", t("room.settings")),
          settingsForm(room, games, isHost, act),
        ),
        h(
          "div.panel.room-action.start-area",
          start,
          h("p.status-line#room-status", { role: "status" }, statusText),
        ),
        h(
          "div.row.room-leave",
          h(
            "button.btn.ghost#btn-leave",
            { type: "button", dataset: { focusKey: "room:leave" }, onclick: () => act.leave() },
            t("room.leave"),
          ),
        ),
      ),
    ),
  ];
}

export function renderJoin(ctx, act) {
  const { room, code, name, error, busy, games } = ctx;
  const nameInput = h("input#join-name", {
    type: "text",
    value: name || "",
    maxlength: "20",
    autocomplete: "nickname",
    placeholder: t("home.defaultName"), // the name used when the field is left empty
    // the screen is drawn again when the games' list comes after the form: the name being
    // typed keeps the keyboard
    dataset: { focusKey: "join:name" },
    oninput: (e) => act.setName(e.target.value),
  });
  const full = room && room.seats.every((s) => s.kind !== "empty");
  const inLobby = room && room.status === "lobby" && !full;
  // what the room's state says; a refusal that says the same is not said twice
  let why = null;
  // (a Practice, Play Now or Quick Match table has no host to ask for the next game)
  const own = room && room.kind && room.kind !== "private" ? "Own" : "";
  if (room && room.status !== "lobby") why = t(`${room.status === "finished" ? "join.over" : "join.started"}${own}`);
  else if (room && full) why = t("error.room_full");
  return [
    h(
      "div.page.join",
      h(
        "section.panel",
        { "aria-labelledby": "join-title", style: "max-width:520px;margin:0 auto" },
        h("h1#join-title", t("join.title")),
        h("p.room-code", code),
        room ? h("p.muted.room-game", roomTitle(room, games)) : null,
        error && error !== why ? h("p.error-msg", { role: "alert" }, error) : null,
        why ? h("p.error-msg", { role: "alert" }, why) : null,
        room && inLobby
          ? h(
              "form",
              {
                onsubmit: (e) => {
                  e.preventDefault();
                  act.join();
                },
              },
              h("p", t("room.players", {
                n: room.seats.filter((s) => s.kind !== "empty").length,
                total: room.seats.length,
              })),
              h(
                "ul.join-seats",
                room.seats
                  .filter((s) => s.kind !== "empty")
                  .map((s) =>
                    h(
                      "li",
                      seatName(room, s.seat),
                      s.kind === "bot" ? h("span.tag.bot", computerLabel(room, s.seat)) : null,
                      room.host === s.seat ? h("span.tag.host", t("room.host")) : null,
                    ),
                  ),
              ),
              h("label.field", { for: "join-name" }, t("home.yourName"), nameInput),
              h("button.btn.primary.big#btn-join-room", { type: "submit", disabled: busy ? true : undefined }, t("join.takeSeat")),
            )
          : null,
        h(
          "div.row",
          { style: "margin-top:12px" },
          h("a.btn", { href: "/", onclick: (e) => { e.preventDefault(); act.home(); } }, t("common.home")),
        ),
      ),
    ),
  ];
}
