"""Coloretto's scoring: the two tables and each player's best score, found exactly.

At the end every joker is given a colour (each may differ) and each player chooses 3
colours that score positive; every other colour scores negative and each "+2" scores 2.
The engine makes both choices for the player, to give the best total (docs/coloretto.md).

Why not greedily: on the grey side the table is not monotonic (3 cards score 8, 4 score
7), so a joker is sometimes worth more on a *negative* colour of 3 or more cards (it makes
that colour cost one point less) than anywhere else. So the search is exhaustive over the
ways to share the jokers among the colours (jokers are alike, so a way is a multiset: at
most 84 for 3 jokers and 7 colours, fewer since empty colours are alike); for each, the best 3 positive colours are simply the
3 that score most (total = 2 x the positive points - the points of every colour). The
answer is cached, because bots ask for the same collections many times.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

#: The colours of the game, in the order views and results list them.
COLOURS: tuple[str, ...] = ("orange", "blue", "brown", "yellow", "grey", "green", "pink")
JOKER = "joker"
PLUS2 = "+2"
#: Points by the number of cards of one colour (index 0..6; more than 6 count as 6).
TABLES: dict[str, tuple[int, ...]] = {
    "brown": (0, 1, 3, 6, 10, 15, 21),
    "grey": (0, 1, 4, 8, 7, 6, 5),
}
POSITIVE_COLOURS = 3
PLUS2_POINTS = 2


def side_points(side: str) -> tuple[int, ...]:
    """The points of 1, 2, 3, 4, 5 and 6 or more cards of one colour on ``side``: what a
    player is shown (the view's ``scoring_points``, the option's ``facts``)."""
    return TABLES[side][1:]


def colour_points(count: int, side: str) -> int:
    """Points of ``count`` cards of one colour on ``side`` (unsigned)."""
    return TABLES[side][min(count, 6)]


@lru_cache(maxsize=256)
def _joker_shares(jokers: int, slots: int) -> tuple[tuple[int, ...], ...]:
    """Every way to share ``jokers`` alike jokers among ``slots`` colours."""
    if slots == 0:
        return ((),) if jokers == 0 else ()
    if slots == 1:
        return ((jokers,),)
    out = []
    for first in range(jokers, -1, -1):
        for rest in _joker_shares(jokers - first, slots - 1):
            out.append((first, *rest))
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def best_split(counts: tuple[int, ...], jokers: int, side: str,
               allowed: tuple[int, ...] | None = None) -> tuple[int, tuple[int, ...],
                                                                tuple[int, ...]]:
    """The best total of colour points (the "+2" cards left out) for ``counts`` (cards of
    each colour, in :data:`COLOURS` order) and ``jokers``.

    ``allowed``: indexes of the colours a joker may become (default: all). Returns
    ``(points, jokers_per_colour, positive_indexes)``; of ways of equal total, one where
    no joker lowers a positive colour's points, then the first found (jokers on earlier
    colours first), so the answer is deterministic.
    """
    table = TABLES[side]
    n = len(counts)
    allowed = tuple(range(n)) if allowed is None else allowed
    if jokers and not allowed:
        raise ValueError("a joker needs a colour it may become")
    # Colours with no card are all alike: a joker on one is as good as on another, so only
    # the first `jokers` of them are tried (enough for any way of sharing the jokers).
    held = [i for i in allowed if counts[i]]
    empty = [i for i in allowed if not counts[i]][:jokers]
    targets = sorted(held + empty)
    best_total: int | None = None
    best_odd = 0
    best_added: list[int] = [0] * n
    for share in _joker_shares(jokers, len(targets)):
        added = [0] * n
        for index, extra in zip(targets, share, strict=True):
            added[index] = extra
        values = [table[min(c + a, 6)] for c, a in zip(counts, added, strict=True)]
        top = sorted(values, reverse=True)
        total = 2 * (top[0] + top[1] + top[2]) - sum(values) if n >= 3 else sum(values)
        if best_total is not None and total < best_total:
            continue
        # Among ways of equal total, one where no joker lowers a colour that scores
        # positive: "3 blue and a joker, +7" (3 alone score 8 on the grey side) read as
        # the scorer's mistake, though the jokers elsewhere gave the same total.
        order = sorted(range(n), key=lambda i: (-values[i], i))[:POSITIVE_COLOURS]
        odd = sum(1 for i in order if added[i] and values[i] < table[min(counts[i], 6)])
        if best_total is None or total > best_total or odd < best_odd:
            best_total, best_added, best_odd = total, added, odd
    assert best_total is not None
    values = [table[min(c + a, 6)] for c, a in zip(counts, best_added, strict=True)]
    # the 3 highest values score positive (ties: the earlier colour)
    order = sorted(range(n), key=lambda i: (-values[i], i))
    positive = tuple(sorted(i for i in order[:POSITIVE_COLOURS] if values[i] > 0))
    return best_total, tuple(best_added), positive


def best_score(counts: tuple[int, ...], jokers: int, plus2: int, side: str,
               allowed: tuple[int, ...] | None = None) -> int:
    """A player's best total: colour points (best joker colours and positive colours)
    plus 2 a "+2"."""
    return best_split(counts, jokers, side, allowed)[0] + PLUS2_POINTS * plus2


def scoring_layout(counts: tuple[int, ...], jokers: int, plus2: int, side: str,
                   allowed: tuple[int, ...] | None = None) -> dict[str, Any]:
    """How a collection scores at best, as the result and the views show it.

    ``positive``/``negative``: colour -> cards, jokers included (``jokers`` says how many
    of them are jokers); ``points``: colour -> signed points; ``plus2``: the "+2" cards;
    ``total``.
    """
    points, added, positive = best_split(counts, jokers, side, allowed)
    layout: dict[str, Any] = {"positive": {}, "negative": {}, "jokers": {}, "points": {},
                              "plus2": plus2, "total": points + PLUS2_POINTS * plus2}
    for i, colour in enumerate(COLOURS[:len(counts)]):
        held = counts[i] + added[i]
        if added[i]:
            layout["jokers"][colour] = added[i]
        if not held:
            continue
        value = colour_points(held, side)
        if i in positive:
            layout["positive"][colour] = held
            layout["points"][colour] = value
        else:
            layout["negative"][colour] = held
            layout["points"][colour] = -value
    return layout
