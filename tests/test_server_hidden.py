"""Hidden information on the wire: across many full games, no raw frame sent to a player
names a card that player may not see, and the seed never leaves before the match ends."""

from __future__ import annotations

import asyncio
import json

import pytest

from colorclash.bots import make_bot
from colorclash.client import Client
from colorclash.engine.cards import FACES
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

pytestmark = pytest.mark.timeout(180)

CARD_NAMES = set(FACES)
PUBLIC_CARD_EVENTS = {"play", "shield_up", "shield_wasted"}
SECRET_KEYS = {"hands", "draw_pile", "seed", "initial_order", "token", "token_hash"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("hidden") / "rooms.sqlite3"
    # Test clients play at machine speed: lift the per-connection rate limit.
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, next_round_delay=0.2, reconnect_grace=60,
                        rate_per_s=10_000, rate_burst=10_000)
    with InProcessServer(f"sqlite:///{db}", settings) as srv:
        yield srv


def walk(obj, path=()):
    """Yield (path, string) for every string value and every key in a JSON object."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield (*path, k), k
            yield from walk(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, (*path, i))
    elif isinstance(obj, str):
        yield path, obj


def check_frames(frames: list[str], seed: str) -> int:
    """Check one seat's frames in order; returns how many cards were looked at."""
    public: set[str] = set()
    looked = 0
    finished = False
    for raw in frames:
        msg = json.loads(raw)
        if msg["type"] == "state" and msg["room"]["status"] == "finished":
            finished = True
        if not finished:
            assert seed not in raw, "the seed was sent before the match ended"
        if msg["type"] != "state":
            continue
        view = msg["view"] or {}
        own = set(view.get("hand") or [])
        if view.get("drawn"):
            own.add(view["drawn"])
        seen_now = set(own)
        if view.get("top"):
            public.add(view["top"])
        for e in msg["events"]:
            # cards put on the table for all to see: played, or standing as a Shield
            if e.get("type") in PUBLIC_CARD_EVENTS and isinstance(e.get("card"), str):
                public.add(e["card"])
        for m in msg.get("recent") or []:
            # a socket's first state: the moments before it, each as it was broadcast
            # (the discard turned up by a deal or a flip was the top then)
            for e in m["events"]:
                if e.get("type") in PUBLIC_CARD_EVENTS and isinstance(e.get("card"), str):
                    public.add(e["card"])
                if e.get("type") in ("deal", "flip") and isinstance(e.get("top"), str):
                    public.add(e["top"])
        for path, value in walk(msg):
            revealed = finished and path and path[-1] == "seed"  # game_over reveals it
            if path and path[-1] in SECRET_KEYS and path[0] != "room" and not revealed:
                raise AssertionError(f"secret key {path} in a frame")
            if value in CARD_NAMES:
                looked += 1
                assert value in seen_now or value in public, (
                    f"card {value} at {'/'.join(map(str, path))} is not visible to seat "
                    f"{view.get('seat')}")
        if not finished:
            assert msg["room"]["seed"] is None
    return looked


async def play_recorded(c: Client, tickets, seed: int):
    conns = [await c.connect(t["code"], t["token"], record=True) for t in tickets]
    try:
        bots = [make_bot("easy", seed=seed + i) for i in range(len(conns))]
        await asyncio.gather(*(cn.play(b, timeout=120) for cn, b in zip(conns, bots,
                                                                          strict=True)))
    finally:
        for cn in conns:
            await cn.close()
    record = await c.record(tickets[0]["code"])
    return [cn.frames for cn in conns], record["seed"]


async def private_table(c: Client, preset: str, people: int, match: str | None = None):
    extra = {"match": match} if match else {}
    host = await c.create_room("P0", preset=preset, seats=people, **extra)
    tickets = [host] + [await c.join(host["code"], f"P{i}") for i in range(1, people)]
    conns = [await c.connect(host["code"], t["token"]) for t in tickets]
    for cn in conns[1:]:
        await cn.send("ready")
    await conns[0].wait_state(lambda s: all(x["ready"] for x in s["room"]["seats"]))
    for cn in conns:
        await cn.close()
    return tickets


@pytest.mark.asyncio
async def test_no_frame_shows_a_card_its_seat_may_not_see(server):
    c = Client(server.url)
    games = []
    # People only: every seat's frames are checked.
    for i, (preset, people, match) in enumerate([("classic-table", 3, None),
                                                 ("standard", 4, None),
                                                 ("siege", 2, None),
                                                 ("family", 3, "3")]):
        tickets = await private_table(c, preset, people, match)
        host = await c.connect(tickets[0]["code"], tickets[0]["token"])
        await host.send("start")
        await host.wait_state(lambda s: s["room"]["status"] == "playing")
        await host.close()
        games.append((tickets, 100 * i))
    # Practice tables: one person among computers.
    for i, preset in enumerate(["classic-table", "standard", "siege", "classic-table"]):
        t = await c.practice("Solo", bots=3 + i % 3, level="easy", preset=preset)
        games.append(([t], 1000 + i))
    looked = 0
    for tickets, seed in games:
        frames_per_seat, game_seed = await play_recorded(c, tickets, seed)
        assert game_seed and len(game_seed) >= 32
        for frames in frames_per_seat:
            assert frames, "every seat received frames"
            looked += check_frames(frames, game_seed)
    assert looked > 1000, "the check looked at many cards"


def test_the_check_catches_a_leak():
    """The checker itself fails when a frame names a card outside the seat's sight."""
    room = {"status": "playing", "seed": None}
    ok = {"v": 1, "type": "state", "room": room, "events": [],
          "view": {"seat": 0, "hand": ["R1"], "top": "G5", "counts": [1, 1]}}
    leak = {**ok, "view": {**ok["view"], "counts": [1, 1], "peek": ["B7"]}}
    assert check_frames([json.dumps(ok)], "s" * 64) >= 2
    with pytest.raises(AssertionError):
        check_frames([json.dumps(ok), json.dumps(leak)], "s" * 64)
    with pytest.raises(AssertionError):
        check_frames([json.dumps({**ok, "view": {**ok["view"], "hands": [["R1"]]}})], "x" * 64)
