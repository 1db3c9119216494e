"""Computer players: legal actions only, views only, reproducible, sensible heuristics."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from colorclash.bots import LEVELS, make_bot
from colorclash.bots.hard import HardBot, Memory, world_from_view
from colorclash.bots.medium import medium_choice
from colorclash.engine import new_game
from hypothesis_scale import examples

PRESETS = ("standard", "family", "classic-table", "siege", "day-night")
FAST_HARD = {"budget_ms": None, "rollouts": 24}


def bot(level: str, seed: int = 0):
    return make_bot(level, seed=seed, **(FAST_HARD if level == "hard" else {}))


def table(preset, hands, top, draw=(), first=0, **extra):
    setup = {"hands": [list(h) for h in hands], "top": top, "draw": list(draw), "first": first}
    setup.update(extra)
    return new_game("color-clash", preset=preset, seats=len(hands), setup=setup)


def random_position(preset: str, seats: int, seed: int, steps: int):
    """A game after ``steps`` random legal actions (any seat that may act), plus the
    events every seat has seen so far."""
    rng = random.Random(seed)
    g = new_game("color-clash", preset=preset, seats=seats, seed=seed)
    events = list(g.start_events)
    for _ in range(steps):
        if g.over:
            break
        seat = rng.choice(g.to_act)
        legal = g.legal_actions(seat)
        events += g.apply(seat, rng.choice(legal))
    return g, events


# ---------------------------------------------------------------- legality


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seats=st.integers(2, 6),
       seed=st.integers(0, 10**6), steps=st.integers(0, 150),
       level=st.sampled_from(LEVELS))
def test_bots_only_ever_return_a_legal_action(preset, seats, seed, steps, level):
    g, events = random_position(preset, seats, seed, steps)
    if g.over:
        return
    for seat in g.to_act:
        view = g.view(seat)
        b = bot(level, seed)
        b.observe(events)
        action = b.act(view)
        assert action in view["legal"], (level, view["phase"], action)
        assert action["type"] != "timeout"


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("level", LEVELS)
def test_whole_games_between_levels_stay_legal(preset, level):
    """Every level plays whole games of every preset against medium, action by action."""
    for seed in range(2 if level != "hard" else 1):
        g = new_game("color-clash", preset=preset, seats=3, seed=seed)
        bots = [bot(level, seed), bot("medium", 1), bot(level, seed + 2)]
        for b in bots:
            b.observe(g.start_events)
        steps = 0
        while not g.over and steps < 20_000:
            seat = g.to_act[0]
            view = g.view(seat)
            action = bots[seat].act(view)
            assert action in view["legal"]
            events = g.apply(seat, action)
            for b in bots:
                b.observe(events)
            steps += 1
        assert g.over


def test_a_bot_with_no_legal_action_says_so():
    g = table("standard", [["R1", "R2"], ["B1", "B2"]], "R5", ["G1", "G2"])
    with pytest.raises(ValueError, match="no legal action"):
        make_bot("easy").act(g.view(1))


def test_make_bot_rejects_unknown_levels_and_games():
    with pytest.raises(ValueError, match="unknown bot level 'expert'"):
        make_bot("expert")
    with pytest.raises(ValueError, match="no computer player for game"):
        make_bot("easy", game="chess")


# ---------------------------------------------------------------- views only


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_sees_only_its_view(level):
    """Two tables that look the same from seat 0 but hide different cards get the same
    decision: the bot's input is the view (a JSON-ready dict), never the game."""
    mine = ["R3", "R9", "W", "B-skip", "G+2"]
    a = table("classic-table", [mine, ["Y1", "Y2", "B7"], ["G4", "W+4", "R-bomb"]], "R5",
              ["Y9", "B1", "G2", "R8"])
    b = table("classic-table", [mine, ["B5", "W", "R+2"], ["Y8", "G9", "B-reverse"]], "R5",
              ["G6", "Y3", "B4", "Y7"])
    va, vb = a.view(0), b.view(0)
    assert va == vb
    wire = json.loads(json.dumps(va))  # what crosses the network is enough
    for _ in range(3):
        da = bot(level, 5).act(copy.deepcopy(va))
        db = bot(level, 5).act(copy.deepcopy(vb))
        dw = bot(level, 5).act(wire)
        assert da == db == dw


def test_a_bot_does_not_change_the_view_it_is_given():
    g, events = random_position("siege", 4, 3, 40)
    for level in LEVELS:
        view = g.view(g.to_act[0])
        before = copy.deepcopy(view)
        b = bot(level)
        b.observe(events)
        b.act(view)
        assert view == before


def test_views_hold_no_other_hand():
    g = table("standard", [["R1", "R2"], ["B9", "G9"]], "R5", ["Y1"])
    text = json.dumps(g.view(0))
    assert "B9" not in text and "G9" not in text


# ---------------------------------------------------------------- reproducible


@pytest.mark.parametrize("level", ["random", "hard"])
def test_the_seed_makes_choices_reproducible(level):
    g, events = random_position("classic-table", 3, 11, 30)
    seat = g.to_act[0]
    view = g.view(seat)
    choices = set()
    for _ in range(3):
        b = bot(level, seed=42)
        b.observe(events)
        choices.add(json.dumps(b.act(view), sort_keys=True))
    assert len(choices) == 1


def test_random_bot_varies_with_the_seed():
    g = table("standard", [["R1", "R2", "R3", "R4", "R5", "R6"], ["B1"]], "R9", ["G1"])
    picks = {json.dumps(make_bot("random", seed=s).act(g.view(0))) for s in range(30)}
    assert len(picks) >= 4


# ---------------------------------------------------------------- easy and medium


def test_easy_plays_the_first_playable_card():
    g = table("standard", [["B1", "R7", "R2", "W"], ["G1", "G2"]], "R5", ["Y1"])
    assert make_bot("easy").act(g.view(0)) == {"type": "play", "card": "R7"}


def test_easy_and_medium_pick_the_colour_they_hold_most_for_a_wild():
    g = table("standard", [["W", "G1", "G2", "Y3"], ["B1", "B2"]], "R5", ["Y1"])
    for level in ("easy", "medium"):
        assert make_bot(level).act(g.view(0)) == {"type": "play", "card": "W", "color": "G"}


def test_medium_keeps_its_wild_and_dumps_high_cards():
    g = table("standard", [["W", "R1", "R9", "B3", "Y4"], ["B1", "B2", "B3", "B4"]], "R5",
              ["Y1"])
    assert medium_choice(g.view(0), g.view(0)["legal"]) == {"type": "play", "card": "R9"}


def test_medium_follows_the_colour_it_holds_most():
    # R5 on top: B5 turns the colour to blue, where medium holds three more cards
    g = table("standard", [["R2", "B5", "B1", "B7", "B8"], ["G1", "G2", "G3", "G4"]], "R5",
              ["Y1"])
    assert medium_choice(g.view(0), g.view(0)["legal"]) == {"type": "play", "card": "B5"}


def test_medium_answers_a_stack_instead_of_taking_it():
    g = table("classic-table", [["R+2", "G3"], ["B+2", "B1", "Y1", "Y2"]], "R5",
              ["G1", "G2", "G3", "G4", "G5", "G6"])
    g.apply(0, {"type": "play", "card": "R+2"})
    view = g.view(1)
    assert view["stack"] == 2
    assert make_bot("medium").act(view) == {"type": "play", "card": "B+2"}


def test_bots_call_last_card_before_playing_their_second_to_last():
    g = table("standard", [["R1", "R2"], ["B1", "B2", "B3"]], "R5", ["Y1"])
    for level in ("easy", "medium", "hard"):
        assert bot(level).act(g.view(0)) == {"type": "call"}


def test_bots_with_nothing_to_play_draw_without_calling_last_card():
    """Two cards, neither playable: calling first told the table "last card" and then
    drew a third."""
    g = table("standard", [["G1", "Y2"], ["B1", "B2", "B3"]], "R5", ["Y1", "Y3"])
    assert {"type": "call"} in g.legal_actions(0)
    for level in ("easy", "medium", "hard"):
        assert bot(level).act(g.view(0)) == {"type": "draw"}, level


def test_every_level_starts_the_next_round():
    g = table("family", [["R1"], ["B1", "B2"]], "R5", ["Y1", "Y2", "Y3"])
    g.apply(0, {"type": "play", "card": "R1"})
    assert g.phase == "round_over"
    for level in LEVELS:
        assert bot(level).act(g.view(1)) == {"type": "next"}


# ---------------------------------------------------------------- hard


def test_hard_does_not_fire_a_penalty_into_a_standing_shield():
    # seat 1 raises a Shield; seat 0 then holds +2 and a plain red card
    g = table("siege", [["R+2", "R3", "B9", "G9"], ["R-shield", "Y1", "Y2", "Y3"]], "R5",
              ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"], first=1)
    events = list(g.start_events)
    events += g.apply(1, {"type": "play", "card": "R-shield"})
    view = g.view(0)
    assert view["shields"] == [1]
    hard = bot("hard")
    hard.observe(events)
    assert hard.act(view) == {"type": "play", "card": "R3"}


def test_hard_takes_the_win_when_it_can():
    g = table("classic-table", [["R3"], ["B1", "B2"]], "R5", ["Y1", "Y2"])
    assert bot("hard").act(g.view(0)) == {"type": "play", "card": "R3"}


def test_hard_search_respects_its_budgets():
    g, events = random_position("classic-table", 2, 5, 4)
    hard = HardBot(seed=1, budget_ms=None, rollouts=30)
    searched = 0
    for _ in range(6):
        if g.over:
            break
        seat = g.to_act[0]
        view = g.view(seat)
        hard.observe(events)
        action = hard.act(view)
        if hard.last_search:
            assert hard.last_search["rollouts"] <= 30
            searched += 1
            hard.last_search = {}
        events = g.apply(seat, action)
    timed = HardBot(seed=1, budget_ms=20, rollouts=10_000)
    g, events = random_position("standard", 4, 9, 10)
    timed.observe(events)
    timed.act(g.view(g.to_act[0]))
    if timed.last_search:
        # 10,000 rollouts would take seconds: the 20 ms deadline stops it (with slack for
        # a loaded machine; one unfinished world may run past the deadline)
        assert timed.last_search["ms"] < 1000
        assert timed.last_search["rollouts"] < 10_000


@pytest.mark.parametrize("preset", PRESETS)
def test_hard_builds_worlds_consistent_with_its_view(preset):
    """Every determinized world shows the bot exactly the view it was built from."""
    keys = ("hand", "counts", "top", "color", "turn", "direction", "stack", "stack_kind",
            "draw_count", "discard_count", "shields", "fuse", "out", "legal", "phase",
            "drawn", "side", "draw_top", "faces", "clock", "called", "scores")
    rng = random.Random(0)
    for seed in range(3):
        g, events = random_position(preset, 2 + seed, seed, 25 + 20 * seed)
        if g.over or g.phase not in ("play", "drawn"):
            continue
        seat = g.turn
        view = g.view(seat)
        memory = Memory(seat)
        memory.observe(events)
        for _ in range(5):
            world = world_from_view(view, memory, rng)
            assert world is not None
            wv = world.view(seat)
            for key in keys:
                assert wv.get(key) == view.get(key), key
            assert sorted(world.all_cards()) == sorted(g.all_cards())


def test_hard_remembers_what_an_opponent_lacks():
    """An opponent who drew on a red 5 held no red card, no 5 and no wild then."""
    g = table("standard", [["B1", "B2", "B3", "B4"], ["G1", "G2", "Y3", "Y7"]], "R5",
              ["Y1", "Y2", "Y4", "Y6", "G3", "G4"], first=1)
    events = list(g.start_events)
    events += g.apply(1, {"type": "draw"})
    if g.phase == "drawn":
        events += g.apply(1, {"type": "keep"})
    memory = Memory(0)
    memory.observe(events)
    view = g.view(0)
    rng = random.Random(1)
    for _ in range(20):
        world = world_from_view(view, memory, rng)
        old = world.hands[1][:4]  # the four cards seat 1 held when it drew
        for card in old:
            assert not card.startswith("R") and card[1:] != "5" and not card.startswith("W")


# ---------------------------------------------------------------- hard: prior and rollouts


def test_hard_rollout_policy_makes_medium_choices_faster():
    """The rollouts' lean policy chooses exactly what ``fast_policy`` (medium) chooses."""
    from colorclash.bots.hard import fast_policy, fast_policy_lean

    checked = 0
    for preset in PRESETS:
        for seed in range(3):
            g, _ = random_position(preset, 2 + seed, seed, 0)
            rng = random.Random(seed)
            while not g.over and checked < 4000:
                seat = g.to_act[0]
                mine = fast_policy(g, seat)
                assert fast_policy_lean(g, seat) == mine
                checked += 1
                legal = g.legal_actions(seat)
                g.apply(seat, mine if mine in legal and rng.random() < 0.7 else rng.choice(legal))
    assert checked > 500


def test_hard_prior_keeps_its_wild_and_plays_low_numbers_in_a_one_round_match():
    from colorclash.bots.hard_prior import prior_choice

    # two cards would be left: medium plays the wild, the prior plays a card that fits
    g = table("standard", [["W", "R9", "R1"], ["B1", "B2", "B3"]], "R5", ["G1", "G2", "G3"])
    view = g.view(0)
    medium = medium_choice(view, view["legal"])
    assert medium["card"] == "W"
    assert prior_choice(view, view["legal"], medium) == {"type": "play", "card": "R1"}
    # family counts the points of a losing hand over three rounds: high cards first
    g = table("family", [["R9", "R1", "B4"], ["B1", "B2", "B3"]], "R5", ["G1", "G2", "G3"])
    view = g.view(0)
    assert prior_choice(view, view["legal"], medium_choice(view, view["legal"])) == \
        {"type": "play", "card": "R9"}
    # Day & Night keeps medium's choice
    g, _ = random_position("day-night", 2, 3, 10)
    if g.phase == "play":
        view = g.view(g.turn)
        fb = medium_choice(view, view["legal"])
        assert prior_choice(view, view["legal"], fb) == fb


def test_hard_prior_sets_a_colour_the_next_player_lacks():
    """Seat 1 drew on a red 5: it holds no red card; the prior turns the colour to red."""
    from colorclash.bots.hard_prior import lack_chance, prior_choice

    g = table("standard", [["G5", "R7", "G2", "G8", "B3"], ["B1", "B2", "Y3", "Y7"]], "R5",
              ["Y1", "Y2", "Y4", "Y6", "G3", "G4"], first=1)
    events = list(g.start_events)
    events += g.apply(1, {"type": "draw"})
    if g.phase == "drawn":
        events += g.apply(1, {"type": "keep"})
    assert g.turn == 0
    memory = Memory(0)
    memory.observe(events)
    assert lack_chance(memory, 1, 5, "R") == 4 / 5
    assert lack_chance(memory, 1, 5, "G") == 0.0
    view = g.view(0)
    fb = medium_choice(view, view["legal"])
    assert fb["card"] == "G5"  # medium follows the colour it holds most
    assert prior_choice(view, view["legal"], fb) == fb  # without memory: the colour rule
    assert prior_choice(view, view["legal"], fb, memory) == {"type": "play", "card": "R7"}
    hard = HardBot(seed=0, budget_ms=None, rollouts=40)
    hard.observe(events)
    assert hard.act(view) in view["legal"]


def test_hard_scores_rounds_of_a_match_by_the_standing():
    from colorclash.bots.hard import _standing_value, rollout

    assert _standing_value(10, 0, 60) == 1.0
    assert _standing_value(0, 0, 60) == 0.5
    assert _standing_value(-1, 0, 60) == 0.0
    assert 0.5 < _standing_value(30, 2, 60) < 1.0
    for seed in range(5):
        g, _ = random_position("family", 2, seed, 20)
        if g.over:
            continue
        for depth in (4, 400):
            value = rollout(g.copy(), 0, depth, 0.6, 60.0)
            assert 0.0 <= value <= 1.0


def test_weaker_levels_let_more_of_a_last_card_window_pass_before_catching():
    """Patience is a share of someone else's last-card window (the server waits it before
    the computer acts): weaker levels are slower to catch, and nothing else is delayed."""
    from colorclash.engine import new_game

    game = new_game("color-clash", preset="standard", seats=2,
                    setup={"hands": [["R1", "R2"], ["G5", "G6", "B1"]], "top": "R9",
                           "draw": ["Y1", "Y2", "Y3"], "first": 0})
    turn = {lvl: make_bot("color-clash", lvl, seed=1).patience(game.view(1))
            for lvl in ("easy", "medium", "hard")}
    game.apply(0, {"type": "play", "card": "R1"})  # no call: a window for seat 1 to catch
    catcher = game.view(1)
    assert catcher["phase"] == "call_window"
    shares = [make_bot("color-clash", lvl, seed=1).patience(catcher) for lvl in ("easy", "medium", "hard")]
    assert shares == sorted(shares, reverse=True) and 0 < shares[-1] and shares[0] < 1, shares
    assert set(turn.values()) == {0.0}  # an ordinary turn: no waiting
    assert make_bot("color-clash", "hard", seed=1).patience(game.view(0)) == 0.0  # the caller calls at once
