"""The heuristic that ``medium`` plays and that ``hard`` uses in its rollouts.

It decides from what one player knows: the faces showing on the table, the faces it knows
underneath (``downs``: a face or None per place), the fronts of its own hand, the backs of
the opponent's hand and how far the turn has gone. A face it cannot see is weighed by the
deck's public pairing (:data:`PARTNERS`: which colours share a card with a given colour).

Each choice is scored in expected cards won this round, looking one step ahead:

- a card that fills the row (the 6th) or is the 3rd of the turn ends the turn: it is
  worth the row if it completes a rainbow (the 6th), else what leaving the row to the
  opponent is worth (:attr:`Policy.end_values`), and minus the row if it fails the check;
- ending the turn with ``n`` cards showing is worth ``end_values[n]`` (with five cards,
  the opponent completes the rainbow with any safe face: that chance is estimated from
  the backs of their hand, which tell something of their fronts);
- turning a table card over is worth the chance that its hidden face is safe times the
  best card that can follow, minus the row otherwise.
"""

from __future__ import annotations

import random
from collections import Counter

from colorclash.engine.rainbow import MAX_CARDS_PER_TURN, PLACES
from colorclash.engine.rainbow_deck import BLACK, COLORS, RAINBOW_CARDS, WHITE


def _partners() -> dict[str, tuple[tuple[str, float], ...]]:
    counts: dict[str, Counter[str]] = {c: Counter() for c in COLORS}
    for a, b in RAINBOW_CARDS:
        counts[a][b] += 1
        counts[b][a] += 1
    return {c: tuple((o, k / sum(n.values())) for o, k in sorted(n.items()))
            for c, n in counts.items()}


#: colour -> ((other face's colour, probability), ...) over the 57 cards of the deck
PARTNERS: dict[str, tuple[tuple[str, float], ...]] = _partners()

#: expected cards for the player who ends the turn leaving ``n`` cards to the opponent:
#: the average round margin measured in medium's self-play (docs/rainbow.md); the value
#: for 5 is replaced by an estimate from the opponent's backs when it is needed
DEFAULT_END_VALUES = (0.0, -1.5, 1.9, -2.5, -0.6, -3.1)


def is_safe(face: str, used: set[str] | frozenset[str]) -> bool:
    """Would ``face`` showing beside the non-white colours ``used`` survive the check?"""
    return face != BLACK and (face == WHITE or face not in used)


_P_SAFE: dict[tuple[str, frozenset[str]], float] = {}


def p_safe_partner(face: str, used: frozenset[str]) -> float:
    """The chance that the hidden face of a card showing ``face`` is safe beside the
    colours ``used`` (by the deck's pairing; memoized: rollouts ask it very often)."""
    key = (face, used)
    value = _P_SAFE.get(key)
    if value is None:
        value = _P_SAFE[key] = sum(p for c, p in PARTNERS[face]
                                   if c != BLACK and (c == WHITE or c not in used))
    return value


def used_colors(ups: list[str], skip: int = -1) -> frozenset[str]:
    """The non-white colours showing (but the one at place ``skip``)."""
    return frozenset(u for i, u in enumerate(ups) if i != skip and u != WHITE)


class Policy:
    """The heuristic as a function of one player's knowledge (see the module docstring)."""

    def __init__(self, end_values: tuple[float, ...] = DEFAULT_END_VALUES,
                 keep_white: float = 0.3) -> None:
        self.end_values = end_values
        self.keep_white = keep_white

    # ------------------------------------------------------------------ the decision

    def decide(self, ups: list[str], downs: list[str | None], fronts: list[str],
               opp_backs: list[str | None], played: int, flip_pending: bool,
               rng: random.Random | None = None) -> dict:
        if played == 0 or flip_pending:
            i, turned, _ = self.best_play(ups, fronts, played, opp_backs)
            return {"type": "play", "hand": i, "turned": turned}
        best, best_value = {"type": "end"}, self.end_value(ups, opp_backs)
        if fronts:
            for place in range(len(ups)):
                value = self.flip_value(ups, downs, fronts, opp_backs, played, place)
                if value > best_value + 1e-9:
                    best, best_value = {"type": "flip", "place": place}, value
        return best

    # ------------------------------------------------------------------ values

    def end_value(self, ups: list[str], opp_backs: list[str | None]) -> float:
        """Expected cards for me if I end the turn now with ``ups`` showing."""
        n = len(ups)
        if n == PLACES - 1:
            q = self.completion_chance(ups, opp_backs)
            return PLACES * (1 - 2 * q)
        return self.end_values[n]

    def completion_chance(self, ups: list[str], opp_backs: list[str | None]) -> float:
        """The chance that the opponent, facing five cards, shows a safe sixth face: one of
        their fronts is safe (estimated from the backs I see), else their gamble on a back."""
        used = used_colors(ups)
        none_safe = 1.0
        backs_safe = []
        for b in opp_backs:
            if b is None:
                none_safe *= 1 - 0.34
                backs_safe.append(0.34)
            else:
                none_safe *= 1 - p_safe_partner(b, used)
                backs_safe.append(1.0 if is_safe(b, used) else 0.0)
        gamble = sum(backs_safe) / len(backs_safe) if backs_safe else 0.0
        return 1 - none_safe + none_safe * gamble

    def best_play(self, ups: list[str], fronts: list[str], played: int,
                  opp_backs: list[str | None]) -> tuple[int, bool, float]:
        """The play with the best expected value: (hand position, turned, value).

        A safe card that fills the row wins it; one that ends the turn otherwise (the
        third card) is worth what leaving the row to the opponent is worth; one after
        which the turn goes on is worth at least that (the player may still stop). A card
        that fails the check loses the row, this card included."""
        used = used_colors(ups)
        n_after = len(ups) + 1
        turn_ends = played + 1 >= MAX_CARDS_PER_TURN
        fail = -float(n_after)
        best = (0, False, -1e9)
        for i, f in enumerate(fronts):
            for turned in (False, True):
                p = p_safe_partner(f, used) if turned else (1.0 if is_safe(f, used) else 0.0)
                if n_after == PLACES:
                    good = float(PLACES)
                elif turn_ends:  # (a turned card's face is unknown: counted as no colour)
                    good = self.end_value([*ups, WHITE if turned else f], opp_backs)
                else:
                    good = max(self.end_values[n_after], 0.0)
                value = p * good + (1 - p) * fail
                if not turned and f == WHITE and n_after < PLACES:
                    value -= self.keep_white  # a white is worth keeping for the sixth place
                if not turned and f != WHITE and fronts.count(f) > 1:
                    value += 0.05  # a colour held twice can only be shown once a round
                if value > best[2] + 1e-9:
                    best = (i, turned, value)
        return best

    def flip_value(self, ups: list[str], downs: list[str | None], fronts: list[str],
                   opp_backs: list[str | None], played: int, place: int) -> float:
        """Expected cards of turning ``place`` over and then playing the best card."""
        used = used_colors(ups, skip=place)
        known = downs[place] if place < len(downs) else None
        outcomes = ((known, 1.0),) if known is not None else PARTNERS[ups[place]]
        fail = -float(len(ups) + 1)
        value = 0.0
        for d, p in outcomes:
            if d == ups[place]:
                continue
            if not is_safe(d, used):
                value += p * fail
                continue
            new_ups = list(ups)
            new_ups[place] = d
            _, _, v = self.best_play(new_ups, fronts, played, opp_backs)
            value += p * v
        return value
