"""The engine benchmark's game loops: games finish, counts add up, the policy is the same
two-stage choice on both sides, and the command line reports what it measured."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str, filename: str):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / filename)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bench = _load("colorclash_bench_engine", "engine.py")
baseline = bench.baseline

needs_rlcard = pytest.mark.skipif(
    not baseline.rlcard_available(), reason="rlcard (the 'bench' extra) is not installed"
)


def _check_tally(t, games: int) -> None:
    assert t.games == games
    assert t.aborted == 0
    assert sum(t.wins) + t.no_winner == games
    assert t.decisions >= games  # every game has at least one turn
    assert 0 <= t.drawn_played <= t.draws <= t.decisions
    assert t.seconds > 0


def test_colorclash_games_finish_and_counts_add_up():
    t = bench.play_colorclash_games(range(6), policy_seed=1)
    _check_tally(t, 6)
    # one decision per turn; a drawn card that is played is one more engine step
    assert t.steps == t.decisions + t.drawn_played
    # one round of 2 seats from a 7-card hand: the winner played at least 7 cards
    assert t.decisions >= 6 * 7


def test_colorclash_loop_is_reproducible():
    a = bench.play_colorclash_games(range(3), policy_seed=5)
    b = bench.play_colorclash_games(range(3), policy_seed=5)
    assert (a.decisions, a.steps, a.draws, a.wins) == (b.decisions, b.steps, b.draws, b.wins)


def test_colorclash_game_matches_engine_log():
    """The loop's steps are exactly the actions the engine logged, and none is a timeout."""
    from colorclash.engine import new_game

    rng = random.Random(3)
    g = new_game("color-clash", preset="family", seats=2, seed=11, options={"rounds": 1})
    steps = 0
    while not g.over:
        seat = g.to_act[0]
        acts = g.legal_actions(seat)
        action = bench._choose_play(acts, rng.random)
        assert (action is None) == all(a["type"] != "play" for a in acts)
        if action is None:
            action = bench._fallback(acts, seat)
        g.apply(seat, action)
        steps += 1
    assert len(g.log) == steps
    assert all(action["type"] != "timeout" for _seat, action in g.log)
    assert g.result is not None


@needs_rlcard
def test_rlcard_games_finish_and_counts_add_up():
    t = baseline.play_games(range(6), policy_seed=1)
    _check_tally(t, 6)
    assert t.steps == t.decisions  # RLCard plays a drawn card inside step("draw")
    assert t.decisions >= 6 * 7


def test_rlcard_policy_picks_distinct_cards_then_colour():
    # two red 7s are listed twice by RLCard, a Wild once per colour: still 1/2 each
    legal = ["r-7", "r-7", "r-wild", "g-wild", "b-wild", "y-wild"]
    rng = random.Random(0)
    picks = Counter(baseline.choose(legal, rng.random) for _ in range(4000))
    assert set(picks) == {"r-7", "r-wild", "g-wild", "b-wild", "y-wild"}
    wild = sum(n for p, n in picks.items() if p.endswith("wild"))
    assert 1800 < picks["r-7"] < 2200 and 1800 < wild < 2200
    assert baseline.choose(["draw"], rng.random) == "draw"
    assert baseline.choose(["g-wild_draw_4", "r-wild_draw_4", "b-wild_draw_4",
                            "y-wild_draw_4"], rng.random).endswith("-wild_draw_4")


def test_our_policy_picks_distinct_cards_then_colour():
    # as the engine lists them: each face once, a wild once per colour
    plays = [{"type": "play", "card": "R7"}] + [
        {"type": "play", "card": "W", "color": c} for c in "RBYG"
    ]
    rng = random.Random(0)
    picks = Counter(
        (a["card"], a.get("color"))
        for a in (bench._choose_play(plays + [{"type": "draw"}], rng.random)
                  for _ in range(4000))
    )
    assert len(picks) == 5
    wild = sum(n for (card, _c), n in picks.items() if card == "W")
    assert 1800 < picks[("R7", None)] < 2200 and 1800 < wild < 2200
    assert all(350 < picks[("W", c)] < 650 for c in "RBYG")


def test_fallback_never_times_out():
    assert bench._fallback([{"type": "timeout"}, {"type": "draw"}], 0) == {"type": "draw"}
    assert bench._fallback([{"type": "timeout"}, {"type": "next"}], 0) == {"type": "next"}
    with pytest.raises(RuntimeError, match="no play, draw"):
        bench._fallback([{"type": "timeout"}], 0)


def test_main_json_reports_both_sides(capsys):
    args = ["--games", "5", "--chunk", "2", "--rounds", "2", "--seed", "4", "--json"]
    assert bench.main(args) == 0
    report = json.loads(capsys.readouterr().out)
    s = report["summary"]
    assert report["preset"] == "family" and report["seats"] == 2 and report["clock"] == "cpu"
    assert len(report["per_round"]) == 2
    sides = ["colorclash"] + (["rlcard"] if baseline.rlcard_available() else [])
    for name in sides:
        # chunks of 2, 2 and 1 game per round: exactly --games per side per round
        assert [row[name]["games"] for row in report["per_round"]] == [5, 5]
        assert s[name]["games"] == 10
        assert s[name]["decisions"] == sum(row[name]["decisions"] for row in report["per_round"])
        assert s[name]["median_decisions_per_s"] > 0
        assert s[name]["cpu_seconds"] > 0
    if "rlcard" in sides:
        r = s["ratio"]
        assert r["decisions_per_s_min"] <= r["decisions_per_s"] <= r["decisions_per_s_max"]


def test_run_benchmark_by_time_budget():
    report = bench.run_benchmark(games=None, seconds=0.05, rounds=1, chunk=3, with_rlcard=False,
                                 clock="wall")
    t = report["summary"]["colorclash"]
    assert t["seconds"] >= 0.05 and t["games"] % 3 == 0 and t["games"] >= 3
    with pytest.raises(ValueError, match="games or seconds"):
        bench.run_benchmark(games=None, seconds=None)


def test_main_table_and_min_ratio(capsys):
    assert bench.main(["--games", "2", "--rounds", "1", "--no-rlcard"]) == 0
    out = capsys.readouterr().out
    assert "decisions / s" in out and "Color Clash" in out
    assert "RLCard not measured (pip install -e '.[bench]')" in out
    # a ratio threshold without the baseline cannot be checked: a clear failure
    assert bench.main(["--games", "2", "--rounds", "1", "--no-rlcard", "--min-ratio", "2"]) == 1
    assert "needs RLCard" in capsys.readouterr().err


def test_main_rejects_bad_arguments(capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main(["--games", "0"])
    assert exc.value.code == 2
    assert "must be positive" in capsys.readouterr().err


def test_main_profile_reports_engine_functions(capsys):
    assert bench.main(["--profile", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "function calls" in out and "color_clash.py" in out


def test_engine_lists_each_face_once_and_a_wild_once_per_colour():
    """What the benchmark's policy relies on (its rejection step assumes 4 actions per wild)."""
    from colorclash.engine import new_game

    g = new_game("color-clash", preset="family", seats=2, setup={
        "hands": [["R5", "R5", "W", "W", "W+4", "G5"], ["B1"]], "top": "R3"})
    plays = [a for a in g.legal_actions(0) if a["type"] == "play"]
    assert [a["card"] for a in plays if "color" not in a] == ["R5"]
    assert sorted(a["color"] for a in plays if a["card"] == "W") == ["B", "G", "R", "Y"]
    assert not any(a["card"] == "W+4" for a in plays)  # restricted: R5 is held
