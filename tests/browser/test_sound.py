"""The table's sounds (shell/sound.js): a chime when your turn comes, one low note when
your own clock reaches its last 10 seconds; the speaker button in the moves panel turns
them off, and this browser keeps the choice. A headless browser has no loudspeaker, so
the tests read the sounds the page asked for (``window.__cc.sounds``)."""

from __future__ import annotations

import re

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


def after_the_start(page) -> None:
    """The scripted table opened from its lobby with the start's notes: forget them, and
    wait out the moment in which a turn's chime would be taken for the start's."""
    page.wait_for_function("window.__cc.sounds.includes('start')")
    page.wait_for_timeout(1600)
    page.evaluate("window.__cc.sounds.length = 0")


def test_your_turn_chimes_and_the_speaker_turns_sound_off_for_good(open_page):
    table = ScriptedTable(open_page, preset="classic-table", seats=2,
                          setup=setup_others_first(), viewport=DESKTOP)
    page = table.page
    after_the_start(page)
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
    after_the_start(page)
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


def test_a_table_that_opens_sounds_its_start_once(open_page):
    """The host starts: the lobby gives way to the table with three rising notes, and a
    table that opens on your turn does not chime its turn as well."""
    setup = setup_others_first()
    setup["first"] = 0  # your turn at once
    table = ScriptedTable(open_page, preset="classic-table", seats=2, deal=False,
                          viewport=DESKTOP)
    page = table.page
    table.send([])
    page.wait_for_selector("#room-code")
    assert sounds(page) == []
    table.deal(setup=setup)
    page.wait_for_selector(".table-screen")
    page.wait_for_function("window.__cc.sounds.includes('start')")
    page.wait_for_timeout(200)
    assert sounds(page) == ["start"]


def test_quick_match_sounds_when_players_are_found(open_page):
    """Waiting for strangers (maybe in another tab): the match is heard when found."""
    a = open_page(DESKTOP)
    b = open_page(DESKTOP)
    for page in (a, b):
        page.click("#btn-quick")
        page.wait_for_selector(".queue-box")
    for page in (a, b):
        page.wait_for_function("() => window.__cc && window.__cc.screen === 'table'", timeout=20_000)
        assert sounds(page)[:1] == ["start"], sounds(page)
        assert sounds(page).count("start") == 1, sounds(page)


def test_your_low_clock_is_said_once_and_the_seconds_badge_is_not_read_out(open_page):
    """The low clock was a sound only: a screen reader's user first heard of it as "Your
    time ran out" (a11y QA). It is said once, politely, as it passes 10 s. And the seconds
    written after your turn message, hidden from screen readers, were read out with it
    when it changed ("… Put the card in a row 0 s"), and made an unchanged message differ
    from one state to the next."""
    setup = {"hands": [["R5", "B7", "G1"], ["R6", "Y1", "Y2"]], "top": "R3",
             "draw": ["R7", "R8", "R9", "R1", "R2", "B2", "B3"], "first": 1}
    table = ScriptedTable(open_page, preset="classic-table", seats=2, setup=setup,
                          viewport=DESKTOP)
    page = table.page
    after_the_start(page)
    table.clock = {"kind": "turn", "seat": 0, "seconds": 30, "remaining_ms": 10_600}
    table.act(1, {"type": "play", "card": "R6"})
    table.wait_view()
    page.wait_for_function("window.__cc.sounds.includes('low')", timeout=3000)
    low = EN["table.secondsLeft"]["other"].format(n=10)
    page.wait_for_function(f"document.getElementById('live').textContent.includes({low!r})")
    page.locator("#turn-msg .turn-secs").wait_for()
    # the same state again: the turn's words have not changed, and are not said again
    page.evaluate("""() => { window.__said = [];
        new MutationObserver(() => window.__said.push(document.getElementById('live')
            .textContent)).observe(document.getElementById('live'),
                                   {childList: true, characterData: true, subtree: true}); }""")
    table.send([])
    table.wait_view()
    page.wait_for_timeout(600)
    assert [s for s in page.evaluate("window.__said") if s] == []
    # a card drawn to play or keep: its words said, without the badge's seconds
    page.click(".draw-pile-btn")
    table.wait_view()
    page.wait_for_timeout(600)
    said = " ".join(s for s in page.evaluate("window.__said") if s)
    assert said and not re.search(r"\d+ s\b", said), said
