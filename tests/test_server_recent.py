"""A socket that opens in mid-match (a reload, a reconnection) gets the match's recent
moments in its first ``state`` (``recent``): the same public events every seat was sent
live, bounded, on the first state only, identical for every seat (no private fact), and
rebuilt by replay after a restart."""

from __future__ import annotations

import json

import pytest

from colorclash.bots import make_bot
from colorclash.client import Client
from colorclash.engine import GAMES
from colorclash.engine.cards import FACES
from colorclash.server.config import Settings
from colorclash.server.hub import Hub
from colorclash.server.model import RECENT_MOMENTS
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer
from colorclash.store import open_store

pytestmark = pytest.mark.timeout(180)

ACTIONS = 40  # more moments than RECENT_MOMENTS in most games
PUBLIC_CARD_EVENTS = {"play", "shield_up", "shield_wasted"}
SECRET_KEYS = {"hands", "hand", "draw_pile", "supply", "deck", "seed", "initial_order",
               "token", "token_hash"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("recent") / "rooms.sqlite3"
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, reconnect_grace=60,
                        rate_per_s=10_000, rate_burst=10_000, bot_workers=0)
    with InProcessServer(f"sqlite:///{db}", settings) as srv:
        srv.store_url = f"sqlite:///{db}"
        yield srv


def moments(frames: list[str]) -> list[dict]:
    """The moments a socket was sent live: each state's seq and events (when it has any)."""
    out = []
    for raw in frames:
        msg = json.loads(raw)
        if msg["type"] == "state" and msg["events"]:
            out.append({"seq": msg["seq"], "events": msg["events"]})
    return out


def states(frames: list[str]) -> list[dict]:
    return [m for m in map(json.loads, frames) if m["type"] == "state"]


def walk(obj, path=()):
    """(path, value) of every key and every string value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield (*path, k), v
            yield from walk(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, (*path, i))


def check_private(game: str, recent: list[dict], frames: list[str], first: dict) -> None:
    """Nothing in ``recent`` that this seat could not see: no secret key holding more than
    a count, no seed before the match ends, and (Color Clash) no card outside the seat's
    own hand and the cards put on the table for all to see."""
    finished = first["room"]["status"] == "finished"
    for path, value in walk(recent):
        key = path[-1]
        if key in SECRET_KEYS and not isinstance(value, (int, bool)) and value is not None:
            assert finished and key == "seed", f"secret key {path} in recent"
    if not finished:
        assert first["room"]["seed"] is None
        assert first["room"]["seed"] is None or first["room"]["seed"] not in json.dumps(recent)
    if game != "color-clash":
        return
    public: set[str] = set()
    for msg in [*states(frames), first]:
        if msg["view"] and msg["view"].get("top"):
            public.add(msg["view"]["top"])
        for e in msg["events"]:
            if e.get("type") in PUBLIC_CARD_EVENTS and isinstance(e.get("card"), str):
                public.add(e["card"])
    own = set(first["view"]["hand"])
    looked = 0
    for path, value in walk(recent):
        if isinstance(value, str) and value in FACES:
            looked += 1
            assert value in public | own, f"card {value} at {path} is not visible"
    assert looked


async def two_people(c: Client, game: str):
    host = await c.create_room("Ana", game=game, seats=2)
    guest = await c.join(host["code"], "Bo")
    a = await c.connect(host["code"], host["token"], record=True)
    b = await c.connect(host["code"], guest["token"], record=True)
    assert a.state["recent"] == [] and b.state["recent"] == []  # a lobby has none
    await b.send("ready")
    await a.wait_state(lambda s: s["room"]["seats"][1]["ready"])
    await a.send("start")
    await a.wait_state(lambda s: s["room"]["status"] == "playing")
    await b.wait_state(lambda s: s["room"]["status"] == "playing")
    return host, guest, a, b


async def play(a, b, game: str, n: int) -> int:
    """``n`` actions (or to the end), each acknowledged to both seats; the last seq."""
    conns = {0: a, 1: b}
    bots = {0: make_bot(game, "random" if game != "color-clash" else "easy", seed=1),
            1: make_bot(game, "random" if game != "color-clash" else "easy", seed=2)}
    seq = a.state["seq"]
    for _ in range(n):
        if a.room["status"] != "playing":
            break
        to_act = a.view["to_act"] or b.view["to_act"]
        if not to_act:
            break
        seat = to_act[0]
        conn = conns[seat]
        await conn.act(bots[seat].act(conn.view, []))
        st = await conn.wait_for(lambda m, n=seq: m["type"] == "error" or (
            m["type"] == "state" and m["seq"] > n), timeout=10)
        assert st["type"] == "state", st
        seq = st["seq"]
        await a.wait_state(lambda s, n=seq: s["seq"] >= n)
        await b.wait_state(lambda s, n=seq: s["seq"] >= n)
    return seq


@pytest.mark.asyncio
@pytest.mark.parametrize("game", list(GAMES))
async def test_a_second_socket_gets_the_recent_moments_on_its_first_state(server, game):
    c = Client(server.url)
    host, guest, a, b = await two_people(c, game)
    await play(a, b, game, ACTIONS)
    await b.close()
    b2 = await c.connect(host["code"], guest["token"], record=True)
    first = b2.state
    recent = first["recent"]
    # What both seats were sent live, up to this state (a clock may act meanwhile).
    await a.wait_state(lambda s: s["seq"] >= first["seq"])
    live = [m for m in moments(a.frames) if m["seq"] <= first["seq"]]
    assert live == [m for m in moments(b.frames) if m["seq"] <= first["seq"]]
    assert len(live) >= 5
    assert recent == live[-RECENT_MOMENTS:], "recent is the last moments sent live"
    assert len(recent) <= RECENT_MOMENTS
    if len(live) > RECENT_MOMENTS:
        assert len(recent) == RECENT_MOMENTS
    else:
        assert recent[0]["events"][0] == {"type": "deal", "match": 1,
                                          "commitment": first["room"]["commitment"]}
    check_private(game, recent, b.frames, first)
    # The same moments for the other seat: nothing in them depends on who asks.
    await a.close()
    a2 = await c.connect(host["code"], host["token"])
    assert [m for m in a2.state["recent"] if m["seq"] <= first["seq"]] == \
        recent[len(recent) - len([m for m in a2.state["recent"]
                                  if m["seq"] <= first["seq"]]):]
    # Only the first state of a socket carries them.
    later = states(a.frames)[1:] + states(b.frames)[1:]
    assert later and all("recent" not in s for s in later)
    if first["room"]["status"] == "playing":
        await play(a2, b2, game, 2)
        assert all("recent" not in s for s in states(b2.frames)[1:])
        first_seq = first["seq"]
        new = [m for m in moments(b2.frames) if m["seq"] > first_seq]
        assert new, "the moves after the reconnection arrive as events"
    # After a restart the list is rebuilt by replaying the stored log.
    store = open_store(server.store_url)
    try:
        hub = Hub(store, Settings(bot_workers=0))
        room = hub.stored_room(host["code"])
        hub.rebuild_game(room)
        rebuilt = json.loads(hub.recent_json(room))
    finally:
        close = getattr(store, "close", None)
        if close:
            close()
    await a2.close()
    await b2.close()
    final = live + [m for m in moments(b2.frames) if m["seq"] > first["seq"]]
    assert rebuilt == final[-RECENT_MOMENTS:]


@pytest.mark.asyncio
async def test_a_new_match_starts_with_no_recent_moments(server):
    c = Client(server.url)
    host, guest, a, b = await two_people(c, "rainbow")
    await play(a, b, "rainbow", 500)
    assert a.room["status"] == "finished"
    await b.send("ready")
    await a.send("start")
    st = await a.wait_state(lambda s: s["room"]["match"] == 2)
    await b.close()
    b2 = await c.connect(host["code"], guest["token"])
    recent = b2.state["recent"]
    assert recent and all(m["seq"] <= b2.state["seq"] for m in recent)
    assert recent[0]["events"][0] == {"type": "deal", "match": 2,
                                      "commitment": st["room"]["commitment"]}
    assert not any(e["type"] == "game_over" for m in recent for e in m["events"])
    await a.close()
    await b2.close()
