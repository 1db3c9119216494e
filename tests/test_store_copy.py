"""``colorclash copy-store FROM TO``: a site moved from SQLite to Redis (and copied back)
keeps every room: the seats and their tokens, the cards and the turn, the finished
matches' records. A store in use, or a target that holds rooms, is refused."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

import pytest

from colorclash.bots import make_bot
from colorclash.client import Client
from colorclash.server.testing import LIFTED_LIMITS_ENV, ServerProcess

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]

ENV = {"COLORCLASH_BOT_DELAY": "0.05", **LIFTED_LIMITS_ENV}


def _copy(source: str, target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "colorclash.cli", "copy-store", source, target],
                          capture_output=True, text=True, timeout=120)


def _room(url: str, code: str) -> dict:
    with urllib.request.urlopen(f"{url}/api/rooms/{code}", timeout=10) as r:
        return json.loads(r.read())


async def _a_site_with_three_rooms(url: str) -> dict:
    """A finished practice match, a practice game in its middle, a private lobby."""
    c = Client(url)
    done = await c.practice("Ana", bots=1, level="easy", preset="classic-table")
    async with await c.connect(done["code"], done["token"]) as seat:
        await seat.play(make_bot("easy", seed=1), timeout=90)
    mid = await c.practice("Bo", bots=1, level="easy", preset="standard")
    async with await c.connect(mid["code"], mid["token"]) as seat:
        st = await seat.play(make_bot("easy", seed=2), timeout=60,
                             until=lambda s: s["seq"] >= 6 and seat.my_turn())
        shown = {"seq": st["seq"], "hand": st["view"]["hand"], "log_hash": st["log_hash"]}
    lobby = await c.create_room("Cem", seats=3)
    return {"done": done, "mid": mid, "lobby": lobby, "shown": shown}


@pytest.mark.asyncio
async def test_a_site_moved_from_sqlite_to_redis_keeps_every_room(tmp_path, redis_db):
    db = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    with ServerProcess(db, env=ENV) as old:
        site = await _a_site_with_three_rooms(old.url)
        busy = _copy(db, redis_db)  # a store a server is using changes under the copy
        assert busy.returncode == 2 and "is in use" in busy.stderr, busy.stderr
        assert "stop its server" in busy.stderr and "Traceback" not in busy.stderr
        assert busy.stdout == ""  # (the progress bar left an empty line there)
    out = _copy(db, redis_db)
    assert out.returncode == 0, out.stderr
    assert "copied 3 room(s)" in out.stdout and "1 record(s)" in out.stdout, out.stdout
    assert out.stdout.startswith("copied"), out.stdout

    with ServerProcess(redis_db, env=ENV) as new:
        # the game in its middle: the same seat, cards and turn, with the same token
        mid = site["mid"]
        async with await Client(new.url).connect(mid["code"], mid["token"]) as seat:
            st = await seat.wait_state(lambda s: True)
            assert (st["seq"], st["view"]["hand"], st["log_hash"]) == (
                site["shown"]["seq"], site["shown"]["hand"], site["shown"]["log_hash"])
            await seat.play(make_bot("easy", seed=3), timeout=90)  # and it plays on
        record = await Client(new.url).record(site["done"]["code"])
        assert record["match"] == 1 and record["actions"]
        assert _room(new.url, site["lobby"]["code"])["status"] == "lobby"
        # a Redis store a cluster's process uses: refused in copy-store's words, without
        # the advice serve gives on COLORCLASH_CLUSTER and prefixes (--store ...)
        busy = _copy(redis_db, f"sqlite:///{tmp_path / 'busy.sqlite3'}")
        assert busy.returncode == 2 and "is in use (1 process(es) of a cluster" in busy.stderr
        assert "--store" not in busy.stderr and "prefix=NAME" not in busy.stderr, busy.stderr

    # into a store that holds rooms: refused, nothing overwritten
    again = _copy(db, redis_db)
    assert again.returncode == 2 and "already holds 3 room(s)" in again.stderr, again.stderr
    # and back: a copy of the Redis store in a SQLite file
    back = f"sqlite:///{tmp_path / 'copy.sqlite3'}"
    out = _copy(redis_db, back)
    assert out.returncode == 0 and "copied 3 room(s)" in out.stdout, out.stderr


def test_a_source_file_that_does_not_exist_is_refused_and_not_made(tmp_path):
    missing = tmp_path / "typo.sqlite3"
    out = _copy(str(missing), f"sqlite:///{tmp_path / 'to.sqlite3'}")
    assert out.returncode == 2 and "no such SQLite file" in out.stderr, out.stderr
    assert not missing.exists()


def test_a_source_that_holds_no_rooms_is_refused_and_the_target_left_alone(tmp_path,
                                                                         redis_db):
    """A wrong /DB number "copied 0 room(s) … each read back and checked", exit 0, and made
    the target file: in a migration, a silent loss (operator QA)."""
    import redis

    empty_db = redis_db.rsplit("/", 1)[0] + "/9"  # (another database of the same Redis)
    redis.Redis.from_url(empty_db).flushdb()
    target = tmp_path / "to.sqlite3"
    for source in (empty_db, "sqlite:///:memory:"):
        out = _copy(source, f"sqlite:///{target}")
        assert out.returncode == 2, (source, out.stdout, out.stderr)
        assert "holds no rooms: nothing to copy" in out.stderr, out.stderr
        assert "Traceback" not in out.stderr and "copied" not in out.stdout
        assert not target.exists()
    # nor is the wrong database marked as a store of this version's format (it was: a
    # lasting key on a Redis that held nothing of the site's: a diff review)
    assert redis.Redis.from_url(empty_db).keys("cc:format") == []


def test_a_damaged_source_room_is_named_and_nothing_is_copied(tmp_path):
    """A damaged room stopped the copy halfway with a traceback, the target left holding
    part of the rooms, and a second try refused as the target held rooms (operator QA):
    every room is read before anything is written."""
    from test_cli_rooms import _a_store_with_damaged_rooms

    source = tmp_path / "damaged.sqlite3"
    _a_store_with_damaged_rooms(source)
    target = tmp_path / "to.sqlite3"
    out = _copy(f"sqlite:///{source}", f"sqlite:///{target}")
    assert out.returncode == 2, (out.stdout, out.stderr)
    # (the two it cannot read; a creation time that is text is copied as it is)
    assert "2 room(s) of the source" in out.stderr and "nothing was copied" in out.stderr
    assert "room NOJSON: its stored document is damaged" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    assert not target.exists()


def test_a_room_the_server_could_not_read_is_not_copied(tmp_path):
    """A document with seats that are not a list of seats (edited by hand): ``rooms`` and
    the server called it damaged, and the copy copied it, "each read back and checked"
    (operator QA): the room was missing on the new store."""
    from test_cli_rooms import _document, damaged_store

    source = tmp_path / "seats.sqlite3"
    damaged_store(source, {c: _document(c, "finished", 1000.0) for c in ("GOODAA", "SEATSX")},
                  {"SEATSX": "json_set(data, '$.seats', 'x')"})
    target = tmp_path / "to.sqlite3"
    out = _copy(f"sqlite:///{source}", f"sqlite:///{target}")
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert "1 room(s) of the source" in out.stderr and "nothing was copied" in out.stderr
    assert "room SEATSX: its stored document is damaged" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    assert not target.exists()


def test_a_copy_into_memory_is_refused(tmp_path):
    """Into sqlite:///:memory: it said "copied 9 room(s) … each read back and checked",
    exit 0, and kept nothing: an operator believed they had a backup (operator QA)."""
    out = _copy("sqlite:///anything.sqlite3", "sqlite:///:memory:")
    assert out.returncode == 2 and "keeps nothing once the copy ends" in out.stderr


def test_one_store_written_two_ways_is_said_to_be_the_same(tmp_path, redis_db):
    """A file named by its path and by a sqlite:/// URL, or one Redis as 127.0.0.1 and
    localhost or with its default ?prefix=, was refused as "in use" by the copy's own
    claim of it (operator QA)."""
    from colorclash.store.copy import _where

    f = tmp_path / "s.sqlite3"
    assert _where(str(f)) == _where(f"sqlite:///{f}") == _where(f"sqlite:///{f}?synchronous=normal")
    local = redis_db.replace("127.0.0.1", "localhost")
    assert _where(redis_db) == _where(local) == _where(redis_db + "?prefix=cc")
    assert _where(redis_db) != _where(redis_db + "?prefix=other")
    assert _where(redis_db) != _where(redis_db.rsplit("/", 1)[0] + "/15")
    for target in (f"sqlite:///{f}", local):
        source = str(f) if target.startswith("sqlite") else redis_db
        out = _copy(source, target)
        assert out.returncode == 2, out.stderr
        assert "the source and the target are the same store" in out.stderr, out.stderr
