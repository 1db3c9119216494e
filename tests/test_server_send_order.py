"""The player whose action it is gets the state that answers it before the other seats:
that player waits for the answer, the others do not (four sends in seat order made the
last seat's player wait for three other sockets' writes first)."""

from __future__ import annotations

import pytest

from colorclash.client import Client
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

pytestmark = pytest.mark.timeout(60)


@pytest.mark.asyncio
async def test_the_actor_is_sent_its_state_first(tmp_path):
    settings = Settings(**LIFTED_LIMITS, bot_workers=0)
    with InProcessServer(f"sqlite:///{tmp_path / 'o.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        host = await c.create_room("Ana", preset="standard", seats=4)
        guests = [await c.join(host["code"], name) for name in ("Bo", "Cy", "Di")]
        conns = [await c.connect(t["code"], t["token"]) for t in (host, *guests)]
        for conn in conns[1:]:
            await conn.send("ready")
        await conns[0].send("start")
        st = await conns[0].wait_state(lambda s: s["room"]["status"] == "playing")
        room = srv.hub.rooms[host["code"]]
        order: list[int] = []
        real = srv.hub.send_all

        def recording(messages):
            seat_of = {id(conn): seat for seat, conn in room.conns.items()}
            order.extend(seat_of[id(conn)] for conn, _ in messages)
            real(messages)

        srv.hub.send_all = recording
        actors = []
        try:
            for _ in range(8):  # several turns: some of them not seat 0's
                order.clear()
                actor = st["view"]["to_act"][0]
                mine = await conns[actor].wait_state(
                    lambda s, seq=st["seq"]: s["seq"] == seq and s["view"] is not None)
                await conns[actor].act(mine["view"]["legal"][0])
                st = await conns[0].wait_state(lambda s, seq=st["seq"]: s["seq"] > seq)
                assert order[0] == actor and sorted(order[:4]) == [0, 1, 2, 3], (actor, order)
                actors.append(actor)
                if not st["view"]["to_act"] or st["room"]["status"] != "playing":
                    break
        finally:
            srv.hub.send_all = real
        assert any(a != 0 for a in actors), actors
        for conn in conns:
            await conn.close()
