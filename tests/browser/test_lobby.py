"""Words of the home page and the lobby that must match what the player can do: the
Quick Match promise of each game, the guest's waiting line, and a lobby message that does
not follow the player onto the table."""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, PHONE, catalog, create_room, cut_controls, join_as_guest, shot
from scripted import ScriptedTable

from colorclash.engine import GAMES

pytestmark = pytest.mark.browser

EN = catalog("en")


def _plural(entry, n: int) -> str:
    text = entry if isinstance(entry, str) else entry["one" if n == 1 else "other"]
    return text.replace("{n}", str(n))


@pytest.mark.parametrize("game", list(GAMES))
def test_quick_match_promises_only_tables_the_game_has(open_page, game):
    """A two-player game (Rainbow) never starts a Quick Match table "with fewer after a
    short wait": it starts when the second player is found."""
    page = open_page(DESKTOP)
    page.wait_for_selector("#btn-play-now")
    page.click(f"label[data-game={game}]")
    page.wait_for_function(f"() => document.querySelector('#game-{game}').checked")
    games = page.evaluate("fetch('/api/games').then(r => r.json())")["games"]
    d = next(g for g in games if g["key"] == game)
    n = d["quick_match_seats"]
    text = page.inner_text("section[aria-labelledby=h-quick]")
    if n <= d["seats"]["min"]:
        assert _plural(EN["home.quickSeatsFull"], n) in text, text
        assert "fewer" not in text, text
    else:
        assert _plural(EN["home.quickSeats"], n) in text, text


def _fewer(n: int, m: int) -> str:
    """The host's status when the table could start now at ``m`` seats."""
    return _plural(EN["room.waitingSeatsFewer"], n).replace("{m}", str(m))


@pytest.mark.parametrize("scene, key", [("room-guest", "room.waitingSeatsGuest"),
                                        ("room-host", "room.waitingSeatsFewer")])
def test_only_the_host_is_told_to_add_computers(open_page, scene, key):
    """A guest cannot add computer players: their lobby does not tell them to. The host
    of a table that could start now at fewer seats is told that too (two friends in a
    room of the default four read "Waiting for 2 more players (or add computers)" and
    waited for nobody)."""
    page = open_page(PHONE, path=f"/dev.html?scene={scene}&lang=en")
    status = page.wait_for_selector("#room-status")
    empty = page.locator(".seat-row[data-kind=empty]").count()
    assert empty, "the scene has an empty seat"
    taken = page.locator(".seat-row").count() - empty
    assert status.inner_text() == _plural(EN[key], empty).replace("{m}", str(taken))
    if scene == "room-guest":
        assert page.locator("[data-focus-key$=':add-bot']").count() == 0
        assert "or add" not in status.inner_text()


def test_a_lobby_message_does_not_stand_over_the_table(open_page):
    """Start pressed too early says why in a toast; when the table then opens (the seat
    filled, Start again), that lobby message is gone at once, not left over the cards."""
    table = ScriptedTable(open_page, preset="classic-table", seats=3, deal=False)
    page = table.page
    table.room["seats"][2] = {"seat": 2, "kind": "empty", "name": None, "connected": False,
                              "ready": False, "substitute": False, "away_since": None}
    table.send([])
    page.wait_for_selector(".seat-row[data-kind=empty]")
    page.click("#btn-start", force=True)  # aria-disabled: it says why instead
    toast = page.locator(".toast")
    assert toast.is_visible() and toast.inner_text() == _fewer(1, 2)
    table.deal()
    page.wait_for_selector(".table-screen")
    assert not toast.is_visible(), toast.inner_text()


def test_the_greyed_starts_toast_goes_when_the_seats_change(open_page):
    """Start pressed too early said "Waiting for 2 more players" in a toast; a computer
    added at once made the status "1 more player", while the toast still said 2."""
    table = ScriptedTable(open_page, preset="classic-table", seats=4, deal=False)
    page = table.page
    for seat in (2, 3):
        table.room["seats"][seat] = {"seat": seat, "kind": "empty", "name": None, "connected": False,
                                     "ready": False, "substitute": False, "away_since": None}
    table.send([])
    page.wait_for_selector(".seat-row[data-kind=empty]")
    page.click("#btn-start", force=True)  # aria-disabled: it says why instead
    toast = page.locator(".toast")
    assert toast.is_visible() and toast.inner_text() == _fewer(2, 2)
    table.room["seats"][2] = _seat(2, "bot")
    table.send([])
    page.wait_for_function(f"() => document.querySelector('#room-status').textContent"
                           f" === {_fewer(1, 3)!r}")
    assert not toast.is_visible(), toast.inner_text()


def test_a_guest_who_is_not_ready_is_told_it_is_them_waited_for(open_page):
    """A guest who had not pressed "I'm ready" read "Waiting for 1 player to be ready":
    the one waited for was themselves."""
    host = open_page(DESKTOP)
    code = create_room(host, "Hana")
    host.select_option("#set-seats", "2")
    guest = open_page(PHONE)
    join_as_guest(guest, code, "Gus")
    guest.wait_for_selector("#btn-ready")
    status = "() => document.querySelector('#room-status').textContent"
    guest.wait_for_function(f"{status} === {EN['room.waitingForYou']!r}")
    host.wait_for_function(f"{status} === {_plural(EN['room.waitingReady'], 1)!r}")
    guest.click("#btn-ready")
    guest.wait_for_function(f"{status} === {EN['room.waitHostStart']!r}")
    # the host changes the table: the server asks for Ready again, and the guest is told
    # why their Ready went back (it did so without a word)
    host.select_option("#set-clock", "60")
    guest.wait_for_function(f"{status} === {EN['room.waitingForYou']!r}")
    toast = guest.locator(".toast")
    toast.wait_for()
    assert toast.inner_text() == EN["room.readyAgain"]


def test_a_setting_of_one_value_is_said_not_offered_as_a_menu(open_page):
    """The table presets' match is one round: a menu of one choice stood in the home
    page's room form and the lobby (player review). It is said, as a one-size table's
    seats are; a preset of several lengths has its menu."""
    host = open_page(PHONE)
    host.wait_for_selector("#room-opt-match")
    one_round = host.locator("output#room-opt-match")
    assert one_round.count() == 1 and host.locator("select#room-opt-match").count() == 0
    assert "1" in one_round.inner_text()
    one_round.scroll_into_view_if_needed()
    shot(host, "home-match-one-round")
    create_room(host, "Hana")
    assert host.locator("output#set-match").count() == 1
    # and why (a grey box alone read as a control that did not work, player review)
    field = host.locator("label.field", has=host.locator("output#set-match"))
    assert EN["room.fixedByRules"] in field.inner_text()
    shot(host, "lobby-match-one-round")
    field.scroll_into_view_if_needed()
    shot(host, "lobby-match-one-round-field")
    assert host.locator("select#set-match").count() == 0
    host.select_option("#set-preset", "standard")
    host.wait_for_selector("select#set-match")
    assert host.locator("select#set-match option").count() > 1
    shot(host, "lobby-match-menu-standard")


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "tr"), (DESKTOP, "es")])
def test_a_toast_in_the_lobby_leaves_the_room_code_in_view(open_page, viewport, lang):
    """"You are the host now" stood over the room code, the one thing a new host has to
    share, for six seconds (player review): it stands over the top bar, clicks going
    through it."""
    page = open_page(viewport, path=f"/dev.html?scene=room-host&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate("""async (text) => {
      const { toast } = await import('/js/ui.js');
      toast(text, 60000);
      const t = document.querySelector('.toast').getBoundingClientRect();
      const c = document.querySelector('#room-code').getBoundingClientRect();
      const under = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
      return {over: c.top < t.bottom && t.top < c.bottom && c.left < t.right && t.left < c.right,
              inView: t.top >= 0, clicksThrough: !!under && !under.closest('.toast')};
    }""", catalog(lang)["room.hostNow"])
    assert not got["over"] and got["inView"] and got["clicksThrough"], got
    shot(page, f"toast-in-the-lobby-{viewport['width']}-{lang}")


def _a_room_with_a_ready_guest(open_page):
    """Hana's room of four on a desktop, Gus seated from a phone and ready: (host, guest)."""
    host = open_page(DESKTOP)
    code = create_room(host, "Hana")
    guest = open_page(PHONE)
    join_as_guest(guest, code, "Gus")
    guest.wait_for_selector("#btn-ready")
    guest.click("#btn-ready")
    return host, guest


def test_a_host_who_sets_seats_as_told_can_start_at_once(open_page):
    """The host of two friends in a room of four is told to set Seats to 2 to play now;
    doing so took back the guest's Ready and Start stayed off (player QA)."""
    host, guest = _a_room_with_a_ready_guest(open_page)
    status = "() => document.querySelector('#room-status').textContent"
    host.wait_for_function(f"{status} === {_fewer(2, 2)!r}")
    host.select_option("#set-seats", "2")
    host.wait_for_function("() => document.querySelector('#btn-start')"
                           ".getAttribute('aria-disabled') !== 'true'")
    # (the guest's page has the change by its own socket, a moment after the host's)
    guest.wait_for_function(f"{status} === {EN['room.waitHostStart']!r}")
    assert not guest.locator(".toast").is_visible()
    host.click("#btn-start")
    host.wait_for_selector(".table-screen")
    guest.wait_for_selector(".table-screen")


def test_the_host_is_told_a_ready_guest_is_not_connected(open_page):
    """A ready guest whose connection went: the host read "Everyone is ready" and started,
    and the guest's first turns ran out on their clock (a player review). The host is told
    who is not connected; back, the room is ready again."""
    host, guest = _a_room_with_a_ready_guest(open_page)
    status = "() => document.querySelector('#room-status').textContent"
    host.select_option("#set-seats", "2")
    host.wait_for_function(f"{status} === {EN['room.allReady']!r}")
    guest.context.set_offline(True)
    try:
        said = EN["room.allReadyOneAway"].format(name="Gus")
        host.wait_for_function(f"{status} === {said!r}", timeout=20_000)
        assert host.get_attribute("#btn-start", "aria-disabled") == "false"  # still may
    finally:
        guest.context.set_offline(False)
    host.wait_for_function(f"{status} === {EN['room.allReady']!r}", timeout=20_000)


# ------------------------------------------------------------ the lobby's first screen

PHONES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}
LOCALES = {"en": "en-US", "es": "es-ES", "tr": "tr-TR"}

# Where a box is on the screen as the page opens (not scrolled), and whether the element is
# what a finger at its middle would touch (not under the action bar or anything else).
_BOX = """sel => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          touched: !!hit && el.contains(hit), height: innerHeight, width: innerWidth,
          scrollY: scrollY, scrollWidth: document.documentElement.scrollWidth};
}"""


def _seat(i: int, kind: str, name: str | None = None, ready: bool = False) -> dict:
    seat = {"seat": i, "kind": kind, "name": name, "connected": kind != "empty",
            "ready": ready, "substitute": False, "away_since": None}
    if kind == "bot":
        seat.update(name="Computer", label="Computer", level="easy", ready=True)
    return seat


def _seats(n: int, me: int, full: bool) -> list[dict]:
    """The host (seat 0, ready), me, and the rest empty or (full) guests and computers."""
    out = []
    for i in range(n):
        if i == 0:
            out.append(_seat(0, "human", "Ana", ready=True))
        elif i == me:
            out.append(_seat(i, "human", "Bo"))
        elif full:
            out.append(_seat(i, "bot") if i % 2 else _seat(i, "human", f"Guest {i}"))
        else:
            out.append(_seat(i, "empty"))
    return out


def _on_first_screen(page, selector: str) -> dict:
    page.evaluate("window.scrollTo(0, 0)")
    box = page.evaluate(_BOX, selector)
    assert box["scrollY"] == 0
    assert box["scrollWidth"] <= box["width"], f"the page scrolls sideways: {box}"
    assert 0 <= box["top"] and box["bottom"] <= box["height"], f"{selector} below the fold: {box}"
    assert 0 <= box["left"] and box["right"] <= box["width"], f"{selector} cut at the side: {box}"
    assert box["touched"], f"{selector} is covered: {box}"
    return box


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("role", ["host", "guest"])
@pytest.mark.parametrize("size", PHONES)
def test_the_lobby_action_is_on_a_phone_first_screen(open_page, size, role, lang):
    """Start (the host) and I'm ready (a guest) are on the first screen of a phone, where
    the thumb is, with 2 to 6 seats, empty or taken, in every language; nothing makes the
    page scroll sideways. A host with seats to fill also has the code, the link and the QR
    on that screen, clear of the action bar; once every seat is taken the code and the
    link stay on it."""
    me = 0 if role == "host" else 1
    action = "#btn-start" if role == "host" else "#btn-ready"
    table = ScriptedTable(open_page, preset="standard", seats=2, deal=False,
                          viewport=PHONES[size], locale=LOCALES[lang], me=me)
    table.room.update(kind="private", host=0)
    page = table.page
    for n in range(2, 7):
        for full in (False, True):
            table.room["settings"]["seats"] = n
            table.room["seats"] = seats = _seats(n, me, full)
            table.send([])
            empty = sum(s["kind"] == "empty" for s in seats)
            page.wait_for_function(
                f"() => document.querySelectorAll('.seat-row').length === {n}"
                f" && document.querySelectorAll('.seat-row[data-kind=empty]').length === {empty}")
            where = f"{size} {lang} {role}, {n} seats{' taken' if full else ''}"
            try:
                bar = _on_first_screen(page, action)
                _on_first_screen(page, "#room-code")
                _on_first_screen(page, "#btn-copy")
                if role == "host" and not full:  # inviting is the host's job now
                    qr = _on_first_screen(page, "img.qr")
                    assert qr["bottom"] <= bar["top"]
            except AssertionError as exc:
                raise AssertionError(f"{where}: {exc}") from None


@pytest.mark.parametrize("name", ["W" * 20, "<b>bold</b>&amp;x", "Ğğğğğğğğğğğğğğğğğğğğ"])
def test_a_long_name_without_spaces_does_not_widen_a_phones_lobby(open_page, name):
    """A name of 20 wide letters and no space (the server takes 20 characters) breaks
    inside the seat's row: on a 360 px phone the lobby never scrolls sideways (with
    ``break-word`` the seat list grew to 403 px and cut "Ready" off every row)."""
    table = ScriptedTable(open_page, preset="standard", seats=4, deal=False,
                          viewport=PHONES["360x640"], me=1)
    table.room.update(kind="private", host=0)
    page = table.page
    table.room["seats"] = [_seat(0, "human", name, ready=True), _seat(1, "human", name),
                           _seat(2, "bot"), _seat(3, "empty")]
    table.send([])
    page.wait_for_function("() => document.querySelectorAll('.seat-row').length === 4")
    page.wait_for_function("n => document.body.innerText.includes(n)", arg=name[:10])
    box = _on_first_screen(page, "#btn-ready")
    assert box["scrollWidth"] <= box["width"], box
    overflowing = page.evaluate(
        "() => [...document.querySelectorAll('.seat-row, .seat-row *')]"
        ".filter(e => e.getBoundingClientRect().right > innerWidth + 0.5).length")
    assert overflowing == 0


@pytest.mark.parametrize("role", ["host", "guest"])
def test_the_lobby_on_a_desktop_keeps_everything_on_one_screen(open_page, role):
    """At 1280x800 the share block (with its QR), the seats and the action are all on the
    first screen, six seats taken or not."""
    me = 0 if role == "host" else 1
    table = ScriptedTable(open_page, preset="standard", seats=6, deal=False, viewport=DESKTOP,
                          me=me)
    table.room.update(kind="private", host=0)
    page = table.page
    for full in (False, True):
        table.room["seats"] = _seats(6, me, full)
        table.send([])
        page.wait_for_selector(f".seat-row[data-seat='5'][data-kind={'bot' if full else 'empty'}]")
        _on_first_screen(page, "#btn-start" if role == "host" else "#btn-ready")
        _on_first_screen(page, "img.qr")
        _on_first_screen(page, "#btn-copy")
        _on_first_screen(page, ".seat-row[data-seat='0']")


def test_a_control_reached_with_tab_is_not_under_the_phone_action_bar(open_page):
    """The bar at the foot of a phone's screen covers the end of the page: every button
    and field of the lobby reached with Tab scrolls clear of it."""
    table = ScriptedTable(open_page, preset="standard", seats=6, deal=False,
                          viewport=PHONES["360x640"])
    table.room.update(kind="private", host=0, seats=_seats(6, 0, full=False))
    table.send([])
    page = table.page
    page.wait_for_selector(".seat-row[data-seat='5'][data-kind=empty]")
    page.focus("#lang-select")
    seen = []
    for _ in range(20):
        page.keyboard.press("Tab")
        name, touched = page.evaluate("""() => {
          const a = document.activeElement, r = a.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return [a.id || a.dataset.focusKey, !!hit && a.contains(hit)];
        }""")
        if name == "btn-leave":
            break
        seen.append(name)
        assert touched, f"{name} is under the action bar"
    assert "seat:5:add-bot" in seen and "btn-start" in seen, seen


def test_the_name_being_typed_keeps_its_field_when_the_join_screen_is_drawn_again(open_page, server):
    """The join form shows as soon as the room is known; the list of games may come a
    moment later and draw the screen again. The name field keeps the keyboard: the rest of
    the name goes into it, not nowhere (the guest would join as "Player")."""
    import httpx

    code = httpx.post(f"{server.url}/api/rooms", json={"name": "Ana"}).json()["code"]
    held = []
    page = open_page(path="/favicon.svg")
    page.route("**/api/games", lambda route: held.append(route))
    page.goto(f"/r/{code}")
    page.wait_for_selector("#join-name")
    page.click("#join-name")
    page.keyboard.type("El")
    assert held, "the games were held back"
    held[0].continue_()
    page.wait_for_function("() => window.__cc.games !== null && window.__cc.games !== undefined")
    page.keyboard.type("i")
    assert page.input_value("#join-name") == "Eli"


def test_the_join_page_follows_its_room_and_a_refusal_shows_it_as_it_is(open_page, server):
    """The join page read its room once: a guest typing a name read "Players 1/4" and
    only the host while others joined, and after "Take a seat" was refused, "The room is
    full." beside that same "Players 1/4" and the button (player QA)."""
    import httpx

    en = catalog("en")
    code = httpx.post(f"{server.url}/api/rooms", json={"name": "Ana", "seats": 3}).json()["code"]
    page = open_page(path="/favicon.svg")
    page.clock.install()
    page.goto(f"/r/{code}")
    page.wait_for_selector("#join-name")
    players = en["room.players"]  # "Players {n}/{total}"
    assert page.locator(".join-seats li").count() == 1
    page.click("#join-name")
    page.keyboard.type("Ca")
    httpx.post(f"{server.url}/api/rooms/{code}/join", json={"name": "Bo"})
    page.clock.fast_forward(11_000)  # the page reads its room again
    page.wait_for_function("() => document.querySelectorAll('.join-seats li').length === 2")
    page.keyboard.type("t")  # the name being typed kept its field
    assert page.input_value("#join-name") == "Cat"
    httpx.post(f"{server.url}/api/rooms/{code}/join", json={"name": "Dee"})  # the last seat
    page.click("#btn-join-room")
    page.wait_for_selector("#btn-join-room", state="detached")
    text = page.inner_text(".page.join")
    assert text.count(en["error.room_full"]) == 1, text
    assert players.split(" {")[0] not in text, text  # no count, no form: the room as it is


def test_a_refused_change_leaves_the_menu_showing_the_rooms_setting(open_page):
    """A host's change the server refuses (too many changes in a short time, or seats
    that are taken) changed nothing: the menu shows the room's setting again, not the
    refused choice, and the host is told why."""
    table = ScriptedTable(open_page, preset="standard", seats=4, deal=False, answer=False)
    table.room.update(kind="private", host=0)
    table.send([])
    page = table.page
    page.wait_for_selector("#set-preset")
    page.select_option("#set-preset", "siege")
    for _ in range(100):  # (the page's message reaches the script's socket)
        if table.sent and table.sent[-1].get("type") == "settings":
            break
        page.wait_for_timeout(20)
    assert table.sent[-1] == {"v": 1, "type": "settings", "settings": {"preset": "siege"}}
    assert page.input_value("#set-preset") == "siege"  # (the server has not answered)
    table._push({"type": "error", "code": "rate_limited", "ref": "settings",
                 "message": "too many changes to the room in a short time; this one was "
                            "ignored: try again in 2 s", "retry_after": 2})
    page.wait_for_function("() => document.querySelector('#set-preset').value === 'standard'")
    # told when to try again, in the page's words
    assert page.locator(".toast").first.inner_text().strip() == \
        EN["error.rate_limited.wait"].replace("{n}", "2")
    # (a refusal without a time, the connection's own rate: the plain words)
    table._push({"type": "error", "code": "rate_limited", "message": "slow down"})
    page.wait_for_function("(text) => [...document.querySelectorAll('.toast')]"
                           ".some((el) => el.innerText.trim() === text)",
                           arg=EN["error.rate_limited"])


def test_seats_that_would_take_away_a_taken_seat_are_not_offered(open_page):
    """With three seated in a room of four, the Seats menu offered 2 and the server refused
    it with "These settings are not possible" (player QA): the counts that would take away
    a taken seat are greyed out, and such a refusal says why."""
    table = ScriptedTable(open_page, preset="standard", seats=4, deal=False, answer=False)
    table.room.update(kind="private", host=0)
    table.room["seats"] = [_seat(0, "human", "Ana", ready=True), _seat(1, "human", "Bo"),
                           _seat(2, "bot"), _seat(3, "empty")]
    table.send([])
    page = table.page
    page.wait_for_selector("#set-seats")
    offered = page.eval_on_selector_all(
        "#set-seats option", "os => os.map((o) => [o.value, o.disabled])")
    assert offered == [["2", True], ["3", False], ["4", False]]
    table._push({"type": "error", "code": "bad_settings", "ref": "settings",
                 "reason": "seats_taken", "message": "free the last seats before removing them"})
    page.wait_for_function("(text) => [...document.querySelectorAll('.toast')]"
                           ".some((el) => el.innerText.trim() === text)",
                           arg=EN["error.bad_settings.seats_taken"])


def test_the_host_is_not_told_to_set_seats_the_menu_does_not_offer(open_page):
    """A seat freed in the middle (a guest who left, the host's own seat handed on): the
    host read "or set Seats to 2 to play now", and 2 was greyed out in the Seats menu
    (a lobby review). Told only when the empty seats are the last ones."""
    table = ScriptedTable(open_page, preset="standard", seats=3, deal=False, answer=False)
    table.room.update(kind="private", host=0)
    table.room["seats"] = [_seat(0, "human", "Ana", ready=True), _seat(1, "empty"),
                           _seat(2, "human", "Bo", ready=True)]
    table.send([])
    page = table.page
    status = page.wait_for_selector("#room-status")
    assert status.inner_text() == _plural(EN["room.waitingSeats"], 1)
    offered = page.eval_on_selector_all(
        "#set-seats option", "os => os.map((o) => [o.value, o.disabled])")
    assert offered == [["2", True], ["3", False], ["4", False]]  # (a guest's room: 4 at most)
    # the same table with its free seat last: told, and 2 is offered
    table.room["seats"] = [_seat(0, "human", "Ana", ready=True),
                           _seat(1, "human", "Bo", ready=True), _seat(2, "empty")]
    table.send([])
    page.wait_for_function("(t) => document.querySelector('#room-status').textContent === t",
                           arg=_fewer(1, 2))


@pytest.mark.parametrize("selector", ["#invite-link", "#btn-leave"])
def test_a_lobby_update_leaves_the_keyboard_where_it_was(open_page, selector):
    """Someone joins or gets ready while the host is on the invite link (selected, to copy
    it by hand) or on Leave room: the lobby is drawn again and the focus stays there."""
    table = ScriptedTable(open_page, preset="standard", seats=3, deal=False)
    table.room.update(kind="private", host=0, seats=_seats(3, 0, full=False))
    table.send([])
    page = table.page
    page.wait_for_selector(".seat-row[data-seat='2'][data-kind=empty]")
    page.focus(selector)
    table.room["seats"] = _seats(3, 0, full=True)
    table.send([])
    page.wait_for_selector(".seat-row[data-seat='2'][data-kind=human]")
    assert page.evaluate("document.activeElement.id") == selector[1:]
    if selector == "#invite-link":  # still selected, ready to copy
        assert page.evaluate("getSelection().toString() || (e => e.value.slice("
                             "e.selectionStart, e.selectionEnd))(document.activeElement)"
                             ).endswith("/r/SCRIPT")


def test_the_link_of_a_room_everyone_left_says_it_was_closed(open_page, server):
    """The host opened a room and left it: the room is gone. Its link said "There is no
    room with this code" (as for a mistyped code); it now says the room was closed."""
    import json as _json

    import httpx
    from websockets.sync.client import connect

    ticket = httpx.post(f"{server.url}/api/rooms", json={"name": "Ana"}).json()
    ws_url = server.url.replace("http://", "ws://")
    with connect(f"{ws_url}/ws/{ticket['code']}?token={ticket['token']}") as ws:
        ws.recv(timeout=5)  # welcome
        ws.send(_json.dumps({"v": 1, "type": "leave"}))
        try:
            while True:
                ws.recv(timeout=5)
        except Exception:  # noqa: BLE001 - the server closes the socket after the leave
            pass
    page = open_page(path=f"/r/{ticket['code']}")
    page.wait_for_function(
        f"() => document.body.innerText.includes({_json.dumps(EN['error.room_not_found.closed'])})")
    assert EN["error.room_not_found"] not in page.inner_text("body")


def test_a_host_who_closes_the_lobby_passes_the_host_on(open_page):
    """The host closed the page before the start: the guest is told the host is away
    (not "The host starts the game"), then hosts (the browser tests' host grace is 2 s):
    Start and the settings are theirs, and a toast says so."""
    host, guest = _a_room_with_a_ready_guest(open_page)
    host.wait_for_function("() => window.__cc.room.seats[1].ready")
    assert guest.locator("#btn-start").count() == 0
    host.close()
    guest.wait_for_function(
        f"() => document.querySelector('#room-status').textContent"
        f" === {EN['results.waitHostAway']!r}")
    guest.wait_for_selector("#btn-start", timeout=10_000)
    assert EN["room.hostNow"] in guest.inner_text(".toast")
    assert guest.evaluate("window.__cc.room.host") == 1


def test_the_hosts_remove_button_sits_on_its_seats_line_on_a_desktop(open_page):
    """On a desktop, "Remove" wrapped onto a line of its own under a ready player (the name
    asked for 150 px), so the seat rows jumped in height as people joined."""
    page = open_page(DESKTOP, path="/dev.html?scene=room-host&lang=es")
    page.wait_for_function("window.__devReady === true")
    lines = page.evaluate("""() => [...document.querySelectorAll('.seat-row')]
      .filter((r) => r.querySelector('button')).map((r) => {
        const a = r.querySelector('.avatar').getBoundingClientRect();
        const b = r.querySelector('button').getBoundingClientRect();
        return [r.querySelector('.name').textContent, b.top < a.bottom && b.bottom > a.top];
      })""")
    assert len(lines) >= 3, lines
    assert all(same for _, same in lines), lines


def test_a_guests_room_says_why_it_holds_fewer_seats_than_the_game(open_page):
    """Coloretto is for 2-5 players, but a room opened without the site's host key
    offered 2-4 seats with no word why: five friends did not know what was missing."""
    page = open_page(PHONE)
    page.fill("#player-name", "Ana")
    cap = catalog("en")["room.seatsCap"].replace("{n}", "4")
    # said on the Private room card before the room is made, where the game picker says
    # "2–5 players" (the lobby alone said it: the fifth friend had been invited by then)
    page.click("label[data-game=coloretto]")
    assert cap in page.inner_text("section[aria-labelledby=h-private]")
    page.click("label[data-game=rainbow]")  # a game of two: nothing to say
    assert cap not in page.inner_text("section[aria-labelledby=h-private]")
    page.click("label[data-game=coloretto]")
    page.click("#btn-create")
    page.wait_for_selector("#set-seats")
    seats = page.locator("#set-seats option").all_inner_texts()
    assert seats == ["2", "3", "4"], seats
    assert page.evaluate("window.__cc.room.max_seats") == 4
    # in the player's words: the browser has no way to give a host key, so the lobby
    # no longer names one (a player did not know what a "host key" was)
    note = page.inner_text(".seats-cap")
    assert note == cap, note
    assert "key" not in note
    assert not cut_controls(page), cut_controls(page)
    # a game whose tables are no larger (Rainbow: two) says nothing of it
    page.goto("/")
    page.click("label[data-game=rainbow]")
    page.click("#btn-create")
    page.wait_for_selector("#room-code")
    assert page.locator(".seats-cap").count() == 0
    # nor offers a menu of one choice: the table size is said
    assert page.locator("#set-seats").count() == 0
    fixed = page.inner_text("#set-seats-fixed")
    assert EN["room.seats"] in fixed and "2" in fixed, fixed
    assert not cut_controls(page), cut_controls(page)
    page.locator("#set-seats-fixed").scroll_into_view_if_needed()
    shot(page, "room-rainbow-seats-phone")


@pytest.mark.parametrize("lang", LOCALES)
def test_a_computers_tag_names_its_level_on_one_line_of_a_phone(open_page, lang):
    """A computer's tag names its level ("Computadora · Difícil", the longest): one pill on
    one line inside its seat's line at 360 px, not broken in two beside the name."""
    table = ScriptedTable(open_page, preset="standard", seats=2, deal=False,
                          viewport={"width": 360, "height": 640}, locale=LOCALES[lang], me=0)
    table.room.update(kind="private", host=0)
    table.room["settings"]["seats"] = 6
    table.room["seats"] = seats = _seats(6, 1, True)
    for s in seats:
        if s["kind"] == "bot":
            s["level"] = "hard"
    table.send([])
    page = table.page
    page.wait_for_function("() => document.querySelectorAll('.seat-row .tag.bot').length === 2")
    tags = page.evaluate("""() => [...document.querySelectorAll('.seat-row .tag.bot')].map((t) => {
      const r = t.getBoundingClientRect(), row = t.closest('.seat-row').getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(t);
      return {text: t.textContent, inside: r.left >= row.left && r.right <= row.right,
              lines: new Set([...range.getClientRects()].map((x) => Math.round(x.top))).size};
    })""")
    level = catalog(lang)["level.hard"]
    assert all(t["text"].endswith(level) and t["lines"] == 1 and t["inside"] for t in tags), tags


def test_a_phone_shares_the_invite_in_one_tap(open_page):
    """The room page had Copy link only: on a phone, sharing into a chat took copying and
    pasting. Where the browser can share, a Share button hands it the invite link."""
    host = open_page(PHONE)
    host.add_init_script("""window.__shared = [];
        navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };""")
    host.reload()
    code = create_room(host, "Hana")
    host.locator("#btn-share").click()
    host.wait_for_function("() => window.__shared.length === 1")
    shared = host.evaluate("window.__shared[0]")
    assert shared["url"].endswith(f"/r/{code}") and code in shared["text"], shared
    shot(host, "lobby-share")
    # a browser that refuses to share (a page framed without the right): the link is
    # copied instead, not a button that does nothing
    host.evaluate("""() => { navigator.share = () => Promise.reject(
        Object.assign(new Error("no"), { name: "NotAllowedError" })); }""")
    host.locator("#btn-share").click()
    toast = host.locator(".toast")
    toast.wait_for()
    assert toast.inner_text() == EN["room.copied"]
    # where the browser cannot share, no button that would do nothing
    other = open_page(PHONE)
    if other.evaluate("typeof navigator.share") != "function":
        create_room(other, "Ines")
        assert other.locator("#btn-share").count() == 0


def test_adding_and_removing_a_computer_by_keys_keeps_the_focus_on_the_seat(open_page):
    """Enter on "Add computer" (and on "Remove") replaced the button and sent the focus to
    the page body: each computer added cost five Tabs back (keyboard review). The focus goes
    to the seat's new control."""
    page = open_page(DESKTOP)
    create_room(page, "Kim")
    page.focus("[data-focus-key='seat:1:add-bot']")
    page.keyboard.press("Enter")
    page.wait_for_selector(".seat-row[data-seat='1'][data-kind=bot]")
    page.wait_for_function("document.activeElement.dataset.focusKey === 'seat:1:rm-bot'")
    page.keyboard.press("Enter")
    page.wait_for_selector(".seat-row[data-seat='1']:not([data-kind=bot])")
    page.wait_for_function("document.activeElement.dataset.focusKey === 'seat:1:add-bot'")


SENT_FRAMES = """() => {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { window.__sent.push(JSON.parse(data)); } catch (e) { /* not ours */ }
    return send.call(this, data);
  };
}"""


def test_stepping_through_a_menu_with_the_keys_sends_one_change(open_page):
    """An arrow key on a closed menu changes its choice at once: each step through the
    presets was sent, stored and broadcast (the guests asked for Ready again at each, the
    lobby's change budget spent). A change made by keys waits until they rest and goes as
    one; one made by the pointer goes at once."""
    page = open_page(DESKTOP)
    page.wait_for_selector("#btn-create")
    page.evaluate(SENT_FRAMES)  # (the room's socket opens after: its frames are seen)
    create_room(page, "Host Hana")
    settings = lambda: [m["settings"] for m in page.evaluate("window.__sent")  # noqa: E731
                        if m.get("type") == "settings"]
    # (the page's timers run when the test says: "resting" is the page's time, not the
    # machine's speed)
    page.clock.install()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    page.focus("#set-preset")
    for _ in range(3):
        page.keyboard.press("ArrowDown")
        page.clock.run_for(60)
    chosen = page.eval_on_selector("#set-preset", "e => e.value")
    page.clock.run_for(500)  # (the last change came 60 or 120 ms in: 700 from it)
    assert settings() == [], settings()  # (still resting)
    page.clock.run_for(300)
    page.wait_for_function(f"() => window.__cc.room.settings.preset === {chosen!r}")
    assert settings() == [{"preset": chosen}], settings()
    page.clock.resume()
    page.wait_for_timeout(200)  # (the keys long at rest)
    page.select_option("#set-seats", "3")  # the pointer: at once, sent as it is chosen
    assert settings()[-1] == {"seats": 3}, settings()
    page.wait_for_function("() => window.__cc.room.settings.seats === 3")


def test_a_change_resting_under_the_keys_goes_no_further_than_its_room(open_page):
    """A change resting under the keys was sent on the home page after a Leave (a "not
    connected" toast there), and a preset merged with an option resting from another menu
    carried it into a preset without it (the whole change refused): a change of another
    menu sends the resting one first, Start sends it before the start, and Leave drops it."""
    page = open_page(DESKTOP)
    page.wait_for_selector("#btn-create")
    page.evaluate(SENT_FRAMES)
    create_room(page, "Host Hana")
    settings = lambda: [m["settings"] for m in page.evaluate("window.__sent")  # noqa: E731
                        if m.get("type") == "settings"]
    # (the page's timers run when the test says: no change rests out by the machine's
    # slowness between two steps)
    page.clock.install()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    page.focus("#set-clock")
    page.keyboard.press("ArrowDown")
    clock = page.eval_on_selector("#set-clock", "e => e.value")
    page.focus("#set-preset")
    page.keyboard.press("ArrowDown")
    preset = page.eval_on_selector("#set-preset", "e => e.value")
    assert settings() == [{"clock": int(clock)}], settings()  # sent when the preset moved
    page.clock.run_for(800)  # the preset's rest
    page.wait_for_function(f"() => window.__cc.room.settings.preset === {preset!r}")
    assert settings()[-1] == {"preset": preset}, settings()
    # Start: the resting change, then the start, in that order
    page.focus("#set-seats")
    page.keyboard.press("ArrowUp")
    page.focus("#btn-start")  # (a keyboard user: Tab, then Enter)
    page.keyboard.press("Enter")
    page.wait_for_timeout(200)
    kinds = [m["type"] for m in page.evaluate("window.__sent") if m["type"] in ("settings", "start")]
    assert kinds[-2:] == ["settings", "start"], kinds
    # Leave: a resting change is dropped, not sent from the home page
    page.focus("#set-preset")
    page.keyboard.press("ArrowDown")
    before = len(settings())
    page.focus("#btn-leave")
    page.keyboard.press("Enter")
    page.wait_for_selector("#btn-create")
    page.clock.run_for(1000)  # (past the rest)
    page.wait_for_timeout(300)
    assert len(settings()) == before and not page.locator(".toast:visible").count()


def test_a_new_room_gives_the_focus_to_its_heading(open_page):
    """After Create private room the focus was on <main>, so a screen reader read the whole
    lobby at once (an accessibility review): it goes to the room's heading, and Tab on to
    the invite link."""
    page = open_page(DESKTOP)
    page.fill("#player-name", "Ana")
    page.focus("#btn-create")
    page.keyboard.press("Enter")
    page.wait_for_selector("#room-code")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'room-title'")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "invite-link"
    # a guest who opens the invite: the same
    code = page.inner_text("#room-code").strip()
    guest = open_page(DESKTOP, path=f"/r/{code}")
    guest.fill("#join-name", "Bo")
    guest.click("#btn-join-room")
    guest.wait_for_selector("#btn-ready")
    guest.wait_for_function("document.activeElement && document.activeElement.id === 'room-title'")


def test_a_guest_seated_under_another_name_is_told_so(open_page):
    """A name taken at the table (or one that reads the same) is seated as "Ana 2": the
    joiner was not told, and read "Ana 2" as someone else (a lobby review)."""
    host = open_page(DESKTOP)
    code = create_room(host, "Ana")
    guest = open_page(PHONE, locale="es-ES")
    join_as_guest(guest, code, "Ana")
    guest.wait_for_selector("#room-code")
    toast = guest.locator(".toast")
    toast.wait_for(state="visible")
    assert toast.inner_text() == catalog("es")["room.renamed"].replace(
        "{name}", "Ana").replace("{as}", "Ana 2")
    # a name nobody has: no word
    other = open_page(PHONE)
    join_as_guest(other, code, "Bo")
    other.wait_for_selector("#room-code")
    other.wait_for_function("() => window.__cc.room.seats.some((s) => s.name === 'Bo')")
    assert other.locator(".toast").count() == 0 or not other.locator(".toast").is_visible()


def test_the_lobby_says_who_went_and_who_hosts_now(open_page):
    """In the lobby a name went, or the Host tag moved to someone else, without a word
    (a lobby review): each is said to the others."""
    table = ScriptedTable(open_page, preset="standard", seats=3, deal=False, answer=False)
    table.room.update(kind="private", host=1)
    table.room["seats"] = [_seat(0, "human", "Ana", ready=True),
                           _seat(1, "human", "Bo", ready=True),
                           _seat(2, "human", "Cem", ready=True)]
    table.send([])
    page = table.page
    page.wait_for_selector("#room-status")
    table.room["seats"][2] = _seat(2, "empty")
    table.send([])
    toast = page.locator(".toast")
    page.wait_for_function("(t) => document.querySelector('.toast')?.innerText === t",
                           arg=_plural(EN["room.gone"], 1).replace("{name}", "Cem"))
    table.room["seats"][2] = _seat(2, "human", "Dan", ready=True)
    table.send([])
    table.room["host"] = 2
    table.send([])
    page.wait_for_function("(t) => document.querySelector('.toast')?.innerText === t",
                           arg=EN["room.hostsNow"].replace("{name}", "Dan"))
    assert toast.is_visible()
    # the host leaves: both are said (the second went unsaid: a diff review)
    table.room["seats"][2] = _seat(2, "empty")
    table.room["host"] = 1
    table.send([])
    both = (_plural(EN["room.gone"], 1).replace("{name}", "Dan") + " "
            + EN["room.hostsNow"].replace("{name}", "Bo"))
    page.wait_for_function("(t) => document.querySelector('.toast')?.innerText === t", arg=both)
    # ...and to the one who hosts now, who left as well as their new part
    table.room["seats"][2] = _seat(2, "human", "Eva", ready=True)
    table.send([])
    table.room["seats"][1] = _seat(1, "empty")
    table.room["host"] = 0
    table.send([])
    mine = _plural(EN["room.gone"], 1).replace("{name}", "Bo") + " " + EN["room.hostNow"]
    page.wait_for_function("(t) => document.querySelector('.toast')?.innerText === t", arg=mine)


def test_a_stand_in_host_is_told_to_say_ready_when_the_host_is_back(open_page):
    """A guest who hosted while the host was away is ready only by hosting: when the host
    comes back their Ready goes, and it went without a word while the host's Start waited
    for them (a lobby review)."""
    table = ScriptedTable(open_page, preset="standard", seats=2, deal=False, answer=False)
    table.room.update(kind="private", host=0, host_away=1)
    table.room["seats"] = [_seat(0, "human", "Ana", ready=True),
                           _seat(1, "human", "Bo", ready=True)]
    table.send([])
    page = table.page
    page.wait_for_selector("#room-status")
    table.room.update(host=1, host_away=None)
    table.room["seats"][0] = _seat(0, "human", "Ana", ready=False)
    table.send([])
    page.wait_for_function("(t) => document.querySelector('.toast')?.innerText === t",
                           arg=EN["room.hostBack"].replace("{name}", "Bo"))


def test_the_remove_dialog_goes_when_its_person_is_gone(open_page):
    """The host's Remove asked of Eli; Eli left and Fay took the seat meanwhile: Yes would
    have removed Fay (a diff review). The dialog is of the person, and goes with them."""
    table = ScriptedTable(open_page, preset="standard", seats=3, deal=False, answer=False)
    table.room.update(kind="private", host=0)
    table.room["seats"] = [_seat(0, "human", "Ana", ready=True), _seat(1, "human", "Eli"),
                           _seat(2, "empty")]
    table.send([])
    page = table.page
    page.click('[data-focus-key="seat:1:rm-player"]')
    dialog = page.get_by_role("dialog")
    dialog.wait_for()
    table.room["seats"][1] = _seat(1, "human", "Fay")
    table.send([])
    dialog.wait_for(state="detached")
