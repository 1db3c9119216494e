"""SQLite store (the default): one file, WAL journal, every write a transaction."""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from colorclash.store import (
    STORE_FORMAT,
    Action,
    DamagedRoom,
    StoreError,
    Write,
    decoded,
    newer_format,
)

log = logging.getLogger("colorclash.store")

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    updated REAL NOT NULL DEFAULT (julianday('now'))
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL,
    match INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (code, match, idx)
);
CREATE TABLE IF NOT EXISTS records (
    code TEXT NOT NULL,
    match INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (code, match)
);
"""

#: the columns the store reads and writes, by table (a file with other tables of these
#: names is someone else's database: refused at the start, not by a traceback later)
COLUMNS = {"rooms": {"code", "data", "updated"},
           "actions": {"code", "match", "idx", "seat", "action"},
           "records": {"code", "match", "data"}}


#: what the -wal file is cut back to once its writes are in the database file (SQLite
#: reuses the file from its start and never shrinks it: it stayed at its peak, 25 MB after
#: 3,000 rooms were deleted in a row)
WAL_SIZE_LIMIT = 4 * 1024 * 1024


def _connect(path: str) -> sqlite3.Connection:
    """A connection to the store's file (the writer's, the checkpointer's, the loop's),
    with the WAL's size limit, and deleted content overwritten: a swept room's names,
    seed and hands do not stay readable in the file's free pages (Debian's SQLite does
    it by default; another build might not: a privacy review)."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
    db.execute("PRAGMA secure_delete=ON")
    return db


class _Checkpointer:
    """Copies the WAL back into the database file, in a thread of its own.

    SQLite does that by itself in the commit that takes the WAL past 1,000 pages: that
    commit writes the pages into the database and fsyncs it too, 10-20 ms instead of
    about 0.5 (measured at 1,000 connections: these commits, and the actions queued behind
    them in the one writer thread, were the slowest 1% of actions). The writer's
    connection turns that off, and this thread runs a PASSIVE checkpoint, which never
    blocks a writer, a moment after writes. Should the WAL still grow past
    ``RESTART_PAGES`` (a reader held an old snapshot throughout), a RESTART checkpoint
    waits for the readers and starts the WAL over, as the automatic one would have.

    The connections' ``journal_size_limit`` has the next commit after a checkpoint cut
    the -wal file back to ``WAL_SIZE_LIMIT``; a WAL larger than that whose every page is
    in the database already is cut at once (a TRUNCATE checkpoint that waits for nobody:
    a process that goes quiet after a burst of writes kept it at its peak)."""

    PAUSE_S = 1.0
    RESTART_PAGES = 20_000  # about 80 MB of WAL

    def __init__(self, path: str) -> None:
        # (opened here, so that a failure is the caller's to handle: sqlite3.Error)
        db = _connect(path)
        db.execute("PRAGMA busy_timeout=5000")
        self._limit_pages = WAL_SIZE_LIMIT // db.execute("PRAGMA page_size").fetchone()[0]
        self._pending = threading.Event()
        self._stop = threading.Event()
        self._count_lock = threading.Lock()
        self.checkpoints = 0
        self.writes = 0  # commits told of by wrote() (the writer and the sweeper call it)
        self.folded = 0  # of those, how many the database file holds (the WAL copied back)
        self._thread = threading.Thread(target=self._run, args=(db,),
                                        name="colorclash-checkpoint", daemon=True)
        self._thread.start()

    def wrote(self) -> None:
        with self._count_lock:
            self.writes += 1
        self._pending.set()

    def _run(self, db: sqlite3.Connection) -> None:
        try:
            while not self._stop.is_set():
                self._pending.wait()
                # a few batches' worth in each checkpoint (a stop need not wait for it:
                # the last connection's close folds the WAL in)
                if self._stop.wait(self.PAUSE_S):
                    break
                self._pending.clear()
                with self._count_lock:
                    seen = self.writes  # (committed before this checkpoint starts)
                if self.checkpoint(db):
                    self.folded = seen
        finally:
            db.close()

    def checkpoint(self, db: sqlite3.Connection) -> bool:
        """One checkpoint; true when every page of the WAL is in the database file."""
        try:
            _busy, pages, done = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if pages > self.RESTART_PAGES:
                db.execute("PRAGMA wal_checkpoint(RESTART)")
            elif pages > self._limit_pages and done == pages:
                db.execute("PRAGMA busy_timeout=0")  # (busy: the next commit cuts it)
                try:
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                finally:
                    db.execute("PRAGMA busy_timeout=5000")
            self.checkpoints += 1
            return done == pages
        except sqlite3.Error:  # (busy or locked: the next one will do it)
            return False

    def stop(self) -> None:
        self._stop.set()
        self._pending.set()
        self._thread.join(5.0)


def _refuse_what_is_no_file(path: str, read_only: bool = False) -> None:
    """A store path that names a device, a folder or a pipe is refused before SQLite is
    asked: given ``/dev/null`` it made ``/dev/null-journal``, writable by everyone, before
    it failed. (``read_only``: for a command that only reads, which makes no file.)"""
    import stat

    try:
        mode = os.stat(Path(path).expanduser()).st_mode
    except OSError:
        return  # (not there yet, or out of reach: said where the file is opened)
    if stat.S_ISREG(mode):
        return
    what = ("a folder" if stat.S_ISDIR(mode) else "a device" if stat.S_ISCHR(mode)
            or stat.S_ISBLK(mode) else "a pipe" if stat.S_ISFIFO(mode) else "no file")
    raise StoreError(f"the SQLite store {path!r} is {what}, not a file: give the path of "
                     "a store file" + ("" if read_only else " (a new one is made)"))


def _create_private(file: Path) -> None:
    """Make a new store file readable by its owner only (0600). It holds every live game's
    secret seed, which gives away every hand and the draw pile: made by SQLite under the
    usual umask it was 0644, readable by every user of the machine. SQLite makes the
    file's -wal and -shm with the file's own mode."""
    try:
        os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError as exc:  # (/proc/x: a folder the checks call writable, a file refused)
        raise StoreError(f"cannot make the SQLite store {str(file)!r}: "
                         f"{exc.strerror or exc}") from exc


class SQLiteStore:
    """Rooms as JSON documents plus an append-only action log, in one SQLite file."""

    def __init__(self, path: str | Path, synchronous: str = "full",
                 read_only: bool = False) -> None:
        self.path = str(path)
        synchronous = synchronous.lower()
        if synchronous not in ("full", "normal"):
            raise StoreError("synchronous must be 'full' or 'normal'")
        self.synchronous = synchronous
        self.read_only = read_only
        self._lock = threading.Lock()
        self._wdb: sqlite3.Connection | None = None  # the group-commit writer's own connection
        self._checkpointer: _Checkpointer | None = None
        self._sdb: sqlite3.Connection | None = None  # delete_rooms' own connection
        self._sweep_lock = threading.Lock()
        self._owner_fd: int | None = None  # PATH.lock, once claimed (-1: none to lock)
        self._file_fd: int | None = None  # the database file's, for its flock (claim)
        self._real_path: str | None = None  # its name, links resolved, at the claim
        if not self.in_memory:
            _refuse_what_is_no_file(self.path, read_only)
        if read_only and not self.in_memory:
            self._open_read_only()
            return
        if not self.in_memory:
            parent = Path(self.path).expanduser().resolve().parent
            if not parent.exists():
                raise StoreError(f"folder for the SQLite store does not exist: {parent}")
            # (SQLite's own words for these were "unable to open database file" and
            # "attempt to write a readonly database")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise StoreError(f"folder for the SQLite store is not writable: {parent} "
                                 "(the server writes the file and its -wal, -shm and "
                                 ".lock files there)")
            file = Path(self.path).expanduser()
            if file.exists() and not os.access(file, os.R_OK | os.W_OK):
                raise StoreError(f"the SQLite store {self.path!r} is not readable and "
                                 "writable by this user")
            _create_private(file)
        try:
            self._db = _connect(self.path)
            self._db.execute("PRAGMA busy_timeout=5000")
            # (before anything is changed: another program's file was switched to WAL,
            # or given this store's tables, before it was refused)
            self._check_columns()
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL (default): an action acknowledged to a player is on disk even after a
            # power loss. NORMAL (WAL): safe against a crash or kill of the process.
            self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._db.executescript(SCHEMA)
            # Marked with this version's format: a store of a newer one was refused above
            # (_check_columns), so this marks an older store, or a fresh file whose own
            # user_version is no store format (a blank file of user_version 7 was taken
            # once, then refused for ever). Only when it differs: a write at every start
            # failed one with the file locked by another program.
            if not self.in_memory and self._db.execute(
                    "PRAGMA user_version").fetchone()[0] != STORE_FORMAT:
                self._db.execute(f"PRAGMA user_version={STORE_FORMAT}")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite store {self.path!r}: {exc}") from exc

    def _open_read_only(self) -> None:
        """For the operator's commands that only read (``colorclash rooms``, the source
        of ``copy-store``): nothing in the file is changed, not its journal mode, not its
        tables (they switched another program's file to WAL and gave it this store's
        tables). SQLite may still make the -wal and -shm files beside a store in WAL mode
        that no server has open: its index of the WAL, never the data."""
        file = Path(self.path).expanduser().resolve()
        try:
            self._db = sqlite3.connect(f"{file.as_uri()}?mode=ro", uri=True,
                                       isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout=5000")
            try:
                self._check_columns()
            except sqlite3.OperationalError:
                if os.access(file.parent, os.W_OK):
                    raise
                self._open_immutable(file)
            if not self._tables():
                self._db.close()
                raise StoreError(f"{self.path!r} is not a Color Clash store: it has none of "
                                 "the store's tables (rooms, actions, records)")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite store {self.path!r}: {exc}") from exc

    def _open_immutable(self, file: Path) -> None:
        """A store in a folder this user cannot write (a backup on a read-only mount, a
        copy in someone else's folder): SQLite could not make the -shm file it reads a
        WAL-mode file with, and said "attempt to write a readonly database". No server
        writes a file there (a server needs its folder writable), so the file is read as
        it is on disk; unless a -wal file beside it holds writes not yet folded in, which
        this way would be missed: then the way out is said instead."""
        self._db.close()
        wal = Path(f"{file}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise StoreError(
                f"cannot read the SQLite store {self.path!r}: its folder is not writable by "
                f"this user, and its {wal.name} file holds writes that SQLite reads only with "
                "an index it makes beside it; copy the file and its -wal file to a folder "
                "you can write, or run this as the user who owns the folder")
        self._db = sqlite3.connect(f"{file.as_uri()}?mode=ro&immutable=1", uri=True,
                                   isolation_level=None, check_same_thread=False)
        self._check_columns()

    def _all_tables(self) -> set[str]:
        return {row[0] for row in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _tables(self) -> set[str]:
        """Which of this store's tables the file has."""
        return self._all_tables() & set(COLUMNS)

    def _check_columns(self) -> None:
        """Refuse another program's database before anything in it is changed: a table of
        this store's name without its columns, or tables of its own and none of the
        store's."""
        tables = self._all_tables()
        ours = tables & set(COLUMNS)
        if tables and not ours:
            self._db.close()
            shown = ", ".join(sorted(tables)[:3]) + (", ..." if len(tables) > 3 else "")
            raise StoreError(
                f"{self.path!r} is not a Color Clash store: it holds other tables ({shown}) "
                "and none of the store's (another program's database? give the server a "
                "file of its own)")
        for table in sorted(ours):
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            missing = sorted(COLUMNS[table] - have)
            if missing:
                self._db.close()
                raise StoreError(
                    f"{self.path!r} is not a Color Clash store: its table {table!r} has no "
                    f"column {', '.join(missing)} (another program's database? give the "
                    "server a file of its own)")
        found = self._db.execute("PRAGMA user_version").fetchone()[0]
        if ours and found > STORE_FORMAT:  # (an empty file's own user_version is not ours)
            self._db.close()
            raise newer_format(f"the SQLite store {self.path!r}", found)

    @property
    def in_memory(self) -> bool:
        """Whether the store is lost when the process stops (``sqlite:///:memory:``)."""
        return self.path == ":memory:"

    def durability_warning(self) -> str | None:
        """What the server says at start when its store is in memory: every room and game
        is lost when it stops (it was taken without a word)."""
        if not self.in_memory:
            return None
        return ("warning: the store is in memory (sqlite:///:memory:): every room and game "
                "is lost when the server stops or restarts; give it a file for a site "
                "(--store sqlite:///colorclash.sqlite3)")

    def privacy_warning(self) -> str | None:
        """What the server says at start when the store file is readable by other users
        (a file made before the store made its files 0600, or loosened since): it holds
        every live game's secret seed."""
        if self.in_memory:
            return None
        try:
            mode = os.stat(self.path).st_mode & 0o777
        except OSError:
            return None
        if not mode & 0o044:
            return None
        return (f"warning: the store {self.path} is readable by other users of this machine "
                f"(mode {mode:04o}), and it holds every live game's secret seed (every hand, "
                f"the draw pile): chmod 600 {self.path} (and its -wal and -shm files)")

    def claim(self, alone: bool = True, waiting: Any = None, mark: bool = True) -> None:
        """Make this process the file's only server, or raise :class:`StoreError` (a
        SQLite file has one server: ``alone`` is always true; the lock is taken or refused
        at once, so ``waiting``, the Redis store's word on a wait, is never called; a file
        is marked with its store format when it is opened for writing, so ``mark``, the
        Redis store's, changes nothing here).

        A server keeps its rooms in memory and writes each room's log from there: two
        servers on one file would both run the same rooms' clocks and computer players and
        write conflicting actions. The claim is an exclusive ``flock`` on ``PATH.lock``
        (``PATH`` with its symbolic links resolved), and one on the database file itself:
        a file is one file by whatever name it is given (a second server given a symbolic
        or a hard link to it started beside the first, its lock file by another name).
        ``flock`` locks are the file's own, apart from the POSIX (``fcntl``) locks SQLite
        takes on it (on Linux they never meet, but on NFS, where ``flock`` is made of POSIX
        locks: keep a SQLite store on a local disk). The database file's descriptor stays
        open until :meth:`close` has closed SQLite's connections: closing any descriptor
        of the file drops every POSIX lock this process holds on it, SQLite's included.
        The kernel releases both locks when the process ends, even by SIGKILL, so a
        crashed server never blocks its restart."""
        if self.in_memory or self._owner_fd is not None:
            return
        real = os.path.realpath(self.path)
        lock_path = real + ".lock"
        how = fcntl.LOCK_EX
        try:
            fd: int | None = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            if not (self.read_only and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS)):
                raise StoreError(f"cannot open {lock_path!r}: {exc.strerror}") from None
            # A store only read (copy-store's source) in a folder this user cannot write:
            # no lock file, no server by this name (a server makes it, and needs the
            # folder writable); else a shared lock, which a server's exclusive one
            # refuses, and keeps out.
            try:
                fd = os.open(lock_path, os.O_RDONLY)
            except FileNotFoundError:
                fd = None
            except OSError as exc2:
                raise StoreError(f"cannot open {lock_path!r}: {exc2.strerror}") from None
            how = fcntl.LOCK_SH
        if self._file_fd is None:
            try:
                self._file_fd = os.open(real, os.O_RDONLY)
            except OSError as exc:
                if fd is not None:
                    os.close(fd)
                raise StoreError(f"cannot open {real!r}: {exc.strerror}") from None
            self._real_path = real
        try:
            if fd is not None:
                fcntl.flock(fd, how | fcntl.LOCK_NB)
            # (not released on a refusal: only in close(), see above; a lock refused is
            # no lock held)
            fcntl.flock(self._file_fd, how | fcntl.LOCK_NB)
        except OSError:
            if fd is not None:
                os.close(fd)  # (the lock file: no SQLite lock on it)
            reason = f"another server is already using {self.path!r}"
            refused = StoreError(f"{reason} (one process per SQLite file; several processes "
                                 "share a Redis store: --store redis://HOST:PORT/DB)")
            refused.reason = reason  # (the bare fact: copy-store's advice is its own)
            raise refused from None
        self._owner_fd = fd if fd is not None else -1

    def file_gone(self) -> str | None:
        """What became of the store's file, if its name no longer leads to the file this
        server writes (deleted, or another file moved into its place while it runs; a
        copy written over the file itself, ``cp``, keeps its inode and is not seen); None
        while it does. The server keeps writing
        to the file it has open, which a stop would then lose: :meth:`save_gone_file`."""
        if self._file_fd is None or self._real_path is None:
            return None  # (not claimed: no server's file; or in memory)
        held = os.fstat(self._file_fd)
        try:  # (the name resolved at the claim: a link removed is not the file deleted)
            named = os.stat(self._real_path)
        except FileNotFoundError:
            return f"the store file {self.path!r} was deleted while the server runs"
        except OSError:
            return None  # (out of reach for a moment: nothing to say of the file)
        if (named.st_dev, named.st_ino) != (held.st_dev, held.st_ino) or held.st_nlink == 0:
            return (f"another file was put in the place of the store file {self.path!r} "
                    "while the server runs")
        return None

    def save_gone_file(self) -> str | None:
        """Write what this server's open file holds to its name again, if the file was
        deleted, or beside it (``PATH.saved-TIME``) if another file took its name (it is
        not overwritten); say where (None: nothing was gone). SQLite's own backup, read
        from the open file, the WAL's writes included."""
        gone = self.file_gone()
        if gone is None or self._real_path is None:
            return None
        real = self._real_path
        target = real
        if os.path.exists(real):
            target = f"{real}.saved-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
        _create_private(Path(target))
        copy = sqlite3.connect(target)
        try:
            with self._lock:
                self._db.backup(copy)
        finally:
            copy.close()
        return target

    def backup_to(self, target: str | Path) -> None:
        """A consistent copy of the store into the new file ``target`` (0600: it holds the
        seeds), with SQLite's online backup: a server may go on writing meanwhile (WAL:
        the copy is the store as of one moment, the WAL's writes included). A file
        already at ``target`` is refused: a backup never overwrites."""
        file = Path(target).expanduser()
        if not file.parent.is_dir():
            raise StoreError(f"no such folder for the backup: {file.parent}")
        try:  # (made here, 0600, never through a link: SQLite would follow one, 0644)
            os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                             0o600))
        except FileExistsError:
            raise StoreError(f"{str(file)!r} exists: a backup never overwrites; give a new "
                             "name") from None
        except OSError as exc:
            raise StoreError(f"cannot make the backup {str(file)!r}: "
                             f"{exc.strerror or exc}") from None
        copy = sqlite3.connect(file)
        try:
            with self._lock:
                self._db.backup(copy)
            # one file, as a backup should be (the copy took the store's WAL mode: a
            # server started on it takes it again)
            copy.execute("PRAGMA journal_mode=DELETE")
            if copy.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise StoreError(f"the backup {str(file)!r} failed SQLite's integrity check")
        except sqlite3.Error as exc:
            copy.close()
            file.unlink(missing_ok=True)
            raise StoreError(f"the backup into {str(file)!r} failed: {exc}") from exc
        except BaseException:
            copy.close()
            file.unlink(missing_ok=True)
            raise
        copy.close()

    def save_many(self, writes: list[Write]) -> None:
        """Several :meth:`save_room` writes (any rooms) in one transaction: one fsync.
        Called from the server's writer thread, on a connection of its own, so that reads
        on the event loop never wait for a commit (WAL lets them read meanwhile)."""
        if self.in_memory:
            # A second connection to ":memory:" would open another, empty database.
            with self._lock:
                self._save_many(self._db, writes)
            return
        self._save_many(self._writer_db(), writes)
        if self._checkpointer is not None:
            self._checkpointer.wrote()

    def _by_name(self) -> sqlite3.Connection:
        """A new connection to the store's file by its name: refused once the name leads
        to another file or none (connecting made a new, empty file there, 0644, and wrote
        into it: a diff review)."""
        gone = self.file_gone()
        if gone:
            raise StoreError(f"{gone}: not opened again by its name")
        return _connect(self.path)

    def _writer_db(self) -> sqlite3.Connection:
        """The writer thread's connection, opened at its first write."""
        if self._wdb is None:
            self._wdb = self._by_name()
            self._wdb.execute(f"PRAGMA synchronous={self.synchronous.upper()}")
            self._wdb.execute("PRAGMA busy_timeout=5000")
            # The WAL is copied back into the database by a thread of its own, not by the
            # commit that happens to fill it (see _Checkpointer); failing that, as before.
            try:
                self._checkpointer = _Checkpointer(self.path)
                self._wdb.execute("PRAGMA wal_autocheckpoint=0")
            except sqlite3.Error as exc:
                log.warning("SQLite checkpoints stay in the commits: %s", exc)
        return self._wdb

    def probe(self) -> None:
        """A write of the database header's ``user_version`` (the store format: written
        as it is), in a transaction of its own, as the writer thread commits a room's
        writes."""
        if self.in_memory:
            return  # (no disk to refuse)
        db = self._writer_db()
        try:
            db.execute("BEGIN IMMEDIATE")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            db.execute(f"PRAGMA user_version={int(version)}")
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise StoreError(f"SQLite did not take a write: {exc}") from exc

    @staticmethod
    def _save_many(db: sqlite3.Connection, writes: list[Write]) -> None:
        # A room written several times in one batch: only its last document is stored.
        last = {w[0]: w[1] for w in writes}
        rooms = {code: data if isinstance(data, str)  # encoded by the caller already
                 else json.dumps(data, separators=(",", ":"), sort_keys=True)
                 for code, data in last.items()}
        rows = []
        records = []
        new_logs = []  # (code, match) of the writes that begin a match: its log starts empty
        for code, _data, match, actions, *rest in writes:
            new_match = len(rest) > 1 and rest[1]
            if (actions or new_match) and match is None:
                raise ValueError("actions and a new match need a match number")
            if new_match:
                new_logs.append((code, match))
            rows += [(code, match, idx, seat,
                      json.dumps(action, separators=(",", ":"), sort_keys=True))
                     for idx, seat, action in (actions or [])]
            records += [(code, record["match"],
                         json.dumps(record, separators=(",", ":"), sort_keys=True))
                        for record in (rest[0] if rest else None) or []]
        try:
            # (in the try: a file another program holds locked refuses the BEGIN itself,
            # "database is locked", which was a traceback in the log at every commit)
            db.execute("BEGIN IMMEDIATE")
            if new_logs:  # before any row: a batch may hold the match's first actions too
                db.executemany("DELETE FROM actions WHERE code=? AND match=?", new_logs)
            db.executemany(
                "INSERT INTO rooms(code, data) VALUES(?, ?) ON CONFLICT(code) DO UPDATE "
                "SET data=excluded.data, updated=julianday('now')", list(rooms.items()))
            if rows:
                db.executemany(
                    "INSERT INTO actions(code, match, idx, seat, action) VALUES(?,?,?,?,?)",
                    rows)
            if records:
                db.executemany(
                    "INSERT OR REPLACE INTO records(code, match, data) VALUES(?,?,?)", records)
            db.execute("COMMIT")
        except BaseException as exc:
            # a COMMIT that failed (a full disk) has rolled back already: a second
            # ROLLBACK raised "no transaction is active" and hid the real error
            if db.in_transaction:
                db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError):
                # refused by the disk or the file (full, read-only, I/O): the store's
                # refusal with its reason, logged in one line, not a traceback
                raise StoreError(f"SQLite did not take {len(writes)} write(s): {exc}") from exc
            raise

    def save_room(
        self,
        code: str,
        data: dict[str, Any],
        match: int | None = None,
        actions: list[tuple[int, int, Action]] | None = None,
        records: list[dict[str, Any]] | None = None,
        new_match: bool = False,
    ) -> None:
        with self._lock:
            self._save_many(self._db, [(code, data, match, actions, records, new_match)])

    def load_room(self, code: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT data FROM rooms WHERE code=?", (code,)).fetchone()
        return decoded(code, "document", row[0]) if row else None

    def load_actions(self, code: str, match: int) -> list[tuple[int, Action]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT idx, seat, action FROM actions WHERE code=? AND match=? ORDER BY idx",
                (code, match),
            ).fetchall()
        out: list[tuple[int, Action]] = []
        for expected, (idx, seat, action) in enumerate(rows):
            if idx != expected:
                raise DamagedRoom(f"room {code}: its stored action log is damaged (a gap at "
                                  f"{expected})")
            out.append((seat, decoded(code, "action log", action)))
        return out

    def load_records(self, code: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT data FROM records WHERE code=? ORDER BY match", (code,)).fetchall()
        return [decoded(code, "record", r[0]) for r in rows]

    def room_codes(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT code FROM rooms ORDER BY code")]

    def delete_room(self, code: str) -> None:
        with self._lock:
            self._delete(self._db, [code])

    def delete_rooms(self, codes: list[str]) -> None:
        """Several rooms deleted in one transaction (one fsync), on a connection of their
        own: called from a thread by the server's janitor, so that neither the deletes'
        fsyncs (3,000 expired rooms, one transaction each, stalled the loop 0.5 s) nor
        SQLite's 5 s wait for a lock held elsewhere happen on the event loop (nor under
        ``_lock``, which the loop's reads take)."""
        if self.in_memory:  # (a second connection would be another database)
            with self._lock:
                self._delete(self._db, codes)
            return
        with self._sweep_lock:
            if self._sdb is None:
                self._sdb = self._by_name()
                self._sdb.execute(f"PRAGMA synchronous={self.synchronous.upper()}")
                self._sdb.execute("PRAGMA busy_timeout=5000")
            self._delete(self._sdb, codes)
        if self._checkpointer is not None:
            self._checkpointer.wrote()

    @staticmethod
    def _delete(db: sqlite3.Connection, codes: list[str]) -> None:
        rows = [(code,) for code in codes]
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany("DELETE FROM actions WHERE code=?", rows)
            db.executemany("DELETE FROM records WHERE code=?", rows)
            db.executemany("DELETE FROM rooms WHERE code=?", rows)
            db.execute("COMMIT")
        except BaseException as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError):  # (locked, full: as above)
                what = f"room {codes[0]}" if len(codes) == 1 else f"{len(codes)} rooms"
                raise StoreError(f"SQLite did not delete {what}: {exc}") from exc
            raise

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None
        with self._sweep_lock:  # (a delete_rooms under way ends first)
            if self._sdb is not None:
                self._sdb.close()
                self._sdb = None
        with self._lock:
            self._db.close()  # (again after a first close: nothing)
            if self._wdb is not None:
                self._wdb.close()
                self._wdb = None
            if self._owner_fd is not None:
                if self._owner_fd >= 0:
                    os.close(self._owner_fd)  # closing the descriptor releases the flock
                self._owner_fd = None
            if self._file_fd is not None:
                # last, once SQLite's connections are closed (their POSIX locks on the
                # file would go with it)
                os.close(self._file_fd)
                self._file_fd = None
