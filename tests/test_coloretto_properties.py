"""Property tests over random games of Coloretto at 2-5 seats, both scoring sides.

Hypothesis draws a table size, a scoring side, a seed and a stream of choices; the game is
played by those choices. Checked: card conservation, that the supply's order never shows
(in a view or an event), determinism from the seed, illegal actions refused with the game
unchanged, every game ends, replay rebuilds the game, copies are independent; and a golden
seeded playthrough.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from colorclash.engine import IllegalAction, new_game, replay
from colorclash.engine.coloretto import LAST, full_deck
from hypothesis_scale import examples

games = st.tuples(st.integers(2, 5), st.sampled_from(["brown", "grey"]),
                  st.integers(0, 2**32), st.integers(0, 2**16))

PROPS = settings(max_examples=examples(30), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])
MAX_ACTIONS = 1000  # far above any game (a 5-seat game has about 100 cards to move)


def start(seats, side, seed):
    return new_game("coloretto", seats=seats, seed=seed, options={"scoring": side})


def views(g):
    return json.dumps([g.view(s) for s in [None, *range(g.n)]], sort_keys=True)


def full(g):
    return json.dumps({"views": views(g), "log": g.log, "timer": g.timer(),
                       "supply": g.supply, "rng": repr(g.rng.getstate())}, sort_keys=True)


def internal(g):
    """The game's whole state, cheaper than its views (checked after every refusal)."""
    return json.dumps([g.supply, g.rows, g.taken_by, g.removed_rows, g.taken_order,
                       g.collections, g.drawn,
                       g.phase, g.turn, g.turn_no, g.round_no, g.first, g.last_round, g.out,
                       g.log, repr(g.rng.getstate()), g.result])


def step(g, rng):
    seat = g.to_act[0]
    return seat, rng.choice(g.legal_actions(seat))


def candidates(g):
    """Every action shape a player could send, legal or not."""
    rows = range(-1, len(g.rows) + 1)
    return ([{"type": "draw"}, {"type": "pass"}, {"type": "take"}]
            + [{"type": kind, "row": r} for kind in ("take", "place") for r in rows])


@PROPS
@given(games)
def test_every_card_is_accounted_for_and_every_game_ends(params):
    seats, side, seed, choices = params
    g = start(seats, side, seed)
    rng = random.Random(choices)
    deck = Counter(full_deck())
    actions = 0
    while not g.over:
        assert Counter(g.all_cards()) == deck
        g.apply(*step(g, rng))
        actions += 1
        assert actions < MAX_ACTIONS
    assert Counter(g.all_cards()) == deck
    assert g.last_round
    r = g.result
    assert r["winners"] == [s for s in range(seats) if r["scores"][s] == max(r["scores"])]
    assert [layout["total"] for layout in r["scoring"]] == r["scores"]


@PROPS
@given(games)
def test_same_seed_and_actions_give_the_same_game_byte_for_byte(params):
    seats, side, seed, choices = params
    a, b = start(seats, side, seed), start(seats, side, seed)
    rng = random.Random(choices)
    assert views(a) == views(b) and a.start_events == b.start_events
    assert a.commitment() == b.commitment()
    while not a.over:
        seat, action = step(a, rng)
        assert a.apply(seat, action) == b.apply(seat, action)
        assert views(a) == views(b)
    again = replay("coloretto", actions=a.log, seats=seats, seed=seed,
                   options={"scoring": side})
    assert full(again) == full(a)


@PROPS
@given(games)
def test_illegal_actions_are_refused_and_change_nothing(params):
    seats, side, seed, choices = params
    g = start(seats, side, seed)
    rng = random.Random(choices)
    while not g.over:
        seat = rng.randrange(seats)
        legal = g.legal_actions(seat)
        before, seen = internal(g), views(g)
        for action in candidates(g):
            if action not in legal:
                try:
                    g.apply(seat, action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{action} was accepted for seat {seat}")
                assert internal(g) == before
        assert views(g) == seen
        g.apply(*step(g, rng))
    for action in candidates(g):
        before = full(g)
        try:
            g.apply(0, action)
        except IllegalAction:
            pass
        assert full(g) == before


@PROPS
@given(games, st.integers(0, 2**16))
def test_the_supply_order_never_shows(params, reshuffle):
    """Two games alike but for the order of the supply under its top card give the same
    views and events to everyone until a card from under the top is drawn."""
    seats, side, seed, choices = params
    rng = random.Random(choices)
    a = start(seats, side, seed)
    # play a little first, so the test also covers positions later in the game
    for _ in range(rng.randrange(40)):
        if a.over:
            return
        a.apply(*step(a, rng))
    b = a.copy()
    under = b.supply[:-1]
    last_at = under.index(LAST) if LAST in under else None
    cards = [c for c in under if c != LAST]
    random.Random(reshuffle).shuffle(cards)
    if last_at is not None:
        cards.insert(last_at, LAST)
    b.supply[:-1] = cards
    top_drawn = False
    while not a.over:
        assert views(a) == views(b)
        seat, action = step(a, rng)
        if action["type"] == "draw":
            if top_drawn:
                break
            top_drawn = True
        assert a.apply(seat, action) == b.apply(seat, action)


@PROPS
@given(games)
def test_a_copy_is_independent(params):
    seats, side, seed, choices = params
    g = start(seats, side, seed)
    rng = random.Random(choices)
    for _ in range(rng.randrange(60)):
        if g.over:
            return
        g.apply(*step(g, rng))
    before = full(g)
    c = g.copy()
    assert full(c) == before
    while not c.over:
        c.apply(*step(c, rng))
    assert full(g) == before


def golden_actions(g):
    """A fixed policy for the golden game: the (k * 7)-th legal action, cyclically."""
    k = 0
    while not g.over:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        g.apply(seat, legal[(k * 7) % len(legal)])
        k += 1
    return g


def log_digest(log):
    return hashlib.sha256(json.dumps(log).encode()).hexdigest()


def test_golden_playthrough():
    """A fixed seed and action list (the fixed policy above; its digest pins the list),
    and its final scores: any change to the deal, the rules or the scoring shows here."""
    g = golden_actions(new_game("coloretto", seats=4, seed="golden", options={}))
    assert g.log[:6] == [(1, {"type": "draw"}), (1, {"type": "place", "row": 3}),
                         (2, {"type": "draw"}), (2, {"type": "place", "row": 1}),
                         (3, {"type": "take", "row": 1}), (0, {"type": "take", "row": 3})]
    assert (len(g.log), log_digest(g.log)) == (160, GOLDEN_4_LOG)
    assert g.round_no == 9
    assert g.result["scores"] == [8, 25, 13, 16] and g.result["winners"] == [1]
    g = golden_actions(new_game("coloretto", seats=2, seed="golden",
                                options={"scoring": "grey"}))
    assert g.log[:6] == [(1, {"type": "draw"}), (1, {"type": "place", "row": 1}),
                         (0, {"type": "draw"}), (0, {"type": "place", "row": 0}),
                         (1, {"type": "take", "row": 0}), (0, {"type": "take", "row": 1})]
    assert (len(g.log), log_digest(g.log)) == (120, GOLDEN_2_LOG)
    assert g.round_no == 20
    assert g.result["scores"] == [26, 13] and g.result["winners"] == [0]
    assert replay("coloretto", actions=g.log, seats=2, seed="golden",
                  options={"scoring": "grey"}).result == g.result


GOLDEN_4_LOG = "d064c97fbc9bb2ac133da87e7973e74915e07a2d619ce660eac15742ab7de5cb"
GOLDEN_2_LOG = "ad4741c8f5ddc62dffa12dc1051fe8a7894491fe806afaedf11fa03909dc2226"
