"""Group commit off the event loop: the store's writes, batched, in a thread of their own.

Committing each action to SQLite with ``synchronous=FULL`` on the event loop was 46% of a
busy process's time: every action waited for its own fsync, and every other room waited
with it. The writer takes every write queued since its last commit (room documents and
action-log rows of any number of rooms) and commits them in one transaction, one fsync,
then resolves each write's future on the event loop. An action is announced to the
players only when its future resolves (``Table.apply``): nothing is acknowledged before it
is durable, and a crash loses only actions nobody saw acknowledged.

The writes made in one round of the event loop are handed to the thread together, once
the round's callbacks have run (``loop.call_soon``): at full speed that is the actions of
every socket read in that round, one commit for all of them, instead of the thread waking
(and asking for the interpreter lock) for each. A commit costs about the same CPU whether
it holds one action or sixteen (its fsync), so batches are what make it cheap.

Writes of one room keep their order (one queue, one thread). If a batch fails, every write
of that batch fails, and so does every later write of the same rooms until the room has
been rebuilt from the store (``Hub`` does that once its pending writes are done), so a log
never gets a gap.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import NamedTuple

from colorclash.server.logs import TroubleLines
from colorclash.store import StoreError, Write

log = logging.getLogger("colorclash.server")


class CommitTiming(NamedTuple):
    """What a write's future resolves to: its batch's commit, timed in the writer thread
    (``time.perf_counter()``), for the slow-action log (``Hub.broadcast``)."""

    began: float
    ended: float
    writes: int


class StoreWriter:
    """One thread committing queued writes in batches."""

    MAX_BATCH = 512
    #: while the store refuses and nothing is written, it is tried this often (seconds)
    PROBE_S = 2.0

    def __init__(self, save_many: Callable[[list[Write]], None],
                 loop: asyncio.AbstractEventLoop,
                 trouble: TroubleLines | None = None,
                 probe: Callable[[], None] | None = None) -> None:
        self._save_many = save_many
        # A small write of the store's own (``Store.probe``), tried while the store refuses
        # and no write comes: the refusal was over only at the next commit, so an idle
        # process stayed 503 on /healthz after Redis was back (a load balancer sent it
        # nobody, and nobody ever wrote: attacker/operator QA)
        self._probe = probe
        self._trouble = trouble or TroubleLines()
        self._loop = loop
        self._items: list[tuple[Write, asyncio.Future[CommitTiming]]] = []
        self._round: list[tuple[Write, asyncio.Future[CommitTiming]]] = []  # this loop round's
        self._cond = threading.Condition()
        self._stopping = False
        self._failed_rooms: set[str] = set()
        self.batches = 0
        self.writes = 0
        # why the store refused the last commit (a full disk, Redis away), until a commit
        # succeeds: /healthz says so (a SQLite store on a full disk answered ok: true)
        self.refusing: str | None = None
        self._refusing_since = 0.0
        self._thread = threading.Thread(target=self._run, name="colorclash-writer",
                                        daemon=True)
        self._thread.start()

    def submit(self, write: Write) -> asyncio.Future[CommitTiming]:
        """Queue a write (on the event loop's thread); the future resolves when durable."""
        if self._stopping:
            raise RuntimeError("the store writer has stopped")
        future: asyncio.Future[CommitTiming] = self._loop.create_future()
        if not self._round:
            self._loop.call_soon(self._hand_over)
        self._round.append((write, future))
        return future

    def _hand_over(self) -> None:
        """The loop round is over: its writes go to the thread, in one go."""
        if not self._round:
            return
        with self._cond:
            self._items += self._round
            self._cond.notify()
        self._round = []

    def forget_failure(self, code: str) -> None:
        """The room was rebuilt from the store: its writes are accepted again, but for those
        made before the rebuild and not yet taken by the thread, which fail here (on the
        event loop's thread, where they were made): each holds the room as it was before
        the rebuild, and one committed now would store what the rebuild undid."""
        with self._cond:
            self._failed_rooms.discard(code)
            stale = [item for item in self._items if item[0][0] == code]
            if stale:
                self._items = [item for item in self._items if item[0][0] != code]
        stale += [item for item in self._round if item[0][0] == code]
        self._round = [item for item in self._round if item[0][0] != code]
        for write, future in stale:
            if not future.done():
                future.set_exception(OSError(f"room {write[0]}: an earlier write failed"))

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._items and not self._stopping:
                    if self.refusing is None or self._probe is None:
                        self._cond.wait()
                    elif not self._cond.wait(self.PROBE_S):
                        break  # idle while the store refuses: it is tried (below)
                if not self._items and self._stopping:
                    return
                batch = self._items[:self.MAX_BATCH]
                del self._items[:self.MAX_BATCH]
                failed = set(self._failed_rooms)
            if not batch:
                self._try_the_store()
                continue
            doomed = [(w, f) for w, f in batch if w[0] in failed]
            live = [(w, f) for w, f in batch if w[0] not in failed]
            error: BaseException | None = None
            began = time.perf_counter()
            if live:
                try:
                    self._save_many([w for w, _ in live])
                except BaseException as exc:  # noqa: BLE001 - reported to every writer
                    error = exc
                    if isinstance(exc, StoreError):  # refused, with the store's reason
                        self._trouble.warning(log, "store commit of %d writes refused: %s",
                                              len(live), exc)
                    else:
                        log.exception("store commit of %d writes failed", len(live))
                    if "FENCED" not in str(exc):  # (a room lost to another process is no outage)
                        if self.refusing is None:
                            self._refusing_since = time.monotonic()
                        self.refusing = str(exc) or type(exc).__name__
                    with self._cond:
                        self._failed_rooms.update(w[0] for w, _ in live)
            if live and error is None and self.refusing is not None:
                self._taken_again()
            self.batches += 1
            self.writes += len(live)
            commit = CommitTiming(began, time.perf_counter(), len(live))
            self._loop.call_soon_threadsafe(self._resolve, live, error, doomed, commit)

    def _taken_again(self) -> None:
        self.refusing = None
        # (from its first refused write, which may come well after Redis went away: "for
        # 13 s" beside the cluster's "did not answer for 42 s" read as two outages)
        log.info("the store takes writes again (its first refused write was %.0f s ago%s)",
                 time.monotonic() - self._refusing_since, self._trouble.over_note())

    def _try_the_store(self) -> None:
        """Idle while the store refuses: its probe write tells when it takes writes again."""
        assert self._probe is not None
        try:
            self._probe()
        except BaseException as exc:  # noqa: BLE001 - still refused: said as it is now
            self.refusing = str(exc) or type(exc).__name__
            return
        self._taken_again()

    @staticmethod
    def _resolve(live: list[tuple[Write, asyncio.Future[CommitTiming]]],
                 error: BaseException | None,
                 doomed: list[tuple[Write, asyncio.Future[CommitTiming]]],
                 commit: CommitTiming) -> None:
        for _, future in live:
            if future.done():
                continue
            if error is None:
                future.set_result(commit)
            else:
                future.set_exception(OSError(f"store write failed: {error}"))
        for write, future in doomed:
            if not future.done():
                future.set_exception(OSError(f"room {write[0]}: an earlier write failed"))

    def stop(self, timeout: float = 10.0) -> None:
        """Commit what is queued, then stop the thread."""
        self._hand_over()
        with self._cond:
            self._stopping = True
            self._cond.notify()
        self._thread.join(timeout)


__all__ = ["StoreWriter"]
