"""``colorclash bench engine-instructions``: the engine benchmark counted in CPU instructions.

Timings on a shared machine drift with the load; instruction counts do not. This runs the
same games and the same policy as ``colorclash bench engine`` (Color Clash ``family``, two
players, one round, against RLCard's raw ``UnoGame``) under ``valgrind --tool=callgrind``,
three times: imports only, our games, RLCard's games, and reports instructions per
decision for each side (imports subtracted) and their ratio. Instructions are not time (the
two engines need not run at the same instructions per cycle), so the timed benchmark stays
the reference; this one is the repeatable check of a change to the engine.

Usage: ``colorclash bench engine-instructions [--games N] [--json]`` (needs valgrind).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_RUNNER = r"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("bench_engine", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
import numpy, rlcard.games.uno.game, colorclash.engine.color_clash  # imports counted apart
m.play_colorclash_games(range(2)); m.baseline.play_games(range(2))  # warm caches
side, n = sys.argv[2], int(sys.argv[3])
tally = None
if side == "ours":
    tally = m.play_colorclash_games(range(n))
elif side == "rlcard":
    tally = m.baseline.play_games(range(n))
print("decisions", tally.decisions if tally else 0)
"""


def _count(side: str, games: int, workdir: Path) -> tuple[int, int]:
    runner = workdir / "runner.py"
    runner.write_text(_RUNNER)
    out = workdir / f"callgrind.{side}"
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
         str(runner), str(Path(__file__).with_name("engine.py")), side, str(games)],
        capture_output=True, text=True, check=True,
    )
    instructions = int(re.search(r"Collected : (\d+)", proc.stderr).group(1))
    decisions = int(re.search(r"decisions (\d+)", proc.stdout).group(1))
    return instructions, decisions


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="colorclash bench engine-instructions",
        description="The engine benchmark's games counted in CPU instructions (valgrind's "
                    "callgrind) against RLCard's UNO: the repeatable check of an engine "
                    "change on a noisy machine.")
    parser.add_argument("--games", type=int, default=150, help="games per side")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is needed: apt-get install -y valgrind", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        base, _ = _count("none", args.games, Path(tmp))
        ours, ours_decisions = _count("ours", args.games, Path(tmp))
        theirs, their_decisions = _count("rlcard", args.games, Path(tmp))
    per_ours = (ours - base) / ours_decisions
    per_theirs = (theirs - base) / their_decisions
    result = {
        "games": args.games,
        "instructions_per_decision": {"colorclash": round(per_ours), "rlcard": round(per_theirs)},
        "decisions": {"colorclash": ours_decisions, "rlcard": their_decisions},
        "ratio": round(per_theirs / per_ours, 3),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"instructions per decision: Color Clash {per_ours:,.0f}, "
              f"RLCard {per_theirs:,.0f}; ratio {per_theirs / per_ours:.2f}x "
              f"({args.games} games per side)")
    return 0
