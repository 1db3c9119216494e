"""Card faces of Color Clash: notation, colour, rank, points, and the decks.

A *face* is what one side of a card shows, in the notation of the spec (``R7``,
``B-skip``, ``G+2``, ``W+4``, ``Y-bomb``, ``R-shield``, ``W``; Day & Night adds ``+1``,
``+5``, ``-skipall``, ``-flip``, ``W-clock``, ``W-hunt``). A *card* is a face for the
single-faced decks, and ``DAY//NIGHT`` for the double-faced Day & Night deck.

Everything the rules need to know about a face is looked up once in :data:`FACES`
(a dict), so the hot paths of the engine never parse strings.
"""

from __future__ import annotations

from typing import NamedTuple

COLORS = ("R", "B", "Y", "G")
COLOR_NAMES = {"R": "red", "B": "blue", "Y": "yellow", "G": "green"}
SHAPES = {"R": "circle", "B": "square", "Y": "triangle", "G": "diamond"}

# The kinds of face. A kind says what a face does; the preset says how.
NUMBER = "number"
SKIP = "skip"
REVERSE = "reverse"
DRAW = "draw"  # +2, W+4, +1, +5: a counted penalty
WILD = "wild"
BOMB = "bomb"
SHIELD = "shield"
SKIPALL = "skipall"
FLIP = "flip"
CLOCK = "clock"
HUNT = "hunt"


class Face(NamedTuple):
    """What the rules know about one face."""

    name: str
    color: str | None  # None for colourless (wild) faces
    rank: str  # what matches "by number or symbol": "7", "-skip", "+2"; wilds: their name
    kind: str
    penalty: int  # cards a counted penalty adds to a stack; 0 otherwise
    points: int


def _coloured(color: str, rank: str) -> Face:
    name = color + rank
    if rank.isdigit():
        return Face(name, color, rank, NUMBER, 0, int(rank))
    kind, penalty = {
        "-skip": (SKIP, 0),
        "-reverse": (REVERSE, 0),
        "+2": (DRAW, 2),
        "-bomb": (BOMB, 0),
        "-shield": (SHIELD, 0),
        "+1": (DRAW, 1),
        "+5": (DRAW, 5),
        "-skipall": (SKIPALL, 0),
        "-flip": (FLIP, 0),
    }[rank]
    return Face(name, color, rank, kind, penalty, 20)


def _build_faces() -> dict[str, Face]:
    faces: dict[str, Face] = {}
    ranks = [str(n) for n in range(10)] + [
        "-skip", "-reverse", "+2", "-bomb", "-shield", "+1", "+5", "-skipall", "-flip",
    ]
    for color in COLORS:
        for rank in ranks:
            face = _coloured(color, rank)
            faces[face.name] = face
    faces["W"] = Face("W", None, "W", WILD, 0, 50)
    faces["W+4"] = Face("W+4", None, "W+4", DRAW, 4, 50)
    faces["W-clock"] = Face("W-clock", None, "W-clock", CLOCK, 0, 40)
    faces["W-hunt"] = Face("W-hunt", None, "W-hunt", HUNT, 0, 60)
    return faces


FACES: dict[str, Face] = _build_faces()

# Day & Night scores its plain Wild at 40 (spec section 7); the other decks at 50.
DAY_NIGHT_POINTS = {"W": 40}


def standard_deck() -> list[str]:
    """The 108-card deck [000]."""
    deck: list[str] = []
    for c in COLORS:
        deck.append(c + "0")
        for n in range(1, 10):
            deck += [f"{c}{n}"] * 2
        deck += [c + "-skip", c + "-reverse", c + "+2"] * 2
    deck += ["W"] * 4 + ["W+4"] * 4
    return deck


def classic_table_deck() -> list[str]:
    """Standard plus one Bomb per colour: 112 cards [004]."""
    return standard_deck() + [c + "-bomb" for c in COLORS]


def siege_deck() -> list[str]:
    """Classic Table with each Bomb replaced by a Shield of the same colour: 112 cards."""
    return standard_deck() + [c + "-shield" for c in COLORS]


def day_night_deck() -> list[str]:
    """The 112 double-faced cards, ``DAY//NIGHT``, from the frozen table."""
    from colorclash.engine.day_night_deck import DAY_NIGHT_CARDS

    return list(DAY_NIGHT_CARDS)


_DECK_BUILDERS = {
    "standard": standard_deck,
    "classic-table": classic_table_deck,
    "siege": siege_deck,
    "day-night": day_night_deck,
}
_DECK_CACHE: dict[str, tuple[str, ...]] = {}


def new_deck(name: str) -> list[str]:
    """A fresh list of the cards of deck ``name``, in a fixed order (built once)."""
    cards = _DECK_CACHE.get(name)
    if cards is None:
        cards = _DECK_CACHE[name] = tuple(_DECK_BUILDERS[name]())
    return list(cards)


DECKS = _DECK_BUILDERS


def is_card(text: object) -> bool:
    """True if ``text`` is a face in the notation (not a double-faced card)."""
    return isinstance(text, str) and text in FACES
