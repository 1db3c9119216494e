"""The 57 double-sided cards of Rainbow (spec/rainbow.md, "Cards").

Nine colours: the seven of the rainbow, white ("light", a wild colour) and black
("shadow"). Faces per colour (decided here; the publisher's counts are not public): each
rainbow colour 12, white 15, black 15 -- 114 faces, two per card, never the same colour
twice on one card.

Which faces share a card is public knowledge, like the printed deck of the boxed game. It
was generated once by :func:`generate_cards` (a uniform random pairing of the 114 faces
among those with no single-coloured card, drawn from ``SeededRandom(DECK_SEED)``) and is
frozen below as data, so the deck never changes at import and every server deals from the
same cards; ``tests/test_rainbow_deck.py`` rebuilds it and compares.

A card is written as a pair of colour names in :data:`COLORS` order, ``("red", "black")``.
"""

from __future__ import annotations

from collections import Counter

from colorclash.engine.base import SeededRandom

RED, ORANGE, YELLOW, GREEN, BLUE, INDIGO, VIOLET = (
    "red", "orange", "yellow", "green", "blue", "indigo", "violet",
)
WHITE = "white"  # "light": stands in for any rainbow colour
BLACK = "black"  # "shadow": showing at the check loses the round

RAINBOW_COLORS: tuple[str, ...] = (RED, ORANGE, YELLOW, GREEN, BLUE, INDIGO, VIOLET)
COLORS: tuple[str, ...] = RAINBOW_COLORS + (WHITE, BLACK)

#: faces of each colour in the deck
FACE_COUNTS: dict[str, int] = {**{c: 12 for c in RAINBOW_COLORS}, WHITE: 15, BLACK: 15}

#: colour -> (letter code, shape name, glyph): the symbol printed on every face so that no
#: player needs to tell colours apart (red, blue, yellow and green keep Color Clash's shapes)
SYMBOLS: dict[str, tuple[str, str, str]] = {
    RED: ("R", "circle", "\u25cf"),       # ●
    ORANGE: ("O", "star", "\u2605"),      # ★
    YELLOW: ("Y", "triangle", "\u25b2"),  # ▲
    GREEN: ("G", "diamond", "\u25c6"),    # ◆
    BLUE: ("B", "square", "\u25a0"),      # ■
    INDIGO: ("I", "hexagon", "\u2b22"),   # ⬢
    VIOLET: ("V", "cross", "\u271a"),     # ✚
    WHITE: ("W", "sun", "\u2600"),        # ☀ light
    BLACK: ("K", "moon", "\u263e"),       # ☾ shadow
}

DECK_SEED = "rainbow-deck-2026"
CARD_COUNT = 57


def canonical(a: str, b: str) -> tuple[str, str]:
    """The card with faces ``a`` and ``b``, written in :data:`COLORS` order."""
    return (a, b) if COLORS.index(a) <= COLORS.index(b) else (b, a)


def generate_cards(seed: str = DECK_SEED) -> tuple[tuple[str, str], ...]:
    """Pair the 114 faces into 57 cards: shuffle the faces and pair them two by two,
    again until no card has the same colour on both faces (about one shuffle in 400
    succeeds, so the result is uniform among the allowed pairings). Sorted, canonical."""
    rng = SeededRandom(seed)
    faces = [c for c in COLORS for _ in range(FACE_COUNTS[c])]
    while True:
        rng.shuffle(faces)
        pairs = [(faces[2 * i], faces[2 * i + 1]) for i in range(CARD_COUNT)]
        if all(a != b for a, b in pairs):
            break
    return tuple(sorted((canonical(a, b) for a, b in pairs),
                        key=lambda p: (COLORS.index(p[0]), COLORS.index(p[1]))))


RAINBOW_CARDS: tuple[tuple[str, str], ...] = (
    ("red", "orange"), ("red", "orange"), ("red", "orange"), ("red", "green"),
    ("red", "blue"), ("red", "blue"), ("red", "indigo"), ("red", "violet"),
    ("red", "white"), ("red", "black"), ("red", "black"), ("red", "black"),
    ("orange", "blue"), ("orange", "blue"), ("orange", "indigo"), ("orange", "indigo"),
    ("orange", "white"), ("orange", "white"), ("orange", "white"), ("orange", "black"),
    ("orange", "black"), ("yellow", "green"), ("yellow", "green"), ("yellow", "indigo"),
    ("yellow", "indigo"), ("yellow", "violet"), ("yellow", "violet"), ("yellow", "violet"),
    ("yellow", "violet"), ("yellow", "white"), ("yellow", "white"), ("yellow", "white"),
    ("yellow", "black"), ("green", "indigo"), ("green", "indigo"), ("green", "violet"),
    ("green", "violet"), ("green", "white"), ("green", "white"), ("green", "white"),
    ("green", "black"), ("green", "black"), ("blue", "indigo"), ("blue", "indigo"),
    ("blue", "violet"), ("blue", "white"), ("blue", "white"), ("blue", "black"),
    ("blue", "black"), ("blue", "black"), ("indigo", "violet"), ("indigo", "white"),
    ("indigo", "white"), ("violet", "black"), ("violet", "black"), ("violet", "black"),
    ("white", "black"),
)

#: card -> how many of the 57 cards have these two faces
CARD_COUNTS: Counter[tuple[str, str]] = Counter(RAINBOW_CARDS)
