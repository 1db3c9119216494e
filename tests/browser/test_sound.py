"""The table's sounds (shell/sound.js): a chime when your turn comes, one low note when
your own clock reaches its last 10 seconds; the speaker button in the moves panel turns
them off, and this browser keeps the choice. A headless browser has no loudspeaker, so
the tests read the sounds the page asked for (``window.__cc.sounds``)."""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, PHONE, axe_check, catalog, shot
from scripted import ScriptedTable

pytestmark = pytest.mark.browser

EN = catalog("en")


def setup_others_first() -> dict:
    """Seat 1 begins; after its play it is your turn (seat 0)."""
    return {"hands": [["R5", "B7", "G1"], ["R6", "Y1", "Y2"]], "top": "R3",
            "draw": ["Y5", "Y6", "Y7", "Y8", "Y9", "B2", "B3"], "first": 1}


def sounds(page) -> list[str]:
    return page.evaluate("[...window.__cc.sounds]")


def test_your_turn_chimes_and_the_speaker_turns_sound_off_for_good(open_page):
    table = ScriptedTable(open_page, preset="classic-table", seats=2,
                          setup=setup_others_first(), viewport=DESKTOP)
    page = table.page
    button = page.locator("#history .sound-toggle")
    assert button.get_attribute("aria-pressed") == "true"  # on by default
    assert button.get_attribute("aria-label") == EN["sound.label"]
    assert sounds(page) == []  # not your turn yet
    table.act(1, {"type": "play", "card": "R6"})
    table.wait_view()
    page.wait_for_function("window.__cc.sounds.includes('turn')")
    assert sounds(page) == ["turn"]
    # a state that leaves the turn yours does not chime again
    table.send([])
    table.wait_view()
    page.wait_for_timeout(200)
    assert sounds(page) == ["turn"]
    shot(page, "sound-on-desktop")
    axe_check(page, "sound-on-desktop")
    button.click()
    page.wait_for_function(
        "document.querySelector('#history .sound-toggle').getAttribute('aria-pressed') === 'false'")
    assert page.evaluate("localStorage.getItem('cc.sound')") == "off"
    assert page.locator("#history .sound-toggle").get_attribute("title") == EN["sound.off"]
    # the turn goes round and comes back: silence
    page.click(".hand .card[data-card='R5']")
    table.wait_view()
    table.others()
    table.wait_view()
    page.wait_for_timeout(200)
    assert sounds(page) == ["turn"]
    # a new page of this browser keeps the choice
    page.reload()
    page.wait_for_function("() => window.__cc && window.__cc.screen === 'table'")
    assert page.locator("#history .sound-toggle").get_attribute("aria-pressed") == "false"


def test_your_low_clock_sounds_once(open_page):
    table = ScriptedTable(open_page, preset="classic-table", seats=2,
                          setup=setup_others_first(), viewport=DESKTOP)
    page = table.page
    # your turn, 30 s clock with 10.6 s left: one low note as it passes 10 s, once
    table.clock = {"kind": "turn", "seat": 0, "seconds": 30, "remaining_ms": 10_600}
    table.act(1, {"type": "play", "card": "R6"})
    table.wait_view()
    page.wait_for_function("window.__cc.sounds.includes('low')", timeout=3000)
    page.wait_for_timeout(1200)
    assert sounds(page) == ["turn", "low"]
    # another seat's low clock is not yours
    table.clock = {"kind": "turn", "seat": 1, "seconds": 30, "remaining_ms": 9_000}
    page.click(".hand .card[data-card='R5']")
    table.wait_view()
    page.wait_for_timeout(600)
    assert sounds(page) == ["turn", "low"]


def test_on_a_phone_the_speaker_is_in_the_opened_moves_panel_only(open_page):
    table = ScriptedTable(open_page, preset="classic-table", seats=2,
                          setup=setup_others_first(), viewport=PHONE)
    page = table.page
    # shut, the panel is for screen readers only: its speaker is no hidden Tab stop
    assert not page.locator("#history .sound-toggle").is_visible()
    page.click(".history-toggle")
    speaker = page.locator("#history .sound-toggle")
    speaker.wait_for(state="visible")
    box = speaker.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    close = page.locator("#history .history-close").bounding_box()
    assert box["x"] + box["width"] <= close["x"] + 1, (box, close)  # beside Close, not over it
    speaker.click()
    page.wait_for_function(
        "document.querySelector('#history .sound-toggle').getAttribute('aria-pressed') === 'false'")
    shot(page, "sound-off-phone")
    axe_check(page, "sound-off-phone")
