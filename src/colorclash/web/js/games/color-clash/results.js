// Color Clash results: the places, the columns and how the points were counted, handed
// to the shell's results dialog (shell/results.js).
import { t } from "../../i18n.js";
import { dialogButton } from "../../shell/dialog.js";
import { gameOverActions, gameOverHeadline, rankRows, resultsDialog, resultsName } from "../../shell/results.js";
import { seatName } from "../../shell/seats.js";
import { h } from "../../ui.js";
import { isMatch } from "./events.js";

// Card values of a deck, in words (spec section 1 and 7): each deck names only its own
// cards (the Bomb is Classic Table's, the Shield Siege's).
const VALUES = {
  "day-night": "results.valuesDayNight",
  "classic-table": "results.valuesClassicTable",
  siege: "results.valuesSiege",
};
export function valuesKey(deck) {
  return VALUES[deck] || "results.valuesStandard";
}

function valuesNote(view) {
  return t(valuesKey(view.options && view.options.deck));
}

// How the points of the round were counted, with the numbers of this round.
function pointsNote(view, points, winners) {
  const o = view.options || {};
  const lines = [];
  const subs = Array.isArray(view.substitutes) ? view.substitutes : [];
  if (!winners.length) {
    lines.push(t("results.howNobody"));
  } else if (subs.includes(winners[0]) && points.every((p) => !p)) {
    lines.push(t("results.howSubstitute"));
  } else if (o.scoring === "table") {
    lines.push(t("results.howTable", { total: points[winners[0]] ?? 0 }), valuesNote(view));
  } else {
    lines.push(t("results.howWinner", { total: points[winners[0]] ?? 0 }), valuesNote(view));
  }
  // a seat its substitute played scores nothing (spec 9): its "–" and 0 said no reason
  if (subs.length && winners.length && !(subs.includes(winners[0]) && points.every((p) => !p))) {
    lines.push(t("results.howSubstituteScores"));
  }
  if (isMatch(view)) {
    if (o.rounds === 0) lines.push(t("results.howTarget", { n: o.target || 500 }));
    else lines.push(t("results.howRounds", { n: o.rounds }));
  }
  return lines;
}

export function colorClashResults(model, act) {
  const { view, room } = model;
  const over = view.phase === "game_over";
  const match = isMatch(view);
  const n = view.seats || (view.counts || []).length;
  const counts = view.counts || [];
  const totals = Array.isArray(view.scores) ? view.scores : [];
  const rounds = Array.isArray(view.round_scores) ? view.round_scores : [];
  const points = rounds.length ? rounds[rounds.length - 1] : [];
  const out = Array.isArray(view.out) ? view.out : [];
  // the round's winner: the first seat out (a dead round has none)
  const roundWinners = out.length ? out.slice(0, 1) : [];
  const winners = over && view.result ? view.result.winners || [] : roundWinners;
  const subs = Array.isArray(view.substitutes) ? view.substitutes : [];
  const o = view.options || {};
  const tableScoring = o.scoring === "table";
  const roundWinner = roundWinners[0];
  const scoredTable = tableScoring && roundWinner !== undefined && !(points || []).every((p) => !p);
  const handPoints = (s) => (scoredTable && !subs.includes(s) ? (points[roundWinner] ?? 0) - (points[s] ?? 0) : null);

  // places: winners first, then the points (this round's or the match's), then who went
  // out first (play on for places), then fewer cards left. Between the rounds of a match
  // the places are the standings, by the match's points so far (by this round's, the
  // leader of the match could stand second under "Place"), the round's winner tagged so.
  const outAt = (s) => (o.play_on && out.includes(s) ? out.indexOf(s) : out.length + 1);
  const rows = [...Array(n).keys()].map((seat) => ({ seat }));
  const standings = match && !over;
  const compare = (a, b) => {
    if (standings) {
      return (
        (totals[b.seat] ?? 0) - (totals[a.seat] ?? 0) ||
        (winners.includes(a.seat) ? 0 : 1) - (winners.includes(b.seat) ? 0 : 1) ||
        outAt(a.seat) - outAt(b.seat) ||
        (counts[a.seat] ?? 0) - (counts[b.seat] ?? 0)
      );
    }
    const wa = winners.includes(a.seat) ? 0 : 1;
    const wb = winners.includes(b.seat) ? 0 : 1;
    if (wa !== wb) return wa - wb;
    if (over && match) return (totals[b.seat] ?? 0) - (totals[a.seat] ?? 0);
    const score = over ? totals : points;
    return (
      (score[b.seat] ?? 0) - (score[a.seat] ?? 0) ||
      outAt(a.seat) - outAt(b.seat) ||
      (counts[a.seat] ?? 0) - (counts[b.seat] ?? 0)
    );
  };
  // the match's end: every round's points, in order ("20 · 0 · 45"), not the last one's
  // only (the earlier rounds' points could no longer be seen); up to 5 rounds, as a
  // first-to-500 match of many would not fit a phone's row
  const byRound = over && match && rounds.length > 1 && rounds.length <= 5;
  // (standings: equal points so far share a place, whatever their order on the rows)
  const tied = standings ? (a, b) => (totals[a.seat] ?? 0) === (totals[b.seat] ?? 0) : undefined;
  // between the rounds of a match played on for places, the round's finishing order in a
  // column of its own: the places are the match's standings, and three players who had
  // scored nothing yet all stood "2" after a round they had played out to its places
  // (a player review)
  const finished = standings && o.play_on && out.length >= 2;
  const finishedAt = (s) => (out.includes(s) ? String(out.indexOf(s) + 1) : "–");
  const ranked = rankRows(rows, compare, tied).map((r) => {
    const s = r.seat;
    const cells = [String(counts[s] ?? 0)];
    if (finished) cells.unshift(finishedAt(s));
    if (tableScoring) cells.push(handPoints(s) === null ? "–" : String(handPoints(s)));
    if (byRound) cells.push(h("span.round-points", rounds.map((round) => String(round[s] ?? 0)).join("\u2009·\u2009")));
    else if (match) cells.push(String(points[s] ?? 0));
    cells.push(String((match ? totals : over ? totals : points)[s] ?? 0));
    return {
      ...r,
      name: resultsName(model, s, (x) => subs.includes(x)),
      cells,
      winner: winners.includes(s),
      winnerText: t(standings ? "results.roundWinnerTag" : "results.winnerTag"),
    };
  });
  const columns = [{ label: t("results.cardsLeft") }];
  if (finished) columns.unshift({ label: t("results.finished") });
  if (tableScoring) columns.push({ label: t("results.handPoints") });
  if (byRound) columns.push({ label: t("results.eachRound") });
  else if (match) columns.push({ label: t("results.roundPoints") });
  columns.push({ label: match ? t("results.total") : t("results.points") });

  let headline;
  if (over) {
    headline = gameOverHeadline(winners, model);
  } else if (!winners.length) {
    headline = t("results.noWinner");
  } else if (winners[0] === model.me) {
    headline = t("results.youWonRound");
  } else {
    headline = t("results.roundWinner", { name: seatName(room, winners[0]) });
  }

  let actions = [];
  let status = null;
  if (over) {
    ({ actions, status } = gameOverActions(model, act));
  } else {
    const ready = model.nextReady;
    status = h("p.status-line", { dataset: { countdown: "results.nextIn" } }, "");
    actions.push(
      dialogButton(ready ? t("results.waitingOthers") : t("results.nextRound"), () => act.nextRound(), {
        primary: true,
        focusKey: "res:next",
        disabled: ready,
        pressed: ready,
      }),
    );
    // alone with computers: the pause waits a minute more at each press (it closed by
    // itself after a few seconds, whatever the time the player needed to read)
    if (model.canHold && !ready) {
      actions.push(dialogButton(t("results.hold"), () => act.holdRound(), { focusKey: "res:hold" }));
    }
  }
  let title;
  if (!over) title = t("results.roundOver", { n: view.round ?? 1 });
  else title = t(match ? "results.matchOver" : "results.gameOver");
  return resultsDialog({
    phase: view.phase,
    title,
    headline,
    placeLabel: t("results.place"),
    playerLabel: t("results.player"),
    columns,
    rows: ranked,
    note: pointsNote(view, points, roundWinners),
    status,
    actions,
    model,
  });
}
