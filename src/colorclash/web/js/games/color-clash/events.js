// Color Clash events in words: the plain-language line of each event ("Bo played Red 7
// (circle)") for the move history and screen readers, and the banner it raises (spec
// section 8). Everything is worded at call time, so it follows the current language.
import { getLang, t } from "../../i18n.js";
import { seatName } from "../../shell/seats.js";
import { cardLabel, colorName, colorWord, shapeSvg } from "./cards.js";

// One-round games end a game; longer matches end a match.
export function isMatch(view) {
  return !!(view && view.options && view.options.rounds !== 1);
}

// No round comes after this one (a one-round game, or a match's last round by count):
// a substitute plays the seat to the end, and nobody takes it back.
export function noNextRound(view) {
  if (!isMatch(view)) return true;
  const rounds = view.options.rounds;
  return rounds > 1 && view.round >= rounds;
}

// A sentence begins with a capital, also where a language puts the colour (lower case
// inside a sentence) first: "Sarı seçtin".
const sentence = (s) => (s ? s.charAt(0).toLocaleUpperCase(getLang()) + s.slice(1) : s);

const side = (e) => t(e.side === "night" ? "table.night" : "table.day");

// Banner of an event (or null): {text: () => string, cls, icon?}
export function bannerFor(e, model) {
  const make = {
    stacked: () => ({ text: () => t("banner.stacked", { n: e.total }), cls: "warn" }),
    take: () => ({ text: () => t("banner.take", { n: e.count }), cls: "warn" }),
    shield_up: () => ({ text: () => t("banner.shield_up"), cls: "shield" }),
    blocked: () => ({ text: () => t("banner.blocked"), cls: "shield" }),
    shield_block: () => ({ text: () => t("banner.blocked"), cls: "shield" }),
    fuse_lit: () => ({ text: () => t("banner.fuse_lit"), cls: "boom" }),
    boom: () => ({ text: () => t("banner.boom"), cls: "boom" }),
    one_card: () => ({ text: () => t("banner.one_card"), cls: "" }),
    last_card: () => ({ text: () => t("banner.last_card"), cls: "" }),
    caught: () => ({ text: () => t("banner.caught"), cls: "warn" }),
    flip: () => ({ text: () => t("banner.flip", { side: side(e) }), cls: "info" }),
    hunt: () => ({ text: () => t("banner.hunt", { color: colorName(e.color) }), cls: "warn" }),
    clock_set: () => ({ text: () => t("banner.clock_set"), cls: "info" }),
    color_chosen: () => ({
      text: () => t("banner.color_chosen", { color: colorName(e.color) }),
      cls: "info",
      icon: () => shapeSvg(e.color),
    }),
    round_over: () => ({ text: () => t("banner.round_over"), cls: "info" }),
    game_over: () => ({
      text: () => t(isMatch(model.view) ? "banner.match_over" : "banner.game_over"),
      cls: "info",
    }),
    dead_round: () => ({ text: () => t("banner.dead_round"), cls: "info" }),
  }[e.type];
  return make ? make() : null;
}

export function describeEvent(e, model) {
  const me = e.seat !== undefined && e.seat !== null && e.seat === model.me;
  const who = e.seat !== undefined && e.seat !== null ? seatName(model.room, e.seat) : "";
  switch (e.type) {
    case "play":
      return t(me ? "say.you.play" : "say.play", { name: who, card: cardLabel(e.card) });
    case "draw":
      if (e.reason === "caught") return ""; // the "caught" line says how many
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
      return sentence(t(me ? "say.you.color" : "say.color", { name: who, color: colorWord(e.color) }));
    case "stacked":
      return t(me ? "say.you.stacked" : "say.stacked", { name: who, n: e.total });
    case "shield_up":
      return t(me ? "say.you.shieldUp" : "say.shieldUp", { name: who, card: cardLabel(e.card) });
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
    case "out": // the first out said so ("Computer 1 finishes in place 1 · GAME OVER")
      if (e.place === 1) return t(me ? "say.you.outFirst" : "say.outFirst", { name: who });
      return t(me ? "say.you.out" : "say.out", { name: who, n: e.place });
    case "flip": // the Midnight Clock's turn comes after the play it follows: say so
      return t(e.cause === "clock" ? "say.flipClock" : "say.flip", { side: side(e), card: cardLabel(e.top) });
    case "clock_set":
      return t(me ? "say.you.clockSet" : "say.clockSet", { name: who, n: e.turns });
    case "hunt":
      return sentence(t(me ? "say.you.hunt" : "say.hunt", { name: who, n: e.count, color: colorWord(e.color) }));
    case "reshuffle":
      return t("say.reshuffle");
    case "deal": // the engine's names the round (the server's own the shell words)
      if ((e.round || 1) > 1) return t("say.dealRound", { n: e.round, card: cardLabel(e.top) });
      return e.top ? t("say.deal", { card: cardLabel(e.top) }) : "";
    case "dead_round": // its banner is hidden by the results that open with it
      return t("banner.dead_round");
    case "round_over":
      return t("banner.round_over");
    case "game_over":
      return t(isMatch(model.view) ? "banner.match_over" : "banner.game_over");
    default:
      return "";
  }
}

// The words of one moment: its events' lines joined ("Bo played Red 7 · You are skipped").
// A "last_card" that comes with the play (the seat called before it, or the table calls
// for everyone) says the seat has one card: "called last card" was the moment of the
// call itself, and the history said it twice.
// A one-round game's end is its round's end: "ROUND OVER · GAME OVER" said it twice (a
// match's last round still says both: the round, then the match).
function withoutRoundOfAGame(events, model) {
  const list = events || [];
  if (isMatch(model.view) || !list.some((e) => e.type === "game_over")) return list;
  return list.filter((e) => e.type !== "round_over");
}

export function describeMoment(events, model, sep = " · ") {
  const list = withoutRoundOfAGame(events, model);
  const played = new Set(list.filter((e) => e.type === "play").map((e) => e.seat));
  // a stack a standing shield blocks in the same moment never waited on anyone ("+2
  // waits on you · Your shield blocked the stack" said both), as with the banners
  const blockedAt = list.findIndex((e) => e.type === "blocked");
  return list
    .filter((e, i) => !(e.type === "stacked" && blockedAt > i))
    .map((e) => describeEvent(e.type === "last_card" && played.has(e.seat) ? { ...e, type: "one_card" } : e, model))
    .filter(Boolean)
    .join(sep);
}

// A stack a standing shield blocks in the same moment never waited on anyone: its
// moment says "BLOCKED!" alone (a "+2 STACKED!" first kept the block off the screen
// whenever the next move came before it).
export function bannersFor(events, model) {
  const list = withoutRoundOfAGame(events, model);
  const blockedAt = list.findIndex((e) => e.type === "blocked");
  return list
    .filter((e, i) => !(e.type === "stacked" && blockedAt > i))
    .map((e) => bannerFor(e, model))
    .filter(Boolean);
}
