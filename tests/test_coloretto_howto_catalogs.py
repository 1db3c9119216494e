"""Coloretto's "How to play" says where the last-round card lies as the engine deals it:
on top of the last UNDER_LAST cards of the supply (spec: "deal 15 cards face down as a
pile, put the last-round card on it"), in every language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from colorclash.engine import new_game
from colorclash.engine.coloretto import UNDER_LAST

CATALOGS = Path(__file__).resolve().parents[1] / "src" / "colorclash" / "web" / "i18n" / "coloretto"

# the word each language uses for "on top of" and the ones that would say "under"
ABOVE = {"en": "on top of", "es": "encima", "tr": "üstünde"}
BELOW = {"en": ("under", "below", "beneath"), "es": ("debajo", "bajo"), "tr": ("altında",)}


@pytest.mark.parametrize("lang", sorted(ABOVE))
def test_the_last_round_card_lies_on_top_of_the_last_cards(lang):
    text = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))[
        "coloretto.howto.lastCard"].casefold()
    assert str(UNDER_LAST) in text
    assert ABOVE[lang] in text
    assert not any(word in text for word in BELOW[lang]), text


def test_the_engine_deals_the_last_round_card_on_top_of_that_many_cards():
    for seats in (2, 3, 4, 5):
        view = new_game("coloretto", seats=seats, seed=seats).view(None)
        under = view["supply"] - view["cards_above_last_round"] - 1
        assert under == UNDER_LAST
