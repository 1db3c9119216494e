// The server's own events, the same at every game's table (the game modules word their
// engine's events): "time_up", the clock ran out and the move that follows was made for
// the seat; "left", a player chose to leave (a substitute plays; do not wait for them).
// The shell words them and leaves every other event to the game.
import { getLang, t } from "../i18n.js";
import { announce } from "../ui.js";
import { seatName } from "./seats.js";

// What the server itself says, not a game's rules: worded here and never handed to a
// game's module (each game worded the substitute alike, and skipped the server's deal).
// The server's `deal` (its match number and commitment) shares its type with the engines'
// own deals, which name the round: it is told apart by its `match`.
const SERVER_EVENTS = new Set(["time_up", "left", "substitute"]);
const isServerEvent = (e) => SERVER_EVENTS.has(e.type) || (e.type === "deal" && e.match != null);

function serverLine(e, model) {
  const me = e.seat === model.me;
  const name = () => seatName(model.room, e.seat);
  if (e.type === "time_up") {
    if (e.again) return ""; // (the same turn's next move: said once, worded as the computer's)
    return me ? t("say.you.timeUp") : t("say.timeUp", { name: name() });
  }
  if (e.type === "left") return me ? t("say.you.left") : t("say.left", { name: name() });
  if (e.type === "substitute") {
    if (!e.on) return me ? t("say.you.back") : t("say.back", { name: name() });
    return me ? t("say.you.substitute") : t("say.substitute", { name: name() });
  }
  return ""; // (the server's deal: the engine's own deal, in the same moment, says it)
}

// The words of one moment, in the order of its events (the game words each run of its
// own events together: a line may depend on another event of the same moment).
//
// While a computer substitute plays a seat its moves are not its player's: "You played
// Blue 4" told a player who had left and come back of moves they never made, and "Bruno
// played Green 4" credited Bruno, away, with the computer's (a player check: a computer
// is always said to be one). `before` holds the seats a substitute played as the moment
// began; each `substitute` event of the moment turns its seat's wording from there on, so
// a seat's moves are worded "Your substitute ..." (nobody is "you" then) or "Bruno's
// substitute ...". The server's own lines name the player ("Bruno left the table": the
// substitute plays on). A move made when a seat's clock ran out and chosen by a computer
// (`time_up`, `by: "computer"`: Coloretto, Rainbow) is the computer's too ("Your time ran
// out · Your substitute took row 2"); a game's own timeout move (`by: "rule"`: Color Clash
// draws, or plays by its fixed policy) stays the seat's.
export function describeAll(game, events, model, sep = " · ", before = NOBODY) {
  const lines = [];
  let run = [];
  const substituted = new Set(before);
  const timedOut = new Set(); // seats whose clock ran out in this moment, a computer choosing
  const reword = () => substitutedModel(model, new Set([...substituted, ...timedOut]));
  let wording = reword();
  const flush = () => {
    if (run.length) lines.push(capitalSubstitute(game.describeMoment(run, wording, sep), sep));
    run = [];
  };
  for (const e of events || []) {
    if (isServerEvent(e)) {
      flush();
      lines.push(serverLine(e, model));
      if (e.type === "substitute" && typeof e.seat === "number") {
        if (e.on) substituted.add(e.seat);
        else substituted.delete(e.seat);
        wording = reword();
      } else if (e.type === "time_up" && e.by === "computer" && typeof e.seat === "number") {
        timedOut.add(e.seat);
        wording = reword();
      }
    } else run.push(e);
  }
  flush();
  return lines.filter(Boolean).join(sep);
}

const SUBSTITUTE_NAME = () => t("seat.yourSubstitute");

// "your substitute" is written in lower case, for the middle of a sentence ("A tu suplente
// le queda una carta", "Bo caught your substitute": "A Tu suplente" was a native reader's
// first note); a sentence it begins starts with a capital
function capitalSubstitute(line, sep) {
  const name = SUBSTITUTE_NAME();
  if (!line.includes(name)) return line;
  const lang = getLang();
  return line
    .split(sep)
    .map((part) => (part.startsWith(name) ? part.charAt(0).toLocaleUpperCase(lang) + part.slice(1) : part))
    .join(sep);
}
const NOBODY = new Set();

function substitutedModel(model, seats) {
  if (!seats.size) return model;
  const room = model.room || {};
  const named = (room.seats || []).map((s, i) => {
    if (!seats.has(i)) return s;
    const name = i === model.me ? SUBSTITUTE_NAME() : t("seat.substituteOf", { name: seatName(room, i) });
    return { ...s, kind: "human", name };
  });
  return { ...model, me: seats.has(model.me) ? -1 : model.me, room: { ...room, seats: named } };
}

function substitutedNow(model) {
  const seats = (model.room && model.room.seats) || [];
  return new Set(seats.flatMap((s, i) => (s && s.substitute ? [i] : [])));
}

// The seats a substitute played before a moment, from those it played after it: the
// moment's `substitute` events undone, the last first.
function substitutedBefore(after, events) {
  const before = new Set(after);
  const changes = (events || []).filter((e) => e.type === "substitute" && typeof e.seat === "number");
  for (const e of changes.reverse()) {
    if (e.on) before.delete(e.seat);
    else before.add(e.seat);
  }
  return before;
}

// The lines of the moments kept, oldest first: each worded as it happened, the seats'
// substitutions followed back from the room's current state through the moments'
// "substitute" events.
export function describeMoments(game, moments, model) {
  let after = substitutedNow(model);
  const lines = [];
  for (let i = moments.length - 1; i >= 0; i -= 1) {
    const before = substitutedBefore(after, moments[i].events);
    lines.push(describeAll(game, moments[i].events, model, undefined, before));
    after = before;
  }
  return lines.reverse();
}

// One new moment as it is said: by a seat's substitute while it plays the seat.
export function describeNow(game, events, model, sep) {
  return describeAll(game, events, model, sep, substitutedBefore(substitutedNow(model), events));
}

// The banners of one moment: your own time running out first, then the game's.
export function bannersAll(game, events, model) {
  const own = (events || [])
    .filter((e) => e.type === "time_up" && e.seat === model.me && !e.again)
    .map(() => ({ text: () => t("banner.time_up"), cls: "warn" }));
  const mine = game.bannersFor ? game.bannersFor((events || []).filter((e) => !isServerEvent(e)), model) : [];
  return [...own, ...mine];
}


// A table's shortcut key pressed when it has nothing to do (D with nothing to draw, a row's
// digit for a row that cannot be used, ...) is said, not dropped in silence: a keyboard
// player could not tell a dead key from a dead connection.
export function keyDoesNothing(model) {
  const v = model && model.view;
  const mine = !!v && Array.isArray(v.legal) && v.legal.length > 0;
  announce(mine ? t("table.keyNothing") : t("table.notYourTurn"));
}
