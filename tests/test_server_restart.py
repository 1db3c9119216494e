"""SIGKILL the server during play, start it again: every room, hand, turn and clock
deadline is back, and every acknowledged action is there."""

from __future__ import annotations

import asyncio
import time

import pytest

from colorclash.bots import make_bot
from colorclash.client import Client
from colorclash.server.testing import ServerProcess
from two_seats import two_people_dealt

pytestmark = pytest.mark.timeout(120)


def same(after, before, restarted_ms):
    """The same table; the same deadline, or a later one where less than the restored
    minimum (Hub.RESTORED_CLOCK_AT_LEAST) was left when the server came back."""
    from colorclash.server.hub import Hub

    rest = {k: v for k, v in after.items() if k != "deadline"}
    assert rest == {k: v for k, v in before.items() if k != "deadline"}
    least = restarted_ms + Hub.RESTORED_CLOCK_AT_LEAST * 1000
    assert after["deadline"] == before["deadline"] or (
        before["deadline"] < after["deadline"] <= least + 2000), (after, before, restarted_ms)
    return True


def snapshot(state):
    v = state["view"]
    return {"hand": v["hand"], "counts": v["counts"], "top": v["top"], "turn": v["turn"],
            "seq": state["seq"], "deadline": state["clock"]["deadline"],
            "commitment": state["room"]["commitment"], "phase": v["phase"]}


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    return request.getfixturevalue("redis_db")


@pytest.mark.asyncio
async def test_sigkill_and_restart_keeps_every_room(store_url):
    env = {"COLORCLASH_BOT_DELAY": "0", "COLORCLASH_RECONNECT_GRACE": "60"}
    srv = ServerProcess(store_url, env=env).start()
    assert f"open http://127.0.0.1:{srv.port}/" in srv.output()
    try:
        c = Client(srv.url)
        # A lobby with two people and a computer.
        lobby = await c.create_room("Ana", preset="siege", seats=3, clock=45)
        bo = await c.join(lobby["code"], "Bo")
        # Two tables in play, each stopped on a person's turn.
        tables = [await c.play_now("Cy"), await c.practice("Di", bots=4, level="random",
                                                           preset="classic-table")]
        # A private game between two people, a few moves in.
        host, guest, a, b = await two_people_dealt(c, "Ed", "Flo", preset="standard",
                                                   clock=90)
        bots = {0: make_bot("easy", seed=1), 1: make_bot("easy", seed=2)}
        conns = {0: a, 1: b}
        acked = 0
        for _ in range(6):  # six acknowledged actions, whoever is to act
            turn = a.view["to_act"][0]
            conn = conns[turn]
            await conn.act(bots[turn].act(conn.view, []))
            st = await conn.wait_for(lambda m: m["type"] in ("state", "error"), timeout=10)
            assert st["type"] == "state", st
            acked = st["seq"]
            await a.wait_state(lambda s, n=acked: s["seq"] >= n)
            await b.wait_state(lambda s, n=acked: s["seq"] >= n)
        before = {}
        for t in tables:
            async with await c.connect(t["code"], t["token"]) as me:
                st = await me.wait_state(lambda s, me=me: s["view"]["turn"] == me.seat
                                         and s["view"]["phase"] == "play", timeout=20)
                before[t["code"]] = snapshot(st)
        before[host["code"]] = {0: snapshot(a.state), 1: snapshot(b.state)}
        lobby_before = await c.room(lobby["code"])
        await a.close()
        await b.close()

        srv.kill()
        assert srv.proc.returncode == -9
        srv = ServerProcess(store_url, env=env, port=srv.port).start()
        restarted_ms = time.time() * 1000

        again = await c.room(lobby["code"])
        assert [s["name"] for s in again["seats"]] == ["Ana", "Bo", None]
        assert again["settings"] == lobby_before["settings"]
        async with await c.connect(lobby["code"], bo["token"]) as me:
            assert me.seat == 1
        for t in tables:
            async with await c.connect(t["code"], t["token"]) as me:
                assert same(snapshot(me.state), before[t["code"]], restarted_ms)
        a = await c.connect(host["code"], host["token"])
        b = await c.connect(host["code"], guest["token"])
        assert same(snapshot(a.state), before[host["code"]][0], restarted_ms)
        assert same(snapshot(b.state), before[host["code"]][1], restarted_ms)
        assert a.state["seq"] == acked
        # and the game goes on to the end after the restart
        states = await asyncio.gather(a.play(bots[0], timeout=60), b.play(bots[1], timeout=60))
        assert all(s["room"]["status"] == "finished" for s in states)
        await a.close()
        await b.close()
    finally:
        srv.stop()


def test_a_damaged_room_is_named_in_one_line_at_start_and_keeps_its_code(tmp_path, caplog):
    """A room whose stored document was damaged (edited by hand) was a traceback in the
    log at start, and one stored as ``null`` or ``[]`` was dropped without a word
    (operator QA); now each is one line naming it, the other rooms come back, and its
    code is not given to a new room."""
    import logging

    from colorclash.server.config import Settings
    from colorclash.server.testing import InProcessServer
    from test_cli_rooms import damaged_store

    path = tmp_path / "site.sqlite3"
    doc = {"code": "GOODAA", "kind": "private", "status": "lobby", "match_no": 0,
           "settings": {"game": "color-clash", "preset": "standard", "seats": 2},
           "created": 1000.0, "seats": [{"kind": "human", "name": "Ana"}, {}]}
    rooms = {c: dict(doc, code=c) for c in ("GOODAA", "NOJSON", "NULLLL", "ALISTT")}
    rooms["SEATSN"] = dict(doc, code="SEATSN", seats=5)  # JSON, a field of the wrong type
    damaged_store(path, rooms, {"NOJSON": "'{not json'", "NULLLL": "'null'", "ALISTT": "'[]'"})
    caplog.set_level(logging.ERROR, logger="colorclash.server")
    with InProcessServer(f"sqlite:///{path}", Settings()) as srv:
        hub = srv.hub
        assert "GOODAA" in hub.rooms
        for code in ("NOJSON", "NULLLL", "ALISTT", "SEATSN"):
            assert code not in hub.rooms
            lines = [r for r in caplog.records if code in r.getMessage()]
            assert len(lines) == 1, [r.getMessage() for r in caplog.records]
            assert "its stored document is damaged" in lines[0].getMessage()
            assert lines[0].exc_info is None  # one line, no traceback
            assert hub.code_taken(code)
            # its players are told why, not "no room with code" (an upgrade review)
            status, body = _get(f"{srv.url}/api/rooms/{code}")
            assert status == 404 and body["error"]["reason"] == "not_restored", body
            assert "could not be restored" in body["error"]["message"]
        status, body = _get(f"{srv.url}/api/rooms/ZZZZZZ")
        assert status == 404 and "reason" not in body["error"], body
        srv.hub.store.delete_rooms(["SEATSN"])  # (`colorclash delete-rooms`)
        status, body = _get(f"{srv.url}/api/rooms/SEATSN")
        assert status == 404 and "reason" not in body["error"], body


def _get(url: str) -> tuple[int, dict]:
    import json
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_a_damaged_room_held_elsewhere_is_no_room_to_a_token_check(caplog):
    """With several processes, a socket to a room another process plays checks its token
    against the stored document: one of the wrong shape was a traceback, not the
    one-line damaged-room message and a room_not_found."""
    from types import SimpleNamespace

    from colorclash.server.app import _stored_for_token
    from colorclash.server.protocol import ProtocolError

    def not_found(code):
        return ProtocolError("room_not_found", f"no room with code {code!r}", status=404)

    for stored in ({"code": "SEATSX", "seats": "x", "settings": {}}, None):
        hub = SimpleNamespace(store=SimpleNamespace(load_room=lambda code, d=stored: d),
                              room_not_found=not_found)
        with pytest.raises(ProtocolError) as err:
            _stored_for_token(hub, "SEATSX")
        assert err.value.code == "room_not_found"
    assert "room SEATSX: its stored document is damaged" in caplog.text


@pytest.mark.asyncio
async def test_a_start_while_the_file_is_locked_serves_and_writes_once_it_can(tmp_path):
    """Another program holding the SQLite file locked (``BEGIN EXCLUSIVE``), or a full
    disk, as a server starts with games in progress: the write of each game restored
    raised out of the start, a traceback and exit 3 (after a "rebuilt from the store"
    line). It starts, says the store refuses (/healthz 503, one line), and takes writes
    again once the lock is gone."""
    import subprocess
    import sys

    from colorclash.server.testing import healthz as health

    def until(check, timeout=30.0):
        end = time.monotonic() + timeout
        while not check():
            assert time.monotonic() < end, "timed out"
            time.sleep(0.1)

    db = tmp_path / "locked.sqlite3"
    env = {"COLORCLASH_BOT_DELAY": "30"}  # (the computer waits: nothing else is written)
    with ServerProcess(f"sqlite:///{db}", env={"COLORCLASH_BOT_DELAY": "0"}) as first:
        c = Client(first.url)
        game = await c.practice("Ana", bots=1, level="easy")
        # Ana at the table when the process dies: the store has her present
        me = await c.connect(game["code"], game["token"])
        await me.wait_state(lambda s: s["view"]["turn"] == me.seat
                            and s["view"]["phase"] == "play", timeout=20)
        await me.act(make_bot("easy", seed=1).act(me.view, []))
        await me.wait_for(lambda m: m["type"] in ("state", "error"), timeout=10)
        first.kill()
        await me.close()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1], "
         "isolation_level=None); db.execute('BEGIN EXCLUSIVE'); print('held', flush=True); "
         "sys.stdin.read()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with ServerProcess(f"sqlite:///{db}", env=env) as again:
            until(lambda: health(again.url)[0] == 503)  # (after SQLite's 5 s wait)
            assert "locked" in health(again.url)[1]["error"]["message"]
            holder.stdin.close()
            holder.wait(10)
            until(lambda: health(again.url)[0] == 200)  # (its probe: every 2 s)
            room = await Client(again.url).room(game["code"])
            assert room["status"] == "playing"
            # the person is still away, the write refused at the start or not: a rebuild
            # from the store lost the mark (no substitute, the room's idle time from its
            # creation: diff review)
            until(lambda: "rebuilt from the store" in again.output())
            room = await Client(again.url).room(game["code"])
            ana = next(s for s in room["seats"] if s.get("name") == "Ana")
            assert ana.get("away_since") is not None, ana
            out = again.output()
        assert "rooms restored: 1" in out, out
        assert "Traceback" not in out and "ERROR" not in out, out
        assert "store commit of 1 writes refused" in out, out
        assert "the store takes writes again" in out, out
    finally:
        holder.kill()
        holder.wait()
