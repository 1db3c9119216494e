"""``colorclash bench bots``: how strong the computer players are, and how fast ``hard`` is.

Two parts, both reported in docs/benchmarks.md ("Computer players"):

*Strength lines.* For each pair of levels (default: hard>medium, medium>easy, easy>random
and medium>random), each preset and each table size (default 2 and 4 seats), a tournament
of ``--games`` games through :func:`colorclash.simulate.simulate`: the two levels alternate
around the table (A, B, A, B), the line-up rotates one seat every game and every deal is
played once in each rotation. The figure is the share of games won by the stronger level's
seats, with a 95% Wilson interval (games whose result has no single winner count as not
won). Equal strength is 50% at 2 and 4 seats alike. Each finished line is appended at once
to ``--out`` (JSON lines), so a long run can be stopped and resumed (``--resume`` skips the
lines already in the file).

*Decision time of ``hard``.* ``--timing-games`` games of hard against medium (2 seats,
every preset in turn) at the default budget; the wall-clock time of every ``hard``
decision is recorded. Reported: median and 99th percentile over all decisions and over the
decisions that ran a search (the others are forced or obvious and take microseconds).

Usage: ``colorclash bench bots [--game G] [--games N] [--pairs hard:medium,...] [--presets P,...]
[--players 2,4] [--seed S] [--out FILE] [--resume] [--timing-games N] [--only-timing]
[--no-timing] [--json] [--hard-budget-ms MS|none] [--hard-rollouts N]
[--hard-option NAME=VALUE ...]``. The last three change ``hard``'s budget or any of its
options (docs/bots.md) for the strength lines and the timing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PRESETS = ("standard", "family", "classic-table", "siege", "day-night")
PAIRS = ("hard:medium", "medium:easy", "easy:random", "medium:random")


def default_pairs(game: str) -> tuple[str, ...]:
    """Each level against the one below it, and medium against random."""
    from colorclash.bots import levels

    if game == "color-clash":
        return PAIRS
    names = levels(game)
    pairs = [f"{names[i + 1]}:{names[i]}" for i in range(len(names) - 2, -1, -1)]
    if "medium" in names and "random" in names and "medium:random" not in pairs:
        pairs.append("medium:random")
    return tuple(pairs)


def default_presets(game: str) -> tuple[str, ...]:
    from colorclash.engine import GAMES

    return PRESETS if game == "color-clash" else tuple(GAMES[game].presets)


def run_line(pair: str, preset: str, players: int, games: int, seed: int,
             bot_options: dict[str, dict[str, Any]] | None = None,
             game: str = "color-clash") -> dict[str, Any]:
    from colorclash.simulate import simulate, wilson

    hi, lo = pair.split(":")
    t0 = time.perf_counter()
    c0 = time.process_time()
    load0 = os.getloadavg()[0]
    report = simulate(game=game, preset=preset, players=players, games=games, bots=[hi, lo],
                      seed=seed, bot_options=bot_options)
    b = report["bots"]
    wins_hi = b[hi]["wins"]
    low, high = wilson(wins_hi, games)
    return {
        "game": game, "pair": pair, "preset": preset, "players": players, "games": games, "seed": seed,
        "wins_hi": wins_hi, "wins_lo": b[lo]["wins"], "draws": report["draws"],
        "win_rate": wins_hi / games, "ci95": [low, high],
        "mean_actions": report["mean_actions"],
        "ms_per_decision": {hi: b[hi]["ms_per_decision"], lo: b[lo]["ms_per_decision"]},
        "bot_options": bot_options or {},
        "wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0,
        "load_avg": [round(load0, 2), round(os.getloadavg()[0], 2)],
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def timing(games: int, seed: int, presets: tuple[str, ...],
           hard_options: dict[str, Any] | None = None,
           game: str = "color-clash") -> dict[str, Any]:
    """Wall-clock time of every decision of ``hard`` (default budget) against medium, as
    the server asks for it: ``act(view, events)`` with the events since its last turn
    (taking them in, its beliefs about the opponents' hands, is part of the decision)."""
    from colorclash.bots import make_bot
    from colorclash.engine import new_game

    all_ms: list[float] = []
    searched_ms: list[float] = []
    cpu_ms: list[float] = []
    worlds: list[int] = []
    for gi in range(games):
        preset = presets[gi % len(presets)]
        g = new_game(game, preset=preset, seats=2, seed=f"{seed}:t{gi}")
        hard_seat = gi % 2
        bots = [make_bot(game, "hard", seed=f"{seed}:{gi}:{s}", **(hard_options or {}))
                if s == hard_seat else make_bot(game, "medium", seed=f"{seed}:{gi}:{s}")
                for s in range(2)]
        pending = list(g.start_events)  # what hard has not taken in yet
        bots[1 - hard_seat].observe(g.start_events)
        while not g.over:
            seat = g.to_act[0]
            view = g.view(seat)
            bot = bots[seat]
            if seat == hard_seat:
                bot.last_search = {}
                t0, c0 = time.perf_counter(), time.process_time()
                action = bot.act(view, pending)
                pending = []
                ms = 1000 * (time.perf_counter() - t0)
                all_ms.append(ms)
                if getattr(bot, "last_search", None):
                    searched_ms.append(ms)
                    cpu_ms.append(1000 * (time.process_time() - c0))
                    worlds.append(bot.last_search.get("worlds", 0))
            else:
                action = bot.act(view)
            events = g.apply(seat, action)
            pending += events
            bots[1 - hard_seat].observe(events)

    def q(values: list[float], p: float) -> float:
        if not values:
            return 0.0
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]

    return {
        "games": games, "decisions": len(all_ms), "searched": len(searched_ms),
        "median_ms": q(all_ms, 50), "p99_ms": q(all_ms, 99), "max_ms": max(all_ms, default=0),
        "searched_median_ms": q(searched_ms, 50), "searched_p99_ms": q(searched_ms, 99),
        "searched_cpu_median_ms": q(cpu_ms, 50), "searched_cpu_p99_ms": q(cpu_ms, 99),
        "over_100ms": sum(1 for m in all_ms if m > 100),
        "mean_worlds": statistics.fmean(worlds) if worlds else 0.0,
        "load_avg_end": round(os.getloadavg()[0], 2),
    }


def _table(lines: list[dict[str, Any]]) -> str:
    rows = ["| pair | preset | seats | games | stronger wins | weaker wins | draws | "
            "win rate [95% CI] |", "|---|---|---:|---:|---:|---:|---:|---|"]
    for r in lines:
        lo, hi = r["ci95"]
        rows.append(f"| {r['pair'].replace(':', ' > ')} | {r['preset']} | {r['players']} | "
                    f"{r['games']} | {r['wins_hi']} | {r['wins_lo']} | {r['draws']} | "
                    f"{100 * r['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] |")
    return "\n".join(rows)


def _option_value(text: str) -> Any:
    """A bot option from the command line: none, true/false, a number, else the text."""
    low = text.lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="colorclash bench bots", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="color-clash", help="which game's players")
    ap.add_argument("--games", type=int, default=1000, help="games per line (default 1000)")
    ap.add_argument("--pairs", default=None, help="stronger:weaker,... (default: each level "
                    "against the one below, and medium against random)")
    ap.add_argument("--presets", default=None, help="default: every preset of the game")
    ap.add_argument("--players", default=None,
                    help="table sizes (default 2,4, those of them the game seats; Rainbow: 2)")
    ap.add_argument("--seed", type=int, default=2026, help="seed of the deals (default 2026)")
    ap.add_argument("--out", default=None, help="append each finished line here (JSON lines)")
    ap.add_argument("--resume", action="store_true", help="skip lines already in --out")
    ap.add_argument("--timing-games", type=int, default=40,
                    help="games of hard against medium timed per decision (default 40)")
    ap.add_argument("--only-timing", action="store_true", help="the timing only, no strength lines")
    ap.add_argument("--no-timing", action="store_true", help="the strength lines only")
    ap.add_argument("--json", action="store_true", help="print one JSON object at the end")
    ap.add_argument("--hard-budget-ms", default=None,
                    help="hard's wall-clock budget per decision ('none': no clock)")
    ap.add_argument("--hard-rollouts", type=int, default=None, help="hard's rollout budget")
    ap.add_argument("--hard-option", action="append", default=[], metavar="NAME=VALUE",
                    help="any other option of hard (docs/bots.md), e.g. belief=0; repeatable")
    args = ap.parse_args(argv)

    from colorclash.bots import levels
    from colorclash.engine import GAMES

    game = args.game
    if game not in GAMES:
        ap.error(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    known = levels(game)
    if len(known) < 2:  # (it printed nothing and exited 0)
        ap.error(f"{game} has one computer level ({known[0]}): nothing to compare")
    definition = GAMES[game]
    pairs = [p.strip() for p in (args.pairs or ",".join(default_pairs(game))).split(",")
             if p.strip()]
    for p in pairs:
        parts = p.split(":")
        if len(parts) != 2 or any(x not in known for x in parts):
            ap.error(f"bad pair {p!r}: write stronger:weaker with levels {', '.join(known)}")
    presets = tuple(x.strip() for x in (args.presets or ",".join(default_presets(game)))
                    .split(",") if x.strip())
    for preset in presets:
        if preset not in definition.presets:
            ap.error(f"unknown preset {preset!r}; known: {', '.join(definition.presets)}")
    if args.players is None:  # (the default 2,4 refused a game of two, "between 2 and 2")
        sizes = [n for n in (2, 4) if definition.min_seats <= n <= definition.max_seats] \
            or [definition.min_seats]
    else:
        sizes = [int(x) for x in args.players.split(",") if x.strip()]
    if args.games < 1 or any(not definition.min_seats <= s <= definition.max_seats
                             for s in sizes):
        ap.error(f"--games must be at least 1 and --players between {definition.min_seats} "
                 f"and {definition.max_seats}")

    hard_options: dict[str, Any] = {}
    if args.hard_budget_ms is not None:
        text = str(args.hard_budget_ms).lower()
        hard_options["budget_ms"] = None if text == "none" else float(text)
    if args.hard_rollouts is not None:
        hard_options["rollouts"] = args.hard_rollouts
    for text in args.hard_option:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            ap.error(f"bad --hard-option {text!r}: write NAME=VALUE")
        hard_options[name.strip()] = _option_value(value.strip())
    if hard_options:
        from colorclash.bots import make_bot
        try:
            make_bot(game, "hard", **hard_options)
        except TypeError as exc:
            ap.error(f"hard does not take these options: {exc}")
    bot_options = {"hard": hard_options} if hard_options else None

    done: set[tuple[str, str, int]] = set()
    lines: list[dict[str, Any]] = []
    out = Path(args.out) if args.out else None
    if out and args.resume and out.exists():
        for text in out.read_text().splitlines():
            if text.strip():
                r = json.loads(text)
                if (r.get("kind", "line") == "line" and r["games"] >= args.games
                        and r.get("game", "color-clash") == game):
                    done.add((r["pair"], r["preset"], r["players"]))
                    lines.append(r)
    result: dict[str, Any] = {"machine": platform.platform(), "python": platform.python_version(),
                              "lines": lines}
    if not args.only_timing:
        for pair in pairs:
            for preset in presets:
                for size in sizes:
                    if (pair, preset, size) in done:
                        continue
                    r = run_line(pair, preset, size, args.games, args.seed, bot_options, game)
                    r["kind"] = "line"
                    lines.append(r)
                    if out:
                        with out.open("a") as f:
                            f.write(json.dumps(r) + "\n")
                    if not args.json:
                        lo, hi = r["ci95"]
                        print(f"{pair:14} {preset:13} {size} seats {r['games']:5} games: "
                              f"{100 * r['win_rate']:5.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
                              f"({r['wall_s']:.0f} s)", file=sys.stderr, flush=True)
    if not args.no_timing:
        t = timing(args.timing_games, args.seed, presets, hard_options, game)
        t["kind"] = "timing"
        result["timing"] = t
        if out:
            with out.open("a") as f:
                f.write(json.dumps(t) + "\n")
    if args.json:
        print(json.dumps(result))
    else:
        if lines:
            print(_table(lines))
        if "timing" in result:
            t = result["timing"]
            print(f"\nhard decision time over {t['decisions']} decisions of {t['games']} games: "
                  f"median {t['median_ms']:.2f} ms, p99 {t['p99_ms']:.1f} ms; "
                  f"{t['searched']} searched decisions: median {t['searched_median_ms']:.1f} ms,"
                  f" p99 {t['searched_p99_ms']:.1f} ms; over 100 ms: {t['over_100ms']}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
