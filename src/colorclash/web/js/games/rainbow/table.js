// The Rainbow table, built from the engine's view(seat) only (docs/rainbow.md, "View").
// The client never decides a rule: which hand card may be played (as seen or turned
// over), which table card may be turned and whether the turn may end all come from
// view.legal, and every button sends one of those actions as it is.
//
// Playing a card takes two steps, the same by pointer, touch and keyboard: choose a card
// of your hand (it lifts), then "Play as seen" or "Play turned over". After a card, the
// table cards that may be turned over are buttons (turn one to play again) and "End turn"
// stops. The module's own view state (act.ui) holds the chosen hand position.
import { getLang, t } from "../../i18n.js";
import { keyDoesNothing } from "../../shell/notices.js";
import { absence, avatar, awayBadge, myAvatar, computerLabel, computerLevel, isComputer, seatName } from "../../shell/seats.js";
import { announce, h, on, reducedMotion, tip } from "../../ui.js";
import { ROUND_ENDS, winsLine } from "./events.js";
import { botSvg, faceLabel, renderFace, symbolSvg } from "./faces.js";
import { rainbowResults } from "./results.js";

const botIcon = () => botSvg("bot-icon");

// What the last drawn table knew (the shell hands the keyboard handler the view only).
let shown = { ui: {}, me: null, view: null };

function legalOf(view) {
  return Array.isArray(view.legal) ? view.legal : [];
}

function findLegal(view, pred) {
  return legalOf(view).find(pred) || null;
}

const playAction = (view, hand, turned) =>
  findLegal(view, (a) => a.type === "play" && a.hand === hand && !!a.turned === turned);
const flipAction = (view, place) => findLegal(view, (a) => a.type === "flip" && a.place === place);
const endAction = (view) => findLegal(view, (a) => a.type === "end");

// The moment a hand card was chosen in: a choice holds until anything on the table
// changes (a card played, a turn timed out), never into a later moment.
function momentOf(view) {
  const ts = view.turn_state || {};
  return JSON.stringify([view.round, view.deck_count, view.turn, ts.played, ts.flip_pending, view.hand]);
}

// The ui patch that chooses hand position `pick` (null: none) now.
function choose(view, pick) {
  return { pick, pickAt: pick === null ? null : momentOf(view) };
}

// The hand position chosen to be played, if it may still be played.
export function chosen(model) {
  const ui = model.ui || {};
  const pick = ui.pick;
  if (pick === null || pick === undefined || ui.pickAt !== momentOf(model.view)) return null;
  return playAction(model.view, pick, false) || playAction(model.view, pick, true) ? pick : null;
}

// The first letter in capitals, the way the current language writes it.
function sentence(text) {
  return text ? text[0].toLocaleUpperCase(getLang()) + text.slice(1) : text;
}

function opponentOf(view, me) {
  const n = view.seats || 2;
  return (me + 1) % n;
}

function handOf(view, seat) {
  return (Array.isArray(view.hands) ? view.hands : []).find((x) => x.seat === seat) || null;
}

function pileOf(view, seat) {
  return (Array.isArray(view.piles) ? view.piles : []).find((x) => x.seat === seat) || { count: 0, faces: [] };
}

// ---------- the opponent ----------

// A name shown on screen keeps its number with it ("Computadora 2", not "Computadora" over
// "2" alone on the next line).
const keepNumber = (name) => String(name).replace(/\s+(\d+)$/, "\u00a0$1");

function opponentChip(model, seat) {
  const { view, room } = model;
  const s = room && room.seats ? room.seats[seat] : null;
  const hand = handOf(view, seat) || { count: 0, faces: null };
  const isTurn = view.turn === seat;
  const away = absence(room, seat);
  const name = seatName(room, seat);
  const level = computerLevel(room, seat); // (alone on a narrow phone: the pill below)
  const faces = Array.isArray(hand.faces) ? hand.faces : null;
  const parts = [name];
  if (isComputer(room, seat)) parts.push(computerLabel(room, seat));
  if (isTurn) parts.push(t("table.theirTurn"));
  if (away) parts.push(t(away));
  const handText = faces
    ? t("rainbow.theirBacks", { name, n: hand.count, faces: faces.map(faceLabel).join(", ") })
    : t("rainbow.theirCount", { name, n: hand.count });
  return h(
    `li.opp.rb-opp${isTurn ? ".turn" : ""}`,
    { dataset: { seat: String(seat) } },
    isTurn ? h("span.turn-arrow", { "aria-hidden": "true" }, t("table.turnMarker")) : null,
    h(
      "div.rb-opp-who",
      avatar(room, seat, botIcon),
      h(
        "div.rb-opp-meta",
        h("span.name", { "aria-hidden": "true" }, keepNumber(name)),
        h(
          "span.line",
          { "aria-hidden": "true" },
          // on a narrow phone the level alone, under the name "Computer" ("Computer ·
          // Medium" ran under "Their backs" below 360 px, 400 in Spanish)
          isComputer(room, seat)
            ? h(
                "span.tag.bot.rb-level",
                h("span.rb-level-long", computerLabel(room, seat)),
                level ? h("span.rb-level-short", level) : null,
              )
            : null,
          away ? awayBadge(room, seat) : null,
          s && s.substitute ? h("span.tag.bot", t("seat.substitute")) : null,
        ),
        h("span.sr-only", parts.join(", ")),
        isTurn ? h("span.sr-only.clock-sr") : null,
      ),
    ),
    h(
      "div.rb-their-hand",
      h("span.rb-their-label", { "aria-hidden": "true" }, t("rainbow.theyHoldLabel")),
      h(
        "div.rb-their-cards",
        { role: "img", "aria-label": handText },
        faces
          ? faces.map((c) => renderFace(c, { size: "sm" }))
          : Array.from({ length: hand.count }, () => renderFace(null, { size: "sm", cls: "rb-back" })),
      ),
    ),
  );
}

// ---------- the middle: the last round, the row, the piles and the deck ----------

function lastRound(model) {
  const { view, room } = model;
  const last = view.last_round;
  if (!last || !ROUND_ENDS.includes(last.kind)) return null;
  const marked = new Set(last.places || []);
  const fresh = last.round === (view.round || 1) - 1 && (view.table || []).every((c) => c === null);
  // once the next round has a card, said to be the last round's: "Round 2: Shadow — …
  // Computer wins 1 card" over your own first card of round 3 read as the computer's move
  // (player review); not while the row is empty (the round that ended the game is no
  // "previous" one)
  const past = (view.table || []).some((c) => c !== null);
  const head = t(past ? "rainbow.pastRound" : "rainbow.lastRound",
    { n: last.round, kind: t(`rainbow.kind.${last.kind}`) });
  const who = winsLine({ ...last, who: seatName(room, last.winner) }, model.me);
  const loser = last.kind === "rainbow" ? "" : last.seat === model.me ? t("rainbow.say.you.lose") : t("rainbow.say.lose", { name: seatName(room, last.seat) });
  return h(
    `section.rb-last.rb-last-${last.kind}${fresh ? ".fresh" : ""}${past ? ".past" : ""}`,
    { "aria-labelledby": "rb-last-head", dataset: { kind: last.kind, round: String(last.round) } },
    // the heading first, for a screen reader (it came after the row it names); the row
    // is drawn first all the same (css: order)
    h(
      "div.rb-last-text",
      h(
        "h2.rb-last-head#rb-last-head",
        h("span.rb-kind-icon", { "aria-hidden": "true" }, last.kind === "shadow" ? symbolSvg("black", "rb-kind-sym") : last.kind === "rainbow" ? "✓" : "!"),
        h("span", head),
      ),
      h("p.rb-last-who", sentence([loser, who].filter(Boolean).join(" — "))),
    ),
    h(
      "ol.rb-last-row",
      { "aria-label": t("rainbow.lastRowLabel") },
      (last.faces || []).map((face, p) => {
        const mark = marked.has(p);
        const label = `${t("rainbow.place", { n: p + 1 })}: ${faceLabel(face)}${mark ? `, ${t(`rainbow.marked.${last.kind}`)}` : ""}`;
        return h(
          `li.rb-last-place${mark ? ".rb-marked" : ""}`,
          { "aria-label": label, dataset: { place: String(p), ...(mark ? { marked: last.kind } : {}) } },
          renderFace(face, { size: "xs" }),
          mark ? h("span.rb-mark", { "aria-hidden": "true" }, last.kind === "rainbow" ? "✓" : "!") : null,
        );
      }),
    ),
  );
}

// What a click on an empty place should have been instead.
function emptyPlaceHint(model) {
  const { view } = model;
  if (!legalOf(view).length) return t("table.notYourTurn");
  if (chosen(model) !== null) return t("rainbow.hint.playChosen");
  return findLegal(view, (a) => a.type === "play") ? t("rainbow.hint.chooseFirst") : t("rainbow.cantPlayNow");
}

function placeItem(model, act, face, p) {
  const { view } = model;
  const ts = view.turn_state || {};
  const placed = (ts.placed || []).includes(p);
  const flipped = (ts.flipped || []).includes(p);
  const next = view.next_place === p && view.phase !== "game_over";
  // lit only while you may play there now: lit after your first card, when a table card
  // must be turned over before another, "HERE" read as "play here" (a player review)
  const waiting = next && !findLegal(view, (a) => a.type === "play");
  const flip = face !== null ? flipAction(view, p) : null;
  const marks = [];
  if (placed) marks.push(t("rainbow.placedNow"));
  if (flipped) marks.push(t("rainbow.flippedNow"));
  const cls = `li.rb-place${face === null ? ".empty" : ""}${next ? ".next" : ""}${waiting ? ".waiting" : ""}${placed ? ".placed" : ""}${flipped ? ".flipped" : ""}`;
  const placeName = t("rainbow.place", { n: p + 1 });
  if (face === null) {
    return h(
      cls,
      { dataset: { place: String(p) } },
      h(
        "div.rb-slot",
        {
          role: "img",
          "aria-label": `${placeName}: ${t(next ? "rainbow.emptyNext" : "rainbow.empty")}`,
          // a newcomer clicks the place to put a card there: say how it is done
          // (a click that did nothing said nothing: newcomer review)
          onclick: (ev) => tip(ev.currentTarget, emptyPlaceHint(model)),
        },
        h("span.rb-slot-n", { "aria-hidden": "true" }, String(p + 1)),
        next ? h("span.rb-slot-next", { "aria-hidden": "true" }, t("rainbow.nextShort")) : null,
      ),
    );
  }
  const label = [`${placeName}: ${faceLabel(face)}`, ...marks];
  let card;
  if (flip) {
    card = renderFace(face, { size: "lg", tag: "button", cls: "rb-flippable" });
    label.push(t("rainbow.turnIt"));
    card.dataset.focusKey = `place:${p}`;
    card.dataset.focusFallback = "place";
    on(card, "click", () => act.action(flip));
    card.append(h("span.rb-flip-badge", { "aria-hidden": "true" }, "↻"));
    card.setAttribute("aria-label", label.join(", "));
  } else {
    card = renderFace(face, { size: "lg" });
    card.setAttribute("aria-label", label.join(", "));
  }
  if (flipped) card.append(h("span.rb-flipped-badge", { "aria-hidden": "true" }, "↻"));
  return h(cls, { dataset: { place: String(p) } }, card);
}

function tableRow(model, act) {
  const { view } = model;
  const row = Array.isArray(view.table) ? view.table : [];
  const n = view.places || 6;
  const places = Array.from({ length: n }, (_, p) => (row[p] === undefined ? null : row[p]));
  return h(
    "div.rb-rowbox",
    h(
      "ol.rb-row",
      { "aria-label": t("rainbow.rowLabel", { n: places.filter((c) => c !== null).length }) },
      places.map((face, p) => placeItem(model, act, face, p)),
    ),
  );
}

function pileChip(model, seat) {
  const { view, room } = model;
  const pile = pileOf(view, seat);
  const top = pile.faces && pile.faces.length ? pile.faces[pile.faces.length - 1] : null;
  const mine = seat === model.me;
  const name = mine ? t("rainbow.yourPile") : t("rainbow.pileOf", { name: keepNumber(seatName(room, seat)) });
  return h(
    `div.rb-pile${mine ? ".mine" : ""}`,
    { role: "img", "aria-label": t("rainbow.pileLabel", { name, n: pile.count }), dataset: { seat: String(seat) } },
    h(
      "span.rb-pile-stack",
      { "aria-hidden": "true" },
      top ? renderFace(top, { size: "xs" }) : h("span.rb-pile-empty"),
      h("span.rb-pile-n", String(pile.count)),
    ),
    h("span.rb-pile-name", { "aria-hidden": "true" }, name),
  );
}

function deckChip(view) {
  const n = view.deck_count ?? 0;
  return h(
    "div.rb-deck",
    { role: "img", "aria-label": t("rainbow.deckLabel", { n }) },
    h("span.rb-pile-stack", { "aria-hidden": "true" }, h("span.rb-deck-back"), h("span.rb-pile-n", String(n))),
    h("span.rb-pile-name", { "aria-hidden": "true" }, t("rainbow.deck")),
  );
}

function middle(model, act, opp) {
  return h(
    "div.center.rb-center",
    h(
      "div.rb-center-body",
      lastRound(model),
      h(
        "div.rb-board",
        tableRow(model, act),
        h("div.rb-info", pileChip(model, opp), deckChip(model.view), pileChip(model, model.me)),
      ),
      h(
        "div.last-row",
        h("p.last-move", { "aria-hidden": "true" }, model.lastLine || "\u00a0"),
        model.historyToggle || null,
      ),
    ),
  );
}

// ---------- you: the turn, the actions, the hand ----------

function actionButton(cls, focusKey, content, onclick, { kbd = null, rank = null, label = null } = {}) {
  return h(
    `button.btn.action${cls}`,
    {
      type: "button",
      "aria-label": label || undefined,
      dataset: { focusKey, ...(rank ? { initialFocus: String(rank) } : {}) },
      onclick,
    },
    content,
    kbd ? h("span.kbd", { "aria-hidden": "true" }, kbd) : null,
  );
}

function actionButtons(model, act) {
  const { view } = model;
  const btns = [];
  const pick = chosen(model);
  if (pick !== null) {
    const front = (view.hand || [])[pick];
    const seen = playAction(view, pick, false);
    const turned = playAction(view, pick, true);
    if (seen) {
      btns.push(
        actionButton(".primary.rb-play-seen", "act:seen", [renderFace(front, { size: "xs" }), h("span", t("rainbow.playSeen"))],
          () => act.action(seen), { kbd: "S", rank: 2, label: t("rainbow.playSeenLabel", { face: faceLabel(front) }) }),
      );
    }
    if (turned) {
      btns.push(
        actionButton(".rb-play-turned", "act:turned", [renderFace(null, { size: "xs" }), h("span", t("rainbow.playTurned"))],
          () => act.action(turned), { kbd: "T", label: t("rainbow.playTurnedLabel", { face: faceLabel(front) }) }),
      );
    }
  }
  const end = endAction(view);
  if (end) {
    // Ending now loses the round (the check's shadow or error): the button says so as the
    // turn message does (it stayed the plain grey of every turn: a player review)
    const kind = view.check && view.check.kind;
    const loses = kind === "shadow" || kind === "error";
    const content = loses ? [h("span", t("rainbow.endTurn")), h("span.rb-end-cost", t("rainbow.endTurnLoses"))] : t("rainbow.endTurn");
    btns.push(
      actionButton(loses ? ".rb-end.rb-end-loses" : ".rb-end", "act:end", content, () => act.action(end), {
        kbd: "E",
        rank: 3,
        label: loses ? `${t("rainbow.endTurn")}: ${t("rainbow.endTurnLoses")}` : null,
      }),
    );
  }
  // (a named group only with something in it: an empty "Your actions" was read between turns)
  return h("div.actions.rb-actions", btns.length ? { role: "group", "aria-label": t("table.actions") } : {}, btns);
}

function turnMessage(model) {
  const { view } = model;
  if (view.phase === "game_over") return t("table.gameOver");
  if (view.turn === model.me && legalOf(view).length) {
    const ts = view.turn_state || {};
    if (view.phase === "continue") {
      const canFlip = legalOf(view).some((a) => a.type === "flip");
      // what ending now would do, as the engine's check says it (view.check): a player
      // ended a turn that lost the round with no word that it would
      const kind = view.check && view.check.kind;
      // (and how it may still be mended, when a card may be turned over: the words said
      // only that ending lost, a player review)
      if (kind === "shadow" || kind === "error") {
        return t(canFlip ? "rainbow.msg.endLosesFlip" : "rainbow.msg.endLoses", { why: t(`rainbow.msg.why.${kind}`) });
      }
      return canFlip ? t("rainbow.msg.flipOrEnd") : t("rainbow.msg.end");
    }
    if (chosen(model) !== null) return t("rainbow.msg.how");
    if (ts.flip_pending) return t("rainbow.msg.playAgain");
    return t("rainbow.msg.choose");
  }
  if (view.turn === null || view.turn === undefined) return "";
  return t("table.turnOf", { name: seatName(model.room, view.turn) });
}

// Where your turn stands (the opponent's cards show on the table as they come): while a
// card is to be played, its number ("Card 1 of 3", never "Card 0 of 3" before the first);
// after it, how many are played.
function progressChip(view, me) {
  const ts = view.turn_state;
  if (!ts || view.phase === "game_over" || view.turn !== me) return null;
  const played = ts.played || 0;
  const max = ts.max_cards || 3;
  const words = view.phase === "play"
    ? t("rainbow.progress", { n: Math.min(played + 1, max), max })
    : t("rainbow.progressPlayed", { n: played, max });
  return h("span.badge.rb-progress", words);
}

function meBar(model, act) {
  const { view, room } = model;
  const me = model.me;
  const isTurn = view.turn === me;
  const s = room && room.seats ? room.seats[me] : null;
  const substituted = view.phase !== "game_over" && s && s.substitute;
  return h(
    `div.me-bar.rb-me${isTurn ? ".turn" : ""}`,
    // (a hint about a card of your hand stands above it: ui.js tip; banners have no spot
    // here, so it does not move them)
    { dataset: { bannerFloor: "" } },
    h(
      "div.me-info",
      myAvatar(room, me, botIcon),
      h("span.sr-only.clock-sr"),
      h("span.turn-msg", { id: "turn-msg" }, turnMessage(model)),
      progressChip(view, me),
      substituted ? h("span.badge.away", { role: "status" }, t("rainbow.youSubstituted")) : null,
    ),
    actionButtons(model, act),
  );
}

function handCard(model, act, face, i, state) {
  const { view } = model;
  const can = !!(playAction(view, i, false) || playAction(view, i, true));
  const picked = state.pick === i;
  const btn = renderFace(face, { size: "lg", tag: "button", named: true, cls: can ? (picked ? "playable.picked" : "playable") : state.myTurn ? "dim" : "idle" });
  let label = faceLabel(face);
  if (can) label += `, ${t(picked ? "rainbow.chosen" : "rainbow.canPlay")}`;
  btn.setAttribute("aria-label", label);
  btn.setAttribute("aria-disabled", can ? "false" : "true");
  if (can) btn.setAttribute("aria-pressed", picked ? "true" : "false");
  // the focus stays on this card across redraws, not on whatever takes its place
  btn.dataset.focusKey = `hand:${i}:${face}`;
  btn.dataset.hand = String(i);
  if (can && !state.firstPlayable) {
    state.firstPlayable = true;
    btn.dataset.initialFocus = "1";
  } else if (i === 0) {
    btn.dataset.initialFocus = "4";
  }
  // (handlers find the button as ev.currentTarget: a redraw may keep the old button)
  on(btn, "click", (ev) => {
    if (!can) {
      const why = state.myTurn ? t("rainbow.cantPlayNow") : t("table.notYourTurn");
      announce(why);
      tip(ev.currentTarget, why); // for the eye too: a click that did nothing said nothing
      return;
    }
    act.ui(choose(view, picked ? null : i));
    // chosen by keyboard: the focus goes on to the way of playing it
    if (!picked && ev.detail === 0) {
      const next = document.querySelector('[data-focus-key="act:seen"], [data-focus-key="act:turned"]');
      if (next) next.focus();
    }
  });
  on(btn, "keydown", (ev) => {
    if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
      const li = ev.currentTarget.parentElement;
      const next = ev.key === "ArrowRight" ? li.nextElementSibling : li.previousElementSibling;
      if (next) next.firstElementChild.focus();
      ev.preventDefault();
    }
  });
  // the card's name in the hand (its face, and which of the same it is): a card played
  // from the hand leaves the cards after it on the page as they were (ui.js morph)
  const nth = (state.seen[face] = (state.seen[face] || 0) + 1);
  return h("li", { dataset: { key: `${face}:${nth}` } }, btn);
}

function handList(model, act) {
  const { view } = model;
  const hand = Array.isArray(view.hand) ? view.hand : [];
  const state = { pick: chosen(model), myTurn: legalOf(view).length > 0, firstPlayable: false, seen: {} };
  const items = hand.map((face, i) => handCard(model, act, face, i, state));
  return h(
    "div.hand-wrap.rb-hand-wrap",
    items.length
      ? h("ul.rb-hand", { "aria-label": t("rainbow.yourHand", { n: hand.length }) }, items)
      : h("p.hand-empty", t("table.handEmpty")),
    h("p.key-help.rb-key-help", t("rainbow.keyHelp")),
  );
}

// ---------- the whole table ----------

// model: {room, view, me, clock, nextReady, lastLine, history, historyToggle, ui}
// ui: {pick: the hand position chosen to be played}
export function renderTable(model, act) {
  const { view } = model;
  const me = model.me;
  const opp = opponentOf(view, me);
  shown = { ui: model.ui || {}, me, view };
  return [
    h(
      "section.table-screen.rb-table",
      { "aria-label": t("rainbow.tableTitle"), dataset: { seats: String(view.seats || 2), phase: view.phase } },
      h("h1.sr-only", t("rainbow.tableTitle")),
      h("ul.opponents.rb-opponents", { "aria-label": t("table.opponents") }, opponentChip(model, opp)),
      middle(model, act, opp),
      model.history ? h("div.table-side", model.history) : null,
      meBar(model, act),
      handList(model, act),
      view.phase === "game_over" ? rainbowResults(model, act) : null,
    ),
  ];
}

// After the table is on screen: when the focus was lost because the control that had it
// is gone (the card just played, the button just pressed), it goes to the most useful
// control of the moment. A dialog that just closed gives the focus back itself (shell).
let overlayBefore = false;
export function afterRender(root) {
  const overlay = !!root.querySelector(".overlay");
  const dialogClosed = overlayBefore && !overlay;
  overlayBefore = overlay;
  const a = document.activeElement;
  const lost = !a || a === document.body || a === root || !document.contains(a);
  if (!lost || overlay || dialogClosed) return;
  const { view, me } = shown;
  if (!view || view.turn !== me || !legalOf(view).length) return;
  let best = null;
  for (const el of root.querySelectorAll(".rb-table [data-initial-focus]")) {
    if (!best || Number(el.dataset.initialFocus) < Number(best.dataset.initialFocus)) best = el;
  }
  if (best) best.focus({ preventScroll: true });
}

// Keyboard shortcuts on the table (app.js calls this only when not typing in a field or in a dialog):
// 1-3 choose a hand card, S play it as seen, T turned over; 1-6 turn a table card (after
// a card), E end the turn, H to your hand.
export function tableKeydown(ev, model, act) {
  if (!model || !model.view) return;
  const view = model.view;
  const key = ev.key.toLowerCase();
  const digit = /^[1-9]$/.test(key) ? Number(key) - 1 : null;
  const full = { ...model, ui: shown.ui };
  if (digit !== null && view.phase === "play") {
    if (!playAction(view, digit, false) && !playAction(view, digit, true)) return keyDoesNothing(model);
    act.ui(choose(view, digit));
    // as with Enter on the card: the focus goes on to the way of playing it, so the next
    // Enter plays it as seen (on the card, Enter would have put it back)
    const next = document.querySelector('[data-focus-key="act:seen"], [data-focus-key="act:turned"]');
    if (next) next.focus();
  } else if (digit !== null && view.phase === "continue") {
    const flip = flipAction(view, digit);
    if (!flip) return keyDoesNothing(model);
    act.action(flip);
  } else if (digit !== null) {
    return keyDoesNothing(model);
  } else if (key === "s" || key === "t") {
    const a = chosen(full) !== null ? playAction(view, chosen(full), key === "t") : null;
    if (!a) return keyDoesNothing(model);
    act.action(a);
  } else if (key === "e") {
    if (!endAction(view)) {
      // a card owed after a table card was turned over: said so, not "does nothing"
      const owed = (view.turn_state || {}).flip_pending && legalOf(view).length > 0;
      if (owed) announce(t("rainbow.msg.playAgain"));
      else keyDoesNothing(model);
      return;
    }
    act.action(endAction(view));
  } else if (key === "h") {
    const first = document.querySelector(".rb-hand .rb-card.playable") || document.querySelector(".rb-hand .rb-card");
    if (first) first.focus();
  } else if (key === "escape" && chosen(full) !== null) {
    // the chosen card put back, the focus on it again (Escape did nothing: the card
    // stayed chosen, the focus on "As seen"; player QA)
    const pick = full.ui.pick;
    act.ui(choose(view, null));
    const card = document.querySelectorAll(".rb-hand .rb-card")[pick];
    if (card) card.focus();
  } else {
    return;
  }
  ev.preventDefault();
}

// ---------- motion: a played card comes from its player; a turned card turns ----------

export function animatePlay(root, events, me) {
  if (reducedMotion() || !Element.prototype.animate) return;
  for (const e of events || []) {
    const target = root.querySelector(`.rb-row .rb-place[data-place="${e.place}"] .rb-card`);
    if (!target) continue;
    if (e.type === "flip") {
      target.animate([{ transform: "rotateY(90deg)" }, { transform: "none" }], { duration: 260, easing: "ease-out" });
    } else if (e.type === "play") {
      const source =
        e.seat === me ? root.querySelector(".rb-me .avatar") : root.querySelector(`.rb-opp[data-seat="${e.seat}"] .avatar`);
      if (!source) continue;
      const a = source.getBoundingClientRect();
      const b = target.getBoundingClientRect();
      const dx = a.left + a.width / 2 - (b.left + b.width / 2);
      const dy = a.top + a.height / 2 - (b.top + b.height / 2);
      target.animate(
        [{ transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
        { duration: 280, easing: "cubic-bezier(.2,.8,.3,1)" },
      );
    }
  }
}
