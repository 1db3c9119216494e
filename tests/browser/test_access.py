"""What an accessibility review of the table asked for: the one-key shortcuts can be
turned off (shell/keys.js; WCAG 2.1.4), no empty named group, a focus ring never cut."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from browser_helpers import DESKTOP, dev_scene, focus_ring, ring_shows_after_a_key, shot
from scripted import ScriptedTable

pytestmark = pytest.mark.browser


def _actions(table) -> list[dict]:
    return [m["action"] for m in table.sent if m.get("type") == "action"]


def _wait_actions(table, n: int) -> list[dict]:
    """The page's actions once it has sent ``n`` (the page's messages reach the script as
    the page is waited on)."""
    for _ in range(60):
        if len(_actions(table)) >= n:
            break
        table.page.wait_for_timeout(50)
    return _actions(table)


@pytest.mark.parametrize("game", ["color-clash", "coloretto"])
def test_the_keyboard_switch_turns_the_one_key_shortcuts_off_and_on(open_page, game):
    table = ScriptedTable(open_page, game=game, preset="standard", seats=3, viewport=DESKTOP,
                          seed=4)
    page = table.page
    table.others()
    table.wait_view()
    switch = page.locator(".keys-toggle")
    assert switch.get_attribute("aria-pressed") == "true"
    assert page.locator(".key-help").is_visible() and page.locator(".kbd").first.is_visible()
    switch.click()
    page.wait_for_function("document.querySelector('.keys-toggle')"
                           ".getAttribute('aria-pressed') === 'false'")
    # no promise of keys that do nothing: neither the line of keys nor the badges
    assert not page.locator(".key-help").is_visible()
    assert not page.locator(".kbd").first.is_visible()
    page.keyboard.press("d")
    # the mouse's draw after it: the socket keeps the order, so once it has come, a
    # draw sent by the key would have come before it
    page.click("[data-focus-key='act:draw']")
    assert [a["type"] for a in _wait_actions(table, 1)] == ["draw"]
    page.wait_for_timeout(200)
    assert len(_actions(table)) == 1, table.sent
    # kept in this browser: off again at the next visit
    page.reload()
    page.wait_for_function("() => window.__cc && window.__cc.connStatus === 'online'")
    table.wait_view()
    assert page.get_attribute(".keys-toggle", "aria-pressed") == "false"
    assert not page.locator(".key-help").is_visible()
    # on again: the key plays
    page.locator(".keys-toggle").click()
    page.wait_for_function("document.querySelector('.keys-toggle')"
                           ".getAttribute('aria-pressed') === 'true'")
    table.others()
    table.wait_view()
    legal = table.game.legal_actions(table.me)
    kinds = [a["type"] for a in legal]
    if "place" in kinds:  # (Coloretto: the card drawn above, into a row by its number)
        key, kind = str(legal[kinds.index("place")]["row"] + 1), "place"
    else:
        key, kind = ("k", "keep") if "keep" in kinds else ("d", "draw")
    page.locator("main").click(position={"x": 5, "y": 5})  # (the focus off the switch)
    page.keyboard.press(key)
    assert [a["type"] for a in _wait_actions(table, 2)][1:] == [kind], table.sent


@pytest.mark.parametrize("game", ["color-clash", "rainbow"])
def test_no_empty_group_of_actions_is_named_between_turns(open_page, game):
    """Between turns "Your actions" was a named group with nothing in it (a screen reader
    says the group all the same: an accessibility review)."""
    table = ScriptedTable(open_page, game=game, preset="standard", seats=2, viewport=DESKTOP,
                          seed=4)
    page = table.page
    table.others()
    table.wait_view()
    g = table.game
    for _ in range(10):  # a move that gives the turn away: a draw kept, a card and End
        if 0 not in g.to_act:
            break
        legal = g.legal_actions(0)
        kinds = [a["type"] for a in legal]
        kind = next(k for k in ("keep", "end", "draw", "play") if k in kinds)
        table.act(0, legal[kinds.index(kind)])
    assert 0 not in g.to_act
    table.wait_view()
    empty = page.evaluate("""() => [...document.querySelectorAll('main [role=group]')]
      .filter((e) => e.children.length === 0 && !e.textContent.trim())
      .map((e) => e.getAttribute('aria-label') || e.className)""")
    assert empty == []


@pytest.mark.parametrize("size", [{"width": 640, "height": 400}, {"width": 568, "height": 320},
                                  DESKTOP])
def test_a_focused_cards_ring_is_whole_inside_the_hand(open_page, size):
    """At 200% zoom (640x400 CSS pixels) the lifted card's focus ring was cut at the top by
    the hand's strip."""
    table = ScriptedTable(open_page, preset="standard", seats=2, viewport=size, seed=4)
    page = table.page
    table.others()
    table.wait_view()
    page.keyboard.press("h")  # (a key: the ring of a keyboard's focus)
    page.wait_for_function("document.activeElement.matches('.hand .card.playable')")
    page.wait_for_timeout(300)  # (the lift's transition)
    gap = page.evaluate("""() => {
      const card = document.activeElement.getBoundingClientRect();
      const strip = document.activeElement.closest('.hand').getBoundingClientRect();
      const cs = getComputedStyle(document.activeElement);
      let ring = parseFloat(cs.outlineWidth) + parseFloat(cs.outlineOffset);
      // and the rings drawn as shadows (no blur): the white halo round the focus ring
      for (const shadow of cs.boxShadow.split(/,(?![^(]*\\))/)) {
        const [, y, blur, spread] = (shadow.match(/-?[\\d.]+px/g) || []).map(parseFloat);
        if (blur === 0) ring = Math.max(ring, spread - y);
      }
      return card.top - ring - strip.top; }""")
    assert gap >= 0.5, gap


def test_coloretto_shows_where_the_drawn_card_would_go_in_its_own_colour(open_page):
    """The preview of the drawn card in each row was half transparent: orange over the
    table's green read as brown, another of the game's colours."""
    table = ScriptedTable(open_page, game="coloretto", preset="standard", seats=3,
                          viewport=DESKTOP, seed=4)
    page = table.page
    table.others()
    table.wait_view()
    page.keyboard.press("Tab")
    page.keyboard.press("d")
    page.wait_for_selector(".ccard.ghost")
    look = page.evaluate("""() => {
      const ghost = document.querySelector('.ccard.ghost'), cs = getComputedStyle(ghost);
      const drawn = getComputedStyle(document.querySelector('.ct-drawn .ccard'));
      return [cs.opacity, cs.backgroundColor, drawn.backgroundColor]; }""")
    assert look[0] == "1" and look[1] == look[2], look


def test_what_the_moves_say_is_not_said_again_by_a_status_on_the_table(open_page):
    """The active colour and the +2 waiting were live regions: "... chose Blue" was
    followed by "Blue", "+2 waits on you" by "+2 waiting" (an accessibility review). The
    chips are read where they stand; the fuse's countdown, said nowhere else, stays one."""
    table = ScriptedTable(open_page, preset="classic-table", seats=3, setup={
        "hands": [["B7", "G1", "Y4", "B9", "G6"], ["Y1", "Y2", "B1"], ["R+2", "G3", "G4"]],
        "top": "R3", "draw": ["Y5", "Y6", "Y7", "Y8", "Y9", "B2", "B3"], "first": 2})
    page = table.page
    table.act(2, {"type": "play", "card": "R+2"})
    table.wait_view()
    page.wait_for_selector(".chip.stack")
    live = page.evaluate("""() => [...document.querySelectorAll(
      '.active-color, .chip.stack')].filter((e) => e.closest('[role=status], [aria-live]'))
      .map((e) => e.className)""")
    assert live == []


def test_a_touch_screen_shows_no_ring_on_the_coloretto_row_it_focused(chromium, server):
    """The page focuses a row for keyboards and screen readers; on a phone the row stood
    ringed and lit, read as chosen (Coloretto's own focus rule outweighed the site's rule
    for touch screens). The ring shows once a key is pressed, and at once on a desktop."""
    for touch in (True, False):
        with dev_scene(chromium, server, "coloretto-place", touch=touch) as page:
            page.evaluate("document.querySelector('.ct-row.can-place').focus()")
            if touch:
                ring_shows_after_a_key(page, ".ct-row")
            else:
                assert page.evaluate(focus_ring(".ct-row")) == "solid"


@contextmanager
def rainbow_on_a_touch_phone(chromium, server) -> Iterator:
    """A scripted Rainbow table (seed 4) at your turn, on a touch phone (390x844)."""
    contexts = []

    def touch_page(viewport=None, locale="en-US", path="/"):
        ctx = chromium.new_context(viewport=viewport or {"width": 390, "height": 844},
                                   locale=locale, base_url=server.url, has_touch=True,
                                   is_mobile=True, bypass_csp=True, reduced_motion="reduce")
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(path)
        return page

    try:
        table = ScriptedTable(touch_page, game="rainbow", preset="standard", seats=2, seed=4)
        table.others()
        table.wait_view()
        yield table.page
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_touch_screen_shows_no_ring_on_the_rainbow_card_it_focused(chromium, server):
    """So at Rainbow's table (its card's focus rule outweighed the site's rule for touch
    screens)."""
    with rainbow_on_a_touch_phone(chromium, server) as page:
        page.evaluate("document.querySelector('.rb-hand .rb-card').focus()")
        ring_shows_after_a_key(page, ".rb-card")


def test_a_chosen_rainbow_card_stands_out_on_a_touch_screen(chromium, server):
    """The chosen card was told from the others by a few pixels of lift alone on a phone:
    the touch screens' focus rule took its ring away (a player review). It wears a white
    ring inside the yellow one, and the other cards that may be played dim a little."""
    with rainbow_on_a_touch_phone(chromium, server) as page:
        page.locator(".rb-hand .rb-card.playable").first.tap()
        page.wait_for_selector(".rb-hand .rb-card.picked")
        got = page.evaluate("""() => {
            const picked = document.querySelector('.rb-hand .rb-card.picked');
            const other = document.querySelector('.rb-hand .rb-card.playable:not(.picked)');
            return {focused: document.activeElement === picked,
                    ring: getComputedStyle(picked).boxShadow,
                    other: other && getComputedStyle(other).filter}; }""")
        # (focused: the touch screens' focus rule is the one that took the ring away)
        assert got["focused"] and "rgb(255, 255, 255) 0px 0px 0px 3px" in got["ring"], got
        assert got["other"] not in (None, "none"), got
        shot(page, "rainbow-chosen-touch")
