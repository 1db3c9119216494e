"""Every screen at phone and desktop sizes: screenshots (test-artifacts/screenshots/) and
an axe-core check with no serious or critical violations."""

from __future__ import annotations

import pytest
from browser_helpers import (
    DESKTOP,
    PHONE,
    axe_check,
    catalog,
    create_room,
    cut_controls,
    shot,
    wait_table,
)

from colorclash.engine import GAMES

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.mark.parametrize("size", SIZES)
def test_home_room_table_screens(open_page, size):
    page = open_page(SIZES[size])
    page.wait_for_selector("#btn-play-now")
    # touch targets: every button and field on the home screen is at least 44 px tall
    heights = page.locator("main button, main select, main input").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44, heights
    # no horizontal scrolling of the page itself at 360 px
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, f"home-{size}", full_page=True)
    axe_check(page, f"home-{size}")

    page.fill("#player-name", "Dana")
    page.click("#btn-create")
    page.wait_for_selector("#room-code")
    page.wait_for_selector("img.qr")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, f"room-host-{size}", full_page=True)
    axe_check(page, f"room-{size}")
    code = page.inner_text("#room-code").strip()

    # the invite link, opened by someone without a seat, shows the join screen
    other = open_page(SIZES[size], path=f"/r/{code}")
    other.wait_for_selector("#btn-join-room")
    shot(other, f"join-{size}")
    axe_check(other, f"join-{size}")

    table = open_page(SIZES[size])
    table.click("#btn-play-now")
    wait_table(table)
    table.wait_for_timeout(300)
    assert table.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(table, f"table-{size}")
    axe_check(table, f"table-{size}")
    # touch targets on the table: buttons, the draw pile, and the visible part of each
    # (overlapping) card in the hand are at least 44 px
    boxes = table.locator(".actions button, .draw-pile-btn").evaluate_all(
        "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
    )
    assert boxes and min(min(b) for b in boxes) >= 44, boxes
    lefts = table.locator(".hand li").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().left)"
    )
    steps = [b - a for a, b in zip(lefts, lefts[1:], strict=False)]
    assert steps and min(steps) >= 44, steps
    # cards carry an accessible name with colour and shape, and playable ones say so
    labels = table.locator(".hand .card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert labels and all(lab for lab in labels)
    assert any(
        shape in " ".join(labels) for shape in ("circle", "square", "triangle", "diamond")
    )


@pytest.mark.parametrize(
    "scene",
    # (the leave dialog, the long hand, the history, How to play: axe in their own tests)
    ["siege", "day-night", "window", "drawn", "color", "round-over", "game-over", "quick",
     "day-night-6", "faces", "coloretto-last", "coloretto-2"],
)
def test_rare_table_states_from_dev_scenes(open_page, scene):
    """States that a short game rarely reaches (stacks, shields, fuse, call window, Day &
    Night faces, the colour chooser, round results), rendered from fake engine views."""
    phone = ("day-night", "window", "day-night-6", "faces", "coloretto-last")
    page = open_page(PHONE if scene in phone else DESKTOP,
                     path=f"/dev.html?scene={scene}")
    page.wait_for_function("window.__devReady === true")
    shot(page, f"scene-{scene}")
    axe_check(page, f"scene-{scene}")


def test_the_end_of_each_kind_of_table_offers_a_way_on(open_page):
    """The host plays again; a guest waits for the host; a Quick Match table has no host,
    so each player is offered new players instead of waiting for ever."""
    cat = catalog("en")
    page = open_page(PHONE, path="/dev.html?scene=game-over")
    page.wait_for_function("window.__devReady === true")
    assert page.locator(".results button", has_text=cat["results.playAgain"]).count() == 1
    page.goto("/dev.html?scene=game-over-guest")
    page.wait_for_function("window.__devReady === true")
    # the host named (one who changed at the results was still "the host": a review)
    waiting = cat["results.waitHost"].replace("{name}", "Ana")  # (the dev rooms' host)
    assert waiting in page.inner_text(".results")
    page.goto("/dev.html?scene=game-over-quick")
    page.wait_for_function("window.__devReady === true")
    assert cat["results.waitHost"].split("(")[0] not in page.inner_text(".results")
    assert page.locator(".results button", has_text=cat["results.findPlayers"]).count() == 1


def test_a_game_a_computer_substitute_ended_says_why_nobody_won(open_page):
    """A substitute that goes out first scores nothing and wins nothing (spec 9): the
    results say so, and tell it apart from a round nobody could finish."""
    cat = catalog("en")
    page = open_page(PHONE, path="/dev.html?scene=game-over-substitute")
    page.wait_for_function("window.__devReady === true")
    text = page.inner_text(".results")
    assert cat["results.howSubstitute"] in text and cat["results.howNobody"] not in text
    page.goto("/dev.html?scene=game-over-guest")  # nobody went out at all
    page.wait_for_function("window.__devReady === true")
    assert cat["results.howNobody"] in page.inner_text(".results")


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
@pytest.mark.parametrize("scene", ["game-over", "game-over-quick"])
def test_the_results_buttons_read_on_one_line_on_a_desktop(open_page, scene, lang):
    """"Jugar otra vez" broke over two lines of its 195 px button, and a Quick Match's
    "Yeni oyuncular bul" over three: each label now fits its button, the three of one
    size."""
    page = open_page(DESKTOP, path=f"/dev.html?scene={scene}&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate("""() => [...document.querySelectorAll('.results .dialog-actions .btn')]
      .map((b) => { const r = document.createRange(); r.selectNodeContents(b);
        const box = b.getBoundingClientRect();
        return [b.textContent, new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size,
                Math.round(box.width), Math.round(box.height)]; })""")
    want = 4 if scene == "game-over" else 3  # (a private room's host: Back to room too)
    assert len(got) == want and all(lines == 1 for _, lines, _, _ in got), got
    assert len({(w, h) for _, _, w, h in got}) == 1, got


PHONE_640 = {"width": 360, "height": 640}


def test_a_lone_computer_is_named_once_in_the_results(open_page):
    """A duel's or a table's one computer read "Computer [Computer]" in the results (its
    name is the label); computers numbered among themselves keep the tag."""
    cat = catalog("en")
    rows = """() => [...document.querySelectorAll('.results-table tbody th.player')].map((th) => {
      const name = [...th.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
      return [name, [...th.querySelectorAll('.tag.bot')].map((t) => t.textContent)]; })"""
    page = open_page(DESKTOP, path="/dev.html?scene=game-over&lang=en")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(rows)
    assert [cat["seat.computer"], []] in got, got
    page.goto("/dev.html?scene=game-over-6&lang=en")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(rows)
    numbered = [tags for name, tags in got if name.startswith(cat["seat.computer"] + " ")]
    assert numbered and all(tags == [cat["seat.computerLabel"]] for tags in numbered), got
    # on a phone the numbered ones leave it out (their names say it), and the six rows fit
    # above the buttons (the sixth went under them: player QA)
    for lang, size in (("en", PHONE_640), ("tr", PHONE_640), ("es", {"width": 844, "height": 390})):
        page.set_viewport_size(size)
        page.goto(f"/dev.html?scene=game-over-6-bots&lang={lang}")
        page.wait_for_function("window.__devReady === true")
        fit = page.evaluate("""() => {
          const rows = [...document.querySelectorAll('.results-table tbody tr')];
          const buttons = document.querySelector('.results .dialog-actions').getBoundingClientRect();
          return {rows: rows.length, last: rows[rows.length - 1].getBoundingClientRect().bottom,
                  buttons: buttons.top,
                  tags: [...document.querySelectorAll('.results-table .tag.bot')]
                    .filter((t) => t.getClientRects().length).length}; }""")
        assert fit["rows"] == 6 and fit["tags"] == 0, (lang, fit)
        if size is PHONE_640:  # (sideways, the dialog scrolls: no screen holds six rows)
            assert fit["last"] <= fit["buttons"], (lang, fit)


def test_who_went_home_from_the_results_keeps_their_name_there(open_page):
    """A person who left after the end freed their seat, and the others' results, seat
    chips and history renamed them "Seat 3": the seat's ``former`` name stands."""
    cat = catalog("en")
    page = open_page(PHONE, path="/dev.html?scene=game-over-gone")
    page.wait_for_function("window.__devReady === true")
    results = page.inner_text(".results")
    assert "Bo" in results, results
    assert cat["seat.n"].replace("{n}", "3") not in page.inner_text("body")
    # and the others are told Bo left (the host pressed Play again for a table short
    # of a player)
    row = page.locator(".results-table tbody tr", has_text="Bo")
    assert row.locator(".tag.away").inner_text() == cat["seat.left"]
    assert page.locator(".results-table .tag.away").count() == 1


def test_the_host_removes_a_guest_from_the_lobby(open_page):
    """A seat taken by someone who never came (or anyone with the code) held a lobby for
    good; the host now frees it, and the guest is told why the table closed."""
    host = open_page()
    code = create_room(host, "Dana")
    guest = open_page(path=f"/r/{code}", locale="es-ES")
    guest.fill("#join-name", "Eli")
    guest.click("#btn-join-room")
    guest.wait_for_selector("#room-code")
    button = host.locator('[data-focus-key="seat:1:rm-player"]')
    button.wait_for()
    assert "Eli" in button.get_attribute("aria-label")
    assert host.locator('[data-focus-key="seat:0:rm-player"]').count() == 0  # not yourself
    shot(host, "room-host-guest")
    # asked first (a mis-tap on a phone took a friend off the table: a lobby review);
    # Cancel, the dialog's first choice, keeps them
    button.click()
    dialog = host.get_by_role("dialog")
    dialog.wait_for()
    assert dialog.inner_text().startswith(catalog("en")["room.removeTitle"].replace("{name}", "Eli"))
    assert host.evaluate("document.activeElement.dataset.focusKey") == "remove:no"
    shot(host, "room-remove-asked")
    host.keyboard.press("Enter")
    dialog.wait_for(state="detached")
    assert host.locator('li.seat-row[data-seat="1"][data-kind="human"]').count() == 1
    button.click()
    host.click("[data-focus-key='remove:yes']")
    host.wait_for_selector('li.seat-row[data-seat="1"][data-kind="empty"]')
    guest.wait_for_function(
        "document.body.innerText.includes('El anfitrión te quitó de esta mesa')")
    axe_check(guest, "removed")
    # the link lets them join again: offered here, not Home alone (player QA)
    assert guest.inner_text("#btn-fatal-retry") == catalog("es")["join.again"]
    guest.click("#btn-fatal-retry")
    guest.fill("#join-name", "Eli")
    guest.click("#btn-join-room")
    guest.wait_for_selector("#room-code")
    host.wait_for_selector('li.seat-row[data-seat="1"][data-kind="human"]')


def test_a_host_by_absence_is_offered_no_removal_of_the_host_away(open_page):
    """The server keeps the seat of the host whose part passed while they were away
    (``host_away``): the lobby offers no Remove for it, and still for another guest."""
    page = open_page(PHONE, path="/dev.html?scene=room-host-away")
    page.wait_for_function("window.__devReady === true")
    assert page.locator('[data-focus-key="seat:3:rm-player"]').count() == 1
    assert page.locator('[data-focus-key="seat:0:rm-player"]').count() == 0


def test_the_line_under_the_piles_keeps_the_newest_move_whole(open_page):
    """A moment that says more than the line holds on a phone gives up its oldest parts:
    "… Bo drew the stack: 4 cards", not a line cut in the middle of the newest."""
    page = open_page({"width": 360, "height": 740}, path="/dev.html?scene=siege&lang=es")
    page.wait_for_function("window.__devReady === true")
    line = page.locator(".last-move")
    text = line.inner_text()
    assert text.startswith("… ") and text.endswith("4 cartas"), text
    assert line.evaluate("e => e.scrollHeight <= e.clientHeight + 1")
    page.set_viewport_size({"width": 1280, "height": 800})  # room again: the whole moment
    page.wait_for_function(
        "!document.querySelector('.last-move').textContent.startsWith('…')")
    assert "escudo" in line.inner_text()


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844},
                                      {"width": 360, "height": 640}])
@pytest.mark.parametrize("locale", ["en-US", "es-ES", "tr-TR"])
def test_play_now_is_on_the_first_screen(open_page, viewport, locale):
    """Play Now was below the first screen on a 1280×800 desktop and a 390×844 phone: the
    game picker's cards each held their whole description. Now they are small, the chosen
    game's description under them; every description is still its radio's. On a 360×640
    phone it started at 672 px: there the name sits beside its label, the button comes
    before what it deals, and "Play Color Clash" is only heard."""
    page = open_page(viewport, locale=locale)
    page.wait_for_selector("#btn-play-now")
    box = page.locator("#btn-play-now").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    about = page.evaluate("""() => [...document.querySelectorAll('.game-choice input')].map((r) => {
        const d = document.getElementById(r.getAttribute('aria-describedby'));
        return d ? d.textContent.trim() : ''; })""")
    assert len(about) == len(GAMES) and all(about), about
    chosen = page.inner_text(".game-chosen-about > span").strip()
    assert chosen and chosen in about[0], (chosen, about)
    page.click(".game-choice[data-game='coloretto']")
    page.wait_for_function("document.querySelector('.game-choice.chosen').dataset.game === 'coloretto'")
    assert page.inner_text(".game-chosen-about > span").strip() in about[1]
    # whichever game is chosen, with its words and its "How to play" link (Spanish
    # Coloretto's four lines put Play Now's bottom under a 360x640 screen: touch review)
    for game in ("coloretto", "rainbow"):
        page.click(f".game-choice[data-game='{game}']")
        page.wait_for_function(f"document.querySelector('.game-choice.chosen').dataset.game === '{game}'")
        box = page.locator("#btn-play-now").bounding_box()
        assert box["y"] + box["height"] <= viewport["height"], (game, box)
    assert not cut_controls(page), cut_controls(page)
    shot(page, f"home-fold-{viewport['width']}-{locale}")
    # so with a fourth game (a copy of a card stands in for it): a fourth card on a second
    # row put Play Now under the first screen (a seam review that added a game)
    page.evaluate("""() => { const list = document.querySelector('.game-choices');
      list.append(list.children[0].cloneNode(true)); }""")
    box = page.locator("#btn-play-now").bounding_box()
    assert box["y"] + box["height"] <= viewport["height"], ("a fourth game", box)


def test_the_home_page_starts_the_keyboard_at_the_top(open_page):
    """A visitor's first Tab on the home page reaches the skip link, then the top bar's
    language menu, as on any page; the focus used to sit on <main>, which put both after
    the whole page. A screen reached later (leaving a table, say) still takes the focus."""
    page = open_page(DESKTOP)
    page.wait_for_selector("#btn-play-now")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    seen = []
    for _ in range(6):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement.id"))
        if seen[-1] == "lang-select":
            break
    assert "lang-select" in seen, seen
    # Enter on the skip link still goes to the content
    page.focus(".skip-link")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.getElementById('main').contains(document.activeElement)")
    # a screen after the first one takes the focus: the table, its most useful control
    page.click("#btn-play-now")
    wait_table(page)
    page.wait_for_function("document.activeElement.closest('.table, [data-focus-key]') !== null"
                           " && document.activeElement.id !== 'main'")


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("locale", ["tr-TR", "es-ES", "en-US"])
@pytest.mark.parametrize("more_games", [0, 1])
def test_the_game_pickers_names_break_only_between_words(open_page, width, locale, more_games):
    """On a 360 px phone in Turkish "Gökkuşağı" broke before its last letter ("Gökkuşağ" /
    "ı"): a name wraps between its words, never inside one. So with a fourth game (a
    copy of a card stands in for it): "Coloretto" broke into "Colorett" / "o"."""
    page = open_page({"width": width, "height": 640}, locale=locale)
    page.wait_for_selector(".game-name")
    page.evaluate("""(n) => { const list = document.querySelector('.game-choices');
      for (let i = 0; i < n; i++) list.append(list.children[i].cloneNode(true)); }""",
                  more_games)
    names = page.evaluate("""() => [...document.querySelectorAll('.game-name')].map((e) => {
      const r = document.createRange();
      r.selectNodeContents(e);
      const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
      return [e.textContent, lines, e.textContent.trim().split(/\\s+/).length];
    })""")
    assert len(names) == len(GAMES) + more_games, names
    assert all(lines <= words for _, lines, words in names), names


@pytest.mark.parametrize("viewport", [{"width": 844, "height": 390}, {"width": 700, "height": 900},
                                      DESKTOP, {"width": 360, "height": 640}])
@pytest.mark.parametrize("locale", ["tr-TR", "es-ES", "en-US"])
@pytest.mark.parametrize("more_games", [0, 1, 3])
def test_the_game_pickers_cards_hold_their_words(open_page, viewport, locale, more_games):
    """On a phone held sideways in Spanish "De 2 a 6 jugadores" ran over its card's
    border and Coloretto's was cut to "De 2 a 5 jugadore": every word is inside its card.
    So with more games than three (a fourth game cut "Coloretto" to "Colore" on a desktop:
    a seam review; the others stand in for the games added, by copies of their cards)."""
    page = open_page(viewport, locale=locale)
    page.wait_for_selector(".game-seats")
    page.evaluate("""(n) => { const list = document.querySelector('.game-choices');
      const cards = [...list.children];
      for (let i = 0; i < n; i++) list.append(cards[i % cards.length].cloneNode(true)); }""",
                  more_games)
    out = page.evaluate("""() => [...document.querySelectorAll('.game-choice')].flatMap((card) => {
      const box = card.getBoundingClientRect();
      return [...card.querySelectorAll('.game-name, .game-seats')].filter((e) => {
        const r = document.createRange(); r.selectNodeContents(e);
        const t = r.getBoundingClientRect();
        return t.right > box.right - 2 || e.scrollWidth > e.clientWidth + 1;
      }).map((e) => e.textContent); })""")
    assert out == [], out


# The chosen choice of every menu on the page, and the room it has: the text's width
# measured in the menu's own font, against the menu's width less its padding and arrow.
SELECTS_CUT = """() => [...document.querySelectorAll('select')].filter((s) => s.offsetParent)
  .map((s) => {
    const cs = getComputedStyle(s);
    const c = document.createElement('canvas').getContext('2d');
    c.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = s.options[s.selectedIndex].text;
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16;
    return [s.id, text, Math.ceil(c.measureText(text).width), Math.floor(room)];
  }).filter(([, , need, room]) => need > room)"""


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, DESKTOP])
@pytest.mark.parametrize("locale", ["tr-TR", "es-ES", "en-US"])
def test_no_menu_on_the_home_page_cuts_its_choice(open_page, viewport, locale):
    """The private room's "Scoring side" showed "Kahver…" (tr) and "Brown s…" (en) beside
    the turn clock: a long choice takes a line of its own."""
    page = open_page(viewport, locale=locale)
    for game in ("coloretto", "color-clash", "rainbow"):
        page.click(f"label[data-game={game}]")
        page.wait_for_selector("#btn-play-now")
        assert page.evaluate(SELECTS_CUT) == [], game
    # the longest choice of a match's length, in Practice and a room ("El primero en
    # llegar a 500 p…" at 360 px)
    page.click("label[data-game=color-clash]")
    for form in ("practice", "room"):
        page.select_option(f"#{form}-preset", "standard")
        page.select_option(f"#{form}-opt-match", "500")
    assert page.evaluate(SELECTS_CUT) == []


@pytest.mark.parametrize("lang", ["es", "en", "tr"])
def test_a_six_seat_tables_results_show_every_place_on_a_small_phone(open_page, lang):
    """At 360x640 three stacked buttons of 62 px covered places 5 and 6, and half of the
    4th, of a six-seat table's results, with no sign that the list scrolled. Play again
    now goes across, Home and See the table side by side under it, each 44 px or more."""
    page = open_page({"width": 360, "height": 640}, path=f"/dev.html?scene=game-over-6&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    page.wait_for_selector(".results-overlay")
    got = page.evaluate("""() => {
      const rows = [...document.querySelectorAll('.results-table tbody tr')].map((r) => r.getBoundingClientRect());
      const btns = [...document.querySelectorAll('.results-overlay .dialog-actions .btn')].map((b) => b.getBoundingClientRect());
      const top = Math.min(...btns.map((b) => b.top));
      return {rows: rows.length, hidden: rows.filter((r) => r.bottom > top + 1 || r.top < 0).length,
              buttons: btns.map((b) => [Math.round(b.width), Math.round(b.height)])};
    }""")
    shot(page, f"results-six-360-{lang}")
    assert got["rows"] == 6 and got["hidden"] == 0, got
    # (a private room's host: Play again and Back to room, Home and See the table, two by two)
    assert len(got["buttons"]) == 4 and min(h for _, h in got["buttons"]) >= 44, got
    assert not cut_controls(page), cut_controls(page)


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, DESKTOP])
def test_a_matchs_results_show_every_rounds_points(open_page, viewport):
    """A three-round match's results showed "This round" and "Total" only: the first two
    rounds' points could no longer be seen. They show each round's, in order, on one line,
    and the table still fits a phone without scrolling sideways."""
    page = open_page(viewport, path="/dev.html?scene=match-over&lang=en")
    page.wait_for_function("window.__devReady === true")
    page.wait_for_selector(".results-overlay")
    en = catalog("en")
    heads = page.locator(".results-table thead th").all_inner_texts()
    assert en["results.eachRound"] in [h.replace("\n", " ") for h in heads], heads
    assert en["results.roundPoints"] not in heads
    cells = page.evaluate("""() => [...document.querySelectorAll('.results-table tbody tr')].map((r) => {
      const c = r.querySelector('.round-points');
      return [r.querySelector('th.player').textContent, c.textContent, c.getClientRects().length];
    })""")
    by_name = {name.split(" ")[0].replace("you", ""): (text, lines) for name, text, lines in cells}
    assert by_name["Ana"] == ("30\u2009·\u200990\u2009·\u20090", 1), cells  # round by round, one line
    fits = page.evaluate("(() => { const s = document.querySelector('.results-scroll');"
                         " return s.scrollWidth <= s.clientWidth + 1; })()")
    shot(page, f"results-match-{viewport['width']}")
    assert fits


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_between_rounds_the_places_are_the_matchs_standings(open_page, lang):
    """Between the rounds of a match the table was ordered by the round's places: the
    match's leader (132 points) stood second under "Place" behind the round's winner (30).
    The places are the standings by the match's points, equal points share a place, and
    the round's winner is tagged as such."""
    page = open_page({"width": 390, "height": 844},
                     path=f"/dev.html?scene=round-over-standings&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    page.wait_for_selector(".results-overlay")
    rows = page.evaluate("""() => [...document.querySelectorAll('.results-table tbody tr')]
      .map((r) => [r.querySelector('td.place, th.place, .place').textContent.trim(),
                   r.querySelector('th.player').textContent,
                   [...r.querySelectorAll('td')].pop().textContent.trim()])""")
    shot(page, f"results-standings-{lang}")
    assert [(place, total) for place, _, total in rows] == [
        ("1", "132"), ("2", "30"), ("3", "0"), ("3", "0")], rows
    assert rows[0][1].startswith("Bo") and rows[1][1].startswith("Ana"), rows
    tag = catalog(lang)["results.roundWinnerTag"]
    assert tag in rows[1][1] and tag not in rows[0][1], rows


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_leave_table_reads_on_one_line_on_a_phone(open_page, lang, width):
    """"Dejar la mesa" and "Masadan ayrıl" broke over two lines of their button at 360 px
    (54 px tall, the bar's only two-line control)."""
    page = open_page({"width": width, "height": 640}, path=f"/dev.html?scene=table&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate("""() => { const b = document.querySelector('#leave-table');
      const r = document.createRange(); r.selectNodeContents(b);
      return {text: b.textContent, height: b.getBoundingClientRect().height,
              lines: new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size,
              spills: b.scrollWidth > b.clientWidth + 1,
              pageWider: document.documentElement.scrollWidth > innerWidth}; }""")
    assert got["text"] == catalog(lang)["table.leave"], got
    assert got["lines"] == 1 and got["height"] <= 48 and not got["spills"], got
    assert not got["pageWider"], got


def test_the_top_bars_controls_are_a_fingers_size_on_a_phone(open_page):
    """On a phone the brand link shows its logo alone: it was 28x44 px, under the 44 px a
    finger needs (WCAG 2.5.5). Every control of the top bar is 44x44 at least, at home
    and at a table."""
    page = open_page({"width": 360, "height": 640})
    page.wait_for_selector("#btn-play-now")
    sizes = """() => [...document.querySelectorAll('.topbar a, .topbar button, .topbar select')]
        .filter((e) => e.getClientRects().length)
        .map((e) => [e.id || e.className, e.getBoundingClientRect().width,
                     e.getBoundingClientRect().height])"""
    home = page.evaluate(sizes)
    page.click("#btn-play-now")
    page.wait_for_selector(".hand .card")
    table = page.evaluate(sizes)
    assert {n for n, _, _ in home} >= {"brand", "lang-select"}, home
    assert {n for n, _, _ in table} >= {"brand", "rules-btn", "lang-select"}, table
    small = [(n, w, h) for n, w, h in home + table if min(w, h) < 44]
    assert not small, small
    # and none of them is pushed onto two lines ("Leave table" was, by a wider brand)
    tall = [(n, w, h) for n, w, h in home + table if h > 48]
    assert not tall, tall
    brand = page.locator("#brand").bounding_box()
    assert brand["x"] >= 0, brand  # its box reaches the bar's edge, not past the screen


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_an_address_that_is_nothing_says_so_with_the_way_home(open_page, locale):
    """A mistyped address was the server's raw JSON (`{"error": ...}`), and the client
    drew its home page under any address: it says the page is not found, in the
    visitor's language, with the way home."""
    page = open_page(PHONE, locale=locale, path="/rooms/KXMPTR")
    page.wait_for_selector("main h1")
    words = catalog(locale[:2])
    assert page.inner_text("main h1") == words["notFound.title"]
    assert page.title().startswith(words["notFound.title"])
    shot(page, f"not-found-{locale[:2]}")
    axe_check(page, f"not-found-{locale[:2]}")
    page.get_by_role("button", name=words["common.home"]).click()
    page.wait_for_selector("#btn-play-now")
    assert page.evaluate("location.pathname") == "/"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_in_forced_colours_the_cards_and_colour_buttons_keep_their_colours(open_page, scheme):
    """With forced colours (Windows High Contrast) the system's colours replaced the
    page's: a colour button showed a white shape on a background taken away (Red, Blue
    and Green blank), Rainbow's backs were blank, and a card lost its frame (a11y QA).
    Cards and colour buttons keep their colours, framed in the system's text colour."""
    page = open_page(DESKTOP, path="/dev.html?scene=choose&lang=en")
    page.emulate_media(forced_colors="active", color_scheme=scheme)
    page.wait_for_function("window.__devReady === true")
    page.locator(".color-btn.c-R").wait_for()
    red = page.locator(".color-btn.c-R").evaluate("e => getComputedStyle(e).backgroundColor")
    card = page.locator(".hand .card").first.evaluate(
        "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).outlineStyle]")
    shot(page, f"forced-colours-{scheme}")
    assert red == "rgb(211, 47, 47)", red  # the page's red (--red)
    assert card[1] == "solid", card
    for path, selector in [("/dev.html?scene=coloretto&lang=en", ".ccard"),
                           ("/dev.html?scene=table&lang=en", ".discard .card")]:
        page.goto(path)
        page.wait_for_function("window.__devReady === true")
        adjust = page.locator(selector).first.evaluate(
            "e => getComputedStyle(e).forcedColorAdjust")
        assert adjust == "none", (path, adjust)
