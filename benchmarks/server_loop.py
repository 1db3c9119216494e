"""The cost of one player's action on the server's event loop, without sockets.

``colorclash bench server`` measures the whole site over real WebSockets, where a run's
figures move by 5-10% with the machine's mood. This one times only what the loop does for
an action, in one process: the frame parsed and validated, the rules applied, the room's
write handed to the writer thread, the clocks, and every seat's ``state`` made and encoded
(then handed to sockets that only count them). The writer thread commits to SQLite as the
server does (``synchronous=normal`` here: the disk is not what is measured). Rooms of 4
Classic Table seats, every seat an ``easy`` computer player's choice sent as a frame; the
choice and the frame are the client's work and are not timed.

The baseline, measured in the same run, interleaved action by action: the engine alone
doing what the server makes it do for each action (``apply``, then ``view`` for each of
the 4 seats), on games of its own. ``overhead`` is the loop's time over the engine's.

Usage: ``colorclash bench server-loop [--rooms 50] [--actions 20000] [--repeat 3] [--json]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SEATS = 4


class CountingConn:
    """A socket that takes states and counts them (compact, as the browser asks)."""

    compact = True
    closed = False
    pending = 0

    def __init__(self) -> None:
        self.sent = 0

    def send_text(self, text: str) -> None:
        self.sent += 1

    def send(self, msg: dict[str, Any]) -> None:
        self.sent += 1

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = True


async def _loop_run(rooms: int, actions: int) -> dict[str, Any]:
    from colorclash.bots import make_bot
    from colorclash.server import gctune
    from colorclash.server.config import Settings
    from colorclash.server.hub import Hub
    from colorclash.server.protocol import parse_client_message
    from colorclash.server.testing import LIFTED_LIMITS
    from colorclash.store.sqlite import SQLiteStore

    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "loop.sqlite3", synchronous="normal")
        hub = Hub(store, Settings(**LIFTED_LIMITS, bot_delay=0.0, bot_workers=0))
        hub.start_background()
        tables = []
        for i in range(rooms):
            room, _, _ = hub.create_private(f"H{i}", preset="classic-table", seats=SEATS)
            for j in range(1, SEATS):
                hub.join(room.code, f"P{i}x{j}")
            conns = [CountingConn() for _ in range(SEATS)]
            for seat, conn in enumerate(conns):
                hub.attach(room, seat, conn)
            for seat in range(1, SEATS):
                hub.lobby.ready(room, seat, True)
            hub.start(room, 0)
            tables.append((room, [make_bot("easy", seed=i * 10 + s) for s in range(SEATS)],
                           conns))
        await asyncio.sleep(0.2)
        gctune.tune("50000,50,100")  # as `colorclash serve` does
        twins = [EngineTwin(i) for i in range(rooms)]
        spent = engine = stick = 0.0
        done = 0
        while done < actions:
            for (room, bots, _conns), twin in zip(tables, twins, strict=True):
                if room.status == "finished":
                    hub.start(room, 0)
                    continue
                to_act = room.game.to_act
                if not to_act:
                    continue
                seat = to_act[0]
                view = room.game.view(seat)
                view["legal"] = hub.table.sendable(room, seat, view.get("legal") or [])
                if not view["legal"] or view["phase"] == "round_over":
                    continue
                raw = json.dumps({"v": 1, "type": "action", "action": bots[seat].act(view, [])})
                began = time.thread_time()
                hub.frame_at = time.perf_counter()
                hub.handle(room, seat, parse_client_message(raw, hub.settings.max_frame))
                hub.frame_at = None
                spent += time.thread_time() - began
                engine += twin.step()
                stick += yardstick()
                done += 1
            await asyncio.sleep(0)  # the writer's answers: the states go out
        for room, _, _ in tables:  # every state handed over (the writer may lag behind)
            await hub.answered(room)
        sent = sum(c.sent for _, _, conns in tables for c in conns)
        await hub.shutdown()
        store.close()
    return {"actions": done, "loop_us": 1e6 * spent / done, "engine_us": 1e6 * engine / done,
            "yardstick_us": 1e6 * stick / done, "states_sent": sent}


_HANDS = [[f"{c}{n}" for c in "RGBY" for n in range(k, 10, 3)] for k in range(4)]


def yardstick() -> float:
    """A fixed piece of plain Python (dicts, lists, comprehensions, JSON), the same in every
    version of the project: a run's figures over it compare versions run at different
    moments of a noisy machine (the same code's figures move by half from one process to
    the next here; the yardstick moves with them)."""
    began = time.thread_time()
    for seat in range(SEATS):
        v = {"seat": seat, "hand": [c.lower() for c in _HANDS[seat]],
             "counts": [len(h) for h in _HANDS], "legal": [
                 {"type": "play", "card": c} for c in _HANDS[seat] if c[0] in "RG"],
             "scores": [0, 0, 0, 0], "to_act": [seat], "options": {"a": 1, "b": [1, 2]}}
        json.dumps(v, separators=(",", ":"))
    return time.thread_time() - began


class EngineTwin:
    """The baseline: the engine alone doing what the server makes it do for an action
    (``apply``, then ``view`` for each of the 4 seats) on a game of its own, stepped right
    after each of the loop's actions so that both see the machine in the same mood."""

    def __init__(self, seed: int) -> None:
        from colorclash.bots import make_bot

        self.seed = seed
        self.bots = [make_bot("easy", seed=seed * 10 + s) for s in range(SEATS)]
        self.game = self._new()

    def _new(self) -> Any:
        from colorclash.engine import new_game

        self.seed += 1000
        return new_game("color-clash", preset="classic-table", seats=SEATS, seed=self.seed)

    def step(self) -> float:
        game = self.game
        if game.over:
            self.game = self._new()
            game = self.game
        seat = game.to_act[0]
        view = game.view(seat)
        legal = [a for a in view["legal"] if a["type"] not in ("timeout", "substitute")]
        if view["phase"] == "round_over":
            action = {"type": "next"}
        else:
            view["legal"] = legal
            action = self.bots[seat].act(view, [])
        began = time.thread_time()
        game.apply(seat, action)
        for s in range(SEATS):
            game.view(s)
        return time.thread_time() - began


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="colorclash bench server-loop",
                                description=__doc__.split("\n")[0])
    p.add_argument("--rooms", type=int, default=50,
                   help="4-seat rooms played in turn (default 50)")
    p.add_argument("--actions", type=int, default=20000,
                   help="actions timed per run (default 20000)")
    p.add_argument("--repeat", type=int, default=3,
                   help="runs; the median is reported (default 3)")
    p.add_argument("--json", action="store_true", help="print one JSON object, not a table")
    args = p.parse_args(argv)
    runs = []
    for _ in range(args.repeat):
        loop = asyncio.run(_loop_run(args.rooms, args.actions))
        loop["overhead"] = round(loop["loop_us"] / loop["engine_us"], 2)
        loop["loop_over_yardstick"] = round(loop["loop_us"] / loop["yardstick_us"], 2)
        loop["engine_over_yardstick"] = round(loop["engine_us"] / loop["yardstick_us"], 2)
        for key in ("loop_us", "engine_us", "yardstick_us"):
            loop[key] = round(loop[key], 1)
        runs.append(loop)
        if not args.json:
            print(f"{loop['actions']} actions: {loop['loop_us']} us each on the loop, the "
                  f"engine alone {loop['engine_us']} us: {loop['overhead']}x; the yardstick "
                  f"{loop['yardstick_us']} us: loop {loop['loop_over_yardstick']}x, engine "
                  f"{loop['engine_over_yardstick']}x ({loop['states_sent']} states sent)",
                  file=sys.stderr)
    summary = {"runs": runs,
               "median_loop_us": statistics.median(r["loop_us"] for r in runs),
               "median_engine_us": statistics.median(r["engine_us"] for r in runs),
               "median_overhead": statistics.median(r["overhead"] for r in runs),
               "median_loop_over_yardstick": statistics.median(
                   r["loop_over_yardstick"] for r in runs),
               "median_engine_over_yardstick": statistics.median(
                   r["engine_over_yardstick"] for r in runs)}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"median: {summary['median_loop_us']} us per action on the loop, "
              f"{summary['median_overhead']}x the engine's {summary['median_engine_us']} us; "
              f"{summary['median_loop_over_yardstick']}x the yardstick (the engine "
              f"{summary['median_engine_over_yardstick']}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
