// Rainbow's results, handed to the shell's results dialog (shell/results.js): the players
// by the cards in their scoring piles, a draw when the piles are equal (both share the
// first place), how each won its rounds (its own Rainbows, the other's Shadows and
// Errors), and a note that says why the game ended and how it was won.
import { t } from "../../i18n.js";
import { h } from "../../ui.js";
import { gameOverActions, gameOverHeadline, rankRows, resultsDialog, resultsName } from "../../shell/results.js";

export function rainbowResults(model, act) {
  const { view } = model;
  const n = view.seats || 2;
  const result = view.result || {};
  const piles = Array.isArray(result.scores) ? result.scores : Array.isArray(view.scores) ? view.scores : [];
  const winners = Array.isArray(result.winners) ? result.winners : [];
  const draw = !!result.draw;
  const rows = [...Array(n).keys()].map((seat) => ({ seat }));
  const ranked = rankRows(rows, (a, b) => (piles[b.seat] ?? 0) - (piles[a.seat] ?? 0)).map((r) => ({
    ...r,
    name: resultsName(model, r.seat),
    cells: [String(piles[r.seat] ?? 0), roundsWon(view.rounds_won?.[r.seat])],
    winner: winners.includes(r.seat) && !draw,
    winnerText: t("results.winnerTag"),
  }));

  // no draw: one winner
  const headline = draw ? t("rainbow.results.draw", { n: piles[0] ?? 0 }) : gameOverHeadline(winners, model);

  const left = (Array.isArray(view.table) ? view.table : []).filter((c) => c !== null).length;
  const note = [t("rainbow.results.deckOut"), t("rainbow.results.how"), t("rainbow.results.roundsHow")];
  if (left) note.push(t("rainbow.results.leftOnTable", { n: left }));

  const { actions, status } = gameOverActions(model, act);
  return resultsDialog({
    phase: view.phase,
    title: t("results.gameOver"),
    headline,
    placeLabel: t("results.place"),
    playerLabel: t("results.player"),
    columns: [{ label: t("rainbow.results.cards") }, { label: t("rainbow.results.rounds") }],
    rows: ranked,
    note,
    status,
    actions,
    model,
  });
}

// "1 Rainbow · 3 by Shadow": the ways a seat won its rounds (its own Rainbows, the
// other's Shadows and Errors), the ones it never won by left out ("0": no round at all).
// Each way is kept on one line: a narrow cell breaks between them, not inside one
// ("1 by / Error").
function roundsWon(won) {
  const parts = ["rainbow", "shadow", "error"]
    .filter((kind) => (won?.[kind] ?? 0) > 0)
    .map((kind) => h("span.rb-won", t(`rainbow.results.by.${kind}`, { n: won[kind] })));
  return parts.length ? parts.flatMap((part, i) => (i ? [" · ", part] : [part])) : "0";
}
