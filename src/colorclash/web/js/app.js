// The app: routing (/, /r/CODE, /?rules=PRESET[&game=KEY]), the connection to the server
// and the screens. The games come from GET /api/games; each table is drawn by its game's
// table module (games/); the shell (shell/) keeps banners, dialogs, results, move history
// and focus the same for every game. Nothing here names a game.
import { DEFAULT_GAME, GAMES, gameOf } from "./games/index.js";
import { homeForm, queueDialog, renderHome } from "./home.js";
import {
  catalogsReady,
  detectLang,
  getLang,
  has,
  onLangChange,
  prefetchCatalogs,
  setLang,
  t,
  useCatalogs,
} from "./i18n.js";
import { api, ApiError, completeState, Connection, forgetTicket, loadTicket, markBack, markLeft, recentTickets, saveTicket } from "./net.js";
import { renderJoin, renderRoom, roomTitle } from "./room.js";
import { Banners } from "./shell/banners.js";
import { confirmDialog } from "./shell/dialog.js";
import { lastTap, resetFocus, settleFocus } from "./shell/focus.js";
import {
  definitionOf,
  lastGame,
  moduleOf,
  playableGames,
  rememberGame,
  requestOptions,
  tableTitle,
} from "./shell/games.js";
import { historyPanel, historyToggle, recall, remember } from "./shell/history.js";
import { isShortcut, keysButton, keysOn, showKeysState } from "./shell/keys.js";
import { checkLowClock, play, played, soundButton } from "./shell/sound.js";
import { fitTable } from "./shell/fit.js";
import { bannersAll, describeMoments, describeNow } from "./shell/notices.js";
import { rulesDialog, rulesPage, rulesTitle } from "./shell/rules.js";
import { animalName, seatName, setServerTime, tickClocks } from "./shell/seats.js";
import { announce, clearAnnouncements, clearTip, clearToast, h, morph, refreshToast, toast } from "./ui.js";

const NAME_KEY = "cc.name";
const QUEUE_PATIENCE_MS = 20_000; // alone in the Quick Match queue this long: offer the computer

const state = {
  screen: "loading",
  games: null, // the GET /api/games answer
  gamesError: false,
  game: null, // the game chosen on the home page (its key)
  forms: {}, // the home page's choices, per game
  name: readName(),
  busy: false,
  homeError: null, // {code} or {key}: worded at each redraw
  codeError: null, // the room-code field's refusal: { key } of the catalog, or the server's error
  codeDraft: "", // what is typed in the room-code field (each redraw rebuilds the field)
  code: null,
  me: null,
  room: null,
  view: null,
  clock: null,
  seq: 0,
  conn: null,
  connStatus: "idle",
  lostAt: 0, // when the socket went down (Date.now())
  grace: null, // the seconds a game's seat waits for its player (the welcome's), then a substitute plays it
  joinRoom: null,
  joinError: null,
  fatal: null,
  pending: false,
  nextReady: false,
  fresh: false, // the table has not been drawn since the latest state
  logHash: null, // the latest state's log_hash
  moments: [], // the events of the last few moments of this game (move history)
  historyOpen: false,
  confirmLeave: false,
  confirmRemove: null, // {seat, name}: whom the host pressed Remove for, asked before it goes
  askedName: null, // the name a join asked for, until the table's first state says the seat's
  removedSeat: null, // the seat this host took someone off (not said back to them)
  playedAgain: false, // this page pressed Play again (a room opened instead is explained)
  unanswered: null, // the seq an action was sent on, until its answer
  refusalToast: null, // the id of the toast of an action refused, cleared at the next action
  cutSaid: false, // your turns' away clock (clock.cut) said, until a whole turn clock again
  lostCheck: null, // that seq, after the socket was opened again
  rules: null, // the preset whose "How to play" is open over the table
  rulesPage: null, // the preset of the "How to play" page (/?rules=PRESET)
  rulesGame: null, // and its game
  revealHand: false,
  resultsHidden: false, // a finished game's results put aside to see the table
  resume: null, // [{code, status, game, left}]: tables this browser holds a seat at (the home page's ways back)
  gameUi: {}, // the table module's own view state (e.g. an opened panel), kept across redraws
  queue: null,
};
window.__cc = state; // handy for debugging and for the browser tests

// A finger's tap this soon after the one that sent an action, on the same spot, is the
// second of a double tap: it lands on what the table drew in the first one's place (DRAW
// where "Last card!" stood, KEEP where DRAW stood) and would play it: ignored. A tap
// elsewhere is a deliberate one ("Last card!", then the card at once).
const TAP_AGAIN_MS = 400;
const TAP_SPOT_PX = 32;

function doubleTap() {
  const now = lastTap();
  const before = state.lastTap;
  return Boolean(now && before && now !== before && now.t - before.t < TAP_AGAIN_MS &&
    Math.hypot(now.x - before.x, now.y - before.y) < TAP_SPOT_PX);
}
state.sounds = played; // the sounds asked for (shell/sound.js), for the browser tests

const banners = new Banners();
const main = document.getElementById("main");

function readName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

function playerName() {
  const n = (state.name || "").trim().slice(0, 20);
  return n || t("home.defaultName");
}

function errorText(err) {
  if (!err) return "";
  if (err.key) return t(err.key);
  const code = err.code;
  // the rule a name broke, in the page's language ("A name has 1 to 20 characters" said
  // nothing to someone whose name was refused for an emoji or for "Computer")
  if (code && err.reason && has(`error.${code}.${err.reason}`)) return t(`error.${code}.${err.reason}`);
  // a refusal that says when to try again (a budget of changes or requests spent)
  if (code === "rate_limited" && err.retry_after > 0) return t("error.rate_limited.wait", { n: err.retry_after });
  if (code && has(`error.${code}`)) return t(`error.${code}`);
  if (code === "network") return t("error.network");
  return err.message ? err.message : t("error.unknown");
}

function asError(err) {
  return {
    code: err && err.code,
    message: err && err.message,
    reason: err && err.reason,
    retry_after: err && err.retry_after,
  };
}

// The moment the table shows: banners belong to it (shell/banners.js).
function momentKey() {
  return state.room && state.view ? `${state.room.code}|${state.room.match}|${state.seq}` : null;
}

function tableModel() {
  const game = gameOf(state.view);
  const describe = { room: state.room, me: state.me, view: state.view };
  const lines = describeMoments(game, state.moments, describe);
  const last = [...lines].reverse().find(Boolean) || "";
  return {
    room: state.room,
    view: state.view,
    me: state.me,
    clock: state.clock,
    logHash: state.logHash, // (the fairness record's tie to this table: shell/results.js)
    fresh: state.fresh,
    nextReady: state.nextReady,
    // the server names who may hold the pause between rounds (clock.hold: Table.holders)
    canHold: !!(state.clock && Array.isArray(state.clock.hold) && state.clock.hold.includes(state.me)),
    lastLine: last,
    ui: state.gameUi,
    history: historyPanel({
      title: t("history.title"),
      lines,
      keys: state.moments.map((m) => m.moment),
      open: state.historyOpen,
      empty: t("history.empty"),
      onClose: state.historyOpen ? () => tableActs.toggleHistory() : null,
      closeLabel: t("common.close"),
      focusable: state.historyOpen || window.matchMedia("(min-width: 900px)").matches,
      tools: [keysButton({ onToggle: () => render() }), soundButton({ onToggle: () => render() })],
    }),
    historyToggle: historyToggle({
      label: t("history.show"),
      open: state.historyOpen,
      onToggle: () => tableActs.toggleHistory(),
    }),
  };
}

// ---------------------------------------------------------------- rendering

// The address that brings a player back to this table (said in the leave dialog).
function tableLink(room) {
  if (!room || !room.code) return location.host;
  return `${location.host}${room.link || `/r/${room.code}`}`;
}

function leaveDialog() {
  const game = gameOf(state.view);
  const model = { view: state.view, room: state.room, link: tableLink(state.room) };
  return confirmDialog({
    title: t("table.leaveTitle"),
    // what leaving means depends on the game and the table (is a round still to come?)
    text: game.leaveText ? game.leaveText(model) : t("table.leaveConfirm", { link: model.link }),
    yes: t("table.leave"),
    no: t("table.stay"),
    onYes: () => tableActs.confirmLeave(),
    onNo: () => tableActs.cancelLeave(),
    key: "leave",
    overlayCls: "leave-overlay",
  });
}

// The names of the people whose seats `room` has empty and `prev` had taken (a seat
// freed after a match keeps its player's name as `former` until the room reopens), but
// the seats `skip` passes over.
function seatsEmptied(prev, room, skip = () => false) {
  return prev.seats.filter((s, i) => (s.kind === "human" || s.former) && !skip(i)
    && room.seats[i] && room.seats[i].kind === "empty").map((s) => s.former || s.name);
}

// Names listed in the page's language ("Ana and Bo", "Ana y Bo").
function names(list) {
  return new Intl.ListFormat(getLang(), { type: "conjunction" }).format(list);
}

// The host's Remove, asked first; gone by itself once the seat is no one's to remove.
function removeDialog() {
  const asked = state.confirmRemove;
  const room = state.room;
  const seat = asked ? asked.seat : null;
  const s = asked && room && room.seats[seat];
  // (the person asked about, not whoever sits there now: one left and another took the
  // seat while the dialog stood, and Yes would have removed them)
  if (!s || s.kind !== "human" || s.name !== asked.name || room.host !== state.me
      || seat === state.me) {
    state.confirmRemove = null;
    return null;
  }
  const name = seatName(room, seat);
  const close = () => {
    state.confirmRemove = null;
    render();
  };
  return confirmDialog({
    title: t("room.removeTitle", { name }),
    text: t("room.removeConfirm", { name }),
    yes: t("room.removeBot"),
    no: t("common.cancel"),
    onYes: () => {
      // (its emptying is not told back to the host who asked for it)
      if (send({ type: "remove_player", seat })) state.removedSeat = seat;
      close();
    },
    onNo: close,
    key: "remove",
  });
}

// The games' catalogs the screen needs (the home page lists every game).
function neededCatalogs() {
  const s = state.screen;
  let games = [];
  if (s === "home") games = playableGames(state.games).map((g) => g.key);
  else if (s === "rules") games = [state.rulesGame];
  else if (s === "join" && state.joinRoom) games = [state.joinRoom.game];
  else if ((s === "room" || s === "table") && state.room) games = [state.room.game];
  return games.map((k) => moduleOf(k) && moduleOf(k).catalog).filter(Boolean);
}

function homeContext() {
  const def = definitionOf(state.games, state.game);
  if (def && !state.forms[def.key]) state.forms[def.key] = homeForm(def);
  return {
    games: state.games,
    game: def ? def.key : null,
    form: def ? state.forms[def.key] : null,
    name: state.name,
    busy: state.busy,
    error: state.homeError ? errorText(state.homeError) : state.gamesError ? t("error.network") : null,
    codeError: state.codeError ? errorText(state.codeError) : null,
    codeDraft: state.codeDraft,
    resume: state.resume,
  };
}

let lastScreen = null;
// the join-by-code asks in flight: a new ask, or any change of page, makes an older one's
// answer stale (act.joinCode)
let codeAsked = 0;
// The home page a visitor lands on keeps the focus where any page starts it, before the
// skip link and the language menu (focusing <main> put those after the whole page); the
// screens that follow take it, as a new page's content would.
let landed = false;
let catalogFailed = false;
// What a How to play page reads of GET /api/games (the engine's rules and numbers), and
// whether the answer could not be had (the page says so rather than wait).
function rulesSource(game) {
  return {
    def: definitionOf(state.games, game.key),
    unavailable: !state.games && state.gamesError,
    away: (state.games && state.games.away) || null,
  };
}

let homeErrorShown = null; // the home page's error last brought into view

function render() {
  let nodes;
  const s = state.screen;
  const need = neededCatalogs();
  if (!catalogsReady(need) && !catalogFailed) {
    // the game's words are not here yet: a moment of spinner, then the screen
    useCatalogs(need).then(render, () => {
      catalogFailed = true; // drawn with what we have (English, or the keys)
      render();
    });
    morph(main, [h("div.page", h("div.spinner", { role: "status", "aria-label": t("common.loading") }))]);
    return;
  }
  if (s === "home") {
    nodes = renderHome(homeContext(), homeActs);
    if (state.queue) {
      // (which table is waited for, in the page's language: "Color Clash · Siege")
      const q = state.queue;
      const title = q.game ? tableTitle(moduleOf(q.game), definitionOf(state.games, q.game), q.preset) : "";
      nodes.push(queueDialog({ ...q, title }, homeActs));
    }
  } else if (s === "rules") {
    const game = moduleOf(state.rulesGame);
    nodes = rulesPage(game, state.rulesPage, (path) => navigate(path), (p) => rulesPath(game.key, p),
      rulesSource(game));
  } else if (s === "join") {
    nodes = renderJoin(
      {
        room: state.joinRoom,
        code: state.code,
        name: state.name,
        games: state.games,
        error: state.joinError ? errorText(state.joinError) : null,
        busy: state.busy,
      },
      joinActs,
    );
  } else if (s === "room" && state.room) {
    nodes = renderRoom(
      {
        room: withPendingSettings(state.room),
        me: state.me,
        games: state.games,
        inviteUrl: location.origin + (state.room.link || `/r/${state.room.code}`),
        qrUrl: `/api/rooms/${state.room.code}/qr.svg`,
      },
      roomActs,
    );
    const asking = removeDialog();
    if (asking) nodes.push(asking);
  } else if (s === "table" && state.view) {
    nodes = gameOf(state.view).renderTable(tableModel(), tableActs);
    const screen = nodes[0];
    if (state.resultsHidden && state.view.phase === "game_over") {
      // the results put aside to see the table: a button brings them back
      const results = screen.querySelector(".results-overlay[data-phase=game_over]");
      if (results) results.remove();
      const back = h("button.btn.primary#show-results",
        { type: "button", dataset: { focusKey: "show-results", initialFocus: "0" },
          onclick: () => tableActs.showResults() }, t("results.show"));
      const said = screen.querySelector("#turn-msg"); // "Game over", in your bar
      if (said) said.after(back);
      else screen.append(back);
    }
    if (state.confirmLeave) screen.append(leaveDialog());
    if (state.rules) {
      const mine = !!state.clock && state.clock.seat === state.me && state.clock.kind !== "next";
      const game = gameOf(state.view);
      screen.append(rulesDialog(game, state.rules, () => tableActs.closeRules(),
        { clockRunning: mine, view: state.view, ...rulesSource(game) }));
    }
    state.fresh = false;
  } else if (s === "fatal") {
    nodes = [
      h(
        "div.page",
        h(
          "section.panel",
          { style: "max-width:520px;margin:0 auto" },
          h("h1", { style: "color:var(--ink)" }, t(state.fatal.title)),
          h("p", t(state.fatal.text)),
          h(
            "div.row",
            state.fatal.retry
              ? h("button.btn.primary#btn-fatal-retry", { type: "button", onclick: state.fatal.retry },
                t(state.fatal.retryLabel))
              : null,
            h("button.btn", { type: "button", onclick: () => navigate("/") }, t("common.home")),
          ),
        ),
      ),
    ];
  } else {
    nodes = [h("div.page", h("div.spinner", { role: "status", "aria-label": t("common.loading") }))];
  }
  morph(main, nodes);
  document.body.dataset.screen = s;
  document.getElementById("leave-table").hidden = s !== "table";
  document.getElementById("rules-btn").hidden = s !== "table";
  const newScreen = s !== lastScreen;
  if (newScreen) {
    lastScreen = s;
    window.scrollTo(0, 0);
    clearToast();
    clearTip();
  }
  if (s === "room") dropStaleStartToast();
  if (s === "home" && state.homeError && state.homeError !== homeErrorShown) {
    // a new error of the home page is brought into view: it stands under the title, and a
    // player scrolled down to Quick Match or Practice saw the dialog close and nothing else
    // (a check of the queue's messages on a phone)
    homeErrorShown = state.homeError;
    const said = main.querySelector(".page.home .error-msg");
    if (said) said.scrollIntoView({ block: "nearest" });
  }
  if (s === "table") {
    // the newest moves in view: the history's list scrolls to its end (under its heading)
    const list = main.querySelector(".history .history-list");
    if (list) list.scrollTop = list.scrollHeight;
    gameOf(state.view).afterRender?.(main, { revealPlayable: state.revealHand });
    fitTable(main);
    state.revealHand = false;
    tickClocks(main, state.clock);
    banners.hold(!!main.querySelector(".overlay"));
  }
  const arriving = !landed && (s === "home" || s === "loading");
  if (s !== "loading") landed = true;
  if (!arriving) settleFocus(main, { newScreen });
  updateTitle();
}

function updateTitle() {
  const name = t("app.name");
  let title = name;
  if (state.screen === "room" && state.room) title = `${state.room.code} · ${roomTitle(state.room, state.games)} · ${name}`;
  if (state.screen === "rules" && state.rulesPage) {
    title = `${rulesTitle(moduleOf(state.rulesGame), state.rulesPage)} · ${name}`;
  }
  if (state.screen === "fatal" && state.fatal) title = `${t(state.fatal.title)} · ${name}`;
  if (state.screen === "table" && state.view) {
    const mine = state.view.turn === state.me && state.view.phase !== "game_over";
    title = `${mine ? `● ${t("table.yourTurn")} · ` : ""}${name}`;
  }
  document.title = title;
  const meta = document.querySelector('meta[name="description"]');
  if (meta) meta.setAttribute("content", t("app.description"));
}

setInterval(() => {
  if (state.connStatus === "reconnecting") refreshLostBar();
  if (state.screen !== "table") return;
  tickClocks(main, state.clock);
  if (checkLowClock(state.clock, state.me)) {
    // said once, politely (the ring's own words change every second and are not a live region)
    const left = Math.ceil(Math.max(0, state.clock.localDeadline - performance.now()) / 1000);
    announce(t("table.secondsLeft", { n: left }));
  }
}, 250);

function setConnStatus(status) {
  state.connStatus = status;
  document.body.dataset.conn = status; // the table is muted while the socket is down (css)
  const el = document.getElementById("conn");
  const bar = document.getElementById("reconnect");
  el.hidden = status === "idle";
  el.dataset.state = status;
  el.textContent =
    status === "online" ? t("conn.online") : status === "reconnecting" ? t("conn.reconnecting") : t("conn.connecting");
  const show = status === "reconnecting";
  if (show && bar.hidden) {
    announce(t("conn.lost"), { urgent: true });
    state.lostAt = Date.now(); // (wall time: a phone asleep stops performance.now())
  }
  if (!show && !bar.hidden) announce(t("conn.back"));
  bar.hidden = !show;
  bar.textContent = show ? t(lostBarKey()) : "";
}

// What the reconnecting bar says: after the game there is no seat to keep; in a game, the
// seat waits for its player for the site's grace (the welcome's `grace`), and then a computer
// substitute plays it (a player review: the bar still said the seat was kept).
function lostBarKey() {
  const status = state.room && state.room.status;
  if (status === "finished") return "conn.lost";
  const away = (Date.now() - state.lostAt) / 1000;
  if (status === "playing" && state.grace !== null && away >= state.grace) return "conn.lostSubstituted";
  return "conn.lostLong";
}

// (ticked while reconnecting: the bar's words as the grace runs out)
function refreshLostBar() {
  const bar = document.getElementById("reconnect");
  const text = t(lostBarKey());
  if (bar.textContent !== text) {
    bar.textContent = text;
    announce(text);
  }
}

// ---------------------------------------------------------------- routing

function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState({}, "", path);
  else history.pushState({}, "", path);
  route();
}

function closeConn() {
  dropSettings(); // (a lobby change resting belongs to the room being left)
  held = [];
  if (state.conn) state.conn.close();
  state.conn = null;
  setConnStatus("idle");
}

function leaveTableState() {
  Object.assign(state, {
    moments: [],
    historyOpen: false,
    confirmLeave: false,
    confirmRemove: null,
    removedSeat: null,
    playedAgain: false,
    rules: null,
    gameUi: {},
  });
  resetFocus();
}

const HOME_PATHS = ["/", "/index.html"];

function route() {
  codeAsked += 1;
  const m = location.pathname.match(/^\/r\/([A-Za-z]{6})\/?$/);
  banners.at(null);
  if (m) {
    openRoom(m[1].toUpperCase());
    return;
  }
  closeConn();
  leaveTableState();
  Object.assign(state, { code: null, room: null, view: null, clock: null, me: null });
  const params = new URLSearchParams(location.search);
  const rules = params.get("rules");
  const rulesGame = GAMES[params.get("game") || DEFAULT_GAME.key];
  if (!HOME_PATHS.includes(location.pathname)) {
    // a mistyped address (the server answers it 404 with this page): said, with the way home
    state.screen = "fatal";
    state.fatal = { title: "notFound.title", text: "notFound.text" };
  } else if (rules && rulesGame && rulesGame.presets.includes(rules)) {
    state.screen = "rules";
    state.rulesPage = rules;
    state.rulesGame = rulesGame.key;
  } else {
    state.screen = "home";
    findResumable();
  }
  state.homeError = null;
  state.codeError = null;
  render();
}

// The tables this browser still holds a seat at (left by the browser's Back, a closed
// tab, or Leave where the seat can be taken back): the home page offers the ways back.
// The most recent three seats are asked about, each still on offered (games played at
// first, then games left, then lobbies: the first alone was, and a room made in another
// tab hid a match a computer played for the player); a room that is gone is forgotten.
let resumeAsked = 0; // (only the last look's answers count: home, a table, home again)
async function findResumable() {
  state.resume = null;
  const asked = ++resumeAsked;
  const look = async (ticket) => {
    const left = Boolean(ticket.left); // (left with Leave: net.js markLeft)
    if (left && !ticket.comeBack) return null;
    let room;
    try {
      room = await api("GET", `/api/rooms/${ticket.code}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) forgetTicket(ticket.code);
      return null;
    }
    if (room.status !== "playing" && room.status !== "lobby") return null;
    // The leave dialog said to open the table's address again to take the seat back:
    // the home page offers it (it offered nothing, and the player had to remember it).
    return { code: ticket.code, status: room.status, game: room.game, left: left && room.status === "playing" };
  };
  const found = (await Promise.all(recentTickets(3).map(look))).filter(Boolean);
  if (asked !== resumeAsked || state.screen !== "home" || !found.length) return;
  const rank = (r) => (r.status === "playing" ? (r.left ? 1 : 0) : 2);
  state.resume = found.map((r, i) => [r, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([r]) => r);
  render();
}

async function openRoom(code) {
  if (state.conn && state.code === code) return;
  closeConn();
  leaveTableState();
  Object.assign(state, {
    code,
    room: null,
    view: null,
    clock: null,
    me: null,
    joinRoom: null,
    joinError: null,
    nextReady: false,
  });
  const ticket = loadTicket(code);
  if (ticket && ticket.token) {
    state.me = ticket.seat;
    state.screen = "loading";
    render();
    connect(code, ticket.token);
    return;
  }
  state.screen = "join";
  render();
  await followJoinRoom(code, true);
}

// The join page follows its room while it waits in the lobby: the host may change the
// seats, add a computer or start while a guest types a name ("The room is full." stood
// beside "Players 1/4" and only the host listed). Read again every 10 s while the page
// is in view (each read is one of the address's 60 look-ups a minute), and at once after
// a refused join.
const JOIN_FOLLOW_MS = 10000;
let joinFollow = null;

async function followJoinRoom(code, first = false) {
  clearTimeout(joinFollow);
  joinFollow = null;
  const here = () => state.code === code && state.screen === "join";
  if (!here()) return;
  if (first || !document.hidden) {
    try {
      state.joinRoom = await api("GET", `/api/rooms/${code}`);
    } catch (err) {
      if (first) state.joinError = asError(err);
    }
    if (!here()) return;
    render();
  }
  if (state.joinRoom && state.joinRoom.status === "lobby") {
    joinFollow = setTimeout(() => followJoinRoom(code), JOIN_FOLLOW_MS);
  }
}

function connect(code, token) {
  let last = null; // the last state this connection received: what a compact one leaves out
  state.conn = new Connection(`/ws/${code}?token=${encodeURIComponent(token)}&compact=1`, {
    onmessage: (msg) => {
      if (msg.type === "state") msg = last = completeState(msg, last);
      onMessage(msg);
    },
    onstatus: (status, info) => {
      if (status === "closed") return onClosed(code, info);
      setConnStatus(status);
    },
  });
}

function onClosed(code, info) {
  setConnStatus("idle");
  state.conn = null;
  if (info.code === 4401) {
    forgetTicket(code);
    state.screen = "join";
    state.joinError = { code: "bad_token" };
    render();
    followJoinRoom(code);
    return;
  }
  const retry = () => {
    state.conn = null;
    const ticket = loadTicket(code);
    if (ticket) {
      state.screen = "loading";
      render();
      connect(code, ticket.token);
    }
  };
  // (taken off by the host: the link lets them join again while a seat is free, said
  // and offered here, at the table's own address, not only Home)
  const joinAgain = () => openRoom(code);
  // (a room's own reason, such as "not_restored" or "closed", in its words: a player at
  // a table found "There is no room with this code" and no word why; diff review)
  const reason = info.error && info.error.reason;
  const notFound = reason && has(`error.room_not_found.${reason}`) ? `error.room_not_found.${reason}` : "error.room_not_found";
  const kind = {
    4404: [notFound, null],
    4409: ["error.replaced", retry],
    4410: ["error.removed", joinAgain, "join.again"],
    4403: ["error.bad_origin", null],
    4429: ["error.flood", retry],
  }[info.code] || ["error.unknown", retry];
  if (info.code === 4404 || info.code === 4410) forgetTicket(code);
  state.fatal = { title: "fatal.title", text: kind[0], retry: kind[1], retryLabel: kind[2] || "common.retry" };
  state.screen = "fatal";
  render();
}

// ---------------------------------------------------------------- messages

// Messages wait here while the words of the room's game are loading (its first state).
let held = [];

function catalogOfRoom(room) {
  const game = room && moduleOf(room.game);
  return game && game.catalog;
}

function onMessage(msg) {
  const ns = msg.type === "state" ? catalogOfRoom(msg.room) : null;
  if (held.length || (ns && !catalogsReady([ns]) && !catalogFailed)) {
    held.push(msg);
    if (held.length === 1) {
      const release = () => {
        const list = held;
        held = [];
        list.forEach(handleMessage);
      };
      useCatalogs([ns || catalogOfRoom(held[0].room)]).then(release, () => {
        catalogFailed = true;
        release();
      });
    }
    return;
  }
  handleMessage(msg);
}

function handleMessage(msg) {
  if (msg.type === "welcome") {
    state.me = msg.seat;
    state.grace = typeof msg.grace === "number" ? msg.grace : null;
    setServerTime(msg.server_time);
    // a socket opened again with an action unanswered: the first state says whether it
    // reached the table (network review: a move lost with the socket said nothing)
    state.lostCheck = state.unanswered;
    state.unanswered = null;
    return;
  }
  if (msg.type === "error") {
    // (a refusal of a room change, such as a preset, is not the answer to an action; nor
    // the refusal of a move chosen on another state than the one waiting: its seq says
    // which, and a stale move's refusal cleared a later move's wait: a bad network review)
    const earlier = typeof msg.seq === "number" && state.unanswered !== null && msg.seq !== state.unanswered;
    if ((!msg.ref || msg.ref === "action") && !earlier) {
      setPending(false);
      state.unanswered = null;
    }
    const err = asError(msg);
    // a race the player lost (Color Clash's last-card window): said in the game's words,
    // not "It is not your turn"
    const raced = msg.ref === "action" && ["not_your_turn", "illegal_action"].includes(msg.code);
    const lostRace = raced && state.lastAction ? gameOf(state.view).raceLostKey?.(state.lastAction) : null;
    if (lostRace) err.key = lostRace;
    const shown = toast(() => errorText(err), 3200, { say: false });
    if (state.screen === "table") state.refusalToast = shown;
    announce(errorText(err), { urgent: true });
    // (in the lobby: a refused change, such as a preset, leaves its menu showing the
    // room's setting again, not the choice that was refused)
    if (state.screen === "table" || state.screen === "room") render();
    return;
  }
  if (msg.type !== "state") return;
  if (state.unanswered !== null && msg.seq !== state.unanswered) state.unanswered = null;
  if (state.lostCheck !== null) {
    const still = msg.seq === state.lostCheck && msg.view && (msg.view.legal || []).length > 0;
    state.lostCheck = null;
    if (still) {
      toast(() => t("table.actionLost"), 3200, { say: false });
      announce(t("table.actionLost"), { urgent: true });
    }
  }
  const mine = msg.room && Array.isArray(msg.room.seats) ? msg.room.seats[state.me] : null;
  if (mine && mine.kind === "human" && !mine.substitute) markBack(msg.room.code); // (back)
  const prevView = state.view;
  const prevRoom = state.room;
  const newMatch = !prevRoom || prevRoom.match !== msg.room.match || prevRoom.code !== msg.room.code;
  state.room = msg.room;
  state.view = msg.view;
  state.seq = msg.seq;
  state.logHash = msg.log_hash || null;
  // the answer to an action sent is a state of another seq (a state of the same one, such
  // as a seat coming back, is not: a second tap sent then was refused as stale)
  if (state.unanswered === null) setPending(false);
  if (msg.clock) {
    const total = (msg.clock.seconds ? msg.clock.seconds * 1000 : 0) || msg.clock.remaining_ms;
    state.clock = {
      ...msg.clock,
      total: Math.max(total, msg.clock.remaining_ms),
      // (less the time the message took on the way: net.js, LAG_MAX_MS)
      localDeadline: performance.now() + msg.clock.remaining_ms - (state.conn ? state.conn.lagMs : 0),
    };
  } else {
    state.clock = null;
  }
  const view = state.view;
  const events = msg.events || [];
  if (newMatch || !view) {
    state.moments = [];
    state.gameUi = {};
    state.cutSaid = false; // (a cut clock of the next match or table is said again)
    state.confirmLeave = state.confirmLeave && !!view;
  }
  // the table gone back to the room (Back to room): what was open over it goes with it (a
  // guest's How to play of the old rules opened again over the next game; diff review)
  if (!view && prevView) {
    state.rules = null;
    state.historyOpen = false;
  }
  if (!view || view.phase !== "game_over" || newMatch) state.resultsHidden = false;
  // a game that ends under the leave dialog: its words ("a substitute plays your seat
  // until the game ends") no longer hold, and a finished table is left by going home
  if (view && view.phase === "game_over") state.confirmLeave = false;
  if (view) {
    if (!prevView || prevView.round !== view.round || newMatch) state.nextReady = false;
    const game = gameOf(view);
    if (game.onState) {
      const prev = newMatch ? null : prevView;
      Object.assign(state.gameUi, game.onState({ prev, view, ui: state.gameUi, me: state.me }) || {});
    }
    state.fresh = true;
    if (Array.isArray(msg.recent)) {
      // a socket's first state: the moments before this one (never this one's own events)
      const { code, match } = msg.room;
      state.moments = recall(msg.recent, (seq) => `${code}|${match}|${seq}`);
    }
    state.moments = remember(state.moments, events, momentKey());
  }
  const wasScreen = state.screen;
  state.screen = msg.room.status === "lobby" || !view ? "room" : "table";
  const myTurnNow = !!view && view.turn === state.me && view.legal.length > 0;
  const myTurnBefore = !!prevView && prevView.turn === state.me && wasScreen === "table";
  if (state.screen === "table" && myTurnNow && (!myTurnBefore || newMatch)) state.revealHand = true;
  if (state.screen === "table" && wasScreen !== "table") state.revealHand = true;
  // the banners of this moment replace those of any other moment
  banners.at(momentKey());
  const turnMsg = () => {
    const el = document.getElementById("turn-msg"); // (a game may say more than it shows)
    if (!el) return "";
    if (el.dataset.say) return el.dataset.say;
    // what a screen reader reads of it: not the seconds badge ("… in a row 0 s"), hidden
    const copy = el.cloneNode(true);
    for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
    return copy.textContent.trim();
  };
  const turnMsgBefore = turnMsg();
  render();
  if (state.askedName && state.me != null && msg.room.seats[state.me]) {
    // a name someone at the table has, or one that reads the same, is seated as "Ana 2":
    // the joiner was not told (a lobby review)
    const seated = msg.room.seats[state.me].name || "";
    // (as the server writes it: runs of spaces made one, "Agent  7" is no "Agent 7" renamed)
    const asked = state.askedName.replace(/\s+/g, " ").trim();
    state.askedName = null;
    if (seated !== asked && /\s\d+$/.test(seated)) toast(() => t("room.renamed", { name: asked, as: seated }), 7000);
  }
  if (state.screen === "table" && wasScreen !== "table" && newMatch && msg.room.kind === "quick-match") {
    // strangers see this player under an animal name: say which, as the queue did
    const mine = msg.room.seats[state.me];
    if (mine && mine.name) toast(() => t("quick.yourName", { name: animalName(mine.name) }), 4500);
  }
  if (newMatch && prevRoom && prevRoom.code === msg.room.code && prevView
      && prevView.phase === "game_over" && view && msg.room.host !== state.me
      && msg.room.host != null) {
    // the host's Play again dealt a new game over this player's results: said, not only
    // the results gone and a clock already running
    toast(() => t("table.newGameByHost", { name: seatName(msg.room, msg.room.host) }), 5000);
  }
  if (prevRoom && prevRoom.code === msg.room.code && msg.room.status === "lobby"
      && prevRoom.status === "finished" && prevView && state.me != null
      && msg.room.host !== state.me && msg.room.host != null) {
    // the host took the table back to the room: the results gone and "Not ready" under
    // the guest's name, without a word (diff review); said, as Play again is
    toast(() => t("room.backByHost", { name: seatName(msg.room, msg.room.host) }), 6000);
  }
  if (prevRoom && prevRoom.code === msg.room.code && msg.room.status === "lobby"
      && prevRoom.status === "finished" && state.me != null && msg.room.host === state.me
      && state.playedAgain) {
    // the host's Play again opened the room instead, as someone had left: said, with who
    // (the host pressed Play again and landed in the lobby without a word: a lobby review)
    // (a seat freed after the match keeps its player's name as `former` until then)
    const gone = seatsEmptied(prevRoom, msg.room);
    if (gone.length) toast(() => t("room.backLeft", { name: names(gone), n: gone.length }), 8000);
  }
  if (msg.room.status !== "finished") state.playedAgain = false;
  // a lobby's state after another of the same lobby, this page seated
  const lobbyChanged = prevRoom && prevRoom.code === msg.room.code && msg.room.status === "lobby"
    && prevRoom.status === "lobby" && state.me != null;
  if (lobbyChanged && msg.room.host !== state.me
      && prevRoom.seats[state.me] && prevRoom.seats[state.me].ready
      && msg.room.seats[state.me] && !msg.room.seats[state.me].ready
      && JSON.stringify(prevRoom.settings) !== JSON.stringify(msg.room.settings)) {
    // the host changed the table (seats, rules, clock): the server asks everyone to say
    // ready again; the guest's "Ready" went back without a word
    toast(() => t("room.readyAgain"), 6000);
  }
  if (view && msg.clock && msg.clock.kind === "turn" && msg.clock.seat === state.me
      && state.me != null) {
    // your turns cut to the away clock (two ran out in a row): said once, with how to
    // have the whole clock back ("Sıra sende 3 sn" and no word why: a player review)
    const cut = !!msg.clock.cut;
    if (cut && !state.cutSaid) {
      toast(() => t("clock.cut", { n: Math.max(1, Math.round(msg.clock.seconds)) }), 7000);
    }
    state.cutSaid = cut;
  }
  // in the lobby, someone's seat emptied (they left, or the host took them off): the
  // others saw a name go without a word (a lobby review); not told to the host who
  // pressed Remove
  const gone = !lobbyChanged ? []
    : seatsEmptied(prevRoom, msg.room, (i) => i === state.me || i === state.removedSeat);
  if (prevRoom && prevRoom.code === msg.room.code && prevRoom.host !== state.me
      && msg.room.host === state.me && state.me != null) {
    // the host left or was away between games: their powers passed to this player (and,
    // when the host left the lobby, who went)
    const went = gone.length ? `${t("room.gone", { name: names(gone), n: gone.length })} ` : "";
    toast(() => `${went}${t("room.hostNow")}`, 7000);
  } else if (lobbyChanged) {
    // ...or the Host tag moved to someone else
    const removed = state.removedSeat != null && msg.room.seats[state.removedSeat];
    if (removed && removed.kind === "empty") state.removedSeat = null; // (done: said by no one)
    const hostMoved = msg.room.host != null && prevRoom.host !== msg.room.host;
    const said = [];
    if (gone.length) said.push(() => t("room.gone", { name: names(gone), n: gone.length }));
    const mineBefore = prevRoom.host === state.me;
    if (hostMoved && !mineBefore) {
      said.push(() => t("room.hostsNow", { name: seatName(msg.room, msg.room.host) }));
    }
    if (hostMoved && mineBefore && msg.room.seats[state.me]
        && msg.room.seats[state.me].kind === "human" && !msg.room.seats[state.me].ready) {
      // the host came back: the one who hosted meanwhile says Ready again (their Ready
      // was taken back without a word, and the host's Start waited for them: a review)
      said.push(() => t("room.hostBack", { name: seatName(msg.room, msg.room.host) }));
    }
    if (said.length) toast(() => said.map((say) => say()).join(" "), 7000);
  }
  if (state.screen === "table") {
    const game = gameOf(view);
    const model = { room: state.room, me: state.me, view };
    const line = describeNow(game, events, model, ". ");
    if (line) announce(line);
    banners.show(bannersAll(game, events, model), momentKey());
    game.animatePlay?.(main, events, state.me);
    // the lobby gave way to the table (the host started): heard in another tab too
    if (wasScreen === "room") play("start");
    if (myTurnNow && !myTurnBefore) {
      announce(t("table.yourTurn"));
      play("turn");
    }
    // still your turn, and what it asks has changed (a card drawn to play or keep, a
    // colour to choose, a card to place): said, not only shown
    else if (myTurnNow && !newMatch) {
      const asked = turnMsg();
      if (asked && asked !== turnMsgBefore) announce(asked);
    }
  }
}

function send(msg) {
  if (!state.conn || !state.conn.send(msg)) {
    toast(() => t("conn.notConnected"));
    return false;
  }
  return true;
}

// A double click on Start, Play again or Back to room sends one "start" (or "reopen"):
// the second, refused by the server once the first had dealt ("The game has already
// started"), left that message standing over the new table. Another click on the same
// match a few seconds later (the first was refused, say) is sent.
let lastOnce = { key: null, at: 0 };
function sendOnce(type) {
  const room = state.room;
  const key = room ? `${type}:${room.code}:${room.match}:${room.status}` : null;
  const now = Date.now();
  if (key !== null && lastOnce.key === key && now - lastOnce.at < 3000) return;
  if (send({ type })) lastOnce = { key, at: now };
}

// ---------------------------------------------------------------- actions

async function enterWith(promise) {
  state.busy = true;
  state.homeError = null;
  render();
  try {
    const ticket = await promise;
    saveTicket(ticket);
    state.busy = false;
    navigate(`/r/${ticket.code}`);
  } catch (err) {
    state.busy = false;
    state.homeError = asError(err);
    render();
  }
}

const homeActs = {
  resume(code) {
    state.resume = null;
    navigate(`/r/${code}`);
  },
  setName(v) {
    state.name = v;
    try {
      localStorage.setItem(NAME_KEY, v);
    } catch {
      /* ignore */
    }
  },
  chooseGame(key) {
    state.game = key;
    rememberGame(key);
    render();
  },
  form(patch) {
    Object.assign(state.forms[state.game], patch);
    render();
  },
  playNow() {
    enterWith(api("POST", "/api/play-now", { name: playerName(), game: state.game }));
  },
  practice() {
    const f = state.forms[state.game];
    enterWith(
      api("POST", "/api/practice", {
        name: playerName(),
        game: state.game,
        bots: f.bots,
        level: f.level,
        preset: f.practicePreset,
        ...requestOptions(f.practiceOptions),
      }),
    );
  },
  createRoom() {
    const f = state.forms[state.game];
    enterWith(
      api("POST", "/api/rooms", {
        name: playerName(),
        game: state.game,
        preset: f.roomPreset,
        ...requestOptions(f.roomOptions),
      }),
    );
  },
  async joinCode(raw) {
    // what people paste: the code with spaces around or inside it, or the invite link
    const text = String(raw || "");
    const link = /\/r\/([A-Za-z]{6})(?![A-Za-z])/.exec(text);
    const code = link ? link[1] : text.replace(/[\s-]+/g, "");
    const refuse = (err) => {
      state.codeError = err; // (the field keeps what is typed in it: state.codeDraft)
      render();
      const field = document.getElementById("join-code");
      if (field) field.focus();
    };
    if (!/^[A-Za-z]{6}$/.test(code)) return refuse({ key: code ? "home.badCode" : "home.noCode" });
    state.codeError = null;
    const upper = code.toUpperCase();
    const asked = ++codeAsked;
    // only the last code asked, on a home page not left meanwhile (Create room pressed, or
    // Home, Back), goes on to its room
    const current = () => asked === codeAsked && state.screen === "home" && !state.busy;
    try {
      await api("GET", `/api/rooms/${upper}`);
    } catch (err) {
      // A code with a letter wrong is said under the field, which keeps it to mend (its
      // room page said "no room with this code" with only Home to go on: player review).
      // Anything else (the network) the room's page says.
      if (err && err.code === "room_not_found") return current() ? refuse(asError(err)) : undefined;
    }
    if (!current()) return;
    state.codeDraft = "";
    navigate(`/r/${upper}`);
  },
  codeInput(v) {
    state.codeDraft = v;
    if (state.codeError) {
      state.codeError = null;
      render();
    }
  },
  rulesPath: (preset) => rulesPath(state.game, preset),
  rules(preset) {
    navigate(rulesPath(state.game, preset));
  },
  async quickMatch() {
    const preset = state.forms[state.game].quickPreset;
    state.busy = true;
    render();
    let q;
    try {
      q = await api("POST", "/api/quick-match", { game: state.game, preset });
    } catch (err) {
      state.busy = false;
      state.homeError = asError(err);
      render();
      return;
    }
    state.busy = false;
    state.queue = { ticket: q.ticket, name: q.name, waiting: q.waiting, long: false, game: state.game, preset };
    // After a while alone in the queue, the panel offers the computer instead (two people
    // from one address are never matched together: each would wait there forever).
    const queue = state.queue;
    queue.timer = setTimeout(() => {
      if (state.queue !== queue) return;
      queue.long = true;
      render();
    }, QUEUE_PATIENCE_MS);
    state.queue.conn = new Connection(q.ws || `/ws/quick-match?ticket=${encodeURIComponent(q.ticket)}`, {
      onmessage: (msg) => {
        if (!state.queue) return;
        if (msg.type === "queue") {
          state.queue.waiting = msg.waiting;
          state.queue.name = msg.name || state.queue.name;
          render();
        } else if (msg.type === "matched") {
          const conn = state.queue.conn;
          clearTimeout(state.queue.timer);
          state.queue = null;
          conn.close();
          saveTicket({ code: msg.code, seat: msg.seat, token: msg.token, ws: msg.ws });
          play("start"); // heard in another tab too: the wait is over
          navigate(`/r/${msg.code}`);
        }
      },
      onstatus: (status, info) => {
        if (status === "closed" && state.queue) {
          state.queue = null;
          // (the server's close says why: the ticket left from another tab, or its queue
          // was lost with its process; "your place has expired" said neither: diff review)
          const why = { ticket_left: "ticket_left", queue_lost: "queue_lost" }[info && info.reason];
          state.homeError = { code: why || "ticket_not_found" };
          render();
        }
      },
    });
    render();
  },
  cancelQuick() {
    const q = state.queue;
    state.queue = null;
    if (q) {
      clearTimeout(q.timer);
      q.conn.send({ type: "leave" });
      q.conn.close();
      api("DELETE", `/api/quick-match/${q.ticket}`).catch(() => {});
    }
    render();
  },
  // Waited long enough: leave the queue and play the computer at the table the player
  // queued for (its preset and its number of seats), not Play Now's default table (a
  // player who had chosen Siege was seated at Classic Table).
  playComputerInstead() {
    const def = definitionOf(state.games, state.game);
    const preset = state.forms[state.game] && state.forms[state.game].quickPreset;
    const seats = (def && def.quick_match_seats) || 3;
    homeActs.cancelQuick();
    enterWith(
      api("POST", "/api/practice", {
        name: playerName(),
        game: state.game,
        bots: Math.max(1, seats - 1),
        ...(preset ? { preset } : {}),
      }),
    );
  },
};

const joinActs = {
  setName: homeActs.setName,
  home: () => navigate("/"),
  async join() {
    state.busy = true;
    state.joinError = null;
    render();
    try {
      const asked = playerName();
      const ticket = await api("POST", `/api/rooms/${state.code}/join`, { name: asked });
      saveTicket(ticket);
      state.askedName = asked; // (told if the table seats them under another: Ana 2)
      state.room = null; // (a room of before, a seat lost and joined again, is not compared)
      state.busy = false;
      state.me = ticket.seat;
      state.screen = "loading";
      render();
      connect(ticket.code, ticket.token);
    } catch (err) {
      state.busy = false;
      state.joinError = asError(err);
      render();
      followJoinRoom(state.code); // (the room as it is now: what the refusal was about)
    }
  },
};

// The address of a How to play page: the default game's keep their v1 form.
function rulesPath(game, preset) {
  return game && game !== DEFAULT_GAME.key ? `/?game=${game}&rules=${preset}` : `/?rules=${preset}`;
}

// The computer level the lobby seats: the game's default one.
function roomLevel() {
  const def = state.room && definitionOf(state.games, state.room.game);
  return (def && def.default_level) || undefined;
}

// What the greyed Start said in its toast: once the lobby's status changes (a seat filled,
// a computer added), the toast's count is stale ("2 more" under "1 more") and goes.
let startRefusal = null;
function dropStaleStartToast() {
  if (startRefusal === null) return;
  const status = document.getElementById("room-status");
  const toastEl = document.querySelector(".toast");
  if (!toastEl || toastEl.hidden || toastEl.textContent !== startRefusal) startRefusal = null;
  else if (!status || status.textContent !== startRefusal) {
    clearToast();
    startRefusal = null;
  }
}

// The lobby's menus and the keyboard: an arrow key on a closed menu changes its choice at
// once, and each change was sent, stored and broadcast (every guest asked for Ready again
// at each step through six presets, and the lobby's change budget spent). A change made
// by a key waits until the keys have rested (SETTINGS_REST_MS), the patches merged; one
// made by the pointer goes at once, and so does any waiting one before it, or a Start.
const SETTINGS_REST_MS = 700;
let keyAt = -Infinity;
let pendingSettings = null; // the patch resting, for the room `pendingCode`
let pendingCode = null;
let pendingTimer = null;
document.addEventListener("keydown", (e) => {
  if (e.target && e.target.closest && e.target.closest(".settings-form select")) keyAt = performance.now();
}, true);

function mergeSettings(a, b) {
  const out = { ...(a || {}), ...b };
  if ((a && a.options) || b.options) out.options = { ...((a && a.options) || {}), ...(b.options || {}) };
  return out;
}

// Send a resting change now, to the room it was made in, if the page still hosts that
// room's lobby (else it is dropped: left, another room, the game started). True if sent.
function flushSettings() {
  clearTimeout(pendingTimer);
  pendingTimer = null;
  const patch = pendingSettings;
  const room = state.room;
  pendingSettings = null;
  if (!patch || !room || room.code !== pendingCode || room.status !== "lobby" || room.host !== state.me) {
    return false;
  }
  return send({ type: "settings", settings: patch });
}

function dropSettings() {
  clearTimeout(pendingTimer);
  pendingTimer = null;
  pendingSettings = null;
}

// The room as the host's menus show it: with a change still resting (a redraw meanwhile,
// someone joining, put the menu back on the room's setting under the host's keys).
function withPendingSettings(room) {
  if (!pendingSettings || !room || room.code !== pendingCode) return room;
  const { options, ...top } = pendingSettings;
  return { ...room, settings: { ...room.settings, ...top, ...(options || {}) } };
}

function changeSettings(patch) {
  // patches of one menu merge; another menu's sends the first one before it (a preset
  // merged with an option resting from before carried that option into a preset that
  // may not have it, and the whole change was refused)
  const menu = (p) => JSON.stringify([Object.keys(p).sort(), Object.keys(p.options || {}).sort()]);
  if (pendingSettings && (menu(pendingSettings) !== menu(patch) || pendingCode !== (state.room && state.room.code))) {
    flushSettings();
  }
  pendingCode = state.room ? state.room.code : null;
  pendingSettings = mergeSettings(pendingSettings, patch);
  if (performance.now() - keyAt > 150) {
    flushSettings();
    return;
  }
  clearTimeout(pendingTimer);
  pendingTimer = setTimeout(flushSettings, SETTINGS_REST_MS);
}

const roomActs = {
  settings: (settings) => changeSettings(settings),
  addBot: (seat) => send({ type: "add_bot", seat, ...(roomLevel() ? { level: roomLevel() } : {}) }),
  removeBot: (seat) => send({ type: "remove_bot", seat }),
  // (asked first: a mis-tap on a phone took a friend off the table: a lobby review)
  removePlayer(seat) {
    const s = state.room && state.room.seats[seat];
    state.confirmRemove = s ? { seat, name: s.name } : null;
    render();
  },
  ready: (ready) => send({ type: "ready", ready }),
  start() {
    // a change still resting goes first, and the start after it: the Start button drawn
    // before it may say the table is not ready when the change makes it so ("set Seats
    // to 2 to play now"); the server answers the start on the table as changed
    if (flushSettings()) {
      sendOnce("start");
      return;
    }
    const btn = document.getElementById("btn-start");
    if (btn && btn.getAttribute("aria-disabled") === "true") {
      const status = document.getElementById("room-status");
      const text = status ? status.textContent : "";
      toast(text, 3200, { say: false });
      startRefusal = text;
      announce(text, { urgent: true });
      return;
    }
    sendOnce("start");
  },
  leave() {
    send({ type: "leave" });
    forgetTicket(state.code);
    navigate("/");
  },
  async copy(url) {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      const input = document.getElementById("invite-link");
      if (input) {
        input.select();
        document.execCommand && document.execCommand("copy");
      }
    }
    toast(() => t("room.copied"));
  },
  async share(url, code) {
    try {
      await navigator.share({ title: t("app.name"), text: t("room.shareText", { code }), url });
    } catch (err) {
      // closed without sharing: nothing to say; refused (a page framed without the
      // right to share): the link is copied instead, rather than a button doing nothing
      if (!err || err.name !== "AbortError") await roomActs.copy(url);
    }
  },
};

// An action sent and not answered yet: another is not sent until its answer comes (a
// state of another seq, a refusal, a socket opened again: its first state), and after 0.4 s
// the hand says so (body[data-sending], css): a tap on a slow link showed nothing, and a
// second tap was ignored without a word (a player review). The lock lasted 2.5 s, less than
// a slow link's round trip: a third tap then went, was refused as stale, and its refusal
// cleared the lock of a later move (a bad network review). PENDING_MAX_MS is only a guard
// against an answer that never comes on a socket that stays open.
const PENDING_MAX_MS = 15000;
// a move unanswered this long asks whether the link is alive (Connection.probe)
const PROBE_AFTER_MS = 1000;
let pendingMark = 0;
let pendingShow = null;
function setPending(on) {
  state.pending = on;
  const mark = ++pendingMark;
  clearTimeout(pendingShow);
  delete document.body.dataset.sending;
  if (!on) return;
  pendingShow = setTimeout(() => {
    if (pendingMark === mark) document.body.dataset.sending = "1";
  }, 400);
  setTimeout(() => {
    if (pendingMark === mark && state.conn) state.conn.probe();
  }, PROBE_AFTER_MS);
  setTimeout(() => {
    if (pendingMark === mark) setPending(false);
  }, PENDING_MAX_MS);
}

const tableActs = {
  hideResults() {
    state.resultsHidden = true;
    render();
    const back = document.getElementById("show-results");
    if (back) back.focus({ preventScroll: true });
  },
  showResults() {
    state.resultsHidden = false;
    render();
  },
  action(a) {
    if (state.pending) return;
    if (doubleTap()) return;
    // with the state it was chosen on: a second click sent after the first's answer was
    // slow in coming (past the lock below) is refused, not played on the new table
    if (send({ type: "action", action: a, seq: state.seq })) {
      // a refusal's toast is about the move before: it does not stay over the next one
      // (it stood its 3 s over a chip or the top bar while the player went on)
      if (state.refusalToast) clearToast(state.refusalToast);
      state.refusalToast = null;
      state.lastAction = a.type;
      state.unanswered = state.seq; // (until a state of another seq, or an error)
      state.lastTap = lastTap();
      setPending(true);
    }
  },
  nextRound() {
    if (send({ type: "ready", ready: true })) {
      state.nextReady = true;
      render();
    }
  },
  // the results kept a minute more (again at each press): a reader's time, not the table's
  holdRound() {
    if (send({ type: "ready", ready: false })) {
      state.nextReady = false;
      render();
    }
  },
  playAgain() {
    state.playedAgain = true; // (if the room opens instead, its host is told why)
    sendOnce("start");
  },
  // the room's lobby again, everyone in their seats (protocol.md `reopen`)
  backToRoom() {
    // (once: a double click's second was refused, "The game is not over yet", in the lobby)
    sendOnce("reopen");
  },
  // Quick Match has no host to start another game: back to the queue, same game and table.
  findPlayers() {
    const room = state.room;
    const game = room && room.game ? room.game : state.game;
    leaveFinishedTable();
    state.game = game;
    rememberGame(game);
    navigate("/"); // the home page makes the game's form
    if (room && room.settings && state.forms[game]) state.forms[game].quickPreset = room.settings.preset;
    homeActs.quickMatch();
  },
  leaveTable() {
    if (state.view && state.view.phase === "game_over") {
      leaveFinishedTable();
      navigate("/");
      return;
    }
    state.confirmLeave = true;
    render();
  },
  cancelLeave() {
    state.confirmLeave = false;
    render();
  },
  confirmLeave() {
    state.confirmLeave = false;
    // Offline, the leave never left: the page went home and the others waited out the
    // seat's clocks and grace for a player said to be away (network review). Said, and
    // the player stays at the table until it can be sent.
    if (!send({ type: "leave" })) {
      render();
      return;
    }
    const game = gameOf(state.view);
    markLeft(state.code, !(game.canComeBack && !game.canComeBack(state.view)));
    navigate("/");
  },
  openRules() {
    clearTip();
    state.rules = (state.room && state.room.settings && state.room.settings.preset) || (state.view && state.view.preset);
    render();
  },
  closeRules() {
    state.rules = null;
    render();
  },
  ui(patch) {
    Object.assign(state.gameUi, patch);
    render();
  },
  toggleHistory() {
    clearTip();
    state.historyOpen = !state.historyOpen;
    render();
    // Narrow screens: the open panel covers its own button, so the focus goes into the
    // panel (its Close) and back to the button when it closes (the Close button sent it
    // to the hand; the focus ring stood hidden under the panel).
    const key = state.historyOpen ? "history:close" : "history:toggle";
    const el = document.querySelector(`[data-focus-key="${key}"]`);
    if (el && el.getClientRects().length) el.focus({ preventScroll: true });
  },
  home() {
    leaveFinishedTable();
    navigate("/");
  },
};

// Going home from a finished game leaves the table for good: the seat is freed (so the
// host's Play again reopens the lobby for someone else instead of dealing in an empty
// chair) and this browser forgets the seat.
function leaveFinishedTable() {
  if (!(state.view && state.view.phase === "game_over") || !state.code) return;
  if (state.conn) state.conn.send({ type: "leave" });
  forgetTicket(state.code);
}

document.addEventListener("keydown", (ev) => {
  if (state.screen !== "table") return;
  if (ev.key === "Escape" && state.historyOpen) {
    tableActs.toggleHistory();
    return;
  }
  // Escape over a finished game's results: the table behind them (a phone had no other
  // way to see the last moves and the final table)
  if (ev.key === "Escape" && !state.rules && !state.confirmLeave &&
      document.querySelector(".results-overlay[data-phase=game_over]")) {
    ev.preventDefault();
    tableActs.hideResults();
    return;
  }
  // a game's keys: not while typing in a field, with a modifier, or over a dialog
  if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (document.querySelector(".overlay")) return;
  if (!keysOn() && isShortcut(ev)) return; // turned off (shell/keys.js)
  gameOf(state.view).tableKeydown?.(ev, { view: state.view }, tableActs);
});

// A focus gone from the phone's open Moves sheet to the table it covers closes it: a Tab
// went on to DRAW and the hand under it, and Enter played a card nobody could see
// (keyboard review); so did the page's own move of the focus, a list redrawn empty. A
// dialog that opens over it (the results) takes the focus and gives it back to the
// sheet, which stays open.
document.addEventListener("focusin", (ev) => {
  if (!state.historyOpen || state.screen !== "table") return;
  const panel = document.getElementById("history");
  const to = ev.target;
  if (!panel || panel.contains(to) || !to.closest || to.closest(".history-toggle, .overlay, [role=dialog]")) return;
  state.historyOpen = false;
  queueMicrotask(render); // (after whatever drawing moved the focus)
});

window.addEventListener("popstate", route);
// Each screen starts at its top (render): the browser's own restoring of the old scroll
// on Back left the home page halfway down, below the way back to the table.
if ("scrollRestoration" in history) history.scrollRestoration = "manual";
window.addEventListener("resize", () => {
  if (state.screen === "table") fitTable(main);
});

document.getElementById("brand").addEventListener("click", (ev) => {
  ev.preventDefault();
  if (state.screen === "table" && state.view && state.view.phase !== "game_over") {
    tableActs.leaveTable();
    return;
  }
  navigate("/");
});

document.getElementById("leave-table").addEventListener("click", () => tableActs.leaveTable());
document.getElementById("rules-btn").addEventListener("click", () => tableActs.openRules());

const langSelect = document.getElementById("lang-select");
// A closed select changes at each arrow key: the page was drawn again in each language on
// the way (English to Turkish went through Spanish; an accessibility review). A choice
// made with the keys is taken once they rest (LANG_REST_MS), or at once with Enter or on
// leaving the menu; one made with the pointer or the open list, at once.
const LANG_REST_MS = 800;
let langKeyed = false;
let langTimer = null;
function takeLang() {
  clearTimeout(langTimer);
  langTimer = null;
  langKeyed = false;
  if (langSelect.value !== getLang()) setLang(langSelect.value, { remember: true });
}
// (only keys that move the choice: Shift of a Shift+Tab delayed the next pointer choice)
const LANG_MOVES = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);
langSelect.addEventListener("keydown", (e) => {
  if (e.key === "Enter") takeLang();
  else if (LANG_MOVES.has(e.key) || (e.key.length === 1 && e.key !== " ")) langKeyed = true;
});
langSelect.addEventListener("pointerdown", () => {
  if (langTimer === null) langKeyed = false;
});
langSelect.addEventListener("change", () => {
  if (!langKeyed) {
    takeLang();
    return;
  }
  clearTimeout(langTimer);
  langTimer = setTimeout(takeLang, LANG_REST_MS);
});
langSelect.addEventListener("blur", () => {
  if (langTimer !== null) takeLang();
  langKeyed = false;
});

// Everything on screen follows the language at once: the screen is redrawn from data,
// the banner and the toast on screen are reworded.
onLangChange(() => {
  langSelect.value = getLang();
  // what the live regions said, or were about to say, was in the old language
  clearAnnouncements();
  clearTip();
  render();
  banners.refresh();
  refreshToast();
  setConnStatus(state.connStatus);
});

async function boot() {
  showKeysState();
  const lang = detectLang();
  // What the first screen needs is asked for at once: the games (GET /api/games) and
  // their catalogs beside the shell's catalogs, not each a round trip after the other
  // (the page's modules are preloaded: server/webpage.py).
  const games = api("GET", "/api/games");
  games.catch(() => {}); // (loadGames says so, and tries again)
  prefetchCatalogs(Object.values(GAMES).map((g) => g.catalog), lang);
  try {
    await setLang(lang);
  } catch (err) {
    main.textContent = String(err);
    return;
  }
  langSelect.value = getLang();
  for (const game of Object.values(GAMES)) {
    if (game.styles && !document.querySelector(`link[rel="stylesheet"][href="${game.styles}"]`)) {
      // A table drawn before its game's styles arrive was fitted to the unstyled page
      // (a Rainbow opponent read "B… 2" in a 560 px panel): fitted again once they apply.
      const link = h("link", { rel: "stylesheet", href: game.styles });
      link.addEventListener("load", () => {
        if (state.screen === "table") fitTable(main);
      });
      document.head.append(link);
    }
  }
  loadGames(0, games);
  route();
}

// GET /api/games: the home page's picker and the room's choices (`asked`: the start's
// request, already on its way). Tried again a few times when the network fails (the home
// page says so meanwhile).
async function loadGames(attempt = 0, asked = null) {
  try {
    const answer = await (asked || api("GET", "/api/games"));
    // the picker names every game: their words first, so the page is drawn once
    const names = playableGames(answer).map((g) => moduleOf(g.key).catalog);
    await useCatalogs(names).catch(() => {});
    state.games = answer;
    state.gamesError = false;
    state.game = lastGame(state.games);
  } catch {
    state.gamesError = true;
    if (attempt < 5) setTimeout(() => loadGames(attempt + 1), 1000 * (attempt + 1));
  }
  if (["home", "room", "join", "rules"].includes(state.screen)) render();
}

boot();

export { ApiError, state };
