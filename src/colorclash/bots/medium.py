"""The ``medium`` computer player: sound heuristics, no search.

It keeps its wilds for when nothing else fits, dumps high cards first, follows the colour
it holds most (and picks that colour for a wild), answers a waiting stack when it can
(passing it on beats drawing it), and saves its action cards for a player who is about
to go out. :func:`score_plays` is shared with ``hard``, which uses it as its rollout
policy and as the prior it falls back on when search sees no clear difference.
"""

from __future__ import annotations

from typing import Any

from colorclash.bots.base import (
    Action,
    Bot,
    View,
    color_counts,
    find,
    forced,
    most_held_color,
)
from colorclash.engine.cards import COLORS, FACES

# Kinds that stop or hurt the next player.
_HURT = {"skip", "skipall", "draw", "hunt"}


def next_seat(seat: int, n: int, direction: int, out: list[int] | tuple[int, ...]) -> int:
    s = (seat + direction) % n
    for _ in range(n):
        if s not in out:
            return s
        s = (s + direction) % n
    return s


def wild_color(hand: list[str], card: str) -> str:
    """Colour for a wild: the one held most once ``card`` has left the hand."""
    return most_held_color(hand, exclude_card=card)


def score_play(face_name: str, color: str | None, ctx: dict[str, Any]) -> float:
    """How much ``medium`` likes playing ``face_name`` (with ``color`` for a wild) now."""
    face = FACES[face_name]
    hand: list[str] = ctx["hand"]
    left = len(hand) - 1
    if left == 0:
        return 10_000.0  # going out
    counts_after: dict[str, int] = ctx["color_counts"]
    new_color = face.color or color
    score = 100.0 + 0.4 * face.points
    # follow-up: cards of the new active colour still in hand (minus this one)
    follow = counts_after.get(new_color, 0) - (1 if face.color == new_color else 0)
    score += 6.0 * follow
    kind = face.kind
    danger = ctx["next_count"] <= 2 or ctx["min_opp"] <= 1
    if face.color is None:  # wilds: keep them for when nothing else fits
        score -= 45.0 if left > 2 else 0.0
        if kind == "draw" or kind == "hunt":
            score += 25.0 if danger else 0.0
    elif kind == "draw":
        score += 6.0 + (30.0 if danger else 0.0)
    elif kind in ("skip", "skipall"):
        score += 4.0 + (25.0 if danger else 0.0)
        if kind == "skipall":
            score += 10.0  # plays again
    elif kind == "reverse":
        score += 4.0 + (25.0 if danger and ctx["active"] == 2 else 0.0)
    elif kind == "shield":
        if ctx["stack"]:
            score += 0.0
        elif ctx["has_shield"]:
            score -= 10.0  # a second shield adds nothing
        else:
            score += 12.0
    if ctx["stack"] and kind == "draw":
        score += 20.0  # pass the stack on rather than cancel it with a Shield
    return score


def make_ctx(view: View) -> dict[str, Any]:
    seat = view["seat"]
    return play_context(
        view["hand"], view["counts"], seat, view["seats"], view.get("direction", 1),
        view.get("out") or [], view.get("stack", 0), seat in (view.get("shields") or []),
    )


def play_context(
    hand: list[str], counts: list[int], seat: int, n: int, direction: int,
    out: list[int], stack: int, has_shield: bool,
) -> dict[str, Any]:
    """What ``score_play`` weighs, from a view (``make_ctx``) or from a game in a rollout."""
    nxt = next_seat(seat, n, direction, out)
    opps = [counts[s] for s in range(n) if s != seat and s not in out]
    return {
        "hand": hand,
        "color_counts": color_counts(hand),
        "next_count": counts[nxt],
        "next": nxt,
        "min_opp": min(opps) if opps else 99,
        "active": n - len(out),
        "stack": stack,
        "has_shield": has_shield,
    }


def score_plays(view: View, legal: list[Action],
                ctx: dict[str, Any] | None = None) -> list[tuple[float, Action]]:
    """Every legal play (one colour per wild: the held-most one) with its ``medium`` score
    (``ctx``: the view's :func:`make_ctx`, when the caller has it already)."""
    if ctx is None:
        ctx = make_ctx(view)
    hand = ctx["hand"]
    scored: list[tuple[float, Action]] = []
    seen: set[str] = set()
    for a in legal:
        if a["type"] != "play":
            continue
        card = a["card"]
        if "color" in a:
            if card in seen:
                continue
            seen.add(card)
            color = wild_color(hand, card)
            action = {"type": "play", "card": card, "color": color}
            scored.append((score_play(card, color, ctx), action))
        else:
            scored.append((score_play(card, None, ctx), a))
    return scored


def medium_choice(view: View, legal: list[Action]) -> Action:
    """The ``medium`` decision (deterministic)."""
    sure = forced(view, legal)
    if sure is not None:
        return sure
    phase = view.get("phase")
    hand = view.get("hand") or []
    if phase == "color":
        color = most_held_color(hand)
        return next(a for a in legal if a.get("color") == color)
    scored = score_plays(view, legal)
    if phase == "drawn":
        if scored:
            score, action = max(scored, key=lambda t: t[0])
            # keep a drawn plain wild while the hand is long and nobody threatens
            face = FACES[action["card"]]
            if face.kind == "wild" and len(hand) > 3 and make_ctx(view)["min_opp"] > 2:
                keep = find(legal, "keep")
                if keep is not None:
                    return keep
            return action
        return find(legal, "keep") or legal[0]
    if scored:
        best_score, best = max(scored, key=lambda t: t[0])
        return best
    for kind in ("take", "draw", "pass"):
        a = find(legal, kind)
        if a is not None:
            return a
    return legal[0]


class MediumBot(Bot):
    """Sound heuristics (see the module docstring)."""

    level = "medium"
    catch_patience = 0.5  # of the last-card window (base.Bot.patience)

    def choose(self, view: View, legal: list[Action]) -> Action:
        return medium_choice(view, legal)


__all__ = ["MediumBot", "medium_choice", "score_plays", "next_seat", "COLORS"]
