"""The operator's commands that change a store, or copy one, beside ``copy-store``:
``colorclash backup`` (a SQLite store while its server runs) and ``colorclash
delete-rooms`` (rooms a server cannot restore: damaged, or refused by newer rules).

A room's code is all an operator has from a player or from the log; a store holds the
room's document, its current match's log and its finished matches' records under it.
"""

from __future__ import annotations

import os
from typing import Any

from colorclash.store import StoreError, open_store, shown_url, sqlite_path
from colorclash.store.copy import claim_for_a_command


def backup(url: str, target: str) -> int:
    """Copy the SQLite store at ``url`` into the new file ``target`` while its server may
    run; the number of rooms the copy holds (read back from it)."""
    if sqlite_path(url) is None:
        raise StoreError(
            f"{shown_url(url)} is not a SQLite store: a Redis store is backed up by Redis "
            "itself (BGSAVE, or its AOF file), or copied into a SQLite file with "
            "copy-store while no process runs (docs/deployment.md)")
    source = open_store(url, create=False)  # (read-only: nothing in it changes)
    try:
        if getattr(source, "in_memory", False):
            raise StoreError("sqlite:///:memory: is a store of this command's own: "
                             "nothing to back up")
        source.backup_to(target)
    finally:
        source.close()
    copy = open_store(f"sqlite:///{os.path.expanduser(target)}", create=False)
    try:
        return len(copy.room_codes())
    finally:
        copy.close()


def delete_rooms(url: str, codes: list[str]) -> list[str]:
    """Delete the rooms ``codes`` (their documents, logs and records) from the store at
    ``url``, which no server may be using (as ``copy-store``, the store is claimed: a
    server holds its rooms in memory and would write one back). Every code must be in
    the store, or nothing is deleted. The codes deleted, as stored."""
    from colorclash.server.names import normalize_code

    wanted = list(dict.fromkeys(normalize_code(c) for c in codes))
    if not wanted:
        raise StoreError("name the room(s) to delete by code")
    # Claimed before it is opened for writing (a writable open marks an older SQLite
    # file with this version's format: not under a server that is running it); a
    # missing SQLite file is said, not made.
    guard: Any = open_store(url, create=False)
    try:
        claim_for_a_command(guard, url, mark=False)
        store: Any = open_store(url) if sqlite_path(url) is not None else guard
        try:
            held = set(store.room_codes())
            missing = [c for c in wanted if c not in held]
            if missing:
                raise StoreError(f"no room {', '.join(missing)} in {shown_url(url)}; "
                                 "nothing was deleted")
            delete_many = getattr(store, "delete_rooms", None)  # SQLite: one transaction
            if delete_many is not None:
                delete_many(wanted)
            else:
                for code in wanted:
                    store.delete_room(code)
            free_code = getattr(store, "free_code", None)  # (Redis: its code's reservation)
            if free_code is not None:
                for code in wanted:
                    free_code(code)
            return wanted
        finally:
            if store is not guard:
                store.close()
    finally:
        guard.close()


__all__ = ["backup", "delete_rooms"]
