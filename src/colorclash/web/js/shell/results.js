// The results screen of any game: a dialog with a headline, a table of players in the
// order of their places (shared places for ties), a note that says how the points were
// counted, and equal buttons. The game module decides the order, the columns and the note.
import { getLang, t } from "../i18n.js";
import { h } from "../ui.js";
import { dialogButton, modal } from "./dialog.js";
import { isComputer, seatName } from "./seats.js";

// A player's name in the results, tagged: you, a computer player, a substitute (by the
// room's seats, unless the game says who was played for: `substituted(seat)`). A lone
// computer is named "Computer" already: its tag said it twice, "Computer [Computer]".
export function resultsName(model, seat, substituted = null) {
  const { room } = model;
  const s = room && room.seats ? room.seats[seat] : null;
  const name = seatName(room, seat);
  const bot = isComputer(room, seat);
  const sub = substituted ? substituted(seat) : !!(s && s.substitute);
  // gone Home after the end (the seat is free, its name kept as `former`): said, or the
  // host pressed Play again for a table that had lost a player
  const left = !!(s && s.kind === "empty" && s.former);
  return [
    name,
    seat === model.me ? h("span.tag.you", t("seat.youTag")) : null,
    left ? h("span.tag.away", t("seat.left")) : null,
    // (numbered: "Computer 2" is tagged on a wide screen; a phone leaves the tag out, as
    // its name says it and six rows of two lines did not fit above the buttons)
    bot && name !== t("seat.computerLabel") ? h("span.tag.bot.numbered", t("seat.computerLabel")) : null,
    sub && !bot ? h("span.tag.bot", t("seat.substitute")) : null,
  ];
}

// The headline of a finished game: nobody won, you won (or share the win), or who won.
// A seat a computer substitute played to the end (its player left) won for that substitute
// (as on Board Game Arena: the headline says so, not just the small tag): "You win!" to
// someone who walked out, "Hana wins" to the one who stayed, read sour.
export function gameOverHeadline(winners, model) {
  if (!winners.length) return t("results.noWinner");
  const seats = (model.room && model.room.seats) || [];
  const substituted = (s) => !!(seats[s] && seats[s].substitute && seats[s].kind !== "bot");
  if (winners.length === 1 && winners[0] === model.me && substituted(model.me)) return t("results.youWinSubstitute");
  if (winners.includes(model.me)) return t(winners.length > 1 ? "results.youShare" : "results.youWin");
  const names = winners.map((s) => seatName(model.room, s));
  if (names.length === 1 && substituted(winners[0])) return t("results.winnerSubstitute", { name: names[0] });
  if (names.length === 1) return t("results.winner", { name: names[0] });
  // a tie: "Ana and Bo share the win", the list in the page's language
  const list = new Intl.ListFormat(getLang(), { type: "conjunction" }).format(names);
  return t("results.winners", { names: list });
}

// What a finished game's results offer: the host may play again (or, in a private room,
// go back to the room), everyone may go home; the others are told that the host
// decides. A Quick Match table has no host: each
// player may look for new players. Returns {actions, status}.
export function gameOverActions(model, act) {
  const { room } = model;
  const actions = [];
  let status = null;
  if (room && room.host === model.me) {
    actions.push(dialogButton(t("results.playAgain"), () => act.playAgain(), { primary: true, focusKey: "res:again" }));
    // a private room's host may go back to the room first: another game, other rules,
    // a seat for one more friend (Play again deals the same table at once)
    if (room.kind === "private" && act.backToRoom) {
      actions.push(dialogButton(t("results.backToRoom"), () => act.backToRoom(), { focusKey: "res:room" }));
    }
  } else if (room && room.host == null && act.findPlayers) {
    actions.push(dialogButton(t("results.findPlayers"), () => act.findPlayers(), { primary: true, focusKey: "res:again" }));
  } else {
    // a host who closed the window: the server passes the part on after a while
    const host = room && room.host != null ? room.seats[room.host] : null;
    // (named: a host who changed at the results was still "the host" to the others)
    status = h("p.status-line", host && !host.connected ? t("results.waitHostAway")
      : host ? t("results.waitHost", { name: seatName(room, room.host) })
        : t("results.waitHostUnnamed"));
  }
  actions.push(dialogButton(t("common.home"), () => act.home(), { focusKey: "res:home" }));
  // the final table and the last moves behind the results (also Escape)
  if (act.hideResults) actions.push(dialogButton(t("results.seeTable"), () => act.hideResults(), { focusKey: "res:table" }));
  return { actions, status };
}

// Order `rows` by `compare` (negative: a before b) and number the places; rows that
// compare equal (or that `tied` says are) share a place (1, 1, 3).
export function rankRows(rows, compare, tied = (a, b) => compare(a, b) === 0) {
  const sorted = [...rows].sort((a, b) => compare(a, b) || a.seat - b.seat);
  let place = 0;
  return sorted.map((row, i) => {
    if (i === 0 || !tied(sorted[i - 1], row)) place = i + 1;
    return { ...row, place };
  });
}

// A finished match's fairness record, a download away, and the log hash its table showed,
// which ties the record to the game played (`colorclash verify --log-hash`): How to play
// promised a record anyone could download, and the page offered none nor showed the hash
// (a fairness review). Folded: a player who does not look for it is not shown a hash.
export function fairPlay(model) {
  const room = model && model.room;
  if (!room || room.status !== "finished" || !model.logHash || !room.code || !room.match) return null;
  const href = `/api/rooms/${encodeURIComponent(room.code)}/record/${room.match}`;
  return h(
    "details.fair-play",
    h("summary", t("howto.h.fair")),
    h("p", t("results.fairText")),
    h("p", h("a", { href, download: `record-${room.code}-${room.match}.json` }, t("results.fairRecord"))),
    h("p", t("results.fairHash"), " ", h("code.log-hash", model.logHash)),
  );
}

// resultsDialog({phase, title, headline, placeLabel, playerLabel, columns, rows, note,
//                status, actions, model}): `model`, the table's, for the fairness record
//                of a finished match (fairPlay)
//   columns: [{label}] after the player's name; rows: ranked rows, each
//   {place, name: [nodes], cells: [text or nodes], winner, winnerText}; details: nodes
//   after the table (how each player's points were made), note: lines of text.
export function resultsDialog({ phase, title, headline, placeLabel, playerLabel, columns, rows, note = [],
  details = null, status = null, actions = [], cls = "", model = null }) {
  const table = h(
    "table.results-table",
    h(
      "thead",
      h(
        "tr",
        // "#" on the screen (a word like "Place" widened the table past a phone),
        // the word itself for screen readers and as a tooltip
        h("th.num.place", { scope: "col", title: placeLabel }, h("span", { "aria-hidden": "true" }, "#"),
          h("span.sr-only", placeLabel)),
        h("th", { scope: "col" }, playerLabel),
        columns.map((c) => h("th.num", { scope: "col" }, c.label)),
      ),
    ),
    h(
      "tbody",
      rows.map((r) =>
        h(
          `tr${r.winner ? ".winner" : ""}`,
          h("td.num.place", String(r.place)),
          h("th.player", { scope: "row" }, r.name, r.winner ? h("span.sr-only", ` (${r.winnerText})`) : null),
          r.cells.map((c) => h("td.num", c instanceof Node || Array.isArray(c) ? c : String(c))),
        ),
      ),
    ),
  );
  return modal({
    title,
    cls: cls ? `results.${cls}` : "results",
    overlayCls: "results-overlay",
    dataset: { phase },
    describedBy: "results-headline",
    content: [
      h("p.results-headline#results-headline", headline),
      h("div.results-scroll", table),
      // the status (the next round's countdown, "waiting for the host") right under the
      // table: a long note pushed it out of a phone's view, and the round moved on without
      // warning; so did Coloretto's long "how the points were made", and a guest saw only
      // Home, not that the host may start another game
      status,
      details,
      note.length ? h("div.results-note", note.map((line) => h("p", line))) : null,
      fairPlay(model),
    ],
    actions,
  });
}
