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


def test_the_owner_refuses_a_proxied_socket_whose_token_no_longer_holds_the_seat(hub):
    room, _, _ = hub.create_private("Ana", seats=2)
    _, bo, bo_token = hub.join(room.code, "Bo")
    cluster = Cluster.__new__(Cluster)   # only what the owner's side of attach uses
    cluster.hub, cluster.remote, sent = hub, {}, []
    cluster.post = lambda to, m: sent.append((to, m))
    cluster.post_text = lambda to, conn_id, text: sent.append((to, conn_id))
    hub.lobby.leave(room, bo)            # the leave lands first...
    cluster._seat_message({"op": "attach", "code": room.code, "seat": bo, "conn": "c1",
                           "from": "gw", "token_hash": hash_token(bo_token)})
    assert sent == [("gw", {"op": "close", "conn": "c1", "code": 4401,
                            "reason": "this token holds no seat in this room"})]
    assert bo not in room.conns and cluster.remote == {}   # ...so nothing is attached
    _, again, new_token = hub.join(room.code, "Cy")
    cluster._seat_message({"op": "attach", "code": room.code, "seat": again, "conn": "c2",
                           "from": "gw", "token_hash": hash_token(new_token)})
    assert again in room.conns                            # the seat's new person is
    assert ("gw", "c2") in sent                           # and is welcomed
