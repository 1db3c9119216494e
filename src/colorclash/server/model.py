"""The room model: seats and rooms as stored (``Room.to_data``) plus their runtime parts.

A room is stored as one JSON document (settings, seats with hashed tokens, the secret seed,
status, clock deadlines) plus the action log of each match and the records of its finished
matches, each stored once when its match ends (``history``; older versions kept them
inside the document); the engine game is rebuilt from (seed, actions).
"""

from __future__ import annotations

import asyncio
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from colorclash.fairness import match_rules
from colorclash.server.names import hash_token
from colorclash.store import read_as_stored

COMPUTER = "Computer"

#: the moments (event batches) of the current match a socket is sent when it opens
#: (``state.recent``): the browser's "Recent moves" after a reload or a reconnection
RECENT_MOMENTS = 30


def recent_moments() -> deque[tuple[int, list[dict[str, Any]]]]:
    return deque(maxlen=RECENT_MOMENTS)


def ms(t: float | None) -> int | None:
    """Seconds since the epoch -> whole milliseconds (None stays None)."""
    return None if t is None else int(round(t * 1000))


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
    missed: int = 0                  # turns run out in a row (server/clocks.py: a shorter clock)
    # a seat freed after the end of a match: the name its player played that match under,
    # so that what shows the match (results, history) keeps it until the next one
    former: str | None = None

    def public(self, index: int, connected: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": index, "kind": self.kind, "name": self.name,
            "connected": connected, "ready": self.ready, "substitute": self.substitute,
            "away_since": ms(self.away_since),
        }
        if self.kind == "bot":
            out["label"] = COMPUTER
            out["level"] = self.level
        elif self.substitute:
            out["label"] = COMPUTER
        if self.former:
            out["former"] = self.former
        if self.left and self.kind == "human":
            out["left"] = True  # chose to leave (a substitute plays): not just away
        return out


@dataclass
class Room:
    code: str
    kind: str                        # private | practice | play-now | quick-match
    settings: dict[str, Any]         # game, preset, seats and the game's options (clock, ...)
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
    # the seat whose host role passed to another person while they were away between games
    # (``Lobby.pass_host``): nobody may take them off the table, and they host again when
    # they come back
    host_away: int | None = None
    # the version of the game's rules the current match's log was written under
    # (``GameDefinition.rules_version``; None: stored before rooms carried it)
    rules_version: int | None = None
    # runtime only -------------------------------------------------------------
    game: Any = field(default=None, repr=False)
    log_hash: str | None = None      # running hash of the match's action log (fairness.py)
    conns: dict[int, Any] = field(default_factory=dict, repr=False)  # seat -> Conn
    bots: dict[int, Any] = field(default_factory=dict, repr=False)
    bot_events: dict[int, list[dict[str, Any]]] = field(default_factory=dict, repr=False)
    bot_due: float = 0.0
    # seconds beyond bot_due a computer player lets pass before it acts (its patience, e.g.
    # before catching someone in a last-card window), by seat, for the current change
    bot_extra: dict[int, float] = field(default_factory=dict, repr=False)
    bot_declined: set[int] = field(default_factory=set, repr=False)
    round_ready: set[int] = field(default_factory=set, repr=False)
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    retry_after: dict[int, float] = field(default_factory=dict, repr=False)
    stall_until: float = 0.0
    told_time_up: tuple[Any, ...] | None = field(default=None, repr=False)  # the clock told
    # a searching computer's search under way: seat -> its own mark (server/computers.py)
    thinking: dict[int, object] = field(default_factory=dict, repr=False)
    # a searching computer's decision come back before its time to act: seat ->
    # ((log hash, match) it was made for, action) (server/computers.py, "thought ahead")
    thought: dict[int, tuple[tuple[str | None, int], Any]] = field(default_factory=dict,
                                                                  repr=False)
    # A Quick Match table's seats whose person has not connected since the table was made
    # (not stored: after a restart everyone is away alike)
    never_came: set[int] = field(default_factory=set, repr=False)
    last_write: Any = field(default=None, repr=False)  # the store writer's latest future
    unsaved_records: list[dict[str, Any]] = field(default_factory=list, repr=False)
    unacked: int = 0                 # actions applied, not yet durable (not yet announced)
    broken: bool = False             # a write failed: rebuild once unacked is back to 0
    unacked_seats: set[int] = field(default_factory=set, repr=False)  # whose those are
    # and whether the server made one of them (a clock's, a computer's: made again unasked)
    unacked_by_server: bool = field(default=False, repr=False)
    rebuild_timer: Any = field(default=None, repr=False)  # a rebuild to try again (store away)
    rebuilds: int = field(default=0, repr=False)  # times rebuilt after a refused write
    restores: int = field(default=0, repr=False)  # times stored again from memory (Redis lost it)
    # (seq, events) of the match's last moments, the events as broadcast (references, not
    # copies: every event is public, the same for every seat); cleared at a deal, rebuilt
    # with the game by replay (Hub.rebuild_game)
    recent: deque[tuple[int, list[dict[str, Any]]]] = field(default_factory=recent_moments,
                                                           repr=False)
    fresh: set[Any] = field(default_factory=set, repr=False)  # sockets sent no state yet
    # the ``room`` object of the last state prepared, encoded: compact sockets are sent
    # ``room`` only when it differs (Hub.prepare)
    room_sent: str | None = field(default=None, repr=False)

    DATA_FIELDS = ("code", "kind", "settings", "status", "host", "match_no", "seed",
                   "commitment", "options", "clock", "result", "created", "finished_at", "guest",
                   "history", "host_away", "rules_version")

    def to_data(self) -> dict[str, Any]:
        """The room's document: written with every action, so without ``history`` (the
        store keeps the records apart: ``take_unsaved_records``)."""
        data = {k: getattr(self, k) for k in self.DATA_FIELDS if k != "history"}
        data["seats"] = [dict(vars(s)) for s in self.seats]
        return data

    def take_unsaved_records(self) -> list[dict[str, Any]]:
        """The records of finished matches the store does not have yet (for the next
        write, which stores them with the room)."""
        records, self.unsaved_records = self.unsaved_records, []
        return records

    def add_record(self, record: dict[str, Any]) -> None:
        self.history.append(record)
        self.unsaved_records.append(record)

    def with_records(self, stored: list[dict[str, Any]]) -> Room:
        """This room (loaded from its document) with the records stored apart. Records a
        document of an older version still holds are kept and saved apart at the next
        write."""
        kept = {r["match"]: r for r in stored}
        inline = [r for r in self.history if r["match"] not in kept]
        self.history = sorted([*stored, *inline], key=lambda r: r["match"])
        self.unsaved_records = inline
        return self

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Room:
        kwargs = {k: data[k] for k in cls.DATA_FIELDS if k in data}
        kwargs["seats"] = [Seat(**s) for s in data["seats"]]
        kwargs["settings"] = {"game": "color-clash", **kwargs["settings"]}  # rooms of v1
        return cls(**kwargs)

    @classmethod
    def from_stored(cls, code: str, data: dict[str, Any]) -> Room:
        """``from_data`` of room ``code``'s stored document: one with a field of the wrong
        type or missing is the store's refusal naming the room (``DamagedRoom``), as the
        server's start, ``colorclash rooms`` and ``copy-store`` say it."""
        with read_as_stored(code):
            return cls.from_data(data)

    @classmethod
    def restorable(cls, code: str, data: dict[str, Any], actions: list[Any]) -> Room:
        """Room ``code`` read from its stored document and its current match's ``actions``
        as the server restores it: the document into its fields, the log replayed by the
        rules (``games.replay``). Either refused is ``DamagedRoom`` naming the room, as
        the server's start, ``colorclash rooms`` and ``copy-store`` say it."""
        from colorclash.server import games

        room = cls.from_stored(code, data)
        if room.match_no and room.seed is not None:
            games.replay(room, actions)
        return room

    @property
    def game_key(self) -> str:
        return self.settings["game"]

    @property
    def rules(self) -> dict[str, Any]:
        """The rules of the current match as its record names them (the log hash's start:
        ``colorclash.fairness``)."""
        return match_rules(self.game_key, self.settings["preset"], self.settings["seats"],
                           self.options)

    @property
    def seq(self) -> int:
        return len(self.game.log) if self.game is not None else 0

    @property
    def abandoned_lobby(self) -> bool:
        """A lobby nobody is in and with no records: closed when its last person leaves
        (``Lobby.leave``), dropped if it is found stored so (``Hub.load_room``). A lobby
        back from a match keeps its records, and its link, until swept."""
        return (self.status == "lobby" and not self.history
                and not any(s.kind == "human" for s in self.seats))

    def bot_controlled(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or (s.kind == "human" and s.substitute)

    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.token_hash and secrets.compare_digest(s.token_hash, h):
                return i
        return None
