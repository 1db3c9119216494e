// The Color Clash table, built from the engine's view(seat) only. The client never
// decides a rule: playable cards come from view.legal, and every button sends an engine
// action. The shell (../../shell/) gives the seats, clocks, banners, dialogs, results
// frame, move history and focus; this module draws what is Color Clash's own: the
// opponents' card counts and other faces, the piles, the hand, the actions and the
// colour chooser.
import { t } from "../../i18n.js";
import { modal } from "../../shell/dialog.js";
import { initialTarget } from "../../shell/focus.js";
import { keyDoesNothing } from "../../shell/notices.js";
import { absence, avatar, awayBadge, myAvatar, botIcon, computerLabel, isComputer, seatName } from "../../shell/seats.js";
import { revealHighlighted, strip, updateStrip } from "../../shell/strip.js";
import { announce, h, on, reducedMotion, svg, tip } from "../../ui.js";
import { cardLabel, COLORS, colorName, colorWord, iconSvg, parseCard, renderBack, renderCard, shapeSvg } from "./cards.js";
import { isMatch, noNextRound } from "./events.js";
import { colorClashResults } from "./results.js";
import { keyHelp } from "./rules.js";

const COLOR_KEYS = { r: "R", b: "B", y: "Y", g: "G", 1: "R", 2: "B", 3: "Y", 4: "G" };
const ORDER = { R: 0, B: 1, Y: 2, G: 3 };

function legalOf(view) {
  return Array.isArray(view.legal) ? view.legal : [];
}

function hasLegal(view, type) {
  return legalOf(view).some((a) => a.type === type);
}

export function playableCards(view) {
  const set = new Set();
  for (const a of legalOf(view)) if (a.type === "play") set.add(a.card);
  return set;
}

// A card from the hand: a wild first asks for its colour (this table's own view state).
function playCard(act, code) {
  const p = parseCard(code);
  if (p.wild) {
    act.ui({ choosingFor: p.code });
    return;
  }
  act.action({ type: "play", card: p.code });
}

function chooseColor(act, card, color) {
  act.ui({ choosingFor: null });
  if (card) act.action({ type: "play", card, color });
}

// A new state from the server: a colour chooser whose card can no longer be played
// closes; a new top card is marked so that it enters with a little motion.
export function onState({ prev, view, ui }) {
  let choosingFor = ui.choosingFor || null;
  if (view.phase !== "play" && view.phase !== "drawn") choosingFor = null;
  if (choosingFor && !legalOf(view).some((a) => a.type === "play" && a.card === parseCard(choosingFor).code)) {
    choosingFor = null;
  }
  const topChanged = !!prev && (prev.top !== view.top || prev.discard_count !== view.discard_count);
  return { choosingFor, topChanged };
}

function sortHand(hand) {
  const rankKey = (code) => {
    const p = parseCard(code);
    const group = p.wild ? 4 : ORDER[p.color] ?? 5;
    const n = /^\d$/.test(p.rank) ? Number(p.rank) : 10 + p.rank.charCodeAt(0);
    return group * 1000 + n;
  };
  return hand.map((code, i) => ({ code, i })).sort((a, b) => rankKey(a.code) - rankKey(b.code));
}


// ---------- opponents ----------

// The other faces of an opponent's cards (Day & Night): a fan that fits the chip; a tap
// (or Enter) opens them all at a readable size.
function otherFaces(model, act, seat, name) {
  const list = model.view.faces && model.view.faces[String(seat)];
  if (!list || !list.length) return null;
  return h(
    `button.faces${list.length > FAN_MAX_NARROW + 1 ? ".capped" : ""}`,
    {
      type: "button",
      "aria-label": t("table.theirFacesShow", { name, n: list.length }),
      title: t("table.theirFacesShow", { name, n: list.length }), // what the small fan is
      // (both counts, the stylesheet picks one: an inline --n outranked the phone's
      // rule, and a fan of 6 shown was spaced for 10, its corners run together)
      style: `--n-wide:${fan(list.length, FAN_MAX)}; --n-narrow:${fan(list.length, FAN_MAX_NARROW)}`,
      dataset: { focusKey: `faces:${seat}` },
      onclick: () => act.ui({ faces: seat }),
    },
    list.slice(0, list.length > FAN_MAX + 1 ? FAN_MAX : list.length).map((c) => renderCard(c, { size: "face" })),
    more(list.length, FAN_MAX, "wide"),
    more(list.length, FAN_MAX_NARROW, "narrow"),
  );
}

// A fan of many faces was a smear of overlapping corners (21 cards on a phone: "1 9 4 6 2
// 4 1 6 9 8…"): the first ones show, then "+12"; a tap shows them all. A phone's chips
// are narrower: fewer there (css: .faces.capped), with their own "+N".
const FAN_MAX = 9;
const FAN_MAX_NARROW = 5;
const fan = (n, max) => (n > max + 1 ? max + 1 : n); // cards and pill, as many as shown
function more(n, max, which) {
  return n > max + 1 ? h(`span.card.face.faces-more.${which}`, { "aria-hidden": "true" }, `+${n - max}`) : null;
}

function facesDialog(model, act, seat) {
  const list = (model.view.faces && model.view.faces[String(seat)]) || [];
  const name = seatName(model.room, seat);
  const close = () => act.ui({ faces: null });
  return modal({
    title: t("table.theirFaces", { name }),
    cls: "faces-dialog",
    content: [
      h("p", t(model.view.side === "night" ? "table.facesAreDay" : "table.facesAreNight")),
      h("ul.faces-all", list.map((c) => h("li", renderCard(c, { size: "face" })))),
    ],
    actions: [h("button.btn.big.primary", { type: "button", dataset: { focusKey: "faces:close", autofocus: "" }, onclick: close }, t("common.close"))],
    onClose: close,
  });
}

function opponentChip(model, act, seat) {
  const { view, room } = model;
  const s = room && room.seats ? room.seats[seat] : null;
  const count = view.counts ? view.counts[seat] : 0;
  // in a last-card window the table waits on the seat that may call (the next seat may
  // not play yet): one turn marker, on it
  const isTurn = view.window ? view.window.seat === seat : view.turn === seat;
  const out = Array.isArray(view.out) && view.out.includes(seat);
  const shield = Array.isArray(view.shields) && view.shields.includes(seat);
  const one = Array.isArray(view.one_card) && view.one_card.includes(seat);
  const oneText = oneCardText(view);
  const away = absence(room, seat);
  const name = seatName(room, seat);
  const place = out ? t("table.place", { n: view.out.indexOf(seat) + 1 }) : null;
  const parts = [name];
  if (isComputer(room, seat)) parts.push(computerLabel(room, seat));
  parts.push(t("table.cardsN", { n: count }));
  if (isTurn) parts.push(t("table.theirTurn"));
  if (shield) parts.push(t("table.shieldUp"));
  if (one) parts.push(oneText);
  if (place) parts.push(place);
  if (away) parts.push(t(away));

  const badges = [];
  if (shield) badges.push(h("span.badge.shield", iconSvg("shield"), t("table.shieldBadge")));
  if (one) badges.push(h("span.badge.one", oneText));
  if (place) badges.push(h("span.badge.place", place));
  if (away) badges.push(awayBadge(room, seat));
  if (s && s.substitute) badges.push(h("span.tag.bot", t("seat.substitute")));

  const catchable = legalOf(view).some((a) => a.type === "catch" && a.target === seat);
  return h(
    `li.opp${isTurn ? ".turn" : ""}${out ? ".out" : ""}${catchable ? ".catchable" : ""}`,
    { dataset: { seat: String(seat) } },
    isTurn ? h("span.turn-arrow", { "aria-hidden": "true" }, t("table.turnMarker")) : null,
    h(
      "div.opp-head",
      avatar(room, seat, botIcon),
      h(
        "div.meta",
        h("span.name", { "aria-hidden": "true" }, name),
        h("span.line", { "aria-hidden": "true" }, h("span.count-pill", renderBack(), String(count))),
        badges.length ? h("span.badges", { "aria-hidden": "true" }, badges) : null,
        h("span.sr-only", parts.join(", ")),
        isTurn ? h("span.sr-only.clock-sr") : null,
      ),
    ),
    otherFaces(model, act, seat, name),
  );
}

// ---------- the middle of the table ----------

function activeColorChip(view) {
  if (!view.color) return null;
  return h(
    "div.active-color",
    // (data-key: the same node through every state, for a screen reader's sake: ui.js morph)
    // (an image with a name, read when reached, not a live region: the colour is said in
    // the move that set it, "… chose Blue", and a status said it a second time)
    { role: "img", "aria-label": t("table.activeColor", { color: colorName(view.color) }), dataset: { key: "active-color" } },
    shapeSvg(view.color, "big-shape"),
    h("span", { "aria-hidden": "true" }, colorName(view.color)),
  );
}

function statusChips(view) {
  const chips = [activeColorChip(view)];
  chips.push(
    h(
      "div.chip.dir",
      svg(
        view.direction === -1
          ? '<path d="M7 5H4v3M4.5 8A8 8 0 1 1 4 13" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>'
          : '<path d="M17 5h3v3M19.5 8A8 8 0 1 0 20 13" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>',
      ),
      h("span.chip-text", t(view.direction === -1 ? "table.dirCcw" : "table.dirCw")),
    ),
  );
  // (no live region: the move that raised the stack says it, "+4 waits on Bo", and a
  // status said it again, "+4 waiting": an accessibility review)
  if (view.stack) chips.push(h("div.chip.stack", { dataset: { key: "stack" } }, t("table.stackWaiting", { n: view.stack })));
  if (view.fuse) {
    chips.push(
      h(
        "div.chip.fuse",
        { role: "status", "aria-label": t("table.fuseLabel", { n: view.fuse.count, blast: view.fuse.blast }), dataset: { key: "fuse" } },
        iconSvg("bomb"),
        h("span.fuse-count", { "aria-hidden": "true" }, String(view.fuse.count)),
        // "3 turns to BOOM +6": "3 BOOM +6" did not say what the 3 counts
        h("span", { "aria-hidden": "true" }, t("table.fuseBlast", { n: view.fuse.count, blast: view.fuse.blast })),
      ),
    );
  }
  if (view.side) {
    chips.push(
      h(
        "div.chip.side",
        iconSvg("flip"),
        // (the dot ends the first line where the chip breaks: "Gündüz" over "· 2 el sonra
        // Gece" began a line with it, a player review)
        h("span", t(view.side === "night" ? "table.night" : "table.day"), view.clock ? " ·" : ""),
        // "Day · Night in 3 turns": what the Midnight Clock will do, and when ("clock: 3 turns")
        view.clock
          ? h("span", t("table.midnightIn", { n: view.clock, side: t(view.side === "night" ? "table.day" : "table.night") }))
          : null,
      ),
    );
  }
  return h("div.status-col", chips);
}

function piles(model, act) {
  const { view } = model;
  const canDraw = hasLegal(view, "draw") || hasLegal(view, "take");
  const drawLabel = hasLegal(view, "take")
    ? t("table.drawN", { n: view.stack })
    : t("table.drawPile", { n: view.draw_count ?? 0 });
  const drawBtn = h(
    `button.draw-pile-btn${canDraw ? ".can" : ""}`,
    {
      type: "button",
      // (Day & Night: the small card on the pile is the next card's other face, said)
      "aria-label": `${drawLabel}. ${t("table.drawCount", { n: view.draw_count ?? 0 })}` +
        (view.draw_top ? `. ${t("table.drawTop", { card: cardLabel(view.draw_top) })}` : ""),
      "aria-disabled": canDraw ? "false" : "true",
      dataset: { focusKey: "pile:draw" },
      onclick: (e) => {
        if (hasLegal(view, "take")) act.action({ type: "take" });
        else if (hasLegal(view, "draw")) act.action({ type: "draw" });
        else {
          // said, as a hand card out of turn says it (the pile did nothing, silently)
          const why = legalOf(view).length ? t("table.cantDrawNow") : t("table.notYourTurn");
          announce(why);
          tip(e.currentTarget, why);
        }
      },
    },
    renderBack(),
    view.draw_top
      ? h("span.draw-top", { title: t("table.drawTop", { card: cardLabel(view.draw_top) }) },
        renderCard(view.draw_top, { size: "face" }))
      : null,
  );
  const top = view.top ? renderCard(view.top, { chosenColor: parseCard(view.top).wild ? view.color : null }) : null;
  if (top && model.fresh && model.ui && model.ui.topChanged) {
    // put in fresh (not patched over the card it covers), so that its drop animation runs
    top.classList.add("enter");
    top.dataset.morph = "replace";
  }
  return h(
    "div.center",
    h(
      "div.center-body",
      h(
      "div.piles",
      h(
        "div.pile",
        drawBtn,
        h("span.pile-label", { "aria-hidden": "true" }, t("table.drawLeft", { n: view.draw_count ?? 0 })),
      ),
      h(
        "div.pile.discard",
        { role: "group", "aria-label": t("table.discardPile") },
        top,
        h("span.pile-label", t("table.discardCount", { n: view.discard_count ?? 0 })),
      ),
      statusChips(view),
    ),
    // what just happened, for eyes (screen readers have the history region and the live region)
    h(
      "div.last-row",
      // banners stand here, over the line they say in words, not over the piles and the
      // other players (shell/banners.js)
      { dataset: { bannerSpot: "" } },
      h("p.last-move", { "aria-hidden": "true" }, model.lastLine || "\u00a0"),
      model.historyToggle || null,
    ),
    ),
  );
}

// ---------- you: the turn, the actions, the hand ----------

function actionButton(cls, focusKey, label, onclick, kbd = null, rank = null) {
  return h(
    `button.btn.action${cls}`,
    {
      type: "button",
      dataset: { focusKey, ...(rank ? { initialFocus: String(rank) } : {}) },
      onclick,
    },
    label,
    kbd ? h("span.kbd", { "aria-hidden": "true" }, kbd) : null,
  );
}

function actionButtons(model, act) {
  const { view } = model;
  const btns = [];
  const legal = legalOf(view);
  if (view.phase === "drawn" && view.drawn) {
    if (legal.some((a) => a.type === "play")) {
      const play = actionButton(".primary", "act:play", t("table.play"), () => playCard(act, view.drawn), "P", 2);
      play.setAttribute("aria-label", `${t("table.play")} ${cardLabel(view.drawn)}`); // not "PLAY" alone
      btns.push(play);
    }
    if (hasLegal(view, "keep")) {
      btns.push(actionButton("", "act:keep", t("table.keep"), () => act.action({ type: "keep" }), "K", 3));
    }
  }
  if (hasLegal(view, "take")) {
    btns.push(actionButton(".take", "act:take", t("table.drawN", { n: view.stack }), () => act.action({ type: "take" }), "D", 2));
  }
  if (hasLegal(view, "draw")) {
    btns.push(actionButton(".draw", "act:draw", t("table.draw"), () => act.action({ type: "draw" }), "D", 2));
  }
  if (hasLegal(view, "pass")) {
    btns.push(actionButton("", "act:pass", t("table.pass"), () => act.action({ type: "pass" }), null, 2));
  }
  if (hasLegal(view, "call")) {
    // with nothing to play the call helps nobody (you draw, to three cards): the draw is
    // the main action then, and the call is offered plainly, not as the brightest button
    const quiet = view.phase !== "call_window" && !legal.some((a) => a.type === "play");
    btns.push(actionButton(quiet ? ".call.quiet" : ".call", "act:call", t("banner.last_card"), () => act.action({ type: "call" }), "L", quiet ? 3 : 2));
  }
  for (const a of legal.filter((x) => x.type === "catch")) {
    btns.push(
      actionButton(
        ".catch",
        `act:catch:${a.target}`,
        t("table.catchName", { name: seatName(model.room, a.target) }),
        () => act.action({ type: "catch", target: a.target }),
        "C",
        2,
      ),
    );
  }
  // (a named group only with something in it: an empty "Your actions" was read between turns)
  return h("div.actions", btns.length ? { role: "group", "aria-label": t("table.actions") } : {}, btns);
}

function turnMessage(model) {
  const { view } = model;
  if (view.phase === "round_over") return t("table.roundOver");
  if (view.phase === "game_over") return t(isMatch(view) ? "table.matchOver" : "table.gameOver");
  if (view.window) {
    if (view.window.seat === model.me) return t("table.callNow");
    return t("table.windowOpen", { name: seatName(model.room, view.window.seat) });
  }
  if (view.turn === model.me) {
    // (a substitute plays the seat: "Your turn" read as a turn to play, after Leave and Back)
    if (Array.isArray(view.substitutes) && view.substitutes.includes(model.me)) return t("table.substituteTurn");
    if (view.phase === "color") return t("table.chooseColor");
    if (view.phase === "drawn") return t("table.playOrKeep");
    if (view.stack) {
      // (with no card to answer it, "answer it or take it" sent a player looking for one:
      // a player review)
      const canAnswer = (view.legal || []).some((a) => a.type === "play");
      return t(canAnswer ? "table.stackOnYou" : "table.stackOnYouTake", { n: view.stack });
    }
    return t("table.yourTurn");
  }
  if (view.turn === null || view.turn === undefined) return "";
  return t("table.turnOf", { name: seatName(model.room, view.turn) });
}

// A seat down to one card: ONE CARD! where there is no call (the table presets' sign,
// spec 5.6); where there is one, the call's own words ("Last card"): "¡UNA CARTA!" on a
// seat beside a button "¡Última carta!" read as two rules.
function oneCardText(view) {
  return (view.options || {}).call === "none" ? t("banner.one_card") : t("table.lastCardBadge");
}

function meBar(model, act) {
  const { view } = model;
  const me = model.me;
  const isTurn = view.window ? view.window.seat === me : view.turn === me;
  const shield = Array.isArray(view.shields) && view.shields.includes(me);
  // (while your own call window is open, the call is what is said: ONE CARD! is the
  // table presets' sign that no call is needed)
  const one = Array.isArray(view.one_card) && view.one_card.includes(me) &&
    !(view.window && view.window.seat === me);
  const score = Array.isArray(view.scores) ? view.scores[me] : null;
  const ended = view.phase === "game_over";
  // a substitute plays "until the next round": say it only while there is one to come
  const substituted = !ended && Array.isArray(view.substitutes) && view.substitutes.includes(me);
  return h(
    `div.me-bar${isTurn ? ".turn" : ""}`,
    // (a banner may stand between the line under the piles and this bar: shell/banners.js)
    { dataset: { bannerFloor: "" } },
    h(
      "div.me-info",
      myAvatar(model.room, me, botIcon),
      h("span.sr-only.clock-sr"),
      // what is said of it (app.js announces it): the drawn card by name, which has 6 s
      // to be played or kept and in a long hand is one of many (the words on screen stay
      // short: a phone's bar has no room for the card's name)
      h("span.turn-msg", { id: "turn-msg", dataset: drawnSay(model) }, turnMessage(model)),
      shield ? h("span.badge.shield", iconSvg("shield"), t("table.shieldBadge")) : null,
      one ? h("span.badge.one", oneCardText(view)) : null,
      Array.isArray(view.called) && view.called.includes(me) ? h("span.badge.one", `${t("banner.last_card")} ✓`) : null,
      isMatch(view) && score !== null ? h("span.badge", t("table.scoreN", { n: score })) : null,
      substituted
        ? h("span.badge.away", { role: "status" },
          t(noNextRound(view) ? "table.youSubstitutedToTheEnd" : "table.youSubstituted"))
        : null,
    ),
    actionButtons(model, act),
  );
}

function drawnSay(model) {
  const { view } = model;
  if (view.phase !== "drawn" || view.turn !== model.me || !view.drawn) return {};
  return { say: t("table.playOrKeepCard", { card: cardLabel(view.drawn) }) };
}

// The engine's reason a card of the hand cannot be played now, in words (or "").
function whyNot(view, code) {
  const reasons = view.unplayable || {};
  const reason = reasons[code] || reasons[parseCard(code).code];
  if (!reason) return "";
  return t(`table.why.${reason}`, { n: view.stack, color: colorWord(view.color) });
}

function handCard(model, act, code, k, n, state) {
  const { view } = model;
  const can = state.playable.has(parseCard(code).code) && (view.phase !== "drawn" || code === view.drawn);
  const btn = renderCard(code, { tag: "button" });
  btn.classList.add(can ? "playable" : state.myTurnish ? "dim" : "idle");
  let label = cardLabel(code);
  if (view.phase === "drawn" && code === view.drawn && !state.drawnMarked) {
    state.drawnMarked = true;
    btn.classList.add("drawn");
    label += `, ${t("table.drawnCard")}`;
  }
  if (can) label += `, ${t("table.playable")}`;
  btn.setAttribute("aria-label", label);
  btn.setAttribute("aria-disabled", can ? "false" : "true");
  btn.dataset.focusKey = `card:${k}:${code}`;
  btn.dataset.focusFallback = "card";
  if (can && !state.firstPlayable) {
    state.firstPlayable = true;
    btn.dataset.initialFocus = "1";
  } else if (k === 0) {
    btn.dataset.initialFocus = "4";
  }
  const step = n > 1 ? Math.min(2.5, 16 / n) : 0; // a fan of at most ±8°
  btn.style.setProperty("--rot", `${((k - (n - 1) / 2) * step).toFixed(2)}deg`);
  // (handlers find the button as ev.currentTarget: a redraw may keep the old button)
  on(btn, "click", (ev) => {
    const btn = ev.currentTarget;
    if (!can) {
      btn.classList.remove("shake");
      void btn.offsetWidth;
      btn.classList.add("shake");
      // why, as the engine says it (view.unplayable): never a rule of our own
      const why = whyNot(view, code);
      announce(!state.myTurnish ? t("table.notYourTurn")
        : `${t("table.cantPlay", { card: cardLabel(code) })} ${why}`.trim());
      tip(btn, !state.myTurnish ? t("table.notYourTurn")
        : why || (state.playable.size ? t("table.cantPlayTry") : t("table.cantPlayNow")));
      return;
    }
    playCard(act, code);
  });
  on(btn, "keydown", (ev) => {
    if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
      const li = ev.currentTarget.parentElement;
      const next = ev.key === "ArrowRight" ? li.nextElementSibling : li.previousElementSibling;
      if (next) {
        next.firstElementChild.focus();
        next.firstElementChild.scrollIntoView({ block: "nearest", inline: "nearest" });
      }
      ev.preventDefault();
    }
  });
  // the card's name in the hand (its code, and which of the same it is): a card played
  // from the middle leaves the cards after it on the page as they were (ui.js morph)
  const nth = (state.seen[code] = (state.seen[code] || 0) + 1);
  btn.dataset.key = `${code}:${nth}`;
  return h("li", { dataset: { key: `${code}:${nth}` } }, btn);
}

function handList(model, act) {
  const { view } = model;
  const hand = Array.isArray(view.hand) ? view.hand : [];
  const state = {
    seen: {},
    playable: playableCards(view),
    myTurnish: legalOf(view).length > 0,
    drawnMarked: false,
    firstPlayable: false,
  };
  const sorted = sortHand(hand);
  const items = sorted.map(({ code }, k) => handCard(model, act, code, k, sorted.length, state));
  if (!items.length) return h("div.hand-wrap", h("p.hand-empty", t("table.handEmpty")));
  const list = h(
    "ul.hand",
    {
      "aria-label": t("table.yourHand", { n: hand.length }),
      dataset: { keepScroll: "hand" },
      style: `--n:${items.length}`,
    },
    items,
  );
  const label = (side, n, lit) => {
    const where = t(side === "end" ? "table.moreRight" : "table.moreLeft", { n });
    return lit ? `${where}, ${t("table.morePlayable", { n: lit })}` : where;
  };
  return h(
    "div.hand-wrap",
    strip(list, { label, highlight: ".card.playable", cls: "hand-strip" }),
    h("p.key-help", t(keyHelp(view.options && view.options.call))),
  );
}

// ---------- the colour chooser ----------

export function colorDialog({ title, onPick, onCancel }) {
  const buttons = COLORS.map((c, i) =>
    h(
      `button.color-btn.c-${c}`,
      {
        type: "button",
        dataset: { color: c, focusKey: `color:${c}`, ...(i === 0 ? { autofocus: "" } : {}) },
        onclick: () => onPick(c),
        "aria-label": `${colorName(c)} (${t(`shape.${c}`)})`,
      },
      shapeSvg(c, "cshape"),
      h("span.color-name", { "aria-hidden": "true" }, colorName(c)),
      h("span.kbd", { "aria-hidden": "true" }, String(i + 1)),
    ),
  );
  const overlay = modal({
    title,
    cls: "color-dialog",
    overlayCls: "color-overlay",
    content: [h("div.color-choices", buttons)],
    actions: onCancel
      ? [h("button.btn.big", { type: "button", dataset: { focusKey: "color:cancel" }, onclick: onCancel }, t("common.cancel"))]
      : [],
    onClose: onCancel,
  });
  on(overlay, "keydown", (ev) => {
    const key = ev.key.toLowerCase();
    if (COLOR_KEYS[key] && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      onPick(COLOR_KEYS[key]);
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    // the arrows move between the colours as they stand (a grid of two columns, or a row)
    const steps = { arrowright: 1, arrowleft: -1 };
    const btn = ev.target.closest && ev.target.closest(".color-btn");
    const grid = btn && btn.parentElement;
    if (!grid || !(key in steps || key === "arrowdown" || key === "arrowup")) return;
    const all = [...grid.querySelectorAll(".color-btn")];
    const columns = getComputedStyle(grid).gridTemplateColumns.split(" ").filter(Boolean).length || all.length;
    const step = steps[key] ?? (key === "arrowdown" ? columns : -columns);
    const next = all[(all.indexOf(btn) + step + all.length) % all.length];
    if (next) next.focus();
    ev.preventDefault();
  });
  return overlay;
}

// ---------- the whole table ----------

// model: {room, view, me, clock, fresh (first drawing of a new state), nextReady, lastLine,
//         history (the shell's history panel), historyToggle, ui (this table's own
//         view state, kept by the shell: {faces: seat whose other faces are open,
//         choosingFor: the wild whose colour is being chosen, topChanged})}
// act: the shell's actions (action, nextRound, playAgain, home, ..., ui(patch) to change `ui`)
export function renderTable(model, act) {
  const { view } = model;
  const n = view.seats || (view.counts || []).length;
  const me = model.me;
  const opponents = [];
  for (let k = 1; k < n; k += 1) opponents.push((me + k) % n);
  const faces = !!view.faces;
  const ui = model.ui || {};
  return [
    h(
      `section.table-screen${faces ? ".with-faces" : ""}`,
      { "aria-label": t("table.title"), dataset: { seats: String(n), opponents: String(opponents.length) } },
      h("h1.sr-only", t("table.title")),
      h(
        "ul.opponents",
        { "aria-label": t("table.opponents"), dataset: { count: String(opponents.length) } },
        opponents.map((s) => opponentChip(model, act, s)),
      ),
      piles(model, act),
      model.history ? h("div.table-side", model.history) : null,
      meBar(model, act),
      handList(model, act),
      // (the colour is the pile's wild's: the first card dealt, or one a flip or a
      // Shield left on top; "Choose a colour" alone did not say for what)
      view.phase === "color" && view.turn === me
        ? colorDialog({
            title: view.top ? t("table.chooseColorFor", { card: cardLabel(view.top) }) : t("table.chooseColor"),
            onPick: (c) => act.action({ type: "color", color: c }),
          })
        : null,
      ui.choosingFor
        ? colorDialog({
            title: t("table.chooseColorFor", { card: cardLabel(ui.choosingFor) }),
            onPick: (c) => chooseColor(act, ui.choosingFor, c),
            onCancel: () => act.ui({ choosingFor: null }),
          })
        : null,
      view.phase === "round_over" || view.phase === "game_over" ? colorClashResults(model, act) : null,
      ui.faces !== null && ui.faces !== undefined && view.faces && view.faces[String(ui.faces)]
        ? facesDialog(model, act, ui.faces)
        : null,
    ),
  ];
}

// After the table is on screen: the hand's edge signs, and on a new turn the playable
// cards brought into view.
export function afterRender(root, { revealPlayable = false } = {}) {
  const wrap = root.querySelector(".hand-strip");
  if (!wrap) return;
  if (revealPlayable) revealHighlighted(wrap);
  updateStrip(wrap);
  leaveADeadCard(root);
}

// What the table asks of you (the playable cards and the action buttons): when that
// changes while the focus sits on a card that cannot be played, the focus goes to what
// can be done (a +2 on you at the start of a rematch left it on a dimmed card, DRAW +2
// the only move). Browsing the hand with the arrows changes nothing asked: it stays.
let askedBefore = "";
function leaveADeadCard(root) {
  const asked = [...root.querySelectorAll(".hand .card.playable, .table-screen .actions button")]
    .map((e) => e.dataset.focusKey || "")
    .join("|");
  if (asked === askedBefore) return;
  askedBefore = asked;
  const a = document.activeElement;
  if (!asked || !a || !a.closest || !a.closest(".hand") || a.getAttribute("aria-disabled") !== "true") return;
  const next = initialTarget(root);
  if (next && next !== a) next.focus({ preventScroll: true });
}

// Keyboard shortcuts on the table (app.js calls this only when not typing in a field or in a dialog).
export function tableKeydown(ev, model, act) {
  if (!model || !model.view) return;
  const view = model.view;
  const key = ev.key.toLowerCase();
  if (key === "d") {
    if (hasLegal(view, "take")) act.action({ type: "take" });
    else if (hasLegal(view, "draw")) act.action({ type: "draw" });
    else return keyDoesNothing(model);
  } else if (key === "p") {
    if (view.phase !== "drawn" || !view.drawn) return keyDoesNothing(model);
    playCard(act, view.drawn);
  } else if (key === "k") {
    if (!hasLegal(view, "keep")) return keyDoesNothing(model);
    act.action({ type: "keep" });
  } else if (key === "l") {
    if (!hasLegal(view, "call")) return keyDoesNothing(model);
    act.action({ type: "call" });
  } else if (key === "c") {
    const c = legalOf(view).find((a) => a.type === "catch");
    if (!c) return keyDoesNothing(model);
    act.action({ type: "catch", target: c.target });
  } else if (key === "h") {
    const first = document.querySelector(".hand .card.playable") || document.querySelector(".hand .card");
    if (first) {
      first.focus();
      first.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  } else {
    return;
  }
  ev.preventDefault();
}

// ---------- motion: the played card flies from its player to the pile ----------

export function animatePlay(root, events, me) {
  if (reducedMotion() || !Element.prototype.animate) return;
  const plays = (events || []).filter((e) => e.type === "play");
  if (!plays.length) return;
  const last = plays[plays.length - 1];
  const target = root.querySelector(".discard .card");
  const source =
    last.seat === me
      ? root.querySelector(".me-bar .avatar")
      : root.querySelector(`.opp[data-seat="${last.seat}"] .avatar`);
  if (!target || !source) return;
  const a = source.getBoundingClientRect();
  const b = target.getBoundingClientRect();
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  target.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(0.4) rotate(-20deg)`, opacity: 0.4 },
      { transform: "none", opacity: 1 },
    ],
    { duration: 280, easing: "cubic-bezier(.2,.8,.3,1)" },
  );
}
