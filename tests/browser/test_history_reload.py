"""The table's "Recent moves" survive a reload and a dropped connection: the socket's first
state brings the match's earlier moments (``recent``), worded like live events, and the
moment of that state is not listed twice."""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, my_turn, step, wait_table

pytestmark = pytest.mark.browser

LINES = "#history .history-list li"


def lines(page) -> list[str]:
    return [t.strip() for t in page.locator(LINES).all_text_contents()]


def settle(page) -> tuple[int, list[str]]:
    """Wait for this seat's turn (nobody else acts then); its seq and history lines."""
    my_turn(page)
    return page.evaluate("window.__cc.seq"), lines(page)


def test_recent_moves_survive_a_reload_and_a_reconnection(open_page):
    page = open_page(DESKTOP)
    page.fill("#player-name", "Ana")
    page.click("#btn-play-now")
    wait_table(page)
    for _ in range(40):  # a few moves of ours and of the computer players
        my_turn(page)
        step(page)
        page.wait_for_timeout(150)
        if len(lines(page)) >= 5 and any(line.startswith("You ") for line in lines(page)):
            break
    for how in ("reload", "reconnect"):
        for _ in range(3):  # (a clock may act during the reload: try again)
            seq, before = settle(page)
            assert len(before) >= 3, before
            if how == "reload":
                page.reload()
                wait_table(page)
            else:
                # (the bar shows 300 ms, until the first try again: seen by the page
                # itself, which a poll of the selector could miss on a loaded machine)
                page.evaluate("""() => { window.__barShown = false;
                  const bar = document.getElementById('reconnect');
                  new MutationObserver(() => { if (!bar.hidden) window.__barShown = true; })
                    .observe(bar, { attributes: true }); }""")
                page.evaluate("window.__cc.conn.ws.close()")
                page.wait_for_function("window.__barShown", timeout=5000)
                page.wait_for_selector("#reconnect", state="hidden", timeout=10_000)
            page.wait_for_function(f"() => window.__cc.seq >= {seq}")
            after_seq, after = settle(page)
            if after_seq == seq:
                break
        assert after_seq == seq, "the table kept moving"
        assert page.locator("#history .history-empty").count() == 0
        assert after == before, f"after a {how}: {after} instead of {before}"
        assert any(line.startswith("You ") for line in after)  # worded for this seat


def test_the_history_keeps_as_many_moments_as_a_reload_brings(open_page):
    """The page kept 8 moments (the desktop's panel half empty, the turns played for you
    while away gone from it) while a reload brought 30."""
    from colorclash.server.model import RECENT_MOMENTS

    page = open_page(DESKTOP)
    kept = page.evaluate("""async () => {
        const { remember, HISTORY_SIZE } = await import('/js/shell/history.js');
        let moments = [];
        for (let i = 0; i < 50; i += 1) moments = remember(moments, [{type: 'x'}], i);
        return [moments.length, moments[0].moment, HISTORY_SIZE];
    }""")
    assert kept == [RECENT_MOMENTS, 50 - RECENT_MOMENTS, RECENT_MOMENTS]


def test_the_history_shows_no_numbers_that_are_not_the_moves(open_page):
    """The list kept the last 30 moments and numbered them from 1: its "1." was not the
    first move nor its "30." the thirtieth (a player review; "10." was once cut to "0."
    too). Its lines carry no number; the newest is marked apart."""
    page = open_page(DESKTOP)
    got = page.evaluate("""async () => {
        const { historyPanel } = await import('/js/shell/history.js');
        const lines = [...Array(30).keys()].map((i) => 'Bo played Red ' + i);
        const panel = historyPanel({ title: 'Recent moves', lines });
        document.body.append(panel);
        const list = panel.querySelector('.history-list');
        const items = [...list.children];
        const newest = items[items.length - 1];
        return {marker: getComputedStyle(items[0]).listStyleType,
                listMarker: getComputedStyle(list).listStyleType,
                newest: newest.classList.contains('newest')};
    }""")
    assert got["listMarker"] == "none" and got["marker"] == "none", got
    assert got["newest"], got
