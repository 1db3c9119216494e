"""uvicorn's WebSocket protocol with a direct send for the states a room sends.

Through ASGI one outgoing message is a chain of awaits (Starlette's ``WebSocket.send``, the
exception middleware's sender, uvicorn's ``send`` waiting for the transport to be
writable) plus a wake-up of the socket's writer task (``server/conn.py``), and a 4-seat
room sends 4 states per action. Measured with the benchmark's room echo at full speed,
that path costs about twice the CPU of framing the message and writing it to the
transport at once (``docs/benchmarks.md``).

The protocol below is uvicorn's own ``websockets-sansio`` protocol with one addition: each
accepted connection's scope carries a callable under ``SEND_EXTENSION`` that frames a text
message and writes it to the transport now, returning ``True``; or does nothing and
returns ``False`` when it may not (the handshake is not done, a close was sent, the
peer is gone, or the transport's buffer is over its high-water mark). On ``False`` the
caller takes the ASGI path, which waits for the buffer to drain, so a slow reader is
handled as before (its queue grows, and over ``Conn.MAX_QUEUE`` it is closed). Everything
else (the handshake, reading, pings, closing, the ASGI ``send``) is uvicorn's.

Without the extension (Starlette's test client, another server, an older uvicorn) the
site works the same through ASGI only.
"""

from __future__ import annotations

from typing import Any

#: the scope extension's key: ``scope["extensions"][SEND_EXTENSION](text) -> bool``
SEND_EXTENSION = "colorclash.send_text"

try:  # uvicorn >= 0.35
    from uvicorn.protocols.websockets.websockets_sansio_impl import (
        WebSocketsSansIOProtocol as _Base,
    )
    from websockets.protocol import State as _State
except ImportError:  # pragma: no cover - an older uvicorn: ASGI only
    _Base = None  # type: ignore[assignment, misc]


def _frame_header(length: int) -> bytes:
    """The header of one final, unmasked text frame (RFC 6455 5.2) of ``length`` bytes."""
    if length < 126:
        return bytes((0x81, length))
    if length < 65536:
        return bytes((0x81, 126)) + length.to_bytes(2, "big")
    return bytes((0x81, 127)) + length.to_bytes(8, "big")


if _Base is not None:
    class DirectSendProtocol(_Base):  # type: ignore[misc, valid-type]
        """uvicorn's WebSocket protocol plus a synchronous ``send_text`` for the app."""

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None and not self.close_sent:
                # (the ASGI task made above has not run yet: the scope is still ours)
                scope["extensions"][SEND_EXTENSION] = self.send_text_now

        def send_text_now(self, text: str) -> bool:
            """Write ``text`` as one frame now; ``False``: not sent (use ASGI's send)."""
            if (self.close_sent or self.disconnected or not self.handshake_complete
                    or not self.writable.is_set() or self.transport.is_closing()
                    or self.conn.state is not _State.OPEN):
                return False
            data = text.encode()
            if self.conn.extensions:  # per-message compression: its state is the library's
                self.conn.send_text(data)
                self.transport.write(b"".join(self.conn.data_to_send()))
            else:
                self.transport.write(_frame_header(len(data)) + data)
            return True
else:  # pragma: no cover
    DirectSendProtocol = None  # type: ignore[assignment, misc]


def ws_protocol() -> Any:
    """What ``uvicorn.Config(ws=...)`` gets: the direct-send protocol, or ``"auto"``."""
    return DirectSendProtocol if DirectSendProtocol is not None else "auto"
