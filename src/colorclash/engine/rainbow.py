"""The Rainbow rules engine (spec/rainbow.md; docs/rainbow.md for the actions, views, events
and every choice "decided here").

A two-player duel over a shared row of six table places. On your turn you play one card
from your hand into the next free place, as you see it or turned over; you may go on
(turn over one table card, then play another card) up to three cards. At the end of the
turn the row is checked: a black face showing (Shadow) or two showing faces of one colour
(Error, white excepted) lose the round; six different colours (white wild) win it
(Rainbow). The round's winner takes the row into their scoring pile.

Cards are double-sided and the pairing of faces is public (``rainbow_deck.py``), so a
card's *identity* would tell its other face. The engine therefore keeps no identities at
all: a card is the pair of faces as it lies, ``(front, back)`` in a hand (front: the face
its holder sees), ``(up, down)`` on the table, in a pile and in the deck (front: the face
that will be towards whoever draws it). Actions address a hand by position and a table
card by place; views and events carry showing faces only.

Phases: ``play`` (the player to move must play a card: the first of the turn, or the one
owed after turning a table card over), ``continue`` (turn a table card over to play
again, or end the turn), ``game_over``.
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
from colorclash.engine.rainbow_deck import (
    BLACK,
    CARD_COUNTS,
    COLORS,
    RAINBOW_CARDS,
    WHITE,
    canonical,
)

PLACES = 6  # table places in the row
HAND_SIZE = 3
MAX_CARDS_PER_TURN = 3
# The fields of each action ("type" and what the rules read).
_FIELDS = {"play": frozenset({"type", "hand", "turned"}), "flip": frozenset({"type", "place"}),
           "end": frozenset({"type"})}
SEATS = 2

PLAY, CONTINUE, GAME_OVER = "play", "continue", "game_over"

# How a turn ended (the ``end`` event's reason).
STOPPED, THREE_CARDS, TABLE_FULL = "stopped", "three_cards", "table_full"
# How a round ended (event types); PASS: it did not end, the turn passes.
SHADOW, ERROR, RAINBOW, PASS = "shadow", "error", "rainbow", "pass"

Card = tuple[str, str]

CLOCK_CHOICES = (20, 30, 45, 60, 90)
DEFAULT_CLOCK = 30


def check_row(faces: list[str]) -> tuple[str, list[int]]:
    """The check of a row of showing faces: ``(kind, places)``.

    ``kind`` is SHADOW (``places``: every black face), else ERROR (every place whose
    colour shows twice or more, white excepted), else RAINBOW (six places showing six
    different colours, whites standing in: ``places`` is the whole row), else PASS.
    """
    blacks = [p for p, f in enumerate(faces) if f == BLACK]
    if blacks:
        return SHADOW, blacks
    seen: dict[str, int] = {}
    for f in faces:
        if f != WHITE:
            seen[f] = seen.get(f, 0) + 1
    if len(seen) + (faces.count(WHITE)) != len(faces):
        return ERROR, [p for p, f in enumerate(faces) if f != WHITE and seen[f] > 1]
    if len(faces) == PLACES:
        return RAINBOW, list(range(PLACES))
    return PASS, []


def is_safe_row(faces: list[str]) -> bool:
    """No black showing and no colour twice (white excepted): the row survives a check."""
    seen = set()
    for f in faces:
        if f == BLACK:
            return False
        if f != WHITE:
            if f in seen:
                return False
            seen.add(f)
    return True


class Rainbow(Game):
    """One game of Rainbow. See the module docstring and docs/rainbow.md."""

    game_name = "rainbow"

    __slots__ = (
        "_result",
        "_start_events",
        "deck",
        "flipped_places",
        "hands",
        "initial_order",
        "last_round",
        "options",
        "phase",
        "piles",
        "played",
        "played_places",
        "rng",
        "round_no",
        "rounds_won",
        "seed",
        "starter",
        "table",
        "turn",
        "turn_no",
    )

    def __init__(
        self,
        *,
        seats: int = SEATS,
        seed: int | str | bytes | None = None,
        setup: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
        preset: str | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(seats, int) or isinstance(seats, bool) or seats != SEATS:
            raise ValueError("Rainbow is played by 2 seats")
        self.options = DEFINITION.check_options(preset, options or {})
        self.seed = seed
        self.rng = SeededRandom(seed if seed is not None else 0)
        self.table: list[Card] = []  # (up, down), place 0 first
        self.piles: list[list[Card]] = [[], []]  # (up when won, down)
        # rounds each seat won, by how the round ended: its own Rainbow, or the other
        # seat's Shadow or Error (the results say how the piles were won)
        self.rounds_won: list[dict[str, int]] = [{RAINBOW: 0, SHADOW: 0, ERROR: 0}
                                                 for _ in range(SEATS)]
        self.round_no = 1
        self.turn_no = 1
        self.played = 0  # cards played this turn
        self.played_places: list[int] = []
        self.flipped_places: list[int] = []
        self.phase = PLAY
        self.last_round: dict[str, Any] | None = None
        self._result: dict[str, Any] | None = None
        if setup is None:
            self._deal()
            self.starter = self.turn
        else:
            self._set_up(setup)
        # ``deck`` is kept with the next card to draw LAST (list.pop()).
        self.initial_order = [f"{f}/{b}" for f, b in reversed(self.deck)]
        self._start_events: list[Event] = [{
            "type": "deal", "round": self.round_no, "first": self.turn,
            "hand_counts": [len(h) for h in self.hands], "deck": len(self.deck),
        }]

    # ------------------------------------------------------------------ set-up

    def _shuffled_deck(self, cards: list[Card]) -> list[Card]:
        """``cards`` shuffled, each turned by a coin of the seed (its front to the drawer)."""
        cards = list(cards)
        self.rng.shuffle(cards)
        bits = self.rng.getrandbits(len(cards)) if cards else 0
        return [(b, a) if bits >> i & 1 else (a, b) for i, (a, b) in enumerate(cards)]

    def _deal(self) -> None:
        self.deck = self._shuffled_deck(list(RAINBOW_CARDS))
        self.turn = self.rng.randrange(SEATS)
        self.hands: list[list[Card]] = [[], []]
        for i in range(HAND_SIZE * SEATS):
            self.hands[(self.turn + i) % SEATS].append(self.deck.pop())

    def _set_up(self, setup: dict[str, Any]) -> None:
        """A position from ``setup`` (docs/rainbow.md, "setup="). Every card is a pair of
        faces; together they must be cards of the deck (no more of a kind than it has)."""
        if not isinstance(setup, dict):
            raise ValueError("setup must be a dict")
        known = {"hands", "table", "deck", "piles", "turn", "starter", "round", "played",
                 "flip_pending"}
        unknown = set(setup) - known
        if unknown:
            raise ValueError(f"unknown setup keys: {', '.join(sorted(unknown))}")
        named: Counter[Card] = Counter()

        def cards(value: Any, where: str) -> list[Card]:
            if not isinstance(value, (list, tuple)):
                raise ValueError(f"setup {where} must be a list of [face, face] pairs")
            out = []
            for item in value:
                if (not isinstance(item, (list, tuple)) or len(item) != 2
                        or any(f not in COLORS for f in item) or item[0] == item[1]):
                    raise ValueError(f"setup {where}: {item!r} is not a card (two different "
                                     f"colours of {', '.join(COLORS)})")
                card = (item[0], item[1])
                named[canonical(*card)] += 1
                out.append(card)
            return out

        def two(key: str, default: Any) -> list[Any]:
            value = setup.get(key, default)
            if not isinstance(value, (list, tuple)) or len(value) != SEATS:
                raise ValueError(f"setup {key} must list both seats")
            return list(value)

        self.table = cards(setup.get("table", []), "table")
        self.piles = [cards(p, f"piles[{s}]") for s, p in enumerate(two("piles", [[], []]))]
        hands = None
        if "hands" in setup:
            hands = [cards(h, f"hands[{s}]") for s, h in enumerate(two("hands", None))]
        deck_given = "deck" in setup
        given_deck = cards(setup["deck"], "deck") if deck_given else []
        excess = [c for c, k in named.items() if k > CARD_COUNTS.get(c, 0)]
        if excess:
            a, b = excess[0]
            raise ValueError(f"setup names {named[excess[0]]} cards {a}/{b} but the deck "
                             f"has {CARD_COUNTS.get(excess[0], 0)}")
        if deck_given:
            self.deck = given_deck[::-1]
        else:
            rest = Counter(CARD_COUNTS)
            rest.subtract(named)
            remaining = []
            for card in RAINBOW_CARDS:  # the cards no other key named, in deck order
                if rest[card] > 0:
                    rest[card] -= 1
                    remaining.append(card)
            self.deck = self._shuffled_deck(remaining)
        turn = setup.get("turn", 0)
        if turn not in (0, 1) or isinstance(turn, bool):
            raise ValueError("setup turn must be seat 0 or 1")
        self.turn = turn
        if hands is None:
            hands = [[], []]
            for i in range(HAND_SIZE * SEATS):
                if not self.deck:
                    raise ValueError("setup deck is too short to deal the hands")
                hands[(turn + i) % SEATS].append(self.deck.pop())
        if any(len(h) > HAND_SIZE for h in hands):
            raise ValueError(f"a hand holds at most {HAND_SIZE} cards")
        self.hands = hands
        if len(self.table) >= PLACES:
            raise ValueError(f"setup table holds at most {PLACES - 1} cards (a full row "
                             "has been checked already)")
        played = setup.get("played", 0)
        flip_pending = setup.get("flip_pending", False)
        if (not isinstance(played, int) or isinstance(played, bool)
                or not 0 <= played < MAX_CARDS_PER_TURN or played > len(self.table)):
            raise ValueError("setup played must be 0, 1 or 2 (cards played this turn, "
                             "already on the table)")
        if not isinstance(flip_pending, bool) or (flip_pending and played == 0):
            raise ValueError("setup flip_pending must be a bool, true only after a play")
        self.played = played
        self.played_places = list(range(len(self.table) - played, len(self.table)))
        self.phase = PLAY if played == 0 or flip_pending else CONTINUE
        if self.phase == PLAY and not self.hands[turn]:
            raise ValueError("the player to move has no card to play")
        if not self.hands[1 - turn]:  # (their turn would come with nothing to do, for good)
            raise ValueError("the other player has no card: their turn could not be played")
        round_no = setup.get("round", 1)
        if not isinstance(round_no, int) or isinstance(round_no, bool) or round_no < 1:
            raise ValueError("setup round must be a positive integer")
        self.round_no = round_no
        starter = setup.get("starter", turn)
        if starter not in (0, 1) or isinstance(starter, bool):
            raise ValueError("setup starter must be seat 0 or 1")
        self.starter = starter

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

    def showing(self) -> list[str]:
        """The faces showing on the table, place 0 first."""
        return [up for up, _ in self.table]

    def timer(self) -> dict[str, Any] | None:
        if self.phase == GAME_OVER:
            return None
        return {"kind": "turn", "seat": self.turn, "key": self.turn_no}

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == GAME_OVER or seat.__class__ is not int or seat != self.turn:
            if seat is not None and (seat.__class__ is not int or seat not in (0, 1)):
                # (True == 1, but a bool is not a seat; as view(): a bot's off-by-one
                # was told "nothing to do")
                raise ValueError(f"there is no seat {seat!r} at this table")
            return []
        if self.phase == PLAY:
            return [{"type": "play", "hand": i, "turned": t}
                    for i in range(len(self.hands[seat])) for t in (False, True)]
        out: list[Action] = []
        if self.hands[seat]:
            out = [{"type": "flip", "place": p} for p in range(len(self.table))]
        out.append({"type": "end"})
        return out

    # ------------------------------------------------------------------ actions

    def apply(self, seat: int, action: Action) -> list[Event]:
        if self.phase == GAME_OVER:
            raise IllegalAction("the game is over")
        if seat.__class__ is not int or seat not in (0, 1):
            raise IllegalAction(f"there is no seat {seat!r} at this table")
        if seat != self.turn:
            raise not_your_turn(seat, self.turn)
        if not isinstance(action, dict):
            raise IllegalAction("an action is a dict with a 'type'")
        kind = action.get("type")
        if isinstance(kind, str) and kind in _FIELDS:
            refuse_unknown_fields(action, _FIELDS[kind])
        if kind == "play":
            events = self._play(seat, action)
        elif kind == "flip":
            events = self._flip(seat, action)
        elif kind == "end":
            if self.phase != CONTINUE:
                raise IllegalAction("play a card first" if self.played == 0 else
                                    "you turned a card over: play a card now")
            events = self._end_turn(seat, STOPPED)
        else:
            raise IllegalAction(f"unknown action {kind!r} (play, flip or end)")
        self.log.append((seat, dict(action)))
        return events

    def _play(self, seat: int, action: Action) -> list[Event]:
        if self.phase != PLAY:
            raise IllegalAction("turn a table card over before playing another card, "
                                "or end your turn")
        hand = self.hands[seat]
        index = action.get("hand")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(hand):
            raise out_of_range("hand", len(hand), "card in your hand", "cards in your hand")
        turned = action.get("turned", False)
        if not isinstance(turned, bool):
            raise IllegalAction("turned must be true or false")
        front, back = hand.pop(index)
        card = (back, front) if turned else (front, back)
        place = len(self.table)
        self.table.append(card)
        self.played += 1
        self.played_places.append(place)
        events: list[Event] = [{"type": "play", "seat": seat, "hand": index, "place": place,
                                "face": card[0], "turned": turned}]
        if self.played >= MAX_CARDS_PER_TURN:
            events += self._end_turn(seat, THREE_CARDS)
        elif len(self.table) >= PLACES:
            events += self._end_turn(seat, TABLE_FULL)
        else:
            self.phase = CONTINUE
        return events

    def _flip(self, seat: int, action: Action) -> list[Event]:
        if self.phase != CONTINUE:
            raise IllegalAction("play a card first" if self.played == 0 else
                                "you turned a card over: play a card now")
        if not self.hands[seat]:
            raise IllegalAction("you have no card left to play after turning one over")
        place = action.get("place")
        if (not isinstance(place, int) or isinstance(place, bool)
                or not 0 <= place < len(self.table)):
            raise out_of_range("place", len(self.table), "card on the table", "cards on the table")
        up, down = self.table[place]
        self.table[place] = (down, up)
        self.flipped_places.append(place)
        self.phase = PLAY
        return [{"type": "flip", "seat": seat, "place": place, "face": down}]

    def _end_turn(self, seat: int, reason: str) -> list[Event]:
        """The check, the round's end if any, the refill, then the next turn or the end."""
        other = 1 - seat
        events: list[Event] = [{"type": "end", "seat": seat, "reason": reason}]
        faces = self.showing()
        kind, places = check_row(faces)
        round_over = kind != PASS
        if round_over:
            winner = seat if kind == RAINBOW else other
            self.piles[winner].extend(self.table)
            self.rounds_won[winner][kind] += 1
            self.last_round = {"round": self.round_no, "kind": kind, "seat": seat,
                               "winner": winner, "places": places, "faces": faces,
                               "cards": len(self.table)}
            self.table = []
            events.append({"type": kind, "round": self.round_no, "seat": seat,
                           "winner": winner, "places": list(places), "faces": list(faces),
                           "cards": len(faces), "scores": self.scores()})
            next_seat = other if kind == RAINBOW else seat  # the round's loser starts
        else:
            events.append({"type": PASS, "seat": seat, "next": other})
            next_seat = other
        hand = self.hands[seat]
        need = HAND_SIZE - len(hand)
        take = min(need, len(self.deck))
        for _ in range(take):
            hand.append(self.deck.pop())
        events.append({"type": "draw", "seat": seat, "count": take, "deck": len(self.deck)})
        self.played = 0
        self.played_places = []
        self.flipped_places = []
        if take < need:
            self.phase = GAME_OVER
            scores = self.scores()
            if scores[0] == scores[1]:
                winners, draw = [0, 1], True
            else:
                winners, draw = [0 if scores[0] > scores[1] else 1], False
            self._result = {"scores": scores, "winners": winners, "draw": draw}
            events.append({"type": "game_over", "reason": "deck_empty", "seat": seat,
                           "result": deepcopy(self._result)})
            return events
        if round_over:
            self.round_no += 1
            self.starter = next_seat
            events.append({"type": "round", "round": self.round_no, "first": next_seat})
        self.turn = next_seat
        self.turn_no += 1
        self.phase = PLAY
        return events

    def scores(self) -> list[int]:
        """Cards in each seat's scoring pile."""
        return [len(p) for p in self.piles]

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and (seat.__class__ is not int or seat not in (0, 1)):
            raise ValueError(f"there is no seat {seat!r} at this table")
        hands = []
        for s in range(SEATS):
            h = self.hands[s]
            if seat is None:
                hands.append({"seat": s, "count": len(h), "side": None, "faces": None})
            elif s == seat:
                hands.append({"seat": s, "count": len(h), "side": "front",
                              "faces": [f for f, _ in h]})
            else:
                hands.append({"seat": s, "count": len(h), "side": "back",
                              "faces": [b for _, b in h]})
        showing = self.showing()
        check, decided = check_row(showing)
        over = self.phase == GAME_OVER
        return {
            "game": self.game_name,
            "seat": seat,
            "seats": SEATS,
            "phase": self.phase,
            "turn": None if over else self.turn,
            "to_act": self.to_act,
            "legal": self.legal_actions(seat) if seat is not None else [],
            "round": self.round_no,
            "scores": self.scores(),
            "result": None if self._result is None else deepcopy(self._result),
            "options": dict(self.options),
            "hand": list(hands[seat]["faces"]) if seat is not None else [],
            "hands": hands,
            "table": showing + [None] * (PLACES - len(showing)),
            "next_place": len(showing) if len(showing) < PLACES and not over else None,
            # what the check would say of the row as it shows now (the turn ended here):
            # the table warns a player before an End turn that loses the round
            "check": {"kind": check, "places": decided},
            "places": PLACES,
            "piles": [{"seat": s, "count": len(p), "faces": [up for up, _ in p]}
                      for s, p in enumerate(self.piles)],
            "rounds_won": [dict(w) for w in self.rounds_won],
            "deck_count": len(self.deck),
            "turn_state": {"played": self.played, "max_cards": MAX_CARDS_PER_TURN,
                           "flip_pending": self.phase == PLAY and self.played > 0,
                           "placed": list(self.played_places),
                           "flipped": list(self.flipped_places)},
            "starter": self.starter,
            "last_round": None if self.last_round is None else {
                k: list(v) if isinstance(v, list) else v for k, v in self.last_round.items()},
        }

    # ------------------------------------------------------------------ fairness, copies

    def commitment(self) -> str:
        """SHA-256 over the secret seed and the draw pile's order just after the deal
        (published at the deal): every card as ``front/back`` in draw order, 51 cards in a
        new game. The hands are not in it: the seed, revealed at the end, deals them."""
        data = f"{type(self.seed).__name__}:{self.seed}|" + ",".join(self.initial_order)
        return hashlib.sha256(data.encode()).hexdigest()

    def copy(self) -> Rainbow:
        """An independent copy (bots search on copies); the RNG state is copied too."""
        c = object.__new__(Rainbow)
        c.log = list(self.log)
        c._result = self._result
        c._start_events = self._start_events
        c.deck = list(self.deck)
        c.flipped_places = list(self.flipped_places)
        c.hands = [list(self.hands[0]), list(self.hands[1])]
        c.initial_order = self.initial_order
        c.last_round = self.last_round
        c.options = self.options
        c.phase = self.phase
        c.piles = [list(self.piles[0]), list(self.piles[1])]
        c.played = self.played
        c.played_places = list(self.played_places)
        c.rng = SeededRandom.__new__(SeededRandom)
        c.rng.setstate(self.rng.getstate())
        c.round_no = self.round_no
        c.rounds_won = [dict(w) for w in self.rounds_won]
        c.seed = self.seed
        c.starter = self.starter
        c.table = list(self.table)
        c.turn = self.turn
        c.turn_no = self.turn_no
        return c

    def all_cards(self) -> list[Card]:
        """Every card wherever it lies, as it lies (for conservation checks)."""
        return ([c for h in self.hands for c in h] + self.table + self.deck
                + [c for p in self.piles for c in p])


def _make(*, preset: str | None = None, **kwargs: Any) -> Rainbow:
    return Rainbow(preset=preset, **kwargs)


DEFINITION = GameDefinition(
    key="rainbow",
    name="Rainbow",
    min_seats=2,
    max_seats=2,
    default_seats=2,
    presets={"standard": (OptionSpec("clock", CLOCK_CHOICES, DEFAULT_CLOCK),)},
    default_preset="standard",
    make=_make,
    server_actions=frozenset(),
    quick_match_seats=2,
)
