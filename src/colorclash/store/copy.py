"""``colorclash copy-store FROM TO``: every room of one store into another.

What a site needs when it moves from one process on SQLite to several on Redis (or back),
and for a consistent copy of a store while no server runs. Each room goes over whole: its
document (seats with hashed tokens, the seed, clock deadlines), the action log of its
current match and the records of its finished matches, in one write of the target; then
it is read back from the target and compared. Players find their seats and cards on the
new store as they left them (the tokens are the same).

Both stores are claimed as a server claims them (:meth:`SQLiteStore.claim`,
:meth:`RedisStore.claim` alone): a store a server is using is refused, since its rooms
change under the copy, and no server can start on either while the copy runs. A target
that already holds rooms is refused: the copy never overwrites.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from colorclash.store import Store, StoreError, open_store, shown_url, sqlite_path


@dataclass
class Copied:
    rooms: int = 0
    actions: int = 0
    records: int = 0


def claim_for_a_command(store: Any, url: str, what: str = "", mark: bool = True) -> None:
    """Claim ``store`` as a server would (an operator's command that writes it, or must
    read it still), or raise ``StoreError`` saying it is in use: ``what`` names it in the
    message ("source", "target"); ``mark``: a Redis store may be marked with this
    version's store format."""
    claim = getattr(store, "claim", None)
    if claim is None:
        return
    try:
        claim(alone=True, mark=mark)
    except StoreError as exc:
        # (the bare reason: the serve refusal's advice on COLORCLASH_CLUSTER and prefixes
        # is no use to a command)
        reason = getattr(exc, "reason", None) or str(exc)
        live = (", or copy it while it runs with colorclash backup"
                if what == "source" and sqlite_path(url) is not None else "")
        named = f"the {what} store" if what else "the store"
        raise StoreError(f"{named} {shown_url(url)} is in use ({reason}); stop its "
                         f"server(s) first{live}") from None


def _claim(store: Any, url: str, what: str) -> None:
    # (the source is only read: it is not marked with this version's store format, a
    # wrong /DB or ?prefix= kept the mark: a diff review)
    claim_for_a_command(store, url, what, mark=what != "source")


def _room(store: Store, code: str) -> tuple[dict[str, Any], int | None, list[Any],
                                           list[dict[str, Any]]] | None:
    data = store.load_room(code)
    if data is None:
        return None
    match = data.get("match_no") or None
    actions = store.load_actions(code, match) if match else []
    return data, match, actions, store.load_records(code)


def _where(url: str) -> tuple[Any, ...]:
    """Where a store URL points, as far as the URL tells: the SQLite file's real path
    (``s.sqlite3``, ``sqlite:///s.sqlite3`` and ``sqlite:////abs/s.sqlite3`` are one file),
    or the Redis host, port, database and prefix (``?prefix=cc`` is the default). The same
    store written two ways was refused as "in use" by the copy's own claim of it."""
    import os
    from urllib.parse import parse_qs, urlsplit

    sqlite = sqlite_path(url)
    if sqlite is not None:
        path = sqlite[0]
        return ("sqlite", path if path in ("", ":memory:") else os.path.realpath(path))
    parts = urlsplit(url)
    try:
        port = parts.port or 6379
    except ValueError:
        return ("url", url)  # (open_store says what is wrong with it)
    host = (parts.hostname or "localhost").lower()
    host = "127.0.0.1" if host in ("localhost", "::1", "[::1]") else host
    db = parts.path.strip("/") or "0"
    prefix = (parse_qs(parts.query).get("prefix") or ["cc"])[0]
    return ("redis", host, port, db, prefix)


def _check_readable(source: Store, url: str,
                    read_document: Callable[[str, dict[str, Any], list[Any]], Any] | None
                    ) -> None:
    """Read every room of the source before anything is written: a damaged one stopped
    the copy halfway with a traceback, the target left holding part of the rooms (and a
    second try refused, since the target then held rooms). ``read_document(code, data)``
    reads a document and its current match's log as the server does, raising
    ``DamagedRoom`` (the command passes the server's ``Room.restorable``: a field of the
    wrong type, or a log the rules refuse, was copied, "each checked", and the server on
    the new store could not restore the room)."""
    damaged = []
    for code in source.room_codes():
        try:
            room = _room(source, code)
            if room is not None and read_document is not None:
                read_document(code, room[0], room[2])
        except StoreError as exc:
            damaged.append(str(exc))
    if damaged:
        more = f" (and {len(damaged) - 3:,} more)" if len(damaged) > 3 else ""
        raise StoreError(f"{len(damaged):,} room(s) of the source {shown_url(url)} are "
                         f"damaged; nothing was copied: {'; '.join(damaged[:3])}{more}. "
                         "Repair or delete them in the source first")


def _same(room: Any) -> str:
    """A room as compared: its JSON (a log row read back is a list or a tuple)."""
    return json.dumps(room, sort_keys=True)


def copy_store(source_url: str, target_url: str,
               progress: Callable[[int, int], None] | None = None,
               read_document: Callable[[str, dict[str, Any], list[Any]], Any] | None = None
               ) -> Copied:
    """Copy every room of ``source_url`` into ``target_url`` (which holds none), each
    checked once written; ``progress(done, total)`` after each room. With
    ``read_document`` (``colorclash.server.model.Room.restorable``), every room is
    first read as the server reads it, its log replayed (the store alone needs no more than the standard
    library; the server's model needs the site's dependencies)."""
    target_is = _where(target_url)
    if source_url == target_url or _where(source_url) == target_is:
        raise StoreError("the source and the target are the same store")
    if target_is == ("sqlite", ":memory:"):
        # ("copied 9 room(s) ... each read back and checked", exit 0: into memory that
        # went with the command; an operator believed they had a backup)
        raise StoreError("the target sqlite:///:memory: keeps nothing once the copy ends: "
                         "give a file (sqlite:///PATH) or a Redis")
    source = open_store(source_url, create=False)
    try:
        _claim(source, source_url, "source")
        if not source.room_codes():
            # (a wrong /DB number, ?prefix= or path "copied 0 rooms, each checked", exit 0,
            # and made or claimed the target: in a migration, a silent loss)
            raise StoreError(f"the source store {shown_url(source_url)} holds no rooms: "
                             "nothing to copy (is it the site's store? check its path, "
                             "/DB number and ?prefix= against the site's COLORCLASH_STORE)")
        _check_readable(source, source_url, read_document)
        target = open_store(target_url)
        try:
            _claim(target, target_url, "target")
            there = target.room_codes()
            if there:
                raise StoreError(f"the target store {shown_url(target_url)} already holds "
                                 f"{len(there):,} room(s): copy into an empty store")
            return _copy(source, target, progress)
        finally:
            target.close()
    finally:
        source.close()


def _copy(source: Store, target: Store,
          progress: Callable[[int, int], None] | None) -> Copied:
    codes = source.room_codes()
    done = Copied()
    for i, code in enumerate(codes, 1):
        room = _room(source, code)
        if room is not None:
            data, match, actions, records = room
            rows = [(k, seat, action) for k, (seat, action) in enumerate(actions)]
            try:
                target.save_room(code, data, match, rows, records,
                                 new_match=match is not None)
                same = _same(_room(target, code)) == _same(room)
            except Exception as exc:  # noqa: BLE001 - the target refused (full, away)
                raise StoreError(f"room {code}: the target refused it ({exc}); it holds "
                                 f"{done.rooms:,} of the {len(codes):,} rooms now: empty it "
                                 "before copying again") from None
            if not same:
                raise StoreError(f"room {code}: the copy read back differs from the source")
            done.rooms += 1
            done.actions += len(actions)
            done.records += len(records)
        if progress is not None:
            progress(i, len(codes))
    return done


__all__ = ["Copied", "copy_store"]
