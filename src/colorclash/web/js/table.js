// The table screen: built from the engine's view(seat) only. The client never decides a
// rule: playable cards come from view.legal, and every button sends an engine action.
import {
  cardLabel,
  COLORS,
  colorName,
  iconSvg,
  parseCard,
  renderBack,
  renderCard,
  shapeSvg,
  svg,
} from "./cards.js";
import { t } from "./i18n.js";
import { announce, h, initial, reducedMotion } from "./ui.js";

const COLOR_KEYS = { r: "R", b: "B", y: "Y", g: "G", 1: "R", 2: "B", 3: "Y", 4: "G" };
const ORDER = { R: 0, B: 1, Y: 2, G: 3 };

export function seatName(room, seat) {
  const s = room && room.seats ? room.seats[seat] : null;
  if (!s) return t("seat.n", { n: seat + 1 });
  if (s.kind === "bot") return `${t("seat.computer")} ${seat + 1}`;
  if (s.kind === "empty" || !s.name) return t("seat.n", { n: seat + 1 });
  return s.name;
}

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

function sortHand(hand) {
  const rankKey = (code) => {
    const p = parseCard(code);
    const group = p.wild ? 4 : ORDER[p.color] ?? 5;
    const n = /^\d$/.test(p.rank) ? Number(p.rank) : 10 + p.rank.charCodeAt(0);
    return group * 1000 + n;
  };
  return hand.map((code, i) => ({ code, i })).sort((a, b) => rankKey(a.code) - rankKey(b.code));
}

// ---------- clock ring ----------

const RING_R = 26;
const RING_LEN = 2 * Math.PI * RING_R;

function ring(seat) {
  const el = svg(
    `<circle class="track" cx="30" cy="30" r="${RING_R}"/>` +
      `<circle class="left" cx="30" cy="30" r="${RING_R}" stroke-dasharray="${RING_LEN}" stroke-dashoffset="0"/>`,
    { cls: "ring", viewBox: "0 0 60 60" },
  );
  el.dataset.seat = String(seat);
  return el;
}

// Update every clock ring from the server clock (deadline kept as local monotonic time).
export function tickClocks(root, clock) {
  for (const el of root.querySelectorAll(".ring")) {
    const left = el.querySelector(".left");
    const seat = Number(el.dataset.seat);
    if (!clock || clock.seat !== seat || clock.kind === "next") {
      el.style.visibility = "hidden";
      continue;
    }
    const remaining = Math.max(0, clock.localDeadline - performance.now());
    const frac = clock.total > 0 ? Math.min(1, remaining / clock.total) : 0;
    el.style.visibility = "visible";
    left.setAttribute("stroke-dashoffset", String(RING_LEN * (1 - frac)));
    el.classList.toggle("low", remaining < 5000);
    const sr = el.parentElement && el.parentElement.querySelector(".clock-sr");
    if (sr) sr.textContent = t("table.secondsLeft", { n: Math.ceil(remaining / 1000) });
  }
  for (const el of root.querySelectorAll("[data-countdown]")) {
    const remaining = clock ? Math.max(0, clock.localDeadline - performance.now()) : 0;
    el.textContent = t(el.dataset.countdown, { n: Math.ceil(remaining / 1000) });
  }
}

function avatar(model, seat, extraClass = "") {
  const s = model.room && model.room.seats ? model.room.seats[seat] : null;
  const bot = s && (s.kind === "bot" || s.substitute);
  const a = h(`div.avatar${bot ? ".bot" : ""}${extraClass}`, { "aria-hidden": "true" });
  if (s && s.kind === "bot") a.append(iconSvg("bot", "bot-icon"));
  else a.append(h("span", initial(seatName(model.room, seat))));
  a.append(ring(seat));
  return a;
}

// ---------- pieces ----------

function opponentChip(model, seat) {
  const { view, room } = model;
  const s = room && room.seats ? room.seats[seat] : null;
  const count = view.counts ? view.counts[seat] : 0;
  const isTurn = view.turn === seat || (view.window && view.window.seat === seat);
  const out = Array.isArray(view.out) && view.out.includes(seat);
  const shield = Array.isArray(view.shields) && view.shields.includes(seat);
  const one = Array.isArray(view.one_card) && view.one_card.includes(seat);
  const away = s && s.kind === "human" && !s.connected;
  const name = seatName(room, seat);
  const parts = [name];
  if (s && s.kind === "bot") parts.push(t("seat.computerLabel"));
  parts.push(t("table.cardsN", { n: count }));
  if (isTurn) parts.push(t("table.theirTurn"));
  if (shield) parts.push(t("table.shieldUp"));
  if (one) parts.push(t("banner.one_card"));
  if (out) parts.push(t("table.place", { n: view.out.indexOf(seat) + 1 }));
  if (away) parts.push(t("seat.away"));

  const badges = [];
  if (shield)
    badges.push(h("span.badge.shield", iconSvg("shield"), t("table.shieldBadge")));
  if (one) badges.push(h("span.badge.one", t("banner.one_card")));
  if (out) badges.push(h("span.badge.place", t("table.place", { n: view.out.indexOf(seat) + 1 })));
  if (away) badges.push(h("span.badge.away", t("seat.away")));
  if (s && s.substitute) badges.push(h("span.tag.bot", t("seat.substitute")));

  let faces = null;
  if (view.faces && view.faces[String(seat)] && view.faces[String(seat)].length) {
    faces = h(
      "div.faces",
      { "aria-label": t("table.theirFaces", { name }), role: "group" },
      view.faces[String(seat)].map((c) => renderCard(c, { size: "xs" })),
    );
  }
  const catchAction = legalOf(view).find((a) => a.type === "catch" && a.target === seat);
  const li = h(
    `li.opp${isTurn ? ".turn" : ""}${out ? ".out" : ""}`,
    { dataset: { seat: String(seat) } },
    isTurn ? h("span.turn-arrow", { "aria-hidden": "true" }, t("table.turnMarker")) : null,
    avatar(model, seat),
    h(
      "div.meta",
      h("span.name", name),
      h(
        "span.line",
        h(
          "span.count-pill",
          { "aria-hidden": "true" },
          renderBack(),
          String(count),
        ),
        badges,
      ),
      h("span.sr-only", parts.join(", ")),
      isTurn ? h("span.sr-only.clock-sr") : null,
    ),
    faces,
  );
  if (catchAction) li.classList.add("catchable");
  return li;
}

function activeColorChip(view) {
  if (!view.color) return null;
  return h(
    "div.active-color",
    { role: "status", "aria-label": t("table.activeColor", { color: colorName(view.color) }) },
    shapeSvg(view.color, "big-shape"),
    h("span", { "aria-hidden": "true" }, colorName(view.color)),
  );
}

function statusChips(model) {
  const { view } = model;
  const chips = [activeColorChip(view)];
  chips.push(
    h(
      "div.chip.dir",
      svg(
        view.direction === -1
          ? '<path d="M7 5H4v3M4.5 8A8 8 0 1 1 4 13" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>'
          : '<path d="M17 5h3v3M19.5 8A8 8 0 1 0 20 13" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>',
      ),
      h("span", t(view.direction === -1 ? "table.dirCcw" : "table.dirCw")),
    ),
  );
  if (view.stack) {
    chips.push(
      h("div.chip.stack", { role: "status" }, t("table.stackWaiting", { n: view.stack })),
    );
  }
  if (view.fuse) {
    chips.push(
      h(
        "div.chip.fuse",
        {
          role: "status",
          "aria-label": t("table.fuseLabel", { n: view.fuse.count, blast: view.fuse.blast }),
        },
        iconSvg("bomb"),
        h("span.fuse-count", { "aria-hidden": "true" }, String(view.fuse.count)),
        h("span", { "aria-hidden": "true" }, t("table.fuseBlast", { blast: view.fuse.blast })),
      ),
    );
  }
  if (view.side) {
    chips.push(
      h(
        "div.chip.side",
        iconSvg("flip"),
        t(view.side === "night" ? "table.night" : "table.day"),
        view.clock ? h("span", " · ", t("table.midnightIn", { n: view.clock })) : null,
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
      "aria-label": `${drawLabel}. ${t("table.drawCount", { n: view.draw_count ?? 0 })}`,
      "aria-disabled": canDraw ? "false" : "true",
      dataset: { focusKey: "pile:draw" },
      onclick: () => {
        if (hasLegal(view, "take")) act.action({ type: "take" });
        else if (hasLegal(view, "draw")) act.action({ type: "draw" });
      },
    },
    renderBack(),
    view.draw_top
      ? h("span.draw-top", renderCard(view.draw_top, { size: "sm" }))
      : null,
  );
  const top = view.top
    ? renderCard(view.top, { chosenColor: parseCard(view.top).wild ? view.color : null })
    : null;
  if (top && model.freshTop) top.classList.add("enter");
  return h(
    "div.center",
    h(
      "div.pile",
      drawBtn,
      h("span.pile-label", { "aria-hidden": "true" }, t("table.drawCount", { n: view.draw_count ?? 0 })),
    ),
    h(
      "div.pile.discard",
      { role: "group", "aria-label": t("table.discardPile") },
      top,
      h("span.pile-label", t("table.discardCount", { n: view.discard_count ?? 0 })),
    ),
    statusChips(model),
    // what just happened, for eyes (screen readers hear it in the live region)
    h("p.last-move", { "aria-hidden": "true" }, model.lastLine || "\u00a0"),
  );
}

function actionButtons(model, act) {
  const { view } = model;
  const btns = [];
  const legal = legalOf(view);
  if (view.phase === "drawn" && view.drawn) {
    const play = legal.find((a) => a.type === "play");
    if (play) {
      btns.push(
        h(
          "button.btn.action.primary",
          {
            type: "button",
            dataset: { focusKey: "act:play" },
            onclick: () => act.playCard(view.drawn),
          },
          t("table.play"),
          h("span.kbd", { "aria-hidden": "true" }, "P"),
        ),
      );
    }
    if (hasLegal(view, "keep")) {
      btns.push(
        h(
          "button.btn.action",
          { type: "button", dataset: { focusKey: "act:keep" }, onclick: () => act.action({ type: "keep" }) },
          t("table.keep"),
          h("span.kbd", { "aria-hidden": "true" }, "K"),
        ),
      );
    }
  }
  if (hasLegal(view, "take")) {
    btns.push(
      h(
        "button.btn.action.take",
        { type: "button", dataset: { focusKey: "act:take" }, onclick: () => act.action({ type: "take" }) },
        t("table.drawN", { n: view.stack }),
        h("span.kbd", { "aria-hidden": "true" }, "D"),
      ),
    );
  }
  if (hasLegal(view, "draw")) {
    btns.push(
      h(
        "button.btn.action.draw",
        { type: "button", dataset: { focusKey: "act:draw" }, onclick: () => act.action({ type: "draw" }) },
        t("table.draw"),
        h("span.kbd", { "aria-hidden": "true" }, "D"),
      ),
    );
  }
  if (hasLegal(view, "pass")) {
    btns.push(
      h(
        "button.btn.action",
        { type: "button", dataset: { focusKey: "act:pass" }, onclick: () => act.action({ type: "pass" }) },
        t("table.pass"),
      ),
    );
  }
  if (hasLegal(view, "call")) {
    btns.push(
      h(
        "button.btn.action.call",
        { type: "button", dataset: { focusKey: "act:call" }, onclick: () => act.action({ type: "call" }) },
        t("banner.last_card"),
        h("span.kbd", { "aria-hidden": "true" }, "L"),
      ),
    );
  }
  for (const a of legal.filter((x) => x.type === "catch")) {
    btns.push(
      h(
        "button.btn.action.catch",
        {
          type: "button",
          dataset: { focusKey: `act:catch:${a.target}` },
          onclick: () => act.action({ type: "catch", target: a.target }),
        },
        t("table.catchName", { name: seatName(model.room, a.target) }),
        h("span.kbd", { "aria-hidden": "true" }, "C"),
      ),
    );
  }
  return h("div.actions", { role: "group", "aria-label": t("table.actions") }, btns);
}

function turnMessage(model) {
  const { view } = model;
  if (view.phase === "round_over") return t("table.roundOver");
  if (view.phase === "game_over") return t("table.matchOver");
  if (view.window) {
    if (view.window.seat === model.me) return t("table.callNow");
    return t("table.windowOpen", { name: seatName(model.room, view.window.seat) });
  }
  if (view.turn === model.me) {
    if (view.phase === "color") return t("table.chooseColor");
    if (view.phase === "drawn") return t("table.playOrKeep");
    if (view.stack) return t("table.stackOnYou", { n: view.stack });
    return t("table.yourTurn");
  }
  if (view.turn === null || view.turn === undefined) return "";
  return t("table.turnOf", { name: seatName(model.room, view.turn) });
}

function meBar(model, act) {
  const { view } = model;
  const me = model.me;
  const isTurn = view.turn === me || (view.window && view.window.seat === me);
  const shield = Array.isArray(view.shields) && view.shields.includes(me);
  const one = Array.isArray(view.one_card) && view.one_card.includes(me);
  const score = Array.isArray(view.scores) ? view.scores[me] : null;
  const multi = view.options && view.options.rounds !== 1;
  return h(
    `div.me-bar${isTurn ? ".turn" : ""}`,
    h(
      "div.me-info",
      avatar(model, me),
      h("span.sr-only.clock-sr"),
      h("span.turn-msg", { id: "turn-msg" }, turnMessage(model)),
      shield ? h("span.badge.shield", iconSvg("shield"), t("table.shieldBadge")) : null,
      one ? h("span.badge.one", t("banner.one_card")) : null,
      Array.isArray(view.called) && view.called.includes(me)
        ? h("span.badge.one", `${t("banner.last_card")} ✓`)
        : null,
      multi && score !== null ? h("span.badge", t("table.scoreN", { n: score })) : null,
      Array.isArray(view.substitutes) && view.substitutes.includes(me)
        ? h("span.badge.away", { role: "status" }, t("table.youSubstituted"))
        : null,
    ),
    actionButtons(model, act),
  );
}

function handList(model, act) {
  const { view } = model;
  const hand = Array.isArray(view.hand) ? view.hand : [];
  const playable = playableCards(view);
  const myTurnish = legalOf(view).length > 0;
  const sorted = sortHand(hand);
  const n = sorted.length;
  const step = n > 1 ? Math.min(3.5, 36 / n) : 0;
  let drawnMarked = false;
  const items = sorted.map(({ code }, k) => {
    const p = parseCard(code);
    const can = playable.has(p.code) && (view.phase !== "drawn" || code === view.drawn);
    const btn = renderCard(code, { tag: "button" });
    btn.classList.add(can ? "playable" : myTurnish ? "dim" : "idle");
    if (!can && myTurnish) btn.classList.add("dim");
    let label = cardLabel(code);
    if (view.phase === "drawn" && code === view.drawn && !drawnMarked) {
      drawnMarked = true;
      btn.classList.add("drawn");
      label += `, ${t("table.drawnCard")}`;
    }
    if (can) label += `, ${t("table.playable")}`;
    btn.setAttribute("aria-label", label);
    btn.setAttribute("aria-disabled", can ? "false" : "true");
    btn.dataset.focusKey = `card:${k}:${code}`;
    btn.dataset.focusFallback = "card";
    btn.style.setProperty("--rot", `${((k - (n - 1) / 2) * step).toFixed(2)}deg`);
    btn.addEventListener("click", () => {
      if (!can) {
        btn.classList.remove("shake");
        void btn.offsetWidth;
        btn.classList.add("shake");
        announce(myTurnish ? t("table.cantPlay", { card: cardLabel(code) }) : t("table.notYourTurn"));
        return;
      }
      act.playCard(code);
    });
    btn.addEventListener("keydown", (ev) => {
      if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
        const li = btn.parentElement;
        const next = ev.key === "ArrowRight" ? li.nextElementSibling : li.previousElementSibling;
        if (next) {
          next.firstElementChild.focus();
          next.firstElementChild.scrollIntoView({ block: "nearest", inline: "nearest" });
        }
        ev.preventDefault();
      }
    });
    return h("li", btn);
  });
  return h(
    "div.hand-wrap",
    items.length
      ? h(
          "ul.hand",
          { "aria-label": t("table.yourHand", { n: hand.length }), dataset: { keepScroll: "hand" } },
          items,
        )
      : h("p.hand-empty", t("table.handEmpty")),
    h("p.key-help", t("table.keyHelp")),
  );
}

// ---------- dialogs ----------

export function colorDialog({ title, onPick, onCancel }) {
  const titleId = "color-title";
  const buttons = COLORS.map((c, i) =>
    h(
      `button.color-btn.c-${c}`,
      {
        type: "button",
        dataset: { color: c, focusKey: `color:${c}` },
        onclick: () => onPick(c),
        "aria-label": `${colorName(c)} (${t(`shape.${c}`)})`,
      },
      shapeSvg(c, "cshape"),
      h("span", { "aria-hidden": "true" }, colorName(c)),
      h("span.kbd", { "aria-hidden": "true" }, String(i + 1)),
    ),
  );
  const dlg = h(
    "div.dialog",
    { role: "dialog", "aria-modal": "true", "aria-labelledby": titleId },
    h("h2", { id: titleId }, title),
    h("div.color-choices", buttons),
    onCancel
      ? h(
          "div.row",
          { style: "margin-top:12px" },
          h("button.btn.ghost", { type: "button", style: "color:#111", onclick: onCancel }, t("common.cancel")),
        )
      : null,
  );
  const overlay = h("div.overlay.color-overlay", dlg);
  overlay.addEventListener("keydown", (ev) => {
    const key = ev.key.toLowerCase();
    if (COLOR_KEYS[key]) {
      onPick(COLOR_KEYS[key]);
      ev.preventDefault();
      ev.stopPropagation();
    } else if (ev.key === "Escape" && onCancel) {
      onCancel();
      ev.stopPropagation();
    } else if (ev.key === "Tab") {
      // keep focus inside the dialog
      const f = [...dlg.querySelectorAll("button")];
      const i = f.indexOf(document.activeElement);
      const next = ev.shiftKey ? (i <= 0 ? f.length - 1 : i - 1) : (i + 1) % f.length;
      f[next].focus();
      ev.preventDefault();
    }
  });
  return overlay;
}

function resultsDialog(model, act) {
  const { view, room } = model;
  const over = view.phase === "game_over";
  const seats = view.seats || (view.counts || []).length;
  const roundScores = Array.isArray(view.round_scores) ? view.round_scores : [];
  const last = roundScores.length ? roundScores[roundScores.length - 1] : null;
  const totals = Array.isArray(view.scores) ? view.scores : [];
  const winners = over && view.result ? view.result.winners || [] : model.lastRoundWinners || [];
  const multi = view.options ? view.options.rounds !== 1 : roundScores.length > 1;
  const order = [...Array(seats).keys()].sort(
    (a, b) => (totals[b] ?? 0) - (totals[a] ?? 0) || a - b,
  );
  const titleId = "results-title";
  let headline;
  if (over) {
    if (!winners.length) headline = t("results.noWinner");
    else if (winners.includes(model.me)) headline = t("results.youWin");
    else headline = t("results.winner", { name: winners.map((s) => seatName(room, s)).join(", ") });
  } else {
    if (!winners.length) headline = t("results.noWinner");
    else if (winners[0] === model.me) headline = t("results.youWonRound");
    else headline = t("results.roundWinner", { name: seatName(room, winners[0]) });
  }
  const rows = order.map((s) =>
    h(
      `tr${winners.includes(s) ? ".winner" : ""}`,
      h(
        "td",
        seatName(room, s),
        s === model.me ? h("span.tag.you", t("seat.youTag")) : null,
        room && room.seats && room.seats[s] && room.seats[s].kind === "bot"
          ? h("span.tag.bot", t("seat.computerLabel"))
          : null,
        winners.includes(s) ? h("span.sr-only", ` (${t("results.winnerTag")})`) : null,
      ),
      h("td.num", String((view.counts || [])[s] ?? 0)),
      multi ? h("td.num", String(last ? last[s] ?? 0 : 0)) : null,
      h("td.num", String(totals[s] ?? 0)),
    ),
  );
  const isHost = room && room.host === model.me;
  const buttons = [];
  if (over) {
    if (isHost) {
      buttons.push(
        h(
          "button.btn.primary.big",
          { type: "button", dataset: { focusKey: "res:again" }, onclick: () => act.playAgain() },
          t("results.playAgain"),
        ),
      );
    } else {
      buttons.push(h("p.status-line", t("results.waitHost")));
    }
    buttons.push(
      h("button.btn", { type: "button", dataset: { focusKey: "res:home" }, onclick: () => act.home() }, t("common.home")),
    );
  } else {
    const ready = model.nextReady;
    buttons.push(
      h("p.status-line", { dataset: { countdown: "results.nextIn" } }, ""),
      h(
        "button.btn.primary.big",
        {
          type: "button",
          dataset: { focusKey: "res:next" },
          "aria-pressed": ready ? "true" : "false",
          onclick: () => act.nextRound(),
          disabled: ready,
        },
        ready ? t("results.waitingOthers") : t("results.nextRound"),
      ),
    );
  }
  const dlg = h(
    "div.dialog.results",
    { role: "dialog", "aria-modal": "true", "aria-labelledby": titleId },
    h("h2", { id: titleId }, over ? t("results.matchOver") : t("results.roundOver", { n: view.round ?? 1 })),
    h("p", { style: "font-weight:800;font-size:1.15rem" }, headline),
    h(
      "table.results-table",
      h(
        "thead",
        h(
          "tr",
          h("th", { scope: "col" }, t("results.player")),
          h("th.num", { scope: "col" }, t("results.cardsLeft")),
          multi ? h("th.num", { scope: "col" }, t("results.roundPoints")) : null,
          h("th.num", { scope: "col" }, multi ? t("results.total") : t("results.points")),
        ),
      ),
      h("tbody", rows),
    ),
    h("div.row", buttons),
  );
  return h("div.overlay.results-overlay", { dataset: { phase: view.phase } }, dlg);
}

// ---------- the whole table ----------

export function renderTable(model, act) {
  const { view } = model;
  const n = view.seats || (view.counts || []).length;
  const me = model.me;
  const opponents = [];
  for (let k = 1; k < n; k += 1) opponents.push((me + k) % n);
  const nodes = [
    h(
      "section.table-screen",
      { "aria-label": t("table.title") },
      h("h1.sr-only", t("table.title")),
      h("ul.opponents", { "aria-label": t("table.opponents"), tabindex: "0" }, opponents.map((s) => opponentChip(model, s))),
      piles(model, act),
      meBar(model, act),
      handList(model, act),
      view.phase === "color" && view.turn === me
        ? colorDialog({ title: t("table.chooseColor"), onPick: (c) => act.action({ type: "color", color: c }) })
        : null,
      model.choosingFor
        ? colorDialog({
            title: t("table.chooseColorFor", { card: cardLabel(model.choosingFor) }),
            onPick: (c) => act.chooseColor(c),
            onCancel: () => act.cancelChoose(),
          })
        : null,
      view.phase === "round_over" || view.phase === "game_over" ? resultsDialog(model, act) : null,
    ),
  ];
  return nodes;
}

// Keyboard shortcuts on the table (not while typing in a field).
export function tableKeydown(ev, model, act) {
  if (!model || !model.view) return;
  if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (document.querySelector(".overlay")) return;
  const view = model.view;
  const key = ev.key.toLowerCase();
  if (key === "d") {
    if (hasLegal(view, "take")) act.action({ type: "take" });
    else if (hasLegal(view, "draw")) act.action({ type: "draw" });
    else return;
  } else if (key === "p" && view.phase === "drawn" && view.drawn) {
    act.playCard(view.drawn);
  } else if (key === "k" && hasLegal(view, "keep")) {
    act.action({ type: "keep" });
  } else if (key === "l" && hasLegal(view, "call")) {
    act.action({ type: "call" });
  } else if (key === "c") {
    const c = legalOf(view).find((a) => a.type === "catch");
    if (!c) return;
    act.action({ type: "catch", target: c.target });
  } else if (key === "h") {
    const first = document.querySelector(".hand .card.playable") || document.querySelector(".hand .card");
    if (first) first.focus();
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

// ---------- events: banners and announcements ----------

const BANNER = {
  stacked: (e) => ({ text: t("banner.stacked", { n: e.total }), cls: "warn" }),
  take: (e) => ({ text: t("banner.take", { n: e.count }), cls: "warn" }),
  shield_up: () => ({ text: t("banner.shield_up"), cls: "shield" }),
  blocked: () => ({ text: t("banner.blocked"), cls: "shield" }),
  shield_block: () => ({ text: t("banner.blocked"), cls: "shield" }),
  fuse_lit: () => ({ text: t("banner.fuse_lit"), cls: "boom" }),
  boom: () => ({ text: t("banner.boom"), cls: "boom" }),
  one_card: () => ({ text: t("banner.one_card"), cls: "" }),
  last_card: () => ({ text: t("banner.last_card"), cls: "" }),
  caught: () => ({ text: t("banner.caught"), cls: "warn" }),
  flip: (e) => ({ text: t("banner.flip", { side: t(e.side === "night" ? "table.night" : "table.day") }), cls: "info" }),
  clock_flip: (e) => ({ text: t("banner.flip", { side: t(e.side === "night" ? "table.night" : "table.day") }), cls: "info" }),
  hunt: (e) => ({ text: t("banner.hunt", { color: colorName(e.color) }), cls: "warn" }),
  clock_set: () => ({ text: t("banner.clock_set"), cls: "info" }),
  color_chosen: (e) => ({ text: t("banner.color_chosen", { color: colorName(e.color) }), cls: "info", color: e.color }),
  round_over: () => ({ text: t("banner.round_over"), cls: "info" }),
  game_over: () => ({ text: t("banner.game_over"), cls: "info" }),
  dead_round: () => ({ text: t("banner.dead_round"), cls: "info" }),
};

function describe(e, model) {
  const me = e.seat !== undefined && e.seat !== null && e.seat === model.me;
  const who = e.seat !== undefined && e.seat !== null ? seatName(model.room, e.seat) : "";
  switch (e.type) {
    case "play":
      return t(me ? "say.you.play" : "say.play", { name: who, card: cardLabel(e.card) });
    case "draw":
      return t(me ? "say.you.draw" : "say.draw", { name: who, n: e.count });
    case "take":
      return t(me ? "say.you.take" : "say.take", { name: who, n: e.count });
    case "keep":
      return t(me ? "say.you.keep" : "say.keep", { name: who });
    case "pass":
      return t(me ? "say.you.pass" : "say.pass", { name: who });
    case "skip":
      return t(me ? "say.you.skip" : "say.skip", { name: who });
    case "skip_all":
      return t(me ? "say.you.skipAll" : "say.skipAll", { name: who });
    case "reverse":
      return t("say.reverse");
    case "color_chosen":
      return t(me ? "say.you.color" : "say.color", { name: who, color: colorName(e.color) });
    case "stacked":
      return t(me ? "say.you.stacked" : "say.stacked", { name: who, n: e.total });
    case "shield_up":
      return t(me ? "say.you.shieldUp" : "say.shieldUp", { name: who });
    case "blocked":
    case "shield_block":
      return t(me ? "say.you.blocked" : "say.blocked", { name: who });
    case "fuse_lit":
      return t("say.fuse", { n: e.fuse, blast: e.blast });
    case "boom":
      return t(me ? "say.you.boom" : "say.boom", { name: who, n: e.count });
    case "one_card":
      return t(me ? "say.you.oneCard" : "say.oneCard", { name: who });
    case "last_card":
    case "call_on":
      return t(me ? "say.you.lastCard" : "say.lastCard", { name: who });
    case "caught": {
      const by = seatName(model.room, e.by);
      if (me) return t("say.you.caught", { by, n: e.count });
      if (e.by === model.me) return t("say.youCaught", { name: who, n: e.count });
      return t("say.caught", { name: who, by, n: e.count });
    }
    case "out":
      return t(me ? "say.you.out" : "say.out", { name: who, n: e.place });
    case "flip":
    case "clock_flip":
      return t("banner.flip", { side: t(e.side === "night" ? "table.night" : "table.day") });
    case "hunt":
      return t(me ? "say.you.hunt" : "say.hunt", { name: who, n: e.count, color: colorName(e.color) });
    case "reshuffle":
      return t("say.reshuffle");
    case "round_over":
      return t("banner.round_over");
    case "game_over":
      return t("banner.game_over");
    case "substitute":
      if (!e.on) return "";
      return me ? t("table.youSubstituted") : t("say.substitute", { name: who });
    default:
      return "";
  }
}

// The plain-language lines for a batch of events ("Bo played Red 7 (circle)").
export function describeEvents(events, model) {
  return (events || []).map((e) => describe(e, model)).filter(Boolean);
}

export class Banners {
  constructor() {
    this.queue = [];
    this.busy = false;
  }

  layer() {
    return document.getElementById("banner-layer");
  }

  push(events, model) {
    const lines = [];
    for (const e of events || []) {
      const line = describe(e, model);
      if (line) lines.push(line);
      const make = BANNER[e.type];
      if (make) this.queue.push(make(e));
    }
    if (lines.length) announce(lines.join(". "));
    // keep the queue short: a burst of events shows its last few banners
    if (this.queue.length > 4) this.queue.splice(0, this.queue.length - 4);
    this._run();
  }

  _run() {
    if (this.busy) return;
    const next = this.queue.shift();
    if (!next) return;
    this.busy = true;
    const show = () => {
      const layer = this.layer();
      if (layer && !document.querySelector(".results-overlay")) {
        const b = h(`div.banner${next.cls ? `.${next.cls}` : ""}`, next.text);
        if (next.color) b.prepend(shapeSvg(next.color));
        b.dataset.testid = "banner";
        layer.replaceChildren(b);
      }
      setTimeout(() => {
        const l = this.layer();
        if (l) l.replaceChildren();
        this.busy = false;
        this._run();
      }, this.queue.length ? 900 : 1400);
    };
    show();
  }

  clear() {
    this.queue = [];
    const l = this.layer();
    if (l) l.replaceChildren();
  }
}
