"""Rooms, seats, clocks, computer players, reconnection and Quick Match.

Everything here runs on one asyncio event loop. The engine decides every rule; a room only
moves actions into it, keeps time, and tells each connection what its seat may see.

Each room is stored as one document (``Room.to_data``) plus the action log of its current
match; both are written in the same transaction before anything is sent to a player, so
whatever a player saw acknowledged survives a crash. Clock deadlines are absolute
wall-clock times in that document: after a restart the same deadlines apply.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from colorclash.fairness import log_hash, log_hash_next, log_hash_start
from colorclash.server.config import Settings
from colorclash.server.names import (
    animal_name,
    hash_token,
    new_code,
    new_token,
    normalize_code,
    valid_code,
)
from colorclash.server.presets import (
    DEFAULT_PRESET,
    available_presets,
    bot_levels,
    engine_options,
    preset_info,
)
from colorclash.server.protocol import VERSION, ProtocolError, dumps
from colorclash.store import Store

log = logging.getLogger("colorclash.server")

GAME = "color-clash"
SERVER_ONLY_ACTIONS = {"timeout", "next", "substitute"}
COMPUTER = "Computer"


def _ms(t: float | None) -> int | None:
    return None if t is None else int(round(t * 1000))


def _table(game: Any) -> tuple[str | None, int | None, int | None]:
    """(phase, turn, window seat) of a game. Read from the engine's public attributes when
    it has them (cheap), else from the spectator view (the contract)."""
    phase = getattr(game, "phase", None)
    if isinstance(phase, str) and hasattr(game, "turn"):
        window = getattr(game, "window_seat", None)
        turn = None if phase in ("round_over", "game_over") else game.turn
        return phase, turn, window
    view = game.view(None)
    return view.get("phase"), view.get("turn"), (view.get("window") or {}).get("seat")


# ============================================================================ connections
class Conn:
    """One WebSocket, with an ordered outgoing queue drained by its own task."""

    MAX_QUEUE = 500

    def __init__(self, send_text: Callable[[str], Awaitable[None]],
                 close: Callable[[int, str], Awaitable[None]]) -> None:
        self._send_text = send_text
        self._close = close
        self._queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.closed = False
        self._task = asyncio.get_running_loop().create_task(self._writer())

    def send(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        if self._queue.qsize() > self.MAX_QUEUE:  # a client that does not read
            self.close(4408, "too slow")
            return
        try:
            text = dumps(msg)
        except ValueError:  # NaN or Infinity: never send invalid JSON
            log.error("refused to send a message with a non-finite number: %.200r", msg)
            return
        self._queue.put_nowait(("msg", text))

    def close(self, code: int, reason: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self._queue.put_nowait(("close", (code, reason)))

    async def _writer(self) -> None:
        while True:
            kind, item = await self._queue.get()
            try:
                if kind == "close":
                    await self._close(*item)
                    return
                await self._send_text(item)
            except Exception:  # noqa: BLE001 - the socket is gone
                self.closed = True
                return

    def stop(self) -> None:
        self.closed = True
        self._task.cancel()


# ============================================================================ room model
@dataclass
class Seat:
    kind: str = "empty"              # human | bot | empty
    name: str | None = None
    token_hash: str | None = None
    level: str | None = None         # bot level
    ready: bool = False
    substitute: bool = False         # a computer substitute plays this human seat
    away_since: float | None = None  # wall-clock seconds
    left: bool = False               # the human left during play

    def public(self, index: int, connected: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": index, "kind": self.kind, "name": self.name,
            "connected": connected, "ready": self.ready, "substitute": self.substitute,
            "away_since": _ms(self.away_since),
        }
        if self.kind == "bot":
            out["label"] = COMPUTER
            out["level"] = self.level
        elif self.substitute:
            out["label"] = COMPUTER
        return out


@dataclass
class Room:
    code: str
    kind: str                        # private | practice | play-now | quick-match
    settings: dict[str, Any]         # preset, seats, clock, match
    seats: list[Seat]
    status: str = "lobby"            # lobby | playing | finished
    host: int | None = 0
    match_no: int = 0
    seed: str | None = None
    commitment: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    clock: dict[str, Any] | None = None  # kind, seat, deadline (s), seconds, turn_deadline
    result: dict[str, Any] | None = None
    created: float = 0.0
    finished_at: float | None = None
    guest: bool = True               # opened without an operator host key
    history: list[dict[str, Any]] = field(default_factory=list)  # finished matches' records
    # runtime only -------------------------------------------------------------
    game: Any = field(default=None, repr=False)
    log_hash: str | None = None      # running hash of the match's action log (fairness.py)
    conns: dict[int, Conn] = field(default_factory=dict, repr=False)
    bots: dict[int, Any] = field(default_factory=dict, repr=False)
    bot_events: dict[int, list[dict[str, Any]]] = field(default_factory=dict, repr=False)
    bot_due: float = 0.0
    bot_declined: set[int] = field(default_factory=set, repr=False)
    round_ready: set[int] = field(default_factory=set, repr=False)
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    retry_after: dict[int, float] = field(default_factory=dict, repr=False)
    stall_until: float = 0.0

    DATA_FIELDS = ("code", "kind", "settings", "status", "host", "match_no", "seed",
                   "commitment", "options", "clock", "result", "created", "finished_at", "guest",
                   "history")

    def to_data(self) -> dict[str, Any]:
        data = {k: getattr(self, k) for k in self.DATA_FIELDS}
        data["seats"] = [dict(vars(s)) for s in self.seats]
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Room:
        kwargs = {k: data[k] for k in cls.DATA_FIELDS if k in data}
        kwargs["seats"] = [Seat(**s) for s in data["seats"]]
        return cls(**kwargs)

    @property
    def seq(self) -> int:
        return len(self.game.log) if self.game is not None else 0

    def bot_controlled(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or (s.kind == "human" and s.substitute)

    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.token_hash and secrets.compare_digest(s.token_hash, h):
                return i
        return None


# ============================================================================ the hub
class Hub:
    """All live rooms and the Quick Match queue."""

    def __init__(self, store: Store, settings: Settings | None = None,
                 clock: Callable[[], float] = time.time,
                 game_factory: Callable[..., Any] | None = None) -> None:
        self.store = store
        # Tests may deal prepared hands: game_factory(preset=, seats=, seed=, options=).
        self.game_factory = game_factory
        self.settings = settings or Settings.from_env()
        self.now = clock
        self.rooms: dict[str, Room] = {}
        self.queue: dict[str, dict[str, Any]] = {}   # Quick Match tickets, in arrival order
        self.tickets: dict[str, dict[str, Any]] = {}  # every live ticket (queued or matched)
        self._qm_timer: asyncio.TimerHandle | None = None
        self._janitor: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ lifecycle
    def load_all(self) -> int:
        """Bring every stored room back (after a start or a crash)."""
        n = 0
        for code in self.store.room_codes():
            data = self.store.load_room(code)
            if not data:
                continue
            try:
                room = Room.from_data(data)
                self._rebuild_game(room)
            except Exception:  # noqa: BLE001 - one broken room must not stop the server
                log.exception("room %s could not be restored", code)
                continue
            now = self.now()
            for s in room.seats:
                if s.kind == "human" and s.away_since is None:
                    s.away_since = now
            if room.status == "finished" and room.game is not None and not any(
                    h["match"] == room.match_no for h in room.history):
                room.history.append(self._match_record(room))  # stored before records were
            self.rooms[code] = room
            if room.status == "playing":
                self._make_bots(room)
                if room.clock is None:
                    self._update_clock(room, None, None)
                self._persist(room)
            n += 1
        return n

    def start_background(self) -> None:
        for room in self.rooms.values():
            self._schedule(room)
        if self._janitor is None:
            self._janitor = asyncio.get_running_loop().create_task(self._janitor_loop())

    async def shutdown(self) -> None:
        if self._janitor:
            self._janitor.cancel()
        for room in self.rooms.values():
            if room.timer:
                room.timer.cancel()
            for conn in list(room.conns.values()):
                conn.close(1001, "server shutting down")
        if self._qm_timer:
            self._qm_timer.cancel()

    async def _janitor_loop(self) -> None:
        while True:
            await asyncio.sleep(60)
            try:
                self.sweep()
            except Exception:  # noqa: BLE001
                log.exception("janitor failed")

    def sweep(self) -> None:
        """Forget finished or abandoned rooms nobody is connected to, and stale tickets."""
        now = self.now()
        ttl = self.settings.finished_room_ttl
        for room in list(self.rooms.values()):
            if room.conns:
                continue
            idle_since = room.finished_at if room.status == "finished" else None
            room_ttl = ttl
            if room.status == "lobby":
                # A room that never started is kept much less long than one with a game.
                idle_since = max((s.away_since or 0) for s in room.seats) or room.created
                room_ttl = self.settings.lobby_room_ttl
            if idle_since is not None and now - idle_since > room_ttl:
                self._drop_room(room)
        for ticket, t in list(self.queue.items()):
            if not t["conns"] and now - t["seen"] > self.settings.quick_match_ticket_ttl:
                self.queue.pop(ticket, None)
                self.tickets.pop(ticket, None)
        for ticket, t in list(self.tickets.items()):
            if t.get("matched") and now - t["seen"] > ttl:
                self.tickets.pop(ticket, None)

    def _drop_room(self, room: Room) -> None:
        if room.timer:
            room.timer.cancel()
        self.rooms.pop(room.code, None)
        self.store.delete_room(room.code)

    # ------------------------------------------------------------------ persistence
    def _persist(self, room: Room, actions: list[tuple[int, int, dict[str, Any]]] | None = None
                 ) -> None:
        self.store.save_room(room.code, room.to_data(), room.match_no, actions)

    def _rebuild_game(self, room: Room) -> None:
        room.game = None
        room.log_hash = None
        if room.match_no and room.seed is not None:
            from colorclash.engine import replay

            actions = self.store.load_actions(room.code, room.match_no)
            room.game = replay(GAME, actions=actions, preset=room.settings["preset"],
                               seats=room.settings["seats"], seed=room.seed,
                               options=room.options or None)
            room.log_hash = log_hash(room.commitment or "", actions)

    # ------------------------------------------------------------------ room creation
    def get(self, code: str) -> Room:
        code = normalize_code(code)
        room = self.rooms.get(code) if valid_code(code) else None
        if room is None:
            raise ProtocolError("room_not_found", f"no room with code {code[:10]!r}", status=404)
        return room

    def _code_taken(self, code: str) -> bool:
        return code in self.rooms or self.store.load_room(code) is not None

    def _check_settings(self, preset: str | None, seats: int, clock: int | None,
                        match: str | None, guest: bool) -> dict[str, Any]:
        preset = preset or DEFAULT_PRESET
        info = preset_info(preset)
        if info is None:
            known = ", ".join(available_presets())
            raise ProtocolError("bad_settings", f"unknown preset {preset!r}; available: {known}",
                                status=422)
        if not 2 <= seats <= 6:
            raise ProtocolError("bad_settings", "seats must be between 2 and 6", status=422)
        if guest and seats > 4:
            raise ProtocolError("guest_limit", "a room opened without a host key holds at most "
                                "4 seats", status=422)
        clock = info["clock_default"] if clock is None else clock
        if clock not in info["clock_choices"]:
            raise ProtocolError("bad_settings", f"clock {clock} s is not offered by {preset}; "
                                f"choose one of {info['clock_choices']}", status=422)
        match = info["match_default"] if match is None else str(match)
        if match not in info["match_choices"]:
            raise ProtocolError("bad_settings", f"match length {match!r} is not offered by "
                                f"{preset}; choose one of {info['match_choices']}", status=422)
        return {"preset": preset, "seats": seats, "clock": clock, "match": match}

    def is_operator_key(self, key: str | None) -> bool:
        return bool(key) and any(secrets.compare_digest(key, k) for k in self.settings.host_keys)

    def _new_room(self, kind: str, settings: dict[str, Any]) -> Room:
        code = new_code(self._code_taken)
        room = Room(code=code, kind=kind, settings=settings,
                    seats=[Seat() for _ in range(settings["seats"])], created=self.now())
        self.rooms[code] = room
        return room

    def _seat_human(self, room: Room, index: int, name: str) -> str:
        token = new_token()
        room.seats[index] = Seat(kind="human", name=name, token_hash=hash_token(token),
                                 away_since=self.now())
        return token

    def _seat_bot(self, room: Room, index: int, level: str) -> None:
        room.seats[index] = Seat(kind="bot", name=COMPUTER, level=level, ready=True)

    def _check_level(self, level: str) -> str:
        levels = bot_levels()
        if level not in levels:
            raise ProtocolError("bad_settings", f"unknown computer level {level!r}; "
                                f"choose one of {levels}", status=422)
        return level

    def create_private(self, name: str, preset: str | None = None, seats: int = 4,
                       clock: int | None = None, match: str | None = None,
                       host_key: str | None = None) -> tuple[Room, int, str]:
        guest = not self.is_operator_key(host_key)
        settings = self._check_settings(preset, seats, clock, match, guest)
        room = self._new_room("private", settings)
        token = self._seat_human(room, 0, name)
        room.seats[0].ready = True
        room.host = 0
        room.guest = guest
        self._persist(room)
        return room, 0, token

    def create_practice(self, name: str, bots: int, level: str, preset: str | None = None,
                        clock: int | None = None, match: str | None = None,
                        kind: str = "practice") -> tuple[Room, int, str]:
        if not 1 <= bots <= 5:
            raise ProtocolError("bad_settings", "practice takes 1 to 5 computer players",
                                status=422)
        self._check_level(level)
        settings = self._check_settings(preset, bots + 1, clock, match, guest=False)
        room = self._new_room(kind, settings)
        token = self._seat_human(room, 0, name)
        room.seats[0].ready = True
        for i in range(1, bots + 1):
            self._seat_bot(room, i, level)
        self._deal(room)
        return room, 0, token

    def create_play_now(self, name: str) -> tuple[Room, int, str]:
        level = "easy" if "easy" in bot_levels() else bot_levels()[0]
        return self.create_practice(name, 2, level, DEFAULT_PRESET, kind="play-now")

    def join(self, code: str, name: str, seat: int | None = None) -> tuple[Room, int, str]:
        room = self.get(code)
        if room.status != "lobby":
            raise ProtocolError("not_in_lobby", "the game has already started", status=409)
        if room.kind != "private":
            raise ProtocolError("not_in_lobby", "only private rooms can be joined", status=409)
        if seat is None:
            free = [i for i, s in enumerate(room.seats) if s.kind == "empty"]
            if not free:
                raise ProtocolError("room_full", "every seat is taken", status=409)
            seat = free[0]
        if not 0 <= seat < len(room.seats):
            raise ProtocolError("bad_seat", f"seat must be between 0 and {len(room.seats) - 1}",
                                status=422)
        if room.seats[seat].kind != "empty":
            raise ProtocolError("seat_taken", f"seat {seat} is taken", status=409)
        token = self._seat_human(room, seat, name)
        self._persist(room)
        self._broadcast(room, [])
        return room, seat, token

    # ------------------------------------------------------------------ public views
    def room_public(self, room: Room) -> dict[str, Any]:
        return {
            "code": room.code, "kind": room.kind, "status": room.status, "host": room.host,
            "link": f"/r/{room.code}", "settings": dict(room.settings),
            "seats": [s.public(i, self._connected(room, i)) for i, s in enumerate(room.seats)],
            "match": room.match_no, "commitment": room.commitment,
            "seed": room.seed if room.status == "finished" else None,
            "result": room.result,
            "records": [h["match"] for h in room.history],
        }

    def _connected(self, room: Room, seat: int) -> bool:
        s = room.seats[seat]
        if s.kind == "bot":
            return True
        return seat in room.conns

    def clock_public(self, room: Room) -> dict[str, Any] | None:
        c = room.clock
        if not c:
            return None
        now = self.now()
        return {"kind": c["kind"], "seat": c.get("seat"), "deadline": _ms(c["deadline"]),
                "remaining_ms": max(0, int((c["deadline"] - now) * 1000)),
                "seconds": c["seconds"]}

    def state_msg(self, room: Room, seat: int | None, events: list[dict[str, Any]],
                  room_pub: dict[str, Any] | None = None,
                  clock_pub: dict[str, Any] | None = None) -> dict[str, Any]:
        view = room.game.view(seat) if room.game is not None else None
        if view is not None:
            view["legal"] = self._sendable(room, seat, view.get("legal") or [])
        return {"v": VERSION, "type": "state", "seq": room.seq,
                "room": room_pub if room_pub is not None else self.room_public(room),
                "view": view, "events": events,
                "clock": clock_pub if clock_pub is not None else self.clock_public(room),
                "log_hash": room.log_hash}

    def _sendable(self, room: Room, seat: int, legal: list[dict[str, Any]]
                  ) -> list[dict[str, Any]]:
        """Exactly the actions this seat's connection may send now: none while a computer
        substitute plays it or the room is not playing, never a server-only action."""
        if room.status != "playing" or room.seats[seat].substitute \
                or room.seats[seat].kind != "human":
            return []
        return [a for a in legal if a.get("type") not in SERVER_ONLY_ACTIONS]

    def _match_record(self, room: Room) -> dict[str, Any]:
        """The record of the room's current match (its actions excluded)."""
        return {"match": room.match_no, "game": GAME, "preset": room.settings["preset"],
                "seats": room.settings["seats"], "options": room.options,
                "seed": room.seed, "commitment": room.commitment, "result": room.result,
                "log_hash": room.log_hash, "finished_at": _ms(room.finished_at)}

    def record(self, room: Room, match: int | None = None) -> dict[str, Any]:
        """The fairness record of finished match ``match`` (default: the latest)."""
        if match is None:
            if not room.history:
                raise ProtocolError("not_finished", "the record is published when the match "
                                    "is over", status=409)
            match = room.history[-1]["match"]
        entry = next((h for h in room.history if h["match"] == match), None)
        if entry is None:
            if match == room.match_no and room.status == "playing":
                raise ProtocolError("not_finished", f"match {match} is still being played; "
                                    "its record is published when it is over", status=409)
            raise ProtocolError("record_not_found", f"this room has no finished match "
                                f"{match}", status=404)
        if match == room.match_no and room.game is not None:
            actions = list(room.game.log)
        else:
            actions = self.store.load_actions(room.code, match)
        record = {k: v for k, v in entry.items() if k != "finished_at"}
        record["actions"] = [[s, a] for s, a in actions]
        return record

    def _broadcast(self, room: Room, events: list[dict[str, Any]]) -> None:
        for seat in room.bots:
            room.bot_events.setdefault(seat, []).extend(events)
            del room.bot_events[seat][:-200]
        if not room.conns:
            return
        pub = self.room_public(room)
        clk = self.clock_public(room)
        for seat, conn in list(room.conns.items()):
            conn.send(self.state_msg(room, seat, events, pub, clk))

    # ------------------------------------------------------------------ connections
    def attach(self, room: Room, seat: int, conn: Conn) -> None:
        old = room.conns.get(seat)
        if old is not None:
            old.send(ProtocolError("replaced", "this seat was opened elsewhere").to_message())
            old.close(4409, "replaced")
        room.conns[seat] = conn
        s = room.seats[seat]
        s.away_since = None
        s.left = False
        self._persist(room)
        conn.send({"v": VERSION, "type": "welcome", "seat": seat, "code": room.code,
                   "name": s.name, "server_time": _ms(self.now())})
        self._broadcast(room, [])
        self._schedule(room)

    def detach(self, room: Room, seat: int, conn: Conn) -> None:
        if room.conns.get(seat) is not conn:
            return
        del room.conns[seat]
        s = room.seats[seat]
        if s.kind == "human":
            s.away_since = self.now()
            if room.code in self.rooms:
                self._persist(room)
        self._broadcast(room, [])
        self._schedule(room)

    # ------------------------------------------------------------------ commands
    def handle(self, room: Room, seat: int, msg: Any) -> None:
        """Run one validated client message for ``seat``; raise ProtocolError to refuse."""
        t = msg.type
        if t == "action":
            self.human_action(room, seat, msg.action.to_engine())
        elif t == "ready":
            self.ready(room, seat, msg.ready)
        elif t == "settings":
            self.change_settings(room, seat, msg.settings.model_dump(exclude_none=True))
        elif t == "add_bot":
            self.add_bot(room, seat, msg.seat, msg.level)
        elif t == "remove_bot":
            self.remove_bot(room, seat, msg.seat)
        elif t == "start":
            self.start(room, seat)
        elif t == "leave":
            self.leave(room, seat)
        else:  # pragma: no cover - parse_client_message only lets known types through
            raise ProtocolError("unknown_type", f"unknown message type {t!r}")

    def _need_host(self, room: Room, seat: int, what: str) -> None:
        if room.host != seat:
            raise ProtocolError("not_host", f"only the host may {what}", ref=what)

    def _need_lobby(self, room: Room, what: str) -> None:
        if room.status != "lobby":
            raise ProtocolError("not_in_lobby", f"{what} is only possible before the game "
                                "starts", ref=what)

    def ready(self, room: Room, seat: int, ready: bool) -> None:
        if room.status == "lobby":
            room.seats[seat].ready = ready or room.host == seat
            self._persist(room)
            self._broadcast(room, [])
            return
        if room.status == "playing" and room.game is not None \
                and _table(room.game)[0] == "round_over":
            if ready:
                room.round_ready.add(seat)
            else:
                room.round_ready.discard(seat)
            self._schedule(room)
            return
        raise ProtocolError("not_in_lobby", "nothing to be ready for now", ref="ready")

    def change_settings(self, room: Room, seat: int, patch: dict[str, Any]) -> None:
        self._need_host(room, seat, "settings")
        self._need_lobby(room, "settings")
        new = {**room.settings, **patch}
        if "preset" in patch and patch["preset"] != room.settings["preset"]:
            # A new preset brings its own defaults unless given too.
            info = preset_info(patch["preset"])
            if info is not None:
                if "clock" not in patch:
                    new["clock"] = info["clock_default"]
                if "match" not in patch:
                    new["match"] = info["match_default"]
        checked = self._check_settings(new["preset"], new["seats"], new["clock"], new["match"],
                                       guest=room.guest)
        n = checked["seats"]
        if n < len(room.seats):
            if any(s.kind != "empty" for s in room.seats[n:]):
                raise ProtocolError("bad_settings", "free the last seats before removing them",
                                    ref="settings")
            room.seats = room.seats[:n]
        else:
            room.seats.extend(Seat() for _ in range(n - len(room.seats)))
        room.settings = checked
        for i, s in enumerate(room.seats):
            if s.kind == "human":
                s.ready = i == room.host
        self._persist(room)
        self._broadcast(room, [])

    def add_bot(self, room: Room, seat: int, target: int, level: str) -> None:
        self._need_host(room, seat, "add_bot")
        self._need_lobby(room, "add_bot")
        try:
            self._check_level(level)
        except ProtocolError as exc:
            exc.ref = "add_bot"
            raise
        if not 0 <= target < len(room.seats):
            raise ProtocolError("bad_seat", f"no seat {target}", ref="add_bot")
        if room.seats[target].kind != "empty":
            raise ProtocolError("seat_taken", f"seat {target} is taken", ref="add_bot")
        self._seat_bot(room, target, level)
        self._persist(room)
        self._broadcast(room, [])

    def remove_bot(self, room: Room, seat: int, target: int) -> None:
        self._need_host(room, seat, "remove_bot")
        self._need_lobby(room, "remove_bot")
        if not 0 <= target < len(room.seats) or room.seats[target].kind != "bot":
            raise ProtocolError("bad_seat", f"seat {target} has no computer player",
                                ref="remove_bot")
        room.seats[target] = Seat()
        self._persist(room)
        self._broadcast(room, [])

    def start(self, room: Room, seat: int) -> None:
        self._need_host(room, seat, "start")
        if room.status == "playing":
            raise ProtocolError("not_in_lobby", "the game is already running", ref="start")
        if any(s.kind == "empty" for s in room.seats):
            raise ProtocolError("seats_empty", "fill or remove the empty seats first",
                                ref="start")
        waiting = [i for i, s in enumerate(room.seats)
                   if s.kind == "human" and not s.ready and i != room.host
                   and room.status == "lobby"]
        if waiting:
            raise ProtocolError("not_ready", f"waiting for seats {waiting} to be ready",
                                ref="start")
        self._deal(room)

    def leave(self, room: Room, seat: int) -> None:
        s = room.seats[seat]
        conn = room.conns.get(seat)
        if room.status == "playing":
            s.left = True
            if not s.substitute and not self._substitute(room, seat, True):
                self._persist(room)  # the tick retries the substitute shortly
            self._broadcast(room, [])
            self._schedule(room)
        else:
            room.seats[seat] = Seat()
            room.conns.pop(seat, None)
            if room.host == seat:
                humans = [i for i, x in enumerate(room.seats) if x.kind == "human"]
                room.host = humans[0] if humans else None
                if room.host is not None:
                    room.seats[room.host].ready = True
            if room.status == "lobby" and not any(x.kind == "human" for x in room.seats):
                self._drop_room(room)  # a finished room stays for its record until swept
            else:
                self._persist(room)
                self._broadcast(room, [])
        if conn is not None and room.status != "playing":
            conn.close(1000, "left")

    # ------------------------------------------------------------------ the game
    def _deal(self, room: Room) -> None:
        from colorclash.engine import new_game, secure_seed

        seed = secure_seed()
        options = engine_options(room.settings["preset"], room.settings["match"],
                                 room.settings["clock"])
        factory = self.game_factory or (lambda **kw: new_game(GAME, **kw))
        game = factory(preset=room.settings["preset"], seats=room.settings["seats"],
                       seed=seed, options=options)
        room.game = game
        room.seed = seed
        room.options = options
        room.commitment = game.commitment()
        room.log_hash = log_hash_start(room.commitment)
        room.match_no += 1
        room.status = "playing"
        room.result = None
        room.finished_at = None
        room.clock = None
        room.round_ready.clear()
        room.retry_after.clear()
        for s in room.seats:
            s.substitute = False
            s.left = False
        self._make_bots(room)
        self._update_clock(room, None, None)
        self.store.clear_actions(room.code, room.match_no)
        self._persist(room)
        room.bot_due = self.now() + self.settings.bot_delay
        room.bot_declined.clear()
        start = list(getattr(game, "start_events", None) or [])
        self._broadcast(room, [{"type": "deal", "match": room.match_no,
                                "commitment": room.commitment}, *start])
        self._schedule(room)

    def _make_bots(self, room: Room) -> None:
        room.bots = {}
        room.bot_events = {}
        for i, s in enumerate(room.seats):
            if s.kind == "bot" or (s.kind == "human" and s.substitute):
                room.bots[i] = self._new_bot(s.level or "easy")
                room.bot_events[i] = []

    def _new_bot(self, level: str) -> Any:
        from colorclash.bots import make_bot

        return make_bot(level, seed=secrets.randbits(63))

    def human_action(self, room: Room, seat: int, action: dict[str, Any]) -> None:
        if room.status != "playing" or room.game is None:
            raise ProtocolError("not_playing", "no game is running in this room", ref="action")
        if action.get("type") in SERVER_ONLY_ACTIONS:
            raise ProtocolError("illegal_action", f"{action['type']!r} is applied by the server "
                                "only", ref="action")
        if room.seats[seat].substitute:
            raise ProtocolError("substituted", "a computer substitute plays your seat until the "
                                "next round", ref="action")
        to_act = room.game.to_act
        if seat not in to_act:
            who = ", ".join(str(s) for s in to_act) or "nobody"
            raise ProtocolError("not_your_turn", f"it is not your turn (to act: {who})",
                                ref="action")
        self.apply(room, seat, action)

    def apply(self, room: Room, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply one action through the engine, store it, update clocks, tell everyone."""
        from colorclash.engine import IllegalAction

        game = room.game
        index = len(game.log)
        try:
            events = game.apply(seat, action)
        except IllegalAction as exc:
            raise ProtocolError("illegal_action", str(exc) or "illegal action",
                                ref="action") from None
        except Exception as exc:  # an engine bug: rebuild from the log, refuse the action
            log.exception("engine failed on %s by seat %s in %s", action, seat, room.code)
            self._rebuild_game(room)
            raise ProtocolError("internal", f"the server could not apply this action "
                                f"({type(exc).__name__})", ref="action") from None
        before = (room.status, room.result, room.finished_at, room.clock,
                  room.seats[seat].substitute, len(room.history))
        room.log_hash = log_hash_next(room.log_hash or "", seat, game.log[-1][1])
        was_phase_round_over = False
        if action.get("type") == "next":
            was_phase_round_over = True
            room.round_ready.clear()
        if action.get("type") == "substitute":
            room.seats[seat].substitute = bool(action.get("on"))
        if game.over:
            room.status = "finished"
            room.result = game.result
            room.finished_at = self.now()
            room.history.append(self._match_record(room))
        self._update_clock(room, seat, action)
        try:
            self._persist(room, [(index, seat, action)])
        except Exception:
            log.exception("store failed in room %s; rolling back the action", room.code)
            (room.status, room.result, room.finished_at, room.clock,
             room.seats[seat].substitute, kept) = before
            del room.history[kept:]
            self._rebuild_game(room)
            raise ProtocolError("internal", "the action could not be stored; try again",
                                ref="action") from None
        room.bot_due = self.now() + self.settings.bot_delay
        room.bot_declined.clear()
        events = list(events or [])
        self._broadcast(room, events)
        if was_phase_round_over:
            self._return_players(room)
        self._schedule(room)
        return events

    def _substitute(self, room: Room, seat: int, on: bool) -> bool:
        """Tell the engine a computer substitute plays (or stops playing) a seat."""
        from colorclash.engine import IllegalAction

        if room.game is None or room.game.over:
            return False
        try:
            self.apply(room, seat, {"type": "substitute", "on": on})
        except ProtocolError:
            room.retry_after[seat] = self.now() + 1.0
            return False
        except IllegalAction:  # pragma: no cover - apply converts it
            return False
        s = room.seats[seat]
        s.substitute = on
        if on:
            room.bots[seat] = self._new_bot("easy")
            room.bot_events[seat] = []
        else:
            room.bots.pop(seat, None)
            room.bot_events.pop(seat, None)
        self._persist(room)
        return True

    def _return_players(self, room: Room) -> None:
        """At a new round, connected humans take their seats back from substitutes (one
        who sent ``leave`` but kept the connection open too: they are still here)."""
        for i, s in enumerate(room.seats):
            if s.kind == "human" and s.substitute and i in room.conns:
                s.left = False
                self._substitute(room, i, False)

    def _update_clock(self, room: Room, actor: int | None, action: dict[str, Any] | None
                      ) -> None:
        game = room.game
        if game is None or game.over or room.status != "playing":
            room.clock = None
            return
        st = self.settings
        now = self.now()
        phase, turn, window_seat = _table(game)
        prev = room.clock or {}
        if turn is None and game.to_act:
            turn = game.to_act[0]
        if phase == "round_over":
            if prev.get("kind") != "next":
                room.clock = {"kind": "next", "seat": None, "seconds": st.next_round_delay,
                              "deadline": now + st.next_round_delay}
            return
        if phase == "call_window":
            seat = window_seat if window_seat is not None else turn
            if prev.get("kind") == "window" and prev.get("seat") == seat:
                return
            room.clock = {"kind": "window", "seat": seat, "seconds": st.call_window,
                          "deadline": now + st.call_window}
            return
        turn_seconds = float(room.settings["clock"]) * st.clock_scale
        if phase == "drawn":
            if prev.get("kind") == "drawn" and prev.get("seat") == turn:
                return
            if prev.get("kind") == "turn" and prev.get("seat") == turn:
                turn_deadline = prev["deadline"]
            else:
                turn_deadline = now + turn_seconds
            room.clock = {"kind": "drawn", "seat": turn, "seconds": st.drawn_choice,
                          "deadline": min(turn_deadline, now + st.drawn_choice),
                          "turn_deadline": turn_deadline}
            return
        keep = (prev.get("kind") == "turn" and prev.get("seat") == turn and actor == turn
                and action is not None and action.get("type") in ("call", "color"))
        if keep:
            return
        room.clock = {"kind": "turn", "seat": turn, "seconds": turn_seconds,
                      "deadline": now + turn_seconds}

    # ------------------------------------------------------------------ timers
    def _schedule(self, room: Room) -> None:
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        if room.code not in self.rooms:
            return
        due = self._next_due(room)
        if due is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, due - self.now())
        room.timer = loop.call_later(delay, self._tick, room.code)

    def _next_due(self, room: Room) -> float | None:
        if room.status != "playing" or room.game is None or room.game.over:
            return None
        dues: list[float] = []
        if room.clock:
            dues.append(room.clock["deadline"])
        for i in range(len(room.seats)):
            due = self._sub_due(room, i)
            if due is not None:
                dues.append(due)
        round_over = _table(room.game)[0] == "round_over"
        if round_over:
            if self._all_ready(room):
                dues.append(self.now())
        elif any(room.bot_controlled(i) and i not in room.bot_declined
                 for i in room.game.to_act):
            dues.append(room.bot_due)
        return max(min(dues), room.stall_until) if dues else None

    def _sub_due(self, room: Room, seat: int) -> float | None:
        """When a computer substitute must take this seat (None: not due to)."""
        s = room.seats[seat]
        if s.kind != "human" or s.substitute:
            return None
        if s.left:
            due = 0.0
        elif s.away_since is not None:
            due = s.away_since + self.settings.reconnect_grace
        else:
            return None
        return max(due, room.retry_after.get(seat, 0.0))

    def _all_ready(self, room: Room) -> bool:
        humans = [i for i, s in enumerate(room.seats)
                  if s.kind == "human" and not s.substitute and i in room.conns]
        return all(i in room.round_ready for i in humans)

    def _tick(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is None:
            return
        room.timer = None
        try:
            self._tick_room(room)
        except ProtocolError as exc:
            log.warning("room %s: server action refused: %s", code, exc.message)
            room.stall_until = self.now() + 1.0
        except Exception:  # noqa: BLE001 - keep the server alive
            log.exception("room %s: tick failed", code)
            room.stall_until = self.now() + 1.0
        if room.timer is None:
            self._schedule(room)

    def _tick_room(self, room: Room) -> None:
        if room.status != "playing" or room.game is None or room.game.over:
            return
        now = self.now()
        game = room.game
        # 1. seats away too long get a computer substitute
        for i in range(len(room.seats)):
            due = self._sub_due(room, i)
            if due is not None and now >= due:
                self._substitute(room, i, True)
                return
        phase = _table(game)[0]
        # 2. between rounds: everyone ready, or the pause is over
        if phase == "round_over":
            if self._all_ready(room) or (room.clock and now >= room.clock["deadline"]):
                seat = game.to_act[0] if game.to_act else 0
                self.apply(room, seat, {"type": "next"})
            return
        # 3. an expired clock
        if room.clock and now >= room.clock["deadline"]:
            seat = room.clock.get("seat")
            if seat is None:
                seat = game.to_act[0] if game.to_act else 0
            try:
                self.apply(room, seat, {"type": "timeout"})
            except ProtocolError:
                # The engine has no timeout here: restart the clock rather than spin.
                room.clock = dict(room.clock, deadline=now + room.clock["seconds"])
                self._persist(room)
                raise
            return
        # 4. computer players
        if now >= room.bot_due:
            for seat in list(game.to_act):
                if not room.bot_controlled(seat) or seat in room.bot_declined:
                    continue
                if self._bot_move(room, seat):
                    return
                room.bot_declined.add(seat)

    def _bot_move(self, room: Room, seat: int) -> bool:
        bot = room.bots.get(seat)
        if bot is None:
            s = room.seats[seat]
            bot = room.bots[seat] = self._new_bot(s.level or "easy")
        view = room.game.view(seat)
        events = room.bot_events.get(seat, [])
        room.bot_events[seat] = []
        try:
            action = bot.act(view, events)
        except Exception:  # noqa: BLE001 - a bot bug must not stall the table
            log.exception("bot at seat %s failed in %s", seat, room.code)
            action = None
        if action is None:
            return False
        try:
            self.apply(room, seat, action)
            return True
        except ProtocolError as exc:
            log.warning("bot at seat %s sent an illegal action %s: %s", seat, action,
                        exc.message)
        for fallback in view.get("legal") or []:
            if fallback.get("type") in SERVER_ONLY_ACTIONS:
                continue
            try:
                self.apply(room, seat, fallback)
                return True
            except ProtocolError:
                continue
        return False

    # ------------------------------------------------------------------ Quick Match
    def qm_join(self, preset: str | None) -> dict[str, Any]:
        preset = preset or DEFAULT_PRESET
        if preset_info(preset) is None:
            raise ProtocolError("bad_settings", f"unknown preset {preset!r}", status=422)
        ticket = new_token()
        waiting_names = [t["name"] for t in self.queue.values() if t["preset"] == preset]
        t = {"ticket": ticket, "name": animal_name(waiting_names), "preset": preset,
             "joined": self.now(), "seen": self.now(), "conns": [], "matched": None}
        self.queue[ticket] = t
        self.tickets[ticket] = t
        self._qm_check()
        self._qm_notify()
        return self.qm_status(ticket)

    def qm_get(self, ticket: str) -> dict[str, Any]:
        t = self.tickets.get(ticket)
        if t is None:
            raise ProtocolError("ticket_not_found", "no such Quick Match ticket", status=404)
        t["seen"] = self.now()
        return t

    def qm_status(self, ticket: str) -> dict[str, Any]:
        t = self.qm_get(ticket)
        if t["matched"]:
            return {"status": "matched", **t["matched"]}
        waiting = sum(1 for x in self.queue.values() if x["preset"] == t["preset"])
        return {"ticket": ticket, "status": "waiting", "waiting": waiting, "name": t["name"],
                "ws": f"/ws/quick-match?ticket={ticket}"}

    def qm_leave(self, ticket: str) -> None:
        self.qm_get(ticket)
        self.queue.pop(ticket, None)
        self.tickets.pop(ticket, None)
        self._qm_notify()

    def qm_attach(self, ticket: str, conn: Conn) -> None:
        t = self.qm_get(ticket)
        t["conns"].append(conn)
        if t["matched"]:
            conn.send({"v": VERSION, "type": "matched", **t["matched"]})
        else:
            self._qm_notify()

    def qm_detach(self, ticket: str, conn: Conn) -> None:
        t = self.tickets.get(ticket)
        if t and conn in t["conns"]:
            t["conns"].remove(conn)
            t["seen"] = self.now()

    def _qm_notify(self) -> None:
        for t in self.queue.values():
            waiting = sum(1 for x in self.queue.values() if x["preset"] == t["preset"])
            for conn in t["conns"]:
                conn.send({"v": VERSION, "type": "queue", "waiting": waiting,
                           "name": t["name"]})

    def _qm_check(self) -> None:
        now = self.now()
        by_preset: dict[str, list[dict[str, Any]]] = {}
        for t in self.queue.values():
            by_preset.setdefault(t["preset"], []).append(t)
        next_due: float | None = None
        for preset, waiting in by_preset.items():
            while len(waiting) >= 4:
                self._qm_table(preset, waiting[:4])
                waiting = waiting[4:]
            if len(waiting) >= 2:
                due = waiting[0]["joined"] + self.settings.quick_match_wait
                if now >= due:
                    self._qm_table(preset, waiting)
                else:
                    next_due = due if next_due is None else min(next_due, due)
        if self._qm_timer:
            self._qm_timer.cancel()
            self._qm_timer = None
        if next_due is not None:
            loop = asyncio.get_running_loop()
            self._qm_timer = loop.call_later(max(0.0, next_due - now), self._qm_tick)

    def _qm_tick(self) -> None:
        self._qm_timer = None
        try:
            self._qm_check()
            self._qm_notify()
        except Exception:  # noqa: BLE001
            log.exception("quick match failed")

    def _qm_table(self, preset: str, people: list[dict[str, Any]]) -> None:
        settings = self._check_settings(preset, len(people), None, None, guest=False)
        room = self._new_room("quick-match", settings)
        for i, t in enumerate(people):
            token = self._seat_human(room, i, t["name"])
            room.seats[i].ready = True
            t["matched"] = {"code": room.code, "seat": i, "token": token, "name": t["name"],
                            "ws": f"/ws/{room.code}?token={token}"}
            self.queue.pop(t["ticket"], None)
        room.host = None
        self._deal(room)
        for t in people:
            for conn in t["conns"]:
                conn.send({"v": VERSION, "type": "matched", **t["matched"]})
