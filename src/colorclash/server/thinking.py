"""Computer players that search think in worker processes, never on the event loop.

A ``hard`` player searches for up to 100 ms per decision; on the event loop that stalled
every other room of the process (with 20 Practice rooms of ``hard`` players, a ping on
another room waited up to 212 ms). Bots whose class says ``thinks = True`` are sent, with
their view and the events since their last move, to a small pool of worker processes; the
worker returns the action and the bot itself (its memory of the game has changed), and the
room applies the action if the game is still where the bot saw it.

``bot_workers`` (``COLORCLASH_BOT_WORKERS``) sets the pool's size; 0 thinks on the event
loop as before. The pool starts with the first searching move.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import logging
import multiprocessing
import os
import signal
import threading
import time
from typing import Any

log = logging.getLogger("colorclash.server")


def _think(bot: Any, view: dict[str, Any], events: list[dict[str, Any]]) -> tuple[Any, Any]:
    """In a worker: the bot's decision, and the bot with what it has learned."""
    return bot.act(view, events), bot


def _watch_parent(parent: int, every: float = 0.5) -> None:
    """In a worker: end when the server is gone. A worker waits on a pipe it holds both
    ends of, so a server killed by SIGKILL would leave it (and the resource tracker it
    keeps alive) running forever, one more set after each crash.

    Ctrl-C in a terminal sends SIGINT to the whole process group, workers included: the
    server stops cleanly on it, and ends its workers itself, so a worker ignores it
    (otherwise each printed a KeyboardInterrupt traceback into the server's log)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="colorclash-watch-parent", daemon=True).start()


class ThinkingPool:
    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.submitted = 0
        self.restarted = 0  # pools started again after a worker died

    @property
    def enabled(self) -> bool:
        return self.workers > 0

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": a forked copy of a process with an event loop and threads is unsafe.
            context = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_watch_parent,
                initargs=(os.getpid(),))
        return self._pool

    def think(self, bot: Any, view: dict[str, Any], events: list[dict[str, Any]]
              ) -> asyncio.Future[tuple[Any, Any]]:
        self.submitted += 1
        loop = asyncio.get_running_loop()
        try:
            return loop.run_in_executor(self._executor(), _think, bot, view, events)
        except concurrent.futures.process.BrokenProcessPool:
            # A worker died (killed, out of memory): the pool refuses everything after,
            # and every searching player of the process waited out its turn clock (diff
            # review). A new pool; the searches that were under way failed already.
            log.warning("a worker of the computer players' pool died; starting a new pool")
            self.restarted += 1
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
            return loop.run_in_executor(self._executor(), _think, bot, view, events)

    def close(self) -> None:
        """Stop the workers, waiting for them (at most a search that is under way): a
        pool left to die with the server left its queues' semaphores to the resource
        tracker, which warned of "leaked semaphore objects" on every stop."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


__all__ = ["ThinkingPool"]
