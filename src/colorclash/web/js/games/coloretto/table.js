// The Coloretto table, built from the engine's view(seat) only (docs/coloretto.md). The
// client never decides a rule: what can be drawn, taken or filled comes from view.legal,
// and every control sends an engine action. The shell gives seats, clocks, banners,
// dialogs, the results frame, the move history and focus; this module draws the players
// (score now, row taken, cards by colour), the supply with its last-round marker, the
// drawn card, the rows and their free places, and your own cards.
import { t } from "../../i18n.js";
import { initialTarget } from "../../shell/focus.js";
import { keyDoesNothing } from "../../shell/notices.js";
import { absence, avatar, awayBadge, myAvatar, computerLabel, isComputer, seatName } from "../../shell/seats.js";
import { announce, h, reducedMotion, tip } from "../../ui.js";
import { cardLabel, cardsLabel, COLOURS, JOKER, PLUS2, renderBack, renderCard, renderSlot, shapeSvg } from "./cards.js";
import { colorettoResults } from "./results.js";

// Why a press did nothing, to the ear (announce) and to the eye (a bubble beside it).
function refuse(anchor, why) {
  announce(why);
  tip(anchor, why);
}

const legalOf = (view) => (Array.isArray(view.legal) ? view.legal : []);
const canDraw = (view) => legalOf(view).some((a) => a.type === "draw");
const canTake = (view) => legalOf(view).some((a) => a.type === "take");
const rowAction = (view, i) => legalOf(view).find((a) => (a.type === "take" || a.type === "place") && a.row === i) || null;
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
const takenRow = (view, seat) => (view.rows || []).findIndex((r) => r.taken_by === seat);

// ---------- collections: cards grouped by colour, jokers, +2 ----------

// Each kind a player holds, with what it scores in the player's best layout now.
function collectionItems(view, seat) {
  const col = (view.collections || [])[seat] || { colours: {}, jokers: 0, plus2: 0, cards: 0 };
  const best = (view.result && view.result.scoring ? view.result.scoring : view.preview || [])[seat] || {};
  const points = best.points || {};
  const positive = best.positive || {};
  const items = [];
  for (const c of COLOURS) {
    const n = (col.colours || {})[c] || 0;
    if (!n) continue;
    // the jokers the best layout puts in this colour are in its points: said with them
    const jokers = (best.jokers || {})[c] || 0;
    items.push({ card: c, n, jokers, points: points[c], plus: c in positive });
  }
  if (col.jokers) items.push({ card: JOKER, n: col.jokers });
  if (col.plus2) items.push({ card: PLUS2, n: col.plus2, points: 2 * col.plus2, plus: true });
  return items;
}

function tileText(item) {
  const jokers = item.points === undefined ? 0 : item.jokers || 0;
  const what = t("coloretto.table.tile", { card: cardLabel(item.card), n: item.n + jokers });
  if (item.card === JOKER) return `${what}, ${t("coloretto.table.jokerLater")}`;
  if (item.points === undefined) return what;
  // "Pink: 5 cards, 1 of them a joker, +15 points", as the results say it: the count
  // and the points are of the same cards
  const withJokers = jokers ? `, ${t("coloretto.results.withJokers", { n: jokers })}` : "";
  return `${what}${withJokers}, ${t("coloretto.table.points", { n: item.points, signed: signed(item.points) })}`;
}

function collection(view, seat, { label, size = "mini" }) {
  const items = collectionItems(view, seat);
  if (!items.length) return h("p.ct-none", t("coloretto.table.noCards"));
  return h(
    `ul.ct-tiles.${size}`,
    { "aria-label": label },
    items.map((it) =>
      h(
        `li.ct-tile${it.card !== JOKER ? (it.plus ? ".plus" : ".minus") : ".joker"}`,
        { dataset: { card: it.card }, title: tileText(it) },
        renderCard(it.card, { size, tag: "span", label: false }),
        h("span.ct-n", { "aria-hidden": "true" }, String(it.n)),
        h("span.sr-only", tileText(it)),
      ),
    ),
  );
}

// ---------- the players ----------

// "Score now" while the game runs, "Final score" once it is over (the bar kept saying
// "Score now" beside "Game over")
function scoreText(view, n) {
  return t(view.phase === "game_over" ? "coloretto.table.scoreFinal" : "coloretto.table.scoreNow", { n });
}

function playerSummary(model, seat) {
  const { view, room } = model;
  const parts = [seatName(room, seat)];
  if (isComputer(room, seat)) parts.push(computerLabel(room, seat));
  parts.push(scoreText(view, (view.scores || [])[seat] ?? 0));
  const row = takenRow(view, seat);
  if (row >= 0) parts.push(t("coloretto.table.tookRow", { n: row + 1 }));
  if (view.turn === seat) parts.push(t("table.theirTurn"));
  const s = room && room.seats ? room.seats[seat] : null;
  const away = absence(room, seat);
  if (away) parts.push(t(away));
  if (s && s.substitute) parts.push(t("seat.substitute"));
  return parts.join(", ");
}

function badges(model, seat) {
  const { view, room } = model;
  const out = [];
  const row = takenRow(view, seat);
  if (row >= 0) out.push(h("span.badge.ct-took", t("coloretto.table.tookBadge", { n: row + 1 })));
  const s = room && room.seats ? room.seats[seat] : null;
  const away = awayBadge(room, seat);
  if (away) out.push(away);
  if (s && s.substitute) out.push(h("span.tag.bot", t("seat.substitute")));
  return out;
}

function playerChip(model, seat) {
  const { view, room } = model;
  const isTurn = view.turn === seat;
  const took = takenRow(view, seat) >= 0;
  const name = seatName(room, seat);
  return h(
    `li.ct-player${isTurn ? ".turn" : ""}${took ? ".took" : ""}`,
    { dataset: { seat: String(seat), clockOwner: "" } },
    h(
      "div.ct-player-head",
      avatar(room, seat),
      h("span.ct-name", { "aria-hidden": "true" }, name),
      // the number says what it is (a newcomer took it for cards held): "42 pts"
      h(
        "span.ct-score",
        { "aria-hidden": "true", title: scoreText(view, (view.scores || [])[seat] ?? 0) },
        String((view.scores || [])[seat] ?? 0),
        h("span.ct-score-unit", t("coloretto.table.pointsUnit", { n: (view.scores || [])[seat] ?? 0 })),
      ),
      h("span.sr-only", playerSummary(model, seat)),
      isTurn ? h("span.sr-only.clock-sr") : null,
    ),
    h("div.ct-player-line", { "aria-hidden": "true" }, badges(model, seat)),
    collection(view, seat, { label: t("coloretto.table.theirCards", { name }) }),
  );
}

// ---------- the middle: supply, drawn card, rows ----------

function statusChips(view) {
  const chips = [h("span.chip.ct-round", t("coloretto.table.round", { n: view.round || 1 }))];
  if (view.last_round) {
    chips.push(h("span.chip.ct-last.now", { role: "status" }, shapeSvg("last-round", "chip-icon"), t("coloretto.table.lastRound")));
  } else if (view.cards_above_last_round !== null && view.cards_above_last_round !== undefined) {
    chips.push(
      h(
        "span.chip.ct-last",
        shapeSvg("last-round", "chip-icon"),
        // (the cards still above the last-round card; at none left, "Last round after 0
        // more cards" read as if it came later: the next card drawn is it)
        h(
          "span.ct-last-long",
          view.cards_above_last_round === 0
            ? t("coloretto.table.lastRoundNext")
            : t("coloretto.table.lastRoundIn", { n: view.cards_above_last_round }),
        ),
      ),
    );
  }
  chips.push(sideChip(view.scoring_side, view.scoring_points || []));
  const removed = view.removed_colours || [];
  if (removed.length) {
    chips.push(
      h(
        "span.chip.ct-removed",
        h("span", { "aria-hidden": "true" }, t("coloretto.table.notInGame")),
        removed.map((c) => renderCard(c, { size: "mini", tag: "span", label: false })),
        h("span.sr-only", t("coloretto.say.removed", { colours: removed.map(cardLabel).join(", ") })),
      ),
    );
  }
  return h("div.ct-status", chips);
}

function supply(model, act) {
  const { view } = model;
  const can = canDraw(view);
  const n = view.supply ?? 0;
  const label = can ? t("coloretto.table.drawLabel", { n }) : t("coloretto.table.supply", { n });
  return h(
    `button.ct-supply${can ? ".can" : ""}`,
    {
      type: "button",
      "aria-label": label,
      "aria-disabled": can ? "false" : "true",
      dataset: { focusKey: "pile:draw", ...(can ? { initialFocus: "4" } : {}) },
      onclick: (ev) => {
        if (can) act.action({ type: "draw" });
        else refuse(ev.currentTarget, whyNotDraw(model));
      },
    },
    renderBack({ size: "pile" }),
    h("span.ct-supply-n", { "aria-hidden": "true" }, String(n)),
  );
}

function whyNotDraw(model) {
  const { view } = model;
  if (view.turn !== model.me || !legalOf(view).length) return t("table.notYourTurn");
  if (view.phase === "place") return t("coloretto.table.placeIt");
  return t("coloretto.table.mustTake");
}

function drawnCard(model) {
  const { view } = model;
  if (!view.drawn) return null;
  const card = renderCard(view.drawn, { size: "drawn" });
  // "Choose a row for it" only to whoever places it: during a computer's turn it told a
  // screen reader's user to act when they could not
  const mine = view.turn === model.me && legalOf(view).some((a) => a.type === "place");
  const label = mine
    ? t("coloretto.table.drawnLabel", { card: cardLabel(view.drawn) })
    : t("coloretto.table.placing", { name: seatName(model.room, view.turn), card: cardLabel(view.drawn) });
  card.setAttribute("aria-label", label);
  if (model.fresh && model.ui && model.ui.drawnChanged) {
    // put in fresh (ui.js morph), so that its drop animation runs
    card.classList.add("enter");
    card.dataset.morph = "replace";
  }
  return h("div.ct-drawn", card, h("span.ct-drawn-label", { "aria-hidden": "true" }, t("coloretto.table.drawn")));
}

function rowLabel(model, row, i, action) {
  const { view } = model;
  const n = i + 1;
  const free = row.slots - row.cards.length;
  const freeText = free ? t("coloretto.table.free", { n: free }) : t("coloretto.table.full");
  if (row.taken_by !== null && row.taken_by !== undefined) {
    if (row.taken_by === model.me) return t("coloretto.table.rowTakenByYou", { n });
    return t("coloretto.table.rowTakenLabel", { n, name: seatName(model.room, row.taken_by) });
  }
  if (action && action.type === "take") return t("coloretto.table.takeRow", { n, cards: cardsLabel(row.cards) });
  if (action && action.type === "place") {
    return t("coloretto.table.placeRow", { n, card: cardLabel(view.drawn), free: freeText });
  }
  return t("coloretto.table.rowLabel", { n, cards: cardsLabel(row.cards), free: freeText });
}

// Why a row cannot be used now (said when it is pressed anyway).
function whyNotRow(model, row, i) {
  const { view } = model;
  const n = i + 1;
  if (view.turn !== model.me || !legalOf(view).length) return t("table.notYourTurn");
  if (row.taken_by !== null && row.taken_by !== undefined) return t("coloretto.table.rowGone", { n });
  if (view.phase === "place") return t("coloretto.table.rowFull", { n });
  return t("coloretto.table.rowEmpty", { n });
}

function rowColumn(model, act, row, i, firstAction) {
  const { view } = model;
  const action = rowAction(view, i);
  const taken = row.taken_by !== null && row.taken_by !== undefined;
  const slots = [];
  for (let k = 0; k < row.slots; k += 1) {
    const card = row.cards[k];
    if (card) slots.push(renderCard(card, { size: "row", tag: "span", label: false }));
    else if (action && action.type === "place" && k === row.cards.length) {
      const ghost = renderCard(view.drawn, { size: "row", tag: "span", label: false });
      ghost.classList.add("ghost");
      slots.push(ghost);
    } else slots.push(renderSlot({ size: "row" }));
  }
  let hint = null;
  if (action) hint = h("span.ct-row-hint", { "aria-hidden": "true" }, t(action.type === "take" ? "coloretto.table.take" : "coloretto.table.place"), h("span.kbd", String(i + 1)));
  else if (taken) {
    hint = h("span.ct-row-hint.taken", { "aria-hidden": "true" },
      row.taken_by === model.me ? t("coloretto.table.you") : seatName(model.room, row.taken_by));
  }
  const cls = [action ? `.can-${action.type}` : "", taken ? ".taken" : "", `.kind-${row.kind}`].join("");
  return h(
    "li",
    h(
      `button.ct-row${cls}`,
      {
        type: "button",
        "aria-label": rowLabel(model, row, i, action),
        "aria-disabled": action ? "false" : "true",
        dataset: {
          row: String(i),
          focusKey: `row:${i}`,
          // a card waiting: its first row; else DRAW comes first (taking is a choice)
          ...(action && firstAction ? { focusFallback: "act", initialFocus: action.type === "place" ? "1" : "3" } : {}),
          // the row you took this round, once DRAW is gone (it went to row 1, another's)
          ...(!action && taken && row.taken_by === model.me ? { focusFallback: "act", initialFocus: "5" } : {}),
          ...(!action && i === 0 ? { initialFocus: "6" } : {}),
        },
        onclick: (ev) => {
          if (action) act.action({ type: action.type, row: i });
          else refuse(ev.currentTarget, whyNotRow(model, row, i));
        },
      },
      h(
        "span.ct-row-head",
        { "aria-hidden": "true" },
        h("span.ct-row-long", t("coloretto.table.rowShort", { n: i + 1 })),
        h("span.ct-row-num", String(i + 1)),
      ),
      h("span.ct-slots", { "aria-hidden": "true", style: `--slots:${row.slots}` }, slots),
      hint,
    ),
  );
}

function rows(model, act) {
  const { view } = model;
  const list = view.rows || [];
  let first = true;
  return h(
    "ol.ct-rows",
    { "aria-label": t("coloretto.table.rows"), style: `--n:${list.length}`, dataset: { n: String(list.length) } },
    list.map((row, i) => {
      const isFirst = first && !!rowAction(view, i);
      if (isFirst) first = false;
      return rowColumn(model, act, row, i, isFirst);
    }),
  );
}

function middle(model, act) {
  const { view } = model;
  return h(
    "div.center.ct-center",
    h(
      "div.ct-middle",
      h(
        "div.ct-supply-row",
        h("div.ct-pile", supply(model, act), h("span.ct-pile-label", { "aria-hidden": "true" }, t("coloretto.table.supplyShort"))),
        drawnCard(model),
        statusChips(view),
      ),
      h("div.ct-rows-wrap", rows(model, act)),
      h(
        "div.last-row",
        // banners stand here, over the line they say in words: over the supply, LAST
        // ROUND! hid the card just drawn while its row was chosen (shell/banners.js)
        { dataset: { bannerSpot: "" } },
        h("p.last-move", { "aria-hidden": "true" }, model.lastLine || "\u00a0"),
        model.historyToggle || null,
      ),
    ),
  );
}

// ---------- you ----------

function turnMessage(model) {
  const { view, me } = model;
  if (view.phase === "game_over") return t("table.gameOver");
  const legal = legalOf(view);
  if (view.turn === me && legal.length) {
    if (view.phase === "place") return t("coloretto.table.placeIt");
    const draw = canDraw(view);
    const take = canTake(view);
    if (draw && take) {
      const alone = (view.taken || []).length === (view.seats || 0) - 1;
      return t(alone ? "coloretto.table.alone" : "coloretto.table.yourTurn");
    }
    if (take) return t("coloretto.table.mustTake");
    return t("coloretto.table.mustDraw");
  }
  if (view.turn === null || view.turn === undefined) return "";
  const name = seatName(model.room, view.turn);
  if (view.phase === "place" && view.drawn) return t("coloretto.table.placing", { name, card: cardLabel(view.drawn) });
  return t("table.turnOf", { name });
}

function meBar(model, act) {
  const { view, me } = model;
  const isTurn = view.turn === me && view.phase !== "game_over";
  const score = (view.scores || [])[me] ?? 0;
  const row = takenRow(view, me);
  const substituted = view.phase !== "game_over" && model.room && model.room.seats && model.room.seats[me] &&
    model.room.seats[me].substitute;
  const buttons = [];
  if (canDraw(view)) {
    buttons.push(
      h(
        "button.btn.action.primary.ct-draw",
        { type: "button", dataset: { focusKey: "act:draw", initialFocus: "2" }, onclick: () => act.action({ type: "draw" }) },
        t("coloretto.table.draw"),
        h("span.kbd", { "aria-hidden": "true" }, "D"),
      ),
    );
  }
  return h(
    `div.ct-me${isTurn ? ".turn" : ""}`,
    // (a banner may stand between the line under the rows and this: shell/banners.js)
    { dataset: { clockOwner: "", bannerFloor: "" } },
    h(
      "div.ct-me-head",
      myAvatar(model.room, me),
      h("span.sr-only.clock-sr"),
      h("span.turn-msg", { id: "turn-msg" }, turnMessage(model)),
      buttons.length ? h("div.actions", { role: "group", "aria-label": t("table.actions") }, buttons) : null,
    ),
    h(
      "div.ct-mine",
      h("span.ct-me-score", scoreText(view, score)),
      row >= 0 ? h("span.badge.ct-took", t("coloretto.table.tookBadge", { n: row + 1 })) : null,
      substituted ? h("span.badge.away", { role: "status" }, t("coloretto.table.youSubstituted")) : null,
      collection(view, me, { label: t("coloretto.table.yourCards"), size: "small" }),
    ),
    h("p.key-help", t("coloretto.table.keyHelp", { n: (view.rows || []).length || 1 })),
  );
}

// ---------- the whole table ----------

// model: {room, view, me, clock, fresh, nextReady, lastLine, history, historyToggle, ui}
// act: the shell's actions (action, playAgain, home, ui(patch), toggleHistory, ...)
export function renderTable(model, act) {
  const { view } = model;
  const n = view.seats || (view.collections || []).length;
  const me = model.me ?? 0;
  const others = [];
  for (let k = 1; k < n; k += 1) others.push((me + k) % n);
  return [
    h(
      "section.table-screen.ct",
      { "aria-label": t("table.title"), dataset: { seats: String(n), game: "coloretto", phase: view.phase } },
      h("h1.sr-only", t("table.title")),
      h(
        "ul.ct-players",
        // (focusable: on a small phone the chips scroll sideways, also by keyboard)
        { "aria-label": t("table.opponents"), tabindex: "0", dataset: { count: String(others.length) }, style: `--count:${others.length}` },
        others.map((s) => playerChip({ ...model, me }, s)),
      ),
      middle({ ...model, me }, act),
      model.history ? h("div.table-side", model.history) : null,
      meBar({ ...model, me }, act),
      view.phase === "game_over" ? colorettoResults({ ...model, me }, act) : null,
    ),
  ];
}

// A new state: a newly drawn card enters with a little motion.
export function onState({ prev, view, me }) {
  // Your turn goes on, but what the focus was on is not what it was: you put your card in
  // a row (the last one left in a round draws again: the row it stayed on said "Take row
  // 2" and Enter ended the round), or a new round began with you (it stayed on the row you
  // took, now empty). It goes to the turn's most useful control (afterRender).
  const mine = view.turn === me && prev && prev.turn === me;
  if (mine && ((prev.drawn && !view.drawn) || prev.round !== view.round)) refocus = true;
  return { drawnChanged: !!view.drawn && (!prev || prev.drawn !== view.drawn || prev.supply !== view.supply) };
}

// Where a keyboard focus left on a row goes: once a drawn card waits, to the first row
// it can go in (drawn with D, the focus stayed on the row it was on, a taken one too);
// at a new turn, off the row to the most useful control (the rows are what a keyboard
// reaches during the others' turns: Enter at your turn took the row the focus had
// waited on, instead of drawing).
let cardWaited = false;
let refocus = false; // (onState)
export function afterRender(root, { revealPlayable = false } = {}) {
  if (refocus) revealPlayable = true;
  refocus = false;
  const firstPlace = root.querySelector(".ct-row.can-place");
  const newlyWaiting = !!firstPlace && !cardWaited;
  cardWaited = !!firstPlace;
  const active = document.activeElement;
  const onRow = !!active && root.contains(active) && active.matches(".ct-row");
  const lost = !active || active === document.body || active === root;
  if (newlyWaiting && (onRow || lost)) {
    if (active !== firstPlace) firstPlace.focus({ preventScroll: true });
  } else if (revealPlayable && onRow) {
    const target = initialTarget(root);
    if (target) target.focus({ preventScroll: true });
  }
}

// The scoring card's side with its points: "Brown side" alone, beside the colours out
// of the game, read as a colour or a team (newcomer review). Where the status has room,
// the points show beside the name; a tap (or the pointer) says them anywhere.
function sideChip(side, values) {
  const name = t(`coloretto.side.${side}`);
  const all = t("coloretto.results.values", { side: name, values: values.join(", ") });
  return h(
    `span.chip.ct-side.side-${side}`,
    { title: all, onclick: (ev) => tip(ev.currentTarget, all, 4000) },
    h("span", { "aria-hidden": "true" }, name, h("span.ct-side-values", `: ${values.join(" · ")}`)),
    h("span.sr-only", all),
  );
}

// The arrows (and Home, End) on a row go to the row beside it, as they go along the
// hand in Rainbow and along the colours in Color Clash's chooser: Tab alone took ten
// presses back to the first row (player review).
const ROW_KEYS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" };

function moveAlongRows(ev) {
  const on = document.activeElement;
  if (!on || !on.matches || !on.matches(".ct-row") || !(ev.key in ROW_KEYS)) return false;
  const rows = [...document.querySelectorAll(".ct-row")].filter((r) => r.offsetParent !== null);
  const at = rows.indexOf(on);
  const step = ROW_KEYS[ev.key];
  const to = step === "first" ? 0 : step === "last" ? rows.length - 1 : Math.min(rows.length - 1, Math.max(0, at + step));
  if (rows[to] && rows[to] !== on) rows[to].focus();
  ev.preventDefault();
  return true;
}

// Keys on the table (app.js calls this only when not typing or in a dialog): D draws, 1–5 take a row or put the
// drawn card in it; the arrows move along the rows.
export function tableKeydown(ev, model, act) {
  if (!model || !model.view) return;
  if (moveAlongRows(ev)) return;
  const view = model.view;
  const key = ev.key.toLowerCase();
  if (key === "d") {
    if (!canDraw(view)) return keyDoesNothing(model);
    act.action({ type: "draw" });
  } else if (/^[1-9]$/.test(key)) {
    const i = Number(key) - 1;
    const a = rowAction(view, i);
    if (!a) return keyDoesNothing(model);
    act.action({ type: a.type, row: i });
  } else {
    return;
  }
  ev.preventDefault();
}

// Motion: a placed card slides from the supply into its row.
export function animatePlay(root, events) {
  if (reducedMotion() || !Element.prototype.animate) return;
  const place = [...(events || [])].reverse().find((e) => e.type === "place");
  if (!place) return;
  const cards = root.querySelectorAll(`.ct-row[data-row="${place.row}"] .ct-slots > .ccard:not(.slot):not(.ghost)`);
  const target = cards[cards.length - 1];
  const source = root.querySelector(".ct-supply");
  if (!target || !source) return;
  const a = source.getBoundingClientRect();
  const b = target.getBoundingClientRect();
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  target.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(0.7)`, opacity: 0.5 }, { transform: "none", opacity: 1 }],
    { duration: 260, easing: "cubic-bezier(.2,.8,.3,1)" },
  );
}

