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

from colorclash.server.direct_ws import SEND_EXTENSION, DirectSendProtocol, ws_protocol

pytestmark = pytest.mark.skipif(DirectSendProtocol is None, reason="uvicorn < 0.35")


class MemoryTransport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.out = bytearray()
        self.closing = False

    def write(self, data: bytes) -> None:
        self.out += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

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
