"""The end of a Quick Match table, in the browser: nobody is host, so each player is
offered new players (back to the queue, same game) instead of waiting for a host who does
not exist. The deal is prepared so that one play ends the game."""

from __future__ import annotations

import pytest
from browser_helpers import (
    DESKTOP,
    PHONE,
    catalog,
    create_room,
    cut_controls,
    join_as_guest,
    set_room,
    shot,
    wait_table,
)
from scripted import ScriptedTable

pytestmark = pytest.mark.browser

EN = catalog("en")

SETUP = {"hands": [["R1"], ["G5", "G6", "B2"]], "top": "R9", "draw": ["Y1", "Y2", "Y3", "Y4"],
         "first": 0}


def _one_play_game(*, preset, seats, seed, options):
    from colorclash.engine import new_game

    return new_game("color-clash", preset=preset, seats=seats, setup=SETUP, options=options)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from colorclash.server.config import Settings
    from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

    store = tmp_path_factory.mktemp("end") / "end.sqlite3"
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.05, quick_match_wait=0.3)
    srv = InProcessServer(f"sqlite:///{store}", settings=settings,
                          game_factory=_one_play_game).start()
    yield srv
    srv.stop()


def test_a_quick_match_table_ends_with_find_new_players(open_page):
    cat = catalog("en")
    first = open_page(DESKTOP)
    first.click("#btn-quick")
    first.wait_for_selector(".queue-box")
    second = open_page(PHONE)
    second.click("#btn-quick")
    for page in (first, second):
        wait_table(page, timeout=20_000)
    first.wait_for_function("window.__cc.view && window.__cc.view.turn === window.__cc.me")
    first.click(".hand .card[data-card='R1']")
    for page in (first, second):
        page.wait_for_selector(".results", timeout=10_000)
        text = page.inner_text(".results")
        assert cat["results.waitHost"].split("(")[0] not in text  # no host at a Quick Match table
        assert page.locator(".results button", has_text=cat["results.findPlayers"]).count() == 1
    second.click(f".results button:has-text('{cat['results.findPlayers']}')")
    second.wait_for_selector(".queue-box")  # queued again, for the same game
    assert second.evaluate("window.__cc.game") == "color-clash"
    assert second.evaluate("window.__cc.queue && window.__cc.queue.ticket")


def test_a_guest_who_goes_home_after_the_game_frees_the_seat_for_a_rematch(open_page):
    """Home on the results leaves the table: the host's Play again then reopens the lobby
    with that seat free, instead of dealing in an empty chair."""
    cat = catalog("en")
    host = open_page(DESKTOP)
    code = create_room(host, "Hana")
    set_room(host, seats=2)
    guest = open_page(PHONE)
    join_as_guest(guest, code, "Gus")
    guest.wait_for_selector("#btn-ready")
    guest.click("#btn-ready")
    host.wait_for_function(
        "() => document.querySelector('#btn-start').getAttribute('aria-disabled') === 'false'")
    host.click("#btn-start")
    wait_table(host)
    host.wait_for_function("window.__cc.view && window.__cc.view.turn === window.__cc.me")
    host.click(".hand .card[data-card='R1']")  # the prepared deal: this ends the game
    for page in (host, guest):
        page.wait_for_selector(".results", timeout=10_000)
    guest.click(f".results button:has-text('{cat['common.home']}')")
    guest.wait_for_selector("#btn-play-now")
    host.wait_for_function("window.__cc.room.seats[1].kind === 'empty'")
    assert guest.evaluate(f"localStorage.getItem('cc.seat.{code}')") is None
    host.click(f".results button:has-text('{cat['results.playAgain']}')")
    host.wait_for_function("window.__cc.room.status === 'lobby'")
    host.wait_for_selector("button[data-focus-key='seat:1:add-bot']")  # the seat can be filled


def test_the_waiting_line_stands_under_the_table_before_the_points_breakdown(open_page):
    """A guest's "Waiting for the host to start another game" came after Coloretto's long
    "how the points were made", out of a phone's view: the guest saw only Home."""
    page = open_page(PHONE)
    page.wait_for_selector("#btn-play-now")
    order = page.evaluate("""async () => {
        const r = await import('/js/shell/results.js');
        const { h } = await import('/js/ui.js');
        const details = h('div.breakdown', [...Array(30).keys()].map((i) => h('p', 'line ' + i)));
        const overlay = r.resultsDialog({phase: 'game_over', title: 'Game over', headline: 'Bo wins',
            placeLabel: 'Place', playerLabel: 'Player', columns: [], rows: [],
            details, status: h('p.status-line', 'waiting'), actions: []});
        document.body.append(overlay);
        const status = document.querySelector('.status-line');
        const table = document.querySelector('.results-scroll');
        const breakdown = document.querySelector('.breakdown');
        const before = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
        return {afterTable: before(table, status), beforeDetails: before(status, breakdown),
                seen: status.getBoundingClientRect().bottom <= window.innerHeight};
    }""")
    assert order == {"afterTable": True, "beforeDetails": True, "seen": True}, order


def test_the_results_can_be_put_aside_to_see_the_table(open_page):
    """On a phone the results covered the table and its Moves button, and neither a
    button nor Escape closed them: the last moves and the final table were never seen.
    "See the table" (or Escape) puts them aside; a Results button brings them back."""
    cat = catalog("en")
    page = open_page(PHONE)
    page.fill("#player-name", "Ana")
    page.select_option("#practice-bots", "1")
    page.click("#btn-practice")
    wait_table(page)
    page.wait_for_function("window.__cc.view && window.__cc.view.turn === window.__cc.me")
    page.click(".hand .card[data-card='R1']")  # the prepared deal: this ends the game
    page.wait_for_selector(".results-overlay[data-phase=game_over]")
    assert not cut_controls(page), cut_controls(page)
    shot(page, "results-see-table-phone")
    page.click(f".results button:has-text('{cat['results.seeTable']}')")
    page.wait_for_selector("#show-results")
    shot(page, "results-aside-phone")
    assert page.locator(".results-overlay").count() == 0
    assert page.evaluate("document.activeElement.id") == "show-results"
    page.click(".history-toggle")  # the moves, which the results had covered
    page.wait_for_selector("#history li")
    page.keyboard.press("Escape")
    page.click("#show-results")
    page.wait_for_selector(".results-overlay[data-phase=game_over]")
    page.keyboard.press("Escape")  # Escape puts them aside too
    page.wait_for_selector("#show-results")
    assert page.locator(".results-overlay").count() == 0


def test_a_guest_is_told_when_the_host_deals_a_new_game_over_the_results(open_page):
    """The host's Play again took the guest's results away at once and dealt a game whose
    clock already ran, without a word: now a toast says who started it."""
    from scripted import ScriptedTable

    setup = {"hands": [["R1"], ["G5", "G6", "B2"]], "top": "R9", "draw": ["Y1", "Y2"],
             "first": 0}
    table = ScriptedTable(open_page, preset="classic-table", seats=2, setup=setup,
                          viewport=PHONE)
    page = table.page
    table.room["host"] = 1  # the other seat hosts
    page.click(".hand .card[data-card='R1']")
    page.wait_for_selector(".results-overlay[data-phase=game_over]")
    assert page.locator(".toast").count() == 0 or not page.locator(".toast").is_visible()
    host = table.room["seats"][1]["name"]
    table.deal(seed=5)  # the host's Play again
    page.wait_for_function("window.__cc.room.match === 2")
    toast = page.locator(".toast")
    toast.wait_for()
    assert toast.inner_text().strip() == f"{host} started a new game.", toast.inner_text()


def test_alone_with_computers_the_rounds_results_can_be_held(open_page):
    """The round's results closed by themselves after a few seconds (WCAG 2.2.1; a11y
    QA): alone with computers the player may hold them (Wait: `"ready": false`, which
    the server answers with a minute more, again at each press); Wait is offered to the
    seats the clock names in `hold` (with another person at the table, none)."""
    setup = {"hands": [["R1"], ["G2", "G3", "B4"]], "top": "R9", "first": 0,
             "draw": ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]}
    table = ScriptedTable(open_page, preset="family", seats=2, setup=setup, viewport=PHONE)
    page = table.page
    table.clock = {"kind": "next", "seat": None, "seconds": 8, "remaining_ms": 8000,
                   "hold": [0]}  # the server names who may hold the pause
    page.click(".hand .card[data-card='R1']")
    hold = page.locator("button[data-focus-key='res:hold']")
    hold.wait_for()
    assert hold.inner_text().strip() == EN["results.hold"]
    shot(page, "round-results-hold")
    hold.click()
    assert {"v": 1, "type": "ready", "ready": False} in table.sent
    # Next round says ready, and the button waits for the others
    page.click("button[data-focus-key='res:next']")
    assert {"v": 1, "type": "ready", "ready": True} in table.sent
    nxt = page.locator("button[data-focus-key='res:next']")
    assert nxt.is_disabled() and nxt.inner_text().strip() == EN["results.waitingOthers"]
    # another person at the table, connected: nobody holds them up (no `hold`)
    table.room["seats"][1].update(kind="human", name="Bo", connected=True)
    table.room["seats"][1].pop("label", None)
    table.clock = {"kind": "next", "seat": None, "seconds": 8, "remaining_ms": 5000}
    table.send([])
    page.wait_for_function("!document.querySelector(\"button[data-focus-key='res:hold']\")")
    assert page.locator("button[data-focus-key='res:next']").count() == 1


def test_play_again_by_keys_leaves_the_focus_on_the_table(open_page):
    """Out of cards, the focus went to <main>; the results took it; Enter on Play again dealt
    the next game and left the focus on the page body, where the next Tab starts from the
    top of the page (keyboard review): it goes to the new table's most useful control."""
    from scripted import ScriptedTable

    setup = {"hands": [["R1"], ["G5", "G6", "B2"]], "top": "R9", "draw": ["Y1", "Y2"],
             "first": 0}
    table = ScriptedTable(open_page, preset="classic-table", seats=2, setup=setup,
                          viewport=DESKTOP)
    page = table.page
    page.wait_for_selector(".hand .card[data-card='R1']")
    page.evaluate("document.querySelector('main').focus()")  # (as when the hand emptied)
    table.send([])  # a redraw with the focus there
    page.wait_for_timeout(200)
    table.act(0, next(a for a in table.game.legal_actions(0) if a.get("card") == "R1"))
    page.wait_for_selector(".results-overlay[data-phase=game_over]")
    page.wait_for_function("document.activeElement.dataset.focusKey === 'res:again'")
    table.answer = False  # (the next game dealt below: the other seat begins it)
    page.keyboard.press("Enter")
    for _ in range(50):
        if table.sent[-1]["type"] == "start":
            break
        page.wait_for_timeout(50)
    assert table.sent[-1]["type"] == "start", table.sent[-1]
    table.deal(setup={"hands": [["R2", "B3"], ["G5", "G6", "B2"]], "top": "R9",
                      "draw": ["Y1", "Y2"], "first": 1})
    page.wait_for_function("window.__cc.room.match === 2 && !document.querySelector('.results-overlay')")
    page.wait_for_timeout(200)
    where = page.evaluate("""() => { const a = document.activeElement;
      return { body: a === document.body, inMain: !!a.closest('main'), key: a.dataset.focusKey || a.tagName }; }""")
    assert not where["body"] and where["inMain"], where
