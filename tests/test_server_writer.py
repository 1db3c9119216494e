"""Group commit (server/writer.py): writes of many rooms share a commit, an action is
announced only once it is durable, and a failed commit is never announced."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time

import pytest
import websockets

from colorclash.bots import make_bot
from colorclash.client import Client, ClientError
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer
from colorclash.store import StoreError

pytestmark = pytest.mark.timeout(120)


@pytest.mark.asyncio
async def test_many_tables_share_commits_and_every_action_is_stored(tmp_path):
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0)
    with InProcessServer(f"sqlite:///{tmp_path / 'g.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        tickets = [await c.practice(f"P{i}", bots=3, preset="classic-table") for i in range(6)]
        conns = [await c.connect(t["code"], t["token"]) for t in tickets]
        states = await asyncio.gather(*(conn.play(make_bot("easy", seed=i), timeout=90)
                                        for i, conn in enumerate(conns)))
        writer = srv.hub.writer
        assert writer is not None and writer.writes > writer.batches  # batched commits
        for t, st in zip(tickets, states, strict=True):
            stored = srv.hub.store.load_actions(t["code"], 1)
            assert len(stored) == st["seq"]  # everything announced is in the store
        for conn in conns:
            await conn.close()


async def _a_table_where_we_start(c: Client, compact: bool = False, **settings):
    """A 2-seat table against a computer player, dealt so that we play first (the first
    player is drawn by lot): (ticket, our connection, the first state)."""
    for _ in range(30):
        t = await c.create_room("Ana", preset="classic-table", seats=2, **settings)
        me = await c.connect(t["code"], t["token"], compact=compact)
        await me.send("add_bot", seat=1)
        await me.wait_state(lambda s: s["room"]["seats"][1]["kind"] == "bot")
        await me.send("start")
        st = await me.wait_state(lambda s: s["room"]["status"] == "playing")
        if 0 in st["view"]["to_act"]:
            return t, me, st
        await me.close()
    raise AssertionError("no deal in 30 where we play first")


@pytest.mark.asyncio
async def test_a_failed_commit_is_never_announced(tmp_path):
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)  # the computer waits: our turn only
    with InProcessServer(f"sqlite:///{tmp_path / 'f.sqlite3'}", settings) as srv:
        t, me, st = await _a_table_where_we_start(Client(srv.url), compact=True)
        store = srv.hub.store
        real = store.save_many
        calls = {"n": 0}

        def failing(writes):
            calls["n"] += 1
            raise OSError("disk full")

        store.save_many = failing
        srv.hub.writer._save_many = failing
        try:
            await me.act(st["view"]["legal"][0])
            fresh = await me.wait_for(lambda m: m["type"] == "state", timeout=10)
        finally:
            store.save_many = real
            srv.hub.writer._save_many = real
        assert calls["n"] >= 1
        # the action was never announced: the state is the one before it, from the store,
        # whole (a compact socket's states prepared since the failed write were not sent)
        assert fresh["seq"] == 0 and fresh["events"] == []
        assert "room" in fresh and "options" in fresh["view"]
        assert store.load_actions(t["code"], 1) == []
        # and its player is told (the state alone has the seq the player acted on: a
        # client waiting for its action's answer waited for the turn clock)
        told = await me.wait_for(lambda m: m["type"] == "error", timeout=5)
        assert told["code"] == "internal" and told["ref"] == "action"
        assert "could not be stored" in told["message"]
        # and the table goes on
        await me.act(fresh["view"]["legal"][0])
        st = await me.wait_state(lambda s: s["seq"] == 1, timeout=10)
        assert len(store.load_actions(t["code"], 1)) == 1
        await me.close()


@pytest.mark.asyncio
async def test_a_clock_move_the_store_refuses_is_made_again_without_blaming_anyone(tmp_path):
    """A move the server made for a seat (its clock ran out) that the store refused undid
    itself as a player's does, and the player, who had sent nothing, was told "your last
    action could not be stored ... play again". Now the table goes back without a word."""
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0, clock_scale=0.1)  # 15 s: 1.5 s
    with InProcessServer(f"sqlite:///{tmp_path / 'b.sqlite3'}", settings) as srv:
        t, me, st = await _a_table_where_we_start(Client(srv.url))
        real = srv.hub.writer._save_many
        calls = {"n": 0}

        def failing(writes):
            calls["n"] += 1
            raise OSError("disk full")

        srv.hub.writer._save_many = failing
        try:
            back = await me.wait_for(lambda m: m["type"] == "state", timeout=10)
            assert calls["n"] >= 1 and back["seq"] == 0  # the clock's move undone
            with pytest.raises(TimeoutError):  # (what the player was told came with it)
                await me.wait_for(lambda m: m["type"] == "error", timeout=0.5)
        finally:
            srv.hub.writer._save_many = real
        await me.close()


@pytest.mark.asyncio
async def test_a_player_whose_action_the_store_refused_late_gets_time_to_play_again(tmp_path):
    """A store that stalls (Redis paused for 12 s), then refuses: the turn clock ran out
    meanwhile, and the player told "play again" was timed out in the same instant (a
    computer played the turn). The time goes back, as after a restart."""
    scale = 0.2  # the 15 s clock lasts 3 s (the 0.8 s wait and a move fit in it)
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0, clock_scale=scale)
    with InProcessServer(f"sqlite:///{tmp_path / 's.sqlite3'}", settings) as srv:
        t, me, st = await _a_table_where_we_start(Client(srv.url), clock=15)
        store = srv.hub.store
        real = store.save_many

        def stalled(writes):
            time.sleep(15 * scale + 0.5)  # longer than the whole turn
            raise StoreError("the store timed out")

        store.save_many = srv.hub.writer._save_many = stalled
        try:
            await me.act(st["view"]["legal"][0])
            told = await me.wait_for(lambda m: m["type"] == "error", timeout=10)
        finally:
            store.save_many = srv.hub.writer._save_many = real
        assert told["code"] == "internal" and told["ref"] == "action"
        fresh = me.state
        assert fresh["seq"] == 0 and 0 in fresh["view"]["to_act"]
        assert fresh["clock"]["seat"] == 0
        assert fresh["clock"]["remaining_ms"] >= 15 * scale * 1000 - 300  # the turn, whole
        # and the player can play again: nobody plays the turn for them meanwhile
        with pytest.raises(TimeoutError):
            await me.wait_for(lambda m: m["type"] == "state" and m["seq"] > 0, timeout=0.8)
        await me.act(fresh["view"]["legal"][0])
        st = await me.wait_state(lambda s: s["seq"] == 1, timeout=10)
        assert st["events"][0]["type"] != "time_up"
        await me.close()


@pytest.mark.asyncio
async def test_a_room_whose_store_cannot_be_read_is_rebuilt_once_it_can(tmp_path, caplog):
    """A failed write rebuilds the room from the store; with the store unreadable too
    (Redis away), the rebuild raised in a callback and the room went on with the action
    nobody saw stored. Now it waits, tries again, and is rebuilt once the store answers."""
    import logging

    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)
    with InProcessServer(f"sqlite:///{tmp_path / 'r.sqlite3'}", settings) as srv:
        t, me, st = await _a_table_where_we_start(Client(srv.url))
        store = srv.hub.store
        real_save, real_load = store.save_many, store.load_room

        def failing(*args):
            raise OSError("the store is away")

        store.save_many = srv.hub.writer._save_many = failing
        store.load_room = failing
        caplog.set_level(logging.WARNING)
        try:
            await me.act(st["view"]["legal"][0])
            with pytest.raises(TimeoutError):  # nothing is announced meanwhile
                await me.wait_for(lambda m: m["type"] == "state", timeout=1.5)
            assert "the store cannot be read" in caplog.text
            room = srv.hub.rooms[t["code"]]
            assert room.broken
        finally:
            store.save_many = srv.hub.writer._save_many = real_save
            store.load_room = real_load
        fresh = await me.wait_for(lambda m: m["type"] == "state", timeout=10)
        assert fresh["seq"] == 0 and fresh["events"] == []  # what the store holds
        assert not room.broken and "Exception in callback" not in caplog.text
        await me.act(fresh["view"]["legal"][0])
        await me.wait_state(lambda s: s["seq"] == 1, timeout=10)
        assert len(store.load_actions(t["code"], 1)) == 1
        await me.close()


@pytest.mark.asyncio
async def test_a_failed_write_answers_rest_with_the_error_format(tmp_path):
    """A room whose write fails is not handed out: 503 internal, in the error format."""
    with InProcessServer(f"sqlite:///{tmp_path / 'r.sqlite3'}",
                         Settings(**LIFTED_LIMITS)) as srv:
        def failing(writes):
            raise OSError("disk full")

        real = srv.hub.writer._save_many
        srv.hub.writer._save_many = failing
        try:
            with pytest.raises(ClientError) as err:
                await Client(srv.url).create_room("Ana")
        finally:
            srv.hub.writer._save_many = real
        assert (err.value.status, err.value.code) == (503, "internal")
        assert "try again" in str(err.value)
        for _ in range(50):  # the room nobody got (never stored) is not kept either
            if not srv.hub.rooms:
                break
            await asyncio.sleep(0.05)
        assert srv.hub.rooms == {}
        assert (await Client(srv.url).create_room("Ana"))["code"]  # and the site goes on


@pytest.mark.asyncio
async def test_an_in_memory_store_works_with_group_commit():
    """sqlite:///:memory: (for trials): the writer commits on the store's own connection,
    since a second connection to ':memory:' would be another, empty database."""
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0)
    with InProcessServer("sqlite:///:memory:", settings) as srv:
        c = Client(srv.url)
        t = await c.practice("Ana", bots=1, preset="standard")
        async with await c.connect(t["code"], t["token"]) as me:
            st = await me.play(make_bot("easy", seed=3), timeout=60)
        assert len(srv.hub.store.load_actions(t["code"], 1)) == st["seq"]


@pytest.mark.asyncio
async def test_the_writes_of_one_loop_round_share_one_commit():
    """What one round of the event loop writes (at full speed: the actions of every socket
    read in it) is committed at once, in order; a later round's writes come after."""
    from colorclash.server.writer import StoreWriter

    commits: list[list[str]] = []
    writer = StoreWriter(lambda ws: commits.append([w[0] for w in ws]),
                         asyncio.get_running_loop())
    first = [writer.submit((f"R{i}", {}, None, None)) for i in range(10)]
    await asyncio.gather(*first)
    second = [writer.submit((f"S{i}", {}, None, None)) for i in range(3)]
    await asyncio.gather(*second)
    writer.stop()
    assert commits == [[f"R{i}" for i in range(10)], [f"S{i}" for i in range(3)]]
    assert (writer.writes, writer.batches) == (13, 2)


@pytest.mark.asyncio
async def test_a_rebuild_fails_the_room_s_writes_still_queued():
    """Writes made before a room's rebuild hold the room as it was: those still queued (or
    not yet handed over) when the rebuild forgets the room's failure fail there, and are
    never committed; the other rooms' writes and the writes made after it are."""
    import threading

    from colorclash.server.writer import StoreWriter

    commits: list[list[str]] = []
    busy, release = threading.Event(), threading.Event()

    def save_many(writes):
        busy.set()
        release.wait(5)
        commits.append([w[1] for w in writes])

    writer = StoreWriter(save_many, asyncio.get_running_loop())
    first = writer.submit(("R", "r1", None, None))
    await asyncio.sleep(0)  # handed over: the thread takes it and waits in the commit
    assert await asyncio.to_thread(busy.wait, 5)
    queued = writer.submit(("R", "r2", None, None))
    other = writer.submit(("S", "s1", None, None))
    await asyncio.sleep(0)  # handed over, waiting behind the commit
    unsent = writer.submit(("R", "r3", None, None))  # this round's, not handed over
    writer.forget_failure("R")
    for stale in (queued, unsent):
        with pytest.raises(OSError, match="an earlier write failed"):
            await stale
    after = writer.submit(("R", "r4", None, None))
    release.set()
    await asyncio.gather(first, other, after)
    writer.stop()
    assert commits == [["r1"], ["s1", "r4"]] or commits == [["r1"], ["s1"], ["r4"]]


@pytest.mark.asyncio
async def test_stopping_the_writer_commits_the_round_not_yet_handed_over():
    from colorclash.server.writer import StoreWriter

    commits: list[list[str]] = []
    writer = StoreWriter(lambda ws: commits.append([w[0] for w in ws]),
                         asyncio.get_running_loop())
    future = writer.submit(("R1", {}, None, None))
    writer.stop()  # before the loop round ended
    assert commits == [["R1"]]
    await asyncio.wait_for(future, 2)


@pytest.mark.asyncio
async def test_a_refusal_reaches_its_player_after_the_state_that_explains_it(tmp_path):
    """The same action twice, at once: the second is refused (the turn has passed), and
    the player gets the state of the first before that refusal, although the state
    waits for its commit (slowed down here) and the refusal needs none."""
    import time

    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)  # the computer waits
    with InProcessServer(f"sqlite:///{tmp_path / 'o.sqlite3'}", settings) as srv:
        t, me, st = await _a_table_where_we_start(Client(srv.url))
        real = srv.hub.writer._save_many

        def slow(writes):
            time.sleep(0.3)
            return real(writes)

        srv.hub.writer._save_many = slow
        try:
            legal = st["view"]["legal"]
            action = next((a for a in legal if a["type"] == "draw"), legal[0])
            await me.act(action)
            await me.act(action)
            seen = []
            while len(seen) < 2:
                m = await me.recv(timeout=10)
                if m["type"] == "error" or (m["type"] == "state" and m["seq"] > st["seq"]):
                    seen.append(m["type"])
        finally:
            srv.hub.writer._save_many = real
        assert seen == ["state", "error"]
        await me.close()


@pytest.mark.asyncio
async def test_reconnecting_writes_nothing_unless_the_seat_had_left(tmp_path):
    """Who is connected is not stored (a restart counts everyone away from its start): a
    page reloaded in a loop costs no write. A seat that had left, and comes back, is."""
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    with InProcessServer(url, settings) as srv:
        c = Client(srv.url)
        t, me, st = await _a_table_where_we_start(c)
        await me.close()
        await asyncio.sleep(0.1)
        before = srv.hub.writer.writes
        for _ in range(20):
            conn = await c.connect(t["code"], t["token"])
            await conn.wait_state(lambda s: s["room"]["seats"][0]["connected"])
            await conn.close()
        await asyncio.sleep(0.1)
        assert srv.hub.writer.writes == before
        conn = await c.connect(t["code"], t["token"])
        await conn.send("leave")  # playing: a computer substitute takes the seat
        await conn.wait_state(lambda s: s["room"]["seats"][0]["substitute"])
        await conn.close()
        room = srv.hub.rooms[t["code"]]
        assert room.seats[0].left
        conn = await c.connect(t["code"], t["token"])
        await conn.wait_state(lambda s: s["room"]["seats"][0]["connected"])
        await srv.hub.durable(room)
        stored = srv.hub.store.load_room(t["code"])
        assert stored["seats"][0]["left"] is False
        await conn.close()


@pytest.mark.asyncio
async def test_a_socket_opened_while_a_write_fails_still_gets_the_recent_moments(tmp_path):
    """A socket's first state carries the match's recent moments (a reload shows the moves
    so far). Opened while a write was failing, that state was never sent (states wait for
    the write before them), and the state after the rebuild had no ``recent``: the page
    showed no moves. After a rebuild every socket gets ``recent`` again."""
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)
    with InProcessServer(f"sqlite:///{tmp_path / 'o.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        t, me, st = await _a_table_where_we_start(c)
        store = srv.hub.store
        real = store.save_many

        def failing_slowly(writes):
            time.sleep(1.0)  # (in the writer thread: the socket below opens meanwhile)
            raise OSError("disk full")

        store.save_many = srv.hub.writer._save_many = failing_slowly
        try:
            await me.act(st["view"]["legal"][0])
            await asyncio.sleep(0.2)
            again = await c.connect(t["code"], t["token"], record=True, compact=True)
        finally:
            store.save_many = srv.hub.writer._save_many = real
        first = again.state
        assert first["seq"] == 0 and "room" in first  # the table as the store holds it
        assert first["recent"][0]["events"][0]["type"] == "deal"
        states = [m for m in map(json.loads, again.frames) if m["type"] == "state"]
        assert len(states) == 1  # its only state so far: the one after the rebuild
        await again.close()


@pytest.mark.asyncio
async def test_a_deal_drops_rows_a_replaced_deal_of_its_number_left(tmp_path):
    """The write that deals match n starts its log empty in the writer's own transaction
    (not with a DELETE on the event loop, which waited there for the writer's commit): rows
    of an earlier deal of the same number, left in the store, never mix with the match."""
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)  # the computer waits: our turn only
    with InProcessServer(f"sqlite:///{tmp_path / 'd.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        store = srv.hub.store
        stale = [(0, 1, {"type": "draw"}), (1, 0, {"type": "draw"})]
        for _ in range(30):
            t = await c.create_room("Ana", preset="classic-table", seats=2)
            me = await c.connect(t["code"], t["token"])
            await me.send("add_bot", seat=1)
            await me.wait_state(lambda s: s["room"]["seats"][1]["kind"] == "bot")
            store.save_room(t["code"], store.load_room(t["code"]), 1, stale)
            await me.send("start")
            st = await me.wait_state(lambda s: s["room"]["status"] == "playing")
            if 0 in st["view"]["to_act"]:
                break
            await me.close()
        else:
            raise AssertionError("no deal in 30 where we play first")
        action = st["view"]["legal"][0]
        await me.act(action)
        await me.wait_state(lambda s: s["seq"] == 1, timeout=10)
        assert store.load_actions(t["code"], 1) == [(0, action)]  # durable when announced
        await me.close()


@pytest.mark.asyncio
async def test_a_deal_the_store_refuses_takes_the_room_back_to_its_lobby(tmp_path):
    """A deal the store refuses is never shown; the room goes back to what the store holds
    (its lobby), everyone is sent that and told, and the next start deals. (A failed write
    that was not an action's left the room dealt in memory only, its later writes all
    refused and nothing sent, until an action's write failed too.)"""
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)
    with InProcessServer(f"sqlite:///{tmp_path / 'l.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        t = await c.create_room("Ana", preset="classic-table", seats=2)
        me = await c.connect(t["code"], t["token"])
        await me.send("add_bot", seat=1)
        await me.wait_state(lambda s: s["room"]["seats"][1]["kind"] == "bot")
        real = srv.hub.writer._save_many

        def failing(writes):
            raise OSError("disk full")

        srv.hub.writer._save_many = failing
        try:
            await me.send("start")
            # nobody is shown the deal (it was never stored): the room as stored, whole
            back = await me.wait_for(lambda m: m["type"] == "state", timeout=10)
            told = await me.wait_for(lambda m: m["type"] == "error", timeout=5)
        finally:
            srv.hub.writer._save_many = real
        assert back["room"]["status"] == "lobby" and back["view"] is None
        assert back["room"]["match"] == 0 and back["room"]["seats"][1]["kind"] == "bot"
        assert told["code"] == "internal" and "could not be stored" in told["message"]
        assert srv.hub.store.load_room(t["code"])["status"] == "lobby"
        await me.send("start")
        st = await me.wait_state(lambda s: s["room"]["status"] == "playing", timeout=10)
        assert st["room"]["match"] == 1 and st["view"]["hand"]
        await me.close()


@pytest.mark.asyncio
async def test_a_lobby_change_the_store_refuses_is_undone_and_the_next_one_works(tmp_path):
    """A lobby whose write failed once (the store away for a moment) refused every later
    change without a word, for good: now it goes back to what the store holds at once."""
    with InProcessServer(f"sqlite:///{tmp_path / 'c.sqlite3'}",
                         Settings(**LIFTED_LIMITS, bot_delay=30.0)) as srv:
        c = Client(srv.url)
        t = await c.create_room("Ana", preset="classic-table", seats=3)
        me = await c.connect(t["code"], t["token"])
        await me.wait_state(lambda s: s["room"]["status"] == "lobby")
        real = srv.hub.writer._save_many

        def failing(writes):
            raise OSError("the store is away")

        srv.hub.writer._save_many = failing
        try:
            await me.send("add_bot", seat=1)
            back = await me.wait_for(lambda m: m["type"] == "state", timeout=10)
            told = await me.wait_for(lambda m: m["type"] == "error", timeout=5)
        finally:
            srv.hub.writer._save_many = real
        assert back["room"]["seats"][1]["kind"] == "empty"  # as stored: no computer
        assert told["code"] == "internal" and "try again" in told["message"]
        await me.send("add_bot", seat=2)
        st = await me.wait_state(lambda s: s["room"]["seats"][2]["kind"] == "bot")
        assert st["room"]["seats"][1]["kind"] == "empty"
        stored = srv.hub.store.load_room(t["code"])
        assert [s["kind"] for s in stored["seats"]] == ["human", "empty", "bot"]
        await me.close()


@pytest.mark.asyncio
async def test_a_write_made_before_a_rebuild_neither_lands_nor_breaks_the_room_again(tmp_path):
    """A write of the room queued behind a refused action (a clock's, a seat's) holds the
    room as it was before the rebuild: it must not be stored after the rebuild, and its
    failure, coming after the rebuild, is not news (it made the next action's state wait
    for another rebuild, with an error saying that stored action was lost)."""
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)  # the computer waits: our turn only
    with InProcessServer(f"sqlite:///{tmp_path / 's.sqlite3'}", settings) as srv:
        t, me, st = await _a_table_where_we_start(Client(srv.url))
        writer, room = srv.hub.writer, srv.hub.rooms[t["code"]]
        real = writer._save_many

        under_way, release = threading.Event(), threading.Event()

        def slow_failing(writes):
            under_way.set()
            release.wait(10)
            raise OSError("disk full")

        before = srv.hub.store.load_room(t["code"])
        writer._save_many = slow_failing
        try:
            await me.act(st["view"]["legal"][0])
            assert await asyncio.to_thread(under_way.wait, 10)  # the action's commit
            queued = threading.Event()

            def persist():  # (on the server's loop)
                srv.hub.persist(room)
                queued.set()

            writer._loop.call_soon_threadsafe(persist)  # queued behind it
            assert await asyncio.to_thread(queued.wait, 10)
            release.set()
            fresh = await me.wait_for(lambda m: m["type"] == "state", timeout=10)
            told = await me.wait_for(lambda m: m["type"] == "error", timeout=5)
        finally:
            writer._save_many = real
        assert fresh["seq"] == 0 and told["ref"] == "action"
        await asyncio.sleep(0.3)  # the queued write's failure has come back by now
        assert srv.hub.store.load_room(t["code"]) == before  # the queued write did not land
        await me.act(fresh["view"]["legal"][0])
        after = await me.wait_for(lambda m: m["type"] in ("state", "error"), timeout=10)
        assert after["type"] == "state" and after["seq"] == 1
        with pytest.raises(TimeoutError):  # and no word of a lost action
            await me.wait_for(lambda m: m["type"] == "error", timeout=1.0)
        assert len(srv.hub.store.load_actions(t["code"], 1)) == 1
        assert not room.broken
        await me.close()


@pytest.mark.asyncio
async def test_on_redis_a_room_whose_first_write_failed_frees_its_code(redis_db):
    import redis

    with InProcessServer(redis_db, Settings(**LIFTED_LIMITS)) as srv:
        def failing(writes):
            raise OSError("Redis refused it")

        real = srv.hub.writer._save_many
        srv.hub.writer._save_many = failing
        try:
            with pytest.raises(ClientError):
                await Client(srv.url).create_room("Ana")
        finally:
            srv.hub.writer._save_many = real
        for _ in range(50):
            if not srv.hub.rooms:
                break
            await asyncio.sleep(0.05)
        assert srv.hub.rooms == {}
        r = redis.Redis.from_url(redis_db)
        try:
            assert r.keys("cc:code:*") == [] and r.keys("cc:owner:*") == []
        finally:
            r.close()


@pytest.mark.asyncio
async def test_without_group_commit_a_refused_lobby_change_is_undone_too(tmp_path):
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0, group_commit=False)
    with InProcessServer(f"sqlite:///{tmp_path / 'n.sqlite3'}", settings) as srv:
        assert srv.hub.writer is None
        c = Client(srv.url)
        t = await c.create_room("Ana", preset="classic-table", seats=3)
        me = await c.connect(t["code"], t["token"])
        await me.wait_state(lambda s: s["room"]["status"] == "lobby")
        store = srv.hub.store
        real = store.save_room

        def failing(*args, **kwargs):
            raise OSError("disk full")

        store.save_room = failing
        try:
            await me.send("add_bot", seat=1)
            told = await me.wait_for(lambda m: m["type"] == "error", timeout=5)
            back = await me.wait_for(lambda m: m["type"] == "state", timeout=5)
        finally:
            store.save_room = real
        assert told["code"] == "internal"
        assert back["room"]["seats"][1]["kind"] == "empty"  # as stored
        assert srv.hub.rooms[t["code"]].seats[1].kind == "empty"
        await me.send("add_bot", seat=2)
        await me.wait_state(lambda s: s["room"]["seats"][2]["kind"] == "bot")
        assert [s["kind"] for s in store.load_room(t["code"])["seats"]] == [
            "human", "empty", "bot"]
        await me.close()


@pytest.mark.asyncio
async def test_on_redis_a_fenced_lobby_write_hands_the_room_over(redis_db):
    """A lobby change whose write Redis refuses because another owner's epoch fences it
    (here: the epoch raised behind the process's back) is not kept: the process lets the
    room go and closes its sockets (1012), and the player, reconnecting, finds the room as
    stored. (It was swallowed: the process kept its copy, unstorable, for good.)"""
    import redis

    with InProcessServer(redis_db, Settings(**LIFTED_LIMITS, bot_delay=30.0)) as srv:
        c = Client(srv.url)
        t = await c.create_room("Ana", preset="classic-table", seats=3)
        me = await c.connect(t["code"], t["token"])
        await me.wait_state(lambda s: s["room"]["status"] == "lobby")
        r = redis.Redis.from_url(redis_db)
        try:
            r.incr(f"cc:fence:{t['code']}")
        finally:
            r.close()
        await me.send("add_bot", seat=1)
        st = await me.wait_state(lambda s: me.close_code == 1012, timeout=10)
        assert st["room"]["seats"][1]["kind"] == "empty"  # as stored
        await me.send("add_bot", seat=2)
        st = await me.wait_state(lambda s: s["room"]["seats"][2]["kind"] == "bot")
        assert [s["kind"] for s in srv.hub.store.load_room(t["code"])["seats"]] == [
            "human", "empty", "bot"]
        await me.close()


@pytest.mark.asyncio
async def test_health_fails_while_the_store_refuses_its_commits(tmp_path, caplog):
    """A SQLite store on a full disk refused every commit while /healthz answered ok: true,
    so no health check could see it. It answers 503 store_unavailable with the store's
    reason until a commit succeeds again; and one log line says so when it does."""
    import logging

    from colorclash.server.testing import healthz as health

    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)
    with InProcessServer(f"sqlite:///{tmp_path / 'h.sqlite3'}", settings) as srv:
        t, me, st = await _a_table_where_we_start(Client(srv.url), compact=True)
        assert health(srv.url)[0] == 200
        real = srv.hub.writer._save_many

        def full(writes):
            raise StoreError("SQLite did not take 1 write(s): database or disk is full")

        srv.hub.writer._save_many = full
        try:
            await me.act(st["view"]["legal"][0])
            fresh = await me.wait_for(lambda m: m["type"] == "state", timeout=10)
            status, body = health(srv.url)
            assert status == 503 and body["error"]["code"] == "store_unavailable", body
            assert "disk is full" in body["error"]["message"]
        finally:
            srv.hub.writer._save_many = real
        with caplog.at_level(logging.INFO, logger="colorclash.server"):
            await me.act(fresh["view"]["legal"][0])  # room again: the next commit succeeds
            await me.wait_state(lambda s: s["seq"] == 1, timeout=10)
        back = [r.getMessage() for r in caplog.records if "takes writes again" in r.getMessage()]
        assert len(back) == 1 and "its first refused write was 0 s ago" in back[0], back
        assert health(srv.url)[0] == 200
        await me.close()


@pytest.mark.asyncio
async def test_an_idle_writer_tries_the_store_until_it_takes_writes_again(caplog):
    """The store's refusal was over only at the next commit: an idle process stayed 503 on
    /healthz after Redis was back, and a load balancer that sent it nobody kept it so
    (attacker/operator QA). While it refuses and nothing is written, the store's probe is
    tried; the refusal is said as it is now, and its end once."""
    import logging

    from colorclash.server.writer import StoreWriter

    answers = [StoreError("Redis did not take a write: Connection refused"),
               StoreError("Redis did not take a write: Timeout reading from socket")]
    tries = []

    def probe():
        tries.append(time.monotonic())
        if answers:
            raise answers.pop(0)

    def refuse(writes):
        raise StoreError("Redis did not take 1 write(s): Connection refused")

    writer = StoreWriter(refuse, asyncio.get_running_loop(), probe=probe)
    writer.PROBE_S = 0.05
    await asyncio.sleep(0.2)
    assert tries == []  # nothing refused: never tried
    with pytest.raises(OSError):
        await writer.submit(("R1", {}, None, None))
    assert writer.refusing and "Connection refused" in writer.refusing
    with caplog.at_level(logging.INFO, logger="colorclash.server"):
        for _ in range(100):
            await asyncio.sleep(0.02)
            if writer.refusing is None:
                break
    assert writer.refusing is None and len(tries) == 3  # refused twice, then taken
    back = [r.getMessage() for r in caplog.records if "takes writes again" in r.getMessage()]
    assert len(back) == 1, back
    await asyncio.sleep(0.2)
    assert len(tries) == 3  # taken again: no more tries
    writer.stop()


def test_the_stores_probes_write_no_room_and_say_when_refused(tmp_path):
    from colorclash.store import open_store
    from colorclash.store.redis_store import RedisStore

    store = open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}")
    store.save_room("ABCDEF", {"code": "ABCDEF"})
    store.probe()
    store.probe()
    assert store.room_codes() == ["ABCDEF"]
    store.close()
    down = RedisStore.__new__(RedisStore)  # a Redis nobody answers on

    class Refusing:
        def set(self, *args, **kwargs):
            import redis
            raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    down.redis, down.prefix = Refusing(), "cc:"
    with pytest.raises(StoreError, match="Redis did not take a write: Error 111"):
        down.probe()


def test_the_redis_probe_writes_no_room(redis_db):
    from colorclash.store.redis_store import RedisStore

    store = RedisStore(redis_db)
    try:
        store.save_room("ABCDEF", {"code": "ABCDEF"})
        store.probe()
        assert store.room_codes() == ["ABCDEF"] and store.redis.pttl(store.key("probe")) > 0
    finally:
        store.close()


@pytest.mark.asyncio
async def test_an_action_chosen_on_an_old_state_is_refused_when_it_says_so(tmp_path):
    """An action carries no sequence by default: the second action of a double click was
    applied to the table the first made (attacker review). With the state's ``seq`` it is
    refused as stale and nothing is played; without, as before."""
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)
    with InProcessServer(f"sqlite:///{tmp_path / 's.sqlite3'}", settings) as srv:
        for _ in range(30):  # a deal where our draw leaves the turn ours (play or keep)
            t, me, st = await _a_table_where_we_start(Client(srv.url))
            seq = st["seq"]
            await me.act({"type": "draw"}, seq=seq)
            drawn = await me.wait_state(lambda s, seq=seq: s["seq"] == seq + 1)
            if 0 in drawn["view"]["to_act"]:
                break
            await me.close()
        else:
            raise AssertionError("no deal in 30 where a draw keeps the turn")
        await me.act({"type": "draw"}, seq=seq)  # the same click again
        told = await me.wait_for(lambda m: m["type"] == "error", timeout=5)
        assert (told["code"], told["ref"]) == ("stale_action", "action")
        assert f"seq {seq}, now {seq + 1}" in told["message"]
        # the refusal names the move's seq: a client waiting for the answer to a later move
        # knows this one is not it (a bad network review)
        assert told["seq"] == seq
        assert srv.hub.rooms[t["code"]].seq == seq + 1 and me.state is drawn
        # a seq from the future is not said to be one the table moved on from (bot
        # author's review: "moved on since ... seq 8, now 5")
        await me.act({"type": "draw"}, seq=seq + 5)
        told = await me.wait_for(lambda m: m["type"] == "error", timeout=5)
        assert told["code"] == "stale_action" and "moved on" not in told["message"]
        assert told["seq"] == seq + 5
        assert f"seq {seq + 5} is not the table's state (it is at seq {seq + 1} of match 1"  \
            in told["message"]
        await me.close()
        # the room's own refusals come first: in a lobby it is "not_playing", not stale
        lobby = await Client(srv.url).create_room("Bo")
        async with await Client(srv.url).connect(lobby["code"], lobby["token"]) as bo:
            await bo.act({"type": "draw"}, seq=5)
            told = await bo.wait_for(lambda m: m["type"] == "error", timeout=5)
            assert told["code"] == "not_playing" and told["seq"] == 5, told
            await bo.act({"type": "draw"})  # (no seq sent, none said)
            told = await bo.wait_for(lambda m: m["type"] == "error", timeout=5)
            assert told["code"] == "not_playing" and "seq" not in told, told


@pytest.mark.asyncio
async def test_rebuilds_while_the_store_refuses_are_one_log_line_a_while(tmp_path, caplog):
    """A full disk: each room's computer player tried its move again every bot_delay, and
    each refusal's rebuild wrote "room X: a write failed; rebuilt from the store" (418
    lines in 45 s from 6 rooms). It is written once per 30 s like the refusals' lines,
    then with how many like it were left out."""
    import logging

    settings = Settings(**LIFTED_LIMITS, bot_delay=0.15)
    with InProcessServer(f"sqlite:///{tmp_path / 'q.sqlite3'}", settings) as srv:
        t, me, st = await _a_table_where_we_start(Client(srv.url))
        real = srv.hub.writer._save_many
        calls = {"n": 0}

        def full(writes):  # the disk fills up after our move: the computer's is refused
            if not any(seat == 1 for w in writes for _, seat, _ in w[3] or []):
                return real(writes)
            calls["n"] += 1
            raise StoreError("SQLite did not take 1 write(s): database or disk is full")

        caplog.set_level(logging.WARNING, logger="colorclash.server")
        srv.hub.writer._save_many = full
        try:
            # (until it is the computer's turn: a Skip or a Reverse of ours, two players,
            # gave us the turn again, and the computer never moved: a flaky test by deal)
            for seq in range(1, 20):
                await me.act(st["view"]["legal"][0])
                st = await me.wait_state(lambda s, seq=seq: s["seq"] == seq, timeout=10)
                if 0 not in st["view"]["to_act"]:
                    break
            deadline = time.monotonic() + 10
            while calls["n"] < 4 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
        finally:
            srv.hub.writer._save_many = real
        assert calls["n"] >= 4  # the computer's move tried again and again
        rebuilt = [r for r in caplog.records if "rebuilt from the store" in r.getMessage()]
        refused = [r for r in caplog.records if "writes refused" in r.getMessage()]
        assert len(rebuilt) == 1 and len(refused) == 1, [r.getMessage() for r in caplog.records]
        await me.wait_state(lambda s, seq=seq: s["seq"] >= seq + 1, timeout=10)  # it plays on
        await me.close()


async def _alone_in_a_lobby(srv):
    """A client, its room's ticket and its seat's socket, alone in a lobby."""
    c = Client(srv.url)
    t = await c.create_room("Ana", preset="classic-table", seats=3)
    me = await c.connect(t["code"], t["token"])
    await me.wait_state(lambda s: s["room"]["status"] == "lobby")
    return c, t, me


@contextlib.contextmanager
def _slow_commits(srv, seconds: float = 0.6):
    """Each commit of the writer thread takes ``seconds`` more."""
    real = srv.hub.writer._save_many

    def slow(writes):
        time.sleep(seconds)
        real(writes)

    srv.hub.writer._save_many = slow
    try:
        yield
    finally:
        srv.hub.writer._save_many = real


@pytest.mark.asyncio
@pytest.mark.parametrize("store", ["sqlite", "redis"])
async def test_a_lobby_its_last_person_left_is_not_stored_again_by_a_write_in_flight(
        tmp_path, store, request):
    """The only person of a lobby changes a setting and leaves at once: the room was deleted
    on the loop while the change's write was with the writer thread, which stored the room
    again (after a restart it was back, the leaver's token working: concurrency review).
    The delete waits for the room's writes (SQLite: in a thread; its wait for a lock another
    program holds froze the loop 5 s)."""
    url = (f"sqlite:///{tmp_path / 'l.sqlite3'}" if store == "sqlite"
           else request.getfixturevalue("redis_db"))
    with InProcessServer(url, Settings(**LIFTED_LIMITS)) as srv:
        c, t, me = await _alone_in_a_lobby(srv)
        batches = srv.hub.writer.batches
        with _slow_commits(srv):  # the change's commit, still under way as the leave comes
            await me.send("settings", settings={"clock": 45})
            await asyncio.sleep(0.2)  # (its write taken by the thread, committing)
            await me.send("leave")
            await asyncio.sleep(0.1)
            # meanwhile the code is closed: not joined, not loaded back from the store
            # (on Redis its owner took the stored lobby again, the leaver seated)
            with pytest.raises(ClientError) as closed:
                await c.join(t["code"], "Cem")
            assert closed.value.code == "room_not_found"
            with pytest.raises(websockets.ConnectionClosed):
                await c.connect(t["code"], t["token"], reconnect=False)
            # the change's commit done, and the delete after it (a write that landed
            # after the delete would leave the room stored: this would time out)
            deadline = time.monotonic() + 10
            while (srv.hub.writer.batches == batches
                   or srv.hub.store.load_room(t["code"]) is not None):
                assert time.monotonic() < deadline, "the room is still stored"
                await asyncio.sleep(0.05)
        assert t["code"] not in srv.hub.rooms
        assert srv.hub.store.load_room(t["code"]) is None
        assert not srv.hub.store.load_actions(t["code"], 0)
        await me.close()


@pytest.mark.asyncio
async def test_a_socket_whose_room_left_memory_as_it_was_accepted_is_told(tmp_path, monkeypatch):
    """The janitor swept a room (or it was rebuilt) while a socket to it was being accepted:
    the socket was attached to a room nobody tracked any more (no clocks, no computer
    players; its writes stored a deleted room again: concurrency review). It is told the
    room is gone (4404)."""
    from starlette.websockets import WebSocket

    with InProcessServer(f"sqlite:///{tmp_path / 'j.sqlite3'}",
                         Settings(**LIFTED_LIMITS)) as srv:
        c = Client(srv.url)
        t = await c.create_room("Ana", preset="classic-table", seats=3)
        accept = WebSocket.accept

        async def swept_meanwhile(self, *args, **kwargs):
            srv.hub.rooms.pop(t["code"], None)  # (the janitor, between lookup and attach)
            await accept(self, *args, **kwargs)

        monkeypatch.setattr(WebSocket, "accept", swept_meanwhile)
        with pytest.raises(websockets.ConnectionClosed) as refused:
            await c.connect(t["code"], t["token"])
        assert refused.value.rcvd.code == 4404
        assert refused.value.error["code"] == "room_not_found"


@pytest.mark.asyncio
async def test_on_redis_a_closing_lobby_lost_to_another_process_is_not_deleted(redis_db):
    """A stalled process whose lobby another one took (the lease ran out) handled a leave
    that emptied its stale copy: its delete, made once its refused write had dropped the
    room's epoch, was unfenced and deleted the live room of the other process (a review).
    A lobby whose ownership changed while its delete waited is not deleted."""
    with InProcessServer(redis_db, Settings(**LIFTED_LIMITS)) as srv:
        _, t, me = await _alone_in_a_lobby(srv)
        with _slow_commits(srv):
            await me.send("settings", settings={"clock": 45})
            await asyncio.sleep(0.2)
            await me.send("leave")
            await asyncio.sleep(0.1)
            srv.hub.store.epochs.pop(t["code"], None)  # (as Cluster.lost does)
            await asyncio.sleep(2)
        assert srv.hub.store.load_room(t["code"]) is not None  # the other process's
        await me.close()


@pytest.mark.asyncio
async def test_on_redis_a_socket_whose_room_left_memory_as_it_was_accepted_tries_again(
        redis_db, monkeypatch):
    """On Redis a room that left this process's memory while a socket was being accepted
    may live on another process now: the socket is closed 1012 (reconnect), not 4404 (the
    page said the room did not exist, for good: a review), and the next one finds it."""
    from starlette.websockets import WebSocket

    with InProcessServer(redis_db, Settings(**LIFTED_LIMITS)) as srv:
        c = Client(srv.url)
        t = await c.create_room("Ana", preset="classic-table", seats=3)
        accept = WebSocket.accept
        swept = []

        async def swept_once(self, *args, **kwargs):
            if not swept:
                swept.append(srv.hub.rooms.pop(t["code"], None))
            await accept(self, *args, **kwargs)

        monkeypatch.setattr(WebSocket, "accept", swept_once)
        me = await c.connect(t["code"], t["token"])  # (closed 1012 once, then again)
        assert swept == [swept[0]] and swept[0] is not None
        assert me.reconnects == 1 and me.state["room"]["code"] == t["code"]
        await me.close()


@pytest.mark.asyncio
async def test_a_closed_lobby_whose_delete_is_refused_keeps_nobody_and_is_deleted_later(
        tmp_path, monkeypatch):
    """A closed lobby whose delete the store refused came back in memory with no host,
    joinable by its link, and the store still had the one before the leave, the leaver's
    token working after a restart (a review). It is stored emptied before its delete, stays
    closed, and its delete is tried again."""
    from colorclash.server.hub import Hub

    monkeypatch.setattr(Hub, "CLOSE_RETRY_S", 0.5, raising=False)
    with InProcessServer(f"sqlite:///{tmp_path / 'r.sqlite3'}",
                         Settings(**LIFTED_LIMITS)) as srv:
        c, t, me = await _alone_in_a_lobby(srv)
        store = srv.hub.store
        real, refused = store.delete_rooms, []

        def refusing(codes):
            if not refused:
                refused.append(codes)
                raise StoreError("database is locked")
            real(codes)

        store.delete_rooms = refusing
        try:
            await me.send("leave")
            await asyncio.sleep(0.25)
            assert refused  # the first delete was refused
            stored = store.load_room(t["code"])
            assert stored is not None
            assert not any(s["kind"] == "human" for s in stored["seats"])  # nobody's
            with pytest.raises(ClientError) as closed:
                await c.join(t["code"], "Cem")
            assert closed.value.code == "room_not_found"
            assert t["code"] not in srv.hub.rooms
            await asyncio.sleep(1.0)  # tried again
            assert store.load_room(t["code"]) is None
        finally:
            store.delete_rooms = real
        await me.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("store", ["sqlite", "redis"])
async def test_a_closed_lobby_left_stored_is_deleted_at_the_next_start(tmp_path, store, request):
    """A closed lobby whose delete never happened (refused until the process stopped, or a
    death before it) is stored emptied: at the next start it came back with no host,
    joinable by its link (a review). It is deleted instead, and its code says closed."""
    url = (f"sqlite:///{tmp_path / 'n.sqlite3'}" if store == "sqlite"
           else request.getfixturevalue("redis_db"))
    with InProcessServer(url, Settings(**LIFTED_LIMITS)) as srv:
        c, t, me = await _alone_in_a_lobby(srv)

        def refusing(*codes):
            raise StoreError("the store is away")

        if store == "sqlite":
            srv.hub.store.delete_rooms = refusing
        else:
            srv.hub.store.delete_room = refusing
        await me.send("leave")
        await asyncio.sleep(0.5)
        await me.close()
    with InProcessServer(url, Settings(**LIFTED_LIMITS)) as srv:
        assert t["code"] not in srv.hub.rooms
        assert srv.hub.store.load_room(t["code"]) is None
        with pytest.raises(ClientError) as closed:
            await Client(srv.url).join(t["code"], "Cem")
        assert closed.value.code == "room_not_found" and "closed" in closed.value.message


def _refuse_the_next_commit(srv) -> list[str]:
    """The server's next group commit is refused (a full disk); the codes of the rooms it
    held are put in the list returned."""
    real = srv.hub.writer._save_many
    refused: list[str] = []

    def refuse_once(writes):
        if not refused:
            refused.extend(w[0] for w in writes)
            raise StoreError("SQLite did not take 1 write(s): database or disk is full")
        return real(writes)

    srv.hub.writer._save_many = refuse_once
    return refused


@pytest.mark.asyncio
@pytest.mark.parametrize("group_commit", [True, False])
async def test_a_quick_match_seat_is_given_once_its_table_is_stored(tmp_path, group_commit):
    """Quick Match told each ticket its seat as the table was made, before the store had
    it: a first write the store refused dropped the room, and the tickets stayed
    "matched" to a code that was no room, with no way back into the queue (a race
    review). A seat is told once stored; refused, they wait again and get the next table
    (without group commit too, where the refusal came out of the socket's opening, which
    closed, and the tickets waited in no queue: diff review)."""
    settings = Settings(**LIFTED_LIMITS, quick_match_wait=0.0, group_commit=group_commit)
    with InProcessServer(f"sqlite:///{tmp_path / 'q.sqlite3'}", settings) as srv:
        if group_commit:
            refused = _refuse_the_next_commit(srv)
        else:
            refused: list[str] = []
            real_one = srv.hub.store.save_room

            def refuse_the_first_room(code, *args, **kwargs):
                if not refused:
                    refused.append(code)
                    raise StoreError("SQLite did not take the write: database or disk is full")
                return real_one(code, *args, **kwargs)

            srv.hub.store.save_room = refuse_the_first_room
        c = Client(srv.url)
        tickets = await asyncio.gather(*(c.quick_match("standard") for _ in range(2)))
        matched = await asyncio.gather(*(c.wait_for_match(t["ticket"], timeout=10)
                                         for t in tickets))
        assert refused, "the first table's write was never refused"
        code = matched[0]["code"]
        assert matched[1]["code"] == code and code not in refused
        assert srv.hub.store.load_room(code) is not None
        for t in tickets:
            assert (await c.quick_match_status(t["ticket"]))["code"] == code
        async with await c.connect(code, matched[0]["token"]) as me:
            assert me.room["kind"] == "quick-match"


@pytest.mark.asyncio
async def test_a_quick_match_table_the_store_refused_is_tried_again_in_a_second(tmp_path):
    """The retry waited for the queue's timer when one was set: another queue's wait for
    more people (8 s here, 20 s by default) held a refused pair that long (diff review)."""
    settings = Settings(**LIFTED_LIMITS, quick_match_wait=8.0)
    with InProcessServer(f"sqlite:///{tmp_path / 'q.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        base = srv.url.replace("http", "ws")
        waiting = [await c.quick_match("standard") for _ in range(2)]  # 2 of 4: they wait
        async with contextlib.AsyncExitStack() as stack:
            for t in waiting:
                ws = await stack.enter_async_context(websockets.connect(base + t["ws"]))
                assert json.loads(await ws.recv())["type"] == "queue"
            refused = _refuse_the_next_commit(srv)
            pair = [await c.quick_match(game="rainbow") for _ in range(2)]  # a full table
            began = time.monotonic()
            matched = await asyncio.gather(*(c.wait_for_match(t["ticket"], timeout=6)
                                             for t in pair))
            assert refused and time.monotonic() - began < 4
            assert matched[0]["code"] == matched[1]["code"] not in refused
