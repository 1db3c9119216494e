"""What every game of the engine shares: the error type, the game interface, the seeded RNG.

A game object is a small state machine driven by ``apply(seat, action)``. It never reads a
clock, a file or a global random source: everything that looks random comes from the
:class:`SeededRandom` stream built from the game's seed, so the same seed and the same
actions always rebuild the same game. Production code passes a seed drawn from the
operating system's secure source (:func:`secure_seed`); tests pass small integers.
"""

from __future__ import annotations

import hashlib
import json
import operator
import random
import secrets
import struct
from collections.abc import Callable, Mapping
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any


class IllegalAction(ValueError):
    """An action that the rules do not allow now. The game is left exactly as it was."""


Action = dict[str, Any]
Event = dict[str, Any]


def refuse_unknown_fields(action: Action, fields: frozenset[str]) -> None:
    """Raise :class:`IllegalAction` if ``action`` has a field its type does not name.

    An action goes into the game's log as it was sent, and the log is the game: a field no
    rule reads (``{"type": "draw", "x": 1}``) would be stored, replayed and published with
    the record forever. Like a malformed value, it is refused."""
    if not action.keys() <= fields:
        extra = ", ".join(sorted(repr(k) for k in action.keys() - fields))
        raise IllegalAction(f"a {action['type']!r} action has no field {extra} "
                            f"(its fields: {', '.join(sorted(fields))})")


def out_of_range(field: str, count: int, one: str, many: str) -> IllegalAction:
    """The refusal of an index ``field`` outside ``0 .. count - 1`` (a place, a row, a
    card of a hand), saying which values there are ("from 0 to 0" read as a puzzle)."""
    if count == 1:
        return IllegalAction(f"{field} must be 0: there is one {one}")
    return IllegalAction(f"{field} must be a number from 0 to {count - 1}: "
                         f"there are {count} {many}")


def not_your_turn(seat: object, turn: int) -> IllegalAction:
    """The refusal of an action out of turn, naming whose turn it is."""
    return IllegalAction(f"it is seat {turn}'s turn, not seat {seat!r}'s")


def secure_seed() -> str:
    """A fresh 256-bit secret seed from the operating system (hex text)."""
    return secrets.token_hex(32)


class SeededRandom(random.Random):
    """A deterministic random stream built on SHA-256 in counter mode.

    ``random.Random`` (Mersenne Twister) can be predicted from enough of its outputs; a
    hash stream keyed by a 256-bit secret cannot, yet it is fully reproducible from the
    seed, which is what the published commitment and ``colorclash verify`` need.
    ``getrandbits`` and ``random`` are overridden, so ``randrange``/``choice`` of the
    standard library build on them; ``shuffle`` is a Fisher-Yates of its own that draws all
    its numbers from one SHAKE-256 output, because a Python-level call per card was most
    of the cost of a new game.
    """

    def __init__(self, seed: int | str | bytes) -> None:
        # (a bool is an int to Python, keyed "int:True"; a list of small numbers passed
        # bytes(); a decimal number failed inside bytes(): each is now told as this one
        # sentence, as every other wrong argument of new_game is: a contract check)
        if isinstance(seed, int) and not isinstance(seed, bool):
            key = b"int:" + str(seed).encode()
        elif isinstance(seed, str):
            key = b"str:" + seed.encode("utf-8", "surrogatepass")
        elif isinstance(seed, bytes | bytearray):
            key = b"bytes:" + bytes(seed)
        else:
            raise ValueError("a seed is a whole number, text or bytes, not "
                             f"{type(seed).__name__} {seed!r:.40}")
        self._key = hashlib.sha256(key).digest()
        self._counter = 0
        self._pool = 0
        self._pool_bits = 0
        super().__init__(0)

    def seed(self, *args: Any, **kwargs: Any) -> None:  # noqa: D102 - random.Random hook
        # random.Random.__init__ calls seed(); our state is the key and the counter.
        pass

    def _refill(self) -> None:
        block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._pool |= int.from_bytes(block, "big") << self._pool_bits
        self._pool_bits += 256

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._pool_bits < k:
            self._refill()
        value = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._pool_bits -= k
        return value

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        n = len(x)
        if n < 2:
            return
        stream = hashlib.shake_256(
            b"shuffle" + self._key + self._counter.to_bytes(8, "big")
        ).digest(4 * n)
        self._counter += 1
        # Fisher-Yates with one 32-bit number per position (modulo bias below 2**-25 per
        # swap for a deck of 112), the reductions done in C by map() (operator.mod: a plain C
        # function, several times faster per call than the int.__mod__ slot wrapper).
        swaps = list(map(operator.mod, struct.unpack(f">{n}I", stream), range(1, n + 1)))
        for i in range(n - 1, 0, -1):
            j = swaps[i]
            x[i], x[j] = x[j], x[i]

    def random(self) -> float:
        return self.getrandbits(53) / 9007199254740992.0

    def getstate(self) -> Any:
        return (self._key, self._counter, self._pool, self._pool_bits)

    def setstate(self, state: Any) -> None:
        self._key, self._counter, self._pool, self._pool_bits = state


class Game:
    """The interface of every game (contract.md section 3).

    Subclasses set ``to_act`` (seats that may act now), ``over`` and ``result`` and
    implement ``legal_actions``, ``apply`` and ``view``. ``log`` holds every applied
    ``(seat, action)`` pair: with the seed it is the whole game.
    """

    game_name: str = ""
    __slots__ = ("log",)

    def __init__(self) -> None:
        self.log: list[tuple[int, Action]] = []

    @property
    def to_act(self) -> list[int]:
        raise NotImplementedError

    @property
    def over(self) -> bool:
        raise NotImplementedError

    @property
    def result(self) -> dict[str, Any] | None:
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, seat: int, action: Action) -> list[Event]:
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def watching(self) -> list[int]:
        """Seats that have gone out of this round and only watch the others play on (for
        places): the server lets computer players left with nobody else but watchers play
        at a brisker pace. Default: none."""
        return []

    def views(self, seats: list[int]) -> list[dict[str, Any]]:
        """``view(seat)`` for each of ``seats``, in order: what the server sends after
        every action. A game may make the parts every seat shares once for all of them
        (Color Clash does), so the views may share those values: read them, replace a
        key, pop one, but change no list or dict inside them. Default: one ``view`` each."""
        return [self.view(seat) for seat in seats]

    # -- what the site's shell reads (same for every game; see docs/adding-a-game.md) --

    @property
    def start_events(self) -> list[Event]:
        """Public events of the deal (a first card's effect, ...); default none."""
        return []

    def timer(self) -> dict[str, Any] | None:
        """The clock the server should run now, as data (the server owns time, the game
        says what is being waited for):

        - ``{"kind": "turn", "seat": s, "key": k}``: seat ``s``'s turn clock (the room's
          turn length). ``key`` names the turn: the deadline is kept while the key stays
          the same, so a turn of several actions keeps one clock.
        - ``{"kind": "next"}``: between rounds; the server applies ``{"type": "next"}``
          when every connected player is ready or after a pause.
        - any other kind with ``"seconds"``: a short clock fixed by the rules (Color
          Clash's 3 s last-card window, its 6 s drawn-card choice). With ``"silent": True``
          it runs out without a word to the table (the window, which closes by itself);
          otherwise its running out is told as a turn clock's is.
        - ``None``: nothing to wait for (the game is over).

        When a clock runs out the server applies ``{"type": "timeout"}`` for the seat if
        the game lists ``timeout`` among its definition's ``server_actions``; otherwise a
        computer player chooses the seat's action.
        """
        if self.over or not self.to_act:
            return None
        return {"kind": "turn", "seat": self.to_act[0], "key": len(self.log)}

    def commitment(self) -> str:
        raise NotImplementedError

    def copy(self) -> Game:
        raise NotImplementedError

    def __copy__(self) -> Game:
        # ``copy.copy`` and ``copy.deepcopy`` give the game's own independent copy: the
        # library's attempt failed on the seeded random stream (a contract review), and a
        # shallow copy sharing the hands would be a trap.
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        twin = memo[id(self)] = self.copy()  # (a structure holding the game twice: one twin)
        return twin


class OptionTypeError(ValueError):
    """An option value of the wrong kind (text where the choices are numbers, true or
    false where they are text): the request is malformed, not merely out of range."""


def value_kind(value: Any) -> str:
    """What kind of value this is, in words, as JSON has them."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list | tuple) else "an object"


def shown_value(value: Any) -> str:
    """``value`` as the JSON a client sent (``true``, ``"30"``), not Python's ``True``."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


@dataclass(frozen=True)
class OptionSpec:
    """One option a room's host may set: its name, its choices and its default.
    The client names it with the game's table module (its ``optionLabel`` and
    ``choiceLabel``, from the game's catalog; the turn ``clock`` the shell names itself).

    ``facts``: what each choice means, as data, where its name alone says little
    (Coloretto's scoring side: the points it gives), so a client can show it without
    keeping a copy of the rule (``GET /api/games``: the option's ``facts``)."""

    name: str
    choices: tuple[Any, ...]
    default: Any
    facts: Mapping[Any, Any] | None = field(default=None, compare=False)

    def public(self) -> dict[str, Any]:
        out = {"name": self.name, "choices": list(self.choices), "default": self.default}
        if self.facts is not None:
            out["facts"] = {str(choice): deepcopy(fact) for choice, fact in self.facts.items()}
        return out


@dataclass(frozen=True)
class GameDefinition:
    """A game as the site hosts it: everything the lobby, the room screen and
    ``GET /api/games`` need, as data. Nothing in the server names a game.

    ``presets`` maps each preset id to the options a host may choose for it (the turn
    ``clock`` in seconds among them); ``make(preset=, seats=, seed=, setup=, options=)``
    builds a game. ``server_actions`` are the action types only the server applies
    (``timeout``, ``next``, ``substitute``); a player who sends one is refused.
    """

    key: str
    name: str
    min_seats: int
    max_seats: int
    default_seats: int
    presets: dict[str, tuple[OptionSpec, ...]]
    default_preset: str
    make: Callable[..., Game] = field(repr=False, compare=False)
    server_actions: frozenset[str] = frozenset()
    #: seats of a Quick Match table (the smallest full table most players enjoy)
    quick_match_seats: int = 0
    #: seats of a Play Now table, you and computer players (0: three, within the game's
    #: seat range; ``table_for_play_now``)
    play_now_seats: int = 0
    #: public facts about each preset for the lobby (e.g. what a timeout does), as data
    preset_info: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False)
    #: the version of the game's rules: raised by a change after which a log of the old
    #: rules may no longer replay (a record, a match stored at an upgrade); rooms and
    #: records carry it, so ``verify`` and a restore can say why (docs/engine.md)
    rules_version: int = 1

    def table_for_quick_match(self) -> int:
        """The seats of a Quick Match table (its largest where the game names none)."""
        return self.quick_match_seats or self.max_seats

    def table_for_play_now(self) -> int:
        """The seats of Play Now's table: the game's own number, else three where the
        game's range allows (you and two computer players), else its nearest bound."""
        return self.play_now_seats or max(self.min_seats, min(3, self.max_seats))

    def options_for(self, preset: str | None) -> tuple[OptionSpec, ...]:
        return self.presets[preset or self.default_preset]

    def defaults(self, preset: str | None) -> dict[str, Any]:
        return {o.name: o.default for o in self.options_for(preset)}

    def check_options(self, preset: str | None, chosen: dict[str, Any]) -> dict[str, Any]:
        """The room's options for ``preset``: defaults with ``chosen`` applied, each checked
        against its choices (ValueError with a readable message otherwise)."""
        preset = preset or self.default_preset
        if preset not in self.presets:
            raise ValueError(f"unknown preset {preset!r} for {self.name}; known: "
                             f"{', '.join(self.presets)}")
        specs = {o.name: o for o in self.presets[preset]}
        out = self.defaults(preset)
        for name, value in chosen.items():
            spec = specs.get(name)
            if spec is None:
                raise ValueError(f"{self.name} has no option {name!r} (options: "
                                 f"{', '.join(specs) or 'none'})")
            choices = ", ".join(str(c) for c in spec.choices)
            kind = value_kind(spec.default)
            if value_kind(value) != kind:
                raise OptionTypeError(f"option {name} takes {kind} ({choices}), not "
                                      f"{shown_value(value)}")
            if value not in spec.choices:
                raise ValueError(f"option {name} must be one of {choices}, not "
                                 f"{shown_value(value)}")
            out[name] = value
        return out

    def public(self) -> dict[str, Any]:
        return {
            "key": self.key, "name": self.name,
            "seats": {"min": self.min_seats, "max": self.max_seats,
                      "default": self.default_seats},
            "default_preset": self.default_preset, "rules_version": self.rules_version,
            "play_now_seats": self.table_for_play_now(),
            "presets": {p: {"options": [o.public() for o in opts],
                            **self.preset_info.get(p, {})}
                        for p, opts in self.presets.items()},
        }
