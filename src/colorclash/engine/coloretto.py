"""Coloretto (Michael Schacht), 2-5 players: collect few colours, many cards of each.

Rules: /work/shared/spec/coloretto.md; how this engine plays them, the notation, the
actions, views, events and every choice the spec leaves open: docs/coloretto.md.

A round: in turn, each player either *draws* the top card of the supply (action
``draw``; the card is then shown to everyone) and *places* it beside a row card with a
free slot (``place``), or *takes* a row with at least one card (``take``) and sits out the
rest of the round. When everyone has taken a row the round ends and the last taker starts
the next. The last-round card lies under the top of the supply (above the bottom 15 cards);
when it is drawn it is set aside, the player draws the next card instead, and the game ends
with that round. Best scores are found exactly (:mod:`colorclash.engine.coloretto_scoring`).

Decided here (the spec is silent):

- The supply running dry: drawing is impossible with an empty supply (as when every row
  is full); a player who can neither draw nor take (every row left is empty) ends the round
  at once, the players who have not taken a row take nothing, and the game ends. In play
  the 15 cards under the last-round card are always enough (a round places at most 15), so
  this happens only in positions built with ``setup=``.
- The game also ends after a round in which the supply ran out without the last-round
  card (again only with ``setup=``).
- Starting cards are of different colours across the whole table (2 players: 4 colours).
- A joker may become any colour in play (not a colour removed from the game).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from copy import deepcopy
from typing import Any

from colorclash.engine.base import (
    Action,
    Event,
    Game,
    GameDefinition,
    IllegalAction,
    OptionSpec,
    SeededRandom,
    not_your_turn,
    out_of_range,
    refuse_unknown_fields,
)
from colorclash.engine.coloretto_scoring import (
    COLOURS,
    JOKER,
    PLUS2,
    best_score,
    scoring_layout,
    side_points,
)

LAST = "last-round"
#: A shape per colour, so that nobody depends on colour alone (the client draws them).
SHAPES: dict[str, str] = {
    "orange": "circle", "blue": "square", "brown": "triangle", "yellow": "star",
    "grey": "diamond", "green": "hexagon", "pink": "heart",
    JOKER: "rainbow", PLUS2: "plus", LAST: "flag",
}
CARDS_PER_COLOUR = 9
PLUS2_CARDS = 10
JOKERS = 3
UNDER_LAST = 15  # cards dealt under the last-round card
#: the kinds of card a collection holds, in the order views list them
KINDS: tuple[str, ...] = (*COLOURS, JOKER, PLUS2)
BROWN_SLOTS = 3
GREEN_SLOTS = (1, 2, 3)  # two players: the three green row cards
SCORING_SIDES = ("brown", "grey")
CLOCK_CHOICES = (15, 20, 30, 45, 60, 90)
DEFAULT_CLOCK = 30

TURN = "turn"  # the seat to act draws or takes
PLACE = "place"  # the drawn card waits for its row
GAME_OVER = "game_over"


def full_deck() -> list[str]:
    """The 77 playing cards: 63 colour cards, 10 "+2", 3 jokers and the last-round card
    (the other 13 cards of the box are 8 row cards and 5 summary cards)."""
    deck = [c for c in COLOURS for _ in range(CARDS_PER_COLOUR)]
    return deck + [PLUS2] * PLUS2_CARDS + [JOKER] * JOKERS + [LAST]


def removed_colour_count(seats: int) -> int:
    return {2: 2, 3: 1}.get(seats, 0)


def row_slots(seats: int) -> list[int]:
    """Slots of each row card: green 1, 2, 3 for two players, else one brown (3) a player."""
    return list(GREEN_SLOTS) if seats == 2 else [BROWN_SLOTS] * seats


def _options_of(preset: str | None, options: dict[str, Any] | None) -> dict[str, Any]:
    return DEFINITION.check_options(preset, options or {})


class Coloretto(Game):
    """A game of Coloretto. See the module docstring and docs/coloretto.md."""

    game_name = "coloretto"

    __slots__ = (
        "_result",
        "_start_events",
        "allowed",
        "collections",
        "colours",
        "drawn",
        "first",
        "initial_order",
        "last_round",
        "n",
        "options",
        "out",
        "phase",
        "preset",
        "removed_colours",
        "removed_rows",
        "rng",
        "round_no",
        "rows",
        "seed",
        "side",
        "slots",
        "supply",
        "taken_by",
        "taken_order",
        "turn",
        "turn_no",
    )

    def __init__(
        self,
        *,
        preset: str | None = None,
        seats: int,
        seed: int | str | bytes | None = None,
        setup: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 5:
            raise ValueError("Coloretto is played by 2 to 5 seats")
        self.preset = preset or DEFINITION.default_preset
        self.options = _options_of(self.preset, options)
        self.side: str = self.options["scoring"]
        self.n = seats
        self.seed = seed
        self.rng = SeededRandom(seed if seed is not None else 0)
        self.slots = row_slots(seats)
        self.round_no = 1
        self.turn_no = 0
        self.out: list[str] = []  # cards out of the game with a third row (two players)
        self.drawn: str | None = None
        self.phase = TURN
        self._result: dict[str, Any] | None = None
        self.taken_order: list[int] = []
        self.taken_by: list[int | None] = [None] * len(self.slots)
        self.removed_rows = [False] * len(self.slots)  # two players: the row left over
        self.rows: list[list[str]] = [[] for _ in self.slots]
        self.collections: list[dict[str, int]] = [dict.fromkeys(KINDS, 0)
                                                  for _ in range(seats)]
        self.initial_order: list[str] = []
        if setup is not None:
            self._setup_from(setup)
            self._start_events: list[Event] = []
        else:
            self._deal()
        self.allowed = tuple(i for i, c in enumerate(COLOURS) if c in self.colours)

    # ------------------------------------------------------------------ set-up

    def _deal(self) -> None:
        rng = self.rng
        n = self.n
        colours = list(COLOURS)
        rng.shuffle(colours)
        removed = colours[:removed_colour_count(n)]
        self.removed_colours = [c for c in COLOURS if c in removed]
        self.colours = [c for c in COLOURS if c not in removed]
        in_play = [c for c in colours if c not in removed]  # shuffled order
        per_seat = 2 if n == 2 else 1
        start = [[in_play[s * per_seat + k] for k in range(per_seat)] for s in range(n)]
        for s in range(n):
            for card in start[s]:
                self.collections[s][card] += 1
        deck = [c for c in full_deck() if c not in removed and c != LAST]
        for card in (c for hand in start for c in hand):
            deck.remove(card)
        rng.shuffle(deck)
        # deck[0] is the bottom; 15 cards, the last-round card, then the rest on top
        self.supply = deck[:UNDER_LAST] + [LAST] + deck[UNDER_LAST:]
        self.last_round = False
        self.first = self.turn = rng.randrange(n)
        self.initial_order = (
            ["removed:" + "+".join(self.removed_colours)]
            + ["start:" + "+".join(hand) for hand in start]
            + [f"first:{self.first}"] + self.supply[::-1]
        )
        self._start_events = [{
            "type": "deal", "removed_colours": list(self.removed_colours),
            "start_cards": [list(h) for h in start], "first": self.first,
            "rows": list(self.slots), "supply": len(self.supply),
            "scoring": self.side,
        }]

    def _setup_from(self, setup: dict[str, Any]) -> None:
        """A position given by a test or a bot (docs/coloretto.md, "setup= keys")."""
        if not isinstance(setup, dict):
            raise ValueError("setup must be a dict")
        known = {"removed_colours", "collections", "rows", "taken_by", "taken", "supply",
                 "turn", "first", "drawn", "last_round", "round", "out"}
        unknown = set(setup) - known
        if unknown:
            raise ValueError(f"unknown setup keys: {', '.join(sorted(unknown))}")
        n = self.n
        removed = list(setup.get("removed_colours",
                                 COLOURS[len(COLOURS) - removed_colour_count(n):]))
        if any(c not in COLOURS for c in removed) or len(set(removed)) != len(removed):
            raise ValueError(f"setup 'removed_colours' must be distinct colours of {COLOURS}")
        if len(removed) != removed_colour_count(n):
            raise ValueError(f"setup 'removed_colours': {n} players play without "
                             f"{removed_colour_count(n)} colours")
        self.removed_colours = [c for c in COLOURS if c in removed]
        self.colours = [c for c in COLOURS if c not in removed]
        pool = Counter(c for c in full_deck() if c not in removed)

        def is_seat(seat: Any) -> bool:
            return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n

        def listed(value: Any, what: str) -> list[Any]:
            if not isinstance(value, (list, tuple)):
                raise ValueError(f"setup {what} must be a list")
            return list(value)

        def take(cards: Any, what: str) -> list[str]:
            cards = listed(cards, what)
            if not all(isinstance(card, str) for card in cards):
                raise ValueError(f"setup {what}: cards are colour names, such as 'blue'")
            for card in cards:
                if pool[card] <= 0:
                    raise ValueError(f"setup {what}: no {card!r} left in the deck "
                                     f"(unknown card, removed colour or too many)")
                pool[card] -= 1
            return cards

        collections = listed(setup.get("collections", [[] for _ in range(n)]), "'collections'")
        if len(collections) != n:
            raise ValueError(f"setup 'collections' needs {n} lists, one per seat")
        for s, cards in enumerate(collections):
            for card in take(cards, "collections"):
                if card == LAST:
                    raise ValueError("the last-round card cannot be in a collection")
                self.collections[s][card] += 1
        rows = listed(setup.get("rows", [[] for _ in self.slots]), "'rows'")
        if len(rows) != len(self.slots):
            raise ValueError(f"setup 'rows' needs {len(self.slots)} lists")
        self.rows = [take(r, "rows") for r in rows]
        taken_by = listed(setup.get("taken_by", [None] * len(self.slots)), "'taken_by'")
        if len(taken_by) != len(self.slots):
            raise ValueError(f"setup 'taken_by' needs {len(self.slots)} entries")
        takers = [s for s in taken_by if s is not None]
        if len(set(takers)) != len(takers) or not all(map(is_seat, takers)):
            raise ValueError("setup 'taken_by': distinct seat numbers or None")
        if len(takers) >= n:
            raise ValueError("setup 'taken_by': at least one seat must still be in the round")
        for i, row in enumerate(self.rows):
            if LAST in row:
                raise ValueError("the last-round card cannot lie in a row")
            if len(row) > self.slots[i]:
                raise ValueError(f"row {i} has {self.slots[i]} slots")
            if taken_by[i] is not None and row:
                raise ValueError(f"row {i} was taken: it has no cards")
        self.taken_by = taken_by
        order = listed(setup.get("taken", takers), "'taken'")
        if sorted(order) != sorted(takers):
            raise ValueError("setup 'taken' must list the seats of 'taken_by' (in the order "
                             "they took their rows)")
        self.taken_order = order
        self.out = take(setup.get("out", []), "out")
        if LAST in self.out:
            raise ValueError("the last-round card is never out of the game: it is drawn "
                             "(setup 'last_round') or still in the supply")
        drawn = setup.get("drawn")
        if drawn is not None:
            if not isinstance(drawn, str):
                raise ValueError("setup 'drawn' must be a card, such as 'blue'")
            take([drawn], "drawn")
            if drawn == LAST:
                raise ValueError("the last-round card is never waiting to be placed")
        self.drawn = drawn
        self.last_round = setup.get("last_round", False)
        if not isinstance(self.last_round, bool):
            raise ValueError("setup 'last_round' must be true or false")
        if self.last_round:
            take([LAST], "last_round")
        if "supply" in setup:
            supply = take(setup["supply"], "supply")[::-1]  # given top first
        else:
            rest = list(pool.elements())
            self.rng.shuffle(rest)
            if LAST in rest:
                rest.remove(LAST)
                under = min(UNDER_LAST, max(len(rest) - 1, 0))
                rest = rest[:under] + [LAST] + rest[under:]
            supply = rest
        if supply and supply[0] == LAST:
            raise ValueError("the last-round card needs a card under it in the supply")
        self.supply = supply
        turn = setup.get("turn", 0)
        if not is_seat(turn) or turn in takers:
            raise ValueError("setup 'turn' must be a seat that has not taken a row")
        self.turn = turn
        first = setup.get("first", turn)
        if not is_seat(first):
            raise ValueError("setup 'first' must be a seat number")
        self.first = first
        round_no = setup.get("round", 1)
        if not isinstance(round_no, int) or isinstance(round_no, bool) or round_no < 1:
            raise ValueError("setup 'round' must be 1 or more")
        self.round_no = round_no
        if drawn is not None:
            self.phase = PLACE
            if not self._open_rows():
                raise ValueError("a drawn card needs a row with a free slot")
        self.initial_order = ["setup"] + self.supply[::-1]
        if self.phase == TURN and not self.legal_actions(turn):
            raise ValueError("setup leaves the seat to act with nothing to do")

    # ------------------------------------------------------------------ state

    @property
    def to_act(self) -> list[int]:
        return [] if self.phase == GAME_OVER else [self.turn]

    @property
    def over(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def result(self) -> dict[str, Any] | None:
        return deepcopy(self._result)  # a copy: changing it never changes the game

    @property
    def start_events(self) -> list[Event]:
        return deepcopy(self._start_events)

    def _open_rows(self) -> list[int]:
        """Rows still in the middle with a free slot."""
        return [i for i, row in enumerate(self.rows)
                if self.taken_by[i] is None and len(row) < self.slots[i]]

    def _takeable_rows(self) -> list[int]:
        return [i for i, row in enumerate(self.rows) if self.taken_by[i] is None and row]

    def can_draw(self) -> bool:
        return bool(self.supply) and bool(self._open_rows())

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == GAME_OVER or seat.__class__ is not int or seat != self.turn:
            if seat is not None and (seat.__class__ is not int or not 0 <= seat < self.n):
                # (True == 1, but a bool is not a seat; as view(): a bot's off-by-one
                # was told "nothing to do")
                raise ValueError(f"there is no seat {seat!r} at this table")
            return []
        if self.phase == PLACE:
            return [{"type": "place", "row": i} for i in self._open_rows()]
        out: list[Action] = [{"type": "draw"}] if self.can_draw() else []
        out += [{"type": "take", "row": i} for i in self._takeable_rows()]
        return out

    # ------------------------------------------------------------------ actions

    def apply(self, seat: int, action: Action) -> list[Event]:
        if self.phase == GAME_OVER:
            raise IllegalAction("the game is over")
        if not isinstance(action, dict):
            raise IllegalAction("an action is a dict with a 'type'")
        if seat.__class__ is not int or not 0 <= seat < self.n:
            raise IllegalAction(f"there is no seat {seat!r} at this table")
        if seat != self.turn:
            raise not_your_turn(seat, self.turn)
        kind = action.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise IllegalAction(f"unknown action {kind!r} (Coloretto: draw, place, take)")
        refuse_unknown_fields(action, _FIELDS[kind])
        events = handler(self, seat, action)
        self.log.append((seat, dict(action)))
        return events

    def _row_of(self, action: Action) -> int:
        row = action.get("row")
        if not isinstance(row, int) or isinstance(row, bool) or not 0 <= row < len(self.rows):
            raise out_of_range("'row'", len(self.rows), "row", "rows")
        return row

    def _do_draw(self, seat: int, action: Action) -> list[Event]:
        if self.phase != TURN:
            raise IllegalAction("place the drawn card first")
        if not self.supply:
            raise IllegalAction("the supply is empty: take a row")
        if not self._open_rows():
            raise IllegalAction("every row still in play is full: take a row")
        events: list[Event] = []
        card = self.supply.pop()
        if card == LAST:
            self.last_round = True
            events.append({"type": "last_round", "seat": seat})
            card = self.supply.pop()
        self.drawn = card
        self.phase = PLACE
        events.append({"type": "draw", "seat": seat, "card": card})
        return events

    def _do_place(self, seat: int, action: Action) -> list[Event]:
        if self.phase != PLACE:
            raise IllegalAction("draw a card before placing one")
        row = self._row_of(action)
        if self.taken_by[row] is not None:
            raise IllegalAction(f"row {row} has been taken this round")
        if len(self.rows[row]) >= self.slots[row]:
            raise IllegalAction(f"row {row} is full")
        card = self.drawn
        assert card is not None
        self.rows[row].append(card)
        self.drawn = None
        self.phase = TURN
        events: list[Event] = [{"type": "place", "seat": seat, "row": row, "card": card}]
        return events + self._next_turn(seat)

    def _do_take(self, seat: int, action: Action) -> list[Event]:
        if self.phase != TURN:
            raise IllegalAction("place the drawn card first")
        row = self._row_of(action)
        if self.taken_by[row] is not None:
            raise IllegalAction(f"row {row} has been taken this round")
        cards = self.rows[row]
        if not cards:
            raise IllegalAction(f"row {row} has no card beside it")
        collection = self.collections[seat]
        for card in cards:
            collection[card] += 1
        self.rows[row] = []
        self.taken_by[row] = seat
        self.taken_order.append(seat)
        events: list[Event] = [{"type": "take", "seat": seat, "row": row, "cards": cards}]
        if len(self.taken_order) == self.n:
            return events + self._end_round(seat)
        return events + self._next_turn(seat)

    def _next_turn(self, seat: int) -> list[Event]:
        """The turn passes left to the next seat still in the round (maybe the same)."""
        self.turn_no += 1
        n = self.n
        nxt = (seat + 1) % n
        while nxt in self.taken_order:
            nxt = (nxt + 1) % n
        self.turn = nxt
        if not self.supply and not self._takeable_rows():
            # nothing to draw and nothing to take (decided here: the round ends)
            return self._end_round(seat, stuck=True)
        return []

    def _end_round(self, last_taker: int, stuck: bool = False) -> list[Event]:
        events: list[Event] = []
        for i, row in enumerate(self.rows):
            if self.taken_by[i] is None and (self.n == 2 or row):
                # two players: the third row leaves the game with its cards
                self.out.extend(row)
                events.append({"type": "row_removed", "row": i, "cards": list(row)})
                self.rows[i] = []
                self.removed_rows[i] = True
        end: Event = {"type": "round_end", "round": self.round_no}
        if stuck:
            end["reason"] = "supply_empty"
        events.append(end)
        if self.last_round or not self.supply:
            return events + self._finish()
        self.round_no += 1
        self.first = self.turn = last_taker
        self.taken_order = []
        self.taken_by = [None] * len(self.slots)
        self.removed_rows = [False] * len(self.slots)
        self.rows = [[] for _ in self.slots]
        self.turn_no += 1
        events.append({"type": "round_start", "round": self.round_no, "first": last_taker})
        return events

    def _finish(self) -> list[Event]:
        self.phase = GAME_OVER
        self.drawn = None
        layouts = [self.preview(s) for s in range(self.n)]
        scores = [layout["total"] for layout in layouts]
        top = max(scores)
        winners = [s for s in range(self.n) if scores[s] == top]
        self._result = {"scores": scores, "winners": winners, "scoring": layouts,
                        "side": self.side}
        return [{"type": "game_over", "scores": list(scores), "winners": list(winners)}]

    # ------------------------------------------------------------------ scores

    def _counts(self, seat: int) -> tuple[tuple[int, ...], int, int]:
        c = self.collections[seat]
        return tuple(c[colour] for colour in COLOURS), c[JOKER], c[PLUS2]

    def score(self, seat: int) -> int:
        """Seat's best score now (exact; what the game would give if it ended now)."""
        counts, jokers, plus2 = self._counts(seat)
        return best_score(counts, jokers, plus2, self.side, self.allowed)

    def preview(self, seat: int) -> dict[str, Any]:
        """Seat's best scoring layout now (the result's ``scoring`` entry at the end)."""
        counts, jokers, plus2 = self._counts(seat)
        return scoring_layout(counts, jokers, plus2, self.side, self.allowed)

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                                 or not 0 <= seat < self.n):
            raise ValueError(f"there is no seat {seat!r} at this table")
        over = self.phase == GAME_OVER
        last_pos = self.supply.index(LAST) if not self.last_round and LAST in self.supply \
            else None
        previews = [self.preview(s) for s in range(self.n)]
        return {
            "game": self.game_name,
            "preset": self.preset,
            "seat": seat,
            "seats": self.n,
            "phase": self.phase,
            "turn": None if over else self.turn,
            "to_act": self.to_act,
            "legal": self.legal_actions(seat) if seat is not None else [],
            "round": self.round_no,
            "scores": [p["total"] for p in previews],
            "result": deepcopy(self._result),
            "options": dict(self.options),
            "scoring_side": self.side,
            "scoring_points": list(side_points(self.side)),
            "colours": list(self.colours),
            "removed_colours": list(self.removed_colours),
            "supply": len(self.supply),
            "cards_above_last_round": (None if last_pos is None
                                       else len(self.supply) - 1 - last_pos),
            "last_round": self.last_round,
            "rows": [
                {"slots": self.slots[i], "cards": list(row), "taken_by": self.taken_by[i],
                 "removed": self.removed_rows[i], "kind": "green" if self.n == 2 else "brown"}
                for i, row in enumerate(self.rows)
            ],
            "drawn": self.drawn,
            "collections": [
                {"colours": {c: col[c] for c in COLOURS if col[c]}, "jokers": col[JOKER],
                 "plus2": col[PLUS2], "cards": sum(col.values())}
                for col in self.collections
            ],
            "taken": list(self.taken_order),
            "first": self.first,
            "out": list(self.out),
            "preview": previews,
        }

    def timer(self) -> dict[str, Any] | None:
        """One clock per turn: a draw and its placing share the key."""
        if self.phase == GAME_OVER:
            return None
        return {"kind": "turn", "seat": self.turn, "key": self.turn_no}

    # ------------------------------------------------------------------ fairness, copies

    def commitment(self) -> str:
        """SHA-256 over the seed and the deal: removed colours, starting cards, first seat
        and the supply from the top down (published at the deal)."""
        data = f"coloretto|{type(self.seed).__name__}:{self.seed}|" + ",".join(
            self.initial_order)
        return hashlib.sha256(data.encode()).hexdigest()

    def copy(self) -> Coloretto:
        """An independent copy (bots play rollouts on copies); the RNG state is copied."""
        c = object.__new__(Coloretto)
        for name in Coloretto.__slots__:
            setattr(c, name, getattr(self, name))
        c.log = list(self.log)
        c.supply = list(self.supply)
        c.rows = [list(r) for r in self.rows]
        c.taken_by = list(self.taken_by)
        c.removed_rows = list(self.removed_rows)
        c.taken_order = list(self.taken_order)
        c.collections = [dict(col) for col in self.collections]
        c.out = list(self.out)
        c.rng = SeededRandom.__new__(SeededRandom)
        c.rng.setstate(self.rng.getstate())
        return c

    def all_cards(self) -> list[str]:
        """Every playing card wherever it lies: supply, rows, the drawn card, collections,
        the cards out of the game (third rows, removed colours) and the last-round card."""
        cards = list(self.supply) + [c for row in self.rows for c in row]
        if self.drawn is not None:
            cards.append(self.drawn)
        for col in self.collections:
            for kind, count in col.items():
                cards += [kind] * count
        cards += self.out
        cards += [c for c in self.removed_colours for _ in range(CARDS_PER_COLOUR)]
        if self.last_round:
            cards.append(LAST)
        return cards


_HANDLERS = {
    "draw": Coloretto._do_draw,
    "place": Coloretto._do_place,
    "take": Coloretto._do_take,
}
_FIELDS = {"draw": frozenset({"type"}), "place": frozenset({"type", "row"}),
           "take": frozenset({"type", "row"})}


def _make(*, preset: str | None = None, **kwargs: Any) -> Coloretto:
    return Coloretto(preset=preset, **kwargs)


DEFINITION = GameDefinition(
    key="coloretto",
    name="Coloretto",
    min_seats=2,
    max_seats=5,
    default_seats=4,
    presets={"standard": (
        OptionSpec("scoring", SCORING_SIDES, "brown", facts={
            side: {"points": list(side_points(side))} for side in SCORING_SIDES}),
        OptionSpec("clock", CLOCK_CHOICES, DEFAULT_CLOCK),
    )},
    default_preset="standard",
    make=_make,
    server_actions=frozenset(),
    quick_match_seats=4,
)
