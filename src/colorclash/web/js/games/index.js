// The table modules of the site's games, by game key (view.game).
import { colorClash } from "./color-clash/index.js";
import { rainbow } from "./rainbow/index.js";

export const GAMES = { [colorClash.key]: colorClash, [rainbow.key]: rainbow };
export const DEFAULT_GAME = colorClash;

export function gameOf(view) {
  return (view && GAMES[view.game]) || DEFAULT_GAME;
}
