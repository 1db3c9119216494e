"""Fuzz the WebSocket with thousands of random and malformed frames: the server stays up,
answers each bad frame with a coded error, and every room keeps its cards and its log."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter

import pytest
import websockets

from colorclash.client import Client
from colorclash.engine import new_game, replay
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

pytestmark = pytest.mark.timeout(120)

ERROR_CODES = {
    "bad_json", "bad_version", "unknown_type", "bad_message", "too_large", "rate_limited",
    "not_playing", "not_your_turn", "illegal_action", "substituted", "not_host",
    "not_in_lobby", "bad_settings", "bad_seat", "seat_taken", "room_full", "seats_empty",
    "not_ready", "bad_name", "guest_limit", "internal", "removed",
}
CARDS = ["R7", "W", "W+4", "B-skip", "G+2", "Y-bomb", "R-shield", "X9", "", "R" * 30, "w+4"]
TYPES = ["play", "draw", "keep", "take", "call", "catch", "color", "pass", "timeout", "next",
         "substitute", "fly", "", "PLAY"]


def random_frame(rng: random.Random) -> tuple[str | bytes, bool]:
    """A frame and whether it must be refused (False: it might be a legal action)."""
    kind = rng.randrange(14)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))), True
    if kind == 1:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 40))), True
    if kind == 2:
        return json.dumps([1, 2, {"v": 1}]) if rng.random() < .5 else "null", True
    if kind == 3:
        return json.dumps({"v": rng.choice([0, 2, "1", None, True, 1.5]), "type": "ping"}), True
    if kind == 4:
        return json.dumps({"v": 1, "type": rng.choice(["chat", "", 7, None, "x" * 100])}), True
    if kind == 5:
        return json.dumps({"v": 1, "type": "action", "action": rng.choice(
            [None, 5, "draw", [], {"type": 3}, {"card": "R7"}])}), True
    if kind == 6:
        return json.dumps({"v": 1, "type": "action",
                           "action": {"type": "play", "card": "R7", "evil": True}}), True
    if kind == 7:
        return "{" * rng.randrange(1, 5000), True
    if kind == 8:
        return json.dumps({"v": 1, "type": "ping", "t": "z" * rng.randrange(9000, 20000)}), True
    if kind == 9:
        msg = {"v": 1, "type": rng.choice(["settings", "add_bot", "remove_bot", "start"])}
        if msg["type"] == "settings":
            msg["settings"] = {"seats": rng.choice([1, 7, 3]), "preset": "poker"}
        elif msg["type"] != "start":
            msg["seat"] = rng.choice([-1, 0, 9, "x"])
        # "start" from a host whose match has ended is a legal rematch
        return json.dumps(msg), msg["type"] != "start"
    if kind == 10:
        return json.dumps({"v": 1, "type": "ready", "ready": "yes"}), True
    action: dict = {"type": rng.choice(TYPES)}
    if rng.random() < .7:
        action["card"] = rng.choice(CARDS)
    if rng.random() < .3:
        action["color"] = rng.choice(["R", "G", "Z", "RR"])
    if rng.random() < .2:
        action["target"] = rng.choice([0, 1, 5])
    must_fail = action["type"] in ("timeout", "next", "substitute", "fly", "", "PLAY")
    return json.dumps({"v": 1, "type": "action", "action": action}), must_fail


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "rooms.sqlite3"
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, reconnect_grace=60, rate_per_s=100_000,
                        rate_burst=100_000, hard_max_frame=64 * 1024)
    with InProcessServer(f"sqlite:///{db}", settings) as srv:
        yield srv


def conserved(room) -> None:
    g = room.game
    fresh = new_game("color-clash", preset=room.settings["preset"], seats=room.settings["seats"],
                     seed=room.seed, options=room.options)
    assert Counter(g.all_cards()) == Counter(fresh.all_cards()), "card conservation"


def same_as_stored(server, room) -> None:
    actions = server.hub.store.load_actions(room.code, room.match_no)
    rebuilt = replay("color-clash", actions=actions, preset=room.settings["preset"],
                     seats=room.settings["seats"], seed=room.seed, options=room.options)
    assert rebuilt.log == room.game.log
    for seat in range(room.settings["seats"]):
        assert rebuilt.view(seat) == room.game.view(seat)


async def fuzz_connection(conn, rng: random.Random, frames: int, codes: Counter) -> None:
    for i in range(frames):
        frame, must_fail = random_frame(rng)
        await conn.send_raw(frame)
        await conn.send("ping", t=i)
        errors = []
        while True:
            msg = await conn.recv(timeout=10)
            if msg["type"] == "pong" and msg["t"] == i:
                break
            if msg["type"] == "error":
                errors.append(msg)
        for e in errors:
            assert e["code"] in ERROR_CODES, e
            assert isinstance(e["message"], str) and e["message"]
            codes[e["code"]] += 1
        if must_fail:
            assert len(errors) == 1, (frame if isinstance(frame, str) else "<bytes>", errors)


@pytest.mark.asyncio
async def test_fuzz_frames_get_coded_errors_and_rooms_stay_whole(server):
    c = Client(server.url)
    host = await c.create_room("Ana", preset="standard", seats=2)
    guest = await c.join(host["code"], "Bo")
    lobby = await c.create_room("Cy", preset="siege", seats=3)
    lobby_guest = await c.join(lobby["code"], "Di")
    practice = await c.practice("Ed", bots=3, level="easy", preset="classic-table")
    a = await c.connect(host["code"], host["token"])
    b = await c.connect(host["code"], guest["token"])
    await b.send("ready")
    await a.wait_state(lambda s: s["room"]["seats"][1]["ready"])
    await a.send("start")
    await a.wait_state(lambda s: s["room"]["status"] == "playing")
    lob = await c.connect(lobby["code"], lobby_guest["token"])
    pr = await c.connect(practice["code"], practice["token"])
    lobby_before = await c.room(lobby["code"])
    codes: Counter = Counter()
    try:
        await asyncio.gather(
            fuzz_connection(a, random.Random(1), 900, codes),
            fuzz_connection(b, random.Random(2), 900, codes),
            fuzz_connection(lob, random.Random(3), 600, codes),
            fuzz_connection(pr, random.Random(4), 600, codes),
        )
    finally:
        for conn in (a, b, lob, pr):
            await conn.close()
    assert sum(codes.values()) >= 2000
    for code in ("bad_json", "bad_version", "unknown_type", "bad_message", "too_large",
                 "illegal_action", "not_host"):
        assert codes[code] > 0, code
    assert (await c.request("GET", "/healthz"))["ok"] is True
    after = await c.room(lobby["code"])
    assert after["settings"] == lobby_before["settings"]
    assert [s["kind"] for s in after["seats"]] == [s["kind"] for s in lobby_before["seats"]]
    for code in (host["code"], practice["code"]):
        room = server.hub.rooms[code]
        conserved(room)
        same_as_stored(server, room)


@pytest.mark.asyncio
async def test_refused_connections_and_oversized_frames(server):
    c = Client(server.url)
    t = await c.create_room("Ana")
    ws_base = server.url.replace("http://", "ws://")
    cases = [
        (f"/ws/{t['code']}?token=wrong", {}, 4401, "bad_token"),
        ("/ws/ZZZZZZ?token=x", {}, 4404, "room_not_found"),
        (f"/ws/{t['code']}?token={t['token']}", {"origin": "http://evil.example"}, 4403,
         "bad_origin"),
        ("/ws/quick-match?ticket=nope", {}, 4404, "ticket_not_found"),
    ]
    for path, kw, close_code, err in cases:
        async with websockets.connect(ws_base + path, **kw) as ws:
            msg = json.loads(await ws.recv())
            assert msg["type"] == "error" and msg["code"] == err
            with pytest.raises(websockets.ConnectionClosed) as exc:
                await ws.recv()
            assert exc.value.rcvd.code == close_code
    # Same-origin browsers are welcome.
    async with websockets.connect(ws_base + f"/ws/{t['code']}?token={t['token']}",
                                  origin=server.url) as ws:
        assert json.loads(await ws.recv())["type"] == "welcome"
    # A frame above the hard limit closes the socket (1009); the seat comes back.
    conn = await c.connect(t["code"], t["token"])
    await conn.send_raw("x" * (server.settings.hard_max_frame + 10))
    with pytest.raises(websockets.ConnectionClosed):
        await conn.wait_for(lambda m: False, timeout=5)
    conn = await c.connect(t["code"], t["token"])
    assert conn.seat == 0
    await conn.close()
    assert (await c.request("GET", "/healthz"))["ok"] is True


@pytest.mark.asyncio
async def test_rate_limit_then_flood_close(tmp_path):
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, rate_per_s=5, rate_burst=5, flood_limit=20,
                        flood_window=10)
    with InProcessServer(f"sqlite:///{tmp_path / 'r.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        t = await c.create_room("Ana")
        conn = await c.connect(t["code"], t["token"])
        for i in range(40):
            await conn.send("ping", t=i)
        got: Counter = Counter()
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                msg = await conn.recv(timeout=5)
                got[msg.get("code") or msg["type"]] += 1
        assert got["pong"] >= 5
        # A flood is cut after flood_limit refused messages (200 before).
        assert 10 <= got["rate_limited"] <= 20
        assert got["flood"] == 1
        assert conn.ws.close_code == 4429
        # the room is fine and the seat reconnects
        conn = await c.connect(t["code"], t["token"])
        assert conn.room["code"] == t["code"]
        await conn.close()
