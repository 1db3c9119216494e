"""A socket is only ever bound to a person's seat whose current token it presented: a
leave that frees the seat while a socket is being opened (on this process or, with
several processes, on another one that read the stored room a moment earlier) must not
leave that socket attached, and nothing sent on a freed seat acts for it."""

from __future__ import annotations

import pytest

from colorclash.server.cluster import Cluster
from colorclash.server.config import Settings
from colorclash.server.names import hash_token
from colorclash.server.protocol import ProtocolError, parse_client_message
from colorclash.server.rooms import Hub
from colorclash.store.sqlite import SQLiteStore


@pytest.fixture
def hub(tmp_path):
    store = SQLiteStore(tmp_path / "g.sqlite3")
    h = Hub(store, Settings(bot_delay=0))
    yield h
    for room in h.rooms.values():
        if room.timer:
            room.timer.cancel()
    store.close()


def test_holds_seat_needs_a_person_and_their_current_token(hub):
    room, _, token = hub.create_private("Ana", seats=3)
    _, bo, bo_token = hub.join(room.code, "Bo")
    hub.lobby.seat_bot(room, 2, "easy")
    assert hub.holds_seat(room, 0, hash_token(token))
    assert hub.holds_seat(room, bo, hash_token(bo_token))
    assert not hub.holds_seat(room, bo, hash_token(token))   # another seat's token
    assert not hub.holds_seat(room, 2, hash_token(token))    # a computer's seat
    assert not hub.holds_seat(room, 7, hash_token(token))
    assert not hub.holds_seat(room, 0, None)
    hub.lobby.leave(room, bo)                                # Bo leaves: the seat is free
    assert not hub.holds_seat(room, bo, hash_token(bo_token))


def test_nothing_sent_on_a_seat_that_is_not_a_persons_is_run(hub):
    room, _, _ = hub.create_private("Ana", seats=2)
    hub.lobby.seat_bot(room, 1, "easy")
    for raw in ('{"v":1,"type":"ready","ready":true}', '{"v":1,"type":"leave"}',
                '{"v":1,"type":"start"}'):
        with pytest.raises(ProtocolError) as err:
            hub.handle(room, 1, parse_client_message(raw))
        assert err.value.code == "bad_token"
    assert room.seats[1].kind == "bot" and room.status == "lobby"


@pytest.mark.asyncio  # (an attach schedules the room's timer: the host is away)
async def test_the_owner_refuses_a_proxied_socket_whose_token_no_longer_holds_the_seat(hub):
    room, _, _ = hub.create_private("Ana", seats=2)
    _, bo, bo_token = hub.join(room.code, "Bo")
    cluster = Cluster.__new__(Cluster)   # only what the owner's side of attach uses
    cluster.hub, cluster.remote, cluster.id, sent = hub, {}, "owner", []
    cluster.post = lambda to, m: sent.append((to, m))
    cluster.post_text = lambda to, conn_id, text: sent.append((to, conn_id))
    hub.lobby.leave(room, bo)            # the leave lands first...
    cluster._seat_message({"op": "attach", "code": room.code, "seat": bo, "conn": "c1",
                           "from": "gw", "token_hash": hash_token(bo_token)})
    assert sent == [("gw", {"op": "close", "conn": "c1", "code": 4401,
                            "reason": "this token holds no seat in this room",
                            "from": "owner"})]
    assert bo not in room.conns and cluster.remote == {}   # ...so nothing is attached
    _, again, new_token = hub.join(room.code, "Cy")
    cluster._seat_message({"op": "attach", "code": room.code, "seat": again, "conn": "c2",
                           "from": "gw", "token_hash": hash_token(new_token)})
    assert again in room.conns                            # the seat's new person is
    assert ("gw", "c2") in sent                           # and is welcomed


# ------------------------------------------------------------------ a socket closed under it
class _AsgiSocket:
    """A WebSocket driven straight through the ASGI app: each frame reaches the app
    whenever it reads, also after the app has closed the socket (as a frame already on
    its way, or sent while the close waits behind a backlog the client does not read)."""

    def __init__(self, app, path):
        import asyncio

        p, _, q = path.partition("?")
        self.inbox, self.outbox = asyncio.Queue(), asyncio.Queue()
        scope = {"type": "websocket", "path": p, "raw_path": p.encode(),
                 "query_string": q.encode(), "headers": [(b"host", b"test")],
                 "client": ("127.0.0.1", 5000), "server": ("test", 80), "scheme": "ws",
                 "root_path": "", "subprotocols": [], "asgi": {"version": "3.0"},
                 "extensions": {}}
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.task = asyncio.create_task(app(scope, self.inbox.get, self.outbox.put))

    def send(self, message):
        import json

        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    async def drain(self, wait=0.2):
        import asyncio
        import json

        out = []
        while True:
            try:
                m = await asyncio.wait_for(self.outbox.get(), wait)
            except TimeoutError:
                return out
            out.append(json.loads(m["text"]) if m["type"] == "websocket.send" else m)

    async def stop(self):
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await self.task


@pytest.mark.asyncio
async def test_a_frame_read_after_its_socket_was_closed_acts_for_nobody():
    """Mallory's first socket is replaced by her second, which leaves the lobby; a
    stranger takes the freed seat. A frame the first socket still delivers (it was on its
    way, or the close waited behind messages Mallory never read) must not act for the
    stranger's seat: it was a "leave" that freed it."""
    import asyncio

    import httpx

    from colorclash.server.app import create_app

    app = create_app("sqlite:///:memory:", settings=Settings(bot_delay=0))
    life_in, life_out = asyncio.Queue(), asyncio.Queue()
    life_in.put_nowait({"type": "lifespan.startup"})
    life = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}},
                                   life_in.get, life_out.put))
    assert (await life_out.get())["type"] == "lifespan.startup.complete"
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
    try:
        code = (await http.post("/api/rooms", json={"name": "Hana"})).json()["code"]
        mallory = (await http.post(f"/api/rooms/{code}/join", json={"name": "Mal"})).json()
        first = _AsgiSocket(app, mallory["ws"])
        await first.drain()
        second = _AsgiSocket(app, mallory["ws"])
        await second.drain()
        assert {"type": "websocket.close", "code": 4409, "reason": "replaced"} in \
            await first.drain()
        second.send({"v": 1, "type": "leave"})
        await second.drain()
        victim = (await http.post(f"/api/rooms/{code}/join", json={"name": "Vic"})).json()
        assert victim["seat"] == mallory["seat"]
        for message in ({"v": 1, "type": "leave"}, {"v": 1, "type": "ready"}):
            first.send(message)  # read by the app after it closed this socket
        await first.drain()
        seat = (await http.get(f"/api/rooms/{code}")).json()["seats"][victim["seat"]]
        assert (seat["kind"], seat["name"], seat["ready"]) == ("human", "Vic", False)
        for sock in (first, second):
            await sock.stop()
    finally:
        await http.aclose()
        life_in.put_nowait({"type": "lifespan.shutdown"})
        await life_out.get()
        await life
