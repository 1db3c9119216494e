"""Coloretto in real Chromium: the game picker, whole games against computer players on a
phone and a desktop (clicks only), a private room with two people, the language switch and
the keyboard on the table."""

from __future__ import annotations

import re
import time

import pytest
from browser_helpers import (
    DESKTOP,
    PHONE,
    all_catalogs,
    axe_check,
    cut_controls,
    set_room,
    shot,
)
from scripted import ScriptedTable

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 640}

# the page's own state: the view the server sent, the seat
VIEW = "window.__cc.view"


def _click(page, locator, seq: int) -> bool:
    """Click, then wait (a little) for the server's next state: no second click on a
    table that has not moved yet."""
    try:
        locator.click(timeout=600)
    except Exception:  # noqa: BLE001 - the table changed under the click: try again
        return False
    try:
        page.wait_for_function(f"() => window.__cc.seq !== {seq}", timeout=2000)
    except Exception:  # noqa: BLE001 - refused or slow: the next step looks again
        pass
    return True


def step(page) -> str:
    """One thing a player does on a Coloretto table, by clicking: put the drawn card in the
    first row that takes it; take a row once one holds two cards (or when drawing is not
    possible); else draw. Returns what was done ("results" at the end, "" if nothing)."""
    if page.locator(".results-overlay[data-phase=game_over]").count():
        return "results"
    state = page.evaluate("({view: window.__cc.view, me: window.__cc.me, seq: window.__cc.seq})")
    view, seq = state["view"], state["seq"]
    if not view or view["turn"] != state["me"] or not view["legal"]:
        return ""
    types = {a["type"] for a in view["legal"]}
    if "place" in types:
        return "place" if _click(page, page.locator(".ct-row.can-place").first, seq) else ""
    rich = [a["row"] for a in view["legal"]
            if a["type"] == "take" and len(view["rows"][a["row"]]["cards"]) >= 2]
    if rich or "draw" not in types:
        row = rich[0] if rich else next(a["row"] for a in view["legal"] if a["type"] == "take")
        return "take" if _click(page, page.locator(f".ct-row[data-row='{row}']"), seq) else ""
    return "draw" if _click(page, page.locator(".ct-draw"), seq) else ""


def play_to(pages, done, timeout: float = 120.0) -> dict[str, int]:
    """Click through the game on every page until done(page) holds on each."""
    pages = list(pages)
    finished: set[int] = set()
    counts: dict[str, int] = {}
    end = time.monotonic() + timeout
    while len(finished) < len(pages):
        assert time.monotonic() < end, f"not done after {timeout} s: {counts}"
        idle = True
        for i, page in enumerate(pages):
            if i in finished:
                continue
            if done(page):
                finished.add(i)
                continue
            what = step(page)
            if what and what != "results":
                idle = False
                counts[what] = counts.get(what, 0) + 1
        if idle:
            pages[0].wait_for_timeout(50)
    return counts


def game_over(page) -> bool:
    return page.locator(".results-overlay[data-phase=game_over]").count() > 0


def check_table(page, name: str) -> None:
    """The table fits the window (no page scroll, nothing cut) and its live scores are
    the view's; each row says what can be done with it."""
    page.wait_for_selector(".table-screen.ct")
    fits = page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight + 1"
                         " && document.scrollingElement.scrollWidth <= window.innerWidth")
    assert fits, f"{name}: the page scrolls"
    assert not cut_controls(page), cut_controls(page)
    # The computer players go on playing meanwhile: the scores shown and the rows are
    # compared with the view in one go, and must agree once the table has drawn it.
    same = f"""() => {{ const v = {VIEW}, me = window.__cc.me;
        // each score says it is one ("42 pts", but for the smallest phones): a bare number
        // was taken for cards held
        const shown = [...document.querySelectorAll('.ct-player .ct-score')]
            .map(e => e.querySelector('.ct-score-unit')?.textContent.trim() ? parseInt(e.innerText, 10) : NaN);
        const want = [...Array(v.seats - 1).keys()].map(k => v.scores[(me + k + 1) % v.seats]);
        return JSON.stringify(shown) === JSON.stringify(want)
            && document.querySelectorAll('.ct-row').length === v.rows.length; }}"""
    try:
        page.wait_for_function(same, timeout=5000)
    except Exception as exc:
        raise AssertionError(page.evaluate(f"""() => ({{view: {VIEW},
            shown: [...document.querySelectorAll('.ct-player .ct-score')].map(e => e.innerText),
            rows: document.querySelectorAll('.ct-row').length}})""")) from exc
    # every row, card and collection is named for screen readers (colour and shape)
    labels = page.locator(".ct-row").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert all(labels), labels


@pytest.mark.parametrize(("size", "bots"), [("phone", 4), ("desktop", 1)])
def test_practice_whole_game(open_page, size, bots):
    """Practice against computer players (5 seats on a phone, 2 on a desktop), played to
    the end by clicking; the results lay out how each player's points were made."""
    page = open_page(SMALL_PHONE if size == "phone" else DESKTOP)
    page.fill("#player-name", "Ana")
    page.click("label[data-game=coloretto]")
    page.select_option("#practice-bots", str(bots))
    page.select_option("#practice-level", "random")
    page.click("#btn-practice")
    page.wait_for_selector(".table-screen.ct")
    assert re.search(r"/r/[A-Z]{6}$", page.url)
    assert page.evaluate("window.__cc.room.game") == "coloretto"
    assert page.locator(".ct-player").count() == bots
    # the focus lands on a control of the table, never the page
    assert page.evaluate("document.activeElement.closest('.table-screen') !== null")
    check_table(page, f"{size}-start")
    shot(page, f"coloretto-table-{size}")
    axe_check(page, f"coloretto-table-{size}")
    counts = play_to([page], lambda p: p.locator(".ct-player").count() and (
        game_over(p) or p.evaluate(f"{VIEW}.round") >= 3))
    check_table(page, f"{size}-round3")
    counts2 = play_to([page], game_over, timeout=150)
    assert counts.get("place", 0) + counts2.get("place", 0) > 0, (counts, counts2)
    view = page.evaluate(VIEW)
    result = view["result"]
    dialog = page.locator(".results-overlay [role=dialog]")
    assert "Game over" in dialog.inner_text()
    rows = page.locator(".results-table tbody tr")
    assert rows.count() == bots + 1
    points = [int(rows.nth(i).locator("td").last.inner_text()) for i in range(rows.count())]
    assert points == sorted(result["scores"], reverse=True)
    # how the points were made: a section per player, its total the player's score, a
    # plus item for each positive colour (with its jokers), minus for the others
    for seat, layout in enumerate(result["scoring"]):
        section = page.locator(f".ct-bd[data-seat='{seat}']")
        assert f": {layout['total']} " in section.locator("h3").inner_text() + " "
        plus = section.locator(".ct-bd-item.plus:not(.plus2)")
        assert sorted(plus.evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(
            layout["positive"])
        minus = section.locator(".ct-bd-item.minus")
        assert sorted(minus.evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(
            layout["negative"])
        jokers = section.locator(".ct-bd-item").evaluate_all(
            "els => Object.fromEntries(els.filter(e => e.dataset.jokers && e.dataset.jokers !== '0')"
            ".map(e => [e.dataset.card, Number(e.dataset.jokers)]))")
        assert jokers == layout["jokers"]
    # and why the game ended: the last-round card came up, so this round was the last
    assert view["last_round"]
    assert f"so round {view['round']} was the last" in dialog.inner_text()
    shot(page, f"coloretto-results-{size}")
    axe_check(page, f"coloretto-results-{size}")


def test_game_picker_and_a_private_coloretto_room(open_page, server):
    """The home page offers every game of GET /api/games by its name; choosing Coloretto
    (remembered) opens a Coloretto room with the chosen scoring side; a second person joins
    by code in Spanish, and both play through the first round."""
    host = open_page(DESKTOP)
    host.wait_for_selector("#btn-play-now")
    games = host.evaluate("fetch('/api/games').then(r => r.json())")["games"]
    en = all_catalogs("en")
    choices = host.locator(".game-choice")
    assert choices.evaluate_all("els => els.map(e => e.dataset.game)") == [g["key"] for g in games]
    names = host.locator(".game-choice .game-name").all_inner_texts()
    assert names == [en.get(f"{g['key']}.name") or en[f"game.{g['key']}.name"] for g in games]
    assert host.is_checked("#game-color-clash")  # the server's default on a first visit
    host.click("label[data-game=coloretto]")
    assert host.is_checked("#game-coloretto")
    # the chosen game's choices: its computer levels, seat range, options
    levels = host.locator("#practice-level option").evaluate_all("els => els.map(e => e.value)")
    assert levels == next(g for g in games if g["key"] == "coloretto")["bot_levels"]
    assert host.locator("#practice-bots option").count() == 4  # 2 to 5 seats
    assert host.locator("#room-preset").count() == 0  # one preset: nothing to choose
    # remembered: a reload offers Coloretto again
    host.reload()
    host.wait_for_selector("#btn-play-now")
    assert host.is_checked("#game-coloretto")
    shot(host, "coloretto-home-desktop", full_page=True)
    axe_check(host, "coloretto-home")
    # its How to play page, from the home page
    links = host.locator("section.rules-links a")
    assert links.all_inner_texts() == ["Coloretto"]
    links.first.click()
    host.wait_for_selector("article.howto[data-game=coloretto] h1")
    assert host.url.endswith("/?game=coloretto&rules=standard")
    article = host.locator("article.howto")
    assert host.inner_text("article.howto h1") == en["howto.title"].format(table="Coloretto")
    assert article.locator("h2").count() >= 7
    assert en["coloretto.howto.best"] in article.inner_text()
    assert article.locator(".ct-scoring-table tbody tr").count() == 2  # both sides
    assert article.locator(".ct-howto-cards .ccard").count() == 10  # 7 colours, joker, +2, flag
    assert not host.evaluate("[...window.__i18nMissing]")
    axe_check(host, "coloretto-howto")
    host.click("article.howto ~ .row a")
    host.wait_for_selector("#btn-play-now")
    assert host.is_checked("#game-coloretto")

    host.fill("#player-name", "Hana")
    # the chosen side says its points where it is chosen
    note = host.locator("label[for=room-opt-scoring] .field-note")
    assert note.inner_text().strip() == "Points: 1, 3, 6, 10, 15, 21"
    host.select_option("#room-opt-scoring", "grey")
    host.wait_for_function("() => document.querySelector('label[for=room-opt-scoring] .field-note')"
                           ".textContent.endsWith('1, 4, 8, 7, 6, 5')")
    host.click("#btn-create")
    host.wait_for_selector("#room-code")
    code = host.inner_text("#room-code").strip()
    room = host.evaluate("window.__cc.room")
    assert room["game"] == "coloretto"
    assert room["settings"]["scoring"] == "grey"
    assert host.input_value("#set-scoring") == "grey"
    assert "Coloretto" in host.inner_text(".room-game")
    set_room(host, seats=3)
    axe_check(host, "coloretto-room")

    guest = open_page(PHONE, locale="es-ES")
    guest.fill("#player-name", "Gus")
    guest.fill("#join-code", code)
    guest.click("#btn-join")
    guest.wait_for_selector("#btn-join-room")
    assert "Coloretto" in guest.inner_text(".room-game")
    guest.click("#btn-join-room")
    guest.wait_for_selector("#btn-ready")
    es = all_catalogs("es")
    assert es["coloretto.side.grey"] in guest.inner_text(".settings-summary")
    host.click("button[data-focus-key='seat:2:add-bot']")
    host.wait_for_selector(".seat-row[data-seat='2'][data-kind=bot]")
    guest.click("#btn-ready")
    host.wait_for_function(
        "() => document.querySelector('#btn-start').getAttribute('aria-disabled') === 'false'")
    host.click("#btn-start")
    for page in (host, guest):
        page.wait_for_selector(".table-screen.ct")
    assert "Gus" in host.inner_text(".ct-players")
    assert "Hana" in guest.inner_text(".ct-players")
    # the side with its points: "Lado gris" alone, beside the colours out of the game,
    # read as a colour (newcomer review)
    # (the guest's phone: the name, and a tap says the points)
    assert guest.locator(".ct-status .ct-side .ct-side-values").is_hidden()
    guest.click(".ct-status .ct-side")
    said = es["coloretto.results.values"].format(side=es["coloretto.side.grey"],
                                                 values="1, 4, 8, 7, 6, 5")
    guest.wait_for_function("(s) => document.querySelector('.tip-bubble:not([hidden])')"
                            " && document.querySelector('.tip-bubble').textContent === s", arg=said)
    # (the host's desktop: the points beside the name)
    host.wait_for_selector(".ct-status .ct-side")
    assert host.inner_text(".ct-status .ct-side .ct-side-values").strip() == ": 1 · 4 · 8 · 7 · 6 · 5"
    # both play until the first round is over (everyone took a row): each sees it
    play_to([host, guest], lambda p: game_over(p) or p.evaluate(f"{VIEW}.round") >= 2,
            timeout=60)
    for page in (host, guest):
        collections = page.evaluate(f"{VIEW}.collections")
        assert sum(c["cards"] for c in collections) > 3 + 3  # rows were taken
    check_table(guest, "guest-phone")


def test_language_switch_and_keyboard_on_the_coloretto_table(open_page):
    """Everything on the table follows a switch at once (turn message, rows, history line,
    banner); D draws and a digit puts the card in that row; the focus is on a control."""
    table = ScriptedTable(open_page, game="coloretto", preset="standard", seats=3,
                          viewport=DESKTOP, seed=4)
    page = table.page
    table.others()
    table.wait_view()
    en, es, tr = all_catalogs("en"), all_catalogs("es"), all_catalogs("tr")
    page.wait_for_function("() => !!document.querySelector('.ct-draw')")
    assert en["coloretto.table.draw"] in page.inner_text(".ct-draw")
    focused = page.evaluate("document.activeElement.dataset.focusKey || ''")
    assert focused in ("act:draw", "pile:draw") or focused.startswith("row:"), focused
    # a row that cannot be taken, pressed: why, beside it (it only told screen readers)
    empty = page.evaluate(f"{VIEW}.rows.findIndex(r => !r.cards.length)")
    assert empty >= 0  # (the first turn: every row is empty)
    sent = len(table.sent)
    page.click(f".ct-row[data-row='{empty}']", force=True)
    page.wait_for_selector(".tip-bubble:not([hidden])")
    assert page.inner_text(".tip-bubble").strip()
    assert len(table.sent) == sent
    page.keyboard.press("d")
    page.wait_for_function(f"() => {VIEW}.phase === 'place'")
    drawn = page.evaluate(f"{VIEW}.drawn")
    page.wait_for_selector(".ct-row.can-place")
    assert page.locator(".ct-drawn").count() == 1
    row = page.evaluate(f"{VIEW}.legal.find(a => a.type === 'place').row")
    before = len(page.evaluate(f"{VIEW}.rows[{row}].cards"))
    page.keyboard.press(str(row + 1))
    page.wait_for_function(f"() => {VIEW}.phase !== 'place'")
    cards = page.evaluate(f"{VIEW}.rows[{row}].cards")
    assert cards[-1] == drawn and len(cards) == before + 1
    assert table.sent[-1]["action"] == {"type": "place", "row": row}
    # someone takes a row: a banner and a line of history, then the language changes
    table.others()
    table.wait_view()
    taker = table.game.log[-1][0] if table.game.log[-1][1]["type"] == "take" else None
    page.select_option("#lang-select", "es")
    page.wait_for_function("document.documentElement.lang === 'es'")
    text = page.inner_text(".table-screen")
    assert es["coloretto.table.draw"] in page.inner_text(".ct-draw")
    assert es["coloretto.table.rows"] == page.get_attribute(".ct-rows", "aria-label")
    assert es["coloretto.side.brown"] in text
    history = page.inner_text("#history")
    assert es["history.title"] in history
    assert "You put" not in history and "Colocaste" in history
    page.select_option("#lang-select", "tr")
    page.wait_for_function("document.documentElement.lang === 'tr'")
    assert tr["coloretto.table.draw"] in page.inner_text(".ct-draw")
    assert "koydun" in page.inner_text("#history")
    assert not page.evaluate("[...window.__i18nMissing]")
    assert taker is None or taker in range(3)
    shot(page, "coloretto-table-tr-desktop")
    # How to play over the table: Coloretto's, in Turkish; Escape gives the table back
    page.click("#rules-btn")
    dialog = page.locator(".howto-overlay [role=dialog]")
    dialog.wait_for()
    assert tr["howto.title"].format(table="Coloretto") in dialog.inner_text()
    assert tr["coloretto.howto.turn.take"] in dialog.inner_text()
    page.keyboard.press("Escape")
    assert page.locator(".howto-overlay").count() == 0
    assert page.evaluate("document.activeElement.id") == "rules-btn"


LAYOUT_OF_THE_ROWS = """() => {
  const box = (s) => document.querySelector(s).getBoundingClientRect();
  const screen = document.querySelector(".table-screen");
  screen.scrollTop = screen.scrollHeight;  // where the table scrolls, at its end
  const rows = [...document.querySelectorAll(".ct-row")].map((e) => e.getBoundingClientRect());
  const hints = [...document.querySelectorAll(".ct-row-hint:not(.taken)")];
  return {
    rowsBottom: Math.max(...rows.map((r) => r.bottom)),
    movesTop: box(".last-row").top, movesBottom: box(".last-row").bottom,
    meTop: box(".ct-me").top,
    drawBottom: document.querySelector(".ct-draw") ? box(".ct-draw").bottom : null,
    height: innerHeight, scrolls: screen.scrollHeight > screen.clientHeight,
    hintsCut: hints.filter((e) => e.scrollWidth > e.clientWidth + 1).length,
  };
}"""


@pytest.mark.parametrize("size", [{"width": 320, "height": 568}, SMALL_PHONE,
                                  {"width": 375, "height": 667}])
@pytest.mark.parametrize("scene, lang", [("coloretto", "en"), ("coloretto-place", "en"),
                                         ("coloretto-place", "es"), ("coloretto", "tr")])
def test_the_rows_never_run_under_the_moves_button_or_your_bar_on_a_phone(
        open_page, size, scene, lang):
    """Five players on a phone: the rows, the Moves button and your bar each have their own
    place (at 360×640 the rows ran over the Moves button and the last move; at 320×568
    under your bar too). Where they cannot all fit (320×568), the table scrolls under your
    bar, which stays on screen with its Draw button."""
    page = open_page(viewport=size, path=f"/dev.html?scene={scene}&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(LAYOUT_OF_THE_ROWS)
    assert got["rowsBottom"] <= got["movesTop"] + 1, got
    assert got["movesBottom"] <= got["meTop"] + 1, got
    assert got["hintsCut"] == 0, got  # "Take" and "Place" whole, in every language
    if scene == "coloretto":  # your turn: the Draw button is on the screen
        assert got["drawBottom"] <= got["height"], got
    if size["height"] >= 640:
        assert not got["scrolls"], got  # room enough: nothing to scroll


@pytest.mark.parametrize("size", [{"width": 320, "height": 568}, SMALL_PHONE])
@pytest.mark.parametrize("lang", ["es", "tr"])
def test_the_players_names_are_whole_on_a_phone(open_page, size, lang):
    """Every computer player's name was cut to "Computad…" (es) on a phone, so they could
    not be told apart; a long name now takes a second line."""
    page = open_page(viewport=size, path=f"/dev.html?scene=coloretto&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    names = page.evaluate("""() => [...document.querySelectorAll('.ct-name')].map(e => [
        e.textContent, e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1])""")
    assert len(names) >= 4
    assert all(whole for _, whole in names), names


def test_the_draw_button_sits_beside_its_message_on_a_desktop(open_page):
    """On a wide screen the draw button was at the far end of your bar, 500 px from the
    message asking you to draw."""
    page = open_page(viewport=DESKTOP, path="/dev.html?scene=coloretto&lang=es")
    page.wait_for_function("window.__devReady === true")
    gap = page.evaluate("""() => {
      const msg = document.querySelector('.ct-me .turn-msg').getBoundingClientRect();
      const btn = document.querySelector('.ct-me .actions button').getBoundingClientRect();
      return btn.left - msg.right;
    }""")
    assert 0 <= gap <= 40, gap


WHOLE_ON_A_PHONE = """() => {
  const W = innerWidth, out = {cut: [], broken: [], lastMoveCut: false};
  for (const e of document.querySelectorAll('.ct-player')) {
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.right > W + 0.5 || r.width < 100) out.cut.push(e.innerText.split('\\n')[0]);
  }
  // a word split over two lines has more than one box
  for (const e of document.querySelectorAll('.ct-row-hint.taken')) {
    const text = e.firstChild;
    let at = 0;
    for (const word of text.textContent.split(' ')) {
      const range = document.createRange();
      range.setStart(text, at); range.setEnd(text, at + word.length);
      if (range.getClientRects().length > 1) out.broken.push(word);
      at += word.length + 1;
    }
    if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1) out.broken.push(e.textContent);
  }
  const last = document.querySelector('.ct-middle .last-move');
  out.lastMoveCut = !!last && getComputedStyle(last).display !== 'none' && last.scrollHeight > last.clientHeight + 1;
  out.players = document.querySelectorAll('.ct-player').length;
  return out;
}"""


@pytest.mark.parametrize("size", [SMALL_PHONE, {"width": 375, "height": 667}, {"width": 390, "height": 844},
                                  {"width": 1366, "height": 768}, {"width": 1024, "height": 768}])
@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_every_opponent_shows_whole_on_a_small_phone(open_page, size, lang):
    """Five players at 360×640: the other players' chips scrolled sideways, the fourth cut
    in half and the fifth unseen; now they wrap, each whole on the screen. The name on a
    taken row broke mid-word ("Bilgisay / ar 3"), the last move was cut to one line; on a
    desktop too ("Computado / ra 1": a player review)."""
    page = open_page(viewport=size, path=f"/dev.html?scene=coloretto&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    # the longest word a computer player's label has ("Computadora 1"; the scene's taker
    # is "Çağla Yıldırım", whose words are shorter)
    page.evaluate("""() => { for (const e of document.querySelectorAll('.ct-row-hint.taken'))
        e.firstChild.textContent = 'Computadora 1'; }""")
    got = page.evaluate(WHOLE_ON_A_PHONE)
    assert got["players"] == 4, got
    assert not got["cut"], got
    assert not got["broken"], got
    assert not got["lastMoveCut"], got
    shot(page, f"coloretto-5p-{size['width']}-{lang}")


def test_a_colour_with_jokers_in_it_counts_them_where_its_points_do(open_page):
    """A tile said "Orange (…): 3 cards, +15 points": 15 is the worth of 5 cards, the
    2 jokers the best layout puts there. The count and the points now speak of the same
    cards, as the results do."""
    page = open_page(viewport=DESKTOP, path="/dev.html?scene=coloretto&lang=en")
    page.wait_for_function("window.__devReady === true")
    # the scene: seat 0 holds 3 orange and 2 jokers, both jokers orange in its best layout
    said = page.evaluate("""() => [...document.querySelectorAll('.ct-tile[data-card=orange]')]
        .map(e => e.getAttribute('title'))""")
    assert "Orange (circle): 5 cards, 2 of them jokers, +15 points" in said, said
    # a colour without a joker is as it was
    said = page.evaluate("""() => [...document.querySelectorAll('.ct-tile[data-card=brown]')]
        .map(e => e.getAttribute('title'))""")
    assert "Brown (triangle): 1 card, +1 point" in said, said


def test_a_colour_scoring_minus_is_marked_where_a_touch_screen_shows_no_title(open_page):
    """A colour that scores minus now was only dashed and dim, said in its title, which a
    touch screen never shows (a player review): it carries a − mark, kept from a screen
    reader (the tile's own text says its points), and the How to play says what it is."""
    page = open_page(viewport=PHONE, path="/dev.html?scene=coloretto&lang=en")
    page.wait_for_function("window.__devReady === true")
    marks = page.evaluate("""() => [...document.querySelectorAll('.ct-tile')].map(e => ({
        minus: e.classList.contains('minus'), mark: getComputedStyle(e, '::after').content,
        title: e.getAttribute('title')}))""")
    minus = [m for m in marks if m["minus"]]
    assert minus and all(m["mark"].startswith('"−"') and "−" in m["title"] for m in minus), marks
    assert all(m["mark"] == "none" for m in marks if not m["minus"]), marks
    assert "a − mark" in all_catalogs("en")["coloretto.howto.best"]
    shot(page, "coloretto-minus-marks-phone")


def test_the_card_another_player_drew_does_not_tell_you_to_place_it(open_page):
    """While a computer placed its drawn card, the card's name said "Drawn card: Grey
    (diamond). Choose a row for it." to a screen reader's user who could do nothing."""
    table = ScriptedTable(open_page, game="coloretto", preset="standard", seats=3,
                          viewport=DESKTOP, seed=4)
    page = table.page
    table.others()
    table.wait_view()
    table.act(0, {"type": "draw"})  # ours: the label asks us to place it
    table.wait_view()
    mine = page.get_attribute(".ct-drawn .ccard", "aria-label")
    assert mine.startswith("Drawn card: ") and "Choose a row" in mine, mine
    row = table.game.legal_actions(0)[0]["row"]
    table.act(0, {"type": "place", "row": row})
    seat = table.game.to_act[0]
    assert seat != 0
    table.act(seat, {"type": "draw"})  # the next player's: only said, nothing asked
    table.wait_view()
    theirs = page.get_attribute(".ct-drawn .ccard", "aria-label")
    assert "Choose a row" not in theirs and "is placing" in theirs, theirs
    assert theirs.startswith(page.evaluate(f"window.__cc.room.seats[{seat}].name")), theirs


def test_after_drawing_with_d_the_focus_goes_to_the_first_row_the_card_fits(open_page):
    """Drawn with D, the card waited while the focus stayed on the row it was on (a taken
    row too), and Enter there only said the row could not be used."""
    table = ScriptedTable(open_page, game="coloretto", preset="standard", seats=3,
                          viewport=DESKTOP, seed=4)
    page = table.page
    table.others()
    table.wait_view()
    last = page.locator(".ct-row").count() - 1
    page.keyboard.press("Tab")  # a keyboard user
    page.focus(f".ct-row[data-row='{last}']")
    page.keyboard.press("d")
    table.wait_view()
    page.wait_for_selector(".ct-row.can-place")
    first = page.get_attribute(".ct-row.can-place", "data-row")
    assert first != str(last)
    page.wait_for_function("document.activeElement.matches('.ct-row.can-place')")
    assert page.evaluate("document.activeElement.dataset.row") == first


def _first_card_placed_by_keys(open_page, seats: int):
    """A scripted table (seed 4) where a keyboard user draws with D and puts the card in the
    first row it fits with Enter: the others to act next."""
    table = ScriptedTable(open_page, game="coloretto", preset="standard", seats=seats,
                          viewport=DESKTOP, seed=4)
    page = table.page
    table.others()
    table.wait_view()
    page.keyboard.press("Tab")  # a keyboard user
    page.keyboard.press("d")
    table.wait_view()
    page.wait_for_function("document.activeElement.matches('.ct-row.can-place')")
    page.keyboard.press("Enter")  # the drawn card into the first row it fits
    page.wait_for_function("window.__cc.view.turn !== window.__cc.me")
    return table, page


def test_at_your_turn_the_focus_leaves_a_row_for_draw(open_page):
    """The focus waited on a row through the others' turns (the rows are what a keyboard
    can reach meanwhile), so Enter at your turn took that row instead of drawing: three
    one-card rows in three rounds. At your turn it moves to the main action."""
    table, page = _first_card_placed_by_keys(open_page, seats=3)
    page.focus(".ct-row[data-row='0']")  # where the focus waits meanwhile
    table.others()
    table.wait_view()
    legal = page.evaluate("window.__cc.view.legal.map(a => a.type)")
    assert "draw" in legal and "take" in legal, legal
    page.wait_for_function("document.activeElement.dataset.focusKey === 'act:draw'")


def test_a_row_taken_by_key_keeps_the_focus_on_it(open_page):
    """A row taken with its number while the focus was on DRAW left the focus on row 1,
    another player's, "taken by Computer 1" (keyboard review): it goes to the row taken."""
    table, page = _first_card_placed_by_keys(open_page, seats=3)
    table.others()
    table.wait_view()
    take = max((a for a in table.game.legal_actions(0) if a["type"] == "take"),
               key=lambda a: a["row"])
    assert take["row"] > 0, take  # (not the row 1 the focus went to)
    page.focus("[data-focus-key='act:draw']")
    page.keyboard.press(str(take["row"] + 1))
    table.wait_view()
    page.wait_for_function(f"document.activeElement.dataset.focusKey === 'row:{take['row']}'")


def test_the_last_player_left_draws_again_with_the_focus_off_the_row(open_page):
    """The last player left in a round draws as long as they like: the card put in a row
    with the keyboard left the focus on that row, which then said "Take row 1", and the
    next Enter took it and ended the round (player QA). The focus goes to DRAW."""
    table, page = _first_card_placed_by_keys(open_page, seats=2)
    take = next(a for a in table.game.legal_actions(1) if a["type"] == "take")
    table.act(1, take)  # the other takes a row: we are the last one left
    assert table.game.to_act == [0]
    table.wait_view()
    page.wait_for_function("document.activeElement.dataset.focusKey === 'act:draw'")
    page.keyboard.press("d")
    table.wait_view()
    page.wait_for_function("document.activeElement.matches('.ct-row.can-place')")
    page.keyboard.press("Enter")  # placed: still our turn, the row now takeable
    table.wait_view()
    assert table.game.to_act == [0] and table.game.view(0)["drawn"] is None
    page.wait_for_function("document.activeElement.dataset.focusKey === 'act:draw'")
    # we take the last row with Enter: the next round is ours, the focus on DRAW again
    # (it stayed on the row we took, empty now: Enter said it had no card)
    round_no = table.game.view(0)["round"]
    take = next(a for a in table.game.legal_actions(0) if a["type"] == "take")
    page.focus(f".ct-row[data-row='{take['row']}']")
    page.keyboard.press("Enter")
    table.wait_view()
    assert table.game.view(0)["round"] == round_no + 1 and table.game.to_act == [0]
    page.wait_for_function("document.activeElement.dataset.focusKey === 'act:draw'")


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_the_other_players_scores_say_they_are_points(open_page, lang):
    """The other players' scores were bare numbers ("42"), taken for cards held; your own
    bar said "Score now: 20"."""
    page = open_page(viewport=DESKTOP, path=f"/dev.html?scene=coloretto&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    unit = all_catalogs(lang)["coloretto.table.pointsUnit"]  # ("1 pts" read wrong: "1 pt")
    scores = page.locator(".ct-player .ct-score")
    assert scores.count() >= 3
    for i in range(scores.count()):
        text = scores.nth(i).inner_text().strip()
        n = int(re.match(r"\d+", text).group())
        assert re.fullmatch(rf"\d+\s*{unit['one' if n == 1 else 'other']}", text), text
    # a game's start: one card each, one point ("1 pts" before)
    table = ScriptedTable(open_page, game="coloretto", preset="standard", seats=3,
                          viewport=DESKTOP, seed=4, locale={"en": "en-US", "es": "es-ES",
                                                            "tr": "tr-TR"}[lang])
    first = " ".join(table.page.inner_text(".ct-player .ct-score").split())
    assert table.page.evaluate("window.__cc.view.scores")[1] == 1
    assert re.fullmatch(rf"1\s*{unit['one']}", first), first


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_the_keys_the_last_round_card_and_the_final_score_are_said_as_they_are(open_page,
                                                                              lang):
    """The key help said "1 to 5" at a table of 3 rows; "Last round after 47 more cards"
    read as if the last round came after them (the round in which that card comes up is
    the last); the bar said "Score now" beside "Game over"."""
    cat = all_catalogs(lang)
    table = ScriptedTable(open_page, game="coloretto", preset="standard", seats=3,
                          viewport=DESKTOP, seed=4,
                          locale={"en": "en-US", "es": "es-ES", "tr": "tr-TR"}[lang])
    page = table.page
    view = page.evaluate("window.__cc.view")
    rows, above = len(view["rows"]), view["cards_above_last_round"]
    assert rows == 3 and above > 1
    help_text = " ".join(page.inner_text(".key-help").split())
    assert help_text == cat["coloretto.table.keyHelp"].replace("{n}", "3"), help_text
    chip = " ".join(page.inner_text(".ct-last").split())
    assert chip == cat["coloretto.table.lastRoundIn"]["other"].replace("{n}", str(above))
    assert page.inner_text(".ct-me-score").startswith(
        cat["coloretto.table.scoreNow"].split("{n}")[0])
    over = open_page(viewport=DESKTOP, path=f"/dev.html?scene=coloretto-over&lang={lang}")
    over.wait_for_function("window.__devReady === true")
    over.keyboard.press("Escape")  # the results put aside: the bar under them
    final = cat["coloretto.table.scoreFinal"].split("{n}")[0]
    assert over.inner_text(".ct-me-score").startswith(final), over.inner_text(".ct-me-score")


HINTS_CUT = """() => [...document.querySelectorAll('.ct-row-hint:not(.taken)')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"""


@pytest.mark.parametrize("size", [{"width": 667, "height": 375}, {"width": 844, "height": 390},
                                  SMALL_PHONE])
@pytest.mark.parametrize("scene, lang", [("coloretto", "es"), ("coloretto", "en"),
                                         ("coloretto-place", "es"), ("coloretto-place", "en")])
def test_the_rows_take_and_place_words_are_whole_on_a_phone_held_sideways(open_page, size, scene, lang):
    """Held sideways, a phone drew the five rows 30 px wide beside the Moves button, their
    "TAKE" cut to "TA" ("TOMAR" to "TOMAF" at 844 px, and at 360x640 too): the Moves button
    now sits under the supply, and the word fits a narrow column."""
    page = open_page(viewport=size, path=f"/dev.html?scene={scene}&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    assert page.evaluate(HINTS_CUT) == []
    assert not page.evaluate("document.scrollingElement.scrollWidth > innerWidth")
    assert not cut_controls(page), cut_controls(page)
    shot(page, f"coloretto-rows-{scene}-{size['width']}-{lang}")


SIDE_COLUMN = """() => {
  const box = (s) => document.querySelector(s).getBoundingClientRect();
  const top = box('.topbar').bottom, moves = box('.ct-middle .last-row');
  const marks = [...document.querySelectorAll('.ct-status .chip')].map((c) => c.getBoundingClientRect());
  return {top, supply: box('.ct-pile').top, drawn: document.querySelector('.ct-drawn')
          ? box('.ct-drawn').top : null, marksBottom: Math.max(...marks.map((m) => m.bottom)),
          movesTop: moves.top, movesBottom: moves.bottom, bar: box('.ct-me').top};
}"""


@pytest.mark.parametrize("size", [{"width": 640, "height": 360}, {"width": 667, "height": 375}])
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_held_sideways_a_drawn_card_keeps_the_supply_and_the_marks_in_view(open_page, size,
                                                                          lang):
    """Held sideways, the supply, the card drawn and the round's marks stood in one column:
    a drawn card pushed the supply under the top bar (its count hidden) and the Moves
    button over the scoring side's mark."""
    page = open_page(viewport=size, path=f"/dev.html?scene=coloretto-place&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(SIDE_COLUMN)
    assert got["drawn"] is not None, got  # (the scene: a card drawn, to be placed)
    assert got["supply"] >= got["top"], got  # the supply under the top bar, not beneath it
    assert got["marksBottom"] <= got["movesTop"], got  # nothing under the Moves button
    assert got["movesBottom"] <= got["bar"] + 1, got
    shot(page, f"coloretto-sideways-drawn-{size['width']}-{lang}")


@pytest.mark.parametrize("size", [{"width": 640, "height": 360}, {"width": 667, "height": 375},
                                  {"width": 740, "height": 360}])
def test_held_sideways_four_others_fit_their_column(open_page, size):
    """Held sideways, the column of four others scrolled (394 px of them for 330 at
    667x375, the fourth cut at the foot of the screen): with four, their pictures, tiles
    and gaps are smaller, and all four show with their seven colours."""
    page = open_page(viewport=size, path="/dev.html?scene=coloretto&lang=en")
    page.wait_for_function("window.__devReady === true")
    assert page.locator(".ct-players > .ct-player").count() == 4
    over = page.evaluate("""() => { const c = document.querySelector('.ct-players');
        return [c.scrollHeight, c.clientHeight]; }""")
    assert over[0] <= over[1] + 1, over
    assert not cut_controls(page), cut_controls(page)
    shot(page, f"coloretto-sideways-four-{size['width']}")


def test_a_banner_does_not_hide_the_card_just_drawn(open_page):
    """On a phone, LAST ROUND! stood over the supply for 1.4 s and hid the card just drawn
    while its row was being chosen. Banners stand over the line under the rows."""
    table = ScriptedTable(open_page, game="coloretto", preset="standard", seats=3,
                          viewport={"width": 390, "height": 844}, seed=4)
    page = table.page
    table.others()
    table.wait_view()
    table.act(0, {"type": "draw"})
    table.wait_view()
    page.wait_for_selector(".ct-drawn .ccard")
    table.send([{"type": "last_round"}])  # as when the last-round card comes up
    page.wait_for_selector("#banner-layer .banner")
    hit = page.evaluate("""() => {
      const b = document.querySelector('#banner-layer .banner').getBoundingClientRect();
      return [...document.querySelectorAll('.ct-drawn .ccard, .ct-row')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom;
      }).map((e) => e.className);
    }""")
    assert hit == [], hit


def test_the_arrows_move_along_the_rows(open_page):
    """Only Tab moved between the rows: back to the first took ten presses (player
    review). The arrows, Home and End move along them, as along Rainbow's hand."""
    table = ScriptedTable(open_page, game="coloretto", preset="standard", seats=4,
                          viewport=DESKTOP, seed=4)
    page = table.page
    table.others()
    table.wait_view()
    rows = page.locator(".ct-row").count()
    assert rows >= 3
    page.keyboard.press("Tab")  # a keyboard user
    page.focus(".ct-row[data-row='0']")
    sent = len(table.sent)
    at = "document.activeElement.dataset.row"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(at) == "1"
    page.keyboard.press("ArrowDown")
    assert page.evaluate(at) == "2"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(at) == "1"
    page.keyboard.press("End")
    assert page.evaluate(at) == str(rows - 1)
    page.keyboard.press("ArrowRight")  # the last stays the last
    assert page.evaluate(at) == str(rows - 1)
    page.keyboard.press("Home")
    assert page.evaluate(at) == "0"
    page.wait_for_timeout(200)
    assert len(table.sent) == sent  # moving took no row


def test_the_sides_points_are_the_engines_not_a_copy_in_the_client(open_page):
    """The scoring side's points on the How to play page, under the lobby's menu, on the
    table's chip and in the results come from the engine (the scoring option's ``facts``
    in GET /api/games, the view's ``scoring_points``): the client kept its own copy of the
    two tables, a rule in two places. Given other numbers, every place shows them."""
    import json

    made_up = [2, 5, 9, 14, 20, 27]

    def games(route):
        answer = route.fetch().json()
        for g in answer["games"]:
            for preset in g["presets"].values():
                for option in preset["options"]:
                    if option["name"] == "scoring":
                        option["facts"]["brown"]["points"] = made_up
        route.fulfill(json=answer)

    def scenes(route):
        answer = route.fetch().json()
        for scene in answer.values():
            if scene["view"]["scoring_side"] == "brown":
                scene["view"]["scoring_points"] = made_up
        route.fulfill(body=json.dumps(answer), content_type="application/json")

    page = open_page(viewport=DESKTOP, path="/?game=coloretto&rules=standard")
    page.context.route("**/api/games", games)
    page.context.route("**/scenes.json", scenes)
    page.reload()
    page.wait_for_selector("article.howto .ct-scoring-table tr.side-brown")
    cells = page.locator(".ct-scoring-table tr.side-brown td").all_inner_texts()
    assert cells == [str(n) for n in made_up]
    page.click("article.howto ~ .row a")
    page.wait_for_selector("#btn-play-now")
    page.click("label[data-game=coloretto]")
    note = page.locator("label[for=room-opt-scoring] .field-note")
    assert note.inner_text().strip() == "Points: 2, 5, 9, 14, 20, 27"
    page.goto("/dev.html?scene=coloretto&lang=en")
    page.wait_for_function("window.__devReady === true")
    assert page.inner_text(".ct-status .ct-side .ct-side-values").strip() == ": 2 · 5 · 9 · 14 · 20 · 27"
    page.goto("/dev.html?scene=coloretto-over&lang=en")
    page.wait_for_function("window.__devReady === true")
    assert "2, 5, 9, 14, 20, 27" in page.inner_text(".results-overlay")
