// The server's own events, the same at every game's table (the game modules word their
// engine's events): "time_up", the clock ran out and the move that follows was made for
// the seat; "left", a player chose to leave (a substitute plays; do not wait for them).
// The shell words them and leaves every other event to the game.
import { t } from "../i18n.js";
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
  if (e.type === "time_up") return me ? t("say.you.timeUp") : t("say.timeUp", { name: name() });
  if (e.type === "left") return me ? t("say.you.left") : t("say.left", { name: name() });
  if (e.type === "substitute") {
    if (!e.on) return me ? t("say.you.back") : t("say.back", { name: name() });
    return me ? t("say.you.substitute") : t("say.substitute", { name: name() });
  }
  return ""; // (the server's deal: the engine's own deal, in the same moment, says it)
}

// The words of one moment, in the order of its events (the game words each run of its
// own events together: a line may depend on another event of the same moment). The move
// made when your clock ran out is not yours: "Your time ran out · You played Blue 4"
// credited the player with the computer's choice. After your own "time_up" chosen by a
// computer (`by: "computer"`: Coloretto, Rainbow) the moment's moves are worded as your
// substitute's; a game's own timeout move (`by: "rule"`: Color Clash draws, or plays by
// its fixed policy) stays yours ("Your substitute finishes in place 1" beside "You win!").
export function describeAll(game, events, model, sep = " · ") {
  const lines = [];
  let run = [];
  let wording = model;
  const flush = () => {
    if (run.length) lines.push(game.describeMoment(run, wording, sep));
    run = [];
  };
  for (const e of events || []) {
    if (isServerEvent(e)) {
      flush();
      lines.push(serverLine(e, model));
      if (e.type === "time_up" && e.by === "computer" && e.seat === model.me && model.me >= 0) {
        wording = substitutedModel(wording, new Set([model.me]));
      }
    } else run.push(e);
  }
  flush();
  return lines.filter(Boolean).join(sep);
}

// While a computer substitute plays a seat its moves are not its player's: "You played
// Blue 4" told a player who had left and come back of moves they never made, and "Bruno
// played Green 4" credited Bruno, away, with the computer's (a player check: computers
// are always said to be computers). A moment in which a seat was substituted (and that
// does not itself start or end its substitution) is worded with the seat as "Your
// substitute" (nobody is "you" then) or "Bruno's substitute".
const SUBSTITUTE_NAME = () => t("seat.yourSubstitute");

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

// the seats whose substitution a moment starts or ends
function substituteChanges(events) {
  return (events || []).filter((e) => e.type === "substitute" && typeof e.seat === "number");
}

function substitutedNow(model) {
  const seats = (model.room && model.room.seats) || [];
  return new Set(seats.flatMap((s, i) => (s && s.substitute ? [i] : [])));
}

function during(substituted, changes) {
  const changed = new Set(changes.map((e) => e.seat));
  return new Set([...substituted].filter((seat) => !changed.has(seat)));
}

// The lines of the moments kept, oldest first: each worded as it happened, the seats'
// substitutions followed back from the room's current state through the moments'
// "substitute" events.
export function describeMoments(game, moments, model) {
  const substituted = substitutedNow(model);
  const lines = [];
  for (let i = moments.length - 1; i >= 0; i -= 1) {
    const changes = substituteChanges(moments[i].events);
    lines.push(describeAll(game, moments[i].events, substitutedModel(model, during(substituted, changes))));
    for (const change of changes) {
      if (change.on) substituted.delete(change.seat);
      else substituted.add(change.seat);
    }
  }
  return lines.reverse();
}

// One new moment as it is said: by a seat's substitute while it plays the seat.
export function describeNow(game, events, model, sep) {
  const seats = during(substitutedNow(model), substituteChanges(events));
  return describeAll(game, events, substitutedModel(model, seats), sep);
}

// The banners of one moment: your own time running out first, then the game's.
export function bannersAll(game, events, model) {
  const own = (events || [])
    .filter((e) => e.type === "time_up" && e.seat === model.me)
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
