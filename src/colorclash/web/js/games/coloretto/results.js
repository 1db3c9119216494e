// Coloretto's results: places by points, and how each player's points were made (the
// three colours that scored plus, the others minus, where each joker went, the +2 cards),
// why the game ended, handed to the shell's results dialog (shell/results.js).
import { t } from "../../i18n.js";
import { gameOverActions, gameOverHeadline, rankRows, resultsDialog, resultsName } from "../../shell/results.js";
import { seatName } from "../../shell/seats.js";
import { h } from "../../ui.js";
import { cardLabel, COLOURS, JOKER, PLUS2, renderCard } from "./cards.js";

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

// One colour of a player's layout: its cards (jokers included), where jokers went, points.
function colourItem(layout, c, sign) {
  const counts = sign > 0 ? layout.positive || {} : layout.negative || {};
  const n = counts[c] || 0;
  const jokers = (layout.jokers || {})[c] || 0;
  const points = (layout.points || {})[c] || 0;
  const words = [t("coloretto.table.tile", { card: cardLabel(c), n })];
  if (jokers) words.push(t("coloretto.results.withJokers", { n: jokers }));
  words.push(t("coloretto.table.points", { n: points, signed: signed(points) }));
  return h(
    `li.ct-bd-item.${sign > 0 ? "plus" : "minus"}`,
    { dataset: { card: c, jokers: String(jokers) } },
    h(
      "span.ct-bd-cards",
      { "aria-hidden": "true" },
      renderCard(c, { size: "mini", tag: "span", label: false }),
      n - jokers ? h("span.ct-n", String(n - jokers)) : null,
      jokers ? [renderCard(JOKER, { size: "mini", tag: "span", label: false }), h("span.ct-n", String(jokers))] : null,
    ),
    h("span.ct-bd-points", { "aria-hidden": "true" }, signed(points)),
    h("span.sr-only", words.join(", ")),
  );
}

function breakdown(model, seat, layout) {
  const name = seatName(model.room, seat);
  const points = layout.points || {};
  const plus = COLOURS.filter((c) => c in (layout.positive || {})).sort((a, b) => (points[b] || 0) - (points[a] || 0));
  const minus = COLOURS.filter((c) => c in (layout.negative || {}));
  const items = [...plus.map((c) => colourItem(layout, c, 1)), ...minus.map((c) => colourItem(layout, c, -1))];
  if (layout.plus2) {
    const p = 2 * layout.plus2;
    items.push(
      h(
        "li.ct-bd-item.plus.plus2",
        { dataset: { card: PLUS2 } },
        h("span.ct-bd-cards", { "aria-hidden": "true" }, renderCard(PLUS2, { size: "mini", tag: "span", label: false }),
          h("span.ct-n", String(layout.plus2))),
        h("span.ct-bd-points", { "aria-hidden": "true" }, signed(p)),
        h("span.sr-only", `${t("coloretto.table.tile", { card: cardLabel(PLUS2), n: layout.plus2 })}, ${t("coloretto.table.points", { n: p, signed: signed(p) })}`),
      ),
    );
  }
  const id = `ct-bd-${seat}`;
  return h(
    "section.ct-bd",
    { "aria-labelledby": id, dataset: { seat: String(seat) } },
    h("h3", { id }, t("coloretto.results.playerTotal", { name, n: layout.total ?? 0 })),
    items.length ? h("ul.ct-bd-list", items) : h("p.ct-none", t("coloretto.table.noCards")),
  );
}

export function colorettoResults(model, act) {
  const { view } = model;
  const result = view.result || {};
  const scores = result.scores || view.scores || [];
  const winners = result.winners || [];
  const layouts = result.scoring || view.preview || [];
  const side = result.side || view.scoring_side || "brown";
  const n = view.seats || scores.length;
  const cards = (s) => ((view.collections || [])[s] || {}).cards ?? 0;
  const compare = (a, b) => {
    const wa = winners.includes(a.seat) ? 0 : 1;
    const wb = winners.includes(b.seat) ? 0 : 1;
    return wa - wb || (scores[b.seat] ?? 0) - (scores[a.seat] ?? 0);
  };
  const ranked = rankRows([...Array(n).keys()].map((seat) => ({ seat })), compare).map((r) => ({
    ...r,
    name: resultsName(model, r.seat),
    cells: [String(cards(r.seat)), String(scores[r.seat] ?? 0)],
    winner: winners.includes(r.seat),
    winnerText: t("results.winnerTag"),
  }));
  const headline = gameOverHeadline(winners, model);
  const { actions, status } = gameOverActions(model, act);

  return resultsDialog({
    phase: view.phase,
    cls: "ct-results",
    title: t("results.gameOver"),
    headline,
    placeLabel: t("results.place"),
    playerLabel: t("results.player"),
    columns: [{ label: t("coloretto.results.cards") }, { label: t("results.points") }],
    rows: ranked,
    details: h(
      "div.ct-breakdown",
      h("h3.ct-bd-title", t("coloretto.results.how")),
      ranked.map((r) => breakdown(model, r.seat, layouts[r.seat] || {})),
    ),
    note: [
      // why the game ended: the last-round card (in play, always), or a dry supply
      view.last_round ? t("coloretto.results.end.lastRound", { n: view.round }) : t("coloretto.results.end.supply"),
      t("coloretto.results.rule"),
      t("coloretto.results.values", { side: t(`coloretto.side.${side}`), values: (view.scoring_points || []).join(", ") }),
    ],
    status,
    actions,
    model,
  });
}
