"""One WebSocket's outgoing side: an ordered queue drained by its own task, so that a slow
reader never blocks the room that sends to it (over ``MAX_QUEUE`` queued: closed 4408).

With a direct send (``server/direct_ws.py``) a message goes out at once whenever nothing
is queued before it and the socket can take it; only the rest waits in the queue."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from colorclash.server.protocol import dumps

log = logging.getLogger("colorclash.server")


class Conn:
    """One WebSocket, with an ordered outgoing queue drained by its own task."""

    MAX_QUEUE = 500
    #: sent compact states (``?compact=1``: ``room`` and ``view.options`` only when the
    #: room changed; protocol.md 2.3)
    compact = False

    def __init__(self, send_text: Callable[[str], Awaitable[None]],
                 close: Callable[[int, str], Awaitable[None]],
                 direct: Callable[[str], bool] | None = None,
                 close_now: Callable[[int, str], None] | None = None) -> None:
        self._send_text = send_text
        self._close = close
        self._direct = direct
        self._close_now = close_now  # ahead of the queue (server/direct_ws.py)
        self._sending = False  # the writer task is inside an (awaited) ASGI send
        # A deque and one future to wake the writer: cheaper than an asyncio.Queue, whose
        # put and get were ~5% of a busy process (four sends per action).
        self._pending: deque[tuple[str, Any]] = deque()
        self._wakeup: asyncio.Future[None] | None = None
        self.closed = False
        self.closed_with: tuple[int, str] | None = None  # (code, reason), by the server
        self._task = asyncio.get_running_loop().create_task(self._writer())

    @property
    def pending(self) -> int:
        """Messages queued and not yet handed to the socket."""
        return len(self._pending)

    def _put(self, item: tuple[str, Any]) -> None:
        self._pending.append(item)
        waiter = self._wakeup
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def send(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            text = dumps(msg)
        except (ValueError, TypeError) as exc:  # not JSON-ready: never send invalid JSON
            log.error("refused to send a message that is not JSON-ready (%s): %.200r", exc, msg)
            return
        self.send_text(text)

    def send_text(self, text: str) -> None:
        """Send a message already encoded (as another process of the site sent it)."""
        if self.closed:
            return
        if (self._direct is not None and not self._pending and not self._sending
                and self._direct(text)):
            return  # nothing queued before it, and the socket took it
        if len(self._pending) > self.MAX_QUEUE:  # a client that does not read
            # Its backlog is dropped: the close goes next, and a reconnection gets a
            # whole fresh state anyway. Queued, the close would wait behind a send that
            # waits for the client to read, that is for ever: it goes out at once where
            # the socket allows it.
            self._pending.clear()
            if self._close_now is not None:
                self.closed = True
                self.closed_with = (4408, "too slow")
                self._close_now(4408, "too slow")
            else:
                self.close(4408, "too slow")
            return
        self._put(("msg", text))

    def close(self, code: int, reason: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self.closed_with = (code, reason)
        self._put(("close", (code, reason)))

    async def _writer(self) -> None:
        loop = asyncio.get_running_loop()
        pending = self._pending
        while True:
            if not pending:
                self._wakeup = loop.create_future()
                await self._wakeup
                self._wakeup = None
                continue
            kind, item = pending.popleft()
            try:
                if kind == "close":
                    await self._close(*item)
                    return
                if self._direct is not None and self._direct(item):
                    continue
                self._sending = True
                await self._send_text(item)  # waits for the socket's buffer to drain
            except Exception:  # noqa: BLE001 - the socket is gone
                self.closed = True
                return
            finally:
                self._sending = False

    def stop(self) -> None:
        self.closed = True
        self._task.cancel()
