"""The Color Clash rules engine: every preset of ``spec/color-clash.md`` (sections 1-7).

One :class:`ColorClash` object is one match (one or more rounds). It is a state machine
driven by ``apply(seat, action)``; the rules read :class:`~.presets.Options`, never preset
names. The state is plain lists and ints so that a game is cheap to create, replay and copy.

Phases of a round:

``play``
    ``turn`` plays, draws, takes a waiting stack, calls, or passes.
``drawn``
    ``turn`` drew a card that can be played: PLAY it or KEEP it.
``color``
    ``turn`` must choose the active colour without playing (a Wild turned as the first
    card; a colourless face turned up by a Flip or the Midnight Clock).
``call_window``
    the last-card window (``standard``): the player down to one card may still call; every
    other seat in the round may catch. The turn has already moved on but waits.
``round_over``
    a round of a longer match ended; any seat's ``next`` (or ``timeout``) deals the next.
``game_over``
    the match is over; ``result`` holds scores and winners.

Turn handovers are counted for the Bomb fuse and the Midnight Clock (spec 6.2 and 7): the
handover that ends the turn of the player who lit it is not counted; every later handover,
including each skipped turn, counts one.
"""

from __future__ import annotations

import functools
import hashlib
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
    refuse_unknown_fields,
    shown_value,
)
from colorclash.engine.cards import (
    BOMB,
    CLOCK,
    COLOR_NAMES,
    COLORS,
    DAY_NIGHT_POINTS,
    DRAW,
    FACES,
    FLIP,
    HUNT,
    NUMBER,
    REVERSE,
    SHIELD,
    SKIP,
    SKIPALL,
    WILD,
    new_deck,
)
from colorclash.engine.presets import PRESETS, Options, make_options

PLAY, DRAWN, COLOR, WINDOW, ROUND_OVER, GAME_OVER = (
    "play", "drawn", "color", "call_window", "round_over", "game_over",
)

# Plain dicts of face -> colour / rank: the hot loops read these instead of Face tuples.
_COLOR = {name: face.color for name, face in FACES.items()}
_RANK = {name: face.rank for name, face in FACES.items()}
_KIND = {name: face.kind for name, face in FACES.items()}
_IDENTITY = {name: name for name in FACES}  # the face table of the single-faced decks
# Faces without a colour: a wild is listed once per colour it can name.
_COLORLESS = frozenset(name for name, face in FACES.items() if face.color is None)
# colour -> the faces of that colour (the W+4 restriction asks "is one of them held?")
_OF_COLOR = {c: frozenset(n for n, f in FACES.items() if f.color == c) for c in COLORS}


_OPTIONS_DICTS: dict[int, tuple[Options, dict[str, Any], tuple[str, ...]]] = {}


def _options_dict(options: Options) -> dict[str, Any]:
    """A JSON-ready copy of ``options`` (the conversion is cached: views are frequent;
    the copy is shallow but for the lists, which are the only mutable values). The cache
    is keyed by identity, not by value: hashing a frozen dataclass of this many fields on
    every view cost more than the copy; it holds the options it converted (so an id is
    never another's) and is emptied when it grows past a few hundred."""
    cached = _OPTIONS_DICTS.get(id(options))
    if cached is None or cached[0] is not options:
        if len(_OPTIONS_DICTS) >= 512:
            _OPTIONS_DICTS.clear()
        data = options.to_dict()
        cached = _OPTIONS_DICTS[id(options)] = (
            options, data, tuple(k for k, v in data.items() if isinstance(v, list)))
    _, data, lists = cached
    copy = data.copy()
    for k in lists:
        copy[k] = list(copy[k])
    return copy


def _match_table() -> dict[str, dict[str, frozenset[str]]]:
    """top face -> active colour -> the faces that match it by colour, by number or symbol,
    or by being colourless (the W+4 restriction is checked apart). Plain dicts, filled for
    every face and colour: the hottest lookup of the engine."""
    by_color_and_rank = {
        (color, rank): frozenset(
            name for name, face in FACES.items()
            if face.color is None or face.color == color or face.rank == rank
        )
        for color in COLORS for rank in {face.rank for face in FACES.values()}
    }  # shared: tops of one rank have the same table
    return {
        top.name: {color: by_color_and_rank[color, top.rank] for color in COLORS}
        for top in FACES.values()
    }


_MATCHING = _match_table()

# Ranks of penalty faces on the siege ladder (spec 6).
_LADDER = {"+2": 1, "W+4": 2}


def answers_stack(face_name: str, stacking: str, stack_kind: str | None) -> bool:
    """Can ``face_name`` answer a waiting stack of ``stack_kind`` under ``stacking`` (spec 6)?"""
    face = FACES[face_name]
    if stacking == "classic":
        return stack_kind == "+2" and face.rank == "+2"
    if stacking == "ranked":
        if face.kind == SHIELD:
            return True
        return face.rank in _LADDER and _LADDER[face.rank] >= _LADDER.get(stack_kind, 9)
    if stacking == "same":
        return face.kind == DRAW and face.rank == stack_kind
    return False


def playable_faces(hand: list[str], top: str, color: str, *, wild4_restricted: bool = True,
                   stacking: str = "none", stack: int = 0,
                   stack_kind: str | None = None) -> list[str]:
    """The distinct faces of ``hand`` (active faces) that may be played on ``top`` in
    ``color``, in hand order: the rule of :meth:`ColorClash._playable_faces` for a hand that
    is not at the table (computer players ask it of the hands they imagine)."""
    if stack:
        return [f for f in dict.fromkeys(hand) if answers_stack(f, stacking, stack_kind)]
    matching = _MATCHING[top][color]
    out = [f for f in dict.fromkeys(hand) if f in matching]
    if "W+4" in out and wild4_restricted and not _OF_COLOR[color].isdisjoint(hand):
        out.remove("W+4")
    return out
FUSE_LENGTH = 3
CLOCK_LENGTH = 3
BLAST = 4
HUNT_LIMIT = 12
CATCH_PENALTY = 2


def _shown(value: Any) -> str:
    """A value a client sent, as its JSON and cut short, for a refusal's message."""
    text = shown_value(value)
    return text if len(text) <= 24 else text[:21] + "..."


class ColorClash(Game):
    """A match of Color Clash. See the module docstring and ``docs/engine.md``."""

    game_name = "color-clash"

    # Slots: attribute access is the engine's inner loop, and a class with this many
    # attributes gets no key-sharing instance dict in CPython.
    __slots__ = (
        "_clock_fresh",
        "_turn_key",
        "_color_then",
        "_faces",
        "_faces_other",
        "_first_of_match",
        "_fuse_fresh",
        "_manual_call",
        "_pending_color",
        "_result",
        "_saved_phase",
        "_sides",
        "_start_events",
        "blast",
        "called",
        "clock",
        "color",
        "direction",
        "discard",
        "double_faced",
        "draw_pile",
        "drawn_card",
        "first",
        "fuse",
        "hands",
        "initial_order",
        "n",
        "options",
        "out",
        "passes",
        "phase",
        "preset",
        "rng",
        "round_no",
        "round_points",
        "round_scores",
        "round_winner",
        "scores",
        "seed",
        "shield_cards",
        "side",
        "stack",
        "stack_kind",
        "substitutes",
        "turn",
        "window_seat",
    )


    def __init__(
        self,
        *,
        preset: str = "standard",
        seats: int,
        seed: int | str | bytes | None = None,
        setup: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 6:
            raise ValueError("Color Clash is played by 2 to 6 seats")
        self.preset = preset
        self.options: Options = make_options(preset, options)
        self._manual_call = self.options.call == "manual"
        self.n = seats
        self.seed = seed
        self.rng = SeededRandom(seed if seed is not None else 0)
        self.double_faced = self.options.deck == "day-night"
        self.side = 0  # 0 = day faces active, 1 = night (single-faced decks: always 0)
        self._faces: dict[str, str] = {}  # card -> active face
        self._faces_other: dict[str, str] = {}  # card -> inactive face
        self.scores = [0] * seats  # match totals
        self.round_scores: list[list[int]] = []
        self.round_no = 0
        self.first = 0  # seat left of the dealer in the current round
        self._first_of_match: int | None = None
        self._result: dict[str, Any] | None = None
        self.substitutes: set[int] = set()
        self.initial_order: list[str] = []
        self._turn_key = 0  # names the turn for the server's clock (see timer())
        self._start_round(setup)

    # ------------------------------------------------------------------ set-up

    def _face_tables(self, cards: list[str]) -> None:
        if self.double_faced:
            day = {c: c.split("//")[0] for c in cards}
            night = {c: c.split("//")[1] for c in cards}
            for face in list(day.values()) + list(night.values()):
                if face not in FACES:
                    raise ValueError(f"unknown face {face!r}")
            self._sides = (day, night)
            self._faces, self._faces_other = self._sides[self.side], self._sides[1 - self.side]
        else:
            for c in cards:
                if c not in FACES:
                    raise ValueError(f"unknown card {c!r}")
            self._faces = _IDENTITY
            self._faces_other = {}

    def _start_round(self, setup: dict[str, Any] | None = None) -> None:
        n = self.n
        o = self.options
        self.round_no += 1
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.shield_cards: list[str | None] = [None] * n
        self.direction = 1
        self.stack = 0
        self.stack_kind: str | None = None
        self.fuse: int | None = None
        self.blast = 0
        self._fuse_fresh = False
        self.clock: int | None = None
        self._clock_fresh = False
        self.out: list[int] = []  # seats that emptied their hand this round, in order
        self.called = [False] * n
        self.window_seat: int | None = None
        self.drawn_card: str | None = None
        self.passes = 0
        self.round_points: list[int] | None = None
        self.round_winner: int | None = None
        self._color_then = "play"  # after a `color` action: "play" (same seat) or "advance"
        self._pending_color = False
        self.side = 0
        events: list[Event] = []
        if setup is not None:
            self._setup_from(setup)
        else:
            deck = new_deck(o.deck)
            self.rng.shuffle(deck)
            if self.double_faced:
                self._face_tables(deck)
            else:
                self._faces, self._faces_other = _IDENTITY, {}
            if self.round_no == 1:
                self.initial_order = list(deck)
            if o.first_player == "random" or self._first_of_match is None:
                self.first = self.rng.randrange(n)
                if self._first_of_match is None:
                    self._first_of_match = self.first
            else:
                self.first = (self._first_of_match + self.round_no - 1) % n
            size = o.hand_size
            for k in range(n):  # each seat takes its cards from the top of the deck
                cut = len(deck) - size
                self.hands[(self.first + k) % n] = deck[cut:]
                del deck[cut:]
            self.draw_pile = deck  # top of the pile is the end of the list
            self.discard: list[str] = []
            self._turn_first_card()
            self.color = FACES[self.top_face].color
        self.turn = self.first
        self.phase = PLAY
        self._start_events = events + self._first_card_effect()

    def _setup_from(self, setup: dict[str, Any]) -> None:
        """A position given by a test or a puzzle: hands, top, draw pile, first seat."""
        try:
            hands = [list(h) for h in setup["hands"]]
            top = setup["top"]
        except (KeyError, TypeError) as exc:
            raise ValueError("setup needs 'hands' (one list per seat) and 'top'") from exc
        if len(hands) != self.n:
            raise ValueError(f"setup has {len(hands)} hands for {self.n} seats")
        draw = list(setup.get("draw", []))
        under = list(setup.get("discard", []))  # cards under the top, bottom first
        cards = [c for h in hands for c in h] + [top] + draw + under
        if self.double_faced:
            # Day & Night setups name cards as DAY//NIGHT.
            for c in cards:
                if not isinstance(c, str) or c.count("//") != 1:
                    raise ValueError(f"Day & Night cards are written DAY//NIGHT, not {c!r}")
        side = setup.get("side", "day")
        if side not in ("day", "night") or (side == "night" and not self.double_faced):
            raise ValueError("setup 'side' is 'day' or 'night' (night: Day & Night only)")
        self.side = 1 if side == "night" else 0
        self._face_tables(cards)
        self._check_setup_cards(cards)
        self.hands = hands
        self.draw_pile = list(reversed(draw))
        self.discard = under + [top]
        self.initial_order = list(cards)
        first = setup.get("first", 0)
        if not isinstance(first, int) or not 0 <= first < self.n:
            raise ValueError("setup 'first' must be a seat number")
        self.first = first
        if self._first_of_match is None:
            self._first_of_match = first
        self.direction = -1 if setup.get("direction") == -1 else 1
        color = setup.get("color")
        top_color = FACES[self._faces[top]].color
        if color is not None and color not in COLORS:
            raise ValueError(f"setup 'color' must be one of {COLORS}")
        self.color = top_color or color
        for seat in setup.get("shields", []):
            raise ValueError(f"setup 'shields' is not supported (seat {seat})")

    def _check_setup_cards(self, cards: list[str]) -> None:
        """The cards of a setup are cards of the preset's deck (a Bomb in a `standard`
        setup lit a fuse). A puzzle may hold more copies of a card than the deck has, and a
        Day & Night setup may pair any two faces (its faces are checked by
        ``_face_tables``)."""
        if self.double_faced:
            return
        in_deck = _cards_of_deck(self.options.deck)
        for card in cards:
            if card not in in_deck:
                raise ValueError(f"setup card {card!r} is not in the {self.options.deck} deck")

    def _turn_first_card(self) -> None:
        """Turn the first discard (spec 5.1, 5.2)."""
        o = self.options
        pile = self.draw_pile
        tries = 0
        while True:
            card = pile.pop()
            face = FACES[self._faces[card]]
            if o.first_card == "number":
                ok = face.kind == NUMBER
            else:
                ok = face.name != "W+4"
            if ok or tries > len(pile) + 1:
                self.discard.append(card)
                return
            pile.insert(0, card)  # to the bottom of the pile (decided here)
            tries += 1

    def _first_card_effect(self) -> list[Event]:
        """Action cards turned first take effect in `standard` (spec 5.2). A wild on top
        with no colour yet (a `standard` deal, or any preset's given position: a `W+4` is
        never returned from a setup) has the first player choose its colour, then play."""
        events: list[Event] = [{"type": "deal", "round": self.round_no, "first": self.first,
                                "top": self.top_face}]
        face = FACES[self.top_face]
        if self.color is None:
            self.phase = COLOR
            self._color_then = "play"
            return events
        if self.options.first_card != "actions" or face.kind == NUMBER:
            return events
        first = self.first
        if face.kind == SKIP:
            events.append({"type": "skip", "seat": first})
            self.turn = self._next_seat(first)
        elif face.kind == REVERSE:
            self.direction = -self.direction
            events.append({"type": "reverse", "direction": self.direction})
            self.turn = (first + self.direction) % self.n  # the dealer starts
        elif face.kind == DRAW and face.color is not None:
            self._draw_cards(first, face.penalty, events, reason=face.name)
            events.append({"type": "skip", "seat": first})
            self.turn = self._next_seat(first)
        return events

    @property
    def top(self) -> str:
        return self.discard[-1]

    @property
    def top_face(self) -> str:
        return self._faces[self.discard[-1]]

    # ------------------------------------------------------------------ turn order

    def _active_count(self) -> int:
        return self.n - len(self.out)

    def _next_seat(self, seat: int) -> int:
        n = self.n
        s = (seat + self.direction) % n
        out = self.out
        if out:
            while s in out:
                s = (s + self.direction) % n
        return s

    def _handover(self, events: list[Event]) -> None:
        """Move the turn one seat on, counting it for a lit fuse and a set clock."""
        s = (self.turn + self.direction) % self.n
        out = self.out
        if out:
            while s in out:
                s = (s + self.direction) % self.n
        self.turn = s
        if self.fuse is not None:
            if self._fuse_fresh:
                self._fuse_fresh = False
            else:
                self.fuse -= 1
                if self.fuse == 0:
                    count = self.blast
                    self.fuse = None
                    self.blast = 0
                    got = self._draw_cards(self.turn, count, events, reason="boom")
                    events.append({"type": "boom", "seat": self.turn, "count": got})
        if self.clock is not None:
            if self._clock_fresh:
                self._clock_fresh = False
            else:
                self.clock -= 1
                if self.clock == 0:
                    self.clock = None
                    self._flip_table(events, cause="clock")
                    if FACES[self.top_face].color is None:
                        self._pending_color = True

    def _advance(self, events: list[Event], steps: int = 1) -> None:
        """End the current turn: hand it over ``steps`` times (steps-1 turns skipped)."""
        if (
            steps == 1 and self.fuse is None and self.clock is None and not self.out
            and not self.stack and not self._pending_color
        ):
            # the common case, inlined: next seat, a plain turn
            self.turn = (self.turn + self.direction) % self.n
            self.phase = PLAY
            self.drawn_card = None
            return
        self._handover(events)
        for _ in range(steps - 1):
            self._handover(events)
        self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        self.phase = PLAY
        self.drawn_card = None
        if not self.stack and not self._pending_color:
            return
        seat = self.turn
        if self.stack and self.shield_cards[seat] is not None:
            shield = self.shield_cards[seat]
            self.shield_cards[seat] = None
            self.discard.insert(len(self.discard) - 1, shield)
            events.append({"type": "blocked", "seat": seat, "count": self.stack})
            self.stack = 0
            self.stack_kind = None
        if self._pending_color:
            self._pending_color = False
            self.phase = COLOR
            self._color_then = "play"

    # ------------------------------------------------------------------ cards moving

    def _refill(self, events: list[Event]) -> bool:
        """Shuffle the discard pile (all but its top) into a new draw pile."""
        if self.draw_pile:
            return True
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        pile = self.discard
        self.rng.shuffle(pile)
        self.draw_pile = pile
        self.discard = [top]
        events.append({"type": "reshuffle", "count": len(pile)})
        return True

    def _draw_cards(self, seat: int, count: int, events: list[Event], reason: str = "") -> int:
        """Give ``seat`` up to ``count`` cards; returns how many it got."""
        got = 0
        hand = self.hands[seat]
        pile = self.draw_pile
        for _ in range(count):
            if not pile:
                if not self._refill(events):
                    break
                pile = self.draw_pile
            hand.append(pile.pop())
            got += 1
        if reason not in ("boom", "take", "hunt"):
            events.append({"type": "draw", "seat": seat, "count": got, "reason": reason or "draw"})
        return got

    def _can_draw(self) -> bool:
        return bool(self.draw_pile) or len(self.discard) > 1

    # ------------------------------------------------------------------ rules of playing

    def _matches(self, seat: int, face_name: str) -> bool:
        """Can ``face_name`` be played by ``seat`` on the current top (no stack waiting)?"""
        color = self.color
        faces = self._faces
        if face_name not in _MATCHING[faces[self.discard[-1]]][color]:
            return False
        if face_name == "W+4" and self.options.wild4_restricted:
            return self._lacks_color(seat, color)
        return True

    def _lacks_color(self, seat: int, color: str) -> bool:
        """Does ``seat`` hold no card of ``color`` (active faces)? The W+4 restriction."""
        faces = self._faces
        hand = self.hands[seat]
        return _OF_COLOR[color].isdisjoint(
            hand if faces is _IDENTITY else map(faces.__getitem__, hand)
        )

    def _answers(self, face_name: str) -> bool:
        """Can ``face_name`` answer the waiting stack (spec 6)?"""
        return answers_stack(face_name, self.options.stacking, self.stack_kind)

    def _playable_faces(self, seat: int) -> list[str]:
        """The distinct faces ``seat`` may play now, in hand order (the hot loop of
        ``legal_actions``: one table lookup instead of ``_matches`` per card)."""
        faces = self._faces
        hand = self.hands[seat]
        if self.stack:
            return [f for f in dict.fromkeys([faces[c] for c in hand]) if self._answers(f)]
        color = self.color
        matching = _MATCHING[faces[self.discard[-1]]][color]
        if faces is _IDENTITY:
            out = [c for c in hand if c in matching]
        else:
            out = [f for f in map(faces.__getitem__, hand) if f in matching]
        if len(out) > 1 and len(set(out)) < len(out):  # two of a face: list it once
            out = list(dict.fromkeys(out))
        if (
            "W+4" in out and self.options.wild4_restricted
            and not self._lacks_color(seat, color)
        ):
            out.remove("W+4")
        return out

    @staticmethod
    def _play_actions(face_name: str) -> list[Action]:
        """The play actions of one face: a wild once per colour it can name."""
        if face_name in _COLORLESS:
            return [{"type": "play", "card": face_name, "color": c} for c in COLORS]
        return [{"type": "play", "card": face_name}]

    # ------------------------------------------------------------------ public API

    @property
    def to_act(self) -> list[int]:
        phase = self.phase
        if phase == PLAY or phase == DRAWN or phase == COLOR:
            return [self.turn]
        if phase == GAME_OVER:
            return []
        if phase == ROUND_OVER:
            return list(range(self.n))
        if phase == WINDOW:
            return [self.window_seat] + [
                s for s in range(self.n) if s != self.window_seat and s not in self.out
            ]
        return [self.turn]

    @property
    def over(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def watching(self) -> list[int]:
        """Seats out of the round while the others play on for places (5.8)."""
        return list(self.out) if self.phase in (PLAY, DRAWN, COLOR, WINDOW) else []

    @property
    def result(self) -> dict[str, Any] | None:
        return deepcopy(self._result)  # a copy: changing it never changes the game

    def legal_actions(self, seat: int) -> list[Action]:
        if seat.__class__ is not int or not 0 <= seat < self.n:  # (True == 1: not a seat)
            if seat is None:
                return []  # a spectator
            self._require_seat(seat)  # (as view(): a bot's off-by-one read "nothing to do")
        phase = self.phase
        if phase == PLAY:
            if seat != self.turn:
                return []
            # fresh dicts on every call: callers may keep or change them
            actions: list[Action] = []
            faces = self._faces
            if self.stack or faces is not _IDENTITY:
                playable = self._playable_faces(seat)
            else:  # _playable_faces(), inlined for the single-faced decks
                hand = self.hands[seat]
                matching = _MATCHING[self.discard[-1]][self.color]
                playable = [c for c in hand if c in matching]
                if len(playable) > 1 and len(set(playable)) < len(playable):
                    playable = list(dict.fromkeys(playable))
                if (
                    "W+4" in playable and self.options.wild4_restricted
                    and not self._lacks_color(seat, self.color)
                ):
                    playable.remove("W+4")
            for f in playable:
                if f in _COLORLESS:
                    actions += [{"type": "play", "card": f, "color": c} for c in COLORS]
                else:
                    actions.append({"type": "play", "card": f})
            if self.stack:
                actions.append({"type": "take"})
            elif self.draw_pile or len(self.discard) > 1:
                actions.append({"type": "draw"})
            else:  # neither pile has a card (5.3): passing stands in for drawing
                actions.append({"type": "pass"})
        elif phase == DRAWN:
            if seat != self.turn:
                return []
            actions = self._play_actions(self.drawn_card)
            actions.append({"type": "keep"})
        elif phase == WINDOW:
            if seat == self.window_seat:
                return [{"type": "call"}]
            if seat in self.to_act:
                return [{"type": "catch", "target": self.window_seat}]
            return []
        elif phase == COLOR:
            return [{"type": "color", "color": c} for c in COLORS] if seat == self.turn else []
        elif phase == ROUND_OVER:
            return [{"type": "next"}]
        else:
            return []
        if self._manual_call and len(self.hands[seat]) == 2 and not self.called[seat]:
            actions.append({"type": "call"})
        return actions

    def apply(self, seat: int, action: Action) -> list[Event]:
        try:
            handler = _HANDLERS[action["type"]] if action.__class__ is dict else None
        except (KeyError, TypeError):  # no "type", or an unhashable one
            handler = None
        if handler is None:
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise IllegalAction("an action is an object with a 'type'")
            if action.__class__ is not dict:  # a dict of another class (an OrderedDict):
                return self.apply(seat, dict(action))  # read as the plain dict it holds
            raise IllegalAction(f"unknown action type {action['type']!r}")
        if len(action) > 1:  # ("type" alone is every action's field)
            fields = _FIELDS[action["type"]]
            if not action.keys() <= fields:
                refuse_unknown_fields(action, fields)
        if seat.__class__ is not int or not 0 <= seat < self.n:  # bool is not a seat
            raise IllegalAction(f"there is no seat {seat!r} at this table")
        # (after the game every handler refuses: each checks the phase it needs)
        turn = self.turn
        events = handler(self, seat, action)
        self.log.append((seat, action.copy()))
        kind = action["type"]
        # Calling or naming a colour keeps the turn's clock. A substitute taking or giving
        # back another seat keeps it too (it restarted the clock of the player on turn: a
        # clock review); the seat on turn's own substitute gets a whole clock (it moves at
        # the computers' delay: a clock nearly out drew a card for it).
        if kind == "substitute":
            if seat == turn:
                self._turn_key += 1
        elif seat != turn or (kind != "call" and kind != "color"):
            self._turn_key += 1
        return events

    def timer(self) -> dict[str, Any] | None:
        """The clock the server runs now (``Game.timer``): the turn clock; the 3 s
        last-card window; the 6 s drawn-card choice, within the turn's time; the pause
        between rounds."""
        phase = self.phase
        if phase == GAME_OVER:
            return None
        if phase == ROUND_OVER:
            return {"kind": "next"}
        if phase == WINDOW:
            seat = self.window_seat if self.window_seat is not None else self.turn
            return {"kind": "window", "seat": seat, "seconds": self.options.call_window,
                    "silent": True}
        if phase == DRAWN:
            return {"kind": "drawn", "seat": self.turn, "key": self._turn_key,
                    "seconds": self.options.drawn_choice, "within_turn": True}
        return {"kind": "turn", "seat": self.turn, "key": self._turn_key}

    @property
    def start_events(self) -> list[Event]:
        """Events of the deal of the current round (the turned card and its effect)."""
        return deepcopy(self._start_events)

    # ------------------------------------------------------------------ action handlers

    def _require_turn(self, seat: int, *phases: str) -> None:
        if self.phase not in phases or seat != self.turn:
            self._refuse_after_game()
            if self.phase == WINDOW:
                raise IllegalAction("wait: the last-card window is open")
            if self.phase == ROUND_OVER:
                raise IllegalAction("the round is over: the next one starts with 'next'")
            if seat != self.turn:
                raise IllegalAction(f"it is not seat {seat}'s turn")
            if self.phase == COLOR:
                raise IllegalAction("choose the colour first")
            if self.phase == DRAWN:
                raise IllegalAction("play or keep the card you drew")
            if phases == (COLOR,):
                raise IllegalAction("there is no colour to choose now: a wild's colour is "
                                    "given with its play")
            if phases == (DRAWN,):
                raise IllegalAction("there is no drawn card to keep: keep follows a draw")
            raise IllegalAction(f"that action is not possible now ({self.phase})")

    def _check_color(self, action: Action) -> str:
        color = action.get("color")
        if color not in COLORS:
            raise IllegalAction(f"a colour is R, B, Y or G, not {_shown(color)}"
                                if "color" in action else "choose a colour: R, B, Y or G")
        return color

    def _do_play(self, seat: int, action: Action) -> list[Event]:
        if "color" in action and action["color"] not in COLORS:  # malformed: said first
            raise IllegalAction(f"a play's 'color' is R, B, Y or G, not "
                                f"{_shown(action['color'])}")
        phase = self.phase
        if (phase != PLAY and phase != DRAWN) or seat != self.turn:
            self._require_turn(seat, PLAY, DRAWN)
        try:
            face_name = action["card"]
            color = _COLOR[face_name]  # None: a wild
        except (KeyError, TypeError):  # no card, not a face at all, or unhashable
            if "card" not in action:
                raise IllegalAction("a 'play' action names its 'card', like 'R7'") from None
            raise IllegalAction(f"unknown card {action.get('card')!r} (cards are written "
                                f"like 'R7', 'B+2' or 'W+4')") from None
        hand = self.hands[seat]
        faces = self._faces
        if phase == DRAWN:
            if face_name != self.drawn_card:
                raise IllegalAction("after a draw only the drawn card may be played (or kept)")
            index = len(hand) - 1  # the drawn card is the newest in the hand
        else:
            if faces is _IDENTITY:
                try:
                    index = hand.index(face_name)
                except ValueError:
                    index = -1
            else:  # Day & Night: the card held longest that shows this face
                index = next((i for i, c in enumerate(hand) if faces[c] == face_name), -1)
            if index < 0:
                raise IllegalAction(f"{face_name} is not in your hand")
            if self.stack:
                if not self._answers(face_name):
                    self._refuse_play(face_name)
            elif face_name not in _MATCHING[faces[self.discard[-1]]][self.color] or (
                face_name == "W+4" and self.options.wild4_restricted
                and not self._lacks_color(seat, self.color)
            ):  # _matches(), inlined: this is the engine's most frequent check
                self._refuse_play(face_name)
        if color is None:
            color = action.get("color")
            if color not in COLORS:
                raise IllegalAction("a wild needs a colour: R, B, Y or G")
            wild = True
        else:
            if "color" in action:  # it would ride along into the log and the record
                raise IllegalAction(f"{face_name} is not a wild: its play names no colour")
            wild = False
        # --- valid: mutate from here on
        card = hand.pop(index)
        self.passes = 0
        self.drawn_card = None
        kind = _KIND[face_name]
        if kind == SHIELD and not self.stack and (hand or self.options.last_card_effect):
            # A Shield with nothing waiting stands in front of its player (spec 6.1); as
            # the last card of a table preset it has no effect (spec 5.7): it is played,
            # and the match ends with no shield standing.
            if self.shield_cards[seat] is None:
                self.shield_cards[seat] = card
                events = [{"type": "shield_up", "seat": seat, "card": face_name}]
            else:
                self.discard.insert(len(self.discard) - 1, card)
                events = [{"type": "shield_wasted", "seat": seat, "card": face_name}]
            return self._after_play(seat, face_name, kind, events, effect=False)
        self.discard.append(card)
        self.color = color
        if wild:
            events = [
                {"type": "play", "seat": seat, "card": face_name, "color": color},
                {"type": "color_chosen", "seat": seat, "color": color},
            ]
        else:
            events = [{"type": "play", "seat": seat, "card": face_name}]
        if (
            (kind == NUMBER or kind == WILD) and len(hand) > 1 and self.fuse is None
            and self.clock is None and not self.out and not self.stack
            and not self._pending_color
        ):
            # The common case, the same as _after_play -> _card_effect -> _advance: no
            # last card, no effect, the turn passes to the next seat.
            self.called[seat] = False
            self.turn = (self.turn + self.direction) % self.n
            self.phase = PLAY
            return events
        return self._after_play(seat, face_name, kind, events, effect=True)

    def _refuse_play(self, face_name: str) -> None:
        """Raise the reason why ``face_name`` cannot be played now."""
        if self.stack:
            raise IllegalAction(
                f"{face_name} cannot answer the waiting +{self.stack}: only "
                f"{self._stack_answerers()} answers it; answer it or take it"
            )
        if face_name == "W+4" and self.options.wild4_restricted:
            raise IllegalAction("W+4 may be played only without a card of the active colour")
        top = self.top_face
        if top in _COLORLESS and self.color is not None:
            # "does not match W" would puzzle: a wild matches anything; its colour is named
            raise IllegalAction(
                f"{face_name} does not match {top}: the colour named for it is "
                f"{COLOR_NAMES[self.color]}"
            )
        raise IllegalAction(f"{face_name} does not match {top}")

    def _stack_answerers(self) -> str:
        """The cards that answer the waiting stack, in words (a raised ranked stack's total
        reads like a +2 stack's: the message says which cards answer it now)."""
        kind = self.stack_kind
        if self.options.stacking == "ranked":
            ranks = [f"a {r}" for r, step in _LADDER.items() if step >= _LADDER.get(kind, 9)]
            # (a stack off the ladder, a +1 or +5 of the Day & Night deck played under
            # ranked stacking, is answered by a Shield alone: answers_stack)
            if not ranks:
                return "a Shield"
            return ", ".join(ranks[:-1] + [f"{ranks[-1]} or a Shield"])
        return f"a {kind}"

    def _after_play(
        self, seat: int, face_name: str, kind: str, events: list[Event], effect: bool
    ) -> list[Event]:
        o = self.options
        hand = self.hands[seat]
        if not hand and not o.last_card_effect:
            # Table presets: emptying the hand wins at once; the card has no effect.
            self.out.append(seat)
            events.append({"type": "out", "seat": seat, "place": len(self.out)})
            self._end_round(seat, events)
            return events
        window = False
        if len(hand) == 1:
            if o.call == "manual":
                if self.called[seat]:
                    events.append({"type": "last_card", "seat": seat})
                else:
                    window = True
            elif o.call == "auto":
                events.append({"type": "last_card", "seat": seat})
            else:
                events.append({"type": "one_card", "seat": seat})
        self.called[seat] = False
        if effect:
            self._card_effect(seat, face_name, kind, events)
        else:
            self._advance(events)
        if self.phase in (ROUND_OVER, GAME_OVER):
            return events
        if not hand:
            self._goes_out(seat, events)
        if window and self.phase not in (ROUND_OVER, GAME_OVER) and hand:
            self._saved_phase = self.phase
            self.phase = WINDOW
            self.window_seat = seat
        return events

    def _card_effect(self, seat: int, face_name: str, kind: str, events: list[Event]) -> None:
        o = self.options
        if kind == NUMBER or kind == WILD or kind == SHIELD:
            if kind == SHIELD:  # a Shield answering a stack: the stack vanishes
                events.append({"type": "shield_block", "seat": seat, "count": self.stack})
                self.stack = 0
                self.stack_kind = None
            self._advance(events)
        elif kind == SKIP:
            skipped = self._next_seat(seat)
            events.append({"type": "skip", "seat": skipped})
            self._advance(events, 2)
        elif kind == REVERSE:
            if self._active_count() == 2:
                skipped = self._next_seat(seat)
                events.append({"type": "reverse", "direction": self.direction, "seat": skipped})
                self._advance(events, 2)
            else:
                self.direction = -self.direction
                events.append({"type": "reverse", "direction": self.direction})
                self._advance(events)
        elif kind == DRAW:
            if o.stacking == "none":
                victim = self._next_seat(seat)
                self._handover(events)
                self._draw_cards(victim, FACES[face_name].penalty, events, reason=face_name)
                events.append({"type": "skip", "seat": victim})
                self._advance(events)
            else:
                self.stack += FACES[face_name].penalty
                self.stack_kind = _RANK[face_name]
                target = self._next_seat(seat)
                events.append({"type": "stacked", "seat": target, "total": self.stack,
                               "kind": self.stack_kind})
                self._advance(events)
        elif kind == BOMB:
            self.blast = self.blast + 2 if self.fuse is not None else BLAST
            self.fuse = FUSE_LENGTH
            self._fuse_fresh = True
            events.append({"type": "fuse_lit", "seat": seat, "fuse": FUSE_LENGTH,
                           "blast": self.blast})
            self._advance(events)
        elif kind == SKIPALL:
            events.append({"type": "skip_all", "seat": seat})
            self._advance(events, self._active_count())
        elif kind == FLIP:
            self._flip_table(events, cause="card", seat=seat)
            if FACES[self.top_face].color is None:
                self.phase = COLOR
                self._color_then = "advance"
            else:
                self._advance(events)
        elif kind == CLOCK:
            self.clock = CLOCK_LENGTH
            self._clock_fresh = True
            events.append({"type": "clock_set", "seat": seat, "turns": CLOCK_LENGTH})
            self._advance(events)
        elif kind == HUNT:
            victim = self._next_seat(seat)
            hunted = self.color  # chosen now: a clock turning the table below keeps it
            self._handover(events)
            count = 0
            while count < HUNT_LIMIT:
                if self._draw_cards(victim, 1, events, reason="hunt") == 0:
                    break
                count += 1
                if FACES[self._faces[self.hands[victim][-1]]].color == hunted:
                    break
            events.append({"type": "hunt", "seat": victim, "color": hunted, "count": count})
            events.append({"type": "skip", "seat": victim})
            self._advance(events)
        else:  # pragma: no cover - every kind is handled above
            raise AssertionError(kind)

    def _flip_table(self, events: list[Event], cause: str, seat: int | None = None) -> None:
        """Turn every card where it lies (Day & Night)."""
        self.side = 1 - self.side
        self._faces, self._faces_other = self._faces_other, self._faces
        top = FACES[self.top_face]
        if top.color is not None:
            self.color = top.color
        # One event type for every turn of the table, whatever turned it (``cause``:
        # ``card`` for a Flip card, ``clock`` for the Midnight Clock).
        events.append({"type": "flip", "cause": cause,
                       "side": "night" if self.side else "day", "top": top.name,
                       **({"seat": seat} if seat is not None else {})})

    def _goes_out(self, seat: int, events: list[Event]) -> None:
        """`standard`/`family`: a player emptied their hand (after its effect applied)."""
        self.out.append(seat)
        events.append({"type": "out", "seat": seat, "place": len(self.out)})
        if len(self.out) == 1:
            self.round_winner = seat
            self.round_points = self._winner_points(seat)
        if not self.options.play_on or self._active_count() <= 1:
            last = [s for s in range(self.n) if s not in self.out]
            self.out.extend(last)
            self._end_round(self.round_winner, events)
            return
        if self.turn == seat:  # a Skip-all or the like came back to the finished seat
            self.turn = self._next_seat(seat)
            self._begin_turn(events)

    def _hand_points(self, seat: int) -> int:
        faces = self._faces
        if self.double_faced:
            return sum(DAY_NIGHT_POINTS.get(faces[c], FACES[faces[c]].points)
                       for c in self.hands[seat])
        return sum(FACES[faces[c]].points for c in self.hands[seat])

    def _winner_points(self, winner: int) -> list[int]:
        points = [0] * self.n
        if winner in self.substitutes:
            return points  # a substitute going out first: nobody scores (spec 9)
        points[winner] = sum(self._hand_points(s) for s in range(self.n) if s != winner)
        return points

    def _end_round(self, winner: int | None, events: list[Event]) -> None:
        o = self.options
        self.window_seat = None
        # A penalty card that empties a hand wins at once: its stack never reaches anyone
        # (spec 6), so none is shown waiting on the final table.
        self.stack = 0
        self.stack_kind = None
        if winner is None:
            points = [0] * self.n
        elif o.scoring == "table":
            held = [self._hand_points(s) for s in range(self.n)]
            total = sum(held)
            if winner in self.substitutes:
                points = [0] * self.n
            else:
                points = [0 if s in self.substitutes else total - held[s] for s in range(self.n)]
        else:
            points = self.round_points or self._winner_points(winner)
        for s in range(self.n):
            self.scores[s] += points[s]
        self.round_scores.append(points)
        # A computer substitute going out first: "nobody scores that round" (spec 9), and
        # nobody wins it either (the absent player's seat won one-round matches).
        winners = [] if winner is None or winner in self.substitutes else [winner]
        events.append({"type": "round_over", "round": self.round_no, "winners": list(winners),
                       "points": list(points), "scores": list(self.scores)})
        if o.rounds == 0:
            done = max(self.scores) >= o.target
        else:
            done = self.round_no >= o.rounds
        if not done:
            self.phase = ROUND_OVER
            self.round_winner = winner
            return
        if o.rounds == 1:
            match_winners = winners
        else:
            best = max(self.scores)
            match_winners = [s for s in range(self.n) if self.scores[s] == best]
            if len(match_winners) > 1 and not o.ties_share:
                match_winners = match_winners[:1]
        self.phase = GAME_OVER
        self._result = {"scores": list(self.scores), "winners": match_winners,
                        "rounds": [list(r) for r in self.round_scores]}
        events.append({"type": "game_over", **deepcopy(self._result),
                       "seed": self.seed if isinstance(self.seed, (int, str)) else None})

    def _do_draw(self, seat: int, action: Action) -> list[Event]:
        if self.phase != PLAY or seat != self.turn:
            self._require_turn(seat, PLAY)
        if self.stack:
            raise IllegalAction(f"a +{self.stack} waits on you: answer it or take it")
        pile = self.draw_pile
        if pile:
            events: list[Event] = [{"type": "draw", "seat": seat, "count": 1, "reason": "draw"}]
        else:
            events = []
            if not self._refill(events):
                raise IllegalAction("there is no card left to draw: pass")
            pile = self.draw_pile
            events.append({"type": "draw", "seat": seat, "count": 1, "reason": "draw"})
        card = pile.pop()
        self.hands[seat].append(card)
        self.passes = 0
        self.called[seat] = False
        face = self._faces[card]
        if self._matches(seat, face):
            self.phase = DRAWN
            self.drawn_card = face
        else:
            self._advance(events)
        return events

    def _do_keep(self, seat: int, action: Action) -> list[Event]:
        self._require_turn(seat, DRAWN)
        events: list[Event] = [{"type": "keep", "seat": seat}]
        self.called[seat] = False  # a call is for the play it comes before, this turn only
        self._advance(events)
        return events

    def _do_take(self, seat: int, action: Action) -> list[Event]:
        self._require_turn(seat, PLAY)
        if not self.stack:
            raise IllegalAction("no stack waits on you")
        events: list[Event] = []
        wanted = self.stack
        got = self._draw_cards(seat, wanted, events, reason="take")
        events.append({"type": "take", "seat": seat, "count": got, "stack": wanted})
        self.stack = 0
        self.stack_kind = None
        self.passes = 0
        self.called[seat] = False  # a call is for the play it comes before, this turn only
        self._advance(events)
        return events

    def _do_pass(self, seat: int, action: Action) -> list[Event]:
        self._require_turn(seat, PLAY)
        if self.stack:
            raise IllegalAction(f"a +{self.stack} waits on you: answer it or take it")
        if self._can_draw():
            raise IllegalAction("you may pass only when no card is left to draw")
        # As a draw may be chosen over a play (5.3), so may the pass that stands in for it.
        return self._pass(seat)

    def _pass(self, seat: int) -> list[Event]:
        """The turn ends without a card: a pass toward a dead round, two laps of them with
        no card played or drawn (5.9), whether the seat could not play, chose not to, or
        let its time run out. (Only the passes of seats that could not play counted: a
        player holding a playable card held the round for ever by passing, or by never
        acting, once both piles were empty: a rules audit and a diff review.)"""
        events: list[Event] = [{"type": "pass", "seat": seat}]
        self.called[seat] = False  # a call is for the play it comes before, this turn only
        self.passes += 1
        if self.passes >= 2 * self._active_count():
            events.append({"type": "dead_round"})
            self._end_round(self.round_winner, events)
            return events
        self._advance(events)
        return events

    def _do_color(self, seat: int, action: Action) -> list[Event]:
        color = self._check_color(action)  # (malformed first, as a catch's target)
        self._require_turn(seat, COLOR)
        self.color = color
        events: list[Event] = [{"type": "color_chosen", "seat": seat, "color": color}]
        if self._color_then == "advance":
            self._advance(events)
        else:
            self.phase = PLAY
        return events

    def _do_call(self, seat: int, action: Action) -> list[Event]:
        self._refuse_after_game()
        if self.options.call != "manual":
            raise IllegalAction("this table has no last-card call")
        if self.phase == WINDOW:
            if seat != self.window_seat:
                raise IllegalAction("only the player down to one card can call now")
            events: list[Event] = [{"type": "last_card", "seat": seat}]
            self._close_window()
            return events
        self._require_turn(seat, PLAY, DRAWN)
        if len(self.hands[seat]) != 2:
            raise IllegalAction("call Last card! while you hold two cards, before playing one")
        if self.called[seat]:
            raise IllegalAction("you have already called")
        self.called[seat] = True
        return [{"type": "call_on", "seat": seat}]

    def _close_window(self) -> None:
        self.phase = self._saved_phase
        self.window_seat = None

    def _do_catch(self, seat: int, action: Action) -> list[Event]:
        # (a malformed action is told so first, whatever the moment: "there is nobody to
        # catch" for a target "1" sent a bot's author after a rule, not their bug)
        target = action.get("target")
        if target.__class__ is not int:
            raise IllegalAction(f"a 'catch' names its 'target': a seat number, not "
                                f"{_shown(target)}")
        if not 0 <= target < self.n:
            raise IllegalAction(f"a 'catch' names its 'target': there is no seat {target} "
                                "at this table")
        if self.phase != WINDOW:
            self._refuse_after_game()
            raise IllegalAction("there is nobody to catch")
        if target != self.window_seat:
            raise IllegalAction(f"seat {target!r} cannot be caught now")
        if seat == target or seat in self.out:
            raise IllegalAction("you cannot catch now")
        events: list[Event] = []
        got = self._draw_cards(target, CATCH_PENALTY, events, reason="caught")
        events.append({"type": "caught", "seat": target, "by": seat, "count": got})
        self._close_window()
        return events

    def _do_next(self, seat: int, action: Action) -> list[Event]:
        if self.phase != ROUND_OVER:
            self._refuse_after_game()
            raise IllegalAction("the round is not over")
        self._start_round()
        return list(self._start_events)

    def _refuse_after_game(self) -> None:
        if self.phase == GAME_OVER:
            raise IllegalAction("the game is over")

    def _do_substitute(self, seat: int, action: Action) -> list[Event]:
        self._refuse_after_game()
        on = action.get("on")
        if not isinstance(on, bool):
            raise IllegalAction("'on' must be true or false")
        if on:
            self.substitutes.add(seat)
        else:
            self.substitutes.discard(seat)
        return [{"type": "substitute", "seat": seat, "on": on}]

    def _do_timeout(self, seat: int, action: Action) -> list[Event]:
        """The server's clock ran out for ``seat``; the preset decides what happens."""
        phase = self.phase
        if phase == ROUND_OVER:
            return self._do_next(seat, action)
        if phase == WINDOW:
            if seat != self.window_seat:
                raise IllegalAction("only the caller's window can time out")
            self._close_window()
            return [{"type": "window_closed", "seat": seat}]
        self._require_turn(seat, PLAY, DRAWN, COLOR)
        o = self.options
        if phase == COLOR:
            events = self._do_color(seat, {"type": "color", "color": self._most_held(seat)})
            if self.phase == PLAY and self.turn == seat:
                events += self._do_timeout(seat, action)
            return events
        if phase == DRAWN:
            if o.drawn_timeout == "play":
                return self._do_play(seat, self._auto_play_action(seat, self.drawn_card))
            return self._do_keep(seat, action)
        if o.timeout_policy == "bot":
            return self._fixed_policy_turn(seat)
        # draw one card and the turn ends; never plays for you
        if self.stack:
            return self._do_take(seat, action)
        if not self._can_draw():
            return self._pass(seat)  # (toward a dead round, as every pass)
        events = self._do_draw(seat, action)
        if self.phase == DRAWN and self.turn == seat:
            events += self._do_keep(seat, action)
        return events

    def _most_held(self, seat: int) -> str:
        counts = {c: 0 for c in COLORS}
        for card in self.hands[seat]:
            color = FACES[self._faces[card]].color
            if color:
                counts[color] += 1
        return max(COLORS, key=lambda c: counts[c])

    def _auto_play_action(self, seat: int, face_name: str) -> Action:
        action: Action = {"type": "play", "card": face_name}
        if FACES[face_name].color is None:
            action["color"] = self._most_held(seat)
        return action

    def _fixed_policy_turn(self, seat: int) -> list[Event]:
        """Spec 5.3: first playable card in hand order (wild: colour held most), else take
        the stack, else draw (and play the drawn card if it can be played)."""
        playable = self._playable_faces(seat)
        if playable:
            return self._do_play(seat, self._auto_play_action(seat, playable[0]))
        if self.stack:
            return self._do_take(seat, {"type": "take"})
        if not self._can_draw():
            return self._do_pass(seat, {"type": "pass"})
        events = self._do_draw(seat, {"type": "draw"})
        if self.phase == DRAWN and self.turn == seat:
            events += self._do_play(seat, self._auto_play_action(seat, self.drawn_card))
        return events

    _HANDLERS = {
        "play": _do_play,
        "draw": _do_draw,
        "keep": _do_keep,
        "take": _do_take,
        "pass": _do_pass,
        "color": _do_color,
        "call": _do_call,
        "catch": _do_catch,
        "next": _do_next,
        "timeout": _do_timeout,
        "substitute": _do_substitute,
    }

    # ------------------------------------------------------------------ views

    def _require_seat(self, seat: int) -> None:
        if seat.__class__ is not int or not 0 <= seat < self.n:
            raise ValueError(f"there is no seat {seat!r} at this table")

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._require_seat(seat)
        faces = self._faces
        o = self.options
        legal = self.legal_actions(seat) if seat is not None else []
        v: dict[str, Any] = {
            "game": self.game_name,
            "preset": self.preset,
            "seats": self.n,
            "seat": seat,
            "phase": self.phase,
            "round": self.round_no,
            "hand": [faces[c] for c in self.hands[seat]] if seat is not None else [],
            "counts": [len(h) for h in self.hands],
            "top": self.top_face,
            # while a colour is being named (a Wild turned first, a colourless face turned
            # up by a flip) there is none: the one kept from before nobody chose for it
            "color": None if self.phase == COLOR else self.color,
            "turn": None if self.phase in (ROUND_OVER, GAME_OVER) else self.turn,
            "direction": self.direction,
            "stack": self.stack,
            "stack_kind": self.stack_kind,
            "draw_count": len(self.draw_pile),
            "discard_count": len(self.discard),
            "shields": [s for s in range(self.n) if self.shield_cards[s] is not None],
            "fuse": None if self.fuse is None else {"count": self.fuse, "blast": self.blast},
            "scores": list(self.scores),
            "round_scores": [list(r) for r in self.round_scores],
            "out": list(self.out),
            "to_act": self.to_act,
            "legal": legal,
            "unplayable": self._unplayable(seat, legal),
            "drawn": self.drawn_card if self.phase == DRAWN and seat == self.turn else None,
            "window": None if self.window_seat is None else {"seat": self.window_seat},
            "called": [s for s in range(self.n) if self.called[s]],
            "one_card": [s for s in range(self.n) if len(self.hands[s]) == 1
                         and s not in self.out],
            "substitutes": sorted(self.substitutes),
            "options": _options_dict(o),
            "result": None if self._result is None else deepcopy(self._result),
        }
        if self.double_faced:
            v["side"] = "night" if self.side else "day"
            v["faces"] = self._others_faces(seat)
            v["draw_top"] = self._faces_other[self.draw_pile[-1]] if self.draw_pile else None
            v["clock"] = self.clock
        return v

    def _unplayable(self, seat: int | None, legal: list[Action]) -> dict[str, str]:
        """Why each card of the hand that ``seat`` may not play now cannot be, on its turn
        to play (else nothing): the reasons ``_do_play`` refuses it with, as words the
        table can say ("drawn": after a draw only the drawn card; "stack": it cannot
        answer the waiting stack; "wild4": a W+4 while holding the active colour;
        "match": it matches neither the colour nor the top card's number or symbol)."""
        phase = self.phase
        if seat is None or seat != self.turn or (phase != PLAY and phase != DRAWN):
            return {}
        can = {a["card"] for a in legal if a["type"] == "play"}
        faces = self._faces
        out: dict[str, str] = {}
        for face_name in (faces[c] for c in self.hands[seat]):
            if face_name in can or face_name in out:
                continue
            if phase == DRAWN:
                out[face_name] = "drawn"
            elif self.stack:
                out[face_name] = "stack"
            elif face_name == "W+4" and face_name in _MATCHING[self.top_face][self.color]:
                out[face_name] = "wild4"  # (it matches: only the restriction refuses it)
            else:
                out[face_name] = "match"
        return out

    def _others_faces(self, seat: int | None) -> dict[str, list[str]]:
        """Day & Night: the sides of the other seats' cards this seat sees."""
        other = self._faces_other
        return {str(s): [other[c] for c in self.hands[s]] for s in range(self.n) if s != seat}

    def views(self, seats: list[int]) -> list[dict[str, Any]]:
        """Every seat's view, the first made whole and the others copied from it with
        their own parts replaced: the seat, its hand, its legal actions, the card it drew
        and (Day & Night) the other seats' sides it sees. (The server's four views after
        each action, each made whole, were a tenth of a busy process's loop.)"""
        if not seats:
            return []
        first = self.view(seats[0])
        out = [first]
        faces = self._faces
        drawn = self.drawn_card if self.phase == DRAWN else None
        for seat in seats[1:]:
            self._require_seat(seat)
            v = first.copy()
            v["seat"] = seat
            v["hand"] = [faces[c] for c in self.hands[seat]]
            v["legal"] = self.legal_actions(seat)
            v["unplayable"] = self._unplayable(seat, v["legal"])
            v["drawn"] = drawn if seat == self.turn else None
            if self.double_faced:
                v["faces"] = self._others_faces(seat)
            out.append(v)
        return out

    # ------------------------------------------------------------------ fairness

    def commitment(self) -> str:
        """SHA-256 over the secret seed and the initial deck order (published at the deal)."""
        data = f"{type(self.seed).__name__}:{self.seed}|" + ",".join(self.initial_order)
        return hashlib.sha256(data.encode()).hexdigest()

    def copy(self) -> ColorClash:
        """An independent copy of the game (for search: bots play rollouts on copies).
        The RNG is shared state too: the copy gets its own, in the same state."""
        c = object.__new__(type(self))
        for name in ColorClash.__slots__ + Game.__slots__:
            try:
                setattr(c, name, getattr(self, name))
            except AttributeError:  # a slot this game never set
                pass
        c.hands = [list(h) for h in self.hands]
        c.draw_pile = list(self.draw_pile)
        c.discard = list(self.discard)
        c.shield_cards = list(self.shield_cards)
        c.out = list(self.out)
        c.scores = list(self.scores)
        c.called = list(self.called)
        c.round_scores = [list(r) for r in self.round_scores]
        c.substitutes = set(self.substitutes)
        c.log = list(self.log)
        c.rng = type(self.rng).__new__(type(self.rng))
        c.rng.setstate(self.rng.getstate())
        return c

    def all_cards(self) -> list[str]:
        """Every card of the game wherever it lies (for conservation checks)."""
        cards = [c for h in self.hands for c in h] + self.draw_pile + self.discard
        cards += [c for c in self.shield_cards if c is not None]
        return cards


_HANDLERS = ColorClash._HANDLERS  # a module global: the fastest lookup in apply()
# The fields each action may have ("type" and what its handler reads).
_FIELDS = {kind: frozenset({"type"}) for kind in _HANDLERS} | {
    "play": frozenset({"type", "card", "color"}),
    "color": frozenset({"type", "color"}),
    "catch": frozenset({"type", "target"}),
    "substitute": frozenset({"type", "on"}),
}


# ---------------------------------------------------------------------- the site's view of it


def _room_options(o: Options) -> tuple[OptionSpec, ...]:
    return (OptionSpec("clock", tuple(o.clock_choices), o.clock),
            OptionSpec("match", tuple(o.match_choices), o.match))


@functools.cache
def _cards_of_deck(deck: str) -> frozenset[str]:
    return frozenset(new_deck(deck))


def _make(*, preset: str | None = None, **kwargs: Any) -> ColorClash:
    # (no preset named plays "standard"; an empty name is refused as unknown, not read as none)
    return ColorClash(preset="standard" if preset is None else preset, **kwargs)


DEFINITION = GameDefinition(
    key="color-clash",
    name="Color Clash",
    min_seats=2,
    max_seats=6,
    default_seats=4,
    presets={name: _room_options(o) for name, o in PRESETS.items()},
    default_preset="classic-table",
    make=_make,
    server_actions=frozenset({"timeout", "next", "substitute"}),
    quick_match_seats=4,
    # (rules: the preset's rule options, which its How to play page words: the client
    # keeps no copy of a preset)
    preset_info={name: {"timeout_policy": o.timeout_policy, "rules": o.to_dict()}
                 for name, o in PRESETS.items()},
    # 2: every pass counts toward a dead round (5.9), by choice or a turn run out; before,
    # only the passes of seats that could not play did (docs/engine.md, "Rule changes")
    rules_version=2,
)
