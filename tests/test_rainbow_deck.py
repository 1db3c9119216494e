"""The frozen deck of Rainbow (spec/rainbow.md, "Cards")."""

from __future__ import annotations

from collections import Counter

from colorclash.engine.rainbow_deck import (
    BLACK,
    CARD_COUNT,
    COLORS,
    FACE_COUNTS,
    RAINBOW_CARDS,
    RAINBOW_COLORS,
    SYMBOLS,
    WHITE,
    generate_cards,
)


def test_the_frozen_deck_is_what_the_generator_makes():
    assert generate_cards() == RAINBOW_CARDS


def test_the_generator_depends_on_its_seed():
    assert generate_cards("another seed") != RAINBOW_CARDS


def test_57_cards_with_114_faces_in_the_spec_counts():
    assert len(RAINBOW_CARDS) == CARD_COUNT == 57
    faces = Counter(f for card in RAINBOW_CARDS for f in card)
    assert faces == Counter(FACE_COUNTS)
    assert all(faces[c] == 12 for c in RAINBOW_COLORS)
    assert faces[WHITE] == 15 and faces[BLACK] == 15
    assert sum(faces.values()) == 114


def test_no_card_has_one_colour_on_both_faces():
    assert all(a != b for a, b in RAINBOW_CARDS)


def test_nine_colours_each_with_a_distinct_symbol():
    assert len(COLORS) == 9
    assert set(SYMBOLS) == set(COLORS)
    letters = [s[0] for s in SYMBOLS.values()]
    shapes = [s[1] for s in SYMBOLS.values()]
    glyphs = [s[2] for s in SYMBOLS.values()]
    assert len(set(letters)) == len(set(shapes)) == len(set(glyphs)) == 9
