"""Compact states (``/ws/{code}?token=…&compact=1``, protocol.md 2.3): ``room``, and
``view.options`` with it, only when the room changed. A compact socket's states, each
filled in from the one before, are exactly what a socket without it is sent; a socket's
first state, and the first after a failed write, are whole; other sockets are unchanged."""

from __future__ import annotations

import json

import pytest

from colorclash.bots import make_bot
from colorclash.client import Client, complete_state
from colorclash.engine import GAMES
from colorclash.server.config import Settings
from colorclash.server.protocol import validate_server_message
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("compact") / "rooms.sqlite3"
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, rate_per_s=10_000,
                        rate_burst=10_000, bot_workers=0)
    with InProcessServer(f"sqlite:///{db}", settings) as srv:
        yield srv


def states(frames: list[str]) -> list[dict]:
    return [m for m in map(json.loads, frames) if m["type"] == "state"]


async def drained(*conns) -> None:
    """Every state on its way to these sockets read (a pong comes after them)."""
    for i, conn in enumerate(conns):
        await conn.send("ping", t=i)
        await conn.wait_for(lambda m, n=i: m["type"] == "pong" and m["t"] == n)


async def play_match(a, b, game: str) -> None:
    conns = {0: a, 1: b}
    level = "easy" if game == "color-clash" else "random"
    bots = {0: make_bot(game, level, seed=3), 1: make_bot(game, level, seed=4)}
    for _ in range(2000):
        if a.room["status"] != "playing":
            return
        if a.view["phase"] == "round_over":
            for conn in conns.values():
                await conn.send("ready")
            await a.wait_state(lambda s: s["view"] is None or s["view"]["phase"] != "round_over"
                               or s["room"]["status"] != "playing", timeout=30)
            continue
        seat = (a.view["to_act"] or b.view["to_act"])[0]
        conn = conns[seat]
        seq = conn.state["seq"]
        await conn.act(bots[seat].act(conn.view, []))
        st = await conn.wait_for(lambda m, n=seq: m["type"] == "error" or (
            m["type"] == "state" and m["seq"] > n), timeout=10)
        assert st["type"] == "state", st
        for other in conns.values():
            await other.wait_state(lambda s, n=st["seq"]: s["seq"] >= n
                                   or s["room"]["status"] != "playing")
    raise AssertionError("the match did not end")


@pytest.mark.asyncio
@pytest.mark.parametrize("game", list(GAMES))
async def test_compact_states_filled_in_are_the_complete_states(server, game):
    c = Client(server.url)
    host = await c.create_room("Ana", game=game, seats=2)
    guest = await c.join(host["code"], "Bo")
    a = await c.connect(host["code"], host["token"], record=True, compact=True)
    b = await c.connect(host["code"], guest["token"], record=True)  # complete states
    await b.send("ready")
    await a.wait_state(lambda s: s["room"]["seats"][1]["ready"])
    await a.send("start")
    for conn in (a, b):
        await conn.wait_state(lambda s: s["room"]["status"] == "playing")
    await play_match(a, b, game)
    # a rematch: a new game, new options object, the room changed
    await b.send("ready")
    await a.send("start")
    await a.wait_state(lambda s: s["room"]["match"] == 2)
    await drained(a, b)
    sent_a, sent_b = states(a.frames), states(b.frames)  # (b did not ask: always whole)
    for msg in sent_a + sent_b:
        validate_server_message(msg)
    # From Bo's first state on, both sockets were sent every state of the room, in order.
    assert len(sent_a) == len(sent_b) + 1
    assert all("room" in s for s in sent_b)
    assert all("options" in s["view"] for s in sent_b if s["view"])
    whole = sent_a[0]
    for raw, full in zip(sent_a[1:], sent_b, strict=True):
        whole = complete_state(raw, whole)
        assert {k: v for k, v in whole.items() if k != "recent"} == \
            {**{k: v for k, v in full.items() if k != "recent"}, "view": whole["view"]}
        if full["view"] is None:
            assert whole["view"] is None
        else:
            assert whole["view"]["options"] == full["view"]["options"]
            assert whole["view"]["seat"] == 0 and full["view"]["seat"] == 1
    # Most states of a match left the room out, and their options with it.
    left_out = [s for s in sent_a if "room" not in s]
    assert len(left_out) > len(sent_a) // 2, (len(left_out), len(sent_a))
    assert all(s["view"] is None or "options" not in s["view"] for s in left_out)
    # The first state of the socket, and the one of each new match, are whole.
    assert "room" in sent_a[0] and "recent" in sent_a[0]
    firsts = [s for s in sent_a if s["events"] and s["events"][0]["type"] == "deal"]
    assert len(firsts) == 2 and all("room" in s and "options" in s["view"] for s in firsts)
    # What the client keeps is whole, and compact frames are the smaller ones.
    assert a.state["room"]["match"] == 2 and "options" in a.state["view"]
    assert sum(map(len, a.frames)) < sum(map(len, b.frames))
    await a.close()
    await b.close()


@pytest.mark.asyncio
async def test_a_compact_socket_opened_again_starts_whole(server):
    c = Client(server.url)
    t = await c.practice("Ana", bots=2)
    a = await c.connect(t["code"], t["token"], compact=True)
    await a.play(make_bot("easy", seed=1), until=lambda s: s["seq"] >= 6, timeout=60)
    await a.close()
    again = await c.connect(t["code"], t["token"], record=True, compact=True)
    first = states(again.frames)[0]
    assert first["room"]["code"] == t["code"] and "options" in first["view"]
    assert "recent" in first
    await again.play(make_bot("easy", seed=2), until=lambda s: s["seq"] >= first["seq"] + 4,
                     timeout=60)
    assert any("room" not in s for s in states(again.frames)[1:])
    assert again.room["code"] == t["code"] and "options" in again.view
    await again.close()

