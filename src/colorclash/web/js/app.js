// The app: routing (/ and /r/CODE), the connection to the server and the screens.
import { parseCard } from "./cards.js";
import { queueDialog, renderHome } from "./home.js";
import { detectLang, getLang, has, setLang, t } from "./i18n.js";
import { api, ApiError, Connection, forgetTicket, loadTicket, saveTicket } from "./net.js";
import { renderJoin, renderRoom } from "./room.js";
import {
  animatePlay,
  Banners,
  describeEvents,
  renderTable,
  tableKeydown,
  tickClocks,
} from "./table.js";
import { announce, h, morph, toast } from "./ui.js";

const NAME_KEY = "cc.name";

const state = {
  screen: "loading",
  presets: null,
  name: readName(),
  busy: false,
  homeError: null,
  code: null,
  me: null,
  room: null,
  view: null,
  clock: null,
  seq: 0,
  conn: null,
  connStatus: "idle",
  joinRoom: null,
  joinError: null,
  fatal: null,
  choosingFor: null,
  pending: false,
  nextReady: false,
  freshTop: false,
  lastRoundWinners: [],
  lastLine: "",
  queue: null,
};
window.__cc = state; // handy for debugging and for the browser tests

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
  const code = err && err.code;
  if (code && has(`error.${code}`)) return t(`error.${code}`);
  if (code === "network") return t("error.network");
  return err && err.message ? err.message : t("error.unknown");
}

// ---------------------------------------------------------------- rendering

let lastScreen = null;
function render() {
  let nodes;
  const s = state.screen;
  if (s === "home") {
    nodes = renderHome(
      { presets: state.presets, name: state.name, busy: state.busy, error: state.homeError },
      homeActs,
    );
    if (state.queue) nodes.push(queueDialog(state.queue, homeActs));
  } else if (s === "join") {
    nodes = renderJoin(
      {
        room: state.joinRoom,
        code: state.code,
        name: state.name,
        error: state.joinError,
        busy: state.busy,
      },
      joinActs,
    );
  } else if (s === "room" && state.room) {
    nodes = renderRoom(
      {
        room: state.room,
        me: state.me,
        presets: state.presets,
        inviteUrl: location.origin + (state.room.link || `/r/${state.room.code}`),
        qrUrl: `/api/rooms/${state.room.code}/qr.svg`,
      },
      roomActs,
    );
  } else if (s === "table" && state.view) {
    nodes = renderTable(
      {
        room: state.room,
        view: state.view,
        me: state.me,
        clock: state.clock,
        choosingFor: state.choosingFor,
        freshTop: state.freshTop,
        nextReady: state.nextReady,
        lastRoundWinners: state.lastRoundWinners,
        lastLine: state.lastLine,
      },
      tableActs,
    );
    state.freshTop = false;
  } else if (s === "fatal") {
    nodes = [
      h(
        "div.page",
        h(
          "section.panel",
          { style: "max-width:520px;margin:0 auto" },
          h("h1", { style: "color:var(--ink)" }, state.fatal.title),
          h("p", state.fatal.text),
          h(
            "div.row",
            state.fatal.retry
              ? h("button.btn.primary", { type: "button", onclick: state.fatal.retry }, t("common.retry"))
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
  if (s !== lastScreen) {
    lastScreen = s;
    // a new screen: move focus to its start so screen readers read it
    const target = main.querySelector("[autofocus]") || main;
    if (!main.contains(document.activeElement) || document.activeElement === document.body) {
      target.focus({ preventScroll: true });
    }
    window.scrollTo(0, 0);
  }
  const dlg = main.querySelector(
    ".color-overlay .color-btn, .results-overlay .btn, .queue-box .btn",
  );
  if (dlg && !main.querySelector(".overlay")?.contains(document.activeElement)) {
    dlg.focus();
  }
  updateTitle();
  if (s === "table") tickClocks(main, state.clock);
}

function updateTitle() {
  let title = "Color Clash";
  if (state.screen === "room" && state.room) title = `${state.room.code} · Color Clash`;
  if (state.screen === "table" && state.view) {
    const mine = state.view.turn === state.me && state.view.phase !== "game_over";
    title = `${mine ? `● ${t("table.yourTurn")} · ` : ""}Color Clash`;
  }
  document.title = title;
}

setInterval(() => {
  if (state.screen === "table") tickClocks(main, state.clock);
}, 250);

function setConnStatus(status) {
  state.connStatus = status;
  const el = document.getElementById("conn");
  const bar = document.getElementById("reconnect");
  el.hidden = status === "idle";
  el.dataset.state = status;
  el.textContent =
    status === "online" ? t("conn.online") : status === "reconnecting" ? t("conn.reconnecting") : t("conn.connecting");
  const show = status === "reconnecting";
  if (show && bar.hidden) announce(t("conn.lost"), { urgent: true });
  if (!show && !bar.hidden) announce(t("conn.back"));
  bar.hidden = !show;
  bar.textContent = show ? t("conn.lostLong") : "";
}

// ---------------------------------------------------------------- routing

function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState({}, "", path);
  else history.pushState({}, "", path);
  route();
}

function closeConn() {
  if (state.conn) state.conn.close();
  state.conn = null;
  setConnStatus("idle");
}

function route() {
  const m = location.pathname.match(/^\/r\/([A-Za-z]{6})\/?$/);
  banners.clear();
  if (m) {
    openRoom(m[1].toUpperCase());
    return;
  }
  closeConn();
  Object.assign(state, { code: null, room: null, view: null, clock: null, me: null });
  state.screen = "home";
  state.homeError = null;
  render();
}

async function openRoom(code) {
  if (state.conn && state.code === code) return;
  closeConn();
  Object.assign(state, {
    code,
    room: null,
    view: null,
    clock: null,
    me: null,
    joinRoom: null,
    joinError: null,
    choosingFor: null,
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
  try {
    state.joinRoom = await api("GET", `/api/rooms/${code}`);
  } catch (err) {
    state.joinError = errorText(err);
  }
  if (state.code === code && state.screen === "join") render();
}

function connect(code, token) {
  state.conn = new Connection(`/ws/${code}?token=${encodeURIComponent(token)}`, {
    onmessage: onMessage,
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
    state.joinError = t("error.bad_token");
    render();
    api("GET", `/api/rooms/${code}`)
      .then((room) => {
        state.joinRoom = room;
        if (state.screen === "join") render();
      })
      .catch(() => {});
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
  const kind = {
    4404: ["error.room_not_found", null],
    4409: ["error.replaced", retry],
    4403: ["error.bad_origin", null],
    4429: ["error.flood", retry],
  }[info.code] || ["error.unknown", retry];
  if (info.code === 4404) forgetTicket(code);
  state.fatal = { title: t("fatal.title"), text: t(kind[0]), retry: kind[1] };
  state.screen = "fatal";
  render();
}

// ---------------------------------------------------------------- messages

function onMessage(msg) {
  if (msg.type === "welcome") {
    state.me = msg.seat;
    return;
  }
  if (msg.type === "error") {
    state.pending = false;
    const text = errorText(msg);
    toast(text);
    announce(text, { urgent: true });
    if (state.screen === "table") render();
    return;
  }
  if (msg.type !== "state") return;
  const prevView = state.view;
  const prevRoom = state.room;
  state.room = msg.room;
  state.view = msg.view;
  state.seq = msg.seq;
  state.pending = false;
  if (msg.clock) {
    const total = (msg.clock.seconds ? msg.clock.seconds * 1000 : 0) || msg.clock.remaining_ms;
    state.clock = {
      ...msg.clock,
      total: Math.max(total, msg.clock.remaining_ms),
      localDeadline: performance.now() + msg.clock.remaining_ms,
    };
  } else {
    state.clock = null;
  }
  const view = state.view;
  if (view) {
    if (!prevView || prevView.top !== view.top || prevView.discard_count !== view.discard_count) {
      state.freshTop = !!prevView;
    }
    if (!prevView || prevView.round !== view.round || (prevRoom && prevRoom.match !== msg.room.match)) {
      state.nextReady = false;
    }
    if (view.phase !== "play" && view.phase !== "drawn") state.choosingFor = null;
    if (state.choosingFor && !view.legal.some((a) => a.type === "play" && a.card === parseCard(state.choosingFor).code)) {
      state.choosingFor = null;
    }
    for (const e of msg.events || []) {
      if (e.type === "round_over") state.lastRoundWinners = e.winners || [];
    }
  }
  const wasScreen = state.screen;
  state.screen = msg.room.status === "lobby" || !view ? "room" : "table";
  const lines = describeEvents(msg.events, { room: state.room, me: state.me });
  if (lines.length) state.lastLine = lines.slice(-2).join(" · ");
  if (!view) state.lastLine = "";
  render();
  if (state.screen === "table") {
    const results = view.phase === "round_over" || view.phase === "game_over";
    if (results && prevView && prevView.phase !== view.phase) banners.clear();
    banners.push(msg.events, { room: state.room, me: state.me });
    animatePlay(main, msg.events, state.me);
    const myTurnNow = view.turn === state.me && view.legal.length > 0;
    const myTurnBefore = prevView && prevView.turn === state.me && wasScreen === "table";
    if (myTurnNow && !myTurnBefore) announce(t("table.yourTurn"));
  }
}

function send(msg) {
  if (!state.conn || !state.conn.send(msg)) {
    toast(t("conn.notConnected"));
    return false;
  }
  return true;
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
    state.homeError = errorText(err);
    render();
  }
}

const homeActs = {
  setName(v) {
    state.name = v;
    try {
      localStorage.setItem(NAME_KEY, v);
    } catch {
      /* ignore */
    }
  },
  playNow() {
    enterWith(api("POST", "/api/play-now", { name: playerName() }));
  },
  practice({ bots, level, preset }) {
    enterWith(api("POST", "/api/practice", { name: playerName(), bots, level, preset }));
  },
  createRoom({ preset }) {
    enterWith(api("POST", "/api/rooms", { name: playerName(), preset }));
  },
  joinCode(raw) {
    const code = String(raw || "").replace(/[^A-Za-z]/g, "").toUpperCase();
    if (code.length !== 6) {
      state.homeError = t("home.badCode");
      render();
      return;
    }
    navigate(`/r/${code}`);
  },
  async quickMatch(preset) {
    state.busy = true;
    render();
    let q;
    try {
      q = await api("POST", "/api/quick-match", { preset });
    } catch (err) {
      state.busy = false;
      state.homeError = errorText(err);
      render();
      return;
    }
    state.busy = false;
    state.queue = { ticket: q.ticket, name: q.name, waiting: q.waiting };
    state.queue.conn = new Connection(q.ws || `/ws/quick-match?ticket=${encodeURIComponent(q.ticket)}`, {
      onmessage: (msg) => {
        if (!state.queue) return;
        if (msg.type === "queue") {
          state.queue.waiting = msg.waiting;
          state.queue.name = msg.name || state.queue.name;
          render();
        } else if (msg.type === "matched") {
          const conn = state.queue.conn;
          state.queue = null;
          conn.close();
          saveTicket({ code: msg.code, seat: msg.seat, token: msg.token, ws: msg.ws });
          navigate(`/r/${msg.code}`);
        }
      },
      onstatus: (status) => {
        if (status === "closed" && state.queue) {
          state.queue = null;
          state.homeError = t("error.ticket_not_found");
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
      q.conn.send({ type: "leave" });
      q.conn.close();
      api("DELETE", `/api/quick-match/${q.ticket}`).catch(() => {});
    }
    render();
    const btn = document.getElementById("btn-quick");
    if (btn) btn.focus();
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
      const ticket = await api("POST", `/api/rooms/${state.code}/join`, { name: playerName() });
      saveTicket(ticket);
      state.busy = false;
      state.me = ticket.seat;
      state.screen = "loading";
      render();
      connect(ticket.code, ticket.token);
    } catch (err) {
      state.busy = false;
      state.joinError = errorText(err);
      render();
    }
  },
};

const roomActs = {
  settings: (settings) => send({ type: "settings", settings }),
  addBot: (seat) => send({ type: "add_bot", seat, level: "easy" }),
  removeBot: (seat) => send({ type: "remove_bot", seat }),
  ready: (ready) => send({ type: "ready", ready }),
  start() {
    const btn = document.getElementById("btn-start");
    if (btn && btn.getAttribute("aria-disabled") === "true") {
      const status = document.getElementById("room-status");
      const text = status ? status.textContent : "";
      toast(text);
      announce(text, { urgent: true });
      return;
    }
    send({ type: "start" });
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
    toast(t("room.copied"));
    announce(t("room.copied"));
  },
};

const tableActs = {
  action(a) {
    if (state.pending) return;
    if (send({ type: "action", action: a })) {
      state.pending = true;
      setTimeout(() => {
        state.pending = false;
      }, 2500);
    }
  },
  playCard(code) {
    const p = parseCard(code);
    if (p.wild) {
      state.choosingFor = p.code;
      render();
      return;
    }
    tableActs.action({ type: "play", card: p.code });
  },
  chooseColor(color) {
    const card = state.choosingFor;
    state.choosingFor = null;
    render();
    if (card) tableActs.action({ type: "play", card, color });
  },
  cancelChoose() {
    state.choosingFor = null;
    render();
    const first = main.querySelector(".hand .card.playable");
    if (first) first.focus();
  },
  nextRound() {
    if (send({ type: "ready", ready: true })) {
      state.nextReady = true;
      render();
    }
  },
  playAgain() {
    send({ type: "start" });
  },
  leaveTable() {
    const over = state.view && state.view.phase === "game_over";
    if (!over && !window.confirm(t("table.leaveConfirm"))) return;
    if (!over) send({ type: "leave" });
    navigate("/");
  },
  home() {
    navigate("/");
  },
};

document.addEventListener("keydown", (ev) => {
  if (state.screen === "table") tableKeydown(ev, { view: state.view }, tableActs);
});

window.addEventListener("popstate", route);

document.getElementById("brand").addEventListener("click", (ev) => {
  ev.preventDefault();
  navigate("/");
});

document.getElementById("leave-table").addEventListener("click", () => tableActs.leaveTable());

const langSelect = document.getElementById("lang-select");
langSelect.addEventListener("change", async () => {
  await setLang(langSelect.value, { remember: true });
  render();
  setConnStatus(state.connStatus);
});

async function boot() {
  const lang = detectLang();
  try {
    await setLang(lang);
  } catch (err) {
    main.textContent = String(err);
    return;
  }
  langSelect.value = getLang();
  api("GET", "/api/presets")
    .then((p) => {
      state.presets = p;
      if (state.screen === "home" || state.screen === "room") render();
    })
    .catch(() => {});
  route();
}

boot();

export { ApiError, state };
