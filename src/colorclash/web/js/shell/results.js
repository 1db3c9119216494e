// The results screen of any game: a dialog with a headline, a table of players in the
// order of their places (shared places for ties), a note that says how the points were
// counted, and equal buttons. The game module decides the order, the columns and the note.
import { h } from "../ui.js";
import { modal } from "./dialog.js";

// Order `rows` by `compare` (negative: a before b) and number the places; rows that
// compare equal share a place (1, 1, 3).
export function rankRows(rows, compare) {
  const sorted = [...rows].sort((a, b) => compare(a, b) || a.seat - b.seat);
  let place = 0;
  return sorted.map((row, i) => {
    if (i === 0 || compare(sorted[i - 1], row) !== 0) place = i + 1;
    return { ...row, place };
  });
}

// resultsDialog({phase, title, headline, placeLabel, playerLabel, columns, rows, note,
//                status, actions})
//   columns: [{label}] after the player's name; rows: ranked rows, each
//   {place, name: [nodes], cells: [text or nodes], winner, winnerText}; details: nodes
//   after the table (how each player's points were made), note: lines of text.
export function resultsDialog({ phase, title, headline, placeLabel, playerLabel, columns, rows, note = [],
  details = null, status = null, actions = [], cls = "" }) {
  const table = h(
    "table.results-table",
    h(
      "thead",
      h(
        "tr",
        h("th.num.place", { scope: "col" }, placeLabel),
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
      details,
      note.length ? h("div.results-note", note.map((line) => h("p", line))) : null,
      status,
    ],
    actions,
  });
}
