"""``colorclash rooms``: an operator lists the rooms a store holds, beside the running site.

Before it an operator had only ``/healthz``'s counts: no way to find the room a player
wrote about, to see whether anyone was playing before an upgrade, or which process of a
cluster ran a room."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from colorclash.cli import app
from colorclash.client import Client
from colorclash.server.config import Settings
from colorclash.server.roomlist import room_lines, table
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

pytestmark = pytest.mark.timeout(60)

runner = CliRunner(env={"COLUMNS": "200"})


@pytest.mark.asyncio
async def test_the_rooms_of_a_running_site_are_listed_without_disturbing_it(tmp_path):
    db = tmp_path / "site.sqlite3"
    with InProcessServer(f"sqlite:///{db}", Settings(**LIFTED_LIMITS, bot_delay=0)) as srv:
        c = Client(srv.url)
        lobby = await c.create_room("Ana", seats=3)
        practice = await c.practice("Bea", bots=2, level="medium", game="coloretto")
        out = runner.invoke(app, ["rooms", "--store", str(db)])  # the server holds the lock
        assert out.exit_code == 0, out.output
        lines = out.output.splitlines()
        assert lines[0].split() == ["CODE", "STATUS", "GAME", "KIND", "MATCH", "AGE", "CLOCK",
                                    "SEATS"]
        # what is being played first
        assert lines[1].startswith(practice["code"] + "  playing  coloretto/")
        assert "practice" in lines[1] and lines[1].endswith(
            "Bea, Computer (medium), Computer (medium)")
        assert re.search(r"  turn seat [0-2] \d+s  ", lines[1])  # its turn clock, and whose
        assert lines[2].startswith(lobby["code"] + "  lobby")
        assert lines[2].endswith("Ana, (empty), (empty)")
        assert lines[3] == ("2 room(s): 1 playing, 1 in a lobby, 0 finished; "
                            "2 person seat(s)")

        only = runner.invoke(app, ["rooms", "--store", f"sqlite:///{db}", "--status", "lobby",
                                   "--json"])
        assert only.exit_code == 0, only.output
        rooms = [json.loads(line) for line in only.output.splitlines()]
        assert [r["code"] for r in rooms] == [lobby["code"]]
        assert rooms[0]["seats"] == ["Ana", "(empty)", "(empty)"]
        assert rooms[0]["kind"] == "private" and rooms[0]["clock"] is None
        # the site plays on: the listing took no lock and changed nothing
        async with await c.connect(practice["code"], practice["token"]) as seat:
            assert seat.room["status"] == "playing" and seat.state["view"]
        assert (await c.room(lobby["code"]))["status"] == "lobby"


def test_a_missing_store_or_an_unknown_status_is_refused_in_words(tmp_path):
    missing = runner.invoke(app, ["rooms", "--store", str(tmp_path / "nope.sqlite3")])
    assert missing.exit_code == 2
    assert "no such SQLite file" in missing.output and "Traceback" not in missing.output
    assert not (tmp_path / "nope.sqlite3").exists()  # not made by looking
    bad = runner.invoke(app, ["rooms", "--store", str(tmp_path / "x"), "--status", "over"])
    assert bad.exit_code == 2 and "'over' is none of lobby, playing, finished" in bad.output


@pytest.mark.parametrize("where", ["/dev/null", "folder"])
def test_a_device_or_a_folder_is_refused_without_a_word_of_a_new_file(tmp_path, where):
    """``rooms`` only reads: it ended the refusal with "(a new one is made)", as serve's."""
    path = str(tmp_path) if where == "folder" else where
    out = runner.invoke(app, ["rooms", "--store", path])
    assert out.exit_code == 2 and "not a file: give the path of a store file" in out.output
    assert "a new one is made" not in out.output and "Traceback" not in out.output


def _document(code: str, status: str, created: float) -> dict:
    return {"code": code, "kind": "private", "status": status, "match_no": 1,
            "settings": {"game": "color-clash", "preset": "standard"}, "created": created,
            "clock": None, "seats": [
                {"kind": "human", "name": "Ana", "substitute": True},
                {"kind": "human", "name": "Bo", "left": True},
                {"kind": "bot", "name": "Computer", "level": "hard"}]}


def test_on_redis_each_room_names_the_process_that_runs_it(redis_db):
    from colorclash.store.redis_store import RedisStore

    store = RedisStore(redis_db)
    try:
        store.save_room("AAAAAA", _document("AAAAAA", "playing", 1000.0), match=1)
        store.save_room("BBBBBB", _document("BBBBBB", "playing", 2000.0), match=1)
        store.save_room("CCCCCC", _document("CCCCCC", "finished", 3000.0), match=1)
        store.redis.set(store.key("owner", "AAAAAA"), "alive01")
        store.redis.set(store.key("proc", "alive01"), "1", px=60_000)
        store.redis.set(store.key("owner", "BBBBBB"), "dead02")  # its lease ran out
        lines = room_lines(store, now=3600.0)
    finally:
        store.close()
    # playing first, the newest first; a finished room last
    assert [(r.code, r.owner, r.owner_alive) for r in lines] == [
        ("BBBBBB", "dead02", False), ("AAAAAA", "alive01", True), ("CCCCCC", None, None)]
    assert lines[0].seats == ["Ana (substitute)", "Bo (left)", "Computer (hard)"]
    text = table(lines, now=3600.0).splitlines()
    assert "PROCESS" in text[0].split()
    assert " dead02 (gone) " in text[1] and " 26m " in text[1]
    assert " alive01 " in text[2] and " 43m " in text[2]



def test_a_computers_clock_that_waits_for_a_person_is_said_to_wait(tmp_path):
    """With nobody at the table a computer's clock does not run out (it waits for a
    person to open the table): past its deadline it read "turn seat 2 0s", as if stuck."""
    from colorclash.server.roomlist import line_of

    doc = _document("AAAAAA", "playing", 1000.0)
    doc["clock"] = {"kind": "turn", "seat": 2, "deadline": 1030.0, "seconds": 30}
    waiting = line_of(doc, now=3600.0)
    assert waiting.clock == {"kind": "turn", "seat": 2, "left_s": 0.0, "waits": True}
    assert " turn seat 2 waits " in table([waiting], now=3600.0)
    running = line_of(doc, now=1010.0)
    assert running.clock["waits"] is False and running.clock["left_s"] == 20.0
    assert " turn seat 2 20s " in table([running], now=1010.0)
    doc["clock"]["seat"] = 1  # a person's (who left): past its deadline, not waiting
    assert line_of(doc, now=3600.0).clock["waits"] is False
    doc["clock"]["seat"] = 0  # a person's seat a substitute plays: the computer's clock
    assert line_of(doc, now=3600.0).clock["waits"] is True


def test_a_store_in_memory_is_said_to_be_the_commands_own():
    """``--store sqlite:///:memory:`` said "0 room(s)", exit 0, with no word that it
    looked at a store of its own (operator review)."""
    out = runner.invoke(app, ["rooms", "--store", "sqlite:///:memory:"])
    assert out.exit_code == 0 and "0 room(s)" in out.stdout, out.output
    assert "store of this command's own" in out.stderr, out.stderr


def test_a_redis_database_with_nothing_of_the_site_is_said_to_be_one(redis_db):
    """On Redis a wrong /DB number or ?prefix= printed "0 room(s)" as if the site had
    none (SQLite says "no such SQLite file"): a note now says the database holds nothing
    under the prefix; a site's store with no rooms left says nothing more."""
    from colorclash.store.redis_store import RedisStore

    other = redis_db.rsplit("/", 1)[0] + "/5"
    out = runner.invoke(app, ["rooms", "--store", other])
    assert out.exit_code == 0, out.output
    assert "0 room(s)" in out.stdout
    assert "holds nothing under the prefix 'cc'" in out.stderr, out.stderr
    store = RedisStore(redis_db)
    try:
        store.redis.set(store.key("procs-seen"), "1")  # (any key of the site's)
    finally:
        store.close()
    out = runner.invoke(app, ["rooms", "--store", redis_db])
    assert out.exit_code == 0 and "holds nothing" not in out.stderr, out.stderr


def damaged_store(path, documents: dict, damage: dict) -> None:
    """A SQLite store at ``path`` holding ``documents`` (code -> document), then each room
    of ``damage`` (code -> an SQL expression of ``data``) damaged by hand."""
    import sqlite3

    from colorclash.store.sqlite import SQLiteStore

    store = SQLiteStore(str(path))
    try:
        for code, doc in documents.items():
            store.save_room(code, doc)
    finally:
        store.close()
    db = sqlite3.connect(path)
    with db:
        for code, expression in damage.items():
            db.execute(f"UPDATE rooms SET data={expression} WHERE code=?", (code,))
    db.close()


def _a_store_with_damaged_rooms(path) -> None:
    """Four rooms in a SQLite file: one whole, three whose documents were damaged by hand
    (not JSON, a JSON list, a creation time that is text)."""
    codes = ("GOODAA", "NOJSON", "ALISTT", "BADTIM")
    damaged_store(path, {c: _document(c, "lobby", 1000.0 + i) for i, c in enumerate(codes)},
                  {"NOJSON": "'{not json'", "ALISTT": "'[]'",
                   "BADTIM": "json_set(data, '$.created', 'x')"})


def test_a_damaged_room_is_named_and_the_others_are_listed(tmp_path):
    """One damaged room (a document edited by hand) was a traceback and no room listed at
    all (operator QA): now the others are listed, each damaged one named on stderr, and
    the exit is 1."""
    path = tmp_path / "damaged.sqlite3"
    _a_store_with_damaged_rooms(path)
    out = runner.invoke(app, ["rooms", "--store", f"sqlite:///{path}"])
    assert out.exit_code == 1, out.output
    assert "GOODAA" in out.stdout and "1 room(s)" in out.stdout, out.stdout
    for code, why in (("NOJSON", "not JSON"), ("ALISTT", "JSON list, not an object"),
                      ("BADTIM", "a time that is str")):
        assert f"error: room {code}: its stored document is damaged" in out.stderr
        assert why in out.stderr, out.stderr
    assert "Traceback" not in out.output
    out = runner.invoke(app, ["rooms", "--store", f"sqlite:///{path}", "--json"])
    assert out.exit_code == 1
    assert [json.loads(line)["code"] for line in out.stdout.splitlines()] == ["GOODAA"]


@pytest.mark.asyncio
async def test_a_room_the_server_cannot_restore_is_named_by_rooms_copy_and_start(tmp_path,
                                                                                 caplog):
    """A log the rules refuse (an action edited by hand, or a rule changed under a stored
    match) and a seat with a field of its own: ``rooms`` listed both as healthy (the first
    playing: ``rooms`` replays the playing rooms, ``copy-store`` every one), the
    server's start could not restore them (one with a traceback), and ``copy-store``
    copied the first "each checked" (operator review). Each now names the room and why,
    in one line."""
    import logging
    import sqlite3
    import subprocess
    import sys

    db = tmp_path / "site.sqlite3"
    with InProcessServer(f"sqlite:///{db}", Settings(**LIFTED_LIMITS, bot_delay=0)) as srv:
        c = Client(srv.url)
        played = await c.practice("Ana", bots=1, level="easy")
        async with await c.connect(played["code"], played["token"]) as me:
            if me.my_turn():
                await me.act(me.view["legal"][0])
            await me.wait_state(lambda s: s["seq"] >= 1)  # (an action of either seat stored)
        lobby = await c.create_room("Bea", seats=3)
        whole = await c.create_room("Cem", seats=2)
    edit = sqlite3.connect(db)
    with edit:
        edit.execute("UPDATE actions SET action=? WHERE code=? AND idx=0",
                     ('{"type": "play", "card": "ZZ"}', played["code"]))
        edit.execute("UPDATE rooms SET data=json_set(data, '$.seats[0].seat', 'zero') "
                     "WHERE code=?", (lobby["code"],))
    edit.close()
    replay = f"room {played['code']}: its match 1 does not replay: its action 1 is refused"
    document = f"room {lobby['code']}: its stored document is damaged"

    out = runner.invoke(app, ["rooms", "--store", str(db)])
    assert out.exit_code == 1, out.output
    assert replay in out.stderr and document in out.stderr, out.stderr
    assert whole["code"] in out.stdout and played["code"] not in out.stdout, out.stdout

    copied = subprocess.run([sys.executable, "-m", "colorclash.cli", "copy-store", str(db),
                             str(tmp_path / "to.sqlite3")], capture_output=True, text=True,
                            timeout=120)
    assert copied.returncode == 2 and replay in copied.stderr, copied.stderr
    assert "Traceback" not in copied.stderr and not (tmp_path / "to.sqlite3").exists()

    with caplog.at_level(logging.ERROR, logger="colorclash.server.hub"), \
            InProcessServer(f"sqlite:///{db}", Settings(**LIFTED_LIMITS)) as srv:
        assert (await Client(srv.url).room(whole["code"]))["status"] == "lobby"
    said = [r for r in caplog.records if "could not be restored" in r.getMessage()]
    assert len(said) == 2 and not any(r.exc_info for r in said), said
    assert any(replay in r.getMessage() for r in said), [r.getMessage() for r in said]

    # the operator's way out: delete them (no server running), then every tool is whole
    gone = runner.invoke(app, ["delete-rooms", "--store", str(db), played["code"].lower(),
                               lobby["code"]])
    assert gone.exit_code == 0, gone.output
    assert gone.stdout.strip().endswith(f"deleted 2 room(s) from {db}: "
                                        f"{played['code']}, {lobby['code']}")
    out = runner.invoke(app, ["rooms", "--store", str(db)])
    assert out.exit_code == 0 and "1 room(s)" in out.stdout, out.output
    left = sqlite3.connect(db)
    for table_name in ("rooms", "actions", "records"):  # nothing of theirs left
        assert left.execute(f"SELECT count(*) FROM {table_name} WHERE code IN (?, ?)",
                            (played["code"], lobby["code"])).fetchone() == (0,)
    left.close()


def test_delete_rooms_deletes_nothing_for_a_code_not_there_or_a_store_in_use(tmp_path):
    path = tmp_path / "damaged.sqlite3"
    _a_store_with_damaged_rooms(path)
    out = runner.invoke(app, ["delete-rooms", "--store", str(path), "NOJSON", "NOSUCH"])
    assert out.exit_code == 2
    assert "no room NOSUCH in" in out.stderr and "nothing was deleted" in out.stderr
    from colorclash.store.sqlite import SQLiteStore

    held = SQLiteStore(str(path))
    try:
        assert "NOJSON" in held.room_codes()
        held.claim()  # a server's claim
        out = runner.invoke(app, ["delete-rooms", "--store", str(path), "NOJSON"])
        assert out.exit_code == 2 and "is in use (another server is already using" in out.stderr
        assert "NOJSON" in held.room_codes()
    finally:
        held.close()
    out = runner.invoke(app, ["delete-rooms", "--store", str(tmp_path / "none.sqlite3"), "A"])
    assert out.exit_code == 2 and "no such SQLite file" in out.stderr
    assert not (tmp_path / "none.sqlite3").exists()


@pytest.mark.asyncio
async def test_a_backup_taken_while_the_site_plays_restores_with_copy_store(tmp_path):
    """A backup needed the sqlite3 program (an extra package) and a restore had no
    procedure: a backup copied over the live file beside a stale -wal was overwritten by
    that WAL (operator review). ``backup`` copies the running store into one file; a
    restore copies it into a new file with ``copy-store`` (every room replayed)."""
    import os
    import subprocess
    import sys

    from colorclash.server.testing import ServerProcess

    db = tmp_path / "site.sqlite3"
    srv = ServerProcess(f"sqlite:///{db}", env={"COLORCLASH_BOT_DELAY": "0"}).start()
    try:
        c = Client(srv.url)
        kept = [await c.practice("Ana", bots=1, level="easy"), await c.create_room("Bo")]
        taken = runner.invoke(app, ["backup", "--store", str(db), str(tmp_path / "b.sqlite3")])
        assert taken.exit_code == 0, taken.output
        assert taken.stdout.startswith(f"backed up 2 room(s) from {db} to ")
        again = runner.invoke(app, ["backup", "--store", str(db), str(tmp_path / "b.sqlite3")])
        assert again.exit_code == 2 and "never overwrites" in again.stderr
        await c.create_room("Later")  # after the backup: not in it
    finally:
        srv.kill()  # (a crash: a -wal is left beside the file)
    backup = tmp_path / "b.sqlite3"
    assert oct(backup.stat().st_mode & 0o777) == "0o600"
    assert sorted(p.name for p in tmp_path.glob("b.sqlite3*")) == ["b.sqlite3"]  # one file
    # the restore as docs/deployment.md says it: the old file with its -wal and -shm aside,
    # then the backup copied into a new file by copy-store
    aside = tmp_path / "old"
    aside.mkdir()
    for f in tmp_path.glob("site.sqlite3*"):
        os.rename(f, aside / f.name)
    restored = subprocess.run([sys.executable, "-m", "colorclash.cli", "copy-store",
                               str(backup), str(db)], capture_output=True, text=True,
                              timeout=120)
    assert restored.returncode == 0, restored.stderr
    srv = ServerProcess(f"sqlite:///{db}").start()
    try:
        c = Client(srv.url)
        assert (await c.room(kept[1]["code"]))["status"] == "lobby"
        async with await c.connect(kept[0]["code"], kept[0]["token"]) as me:
            assert me.room["status"] == "playing" and me.state["view"]["hand"]
    finally:
        srv.stop()


def test_backup_is_for_sqlite_stores(tmp_path):
    out = runner.invoke(app, ["backup", "--store", "redis://127.0.0.1:1/0",
                              str(tmp_path / "b.sqlite3")])
    assert out.exit_code == 2 and "Redis itself" in out.stderr
    out = runner.invoke(app, ["backup", "--store", str(tmp_path / "none.sqlite3"),
                              str(tmp_path / "b.sqlite3")])
    assert out.exit_code == 2 and "no such SQLite file" in out.stderr
    assert not (tmp_path / "b.sqlite3").exists()


@pytest.mark.asyncio
async def test_delete_rooms_on_redis_frees_the_rooms_code(redis_db):
    """On Redis the room went, but its code's reservation and owner stayed for ever: the
    code could never be drawn again, and the next start handed the deleted room on
    (a Redis review). Deleted as a process's sweep retires a room."""
    import redis

    from colorclash.server.testing import ServerProcess

    srv = ServerProcess(redis_db, env={"COLORCLASH_BOT_DELAY": "0"}).start()
    try:
        c = Client(srv.url)
        gone = await c.practice("Ana", bots=1, level="easy")
        kept = await c.create_room("Bo")
    finally:
        srv.stop()
    r = redis.Redis.from_url(redis_db)
    try:
        assert r.exists(f"cc:code:{gone['code']}") and r.exists(f"cc:owner:{gone['code']}")
        out = runner.invoke(app, ["delete-rooms", "--store", redis_db, gone["code"]])
        assert out.exit_code == 0, out.output
        assert not r.exists(f"cc:code:{gone['code']}", f"cc:owner:{gone['code']}",
                            f"cc:room:{gone['code']}")
        owned = [m.decode() for k in r.scan_iter("cc:owned:*") for m in r.smembers(k)]
        assert gone["code"] not in owned and kept["code"] in owned
        assert r.exists(f"cc:code:{kept['code']}")  # (the other room's left as it was)
    finally:
        r.close()
