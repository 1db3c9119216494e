"""The table's layout at phone and desktop sizes, for every preset and seat count, from
scripted positions (tests/browser/scripted.py): the hand and the actions always in view,
a long hand that shows it goes on, nothing cut, big cards on a desktop."""

from __future__ import annotations

import re

import pytest
from browser_helpers import DESKTOP, PHONE, axe_check, catalog, cut_controls, dev_scene, shot
from scripted import ScriptedTable

from colorclash.engine.day_night_deck import DAY_NIGHT_CARDS

pytestmark = pytest.mark.browser

PRESETS = ("standard", "family", "classic-table", "siege", "day-night")
SMALL_PHONE = {"width": 360, "height": 640}

_STANDARD = [f"{c}{r}" for r in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "-skip",
                                  "-reverse", "+2") for c in "RBYG"] + ["W", "W+4"] * 4


def deck(preset: str) -> list[str]:
    if preset == "day-night":
        return [c for c in DAY_NIGHT_CARDS if not c.startswith("W") and "//W" not in c]
    extra = {"classic-table": ["R-bomb", "B-bomb"], "siege": ["R-shield", "B-shield"]}
    return extra.get(preset, []) + _STANDARD


def big_setup(preset: str, seats: int, mine: int = 10, theirs: int = 12) -> dict:
    """You begin with `mine` cards, every other seat holds `theirs`."""
    cards = deck(preset) * 3
    hands, k = [], 0
    for seat in range(seats):
        n = mine if seat == 0 else theirs
        hands.append(cards[k:k + n])
        k += n
    top = next(c for c in cards[k:] if re.match(r"[RBYG]\d", c))
    return {"hands": hands, "top": top, "draw": cards[k + 1:k + 20], "first": 0}


# What must be in view: the page does not scroll, and the hand, the actions, the piles and
# every opponent lie inside the window.
IN_VIEW_JS = """() => {
  const W = innerWidth, H = innerHeight, bad = [];
  const se = document.scrollingElement;
  if (se.scrollHeight > H + 1) bad.push(`page scrolls down: ${se.scrollHeight} > ${H}`);
  const check = (sel, what) => { for (const e of document.querySelectorAll(sel)) {
      const r = e.getBoundingClientRect(); if (!r.width) continue;
      if (r.top < -0.5 || r.bottom > H + 0.5) bad.push(`${what} cut top/bottom ${Math.round(r.top)}..${Math.round(r.bottom)} of ${H}`);
      if (!e.closest('[data-scroller]') && (r.left < -0.5 || r.right > W + 0.5))
        bad.push(`${what} cut left/right ${Math.round(r.left)}..${Math.round(r.right)}`); } };
  check('.hand .card', 'a hand card');
  check('.actions button', 'an action');
  check('.turn-msg', 'the turn message');
  check('.me-name', 'your name');
  check('.pile .card, .draw-pile-btn', 'a pile');
  check('.opp', 'an opponent');
  check('.opp .faces .card', "an opponent's other face");
  check('.status-col > *', 'a status chip');
  check('.pile-label', 'a pile label');
  for (const e of document.querySelectorAll('.opp .name'))
    if (e.textContent.length <= 14 && e.scrollWidth > e.clientWidth + 1) bad.push(`the name ${e.textContent} is cut`);
  // the middle's parts do not run into each other or into the opponents
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const line = document.querySelector('.last-row'), opps = document.querySelectorAll('.opp');
  for (const e of document.querySelectorAll('.piles > *')) {
    const r = e.getBoundingClientRect();
    if (line && meet(r, line.getBoundingClientRect())) bad.push(`${e.className} runs into the line under the piles`);
    for (const o of opps) if (meet(r, o.getBoundingClientRect())) bad.push(`${e.className} runs into an opponent`);
  }
  return bad;
}"""


def drawn_setup() -> dict:
    """Day & Night, six seats of twelve cards: you draw a card you may play (PLAY/KEEP)."""
    day = [c for c in DAY_NIGHT_CARDS if re.match(r"[RBG]\d", c)]
    top = next(c for c in day if c.startswith("R5"))
    mine = [c for c in day if c[0] in "BG" and not c.startswith(("B5", "G5"))][:10]
    rest = [c for c in DAY_NIGHT_CARDS if c not in mine and c != top]
    draw = [c for c in day if c[0] == "R" and c != top][:3]
    return {"hands": [mine, *(rest[i * 12:(i + 1) * 12] for i in range(5))], "top": top,
            "draw": draw, "first": 0}


@pytest.mark.parametrize("size,locale", [("640", "es-ES"), ("740", "tr-TR")])
def test_hand_and_actions_are_always_in_view_on_a_phone(open_page, size, locale):
    viewport = SMALL_PHONE if size == "640" else PHONE
    table = ScriptedTable(open_page, preset="day-night", seats=6, viewport=viewport,
                          setup=big_setup("day-night", 6), locale=locale)
    page = table.page
    problems = []
    for preset in PRESETS:
        for seats in range(2, 7):
            for setup in (None, big_setup(preset, seats)):
                table.reset(preset=preset, seats=seats, setup=setup, seed=seats)
                table.wait_view()
                name = f"{preset} {seats} seats{' big hands' if setup else ''}"
                problems += [f"{name}: {p}" for p in page.evaluate(IN_VIEW_JS)]
                problems += [f"{name}: {p}" for p in cut_controls(page)]
                if setup and seats == 6 and preset == "day-night":
                    shot(page, f"layout-day-night-6-{size}")
    # the tightest: six seats of Day & Night and two rows of actions after a draw
    table.reset(preset="day-night", seats=6, setup=drawn_setup())
    table.act(0, {"type": "draw"})
    table.wait_view()
    assert page.locator(".actions button").count() == 2
    problems += [f"drawn: {p}" for p in page.evaluate(IN_VIEW_JS) + cut_controls(page)]
    shot(page, f"layout-day-night-6-drawn-{size}")
    assert not problems, "\n".join(problems[:40])


def test_a_long_hand_shows_it_goes_on_and_keeps_playable_cards_in_reach(open_page):
    # fourteen cards; only the greens (sorted last) can be played on the green top
    hand = ["R1", "R2", "R4", "R6", "R8", "B1", "B2", "B5", "B8", "Y1", "Y4", "Y9", "G2", "G7"]
    setup = {"hands": [hand, ["Y7", "Y8"]], "top": "G3", "draw": ["B3", "B4", "Y2"],
             "first": 0}
    table = ScriptedTable(open_page, preset="classic-table", seats=2, setup=setup,
                          viewport=PHONE)
    page = table.page
    page.wait_for_timeout(200)
    geometry = """() => { const ul = document.querySelector('.hand'), box = ul.getBoundingClientRect();
      return [...ul.querySelectorAll('.card')].map(c => { const r = c.getBoundingClientRect();
        return {card: c.dataset.card, playable: c.classList.contains('playable'),
                whole: r.left >= box.left - 1 && r.right <= box.right + 1,
                seen: Math.min(r.right, box.right) - Math.max(r.left, box.left)}; }); }"""
    cards = page.evaluate(geometry)
    assert len(cards) == 14
    # the playable cards are in reach on arrival
    assert any(c["playable"] and c["whole"] for c in cards), cards
    # the hidden part of the hand is announced on both sides where it is
    hidden_left = sum(1 for c in cards if c["seen"] < 20)
    more = page.locator(".hand-more:visible")
    assert more.count() >= 1, "no sign that the hand goes on"
    labels = " ".join(more.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"))
    assert any(ch.isdigit() for ch in labels), labels
    for btn in more.evaluate_all("els => els.map(e => e.getBoundingClientRect().width)"):
        assert btn >= 44
    shot(page, "long-hand-phone")
    axe_check(page, "long-hand")
    # browse to the start: the sign on the other side takes over, cards step in whole
    start = page.locator(".hand-more[data-side=start]")
    if hidden_left:
        for _ in range(6):
            if not start.is_visible():
                break
            start.click()
            page.wait_for_timeout(150)
        cards = page.evaluate(geometry)
        assert cards[0]["whole"], cards[0]
        assert page.locator(".hand-more[data-side=end]").is_visible()
    # whatever the scroll, no card sits cut in half at either edge once it settles
    page.evaluate("document.querySelector('.hand').scrollLeft = 97")
    page.wait_for_timeout(400)
    cards = page.evaluate(geometry)
    edge = [c for c in cards if 4 < c["seen"] < 30]
    assert not edge, edge


def test_the_colour_chooser_fits_a_small_phone_in_every_language(open_page):
    setup = {"hands": [["W", "W+4", "R5"], ["Y1", "Y2"]], "top": "R3",
             "draw": ["B3", "B4"], "first": 0}
    table = ScriptedTable(open_page, preset="classic-table", seats=2, setup=setup,
                          viewport=SMALL_PHONE)
    page = table.page
    page.click(".hand .card[data-card='W+4']")
    page.wait_for_selector(".color-overlay [role=dialog]")
    for lang in ("en", "es", "tr"):
        page.select_option("#lang-select", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        page.wait_for_timeout(60)
        assert catalog(lang)["color.Y"] in page.inner_text(".color-overlay")
        assert not cut_controls(page), (lang, cut_controls(page))
        shot(page, f"colour-chooser-{lang}-360")


def test_the_desktop_table_uses_the_screen(open_page):
    table = ScriptedTable(open_page, preset="day-night", seats=4, viewport=DESKTOP,
                          setup=big_setup("day-night", 4, mine=8, theirs=7))
    page = table.page
    table.wait_view()
    size = page.evaluate("""() => { const box = s => document.querySelector(s).getBoundingClientRect();
        const opp = document.querySelectorAll('.opp');
        const el = s => document.querySelector(s);
        return {hand: el('.hand .card').offsetWidth, pile: el('.discard .card').offsetWidth,
                face: [el('.opp .faces .card').offsetWidth, el('.opp .faces .card').offsetHeight],
                spread: box('.opp:last-child').right - box('.opp:first-child').left,
                W: innerWidth}; }""")
    assert size["hand"] >= 110, size
    assert size["pile"] >= 120, size
    assert size["face"][0] >= 40 and size["face"][1] >= 60, size
    assert size["spread"] >= 0.6 * size["W"], size
    assert not page.evaluate(IN_VIEW_JS)
    shot(page, "desktop-day-night-4")
    # on a phone the faces are readable and nothing is cut
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    face = page.evaluate("document.querySelector('.opp .faces .card').offsetWidth")
    assert face >= 28, face
    assert not page.evaluate(IN_VIEW_JS)


BADGES_IN_CHIPS_JS = """() => {
  const bad = [];
  for (const o of document.querySelectorAll('.opp')) {
    const r = o.getBoundingClientRect();
    for (const b of o.querySelectorAll('.badge, .tag')) {
      const q = b.getBoundingClientRect();
      if (q.left < r.left - 0.5 || q.right > r.right + 0.5 || q.bottom > r.bottom + 0.5)
        bad.push(`${b.textContent}: ${Math.round(q.left)}..${Math.round(q.right)} in a chip `
                 + `of ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  return [bad, document.querySelectorAll('.opp .badge, .opp .tag').length];
}"""


@pytest.mark.parametrize("size", [{"width": 320, "height": 568}, SMALL_PHONE,
                                  {"width": 844, "height": 390}, DESKTOP])
@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_an_opponents_badges_stay_in_its_chip(open_page, size, lang):
    """"Suplente de la computadora" (a computer substitute plays the seat), "¡UNA CARTA!"
    and "Ausente" ran out of the opponents' chips on phones, past the screen's edge at 320
    px, in every language; they wrap inside now."""
    page = open_page(viewport=size, path=f"/dev.html?scene=table&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    bad, seen = page.evaluate(BADGES_IN_CHIPS_JS)
    assert seen >= 3  # the scene has the substitute, the last card and the away badges
    assert not bad, bad


PILES_AT_JS = """() => { const r = document.querySelector('.pile .card').getBoundingClientRect();
  return [Math.round(r.top), Math.round(r.height)]; }"""


@pytest.mark.parametrize("size", [{"width": 320, "height": 568}, SMALL_PHONE, PHONE])
def test_the_piles_stay_put_between_your_turn_and_anothers_on_a_phone(open_page, size):
    """Your bar held a row of buttons on your turn and a line of text on another's: the
    piles above moved up and down with every turn."""
    page = open_page(viewport=size, path="/dev.html?scene=table&lang=es")
    page.wait_for_function("window.__devReady === true")
    mine = page.evaluate(PILES_AT_JS)
    page.goto("/dev.html?scene=bomb&lang=es")
    page.wait_for_function("window.__devReady === true")
    assert page.locator(".actions button").count() == 0  # another's turn: no buttons
    assert page.evaluate(PILES_AT_JS) == mine


OPPONENTS_IN_VIEW_JS = """() => {
  const bad = [];
  const opps = [...document.querySelectorAll('.opp')];
  for (const o of opps) {
    const r = o.getBoundingClientRect();
    const name = o.querySelector('.name').textContent;
    if (r.left < 0 || r.right > innerWidth + 0.5) bad.push(`${name}: ${r.left}-${r.right}`);
    const f = o.querySelector('.faces');
    if (f && f.scrollWidth > f.clientWidth + 1) bad.push(`${name}: faces ${f.scrollWidth}/${f.clientWidth}`);
  }
  return [bad, opps.length];
}"""


@pytest.mark.parametrize("size", [{"width": 844, "height": 390}, {"width": 667, "height": 375}])
def test_five_opponents_all_show_on_a_phone_held_sideways(open_page, size):
    """With six at the table the opponents' row ran past the screen's right edge on a
    phone held sideways: the fourth and fifth were out of sight unless scrolled to."""
    page = open_page(viewport=size, path="/dev.html?scene=day-night-6&lang=es")
    page.wait_for_function("window.__devReady === true")
    bad, seen = page.evaluate(OPPONENTS_IN_VIEW_JS)
    assert seen == 5
    assert not bad, bad


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_computer_players_names_keep_their_numbers_when_cut(open_page, lang):
    """Five opponents on a phone held sideways: "Computer 2" and "Computer 5" were both
    cut to "Comput…"; a name that ends in a number now keeps it ("Comp… 2")."""
    page = open_page(viewport={"width": 667, "height": 375},
                     path=f"/dev.html?scene=day-night-6&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    names = page.evaluate("""Array.from(document.querySelectorAll('.opp .name')).map(e => {
        const r = document.createRange(); r.selectNodeContents(e);
        return [e.dataset.full, e.textContent, r.getBoundingClientRect().width, e.clientWidth];
    })""")
    numbered = [n for n in names if n[0].split()[-1].isdigit()]
    assert len(numbered) == 2, names
    for full, shown, width, room in numbered:
        assert shown.endswith(" " + full.split()[-1]), (full, shown)
        assert width <= room, (full, shown, width, room)  # nothing of it left to CSS
    assert len({shown for _, shown, _, _ in numbered}) == 2


TURN_MARKER_JS = """() => {
    const a = document.querySelector('.opp.turn .turn-arrow');
    const chip = a.closest('.opp'), name = chip.querySelector('.name');
    const ra = a.getBoundingClientRect(), rn = name.getBoundingClientRect();
    const top = document.elementFromPoint(ra.left + ra.width / 2, ra.top + 1);
    return {over: ra.bottom - rn.top, whole: top === a || a.contains(top)};
}"""


@pytest.mark.parametrize(("scene", "viewport", "lang"), [
    ("their-turn-6", {"width": 844, "height": 390}, "es"),
    ("their-turn-2", {"width": 667, "height": 375}, "en"),
    ("their-turn-6", {"width": 360, "height": 640}, "tr"),
    ("their-turn-2", PHONE, "es"),
    ("their-turn-6", DESKTOP, "en"),
])
def test_the_turn_marker_sits_over_the_opponents_name_not_on_it(open_page, scene, viewport,
                                                                lang):
    """On a phone the TURN marker covered the top of the opponent's name ("TURNO" over
    "Computadora 4", 6 px at 844x390) and, held sideways, its own top went under the bar
    (player QA)."""
    page = open_page(viewport=viewport, path=f"/dev.html?scene={scene}&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(TURN_MARKER_JS)
    assert got["over"] <= 0 and got["whole"], got


def test_one_turn_marker_in_a_last_card_window(open_page):
    """In a last-card window the table waits on the seat that may still call; the next
    seat may not play yet. Both were marked as having the turn."""
    page = open_page(viewport=PHONE, path="/dev.html?scene=window&lang=es")
    page.wait_for_function("window.__devReady === true")
    marked = page.locator(".opp.turn .name").all_inner_texts()
    assert marked == ["Bo"]
    assert page.locator(".me-bar.turn").count() == 0


VISIBLE_KEY_HINTS = """() => [...document.querySelectorAll('.kbd, .key-help')]
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .map((e) => e.textContent.trim().slice(0, 20))"""


@pytest.mark.parametrize("scene", ["table", "drawn", "coloretto"])
def test_no_key_hints_on_a_touch_phone(chromium, server, scene):
    """[D], [S], [T] badges and the key help showed on touch phones, which have no keys to
    press; a mouse and keyboard still get them."""
    seen = {}
    for touch in (False, True):
        with dev_scene(chromium, server, scene, touch=touch,
                       viewport=None if touch else DESKTOP) as page:
            seen[touch] = page.evaluate(VISIBLE_KEY_HINTS)
            if touch:
                shot(page, f"touch-no-keys-{scene}")
    assert seen[False], "a desktop shows its key hints"
    assert seen[True] == [], seen[True]


TOP_AT_NEXT_CORNER = """() => {
  const cards = [...document.querySelectorAll('.hand .card')];
  const i = cards.findIndex((c) => c.classList.contains('playable') && cards[cards.indexOf(c) + 1]);
  const next = cards[i + 1].getBoundingClientRect();
  const card = cards[i].getBoundingClientRect();
  // a point of the next card's index corner that the card before it overlaps
  const x = next.left + 6, y = next.top + 20;
  const top = document.elementFromPoint(x, y);
  return {overlap: card.right > x, index: i, on: cards.indexOf(top.closest('.card'))};
}"""


def test_a_tapped_card_does_not_stand_over_its_neighbour_on_a_touch_phone(chromium, server):
    """A tap leaves :hover on the card touched; a playable card under it was raised over
    its neighbour in the overlapping hand, hiding it (a Wild beside a green 7). A mouse
    over a card still raises it on a desktop."""
    for touch in (True, False):
        with dev_scene(chromium, server, "table", touch=touch) as page:
            page.evaluate("document.activeElement && document.activeElement.blur()")
            first = page.evaluate(TOP_AT_NEXT_CORNER)
            assert first["overlap"] and first["on"] == first["index"] + 1, first
            box = page.locator(".hand .card").nth(first["index"]).bounding_box()
            page.mouse.move(box["x"] + 8, box["y"] + box["height"] / 2)  # (where a tap leaves it)
            got = page.evaluate(TOP_AT_NEXT_CORNER)
            # touch: the neighbour stays on top; a mouse raises the card it points at
            assert got["on"] == (first["index"] + 1 if touch else first["index"]), (touch, got)


HISTORY_AT_ITS_END = """() => {
  const panel = document.querySelector('#history');
  const list = panel.querySelector('.history-list');
  for (const e of [panel, list]) e.scrollTop = e.scrollHeight;  // the newest moves in view
  const p = panel.getBoundingClientRect();
  const head = panel.querySelector('.history-title').getBoundingClientRect();
  const newest = panel.querySelector('li.newest').getBoundingClientRect();
  const l = list.getBoundingClientRect();
  return {overflows: list.scrollHeight > list.clientHeight + 1 || panel.scrollHeight > panel.clientHeight + 1,
          headInPanel: head.top >= p.top - 0.5 && head.bottom <= p.bottom + 0.5,
          newestShown: newest.bottom <= l.bottom + 1 && newest.top >= l.top - 1,
          listFocusable: list.tabIndex === 0,
          // the oldest line shown, cut by the heading, fades out rather than showing half
          faded: /gradient/.test(getComputedStyle(list).maskImage || getComputedStyle(list).webkitMaskImage)};
}"""


@pytest.mark.parametrize(("scene", "viewport", "lang"), [
    ("window", {"width": 1280, "height": 600}, "en"),
    ("window", {"width": 1280, "height": 600}, "es"),
    ("history-open", {"width": 360, "height": 640}, "tr"),
    ("history-open", {"width": 390, "height": 844}, "en"),
])
def test_the_history_heading_stays_while_its_list_scrolls(open_page, scene, viewport, lang):
    """The "Recent moves" panel scrolled its heading away with an overflowing list: now the
    heading stays and the list scrolls under it (and takes the Tab stop to be scrolled)."""
    page = open_page(viewport, path=f"/dev.html?scene={scene}&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(HISTORY_AT_ITS_END)
    assert got["overflows"], got  # the case at hand: more moves than room
    assert got["headInPanel"], got
    assert got["newestShown"], got
    assert got["faded"], got
    shot(page, f"history-heading-{scene}-{viewport['width']}-{lang}")


@pytest.mark.parametrize(("scene", "viewport"), [
    ("history-open-6", {"width": 360, "height": 640}),
    ("history-open-6", {"width": 844, "height": 390}),
    ("history-open", {"width": 390, "height": 844}),
])
def test_the_moves_opened_on_a_phone_are_sized_from_the_screen(open_page, scene, viewport):
    """On a phone the open moves were sized from the table's middle: at six seats, 98 px
    for the panel, one line of moves. Now the sheet takes up to 70% of the screen, above
    its bottom edge and below its top."""
    page = open_page(viewport, path=f"/dev.html?scene={scene}&lang=en")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate("""() => {
      const p = document.querySelector('#history').getBoundingClientRect();
      const l = document.querySelector('#history .history-list');
      return {top: p.top, bottom: p.bottom, height: p.height, innerHeight: window.innerHeight,
              listLines: Math.floor(l.clientHeight / parseFloat(getComputedStyle(l).lineHeight || 20))};
    }""")
    assert got["height"] >= 0.6 * got["innerHeight"], got  # (the list overflows: it is full)
    assert got["top"] >= 0 and got["bottom"] <= got["innerHeight"], got
    shot(page, f"history-sheet-{scene}-{viewport['width']}")


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_opponents_names_are_whole_where_the_row_has_room(open_page, seats, locale):
    """A phone held sideways with three computers read "C… 1", "C… 2", "C… 3" in chips
    as wide as their names, with half the row empty: the fitting counted a 4 px margin
    against a box that grows with its name."""
    table = ScriptedTable(open_page, preset="classic-table", seats=seats,
                          viewport={"width": 844, "height": 390}, locale=locale)
    page = table.page
    table.wait_view()
    names = page.evaluate("""() => [...document.querySelectorAll('.opp .name')]
      .map((e) => [e.dataset.full, e.textContent, e.scrollWidth <= e.clientWidth])""")
    assert len(names) == seats - 1, names
    assert all(shown == full and whole for full, shown, whole in names), names


TOAST_OVER = """async (text) => {
  const { toast } = await import('/js/ui.js');
  toast(text, 60000);
  const t = document.querySelector('.toast').getBoundingClientRect();
  const hit = [...document.querySelectorAll('.opp, .ct-player, .rb-opp')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width && r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom;
  }).map((e) => e.innerText.split('\\n')[0]);
  const under = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
  return {hit, inView: t.top >= 0, clicksThrough: !!under && !under.closest('.toast')};
}"""


@pytest.mark.parametrize(("scene", "viewport", "lang"), [
    ("window", {"width": 390, "height": 844}, "tr"),
    ("window", {"width": 1280, "height": 800}, "en"),
    ("coloretto", {"width": 390, "height": 844}, "es"),
    ("coloretto", {"width": 1280, "height": 800}, "en"),
])
def test_a_toast_at_the_table_leaves_the_other_players_in_view(open_page, scene, viewport, lang):
    """"You are the host now" stood over an opponent's name and clock for its lifetime."""
    page = open_page(viewport, path=f"/dev.html?scene={scene}&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(TOAST_OVER, catalog(lang)["room.hostNow"])
    assert got["hit"] == [] and got["inView"], got
    assert got["clicksThrough"], got
    shot(page, f"toast-at-the-table-{scene}-{viewport['width']}-{lang}")


_FACES_FANS = """() => {
  const out = {bleed: [], heights: []};
  for (const fan of document.querySelectorAll('.opp .faces')) {
    out.heights.push(fan.getBoundingClientRect().height);
    const cards = [...fan.querySelectorAll('.card.face')]
      .filter((e) => e.offsetParent !== null && !e.classList.contains('faces-more'));
    for (let i = 0; i + 1 < cards.length; i++) {
      const idx = cards[i].querySelector('.corner.tl .idx').getBoundingClientRect();
      if (idx.right > cards[i + 1].getBoundingClientRect().left + 0.5) out.bleed.push(cards[i].dataset.card);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, DESKTOP,
                                      {"width": 844, "height": 390}])
def test_an_opponents_fan_of_faces_is_spaced_for_the_cards_it_shows(open_page, viewport):
    """On a phone a fan shows 5 faces and "+N", but it was spaced for the 9 and "+N" of a
    desktop (an inline count outranked the phone's rule): the corners ran together, "+5"
    beside a "7" read "+57", with a third of the chip empty. Each fan is spaced for what
    it shows and uses its width."""
    page = open_page(viewport, path="/dev.html?scene=day-night-6&lang=es")
    page.wait_for_function("window.__devReady === true")
    fans = page.evaluate("""() => [...document.querySelectorAll('.opp .faces')].map((f) => {
      const shown = [...f.querySelectorAll('.card.face')].filter((e) => e.offsetParent !== null);
      const box = f.getBoundingClientRect();
      const last = shown[shown.length - 1].getBoundingClientRect();
      return {n: Number(getComputedStyle(f).getPropertyValue('--n')), shown: shown.length,
              step: shown.length > 1 ? shown[1].getBoundingClientRect().left - shown[0].getBoundingClientRect().left : null,
              width: shown[0].getBoundingClientRect().width, used: (last.right - box.left) / box.width}; })""")
    assert fans and all(f["n"] == f["shown"] for f in fans), fans
    full = [f for f in fans if f["shown"] >= 6]
    assert full, fans  # (the scene has long hands)
    # each card's corner shows 14 px or more (8 px ran the indices together), and on a
    # phone a long fan reaches its box's end; held sideways, five small fans share the
    # row: a third of each card or more (a 4 px step of ten was a smear)
    if viewport["height"] < 520:
        assert all(f["step"] >= 0.3 * f["width"] for f in full), full
        return
    assert all(f["step"] >= 14 for f in full), full
    if viewport["width"] < 600:
        assert all(f["used"] > 0.95 for f in full), full


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, PHONE, DESKTOP])
def test_an_opponents_other_faces_read_one_by_one_and_are_a_full_target(open_page, viewport):
    """Day & Night: in the fan of an opponent's other faces, "+1" ran onto the next card
    (by an 8 it read "+18"), and on a phone the fan, a button, was 33 px tall."""
    page = open_page(viewport, path="/dev.html?scene=day-night&lang=es")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(_FACES_FANS)
    assert got["heights"] and min(got["heights"]) >= 44, got
    assert got["bleed"] == [], got
    page.goto("/dev.html?scene=day-night-6&lang=es")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(_FACES_FANS)
    assert len(got["heights"]) == 5 and min(got["heights"]) >= 44, got


@pytest.mark.parametrize(("viewport", "shown", "pill"), [(PHONE, 5, "+7"), (DESKTOP, 9, "+3")])
def test_a_long_hands_other_faces_fan_out_only_as_far_as_they_read(open_page, viewport, shown, pill):
    """Twenty-one other faces in a phone's chip were a smear of corners ("1 9 4 6 2 4 1 6 9
    8…"): the fan shows the first ones and "+N" for the rest (a tap shows them all),
    fewer on a phone's narrow chip."""
    page = open_page(viewport, path="/dev.html?scene=day-night-6&lang=en")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate("""() => {
      const fan = document.querySelector('.opp[data-seat="2"] .faces');
      const visible = [...fan.children].filter((e) => e.offsetParent !== null);
      return {cards: visible.filter((e) => !e.classList.contains('faces-more')).length,
              pills: visible.filter((e) => e.classList.contains('faces-more')).map((e) => e.textContent),
              label: fan.getAttribute('aria-label')};
    }""")
    assert got["cards"] == shown and got["pills"] == [pill], got
    assert "12" in got["label"], got  # the button still names them all


@pytest.mark.parametrize("size", [{"width": 844, "height": 390}, {"width": 667, "height": 375}])
def test_a_phone_held_sideways_still_says_what_just_happened(open_page, size):
    """Held sideways, the line under the piles went (the middle is short) and what just
    happened was in the Moves panel alone (a player review): it stands beside the piles,
    after the Moves button, clear of them and of the screen's edge."""
    table = ScriptedTable(open_page, preset="standard", seats=3, viewport=size)
    page = table.page
    table.others()
    table.wait_view()
    page.wait_for_function("() => document.querySelector('.last-move').textContent.trim()"
                           " .length > 1")
    boxes = page.evaluate("""() => {
      const box = (s) => { const r = document.querySelector(s).getBoundingClientRect();
        return {l: r.left, r: r.right, t: r.top, b: r.bottom, w: r.width, h: r.height}; };
      return {line: box('.last-move'), toggle: box('.history-toggle'), piles: box('.piles')};
    }""")
    line = boxes["line"]
    assert line["w"] > 100 and line["h"] > 10, boxes
    assert line["r"] <= size["width"] and line["b"] <= size["height"], boxes
    for other in ("toggle", "piles"):
        o = boxes[other]
        assert line["l"] >= o["r"] or line["r"] <= o["l"] or line["t"] >= o["b"] \
            or line["b"] <= o["t"], (other, boxes)
    shot(page, f"sideways-last-move-{size['width']}")


def test_sideways_with_the_history_beside_the_table_the_line_is_not_said_twice(open_page):
    """At 915x412 the history stands beside the table already: with six seats (the middle
    under 136 px) the line beside the piles said the same move twice (a review)."""
    table = ScriptedTable(open_page, preset="day-night", seats=6,
                          viewport={"width": 915, "height": 412}, locale="tr-TR")
    page = table.page
    page.wait_for_selector(".history")
    assert page.locator(".history").is_visible()
    assert page.evaluate("document.querySelector('.center').clientHeight") <= 136
    assert not page.locator(".last-move").is_visible()
