"""The move ``hard`` plays when its search sees no clear difference (its *prior*).

It is ``medium``'s play score with three changes, measured in cheap heuristic-only
tournaments of 4,000 two-seat games against ``medium`` (paired deals):

* **wilds are the last resort**: a wild (or Wild +4) is played only when nothing else
  fits or it goes out (``medium`` also plays one as soon as it holds two cards or fewer);
* **in a one-round match, low numbers first**: only winning the round counts, so the
  points of a number card do not matter; keeping the high ones (they match the high
  numbers opponents dump) and playing the low ones is better than ``medium``'s
  high-cards-first. In a match of several rounds (``family``), where the points left in
  a losing hand count, it dumps high cards first like ``medium``;
* **set a colour the next player lacks**: a play that makes the active colour one the
  next player showed it lacks (it drew on that colour) scores a bonus in proportion to
  the share of its cards held since then; a wild's colour is chosen the same way among
  the colours ``hard`` holds.

Day & Night keeps ``medium``'s scores (its faces have their own points and ``hard``
already wins clearly there).

Figures (the prior alone against ``medium``, 4,000 games each): standard 54.7%, family
53.7%, classic-table 56.3%, siege 56.4% (docs/bots.md).
"""

from __future__ import annotations

from typing import Any

from colorclash.bots.base import Action, View
from colorclash.bots.medium import make_ctx, score_play, score_plays
from colorclash.engine.cards import COLORS, FACES

WILD_PENALTY = 30.0  # on top of medium's -45 while more than two cards would be left
ONE_ROUND_NUMBER_POINTS = -0.4  # medium: +0.4 per point; the sum is -0.4 per point
LACK_BONUS = 60.0  # for a play that sets a colour the next player is known to lack


def adjusted(view: View) -> bool:
    """Does the prior differ from ``medium`` in this game (single-faced decks)?"""
    return (view.get("options") or {}).get("deck", "standard") != "day-night"


def own_adjustments(view: View) -> tuple[float, float]:
    """(extra score of a wild, extra score per point of a number card) of the prior, for
    the rollouts' policy of ``hard``'s own seat (only while two or more cards are held:
    the rollouts' policy takes the going-out play anyway)."""
    if not adjusted(view):
        return (0.0, 0.0)
    rounds = (view.get("options") or {}).get("rounds")
    return (-WILD_PENALTY, (ONE_ROUND_NUMBER_POINTS - 0.4) if rounds == 1 else 0.0)


def lack_chance(memory: Any, seat: int, count: int, color: str | None) -> float:
    """How sure ``memory`` is that ``seat`` holds no card of ``color``: the share of its
    cards held since it drew on that colour (cards it received later may be that colour)."""
    if memory is None or color is None or count <= 0:
        return 0.0
    probe = color + "0"
    best = 0.0
    for forbidden, new in memory.voids.get(seat, ()):
        if probe in forbidden:
            best = max(best, (count - new) / count)
    return best


def prior_plays(view: View, legal: list[Action],
                memory: Any = None) -> list[tuple[float, Action]]:
    """Every legal play with its prior score: one colour per wild, the one held most or,
    with ``memory``, the one that scores best counting the next player's known voids."""
    ctx = make_ctx(view)
    hand = ctx["hand"]
    options = view.get("options") or {}
    change = adjusted(view)
    number_extra = (ONE_ROUND_NUMBER_POINTS - 0.4) if options.get("rounds") == 1 else 0.0
    lack: dict[str, float] = {}
    if change and memory is not None and memory.voids:
        nxt = ctx["next"]
        count = view["counts"][nxt]
        lack = {c: LACK_BONUS * lack_chance(memory, nxt, count, c) for c in COLORS}
    scored: list[tuple[float, Action]] = []
    for score, action in score_plays(view, legal, ctx):  # medium's, a wild's colour held most
        card = action["card"]
        face = FACES[card]
        if lack and face.color is None:  # a wild: the held colour that scores best with lack
            color = best = action["color"]
            top = score + lack.get(color, 0.0)
            for c in COLORS:
                if c != color and ctx["color_counts"].get(c, 0) > 0 and any(
                        b.get("color") == c and b["card"] == card for b in legal):
                    sc = score_play(card, c, ctx) + lack.get(c, 0.0)
                    if sc > top:
                        top, best = sc, c
            if best != color:
                action = {"type": "play", "card": card, "color": best}
                score = score_play(card, best, ctx)
        if change and len(hand) > 1:
            if face.color is None:
                score -= WILD_PENALTY
            elif face.kind == "number":
                score += number_extra * face.points
            if lack and face.color is not None:  # (a wild's colour already counted it)
                score += lack.get(face.color, 0.0)
        scored.append((score, action))
    return scored


def prior_choice(view: View, legal: list[Action], fallback: Action,
                 memory: Any = None) -> Action:
    """The prior's play in the ``play`` phase (``fallback``, medium's move, otherwise)."""
    if view.get("phase") != "play" or not adjusted(view):
        return fallback
    scored = prior_plays(view, legal, memory)
    if not scored:
        return fallback
    best = scored[0]
    for item in scored[1:]:
        if item[0] > best[0]:
            best = item
    return best[1]


__all__ = ["prior_choice", "prior_plays", "adjusted", "own_adjustments", "lack_chance"]
