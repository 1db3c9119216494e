// The server's own events, the same at every game's table (the game modules word their
// engine's events): "time_up", the clock ran out and the move that follows was made for
// the seat. The shell words them and leaves every other event to the game.
import { t } from "../i18n.js";
import { seatName } from "./seats.js";

const SERVER_EVENTS = new Set(["time_up"]);

function serverLine(e, model) {
  if (e.type === "time_up") {
    return e.seat === model.me ? t("say.you.timeUp") : t("say.timeUp", { name: seatName(model.room, e.seat) });
  }
  return "";
}

// The words of one moment, in the order of its events.
export function describeAll(game, events, model, sep = " · ") {
  return (events || [])
    .map((e) => (SERVER_EVENTS.has(e.type) ? serverLine(e, model) : game.describeMoment([e], model, sep)))
    .filter(Boolean)
    .join(sep);
}

// The banners of one moment: your own time running out first, then the game's.
export function bannersAll(game, events, model) {
  const own = (events || [])
    .filter((e) => e.type === "time_up" && e.seat === model.me)
    .map(() => ({ text: () => t("banner.time_up"), cls: "warn" }));
  return [...own, ...game.bannersFor((events || []).filter((e) => !SERVER_EVENTS.has(e.type)), model)];
}

// The line under the piles says what just happened. When a moment says more than the line
// holds (a phone: one or two lines), its oldest parts give way, so that the newest is read
// whole ("… Bo drew the stack: 4 cards", not "The shield … · Bo drew …"); the history
// keeps every word. Run after each drawing of the table, and when the window changes size.
export function fitLastMove(root, sep = " · ") {
  for (const el of root.querySelectorAll(".last-move")) {
    if (el.dataset.full === undefined) el.dataset.full = el.textContent;
    else el.textContent = el.dataset.full;
    let parts = el.dataset.full.split(sep);
    while (parts.length > 1 && el.scrollHeight > el.clientHeight + 1) {
      parts = parts.slice(1);
      el.textContent = `… ${parts.join(sep)}`;
    }
  }
}
