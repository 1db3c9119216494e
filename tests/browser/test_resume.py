"""The way back to a table: the browser's Back (a phone's back gesture) left a game for
the home page, which gave no way back though the seat was still the player's (only
someone who knew the code could reopen /r/CODE)."""

from __future__ import annotations

import re

import pytest
from browser_helpers import DESKTOP, PHONE, create_room, shot, wait_table

pytestmark = pytest.mark.browser


def test_back_from_a_game_offers_the_table_again(open_page):
    page = open_page(PHONE)
    page.fill("#player-name", "Ana")
    page.click("label[data-game=rainbow]")
    page.click("#btn-practice")
    wait_table(page)
    code = re.search(r"/r/([A-Z]{6})$", page.url).group(1)
    hand = page.evaluate("window.__cc.view.hand")
    page.go_back()
    page.wait_for_selector("#btn-resume")
    assert page.evaluate("scrollY") == 0  # (the browser put it back halfway down)
    box = page.locator("#btn-resume").bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"], box  # in sight
    panel = page.inner_text(".panel.resume")
    assert code in panel and "still on" in panel, panel
    shot(page, "home-resume-phone")
    page.click("#btn-resume")
    wait_table(page)
    assert page.url.endswith(f"/r/{code}")
    page.wait_for_function("window.__cc.view && window.__cc.view.hand")
    assert page.evaluate("window.__cc.view.hand") == hand
    # left on purpose (Leave table, then Leave): the dialog said to open the table's
    # address again to take the seat back, and the home page offered nothing (player QA):
    # it is offered back, said as a table left
    page.click("#leave-table")
    page.click("[role=dialog] button[data-focus-key='leave:yes']")
    page.wait_for_selector("#btn-practice")
    page.wait_for_selector("#btn-resume")
    panel = page.inner_text(".panel.resume")
    assert panel.startswith(f"You left table {code}"), panel
    page.reload()  # (the mark is the browser's, not the page's)
    page.wait_for_selector("#btn-resume")
    assert page.inner_text(".panel.resume").startswith(f"You left table {code}")
    page.click("#btn-resume")
    wait_table(page)
    page.wait_for_function("window.__cc.view && window.__cc.view.hand")
    assert page.evaluate("window.__cc.view.hand") == hand
    # back at the seat: once home again, it is a game still on, not a table left
    page.go_back()
    page.wait_for_selector("#btn-resume")
    assert "still on" in page.inner_text(".panel.resume")


def test_a_seat_that_cannot_be_taken_back_is_not_offered_after_leaving(open_page):
    """A one-round Color Clash game: leaving gives the seat to a computer for good (the
    dialog says so), and the home page does not offer it back."""
    page = open_page(PHONE)
    page.fill("#player-name", "Ana")
    page.click("label[data-game=color-clash]")
    page.click("#btn-practice")
    wait_table(page)
    page.click("#leave-table")
    dialog = page.inner_text("[role=dialog]")
    assert "cannot take the seat back" in dialog, dialog
    page.click("[role=dialog] button[data-focus-key='leave:yes']")
    page.wait_for_selector("#btn-practice")
    page.wait_for_timeout(800)
    assert page.locator("#btn-resume").count() == 0
    # nor after a reload (it said "your seat is waiting for you": the mark was the page's)
    page.reload()
    page.wait_for_selector("#btn-practice")
    page.wait_for_timeout(800)
    assert page.locator("#btn-resume").count() == 0


def test_a_room_left_by_back_is_offered_as_a_room(open_page):
    page = open_page(DESKTOP, locale="es-ES")
    code = create_room(page, "Ana")
    page.go_back()
    page.wait_for_selector("#btn-resume")
    assert code in page.inner_text(".panel.resume")
    assert page.inner_text("#btn-resume").strip().lower() == "volver a la sala"


def test_every_table_still_held_is_offered_games_first(open_page):
    """A match left to a computer, then a room made: the home page offered the room alone,
    and the match, its seat to be taken back at the next round, was offered nowhere (flow
    review). Each is offered, the game first, and a table left says when the seat comes
    back (Color Clash's: at the next round, not as soon as it is opened)."""
    page = open_page(DESKTOP)
    page.fill("#player-name", "Ana")
    page.click("label[data-game=color-clash]")
    page.select_option("#practice-preset", "standard")
    page.select_option("#practice-opt-match", "3")
    page.click("#btn-practice")
    wait_table(page)
    game = re.search(r"/r/([A-Z]{6})$", page.url).group(1)
    page.click("#leave-table")
    page.click("[role=dialog] button[data-focus-key='leave:yes']")
    page.wait_for_selector("#btn-resume")
    room = create_room(page, "Ana")
    page.go_back()
    page.wait_for_selector(".resume-entry >> nth=1")
    entries = page.locator(".resume-entry").all_inner_texts()
    assert len(entries) == 2, entries
    assert entries[0].startswith(f"You left table {game}: a computer plays your seat until the next round"), entries
    assert room in entries[1], entries
    assert page.get_attribute("#btn-resume", "href") == f"/r/{game}"
    shot(page, "home-resume-two")
    page.click(f".resume-entry a[data-code={room}]")
    page.wait_for_selector("#room-code")
    assert page.inner_text("#room-code").strip() == room
