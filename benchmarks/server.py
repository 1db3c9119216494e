"""``colorclash bench server``: what one server process holds, over real WebSockets.

The load client opens ``N`` player connections in private rooms of 4 people (every seat
a connection of the client, each played by the ``easy`` bot through the protocol) and
plays whole games, dealing a rematch whenever one ends, for ``--duration`` seconds:

- ``--pace human``: each player acts 2-4 s (uniformly) after its turn comes, as people do;
- ``--pace full``: each player acts as soon as its turn comes.

Reported per run: connections held, acknowledged actions per second (every engine
action, people's and the server's), and the latency from sending an action to receiving
the ``state`` that shows it (p50, p95, p99, max), the server's CPU (share of one core)
and memory (RSS, and per connection). ``--echo`` runs the same client against a bare
WebSocket echo on the same stack (uvicorn, Starlette) at the same message rate: the
floor; the report gives our p99 over the echo's. ``--idle N`` measures the memory of N
idle connections (people seated in lobbies).

The server is ``colorclash serve`` in a child process on 127.0.0.1 (SQLite store in a
temporary folder, limits lifted for one address), or ``--url`` for one already running
(several processes behind a proxy, on Redis). Results are printed and, with ``--out``,
appended as JSON lines.

Usage: ``colorclash bench server [--connections 1000,2000] [--pace human|full]
[--duration 60] [--echo [--repeat K]] [--idle N] [--thinking N] [--synchronous full|normal]
[--url URL] [--out F] [--json]``. ``--thinking N``: N Practice rooms of ``hard``
computer players while another room pings, with their search on the event loop and in
worker processes (``COLORCLASH_BOT_WORKERS`` 0 and 1): the ping's tail.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOM = 4


#: the letters of a load player's name: no vowel, and nothing that reads as one of "bot",
#: "cpu" or "computer", which a name may not spell ("P2807" was refused: 807 reads BOT, and
#: the idle benchmark stopped at its 308th room)
_NAME_LETTERS = "DFGHJKLMNRSVWXYZ"


def person(prefix: str, index: int, seat: int | None = None) -> str:
    """A load player's name, ``Host KD`` or ``Player KD-2``: one per index and seat."""
    letters = ""
    while True:
        index, digit = divmod(index, len(_NAME_LETTERS))
        letters = _NAME_LETTERS[digit] + letters
        if index == 0:
            break
    return f"{prefix} {letters}" + ("" if seat is None else f"-{seat}")


# ------------------------------------------------------------------ process figures
def _proc_cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(parts[11]) + int(parts[12])) / ticks


def _proc_rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ------------------------------------------------------------------ the game load
RSS_EVERY_S = 30  # how often a run samples the servers' memory


class Load:
    def __init__(self, urls: list[str], pace: str, deadline: float,
                 compact: bool = True) -> None:
        self.urls = urls
        self.compact = compact  # the browser's compact states (protocol.md 2.3)
        self.pace = pace
        self.deadline = deadline
        self.latencies: list[float] = []
        self.errors = 0
        self.actions_seen: dict[str, int] = {}
        self.measure_from = 0.0
        self.state_bytes: list[int] = []

    async def room(self, client: Any, index: int, ready: asyncio.Event,
                   opened: list[int], sem: asyncio.Semaphore) -> None:
        from colorclash.bots import make_bot
        from colorclash.client import Client

        urls = self.urls
        async with sem:  # a bounded number of rooms opening at once
            host = await client.create_room(person("Host", index), preset="classic-table", seats=ROOM)
            tickets = [host] + [await client.join(host["code"], person("Player", index, i))
                                for i in range(1, ROOM)]
            # with several processes, the players of a room are spread over them
            # (a ping every 20 s, websockets' default, as the echo's clients send: the
            # two sides' traffic alike)
            conns = [await Client(urls[(index + i) % len(urls)], ping_s=20.0).connect(
                         host["code"], t["token"], compact=self.compact)
                     for i, t in enumerate(tickets)]
            opened[0] += ROOM
            for c in conns[1:]:
                await c.send("ready")
            await conns[0].wait_state(lambda s: all(x["ready"] for x in s["room"]["seats"]),
                                      timeout=60)
        await ready.wait()
        await conns[0].send("start")
        bots = [make_bot("easy", seed=index * 10 + i) for i in range(ROOM)]
        try:
            await asyncio.gather(*(self.player(c, b, c is conns[0], host["code"])
                                   for c, b in zip(conns, bots, strict=True)))
        finally:
            for c in conns:
                await c.close()

    async def player(self, conn: Any, bot: Any, host: bool, code: str) -> None:
        rng = random.Random(id(conn))
        loop_time = time.monotonic
        while loop_time() < self.deadline:
            st = conn.state
            v = st["view"] if st else None
            if st and st["room"]["status"] == "finished":
                self.actions_seen[code] = self.actions_seen.get(code, 0) + st["seq"]
                if host:
                    await asyncio.sleep(1.0 if self.pace == "human" else 0.0)
                    await conn.send("start")
                await conn.wait_state(lambda s: s["room"]["status"] == "playing"
                                      and s["seq"] == 0, timeout=60)
                continue
            if v and conn.seat in v["to_act"] and v["legal"] and v["phase"] != "round_over":
                if self.pace == "human":
                    await asyncio.sleep(rng.uniform(2.0, 4.0))
                    st = conn.state
                    v = st["view"]
                    if not (v and conn.seat in v["to_act"] and v["legal"]):
                        continue
                seq = st["seq"]
                action = bot.act(v, [])
                t0 = time.perf_counter()
                await conn.act(action)
                try:
                    msg = await conn.wait_for(lambda m, s=seq: m["type"] == "error" or (
                        m["type"] == "state" and m["seq"] > s), timeout=30)
                except TimeoutError:
                    self.errors += 1
                    continue
                if msg["type"] == "state":
                    if time.monotonic() >= self.measure_from:
                        self.latencies.append(time.perf_counter() - t0)
                        if len(self.state_bytes) < 500:  # what a room echo must send
                            self.state_bytes.append(len(json.dumps(msg, separators=(",", ":"))))
                else:
                    if msg["code"] not in ("not_your_turn", "illegal_action"):
                        self.errors += 1
            else:
                try:
                    await conn.recv(timeout=max(0.1, self.deadline - loop_time()))
                except TimeoutError:
                    return


async def _run_load(url: str | list[str], connections: int, pace: str, duration: float,
                    pid: int | list[int] | None, warmup: float, compact: bool = True
                    ) -> dict[str, Any]:
    from colorclash.client import Client

    urls = [url] if isinstance(url, str) else list(url)
    pids = [] if pid is None else [pid] if isinstance(pid, int) else list(pid)
    rooms = max(1, connections // ROOM)
    # Connecting takes a while with thousands of sockets: the clock starts after.
    deadline = time.monotonic() + 3600
    load = Load(urls, pace, deadline, compact)
    ready = asyncio.Event()
    opened = [0]
    sem = asyncio.Semaphore(50)
    tasks = [asyncio.create_task(load.room(Client(urls[i % len(urls)]), i, ready, opened,
                                           sem)) for i in range(rooms)]
    t_open = time.monotonic()
    while opened[0] < rooms * ROOM and time.monotonic() - t_open < 600:
        if any(t.done() and t.exception() for t in tasks):
            break
        await asyncio.sleep(0.5)
    connect_s = time.monotonic() - t_open
    # The load client is the measuring instrument: its own garbage collector must not add
    # pauses to what it measures (4,000 connections make a large heap).
    gc.collect()
    gc.freeze()
    gc.disable()
    start = time.monotonic()
    load.deadline = start + warmup + duration
    load.measure_from = start + warmup
    ready.set()
    await asyncio.sleep(warmup)
    cpu0 = [_proc_cpu_s(p) for p in pids]
    t0 = time.monotonic()
    lat_before = len(load.latencies)
    # the servers' memory through the run (a soak's memory must stay flat)
    rss_series: list[list[float]] = []
    while (left := t0 + duration - time.monotonic()) > 0:
        rss_series.append([round(_proc_rss_kb(p) / 1024, 1) for p in pids])
        await asyncio.sleep(min(RSS_EVERY_S, left))
    wall = time.monotonic() - t0
    cpu1 = [_proc_cpu_s(p) for p in pids]
    rss = [_proc_rss_kb(p) for p in pids]
    rss_series.append([round(r / 1024, 1) for r in rss])
    gc_stats: list[Any] = []
    inside: list[Any] = []  # the server's own action latency (its last 4,096 actions)
    commits: list[Any] = []  # group commit: writes and the commits they took
    for u in urls:
        try:
            health = json.loads(urllib.request.urlopen(u + "/healthz", timeout=5).read())
        except OSError:
            health = {}
        gc_stats.append(health.get("gc"))
        inside.append(health.get("actions"))
        commits.append(health.get("store_writes"))
    lat = [x * 1000 for x in load.latencies[lat_before:]]
    import traceback

    failed = ["".join(traceback.format_exception(t.exception())[-3:])[-400:]
              for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
    gc.enable()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "connections": opened[0], "rooms": rooms, "pace": pace, "connect_s": round(connect_s, 1),
        "duration_s": round(wall, 1), "player_actions": len(lat),
        "player_actions_per_s": round(len(lat) / wall, 1),
        "latency_ms": {"p50": round(_pct(lat, 50), 2), "p95": round(_pct(lat, 95), 2),
                       "p99": round(_pct(lat, 99), 2), "max": round(max(lat, default=0), 2),
                       "mean": round(statistics.fmean(lat), 2) if lat else 0.0},
        "errors": load.errors,
        "state_bytes": round(statistics.fmean(load.state_bytes)) if load.state_bytes else None,
        "rooms_failed": len(failed), "first_failure": failed[0] if failed else None,
        "processes": len(urls),
        "server_cpu": [round((b - a) / wall, 3) for a, b in zip(cpu0, cpu1, strict=True)]
        if pids else None,
        "server_rss_mb": [round(r / 1024, 1) for r in rss] if pids else None,
        "server_rss_growth_pct": [
            round(100 * (rss_series[-1][i] / rss_series[0][i] - 1), 1)
            for i in range(len(pids))] if pids and rss_series[0][0] else None,
        f"server_rss_mb_every_{RSS_EVERY_S}s": rss_series if pids else None,
        "gc": gc_stats,
        "server_action_ms": inside,
        "store_writes": commits,
    }


# ------------------------------------------------------------------ Practice tables
async def _run_practice(url: str, tables: int, duration: float, pid: int) -> dict[str, Any]:
    """``tables`` Practice tables at full speed (one person, the load client, and three
    computer players acting at once): acknowledged engine actions per second, every
    action of every seat stored before it is announced."""
    from colorclash.bots import make_bot
    from colorclash.client import Client

    client = Client(url)
    counted = [0]
    stop = time.monotonic() + duration

    async def table(i: int) -> None:
        while time.monotonic() < stop:
            t = await client.practice(person("Player", i), bots=3, level="easy", preset="classic-table")
            async with await client.connect(t["code"], t["token"]) as conn:
                last = 0

                def count(st: dict[str, Any]) -> bool:
                    nonlocal last
                    if st["seq"] > last:
                        counted[0] += st["seq"] - last
                        last = st["seq"]
                    return st["room"]["status"] == "finished" or time.monotonic() > stop

                try:
                    await conn.play(make_bot("easy", seed=i), until=count,
                                    timeout=duration + 30)
                except TimeoutError:
                    return

    gc.collect()
    gc.disable()
    cpu0 = _proc_cpu_s(pid)
    t0 = time.monotonic()
    await asyncio.gather(*(table(i) for i in range(tables)))
    wall = time.monotonic() - t0
    cpu = (_proc_cpu_s(pid) - cpu0) / wall
    gc.enable()
    return {"kind": "practice", "tables": tables, "actions": counted[0],
            "actions_per_s": round(counted[0] / wall, 1), "server_cpu": round(cpu, 3),
            "actions_per_cpu_s": round(counted[0] / wall / max(cpu, 1e-9), 1)}


# ------------------------------------------------------------------ the echo floor
ECHO_APP = """
import asyncio, sys

ROOMS = {}

async def relay(name, size, member, receive, send_to):
    # what a room does with an action, minus the game: every socket of the room gets a
    # message of a state's size
    reply = '{"type":"state","pad":"' + "x" * max(0, size - 28) + '"}'
    members = ROOMS.setdefault(name, [])
    members.append(member)
    try:
        while True:
            await receive()
            for other in list(members):
                await send_to(other, reply)
    except Exception:
        pass
    finally:
        members.remove(member)

def serve_asgi(port):
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute

    async def echo(ws):
        await ws.accept()
        try:
            while True:
                await ws.send_text(await ws.receive_text())
        except Exception:
            pass

    async def room_echo(ws):
        size = int(ws.query_params.get("size", "2000"))
        await ws.accept()
        await relay(ws.path_params["name"], size, ws, ws.receive_text,
                    lambda other, text: other.send_text(text))

    app = Starlette(routes=[WebSocketRoute("/echo", echo),
                            WebSocketRoute("/room/{name}", room_echo)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")

def serve_raw(port):
    # the room echo without ASGI: the websockets library's own server on uvloop
    import uvloop
    from websockets.asyncio.server import serve

    async def room_echo(ws):
        path = ws.request.path
        name = path.split("/room/", 1)[1].split("?", 1)[0]
        size = int(path.split("size=", 1)[1]) if "size=" in path else 2000
        await relay(name, size, ws, ws.recv, lambda other, text: other.send(text))

    async def main():
        async with serve(room_echo, "127.0.0.1", port, compression=None):
            await asyncio.Future()

    uvloop.run(main())

(serve_raw if sys.argv[2:] == ["raw"] else serve_asgi)(int(sys.argv[1]))
"""


async def _run_echo(port: int, connections: int, pace: str, duration: float,
                    pid: int, warmup: float, room_bytes: int | None = None) -> dict[str, Any]:
    """The floor: the same client, the same rooms and pace, against a bare echo. Plain, each
    action is answered by one echo to its sender; with ``room_bytes``, by a message of that
    size to each of the room's 4 sockets (what a game's state does, minus the game), and
    every socket reads and decodes what it gets, as the game's players do."""
    import websockets

    lat: list[float] = []
    deadline = time.monotonic() + 3600
    measure_from = [1e18]
    # Each of the 4 players of a "room" speaks in turn, as in a game.
    payload = json.dumps({"v": 1, "type": "action", "action": {"type": "play", "card": "R7"}})

    path = "/echo" if room_bytes is None else f"/room/{{}}?size={room_bytes}"

    async def reader(ws: Any, box: list[asyncio.Future[None] | None]) -> None:
        async for raw in ws:
            json.loads(raw)
            if box[0] is not None and not box[0].done():
                box[0].set_result(None)

    async def room(i: int, ready: asyncio.Event, sem: asyncio.Semaphore) -> None:
        async with sem:
            socks = [await websockets.connect(f"ws://127.0.0.1:{port}" + path.format(i),
                                              max_size=2**22) for _ in range(ROOM)]
        boxes: list[list[asyncio.Future[None] | None]] = [[None] for _ in socks]
        readers = ([asyncio.create_task(reader(ws, box)) for ws, box in zip(socks, boxes, strict=True)]
                   if room_bytes is not None else [])
        rng = random.Random(i)
        await ready.wait()
        turn = 0
        try:
            while time.monotonic() < deadline:
                if pace == "human":
                    await asyncio.sleep(rng.uniform(2.0, 4.0))
                ws = socks[turn]
                t0 = time.perf_counter()
                if room_bytes is None:
                    await ws.send(payload)
                    await ws.recv()
                else:
                    boxes[turn][0] = asyncio.get_running_loop().create_future()
                    await ws.send(payload)
                    await boxes[turn][0]
                if time.monotonic() >= measure_from[0]:
                    lat.append((time.perf_counter() - t0) * 1000)
                turn = (turn + 1) % ROOM
        finally:
            for t in readers:
                t.cancel()
            for ws in socks:
                await ws.close()

    ready = asyncio.Event()
    rooms = max(1, connections // ROOM)
    sem = asyncio.Semaphore(50)
    tasks = [asyncio.create_task(room(i, ready, sem)) for i in range(rooms)]
    await asyncio.sleep(min(30, 0.01 * connections + 1))
    gc.collect()
    gc.freeze()
    gc.disable()
    start = time.monotonic()
    deadline = start + warmup + duration
    measure_from[0] = start + warmup
    ready.set()
    await asyncio.sleep(warmup)
    cpu0 = _proc_cpu_s(pid)
    t0 = time.monotonic()
    await asyncio.sleep(duration)
    wall = time.monotonic() - t0
    cpu1 = _proc_cpu_s(pid)
    rss = _proc_rss_kb(pid)
    gc.enable()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"connections": rooms * ROOM, "pace": pace, "room_bytes": room_bytes,
            "messages": len(lat),
            "messages_per_s": round(len(lat) / wall, 1),
            "latency_ms": {"p50": round(_pct(lat, 50), 2), "p95": round(_pct(lat, 95), 2),
                           "p99": round(_pct(lat, 99), 2), "max": round(max(lat, default=0), 2)},
            "server_cpu": round((cpu1 - cpu0) / wall, 3), "server_rss_mb": round(rss / 1024, 1)}


# ------------------------------------------------------------------ idle memory
async def _run_idle(url: str, pid: int, n: int) -> dict[str, Any]:
    from colorclash.client import Client

    client = Client(url)
    rss0 = _proc_rss_kb(pid)
    conns = []
    for i in range(max(1, n // ROOM)):
        t = await client.create_room(person("Idle", i), preset="classic-table", seats=ROOM)
        conns.append(await client.connect(t["code"], t["token"]))
        for j in range(1, ROOM):
            tj = await client.join(t["code"], person("Idle", i, j))
            conns.append(await client.connect(t["code"], tj["token"]))
    await asyncio.sleep(2)
    rss1 = _proc_rss_kb(pid)
    for c in conns:
        await c.close()
    return {"idle_connections": len(conns), "rss_before_mb": round(rss0 / 1024, 1),
            "rss_after_mb": round(rss1 / 1024, 1),
            "kb_per_idle_connection": round((rss1 - rss0) / max(1, len(conns)), 1)}


# ------------------------------------------------------------------ searching bots vs pings
async def _run_thinking(url: str, rooms: int, duration: float) -> dict[str, Any]:
    """``rooms`` Practice tables of one person (the load client, at full speed) and three
    ``hard`` computer players, and meanwhile a ping every 20 ms on a room of its own: the
    ping's round trip shows how long other rooms wait while the computers think."""
    from colorclash.bots import make_bot
    from colorclash.client import Client

    client = Client(url)
    stop = time.monotonic() + duration + 3

    async def table(i: int) -> None:
        while time.monotonic() < stop:
            t = await client.practice(person("Table", i), bots=3, level="hard", preset="classic-table")
            async with await client.connect(t["code"], t["token"]) as conn:
                try:
                    await conn.play(make_bot("easy", seed=i), timeout=max(1, stop -
                                                                         time.monotonic()))
                except TimeoutError:
                    return

    pinger_t = await client.create_room("Pinger")
    pinger = await client.connect(pinger_t["code"], pinger_t["token"])
    tables = [asyncio.create_task(table(i)) for i in range(rooms)]
    await asyncio.sleep(3)
    rtts: list[float] = []
    end = time.monotonic() + duration
    i = 0
    while time.monotonic() < end:
        i += 1
        t0 = time.perf_counter()
        await pinger.send("ping", t=i)
        await pinger.wait_for(lambda m, n=i: m["type"] == "pong" and m["t"] == n, timeout=10)
        rtts.append((time.perf_counter() - t0) * 1000)
        await asyncio.sleep(0.02)
    for t in tables:
        t.cancel()
    await asyncio.gather(*tables, return_exceptions=True)
    await pinger.close()
    return {"hard_rooms": rooms, "pings": len(rtts),
            "ping_ms": {"p50": round(_pct(rtts, 50), 2), "p99": round(_pct(rtts, 99), 2),
                        "max": round(max(rtts, default=0), 2)}}


def _with_redis(tmp: str, processes: int, env: dict[str, str], run: Any) -> dict[str, Any]:
    """Start a redis-server and ``processes`` servers on it, call ``run(urls, pids)``."""
    import shutil

    from colorclash.server.testing import ServerProcess, free_port

    port = free_port()
    folder = Path(tmp) / f"redis-{port}"
    folder.mkdir()
    redis = subprocess.Popen([shutil.which("redis-server") or "/usr/bin/redis-server",
                              "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "yes", "--appendfsync", "everysec",
                              "--dir", str(folder)], stdout=subprocess.DEVNULL)
    time.sleep(0.5)
    url = f"redis://127.0.0.1:{port}/0"
    procs = [ServerProcess(url, env=env).start() for _ in range(processes)]
    try:
        return run([p.url for p in procs], [p.proc.pid for p in procs])
    finally:
        for p in procs:
            p.stop()
        redis.terminate()
        redis.wait(10)


def _start_echo(raw: bool = False) -> tuple[subprocess.Popen[bytes], int]:
    """The echo server: uvicorn and Starlette, as the site runs; ``raw``: the room echo on
    the websockets library's own server instead (what the ASGI path costs per message)."""
    from colorclash.server.testing import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", ECHO_APP, str(port)]
                            + (["raw"] if raw else []))
    time.sleep(1.5)
    return proc, port


def main(argv: list[str] | None = None) -> int:
    from colorclash.server.testing import LIFTED_LIMITS_ENV, ServerProcess

    p = argparse.ArgumentParser(prog="colorclash bench server",
                                description=__doc__.split("\n")[0])
    p.add_argument("--connections", default="400", help="comma-separated counts (rooms of 4)")
    p.add_argument("--pace", choices=["human", "full"], default="human",
                   help="human: each player acts 2-4 s after its turn comes; full: at once")
    p.add_argument("--full-states", action="store_true",
                   help="players ask for complete states (every state with its room), not "
                        "the compact ones the browser asks for")
    p.add_argument("--duration", type=float, default=30.0, help="measured seconds per run")
    p.add_argument("--warmup", type=float, default=5.0,
                   help="seconds played before the measure starts (default 5)")
    p.add_argument("--echo", action="store_true", help="also the echo floor, same load")
    p.add_argument("--room-echo", action="store_true",
                   help="with --echo, also a room echo: each action answered by a message "
                        "of a state's size to each of the room's 4 sockets")
    p.add_argument("--raw-room-echo", action="store_true",
                   help="with --room-echo, also the room echo on the websockets library's "
                        "own server, without uvicorn and Starlette")
    p.add_argument("--repeat", type=int, default=1, metavar="K",
                   help="with --echo: K pairs of runs (ours and the floors), every other "
                        "pair floors first; a summary gives the median of the pairs' p99 "
                        "ratios (this machine's tail drifts over minutes)")
    p.add_argument("--idle", type=int, default=0, help="measure N idle connections' memory")
    p.add_argument("--practice", type=int, default=0, metavar="TABLES",
                   help="TABLES Practice tables at full speed: engine actions per second")
    p.add_argument("--thinking", type=int, default=0,
                   help="N Practice rooms of hard players and a pinging room, with the "
                        "search in worker processes and on the event loop")
    p.add_argument("--synchronous", choices=["full", "normal"], default="full",
                   help="the SQLite store's synchronous setting (default full)")
    p.add_argument("--redis", type=int, default=0, metavar="N",
                   help="N processes on a Redis of its own (redis-server, AOF everysec) "
                        "instead of one on SQLite; a room's players are spread over them")
    p.add_argument("--url", default=None, help="a running site instead of a child process")
    p.add_argument("--out", default=None, help="append results here (JSON lines)")
    p.add_argument("--label", default=None, help="a name for these runs in the plot")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    args = p.parse_args(argv)
    _raise_nofile()
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover
        pass
    env = {"COLORCLASH_RATE_PER_S": "100000", "COLORCLASH_RATE_BURST": "100000",
           "COLORCLASH_MAX_PENDING_PER_ADDRESS": "100000", "COLORCLASH_MAX_PENDING": "100000",
           "COLORCLASH_RECONNECT_GRACE": "600", "COLORCLASH_MAX_CONNECTIONS_PER_ADDRESS":
           "100000", "COLORCLASH_MAX_CONNECTIONS": "100000", **LIFTED_LIMITS_ENV}
    results: list[dict[str, Any]] = []

    def emit(r: dict[str, Any]) -> None:
        r["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        r["load_avg"] = round(os.getloadavg()[0], 2)
        results.append(r)
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps(r) + "\n")
        if not args.json:
            print(json.dumps(r), flush=True)

    counts = [int(x) for x in args.connections.split(",") if x.strip() and int(x) > 0]
    compact = not args.full_states
    with tempfile.TemporaryDirectory() as tmp:
        for n in counts:
            def game(n: int = n) -> dict[str, Any]:
                if args.url:
                    r = asyncio.run(_run_load(args.url, n, args.pace, args.duration, None,
                                              args.warmup, compact))
                elif args.redis:
                    r = _with_redis(tmp, args.redis, env, lambda urls, pids: asyncio.run(
                        _run_load(urls, n, args.pace, args.duration, pids, args.warmup,
                                  compact)))
                    r["store"] = f"redis x{args.redis}"
                else:
                    db = Path(tmp) / f"bench-{n}-{time.monotonic_ns()}.sqlite3"
                    with ServerProcess(f"sqlite:///{db}?synchronous={args.synchronous}",
                                       env=env) as srv:
                        r = asyncio.run(_run_load(srv.url, n, args.pace, args.duration,
                                                  srv.proc.pid, args.warmup, compact))
                r.update(kind="game", states="compact" if compact else "full")
                r.setdefault("store", "sqlite" if not args.url else args.url)
                if args.label:
                    r["label"] = args.label
                return r

            def floors(size: int, n: int = n) -> dict[str, dict[str, Any]]:
                def floor(raw: bool, room_bytes: int | None) -> dict[str, Any]:
                    proc, port = _start_echo(raw)
                    try:
                        return asyncio.run(_run_echo(port, n, args.pace, args.duration,
                                                     proc.pid, args.warmup, room_bytes))
                    finally:
                        proc.terminate()
                        proc.wait(10)

                wanted = [("echo", False, None)]
                if args.room_echo:
                    wanted.append(("room_echo", False, size))
                    if args.raw_room_echo:
                        wanted.append(("raw_room_echo", True, size))
                return {name: floor(raw, room_bytes) for name, raw, room_bytes in wanted}

            pairs: list[dict[str, Any]] = []
            size = 2000
            for k in range(max(1, args.repeat) if args.echo else 1):
                floors_first = args.echo and k % 2 == 1
                measured = floors(size) if floors_first else {}
                r = game()
                size = r.get("state_bytes") or size
                if args.echo and not floors_first:
                    measured = floors(size)
                for name, e in measured.items():
                    r[name] = e
                    if e["latency_ms"]["p99"]:
                        r[f"p99_over_{name}"] = round(
                            r["latency_ms"]["p99"] / e["latency_ms"]["p99"], 2)
                if args.repeat > 1:
                    r["pair"] = k + 1
                    r["floors_first"] = floors_first
                pairs.append(r)
                emit(r)
            if args.echo and args.repeat > 1:
                ratios = [r["p99_over_echo"] for r in pairs if "p99_over_echo" in r]
                emit({"kind": "summary", "connections": n, "pace": args.pace,
                      "pairs": len(pairs), "p99_ms": [r["latency_ms"]["p99"] for r in pairs],
                      "echo_p99_ms": [r["echo"]["latency_ms"]["p99"] for r in pairs],
                      "p99_over_echo": ratios,
                      "median_p99_over_echo": statistics.median(ratios) if ratios else None})
        if args.practice:
            db = Path(tmp) / "practice.sqlite3"
            with ServerProcess(f"sqlite:///{db}?synchronous={args.synchronous}", env={
                    **env, "COLORCLASH_BOT_DELAY": "0"}) as srv:
                emit(asyncio.run(_run_practice(srv.url, args.practice, args.duration,
                                               srv.proc.pid)))
        if args.thinking:
            for workers in (0, 1):
                db = Path(tmp) / f"thinking-{workers}.sqlite3"
                with ServerProcess(f"sqlite:///{db}", env={
                        **env, "COLORCLASH_BOT_WORKERS": str(workers),
                        "COLORCLASH_BOT_DELAY": "0"}) as srv:
                    emit({"kind": "thinking", "bot_workers": workers,
                          **asyncio.run(_run_thinking(srv.url, args.thinking,
                                                      args.duration))})
        if args.idle:
            db = Path(tmp) / "idle.sqlite3"
            with ServerProcess(f"sqlite:///{db}", env=env) as srv:
                emit({"kind": "idle", **asyncio.run(_run_idle(srv.url, srv.proc.pid,
                                                                 args.idle))})
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
