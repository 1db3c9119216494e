"""The Python client as a bot author uses it (contract section 6): every game through its
defaults, the documented example as written, and ``python -m colorclash.client``."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from colorclash.bots import default_level
from colorclash.client import Client, _main
from colorclash.engine import GAMES
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

pytestmark = pytest.mark.timeout(180)

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("client") / "rooms.sqlite3"
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, next_round_delay=0.1,
                        rate_per_s=10_000, rate_burst=10_000, bot_workers=0)
    with InProcessServer(f"sqlite:///{db}", settings) as srv:
        yield srv


@pytest.mark.asyncio
@pytest.mark.parametrize("game", list(GAMES))
async def test_practice_takes_the_games_own_defaults(server, game):
    c = Client(server.url)
    ticket = await c.practice("Ana", game=game)
    room = await c.room(ticket["code"])
    assert room["game"] == game
    computers = [s for s in room["seats"] if s["kind"] == "bot"]
    assert computers, room["seats"]
    assert {s["level"] for s in computers} == {default_level(game)}


@pytest.mark.asyncio
@pytest.mark.parametrize("game", list(GAMES))
async def test_play_now_and_quick_match_take_a_game(server, game):
    c = Client(server.url)
    ticket = await c.play_now("Ana", game=game)
    assert (await c.room(ticket["code"]))["game"] == game
    queued = await c.quick_match(game=game)
    status = await c.quick_match_status(queued["ticket"])
    assert status["game"] == game


@pytest.mark.asyncio
async def test_the_documented_bot_example_runs_as_written(server):
    """docs/server.md "Writing a bot against the server", with only the address changed."""
    text = (DOCS / "server.md").read_text()
    block = re.search(r"## Writing a bot.*?```python\n(.*?)```", text, re.S).group(1)
    assert 'Client("http://127.0.0.1:8000")' in block
    code = block.replace("http://127.0.0.1:8000", server.url)
    code = code.replace("asyncio.run(main())", "")
    scope: dict = {}
    exec(compile(code, "docs/server.md", "exec"), scope)  # noqa: S102 - our own docs
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        await scope["main"]()
    assert "winners" in out.getvalue()


@pytest.mark.asyncio
@pytest.mark.parametrize("game", ["rainbow", "color-clash"])
async def test_the_client_command_plays_a_seat_to_the_end(server, game):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = await _main(["--url", server.url, "--play-now", "--game", game])
    assert rc == 0
    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert set(result) >= {"scores", "winners"}
