"""A fourth game, for the tests of the seam between the site and its games: "Tally".

The smallest game that uses what Color Clash, Coloretto and Rainbow do not, so that a
part of the server core or the client shell that knows one of them shows up: a
player's action named ``next`` (Color Clash's server-only action), a short clock of the
game's own that runs out without a word (``"silent": True``), a table of at least 4
seats (Play Now's), and an option named ``match`` whose choices are numbers (Color
Clash's ``match`` is text).

Rules: the seat on turn presses ``next`` (the tally goes up by one and is theirs), then
rests: ``go`` passes the turn on, and a short silent clock presses it for them. The
match ends when the tally reaches the ``match`` option; the last to press ``next`` wins.

Registered only for the tests that ask (``hosted`` in tests/test_game_seam.py).
"""

from __future__ import annotations

import hashlib
from typing import Any

from colorclash.bots.base import Bot
from colorclash.engine.base import Game, GameDefinition, IllegalAction, OptionSpec, secure_seed

KEY = "tally"
REST_SECONDS = 0.3


class Tally(Game):
    game_name = KEY
    __slots__ = ("count", "goal", "last", "options", "resting", "seats", "seed", "tallies",
                 "turn")

    def __init__(self, *, preset: str | None = None, seats: int, seed: Any = None,
                 setup: dict[str, Any] | None = None,
                 options: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.options = DEFINITION.check_options(preset, options or {})
        self.seats = seats
        self.seed = secure_seed() if seed is None else seed
        self.goal = self.options["match"]
        self.count = 0
        self.turn = 0
        self.resting = False
        self.last: int | None = None
        self.tallies = [0] * seats

    @property
    def over(self) -> bool:
        return self.count >= self.goal

    @property
    def to_act(self) -> list[int]:
        return [] if self.over else [self.turn]

    @property
    def result(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        return {"scores": list(self.tallies), "winners": [self.last]}

    def legal_actions(self, seat: int | None) -> list[dict[str, Any]]:
        if self.over or seat != self.turn:
            return []
        return [{"type": "go"}] if self.resting else [{"type": "next"}]

    def apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        if action not in self.legal_actions(seat):
            raise IllegalAction(f"seat {seat} may not {action!r} now")
        self.log.append((seat, dict(action)))
        if action["type"] == "go":
            self.resting = False
            self.turn = (self.turn + 1) % self.seats
            return [{"type": "passed_on", "seat": self.turn}]
        self.count += 1
        self.tallies[seat] += 1
        self.last = seat
        events = [{"type": "counted", "seat": seat, "count": self.count}]
        if self.over:
            events.append({"type": "game_over", "winners": [seat]})
        else:
            self.resting = True
        return events

    def timer(self) -> dict[str, Any] | None:
        if self.over:
            return None
        if self.resting:
            return {"kind": "rest", "seat": self.turn, "key": len(self.log),
                    "seconds": REST_SECONDS, "silent": True}
        return {"kind": "turn", "seat": self.turn, "key": len(self.log)}

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and (seat.__class__ is not int or not 0 <= seat < self.seats):
            raise ValueError(f"there is no seat {seat!r} at this table")
        return {
            "game": KEY, "seat": seat, "seats": self.seats,
            "phase": "game_over" if self.over else ("rest" if self.resting else "play"),
            "turn": None if self.over else self.turn, "to_act": self.to_act,
            "legal": self.legal_actions(seat), "round": 1, "scores": list(self.tallies),
            "result": self.result, "options": dict(self.options), "count": self.count,
        }

    def commitment(self) -> str:
        return hashlib.sha256(f"{self.seed}".encode()).hexdigest()

    def copy(self) -> Tally:
        twin = object.__new__(Tally)
        for name in ("count", "goal", "last", "options", "resting", "seats", "seed", "turn"):
            setattr(twin, name, getattr(self, name))
        twin.options = dict(self.options)
        twin.tallies = list(self.tallies)
        twin.log = list(self.log)
        return twin


DEFINITION = GameDefinition(
    key=KEY, name="Tally", min_seats=4, max_seats=5, default_seats=4,
    presets={"plain": (OptionSpec("match", (3, 6), 3), OptionSpec("clock", (20, 30), 30))},
    default_preset="plain",
    make=lambda *, preset=None, **kw: Tally(preset=preset, **kw),
)


class Presser(Bot):
    """Plays the one action there is."""

    level = "random"

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return legal[0]


LEVELS = {"random": Presser}
