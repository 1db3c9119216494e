"""Coloretto's scoring: the exact best score against a brute-force reference, the tables,
the seed's worked example and the grey side's non-monotonic table."""

from __future__ import annotations

from itertools import combinations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from colorclash.engine.coloretto_scoring import (
    COLOURS,
    TABLES,
    best_score,
    colour_points,
    scoring_layout,
)
from hypothesis_scale import examples

SIDES = ("brown", "grey")


def brute_force(counts, jokers, plus2, side, allowed=None):
    """Every colour for every joker (each joker on its own) x every choice of 3 positive
    colours: the best total. The reference the engine's method is checked against."""
    table = TABLES[side]
    targets = range(len(counts)) if allowed is None else allowed
    best = None
    for colours in product(targets, repeat=jokers):
        held = list(counts)
        for c in colours:
            held[c] += 1
        for positive in combinations(range(len(counts)), 3):
            total = sum(table[min(h, 6)] * (1 if i in positive else -1)
                        for i, h in enumerate(held))
            best = total if best is None else max(best, total)
    return best + 2 * plus2


def index(colour):
    return COLOURS.index(colour)


def counts_of(**by_colour):
    return tuple(by_colour.get(c, 0) for c in COLOURS)


collections = st.tuples(
    st.lists(st.integers(0, 9), min_size=7, max_size=7).map(tuple),
    st.integers(0, 3), st.integers(0, 10), st.sampled_from(SIDES),
)


@settings(max_examples=examples(400), deadline=None)
@given(collections)
def test_the_best_score_is_the_brute_force_best(collection):
    counts, jokers, plus2, side = collection
    assert best_score(counts, jokers, plus2, side) == brute_force(counts, jokers, plus2, side)


@settings(max_examples=examples(150), deadline=None)
@given(collections, st.sets(st.integers(0, 6), min_size=5, max_size=7))
def test_jokers_limited_to_the_colours_in_play(collection, allowed):
    counts, jokers, plus2, side = collection
    allowed = tuple(sorted(allowed))
    counts = tuple(c if i in allowed else 0 for i, c in enumerate(counts))
    assert (best_score(counts, jokers, plus2, side, allowed)
            == brute_force(counts, jokers, plus2, side, allowed))


@settings(max_examples=examples(300), deadline=None)
@given(collections)
def test_the_layout_adds_up_and_uses_every_joker(collection):
    counts, jokers, plus2, side = collection
    layout = scoring_layout(counts, jokers, plus2, side)
    assert layout["total"] == best_score(counts, jokers, plus2, side)
    assert layout["total"] == sum(layout["points"].values()) + 2 * plus2
    assert sum(layout["jokers"].values()) == jokers
    assert len(layout["positive"]) <= 3
    assert not set(layout["positive"]) & set(layout["negative"])
    for colour, held in {**layout["positive"], **layout["negative"]}.items():
        assert held == counts[index(colour)] + layout["jokers"].get(colour, 0)
        sign = 1 if colour in layout["positive"] else -1
        assert layout["points"][colour] == sign * colour_points(held, side)
    # every colour held is listed on one side
    for i, c in enumerate(counts):
        if c:
            assert COLOURS[i] in layout["points"]


def test_the_seeds_worked_example_puts_the_joker_with_yellow():
    # 1 joker, 1 "+2", 6 green, 4 yellow, 3 red (our orange), 2 blue [002]
    counts = counts_of(green=6, yellow=4, orange=3, blue=2)
    layout = scoring_layout(counts, 1, 1, "brown")
    assert layout["jokers"] == {"yellow": 1}
    assert layout["positive"] == {"orange": 3, "yellow": 5, "green": 6}
    assert layout["negative"] == {"blue": 2}
    # 21 + 15 + 6 - 3 + 2
    assert layout["total"] == 41 == brute_force(counts, 1, 1, "brown")


def test_on_the_grey_side_a_joker_can_rescue_a_negative_colour():
    # three positive colours of 3 (8 each) and a negative colour of 3 (-8): a joker on the
    # negative colour makes it 4 cards, -7; on a positive one it would cost a point
    counts = counts_of(orange=3, blue=3, brown=3, yellow=3)
    layout = scoring_layout(counts, 1, 0, "grey")
    assert layout["total"] == 8 + 8 + 8 - 7 == brute_force(counts, 1, 0, "grey")
    (colour, n), = layout["jokers"].items()
    assert n == 1 and colour in layout["negative"] and layout["negative"][colour] == 4


def lowers_a_positive_colour(counts, layout, side):
    """A joker in the layout makes a positive colour score less than its own cards."""
    return any(colour_points(layout["positive"][c], side) < colour_points(counts[index(c)], side)
               for c in layout["jokers"] if c in layout["positive"])


def test_a_joker_is_not_shown_lowering_a_colour_when_another_way_scores_as_much():
    """The grey side's results said "Brown: 3 and a joker = 4 cards, +7" (3 alone score 8):
    the total was right, the jokers elsewhere gave as much, and it read as a mistake."""
    counts = counts_of(blue=1, brown=3, yellow=3, grey=3)
    layout = scoring_layout(counts, 2, 0, "grey")
    assert layout["total"] == brute_force(counts, 2, 0, "grey")
    assert not lowers_a_positive_colour(counts, layout, "grey"), layout


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 5), min_size=7, max_size=7).map(tuple), st.integers(1, 3))
def test_a_joker_lowers_a_positive_colour_only_when_every_best_way_does(counts, jokers):
    """(on the grey side, whose table goes down after 3 cards)"""
    layout = scoring_layout(counts, jokers, 0, "grey")
    if not lowers_a_positive_colour(counts, layout, "grey"):
        return
    best = layout["total"]
    table = TABLES["grey"]
    for colours in product(range(7), repeat=jokers):  # every other way of equal total
        held = list(counts)
        for c in colours:
            held[c] += 1
        values = [table[min(h, 6)] for h in held]
        top = sorted(range(7), key=lambda i: (-values[i], i))[:3]
        if 2 * sum(values[i] for i in top) - sum(values) == best:
            assert any(held[i] > counts[i] and values[i] < table[min(counts[i], 6)]
                       for i in top), (counts, colours)


def greedy_score(counts, jokers, side):
    """One joker at a time, each where it adds most: NOT the best on the grey side."""
    held = list(counts)
    for _ in range(jokers):
        gains = []
        for i in range(len(held)):
            trial = list(held)
            trial[i] += 1
            gains.append(best_score(tuple(trial), 0, 0, side))
        held[gains.index(max(gains))] += 1
    return best_score(tuple(held), 0, 0, side)


def test_one_joker_at_a_time_is_not_the_best_on_the_grey_side():
    counts = counts_of(blue=4, brown=5, pink=5)
    assert best_score(counts, 2, 0, "grey") == brute_force(counts, 2, 0, "grey") == 18
    assert greedy_score(counts, 2, "grey") == 17


def test_more_than_six_cards_score_as_six():
    assert colour_points(9, "brown") == colour_points(6, "brown") == 21
    assert colour_points(7, "grey") == colour_points(6, "grey") == 5
    assert best_score(counts_of(blue=9), 0, 0, "brown") == 21


def test_the_tables_of_both_sides():
    assert [colour_points(k, "brown") for k in range(1, 7)] == [1, 3, 6, 10, 15, 21]
    assert [colour_points(k, "grey") for k in range(1, 7)] == [1, 4, 8, 7, 6, 5]


def test_plus2_cards_score_two_each_and_other_colours_negative():
    counts = counts_of(orange=1, blue=2, brown=3, yellow=4)
    # brown side: 10 + 6 + 3 positive, orange -1; 3 "+2": 6
    assert best_score(counts, 0, 3, "brown") == 10 + 6 + 3 - 1 + 6
