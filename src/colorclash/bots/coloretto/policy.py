"""The heuristic Coloretto play of ``medium`` (and of ``hard``'s rollouts).

It works on an engine position (a world built from the view, or a rollout's copy) and
reads only what the view shows: collections, rows, the drawn card, who is still in the
round and the size of the supply, never the supply's order.

*Worth of cards to a player*: how much they raise that player's best score now (the exact
scorer: jokers and the 3 positive colours chosen at best), so a fourth colour costs
points, a "+2" is worth 2 and a joker goes where it helps most.

- **Place** the drawn card where it helps me most and the others least: for each open row,
  what the card adds to the row's worth for me, less ``spite`` times the most it adds for
  another player still in the round. Alone in the round, where it leaves me the best row to
  take (a bad card goes to a row I will leave).
- **Take or draw**: take the best row for me when it is worth at least what waiting is
  likely to bring: one more card of the known supply mix placed at best, discounted by
  ``patience`` for every other player who could take that row first. Alone, draw while one
  more card is expected to make my best row better. A row worth nothing or less is never
  taken while drawing is possible. Which row: the most for me plus ``deny`` times the most
  it would give another player still in the round.

``patience`` and ``deny`` depend on the table size (measured, medium against itself).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from colorclash.engine.coloretto import Coloretto
from colorclash.engine.coloretto_scoring import COLOURS, JOKER, PLUS2, best_split

Action = dict[str, Any]
_INDEX = {c: i for i, c in enumerate(COLOURS)}

DEFAULT_SPITE = 0.6
#: by table size; 2 players: above 1, so a row is taken only when every row is full
#: (measured: waiting wins there, taking first leaves the other player alone to draw)
PATIENCE = {2: 1.1}
DEFAULT_PATIENCE = 0.9


#: by table size: how much denying a row to another player counts when choosing which
#: row to take (2 players: 0.7 won 57% of 800 games against 0; 4 players: no gain)
DENY = {2: 0.7}
DEFAULT_DENY = 0.0


def patience_for(seats: int) -> float:
    return PATIENCE.get(seats, DEFAULT_PATIENCE)


def deny_for(seats: int) -> float:
    return DENY.get(seats, DEFAULT_DENY)


class SeatWorth:
    """The worth of cards to one collection, memoised (rollouts meet the same collections
    and rows again and again)."""

    __slots__ = ("allowed", "base", "counts", "jokers", "memo", "side")

    def __init__(self, side: str, allowed: tuple[int, ...], col: dict[str, int]) -> None:
        self.side = side
        self.allowed = allowed
        self.counts = tuple(col[c] for c in COLOURS)
        self.jokers = col[JOKER]
        self.base = best_split(self.counts, self.jokers, side, allowed)[0]
        self.memo: dict[tuple[str, ...], int] = {}

    def gain(self, cards: tuple[str, ...]) -> int:
        """What ``cards`` would add to the collection's best score."""
        value = self.memo.get(cards)
        if value is None:
            counts = list(self.counts)
            jokers = self.jokers
            extra = 0
            for card in cards:
                if card == PLUS2:
                    extra += 2
                elif card == JOKER:
                    jokers += 1
                else:
                    counts[_INDEX[card]] += 1
            value = best_split(tuple(counts), jokers, self.side, self.allowed)[0] \
                - self.base + extra
            self.memo[cards] = value
        return value


_SEATS: dict[tuple[Any, ...], SeatWorth] = {}
_SEATS_LIMIT = 5_000


def seat_worth(side: str, allowed: tuple[int, ...], col: dict[str, int]) -> SeatWorth:
    key = (side, allowed, *col.values())
    worth = _SEATS.get(key)
    if worth is None:
        if len(_SEATS) >= _SEATS_LIMIT:
            _SEATS.clear()
        worth = _SEATS[key] = SeatWorth(side, allowed, col)
    return worth


class Worth:
    """The worth of cards to each seat of one position."""

    __slots__ = ("seats",)

    def __init__(self, g: Coloretto) -> None:
        side, allowed = g.side, g.allowed
        self.seats = [seat_worth(side, allowed, col) for col in g.collections]

    def gain(self, seat: int, cards: list[str] | tuple[str, ...]) -> int:
        """What ``cards`` would add to ``seat``'s best score."""
        return self.seats[seat].gain(tuple(cards)) if cards else 0


def supply_mix(pool: Counter[str]) -> list[tuple[str, float]]:
    """The supply's composition as (kind, probability) pairs."""
    total = sum(pool.values())
    return [(k, n / total) for k, n in sorted(pool.items()) if n] if total else []


def others_in_round(g: Coloretto, seat: int) -> list[int]:
    return [s for s in range(g.n) if s != seat and s not in g.taken_order]


def open_rows(g: Coloretto) -> list[int]:
    return [i for i, row in enumerate(g.rows)
            if g.taken_by[i] is None and len(row) < g.slots[i]]


def takeable_rows(g: Coloretto) -> list[int]:
    return [i for i, row in enumerate(g.rows) if g.taken_by[i] is None and row]


def best_take_after(g: Coloretto, worth: Worth, seat: int, card: str, row: int) -> int:
    """My best row to take once ``card`` lies in ``row``."""
    best = None
    for i in takeable_rows(g) + ([row] if not g.rows[row] else []):
        cards = g.rows[i] + [card] if i == row else g.rows[i]
        v = worth.gain(seat, cards)
        if best is None or v > best:
            best = v
    return best if best is not None else 0


def choose_place(g: Coloretto, seat: int, worth: Worth | None = None,
                 spite: float = DEFAULT_SPITE) -> int:
    """The row for the drawn card."""
    worth = worth or Worth(g)
    card = g.drawn
    assert card is not None
    others = others_in_round(g, seat)
    best_row, best_score = -1, None
    for r in open_rows(g):
        row = g.rows[r]
        mine = worth.gain(seat, row + [card]) - worth.gain(seat, row)
        if others:
            theirs = max(worth.gain(o, row + [card]) - worth.gain(o, row) for o in others)
            score = mine - spite * theirs
        else:
            score = best_take_after(g, worth, seat, card, r) + 0.01 * mine
        if best_score is None or score > best_score:
            best_row, best_score = r, score
    return best_row


def _best_take(g: Coloretto, worth: Worth, seat: int, deny: float = 0.0) -> tuple[int, int]:
    """(row, its worth to me) of the best row to take now (-1 when none): the most for me
    plus ``deny`` times the most it would give another player still in the round."""
    others = others_in_round(g, seat) if deny else []
    best_row, best, best_key = -1, 0, None
    for r in takeable_rows(g):
        row = g.rows[r]
        v = worth.gain(seat, row)
        key = v + deny * max((worth.gain(o, row) for o in others), default=0)
        # ties: the row with more cards (more for me now, fewer left for the others)
        if best_key is None or key > best_key or (
                key == best_key and len(row) > len(g.rows[best_row])):
            best_row, best, best_key = r, v, key
    return best_row, best


def wait_value(g: Coloretto, worth: Worth, seat: int, mix: list[tuple[str, float]],
               now: int) -> float:
    """What one more card (of the supply's mix, placed at best for me) makes my best row
    worth, expected."""
    rows = open_rows(g)
    total = 0.0
    for card, p in mix:
        best = now
        for r in rows:
            v = worth.gain(seat, g.rows[r] + [card])
            if v > best:
                best = v
        total += p * best
    return total


def alone_draw_value(g: Coloretto, worth: Worth, seat: int,
                     mix: list[tuple[str, float]]) -> float:
    rows = open_rows(g)
    total = 0.0
    for card, p in mix:
        total += p * max(best_take_after(g, worth, seat, card, r) for r in rows)
    return total


def choose_turn(g: Coloretto, seat: int, mix: list[tuple[str, float]],
                worth: Worth | None = None, patience: float | None = None,
                deny: float | None = None) -> Action:
    """Draw, or take which row."""
    worth = worth or Worth(g)
    if patience is None:
        patience = patience_for(g.n)
    if deny is None:
        deny = deny_for(g.n)
    row, now = _best_take(g, worth, seat, deny)
    can_draw = bool(g.supply) and bool(open_rows(g))
    if not can_draw:
        return {"type": "take", "row": row}
    if row < 0:
        return {"type": "draw"}
    others = others_in_round(g, seat)
    if not others:
        if alone_draw_value(g, worth, seat, mix) > now:
            return {"type": "draw"}
        return {"type": "take", "row": row}
    if now <= 0 or patience >= 1.0:
        return {"type": "draw"}  # (waiting is worth at least `now`: never below it)
    wait = wait_value(g, worth, seat, mix, now) * patience ** len(others)
    return {"type": "take", "row": row} if now >= wait else {"type": "draw"}


def choose(g: Coloretto, seat: int, mix: list[tuple[str, float]],
           spite: float = DEFAULT_SPITE, patience: float | None = None,
           deny: float | None = None) -> Action:
    """The heuristic's action for ``seat`` (whose turn it is) in position ``g``."""
    worth = Worth(g)
    if g.phase == "place":
        return {"type": "place", "row": choose_place(g, seat, worth, spite)}
    return choose_turn(g, seat, mix, worth, patience, deny)
