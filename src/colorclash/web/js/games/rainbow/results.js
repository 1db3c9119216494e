// Rainbow's results, handed to the shell's results dialog (shell/results.js): the players
// by the cards in their scoring piles, a draw when the piles are equal (both share the
// first place), and a note that says why the game ended and how it was won.
import { t } from "../../i18n.js";
import { dialogButton } from "../../shell/dialog.js";
import { rankRows, resultsDialog } from "../../shell/results.js";
import { isComputer, seatName } from "../../shell/seats.js";
import { h } from "../../ui.js";

function nameCell(model, seat) {
  const { room } = model;
  const s = room && room.seats ? room.seats[seat] : null;
  return [
    seatName(room, seat),
    seat === model.me ? h("span.tag.you", t("seat.youTag")) : null,
    isComputer(room, seat) ? h("span.tag.bot", t("seat.computerLabel")) : null,
    s && s.substitute && !isComputer(room, seat) ? h("span.tag.bot", t("seat.substitute")) : null,
  ];
}

export function rainbowResults(model, act) {
  const { view, room } = model;
  const n = view.seats || 2;
  const result = view.result || {};
  const piles = Array.isArray(result.scores) ? result.scores : Array.isArray(view.scores) ? view.scores : [];
  const winners = Array.isArray(result.winners) ? result.winners : [];
  const draw = !!result.draw;
  const rows = [...Array(n).keys()].map((seat) => ({ seat }));
  const ranked = rankRows(rows, (a, b) => (piles[b.seat] ?? 0) - (piles[a.seat] ?? 0)).map((r) => ({
    ...r,
    name: nameCell(model, r.seat),
    cells: [String(piles[r.seat] ?? 0)],
    winner: winners.includes(r.seat) && !draw,
    winnerText: t("results.winnerTag"),
  }));

  let headline;
  if (draw) headline = t("rainbow.results.draw", { n: piles[0] ?? 0 });
  else if (winners.includes(model.me)) headline = t("results.youWin");
  else headline = t("results.winner", { name: winners.map((s) => seatName(room, s)).join(", ") });

  const left = (Array.isArray(view.table) ? view.table : []).filter((c) => c !== null).length;
  const note = [t("rainbow.results.deckOut"), t("rainbow.results.how")];
  if (left) note.push(t("rainbow.results.leftOnTable", { n: left }));

  const actions = [];
  let status = null;
  if (room && room.host === model.me) {
    actions.push(dialogButton(t("results.playAgain"), () => act.playAgain(), { primary: true, focusKey: "res:again" }));
  } else {
    status = h("p.status-line", t("results.waitHost"));
  }
  actions.push(dialogButton(t("common.home"), () => act.home(), { focusKey: "res:home" }));
  return resultsDialog({
    phase: view.phase,
    title: t("results.gameOver"),
    headline,
    placeLabel: t("results.place"),
    playerLabel: t("results.player"),
    columns: [{ label: t("rainbow.results.cards") }],
    rows: ranked,
    note,
    status,
    actions,
  });
}
