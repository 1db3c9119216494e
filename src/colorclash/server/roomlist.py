"""What ``colorclash rooms`` prints: the rooms a store holds, read while the site runs.

An operator had only ``/healthz``'s counts: no way to find the room a player wrote about
("my game with Ana is stuck"), to see whether any game is being played before an upgrade,
or which process of a cluster runs a room. This reads the store and nothing else: it takes
no lock, writes nothing and asks no server, so it works beside a running site (SQLite's
WAL lets a reader in beside the writer) and after one has stopped.

A room's document is the truth of its seats, status and clock; on Redis the cluster's keys
(``cc:owner:{code}``, ``cc:proc:{id}``: ``server/cluster.py``) add the process that runs
it and whether that process is alive.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from colorclash.server.model import COMPUTER
from colorclash.store import DamagedRoom, read_as_stored

STATUSES = ("lobby", "playing", "finished")
#: the table's order: what is being played first, finished rooms last
_ORDER = {"playing": 0, "lobby": 1, "finished": 2}


@dataclass
class RoomLine:
    code: str
    kind: str                  # private | practice | play-now | quick-match
    game: str
    preset: str | None
    status: str
    match: int                 # the match number (a rematch is the next)
    seats: list[str]           # names; computer players and empty seats said as such
    created: float | None      # seconds since the epoch
    finished_at: float | None
    # {"kind", "seat", "left_s", "waits"} of a running clock; ``waits``: a computer's clock
    # past its deadline, which waits for a person to open the table (not run out)
    clock: dict[str, Any] | None
    owner: str | None = None   # Redis: the process that runs the room
    owner_alive: bool | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def seat_label(seat: dict[str, Any]) -> str:
    kind = seat.get("kind")
    if kind == "empty":
        return "(empty)"
    if kind == "bot":
        level = seat.get("level")
        return f"{COMPUTER} ({level})" if level else COMPUTER
    name = str(seat.get("name") or "?")
    if seat.get("left"):
        return f"{name} (left)"
    if seat.get("substitute"):
        return f"{name} (substitute)"
    # (not "away": a seat's connection is the process's, not the store's, which holds
    # it as of the room's last write)
    return name


def _computers(data: dict[str, Any], seat: Any) -> bool:
    """Whether a computer plays ``seat`` (a computer player, or a substitute for a person):
    its clock past the deadline is one that waits for somebody to open the table."""
    seats = data.get("seats") or []
    if not isinstance(seat, int) or not 0 <= seat < len(seats):
        return False
    s = seats[seat]
    return s.get("kind") == "bot" or bool(s.get("substitute"))


def line_of(data: dict[str, Any], now: float) -> RoomLine:
    settings = data.get("settings") or {}
    clock = data.get("clock")
    running = None
    if isinstance(clock, dict) and clock.get("deadline") is not None:
        left = float(clock["deadline"]) - now
        running = {"kind": clock.get("kind"), "seat": clock.get("seat"),
                   "left_s": round(max(0.0, left), 1),
                   "waits": left <= 0 and _computers(data, clock.get("seat"))}
    return RoomLine(
        code=data["code"], kind=data.get("kind", "?"),
        game=str(settings.get("game") or "color-clash"), preset=settings.get("preset"),
        status=data.get("status", "?"), match=int(data.get("match_no") or 0),
        seats=[seat_label(s) for s in data.get("seats", [])],
        created=data.get("created") or None, finished_at=data.get("finished_at"),
        clock=running)


def _checked_line(code: str, data: dict[str, Any], now: float) -> RoomLine:
    """``line_of`` a stored document, or the store's refusal naming a damaged one (a
    field of the wrong type: a traceback, and no room listed at all)."""
    with read_as_stored(code):
        line = line_of(data, now)
        for when in (line.created, line.finished_at):
            if when is not None and not isinstance(when, int | float):
                raise TypeError(f"a time that is {type(when).__name__}")
        if not isinstance(line.status, str) or not isinstance(line.code, str):
            raise TypeError("a status or code that is not text")
        return line


def _check_restorable(store: Any, code: str, data: dict[str, Any], replay: bool) -> None:
    """The room's document read as the server reads it (``Room.from_stored``) and, with
    ``replay`` (a playing room), its log replayed and its records read as the server
    restores them (``Room.restorable``): a seat with a field of its own, or a log the
    rules refuse, was listed while the server could not load the room (operator review).
    Only the playing rooms are replayed: a store keeps a day of finished rooms, and
    replaying every one made a list of 5,000 take 12 s instead of 0.9 (``copy-store``
    replays them all)."""
    from colorclash.server.model import Room

    if not replay:
        Room.from_stored(code, data)
        return
    match = data.get("match_no") if isinstance(data.get("match_no"), int) else None
    actions = store.load_actions(code, match) if match else []
    Room.restorable(code, data, actions)
    store.load_records(code)


def room_lines(store: Any, status: str | None = None, now: float | None = None,
               damaged: list[str] | None = None) -> list[RoomLine]:
    """The rooms of ``store`` (optionally only those in ``status``), playing ones first,
    the newest first within a status. A room deleted while this reads is left out; a
    damaged one too, its reason added to ``damaged`` (else raised)."""
    now = time.time() if now is None else now
    lines = []
    for code in store.room_codes():
        try:
            data = store.load_room(code)
            if data is None:
                continue
            line = _checked_line(code, data, now)
            if status is not None and line.status != status:
                continue
            _check_restorable(store, code, data, replay=line.status == "playing")
        except DamagedRoom as exc:
            if damaged is None:
                raise
            damaged.append(str(exc))
            continue
        lines.append(line)
    _add_owners(store, lines)
    lines.sort(key=lambda r: (_ORDER.get(r.status, 3), -(r.created or 0.0), r.code))
    return lines


def empty_store_note(store: Any) -> str | None:
    """On Redis, when the database holds nothing at all under the store's prefix: most
    likely not the site's store (another /DB number, or another ?prefix=), which printed
    "0 room(s)" as if the site had none; on SQLite, ``:memory:``. None otherwise."""
    redis = getattr(store, "redis", None)
    if redis is None:
        if getattr(store, "path", None) == ":memory:":
            # ("0 room(s)", exit 0, and no word that it looked at nothing: operator review)
            return ("note: sqlite:///:memory: is a store of this command's own, empty: give "
                    "the site's store file (its COLORCLASH_STORE)")
        return None
    cursor, keys = redis.scan(0, match=f"{store.prefix}*", count=1000)
    while not keys and cursor:
        cursor, keys = redis.scan(cursor, match=f"{store.prefix}*", count=1000)
    if keys:
        return None
    return (f"note: this Redis database holds nothing under the prefix "
            f"{store.prefix[:-1]!r}: is it the site's store? (check the /DB number and "
            "?prefix= against the site's COLORCLASH_STORE)")


def _add_owners(store: Any, lines: list[RoomLine]) -> None:
    """On Redis, which process runs each room, and whether it still lives (its lease key);
    a room no process holds (none asked for it since a restart) has no owner."""
    redis = getattr(store, "redis", None)
    if redis is None or not lines:
        return
    raw = redis.mget([store.key("owner", r.code) for r in lines])
    owners = [v.decode() if v else None for v in raw]
    ids = sorted({o for o in owners if o})
    alive = dict(zip(ids, (bool(redis.exists(store.key("proc", i))) for i in ids),
                     strict=True))
    for line, owner in zip(lines, owners, strict=True):
        line.owner = owner
        line.owner_alive = alive.get(owner) if owner else None


def _age(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 86400:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 86400}d{seconds % 86400 // 3600}h"


def summary(lines: list[RoomLine]) -> str:
    counts = {s: sum(1 for r in lines if r.status == s) for s in STATUSES}
    people = sum(1 for r in lines for s in r.seats
                 if not s.startswith(COMPUTER) and s != "(empty)")
    return (f"{len(lines):,} room(s): {counts['playing']:,} playing, {counts['lobby']:,} in a "
            f"lobby, {counts['finished']:,} finished; {people:,} person seat(s)")


def table(lines: list[RoomLine], now: float | None = None) -> str:
    """The rooms as an aligned text table, one line each, and a summary line."""
    now = time.time() if now is None else now
    cluster = any(r.owner for r in lines)
    head = ["CODE", "STATUS", "GAME", "KIND", "MATCH", "AGE", "CLOCK", "SEATS"]
    if cluster:
        head.insert(7, "PROCESS")
    rows = [head]
    for r in lines:
        clock = ""
        if r.clock:
            who = f" seat {r.clock['seat']}" if r.clock.get("seat") is not None else ""
            left = "waits" if r.clock.get("waits") else f"{r.clock['left_s']:.0f}s"
            clock = f"{r.clock['kind']}{who} {left}"
        game = r.game + (f"/{r.preset}" if r.preset else "")
        row = [r.code, r.status, game, r.kind, str(r.match),
               _age(now - r.created) if r.created else "?", clock, ", ".join(r.seats)]
        if cluster:
            row.insert(7, "" if not r.owner else r.owner + ("" if r.owner_alive else " (gone)"))
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(head) - 1)]
    out = ["  ".join([*(c.ljust(w) for c, w in zip(row[:-1], widths, strict=True)), row[-1]])
           .rstrip() for row in rows]
    out.append(summary(lines))
    return "\n".join(out)
