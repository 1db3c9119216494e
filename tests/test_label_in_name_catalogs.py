"""A button whose accessible name is not its visible words (``aria-label``) names itself
beginning with those words, in every language (WCAG 2.5.3, label in name): who speaks to
the page says what they see ("Add computer"), and a name "Add a computer player in seat
2" was not found by it (a11y QA)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

WEB_I18N = Path(__file__).resolve().parents[1] / "src" / "colorclash" / "web" / "i18n"

#: (catalog, visible words, the button's aria-label): pairs drawn on one button
PAIRS = [
    ("", "room.addBot", "room.addBotSeat"),
    ("", "room.removeBot", "room.removeBotSeat"),
    ("", "room.removeBot", "room.removePlayerSeat"),
    ("rainbow", "rainbow.playSeen", "rainbow.playSeenLabel"),
    ("rainbow", "rainbow.playTurned", "rainbow.playTurnedLabel"),
]


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
@pytest.mark.parametrize(("game", "visible", "label"), PAIRS)
def test_a_buttons_name_begins_with_its_visible_words(lang, game, visible, label):
    cat = json.loads((WEB_I18N / game / f"{lang}.json").read_text(encoding="utf-8"))
    shown, named = cat[visible], cat[label]
    assert named.casefold().startswith(shown.casefold()), (shown, named)
