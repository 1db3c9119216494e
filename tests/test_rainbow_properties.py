"""Property tests of Rainbow over many random games (hypothesis).

- conservation: the 57 cards of the frozen deck, each with its two faces, at every step;
- hidden information: a seat's view is the same in every game that differs from the real
  one only in faces that seat cannot see (the opponent's fronts, its own backs, every face
  underneath a table or pile card -- turned twice or not --, the deck's order and faces);
  the events of an action are the same in every game that differs only in faces that stay
  hidden from a seat after the action;
- determinism from a seed; illegal actions refused with the game unchanged; every game
  ends; replay(log) rebuilds the game.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from colorclash.engine import IllegalAction, new_game, replay
from colorclash.engine.rainbow_deck import CARD_COUNTS, COLORS, canonical
from hypothesis_scale import examples

PROPS = settings(max_examples=examples(30), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(0, 2**32)


def choose(g, rng):
    """A random legal action, leaning towards long turns now and then."""
    seat = g.turn
    legal = g.legal_actions(seat)
    if g.phase == "continue" and rng.random() < 0.4:
        legal = [a for a in legal if a["type"] == "end"]
    return seat, rng.choice(legal)


def snapshot(g):
    return json.dumps({"hands": g.hands, "table": g.table, "deck": g.deck, "piles": g.piles,
                       "turn": g.turn, "phase": g.phase, "played": g.played,
                       "placed": g.played_places, "flipped": g.flipped_places,
                       "round": g.round_no, "turn_no": g.turn_no, "starter": g.starter,
                       "last": g.last_round, "result": g.result, "log": g.log,
                       "rng": repr(g.rng.getstate()),
                       "views": [g.view(0), g.view(1), g.view(None)]})


# --------------------------------------------------------------------- perturbations


def _slots(g):
    """Every place a card can lie: (list, index, kind, seat)."""
    out = []
    for s in (0, 1):
        out += [(g.hands[s], i, "hand", s) for i in range(len(g.hands[s]))]
        out += [(g.piles[s], i, "pile", s) for i in range(len(g.piles[s]))]
    out += [(g.table, i, "table", None) for i in range(len(g.table))]
    out += [(g.deck, i, "deck", None) for i in range(len(g.deck))]
    return out


def visible_sides(kind, owner, observer):
    """Which sides of a card (0: front / up, 1: back / down) ``observer`` sees."""
    if kind in ("table", "pile"):
        return {0}
    if kind == "hand" and observer is not None:
        return {0} if owner == observer else {1}
    return set()


def perturbed(g, fixed, rng, swaps=120):
    """A copy of ``g`` where cards trade places (and turn over) at random while every
    (slot, side) in ``fixed(slot_number, kind, owner, index)`` keeps showing its face.
    Cards stay real cards of the deck: only where they lie changes."""
    h = g.copy()
    slots = _slots(h)
    constraints = [fixed(n, kind, owner, i) for n, (_, i, kind, owner) in enumerate(slots)]
    free = [n for n, c in enumerate(constraints) if len(c) < 2]

    def fits(card, sides, target):
        """``card`` turned so that it shows ``target``'s faces on ``sides``, or None."""
        for option in (card, card[::-1]) if rng.random() < 0.5 else (card[::-1], card):
            if all(option[k] == target[k] for k in sides):
                return option
        return None

    for _ in range(swaps):
        if len(free) < 2:
            break
        a, b = rng.sample(free, 2)
        la, ia = slots[a][0], slots[a][1]
        lb, ib = slots[b][0], slots[b][1]
        x, y = la[ia], lb[ib]
        new_a, new_b = fits(y, constraints[a], x), fits(x, constraints[b], y)
        if new_a is not None and new_b is not None:
            la[ia], lb[ib] = new_a, new_b
    return h


def view_fixed(g, observer):
    def fixed(n, kind, owner, i):
        return visible_sides(kind, owner, observer)
    return fixed


def event_fixed(g, observer, seat, action):
    """What ``observer`` sees, plus what ``action`` shows everyone."""
    def fixed(n, kind, owner, i):
        sides = set(visible_sides(kind, owner, observer))
        if action["type"] == "play" and kind == "hand" and owner == seat \
                and i == action["hand"]:
            sides.add(1 if action["turned"] else 0)
        if action["type"] == "flip" and kind == "table" and i == action["place"]:
            sides.add(1)
        return sides
    return fixed


def conserved(g):
    cards = g.all_cards()
    return (Counter(canonical(*c) for c in cards) == CARD_COUNTS
            and all(a != b and a in COLORS and b in COLORS for a, b in cards))


# --------------------------------------------------------------------- properties


@PROPS
@given(seeds, seeds)
def test_cards_are_conserved_and_every_game_ends(seed, choices):
    g = new_game("rainbow", seats=2, seed=seed)
    rng = random.Random(choices)
    turns = 1
    assert conserved(g)
    while not g.over:
        seat, action = choose(g, rng)
        deck_before = len(g.deck)
        turn_before = g.turn_no
        g.apply(seat, action)
        assert conserved(g)
        if g.turn_no != turn_before:
            turns += 1
            assert len(g.deck) < deck_before  # every turn draws: the deck runs out
        assert len(g.table) <= 5 or g.over
        assert all(len(h) <= 3 for h in g.hands)
    assert turns <= 52
    r = g.result
    assert r["scores"] == [len(p) for p in g.piles]
    assert sum(r["scores"]) + len(g.table) + len(g.deck) + sum(map(len, g.hands)) == 57
    if r["scores"][0] == r["scores"][1]:
        assert r["winners"] == [0, 1] and r["draw"] is True
    else:
        assert r["winners"] == [r["scores"].index(max(r["scores"]))] and r["draw"] is False


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seeds, seeds)
def test_views_and_events_carry_nothing_hidden(seed, choices):
    g = new_game("rainbow", seats=2, seed=seed)
    rng = random.Random(choices)
    prng = random.Random(seed ^ choices)
    changed = 0
    while not g.over:
        for observer in (0, 1, None):
            other = perturbed(g, view_fixed(g, observer), prng)
            assert conserved(other)
            assert other.view(observer) == g.view(observer)
            changed += other.all_cards() != g.all_cards()
        seat, action = choose(g, rng)
        twins = [perturbed(g, event_fixed(g, observer, seat, action), prng)
                 for observer in (0, 1)]
        events = g.apply(seat, action)
        for twin in twins:
            assert twin.apply(seat, action) == events
    assert changed > 0  # the perturbations did change hidden faces


@PROPS
@given(seeds, seeds)
def test_the_same_seed_and_actions_give_the_same_game(seed, choices):
    a = new_game("rainbow", seats=2, seed=seed)
    b = new_game("rainbow", seats=2, seed=seed)
    assert a.commitment() == b.commitment() and a.start_events == b.start_events
    ra, rb = random.Random(choices), random.Random(choices)
    while not a.over:
        sa, xa = choose(a, ra)
        sb, xb = choose(b, rb)
        assert (sa, xa) == (sb, xb)
        assert a.apply(sa, xa) == b.apply(sb, xb)
        assert a.view(sa) == b.view(sb)
    assert a.result == b.result
    again = replay("rainbow", actions=a.log, seats=2, seed=seed)
    assert snapshot(again) == snapshot(a)


actions = st.one_of(
    st.fixed_dictionaries({"type": st.just("play"),
                           "hand": st.one_of(st.integers(-2, 4), st.booleans(), st.none(),
                                             st.text(max_size=2)),
                           "turned": st.one_of(st.booleans(), st.integers(0, 1), st.none())}),
    st.fixed_dictionaries({"type": st.just("flip"),
                           "place": st.one_of(st.integers(-2, 7), st.booleans(), st.none())}),
    st.just({"type": "end"}),
    st.fixed_dictionaries({"type": st.sampled_from(["pass", "draw", "", "PLAY"])}),
    st.just({}),
    st.integers(),
)


@PROPS
@given(seeds, seeds, st.lists(st.tuples(st.integers(0, 2), actions), min_size=1,
                              max_size=8))
def test_illegal_actions_are_refused_with_the_game_unchanged(seed, choices, attempts):
    g = new_game("rainbow", seats=2, seed=seed)
    rng = random.Random(choices)
    for _ in range(rng.randrange(60)):
        if g.over:
            break
        g.apply(*choose(g, rng))
    refused = 0
    for seat, action in attempts:
        legal = g.legal_actions(seat) if seat in (0, 1) else []
        before = snapshot(g)
        try:
            g.apply(seat, action)
        except IllegalAction:
            refused += 1
            assert snapshot(g) == before
        else:
            # what passed is a legal action, its values of the exact types
            kind = action["type"]
            normal = {"type": kind}
            if kind == "play":
                normal.update(hand=action["hand"], turned=action.get("turned", False))
                assert type(normal["hand"]) is int and type(normal["turned"]) is bool
            elif kind == "flip":
                normal["place"] = action["place"]
                assert type(normal["place"]) is int
            assert normal in legal
    assert refused or all(isinstance(a, dict) and a.get("type") in ("play", "flip", "end")
                          for _, a in attempts)
