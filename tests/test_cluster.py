"""Several server processes on one Redis (issue 17): players of one room on different
processes, the owner killed (SIGKILL) in mid-game again and again with every acknowledged
action checked, a paused owner fenced off, and a clock deadline that fires once."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import time
import urllib.request

import pytest

from colorclash.bots import make_bot
from colorclash.client import Client, ClientError
from colorclash.fairness import log_hash, match_rules
from colorclash.server.testing import LIFTED_LIMITS_ENV, ServerProcess, healthz
from colorclash.verify import verify_record
from redis_server import RedisServer, available

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]

ENV = {"COLORCLASH_BOT_DELAY": "0.05", "COLORCLASH_RECONNECT_GRACE": "120",
       "COLORCLASH_LEASE_TTL": "1.0", "COLORCLASH_BOT_WORKERS": "0", **LIFTED_LIMITS_ENV}


def _own_redis(tmp_path, aof: bool = False) -> RedisServer:
    """A redis-server of the test's own (to stop, pause or restart), started."""
    if not available():
        pytest.skip("redis-server is not installed")
    return RedisServer(tmp_path, aof=aof).start()


def _health(url: str) -> dict:
    with urllib.request.urlopen(url + "/healthz", timeout=5) as r:
        return json.loads(r.read())


def _owner(redis_url: str, code: str) -> str | None:
    import redis

    r = redis.Redis.from_url(redis_url)
    try:
        raw = r.get(f"cc:owner:{code}")
        return raw.decode() if raw else None
    finally:
        r.close()


class Site:
    """N processes sharing one Redis; a process can be killed and replaced."""

    def __init__(self, redis_url: str, n: int, env: dict | None = None) -> None:
        self.redis_url = redis_url
        self.env = {**ENV, **(env or {})}
        self.procs = [ServerProcess(redis_url, env=self.env).start() for _ in range(n)]

    @property
    def urls(self) -> list[str]:
        return [p.url for p in self.procs]

    def by_id(self) -> dict[str, ServerProcess]:
        return {_health(p.url)["process"]: p for p in self.procs}

    def kill(self, proc: ServerProcess) -> None:
        """SIGKILL, then a new process on the same address (a load balancer's target)."""
        proc.kill()
        i = self.procs.index(proc)
        self.procs[i] = ServerProcess(self.redis_url, env=self.env, port=proc.port).start()

    def stop(self) -> None:
        for p in self.procs:
            p.stop()


@pytest.fixture
def site3(redis_db):
    site = Site(redis_db, 3)
    yield site
    site.stop()


async def _play(conns, seed=0, timeout=120, pace=0.0):
    bots = [make_bot("easy", seed=seed + i) for i in range(len(conns))]
    return await asyncio.gather(*(c.play(b, timeout=timeout, pace=pace) for c, b in
                                  zip(conns, bots, strict=True)))


async def _two_seats_started(host_url: str, guest_url: str, **room) -> tuple[str, list]:
    """Ana's 2-seat room made on ``host_url``, Bo joined on ``guest_url``, each one's socket
    on that address (recording what it is shown), Bo ready and the match started."""
    t = await Client(host_url).create_room("Ana", preset="standard", seats=2, **room)
    code = t["code"]
    g = await Client(guest_url).join(code, "Bo")
    conns = [await Client(host_url).connect(code, t["token"], record=True),
             await Client(guest_url).connect(code, g["token"], record=True)]
    await conns[1].send("ready")
    await conns[0].wait_state(lambda s: s["room"]["seats"][1]["ready"])
    await conns[0].send("start")
    return code, conns


@pytest.mark.asyncio
async def test_a_room_played_from_three_processes(site3):
    a, b, c = site3.urls
    host = await Client(a).create_room("Ana", preset="classic-table", seats=3)
    code = host["code"]
    bo = await Client(b).join(code, "Bo")          # REST on another process
    cy = await Client(c).join(code, "Cy")
    assert (await Client(c).room(code))["seats"][2]["name"] == "Cy"
    # (all three ask for compact states: only the owner's own socket gets them)
    conns = [await Client(a).connect(code, host["token"], record=True, compact=True),
             await Client(b).connect(code, bo["token"], record=True, compact=True),
             await Client(c).connect(code, cy["token"], record=True, compact=True)]
    owner = _owner(site3.redis_url, code)
    assert owner == _health(a)["process"]
    for conn in conns[1:]:
        await conn.send("ready")
    await conns[0].wait_state(lambda s: all(x["ready"] for x in s["room"]["seats"]))
    await conns[0].send("start")
    states = await _play(conns)
    assert {s["room"]["status"] for s in states} == {"finished"}
    assert len({s["log_hash"] for s in states}) == 1
    sent = [[m for m in map(json.loads, conn.frames) if m["type"] == "state"]
            for conn in conns]
    assert any("room" not in m for m in sent[0])  # on the owner: compact
    # proxied: whole, so that a message lost between the processes leaves nothing stale
    assert all("room" in m for m in sent[1] + sent[2])
    record = await Client(b).record(code)
    assert verify_record(record, expected_log_hash=states[0]["log_hash"])[0]
    # one code space: a code is never handed out twice across processes
    codes = [(await Client(u).create_room("X"))["code"] for u in site3.urls for _ in range(5)]
    assert len(set(codes)) == len(codes)
    for conn in conns:
        await conn.close()


@pytest.mark.asyncio
async def test_a_host_away_in_the_lobby_passes_the_host_on_across_processes(redis_db):
    """The host's socket is on the owner, the guest's on another process: the host closes
    the page before the start, and after the host grace the guest hosts (the owner's
    room timer does it once; the guest's process only passes the state on)."""
    site = Site(redis_db, 2, env={"COLORCLASH_HOST_GRACE": "1"})
    try:
        a, b = site.urls
        t = await Client(a).create_room("Ana", preset="standard", seats=2)
        code = t["code"]
        g = await Client(b).join(code, "Bo")
        host = await Client(a).connect(code, t["token"])
        guest = await Client(b).connect(code, g["token"])
        await guest.wait_state(lambda s: s["room"]["seats"][0]["connected"])
        await host.close()
        st = await guest.wait_state(lambda s: s["room"]["host"] == 1, timeout=15)
        assert st["room"]["status"] == "lobby" and st["room"]["seats"][1]["ready"]
        assert not st["room"]["seats"][0]["connected"]
        await guest.send("settings", settings={"clock": 60})  # a host's command
        st = await guest.wait_state(lambda s: s["room"]["settings"]["clock"] == 60, timeout=10)
        assert st["room"]["host"] == 1
        await guest.close()
    finally:
        site.stop()


def _shown(conn) -> dict[int, str]:
    """Every state this player was shown: seq -> log hash (each one acknowledged)."""
    out = {}
    for frame in conn.frames or []:
        msg = json.loads(frame)
        if msg["type"] == "state" and msg["room"]["match"] == 1 and msg["log_hash"]:
            out[msg["seq"]] = msg["log_hash"]
    return out


async def _finished_and_recorded(url: str, code: str, states, conns) -> dict:
    """The match played to its end; its record (from ``url``) verifies against the log
    hash the players were shown last, and holds every state they were shown."""
    assert {s["room"]["status"] for s in states} == {"finished"}
    record = await Client(url).record(code)
    assert verify_record(record, expected_log_hash=states[0]["log_hash"])[0]
    _check_shown(record, conns)
    return record


def _check_shown(record: dict, conns) -> dict[int, str]:
    """Nothing the players were shown was lost or changed: the log hash of every state
    they saw is the record's at that point. Returns what they were shown."""
    actions = [tuple(x) for x in record["actions"]]
    shown = {**_shown(conns[0]), **_shown(conns[1])}
    for seq, h in shown.items():
        rules = match_rules(record["game"], record["preset"], record["seats"], record["options"])
        assert log_hash(record["commitment"], rules, actions[:seq]) == h, seq
    return shown


@pytest.mark.asyncio
async def test_killing_the_owner_again_and_again_loses_no_acknowledged_action(site3):
    urls = site3.urls
    host = await Client(urls[0]).create_room("Ana", preset="standard", seats=2, clock=90,
                                             match="5")
    code = host["code"]
    guest = await Client(urls[1]).join(code, "Bo")
    # each player knows every process: a lost connection reopens on another one. The host
    # is on the owner's process, so the first kill drops a player for sure (later owners
    # are whichever process takes the room over first).
    conns = [await Client(urls).connect(code, host["token"], record=True),
             await Client(urls[2:] + urls[:2]).connect(code, guest["token"], record=True)]
    await conns[1].send("ready")
    await conns[0].wait_state(lambda s: s["room"]["seats"][1]["ready"])
    await conns[0].send("start")
    kills = []

    async def killer():
        while len(kills) < 4:
            await asyncio.sleep(1.0)
            if conns[0].room["status"] == "finished":
                return
            owner = _owner(site3.redis_url, code)
            victim = (await asyncio.to_thread(site3.by_id))[owner]
            # SIGKILL whichever process owns the room now (and start a fresh one there)
            await asyncio.to_thread(site3.kill, victim)
            kills.append(owner)

    done = asyncio.ensure_future(_play(conns, timeout=200, pace=0.1))  # 4 kills fit
    await killer()
    states = await done
    assert len(kills) == 4, "the match ended before four kills"
    assert {s["room"]["status"] for s in states} == {"finished"}
    record = await Client(site3.urls[0]).record(code)
    assert verify_record(record, expected_log_hash=states[0]["log_hash"])[0]
    assert len(_check_shown(record, conns)) > 20
    assert sum(c.reconnects for c in conns) >= 1
    for conn in conns:
        await conn.close()


@pytest.mark.asyncio
async def test_a_paused_owner_is_fenced_off(redis_db):
    site = Site(redis_db, 2)
    try:
        a, b = site.urls
        t = await Client(a).create_room("Ana", preset="standard", seats=2)
        code = t["code"]
        g = await Client(b).join(code, "Bo")
        pa = site.by_id()
        owner_id = _owner(redis_db, code)
        owner = pa[owner_id]
        other_url = next(p.url for i, p in pa.items() if i != owner_id)
        me = await Client(owner.url).connect(code, t["token"], reconnect=True)
        bo = await Client(other_url).connect(code, g["token"])
        os.kill(owner.proc.pid, signal.SIGSTOP)  # a long pause: its lease runs out
        try:
            await asyncio.sleep(2.5)
            # the other process takes the room (its player is proxied there)
            await bo.send("ready")
            await asyncio.sleep(1.0)
            assert _owner(redis_db, code) != owner_id
        finally:
            os.kill(owner.proc.pid, signal.SIGCONT)
        # the old owner, awake again, may not write: its player is sent to the new owner
        await me.send("ping", t=1)
        st = await bo.wait_state(lambda s: s["room"]["seats"][1]["ready"], timeout=15)
        assert st["room"]["seats"][1]["ready"]
        assert _owner(redis_db, code) != owner_id
        await me.close()
        await bo.close()
    finally:
        site.stop()


@pytest.mark.asyncio
async def test_a_deadline_of_a_dead_owner_fires_once_on_the_new_one(redis_db):
    site = Site(redis_db, 2, env={"COLORCLASH_CLOCK_SCALE": "0.1"})  # 30 s turns: 3 s
    try:
        a, b = site.urls
        # standard: a timed-out turn draws one card and always ends (a preset whose timeout
        # plays for you could play a Skip and keep the turn)
        t = await Client(a).create_room("Ana", preset="standard", seats=2, clock=30)
        code = t["code"]
        g = await Client(a).join(code, "Bo")
        c0 = await Client([b, a]).connect(code, t["token"])
        c1 = await Client([b, a]).connect(code, g["token"])
        await c1.send("ready")
        await c0.wait_state(lambda s: s["room"]["seats"][1]["ready"])
        await c0.send("start")
        st = await c0.wait_state(lambda s: s["room"]["status"] == "playing")
        deadline_ms = st["clock"]["deadline"]
        turn = st["clock"]["seat"]
        owner = site.by_id()[_owner(redis_db, code)]
        owner.kill()  # nobody acts: the new owner must run out this very clock, once
        st = await c0.wait_state(lambda s: s["seq"] >= 1, timeout=20)
        record_turn = st["view"]["turn"]
        assert record_turn != turn  # the timed-out seat's turn ended
        import redis

        r = redis.Redis.from_url(redis_db)
        log = [json.loads(x) for x in r.lrange(f"cc:log:{code}:1", 0, -1)]
        r.close()
        assert log[0] == [turn, {"type": "timeout"}]
        assert sum(1 for seat, act in log if act == {"type": "timeout"} and seat == turn) == 1
        assert st["clock"]["deadline"] != deadline_ms
        await c0.close()
        await c1.close()
    finally:
        site.stop()


@pytest.mark.asyncio
async def test_rate_limits_are_shared_by_the_processes(redis_db):
    env = {k: v for k, v in ENV.items() if not k.startswith("COLORCLASH_LIMIT_CREATE")}
    env.update(COLORCLASH_LIMIT_CREATE_BURST="4", COLORCLASH_LIMIT_CREATE_PER_MIN="1")
    site = Site(redis_db, 2, env=env)
    site.env = env
    try:
        from colorclash.client import ClientError

        a, b = site.urls
        for url in (a, b, a, b):
            await Client(url).create_room("Ana")
        for url in (a, b):  # the budget is the address's, whichever process answers
            with pytest.raises(ClientError) as err:
                await Client(url).create_room("Ana")
            assert err.value.status == 429
    finally:
        site.stop()


@pytest.mark.asyncio
async def test_a_redis_restart_with_aof_loses_nothing(tmp_path):
    rs = _own_redis(tmp_path, aof=True)
    site = Site(rs.url, 1)
    try:
        url = site.urls[0]
        code, conns = await _two_seats_started(url, url, match="3")
        play = asyncio.ensure_future(_play(conns, timeout=120, pace=0.05))
        await asyncio.sleep(2.0)
        rs.stop(kill=True)  # Redis dies; its AOF (appendfsync always) has every write
        await asyncio.sleep(1.0)
        rs.start()
        await _finished_and_recorded(url, code, await play, conns)
        for conn in conns:
            await conn.close()
    finally:
        site.stop()
        rs.stop()


@pytest.mark.asyncio
async def test_a_redis_restart_without_its_data_loses_no_game_a_process_holds(tmp_path):
    """Redis restarted empty (no AOF, no snapshot) in mid-game: each process stores the
    rooms it holds again from memory, so the game plays on to the end from both
    processes (one player proxied), its record verifies, the room is found by REST, and
    the log says what happened. (The rooms were dropped at their first write after the
    restart, their players told the room had moved and then that it did not exist, and
    the log blamed another process with a traceback; until then REST showed them.)"""
    rs = _own_redis(tmp_path, aof=False)
    site = Site(rs.url, 2)
    try:
        a, b = site.urls
        code, conns = await _two_seats_started(a, b, match="3")  # Bo proxied to a
        lobby = (await Client(b).create_room("Cy", preset="standard", seats=3))["code"]
        play = asyncio.ensure_future(_play(conns, timeout=90, pace=0.05))
        await asyncio.sleep(1.5)
        rs.stop(kill=True)
        rs.start()  # empty
        await _finished_and_recorded(b, code, await play, conns)
        for url in (a, b):  # both rooms known to both processes again
            for c in (code, lobby):
                assert (await Client(url).room(c))["code"] == c
        joined = await Client(a).join(lobby, "Dee")  # the lobby on b takes a guest
        assert joined["seat"] == 1
        logs = site.procs[0].output() + site.procs[1].output()
        assert "Redis lost its data" in logs
        odd = [line for line in logs.splitlines()
               if "to another process" in line or "Traceback" in line or "ERROR" in line]
        assert "to another process" not in logs and "Traceback" not in logs, odd
        for conn in conns:
            await conn.close()
    finally:
        site.stop()
        rs.stop()


@pytest.mark.asyncio
async def test_a_redis_restart_keeps_every_process_and_its_proxied_players(tmp_path):
    """Redis down for longer than the lease (every process's key expires meanwhile), then
    back with its AOF: no live process's rooms are taken from it, the players on both
    processes (one of them proxied) play on to the end, and nothing they were shown is
    lost. (The first process to beat again took every room of the others, and a player
    proxied to one of them was left on a silent socket: the message that moved it to the
    new owner was published on a connection the restart had closed, and was lost.)"""
    rs = _own_redis(tmp_path, aof=True)
    site = Site(rs.url, 2)
    try:
        a, b = site.urls
        ids = [_health(u)["process"] for u in site.urls]
        code, conns = await _two_seats_started(a, b, match="3")  # Bo proxied to a
        play = asyncio.ensure_future(_play(conns, timeout=60, pace=0.05))
        await asyncio.sleep(1.5)
        rs.stop(kill=True)
        await asyncio.sleep(3.0)  # three leases: every process's key has expired
        rs.start()
        states = await play
        assert {s["room"]["status"] for s in states} == {"finished"}
        assert _owner(rs.url, code) == ids[0]  # still the process that made it
        record = await Client(b).record(code)
        _check_shown(record, conns)
        for conn in conns:
            await conn.close()
    finally:
        site.stop()
        rs.stop()


@pytest.mark.asyncio
async def test_a_short_redis_restart_loses_no_message_between_the_processes(tmp_path):
    """Redis restarted within the lease, three times: the proxied player plays on at
    once. What was published while a process was not subscribed yet, or on a connection
    the restart had closed, was lost (a player's action, or the state that answered it),
    and the player waited for a state that never came until the 90 s turn clock ran out;
    now each process publishes on a new connection and attaches its proxied players
    again (a welcome and a complete state)."""
    rs = _own_redis(tmp_path, aof=True)
    site = Site(rs.url, 2)
    try:
        a, b = site.urls
        code, conns = await _two_seats_started(a, b, clock=90)  # Bo proxied to a
        # A lost message stalls the game until the 90 s turn clock runs out; the game
        # itself takes 10 to 40 s (its length is the deal's; more on a loaded machine).
        play = asyncio.ensure_future(_play(conns, timeout=80, pace=0.3))
        for _ in range(3):
            await asyncio.sleep(1.5)
            rs.stop(kill=True)
            rs.start()
        states = await play
        assert {s["room"]["status"] for s in states} == {"finished"}
        for conn in conns:
            await conn.close()
    finally:
        site.stop()
        rs.stop()


class _Counting:
    """A Redis client that counts the commands (and pipelines) sent through it."""

    def __init__(self, r) -> None:
        self._r = r
        self.calls: list[str] = []

    def __getattr__(self, name):
        attr = getattr(self._r, name)
        if not callable(attr):
            return attr

        def call(*args, **kwargs):
            self.calls.append(name)
            return attr(*args, **kwargs)
        return call


def test_the_beat_checks_any_number_of_proxied_players_in_two_round_trips(redis_db):
    """The beat runs on the event loop: its check of the proxied players' rooms must not
    cost a Redis round trip per player (a thousand of them stalled every room of the
    process for over 100 ms, every second)."""
    from types import SimpleNamespace

    from colorclash.server.cluster import Cluster, Proxy
    from colorclash.store.redis_store import RedisStore

    store = RedisStore(redis_db)
    hub = SimpleNamespace(rooms={}, settings=SimpleNamespace(lease_ttl=3.0))
    cluster = Cluster(hub, store)
    other = "a1b2c3d4e5f6"
    store.redis.set(store.key("proc", other), "1", px=60_000)  # a live owner elsewhere
    for i in range(300):
        code = f"ROOM{i:03d}"
        store.redis.set(store.key("owner", code), other)
        proxy = Proxy(f"{i:016x}", code, i % 4, conn=None)
        proxy.owner = other
        cluster.proxies[proxy.conn_id] = proxy
    posted = []
    cluster.post = lambda pid, msg: posted.append((pid, msg))
    cluster.r = counting = _Counting(store.redis)
    cluster._check_proxies()
    assert counting.calls == ["mget", "pipeline"]  # 300 players, two round trips
    assert posted == []  # every owner lives: nothing to re-attach
    # an owner that moved: its players are re-attached to the new one, the rest stay
    store.redis.set(store.key("owner", "ROOM007"), cluster.id + "x")
    store.redis.set(store.key("proc", cluster.id + "x"), "1", px=60_000)
    cluster._check_proxies()
    assert [(pid, m["op"], m["code"]) for pid, m in posted] == [
        (cluster.id + "x", "attach", "ROOM007")]
    store.redis.close()


@pytest.mark.asyncio
async def test_a_swept_room_frees_its_code_and_leaves_no_key_behind(redis_db):
    """Every room reserves its code in the whole site; once the room is deleted the
    reservation goes too (it stayed forever: one key for every room ever made)."""
    from colorclash.server.cluster import Cluster
    from colorclash.server.config import Settings
    from colorclash.server.hub import Hub
    from colorclash.store.redis_store import RedisStore

    store = RedisStore(redis_db)
    hub = Hub(store, Settings(bot_delay=0))
    hub.cluster = Cluster(hub, store)
    await hub.cluster.start()
    try:
        room, _, _ = hub.create_private("Ana", seats=2)
        assert store.redis.exists(store.key("code", room.code))
        assert hub.code_taken(room.code)
        hub.drop_room(room)
        left = [k.decode() for k in store.redis.keys("*") if room.code in k.decode()]
        assert left == []
        assert store.load_room(room.code) is None and not hub.code_taken(room.code)
    finally:
        await hub.cluster.stop()
        store.close()


async def _proxied(owner, gateway, room, seat: int, token: str):
    """A player's socket on ``gateway`` for a seat of ``owner``'s room, attached there:
    (the socket, its proxy)."""
    from colorclash.server.names import hash_token

    socket_ = _Socket()
    proxy = gateway.cluster.open_proxy(room.code, seat, socket_, owner.cluster.id,
                                       hash_token(token))
    await _until(lambda: owner.connected(room, seat))
    return socket_, proxy


def _count_loop_turns():
    """The turns the event loop gives other work (a room's socket, a clock), counted until
    the returned task is cancelled: (the count, in a one-item list; the task)."""
    turns = [0]

    async def other_work() -> None:
        while True:
            await asyncio.sleep(0)
            turns[0] += 1

    return turns, asyncio.get_running_loop().create_task(other_work())


async def _stop_hubs(*hubs) -> None:
    """Stop hubs of ``_cluster_hub``: their rooms' timers, their cluster, their store."""
    for hub in hubs:
        for r in list(hub.rooms.values()):
            if r.timer:
                r.timer.cancel()
        await hub.cluster.stop()
        hub.store.close()


async def _cluster_hub(redis_db: str, **settings):
    """A Hub in this process, one of the site's processes on ``redis_db``, started."""
    from colorclash.server.cluster import Cluster
    from colorclash.server.config import Settings
    from colorclash.server.hub import Hub
    from colorclash.store.redis_store import RedisStore

    store = RedisStore(redis_db)
    hub = Hub(store, Settings(**settings))
    hub.cluster = Cluster(hub, store)
    await hub.cluster.start()
    return hub


@pytest.mark.asyncio
async def test_a_dead_process_is_noticed_after_redis_lost_the_list_of_processes(redis_db):
    """The others watch the set of processes for one that died. A Redis restarted without
    its data had lost that set, and as every process named itself in it only at its start,
    no death was noticed after that: a killed owner's rooms stayed without clocks and
    computer players until someone asked for them."""

    sites = [await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6) for _ in range(2)]
    a, b = sites
    try:
        room, _, _ = a.create_private("Ana", seats=2)
        assert _owner(redis_db, room.code) == a.cluster.id
        a.store.redis.delete(a.store.key("procs"))  # as after a restart without data
        await asyncio.sleep(0.5)  # a beat or two
        for t in a.cluster._tasks:  # A dies: no more beats, nothing released
            t.cancel()
        for _ in range(50):
            if room.code in b.rooms:
                break
            await asyncio.sleep(0.1)
        assert room.code in b.rooms and _owner(redis_db, room.code) == b.cluster.id
    finally:
        await b.cluster.stop()
        await a.cluster._aredis.aclose()
        for hub in sites:
            hub.store.close()


@pytest.mark.asyncio
async def test_a_change_refused_as_redis_lost_its_data_is_stored_again_from_memory(redis_db):
    """Redis emptied between two beats: the first write of a room after that is refused
    (its epoch is gone). The room is not dropped as if another process had taken it: it
    is stored again from memory, the change with it, and the guest who made the change
    is answered as usual (hub.durable does not raise)."""
    hub = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=30)  # no beat in the test
    other = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=30)
    hub.start_background()
    try:
        room, _, _ = hub.create_private("Ana", seats=3)
        await hub.durable(room)
        hub.store.redis.flushdb()  # as a restart without persistence
        hub.join(room.code, "Bo")
        await hub.durable(room)  # refused, stored again from memory: durable after all
        assert hub.rooms.get(room.code) is room and not room.broken
        stored = hub.stored_room(room.code)
        assert [s.name for s in stored.seats] == ["Ana", "Bo", None]
        assert _owner(redis_db, room.code) == hub.cluster.id
        assert hub.store.redis.get(hub.store.key("code", room.code)).decode() == hub.cluster.id
        # another process asked for the room now does not take it for a dead process's
        # (Redis had lost this one's key as well: it took the room, and fenced it off)
        assert other.cluster.take(room.code) is None
        assert _owner(redis_db, room.code) == hub.cluster.id
        hub.join(room.code, "Cy")  # and its writes are accepted again
        await hub.durable(room)
        assert [s.name for s in hub.stored_room(room.code).seats] == ["Ana", "Bo", "Cy"]
    finally:
        await hub.shutdown()
        await hub.cluster.stop()
        await other.cluster.stop()
        hub.store.close()
        other.store.close()


@pytest.mark.asyncio
async def test_a_process_says_its_id_when_it_starts(redis_db, caplog):
    """The others' lines name a process by its id alone ("process 5c28b093e6de is gone"),
    new at each start, and its own log never said which id it had (operator QA)."""
    import os
    import socket

    with caplog.at_level(logging.INFO, logger="colorclash.server.cluster"):
        a = await _cluster_hub(redis_db)
    try:
        assert f"process {a.cluster.id} started (pid {os.getpid()} on " \
               f"{socket.gethostname()})" in [r.getMessage() for r in caplog.records]
    finally:
        await a.cluster.stop()
        a.store.close()


@pytest.mark.asyncio
async def test_a_process_started_beside_another_build_says_so(redis_db, caplog, monkeypatch):
    """An old and a new process on one Redis broke each other's players (a refused
    ``seq``, players counted away) and neither log said a word (an upgrade review): a
    process names, at its start, every live process of another build, or of one from
    before builds were said; processes of its own build are not named."""
    import redis

    from colorclash.build import build_id
    from colorclash.server import cluster as cluster_module

    r = redis.Redis.from_url(redis_db)
    said = lambda: [m.getMessage() for m in caplog.records  # noqa: E731
                    if "another build" in m.getMessage()]
    with caplog.at_level(logging.INFO, logger="colorclash.server.cluster"):
        a = await _cluster_hub(redis_db)
        b = await _cluster_hub(redis_db)
        assert not said()
        assert r.hget("cc:builds", b.cluster.id).decode() == build_id()
        r.set("cc:proc:0ld0ld0ld0ld", "1", px=60_000)  # a live process of an old version
        r.sadd("cc:procs", "0ld0ld0ld0ld")
        monkeypatch.setattr(cluster_module, "build_id", lambda: "5e1ec7ed0000")
        c = await _cluster_hub(redis_db)
    try:
        line, = said()
        assert "this process runs 5e1ec7ed0000" in line
        for hub in (a, b):
            assert f"process {hub.cluster.id}: build {build_id()}" in line
        assert "process 0ld0ld0ld0ld: build from before builds were said" in line
        await a.cluster.stop()
        assert r.hget("cc:builds", a.cluster.id) is None  # (stopped: not named again)
    finally:
        for hub in (b, c):
            await hub.cluster.stop()
            hub.store.close()
        a.store.close()
        r.delete("cc:proc:0ld0ld0ld0ld")
        r.close()


@pytest.mark.asyncio
async def test_a_player_connected_through_a_process_that_died_is_away(redis_db):
    """The owner dropped a proxied player's stand-in only on its gateway's ``detach``,
    which a killed process never sends: the player stayed connected for ever (no grace,
    no substitute; a Practice room played on with nobody there; attacker QA)."""
    from colorclash.server.names import hash_token

    a = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    try:
        room, seat, token = a.create_practice("Ana", bots=1)
        a.cluster._seat_message({"op": "attach", "code": room.code, "seat": seat,
                                 "conn": "c1", "from": "deadbeef0000",
                                 "token_hash": hash_token(token)})
        assert seat in room.conns and a.connected(room, seat)
        assert a.cluster.drop_remotes_of_dead() == 1  # "deadbeef0000" has no lease
        assert seat not in room.conns and room.seats[seat].away_since is not None
        assert not a.cluster.remote
        assert a.cluster.drop_remotes_of_dead() == 0
    finally:
        for r in list(a.rooms.values()):
            if r.timer:
                r.timer.cancel()
        await a.cluster.stop()
        a.store.close()


@pytest.mark.asyncio
async def test_the_last_process_stopped_says_its_rooms_wait_for_the_next(redis_db, caplog):
    """A lone process stopped cleanly said "the other processes take its 1 room(s)" when
    there were none (operator QA): it now says the rooms wait for the next process."""
    a = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    try:
        room, _, _ = a.create_practice("Ana", bots=1)
        with caplog.at_level(logging.INFO, logger="colorclash.server.cluster"):
            await a.cluster.stop()
        lines = [r.getMessage() for r in caplog.records]
        assert f"process {a.cluster.id} stops: no other process runs; its 1 room(s) wait in " \
               "Redis for the next process to start" in lines, lines
        assert not [m for m in lines if "the other processes take" in m], lines
    finally:
        for r in list(a.rooms.values()):
            if r.timer:
                r.timer.cancel()
        a.store.close()


@pytest.mark.asyncio
async def test_a_process_without_rooms_stopped_says_so(redis_db, caplog):
    """A lone process with no room said "the other processes take its 0 room(s)", with
    no other process running (operator review)."""
    a = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    try:
        with caplog.at_level(logging.INFO, logger="colorclash.server.cluster"):
            await a.cluster.stop()
        lines = [r.getMessage() for r in caplog.records]
        assert f"process {a.cluster.id} stops: it holds no room" in lines, lines
        assert not [m for m in lines if "room(s)" in m], lines
    finally:
        a.store.close()


@pytest.mark.asyncio
async def test_a_process_stopped_cleanly_hands_its_rooms_over(redis_db, caplog):
    """A process stopped with SIGTERM let go of its rooms, and nobody took them until
    someone asked for one: a Practice table nobody was connected to kept its clocks and
    computer players stopped. Now the others take them over, as after a death, and the
    computer players play on there when the person is back (while nobody has a table open
    they wait, on any process)."""

    sites = [await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6, clock_scale=0.01) for _ in range(2)]
    a, b = sites
    try:
        room, _, _ = a.create_practice("Ana", bots=3)  # nobody connected: all by clocks
        code = room.code
        with caplog.at_level(logging.INFO, logger="colorclash.server.cluster"):
            await a.cluster.stop()
            for _ in range(50):
                if code in b.rooms:
                    break
                await asyncio.sleep(0.1)
        # a planned stop is said as one, by both processes: the crash warning ("is gone
        # (its lease ran out)") made every rolling restart look like a crash
        lines = [(r.levelno, r.getMessage()) for r in caplog.records]
        assert (logging.INFO, f"process {a.cluster.id} stops: the other processes take its "
                "1 room(s) at their next beat (or, if they stop too, the next process to start)"
                ) in lines, lines
        assert any(level == logging.INFO and m.startswith(f"process {a.cluster.id} stopped: "
                                                          f"process {b.cluster.id} and the others take its "
                                                          "1 room(s)")
                   for level, m in lines), lines
        assert not [m for _, m in lines if "is gone" in m], lines
        if room.timer:
            room.timer.cancel()  # (a's loop goes on in this test: its clocks must not)
        a.rooms.clear()
        for _ in range(50):
            if code in b.rooms:
                break
            await asyncio.sleep(0.1)
        assert code in b.rooms and _owner(redis_db, code) == b.cluster.id
        seq = b.rooms[code].seq

        class Person:  # the person opens the table again, on the new owner
            compact, closed = False, False

            def send(self, msg):
                pass

            def send_text(self, text):
                pass

            def close(self, code, reason=""):
                self.closed = True

        b.attach(b.rooms[code], 0, Person())
        for _ in range(50):  # its clocks and computer players run on the new owner
            if b.rooms[code].seq > seq:
                break
            await asyncio.sleep(0.1)
        assert b.rooms[code].seq > seq
    finally:
        await b.cluster.stop()
        for hub in sites:
            for r in list(hub.rooms.values()):
                if r.timer:
                    r.timer.cancel()
            hub.store.close()


@pytest.mark.asyncio
async def test_a_room_closed_on_one_process_is_said_closed_by_every_process(redis_db):
    from colorclash.server.protocol import ProtocolError

    sites = [await _cluster_hub(redis_db, bot_delay=0) for _ in range(2)]
    a, b = sites
    try:
        room, _, _ = a.create_private("Ana", seats=2)
        a.lobby.leave(room, 0)
        with pytest.raises(ProtocolError) as err:
            await b.cluster.locate(room.code)
        assert (err.value.code, err.value.reason) == ("room_not_found", "closed")
        with pytest.raises(ProtocolError) as err:
            await b.cluster.locate("ZZZZZZ")
        assert (err.value.code, err.value.reason) == ("room_not_found", None)
    finally:
        for hub in sites:
            await hub.cluster.stop()
            hub.store.close()


async def _sockets_closed_1011(url: str, n: int) -> None:
    import websockets

    for _ in range(n):
        async with websockets.connect(url) as ws:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd.code == 1011


def test_while_redis_is_down_health_checks_fail_and_requests_get_a_clear_error(tmp_path):
    """A load balancer must see that a process has lost its store (``/healthz`` said ok),
    and a request must get the error format (it got a plain-text 500); once Redis is back,
    both are as before."""
    import time
    import urllib.error

    rs = _own_redis(tmp_path)
    site = Site(rs.url, 1)
    url = site.urls[0]

    def post_room() -> tuple[int, dict]:
        req = urllib.request.Request(url + "/api/rooms", data=b'{"name": "Ana"}',
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def health() -> tuple[int, dict]:
        return healthz(url)

    def wait_for(check, timeout=15.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = check()
            if got:
                return got
            time.sleep(0.2)
        raise AssertionError("timed out")

    def silent() -> float:  # what /metrics tells a scraper
        with urllib.request.urlopen(url + "/metrics", timeout=5) as r:
            text = r.read().decode()
        return next(float(line.split()[1]) for line in text.splitlines()
                    if line.startswith("colorclash_redis_silent "))

    try:
        assert health()[0] == 200 and post_room()[0] == 201
        assert silent() == 0
        rs.stop(kill=True)
        status, body = wait_for(lambda: (h := health())[0] == 503 and h)
        assert body["ok"] is False and body["error"]["code"] == "store_unavailable"
        assert silent() == 1  # (the scrape itself answers while Redis is away)
        status, body = post_room()
        assert status == 503 and body["error"]["code"] == "store_unavailable", body
        # a socket opened meanwhile (every player reconnecting) is closed with 1011, which
        # the clients retry; it was the server's 500 to the handshake and a traceback each
        asyncio.run(_sockets_closed_1011(url.replace("http", "ws") + "/ws/ABCDEF?token=x", 6))
        log_text = site.procs[0].output()
        assert "Exception in ASGI application" not in log_text
        # (one line for the outage's requests and sockets, the POST's above)
        assert log_text.count(": the store did not answer") == 1, log_text[-3000:]
        rs.start()
        wait_for(lambda: health()[0] == 200)
        assert post_room()[0] == 201
        assert silent() == 0
    finally:
        site.stop()
        rs.stop()


def test_a_paused_redis_does_not_hold_the_process(tmp_path):
    """Redis that stops answering without closing its connections (paused, or a network
    that drops packets) held each process's event loop for 5 s at every call on it, the
    heartbeat's included: health checks took 4-5 s to say 503. Now the heartbeat waits on
    a thread, and once it has found Redis silent every call fails at once."""
    import time
    import urllib.error

    rs = _own_redis(tmp_path)
    site = Site(rs.url, 1)
    url = site.urls[0]

    def timed(path: str, data: bytes | None = None) -> tuple[int, float]:
        started = time.monotonic()
        req = urllib.request.Request(url + path, data=data,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=15) as r:
                status = r.status
        except urllib.error.HTTPError as exc:
            status = exc.code
        return status, time.monotonic() - started

    try:
        assert timed("/healthz")[0] == 200
        rs.proc.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + 20
        while timed("/healthz")[0] != 503:
            assert time.monotonic() < deadline, "never said 503"
            time.sleep(0.2)
        # every answer from now on is quick: health checks, pages, and a request that
        # needs Redis (503 store_unavailable at once, not after 5 s)
        slowest = max(timed(p)[1] for p in ["/healthz", "/", "/healthz", "/api/games"] * 3)
        assert slowest < 1.0, slowest
        status, took = timed("/api/rooms", b'{"name": "Ana"}')
        assert status == 503 and took < 1.0, (status, took)
        rs.proc.send_signal(signal.SIGCONT)
        deadline = time.monotonic() + 20
        while timed("/healthz")[0] != 200:
            assert time.monotonic() < deadline, "never came back"
            time.sleep(0.2)
        assert timed("/api/rooms", b'{"name": "Ana"}')[0] == 201
    finally:
        if rs.proc is not None and rs.proc.poll() is None:
            rs.proc.send_signal(signal.SIGCONT)
        site.stop()
        rs.stop()


@pytest.mark.asyncio
async def test_quick_match_gathers_people_from_every_process(site3):
    """One queue for the whole site: people queued on different processes, waiting on
    others still, meet at one table; a ticket is left or looked up on any process; a page
    closed on one process is not seated until it comes back on another."""
    import websockets

    clients = [Client(u) for u in site3.urls]
    tickets = [await clients[i % 3].quick_match(game="color-clash") for i in range(4)]
    matched = await asyncio.gather(*(clients[(i + 1) % 3].wait_for_match(t["ticket"], 30)
                                     for i, t in enumerate(tickets)))
    assert len({m["code"] for m in matched}) == 1
    assert sorted(m["seat"] for m in matched) == [0, 1, 2, 3]
    status = await clients[2].quick_match_status(tickets[0]["ticket"])
    assert status["status"] == "matched" and status["code"] == matched[0]["code"]
    seats = [await clients[(i + 2) % 3].connect(m["code"], m["token"])
             for i, m in enumerate(matched)]
    try:
        assert [s["kind"] for s in seats[0].room["seats"]] == ["human"] * 4
    finally:
        for s in seats:
            await s.close()
    # left on one process, gone on every other
    t = await clients[0].quick_match(game="rainbow")
    await clients[1].request("DELETE", f"/api/quick-match/{t['ticket']}")
    with pytest.raises(ClientError) as err:
        await clients[2].quick_match_status(t["ticket"])
    assert err.value.code == "ticket_not_found"
    # a page closed on one process is not seated with the next person...
    closed = await clients[0].quick_match(game="rainbow")
    ws_url = site3.urls[1].replace("http", "ws") + closed["ws"]
    async with websockets.connect(ws_url) as ws:
        assert json.loads(await ws.recv())["type"] == "queue"
    await asyncio.sleep(0.5)
    other = await clients[2].quick_match(game="rainbow")
    assert other["status"] == "waiting"
    # (its person is there: a poll, on yet another process)
    assert (await clients[1].quick_match_status(other["ticket"]))["status"] == "waiting"
    # ...until it comes back (a reload, on yet another process): the table starts
    ws_url = site3.urls[2].replace("http", "ws") + closed["ws"]
    async with websockets.connect(ws_url) as ws:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        while msg["type"] != "matched":
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert (await clients[0].quick_match_status(other["ticket"]))["code"] == msg["code"]


#: six look-ups, then one a minute: a budget a test spends in a few openings
SMALL_LOOKUP_BUDGET = {"COLORCLASH_LIMIT_LOOKUP_BURST": "6", "COLORCLASH_LIMIT_LOOKUP_PER_MIN": "1"}


async def _queue_and_other(site: Site, redis_db: str) -> tuple[ServerProcess, str]:
    """Of a site of two processes: the one holding the Quick Match queue (once a leader
    is chosen at the beats), and the other's address."""
    import redis

    r = redis.Redis.from_url(redis_db)
    for _ in range(50):
        leader = r.get("cc:qm:leader")
        if leader:
            break
        await asyncio.sleep(0.1)
    by_id = site.by_id()
    other = next(p.url for pid, p in by_id.items() if pid != leader.decode())
    return by_id[leader.decode()], other


@pytest.mark.asyncio
async def test_a_quick_match_asked_as_its_leader_dies_is_answered_by_the_next(redis_db):
    """A Quick Match asked just after the queue's process died (SIGKILL, its lease not
    yet run out) went to the dead leader and, unanswered, was a 503 "try again" (CI saw
    it behind nginx). By the time a call goes unanswered the lease has run out: the
    process asks whoever leads now (itself here) and the person is queued."""
    site = Site(redis_db, 2)
    try:
        queue_proc, other_url = await _queue_and_other(site, redis_db)
        await asyncio.to_thread(queue_proc.kill)
        mine = await Client(other_url).quick_match(game="rainbow")
        assert mine["status"] == "waiting", mine
        status = await Client(other_url).quick_match_status(mine["ticket"])
        assert status["status"] == "waiting", status
    finally:
        site.stop()


@pytest.mark.asyncio
async def test_a_queued_person_over_the_look_up_budget_keeps_their_place(redis_db):
    """A ticket's socket costs a look-up (attacker review). Over the address's budget a
    process that does not hold the queue cannot tell a real ticket from a made-up one:
    refusing them all, it left a person behind a busy shared address without their
    place, and their leave refused kept them queued (diff review). It lets the socket
    through, charged; a made-up one is refused by both (the other asks the queue's); a
    leave is never refused."""
    import websockets

    site = Site(redis_db, 2, env=SMALL_LOOKUP_BUDGET)
    try:
        queue_proc, other_url = await _queue_and_other(site, redis_db)
        queue_url = queue_proc.url
        mine = await Client(other_url).quick_match(game="rainbow")
        ws = other_url.replace("http", "ws")
        # Made-up tickets on the process without the queue: each miss is charged once the
        # queue says so, and over the budget the queue is asked before the socket opens
        # (they were charged nothing and let through for ever: attacker review)
        answers = []
        for n in range(4):
            async with websockets.connect(f"{ws}/ws/quick-match?ticket=made-up-{n}") as sock:
                answers.append(json.loads(await asyncio.wait_for(sock.recv(), 10))["code"])
        assert answers[0] == "ticket_not_found", answers
        assert answers[-2:] == ["rate_limited", "rate_limited"], answers
        async with websockets.connect(ws + mine["ws"]) as sock:  # let in, on the other
            assert json.loads(await asyncio.wait_for(sock.recv(), 10))["type"] == "queue"
        async with websockets.connect(queue_url.replace("http", "ws")
                                      + "/ws/quick-match?ticket=made-up") as sock:
            msg = json.loads(await asyncio.wait_for(sock.recv(), 10))
            assert msg["code"] == "rate_limited", msg  # known to be made up there
        left = await Client(other_url).request("DELETE", f"/api/quick-match/{mine['ticket']}")
        assert left == {"ok": True}, left  # over the budget too
    finally:
        site.stop()


@pytest.mark.asyncio
async def test_a_person_whose_queue_died_with_its_process_is_not_charged_a_guess(redis_db):
    """A queue socket closed 4404 on a process without the queue was charged as a made-up
    ticket; so was a real person's whose queue died with its process (a diff review:
    a failover with many people behind one shared address spent its look-ups). The lost
    queue's close has its own reason, and only a ticket the queue never knew is charged."""
    import websockets

    site = Site(redis_db, 2, env=SMALL_LOOKUP_BUDGET)
    try:
        queue_proc, other_url = await _queue_and_other(site, redis_db)
        room = await Client(other_url).create_room("Ana")
        mine = await Client(other_url).quick_match(game="rainbow")
        ws = other_url.replace("http", "ws")
        async with websockets.connect(ws + mine["ws"]) as sock:  # a look-up: 5 left
            assert json.loads(await asyncio.wait_for(sock.recv(), 10))["type"] == "queue"
            queue_proc.kill()  # the queue dies with its process
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await asyncio.wait_for(sock.recv(), 15)
            assert sock.close_code == 4404
        await asyncio.sleep(0.3)  # (the gateway's charge, if any, after the close)
        for _ in range(4):  # charged a guess (4 more), the second would be refused
            assert (await Client(other_url).room(room["code"]))["code"] == room["code"]
    finally:
        site.stop()


@pytest.mark.asyncio
async def test_a_process_stalled_past_its_lease_lets_go_of_the_rooms_taken_meanwhile(redis_db):
    """A process paused longer than the lease (another took its rooms meanwhile) kept
    every room it did not write to again: shown over REST as it was, its players never
    told, and deleted from Redis by its next sweep while the room lived on the new owner.
    Now its next beat lets go of them ("lost room"), and a sweep never deletes a room
    another process owns (the delete is fenced like the saves)."""
    hub = await _cluster_hub(redis_db, bot_delay=0)
    store = hub.store
    try:
        swept, _, _ = hub.create_private("Ana", seats=2)
        held, _, _ = hub.create_private("Bo", seats=2)
        for room in (swept, held):  # as when another process takes them over
            store.redis.set(store.key("owner", room.code), "another-process")
            store.redis.incr(store.key("fence", room.code))
        hub.drop_room(swept)  # the stale copy's sweep
        assert store.load_room(swept.code) is not None  # the new owner's room is intact
        assert store.redis.exists(store.key("code", swept.code))  # its code still taken
        assert swept.code not in hub.rooms
        await hub.cluster._drop_rooms_owned_elsewhere()  # what each beat does
        assert held.code not in hub.rooms
        assert store.load_room(held.code) is not None
    finally:
        await hub.cluster.stop()
        store.close()


@pytest.mark.asyncio
async def test_a_message_published_while_redis_restarts_is_one_line_in_the_log(redis_db, caplog):
    """A message forwarded to another process at the moment Redis went away logged a
    30-line traceback ("publishing 1 messages failed"); it is one warning line."""
    import logging

    import redis

    hub = await _cluster_hub(redis_db, bot_delay=0)
    try:
        class Down:
            def publish(self, *a):
                pass

            async def execute(self):
                raise redis.ConnectionError("Error 111 connecting to 127.0.0.1. Connection refused.")

        hub.cluster._aredis.pipeline = lambda **kw: Down()
        with caplog.at_level(logging.WARNING, logger="colorclash.server.cluster"):
            hub.cluster.post("another-process", {"op": "x"})
            for _ in range(50):
                await asyncio.sleep(0.02)
                if any("publishing" in r.getMessage() for r in caplog.records):
                    break
        lines = [r for r in caplog.records if "publishing" in r.getMessage()]
        assert len(lines) == 1 and lines[0].levelname == "WARNING" and not lines[0].exc_info, lines
        assert "Connection refused" in lines[0].getMessage()
    finally:
        await hub.cluster.stop()
        hub.store.close()


@pytest.mark.asyncio
async def test_a_proxied_socket_acts_for_a_room_that_came_here_only_once_attached(redis_db):
    """A room that came to the gateway's own process (it took it over) was acted on for
    the proxy's seat without asking whether the socket held it still: a socket refused
    at the take-over (its seat freed and given to another) could act for the new person."""
    from colorclash.server.names import hash_token

    a, b = [await _cluster_hub(redis_db, bot_delay=0) for _ in range(2)]
    try:
        room, _, _ = a.create_private("Ana", preset="standard", seats=2)
        _, seat, token = a.join(room.code, "Bo")
        sock = _ProxiedSocket()
        proxy = b.cluster.open_proxy(room.code, seat, sock, a.cluster.id, hash_token(token))
        await _until(lambda: any(m["type"] == "state" for m in sock.sent))
        a.lobby.remove_player(room, room.host, seat)  # Bo's seat is freed...
        _, again, _ = a.join(room.code, "Cy")  # ...and Cy takes it
        assert again == seat
        await asyncio.sleep(0.2)  # (stored)
        b.store.redis.delete(b.store.key("proc", a.cluster.id))  # a dies: b takes the room
        a.rooms.pop(room.code)
        assert b.cluster.take(room.code) is not None
        sock.closed = None  # (a message read before its close is handled after it)
        b.cluster.forward(proxy, {"v": 1, "type": "ready", "ready": True})
        taken = b.rooms[room.code]
        assert not taken.seats[seat].ready and taken.seats[seat].name == "Cy"
        assert sock.closed == 1012
    finally:
        for hub in (a, b):
            await hub.cluster.stop()
            hub.store.close()


class _ProxiedSocket:
    """A player's socket on a gateway process: what it is sent, and how it was closed."""

    compact = False

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed: int | None = None

    def send(self, msg: dict) -> None:
        self.sent.append(msg)

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str = "") -> None:
        self.closed = code

    def errors(self) -> list[tuple[str, str | None, str | None]]:
        return [(m["code"], m.get("ref"), m.get("reason")) for m in self.sent
                if m["type"] == "error"]


async def _until(check, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not in time")


@pytest.mark.asyncio
async def test_an_action_lost_between_the_processes_is_said_to_its_player(redis_db):
    """An action passed on to the room's owner went nowhere, in silence, when Redis did not
    take the message (the player heard nothing until Redis was back, then a state without
    it) or when the owner had just handed the room over (SIGTERM): the player waited for
    an answer that never came (attacker/operator QA). Now they are told at once."""
    import redis

    from colorclash.server.names import hash_token

    a, b = [await _cluster_hub(redis_db, bot_delay=0) for _ in range(2)]
    try:
        room, _, _ = a.create_private("Ana", preset="standard", seats=2)
        _, seat, token = a.join(room.code, "Bo")
        draw = {"v": 1, "type": "action", "action": {"type": "draw"}}

        def proxied() -> tuple[object, _ProxiedSocket]:
            sock = _ProxiedSocket()
            proxy = b.cluster.open_proxy(room.code, seat, sock, a.cluster.id, hash_token(token))
            return proxy, sock

        proxy, sock = proxied()
        await _until(lambda: any(m["type"] == "state" for m in sock.sent))
        # answered (the lobby refuses it): nothing more is said when a later ping is lost
        b.cluster.forward(proxy, draw)
        await _until(lambda: sock.errors())
        assert sock.errors() == [("not_playing", "action", None)]

        class Down:
            def publish(self, *args):
                pass

            async def execute(self):
                raise redis.ConnectionError("Connection refused.")

        working = b.cluster._aredis.pipeline
        b.cluster._aredis.pipeline = lambda **kw: Down()
        b.cluster.forward(proxy, {"v": 1, "type": "ping"})
        await asyncio.sleep(0.2)
        assert len(sock.errors()) == 1
        b.cluster.forward(proxy, draw)  # Redis does not take it: said at once
        await _until(lambda: len(sock.errors()) == 2)
        assert sock.errors()[1] == ("internal", "action", "not_delivered")
        assert "may not have reached the table" in sock.sent[-1]["message"]
        b.cluster._aredis.pipeline = working

        # the owner has let go of the room (a stop hands it over): told, and reconnected
        proxy, sock = proxied()
        await _until(lambda: any(m["type"] == "state" for m in sock.sent))
        a.rooms.pop(room.code)
        b.cluster.forward(proxy, draw)
        await _until(lambda: sock.closed is not None)
        assert sock.closed == 1012 and sock.errors() == [("internal", "action", "not_delivered")]

        # the owner died with the action on its way: the process that takes the room says so
        room, _, _ = a.create_private("Ana", preset="standard", seats=2)
        _, seat, token = a.join(room.code, "Bo")
        proxy, sock = proxied()
        await _until(lambda: any(m["type"] == "state" for m in sock.sent))
        post = b.cluster.post
        b.cluster.post = lambda pid, msg: None  # published to a process that is gone
        b.cluster.forward(proxy, draw)
        b.cluster.post = post
        b.store.redis.delete(b.store.key("proc", a.cluster.id))  # its lease ran out
        sent = len(sock.sent)
        b.cluster._check_proxies()
        assert room.code in b.rooms and [m["type"] for m in sock.sent[sent:]] == [
            "welcome", "state", "error"]
        assert sock.errors() == [("internal", "action", "not_delivered")]
    finally:
        for hub in (a, b):
            await hub.cluster.stop()
            hub.store.close()


class _QueueConn:
    """A queue socket's stand-in: what it was sent, how it was closed."""

    def __init__(self):
        self.sent, self.closed = [], None

    def send(self, msg):
        self.sent.append(msg)

    def send_text(self, text):
        self.sent.append(json.loads(text))

    def close(self, code, reason=""):
        self.closed = (code, reason)


@pytest.mark.asyncio
async def test_people_queued_through_a_process_are_told_when_the_leader_dies(redis_db):
    """Quick Match lives on one process; when it died, people waiting through another
    process kept an open socket on a queue that no longer existed, and were never
    matched. The beat closes their sockets with ticket_not_found: the page says to queue
    again."""
    from colorclash.server.cluster import Proxy

    hub = await _cluster_hub(redis_db, bot_delay=0)
    try:
        alive_conn, dead_conn = _QueueConn(), _QueueConn()
        for conn, leader in ((alive_conn, hub.cluster.id), (dead_conn, "a-dead-process")):
            proxy = Proxy(f"c{len(hub.cluster.proxies)}", "", None, conn, ticket="t")
            proxy.owner = leader
            hub.cluster.proxies[proxy.conn_id] = proxy
        hub.cluster._check_proxies()
        assert dead_conn.closed == (4404, "queue_lost")
        assert dead_conn.sent[0]["type"] == "error" and dead_conn.sent[0]["code"] == "ticket_not_found"
        assert alive_conn.closed is None and len(hub.cluster.proxies) == 1
        # and the ticket is left, should the leader only have stalled (it kept the ticket
        # and seated it later, its person told to queue again: a Quick Match review)
        posted = []
        while not hub.cluster._outbox.empty():
            posted.append(hub.cluster._outbox.get_nowait())
        assert any(to.endswith(":to:a-dead-process") and json.loads(msg)["data"] ==
                   {"type": "leave"} and json.loads(msg)["ticket"] == "t"
                   for to, msg in posted), posted
    finally:
        await hub.cluster.stop()
        hub.store.close()


@pytest.mark.asyncio
async def test_a_dead_processs_rooms_are_taken_a_few_hundred_a_beat(redis_db, caplog):
    """3,000 rooms of a dead process taken at once froze the survivors past the lease (each
    then took the other for dead): a beat takes Cluster.TAKE_PER_BEAT of them, the next
    beats the rest."""
    from colorclash.server.cluster import Cluster

    dead = await _cluster_hub(redis_db, bot_delay=0)
    survivor = await _cluster_hub(redis_db, bot_delay=0)
    try:
        n = Cluster.TAKE_PER_BEAT + 30
        codes = [dead.create_private("Ana", seats=2)[0].code for _ in range(n)]
        await dead.cluster.stop()
        # a death, not a stop: no mark of a clean stop, and its lease is out
        dead.store.redis.delete(dead.store.key("stopped", dead.cluster.id),
                                dead.store.key("proc", dead.cluster.id))
        with caplog.at_level(logging.WARNING, logger="colorclash.server.cluster"):
            await survivor.cluster._take_over_dead()
            assert len(survivor.rooms) == Cluster.TAKE_PER_BEAT
            await survivor.cluster._take_over_dead()
        assert sorted(survivor.rooms) == sorted(codes)
        # one line says which process died and how many rooms it left
        gone = [r.getMessage() for r in caplog.records if "is gone" in r.getMessage()]
        assert len(gone) == 1 and dead.cluster.id in gone[0] and f"its {n} room(s)" in gone[0], gone
    finally:
        await survivor.cluster.stop()
        survivor.store.close()
        dead.store.close()


@pytest.mark.asyncio
async def test_a_dead_process_is_said_gone_once_for_the_site(redis_db, caplog):
    """Each survivor said "process X is gone: process Y takes its N room(s)", N the rooms
    still left when it looked: an alert on the line fired once per survivor, and the
    counts (2 and 1 of a process that had 2) added up to more (operator review). The
    first survivor says it, with every room it left; the others take their share."""
    dead = await _cluster_hub(redis_db, bot_delay=0)
    one = await _cluster_hub(redis_db, bot_delay=0)
    two = await _cluster_hub(redis_db, bot_delay=0)
    try:
        codes = [dead.create_private("Ana", seats=2)[0].code for _ in range(3)]
        await dead.cluster.stop()
        dead.store.redis.delete(dead.store.key("stopped", dead.cluster.id),
                                dead.store.key("proc", dead.cluster.id))
        with caplog.at_level(logging.INFO, logger="colorclash.server.cluster"):
            one.cluster.TAKE_PER_BEAT = two.cluster.TAKE_PER_BEAT = 2
            await one.cluster._take_over_dead()
            await two.cluster._take_over_dead()
        assert sorted([*one.rooms, *two.rooms]) == sorted(codes)
        assert len(one.rooms) == 2 and len(two.rooms) == 1
        gone = [r.getMessage() for r in caplog.records if "is gone" in r.getMessage()]
        assert len(gone) == 1 and "its 3 room(s)" in gone[0], gone
        # the claim outlives the rooms (a late survivor must not claim it again), briefly
        assert 0 < dead.store.redis.ttl(dead.store.key("gone", dead.cluster.id)) <= 600
    finally:
        for hub in (one, two):
            await hub.cluster.stop()
            hub.store.close()
        dead.store.close()


@pytest.mark.asyncio
async def test_a_redis_outage_writes_each_kind_of_line_once_and_says_when_it_is_over(
        tmp_path, caplog):
    """While Redis was down, each process wrote the subscription's line twice a second and
    the beat's every beat, and nothing said when Redis was back. Each kind is one line now,
    and one line says Redis answers again, after how long, and how many were left out."""
    import logging

    rs = _own_redis(tmp_path)
    hub = await _cluster_hub(rs.url, bot_delay=0, lease_ttl=0.6)
    try:
        with caplog.at_level(logging.INFO, logger="colorclash.server.cluster"):
            rs.stop(kill=True)
            await asyncio.sleep(3.0)  # 15 beats, 6 subscription attempts
            assert "Redis has not answered" in hub.cluster.silence()
            rs.start()
            for _ in range(100):
                await asyncio.sleep(0.05)
                if any("answers again" in r.getMessage() for r in caplog.records):
                    break
        said = [r.getMessage() for r in caplog.records if r.name == "colorclash.server.cluster"]
        assert sum("subscription lost" in m for m in said) == 1, said
        assert sum("heartbeat: Redis does not answer" in m for m in said) == 1, said
        back = [m for m in said if "answers again" in m]
        assert len(back) == 1 and re.search(r"did not for [2-7] s; \d+ warning lines? about it w", back[0]), said
    finally:
        await hub.cluster.stop()
        hub.store.close()
        rs.stop()


@pytest.mark.asyncio
async def test_a_paused_redis_is_logged_as_health_says_and_its_pause_in_full(tmp_path, caplog):
    """A Redis that hangs (paused) failed the beat only after the client's 5 s socket
    timeout: the log said "does not answer" seconds after /healthz said 503, a pause
    shorter than that was never logged at all, and "answers again" counted from the failed
    beat, understating the pause. Now the line comes once a beat has waited a lease, and
    the pause is counted from Redis's last answer."""
    import logging

    rs = _own_redis(tmp_path)
    hub = await _cluster_hub(rs.url, bot_delay=0, lease_ttl=0.6)
    try:
        with caplog.at_level(logging.INFO, logger="colorclash.server.cluster"):
            await asyncio.sleep(0.5)
            rs.proc.send_signal(signal.SIGSTOP)
            paused = time.monotonic()
            said_at = None
            while time.monotonic() - paused < 3.0:  # shorter than the socket timeout
                await asyncio.sleep(0.05)
                if said_at is None and any("does not answer" in r.getMessage()
                                           for r in caplog.records):
                    said_at = time.monotonic() - paused
            rs.proc.send_signal(signal.SIGCONT)
            for _ in range(200):
                await asyncio.sleep(0.05)
                if any("answers again" in r.getMessage() for r in caplog.records):
                    break
        said = [r.getMessage() for r in caplog.records if r.name == "colorclash.server.cluster"]
        # said within a beat and a lease of the pause (0.2 + 0.6 s), well before the 5 s
        # of the socket timeout (the bound leaves a loaded machine room)
        assert said_at is not None and said_at < 2.5, (said_at, said)
        assert sum("heartbeat: Redis does not answer (no answer in 0.6 s)" in m
                   for m in said) == 1, said
        back = [m for m in said if "answers again" in m]
        # 3 s and a beat from Redis's last answer (counted from the failed beat: 2 s)
        assert len(back) == 1 and re.search(r"did not for [34] s", back[0]), said
    finally:
        if rs.proc is not None and rs.proc.poll() is None:
            rs.proc.send_signal(signal.SIGCONT)
        await hub.cluster.stop()
        hub.store.close()
        rs.stop()


@pytest.mark.asyncio
async def test_a_room_is_not_taken_from_its_owner_just_after_a_redis_restart(redis_db):
    """A Redis restart longer than the lease loses every process's key, all alive. A
    player who came back through another process before the owner's next beat had the
    room taken over there on the spot, and the owner, until its own next beat, showed its
    players the table as it was (a state older than one already shown: operator review).
    For a lease after Redis answers again (and while it is away) the owner named in Redis
    is taken at its word, as the beats already did; after it, a missing key is a death."""
    import time

    a, b = [await _cluster_hub(redis_db, bot_delay=0, lease_ttl=30) for _ in range(2)]
    try:
        room, _, _ = a.create_private("Ana", seats=2)
        a.cluster.r.delete(a.cluster.key("proc", a.cluster.id))  # expired in the restart
        b.cluster.redis_away = True  # b's beat failed, none has succeeded since
        assert await b.cluster.locate(room.code) == (None, a.cluster.id)
        b.cluster.redis_away = False  # its beat succeeded: a lease before judging
        b.cluster.judge_after = time.monotonic() + 30
        assert await b.cluster.locate(room.code) == (None, a.cluster.id)
        assert room.code not in b.rooms and _owner(redis_db, room.code) == a.cluster.id
        b.cluster.judge_after = time.monotonic()  # a lease on, still no key: a is dead
        taken, owner = await b.cluster.locate(room.code)
        assert owner is None and taken is b.rooms[room.code]
        assert _owner(redis_db, room.code) == b.cluster.id
    finally:
        for hub in (a, b):
            for r in list(hub.rooms.values()):
                if r.timer:
                    r.timer.cancel()
            await hub.cluster.stop()
            hub.store.close()


@pytest.mark.asyncio
async def test_a_process_whose_beats_did_not_run_does_not_blame_redis(redis_db):
    """A process stopped longer than the lease (SIGSTOP) refused its writes with "Redis has
    not answered for 5 s", Redis being fine all along."""
    hub = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    try:
        c = hub.cluster
        c.beat_ok_at -= 5  # the last beat 5 s ago, and none tried since
        c.beat_tried_at = c.beat_ok_at - 0.2
        assert c.silence().startswith("this process has not reached Redis for 5 s")
        # woken: its first beat is on its way (the writes refused meanwhile, and /healthz,
        # said "Redis has not answered for 7 s"; operator QA)
        c.beat_tried_at = c.beat_ok_at + 4.9
        assert c.silence().startswith("this process has not reached Redis for 5 s")
        # the beats ran, and the one after the last answer waits on Redis
        c.beat_ok_at += 4.3  # (0.7 s ago: past the lease)
        c.beat_tried_at = c.beat_ok_at + 0.2
        assert c.silence() == "Redis has not answered for 1 s"
        c.redis_away = True  # a beat failed
        c.beat_tried_at = c.beat_ok_at + 4.9
        assert c.silence() == "Redis has not answered for 1 s"
    finally:
        await hub.cluster.stop()
        hub.store.close()


@pytest.mark.asyncio
async def test_two_processes_play_one_room_over_a_redis_that_speaks_only_tls(tmp_path):
    """rediss:// with a private CA (?ssl_ca_certs=...) was refused as an unknown parameter,
    and without it the certificate could not be checked: a Redis reached over TLS could not
    be used. The store and the processes' pub/sub both go over TLS."""
    import shutil

    if not available() or not shutil.which("openssl"):
        pytest.skip("redis-server or openssl (for the certificate) is not installed")
    rs = RedisServer(tmp_path, tls=True).start()
    site = Site(rs.url, 2)
    try:
        assert rs.url.startswith("rediss://") and "ssl_ca_certs=" in rs.url
        code, conns = await _two_seats_started(site.urls[0], site.urls[1])  # players on both
        await _finished_and_recorded(site.urls[1], code, await _play(conns, timeout=120), conns)
        for conn in conns:
            await conn.close()
    finally:
        site.stop()
        rs.stop()


@pytest.mark.asyncio
async def test_a_stored_room_without_a_code_reservation_keeps_its_code(redis_db):
    """Rooms copied in by ``colorclash copy-store`` (or stored by a process with the
    cluster off) have no ``cc:code:`` reservation: a new room could be given their code
    and write over them."""
    hub = await _cluster_hub(redis_db, bot_delay=0)
    try:
        from colorclash.store import StoreError
        from colorclash.store.redis_store import RedisStore

        room, _, _ = hub.create_private("Ana", seats=2)
        doc = hub.store.load_room(room.code)
        # A process of several writes only the rooms it owns: a write of a room without
        # its epoch is refused, not sent unfenced (a room let go of cannot overwrite its
        # new owner's: a scale-out review); copy-store's own store writes it.
        with pytest.raises(StoreError, match="FENCED"):
            hub.store.save_room("QWERTY", {**doc, "code": "QWERTY"})
        hub.cluster.forget(room.code)
        with pytest.raises(StoreError, match="FENCED"):
            hub.store.save_room(room.code, {**doc, "status": "finished"})
        assert hub.store.load_room(room.code) == doc
        outside = RedisStore(redis_db)
        outside.save_room("QWERTY", {**doc, "code": "QWERTY"})
        outside.close()
        assert hub.code_taken("QWERTY")
        assert not hub.code_taken("ZXCVBN")  # a code nobody has is fresh (and now ours)
    finally:
        await hub.cluster.stop()
        hub.store.close()


@pytest.mark.asyncio
async def test_a_stop_does_not_wait_for_a_task_that_will_not_end(redis_db, caplog, monkeypatch):
    """redis-py shields a subscription's teardown from cancellation; one that never ended
    (seen once, after a Redis outage) held ``stop()`` and the whole shutdown forever. The
    stop waits a bounded time, says which task it left, and still says goodbye in Redis."""
    import logging

    from colorclash.server import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "STOP_WAIT_S", 1.5)
    hub = await _cluster_hub(redis_db, bot_delay=0)  # (a lease longer than the wait)
    never = asyncio.get_running_loop().create_future()

    async def stubborn() -> None:
        while True:
            try:
                await asyncio.shield(never)
                return
            except asyncio.CancelledError:
                continue  # as a shielded teardown does: the cancel does not end it

    task = asyncio.get_running_loop().create_task(stubborn(), name="stubborn")
    hub.cluster._tasks.append(task)
    try:
        with caplog.at_level(logging.WARNING, logger="colorclash.server.cluster"):
            await asyncio.wait_for(hub.cluster.stop(), 5)
        said = [r.getMessage() for r in caplog.records]
        # (the stubborn one named; on a loaded machine a real task may be late as well)
        assert any("cluster task(s) did not stop" in m and "stubborn" in m for m in said), said
        c = hub.cluster  # its goodbye written all the same
        assert not c.r.exists(c.key("proc", c.id)) and c.r.get(c.key("stopped", c.id))
    finally:
        never.set_result(None)
        await task
        hub.store.close()


@pytest.mark.asyncio
async def test_taking_over_a_dead_processs_rooms_lets_the_loop_breathe(redis_db):
    """The rooms of a dead process were taken (each read from Redis and replayed) in one
    go on the event loop, up to 200 at a beat: every other room of the survivor waited for
    all of them (about a millisecond each). It gives the loop back after each room now:
    the survivor's other work runs between any two rooms, not after the beat's 200."""
    dead = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    for i in range(60):
        room, _, _ = dead.create_practice(f"P{i}", 3)
        await dead.durable(room)
    await dead.cluster.stop()  # (its key gone: dead at once, as after a kill)
    dead.store.close()
    survivor = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    turns, tick = _count_loop_turns()
    try:
        await asyncio.sleep(0)
        before = turns[0]
        await survivor.cluster._take_over_dead()
        assert len(survivor.rooms) == 60
        assert turns[0] - before >= 60, turns[0] - before  # between any two rooms
    finally:
        tick.cancel()
        await survivor.cluster.stop()
        survivor.store.close()


@pytest.mark.asyncio
async def test_a_join_asked_again_of_a_slow_owner_takes_one_seat(redis_db):
    """A join passed to the room's owner is asked again when the owner does not answer in
    time (it may have died, and the room is taken over). An owner that was only slow, or
    that stored the seat and died before answering, had seated the joiner already: the
    second asking took a second seat ("Bo" and "Bo 2"; attacker QA)."""
    from colorclash.server.protocol import ProtocolError

    a = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    b = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    real_call = b.cluster.call
    asked = []

    async def answer_lost_once(pid, op, code, *args, **kw):
        value = await real_call(pid, op, code, *args, **kw)
        asked.append(args)
        if len(asked) == 1:  # the owner seated Bo; its answer came too late
            raise ProtocolError("internal", "the process that holds this room did not "
                                "answer; try again", status=503)
        return value

    b.cluster.call = answer_lost_once
    try:
        room, _, _ = a.create_private("Ana", seats=3)
        await a.durable(room)
        got = await b.room_op("join", room.code, "Bo", None)
        assert len(asked) == 2 and asked[0] == asked[1]  # the same token both times
        assert [s.name for s in room.seats] == ["Ana", "Bo", None]
        assert got["seat"] == 1 and room.seat_of_token(got["token"]) == 1
        assert [s.name for s in a.stored_room(room.code).seats] == ["Ana", "Bo", None]
    finally:
        await a.cluster.stop()
        await b.cluster.stop()
        a.store.close()
        b.store.close()


@pytest.mark.asyncio
async def test_a_message_through_a_process_is_not_judged_larger_than_it_came(redis_db):
    """The owner read a proxied message again from ``json.dumps`` of it, which writes an
    emoji as 12 bytes: settings of 3 KB in emoji were ``too_large`` through a process that
    does not own the room, and got their real answer directly (attacker QA)."""
    from colorclash.server.names import hash_token
    from colorclash.server.protocol import OPTION_TEXT_MAX

    a, b = [await _cluster_hub(redis_db, bot_delay=0) for _ in range(2)]
    try:
        room, host, host_token = a.create_private("Ana", preset="standard", seats=2)
        emoji = "\N{GRINNING FACE}"
        options = {f"{i:02d}" + emoji * 28: emoji * OPTION_TEXT_MAX for i in range(16)}
        msg = {"v": 1, "type": "settings", "settings": {"options": options}}
        frame = json.dumps(msg, ensure_ascii=False).encode()
        assert len(frame) <= a.settings.max_frame < len(json.dumps(msg))
        sock = _ProxiedSocket()
        proxy = b.cluster.open_proxy(room.code, host, sock, a.cluster.id,
                                     hash_token(host_token))
        await _until(lambda: any(m["type"] == "state" for m in sock.sent))
        b.cluster.forward(proxy, msg)
        await _until(lambda: sock.errors())
        assert sock.errors()[0][:2] == ("bad_settings", "settings")
        b.cluster.forward(proxy, {"v": 1, "type": "settings",
                                  "settings": {"options": {"scoring": "\ud800"}}})  # lone surrogate
        await _until(lambda: len(sock.errors()) == 2)
        assert sock.errors()[1][:2] == ("bad_settings", "settings")
    finally:
        for hub in (a, b):
            await hub.cluster.stop()
            hub.store.close()


@pytest.mark.asyncio
async def test_a_former_owners_late_close_leaves_a_player_attached_elsewhere(redis_db):
    """An owner woken from a pause past its lease lets go of its rooms and closes their
    players (1012): one already attached to the room's new owner through its process was
    sent away again (operator QA). Only the owner a proxy is attached to closes it now."""
    from colorclash.server.names import hash_token

    a, b = [await _cluster_hub(redis_db, bot_delay=0) for _ in range(2)]
    try:
        room, seat, token = a.create_private("Ana", preset="standard", seats=2)
        sock = _ProxiedSocket()
        proxy = b.cluster.open_proxy(room.code, seat, sock, a.cluster.id, hash_token(token))
        await _until(lambda: any(m["type"] == "state" for m in sock.sent))
        remote = room.conns[seat]
        proxy.owner = "0123456789ab"  # the proxy moved on to a new owner meanwhile
        remote.close(1012, "the room moved; reconnect")  # a's late word
        await asyncio.sleep(0.3)
        assert sock.closed is None and proxy.conn_id in b.cluster.proxies
        proxy.owner = a.cluster.id  # from the owner it is attached to: closed
        remote.closed = False
        remote.close(1012, "the room moved; reconnect")
        await _until(lambda: sock.closed is not None)
        assert sock.closed == 1012 and proxy.conn_id not in b.cluster.proxies
    finally:
        for hub in (a, b):
            await hub.cluster.stop()
            hub.store.close()


class _Socket:
    """A player's socket on a gateway process (what the proxy writes to)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.closed: tuple[int, str] | None = None

    def send_text(self, text: str) -> None:
        self.texts.append(text)

    def send(self, msg) -> None:
        self.texts.append(json.dumps(msg))

    def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)


@pytest.mark.asyncio
async def test_a_player_whose_close_was_lost_between_the_processes_is_away(redis_db):
    """A gateway tells the owner of a player's close once (``detach``, by pub/sub, which
    loses what Redis cannot take: a restart). A player who closed the page while Redis was
    down stayed connected at the owner for good: no grace, no substitute, every turn run
    out (operator review). Each beat the gateway names the sockets it still has; one it
    no longer names is taken for closed after a few beats, while one it names stays."""
    owner = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    gateway = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    try:
        room, seat, token = owner.create_practice("Ana", bots=1)
        socket_, proxy = await _proxied(owner, gateway, room, seat, token)
        # named at every beat: still there well past the silence allowed
        await asyncio.sleep(2.5)  # (twice the silence allowed: 6 beats of 0.2 s)
        assert owner.connected(room, seat) and socket_.closed is None
        # the page closed while its detach could not be sent: nothing reaches the owner
        gateway.cluster.proxies.pop(proxy.conn_id)
        await _until(lambda: not owner.connected(room, seat), seconds=6)
        assert room.seats[seat].away_since is not None and not owner.cluster.remote
        # let go while the socket is still open there (the gateway's word missed): the
        # socket is closed, so that its player reconnects, not left getting nothing
        socket_, _ = await _proxied(owner, gateway, room, seat, token)
        says = gateway.cluster.say_alive
        gateway.cluster.say_alive = lambda: None
        await _until(lambda: socket_.closed is not None, seconds=6)
        assert socket_.closed[0] == 1012 and not gateway.cluster.proxies
        gateway.cluster.say_alive = says
        # and if that close is lost too, the gateway's next word of the socket gets it
        socket_, proxy = await _proxied(owner, gateway, room, seat, token)
        owner.cluster.remote.pop(proxy.conn_id)  # let go, its close never sent
        await _until(lambda: socket_.closed is not None, seconds=3)
        assert socket_.closed[0] == 1012
    finally:
        await _stop_hubs(owner, gateway)


@pytest.mark.asyncio
async def test_the_janitor_on_redis_lets_the_loop_breathe(redis_db):
    """On Redis the janitor deletes expired rooms one by one (each room's ownership checked
    in Redis), on the event loop: the whole sweep held every other room of the process. It
    gives the loop back every ``SWEEP_SLICE`` rooms; a room come back to meanwhile stays."""
    hub = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=30, practice_room_ttl=0.0)
    turns, tick = _count_loop_turns()
    try:
        rooms = []
        for i in range(60):
            room, _, _ = hub.create_practice(f"P{i}", 1)
            await hub.durable(room)
            rooms.append(room)
        await asyncio.sleep(0.01)
        kept = rooms[-1]
        assert hub.is_expired(kept, hub.now())
        real = hub.drop_room

        def drop(room):  # someone opens the last room while the sweep is under way
            if room is rooms[30]:
                kept.conns[0] = object()
            real(room)

        hub.drop_room = drop
        before = turns[0]
        await hub.sweep_off_the_loop()
        assert turns[0] - before >= 2, turns[0] - before  # (60 rooms, a turn each 20)
        assert list(hub.rooms) == [kept.code]
        assert hub.store.load_room(rooms[0].code) is None
    finally:
        tick.cancel()
        await _stop_hubs(hub)


@pytest.mark.asyncio
async def test_a_socket_closed_at_the_owner_whose_close_was_lost_is_closed_again(redis_db):
    """The owner closes a proxied socket (replaced by another tab: 4409) but keeps its
    stand-in; with that close lost, the gateway's word of the socket kept it "seen" for
    ever: open, getting nothing (second diff review). Named again, it is closed again."""
    from colorclash.server.names import hash_token

    owner = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    gateway = await _cluster_hub(redis_db, bot_delay=0, lease_ttl=0.6)
    try:
        room, seat, token = owner.create_practice("Ana", bots=1)
        first, px = await _proxied(owner, gateway, room, seat, token)
        real = owner.cluster.close_remote

        def lossy(gw, conn_id, code, reason):  # the first close of the first socket lost
            owner.cluster.close_remote = real
            if conn_id != px.conn_id:
                real(gw, conn_id, code, reason)

        owner.cluster.close_remote = lossy
        second = _Socket()
        gateway.cluster.open_proxy(room.code, seat, second, owner.cluster.id,
                                   hash_token(token))
        await _until(lambda: first.closed is not None, seconds=3)
        assert first.closed[0] == 4409 and second.closed is None
    finally:
        await _stop_hubs(owner, gateway)


@pytest.mark.asyncio
async def test_a_new_code_a_live_process_still_owns_is_not_claimed(redis_db):
    """A code whose room and reservation were deleted while a live process still owned it
    was claimed by another process without its ownership (no epoch): the new room's writes
    went unfenced beside the other owner (a review). Such a code is not claimed, nor left
    reserved."""
    a, b = [await _cluster_hub(redis_db, bot_delay=0) for _ in range(2)]
    try:
        code = "QQZZQQ"
        a.store.redis.set(a.store.key("owner", code), a.cluster.id)  # A owns it, no room
        assert not b.cluster.claim_new(code)
        assert code not in b.store.epochs
        assert not b.store.redis.exists(b.store.key("code", code))
        a.store.redis.delete(a.store.key("owner", code))
        assert b.cluster.claim_new(code)  # free: claimed, owned
        assert code in b.store.epochs
    finally:
        await _stop_hubs(a, b)


@pytest.mark.asyncio
@pytest.mark.parametrize("meanwhile", ["another leads", "another led", "nobody led",
                                       "Redis lost its data"])
async def test_a_quick_match_leader_keeps_its_queue_for_its_term_only(redis_db, meanwhile):
    """The Quick Match leader's queue is of one term of its leadership: a leader that
    stalled past its lease while another process took the lead seated its stale queue at
    a table on waking (a scale-out review: the lease had no fence). Now a leader that
    finds another process's term since its own tells its queue to queue again and makes
    no table; one that takes the lead again after a lapse nobody else used (a stall, a
    Redis outage, Redis losing its data) keeps its queue (a first form of the term gave
    it up then too: a diff review)."""
    leader = await _cluster_hub(redis_db, bot_delay=0)
    other = await _cluster_hub(redis_db, bot_delay=0)
    r, key = leader.store.redis, leader.store.key
    try:
        assert leader.cluster.lead() and not other.cluster.lead()
        conns = []
        for i in range(4):  # a Color Clash Quick Match table is 4
            conn = _QueueConn()
            ticket = leader.quick.join("color-clash", None, address=f"10.0.{i}.1")["ticket"]
            if i == 3:  # the leader's lease lapses before the last one comes
                r.delete(key("qm", "leader"))
                if meanwhile == "Redis lost its data":
                    r.delete(key("qm", "term"))
                if meanwhile.startswith("another"):
                    assert other.cluster.lead()
                if meanwhile == "another led":
                    r.delete(key("qm", "leader"))
            leader.quick.attach(ticket, conn)
            conns.append(conn)
        tables = [r for r in leader.rooms.values() if r.kind == "quick-match"]
        kept = meanwhile in ("nobody led", "Redis lost its data")
        assert len(tables) == (1 if kept else 0) and not leader.quick.queue
        for conn in conns:
            if kept:
                assert conn.closed is None and conn.sent[-1]["type"] == "matched", conn.sent
            else:
                assert conn.closed == (4404, "queue_lost"), conn.sent
                assert [m["type"] for m in conn.sent][-1] == "error", conn.sent
                assert conn.sent[-1]["code"] == "ticket_not_found"
        assert leader.cluster.leader == (meanwhile != "another leads")
    finally:
        await _stop_hubs(leader, other)


@pytest.mark.asyncio
async def test_a_quick_match_check_that_found_no_redis_is_made_again(redis_db, monkeypatch):
    """A Quick Match check that finds Redis away is made again a second later: people
    waiting on sockets send nothing, and the queue stalled until someone joined or left
    (a diff review)."""
    import redis

    hub = await _cluster_hub(redis_db, bot_delay=0, quick_match_wait=0.2)
    try:
        for i in range(2):
            ticket = hub.quick.join("color-clash", None, address=f"10.0.{i}.1")["ticket"]
            hub.quick.attach(ticket, _QueueConn())
        assert hub.quick._timer is not None  # (the wait for more people)
        hub.quick._timer.cancel()

        def away():
            raise redis.ConnectionError("Redis away")

        monkeypatch.setattr(hub.cluster, "lead", away)
        hub.quick._tick()
        assert hub.quick._timer is not None and len(hub.quick.queue) == 2
        monkeypatch.undo()
        await _until(lambda: any(r.kind == "quick-match" for r in hub.rooms.values()),
                     seconds=hub.quick.RETRY + 2)
        assert not hub.quick.queue
    finally:
        await _stop_hubs(hub)


@pytest.mark.asyncio
async def test_a_room_lost_lets_go_of_its_players_on_other_processes(redis_db):
    """A room lost to another process (a fenced write) lets go of the sockets of other
    processes' players held for it: they stayed, and six beats later the log said their
    processes no longer had them. A room lost twice is lost (the second said nothing)."""
    owner = await _cluster_hub(redis_db, bot_delay=0)
    gateway = await _cluster_hub(redis_db, bot_delay=0)
    try:
        room, _, token = owner.create_private("Ana", seats=2)
        await _proxied(owner, gateway, room, 0, token)
        assert [r.where for r in owner.cluster.remote.values()] == [("seat", room.code, 0)]
        store = owner.store
        store.redis.set(store.key("owner", room.code), gateway.cluster.id)
        assert owner.cluster.lost(room.code) is True
        assert room.code not in owner.rooms and not owner.cluster.remote
        assert owner.cluster.lost(room.code) is True
    finally:
        await _stop_hubs(owner, gateway)


@pytest.mark.asyncio
async def test_a_matched_lost_between_the_processes_is_said_again(redis_db, monkeypatch):
    """A person waiting in Quick Match through another process than the leader's: the
    ``matched`` the leader sent was lost (pub/sub loses what is published while a process
    is not subscribed: a Redis restart), and nothing attached a queue socket again, so the
    person waited for ever while their table was dealt to seats nobody opened (a Quick
    Match review). The gateway attaches a ticket whose leader has not answered again, and
    the leader says the ticket as it is: here, matched."""
    leader = await _cluster_hub(redis_db, bot_delay=0, quick_match_wait=30)
    gateway = await _cluster_hub(redis_db, bot_delay=0)
    try:
        assert leader.cluster.lead()
        far = leader.quick.join("color-clash", None, address="10.0.9.1")["ticket"]
        conn = _QueueConn()
        proxy = gateway.cluster.open_queue_proxy(far, conn, leader.cluster.id)
        await _until(lambda: proxy.confirmed and conn.sent)  # the queue's count
        assert conn.sent[-1]["type"] == "queue"
        # Redis restarts: the gateway subscribes again, and what the leader sends its
        # players meanwhile is lost
        proxy.confirmed = False
        monkeypatch.setattr(leader.cluster, "post_text", lambda *a: None)
        for i in range(3):  # the table fills up here: 4 people
            near = leader.quick.join("color-clash", None, address=f"10.0.{i}.1")["ticket"]
            leader.quick.attach(near, _QueueConn())
        table = next(r for r in leader.rooms.values() if r.kind == "quick-match")
        assert conn.sent[-1]["type"] == "queue"  # the matched was lost
        monkeypatch.undo()
        proxy.attached_at -= 60  # (its answer is overdue)
        gateway.cluster._attach_tickets_again()
        await _until(lambda: conn.sent[-1]["type"] == "matched")
        assert conn.sent[-1]["code"] == table.code and conn.closed is None
        assert [m["type"] for m in conn.sent].count("error") == 0  # (no "replaced")
        # a ticket the leader no longer has is told so
        leader.quick.tickets.pop(far)
        proxy.confirmed, proxy.attached_at = False, proxy.attached_at - 60
        gateway.cluster._attach_tickets_again()
        await _until(lambda: conn.closed is not None)
        assert conn.closed == (4404, "ticket_not_found")
    finally:
        await _stop_hubs(leader, gateway)
