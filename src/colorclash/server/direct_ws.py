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

A second callable, under ``CLOSE_EXTENSION``, closes the socket at once, ahead of
whatever is queued: a socket that is closed for not reading its messages (4408) would
otherwise get its close frame only after them, that is never.

The protocol also defends the process against two things uvicorn lets through, below the
app (which never sees control frames):

- **pings**: uvicorn writes a pong for every ping, whether or not the peer reads; a client
  sending pings as fast as it could and reading nothing grew the process by 800 MB in 40 s
  and slowed every room. Here a pong is dropped while the socket's buffer is full, and a
  socket sending more than ``MAX_PINGS`` pings in ``PING_WINDOW`` seconds is closed with
  1008 (browsers send none; client libraries one every 20 s or so);
- **invalid UTF-8** in a text frame closes the socket with 1007, as uvicorn does, but
  without writing a traceback to the log for it (anyone could fill the log that way).

Without the extensions (Starlette's test client, another server, an older uvicorn) the
site works the same through ASGI only.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

from colorclash.server.guard import error_response
from colorclash.server.web_guard import SECURITY_HEADERS

#: the scope extension's key: ``scope["extensions"][SEND_EXTENSION](text) -> bool``
SEND_EXTENSION = "colorclash.send_text"
#: ``scope["extensions"][CLOSE_EXTENSION](code, reason)``: close now, ahead of the queue
CLOSE_EXTENSION = "colorclash.close_now"
MAX_PINGS = 30
PING_WINDOW = 10.0  # s
ABORT_AFTER = 1.0  # s a closed socket has to take its close frame before it is cut

try:  # uvicorn >= 0.35
    from uvicorn.protocols.websockets.websockets_sansio_impl import (
        WebSocketsSansIOProtocol as _Base,
    )
    from websockets.datastructures import Headers as _Headers
    from websockets.http11 import Response as _Response
    from websockets.protocol import State as _State
except ImportError:  # pragma: no cover - an older uvicorn: ASGI only
    _Base = None  # type: ignore[assignment, misc]


def _refusal(response: Any) -> Any:
    """A handshake the WebSocket library refuses (no ``Sec-WebSocket-Key``, a version it
    does not speak), answered in the site's error shape and headers: it was the library's
    plain text, the one answer without them."""
    text = response.body.decode("utf-8", "replace").strip().rstrip(".")
    text = text.removeprefix("Failed to open a WebSocket connection: ")
    body = json.dumps({"error": {"code": "bad_request", "message": text or
                                 "the WebSocket handshake is not valid"}}).encode()
    headers = _Headers([("Connection", "close"), ("Content-Length", str(len(body))),
                        ("Content-Type", "application/json"),
                        *((k.decode(), v.decode()) for k, v in SECURITY_HEADERS)])
    for name in ("Sec-WebSocket-Version", "Upgrade"):  # (what the library asked for)
        if name in response.headers:
            headers[name] = response.headers[name]
    return _Response(response.status_code, response.reason_phrase, headers, body)


INVALID_HANDSHAKE = error_response("400 Bad Request", "bad_request",
                                   "the WebSocket handshake is not valid")


def _too_large(answer: bytes) -> bytes:
    """The library's answer to a request line or headers over its limits (8 KiB), in the
    site's error shape and headers; its status kept (414, 431)."""
    try:
        status = HTTPStatus(int(answer.split(b" ", 2)[1]))
    except (IndexError, ValueError):
        return answer
    return error_response(f"{status.value} {status.phrase}", "too_large",
                          "request line or headers over 8 KiB")


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

        _cc_pings = 0
        _cc_ping_window = 0.0

        def handle_connect(self, event: Any) -> None:
            accept = self.conn.accept

            def accept_or_refuse(request: Any) -> Any:
                response = accept(request)
                return response if response.status_code == 101 else _refusal(response)

            self.conn.accept = accept_or_refuse  # (for this one call)
            try:
                super().handle_connect(event)
            finally:
                del self.conn.accept
            scope = getattr(self, "scope", None)
            if scope is not None and not self.close_sent:
                # (the ASGI task made above has not run yet: the scope is still ours)
                scope["extensions"][SEND_EXTENSION] = self.send_text_now
                scope["extensions"][CLOSE_EXTENSION] = self.close_now

        def handle_handshake_exception(self) -> None:
            """The library could not read the handshake: its 414 or 431 (over its limits)
            or uvicorn's 400, in the site's error shape and headers."""
            self.handshake_complete = True
            self.close_sent = True
            output = b"".join(self.conn.data_to_send())
            self.transport.write(_too_large(output) if output else INVALID_HANDSHAKE)
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.handshake_exc is not None and not self.close_sent:
                # The websockets library refused the handshake itself (a request line
                # over 8 KiB: 414; headers too large: 431) and made its answer, but
                # uvicorn sees no event: the answer was never written, the socket stayed
                # open until the header timeout, and uvicorn's shutdown, answering it a
                # 500 on top, raised and stopped the server with a traceback.
                self.transport.write(_too_large(b"".join(self.conn.data_to_send())))
                self.handshake_complete = True
                self.close_sent = True
                self.transport.close()

        def close_now(self, code: int, reason: str = "") -> None:
            """Close with ``code`` now: the close frame goes into the socket's buffer ahead
            of nothing else, and the connection is cut ``ABORT_AFTER`` s later if the peer
            has not read up to it (a peer that reads nothing never would)."""
            if self.disconnected or self.transport.is_closing():
                return
            if not self.close_sent:
                try:
                    self.conn.send_close(code, reason)
                    self.transport.write(b"".join(self.conn.data_to_send()))
                except Exception:  # noqa: BLE001 - the library's state says it is closing
                    pass
                self.close_sent = True
                self.queue.put_nowait({"type": "websocket.disconnect", "code": code,
                                       "reason": reason})
            self.transport.close()
            self.loop.call_later(ABORT_AFTER, self._cut)

        def _cut(self) -> None:
            if not self.disconnected:
                self.transport.abort()

        def handle_ping(self) -> None:
            pong = b"".join(self.conn.data_to_send())  # the library answered already
            now = self.loop.time()
            if now - self._cc_ping_window > PING_WINDOW:
                self._cc_ping_window, self._cc_pings = now, 0
            self._cc_pings += 1
            if self._cc_pings > MAX_PINGS:
                self.close_now(1008, "too many pings")
            elif self.writable.is_set() and not self.transport.is_closing():
                self.transport.write(pong)
            # else: a peer that does not read gets no pongs piling up in memory

        def send_receive_event_to_app(self) -> None:
            if self.curr_msg_data_type == "text":
                data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
                try:
                    bytes(data).decode()
                except UnicodeDecodeError:
                    self.frames = []
                    self.conn.send_close(1007, "invalid UTF-8")
                    self.handle_parser_exception()
                    return
            super().send_receive_event_to_app()

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
