"""Coloretto's computer players: legal, reproducible, from the view only, within budget,
and stronger level by level."""

from __future__ import annotations

import random
import time

import pytest

from colorclash.bots import default_level, levels, make_bot
from colorclash.bots.coloretto.policy import patience_for
from colorclash.bots.coloretto.world import unseen, world
from colorclash.engine import new_game
from colorclash.engine.coloretto import LAST
from colorclash.simulate import simulate

FAST_HARD = {"budget_ms": None, "rollouts": 24}


def bot(level, seed, **kw):
    if level == "hard":
        kw = {**FAST_HARD, **kw}
    return make_bot("coloretto", level, seed=seed, **kw)


def play(lineup, seats, seed, side="brown"):
    g = new_game("coloretto", seats=seats, seed=seed, options={"scoring": side})
    bots = [bot(lineup[s % len(lineup)], f"{seed}:{s}") for s in range(seats)]
    for b in bots:
        b.observe(g.start_events)
    while not g.over:
        seat = g.to_act[0]
        view = g.view(seat)
        action = bots[seat].act(view)
        assert action in view["legal"]
        events = g.apply(seat, action)
        for b in bots:
            b.observe(events)
    return g


def test_the_levels_are_registered():
    assert levels("coloretto") == ["random", "easy", "medium", "hard"]
    assert make_bot("coloretto", "medium", seed=1).level == "medium"
    # Play Now's computers and substitutes: the beginner's level, as in Color Clash
    assert default_level("coloretto") == "easy"


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_level_plays_only_legal_actions_to_the_end(seats):
    g = play(["random", "easy", "medium", "hard"], seats, seed=seats, side="grey" if seats % 2 else
             "brown")
    assert g.over and len(g.result["scores"]) == seats


def test_same_seeds_same_games():
    a = play(["hard", "medium"], 2, seed=5)
    b = play(["hard", "medium"], 2, seed=5)
    assert a.log == b.log and a.result == b.result


def twin_views(seats, seed, moves):
    """A position, and the same position with the supply under its top card reordered
    (the views are the same: the order is the only secret)."""
    g = new_game("coloretto", seats=seats, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    twin = g.copy()
    cards = [c for c in twin.supply if c != LAST]
    rng.shuffle(cards)
    if LAST in twin.supply:
        cards.insert(twin.supply.index(LAST), LAST)
    twin.supply = cards
    assert twin.supply != g.supply and twin.view(g.turn) == g.view(g.turn)
    return g, twin


@pytest.mark.parametrize("level", ["random", "medium", "hard"])
def test_bots_decide_from_the_view_alone(level):
    for seats, seed, moves in [(2, 1, 7), (3, 2, 12), (4, 3, 20), (5, 4, 9)]:
        g, twin = twin_views(seats, seed, moves)
        seat = g.turn
        a = bot(level, 9).act(g.view(seat))
        b = bot(level, 9).act(twin.view(seat))
        assert a == b


def test_the_world_a_bot_builds_has_the_views_position():
    for seed in range(12):
        g, _ = twin_views(2 + seed % 4, seed, 5 + 3 * seed)
        view = g.view(g.turn)
        w = world(view, random.Random(seed))
        assert w.view(g.turn) == view
        assert sorted(w.supply) == sorted(g.supply)
        assert sum(unseen(view).values()) == len(g.supply) - (LAST in g.supply)


def test_hard_respects_its_budget():
    g = new_game("coloretto", seats=4, seed=8)
    hard = make_bot("coloretto", "hard", seed=1, budget_ms=15)
    medium = make_bot("coloretto", "medium", seed=2)
    times, worlds = [], []
    while not g.over and len(times) < 12:
        seat = g.to_act[0]
        view = g.view(seat)
        if seat == 0:  # CPU time: the bot's own work, not how busy the machine is
            t0 = time.process_time()
            action = hard.act(view)
            times.append(time.process_time() - t0)
            worlds.append(hard.last_search.get("worlds", 0))
        else:
            action = medium.act(view)
        g.apply(seat, action)
    # a world started before the deadline is finished
    assert max(times) < 0.015 + 0.25
    assert sorted(times)[len(times) // 2] < 0.06
    assert any(worlds)


def test_hard_with_a_rollout_budget_ignores_the_clock():
    g = new_game("coloretto", seats=3, seed=4)
    seat = g.to_act[0]
    g.apply(seat, {"type": "draw"})
    view = g.view(seat)
    hard = make_bot("coloretto", "hard", seed=3, budget_ms=None, rollouts=30)
    hard.act(view)
    assert 0 < hard.last_search["rollouts"] <= 30
    with pytest.raises(ValueError, match="budget"):
        make_bot("coloretto", "hard", budget_ms=None, rollouts=None)


def test_the_server_can_ask_every_level_its_patience():
    """The server asks a computer player ``patience(view)`` (how long to wait in another
    player's last-card window). ``medium`` and ``hard`` kept their take-or-draw patience
    in an attribute of that name: a level given one (easy) crashed the server's clock."""
    g = new_game("coloretto", seats=3, seed=2)
    for level in levels("coloretto"):
        bot = make_bot("coloretto", level, seed=1)
        assert bot.patience(g.view(g.to_act[0])) == 0.0


def test_easy_thinks_of_itself_alone_and_takes_early():
    easy = make_bot("coloretto", "easy", seed=1)
    assert easy.spite == 0.0 and easy.deny == 0.0
    assert easy.take_patience < patience_for(2) and easy.take_patience < patience_for(4)
    report = simulate(game="coloretto", players=2, games=30, bots=["easy", "random"], seed=1)
    assert report["bots"]["easy"]["wins"] >= 0.6 * 30
    report = simulate(game="coloretto", players=2, games=30, bots=["medium", "easy"], seed=1)
    assert report["bots"]["medium"]["wins"] >= 0.6 * 30


def test_medium_beats_random():
    report = simulate(game="coloretto", players=2, games=30, bots=["medium", "random"],
                      seed=1)
    assert report["bots"]["medium"]["wins"] >= 0.6 * 30
