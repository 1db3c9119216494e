"""The SQLite store: rooms as documents plus an append-only action log, atomically."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import colorclash
from colorclash.store import StoreError, open_store
from colorclash.store.sqlite import SQLiteStore


@pytest.fixture
def store(tmp_path):
    s = open_store(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    yield s
    s.close()


def test_room_document_round_trip(store):
    data = {"code": "ABCDEF", "seats": [{"name": "Ana"}], "clock": {"deadline": 1.5}}
    store.save_room("ABCDEF", data)
    assert store.load_room("ABCDEF") == data
    assert store.load_room("ZZZZZZ") is None
    assert store.room_codes() == ["ABCDEF"]


def test_actions_append_in_order_with_the_room(store):
    store.save_room("ABCDEF", {"n": 0}, 1, [(0, 1, {"type": "draw"})])
    store.save_room("ABCDEF", {"n": 1}, 1, [(1, 2, {"type": "play", "card": "R7"})])
    store.save_room("ABCDEF", {"n": 2}, 2, [(0, 0, {"type": "pass"})])
    assert store.load_actions("ABCDEF", 1) == [(1, {"type": "draw"}),
                                                (2, {"type": "play", "card": "R7"})]
    assert store.load_actions("ABCDEF", 2) == [(0, {"type": "pass"})]
    assert store.load_room("ABCDEF") == {"n": 2}


def test_a_failed_write_changes_nothing(store):
    store.save_room("ABCDEF", {"n": 0}, 1, [(0, 1, {"type": "draw"})])
    with pytest.raises(sqlite3.IntegrityError):  # index 0 again: refused as a whole
        store.save_room("ABCDEF", {"n": 99}, 1, [(0, 1, {"type": "pass"})])
    assert store.load_room("ABCDEF") == {"n": 0}
    assert store.load_actions("ABCDEF", 1) == [(1, {"type": "draw"})]


@pytest.mark.parametrize("asked, level", [("", 2), ("?synchronous=full", 2),
                                          ("?synchronous=normal", 1)])
def test_every_connection_that_writes_syncs_as_asked(tmp_path, asked, level):
    """An action is acknowledged once its write is durable: the writer thread's own
    connection could have written with ``synchronous=OFF`` and every test passed (a
    mutation review). Each connection that writes (the loop's, the group commit's, the
    sweep's) is at the level the store was opened with: FULL (2) unless asked NORMAL (1)."""
    s = open_store(f"sqlite:///{tmp_path / 'x.sqlite3'}{asked}")
    try:
        s.save_many([("ABCDEF", {"n": 1}, 1, [(0, 1, {"type": "draw"})])])
        s.save_room("GHIJKL", {"n": 1})
        s.delete_rooms(["GHIJKL"])
        connections = {"loop": s._db, "writer": s._wdb, "sweep": s._sdb}
        assert all(db is not None for db in connections.values()), connections
        for name, db in connections.items():
            assert db.execute("PRAGMA synchronous").fetchone()[0] == level, name
    finally:
        s.close()


def test_data_survives_reopening_and_uses_wal(tmp_path):
    path = tmp_path / "y.sqlite3"
    s = SQLiteStore(path)
    s.save_room("QWERTY", {"x": 1}, 1, [(0, 0, {"type": "draw"})])
    s.close()
    s = SQLiteStore(path)
    assert s.load_room("QWERTY") == {"x": 1}
    assert s.load_actions("QWERTY", 1) == [(0, {"type": "draw"})]
    mode = s._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    s.delete_room("QWERTY")
    assert s.load_room("QWERTY") is None and s.load_actions("QWERTY", 1) == []
    s.close()


def test_a_deleted_room_leaves_no_name_in_the_file(tmp_path):
    """Swept rooms' names, seeds and hands stayed readable in the file's free pages where
    SQLite was built without secure delete (Debian's has it; the store no longer depends
    on the build: a privacy review)."""
    path = tmp_path / "p.sqlite3"
    s = SQLiteStore(path)
    assert s._db.execute("PRAGMA secure_delete").fetchone()[0] == 1
    s.save_room("QWERTY", {"name": "Zed Uniquename " * 50}, 1, [(0, 0, {"type": "draw"})])
    s.save_room("KEEPME", {"name": "Ana"}, None, None)
    s.delete_rooms(["QWERTY"])
    s.close()  # (the WAL folded into the file)
    assert b"Uniquename" not in path.read_bytes()
    assert SQLiteStore(path, read_only=True).room_codes() == ["KEEPME"]


def test_a_gap_in_the_log_is_reported(store):
    store.save_room("ABCDEF", {}, 1, [(0, 0, {"type": "draw"}), (2, 0, {"type": "draw"})])
    with pytest.raises(StoreError, match="gap"):
        store.load_actions("ABCDEF", 1)


def test_a_bare_path_is_a_sqlite_file(tmp_path, monkeypatch):
    """``--store /tmp/x.sqlite3`` was "unknown store URL": a path is what a newcomer types
    first. Absolute or relative, it is a SQLite file."""
    s = open_store(str(tmp_path / "bare.sqlite3"))
    s.save_room("ABCDEF", {"n": 1})
    s.close()
    monkeypatch.chdir(tmp_path)
    s = open_store("bare.sqlite3")
    assert s.load_room("ABCDEF") == {"n": 1}
    s.close()


def test_bad_urls_and_paths_have_clear_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # (sqlite:///x is x here)
    with pytest.raises(StoreError, match="unknown store URL"):
        open_store("mysql://x")
    with pytest.raises(StoreError, match="does not exist"):
        open_store(f"sqlite:///{tmp_path}/missing/dir/x.sqlite3")
    with pytest.raises(StoreError, match=r"bad store URL 'sqlite:///x\?synchronous=bogus': "
                                         r"\?synchronous= must be full or normal, not 'bogus'"):
        open_store("sqlite:///x?synchronous=bogus")  # (the URL named: which setting it was)
    assert not (tmp_path / "x").exists()
    with pytest.raises(ValueError, match="match"):
        s = open_store(f"sqlite:///{tmp_path / 'z.sqlite3'}")
        s.save_room("A", {}, None, [(0, 0, {})])


def test_another_programs_database_is_refused_and_left_as_it_was(foreign_sqlite):
    path = foreign_sqlite
    with pytest.raises(StoreError, match="not a Color Clash store: its table 'rooms' has "
                                         "no column code, data, updated"):
        open_store(f"sqlite:///{path}")
    db = sqlite3.connect(path)
    tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
    db.close()
    assert tables == {"rooms"}  # none of ours added to it


def test_another_programs_database_is_refused_before_anything_in_it_changes(tmp_path,
                                                                             foreign_sqlite):
    """The file was switched to WAL before its tables were looked at (refused, but
    changed); a file of other tables and none of ours was given ours."""
    notes = tmp_path / "notes.db"
    db = sqlite3.connect(notes)
    db.execute("create table notes (body text)")
    db.execute("insert into notes values ('keep me')")
    db.commit()
    db.close()
    for path in (foreign_sqlite, notes):
        before = Path(path).read_bytes()
        with pytest.raises(StoreError, match="not a Color Clash store"):
            open_store(f"sqlite:///{path}")
        with pytest.raises(StoreError, match="not a Color Clash store"):
            open_store(f"sqlite:///{path}", create=False)  # the operator's commands
        assert Path(path).read_bytes() == before, path


def test_a_store_opened_to_be_read_is_read_and_left_as_it_was(tmp_path):
    """``colorclash rooms`` and ``copy-store``'s source open the file read-only: the rooms
    are there, nothing can be written, and the file's bytes do not change."""
    path = tmp_path / "site.sqlite3"
    s = open_store(f"sqlite:///{path}")
    s.save_room("ABCDEF", {"code": "ABCDEF"}, None)
    s.close()
    before = path.read_bytes()
    reader = open_store(f"sqlite:///{path}", create=False)
    try:
        assert reader.room_codes() == ["ABCDEF"]
        with pytest.raises((StoreError, sqlite3.Error)):
            reader.save_room("GHIJKL", {"code": "GHIJKL"}, None)
    finally:
        reader.close()
    assert path.read_bytes() == before
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    with pytest.raises(StoreError, match="none of the store's tables"):
        open_store(f"sqlite:///{empty}", create=False)
    assert empty.read_bytes() == b""


def test_a_folder_or_file_the_server_cannot_write_is_named(tmp_path, monkeypatch):
    """(Checked by os.access, as the tests may run as root, whom no mode stops.)"""
    import os

    import colorclash.store.sqlite as sqlite_store

    locked = tmp_path / "locked"
    locked.mkdir()
    real = os.access
    monkeypatch.setattr(sqlite_store.os, "access",
                        lambda p, mode: False if str(p).startswith(str(locked)) else
                        real(p, mode))
    with pytest.raises(StoreError, match=f"folder for the SQLite store is not writable: "
                                         f"{locked}"):
        open_store(f"sqlite:///{locked}/rooms.sqlite3")
    assert not (locked / "rooms.sqlite3").exists()
    theirs = tmp_path / "readonly.sqlite3"
    theirs.write_bytes(b"")
    monkeypatch.setattr(sqlite_store.os, "access",
                        lambda p, mode: False if str(p) == str(theirs) else real(p, mode))
    with pytest.raises(StoreError, match="is not readable and writable by this user"):
        open_store(f"sqlite:///{theirs}")



def test_a_device_or_a_folder_is_refused_before_sqlite_touches_it(tmp_path):
    """``--store /dev/null`` was refused, but only after SQLite had made
    ``/dev/null-journal``, writable by everyone (operator QA)."""
    from pathlib import Path

    journal = Path("/dev/null-journal")
    had = journal.exists()
    try:
        for path, what in (("/dev/null", "a device"), (str(tmp_path), "a folder")):
            for create in (True, False):
                with pytest.raises(StoreError, match=f"is {what}, not a file"):
                    open_store(f"sqlite:///{path}", create=create)
        assert had or not journal.exists()
    finally:
        if not had and journal.exists():
            journal.unlink()


def test_a_store_file_the_system_will_not_make_is_a_clear_error(tmp_path, monkeypatch):
    """/proc/x.sqlite3: a folder the access checks call writable, where no file can be
    made. The OSError was a traceback (and exit 1), not the store's one line."""
    import errno
    import os

    import colorclash.store.sqlite as sqlite_store

    real = os.open

    def refuse(path, flags, mode=0o777):
        if str(path).endswith("refused.sqlite3"):
            raise OSError(errno.ENOENT, "No such file or directory")
        return real(path, flags, mode)

    monkeypatch.setattr(sqlite_store.os, "open", refuse)
    with pytest.raises(StoreError, match="cannot make the SQLite store .*refused.sqlite3.*: "
                                         "No such file or directory"):
        open_store(f"sqlite:///{tmp_path}/refused.sqlite3")


def test_a_store_in_memory_is_warned_of_at_start():
    """sqlite:///:memory: was taken without a word: every game lost on a restart."""
    s = SQLiteStore(":memory:")
    warning = s.durability_warning()
    s.close()
    assert warning is not None and "in memory" in warning and "lost" in warning


def _wait_for(predicate, timeout=5.0):
    import time
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def test_the_wal_is_checkpointed_by_its_own_thread_not_by_a_commit(tmp_path, monkeypatch):
    """The writer's commits never copy the WAL back (that made one commit in a few hundred
    take 10-20 ms); the checkpoint thread does, a moment after writes."""
    import shutil

    from colorclash.store import sqlite as sqlite_store

    monkeypatch.setattr(sqlite_store._Checkpointer, "PAUSE_S", 0.01)
    path = tmp_path / "w.sqlite3"
    s = SQLiteStore(path)
    s.save_many([("ROOM01", {"n": 1}, 1, [(0, 0, {"type": "draw"})])])
    assert s._wdb.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    _wait_for(lambda: s._checkpointer.checkpoints >= 1)
    # The database file alone, without its WAL, now holds the write.
    shutil.copy(path, tmp_path / "alone.sqlite3")
    alone = sqlite3.connect(tmp_path / "alone.sqlite3")
    assert alone.execute("SELECT action FROM actions WHERE code='ROOM01'").fetchall() == [
        ('{"type":"draw"}',)]
    alone.close()
    thread = s._checkpointer._thread
    s.close()
    assert not thread.is_alive()


def test_the_wal_stays_small_while_writes_go_on(tmp_path, monkeypatch):
    """Without SQLite's automatic checkpoint the WAL would grow with every commit; the
    checkpoint thread lets it start over (about 6 MB of writes here, against a WAL that
    stays under 2 MB)."""
    from colorclash.store import sqlite as sqlite_store

    monkeypatch.setattr(sqlite_store._Checkpointer, "PAUSE_S", 0.001)
    path = tmp_path / "g.sqlite3"
    s = SQLiteStore(path)
    doc = {"pad": "x" * 15_000}
    for i in range(400):
        s.save_many([("ROOM01", dict(doc, n=i), 1, [(i, 0, {"type": "draw"})])])
        if i % 20 == 19:
            # (a checkpoint that started before the last commit does not count: waiting
            # for any next one let the WAL grow to 3 MB on a slow machine)
            _wait_for(lambda: s._checkpointer.folded == s._checkpointer.writes)
    wal = (tmp_path / "g.sqlite3-wal").stat().st_size
    assert wal < 2_000_000, wal
    assert s.load_room("ROOM01")["n"] == 399
    assert len(s.load_actions("ROOM01", 1)) == 400
    s.close()


def test_without_a_checkpoint_thread_the_commits_checkpoint_as_before(tmp_path, monkeypatch,
                                                                      caplog):
    """Should the checkpoint thread's connection fail to open, SQLite's own checkpoints
    stay on (the WAL must never grow without end), and the writes go on."""
    from colorclash.store import sqlite as sqlite_store

    def refuse(path):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(sqlite_store, "_Checkpointer", refuse)
    s = SQLiteStore(tmp_path / "n.sqlite3")
    s.save_many([("ROOM01", {"n": 1}, 1, [(0, 0, {"type": "draw"})])])
    assert s._wdb.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
    assert "checkpoints stay in the commits" in caplog.text
    assert s.load_actions("ROOM01", 1) == [(0, {"type": "draw"})]
    s.close()


def test_a_full_disk_is_a_refusal_with_its_reason_and_the_store_goes_on(tmp_path):
    """A commit refused by a full disk had rolled back already; the store's second ROLLBACK
    raised "cannot rollback - no transaction is active", which hid the real error under
    two chained tracebacks. It is a StoreError naming the full disk, and once there is room
    again the store takes writes."""
    s = open_store(f"sqlite:///{tmp_path / 'full.sqlite3'}")
    s.save_room("ABCDEF", {"n": 1}, 1, [(0, 0, {"type": "draw"})])
    pages = s._db.execute("PRAGMA page_count").fetchone()[0]
    s._db.execute(f"PRAGMA max_page_count={pages}")  # as a disk with no room left
    with pytest.raises(StoreError, match="full"):
        s.save_room("ABCDEF", {"n": 2, "pad": "x" * 200_000}, 1, [(1, 0, {"type": "draw"})])
    assert s.load_room("ABCDEF") == {"n": 1}
    assert s.load_actions("ABCDEF", 1) == [(0, {"type": "draw"})]
    s._db.execute("PRAGMA max_page_count=1073741823")
    s.save_room("ABCDEF", {"n": 2}, 1, [(1, 0, {"type": "draw"})])
    assert s.load_room("ABCDEF") == {"n": 2}
    s.close()


def test_a_new_store_is_readable_by_its_owner_only(tmp_path):
    """The file holds every live game's secret seed: made under the usual umask (022) it
    was 0644, and any user of the machine could read the hands of games in play."""
    import os
    import stat

    old = os.umask(0o022)
    try:
        path = tmp_path / "private.sqlite3"
        s = SQLiteStore(path)
        s.claim()
        s.save_many([("QWERTY", {"seed": "secret"}, 1, [(0, 0, {"type": "draw"})])])
        made = sorted(p.name for p in tmp_path.iterdir())
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
        assert {"private.sqlite3", "private.sqlite3-wal", "private.sqlite3-shm",
                "private.sqlite3.lock"} <= set(made), made
        assert all(mode == 0o600 for mode in modes.values()), modes
        assert s.privacy_warning() is None
        s.close()
    finally:
        os.umask(old)


def test_a_store_others_can_read_is_warned_of_at_start(tmp_path):
    path = tmp_path / "old.sqlite3"
    SQLiteStore(path).close()
    path.chmod(0o644)
    s = SQLiteStore(path)
    warning = s.privacy_warning()
    s.close()
    assert warning is not None and "readable by other users" in warning
    assert "0644" in warning and f"chmod 600 {path}" in warning


def _as_nobody(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by the system's Python as the user ``nobody`` (whom file modes stop,
    unlike root), with this checkout's ``src`` importable (the store needs nothing else)."""
    src = str(Path(colorclash.__file__).resolve().parents[1])
    return subprocess.run(["runuser", "-u", "nobody", "--", "/usr/bin/python3", "-c",
                           f"import sys; sys.path.insert(0, {src!r}); {code}"],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("runuser")
                    or not os.path.exists("/usr/bin/python3"),
                    reason="needs root to run a command as another user")
def test_a_store_in_a_folder_the_reader_cannot_write_is_still_read():
    """``colorclash rooms`` on a copy in a folder its user cannot write (a backup on a
    read-only mount) said only SQLite's "attempt to write a readonly database": SQLite
    makes an index file beside a WAL-mode store to read it. With no unfolded -wal the file
    is read as it is; with one, the message says what to do."""
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="cc-read-only-"))  # (pytest's own is root's alone)
    try:
        _read_in_a_folder_nobody_can_write(base)
    finally:
        shutil.rmtree(base)


def _read_in_a_folder_nobody_can_write(base: Path) -> None:
    folder = base / "backup"
    folder.mkdir()
    path = folder / "site.sqlite3"
    s = open_store(f"sqlite:///{path}")
    s.save_room("ABCDEF", {"code": "ABCDEF"}, None)
    s.close()
    for p in (base, folder):
        p.chmod(0o755)
    path.chmod(0o644)
    src = str(Path(colorclash.__file__).resolve().parents[1])
    if _as_nobody("pass").returncode != 0 or not os.access(src, os.R_OK):
        pytest.skip("the user nobody cannot run this checkout's code here")
    read = ("from colorclash.store import open_store; "
            f"s = open_store('sqlite:///{path}', create=False); print(s.room_codes())")
    done = _as_nobody(read)
    assert done.returncode == 0 and done.stdout.strip() == "['ABCDEF']", done.stderr
    assert sorted(os.listdir(folder)) == ["site.sqlite3"]  # (nothing made beside it)
    out = base / "out"  # copy-store's source too: its claim made a lock file beside it
    out.mkdir(mode=0o777)
    out.chmod(0o777)
    copied = _as_nobody("from colorclash.store.copy import copy_store; "
                        f"print(copy_store('sqlite:///{path}', 'sqlite:///{out}/new.sqlite3')"
                        ".rooms)")
    assert copied.returncode == 0 and copied.stdout.strip() == "1", copied.stderr
    # with a server's lock file beside it, and that server running: refused
    (folder / "site.sqlite3.lock").touch(mode=0o644)
    held = subprocess.Popen([sys.executable, "-c", "import fcntl, os, sys, time; "
                             f"fd = os.open({str(path) + '.lock'!r}, os.O_RDWR); "
                             "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); "
                             "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert held.stdout.readline().strip() == "held"
        refused = _as_nobody("from colorclash.store.copy import copy_store; "
                             f"copy_store('sqlite:///{path}', 'sqlite:///{out}/two.sqlite3')")
        assert "is in use" in refused.stderr, refused.stderr
    finally:
        held.kill()
        held.wait()
    (folder / "site.sqlite3.lock").unlink()
    # a server killed with writes still in its -wal
    killed = ("import os; from colorclash.store import open_store; "
              f"s = open_store('sqlite:///{path}'); s.save_room('GHIJKL', {{}}, None); "
              "os._exit(0)")
    assert subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {src!r}); "
                           + killed], timeout=60).returncode == 0
    assert (folder / "site.sqlite3-wal").stat().st_size > 0
    for name in os.listdir(folder):
        (folder / name).chmod(0o644)
    done = _as_nobody(read)  # (SQLite reads the -wal through the -shm the server left)
    assert done.returncode == 0 and done.stdout.strip() == "['ABCDEF', 'GHIJKL']", done.stderr
    # a file in a folder this user may not open was "no such SQLite file"
    private = base / "private"
    private.mkdir(mode=0o700)
    private.chmod(0o700)
    shutil.copy(path, private / "site.sqlite3")
    hidden = _as_nobody("from colorclash.store import open_store; "
                        f"open_store('sqlite:///{private}/site.sqlite3', create=False)")
    assert f"this user may not open the folder {private}" in hidden.stderr, hidden.stderr
    (folder / "site.sqlite3-shm").unlink()  # and without it: said, not read without them
    done = _as_nobody(read)
    assert done.returncode != 0 and "Traceback" in done.stderr
    assert "folder is not writable by this user" in done.stderr, done.stderr
    assert "copy the file and its -wal file" in done.stderr



def _link(path: Path, how: str) -> Path:
    link = path.with_name(f"{how}-link.sqlite3")
    if how == "symlink":
        link.symlink_to(path.name)
    else:
        os.link(path, link)
    return link


def _in_another_process(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a process of its own (SQLite refuses a second name of a file open in
    the same process: "disk I/O error"), with this checkout's ``src`` importable."""
    src = str(Path(colorclash.__file__).resolve().parents[1])
    return subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {src!r}); "
                           + code], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("how", ["symlink", "hardlink"])
def test_a_second_claim_through_a_link_to_the_file_is_refused(tmp_path, how):
    """The lock was ``PATH.lock`` by the path as given: a second server given a symbolic
    or a hard link to the file took a lock of another name and ran the same rooms'
    clocks beside the first (UNIQUE constraint failures, rebuilds). The file itself is
    locked too, and the lock file's name has its links resolved."""
    path = tmp_path / "dual.sqlite3"
    first = SQLiteStore(path)
    first.claim()
    first.save_many([("ABCDEF", {"n": 1}, 1, [(0, 0, {"type": "draw"})])])
    link = _link(path, how)
    claim = ("from colorclash.store.sqlite import SQLiteStore; "
             f"s = SQLiteStore({str(link)!r}); s.claim(); print('claimed')")
    second = _in_another_process(claim)
    assert "another server is already using" in second.stderr, second.stdout + second.stderr
    assert "claimed" not in second.stdout
    # the claim's lock on the file leaves SQLite's own locks alone: the first writes on,
    # and another program still reads and writes the file
    first.save_many([("ABCDEF", {"n": 2}, 1, [(1, 0, {"type": "draw"})])])
    other = _in_another_process(
        f"import sqlite3; db = sqlite3.connect({str(path)!r}); "
        "print(db.execute('SELECT count(*) FROM actions').fetchone()[0]); "
        "db.execute(\"INSERT INTO records VALUES ('ABCDEF', 1, '{}')\"); db.commit()")
    assert other.returncode == 0 and other.stdout.strip() == "2", other.stderr
    first.save_many([("ABCDEF", {"n": 3}, 1, [(2, 0, {"type": "draw"})])])
    assert len(first.load_actions("ABCDEF", 1)) == 3
    first.close()
    # the first stopped: the file is free by either name
    assert _in_another_process(claim).stdout.strip() == "claimed"


@pytest.mark.parametrize("how", ["symlink", "hardlink"])
def test_copy_store_refuses_a_store_in_use_through_a_link(tmp_path, how):
    path = tmp_path / "site.sqlite3"
    server = SQLiteStore(path)
    server.claim()
    server.save_many([("ABCDEF", {"n": 1}, None, None)])
    # (as the server's checkpoints do: SQLite names the WAL after the name it was given,
    # so by a hard link's name only what is folded into the file is seen)
    server._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    link = _link(path, how)
    copy = ("from colorclash.store.copy import copy_store; "
            f"print(copy_store('sqlite:///{link}', 'sqlite:///{tmp_path}/copy.sqlite3').rooms)")
    busy = _in_another_process(copy)
    assert "is in use (another server is already using" in busy.stderr, busy.stderr
    assert "or copy it while it runs with colorclash backup" in busy.stderr  # (the way)
    server.close()
    done = _in_another_process(copy)
    assert done.stdout.strip() == "1", done.stderr


def test_a_file_another_program_holds_locked_is_a_refusal_not_a_traceback(tmp_path):
    """With the file locked by another program (``BEGIN EXCLUSIVE`` held), the store's
    ``BEGIN IMMEDIATE`` itself failed, outside the code that turns SQLite's refusals into
    the one-line StoreError: every group commit logged "store commit of N writes failed"
    with a whole traceback. Now it is the refusal with its reason, as a full disk is."""
    path = tmp_path / "locked.sqlite3"
    s = SQLiteStore(path)
    s.save_many([("ABCDEF", {"n": 1}, 1, [(0, 0, {"type": "draw"})])])
    s._wdb.execute("PRAGMA busy_timeout=50")
    s._db.execute("PRAGMA busy_timeout=50")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreError, match="did not take 1 write.*locked"):
        s.save_many([("ABCDEF", {"n": 2}, 1, [(1, 0, {"type": "draw"})])])
    with pytest.raises(StoreError, match="did not delete room ABCDEF.*locked"):
        s.delete_room("ABCDEF")
    other.execute("ROLLBACK")
    other.close()
    s.save_many([("ABCDEF", {"n": 2}, 1, [(1, 0, {"type": "draw"})])])
    assert s.load_room("ABCDEF") == {"n": 2}
    s.delete_room("ABCDEF")
    assert s.room_codes() == []
    s.close()


@pytest.mark.parametrize("quiet", [True, False])
def test_the_wal_file_is_cut_back_after_a_burst_of_writes(tmp_path, monkeypatch, quiet):
    """SQLite reuses its -wal file from the start after a checkpoint and never shrinks it:
    it stayed at its peak (25 MB after 3,000 rooms were deleted in a row), while the docs
    said a few MB. The connections' journal_size_limit has the next commit cut it back;
    a process that goes quiet after the burst has its checkpoint thread cut it."""
    from colorclash.store import sqlite as sqlite_store

    monkeypatch.setattr(sqlite_store._Checkpointer, "PAUSE_S", 0.01)
    path = tmp_path / "burst.sqlite3"
    s = SQLiteStore(path)
    s.save_many([("ROOM01", {"n": 0}, None, None)])
    if not quiet:  # (the checkpoint thread leaves it to the commits)
        s._checkpointer._limit_pages = 10**9
    pad = "x" * 15_000
    s.save_many([(f"R{i:05d}", {"pad": pad, "n": i}, None, None) for i in range(500)])
    wal = Path(f"{path}-wal")
    assert wal.stat().st_size > sqlite_store.WAL_SIZE_LIMIT  # (the burst, in one commit)
    if quiet:
        with contextlib.suppress(AssertionError):  # (said below)
            _wait_for(lambda: wal.stat().st_size <= sqlite_store.WAL_SIZE_LIMIT)
    else:
        # every page in the file (as the thread's checkpoint after the burst does)
        def folded_in() -> bool:
            busy, pages, done = s._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            return not busy and pages == done

        _wait_for(folded_in)
        s.save_many([("ROOM01", {"n": 1}, None, None)])  # the next commit after it
    assert wal.stat().st_size <= sqlite_store.WAL_SIZE_LIMIT, wal.stat().st_size
    assert len(s.room_codes()) == 501 and s.load_room("R00499")["n"] == 499
    s.close()


def test_a_removed_link_to_the_store_is_not_the_store_deleted(tmp_path):
    """The store's name was resolved again at each check: a symbolic link removed (the
    file itself intact) read as the file deleted, and a stop wrote a copy at the link's
    name (a diff review). The name resolved at the claim is the one watched."""
    real = tmp_path / "real.sqlite3"
    link = tmp_path / "link.sqlite3"
    SQLiteStore(real).close()
    link.symlink_to(real)
    s = SQLiteStore(link)
    try:
        s.claim()
        assert s.file_gone() is None
        link.unlink()
        assert s.file_gone() is None and s.save_gone_file() is None
        real.unlink()
        assert "was deleted" in s.file_gone()
        assert s.save_gone_file() == str(real)  # (back where the file was, not the link)
    finally:
        s.close()
    assert real.exists() and not link.exists()


def test_a_backup_is_never_written_through_a_link(tmp_path):
    s = SQLiteStore(tmp_path / "a.sqlite3")
    s.save_room("ABCDEF", {"n": 1}, None, None)
    target = tmp_path / "b.sqlite3"
    target.symlink_to(tmp_path / "elsewhere.sqlite3")  # dangling: exists() is False
    try:
        with pytest.raises(StoreError, match="never overwrites"):
            s.backup_to(target)
    finally:
        s.close()
    assert not (tmp_path / "elsewhere.sqlite3").exists()
