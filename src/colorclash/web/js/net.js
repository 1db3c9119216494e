// REST calls and the one WebSocket per player (docs/protocol.md, version 1).

export const PROTOCOL_VERSION = 1;

export class ApiError extends Error {
  constructor(code, message, status = 0, reason = null, retryAfter = null) {
    super(message || code);
    this.code = code;
    this.status = status;
    this.reason = reason; // which rule, where the error has one (bad_name)
    this.retry_after = retryAfter; // seconds, where the error has them (rate_limited)
  }
}

export async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError("network", String(err && err.message ? err.message : err));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const e = (data && data.error) || (data && data.detail && data.detail.error) || {};
    throw new ApiError(e.code || `http_${res.status}`, e.message || res.statusText, res.status, e.reason || null,
      e.retry_after || null);
  }
  return data;
}

export function wsUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}

// Tokens live in localStorage under the room code (protocol section 1).
const TOKEN_PREFIX = "cc.seat.";
export function saveTicket(ticket) {
  try {
    localStorage.setItem(
      TOKEN_PREFIX + ticket.code,
      JSON.stringify({
        token: ticket.token, seat: ticket.seat, ws: ticket.ws || null, at: Date.now(),
        ...(ticket.left ? { left: true, comeBack: Boolean(ticket.comeBack) } : {}),
      }),
    );
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
  memoryTickets[ticket.code] = ticket;
}
const memoryTickets = {};
export function loadTicket(code) {
  try {
    const raw = localStorage.getItem(TOKEN_PREFIX + code);
    if (raw) return { code, ...JSON.parse(raw) };
  } catch {
    /* ignore */
  }
  return memoryTickets[code] || null;
}
// The rooms this browser holds a seat in, the most recently taken first (at most n).
export function recentTickets(n) {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(TOKEN_PREFIX)) continue;
      const code = key.slice(TOKEN_PREFIX.length);
      try {
        out.push({ code, ...JSON.parse(localStorage.getItem(key)) });
      } catch {
        /* not ours */
      }
    }
  } catch {
    /* private mode */
  }
  return out.sort((a, b) => (b.at || 0) - (a.at || 0)).slice(0, n);
}

// A seat left with Leave (a computer plays it): said so on the home page, and not offered
// back at all when it cannot be taken back (``comeBack`` false), after a reload too. The
// mark goes once the seat is the player's again (``markBack``).
export function markLeft(code, comeBack) {
  const ticket = loadTicket(code);
  if (ticket) saveTicket({ ...ticket, left: true, comeBack: Boolean(comeBack) });
}
export function markBack(code) {
  const ticket = loadTicket(code);
  if (ticket && ticket.left) saveTicket({ code, token: ticket.token, seat: ticket.seat, ws: ticket.ws });
}

export function forgetTicket(code) {
  try {
    localStorage.removeItem(TOKEN_PREFIX + code);
  } catch {
    /* ignore */
  }
  delete memoryTickets[code];
}

// Close codes after which reconnecting cannot help.
const FATAL = new Set([4401, 4403, 4404, 4409, 4410, 4429]);

// A game socket opened with `compact=1` is sent `room` (and `view.options` with it) only
// when the room changed (docs/protocol.md 2.3): what a state leaves out is that of the
// state before it on the same connection. A socket's first state is always whole.
export function completeState(msg, before) {
  if ("room" in msg || !before) return msg;
  const whole = { ...msg, room: before.room };
  if (msg.view && !("options" in msg.view) && before.view && "options" in before.view) {
    whole.view = { ...msg.view, options: before.view.options };
  }
  return whole;
}

// How soon a dead link is noticed. A socket whose network went away can look open for a
// long time (no close arrives), so the page says "Online" over a table that moved on
// without it: after QUIET_MS without a word from the server it pings, and a ping not
// answered in PONG_MS means the link is dead. The browser's own "offline" event is
// believed at once.
const WATCH_MS = 1000;
const QUIET_MS = 4000;
const PONG_MS = 4000;

// The time the watchdog measures by: the wall clock (a phone asleep stops the page's
// performance.now(), and a link dead across a sleep must be noticed at the waking), kept
// from going back: the device's clock stepped back 10 minutes stopped the pings for 10
// minutes, a dead link unnoticed all that time (a time review). A step forward is one
// ping too many.
let wallAhead = 0;
let wallSeen = 0;
function steadyNow() {
  const now = Date.now() + wallAhead;
  if (now < wallSeen) {
    wallAhead += wallSeen - now;
    return wallSeen;
  }
  wallSeen = now;
  return now;
}
// A socket whose opening is not answered in OPEN_MS is given up and another tried: a
// process that hangs (stopped, not dead) still takes connections, and a proxy waits for
// its answer as long as a WebSocket may be quiet (an hour): the page said "reconnecting"
// all that time while the other processes would have taken it at once.
const OPEN_MS = 10000;
// A clock's remaining_ms is what was left when the server sent it: the page takes off the
// time the message took on the way (half the round trip of its pings: the median of the
// last TRIPS_KEPT), at most LAG_MAX_MS. Without it a link of 1.5 s each way showed "2 s"
// when 0.3 s were left, and cards still playable after the server had run the turn out (a
// bad network review). A round trip longer than the watchdog allows is no link's (a page
// frozen on a phone): left out, or one such answer took 2.5 s off every clock (diff review).
const LAG_MAX_MS = 2500;
const TRIPS_KEPT = 5;
// A socket given up while it was opening may still reach the server (its handshake was on
// the way): within STRAY_MS its taking the seat ("replaced", 4409) is not another tab's.
const STRAY_MS = 30000;
// A socket opening for less than this when the browser comes back online (or the tab is
// shown) is waited for; an older one was opened on the network just left, and is replaced.
const FRESH_OPEN_MS = 2000;

// A WebSocket that reconnects by itself with backoff and a ping watchdog.
// Events: onmessage(msg), onstatus("connecting"|"online"|"reconnecting"|"closed", info)
export class Connection {
  constructor(path, { onmessage, onstatus } = {}) {
    this.path = path;
    this.onmessage = onmessage || (() => {});
    this.onstatus = onstatus || (() => {});
    this.ws = null;
    this.attempt = 0;
    this.closedByUs = false;
    this.lastError = null;
    this.pingTimer = null;
    this.pongDeadline = 0;
    this.lastHeard = 0;
    this.strays = []; // when sockets still opening were given up (STRAY_MS)
    this.openedAt = 0; // when the current socket was made (FRESH_OPEN_MS)
    this.online = false;
    this.roundTrip = null; // ms, the median of the last trips (lagMs)
    this.trips = [];
    this._onVisible = () => {
      if (document.visibilityState === "visible" && !this.online && !this.closedByUs) {
        this._reconnectNow();
      }
    };
    this._onOnline = () => this._reconnectNow();
    this._onOffline = () => {
      if (this.online) this._linkDead();
    };
    document.addEventListener("visibilitychange", this._onVisible);
    window.addEventListener("online", this._onOnline);
    window.addEventListener("offline", this._onOffline);
    this._open();
  }

  _open() {
    clearTimeout(this.retryTimer);
    this._abandon();
    this.onstatus(this.attempt ? "reconnecting" : "connecting", {});
    let ws;
    try {
      ws = new WebSocket(wsUrl(this.path));
    } catch {
      this._scheduleRetry();
      return;
    }
    this.ws = ws;
    this.openedAt = steadyNow();
    const openTimer = setTimeout(() => {
      if (this.ws === ws && ws.readyState === WebSocket.CONNECTING) this._linkDead();
    }, OPEN_MS);
    ws.addEventListener("open", () => clearTimeout(openTimer));
    ws.addEventListener("close", () => clearTimeout(openTimer));
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.online = true;
      this.attempt = 0;
      this.onstatus("online", {});
      this._startPing();
      this._ping(); // (the round trip known from the start: see LAG_MAX_MS)
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.lastHeard = steadyNow();
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "pong") {
        this.pongDeadline = 0;
        const trip = performance.now() - msg.t;
        if (Number.isFinite(trip) && trip >= 0 && trip <= PONG_MS + WATCH_MS) {
          this.trips = [...this.trips, trip].slice(-TRIPS_KEPT);
          const sorted = [...this.trips].sort((a, b) => a - b);
          this.roundTrip = sorted[Math.floor(sorted.length / 2)];
        }
        return;
      }
      if (msg.type === "error") this.lastError = msg;
      // (the close that follows says it, or is a stray of ours: see STRAY_MS)
      if (msg.type === "error" && msg.code === "replaced") return;
      this.onmessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.online = false;
      this._stopPing();
      if (this.closedByUs) return;
      // "Opened elsewhere", by a socket of this page given up while its opening was under
      // way (a slow network), which the server took after this one: not another tab. As
      // many times as sockets were so given up; another tab's taking the seat would
      // otherwise go back and forth.
      const now = steadyNow();
      this.strays = this.strays.filter((at) => now - at < STRAY_MS);
      if (ev.code === 4409 && this.strays.length) {
        this.strays.shift();
        this._scheduleRetry();
        return;
      }
      if (FATAL.has(ev.code)) {
        const err = this.lastError && this.lastError.code ? this.lastError : null;
        this.onstatus("closed", { code: ev.code, reason: ev.reason, error: err });
        this.closedByUs = true;
        return;
      }
      this._scheduleRetry();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  _scheduleRetry() {
    this.attempt += 1;
    this.onstatus("reconnecting", { attempt: this.attempt });
    const delay = Math.min(5000, 300 * 2 ** Math.min(this.attempt - 1, 5));
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this._open(), delay);
  }

  // (the browser back online, the tab shown: both come together when a phone wakes)
  _reconnectNow() {
    if (this.closedByUs || this.online) return;
    // a socket opening for a moment is waited for: a second one opened beside it was
    // taken by the server after it, and the page was told its seat was opened elsewhere;
    // one opening for longer (on the network just left) is given up for a new one
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING && steadyNow() - this.openedAt < FRESH_OPEN_MS) return;
    clearTimeout(this.retryTimer);
    this.attempt = Math.max(this.attempt, 1);
    this._open();
  }

  _startPing() {
    this._stopPing();
    this.lastHeard = steadyNow();
    this.pingTimer = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      const now = steadyNow();
      if (this.pongDeadline && now > this.pongDeadline) {
        // No answer to the last ping: the link is dead even if the socket looks open.
        this._linkDead();
        return;
      }
      if (!this.pongDeadline && now - this.lastHeard >= QUIET_MS) this._ping();
    }, WATCH_MS);
  }

  _ping() {
    const now = steadyNow();
    // (t in the page's monotonic time: a step of the wall clock is no round trip)
    if (this.send({ type: "ping", t: performance.now() })) this.pongDeadline = now + PONG_MS;
  }

  // Is the link alive? (A move unanswered for a while: asked at once, not after 4 s of
  // quiet, so that a dead link under a move is noticed in about 5 s, not 10.)
  probe() {
    if (this.online && !this.pongDeadline) this._ping();
  }

  // How long a message takes from the server, estimated (ms): half the round trip.
  get lagMs() {
    return this.roundTrip === null ? 0 : Math.min(this.roundTrip / 2, LAG_MAX_MS);
  }

  // The socket is given up (it may still look open, or be opening): its late events are
  // not this connection's any more.
  _abandon() {
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    if (ws.readyState === WebSocket.CONNECTING) this.strays.push(steadyNow());
    try {
      ws.close();
    } catch {
      /* ignore */
    }
  }

  // The socket is given up and a new one is tried.
  _linkDead() {
    this._abandon();
    this.online = false;
    this._stopPing();
    this._scheduleRetry();
  }

  _stopPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.pongDeadline = 0;
  }

  send(msg) {
    const text = JSON.stringify({ v: PROTOCOL_VERSION, ...msg });
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(text);
      return true;
    }
    return false; // never queue: a stale action could be played on a changed table
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    this._stopPing();
    document.removeEventListener("visibilitychange", this._onVisible);
    window.removeEventListener("online", this._onOnline);
    window.removeEventListener("offline", this._onOffline);
    if (this.ws) {
      try {
        this.ws.close(1000);
      } catch {
        /* ignore */
      }
    }
  }
}
