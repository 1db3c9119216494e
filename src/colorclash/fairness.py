"""The running hash of a match's action log: any change to the log is detectable.

Every ``state`` message carries ``log_hash``, the hash of the match's actions so far; the
record of a finished match carries the final one, and ``colorclash verify`` recomputes it
from the record's actions. A player who notes the hash shown at the end of the match (or
at any point: the hash after action ``n`` covers actions ``1..n``) can check that the
published record holds exactly the actions they saw played.

The chain starts from the deal's commitment and the rules the match is played by (so it
names the deal and the rules: the commitment covers only the seed and the deck order, and
a record whose options were changed after the match, with a result to match, verified)
and adds one action at a time::

    h0 = SHA-256("colorclash-log:" + commitment + ":" + canonical JSON of
                 {"game", "preset", "seats", "options"})
    h(i+1) = SHA-256(h(i) + ":" + canonical JSON of [seat, action])

Canonical JSON: keys sorted, no spaces, ASCII only (``json.dumps(..., sort_keys=True,
separators=(",", ":"))``). Hashes are hex. Records say ``"log_hash_version": 2``; a
record without it was hashed before the rules were in the chain (version 1:
``h0 = SHA-256("colorclash-log:" + commitment)``), which ``colorclash verify`` still
checks, and says so.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

import orjson

LOG_HASH_VERSION = 2


def match_rules(game: str, preset: str, seats: int, options: dict[str, Any]) -> dict[str, Any]:
    """What of a match's record the log hash names besides the deal: its rules."""
    return {"game": game, "preset": preset, "seats": seats, "options": options}


def log_hash_start(commitment: str, rules: dict[str, Any] | None) -> str:
    """``h0``: of the commitment and the rules (``match_rules``); ``rules=None`` is the
    first version's, without them (records made before, for ``verify``)."""
    text = f"colorclash-log:{commitment}"
    if rules is not None:
        text += ":" + json.dumps(rules, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# One encoder for every entry: json.dumps with options builds a new one per call.
_ENTRY = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
_PLAIN = (str, int, bool, type(None))


def _entry(seat: int, action: dict[str, Any]) -> bytes:
    """The canonical JSON of ``[seat, action]``, as bytes. orjson writes the same bytes
    as the standard library for what actions hold (short ASCII strings, integers), three
    times faster (this runs for every action); anything else (a float, a nested value,
    text beyond ASCII) goes through the standard library, whose output is the definition."""
    if seat.__class__ is int and all(v.__class__ in _PLAIN for v in action.values()):
        try:
            data = orjson.dumps([seat, action], option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # (an integer past 64 bits, a lone surrogate)
            data = b"\x80"
        # (ASCII only, and no DEL: the standard library writes U+007F as \u007f, orjson
        # as the byte itself)
        if data.isascii() and b"\x7f" not in data:
            return data
    return _ENTRY.encode([seat, action]).encode()


def log_hash_next(previous: str, seat: int, action: dict[str, Any]) -> str:
    return hashlib.sha256(previous.encode() + b":" + _entry(seat, action)).hexdigest()


def log_hash(commitment: str, rules: dict[str, Any] | None,
             actions: Iterable[tuple[int, dict[str, Any]]]) -> str:
    """The hash of a whole log (``[(seat, action), ...]``) of a match of these rules."""
    h = log_hash_start(commitment, rules)
    for seat, action in actions:
        h = log_hash_next(h, seat, action)
    return h


__all__ = ["LOG_HASH_VERSION", "log_hash", "log_hash_next", "log_hash_start", "match_rules"]
