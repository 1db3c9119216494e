"""Words of the home page and the lobby that must match what the player can do: the
Quick Match promise of each game, the guest's waiting line, and a lobby message that does
not follow the player onto the table."""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, PHONE, catalog
from scripted import ScriptedTable

pytestmark = pytest.mark.browser

EN = catalog("en")


def _plural(entry, n: int) -> str:
    text = entry if isinstance(entry, str) else entry["one" if n == 1 else "other"]
    return text.replace("{n}", str(n))


@pytest.mark.parametrize("game", ["color-clash", "coloretto", "rainbow"])
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


@pytest.mark.parametrize("scene, key", [("room-guest", "room.waitingSeatsGuest"),
                                        ("room-host", "room.waitingSeats")])
def test_only_the_host_is_told_to_add_computers(open_page, scene, key):
    """A guest cannot add computer players: their lobby does not tell them to."""
    page = open_page(PHONE, path=f"/dev.html?scene={scene}&lang=en")
    status = page.wait_for_selector("#room-status")
    empty = page.locator(".seat-row[data-kind=empty]").count()
    assert empty, "the scene has an empty seat"
    assert status.inner_text() == _plural(EN[key], empty)
    if scene == "room-guest":
        assert page.locator("[data-focus-key^='add-bot']").count() == 0
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
    assert toast.is_visible() and toast.inner_text() == _plural(EN["room.waitingSeats"], 1)
    table.deal()
    page.wait_for_selector(".table-screen")
    assert not toast.is_visible(), toast.inner_text()
