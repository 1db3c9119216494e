"""The hub: every live room of this process, and the parts that run them.

Everything here runs on one asyncio event loop. The engine decides every rule; the server
only moves actions into it, keeps time, and tells each connection what its seat may see.
The hub is split by domain (as lichess splits round, lobby and pool), each part in its own
module and readable alone:

- :class:`~colorclash.server.lobby.Lobby`: opening rooms, seats, settings, starting;
- :class:`~colorclash.server.table.Table`: the match being played: dealing, applying
  actions, substitutes, leaving and coming back;
- :class:`~colorclash.server.clocks.Clocks`: the clock the game asks for, and what happens
  when it runs out;
- :class:`~colorclash.server.computers.Computers`: the computer players of each room;
- :class:`~colorclash.server.quick_match.QuickMatch`: the queue of strangers.

The hub itself keeps the rooms, their persistence (one document plus the action log,
written before anything is sent, so whatever a player saw acknowledged survives a crash),
the connections, and the messages each seat receives.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import orjson

from colorclash.fairness import log_hash
from colorclash.server import games
from colorclash.server.clocks import Clocks, steady_wall
from colorclash.server.computers import Computers
from colorclash.server.config import Settings
from colorclash.server.conn import Conn
from colorclash.server.limits import AddressLimits
from colorclash.server.lobby import Lobby
from colorclash.server.logs import TroubleLines
from colorclash.server.metrics import LatencyWindow, Summary
from colorclash.server.model import COMPUTER, Room, Seat, ms
from colorclash.server.names import CODE_LENGTH, new_token, normalize_code, valid_code
from colorclash.server.protocol import VERSION, ProtocolError, dumps, merge_options
from colorclash.server.quick_match import QuickMatch
from colorclash.server.table import Table
from colorclash.server.thinking import ThinkingPool
from colorclash.server.writer import StoreWriter
from colorclash.store import Store, StoreError

log = logging.getLogger("colorclash.server")

__all__ = ["COMPUTER", "Conn", "Hub", "Room", "Seat"]


class Hub:
    """All live rooms of this process and the Quick Match queue."""

    def __init__(self, store: Store, settings: Settings | None = None,
                 clock: Callable[[], float] = steady_wall,
                 game_factory: Callable[..., Any] | None = None) -> None:
        self.store = store
        # Tests may deal prepared hands: game_factory(preset=, seats=, seed=, options=).
        self.game_factory = game_factory
        self.settings = settings or Settings.from_env()
        self.now = clock
        self.rooms: dict[str, Room] = {}
        self.closed: OrderedDict[str, float] = OrderedDict()  # note_closed()
        # rooms in the store this process could not restore (load_room): their players are
        # told why, not "no room with code" (an upgrade review)
        self.unrestored: set[str] = set()
        self.lobby = Lobby(self)
        self.table = Table(self)
        self.clocks = Clocks(self)
        self.computers = Computers(self)
        self.quick = QuickMatch(self)
        self.thinking = ThinkingPool(self.settings.bot_workers)
        self.writer: StoreWriter | None = None  # group commit, once the loop runs
        # the warnings of a store away (writer, rebuilds, cluster): each kind once a while
        self.trouble = TroubleLines()
        self.cluster: Any = None  # several processes on Redis (server/cluster.py)
        self._janitor: asyncio.Task[None] | None = None
        self._said_gone = False  # the store's file gone (store_file_gone), said so
        self._closing: set[asyncio.Task[None]] = set()  # lobbies being deleted (close_room)
        self.closing: set[str] = set()  # and their codes
        self._summary: asyncio.Task[None] | None = None  # the log's summary line
        # A player's action, from its frame read to its states handed to the sockets
        # (after the write is durable): /healthz's "actions".
        self.action_latency = LatencyWindow()
        self.slow_action_s = max(0.0, self.settings.slow_action_ms) / 1000.0  # 0: no log
        # the per-key budgets (server/limits.py): the app's own, shared over Redis when
        # several processes run (it sets them); this process's alone otherwise
        self.limits: AddressLimits = AddressLimits(self.settings)
        self.frame_at: float | None = None  # perf_counter() when the frame handled now was read
        self._timing: float | None = None   # the action whose first broadcast is timed

    # ------------------------------------------------------------------ lifecycle
    def load_all(self) -> int:
        """Bring every stored room back (after a start or a crash). With several
        processes, only the rooms no live process holds (the cluster takes them)."""
        n = 0
        budget = self.cluster.TAKE_PER_BEAT if self.cluster is not None else 0
        for code in self.store.room_codes():
            if self.cluster is not None:
                owner = self.cluster.owner(code)
                if owner is not None and self.cluster.alive(owner) and owner != self.cluster.id:
                    continue
                if owner is not None and owner != self.cluster.id and budget <= 0:
                    # a stopped process's room: left to the beats, which spread them over
                    # the processes (a whole site restarted went to the first one started)
                    continue
                if self.cluster.take(code) is not None:
                    n += 1
                    budget -= 1
                continue
            if self.load_room(code) is not None:
                n += 1
        return n

    def stored_room(self, code: str) -> Room | None:
        """The room as the store holds it (document and records; no game), or None."""
        data = self.store.load_room(code)
        if not data:
            return None
        room = Room.from_stored(code, data)  # (a field of the wrong type was a traceback)
        return room.with_records(self.store.load_records(code))

    def load_room(self, code: str) -> Room | None:
        """One stored room into memory: its game rebuilt by replay, the same deadlines."""
        try:
            room = self.stored_room(code)
            if room is None:
                return None
            self.rebuild_game(room)
        except StoreError as exc:  # a damaged room: the store's one line names it
            log.error("room %s could not be restored: %s", code, exc)
            self.unrestored.add(code)
            return None
        except Exception:  # noqa: BLE001 - one broken room must not stop the server
            log.exception("room %s could not be restored", code)
            self.unrestored.add(code)
            return None
        self.unrestored.discard(code)
        if room.abandoned_lobby:
            # A lobby its last person left whose delete did not happen (refused, or the
            # process stopped or died first: it is stored emptied, Hub.close_room): deleted
            # now, not loaded (it came back with no host, joinable by its link: a review).
            try:
                self.drop_room(room)
            except StoreError as exc:
                self.trouble.warning(log, "room %s: a closed lobby the store did not delete "
                                     "(%s)", code, exc)
            self.note_closed(code)
            return None
        now = self.now()
        self.mark_absent(room, now, loaded=True)
        if room.status == "finished" and room.game is not None and not any(
                h["match"] == room.match_no for h in room.history):
            room.add_record(self.table.match_record(room))  # stored before records
        self.rooms[code] = room
        if room.status == "playing":
            self.computers.seat_all(room)
            if room.clock is None:
                self.clocks.update(room, None, None)
            self.give_time_back(room, now)
            try:
                # (with group commit, queued: a refusal is the writer's, as any write's)
                self.persist(room)
            except Exception as exc:  # noqa: BLE001 - refused (a full disk, a lock)
                # Nothing to undo: the room is what the store holds, its people marked
                # away and its clock given back, which its next write stores (a restart
                # stopped here with a traceback, exit 3, after a "rebuilt" line)
                room.broken = False
                self.trouble.warning(log, "room %s: restored, but the store did not take "
                                     "its write (%s); its next write stores it", code, exc)
        return room

    @staticmethod
    def mark_absent(room: Room, now: float, loaded: bool = False) -> None:
        """Every person with a socket to the room is present; every person without one is
        away from ``now`` on (a restart: nobody is connected yet; a rebuild from the
        store: the stored seats may be from before someone left, or from a start whose
        write of the marks was refused, after which a person gone before the restart
        counted as present: no substitute, the idle clock's leniency, and the room's idle
        time taken from its creation).

        A room ``loaded`` (a start, another process taking it over) gives a person
        already away from its game the whole grace again, as those at the table when the
        site stopped get: the time the site was down counted as time away, and an upgrade
        of a few minutes gave every seat left a moment before it a computer substitute two
        seconds after the start, which played for them (an upgrade review). Not a room
        taken back to what the store holds after a refused write (nothing was down: each
        refusal would give the grace again, and a substitute whose own write was refused
        would never come: diff review); nor between games (the lobby, the results),
        where the mark dates the room's idleness and a host's absence."""
        for i, s in enumerate(room.seats):
            if s.kind != "human":
                continue
            if i in room.conns:
                # (at the table: a socket's coming back is not stored by itself, so the
                # stored seat may say away since it last left: a rebuild gave a person at
                # the table a computer substitute at once)
                s.away_since = None
            elif s.away_since is None or s.away_since > now or (
                    loaded and room.status == "playing" and not s.substitute):
                # (a mark later than now is another time's: a process whose clock was
                # ahead, or a system clock stepped back since; it put off a host's hand-on)
                s.away_since = now

    #: seconds a running clock has at least once its room is loaded again (a restart, or
    #: another process taking it over): the players' time must not run out, nor a move be
    #: made for them, while the site itself was down (a 20 s turn came back spent); and
    #: never more than its length (give_time_back)
    RESTORED_CLOCK_AT_LEAST = 15.0

    def give_time_back(self, room: Room, now: float) -> None:
        clock = room.clock
        # (the pause between rounds too: it ran out while the site was down, and the next
        # round was dealt before anyone could come back to the last one's results)
        if not clock or not clock.get("deadline"):
            return
        seconds = float(clock.get("seconds") or 0)
        least = now + min(self.RESTORED_CLOCK_AT_LEAST, seconds)
        # ... and never more than its length: a deadline stored by a process whose time is
        # not this one's (the system clock stepped back since it started, or another
        # machine's clock behind ours) gave a 30 s turn ten minutes (a time review)
        deadline = max(least, min(clock["deadline"], now + seconds) if seconds
                       else clock["deadline"])
        turn = clock.get("turn_deadline")
        if turn is not None:
            # (the room's whole turn: a seat's away clock, read after everyone was marked
            # away by the load, would cut a turn it did not run under)
            turn = max(deadline, min(turn, now + self.clocks.turn_seconds(room, None)))
        if (deadline, turn) != (clock["deadline"], clock.get("turn_deadline")):
            room.clock = dict(clock, deadline=deadline)
            if turn is not None:
                room.clock["turn_deadline"] = turn

    def start_writer(self) -> None:
        """Group commit (with a running loop): before :meth:`load_all`, so that the rooms
        restored at a start are written as any write is, in one commit for all of them, a
        refusal (a full disk, a file another program holds locked) answered as at any time
        (one line, ``/healthz`` 503 until the store takes writes again), not a traceback
        that stopped the start with exit 3."""
        save_many = getattr(self.store, "save_many", None)
        if self.settings.group_commit and save_many is not None and self.writer is None:
            self.writer = StoreWriter(save_many, asyncio.get_running_loop(), self.trouble,
                                      probe=getattr(self.store, "probe", None))

    def start_background(self) -> None:
        self.start_writer()
        for room in self.rooms.values():
            self.clocks.schedule(room)
        if self._janitor is None:
            self._janitor = asyncio.get_running_loop().create_task(self._janitor_loop())
        if self._summary is None and self.settings.summary_every > 0:
            self._summary = asyncio.get_running_loop().create_task(self._summary_loop())

    async def shutdown(self) -> None:
        if self._janitor:
            self._janitor.cancel()
        if self._summary:
            self._summary.cancel()
        for room in self.rooms.values():
            if room.timer:
                room.timer.cancel()
            for conn in list(room.conns.values()):
                conn.close(1001, "server shutting down")
        self.quick.stop()
        self.thinking.close()
        if self._closing:  # (lobbies left a moment ago: deleted before the writer stops)
            await asyncio.wait(list(self._closing), timeout=6)
        if self.writer is not None:
            self.writer.stop()
            self.writer = None

    async def _summary_loop(self) -> None:
        summary, every = Summary(), self.settings.summary_every
        while True:
            await asyncio.sleep(every)
            try:
                log.info("%s", summary.line(self, every))
            except Exception:  # noqa: BLE001
                log.exception("summary failed")

    async def _janitor_loop(self) -> None:
        while True:
            await asyncio.sleep(60)
            self.store_file_gone()
            try:
                await self.sweep_off_the_loop()
            except Exception:  # noqa: BLE001
                log.exception("janitor failed")

    def store_file_gone(self) -> str | None:
        """What became of a SQLite store's file, if its name no longer leads to it
        (/healthz, and the janitor each minute: said once in the log)."""
        check = getattr(self.store, "file_gone", None)
        gone = check() if check is not None else None
        if gone and not self._said_gone:
            log.error("%s: its rooms are in the file this server still has open, and are "
                      "written back when it stops (SIGTERM); a crash would lose them", gone)
        self._said_gone = bool(gone)
        return gone

    def expired(self, now: float) -> list[Room]:
        """The finished or abandoned rooms nobody is connected to whose time is up."""
        return [room for room in self.rooms.values() if self.is_expired(room, now)]

    def is_expired(self, room: Room, now: float) -> bool:
        if room.conns:
            return False
        idle_since = room.finished_at if room.status == "finished" else None
        ttl = self.settings.finished_room_ttl
        if room.kind in ("practice", "play-now"):
            # Nobody else's table, and anyone may open ten a minute: kept an hour
            # (its record with it), not a day.
            ttl = self.settings.practice_room_ttl
        if room.status in ("playing", "lobby"):
            # Idle since its people went away: a game everybody left (or that nobody
            # ever opened) goes too, and a room that never started much sooner.
            idle_since = max((s.away_since or 0) for s in room.seats) or room.created
        if room.status == "lobby" and room.history:
            # back from a match (its records kept): the finished rooms' time, from its
            # match's end at the earliest (everyone may have left it since)
            idle_since = max(idle_since or 0, room.finished_at or 0)
        elif room.status == "lobby":
            ttl = self.settings.lobby_room_ttl
        return idle_since is not None and now - idle_since > ttl

    def sweep(self) -> None:
        """Forget finished or abandoned rooms nobody is connected to, and stale tickets
        (each room deleted from the store here, on the caller's thread: the janitor uses
        :meth:`sweep_off_the_loop`)."""
        now = self.now()
        swept = []
        for room in self.expired(now):
            if self.drop_room(room):
                swept.append(room)
        self._said_swept(swept)
        self.quick.sweep(now)

    #: rooms named in one line of the sweep's (the others counted)
    SWEPT_NAMED = 20

    @classmethod
    def _said_swept(cls, rooms: list[Room]) -> None:
        """One line for the rooms a sweep deleted, with their codes and states (a player's
        "my room vanished" could not be checked against the log)."""
        if not rooms:
            return
        named = ", ".join(f"{r.code} ({r.status})" for r in rooms[:cls.SWEPT_NAMED])
        more = len(rooms) - cls.SWEPT_NAMED
        log.info("expired room(s) deleted: %d: %s%s", len(rooms), named,
                 f" and {more} more" if more > 0 else "")

    #: expired rooms deleted in one transaction of the janitor's
    SWEEP_BATCH = 200
    #: expired rooms deleted one by one (Redis) between two turns given back to the loop
    SWEEP_SLICE = 20

    async def sweep_off_the_loop(self) -> None:
        """:meth:`sweep`, the store's deletes in a thread, in batches (``delete_rooms``:
        one transaction, one fsync, each): on the event loop they froze every room, one
        fsync per room (3,000 rooms: 0.5 s), or SQLite's 5 s wait for a lock another
        program held (/healthz stalled 4.7 s, then a traceback). The rooms of a batch
        leave memory first (nobody reaches them meanwhile); if the store refuses the
        delete, one line says so and they come back, to be swept again next time."""
        now = self.now()
        self.quick.sweep(now)
        rooms = self.expired(now)
        delete_rooms = getattr(self.store, "delete_rooms", None)
        if delete_rooms is None or self.cluster is not None:
            # (Redis: each room's ownership is checked as it goes, two round trips a room,
            # on the loop: the loop is given back every SWEEP_SLICE rooms, where the whole
            # sweep held every other room of the process; a room come back to meanwhile,
            # or gone, is left)
            swept = []
            for i, room in enumerate(rooms):
                if i and i % self.SWEEP_SLICE == 0:
                    await asyncio.sleep(0)
                if self.rooms.get(room.code) is not room or not self.is_expired(room, self.now()):
                    continue
                try:
                    if self.drop_room(room):
                        swept.append(room)
                except StoreError as exc:
                    self.trouble.warning(log, "room %s: the store did not delete it (%s); "
                                         "the next sweep tries again", room.code, exc)
            self._said_swept(swept)
            return
        for i in range(0, len(rooms), self.SWEEP_BATCH):
            # (expired still: the batches before may have waited seconds on a locked file,
            # and a room someone came back to meanwhile is theirs again)
            now = self.now()
            batch = [r for r in rooms[i:i + self.SWEEP_BATCH]
                     if self.rooms.get(r.code) is r and self.is_expired(r, now)]
            for room in batch:
                if room.timer:
                    room.timer.cancel()
                    room.timer = None
                del self.rooms[room.code]
            # (a write still queued would store the room again after its delete)
            pending = [r.last_write for r in batch
                       if r.last_write is not None and not r.last_write.done()]
            if pending:
                await asyncio.wait(pending)
            try:
                await asyncio.to_thread(delete_rooms, [r.code for r in batch])
            except Exception as exc:  # noqa: BLE001 - refused (locked, full): next time
                self.trouble.warning(log, "the store did not delete %d expired room(s) (%s); "
                                     "the next sweep tries again", len(batch), exc)
                for room in batch:
                    if room.code not in self.rooms:
                        self.rooms[room.code] = room
                        self.clocks.schedule(room)
                return
            if self.writer is not None:  # (a write of theirs refused: its mark goes too,
                for room in batch:      # or a new room given the code had its first refused)
                    self.writer.forget_failure(room.code)
            self._said_swept(batch)

    #: a closed lobby's delete that the store refused (a locked file, Redis away) is tried
    #: again this often (seconds), this many times
    CLOSE_RETRY_S = 30.0
    CLOSE_TRIES = 20

    def close_room(self, room: Room) -> None:
        """A lobby its last person left: gone from memory at once (its code answers
        "closed"), stored as it is now (nobody in it), and deleted from the store once that
        write is done (SQLite: in a thread, as the janitor deletes). Deleted at once on the
        loop, the delete raced a write still with the writer thread, which then stored the
        room again (after a restart it was back, the leaver's token working), and SQLite's
        5 s wait for a lock another program held froze every room (concurrency review)."""
        if self.writer is None:  # (every write was made on the loop)
            self.drop_room(room)
            return
        if room.timer:
            room.timer.cancel()
            room.timer = None
        # Stored emptied first: a delete the store refuses, or a process that dies before
        # it, leaves a lobby nobody holds, swept in time (the store kept the one before the
        # leave: the leaver seated, host, their token working after a restart: a review).
        self.persist(room)
        self.rooms.pop(room.code, None)
        # (a code being deleted is not taken again from the store meanwhile: on Redis its
        # owner, this process, loaded the stored lobby back, the leaver seated: a review)
        self.closing.add(room.code)
        # the ownership it is deleted under (Redis): lost meanwhile (a stalled process
        # whose room another one took), the room is the other process's, not deleted
        epoch = getattr(self.store, "epochs", {}).get(room.code)
        task = asyncio.get_running_loop().create_task(self._delete_closed(room, epoch))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _delete_closed(self, room: Room, epoch: int | None) -> None:
        try:
            await self._delete_when_written(room, epoch)
        finally:
            self.closing.discard(room.code)

    async def _delete_when_written(self, room: Room, epoch: int | None) -> None:
        pending = room.last_write
        if pending is not None and not pending.done():
            await asyncio.wait([pending])
        delete_rooms = getattr(self.store, "delete_rooms", None)
        for _ in range(self.CLOSE_TRIES):
            try:
                if self.cluster is not None:
                    # (Redis: deleted on the loop, fenced by the ownership it had, as the
                    # janitor's deletes are; without it, unfenced, a stalled process
                    # deleted the live room of the process that took it)
                    if epoch is None or self.store.epochs.get(room.code) != epoch:
                        return
                    self.drop_room(room)
                    return
                if delete_rooms is None:
                    self.drop_room(room)
                    return
                await asyncio.to_thread(delete_rooms, [room.code])
                break
            except Exception as exc:  # noqa: BLE001 - refused (locked, full): again later
                self.trouble.warning(log, "room %s: the store did not delete it (%s); tried "
                                     "again in %.0f s", room.code, exc, self.CLOSE_RETRY_S)
                await asyncio.sleep(self.CLOSE_RETRY_S)
        else:
            return  # (stored with nobody in it: swept after the next start)
        if self.writer is not None:
            self.writer.forget_failure(room.code)

    def drop_room(self, room: Room) -> bool:
        """Delete ``room`` here and from the store (False: another process holds it now,
        and nothing of it was deleted)."""
        if room.timer:
            room.timer.cancel()
        try:
            self.store.delete_room(room.code)
        except StoreError as exc:
            if self.cluster is not None and "FENCED" in str(exc):
                # another process took the room while this one was stalled: it lives
                # there; this copy goes, and nothing of it is deleted
                self.cluster.lost(room.code)
                return False
            raise
        self.rooms.pop(room.code, None)
        if self.writer is not None:  # (a refused write's mark would refuse a new room's)
            self.writer.forget_failure(room.code)
        if self.cluster is not None:
            self.cluster.retire(room.code)
        return True

    # ------------------------------------------------------------------ persistence
    def persist(self, room: Room, actions: list[tuple[int, int, dict[str, Any]]] | None = None,
                new_match: bool = False) -> asyncio.Future[None] | None:
        """Write the room (and new action-log rows; ``new_match``: the room has just dealt
        match ``room.match_no``, whose log starts empty). With group commit, queued to the
        writer thread: the returned future resolves once it is durable (writes of a room
        stay in order); without, written now (None)."""
        records = room.take_unsaved_records()
        if self.writer is None:
            try:
                self.store.save_room(room.code, room.to_data(), room.match_no, actions,
                                     records, new_match)
            except BaseException:
                room.unsaved_records[:0] = records  # for the next write
                if actions is None:  # (an action's: Table.apply takes it back itself)
                    # The change that made this write raises out of it, answered as an
                    # error; the room, changed in memory, then goes back to the store's.
                    room.broken = True
                    try:
                        asyncio.get_running_loop().call_soon(self.table.rebuild_if_broken,
                                                             room)
                    except RuntimeError:  # no event loop: the hub used on its own (tests)
                        pass
                raise
            return None
        # Encoded here, on the loop: the writer thread never reads a room the loop changes
        # (the records too: copies of their own, made once a match).
        doc = orjson.dumps(room.to_data(), option=orjson.OPT_SORT_KEYS).decode()
        records = [orjson.loads(orjson.dumps(r)) for r in records]
        future = self.writer.submit((room.code, doc, room.match_no, actions, records,
                                     new_match))
        room.last_write = future
        # (a failed write is logged by the writer; the room goes back to what the store
        # holds: Table.write_done)
        made = room.rebuilds
        future.add_done_callback(lambda f: self.table.write_done(room, f, made))
        return future

    async def durable(self, room: Room) -> None:
        """Wait until every write of the room so far is durable (REST answers do)."""
        future = room.last_write
        restores = room.restores
        if future is not None and not future.done():
            await asyncio.wait([future])  # its failure is answered below, not raised
        if self.refused(room, future, restores):
            raise ProtocolError("internal", "the room could not be stored; try again",
                                status=503)

    @staticmethod
    def refused(room: Room, future: asyncio.Future[Any] | None, restores: int) -> bool:
        """Whether the done write ``future`` of ``room`` (``room.restores`` being
        ``restores`` when it was made) was refused for good: not one refused as Redis had
        lost the room, which was then stored again from memory with this change
        (Table.restore), which is durable after all."""
        if future is None or not (future.cancelled() or future.exception() is not None):
            return False
        return room.restores == restores

    _persist = persist  # the name tests and older callers use

    def rebuild_game(self, room: Room) -> None:
        """The engine game of the room's current match, from its seed and stored log, and
        the match's last moments (``room.recent``) from the events the replay yields: the
        deal and the engine's events of each action (the server's own notices, such as
        ``time_up``, are not in the log and are not rebuilt)."""
        room.game = None
        room.log_hash = None
        recent = room.recent
        recent.clear()
        # (a lobby shows no game: back from a match, its settings may have changed since,
        # and the match would not replay on them)
        if room.match_no and room.seed is not None and room.status != "lobby":
            actions = self.store.load_actions(room.code, room.match_no)
            deal = {"type": "deal", "match": room.match_no, "commitment": room.commitment}

            def moment(seq: int, events: list[Any]) -> None:
                recent.append((seq, [deal, *events] if seq == 0 else events))

            room.game = games.replay(room, actions, self.game_factory, on_events=moment)
            # (its log replays under this version's rules, and the match goes on under them)
            room.rules_version = games.definition(room.game_key).rules_version
            # A finished match shows its record's hash: one recorded by an older version
            # is of log_hash_version 1, and the results showed today's kind, which the
            # record did not verify against (an upgrade review).
            recorded = next((r["log_hash"] for r in room.history if room.status == "finished"
                             and r.get("match") == room.match_no and r.get("log_hash")), None)
            room.log_hash = recorded or log_hash(room.commitment or "", room.rules, actions)

    # ------------------------------------------------------------------ look-ups
    def get(self, code: str) -> Room:
        code = normalize_code(code)
        room = self.rooms.get(code) if valid_code(code) else None
        if room is None:
            raise self.room_not_found(code)
        return room

    # A room everybody left before its game started is deleted at once (its code is free
    # again); whoever opens its link later is told it was closed, not that it never was.
    CLOSED_KEPT = 10_000  # codes remembered by one process
    CLOSED_FOR = 24 * 3600.0  # seconds

    def note_closed(self, code: str) -> None:
        self.closed[code] = time.monotonic()
        self.closed.move_to_end(code)
        while len(self.closed) > self.CLOSED_KEPT:
            self.closed.popitem(last=False)
        if self.cluster is not None:
            try:  # (what the other processes answer for the code: "closed", not "no such")
                self.cluster.note_closed(code, self.CLOSED_FOR)
            except Exception as exc:  # noqa: BLE001 - Redis away: the leave is done all the same
                self.trouble.warning(log, "room %s: its closing was not shared (%s)", code, exc)

    def room_not_found(self, code: str) -> ProtocolError:
        closed_at = self.closed.get(code)
        closed = closed_at is not None and time.monotonic() - closed_at < self.CLOSED_FOR
        if not closed and self.cluster is not None and valid_code(code):
            closed = self.cluster.was_closed(code)
        if closed:
            return ProtocolError("room_not_found", f"room {code!r} was closed: everyone left "
                                 "it before its game started", status=404, reason="closed")
        if code in self.unrestored and not self._still_stored(code):
            self.unrestored.discard(code)  # (deleted since: `colorclash delete-rooms`)
        if code in self.unrestored:  # (its players found "no room", and no word why)
            return ProtocolError("room_not_found", f"room {code!r} could not be restored "
                                 "from the store (a game the rules of this version refuse "
                                 "after an update, or a damaged record): its game cannot go "
                                 "on; start a new one", status=404, reason="not_restored")
        if not valid_code(code):  # "/ws/QUICK-MATCH" was "no room with code 'QUICK-MATC'"
            shown = code if len(code) <= 12 else code[:12] + "..."
            return ProtocolError("room_not_found", f"{shown!r} is not a room code: a room code "
                                 f"is {CODE_LENGTH} letters", status=404, reason="not_a_code")
        return ProtocolError("room_not_found", f"no room with code {code!r}", status=404)

    def _still_stored(self, code: str) -> bool:
        try:
            return self.store.load_room(code) is not None
        except StoreError:  # (damaged, as it was)
            return True

    def code_taken(self, code: str) -> bool:
        if self.cluster is not None:  # one code space for every process
            return code in self.rooms or not self.cluster.claim_new(code)
        try:
            return code in self.rooms or self.store.load_room(code) is not None
        except StoreError:  # a damaged room's: its code stays its own
            return True

    # ------------------------------------------------------------------ where rooms are
    async def room_op(self, method: str, code: str, *args: Any) -> Any:
        """Run a REST operation on a room wherever it lives: here, or on the process that
        owns it (several processes on Redis)."""
        if self.cluster is None:
            return await self.local_op(method, code, *args)
        code = normalize_code(code)
        if method == "join":
            # asked again below when the owner does not answer in time: it may have
            # seated the joiner (and stored it) all the same. The token is made here, once,
            # so that the second asking finds the first one's seat instead of taking
            # another ("Bo" and "Bo 2"; attacker QA)
            args = (*args, new_token())
        deadline = self.now() + 2 * self.settings.lease_ttl + 1.0
        while True:
            room, owner = await self.cluster.locate(code)
            if room is not None:
                return await self.local_op(method, room.code, *args)
            try:
                return await self.cluster.call(owner, method, code, *args, timeout=1.0)
            except ProtocolError as exc:
                # The owner did not answer: it may have died, and its lease runs out
                # within lease_ttl; then the room is taken over (here or elsewhere).
                if exc.code != "internal" or exc.status != 503 or self.now() > deadline:
                    raise

    async def local_op(self, method: str, code: str | None, *args: Any) -> Any:
        """The operations other processes may ask of this one (JSON in, JSON out)."""
        if method == "public":
            return self.room_public(self.get(code))
        if method == "record":
            return self.record(self.get(code), *args)
        if method == "join":
            room, seat, token = self.join(code, *args)
            await self.durable(room)
            return {"code": room.code, "seat": seat, "token": token}
        if method == "qm_join":
            return self.qm_join(*args)
        if method == "qm_status":
            return await self.quick.status_when_stored(*args)
        if method == "qm_leave":
            self.qm_leave(*args)
            return {"ok": True}
        if method == "qm_exists":  # (app.py: a socket over its address's budget)
            self.qm_get(args[0])
            return True
        if method == "qm_ticket":  # the matched ticket's full entry (app.py)
            t = self.tickets.get(args[0])
            return None if t is None else {"game": t["game"], "preset": t["preset"]}
        raise ProtocolError("internal", f"unknown operation {method!r}", status=500)

    def is_operator_key(self, key: str | None) -> bool:
        if not key:
            return False
        # compared as bytes: compare_digest refuses text with a non-ASCII character (a key
        # "ü" was an HTTP 500)
        given = key.encode("utf-8", "surrogatepass")
        return any(secrets.compare_digest(given, k.encode("utf-8", "surrogatepass"))
                   for k in self.settings.host_keys)

    # ------------------------------------------------------------------ what seats see
    def connected(self, room: Room, seat: int) -> bool:
        s = room.seats[seat]
        if s.kind == "bot":
            return True
        return seat in room.conns

    def room_public(self, room: Room) -> dict[str, Any]:
        seats = [s.public(i, self.connected(room, i)) for i, s in enumerate(room.seats)]
        if room.status == "playing":
            # when a computer substitute takes each away person's seat (the others saw
            # "Away" and no more: a clock review; lichess says how long a claim waits)
            for i, s in enumerate(room.seats):
                if s.kind == "human" and not s.substitute and i not in room.conns:
                    due = self.clocks.substitute_due(room, i)
                    if due is not None:
                        seats[i]["substitute_at"] = ms(due)
        return {
            "code": room.code, "kind": room.kind, "status": room.status, "host": room.host,
            "host_away": room.host_away,
            "link": f"/r/{room.code}", "game": room.game_key,
            "settings": {k: v for k, v in room.settings.items() if k != "game"},
            "seats": seats,
            "match": room.match_no, "commitment": room.commitment,
            "seed": room.seed if room.status == "finished" else None,
            "result": room.result,
            "records": [h["match"] for h in room.history],
            "max_seats": games.max_seats(room.game_key, room.guest),
        }

    def clock_public(self, room: Room) -> dict[str, Any] | None:
        c = room.clock
        if not c:
            return None
        out = {"kind": c["kind"], "seat": c.get("seat"), "deadline": ms(c["deadline"]),
               "remaining_ms": max(0, int((c["deadline"] - self.now()) * 1000)),
               "seconds": int(c["seconds"]) if float(c["seconds"]).is_integer()
               else c["seconds"]}  # (30, as the document writes it: not 30.0)
        if c["kind"] == "next" and (holders := self.table.holders(room)):
            out["hold"] = holders  # who may hold this pause (Table.ready)
        if c.get("cut"):
            out["cut"] = True  # the away clock, not the room's (Clocks.turn_seconds)
        return out

    @staticmethod
    def _shows_game(room: Room) -> bool:
        """A game's view goes out while it is played and once it is over; a lobby (also
        one reopened after a game) has none (protocol.md: ``view`` is null there)."""
        return room.game is not None and room.status != "lobby"

    def state_msg(self, room: Room, seat: int | None, events: list[dict[str, Any]],
                  room_pub: dict[str, Any] | None = None,
                  clock_pub: dict[str, Any] | None = None) -> dict[str, Any]:
        view = room.game.view(seat) if self._shows_game(room) else None
        if view is not None and seat is not None:
            view["legal"] = self.table.sendable(room, seat, view.get("legal") or [])
        return {"v": VERSION, "type": "state", "seq": room.seq,
                "room": room_pub if room_pub is not None else self.room_public(room),
                "view": view, "events": events,
                "clock": clock_pub if clock_pub is not None else self.clock_public(room),
                "log_hash": room.log_hash}

    def broadcast(self, room: Room, events: list[dict[str, Any]],
                  first: int | None = None) -> None:
        """Every connected seat gets a ``state`` with its own view, as the room is now;
        computer players get the events. With group commit the states leave once every
        write made so far is durable (a player is never shown an action a crash could
        still lose), in the order of the writes; a write that failed sends nothing (the
        room is rebuilt from the store and sent afresh). The seat ``first`` (the one
        whose action this is) is sent its state before the others: its player waits for
        the answer to an action, the others do not."""
        messages = self.prepare(room, events, first)
        started, self._timing = self._timing, None
        prepared = time.perf_counter() if started is not None else 0.0

        def send(f: asyncio.Future[Any] | None = None) -> None:
            if f is None or (not f.cancelled() and f.exception() is None and not room.broken):
                handing = time.perf_counter() if started is not None else 0.0
                self.send_all(messages)
                if started is not None:
                    took = time.perf_counter() - started
                    self.action_latency.add(took)
                    if self.slow_action_s and took >= self.slow_action_s:
                        self._log_slow(room, took, started, prepared, handing,
                                       f.result() if f is not None else None)

        future = room.last_write
        if future is None:
            send()
        else:
            future.add_done_callback(send)  # (on a done future: after earlier callbacks)

    @staticmethod
    def answer(room: Room, conn: Any, message: dict[str, Any]) -> None:
        """Answer one player's message (a refusal, a pong) after the states already on
        their way: an action refused because another seat's, or the player's own, came
        first reaches its player after the state that shows that action, not before it
        (with group commit, states wait for their write; the refusal did not). Answers
        keep the order of the messages they answer (a pong after the refusal before it)."""
        future = room.last_write
        if future is None:
            conn.send(message)
        else:  # (on a done future too: its callbacks, the states, may not have run yet)
            future.add_done_callback(lambda _f: conn.send(message))

    @staticmethod
    async def answered(room: Room) -> None:
        """Wait until the states and answers queued behind the room's writes so far have
        been handed to their sockets (before a socket is closed: a flood)."""
        future = room.last_write
        if future is None:
            return
        if not future.done():
            await asyncio.wait([future])
        for _ in range(2):  # its callbacks, scheduled in order, run first
            await asyncio.sleep(0)

    def _log_slow(self, room: Room, took: float, started: float, prepared: float,
                  handing: float, commit: Any) -> None:
        """One line for an action over COLORCLASH_SLOW_ACTION_MS, split into where its
        time went (what the p99 is made of: the store, the loop, or the sends)."""
        ms = 1000.0
        parts = [f"frame to states made {(prepared - started) * ms:.1f} ms"]
        if commit is not None:
            parts += [f"waiting for the store {(handing - prepared) * ms:.1f} ms "
                      f"(its commit began after {(commit.began - prepared) * ms:.1f} ms "
                      f"and took {(commit.ended - commit.began) * ms:.1f} ms, "
                      f"{commit.writes} write{'' if commit.writes == 1 else 's'})"]
        else:
            parts += [f"to the send {(handing - prepared) * ms:.1f} ms"]
        parts += [f"sending {(started + took - handing) * ms:.1f} ms"]
        log.warning("slow action in room %s: %.1f ms: %s", room.code, took * ms,
                    "; ".join(parts))

    def prepare(self, room: Room, events: list[dict[str, Any]], first: int | None = None
                ) -> list[tuple[Conn, str]]:
        """The ``state`` each connected seat gets for the room as it is now (computer
        players take in the events at once), encoded: made at the moment of the change,
        sent when the change is durable (``send_all``). What every seat shares (the room,
        the events, the clock, the log hash) is encoded once; only the views differ."""
        self.computers.observe(room, events)
        fresh = room.fresh
        # A socket's first state also carries the match's moments before this one
        # (``recent``), encoded once for all the sockets that just opened.
        recent = self.recent_json(room) if fresh else None
        if events:
            room.recent.append((room.seq, events))  # (a reference: encoded when asked for)
        if not room.conns:
            return []
        room_json = dumps(self.room_public(room))
        # Compact sockets (``?compact=1``) that have had a state since they opened are
        # sent ``room``, and ``view.options`` with it, only when ``room`` changed: every
        # state they were sent since then was prepared here, in this order. (A socket in
        # ``fresh`` gets a whole state: one just opened, or every socket after a rebuild.)
        same = room_json == room.room_sent
        room.room_sent = room_json
        shared = dumps({"v": VERSION, "type": "state", "seq": room.seq, "events": events,
                        "clock": self.clock_public(room), "log_hash": room.log_hash})
        head = shared[:-1] + ',"room":' + room_json + ',"view":'
        compact_head = shared[:-1] + ',"view":'
        shows_game = self._shows_game(room)
        out = []
        conns = list(room.conns.items())
        if first is not None and first in room.conns:
            conns.sort(key=lambda item: item[0] != first)  # (stable: the rest in order)
        views = (room.game.views([seat for seat, _ in conns]) if shows_game
                 else [None] * len(conns))  # (they may share values: replace keys only)
        for (seat, conn), view in zip(conns, views, strict=True):
            if view is not None:
                view["legal"] = self.table.sendable(room, seat, view.get("legal") or [])
            if recent is not None and conn in fresh:
                fresh.discard(conn)
                out.append((conn, head + dumps(view) + ',"recent":' + recent + "}"))
            elif same and conn.compact:
                if view is not None:
                    view.pop("options", None)
                out.append((conn, compact_head + dumps(view) + "}"))
            else:
                out.append((conn, head + dumps(view) + "}"))
        return out

    def recent_json(self, room: Room) -> str:
        """``state.recent``: the last moments of the match shown, oldest first, each its
        ``seq`` and its public events, as they were broadcast (none in a lobby)."""
        if not self._shows_game(room):
            return "[]"
        return dumps([{"seq": seq, "events": events} for seq, events in room.recent])

    @staticmethod
    def send_all(messages: list[tuple[Conn, str]]) -> None:
        for conn, text in messages:
            conn.send_text(text)

    def record(self, room: Room, match: int | None = None) -> dict[str, Any]:
        return self.table.record(room, match)

    # ------------------------------------------------------------------ connections
    @staticmethod
    def holds_seat(room: Room, seat: int | None, token_hash: str | None) -> bool:
        """The seat is a person's, and ``token_hash`` is that person's token now."""
        if seat is None or not token_hash or not 0 <= seat < len(room.seats):
            return False
        s = room.seats[seat]
        return s.kind == "human" and bool(s.token_hash) and \
            secrets.compare_digest(s.token_hash, token_hash)

    def attach(self, room: Room, seat: int, conn: Conn) -> None:
        old = room.conns.get(seat)
        if old is not None:
            old.send(ProtocolError("replaced", "this seat was opened elsewhere").to_message())
            old.close(4409, "replaced")
        back = self.computers.unwatched(room)  # (before: its computer players waited)
        room.conns[seat] = conn
        room.fresh.discard(old)
        room.fresh.add(conn)  # its first state carries the match's recent moments
        s = room.seats[seat]
        s.away_since = None
        room.never_came.discard(seat)
        # (``missed`` is kept: only acting, or taking the seat back from a substitute, gives
        # the whole turn clock again; a socket opened for a moment before each turn kept a
        # connected idler on the whole clock for the whole match)
        changed = self.lobby.host_back(room, seat)
        if s.left:
            s.left, changed = False, True
        if changed:
            self.persist(room)
        # else nothing a restart needs changed: who is connected is not stored (a restart
        # counts everyone away from its own start), so a page reloaded in a loop costs no
        # write (one client reconnecting 185 times a second made 370 commits a second)
        conn.send({"v": VERSION, "type": "welcome", "seat": seat, "code": room.code,
                   "name": s.name, "server_time": ms(self.now()),
                   "grace": self.settings.reconnect_grace})
        if s.substitute and room.status == "playing" \
                and "substitute" not in self.table.server_actions(room):
            # Games whose rules do not track substitutes give the seat back at once;
            # Color Clash's rules keep the substitute to the end of the round.
            self.table.substitute(room, seat, False)
        if back and room.status == "playing":
            self.computers.wait(room)  # the person sees the table before they move again
            self.clocks.resume(room)
        self.broadcast(room, [])
        self.clocks.schedule(room)

    def detach(self, room: Room, seat: int, conn: Conn) -> None:
        if room.conns.get(seat) is not conn:
            return
        del room.conns[seat]
        room.fresh.discard(conn)
        s = room.seats[seat]
        if s.kind == "human":
            s.away_since = self.now()  # (stored with the room's next write)
        self.broadcast(room, [])
        self.clocks.schedule(room)

    #: messages that change the room for everyone: each is stored and sent to every seat
    CHANGES = frozenset(("ready", "settings", "add_bot", "remove_bot", "remove_player",
                         "reopen"))

    def _take_change(self, room: Room, seat: int, kind: str) -> None:
        """Spend one of the seat's lobby changes, or refuse the message (``rate_limited``).

        The rate limit of a connection (20 messages a second) let one player toggle
        ``ready`` 20 times a second, each toggle a write and a state for every seat of the
        room: from one address, a few hundred seats doing it filled a process. A person
        makes a few changes at a time (``limit_lobby_burst``, 30: a host may go through a
        menu's choices with the arrow keys, one change each) and a few a second at most
        after that (``limit_lobby_per_min``, 120). A budget per seat and token: a new
        person on the seat has a whole one."""
        token = room.seats[seat].token_hash or ""
        try:
            self.limits.take("lobby", f"{room.code}/{seat}/{token[:32]}")
        except ProtocolError as exc:
            raise ProtocolError("rate_limited", "too many changes to the room in a short "
                                f"time; this one was ignored: try again in "
                                f"{exc.retry_after} s", ref=kind,
                                retry_after=exc.retry_after) from None

    def handle(self, room: Room, seat: int, msg: Any) -> None:
        """Run one validated client message for ``seat``; raise ProtocolError to refuse."""
        if not 0 <= seat < len(room.seats) or room.seats[seat].kind != "human":
            # (a socket left attached to a seat freed under it must never act for it)
            raise ProtocolError("bad_token", "this seat is no longer yours")
        t = msg.type
        if t in self.CHANGES:
            self._take_change(room, seat, t)
        if t == "action":
            self._timing = self.frame_at if self.frame_at is not None else time.perf_counter()
            try:
                self.table.human_action(room, seat, msg.action.to_engine(), msg.seq)
            except ProtocolError as exc:
                # (the refusal of a move sent before is not the answer to one sent since:
                # a stale move's refusal cleared a later move's wait: a bad network review)
                exc.seq = msg.seq
                raise
            finally:
                self._timing = None
        elif t == "ready":
            if room.status == "lobby":
                self.lobby.ready(room, seat, msg.ready)
            else:
                self.table.ready(room, seat, msg.ready)
        elif t == "settings":
            self.lobby.change_settings(room, seat, msg.settings.to_patch())
        elif t == "add_bot":
            self.lobby.add_bot(room, seat, msg.seat, msg.level)
        elif t == "remove_bot":
            self.lobby.remove_bot(room, seat, msg.seat)
        elif t == "remove_player":
            self.lobby.remove_player(room, seat, msg.seat)
        elif t == "start":
            self.lobby.start(room, seat)
        elif t == "reopen":
            self.lobby.reopen(room, seat)
        elif t == "leave":
            if room.status == "playing":
                self.table.leave(room, seat)
            else:
                self.lobby.leave(room, seat)
        else:  # pragma: no cover - parse_client_message only lets known types through
            raise ProtocolError("unknown_type", f"unknown message type {t!r}")

    # ------------------------------------------------------------------ the public API
    # (app.py, the tests and the benchmarks call these; each part does the work)
    def create_private(self, name: str, preset: str | None = None, seats: int | None = None,
                       clock: int | None = None, match: str | None = None,
                       host_key: str | None = None, game: str | None = None,
                       options: dict[str, Any] | None = None) -> tuple[Room, int, str]:
        return self.lobby.create_private(name, game, preset, seats,
                                         _options(clock, match, options), host_key)

    def create_practice(self, name: str, bots: int | None = None, level: str | None = None,
                        preset: str | None = None, clock: int | None = None,
                        match: str | None = None, kind: str = "practice",
                        game: str | None = None, options: dict[str, Any] | None = None
                        ) -> tuple[Room, int, str]:
        return self.lobby.create_practice(name, game, bots, level, preset,
                                          _options(clock, match, options), kind)

    def create_play_now(self, name: str, game: str | None = None) -> tuple[Room, int, str]:
        return self.lobby.create_play_now(name, game)

    def join(self, code: str, name: str, seat: int | None = None,
             token: str | None = None) -> tuple[Room, int, str]:
        return self.lobby.join(code, name, seat, token)

    def change_settings(self, room: Room, seat: int, patch: dict[str, Any]) -> None:
        self.lobby.change_settings(room, seat, patch)

    def add_bot(self, room: Room, seat: int, target: int, level: str) -> None:
        self.lobby.add_bot(room, seat, target, level)

    def remove_bot(self, room: Room, seat: int, target: int) -> None:
        self.lobby.remove_bot(room, seat, target)

    def remove_player(self, room: Room, seat: int, target: int) -> None:
        self.lobby.remove_player(room, seat, target)

    def start(self, room: Room, seat: int) -> None:
        self.lobby.start(room, seat)

    def human_action(self, room: Room, seat: int, action: dict[str, Any]) -> None:
        self.table.human_action(room, seat, action)

    def apply(self, room: Room, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        return self.table.apply(room, seat, action)

    # Quick Match
    @property
    def queue(self) -> dict[str, dict[str, Any]]:
        return self.quick.queue

    @property
    def tickets(self) -> dict[str, dict[str, Any]]:
        return self.quick.tickets

    def qm_join(self, preset: str | None = None, game: str | None = None,
                address: str | None = None) -> dict[str, Any]:
        return self.quick.join(game, preset, address)

    def qm_get(self, ticket: str) -> dict[str, Any]:
        return self.quick.get(ticket)

    def qm_status(self, ticket: str) -> dict[str, Any]:
        return self.quick.status(ticket)

    def qm_leave(self, ticket: str, keep: Conn | None = None) -> None:
        self.quick.leave(ticket, keep)

    def qm_attach(self, ticket: str, conn: Conn) -> None:
        self.quick.attach(ticket, conn)

    def qm_detach(self, ticket: str, conn: Conn) -> None:
        self.quick.detach(ticket, conn)

    # shared by the parts
    def new_room(self, kind: str, settings: dict[str, Any]) -> Room:
        from colorclash.server.names import new_code

        code = new_code(self.code_taken)
        room = Room(code=code, kind=kind, settings=settings,
                    seats=[Seat() for _ in range(settings["seats"])], created=self.now())
        self.rooms[code] = room
        return room

    def definition(self, room: Room) -> Any:
        return games.definition(room.game_key)


def _options(clock: int | None, match: str | None, options: dict[str, Any] | None
             ) -> dict[str, Any]:
    """A new room's options: ``clock`` and ``match`` may come at the top of the request
    or inside ``options``; given in both places, they must agree (``merge_options``)."""
    return merge_options({"clock": clock, "match": match}, options)
