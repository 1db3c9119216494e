"""What every computer player shares: the Bot interface and small view helpers.

A bot is a plain object with one method, ``act(view, events=None) -> action``. ``view`` is
exactly what ``game.view(seat)`` returns for the bot's seat (never the game itself), and the
returned action is one of ``view["legal"]``. ``observe(events)`` lets a bot remember public
events between its turns (for example which cards have been played); bots that keep no
memory may ignore it. A bot's own randomness comes from its seed, so the same seed, the
same views and the same events give the same choices.
"""

from __future__ import annotations

import random
from typing import Any

from colorclash.engine.cards import COLORS, FACES

Action = dict[str, Any]
View = dict[str, Any]
Event = dict[str, Any]


class Bot:
    """Base class of the computer players (any object with ``act`` will do)."""

    level = "base"
    #: a bot that searches (tens of ms a decision): the server runs it in a worker process
    thinks = False
    #: the share of someone else's last-card window a computer player lets pass before it
    #: presses Catch (spec 5.6 gives the caller 3 seconds; at the bot delay alone, 0.6 s,
    #: every level caught a person before they could react): weaker levels are slower
    catch_patience = 0.5

    def __init__(self, *, game: str = "color-clash", seed: int | str | None = None) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(f"{self.level}:{seed}" if seed is not None else None)

    def observe(self, events: list[Event] | None) -> None:
        """Remember public events (default: nothing)."""

    def patience(self, view: View) -> float:
        """The share of the table's running clock to let pass before acting in ``view``
        (the server waits that much beyond its bot delay): in another player's last-card
        window, ``catch_patience``; else nothing."""
        if view.get("phase") != "call_window":
            return 0.0
        types = {a.get("type") for a in view.get("legal") or []}
        return self.catch_patience if "catch" in types and "call" not in types else 0.0

    def act(self, view: View, events: list[Event] | None = None) -> Action:
        """Return one of ``view["legal"]``."""
        if events:
            self.observe(events)
        legal = view.get("legal") or []
        if not legal:
            raise ValueError("this seat has no legal action now (it is not its turn)")
        return self.choose(view, legal)

    def choose(self, view: View, legal: list[Action]) -> Action:  # pragma: no cover
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} level={self.level!r} seed={self.seed!r}>"


# ---------------------------------------------------------------------- view helpers


def face_color(face: str) -> str | None:
    f = FACES.get(face)
    return f.color if f is not None else None


_FACE_COLOR = {name: face.color for name, face in FACES.items()}


def color_counts(hand: list[str]) -> dict[str, int]:
    """Cards of each colour in ``hand`` (faces; wilds count for none)."""
    counts = {c: 0 for c in COLORS}
    for card in hand:
        color = _FACE_COLOR.get(card)
        if color:
            counts[color] += 1
    return counts


def most_held_color(hand: list[str], exclude_card: str | None = None) -> str:
    """The colour the hand holds most (ties in R B Y G order)."""
    cards = list(hand)
    if exclude_card is not None and exclude_card in cards:
        cards.remove(exclude_card)
    counts = color_counts(cards)
    return max(COLORS, key=lambda c: counts[c])


def only(legal: list[Action], kind: str) -> list[Action]:
    return [a for a in legal if a["type"] == kind]


def find(legal: list[Action], kind: str) -> Action | None:
    for a in legal:
        if a["type"] == kind:
            return a
    return None


def with_color(legal: list[Action], card: str, color: str) -> Action:
    """The legal play of ``card`` (a wild) with ``color``, or the first play of ``card``."""
    first = None
    for a in legal:
        if a["type"] == "play" and a["card"] == card:
            if a.get("color") == color:
                return a
            if first is None:
                first = a
    assert first is not None
    return first


def forced(view: View, legal: list[Action]) -> Action | None:
    """The obvious action every sensible bot takes, if there is one.

    ``next`` when a round is over, ``call`` when the last-card window is ours, ``catch``
    when someone else's window is open, the only legal action when there is just one, and
    ``call`` (armed before playing the second-to-last card) when it is offered and a card
    can be played: with nothing to play, a call before drawing said "last card" to the
    table with two cards in hand, and three after the draw.
    """
    if len(legal) == 1:
        return legal[0]
    types = {a["type"] for a in legal}
    if "next" in types:
        return find(legal, "next")
    if view.get("phase") == "call_window":
        return find(legal, "call") or find(legal, "catch") or legal[0]
    return find(legal, "call") if "play" in types else None
