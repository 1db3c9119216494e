// What the shell knows of the site's games: their definitions come from GET /api/games
// (seats, presets, options with their choices and defaults, computer levels), their words
// from each game's table module (name, description, preset, option and choice labels).
// Nothing here names a game.
import { GAMES } from "../games/index.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";

const LAST_GAME_KEY = "cc.game";

// Options sent at the top level of a request (docs/protocol.md): the turn clock, which
// every game has; every other option of a preset goes in "options" (Color Clash's "match"
// too: at the top level the protocol reads it as Color Clash's text, and another game's
// "match" of numbers could not be chosen: a seam review).
const TOP_LEVEL = new Set(["clock"]);

// The games of the /api/games answer that this client can draw, in the server's order.
export function playableGames(answer) {
  return ((answer && answer.games) || []).filter((g) => GAMES[g.key]);
}

export function definitionOf(answer, key) {
  return playableGames(answer).find((g) => g.key === key) || null;
}

// The game to offer first: the last one chosen here, else the server's default.
export function lastGame(answer) {
  let saved = null;
  try {
    saved = localStorage.getItem(LAST_GAME_KEY);
  } catch {
    /* storage may be blocked */
  }
  const games = playableGames(answer);
  if (saved && games.some((g) => g.key === saved)) return saved;
  if (answer && games.some((g) => g.key === answer.default)) return answer.default;
  return games.length ? games[0].key : null;
}

export function rememberGame(key) {
  try {
    localStorage.setItem(LAST_GAME_KEY, key);
  } catch {
    /* ignore */
  }
}

export function moduleOf(key) {
  return GAMES[key] || null;
}

export function presetNames(def) {
  return def ? Object.keys(def.presets || {}) : [];
}

export function optionsOf(def, preset) {
  const p = def && def.presets ? def.presets[preset] : null;
  return (p && p.options) || [];
}

// One unit along a menu: seconds up to 90 s ("60 s" beside "90 s", not "1 min"), whole
// minutes from 2 min on (10 min).
export function clockLabel(sec) {
  return sec >= 120 && sec % 60 === 0 ? t("room.minutes", { n: sec / 60 }) : t("room.seconds", { n: sec });
}

// The words of an option and of one of its choices: the game's own, else the shell's
// (the turn clock is the server's, the same for every game), else the value itself.
export function optionLabel(game, name) {
  const own = game && game.optionLabel ? game.optionLabel(name) : null;
  if (own) return own;
  return name === "clock" ? t("room.clock") : name;
}

export function choiceLabel(game, name, value) {
  const own = game && game.choiceLabel ? game.choiceLabel(name, value) : null;
  if (own) return own;
  return name === "clock" ? clockLabel(value) : String(value);
}

export function presetLabel(game, preset) {
  return game && game.presetName ? game.presetName(preset) : preset;
}

// "Coloretto" or "Color Clash · Classic Table": the game, and its preset when it has several.
export function tableTitle(game, def, preset) {
  const name = game ? game.name() : "";
  if (presetNames(def).length > 1 || !def) return `${name} · ${presetLabel(game, preset)}`;
  return name;
}

// A select's value (a string) back to the choice it stands for (a number stays a number).
export function choiceOf(option, raw) {
  const hit = (option.choices || []).find((c) => String(c) === String(raw));
  return hit === undefined ? raw : hit;
}

// {clock: 30, match: "1", scoring: "grey"} -> {clock: 30, options: {match: "1", scoring: "grey"}}
export function requestOptions(values) {
  const out = {};
  const rest = {};
  for (const [k, v] of Object.entries(values || {})) {
    if (TOP_LEVEL.has(k)) out[k] = v;
    else rest[k] = v;
  }
  if (Object.keys(rest).length) out.options = rest;
  return out;
}

// The lobby's settings patch for one option.
export function settingsPatch(name, value) {
  return TOP_LEVEL.has(name) ? { [name]: value } : { options: { [name]: value } };
}

// A labelled select for one option of a preset. onChange(value) gets the choice itself.
export function optionField(game, option, value, { id, focusKey, onChange }) {
  const current = value === undefined ? option.default : value;
  const labels = (option.choices || []).map((c) => choiceLabel(game, option.name, c));
  // a long choice chosen ("Kahverengi yüz", "Brown side") takes a line of its own in a
  // narrow row rather than show "Kahver…" beside another menu
  const chosen = (option.choices || []).findIndex((c) => String(c) === String(current));
  const wide = chosen >= 0 && String(labels[chosen]).length > 9;
  if (labels.length === 1) {
    // one possible value (the table presets' match of one round): said, not a menu of one
    // choice (player review), as a one-size table's seats are
    // (with why: a grey box alone read as a control that did not work)
    return h("label.field", { for: id }, optionLabel(game, option.name),
      h(`output#${id}.field-value`, { dataset: { option: option.name } }, labels[0]),
      h("span.field-note", t("room.fixedByRules")));
  }
  return h(
    `label.field${wide ? ".wide" : ""}`,
    { for: id },
    optionLabel(game, option.name),
    h(
      `select#${id}`,
      {
        dataset: { focusKey: focusKey || id, option: option.name },
        onchange: (e) => onChange(choiceOf(option, e.target.value)),
      },
      (option.choices || []).map((c, i) =>
        h("option", { value: String(c), selected: String(c) === String(current) }, labels[i]),
      ),
    ),
    // what the choice means, where its name alone says little (Coloretto's "Brown side":
    // its points), from the game module, with the option's facts from GET /api/games
    game && game.choiceNote ? noteOf(game.choiceNote(option.name, current, option)) : null,
  );
}

function noteOf(text) {
  return text ? h("span.field-note", text) : null;
}
