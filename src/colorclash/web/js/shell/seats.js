// Seats and clocks of any table: names (computer players labelled), avatars with the
// clock ring, and the ticking of every ring from the server clock.
import { has, hasAny, t } from "../i18n.js";
import { h, initial, svg } from "../ui.js";

export function seatName(room, seat) {
  const s = room && room.seats ? room.seats[seat] : null;
  if (!s) return t("seat.n", { n: seat + 1 });
  if (s.kind === "bot") return computerName(room, seat);
  // a seat freed after the match keeps, in what shows that match, the name it was played under
  const name = s.kind === "empty" ? room.status === "finished" && s.former : s.name;
  if (!name) return t("seat.n", { n: seat + 1 });
  return room.kind === "quick-match" ? animalName(name) : name;
}

// Computer players are numbered among themselves, in seat order ("Computer 1", "Computer
// 2"), and a lone one is just "Computer": numbered by its seat, a duel's one computer was
// "Computer 2" (where is 1?), and Turkish read "Bilgisayar 2 2 kart çekti".
function computerName(room, seat) {
  const bots = room.seats.flatMap((s, i) => (s && s.kind === "bot" ? [i] : []));
  if (bots.length < 2) return t("seat.computer");
  return `${t("seat.computer")} ${bots.indexOf(seat) + 1}`;
}

// Quick Match seats people under names the site makes of its own words ("Quiet Turtle",
// "Blue Otter 2": server/names.py), so they are said in the page's language
// (i18n/names/: "Tortuga Sutil", "Sessiz Kaplumbağa"). Any other name is the person's own.
const ANIMAL_NAME = /^(\w+) (\w+)( \d+)?$/;

export function animalName(name) {
  const m = ANIMAL_NAME.exec(name || "");
  const adj = m && `names.adj.${m[1]}`;
  const animal = m && `names.animal.${m[2]}`;
  if (!m || !has(adj) || !has(animal)) return name;
  return t("names.pattern", { adj: t(adj), animal: t(animal) }) + (m[3] || "");
}

// The computer player's icon (a small robot), for avatars and seat lists of every game.
export function botIcon(cls = "bot-icon") {
  return svg(
    '<rect x="3" y="4" width="18" height="12" rx="2" fill="none" stroke="currentColor" stroke-width="2"/>' +
      '<circle cx="9" cy="10" r="1.6" fill="currentColor"/><circle cx="15" cy="10" r="1.6" fill="currentColor"/>' +
      '<path d="M9 20h6M12 16v4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
    { cls: `${cls} icon-bot` },
  );
}

// The label of a computer player: its level too ("Computer · Medium"), as the home page's
// Practice form names it, so that a player knows what they are playing against (a
// substitute playing for a person who left has no level: plain "Computer"). The results
// tables keep the plain label: a six-seat table's six rows must fit a small phone.
export function computerLabel(room, seat) {
  const level = computerLevel(room, seat);
  return level ? t("seat.computerLevel", { level }) : t("seat.computerLabel");
}

// The level alone ("Medium"), or null (a substitute, a person): where the seat's name
// already says "Computer" and the label would not fit (a narrow phone).
export function computerLevel(room, seat) {
  const s = room && room.seats ? room.seats[seat] : null;
  return s && s.kind === "bot" && s.level ? levelName(room.game, s.level) : null;
}

// A computer level's name: a game's own word for a level ("<game>.level.<name>" in its
// catalog), else the shell's for the common four (a new game's level showed
// "⟦level.perfect⟧": a game's catalog may hold only keys of its own); a word missing in
// this language is English's; null when no catalog names the level.
export function levelName(game, level) {
  const own = `${game}.level.${level}`;
  const common = `level.${level}`;
  for (const key of [own, common]) if (has(key)) return t(key);
  for (const key of [own, common]) if (hasAny(key)) return t(key);
  return null;
}

// Why a person is not at the table, as a catalog key: "seat.leftShort" when they chose to
// leave during play (a substitute plays; they are not expected back), "seat.away" when
// their connection is gone (their seat waits for them), or null.
export function absence(room, seat) {
  const s = room && room.seats ? room.seats[seat] : null;
  if (!s || s.kind !== "human") return null;
  if (s.left) return "seat.leftShort";
  return s.connected ? null : "seat.away";
}

// The server's clock less this page's (the welcome's `server_time`), for the times the
// server gives (a seat's `substitute_at`).
let serverOffset = 0;
export function setServerTime(serverMs) {
  if (typeof serverMs === "number" && serverMs > 1e12) serverOffset = serverMs - Date.now();
}

function awayText(key, until) {
  if (until === null) return t(key);
  const left = Math.ceil((until - (Date.now() + serverOffset)) / 1000);
  // (an hour or more: a clock that cannot be right; the badge says "Away" alone)
  return left > 0 && left < 3600 ? t("seat.awayFor", { n: left }) : t(key);
}

// A seat's "Away" (or "Left") badge, null when the person is there. During play an away
// seat's counts down the seconds until a computer substitute takes it (`substitute_at`;
// tickClocks): the others saw "Away" and no more (a clock review).
export function awayBadge(room, seat) {
  const key = absence(room, seat);
  if (!key) return null;
  const s = room.seats[seat];
  const until = key === "seat.away" && typeof s.substitute_at === "number" ? s.substitute_at : null;
  return h("span.badge.away", until === null ? {} : { dataset: { awayUntil: String(until) } }, awayText(key, until));
}

export function isComputer(room, seat) {
  const s = room && room.seats ? room.seats[seat] : null;
  return !!s && s.kind === "bot";
}

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

// The round avatar of a seat (initial, or the computer icon), with its clock ring.
export function avatar(room, seat, icon = botIcon) {
  const s = room && room.seats ? room.seats[seat] : null;
  const bot = s && (s.kind === "bot" || s.substitute);
  const a = h(`div.avatar${bot ? ".bot" : ""}`, { "aria-hidden": "true" });
  if (s && s.kind === "bot" && icon) a.append(icon());
  else a.append(h("span", initial(seatName(room, seat))));
  a.append(ring(seat));
  a.append(h("span.clock-secs", { dataset: { seat: String(seat) } }));
  return a;
}

// One's own avatar at the table, with one's name under it: the name the others see (a
// Quick Match player's animal name among them), which the initial alone does not say.
export function myAvatar(room, seat, icon = botIcon) {
  const name = seatName(room, seat);
  return h("div.me-who", avatar(room, seat, icon), h("span.me-name", { title: name }, name));
}

// The seconds are written beside the ring once few are left: the ring alone is easy to
// miss, and a player should see that the table is about to move for them.
const SECONDS_SHOWN_MS = 10_000;
// a turn clock this long or longer is written all along (minutes and seconds)
const LONG_CLOCK_MS = 120_000;

// Your own last seconds are also written large after your turn message: the ring round
// your picture is at the edge of the bar, while you look at your hand and the table.
function yourSeconds(root, clock) {
  const msg = root.querySelector("#turn-msg");
  if (!msg) return;
  const ring = root.querySelector(".me-who .ring");
  const seat = ring ? Number(ring.dataset.seat) : null;
  const running = !!clock && clock.seat === seat && clock.kind !== "next";
  const remaining = running ? Math.max(0, clock.localDeadline - performance.now()) : Infinity;
  // a clock of minutes (10 min) is written all along, as minutes and seconds: the ring
  // alone said nothing of how many were left (a clock review)
  const minutes = running && clock.total >= LONG_CLOCK_MS;
  let badge = msg.querySelector(".turn-secs");
  if (remaining > SECONDS_SHOWN_MS && !minutes) {
    if (badge) badge.remove();
    return;
  }
  if (!badge) {
    badge = h("span.turn-secs", { "aria-hidden": "true" }); // the ring's clock-sr says it
    msg.append(" ", badge);
  }
  const secs = Math.ceil(remaining / 1000);
  badge.textContent = secs >= 60
    ? `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`
    : t("table.secondsShort", { n: secs });
  badge.classList.toggle("low", remaining < 5000);
}

// Update every clock ring from the server clock (deadline kept as local monotonic time),
// and every [data-countdown] text.
export function tickClocks(root, clock) {
  const turnMsg = !!root.querySelector("#turn-msg"); // (your seconds written there)
  for (const el of root.querySelectorAll(".ring")) {
    const left = el.querySelector(".left");
    const seat = Number(el.dataset.seat);
    const secs = el.parentElement && el.parentElement.querySelector(".clock-secs");
    if (!clock || clock.seat !== seat || clock.kind === "next") {
      el.style.visibility = "hidden";
      if (secs) secs.classList.remove("show");
      continue;
    }
    const remaining = Math.max(0, clock.localDeadline - performance.now());
    const frac = clock.total > 0 ? Math.min(1, remaining / clock.total) : 0;
    el.style.visibility = "visible";
    left.setAttribute("stroke-dashoffset", String(RING_LEN * (1 - frac)));
    el.classList.toggle("low", remaining < 5000);
    if (secs) {
      // your own are written after your turn message (yourSeconds): not twice, the
      // picture's "10" beside "Your turn 10 s" (a player review)
      const yours = turnMsg && !!el.closest(".me-who");
      secs.textContent = String(Math.ceil(remaining / 1000));
      secs.classList.toggle("show", remaining <= SECONDS_SHOWN_MS && !yours);
      secs.classList.toggle("low", remaining < 5000);
    }
    const sr = el.closest("[data-clock-owner], .opp, .me-bar");
    const text = sr && sr.querySelector(".clock-sr");
    if (text) text.textContent = t("table.secondsLeft", { n: Math.ceil(remaining / 1000) });
  }
  yourSeconds(root, clock);
  for (const el of root.querySelectorAll("[data-away-until]")) {
    const text = awayText("seat.away", Number(el.dataset.awayUntil));
    if (el.textContent !== text) el.textContent = text;
  }
  for (const el of root.querySelectorAll("[data-countdown]")) {
    const remaining = clock ? Math.max(0, clock.localDeadline - performance.now()) : 0;
    el.textContent = t(el.dataset.countdown, { n: Math.ceil(remaining / 1000) });
  }
}
