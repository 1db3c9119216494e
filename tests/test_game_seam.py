"""The seam between the site and its games, held by a fourth game the site was not built
for (tests/toy_game.py, "Tally"): registered the way docs/adding-a-game.md says, it plays
through the real server with nothing of the server core changed for it. Each test names
what a seam review found the core assuming of Color Clash."""

from __future__ import annotations

import pytest

import toy_game
from colorclash import bots
from colorclash.client import Client, ClientError
from colorclash.engine import GAMES
from colorclash.server import games as hosted_games
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

pytestmark = pytest.mark.timeout(120)


def _forget_cached_games() -> None:
    bots._levels.cache_clear()
    hosted_games.games_public.cache_clear()
    hosted_games.presets_public.cache_clear()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The site with Tally registered beside its own games (removed afterwards)."""
    mp = pytest.MonkeyPatch()
    mp.setitem(GAMES, toy_game.KEY, toy_game.DEFINITION)
    mp.setitem(bots._BOT_MODULES, toy_game.KEY, "toy_game")
    _forget_cached_games()
    db = tmp_path_factory.mktemp("seam") / "rooms.sqlite3"
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, bot_workers=0)
    try:
        with InProcessServer(f"sqlite:///{db}", settings) as srv:
            yield srv
    finally:
        mp.undo()
        _forget_cached_games()


async def _my_table(server, **settings):
    c = Client(server.url)
    t = await c.practice("Ana", game=toy_game.KEY, bots=3, **settings)
    conn = await c.connect(t["code"], t["token"])
    await conn.wait_state(lambda s: s["view"] is not None and s["view"]["legal"])
    return c, t, conn


@pytest.mark.asyncio
async def test_a_game_may_give_its_players_an_action_named_next(server):
    # (the core refused "next", "timeout" and "substitute" from every game's players:
    # Color Clash's server-only actions, not the game's own)
    _, _, conn = await _my_table(server)
    assert conn.view["legal"] == [{"type": "next"}]
    await conn.act({"type": "next"})
    st = await conn.wait_state(lambda s: s["view"]["count"] == 1)
    assert st["view"]["scores"][0] == 1
    assert not conn.errors
    await conn.close()


@pytest.mark.asyncio
async def test_a_games_silent_clock_runs_out_without_a_word(server):
    # (the core knew Color Clash's "window" as the one short clock to close silently: a
    # new game's pause was told to the table as "time's up, a move was made for you")
    _, _, conn = await _my_table(server)
    await conn.act({"type": "next"})
    st = await conn.wait_state(lambda s: s["view"]["phase"] == "rest")
    assert st["clock"]["kind"] == "rest"
    await conn.wait_state(lambda s: s["view"]["turn"] == 1, timeout=15)
    assert [e for e in conn.events if e["type"] == "time_up"] == []
    assert any(e["type"] == "passed_on" for e in conn.events)
    await conn.close()


@pytest.mark.asyncio
async def test_a_games_numbered_match_option_is_kept_a_number(server):
    # (the core turned any option named "match" into text, Color Clash's match lengths,
    # so a game whose match option is numbers could never have it set)
    c = Client(server.url)
    for made in (await c.practice("Ana", game=toy_game.KEY, bots=3, options={"match": 6}),
                 await c.create_room("Ana", game=toy_game.KEY, options={"match": 6})):
        assert (await c.room(made["code"]))["settings"]["match"] == 6
    with pytest.raises(ClientError) as refused:
        await c.create_room("Ana", game=toy_game.KEY, options={"match": "6"})
    assert refused.value.code == "bad_message"
    assert "option match takes a number" in refused.value.message


@pytest.mark.asyncio
async def test_play_now_seats_the_games_own_table(server):
    # (Play Now seated three, a table Tally does not have: refused as bad_settings)
    c = Client(server.url)
    answer = await c.request("GET", "/api/games")
    tally = next(g for g in answer["games"] if g["key"] == toy_game.KEY)
    assert tally["play_now_seats"] == 4
    room = await c.room((await c.play_now("Ana", game=toy_game.KEY))["code"])
    assert room["settings"]["seats"] == 4
    assert [s["kind"] for s in room["seats"]] == ["human", "bot", "bot", "bot"]
    colorclash = next(g for g in answer["games"] if g["key"] == "color-clash")
    assert colorclash["play_now_seats"] == 3


@pytest.mark.asyncio
async def test_a_number_for_an_option_of_words_is_of_the_wrong_kind(server):
    # (only choices that are numbers written as text take a number: Coloretto's scoring
    # side given 3 was told "must be one of brown, grey, not "3"", a value it never sent)
    c = Client(server.url)
    with pytest.raises(ClientError) as refused:
        await c.create_room("Ana", game="coloretto", options={"scoring": 3})
    assert refused.value.code == "bad_message"
    assert refused.value.message.endswith("not 3")
    room = await c.create_room("Ana", options={"match": 3}, preset="standard")
    assert (await c.room(room["code"]))["settings"]["match"] == "3"
