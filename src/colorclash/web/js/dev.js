// Dev page: every screen and rare table state rendered from fake engine views, without a
// server. /dev.html?scene=siege&lang=tr  (scenes: see SCENES below; ?scene=list lists them)
import { renderCard } from "./games/color-clash/cards.js";
import { DEFAULT_GAME, GAMES, gameOf } from "./games/index.js";
import { homeForm, queueDialog, renderHome } from "./home.js";
import { setLang, t, useCatalogs } from "./i18n.js";
import { renderJoin, renderRoom } from "./room.js";
import { Banners } from "./shell/banners.js";
import { confirmDialog } from "./shell/dialog.js";
import { settleFocus } from "./shell/focus.js";
import { HISTORY_SIZE, historyPanel, historyToggle } from "./shell/history.js";
import { fitTable } from "./shell/fit.js";
import { bannersAll, describeAll } from "./shell/notices.js";
import { definitionOf } from "./shell/games.js";
import { rulesDialog, rulesPage } from "./shell/rules.js";
import { tickClocks } from "./shell/seats.js";
import { h, morph } from "./ui.js";

// The GET /api/games answer the screens are drawn from (as the server gives it).
const CC_CLOCK = { name: "clock", choices: [15, 20, 30, 45, 60, 600], default: 30 };
const CC_STD_CLOCK = { name: "clock", choices: [30, 45, 60, 90], default: 30 };
const GAMES_ANSWER = {
  games: [
    {
      key: "color-clash",
      name: "Color Clash",
      seats: { min: 2, max: 6, default: 4 },
      default_preset: "classic-table",
      presets: {
        standard: { options: [CC_STD_CLOCK, { name: "match", choices: ["1", "3", "5", "500"], default: "1" }] },
        family: { options: [{ ...CC_STD_CLOCK, default: 60 }, { name: "match", choices: ["3", "5"], default: "3" }] },
        "classic-table": { options: [CC_CLOCK, { name: "match", choices: ["1"], default: "1" }] },
        siege: { options: [CC_CLOCK, { name: "match", choices: ["1"], default: "1" }] },
        "day-night": { options: [CC_CLOCK, { name: "match", choices: ["1"], default: "1" }] },
      },
      bot_levels: ["random", "easy", "medium", "hard"],
      default_level: "easy",
      quick_match_seats: 4,
      play_now_seats: 3,
      guest_max_seats: 4,
    },
    {
      key: "coloretto",
      name: "Coloretto",
      seats: { min: 2, max: 5, default: 4 },
      default_preset: "standard",
      presets: {
        standard: {
          options: [
            {
              name: "scoring",
              choices: ["brown", "grey"],
              default: "brown",
              facts: { brown: { points: [1, 3, 6, 10, 15, 21] }, grey: { points: [1, 4, 8, 7, 6, 5] } },
            },
            { name: "clock", choices: [15, 20, 30, 45, 60, 90], default: 30 },
          ],
        },
      },
      bot_levels: ["random", "easy", "medium", "hard"],
      default_level: "easy",
      quick_match_seats: 4,
      play_now_seats: 3,
      guest_max_seats: 4,
    },
  ],
  default: "color-clash",
};

function room(preset, status = "playing", n = 4, extra = {}) {
  const seats = [
    { seat: 0, kind: "human", name: "Ana", connected: true, ready: true, substitute: false },
    { seat: 1, kind: "bot", name: "Computer", label: "Computer", level: "easy", connected: true, ready: true, substitute: false },
    { seat: 2, kind: "human", name: "Bo", connected: false, ready: false, substitute: false, away_since: 1 },
    { seat: 3, kind: "human", name: "Çağla", connected: true, ready: true, substitute: true },
    { seat: 4, kind: "empty", name: null, connected: false, ready: false, substitute: false },
  ].slice(0, n);
  return {
    code: "KMPXRA",
    kind: "private",
    status,
    host: 0,
    link: "/r/KMPXRA",
    game: "color-clash",
    settings: { preset, seats: n, clock: 30, match: preset === "family" ? "3" : "1" },
    seats,
    match: 1,
    ...extra,
  };
}

// GET /api/games as this server answers it (boot)
let SITE_GAMES = null;

// The rule options a view carries (engine/presets.py), as the client reads them.
const OPTIONS = {
  standard: { deck: "standard", scoring: "winner", play_on: true, call: "manual", rounds: 1, target: 500 },
  family: { deck: "standard", scoring: "winner", play_on: true, call: "auto", rounds: 3, target: 500 },
  "classic-table": { deck: "classic-table", scoring: "table", play_on: false, call: "none", rounds: 1, target: 500 },
  siege: { deck: "siege", scoring: "table", play_on: false, call: "none", rounds: 1, target: 500 },
  "day-night": { deck: "day-night", scoring: "table", play_on: false, call: "none", rounds: 1, target: 500 },
};

function view(preset, over = {}) {
  return {
    game: "color-clash",
    preset,
    seats: 4,
    seat: 0,
    phase: "play",
    round: 1,
    hand: ["R7", "B-skip", "Y+2", "G-reverse", "W", "W+4", "R-bomb", "B3", "G0"],
    counts: [9, 5, 1, 3],
    top: "R3",
    color: "R",
    turn: 0,
    direction: 1,
    stack: 0,
    stack_kind: null,
    draw_count: 61,
    discard_count: 12,
    shields: [],
    fuse: null,
    scores: [0, 0, 0, 0],
    round_scores: [],
    out: [],
    to_act: [0],
    legal: [
      { type: "play", card: "R7" },
      { type: "play", card: "R-bomb" },
      ...["R", "B", "Y", "G"].map((c) => ({ type: "play", card: "W", color: c })),
      { type: "draw" },
    ],
    drawn: null,
    window: null,
    called: [],
    one_card: [2],
    substitutes: [3],
    options: { ...OPTIONS[preset], clock: 30 },
    result: null,
    ...over,
  };
}

const CLOCK = { kind: "turn", seat: 0, remaining_ms: 21000, seconds: 30 };

const SCENES = {
  home: () => ({ screen: "home" }),
  "home-coloretto": () => ({ screen: "home", game: "coloretto" }),
  quick: () => ({ screen: "home", queue: { waiting: 2, name: "Blue Otter" } }),
  "quick-long": () => ({ screen: "home", queue: { waiting: 1, name: "Blue Otter", long: true } }),
  join: () => ({ screen: "join", room: room("classic-table", "lobby", 5) }),
  "join-full": () => ({ screen: "join", room: room("classic-table", "lobby", 4) }),
  "join-started": () => ({ screen: "join", room: room("classic-table", "playing") }),
  "room-host": () => ({ screen: "room", room: room("standard", "lobby", 5), me: 0 }),
  "room-guest": () => ({ screen: "room", room: room("family", "lobby", 5), me: 2 }),
  // Bo hosts since Ana (who opened the room) was away: Ana's seat stays hers
  "room-host-away": () => {
    const r = room("standard", "lobby", 5, { host: 2, host_away: 0 });
    r.seats[0] = { ...r.seats[0], connected: false, away_since: 1 };
    r.seats[2] = { ...r.seats[2], connected: true, ready: true, away_since: null };
    r.seats[3] = { ...r.seats[3], substitute: false };
    return { screen: "room", room: r, me: 2 };
  },
  table: () => ({ screen: "table", view: view("classic-table"), room: room("classic-table") }),
  substituted: () => ({
    screen: "table",
    room: room("classic-table"),
    view: view("classic-table", { substitutes: [0, 3], turn: 1, legal: [] }),
    events: [{ type: "substitute", seat: 0, on: true }],
  }),
  bomb: () => ({
    screen: "table",
    room: room("classic-table"),
    view: view("classic-table", {
      fuse: { count: 2, blast: 6 },
      turn: 1,
      legal: [],
      out: [],
      direction: -1,
    }),
    clock: { ...CLOCK, seat: 1 },
    events: [
      { type: "play", seat: 1, card: "R-bomb" },
      { type: "fuse_lit", seat: 1, fuse: 3, blast: 6 },
      { type: "boom", seat: 2, count: 4 },
      { type: "draw", seat: 2, count: 4, reason: "boom" },
      { type: "reshuffle", count: 30 },
    ],
  }),
  siege: () => ({
    screen: "table",
    room: room("siege"),
    view: view("siege", {
      hand: ["R+2", "W+4", "B-shield", "G5"],
      shields: [0, 3],
      stack: 4,
      stack_kind: "+2",
      legal: [
        { type: "play", card: "R+2" },
        { type: "play", card: "B-shield" },
        ...["R", "B", "Y", "G"].map((c) => ({ type: "play", card: "W+4", color: c })),
        { type: "take" },
      ],
    }),
    clock: CLOCK,
    events: [
      { type: "stacked", seat: 0, total: 4, kind: "+2" },
      { type: "shield_up", seat: 3, card: "Y-shield" },
      { type: "blocked", seat: 3, count: 2 },
      { type: "shield_block", seat: 1, count: 6 },
      { type: "take", seat: 2, count: 4, stack: 4 },
    ],
  }),
  window: () => ({
    screen: "table",
    room: room("standard"),
    view: view("standard", {
      phase: "call_window",
      window: { seat: 2 },
      turn: 3,
      to_act: [2, 0, 1, 3],
      legal: [{ type: "catch", target: 2 }],
    }),
    clock: { kind: "window", seat: 2, remaining_ms: 2500, seconds: 3 },
    events: [
      { type: "play", seat: 2, card: "B5" },
      { type: "one_card", seat: 2 },
      { type: "last_card", seat: 1 },
      { type: "caught", seat: 2, by: 0, count: 2 },
      { type: "caught", seat: 0, by: 1, count: 2 },
      { type: "caught", seat: 3, by: 1, count: 2 },
      { type: "play", seat: 0, card: "W+4", color: "G" },
      { type: "color_chosen", seat: 0, color: "G" },
      { type: "draw", seat: 0, count: 1 },
      { type: "take", seat: 0, count: 4, stack: 4 },
      { type: "keep", seat: 0 },
      { type: "pass", seat: 0 },
      { type: "skip", seat: 0 },
      { type: "skip_all", seat: 0 },
      { type: "stacked", seat: 0, total: 2, kind: "+2" },
      { type: "stacked", seat: 1, total: 4, kind: "+2" },
      { type: "shield_up", seat: 0, card: "R-shield" },
      { type: "shield_up", seat: 1, card: "R-shield" },
      { type: "blocked", seat: 0, count: 2 },
      { type: "blocked", seat: 1, count: 2 },
      { type: "boom", seat: 0, count: 4 },
      { type: "boom", seat: 1, count: 4 },
      { type: "one_card", seat: 0 },
      { type: "last_card", seat: 0 },
      { type: "out", seat: 0, place: 2 },
      { type: "hunt", seat: 0, color: "B", count: 3 },
      { type: "hunt", seat: 1, color: "B", count: 3 },
      { type: "fuse_lit", seat: 0, fuse: 3, blast: 4 },
      { type: "substitute", seat: 0, on: true },
      { type: "call_on", seat: 0 },
      { type: "window_closed", seat: 2 },
      { type: "skip", seat: 1 },
      { type: "reverse", direction: -1 },
      { type: "pass", seat: 3 },
      { type: "keep", seat: 1 },
      { type: "out", seat: 1, place: 1 },
      { type: "substitute", seat: 3, on: true },
    ],
  }),
  call: () => ({
    screen: "table",
    room: room("standard"),
    view: view("standard", {
      hand: ["B5", "G2"],
      top: "B9",
      color: "B",
      legal: [{ type: "play", card: "B5" }, { type: "draw" }, { type: "call" }],
    }),
    clock: CLOCK,
  }),
  called: () => ({
    screen: "table",
    room: room("standard"),
    view: view("standard", {
      hand: ["B5", "G2"],
      top: "B9",
      color: "B",
      called: [0],
      legal: [{ type: "play", card: "B5" }, { type: "draw" }],
    }),
    events: [{ type: "call_on", seat: 0 }],
  }),
  drawn: () => ({
    screen: "table",
    room: room("classic-table"),
    view: view("classic-table", {
      phase: "drawn",
      hand: ["B1", "G9", "R5"],
      drawn: "R5",
      legal: [{ type: "play", card: "R5" }, { type: "keep" }],
    }),
    clock: { kind: "drawn", seat: 0, remaining_ms: 5000, seconds: 6 },
  }),
  pass: () => ({
    screen: "table",
    room: room("standard"),
    view: view("standard", { draw_count: 0, discard_count: 1, legal: [{ type: "pass" }], hand: ["G1"] }),
  }),
  color: () => ({
    screen: "table",
    room: room("standard"),
    view: view("standard", {
      phase: "color",
      top: "W",
      color: null,
      legal: ["R", "B", "Y", "G"].map((c) => ({ type: "color", color: c })),
    }),
  }),
  choose: () => ({ screen: "table", room: room("classic-table"), view: view("classic-table"), ui: { choosingFor: "W" } }),
  "day-night": () => ({
    screen: "table",
    room: room("day-night"),
    view: view("day-night", {
      side: "night",
      hand: ["R+5", "B-skipall", "W-hunt", "G-flip", "Y4"],
      top: "G-flip",
      color: "G",
      faces: { 1: ["R+1", "W-clock", "B7", "Y-flip", "G-reverse"], 2: ["W"], 3: ["B-skip", "R2", "Y9"] },
      draw_top: "Y-reverse",
      clock: 2,
      legal: [{ type: "play", card: "G-flip" }, { type: "draw" }],
    }),
    events: [
      { type: "flip", cause: "card", side: "night", top: "G-flip", seat: 1 },
      { type: "clock_set", seat: 2, turns: 3 },
      { type: "hunt", seat: 3, color: "Y", count: 5 },
      { type: "skip_all", seat: 1 },
      { type: "flip", cause: "clock", side: "day", top: "W" },
      { type: "color_chosen", seat: 2, color: "Y" },
    ],
  }),
  "round-over": () => ({
    screen: "table",
    room: room("family"),
    view: view("family", {
      phase: "round_over",
      turn: null,
      legal: [{ type: "next" }],
      round: 2,
      counts: [0, 0, 4, 0],
      scores: [120, 0, 0, 12],
      round_scores: [[30, 0, 0, 12], [90, 0, 0, 0]],
      out: [0, 3, 1, 2],
    }),
    clock: { kind: "next", seat: null, remaining_ms: 7000, seconds: 8 },
    events: [
      { type: "round_over", round: 2, winners: [0], points: [90, 0, 0, 0], scores: [120, 0, 0, 12] },
      { type: "dead_round" },
    ],
    lastRoundWinners: [0],
  }),
  // round 2 of 3 won by Ana, while Bo leads the match from round 1
  "round-over-standings": () => ({
    screen: "table",
    room: room("family"),
    view: view("family", {
      phase: "round_over",
      turn: null,
      legal: [{ type: "next" }],
      round: 2,
      counts: [0, 3, 4, 2],
      scores: [30, 0, 132, 0],
      round_scores: [[0, 0, 132, 0], [30, 0, 0, 0]],
      out: [0],
    }),
    clock: { kind: "next", seat: null, remaining_ms: 7000, seconds: 8 },
    events: [{ type: "round_over", round: 2, winners: [0], points: [30, 0, 0, 0], scores: [30, 0, 132, 0] }],
    lastRoundWinners: [0],
  }),
  "game-over": () => ({
    screen: "table",
    room: room("classic-table", "finished"),
    view: view("classic-table", {
      phase: "game_over",
      turn: null,
      legal: [],
      counts: [2, 0, 5, 3],
      scores: [40, 99, 20, 79],
      round_scores: [[40, 99, 20, 79]],
      out: [1],
      result: { scores: [40, 99, 20, 79], winners: [1] },
    }),
    events: [{ type: "game_over", scores: [40, 99, 20, 79], winners: [1] }],
  }),
  "game-over-guest": () => ({
    screen: "table",
    me: 2,
    room: room("classic-table", "finished"),
    view: view("classic-table", {
      seat: 2,
      phase: "game_over",
      turn: null,
      legal: [],
      counts: [2, 0, 5, 3],
      scores: [0, 0, 0, 0],
      round_scores: [[0, 0, 0, 0]],
      result: { scores: [0, 0, 0, 0], winners: [] },
    }),
  }),
};

// A computer substitute went out first: nobody scores, nobody wins (spec 9).
SCENES["game-over-substitute"] = () => {
  const scene = SCENES["game-over-guest"]();
  scene.room = { ...scene.room, seats: scene.room.seats.map((x) => (x.seat === 1 ? { ...x, substitute: true, label: "Computer" } : x)) };
  scene.view = { ...scene.view, out: [1], substitutes: [1], counts: [2, 0, 5, 3] };
  return scene;
};

// Bo went Home from the results: the seat is free, its results still name Bo (they read
// "Seat 3").
SCENES["game-over-gone"] = () => {
  const scene = SCENES["game-over"]();
  scene.room = { ...scene.room, seats: scene.room.seats.map((x) => (x.seat === 2 ? { seat: 2, kind: "empty", name: null, former: "Bo", connected: false, ready: false, substitute: false, away_since: null } : x)) };
  return scene;
};

// Your turn with 7 seconds left: the seconds show beside the ring.
SCENES["clock-low"] = () => ({ ...SCENES.table(), clock: { kind: "turn", seat: 0, remaining_ms: 7000, seconds: 30 } });

// Your turn clock ran out: the server says so before the move made for you.
SCENES["time-up"] = () => ({
  ...SCENES.table(),
  events: [
    { type: "time_up", seat: 0, clock: "turn", by: "rule" },
    { type: "draw", seat: 0, count: 1 },
  ],
});

// A Quick Match table at its end: no host, so each player may look for new players.
SCENES["game-over-quick"] = () => {
  const scene = SCENES["game-over-guest"]();
  scene.room = { ...scene.room, kind: "quick-match", host: null };
  return scene;
};

const SIX = (preset) => {
  const r = room(preset, "playing", 4);
  r.seats.push(
    { seat: 4, kind: "bot", name: "Computer", label: "Computer", level: "easy", connected: true, ready: true, substitute: false },
    { seat: 5, kind: "human", name: "Deniz Yıldırım", connected: true, ready: true, substitute: false },
  );
  r.settings.seats = 6;
  return r;
};
SCENES["day-night-6"] = () => ({
  screen: "table",
  room: SIX("day-night"),
  view: view("day-night", {
    seats: 6,
    side: "day",
    counts: [12, 9, 12, 3, 1, 7],
    hand: ["R+1", "R3", "R9", "B-skip", "B4", "B7", "Y1", "Y-reverse", "G2", "G-flip", "W", "W-clock"],
    top: "G6",
    color: "G",
    faces: {
      1: ["R+5", "W-hunt", "B7", "Y-flip", "G-reverse", "B2", "Y8", "R1", "G-skipall"],
      2: ["W", "B3", "R8", "Y2", "Y+5", "G9", "G4", "B-skipall", "R-reverse", "Y6", "B5", "R2"],
      3: ["B-skip", "R2", "Y9"],
      4: ["G7"],
      5: ["Y3", "G8", "R-flip", "B+5", "Y9", "Y3", "R-flip"],
    },
    draw_top: "Y-reverse",
    clock: 2,
    one_card: [4],
    legal: [{ type: "play", card: "G2" }, { type: "play", card: "G-flip" }, { type: "draw" }],
  }),
  clock: CLOCK,
  events: [
    { type: "play", seat: 5, card: "G6" },
    { type: "clock_set", seat: 5, turns: 3 },
  ],
});
// An opponent's turn, its chip wearing the turn marker: five opponents (two rows on a
// phone, one sideways) and one.
const THEIR_TURN = (seats, turn) => ({
  screen: "table",
  room: seats === 6 ? SIX("standard") : room("standard", "playing", seats),
  view: view("standard", {
    seats, counts: [7, 7, 7, 6, 6, 6].slice(0, seats), to_act: [turn], turn, legal: [],
    one_card: [], substitutes: [],
  }),
  clock: { kind: "turn", seat: turn, remaining_ms: 20000, seconds: 30 },
});
SCENES["their-turn-6"] = () => THEIR_TURN(6, 3);
SCENES["their-turn-2"] = () => THEIR_TURN(2, 1);
// The end of a three-round match: every round's points in a column.
SCENES["match-over"] = () => ({
  screen: "table",
  room: room("family", "finished"),
  view: view("family", {
    phase: "game_over",
    turn: null,
    legal: [],
    round: 3,
    counts: [0, 3, 4, 2],
    scores: [120, 45, 0, 12],
    round_scores: [[30, 0, 0, 12], [90, 0, 0, 0], [0, 45, 0, 0]],
    out: [1, 0, 3, 2],
    result: { scores: [120, 45, 0, 12], winners: [0] },
  }),
  events: [{ type: "game_over", scores: [120, 45, 0, 12], winners: [0] }],
});
// The results of a six-seat table (a small phone had room for three places and a half).
SCENES["game-over-6"] = () => {
  const r = SIX("classic-table");
  r.status = "finished";
  const scores = [40, 99, 20, 79, 0, 12];
  return {
    screen: "table",
    room: r,
    view: view("classic-table", {
      seats: 6,
      phase: "game_over",
      turn: null,
      legal: [],
      counts: [2, 0, 5, 3, 7, 4],
      scores,
      round_scores: [scores],
      out: [1],
      result: { scores, winners: [1] },
    }),
    events: [{ type: "game_over", scores, winners: [1] }],
  };
};
// Practice against five computers, under the longest name a field takes that wraps (a
// phone's six rows went under the buttons, each computer's tag on a line of its own).
SCENES["game-over-6-bots"] = () => {
  const r = room("day-night", "finished", 1, { kind: "practice" });
  r.seats[0].name = "Şükrü Çağlayan-Muñoz";
  for (let i = 1; i < 6; i += 1) {
    r.seats.push({ seat: i, kind: "bot", name: "Computer", label: "Computer", level: "hard", connected: true, ready: true, substitute: false });
  }
  r.settings.seats = 6;
  const scores = [70, 101, 95, 86, 82, 71];
  return {
    screen: "table",
    room: r,
    view: view("day-night", {
      seats: 6,
      phase: "game_over",
      turn: null,
      legal: [],
      counts: [3, 0, 1, 4, 4, 3],
      scores,
      round_scores: [scores],
      out: [1],
      result: { scores, winners: [1] },
    }),
    events: [{ type: "game_over", scores, winners: [1] }],
  };
};
SCENES["long-hand"] = () => ({
  screen: "table",
  room: room("classic-table", "playing", 2),
  view: view("classic-table", {
    seats: 2,
    counts: [14, 3],
    hand: ["R1", "R2", "R4", "R6", "R8", "B1", "B2", "B5", "B8", "Y1", "Y4", "Y9", "G2", "G7"],
    top: "G3",
    color: "G",
    one_card: [],
    substitutes: [],
    legal: [{ type: "play", card: "G2" }, { type: "play", card: "G7" }, { type: "draw" }],
  }),
  clock: CLOCK,
});
SCENES.leave = () => ({ ...SCENES.table(), leave: true });
SCENES.faces = () => ({ ...SCENES["day-night-6"](), ui: { faces: 2 } });
SCENES.rules = () => ({ ...SCENES.siege(), rules: "siege" });
SCENES["history-open"] = () => ({ ...SCENES.window(), historyOpen: true });
// six seats on a phone: a short middle (the open moves were sized from it: one line)
SCENES["history-open-6"] = () => ({ ...SCENES["day-night-6"](), events: SCENES.window().events, historyOpen: true });
for (const p of DEFAULT_GAME.presets) SCENES[`howto-${p}`] = () => ({ screen: "howto", preset: p });

const ALL_CARDS = [
  ..."RBYG".split("").flatMap((c) => [
    `${c}0`, `${c}7`, `${c}-skip`, `${c}-reverse`, `${c}+2`, `${c}-bomb`, `${c}-shield`,
    `${c}+1`, `${c}+5`, `${c}-skipall`, `${c}-flip`,
  ]),
  "W", "W+4", "W-clock", "W-hunt",
];
SCENES.cards = () => ({ screen: "cards" });

const noop = () => {};
const acts = new Proxy({}, { get: () => noop });
const banners = new Banners();

// A scene drawn as a new page draws it, whatever was drawn before (window.__devShow)
function render(scene) {
  const s = scene();
  const main = document.getElementById("main");
  banners.clear();
  document.getElementById("leave-table").hidden = true;
  document.getElementById("rules-btn").hidden = true;
  delete document.body.dataset.screen;
  window.onresize = null;
  main.replaceChildren();
  let nodes;
  if (s.screen === "home") {
    const key = s.game || GAMES_ANSWER.default;
    const def = GAMES_ANSWER.games.find((g) => g.key === key);
    nodes = renderHome({ games: GAMES_ANSWER, game: key, form: homeForm(def), name: "Ana" }, acts);
    if (s.queue) nodes.push(queueDialog(s.queue, acts));
  } else if (s.screen === "cards") {
    nodes = [
      h(
        "div.page",
        h("h1", "Cards"),
        h("div", { style: "display:flex;flex-wrap:wrap;gap:10px" }, ALL_CARDS.map((c) => renderCard(c))),
        h("div", { style: "display:flex;flex-wrap:wrap;gap:6px;margin-top:16px" }, ALL_CARDS.map((c) => renderCard(c, { size: "sm" }))),
        h("div", { style: "display:flex;flex-wrap:wrap;gap:4px;margin-top:16px" }, ALL_CARDS.map((c) => renderCard(c, { size: "xs" }))),
      ),
    ];
  } else if (s.screen === "join") {
    nodes = renderJoin({ room: s.room, code: s.room.code, name: "Bo", games: GAMES_ANSWER }, acts);
  } else if (s.screen === "room") {
    nodes = renderRoom(
      { room: s.room, me: s.me, games: GAMES_ANSWER, inviteUrl: `${location.origin}/r/KMPXRA`, qrUrl: "/favicon.svg" },
      acts,
    );
  } else if (s.screen === "howto") {
    const game = GAMES[s.game] || DEFAULT_GAME;
    nodes = rulesPage(game, s.preset, () => {}, undefined, { def: definitionOf(SITE_GAMES || GAMES_ANSWER, game.key), away: SITE_GAMES && SITE_GAMES.away });
  } else {
    const game = gameOf(s.view);
    const clock = s.clock
      ? { ...s.clock, total: s.clock.seconds * 1000, localDeadline: performance.now() + s.clock.remaining_ms }
      : null;
    const model = {
      room: s.room,
      view: s.view,
      me: s.me ?? 0,
      clock,
      fresh: true,
      nextReady: false,
      ui: s.ui || {},
    };
    // each event as a moment of its own: the history shows them all
    const lines = (s.events || []).map((e) => describeAll(game, [e], model)).filter(Boolean);
    model.lastLine = lines.slice(-2).join(" · ");
    model.history = historyPanel({
      title: t("history.title"),
      lines: lines.slice(-HISTORY_SIZE), // (as the app keeps them)
      open: !!s.historyOpen,
      empty: t("history.empty"),
      onClose: s.historyOpen ? () => {} : null,
      closeLabel: t("common.close"),
      // as the app: on screen (a wide screen, or opened), its list takes a Tab stop
      focusable: !!s.historyOpen || window.matchMedia("(min-width: 900px)").matches,
    });
    model.historyToggle = historyToggle({ label: t("history.show"), open: !!s.historyOpen, onToggle: () => {} });
    nodes = game.renderTable(model, acts);
    if (s.leave) {
      nodes[0].append(
        confirmDialog({
          title: t("table.leaveTitle"),
          text: game.leaveText
            ? game.leaveText({ view: s.view, room: s.room, link: `${location.host}/r/${(s.room && s.room.code) || "KMPXRA"}` })
            : t("table.leaveConfirm", { link: location.host }),
          yes: t("table.leave"),
          no: t("table.stay"),
          onYes: () => {},
          onNo: () => {},
          key: "leave",
        }),
      );
    }
    if (s.rules) {
      const def = definitionOf(SITE_GAMES || GAMES_ANSWER, game.key);
      nodes[0].append(rulesDialog(game, s.rules, () => {}, { def, view: s.view, away: SITE_GAMES && SITE_GAMES.away }));
    }
    morph(main, nodes);
    game.afterRender?.(main, { revealPlayable: true });
    fitTable(main);
    window.onresize = () => fitTable(main);
    tickClocks(main, clock);
    // every event is described and bannered (and so checked for missing strings)
    const items = bannersAll(game, s.events || [], model);
    for (const item of items) item.text(); // worded now, so a missing string shows up
    banners.show(items, "dev");
    document.body.dataset.screen = "table";
    document.getElementById("leave-table").hidden = false;
    document.getElementById("rules-btn").hidden = false;
    settleFocus(main, { newScreen: true });
    return;
  }
  morph(main, nodes);
  document.body.dataset.screen = s.screen;
}

async function boot() {
  const params = new URLSearchParams(location.search);
  const name = params.get("scene") || "list";
  await setLang(params.get("lang") || "en");
  // the site's own games' answer, for what the engine owns (a preset's rules, a side's
  // points on the How to play pages); the fixture above where it cannot be had
  SITE_GAMES = await fetch("/api/games").then((r) => (r.ok ? r.json() : null), () => null);
  // every game's words, styles and scenes
  await useCatalogs(Object.values(GAMES).map((g) => g.catalog).filter(Boolean));
  for (const game of Object.values(GAMES)) {
    if (game.styles && !document.querySelector(`link[rel="stylesheet"][href="${game.styles}"]`)) {
      document.head.append(h("link", { rel: "stylesheet", href: game.styles }));
    }
    if (game.scenes) Object.assign(SCENES, await game.scenes());
  }
  await Promise.all([...document.querySelectorAll("link[rel=stylesheet]")].map((l) =>
    l.sheet ? null : new Promise((ok) => { l.onload = ok; l.onerror = ok; })));
  document.getElementById("lang-select").value = params.get("lang") || "en";
  document.getElementById("lang-select").addEventListener("change", (e) => {
    params.set("lang", e.target.value);
    location.search = params.toString();
  });
  if (!SCENES[name]) {
    const main = document.getElementById("main");
    main.replaceChildren(
      h(
        "div.page",
        h("h1", "Dev scenes"),
        h(
          "ul",
          Object.keys(SCENES).map((k) => h("li", h("a", { href: `?scene=${k}&lang=${params.get("lang") || "en"}` }, k))),
        ),
      ),
    );
    window.__devScenes = Object.keys(SCENES);
    return;
  }
  render(SCENES[name]);
  window.__devReady = true;
  document.title = `${name} · ${t("app.name")}`;
  // Another scene drawn in this page as a fresh page draws it (the browser tests' walk
  // through every scene: a page load per scene was nearly all of its time)
  window.__devShow = (next) => {
    window.__devReady = false;
    render(SCENES[next]);
    window.__devReady = true;
  };
}

window.__devScenes = Object.keys(SCENES);
boot();
