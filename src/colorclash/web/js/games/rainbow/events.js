// Rainbow's events in words (docs/rainbow.md, "Events"): one line per event for the move
// history and screen readers ("Bo played Red (circle) at place 3"), and the banners of the
// round's end (Shadow, Error, Rainbow) and of the game's. Worded at call time, so they
// follow the current language.
import { t } from "../../i18n.js";
import { seatName } from "../../shell/seats.js";
import { faceLabel, symbolSvg } from "./faces.js";

export const ROUND_ENDS = ["shadow", "error", "rainbow"];

const BANNER_ICON = { shadow: "black", rainbow: null, error: null };

// Banner of an event (or null): {text: () => string, cls, icon?}
export function bannerFor(e) {
  if (ROUND_ENDS.includes(e.type)) {
    const icon = BANNER_ICON[e.type];
    return {
      text: () => t(`rainbow.banner.${e.type}`),
      cls: `rb-banner-${e.type}`,
      icon: icon ? () => symbolSvg(icon, "rb-banner-sym") : undefined,
    };
  }
  if (e.type === "game_over") return { text: () => t("banner.game_over"), cls: "info" };
  return null;
}

// Who won how many cards at the end of a round ("You win 6 cards").
export function winsLine(e, me) {
  if (e.winner === me) return t("rainbow.say.you.win", { n: e.cards });
  return t("rainbow.say.win", { name: e.who || "", n: e.cards });
}

export function describeEvent(e, model) {
  const seat = e.seat;
  const mine = seat !== undefined && seat !== null && seat === model.me;
  const who = seat !== undefined && seat !== null ? seatName(model.room, seat) : "";
  const you = (key, vars = {}) => t(mine ? `rainbow.say.you.${key}` : `rainbow.say.${key}`, { name: who, ...vars });
  switch (e.type) {
    case "play":
      return you(e.turned ? "playTurned" : "play", { face: faceLabel(e.face), place: e.place + 1 });
    case "flip":
      return you("flip", { face: faceLabel(e.face), place: e.place + 1 });
    case "end":
      if (e.reason === "stopped") return you("end");
      return t(e.reason === "table_full" ? "rainbow.say.endFull" : "rainbow.say.endThree");
    case "shadow":
    case "error":
    case "rainbow": {
      const loser = e.type === "rainbow" ? null : seat;
      const head = t(`rainbow.say.${e.type}`);
      const lost = loser === null ? "" : loser === model.me ? t("rainbow.say.you.lose") : t("rainbow.say.lose", { name: who });
      const won = winsLine({ ...e, who: seatName(model.room, e.winner) }, model.me);
      return [head, lost, won].filter(Boolean).join(" — ");
    }
    case "draw": // none left to draw: the game-over line that follows says it
      return e.count ? you("draw", { n: e.count }) : "";
    case "deal": // the engine's names who starts (the server's own the shell words)
      return startLine(e.round || 1, e.first, model);
    case "round":
      return startLine(e.round, e.first, model);
    case "game_over":
      return t("rainbow.say.gameOver");
    default:
      return "";
  }
}

function startLine(round, first, model) {
  if (first === model.me) return t("rainbow.say.you.start", { n: round });
  return t("rainbow.say.start", { n: round, name: seatName(model.room, first) });
}

// The words of one moment: its events' lines joined.
export function describeMoment(events, model, sep = " · ") {
  return (events || []).map((e) => describeEvent(e, model)).filter(Boolean).join(sep);
}

export function bannersFor(events) {
  return (events || []).map((e) => bannerFor(e)).filter(Boolean);
}
