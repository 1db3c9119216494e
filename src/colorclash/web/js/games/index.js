// The table modules of the site's games, by game key (view.game, room.game). Adding a
// game: its folder under games/, its import and its entry in GAME_MODULES (docs/client.md).
import { colorClash } from "./color-clash/index.js";
import { coloretto } from "./coloretto/index.js";
import { rainbow } from "./rainbow/index.js";

const GAME_MODULES = [colorClash, coloretto, rainbow];

// (without a prototype: a key from an address, ?game=constructor, found Object's own
// members and the page stayed blank: a web review)
export const GAMES = Object.assign(Object.create(null), Object.fromEntries(GAME_MODULES.map((g) => [g.key, g])));
export const DEFAULT_GAME = colorClash;

export function gameOf(view) {
  return (view && GAMES[view.game]) || DEFAULT_GAME;
}
