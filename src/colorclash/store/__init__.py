"""Persistence behind one small interface.

A room is kept as one JSON document (settings, seats with hashed tokens, the secret seed,
status and clock deadlines) plus its append-only action log for the current match and the
records of its finished matches. They are written in a single transaction, so after a crash
the stored room, its log and its records always agree: the game is rebuilt from
``(seed, actions)`` by the engine's ``replay``.

The records are kept apart from the document, each written once when its match ends: the
document is written with every action, and a room whose friends played sixty matches in
it would otherwise write 26 KB with each of them (0.9 KB without the records).

``open_store(url)`` picks the implementation: ``sqlite:///PATH`` (default, WAL;
``?synchronous=normal`` trades power-loss safety for speed; a crashed or killed process
loses nothing either way) or
``redis://HOST:PORT/DB`` (:mod:`colorclash.store.redis_store`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

Action = dict[str, Any]

#: One write: ``(code, document, match, actions, records, new_match)``; ``records`` (the
#: records of matches that ended with this write) and ``new_match`` may be left out.
Write = tuple[Any, ...]


class StoreError(RuntimeError):
    """The store cannot be opened or used (bad URL, unreadable file, ...)."""


#: The layout of what a store holds. A version that writes what an older one cannot read
#: raises it; a store marked with a format newer than this one's is refused at its opening
#: with one line (an older version opening a newer one's store logged a traceback per room
#: and started with none of them: an upgrade review). Stores of earlier versions carry no
#: mark and are read as format 1, then marked.
STORE_FORMAT = 1


def newer_format(where: str, found: int) -> StoreError:
    """The refusal of a store written by a newer version of the site."""
    return StoreError(f"{where} was written by a newer version of Color Clash (store format "
                      f"{found}; this version reads format {STORE_FORMAT} and older): run "
                      "that version or a later one, or a backup taken before the upgrade")


class DamagedRoom(StoreError):
    """A room whose stored data cannot be read as a room (edited by hand, cut short): the
    message names the room and what of it is damaged."""


def decoded(code: str, what: str, raw: str | bytes, shape: type = dict) -> Any:
    """A stored JSON text of room ``code`` (its ``what``: "document", "action log",
    "record"), decoded. A damaged one (not JSON, or not of the ``shape`` stored) is the
    store's refusal naming the room: it was a traceback in the operator's commands, which
    stopped at it (``rooms`` listed nothing, ``copy-store`` left half a copy), and a
    document stored as ``null`` or ``[]`` was taken for no room at all, without a word."""
    import json

    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise DamagedRoom(f"room {code}: its stored {what} is damaged (not JSON: {exc})"
                          ) from None
    if not isinstance(value, shape):
        kind = "an object" if shape is dict else "a list"
        raise DamagedRoom(f"room {code}: its stored {what} is damaged "
                          f"(JSON {type(value).__name__}, not {kind})")
    return value


@contextmanager
def read_as_stored(code: str) -> Iterator[None]:
    """Reading room ``code``'s stored document into its fields: one of the wrong type or
    missing (`"seats": 5`) is the store's refusal naming the room (``DamagedRoom``), as
    :func:`decoded` makes of one that is not JSON, not a traceback."""
    try:
        yield
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise DamagedRoom(f"room {code}: its stored document is damaged "
                          f"({type(exc).__name__}: {exc})") from None


class Store(Protocol):
    """What the server needs from a store. Keep it this small."""

    def save_room(
        self,
        code: str,
        data: dict[str, Any],
        match: int | None = None,
        actions: list[tuple[int, int, Action]] | None = None,
        records: list[dict[str, Any]] | None = None,
        new_match: bool = False,
    ) -> None:
        """Write the room document, append ``(index, seat, action)`` rows to the log of
        match ``match`` and store ``records`` (finished matches' records, each with its
        ``"match"``; a record stored again replaces the old), atomically. Index is the
        action's position in that match. ``new_match``: the write deals match ``match``,
        whose log starts empty (rows a replaced deal of that number left are dropped in
        the same transaction, not by a write of their own on the event loop)."""

    def save_many(self, writes: list[Write]) -> None:
        """Several :meth:`save_room` writes, ``(code, data, match, actions[, records[,
        new_match]])``, at once (the server's writer thread batches them)."""

    def load_room(self, code: str) -> dict[str, Any] | None:
        """The room document, or None."""

    def load_actions(self, code: str, match: int) -> list[tuple[int, Action]]:
        """The action log of one match of a room, in order, as ``(seat, action)``."""

    def load_records(self, code: str) -> list[dict[str, Any]]:
        """The stored records of a room's finished matches, by match number."""

    def room_codes(self) -> list[str]:
        """Every stored room code."""

    def delete_room(self, code: str) -> None:
        """Remove a room and its logs."""

    def probe(self) -> None:
        """A small write, no room's, the way a room's writes go (from the server's writer
        thread): raises :class:`StoreError` while the store refuses writes. The server
        tries it while idle after a refused commit, to know when the refusal is over."""

    def close(self) -> None:
        """Release the connection."""


def shown_url(url: str) -> str:
    """``url`` as it may be printed or logged: a password in it masked
    (``redis://:[redacted]@host:6379/0``): the start line and its errors printed it."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
    except ValueError:
        return url
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return parts._replace(netloc=f"{user}:[redacted]@{host}").geturl()


def sqlite_path(url: str) -> tuple[str, str] | None:
    """``(path, query)`` of a SQLite store URL (``sqlite:///rel/path``, ``sqlite:////abs``,
    or a bare path with no ``scheme://``); None for any other URL."""
    if "://" not in url and url.strip():
        url = "sqlite:///" + url
    if not url.startswith("sqlite://"):
        return None
    path, _, query = url[len("sqlite://"):].partition("?")
    return (path[1:] if path.startswith("/") else path), query


def open_store(url: str, create: bool = True) -> Store:
    """Open the store named by ``url`` (``sqlite:///path``, ``sqlite:///:memory:``, ``redis://``).
    A bare file path (no ``scheme://``) is a SQLite file: what a newcomer types first.
    ``create=False``: a SQLite file that does not exist is an error, not a new store, and
    one that does is opened read-only (nothing in it is changed)."""
    scheme, colon, rest = url.partition(":")
    if colon and scheme.lower() in ("redis", "rediss", "sqlite") and not rest.startswith("//"):
        # ("redis:/127.0.0.1:6379/0" was a SQLite file in a folder "redis:" that does not
        # exist, and said so)
        raise StoreError(f"bad store URL {shown_url(url)!r}: {scheme}: takes two slashes "
                         "(redis://HOST:PORT/DB, sqlite:///PATH)")
    sqlite = sqlite_path(url)
    if sqlite is not None:
        from colorclash.store.sqlite import SQLiteStore

        path, query = sqlite  # sqlite:///rel/path -> rel/path ; sqlite:////abs -> /abs
        if not path:
            raise StoreError("sqlite store needs a path: sqlite:///colorclash.sqlite3")
        params = dict(p.partition("=")[::2] for p in query.split("&") if p)
        unknown = set(params) - {"synchronous"}
        if unknown:
            raise StoreError(f"unknown sqlite store parameter(s): {', '.join(sorted(unknown))}")
        if params.get("synchronous", "full").lower() not in ("full", "normal"):
            # (the store's own words named neither the URL nor where it came from)
            raise StoreError(f"bad store URL {shown_url(url)!r}: ?synchronous= must be full "
                             f"or normal, not {params['synchronous']!r}")
        if not create and path != ":memory:":
            import os

            if not os.path.exists(path):
                # (exists() is False too where a folder on the way may not be searched)
                folder = os.path.dirname(os.path.abspath(path))
                while folder != "/" and not os.path.isdir(folder):
                    folder = os.path.dirname(folder)
                if not os.access(folder, os.X_OK):
                    raise StoreError(f"cannot reach the SQLite file {os.path.abspath(path)}: "
                                     f"this user may not open the folder {folder}")
                raise StoreError(f"no such SQLite file: {os.path.abspath(path)}")
        # (a store that must exist is one an operator's command reads: opened read-only)
        return SQLiteStore(path, synchronous=params.get("synchronous", "full"),
                           read_only=not create and path != ":memory:")
    if url.startswith("redis://") or url.startswith("rediss://"):
        try:
            from colorclash.store.redis_store import RedisStore  # type: ignore[import-not-found]
        except ImportError as exc:  # pragma: no cover - redis-py missing
            raise StoreError("the Redis store is not available in this version") from exc
        return RedisStore(url)
    raise StoreError(f"unknown store URL {url!r}: use sqlite:///PATH or redis://HOST:PORT/DB")


__all__ = ["Store", "StoreError", "Write", "open_store", "shown_url"]
