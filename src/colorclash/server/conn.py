"""One WebSocket's outgoing side: an ordered queue drained by its own task, so that a slow
reader never blocks the room that sends to it (over ``MAX_QUEUE`` queued: closed 4408)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from colorclash.server.protocol import dumps

log = logging.getLogger("colorclash.server")


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
        try:
            text = dumps(msg)
        except (ValueError, TypeError):  # not JSON-ready: never send invalid JSON
            log.error("refused to send a message with a non-finite number: %.200r", msg)
            return
        self.send_text(text)

    def send_text(self, text: str) -> None:
        """Send a message already encoded (as another process of the site sent it)."""
        if self.closed:
            return
        if self._queue.qsize() > self.MAX_QUEUE:  # a client that does not read
            self.close(4408, "too slow")
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
