"""The WebSocket protocol's direct send (server/direct_ws.py): uvicorn's protocol driven
over an in-memory transport, its frames read back by the websockets library's client."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from colorclash.server import direct_ws
from colorclash.server.direct_ws import (
    CLOSE_EXTENSION,
    MAX_PINGS,
    SEND_EXTENSION,
    DirectSendProtocol,
    ws_protocol,
)

pytestmark = pytest.mark.skipif(DirectSendProtocol is None, reason="uvicorn < 0.35")


class MemoryTransport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.out = bytearray()
        self.closing = False
        self.aborted = False

    def write(self, data: bytes) -> None:
        self.out += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def abort(self) -> None:
        self.closing = True
        self.aborted = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default)

    def take(self) -> bytes:
        data, self.out = bytes(self.out), bytearray()
        return data


async def open_socket(compression: bool) -> tuple[DirectSendProtocol, MemoryTransport,
                                                    ClientProtocol, dict[str, Any]]:
    """A connection accepted by a tiny ASGI app that keeps its scope."""
    seen: dict[str, Any] = {}
    accepted = asyncio.Event()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.update(scope)
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        accepted.set()
        while (await receive())["type"] != "websocket.disconnect":
            pass

    config = uvicorn.Config(app, ws=ws_protocol(), ws_per_message_deflate=compression,
                            lifespan="off", log_level="warning")
    config.load()
    proto = DirectSendProtocol(config=config, server_state=ServerState(), app_state={})
    transport = MemoryTransport()
    proto.connection_made(transport)
    client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws/ABCDEF"), extensions=(
        [ClientPerMessageDeflateFactory()] if compression else None))
    client.send_request(client.connect())
    proto.data_received(b"".join(client.data_to_send()))
    await asyncio.wait_for(accepted.wait(), 5)
    client.receive_data(transport.take())  # the 101 answer
    return proto, transport, client, seen


def texts(client: ClientProtocol, data: bytes) -> list[str]:
    client.receive_data(data)
    return [e.data.decode() for e in client.events_received()
            if isinstance(e, Frame) and e.opcode is Opcode.TEXT]


@pytest.mark.asyncio
@pytest.mark.parametrize("compression", [False, True])
async def test_the_direct_send_writes_frames_the_client_reads(compression) -> None:
    proto, transport, client, scope = await open_socket(compression)
    send = scope["extensions"][SEND_EXTENSION]
    assert client.extensions if compression else not client.extensions
    messages = ["{}", "é" * 70, "x" * 126, "y" * 70_000]  # each length encoding
    for text in messages:
        assert send(text) is True
    assert texts(client, transport.take()) == messages
    proto.connection_lost(None)


@pytest.mark.asyncio
async def test_the_direct_send_refuses_when_the_socket_cannot_take_it() -> None:
    proto, transport, client, scope = await open_socket(False)
    send = scope["extensions"][SEND_EXTENSION]
    proto.pause_writing()  # the buffer is over its high-water mark
    assert send("held") is False and transport.take() == b""
    proto.resume_writing()
    assert send("now") is True and texts(client, transport.take()) == ["now"]
    # once the app has closed the socket, nothing more goes out directly
    await proto.send({"type": "websocket.close", "code": 4000, "reason": "bye"})
    transport.take()
    assert send("late") is False and transport.take() == b""
    proto.connection_lost(None)
    assert send("gone") is False


@pytest.mark.asyncio
async def test_a_connection_lost_mid_game_refuses_the_direct_send() -> None:
    proto, transport, _client, scope = await open_socket(False)
    proto.connection_lost(ConnectionResetError())
    assert scope["extensions"][SEND_EXTENSION]("state") is False
    assert transport.take() == b""


def frames(client: ClientProtocol, data: bytes) -> list[Frame]:
    client.receive_data(data)
    return [e for e in client.events_received() if isinstance(e, Frame)]


def feed(proto: DirectSendProtocol, client: ClientProtocol) -> None:
    proto.data_received(b"".join(client.data_to_send()))


@pytest.mark.asyncio
async def test_pongs_are_dropped_while_the_peer_reads_nothing_and_a_ping_flood_is_closed():
    """uvicorn wrote a pong for every ping into a buffer nobody read: a ping flood grew a
    process by 800 MB in 40 s. Pongs wait for a socket that reads, and past MAX_PINGS
    pings in the window the socket is closed with 1008."""
    proto, transport, client, _scope = await open_socket(False)
    client.send_ping(b"1")
    feed(proto, client)
    assert [f.opcode for f in frames(client, transport.take())] == [Opcode.PONG]
    proto.pause_writing()  # the peer does not read
    for _ in range(5):
        client.send_ping(b"x" * 125)
        feed(proto, client)
    assert transport.take() == b""  # no pongs piling up
    proto.resume_writing()
    for _ in range(MAX_PINGS):
        client.send_ping(b"y")
        feed(proto, client)
    got = frames(client, transport.take())
    assert got[-1].opcode is Opcode.CLOSE and client.close_rcvd.code == 1008
    assert transport.closing
    proto.connection_lost(None)


@pytest.mark.asyncio
async def test_invalid_utf8_closes_1007_without_a_traceback_in_the_log(caplog):
    proto, transport, client, _scope = await open_socket(False)
    client.send_text(b"\xff\xfe not text")
    with caplog.at_level("INFO"):
        feed(proto, client)
    frames(client, transport.take())
    assert client.close_rcvd is not None and client.close_rcvd.code == 1007
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    proto.connection_lost(None)


@pytest.mark.asyncio
async def test_closing_now_goes_ahead_of_a_full_buffer_and_cuts_a_peer_that_never_reads(
        monkeypatch):
    monkeypatch.setattr(direct_ws, "ABORT_AFTER", 0.05)
    proto, transport, client, scope = await open_socket(False)
    proto.pause_writing()  # full: the ASGI send would wait for ever
    scope["extensions"][CLOSE_EXTENSION](4408, "too slow")
    frames(client, transport.take())
    assert client.close_rcvd.code == 4408 and transport.closing
    await asyncio.sleep(0.2)
    assert not proto.tasks  # the app was told of the disconnect and has ended
    assert transport.aborted  # the peer never read its close: the connection is cut
