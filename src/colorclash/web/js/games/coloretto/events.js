// Coloretto's events in words (docs/coloretto.md, Events): the line of each event for the
// move history and screen readers ("Bo put Orange (circle) in row 2"), and the banner it
// raises (the last round, a row taken, a new round, the end). Worded at call time, so it
// follows the current language.
import { t } from "../../i18n.js";
import { seatName } from "../../shell/seats.js";
import { cardLabel, cardsLabel, colourName } from "./cards.js";

const rowNo = (i) => Number(i) + 1;

function who(e, model) {
  const has = e.seat !== undefined && e.seat !== null;
  return { me: has && e.seat === model.me, name: has ? seatName(model.room, e.seat) : "" };
}

// `key` for another seat, `key` + "You" for the viewer's own.
const say = (key, me, vars) => t(`coloretto.say.${key}${me ? "You" : ""}`, vars);

export function describeEvent(e, model) {
  const { me, name } = who(e, model);
  switch (e.type) {
    case "deal": {
      const starts = seatName(model.room, e.first);
      const line = e.first === model.me ? t("coloretto.say.dealYou") : t("coloretto.say.deal", { name: starts });
      const removed = (e.removed_colours || []).map(colourName).join(", ");
      return removed ? `${line} ${t("coloretto.say.removed", { colours: removed })}` : line;
    }
    case "draw":
      return say("draw", me, { name, card: cardLabel(e.card) });
    case "place":
      return say("place", me, { name, card: cardLabel(e.card), n: rowNo(e.row) });
    case "take":
      return say("take", me, { name, n: rowNo(e.row), cards: cardsLabel(e.cards) });
    case "last_round":
      return say("lastRound", me, { name });
    case "row_removed":
      return e.cards && e.cards.length
        ? t("coloretto.say.rowRemoved", { n: rowNo(e.row), cards: cardsLabel(e.cards) })
        : t("coloretto.say.rowRemovedEmpty", { n: rowNo(e.row) });
    case "round_end":
      return e.reason === "supply_empty"
        ? t("coloretto.say.roundEndDry", { n: e.round })
        : t("coloretto.say.roundEnd", { n: e.round });
    case "round_start":
      return e.first === model.me
        ? t("coloretto.say.roundStartYou", { n: e.round })
        : t("coloretto.say.roundStart", { n: e.round, name: seatName(model.room, e.first) });
    case "game_over":
      return t("banner.game_over");
    default:
      return "";
  }
}

// The words of one moment: its events' lines joined.
export function describeMoment(events, model, sep = " · ") {
  return (events || []).map((e) => describeEvent(e, model)).filter(Boolean).join(sep);
}

// Banner of an event (or null): {text: () => string, cls}
export function bannerFor(e, model) {
  const { me, name } = who(e, model);
  switch (e.type) {
    case "last_round":
      return { text: () => t("coloretto.banner.lastRound"), cls: "warn" };
    case "take":
      return {
        text: () => (me ? t("coloretto.banner.takeYou", { n: rowNo(e.row) }) : t("coloretto.banner.take", { name, n: rowNo(e.row) })),
        cls: "info",
      };
    case "round_start":
      return { text: () => t("coloretto.banner.round", { n: e.round }), cls: "" };
    case "game_over":
      return { text: () => t("banner.game_over"), cls: "info" };
    default:
      return null;
  }
}

export function bannersFor(events, model) {
  return (events || []).map((e) => bannerFor(e, model)).filter(Boolean);
}
