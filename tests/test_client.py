"""The Python client as a bot author uses it (contract section 6): every game through its
defaults, the documented example as written, and ``python -m colorclash.client``."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from colorclash.bots import default_level
from colorclash.client import Client, ClientError, _main
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
async def test_connect_is_an_async_context_manager_with_or_without_await(server):
    """contract.md: ``connect(code, token)`` returns a seat connection that is an async
    context manager. ``async with client.connect(...)`` raised TypeError (a coroutine);
    only ``async with await client.connect(...)`` worked. Both do now, and so does a plain
    ``await``; the block closes the connection when it ends."""
    c = Client(server.url)
    ticket = await c.practice("Ana", game="rainbow")
    async with c.connect(ticket["code"], ticket["token"]) as conn:
        assert conn.state["type"] == "state" and conn.seat == 0
        # (the computer may start: it waits for someone to have the table open)
        await conn.wait_state(lambda m: bool(m["view"]["legal"]))
    assert conn.ws.close_code is not None  # closed by the block
    async with await c.connect(ticket["code"], ticket["token"]) as again:
        assert again.state["view"]["hand"] == conn.state["view"]["hand"]
    plain = await c.connect(ticket["code"], ticket["token"])
    try:
        assert plain.seat == 0 and plain.state["room"]["code"] == ticket["code"]
    finally:
        await plain.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("game", ["rainbow", "color-clash"])
async def test_the_client_command_plays_a_seat_to_the_end(server, game):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = await _main(["--url", server.url, "--play-now", "--game", game])
    assert rc == 0
    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert set(result) >= {"scores", "winners"}


@pytest.mark.asyncio
async def test_the_client_command_says_how_to_check_the_deal_it_played(server, tmp_path):
    """The room, the match and the final log hash, with the commands that check the deal:
    a shell user of the client had none of them (only the result was printed)."""
    from colorclash.verify import verify_record

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = await _main(["--url", server.url, "--play-now", "--game", "rainbow"])
    assert rc == 0
    assert len(out.getvalue().strip().splitlines()) == 1  # stdout: the result alone
    said = re.search(r"room (\w{6}), match (\d+), log hash (\w+); to check the deal: "
                     r"curl -s (\S+) > record.json && colorclash verify record.json "
                     r"--log-hash (\w+)", err.getvalue())
    assert said, err.getvalue()
    code, match, log_hash, url, again = said.groups()
    assert again == log_hash and url == f"{server.url}/api/rooms/{code}/record/{match}"
    record = await Client(server.url).record(code, int(match))
    assert verify_record(record, expected_log_hash=log_hash)[0]


@pytest.mark.asyncio
async def test_the_client_command_says_what_the_server_refused_in_one_line(server):
    """A refused request (here a name kept for computers) is one line with the server's
    code and message and exit status 1, not a traceback."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = await _main(["--url", server.url, "--play-now", "--name", "Bot"])
    assert rc == 1
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1, lines
    assert "bad_name" in lines[0] and "422" in lines[0] and "computer" in lines[0]


@pytest.mark.asyncio
async def test_a_bot_whose_every_action_is_refused_is_stopped_with_the_reason(server):
    """play() went on until its timeout (an hour, from the command) without a word when
    the server refused each action: after 20 in a row it stops with the last reason."""

    class Stubborn:
        def act(self, view, events):
            return {"type": "play", "card": "R99"}

    ticket = await Client(server.url).practice("Ana", bots=1)
    async with await Client(server.url).connect(ticket["code"], ticket["token"]) as seat:
        with pytest.raises(ClientError) as err:
            await seat.play(Stubborn(), timeout=60)
    assert err.value.code == "illegal_action", err.value
    assert "refused 20 actions in a row" in err.value.message and "R99" in err.value.message
    assert err.value.status == 0 and str(err.value).startswith("illegal_action: ")  # (not
    # "0 illegal_action": a socket's error has no HTTP status to give)


def _lose_actions(monkeypatch, how_many):
    """The first ``how_many`` actions never reach the table: each is answered as the
    server answers an action Redis did not take (``not_delivered``)."""
    from colorclash.client import SeatConnection

    real_act, real_recv = SeatConnection.act, SeatConnection.recv
    lost = {"n": 0}

    async def act(self, action, seq=None):
        if lost["n"] < how_many:
            lost["n"] += 1
            self._lost = {"v": 1, "type": "error", "code": "internal", "ref": "action",
                          "reason": ("not_delivered", "not_stored")[lost["n"] % 2],
                          "message": "your action may not have reached the table"}
            return
        await real_act(self, action, seq)

    async def recv(self, timeout=10.0):
        said = getattr(self, "_lost", None)
        if said is not None:
            self._lost = None
            self.errors.append(said)
            return said
        return await real_recv(self, timeout)

    monkeypatch.setattr(SeatConnection, "act", act)
    monkeypatch.setattr(SeatConnection, "recv", recv)
    monkeypatch.setattr(SeatConnection, "TROUBLE_PAUSE_MAX", 0.02, raising=False)
    return lost


@pytest.mark.asyncio
async def test_play_rides_out_actions_the_server_did_not_deliver(server, monkeypatch):
    """With Redis away a minute, each action of a player on another process than the
    room's came back ``not_delivered`` (play it again): play() counted them with the bot's
    refused actions and closed the seat after 20, 22 s into the outage (operator review).
    The server's own trouble is ridden out, with a growing pause, and the game goes on."""
    from colorclash.bots import make_bot

    lost = _lose_actions(monkeypatch, 30)
    ticket = await Client(server.url).practice("Ana", bots=1)
    async with await Client(server.url).connect(ticket["code"], ticket["token"]) as seat:
        state = await seat.play(make_bot("color-clash", "easy", seed=2), timeout=120)
    assert lost["n"] == 30 and state["room"]["status"] == "finished"


@pytest.mark.asyncio
async def test_play_gives_up_on_a_server_that_never_takes_an_action(server, monkeypatch):
    from colorclash.bots import make_bot
    from colorclash.client import SeatConnection

    _lose_actions(monkeypatch, 10**6)
    monkeypatch.setattr(SeatConnection, "TROUBLE_LIMIT", 0.3)
    ticket = await Client(server.url).practice("Ana", bots=1)
    async with await Client(server.url).connect(ticket["code"], ticket["token"]) as seat:
        with pytest.raises(ClientError) as err:
            await seat.play(make_bot("color-clash", "easy", seed=2), timeout=60)
    assert err.value.code == "internal"
    assert "could not take an action for 0.3 s" in err.value.message, err.value.message


@pytest.mark.asyncio
async def test_a_stale_action_is_a_race_and_seqs_that_never_agree_still_stop(server, monkeypatch):
    """play() sends each action with the seq it was chosen on; a stale_action is a race
    with the table (not counted with the bot's refused actions), but a client whose seqs
    never agree is stopped all the same (it retried for the hour, silently)."""
    from colorclash.bots import make_bot
    from colorclash.client import SeatConnection

    real = SeatConnection.act

    async def off_by_one(self, action, seq=None):
        await real(self, action, None if seq is None else seq + 1)

    monkeypatch.setattr(SeatConnection, "act", off_by_one)
    monkeypatch.setattr(SeatConnection, "REFUSED_IN_A_ROW", 2)  # (stale ones: 5 times that)
    ticket = await Client(server.url).practice("Ana", bots=1)
    async with await Client(server.url).connect(ticket["code"], ticket["token"]) as seat:
        with pytest.raises(ClientError) as err:
            await seat.play(make_bot("color-clash", "easy"), timeout=60)
    assert err.value.code == "stale_action", err.value
    assert "refused 10 actions in a row" in err.value.message, err.value.message


@pytest.mark.asyncio
async def test_a_bot_of_another_game_is_refused_at_once_and_play_waits_an_hour(server):
    """A Color Clash bot at a Coloretto table failed with KeyError: 'hand' in its own code,
    leaving the room playing; and play() gave up after 120 s, which a match of several
    rounds outlasts (operator/bot-author QA)."""
    import inspect

    from colorclash.bots import make_bot
    from colorclash.client import SeatConnection

    assert inspect.signature(SeatConnection.play).parameters["timeout"].default == 3600.0
    ticket = await Client(server.url).practice("Ana", bots=1, game="coloretto")
    async with await Client(server.url).connect(ticket["code"], ticket["token"]) as seat:
        with pytest.raises(ValueError, match="this bot plays color-clash and this table "
                                             "plays coloretto: .*make_bot\\('coloretto', level\\)"):
            await seat.play(make_bot("easy"))
        state = await seat.play(make_bot("coloretto", "random", seed=1), timeout=120)
    assert state["room"]["status"] == "finished"


def test_python_m_colorclash_client_exits_1_without_a_traceback(server):
    src = Path(__file__).resolve().parent.parent / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(src), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "colorclash.client", "--url", server.url,
                           "--play-now", "--name", "Bot"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]
    assert proc.stderr.startswith("python -m colorclash.client: error: bad_name (HTTP 422): ")


@pytest.mark.asyncio
async def test_the_client_command_has_one_line_for_every_other_failure(server):
    """A token that holds no seat, a server that is not there, a level the game does
    not have: one line each, exit status 1 (2 for a bad option), no traceback; an unknown
    level is refused before a Play Now table is made for nothing."""
    from colorclash.server.testing import free_port

    async def run(*argv: str) -> tuple[int, list[str]]:
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            try:
                rc = await _main(list(argv))
            except SystemExit as exc:  # argparse's own errors
                rc = exc.code
        return rc, err.getvalue().strip().splitlines()

    room = await Client(server.url).create_room("Ana")
    rc, lines = await run("--url", server.url, "--code", room["code"], "--token", "nope")
    assert rc == 1 and len(lines) == 1 and "(closed 44" in lines[0], lines
    # with the code the server said before it closed, as for a REST refusal
    rc, lines = await run("--url", server.url, "--code", "ZZZZZZ", "--token", "nope")
    assert rc == 1 and len(lines) == 1, lines
    assert lines[0].startswith("python -m colorclash.client: error: room_not_found (closed "
                               "4404): "), lines
    rc, lines = await run("--url", f"http://127.0.0.1:{free_port()}", "--play-now")
    assert rc == 1 and len(lines) == 1 and "cannot reach" in lines[0], lines
    before = len(server.app.state.hub.rooms)
    rc, lines = await run("--url", server.url, "--play-now", "--level", "genius")
    assert rc == 2 and "unknown bot level 'genius'" in lines[-1], lines
    assert len(server.app.state.hub.rooms) == before  # no table made
    rc, lines = await run("--url", server.url, "--code", room["code"], "--token",
                          room["token"], "--level", "genius")
    assert rc == 1 and len(lines) == 1 and "unknown bot level" in lines[0], lines
    # an address that is none: the option named, and what it takes (it read "unknown url
    # type: 'notaurl/api/play-now'")
    for bad in ("notaurl", "ftp://127.0.0.1", "http://"):
        rc, lines = await run("--url", bad, "--play-now")
        assert rc == 2 and "--url" in lines[-1] and "http://HOST:PORT" in lines[-1], lines


def test_tokens_never_begin_with_a_dash(monkeypatch):
    """A token given on a command line after --token must not look like an option."""
    import secrets

    from colorclash.server import names

    made = iter(["-dash-first", "_fine", "also-fine"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: next(made))
    assert names.new_token() == "_fine"


@pytest.mark.asyncio
async def test_the_client_command_takes_a_token_that_begins_with_a_dash(server):
    """Tokens made before they were kept from beginning with "-" still work."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = await _main(["--url", server.url, "--code", "ABCDEF", "--token", "-abc_def"])
    lines = err.getvalue().strip().splitlines()
    # the token reached the server (which knows no such room), not argparse's error
    assert rc == 1 and len(lines) == 1 and "expected one argument" not in lines[0], lines


@pytest.mark.asyncio
async def test_a_hung_server_is_noticed_within_seconds(tmp_path):
    """A server that hangs (stopped, not dead: the link stays open, nothing answers) was
    noticed by websockets' default keepalive after 20 s + 20 s: a seat on a stopped
    process came back 45 s later where the browser's came back in 2."""
    import signal
    import time

    import websockets

    from colorclash.server.testing import ServerProcess

    with ServerProcess(f"sqlite:///{tmp_path / 'hung.sqlite3'}") as srv:
        c = Client(srv.url, ping_s=1.0)
        t = await c.practice("Ana", bots=1)
        conn = await c.connect(t["code"], t["token"], reconnect=False)
        os.kill(srv.proc.pid, signal.SIGSTOP)
        started = time.monotonic()
        try:
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await conn.recv(timeout=8)
            assert time.monotonic() - started < 6  # (1 + 2 + 1 s, and a beat)
        finally:
            os.kill(srv.proc.pid, signal.SIGCONT)
    assert Client("http://127.0.0.1:1").ping_s == Client.PING_S == 5.0
    with pytest.raises(ValueError, match="more than 0"):
        Client("http://127.0.0.1:1", ping_s=0)


@pytest.mark.asyncio
async def test_a_seat_keeps_its_latest_events_and_errors_not_every_one():
    """A bot playing match after match kept every event it was sent (40,000 after nine
    matches of Classic Table: a long session review): the latest ``KEPT`` of each."""
    import json

    from colorclash.client import SeatConnection

    class Frames:
        def __init__(self, frames):
            self.frames = iter(frames)

        async def recv(self):
            return next(self.frames)

    kept = SeatConnection.KEPT
    frames = [json.dumps({"type": "state", "seq": i, "room": {}, "view": None,
                          "events": [{"type": "tick", "n": 3 * i + k} for k in range(3)]})
              for i in range(kept)]
    frames += [json.dumps({"type": "error", "code": "x", "message": str(i)})
               for i in range(kept + 7)]
    seat = SeatConnection(Frames(frames), "ABCDEF", "t")
    for _ in frames:
        await seat.recv()
    assert len(seat.events) == kept and seat.events[-1]["n"] == 3 * kept - 1
    assert len(seat.errors) == kept and seat.errors[-1]["message"] == str(kept + 6)
    assert seat.state["seq"] == kept - 1
