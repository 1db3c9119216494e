"""How much hidden information is worth to ``hard``: a ceiling for its strength.

``hard`` plays 2-seat games against ``medium`` three ways, on the same deals (each deal
played once in each seat):

- ``fair``: the real bot, which deals its worlds from what its view and the public events
  tell (docs/bots.md);
- ``hand``: a *peeking* ``hard`` whose every world is the real game with the opponent's
  real hand, only the order of the draw pile shuffled: what perfect knowledge of the other
  hand would give;
- ``all``: every world is the real game, draw pile order included (it even knows the
  cards it will draw).

The peeking bots exist only here, to measure: the real bot never holds the game.

Usage: ``colorclash bench bots-ceiling [--games N] [--presets P,...] [--modes fair,hand,all]
[--seed S] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from colorclash.bots import make_bot
from colorclash.bots.hard import HardBot
from colorclash.engine import new_game
from colorclash.simulate import wilson

MODES = ("fair", "hand", "all")


class PeekingHardBot(HardBot):
    """``hard`` whose worlds are copies of the real game (``table``, set before each act)."""

    def __init__(self, *, shuffle_draw: bool, **options: Any) -> None:
        super().__init__(**options)
        self.shuffle_draw = shuffle_draw
        self.table: Any = None

    def _world(self, view, rng):
        world = self.table.copy()
        if self.shuffle_draw:
            rng.shuffle(world.draw_pile)
        return world


def run(preset: str, mode: str, games: int, seed: int) -> dict[str, Any]:
    wins = 0
    t0 = time.perf_counter()
    for gi in range(games):
        me = gi % 2
        g = new_game("color-clash", preset=preset, seats=2, seed=f"{seed}:{gi // 2}")
        if mode == "fair":
            hard = make_bot("hard", seed=f"{seed}:{gi}")
        else:
            hard = PeekingHardBot(seed=f"{seed}:{gi}", shuffle_draw=mode == "hand")
        bots = [None, None]
        bots[me] = hard
        bots[1 - me] = make_bot("medium", seed=gi)
        for b in bots:
            b.observe(g.start_events)
        while not g.over:
            seat = g.to_act[0]
            if seat == me and mode != "fair":
                hard.table = g
            events = g.apply(seat, bots[seat].act(g.view(seat)))
            for b in bots:
                b.observe(events)
        winners = g.result["winners"]
        wins += len(winners) == 1 and winners[0] == me
    low, high = wilson(wins, games)
    return {"preset": preset, "mode": mode, "games": games, "seed": seed, "wins": wins,
            "win_rate": wins / games, "ci95": [low, high],
            "wall_s": round(time.perf_counter() - t0, 1)}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="colorclash bench bots-ceiling", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000,
                    help="games per preset and mode (default 1000)")
    ap.add_argument("--presets", default="standard",
                    help="comma-separated Color Clash presets (default standard)")
    ap.add_argument("--modes", default=",".join(MODES),
                    help=f"comma-separated, of {', '.join(MODES)} (default all)")
    ap.add_argument("--seed", type=int, default=2026, help="seed of the deals (default 2026)")
    ap.add_argument("--json", action="store_true", help="print one JSON object, not a table")
    args = ap.parse_args(argv)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if any(m not in MODES for m in modes) or args.games < 1:
        ap.error(f"--modes among {', '.join(MODES)}; --games at least 1")
    results = []
    for preset in [p.strip() for p in args.presets.split(",") if p.strip()]:
        for mode in modes:
            r = run(preset, mode, args.games, args.seed)
            results.append(r)
            if not args.json:
                lo, hi = r["ci95"]
                print(f"{preset:13} {mode:5} {r['games']:5} games: hard wins "
                      f"{100 * r['win_rate']:5.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
                      f"({r['wall_s']:.0f} s)", flush=True)
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
