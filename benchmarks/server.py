"""``colorclash bench server``: load on a real server over real WebSockets.

Starts ``colorclash serve`` in a child process (SQLite store in a temporary folder,
computer players without delay, rate limits lifted), then runs ``--tables`` Practice
tables at once, each one person (a protocol client playing the ``easy`` bot) against three
computer players, until ``--games`` matches have finished. Reports server-side actions per
second (every engine action: people's and computers', each stored with fsync before it is
announced) and the round trip of a person's action (send -> the ``state`` that shows it).

Usage: ``colorclash bench server [--tables 8] [--games 40] [--preset classic-table]
[--synchronous full|normal] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


async def _table(client: Any, preset: str, games_left: list[int], lat: list[float],
                 actions: list[int], seed: int) -> None:
    from colorclash.bots import make_bot

    bot = make_bot("easy", seed=seed)
    while games_left[0] > 0:
        games_left[0] -= 1
        t = await client.practice("Bench", bots=3, level="easy", preset=preset)
        async with await client.connect(t["code"], t["token"]) as conn:
            while conn.room["status"] != "finished":
                v = conn.view
                if v and conn.seat in v["to_act"] and v["legal"] and v["phase"] != "round_over":
                    seq = conn.state["seq"]
                    t0 = time.perf_counter()
                    await conn.act(bot.act(v, []))
                    msg = await conn.wait_for(
                        lambda m, s=seq: m["type"] == "error"
                        or (m["type"] == "state" and m["seq"] > s), timeout=30)
                    if msg["type"] == "state":
                        lat.append(time.perf_counter() - t0)
                else:
                    await conn.recv(timeout=60)
            actions.append(conn.state["seq"])


async def _run(url: str, tables: int, games: int, preset: str) -> dict[str, Any]:
    from colorclash.client import Client

    client = Client(url)
    lat: list[float] = []
    actions: list[int] = []
    left = [games]
    t0 = time.perf_counter()
    await asyncio.gather(*(_table(client, preset, left, lat, actions, i)
                           for i in range(tables)))
    wall = time.perf_counter() - t0
    lat.sort()

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else 0.0

    return {"benchmark": "server", "preset": preset, "tables": tables,
            "games": len(actions), "actions": sum(actions), "seconds": round(wall, 2),
            "actions_per_s": round(sum(actions) / wall, 1),
            "games_per_s": round(len(actions) / wall, 2),
            "human_actions": len(lat),
            "latency_ms": {"p50": pct(0.5), "p95": pct(0.95), "p99": pct(0.99),
                           "mean": round(1000 * statistics.fmean(lat), 2) if lat else 0.0}}


def main(argv: list[str] | None = None) -> int:
    from colorclash.server.testing import LIFTED_LIMITS_ENV, ServerProcess

    p = argparse.ArgumentParser(prog="colorclash bench server", description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=8, help="tables playing at once")
    p.add_argument("--games", type=int, default=40, help="matches to finish in total")
    p.add_argument("--preset", default="classic-table")
    p.add_argument("--synchronous", choices=["full", "normal"], default="full",
                   help="SQLite synchronous mode of the store (default full, as served)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    env = {"COLORCLASH_BOT_DELAY": "0", "COLORCLASH_RATE_PER_S": "100000",
           "COLORCLASH_RATE_BURST": "100000", "COLORCLASH_RECONNECT_GRACE": "600",
           **LIFTED_LIMITS_ENV}
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        with ServerProcess(f"sqlite:///{db}?synchronous={args.synchronous}", env=env) as srv:
            result = asyncio.run(_run(srv.url, args.tables, args.games, args.preset))
    result["synchronous"] = args.synchronous
    if args.json:
        print(json.dumps(result))
    else:
        lat = result["latency_ms"]
        print(f"server: {result['games']} {args.preset} matches on {args.tables} tables in "
              f"{result['seconds']} s")
        print(f"  {result['actions']} engine actions: {result['actions_per_s']} actions/s, "
              f"{result['games_per_s']} matches/s")
        print(f"  a person's action round trip ({result['human_actions']} actions): "
              f"p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
