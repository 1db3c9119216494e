"""The learned value of two-seat positions that ``hard`` scores its cut rollouts with."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from colorclash.bots.hard import HardBot, fast_policy_lean, rollout
from colorclash.bots.value import (
    FEATURES,
    MATCH_FEATURES,
    MATCH_WEIGHTS,
    MAX_ROUNDS_LEFT,
    STANDING_WEIGHTS,
    WEIGHTS,
    features,
    match_chance,
    standing_chance,
    uses_match_value,
    win_chance,
)
from colorclash.engine import new_game

SINGLE_FACED = ("standard", "family", "classic-table", "siege")


def table(preset, hands, top, first=0, draw=("R1", "B2", "G3", "Y4")):
    setup = {"hands": [list(h) for h in hands], "top": top, "draw": list(draw),
             "first": first}
    return new_game("color-clash", preset=preset, seats=2, setup=setup)


def load_trainer():
    """benchmarks/train_value.py as a module (it needs numpy)."""
    pytest.importorskip("numpy")
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "train_value.py"
    spec = importlib.util.spec_from_file_location("train_value_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def self_play_positions(preset, rounds, seed):
    """(game copy, outcome for seat 0) at every position of ``rounds`` self-play rounds."""
    rng = random.Random(seed)
    out = []
    for r in range(rounds):
        g = new_game("color-clash", preset=preset, seats=2, seed=f"value-test:{seed}:{r}",
                     options={"rounds": 1})
        g.rng = random.Random(rng.getrandbits(64))
        seen = []
        while g.phase not in ("round_over", "game_over"):
            seen.append(g.copy())
            seat = g.window_seat if g.phase == "call_window" else g.turn
            g.apply(seat, fast_policy_lean(g, seat))
        if g.out:
            out += [(p, 1.0 if g.out[0] == 0 else 0.0) for p in seen]
    return out


def test_every_single_faced_preset_has_weights_for_every_feature():
    for preset in SINGLE_FACED:
        assert len(WEIGHTS[preset]) == len(FEATURES), preset
    assert "day-night" not in WEIGHTS  # hard knows half of every card there: no model


@pytest.mark.parametrize("preset", SINGLE_FACED)
def test_features_cover_every_position_of_real_rounds(preset):
    for g, _ in self_play_positions(preset, 3, 1):
        for me in (0, 1):
            x = features(g, me)
            assert len(x) == len(FEATURES)
            assert x[FEATURES.index("me cards/10")] == min(len(g.hands[me]), 20) / 10
            assert x[FEATURES.index("opp cards/10")] == min(len(g.hands[1 - me]), 20) / 10
            assert 0.0 <= win_chance(g, me, WEIGHTS[preset]) <= 1.0


def test_last_playable_card_on_your_turn_is_nearly_a_win():
    g = table("standard", [["R5"], ["B1", "B2", "G3", "G4", "Y5",
                                        "Y6", "B7"]], "R9")
    w = WEIGHTS["standard"]
    assert win_chance(g, 0, w) > 0.8
    assert win_chance(g, 1, w) < 0.2


def test_a_wild_is_worth_more_than_a_card_that_cannot_follow():
    w = WEIGHTS["standard"]
    opp = ["B1", "B2", "G3", "Y4"]
    with_wild = table("standard", [["W", "G7", "Y2"], opp], "R9", first=1)
    without = table("standard", [["B8", "G7", "Y2"], opp], "R9", first=1)
    assert win_chance(with_wild, 0, w) > win_chance(without, 0, w)
    fewer = table("standard", [["B8", "G7"], opp], "R9", first=1)
    assert win_chance(fewer, 0, w) > win_chance(without, 0, w)


@pytest.mark.parametrize("preset", ("standard", "siege"))
def test_the_model_is_calibrated_on_rounds_it_never_saw(preset):
    """Positions it calls likely wins are won far more often than those it calls losses,
    and its mean forecast matches the mean outcome."""
    positions = self_play_positions(preset, 150, 7)
    w = WEIGHTS[preset]
    forecasts = [(win_chance(g, 0, w), won) for g, won in positions]
    high = [won for p, won in forecasts if p > 0.7]
    low = [won for p, won in forecasts if p < 0.3]
    assert len(high) > 100 and len(low) > 100
    assert sum(high) / len(high) > 0.65
    assert sum(low) / len(low) < 0.35
    mean_p = sum(p for p, _ in forecasts) / len(forecasts)
    mean_won = sum(won for _, won in forecasts) / len(forecasts)
    assert abs(mean_p - mean_won) < 0.08


def test_a_cut_rollout_is_scored_by_the_model_and_a_finished_one_by_its_result():
    g = table("standard", [["R5", "B3"], ["B1", "G3", "Y4"]], "R9")
    w = WEIGHTS["standard"]
    assert rollout(g.copy(), 0, 0, weights=w) == win_chance(g, 0, w)
    assert rollout(g.copy(), 0, 0) != win_chance(g, 0, w)  # the hand-size share
    done = table("standard", [["R5"], ["B1", "G3"]], "R9")
    assert rollout(done.copy(), 0, 10, weights=w) == 1.0  # red-5 goes out at once
    assert rollout(done.copy(), 1, 10, weights=w) == 0.0


def test_hard_uses_the_model_in_two_seat_games_of_presets_that_have_one(monkeypatch):
    import colorclash.bots.hard as hard_module

    calls = []

    def spy(g, me, weights):
        calls.append((g.n, weights))
        return 0.5

    monkeypatch.setattr(hard_module, "win_chance", spy)
    for preset, seats, value, used in (("standard", 2, True, True),
                                       ("standard", 2, False, False),
                                       ("standard", 4, True, False),
                                       ("day-night", 2, True, False)):
        calls.clear()
        g = new_game("color-clash", preset=preset, seats=seats, seed=3)
        bots = [HardBot(seed=s, budget_ms=None, rollouts=30, value=value)
                for s in range(seats)]
        for b in bots:
            b.observe(g.start_events)
        for _ in range(40):
            if g.over:
                break
            seat = g.to_act[0]
            events = g.apply(seat, bots[seat].act(g.view(seat)))
            for b in bots:
                b.observe(events)
        assert bool(calls) == used, (preset, seats, value)
        assert all(n == 2 and w is WEIGHTS[preset] for n, w in calls)


def test_the_trainer_fits_weights_that_the_bot_can_use(capsys):
    module = load_trainer()
    assert module.main(["--presets", "standard", "--rounds", "120", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    line = next(s for s in out.splitlines() if s.strip().startswith('"standard"'))
    weights = [float(v) for v in line.split("(")[1].split(")")[0].split(",")]
    assert len(weights) == len(FEATURES)
    assert "log-loss model" in out
    me_cards = weights[FEATURES.index("me cards/10")] + weights[FEATURES.index("me log cards")]
    assert me_cards < 0  # more cards in your hand: less chance to win


def test_rollouts_scored_by_the_model_are_shorter(monkeypatch):
    """4 actions when the learned value scores the end, 8 when hand sizes do; an explicit
    depth wins."""
    import colorclash.bots.hard as hard_module

    limits = []
    real = hard_module.rollout

    def spy(g, me, limit, *args, **kwargs):
        limits.append((g.n, limit))
        return real(g, me, limit, *args, **kwargs)

    monkeypatch.setattr(hard_module, "rollout", spy)
    for seats, depth, want in ((2, None, 4), (4, None, 8), (2, 6, 6), (4, 3, 3)):
        limits.clear()
        g = new_game("color-clash", preset="standard", seats=seats, seed=11)
        bots = [HardBot(seed=s, budget_ms=None, rollouts=20, depth=depth)
                for s in range(seats)]
        for b in bots:
            b.observe(g.start_events)
        while not limits and not g.over:
            seat = g.to_act[0]
            events = g.apply(seat, bots[seat].act(g.view(seat)))
            for b in bots:
                b.observe(events)
        assert limits and {limit for _, limit in limits} == {want}, (seats, depth)


def test_in_a_match_the_model_feeds_the_match_standing():
    """With ``match_scale`` a cut rollout weighs the model's round chance by what each
    outcome would do to the match standing, as it does with the hand-size share."""
    from colorclash.bots.hard import _cut_match_value

    g = table("family", [["R5", "B3"], ["B1", "G3", "Y4"]], "R9")
    w = WEIGHTS["family"]
    chance = win_chance(g, 0, w)
    assert rollout(g.copy(), 0, 0, 0.6, 60.0, weights=w) == _cut_match_value(
        g, 0, chance, 60.0)
    assert rollout(g.copy(), 0, 0, 0.6, 0.0, weights=w) == chance


# ---------------------------------------------------------------- matches of rounds


def at(g, scores, round_no):
    """``g`` with the match standing and round number set (a position of a match)."""
    g.scores = list(scores)
    g.round_no = round_no
    return g


def test_which_games_use_the_match_value():
    def uses(preset, seats, **options):
        g = new_game("color-clash", preset=preset, seats=seats, seed=1, options=options)
        return uses_match_value(g.view(0)["options"], seats)

    assert uses("family", 2)
    assert uses("standard", 2, rounds=5)
    assert not uses("standard", 2)
    assert not uses("family", 3)
    assert not uses("family", 2, rounds=1)
    assert not uses("classic-table", 2)  # one round, every seat scores
    assert not uses("day-night", 2, rounds=3)  # no learned value there


def test_match_models_have_weights_for_every_length_of_match():
    assert set(MATCH_WEIGHTS) == set(range(MAX_ROUNDS_LEFT + 1))
    assert all(len(w) == len(MATCH_FEATURES) for w in MATCH_WEIGHTS.values())
    assert set(STANDING_WEIGHTS) == set(range(1, MAX_ROUNDS_LEFT + 1))
    # a lead matters more the fewer rounds are left to catch up
    slopes = [STANDING_WEIGHTS[k] for k in sorted(STANDING_WEIGHTS)]
    assert slopes == sorted(slopes, reverse=True) and slopes[-1] > 0


def test_the_match_chance_of_the_two_seats_adds_up_to_one():
    g = at(table("family", [["R5", "B3", "W"], ["B1", "G3", "Y4", "G-skip"]], "R9"),
           (40, 75), 2)
    for p in (0.0, 0.3, 0.5, 0.9, 1.0):
        assert match_chance(g, 0, p) + match_chance(g, 1, 1.0 - p) == pytest.approx(1.0)
        assert 0.0 <= match_chance(g, 0, p) <= 1.0
    assert standing_chance(g, 0) + standing_chance(g, 1) == pytest.approx(1.0)
    assert standing_chance(at(g, (50, 50), 1), 0) == pytest.approx(0.5)


def test_the_match_chance_follows_the_standing_the_round_and_the_cards_at_stake():
    hands = [["R5", "B3"], ["B1", "G3", "W+4", "W"]]
    level = at(table("family", hands, "R9"), (0, 0), 3)
    ahead = at(table("family", hands, "R9"), (60, 0), 3)
    behind = at(table("family", hands, "R9"), (0, 60), 3)
    for p in (0.2, 0.5, 0.8):
        assert match_chance(behind, 0, p) < match_chance(level, 0, p) < match_chance(
            ahead, 0, p)
    assert match_chance(level, 0, 0.3) < match_chance(level, 0, 0.7)  # the round counts
    # the same standing with fewer cards in the other hand: winning the round brings less
    poor = at(table("family", [["R5", "B3"], ["B1", "G3"]], "R9"), (0, 60), 3)
    assert match_chance(poor, 0, 1.0) < match_chance(behind, 0, 1.0)
    # a lead counts for more in the last round than in the first
    first_ahead = at(table("family", hands, "R9"), (60, 0), 1)
    assert standing_chance(at(ahead.copy(), (60, 0), 2), 0) > standing_chance(
        at(first_ahead.copy(), (60, 0), 1), 0) > 0.5


def test_a_finished_match_is_scored_by_its_result():
    g = at(table("family", [["R5"], ["B1", "W+4"]], "R9"), (10, 30), 3)
    g.apply(0, {"type": "play", "card": g.hands[0][0]})  # goes out: +51, wins the match
    assert g.phase == "game_over"
    assert standing_chance(g, 0) == 1.0 and standing_chance(g, 1) == 0.0


def test_a_match_rollout_is_scored_by_the_match_models():
    w = WEIGHTS["family"]
    g = at(table("family", [["R5", "B3"], ["B1", "G3", "Y4"]], "R9"), (20, 0), 1)
    assert rollout(g.copy(), 0, 0, weights=w, match=True) == match_chance(
        g, 0, win_chance(g, 0, w))
    done = at(table("family", [["R5"], ["B1", "G3"]], "R9"), (0, 20), 1)
    after = done.copy()
    after.apply(0, {"type": "play", "card": after.hands[0][0]})  # round 1 of 3 won: +4
    assert after.phase == "round_over"
    assert rollout(done.copy(), 0, 10, weights=w, match=True) == standing_chance(after, 0)
    assert standing_chance(after, 0) < 0.5  # still 16 behind with two rounds to go


def test_hard_plays_for_the_match_at_the_end_of_a_round_where_the_model_applies(
        monkeypatch):
    """In a two-seat match scored by the winner, once a hand is down to ENDGAME_CARDS the
    rollouts play to the round's end and score the match; elsewhere they judge the round."""
    import colorclash.bots.hard as hard_module

    calls = []
    real = hard_module.rollout

    def spy(g, me, limit, *args, **kwargs):
        calls.append((args[6] if len(args) > 6 else kwargs.get("match", False), limit))
        return real(g, me, limit, *args, **kwargs)

    monkeypatch.setattr(hard_module, "rollout", spy)
    end = [["R5", "R7", "B2"], ["B1", "G3"]]
    middle = [["R5", "R7", "B2", "G4"], ["B1", "G3", "Y4", "Y6"]]
    deep = hard_module.ENDGAME_DEPTH
    for preset, hands, options, want in (
            ("family", end, {}, {(True, deep)}),
            ("family", middle, {}, {(False, 4)}),
            ("family", end, {"match_value": False}, {(False, 4)}),
            ("family", end, {"value": False}, {(False, 8)}),
            ("family", end, {"match_scale": 60.0}, {(False, 4)}),
            ("family", end, {"depth": 6}, {(True, 6)}),
            ("standard", end, {}, {(False, 4)})):
        calls.clear()
        g = table(preset, hands, "R9")
        bot = HardBot(seed=1, budget_ms=None, rollouts=30, **options)
        bot.observe(g.start_events)
        bot.act(g.view(0))
        assert set(calls) == want, (preset, hands, options)


def test_the_trainer_fits_match_models(capsys):
    module = load_trainer()
    assert module.main(["--match", "--rounds", "150", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    lines = [s.strip() for s in out.splitlines()]
    last = next(s for s in lines if s.startswith("0: ("))
    weights = [float(v) for v in last.split("(")[1].split(")")[0].split(",")]
    assert len(weights) == len(MATCH_FEATURES)
    assert weights[MATCH_FEATURES.index("standing/100")] > 0  # a lead helps in the last round
    slope = next(s for s in lines if s.startswith("1: ") and "(" not in s.split("#")[0])
    assert float(slope.split(":")[1].split(",")[0]) > 0
