"""Rainbow in the browser (js/games/rainbow/): a whole game against a computer player on a
phone and a desktop, played by clicking; Shadow, Error and Rainbow banners with the cards
that decided them marked; turning a table card over before a second card, by pointer and
by keyboard; the language switch on the table; How to play over the table; a draw in the
results; the game's own catalogs."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from pathlib import Path

import pytest
from browser_helpers import DESKTOP, PHONE, axe_check, cut_controls, shot
from scripted import ScriptedTable

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "src" / "colorclash" / "web"
LANGS = ("en", "es", "tr")
LOCALES = {"en": "en-US", "es": "es-ES", "tr": "tr-TR"}


def rb_catalog(lang: str) -> dict:
    """The site's catalog of a language merged with Rainbow's own, as the page merges them."""
    site = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    own = json.loads((WEB / "i18n" / "rainbow" / f"{lang}.json").read_text(encoding="utf-8"))
    return {**site, **own}


EN, ES, TR = (rb_catalog(lang) for lang in LANGS)


def text(cat: dict, key: str, **kw) -> str:
    value = cat[key]
    if isinstance(value, dict):
        value = value["one" if kw.get("n") == 1 else "other"]
    return re.sub(r"\{(\w+)\}", lambda m: str(kw.get(m.group(1), m.group(0))), value)


# ------------------------------------------------------------------ the server's actions
def test_the_server_takes_rainbow_actions():
    from colorclash.server.protocol import parse_client_message

    msg = parse_client_message(json.dumps(
        {"v": 1, "type": "action", "action": {"type": "play", "hand": 0, "turned": True}}))
    assert msg.action.to_engine() == {"type": "play", "hand": 0, "turned": True}


# ------------------------------------------------------------------ catalogs
@pytest.mark.parametrize("lang", LANGS)
def test_how_to_play_names_the_buttons_as_they_read(lang):
    """How to play said "press Play as seen or Play turned over" while the buttons read "As
    seen" and "Turned over"."""
    own = json.loads((WEB / "i18n" / "rainbow" / f"{lang}.json").read_text("utf-8"))
    for button in ("rainbow.playSeen", "rainbow.playTurned", "rainbow.endTurn"):
        assert own[button] in own["rainbow.howto.site"], (lang, button)


def test_rainbow_catalogs_have_the_same_keys_in_every_language():
    own = {lang: json.loads((WEB / "i18n" / "rainbow" / f"{lang}.json").read_text("utf-8"))
           for lang in LANGS}
    assert all(k.startswith("rainbow.") for k in own["en"]), "a game's keys start with its key"
    for lang in ("es", "tr"):
        assert sorted(own[lang]) == sorted(own["en"]), lang
        for key, value in own[lang].items():
            english = own["en"][key]
            placeholders = [set(re.findall(r"\{(\w+)\}", json.dumps(v))) for v in (value, english)]
            assert placeholders[0] == placeholders[1], f"{lang}:{key}"
    # every key the table module asks for by name is in the catalog
    used: set[str] = set()
    for path in (WEB / "js" / "games" / "rainbow").glob("*.js"):
        used |= set(re.findall(r"""\bt\(\s*["'](rainbow\.[\w.+-]+)["']""", path.read_text()))
    assert len(used) > 40
    assert not sorted(used - set(own["en"]))
    # the nine colours and their symbols, by name
    for colour in ("red", "orange", "yellow", "green", "blue", "indigo", "violet", "white",
                   "black"):
        assert f"rainbow.color.{colour}" in own["tr"]


# ------------------------------------------------------------------ a whole game
def _post(server, path: str, body: dict) -> dict:
    req = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req) as res:
        return json.load(res)


def open_practice(open_page, server, viewport, locale="en-US", level="random"):
    """A practice room of Rainbow against a computer player (the random one unless
    `level` says), opened at /r/CODE with the seat's token stored where the client keeps
    it."""
    ticket = _post(server, "/api/practice", {"game": "rainbow", "name": "Ana", "level": level})
    page = open_page(viewport, locale=locale, path="/favicon.svg")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"cc.seat.{ticket['code']}",
                   json.dumps({"token": ticket["token"], "seat": ticket["seat"], "ws": None})])
    page.goto(f"/r/{ticket['code']}")
    page.wait_for_selector(".rb-table")
    return page


# What the table offers now, in one look: the centre of each control on screen.
_OFFERS = """() => {
  const at = (sel) => [...document.querySelectorAll(sel)].map((e) => {
    const r = e.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  });
  return {
    results: !!document.querySelector('.results-overlay[data-phase=game_over]'),
    seen: at(".rb-actions [data-focus-key='act:seen']"),
    turned: at(".rb-actions [data-focus-key='act:turned']"),
    playable: at('.rb-hand .rb-card.playable:not(.picked)'),
    flippable: at('.rb-row .rb-flippable'),
    end: at(".rb-actions [data-focus-key='act:end']"),
    seq: window.__cc.seq,
  };
}"""


def rb_step(page, rng: random.Random) -> str:
    """Do one thing a player would do on the Rainbow table: a pointer click where the
    control is on screen (whatever covers it would get the click instead). An action
    waits for the table's next state."""
    offers = page.evaluate(_OFFERS)
    if offers["results"]:
        return "results"
    if offers["seen"] and offers["turned"]:
        what = "turned" if rng.random() < 0.3 else "seen"
    elif offers["playable"]:
        what = "playable"
    elif offers["flippable"] and rng.random() < 0.5:
        what = "flippable"
    elif offers["end"]:
        what = "end"
    else:
        return ""
    x, y = rng.choice(offers[what])
    page.mouse.click(x, y)
    if what == "playable":
        return "choose"
    try:
        page.wait_for_function("(seq) => window.__cc.seq > seq", arg=offers["seq"], timeout=3000)
    except Exception:  # noqa: BLE001 - the click did not act (the table moved): look again
        return ""
    return "flip" if what == "flippable" else what


def play_rainbow(page, seed: int, timeout: float = 60.0, checkpoint=None) -> dict:
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    end = time.monotonic() + timeout
    while True:
        assert time.monotonic() < end, f"game not over after {timeout} s: {counts}"
        what = rb_step(page, rng)
        if what == "results":
            return counts
        if what:
            counts[what] = counts.get(what, 0) + 1
            if checkpoint and counts[what] == 1:
                checkpoint(what)
        else:
            page.wait_for_timeout(25)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_whole_game_against_the_computer(open_page, server, size):
    page = open_practice(open_page, server, PHONE if size == "phone" else DESKTOP)
    # the opponent's backs (as many as it holds: 3, or fewer while the computer, which
    # may start, is playing its turn), the six places, both piles, the deck
    shown, held = page.evaluate("""() => {
      const v = window.__cc.view, me = window.__cc.me;
      const theirs = v.hands.find((x) => x.seat !== me);
      return [document.querySelectorAll('.rb-opp .rb-their-cards .rb-card').length,
              theirs.count];
    }""")
    assert shown == held <= 3, (shown, held)
    assert page.locator(".rb-row .rb-place").count() == 6
    assert page.locator(".rb-pile").count() == 2
    assert "Computer · Random" in page.inner_text(".rb-opp")  # labelled, with its level
    assert re.search(r"\d+", page.inner_text(".rb-deck"))

    def checkpoint(what: str) -> None:
        if what == "choose":  # a card chosen: the two ways of playing it
            shot(page, f"rainbow-chosen-{size}")
            axe_check(page, f"rainbow-table-{size}")
            assert not cut_controls(page), cut_controls(page)
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
            boxes = page.locator(".rb-actions button, .rb-hand .rb-card").evaluate_all(
                "els => els.map(e => Math.min(e.getBoundingClientRect().width,"
                " e.getBoundingClientRect().height))")
            assert min(boxes) >= 44, boxes
        if what == "flip":
            shot(page, f"rainbow-flipped-{size}")

    counts = play_rainbow(page, seed=7 if size == "phone" else 8, checkpoint=checkpoint)
    assert counts.get("seen", 0) + counts.get("turned", 0) >= 5, counts
    assert counts.get("turned") and counts.get("flip"), counts
    view = page.evaluate("window.__cc.view")
    assert view["phase"] == "game_over"
    dialog = page.locator(".results-overlay [role=dialog]")
    assert EN["results.gameOver"] in dialog.inner_text()
    rows = page.locator(".results-table tbody tr")
    assert rows.count() == 2
    cells = [rows.nth(i).locator("th, td").all_inner_texts() for i in range(2)]
    piles = view["result"]["scores"]
    assert sorted(int(c[-2]) for c in cells) == sorted(piles)
    assert [int(c[-2]) for c in cells] == sorted(piles, reverse=True)  # more cards first
    assert all(c[-1] == "0" or re.fullmatch(r"\d+ (Rainbows?|by Shadow|by Error)( · .*)?", c[-1])
               for c in cells), cells
    if view["result"]["draw"]:
        assert [c[0] for c in cells] == ["1", "1"]
    else:
        assert [c[0] for c in cells] == ["1", "2"]
    assert EN["rainbow.results.how"] in dialog.inner_text()
    assert page.locator("button[data-focus-key='res:again']").count() == 1
    assert page.evaluate("document.querySelector('[role=dialog]').contains(document.activeElement)")
    shot(page, f"rainbow-results-{size}")
    axe_check(page, f"rainbow-results-{size}")
    assert not page.evaluate("[...window.__i18nMissing]")
    assert "⟦" not in page.inner_text("body")


# ------------------------------------------------------------------ scripted positions
HANDS_1 = [["red", "blue"], ["white", "green"], ["indigo", "orange"]]


def shadow_setup() -> dict:
    """You (seat 0) hold a black front; red and blue are on the table."""
    return {"hands": [[["black", "red"], ["green", "white"], ["yellow", "violet"]], HANDS_1],
            "table": [["red", "orange"], ["blue", "black"]], "turn": 0}


def turn_setup() -> dict:
    """You begin a turn with red on the table and green, yellow and blue fronts."""
    return {"hands": [[["green", "white"], ["yellow", "violet"], ["blue", "indigo"]], HANDS_1],
            "table": [["red", "orange"]], "turn": 0}


def rainbow_setup() -> dict:
    """Five colours on the table; your violet fills the sixth place."""
    return {"hands": [[["violet", "yellow"], ["green", "white"], ["blue", "indigo"]], HANDS_1],
            "table": [["red", "orange"], ["orange", "blue"], ["yellow", "green"],
                      ["green", "indigo"], ["blue", "red"]], "turn": 0}


def rb_table(open_page, setup: dict, **kw) -> ScriptedTable:
    table = ScriptedTable(open_page, game="rainbow", preset="standard", seats=2, setup=setup, **kw)
    table.page.wait_for_selector(".rb-table")
    table.wait_view()
    return table


def wait_banner(page, words: str) -> None:
    page.wait_for_function(
        "(w) => [...document.querySelectorAll('#banner-layer .banner')]"
        ".some(b => b.textContent.includes(w))", arg=words)


def lose_to_shadow(open_page, **kw) -> ScriptedTable:
    """A table of shadow_setup() where you play your black front as seen and end the
    turn: you lose the round to shadow."""
    table = rb_table(open_page, shadow_setup(), **kw)
    page = table.page
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")
    table.wait_view()
    page.click("[data-focus-key='act:end']")
    table.wait_view()
    return table


def test_the_warning_end_button_is_two_lines_on_a_desktop(open_page):
    """On a desktop the key hint of the warning End turn made a third line (70 px; the
    hand below jumped as it came and went: a diff review): the name and its key share the
    first line, what it costs is the second."""
    table = rb_table(open_page, shadow_setup(), viewport=DESKTOP, locale="en-US")
    page = table.page
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")
    table.wait_view()
    rows = page.evaluate("""() => { const b = document.querySelector("[data-focus-key='act:end']");
        const tops = [...b.children].map((c) => Math.round(c.getBoundingClientRect().top));
        return {tops, loses: b.classList.contains('rb-end-loses')}; }""")
    tops = sorted(rows["tops"])
    assert rows["loses"] and tops[1] - tops[0] <= 6 < tops[2] - tops[1], rows  # two lines


@pytest.mark.parametrize("locale", ["en-US", "es-ES", "tr-TR"])
def test_the_turn_says_when_ending_it_now_loses_the_round(open_page, locale):
    """A player ended a turn with a black face showing and lost the round with no word
    that it would: after the card, the turn message says why ending now loses, and how
    to change it (turn a card over, play another); once it is changed, it says no more."""
    cat = rb_catalog(locale[:2])
    table = rb_table(open_page, shadow_setup(), viewport=PHONE, locale=locale)
    page = table.page
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")  # the black front
    table.wait_view()
    # (and, a card being there to turn over, how it may still be mended: a player review)
    assert page.evaluate("window.__cc.view.legal.some(a => a.type === 'flip')")
    warning = text(cat, "rainbow.msg.endLosesFlip", why=cat["rainbow.msg.why.shadow"])
    assert page.inner_text("#turn-msg").strip() == warning
    assert page.evaluate("""() => { const m = document.querySelector('#turn-msg');
      const r = m.getBoundingClientRect();
      return m.scrollHeight <= m.clientHeight + 1 && m.scrollWidth <= m.clientWidth + 1
        && r.top >= 0 && r.bottom <= innerHeight; }""")  # the whole of it, on the screen
    # the End button warns too, and says what it costs (it was the plain grey of every
    # turn: a player review)
    end = page.locator("[data-focus-key='act:end']")
    assert "rb-end-loses" in end.get_attribute("class")
    assert end.get_attribute("aria-label") == f"{cat['rainbow.endTurn']}: {cat['rainbow.endTurnLoses']}"
    assert cat["rainbow.endTurnLoses"] in end.inner_text()
    assert page.evaluate("""() => { const b = document.querySelector("[data-focus-key='act:end']");
      const r = b.getBoundingClientRect();
      return b.scrollWidth <= b.clientWidth + 1 && r.right <= innerWidth && r.bottom <= innerHeight; }""")
    shot(page, f"rainbow-end-loses-{locale}")
    page.click(".rb-place[data-place='2'] .rb-flippable")  # the black turned over: red
    table.wait_view()
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")
    table.wait_view()
    assert page.evaluate("window.__cc.view.check.kind") == "error"  # two reds now
    assert page.inner_text("#turn-msg").strip() == text(
        cat, "rainbow.msg.endLosesFlip", why=cat["rainbow.msg.why.error"])


def test_shadow_error_and_rainbow_banners_with_the_cards_marked(open_page):
    table = lose_to_shadow(open_page, viewport=PHONE)
    page = table.page
    wait_banner(page, EN["rainbow.banner.shadow"])
    last = page.locator(".rb-last")
    assert last.get_attribute("data-kind") == "shadow"
    # the banner does not cover the summary that says who won the round
    assert page.evaluate("""() => {
      const b = document.querySelector('#banner-layer .banner').getBoundingClientRect();
      const l = document.querySelector('.rb-last').getBoundingClientRect();
      return b.bottom <= l.top || l.bottom <= b.top; }""")
    marked = last.locator("[data-marked]")
    assert marked.count() == 1 and marked.get_attribute("data-place") == "2"
    assert marked.locator(".rb-card").get_attribute("data-color") == "black"
    assert EN["rainbow.marked.shadow"] in marked.get_attribute("aria-label")
    assert text(EN, "rainbow.say.win", name="Computer", n=3) in last.inner_text()
    assert text(EN, "rainbow.lastRound", n=1, kind=EN["rainbow.kind.shadow"]) in last.inner_text()
    # its heading comes first for a screen reader (the row's list came before it: an
    # accessibility review), while the row is still drawn first
    assert page.evaluate("""() => {
      const l = document.querySelector('.rb-last');
      const row = l.querySelector('.rb-last-row').getBoundingClientRect();
      const text = l.querySelector('.rb-last-text').getBoundingClientRect();
      return l.firstElementChild.matches('.rb-last-text')
        && (row.right <= text.left + 1 || row.bottom <= text.top + 1); }""")
    # the row is empty again; the cards went to the opponent's pile
    assert page.locator(".rb-row .rb-card").count() == 0
    assert "3" in page.inner_text(".rb-pile[data-seat='1']")
    shot(page, "rainbow-shadow-phone")
    axe_check(page, "rainbow-shadow")
    # your first card of the next round: the summary says it is the previous round's
    # ("… Computer wins 3 cards" over your card read as the computer's move: player review)
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")
    table.wait_view()
    assert page.locator(".rb-row .rb-card").count() == 1
    assert "fresh" not in last.get_attribute("class")
    assert last.locator(".rb-last-head").inner_text().strip() == text(
        EN, "rainbow.pastRound", n=1, kind=EN["rainbow.kind.shadow"])

    # Error: the opponent repeats a colour (two reds)
    table.reset(preset="standard", seats=2, setup={
        "hands": [turn_setup()["hands"][0], HANDS_1], "table": [["red", "orange"]], "turn": 1})
    table.wait_view()
    table.act(1, {"type": "play", "hand": 0, "turned": False})
    table.act(1, {"type": "end"})
    table.wait_view()
    wait_banner(page, EN["rainbow.banner.error"])
    last = page.locator(".rb-last")
    assert last.get_attribute("data-kind") == "error"
    places = sorted(m.get_attribute("data-place") for m in last.locator("[data-marked]").all())
    assert places == ["0", "1"]
    assert text(EN, "rainbow.say.you.win", n=2) in last.inner_text().lower()
    assert "Computer" in last.inner_text()  # who lost the round
    shot(page, "rainbow-error-phone")

    # Rainbow: your violet completes six colours; the turn ends by itself
    table.reset(preset="standard", seats=2, setup=rainbow_setup())
    table.wait_view()
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")
    table.wait_view()
    wait_banner(page, EN["rainbow.banner.rainbow"])
    last = page.locator(".rb-last")
    assert last.get_attribute("data-kind") == "rainbow"
    assert last.locator("[data-marked]").count() == 6
    assert text(EN, "rainbow.say.you.win", n=6) in last.inner_text().lower()
    history = page.inner_text("#history")
    assert text(EN, "rainbow.say.you.play", face="Violet (cross)", place=6) in history
    shot(page, "rainbow-rainbow-phone")
    # the next round's first card: the heading, now the previous round's and longest
    # beside a row of six, is read whole on the phone (it ran off the screen's edge,
    # "Previous round (5): Rainbo": a player review)
    seat = page.evaluate("window.__cc.view.turn")
    if seat == 0:
        page.click(".rb-hand [data-hand='0']")
        page.click("[data-focus-key='act:seen']")
    else:
        table.act(1, {"type": "play", "hand": 0, "turned": False})
    table.wait_view()
    head = last.locator(".rb-last-head")
    assert head.inner_text().strip().endswith(EN["rainbow.kind.rainbow"])
    assert EN["rainbow.pastRound"].split("(")[0].strip() in head.inner_text()
    assert page.evaluate("""() => {
      const h = document.querySelector('.rb-last-head');
      const words = h.lastElementChild.getBoundingClientRect();
      return h.scrollWidth <= h.clientWidth + 1 && words.right <= innerWidth
        && words.right <= h.closest('.rb-last').getBoundingClientRect().right; }""")
    shot(page, "rainbow-past-round-phone")


def test_turning_a_table_card_over_before_a_second_card(open_page):
    table = rb_table(open_page, turn_setup(), viewport=DESKTOP)
    page = table.page
    # the focus lands on your first card; nothing on the table may be turned yet
    assert page.evaluate("document.activeElement.dataset.hand") == "0"
    assert page.locator(".rb-flippable").count() == 0
    assert page.locator(".rb-place.next").get_attribute("data-place") == "1"
    assert page.locator(".rb-place.next.waiting").count() == 0  # lit: you may play there
    # by keyboard: Enter chooses the card, the focus goes on to "as seen"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.focusKey") == "act:seen"
    assert page.locator(".rb-hand .picked").count() == 1
    page.keyboard.press("Enter")
    table.wait_view()
    assert table.sent[-1]["action"] == {"type": "play", "hand": 0, "turned": False}
    # after a card: both table cards may be turned over; the focus is on End turn
    flippable = page.locator(".rb-row .rb-flippable")
    assert flippable.count() == 2
    assert page.evaluate("document.activeElement.dataset.focusKey") == "act:end"
    assert EN["rainbow.msg.flipOrEnd"] in page.inner_text("#turn-msg")
    assert page.inner_text(".rb-progress").strip() == text(EN, "rainbow.progressPlayed", n=1, max=3)
    assert EN["rainbow.turnIt"] in flippable.first.get_attribute("aria-label")
    # the next place is marked, not lit: a table card is to be turned over first
    # ("HERE" lit there read as "play here": a player review)
    assert page.locator(".rb-place.next.waiting").count() == 1
    shot(page, "rainbow-continue-desktop")
    # by pointer: turn the red card over (place 1)
    page.click(".rb-place[data-place='0'] .rb-flippable")
    table.wait_view()
    assert table.sent[-1]["action"] == {"type": "flip", "place": 0}
    assert page.locator(".rb-place[data-place='0'] .rb-card").get_attribute("data-color") == "orange"
    assert page.locator(".rb-place[data-place='0'] .rb-flipped-badge").count() == 1
    assert EN["rainbow.msg.playAgain"] in page.inner_text("#turn-msg")
    assert page.locator(".rb-place.next.waiting").count() == 0  # lit again
    assert page.locator("[data-focus-key='act:end']").count() == 0  # a card is owed now
    # E now says a card is owed ("That key does nothing now" said nothing of why)
    sent = len(table.sent)
    page.wait_for_timeout(600)  # (the turn's own words said first)
    page.evaluate("document.getElementById('live').textContent = ''")
    page.keyboard.press("e")
    page.wait_for_function("(w) => document.getElementById('live').textContent.includes(w)",
                           arg=EN["rainbow.msg.playAgain"])
    assert EN["table.keyNothing"] not in page.inner_text("#live")
    assert len(table.sent) == sent
    # the second card, turned over: keys 1 then T
    page.keyboard.press("1")
    assert page.locator(".rb-hand .picked").count() == 1
    # chosen by its number, the focus goes on to "as seen" (Enter on the card put it back)
    assert page.evaluate("document.activeElement.dataset.focusKey") == "act:seen"
    page.keyboard.press("t")
    table.wait_view()
    assert table.sent[-1]["action"] == {"type": "play", "hand": 0, "turned": True}
    assert page.evaluate("document.activeElement.dataset.focusKey") == "act:end"
    assert page.locator(".rb-place[data-place='2'] .rb-card").get_attribute("data-color") == "violet"
    assert page.inner_text(".rb-progress").strip() == text(EN, "rainbow.progressPlayed", n=2, max=3)
    # E ends the turn
    page.keyboard.press("e")
    table.wait_view()
    assert table.sent[-1]["action"] == {"type": "end"}
    assert "Computer" in page.inner_text("#turn-msg")
    # End turn is gone with the turn: the focus stays on the table, never the page body
    assert page.evaluate("document.activeElement !== document.body")
    assert page.evaluate("document.querySelector('main').contains(document.activeElement)")
    sent = [m["action"]["type"] for m in table.sent if m["type"] == "action"]
    assert sent == ["play", "flip", "play", "end"]
    # a card pressed out of turn says why for the eye too (it only told screen readers)
    page.click(".rb-hand button >> nth=0", force=True)  # (aria-disabled: as a person would)
    page.wait_for_selector(".tip-bubble:not([hidden])")
    assert page.inner_text(".tip-bubble") == EN["table.notYourTurn"]
    # above your bar, not over your turn line (as in Color Clash: ui.js tip)
    tip, bar = page.locator(".tip-bubble").bounding_box(), page.locator(".rb-me").bounding_box()
    assert tip["y"] + tip["height"] <= bar["y"] + 1, (tip, bar)
    assert len([m for m in table.sent if m["type"] == "action"]) == 4  # nothing sent
    history = page.inner_text("#history")
    assert text(EN, "rainbow.say.you.flip", place=1, face="Orange (star)") in history
    assert "⟦" not in page.inner_text("body")


def test_a_dimmed_card_keeps_a_clear_focus_ring(open_page):
    """A card that cannot be played now is dimmed, and its focus ring was dimmed with it:
    on a black card it all but vanished. Focused, it is dimmed less (as Colour Clash's)."""
    setup = {"hands": [[["green", "white"], ["black", "red"], ["blue", "indigo"]], HANDS_1],
             "table": [["red", "orange"]], "turn": 0}
    table = rb_table(open_page, setup, viewport=DESKTOP)
    page = table.page
    page.keyboard.press("Enter")  # the green card, as seen: now turn a card over, or end
    page.keyboard.press("Enter")
    table.wait_view()
    black = ".rb-hand .rb-card[data-color='black']"
    assert "dim" in page.get_attribute(black, "class")
    dimmed = page.evaluate("(s) => getComputedStyle(document.querySelector(s)).filter", black)
    page.focus(black)  # (after keys: a keyboard focus, with its ring)
    focused = page.evaluate("""(s) => { const e = document.querySelector(s);
        const c = getComputedStyle(e);
        return {ring: e.matches(':focus-visible') && c.outlineStyle !== 'none',
                filter: c.filter}; }""", black)
    assert focused["ring"], focused
    brightness = [float(x) for x in re.findall(r"brightness\(([\d.]+)\)", focused["filter"])]
    assert brightness and brightness[0] >= 0.85, (dimmed, focused)
    assert "grayscale" in dimmed and "grayscale" not in focused["filter"]
    shot(page, "rainbow-dim-card-focused")


def test_the_table_follows_a_language_switch(open_page):
    table = rb_table(open_page, shadow_setup(), viewport=PHONE)
    page = table.page
    page.click(".rb-hand [data-hand='0']")
    assert page.inner_text("#turn-msg").strip() == EN["rainbow.msg.how"]
    page.click("[data-focus-key='act:seen']")
    table.wait_view()
    page.click("[data-focus-key='act:end']")
    table.wait_view()
    wait_banner(page, EN["rainbow.banner.shadow"])
    for lang, cat in (("tr", TR), ("es", ES)):
        page.select_option("#lang-select", lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        page.wait_for_selector(".rb-table")
        body = page.inner_text("body")
        assert text(cat, "rainbow.lastRound", n=1, kind=cat["rainbow.kind.shadow"]) in body
        assert cat["rainbow.msg.choose"] in page.inner_text("#turn-msg")
        assert cat["rainbow.color.green"] in page.inner_text(".rb-hand")
        assert text(cat, "rainbow.say.you.end") in page.inner_text("#history")
        label = page.locator(".rb-hand .rb-card").first.get_attribute("aria-label")
        assert cat["rainbow.shape.diamond"] in label
        banner = page.inner_text("#banner-layer")
        assert not banner or cat["rainbow.banner.shadow"] in banner
        assert not page.evaluate("[...window.__i18nMissing]")
        assert not cut_controls(page), (lang, cut_controls(page))
        shot(page, f"rainbow-table-{lang}-phone")
    # the choice of a card and its buttons, in Spanish
    page.click(".rb-hand [data-hand='0']")
    assert ES["rainbow.playTurned"] in page.inner_text(".rb-actions")
    assert not cut_controls(page), cut_controls(page)


def test_how_to_play_rainbow_over_the_table(open_page):
    table = rb_table(open_page, turn_setup(), viewport=PHONE, locale="tr-TR")
    page = table.page
    page.click("#rules-btn")
    dialog = page.locator(".howto-overlay [role=dialog]")
    dialog.wait_for()
    for lang, cat in (("tr", TR), ("en", EN), ("es", ES)):
        if lang != "tr":
            page.select_option("#lang-select", lang)
            page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        words = dialog.inner_text()
        assert cat["howto.title"].format(table=cat["rainbow.name"]) in words
        for key in ("rainbow.howto.check.shadow", "rainbow.howto.check.error",
                    "rainbow.howto.check.rainbow", "rainbow.howto.see", "rainbow.howto.end"):
            assert cat[key] in words, (lang, key)
        assert cat["rainbow.color.indigo"] in words and cat["rainbow.shape.hexagon"] in words
        assert dialog.locator(".rb-card").count() == 9
        assert not page.evaluate("[...window.__i18nMissing]")
        assert not cut_controls(page), (lang, cut_controls(page))
    shot(page, "rainbow-howto-es-phone")
    axe_check(page, "rainbow-howto")
    page.keyboard.press("Escape")
    assert page.locator(".howto-overlay").count() == 0
    assert page.evaluate("document.activeElement.id") == "rules-btn"
    assert page.locator(".rb-hand .rb-card").count() == 3


def test_equal_piles_are_a_draw(open_page):
    setup = {"hands": [[["green", "white"]], [["red", "blue"]]], "table": [["red", "orange"]],
             "piles": [[["blue", "black"]], [["yellow", "violet"]]], "deck": [], "turn": 0}
    table = rb_table(open_page, setup, viewport=DESKTOP, locale="es-ES")
    page = table.page
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")
    table.wait_view()
    page.click("[data-focus-key='act:end']")
    page.wait_for_selector(".results-overlay[data-phase=game_over]")
    dialog = page.locator(".results-overlay [role=dialog]")
    words = dialog.inner_text()
    assert text(ES, "rainbow.results.draw", n=1) in words
    assert text(ES, "rainbow.results.leftOnTable", n=2) in words
    places = page.locator(".results-table tbody td.place").all_inner_texts()
    assert places == ["1", "1"]
    assert page.locator(".results-table tr.winner").count() == 0
    shot(page, "rainbow-draw-desktop")


@pytest.mark.parametrize("viewport", [DESKTOP, {"width": 360, "height": 640}])
def test_the_results_say_how_each_player_won_their_rounds(open_page, viewport):
    """The results said only how many cards each pile held, not how they were won: now
    each player's rounds by their own Rainbows and by the other's Shadows and Errors."""
    setup = {"hands": [[["red", "blue"]], [["green", "white"]]], "table": [["red", "orange"]],
             "piles": [[["blue", "black"]], []], "deck": [], "turn": 0}
    table = rb_table(open_page, setup, viewport=viewport)
    page = table.page
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")  # red beside red: an Error, the other's round
    table.wait_view()
    if page.locator("[data-focus-key='act:end']").count():
        page.click("[data-focus-key='act:end']")
    page.wait_for_selector(".results-overlay[data-phase=game_over]")
    rows = page.locator(".results-table tbody tr")
    cells = {rows.nth(i).locator("th").inner_text().strip():
             rows.nth(i).locator("td").all_inner_texts()[1:] for i in range(2)}
    assert page.evaluate("window.__cc.view.rounds_won") == [
        {"rainbow": 0, "shadow": 0, "error": 0}, {"rainbow": 0, "shadow": 0, "error": 1}]
    assert sorted(cells.values()) == [["1", "0"], ["2", "1 by Error"]], cells
    heads = page.locator(".results-table thead th").all_inner_texts()
    assert EN["rainbow.results.rounds"] in heads, heads
    assert EN["rainbow.results.roundsHow"] in page.inner_text(".results-overlay [role=dialog]")
    assert not cut_controls(page), cut_controls(page)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # each way of winning on one line ("1 by / Error" broke inside it at 360 px)
    lines = page.locator(".results-table .rb-won").evaluate_all(
        "els => els.map(e => e.getClientRects().length)")
    assert lines == [1], lines
    shot(page, f"rainbow-results-rounds-{viewport['width']}")


@pytest.mark.parametrize("locale", ["es-ES", "tr-TR"])
def test_the_piles_keep_their_owners_names_on_a_phone_held_sideways(open_page, server, locale):
    """"Montón de Computadora 2" read "Montón d…" on a phone held sideways."""
    page = open_practice(open_page, server, {"width": 844, "height": 390}, locale=locale)
    names = page.locator(".rb-pile-name")
    names.first.wait_for()
    cut = names.evaluate_all("els => els.filter(e => e.scrollHeight > e.clientHeight + 1"
                             " || e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
    assert names.count() == 3 and not cut, cut


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844},
                                      {"width": 360, "height": 640}])
@pytest.mark.parametrize("locale", ["en-US", "es-ES", "tr-TR"])
def test_the_opponents_name_has_the_room_it_has(open_page, server, viewport, locale):
    """"Com… 2" in a mostly empty 560 px panel on a desktop, "Comput… 2" and "Montón de
    Computado…" on a phone: the name is now whole wherever there is room for it, and
    keeps its number on its line."""
    page = open_practice(open_page, server, viewport, locale=locale)
    page.locator(".rb-opp .name").wait_for()
    got = page.evaluate("""() => {
      const name = document.querySelector('.rb-opp .name');
      const piles = [...document.querySelectorAll('.rb-pile-name')];
      const lines = (e) => { const r = document.createRange(); r.selectNodeContents(e);
        return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
      return {name: name.textContent, nameLines: lines(name),
              nameCut: name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1,
              piles: piles.map((e) => [e.textContent,
                e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1])};
    }""")
    assert "…" not in got["name"] and not got["nameCut"], got
    # a duel's one computer: its label whole, unnumbered ("Computadora 2" was split over
    # two lines at 360 px)
    assert got["name"] == rb_catalog(locale[:2])["seat.computer"], got
    assert got["nameLines"] == 1, got
    assert not any(cut for _, cut in got["piles"]), got
    assert not any("…" in text for text, _ in got["piles"]), got
    shot(page, f"rainbow-name-{viewport['width']}-{locale}")


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("locale", ["en-US", "es-ES", "tr-TR"])
@pytest.mark.parametrize("level", ["hard", "random"])
def test_the_computers_tag_with_its_level_is_one_pill_on_a_phone(open_page, server, width,
                                                                   locale, level):
    """"Computer · Medium" broke over two lines inside its pill at 360 px, then ran under
    "Their backs" (48 px of "Computadora · Al azar" at 320, accessibility review): on a
    phone the pill says the level alone under the name "Computer", on one line, clear of
    the label and the backs, and the name is not broken inside a word."""
    page = open_practice(open_page, server, {"width": width, "height": 740}, locale=locale,
                         level=level)
    page.locator(".rb-opp .tag.bot").wait_for()
    got = page.evaluate("""() => {
      const tag = document.querySelector('.rb-opp .tag.bot');
      const box = (sel) => document.querySelector(sel).getBoundingClientRect();
      const r = document.createRange(); r.selectNodeContents(tag);
      const name = document.createRange();
      name.selectNodeContents(document.querySelector('.rb-opp .name'));
      const t = box('.rb-opp .tag.bot');
      const clear = (b) => t.right <= b.left || b.bottom <= t.top || t.bottom <= b.top;
      return {text: tag.innerText,
              lines: [...r.getClientRects()].filter((x) => x.width > 0)
                .map((x) => Math.round(x.top)).filter((v, i, a) => a.indexOf(v) === i).length,
              nameLines: new Set([...name.getClientRects()].map((x) => Math.round(x.top))).size,
              clearOfLabel: clear(box('.rb-their-label')),
              clearOfBacks: clear(box('.rb-opp .rb-their-cards')),
              pageWider: document.documentElement.scrollWidth > window.innerWidth};
    }""")
    cat = rb_catalog(locale[:2])
    assert got["text"].strip() == cat[f"level.{level}"], got
    assert got["lines"] == 1 and got["nameLines"] == 1, got
    assert got["clearOfLabel"] and got["clearOfBacks"], got
    assert not got["pageWider"], got


def test_a_name_fitted_before_the_styles_arrived_is_fitted_again(open_page, server):
    """A table drawn before Rainbow's stylesheet had arrived was fitted to the unstyled
    page and kept "B… 2" in a 560 px panel (a loaded machine, Turkish): the page fits the
    table again when a game's styles apply. Here the stylesheet is held back until the
    table is on screen."""
    ticket = _post(server, "/api/practice", {"game": "rainbow", "name": "Ana", "level": "random"})
    page = open_page(DESKTOP, locale="tr-TR", path="/favicon.svg")
    held = []
    page.context.route("**/css/games/rainbow.css", lambda route: held.append(route))
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"cc.seat.{ticket['code']}",
                   json.dumps({"token": ticket["token"], "seat": ticket["seat"], "ws": None})])
    page.goto(f"/r/{ticket['code']}", wait_until="commit")
    page.wait_for_selector(".rb-opp .name")
    assert held, "the stylesheet was not held back: the test proves nothing"
    early = page.locator(".rb-opp .name").text_content()
    for route in held:
        route.continue_()
    page.wait_for_function("() => getComputedStyle(document.querySelector('.rb-opp .name'))"
                           ".textOverflow === 'ellipsis'")
    page.wait_for_function("() => !document.querySelector('.rb-opp .name').textContent.includes('…')",
                           timeout=3000)
    name = page.locator(".rb-opp .name").text_content()
    assert name == rb_catalog("tr")["seat.computer"], (early, name)


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_the_turns_counter_numbers_the_card_to_play(open_page, lang):
    """"Card 0 of 3" before the first card read like an error: the counter numbers the card
    to be played (1 of 3), then says how many are played."""
    cat = {"en": EN, "es": ES, "tr": TR}[lang]
    locale = {"en": "en-US", "es": "es-ES", "tr": "tr-TR"}[lang]
    table = rb_table(open_page, turn_setup(), viewport=DESKTOP, locale=locale)
    page = table.page
    chip = page.locator(".rb-progress")
    assert chip.inner_text().strip() == text(cat, "rainbow.progress", n=1, max=3)
    assert "0" not in chip.inner_text()
    page.keyboard.press("1")
    page.keyboard.press("s")
    table.wait_view()
    assert chip.inner_text().strip() == text(cat, "rainbow.progressPlayed", n=1, max=3)
    page.click(".rb-place[data-place='0'] .rb-flippable")
    table.wait_view()  # a table card turned over: the second card is owed
    assert chip.inner_text().strip() == text(cat, "rainbow.progress", n=2, max=3)
    shot(page, f"rainbow-counter-{lang}")


def test_an_empty_deck_draws_no_line(open_page):
    """The last turn of a game draws nothing (the deck is out): the log says the game is
    over, not "Bo drew 0 cards"."""
    page = open_page(DESKTOP, locale="en-US", path="/dev.html?scene=table&lang=en", csp=False)
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate("""async () => {
      const { describeEvent } = await import('/js/games/rainbow/events.js');
      const model = { me: 0, room: { seats: [{ seat: 0, kind: 'human', name: 'Ana' },
                                             { seat: 1, kind: 'human', name: 'Bo' }] } };
      return [0, 1].flatMap((seat) => [0, 2].map((count) =>
        describeEvent({ type: 'draw', seat, count, deck: 0 }, model)));
    }""")
    assert got == ["", text(EN, "rainbow.say.you.draw", n=2), "", text(EN, "rainbow.say.draw", n=2, name="Bo")]


def test_practice_offers_no_choice_of_one_opponent(open_page):
    """A duel has one computer player: Practice says so instead of a menu of one."""
    page = open_page(DESKTOP, locale="en-US")
    page.click("label[data-game=rainbow]")
    field = page.locator("#practice-bots")
    assert field.evaluate("e => e.tagName") == "OUTPUT"
    assert field.inner_text().strip() == "1"
    assert page.locator("label[for=practice-bots]").is_visible()
    # drawn as a fixed field, in line with the Level menu beside it (a bare "1" was not)
    boxes = [page.locator(s).bounding_box() for s in ("#practice-bots", "#practice-level")]
    assert abs(boxes[0]["y"] - boxes[1]["y"]) < 1 and abs(boxes[0]["height"] - boxes[1]["height"]) < 1, boxes
    assert field.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    page.click("label[data-game=coloretto]")
    assert page.locator("select#practice-bots option").count() == 4


def test_a_card_chosen_by_its_number_is_played_by_enter(open_page):
    """Choosing a card with its number then pressing Enter, the natural next key, put the card
    back (Enter toggled the focused card). The focus now goes on to As seen, as after Enter
    on the card, so Enter plays it as seen."""
    table = rb_table(open_page, turn_setup(), viewport=DESKTOP, locale="en-US")
    page = table.page
    page.keyboard.press("1")
    assert page.locator(".rb-hand .picked").count() == 1
    page.keyboard.press("Enter")
    table.wait_view()
    assert table.sent[-1]["action"] == {"type": "play", "hand": 0, "turned": False}


def test_escape_puts_a_chosen_card_back(open_page):
    """Chosen with its number, a card stayed chosen on Escape, the focus on As seen (player
    QA): Escape puts it back and the focus on it again; nothing is sent."""
    table = rb_table(open_page, turn_setup(), viewport=DESKTOP, locale="en-US")
    page = table.page
    page.keyboard.press("2")
    assert page.locator(".rb-hand .picked").count() == 1
    sent = len(table.sent)
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelectorAll('.rb-hand .picked').length === 0")
    assert page.evaluate("document.activeElement === document.querySelectorAll('.rb-hand .rb-card')[1]")
    assert len(table.sent) == sent


def test_a_lone_computer_is_not_numbered(open_page):
    """A duel's one computer player was "Computer 2" (its seat), which read as a mistake and,
    in Turkish, put two numbers side by side: "Bilgisayar 2 2 kart çekti"."""
    page = open_page(DESKTOP, locale="tr-TR", path="/dev.html?scene=table&lang=tr", csp=False)
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate("""async () => {
      const { seatName } = await import('/js/shell/seats.js');
      const { describeEvent } = await import('/js/games/rainbow/events.js');
      const seat = (kind, name) => ({ kind, name });
      const duel = { seats: [seat('human', 'Ana'), seat('bot', 'Computer')] };
      const four = { seats: [seat('bot', 'Computer'), seat('human', 'Ana'), seat('empty', ''), seat('bot', 'Computer')] };
      return [seatName(duel, 1), seatName(four, 0), seatName(four, 3),
              describeEvent({ type: 'draw', seat: 1, count: 2, deck: 9 }, { me: 0, room: duel })];
    }""")
    assert got == ["Bilgisayar", "Bilgisayar 1", "Bilgisayar 2", "Bilgisayar, 2 kart çekti"]


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 768, "height": 1024}])
def test_a_tall_table_lays_the_row_out_in_two_lines_of_three(open_page, viewport):
    """On a 390x844 phone the six places stood in one line 56 px wide, between two empty
    bands: the row, what the game is about, was the smallest thing on the screen. Where
    the room is taller than half its width, the row takes two lines of three (1 2 3 over
    4 5 6), its cards as large as the hand's. (A scripted table: a practice game against
    the random player sometimes had a round's summary above the row, which took its
    height, and the row then fitted one line: a state the test did not choose.)"""
    page = rb_table(open_page, turn_setup(), viewport=viewport).page
    page.locator(".rb-row .rb-place").first.wait_for()
    got = page.evaluate("""() => {
      const places = [...document.querySelectorAll('.rb-row .rb-place')].map((e) => e.getBoundingClientRect());
      const hand = document.querySelector('.rb-hand .rb-card').getBoundingClientRect();
      return {tops: places.map((r) => Math.round(r.top)), lefts: places.map((r) => Math.round(r.left)),
              width: places[0].width, hand: hand.width,
              scrolls: document.scrollingElement.scrollHeight > innerHeight + 1};
    }""")
    tops, lefts = got["tops"], got["lefts"]
    assert tops[0] == tops[1] == tops[2] < tops[3] == tops[4] == tops[5], got
    assert lefts[0] < lefts[1] < lefts[2] and lefts[:3] == lefts[3:], got
    assert got["width"] >= got["hand"] * 0.95, got
    assert not got["scrolls"], got
    assert not cut_controls(page), cut_controls(page)
    shot(page, f"rainbow-row-two-lines-{viewport['width']}")


@pytest.mark.parametrize("viewport", [{"width": 844, "height": 390}, {"width": 667, "height": 375}])
def test_a_phone_held_sideways_gives_the_row_its_height(open_page, server, viewport):
    """Held sideways, a phone drew the six places 34 px wide (the row's box kept its 60 px
    minimum height in the middle of an empty band). The box now takes the board's height,
    and the row starts right of the Moves button, which keeps its name for screen
    readers."""
    page = open_practice(open_page, server, viewport)
    page.locator(".rb-row .rb-place").first.wait_for()
    got = page.evaluate("""() => {
      const places = [...document.querySelectorAll('.rb-row .rb-place')].map((e) => e.getBoundingClientRect());
      const moves = document.querySelector('.history-toggle').getBoundingClientRect();
      const hit = places.some((r) => r.left < moves.right && moves.left < r.right
                                     && r.top < moves.bottom && moves.top < r.bottom);
      return {width: Math.min(...places.map((r) => r.width)), hit,
              oneLine: new Set(places.map((r) => Math.round(r.top))).size === 1,
              scrolls: document.scrollingElement.scrollHeight > innerHeight + 1};
    }""")
    assert got["width"] >= 60 and got["oneLine"] and not got["hit"] and not got["scrolls"], got
    assert page.get_by_role("button", name=EN["history.show"]).count() == 1
    assert not cut_controls(page), cut_controls(page)
    shot(page, f"rainbow-sideways-{viewport['width']}")


@pytest.mark.parametrize("viewport", [{"width": 844, "height": 390}, {"width": 667, "height": 375}])
def test_held_sideways_the_last_round_says_who_won_it(open_page, viewport):
    """Held sideways, the summary of the last round read only "Round 1: Rainbow": who won
    it, and the other player's cards' label, were hidden, and the round's marks covered
    the next small card's symbol."""
    table = rb_table(open_page, rainbow_setup(), viewport=viewport)
    page = table.page
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")
    table.wait_view()
    last = page.locator(".rb-last")
    last.wait_for()
    who = page.locator(".rb-last-who")
    assert who.is_visible() and text(EN, "rainbow.say.you.win", n=6) in who.inner_text().lower()
    assert page.locator(".rb-their-label").is_visible()
    overlap = page.evaluate("""() => {
      const marks = [...document.querySelectorAll('.rb-last .rb-mark')].map(e => e.getBoundingClientRect());
      const cards = [...document.querySelectorAll('.rb-last .rb-card')].map(e => e.getBoundingClientRect());
      // a mark may sit on its own card's corner, not over the middle of the next card
      return marks.filter((m, i) => cards[i + 1] && m.right > cards[i + 1].left + cards[i + 1].width / 3).length;
    }""")
    assert overlap == 0
    assert not page.evaluate("document.scrollingElement.scrollHeight > innerHeight + 1")
    assert not cut_controls(page), cut_controls(page)
    width = page.evaluate("Math.min(...[...document.querySelectorAll('.rb-row .rb-place')]"
                          ".map((e) => e.getBoundingClientRect().width))")
    shot(page, f"rainbow-sideways-last-{viewport['width']}")
    assert width >= 60, width


# How many of the piles' names and numbers lie over one of your buttons.
_PILES_ON_ACTIONS = """() => {
  const piles = [...document.querySelectorAll('.rb-info .rb-pile-name, .rb-info .rb-pile-n')]
    .map((e) => e.getBoundingClientRect());
  const acts = [...document.querySelectorAll('.rb-me button')].map((e) => e.getBoundingClientRect());
  return piles.filter((p) => acts.some((a) => p.left < a.right && a.left < p.right
                                              && p.top < a.bottom && a.top < p.bottom)).length;
}"""


@pytest.mark.parametrize("locale", ["es-ES", "tr-TR"])
def test_held_sideways_the_last_round_sits_beside_the_other_player(open_page, locale):
    """Above the row, the summary's two lines took the row's height: at 667x375 the places
    were 45 px wide. Sideways it now sits in the other player's band, on its free right
    side, whole, in the longest wording (a loss to shadow: the loser and the winner)."""
    table = lose_to_shadow(open_page, viewport={"width": 640, "height": 360}, locale=locale)
    page = table.page
    page.locator(".rb-last").wait_for()
    got = page.evaluate("""() => {
      const box = (s) => document.querySelector(s).getBoundingClientRect();
      const last = box('.rb-last'), opp = box('.rb-opp'), row = box('.rb-rowbox');
      const text = document.querySelector('.rb-last-text');
      return {apart: last.left >= opp.right, above: last.bottom <= row.top,
              inside: last.left >= 0 && last.right <= innerWidth && last.top >= box('.rb-opponents').top,
              whole: text.scrollWidth <= text.clientWidth + 1 && text.scrollHeight <= text.clientHeight + 1,
              width: Math.min(...[...document.querySelectorAll('.rb-row .rb-place')]
                                  .map((e) => e.getBoundingClientRect().width))};
    }""")
    shot(page, f"rainbow-sideways-last-640-{locale[:2]}")
    assert got["apart"] and got["above"] and got["inside"] and got["whole"], got
    assert got["width"] >= 56, got
    assert not cut_controls(page), cut_controls(page)
    # you lost, so you start the next round: with the summary up, the piles stay above
    # your actions
    page.click(".rb-hand [data-hand='0']")
    page.wait_for_selector("[data-focus-key='act:turned']")
    assert page.evaluate(_PILES_ON_ACTIONS) == 0


@pytest.mark.parametrize("viewport", [{"width": 640, "height": 360}, {"width": 667, "height": 375}])
def test_on_a_short_sideways_phone_the_piles_stay_above_the_actions(open_page, server, viewport):
    """At 640x360 in Turkish your pile's name ("Yığının") ran under the "Çevirerek"
    button: the piles' column was taller than the board."""
    page = open_practice(open_page, server, viewport, locale="tr-TR")
    page.wait_for_function("window.__cc.view && window.__cc.view.turn === window.__cc.me")
    page.click(".rb-hand [data-hand='0']")
    page.wait_for_selector("[data-focus-key='act:turned']")
    hit = page.evaluate(_PILES_ON_ACTIONS)
    shot(page, f"rainbow-short-sideways-{viewport['width']}-tr")
    assert hit == 0


def test_how_to_play_over_your_turn_says_its_clock_runs_on(open_page, server):
    """A practice player read the rules at their turn for 33 s: the server played the
    turn meanwhile, unwarned (the clock ring is under the dialog)."""
    page = open_practice(open_page, server, DESKTOP)
    page.wait_for_function("window.__cc.view && window.__cc.view.turn === window.__cc.me"
                           " && window.__cc.clock && window.__cc.clock.seat === window.__cc.me")
    page.click("#rules-btn")
    dialog = page.locator(".howto-overlay [role=dialog]")
    dialog.wait_for()
    assert EN["howto.clockRunning"] in dialog.inner_text()


@pytest.mark.parametrize("viewport", [{"width": 844, "height": 390}, DESKTOP])
def test_the_other_player_leaving_or_away_is_shown_at_every_size(open_page, viewport):
    """On a phone held sideways the other player's line of tags was hidden to save height:
    that they had left, were away or were played by a substitute showed nowhere (player
    QA). The computer's level may go; those marks stay."""
    table = rb_table(open_page, turn_setup(), viewport=viewport, locale="es-ES")
    page = table.page
    bo = {"seat": 1, "kind": "human", "name": "Bo", "connected": False, "ready": True,
          "substitute": True, "left": True, "label": "Computer", "away_since": 1}
    table.room["seats"][1] = bo
    table.send([{"type": "left", "seat": 1}, {"type": "substitute", "seat": 1, "on": True}])
    badge = page.locator(".rb-opp .badge.away")
    badge.wait_for()
    assert badge.is_visible() and badge.inner_text().strip() == "Se fue"
    assert page.locator(".rb-opp .tag.bot").is_visible()  # "Computadora suplente"
    assert not cut_controls(page), cut_controls(page)
    shot(page, f"rainbow-left-{viewport['width']}x{viewport['height']}")


def test_a_card_played_leaves_the_rest_of_the_hand_as_it_was(open_page):
    """The hand's cards were matched by their place: a card played from the hand rebuilt
    the cards after it (a screen reader's place in the hand lost; a11y follow-up of the
    in-place redraw). Each card keeps its node."""
    table = rb_table(open_page, turn_setup(), viewport=DESKTOP)
    page = table.page
    page.evaluate("document.querySelectorAll('.rb-hand li').forEach((li, i) => li.__was = i)")
    table.act(0, {"type": "play", "hand": 0, "turned": False})
    table.wait_view()
    kept = page.evaluate("[...document.querySelectorAll('.rb-hand li')].map(li => li.__was)")
    assert kept == [1, 2], kept


def test_a_click_on_an_empty_place_says_how_a_card_gets_there(open_page):
    """A newcomer clicked the next free place to put a card there and nothing happened, with
    no word why (newcomer review): the place says to choose a card first, then, once one is
    chosen, which buttons play it; nothing is sent."""
    cat = rb_catalog("en")
    table = rb_table(open_page, turn_setup(), viewport=DESKTOP, locale="en-US")
    page = table.page
    sent = len(table.sent)

    def tip_says(words: str) -> None:
        page.wait_for_function("(s) => { const b = document.querySelector('.tip-bubble');"
                               " return b && !b.hidden && b.textContent === s; }", arg=words)

    page.click(".rb-place.empty.next .rb-slot")
    tip_says(cat["rainbow.hint.chooseFirst"])
    page.click(".rb-hand [data-hand='0']")
    page.click(".rb-place.empty:not(.next) .rb-slot >> nth=0")
    tip_says(cat["rainbow.hint.playChosen"])
    assert len(table.sent) == sent


def test_a_hint_bubble_stays_whole_on_a_phone(open_page):
    """On a phone the hint of an empty place was cut at the screen's left (measured where
    the last bubble stood, by the right edge: a column of six lines) and at its top (the
    places' first line is near it): it stays whole on the screen (touch review)."""
    table = rb_table(open_page, turn_setup(), viewport=PHONE, locale="tr-TR")
    page = table.page
    whole = """() => { const b = document.querySelector('.tip-bubble'), r = b.getBoundingClientRect();
      return !b.hidden && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight
        && r.height < 120; }"""
    for place in (5, 1):  # the right edge, then the left
        page.click(f".rb-place[data-place='{place}'] .rb-slot")
        page.wait_for_function(whole)
    page.click(".rb-hand [data-hand='0']")
    page.click(".rb-place.empty:not(.next) .rb-slot >> nth=0")
    page.wait_for_function(whole)
    shot(page, "rainbow-hint-phone-tr")


def test_a_winners_three_ways_of_winning_fit_a_small_phone(open_page):
    """A winning "Computadora" with rounds won three ways ("3 Arcoíris · 4 por Sombra ·
    4 por Error") took the results table 10 px past a 360 px screen, its last column cut
    (a player review)."""
    setup = {"hands": [[["red", "blue"]], [["green", "white"]]], "table": [["red", "orange"]],
             "piles": [[["blue", "black"]], []], "deck": [], "turn": 0}
    table = rb_table(open_page, setup, viewport={"width": 360, "height": 640}, locale="es-ES")
    real = table._state

    def state(events):  # (the counts of a long game, on this short one's end)
        msg = real(events)
        view = msg["view"]
        if view:
            view["rounds_won"] = [{"rainbow": 0, "shadow": 0, "error": 1},
                                  {"rainbow": 3, "shadow": 4, "error": 4}]
            if view.get("result"):
                view["result"].update(scores=[4, 48], winners=[1])
        return msg

    table._state = state
    table.room["seats"][1]["name"] = "Computadora"
    page = table.page
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")
    table.wait_view()
    if page.locator("[data-focus-key='act:end']").count():
        page.click("[data-focus-key='act:end']")
    page.wait_for_selector(".results-overlay[data-phase=game_over]")
    assert "4 por Sombra" in page.inner_text(".results-table")
    assert not cut_controls(page), cut_controls(page)
    shot(page, "rainbow-results-three-ways-360-es")


SHORT_PHONE_OVERLAPS = """() => {
  const sel = ['.rb-last', '.rb-row', '.rb-info', '.last-move', '.history-toggle',
               '.rb-me .turn-msg', '.rb-progress', '.rb-actions', '.rb-hand'];
  const boxes = sel.map((s) => [s, document.querySelector(s)]).filter(([, e]) => e && e.offsetParent)
    .map(([s, e]) => [s, e.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, r] = boxes[i], [b, q] = boxes[j];
    const down = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
    const across = Math.min(r.right, q.right) - Math.max(r.left, q.left);
    if (down > 1 && across > 1) out.push(`${a} / ${b}: ${Math.round(down)} px`);
  }
  return out; }"""


@pytest.mark.parametrize("viewport", [{"width": 320, "height": 568}, {"width": 360, "height": 560}])
@pytest.mark.parametrize("locale", ["es-ES", "tr-TR", "en-US"])
def test_a_short_phone_lays_no_line_of_the_table_over_another(open_page, viewport, locale):
    """A 360x640 phone shows about 560 px under the browser's bars. There the piles stood
    over the last move and the Moves button, and at 320 px your message, beside the count
    of cards played, was seven lines high in Spanish (a player review's screenshot). Just
    after a round lost, and with the next round's first card played."""
    table = lose_to_shadow(open_page, viewport=viewport, locale=locale)
    page = table.page
    assert page.evaluate(SHORT_PHONE_OVERLAPS) == []
    page.click(".rb-hand [data-hand='0']")
    page.click("[data-focus-key='act:seen']")
    table.wait_view()
    assert page.evaluate(SHORT_PHONE_OVERLAPS) == []
    msg = page.locator(".rb-me .turn-msg").bounding_box()
    assert msg["height"] < 4 * 22, msg  # three lines at most, not seven
    shot(page, f"rainbow-short-phone-{locale}-{viewport['width']}")


def test_a_game_may_name_its_own_computer_levels(open_page, server):
    """A game's catalog may word a computer level (``<game>.level.<name>``): a level of a
    new game's own showed "⟦level.perfect⟧" in the Practice menu, as only the shell's
    catalog named levels and a game's catalog may hold only keys of its own (a seam
    review). The game's word wins where it has one, the shell's stands for the rest, in
    the menu and on the computer's seat."""

    def games(route):
        answer = route.fetch().json()
        for g in answer["games"]:
            if g["key"] == "rainbow":
                g["bot_levels"] = [*g["bot_levels"], "perfect"]
        route.fulfill(json=answer)

    def catalog(route):
        answer = route.fetch().json()
        answer.update({"rainbow.level.perfect": "Perfect play", "rainbow.level.random": "Dice"})
        route.fulfill(json=answer)

    page = open_page(viewport=DESKTOP, path="/favicon.svg")
    page.context.route("**/api/games", games)
    page.context.route(re.compile(r".*/i18n/rainbow/en\.json.*"), catalog)
    page.goto("/")
    page.click("label[data-game=rainbow]")
    offered = page.locator("#practice-level option").all_inner_texts()
    assert "Perfect play" in offered and "Dice" in offered and "Easy" in offered, offered
    assert not any("⟦" in o for o in offered), offered
    ticket = _post(server, "/api/practice", {"game": "rainbow", "name": "Ana", "level": "random"})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"cc.seat.{ticket['code']}",
                   json.dumps({"token": ticket["token"], "seat": ticket["seat"], "ws": None})])
    page.goto(f"/r/{ticket['code']}")
    page.locator(".rb-opp .tag.bot").wait_for()
    assert "Dice" in page.inner_text(".rb-opp .tag.bot")
    # Spanish: the game's words are English's only; a level of the game's own is said in
    # English (not "⟦…⟧"), a common one in the shell's Spanish
    es = open_page(viewport=DESKTOP, locale="es-ES", path="/favicon.svg")
    es.context.route("**/api/games", games)
    es.context.route(re.compile(r".*/i18n/rainbow/en\.json.*"), catalog)
    es.goto("/")
    es.click("label[data-game=rainbow]")
    offered = es.locator("#practice-level option").all_inner_texts()
    assert "Perfect play" in offered and rb_catalog("es")["level.random"] in offered, offered
    assert not any("⟦" in o for o in offered), offered
