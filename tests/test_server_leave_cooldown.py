"""Leaving in the middle of one's own turn in a game whose seat can be taken back at once
(Coloretto, Rainbow): the computer substitute does not move before the turn's clock runs
out, so ``leave`` then a reconnection is not a way to have the computer choose the move."""

from __future__ import annotations

import asyncio

import pytest

from colorclash.client import Client
from colorclash.server.clocks import steady_wall
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer
from two_seats import two_people_dealt

pytestmark = pytest.mark.timeout(60)

SCALE = 0.05  # a 30 s turn clock lasts 1.5 s


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("leave") / "rooms.sqlite3"
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, clock_scale=SCALE, reconnect_grace=60)
    with InProcessServer(f"sqlite:///{db}", settings) as srv:
        yield srv


async def two_people(server, game):
    c = Client(server.url)
    return (c, *await two_people_dealt(c, game=game, clock=30))


@pytest.mark.asyncio
@pytest.mark.parametrize("game", ["rainbow", "coloretto"])
async def test_a_seat_left_in_its_turn_is_played_when_the_turn_runs_out(server, game):
    c, host, guest, a, b = await two_people(server, game)
    try:
        turn = a.state["view"]["turn"]
        leaver, other = (a, b) if turn == 0 else (b, a)
        token = host["token"] if turn == 0 else guest["token"]
        # (the server's own deadline: now + remaining_ms is late by the state's age)
        deadline = a.state["clock"]["deadline"] / 1000
        seq = other.state["seq"]
        await leaver.send("leave")
        await other.wait_state(lambda s: s["room"]["seats"][turn]["substitute"], timeout=5)
        await asyncio.sleep(0.4)  # before, the substitute moved at once (bot delay 0)
        assert other.state["view"]["turn"] == turn
        assert not any(e.get("seat") == turn and e["type"] not in ("left", "substitute")
                       for e in other.state["events"]), other.state["events"]
        st = await other.wait_state(lambda s: s["seq"] > seq + 1 and any(
            e["type"] == "time_up" or (e.get("seat") == turn
                                       and e["type"] not in ("left", "substitute"))
            for e in s["events"]), timeout=10)
        moved_at = steady_wall()  # (the in-process server's own time)
        assert moved_at >= deadline - 0.2, (moved_at, deadline)
        assert st["room"]["seats"][turn]["substitute"]
        # the player comes back: the seat is theirs again
        back = await c.connect(host["code"], token)
        await back.wait_state(lambda s: not s["room"]["seats"][turn]["substitute"], timeout=5)
        await back.close()
    finally:
        await a.close()
        await b.close()
