"""``colorclash bench engine``: engine speed, side by side with RLCard's UNO game.

Full random two-player games of the Color Clash ``family`` preset (108 cards, no stacking,
the last-card call made for you), one round per game, against RLCard's raw ``UnoGame``, under
the same policy: a uniformly random distinct playable card (for a wild, then a uniformly
random colour), else draw; a playable drawn card is played at once. The two measurements are
interleaved (several rounds; within a round the sides alternate in small chunks of games) and
medians over the rounds are reported, because the machine is shared and noisy.

A *decision* is one call of the policy: one per turn, on both sides. On our side a turn that
draws a playable card takes two engine steps (``draw``, then ``play``) but is one decision,
because RLCard does the same thing inside one ``step("draw")``. See docs/benchmarks.md.

Usage: ``colorclash bench engine [--games N | --seconds S] [--rounds R] [--chunk C]
[--clock cpu|wall] [--seed S] [--json] [--no-rlcard] [--min-ratio X] [--profile]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def _load_baseline():
    """The sibling module ``_rlcard_baseline`` (works whether or not ``benchmarks`` is a
    package on ``sys.path``: the CLI loads this file by its path)."""
    name = "colorclash_bench_rlcard_baseline"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).with_name("_rlcard_baseline.py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


baseline = _load_baseline()
Tally = baseline.Tally

PRESET = "family"
SEATS = 2
#: Safety net: a game longer than this many engine steps is cut and counted as aborted.
MAX_STEPS = 20_000


# ---------------------------------------------------------------- our side


def _choose_play(acts: list[dict[str, Any]], rand) -> dict[str, Any] | None:
    """The benchmark policy on our legal actions: a uniformly random distinct card among
    the plays, then (a wild) a uniformly random colour; ``None`` when nothing can be
    played. ``rand`` is a ``random.Random().random``.

    The engine lists the plays first (docs/engine.md, "The order of legal_actions"), each
    playable face once and a wild once per colour (4 actions). So: count the leading plays,
    pick one uniformly, and keep a wild's action with probability 1/4, else pick again.
    Every distinct card then has the same chance, and a wild's colours equal chances
    (rejection sampling: no grouping by card needed).
    """
    n = len(acts)
    while n and acts[n - 1]["type"] != "play":
        n -= 1
    if not n:
        return None
    while True:
        action = acts[int(rand() * n)]
        if "color" not in action or rand() < 0.25:
            return action


_KEEP = {"type": "keep"}


def play_colorclash_games(seeds: range | list[int], policy_seed: int = 0) -> Tally:
    """Play one full round of ``family`` for two seats per seed; time the whole batch
    (``new_game`` included)."""
    from colorclash.engine import new_game

    rand = random.Random(policy_seed).random
    tally = Tally(wins=[0] * SEATS)
    options = {"rounds": 1}
    perf, cpu = time.perf_counter, time.thread_time
    decisions = draws = drawn_played = 0
    start, start_cpu = perf(), cpu()
    for seed in seeds:
        g = new_game("color-clash", preset=PRESET, seats=SEATS, seed=seed, options=options)
        legal_actions, apply = g.legal_actions, g.apply
        steps = 0
        while True:
            to_act = g.to_act
            if not to_act:  # the game is over
                break
            seat = to_act[0]
            acts = legal_actions(seat)
            action = _choose_play(acts, rand)
            if action is None:
                action = acts[0] if len(acts) == 1 else _fallback(acts, seat)
                if action["type"] == "next":  # between rounds: not a decision (rounds=1)
                    apply(seat, action)
                    steps += 1
                    continue
            decisions += 1
            apply(seat, action)
            steps += 1
            if action["type"] == "draw":
                draws += 1
                # a playable drawn card: the "drawn" phase offers PLAY or KEEP (nothing is
                # offered to a seat whose turn is over): play it
                after = legal_actions(seat)
                if _KEEP in after:
                    apply(seat, _choose_play(after, rand))
                    steps += 1
                    drawn_played += 1
            if steps >= MAX_STEPS:
                tally.aborted += 1
                break
        tally.steps += steps
        tally.games += 1
        result = g.result
        winners = result["winners"] if result else []
        if len(winners) == 1:
            tally.wins[winners[0]] += 1
        else:
            tally.no_winner += 1
    tally.seconds = perf() - start
    tally.cpu_seconds = cpu() - start_cpu
    tally.decisions, tally.draws, tally.drawn_played = decisions, draws, drawn_played
    return tally


def _fallback(acts: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    """No card can be played: draw; else the one thing left to do. Never ``timeout``."""
    by_type = {a["type"]: a for a in acts}
    for kind in ("draw", "next", "pass", "take"):
        if kind in by_type:
            return by_type[kind]
    colours = [a for a in acts if a["type"] == "color"]
    if colours:
        return colours[0]
    raise RuntimeError(
        f"seat {seat}: no play, draw, next or pass among legal actions {acts!r}"
    )


# ---------------------------------------------------------------- the run


def _engine_commit() -> str | None:
    """The last commit that touched the engine, when run from a git checkout."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%h", "--", "src/colorclash/engine"],
            cwd=root, capture_output=True, text=True, timeout=5, check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out or None


def _rates(tally: Tally, clock: str) -> dict[str, float]:
    secs = tally.cpu_seconds if clock == "cpu" else tally.seconds
    return {
        "decisions_per_s": tally.decisions / secs if secs > 0 else 0.0,
        "games_per_s": tally.games / secs if secs > 0 else 0.0,
    }


def run_benchmark(
    games: int | None = 300,
    rounds: int = 5,
    seed: int = 0,
    seconds: float | None = None,
    with_rlcard: bool = True,
    chunk: int = 25,
    clock: str = "cpu",
    progress=None,
) -> dict[str, Any]:
    """Measure both sides ``rounds`` times; return every round and the medians.

    Within a round the two sides take turns in chunks of ``chunk`` games, in the order
    A B B A A B ... so that a burst of load from another process, or a slow drift, falls on
    both sides alike. A round ends when each side has played ``games`` games (or, with
    ``seconds``, has used that much time). Rates use CPU time of the measuring thread
    (``clock="cpu"``, less disturbed by other processes on a shared machine) or wall time.
    """
    if games is None and seconds is None:
        raise ValueError("give games or seconds")
    if clock not in ("cpu", "wall"):
        raise ValueError("clock is 'cpu' or 'wall'")
    with_rlcard = with_rlcard and baseline.rlcard_available()
    sides: dict[str, Any] = {"colorclash": play_colorclash_games}
    if with_rlcard:
        sides["rlcard"] = baseline.play_games
    names = list(sides)
    per_round: list[dict[str, Any]] = []
    totals = {name: Tally(wins=[0] * SEATS) for name in names}

    def done(tally: Tally) -> bool:
        if seconds is None:
            return tally.games >= games
        return (tally.cpu_seconds if clock == "cpu" else tally.seconds) >= seconds

    for r in range(rounds):
        first_seed = seed + r * 1_000_003
        round_tally = {name: Tally(wins=[0] * SEATS) for name in names}
        k = 0
        while not all(done(round_tally[name]) for name in names):
            order = names if k % 2 == 0 else names[::-1]
            for name in order:
                t = round_tally[name]
                if done(t):
                    continue
                n = chunk if seconds is not None else min(chunk, games - t.games)
                seeds = range(first_seed + t.games, first_seed + t.games + n)
                t.add(sides[name](seeds, policy_seed=first_seed + t.games))
            k += 1
        row: dict[str, Any] = {"round": r + 1}
        for name in names:
            totals[name].add(round_tally[name])
            row[name] = {**round_tally[name].as_dict(), **_rates(round_tally[name], clock)}
        if with_rlcard:
            row["ratio_decisions"] = (
                row["colorclash"]["decisions_per_s"] / row["rlcard"]["decisions_per_s"]
            )
            row["ratio_games"] = row["colorclash"]["games_per_s"] / row["rlcard"]["games_per_s"]
        per_round.append(row)
        if progress:
            progress(r + 1, rounds)

    summary: dict[str, Any] = {}
    for name in names:
        t = totals[name]
        summary[name] = {
            "median_decisions_per_s": statistics.median(
                row[name]["decisions_per_s"] for row in per_round),
            "median_games_per_s": statistics.median(row[name]["games_per_s"] for row in per_round),
            "games": t.games,
            "decisions": t.decisions,
            "steps": t.steps,
            "decisions_per_game": t.decisions / t.games if t.games else 0.0,
            "steps_per_game": t.steps / t.games if t.games else 0.0,
            "draw_share": t.draws / t.decisions if t.decisions else 0.0,
            "drawn_played_share": t.drawn_played / t.draws if t.draws else 0.0,
            "wins": t.wins,
            "no_winner": t.no_winner,
            "aborted": t.aborted,
            "seconds": t.seconds,
            "cpu_seconds": t.cpu_seconds,
        }
    if with_rlcard:
        ratios = [row["ratio_decisions"] for row in per_round]
        summary["ratio"] = {
            "decisions_per_s": statistics.median(ratios),
            "games_per_s": statistics.median(row["ratio_games"] for row in per_round),
            "decisions_per_s_min": min(ratios),
            "decisions_per_s_max": max(ratios),
        }
    return {
        "benchmark": "engine",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "rlcard": baseline.rlcard_version() if with_rlcard else None,
        "engine_commit": _engine_commit(),
        "preset": PRESET,
        "seats": SEATS,
        "policy": "uniform distinct playable card, then uniform colour for a wild; else draw; "
        "a playable drawn card is played",
        "rounds": rounds,
        "games_per_round": games,
        "seconds_per_round": seconds,
        "chunk": chunk,
        "clock": clock,
        "seed": seed,
        "per_round": per_round,
        "summary": summary,
    }


def _print_table(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    s = report["summary"]
    ours, theirs, ratio = s["colorclash"], s.get("rlcard"), s.get("ratio")
    table = Table(
        title=f"Engine speed, 2 players, {report['rounds']} interleaved rounds (medians)",
        caption=f"{report['clock']} time; Python {report['python']} "
        f"{report['implementation']}; {report['date']}",
    )
    table.add_column("")
    table.add_column(f"Color Clash\n{PRESET}, 1 round", justify="right")
    if theirs is not None:
        table.add_column(f"RLCard {report['rlcard'] or ''}\nUnoGame", justify="right")
        table.add_column("ratio", justify="right", style="bold")

    def row(label: str, key: str, fmt: str, ratio_key: str | None = None) -> None:
        cells = [label, format(ours[key], fmt)]
        if theirs is not None:
            cells.append(format(theirs[key], fmt))
            cells.append(f"{ratio[ratio_key]:.2f}x" if ratio_key else "")
        table.add_row(*cells)

    row("decisions / s", "median_decisions_per_s", ",.0f", "decisions_per_s")
    row("games / s", "median_games_per_s", ",.1f", "games_per_s")
    for x in filter(None, (ours, theirs)):
        d = x["median_decisions_per_s"]
        x["us_per_decision"] = 1e6 / d if d else 0.0
    row("µs / decision", "us_per_decision", ".1f")
    row("decisions / game", "decisions_per_game", ".1f")
    row("engine steps / game", "steps_per_game", ".1f")
    row("draws / decisions", "draw_share", ".0%")
    row("drawn cards played", "drawn_played_share", ".0%")
    if ratio is not None:
        table.add_row("ratio range (rounds)", "", "",
                      f"{ratio['decisions_per_s_min']:.2f}-{ratio['decisions_per_s_max']:.2f}x")
    row("games measured", "games", "d")
    row("games aborted", "aborted", "d")
    console.print(table)
    if theirs is None:
        console.print("RLCard not measured (pip install -e '.[bench]'): our side only.",
                      markup=False)


def _profile(games: int, seed: int) -> None:
    import cProfile
    import pstats

    play_colorclash_games(range(seed, seed + 2), seed)  # imports and caches outside the profile
    profiler = cProfile.Profile()
    profiler.enable()
    play_colorclash_games(range(seed, seed + games), seed)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(25)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="colorclash bench engine",
        description="Random 2-player games of Color Clash (family, 1 round) against RLCard's "
        "UNO under the same policy: decisions and games per second, interleaved, medians.",
    )
    parser.add_argument("--games", type=int, default=300,
                        help="games per side per round (default 300)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="time per side per round instead of a game count")
    parser.add_argument("--rounds", type=int, default=5, help="measured rounds (default 5)")
    parser.add_argument("--chunk", type=int, default=25,
                        help="games per turn when the sides alternate within a round (default 25)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="time by the measuring thread's CPU time (default) or by the wall clock")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-rlcard", action="store_true", help="measure our engine only")
    parser.add_argument("--min-ratio", type=float, default=None,
                        help="exit 1 if the median decisions/s ratio is below this")
    parser.add_argument("--profile", action="store_true",
                        help="cProfile our side for --games games instead of benchmarking")
    args = parser.parse_args(argv)
    if (args.games < 1 or args.rounds < 1 or args.chunk < 1
            or (args.seconds is not None and args.seconds <= 0)):
        parser.error("--games, --rounds, --chunk and --seconds must be positive")

    if args.profile:
        _profile(args.games, args.seed)
        return 0

    kwargs = dict(
        games=args.games if args.seconds is None else None, rounds=args.rounds,
        seed=args.seed, seconds=args.seconds, with_rlcard=not args.no_rlcard,
        chunk=args.chunk, clock=args.clock,
    )
    if args.json:
        report = run_benchmark(**kwargs)
        print(json.dumps(report, indent=2))
    else:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task("benchmarking", total=args.rounds)
            report = run_benchmark(
                **kwargs, progress=lambda done, _total: bar.update(task, completed=done)
            )
        _print_table(report)

    if args.min_ratio is not None:
        ratio = report["summary"].get("ratio")
        if ratio is None:
            print("--min-ratio needs RLCard", file=sys.stderr)
            return 1
        if ratio["decisions_per_s"] < args.min_ratio:
            print(f"decisions/s ratio {ratio['decisions_per_s']:.2f} is below "
                  f"{args.min_ratio}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
