"""``colorclash verify``: check a finished match against its published commitment.

A record (``GET /api/rooms/{code}/record`` once the match is over) holds the revealed
seed, the commitment published at the deal, and every action. Re-running the engine from
the seed re-creates the deck order; if its SHA-256 commitment equals the one published
before the first card, the deal was fixed before anyone played, and replaying the actions
shows that every draw came from that order and every action was legal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

REQUIRED = ("game", "preset", "seats", "seed", "commitment", "actions")


def verify_record(record: dict[str, Any]) -> tuple[bool, list[str]]:
    """Check one record. Returns (ok, findings); the findings say what was checked."""
    from colorclash.engine import IllegalAction, new_game

    notes: list[str] = []
    if not isinstance(record, dict):
        return False, ["the record is not a JSON object"]
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        return False, [f"the record lacks {', '.join(missing)}"]
    if record["seed"] is None:
        return False, ["the seed is not revealed yet (the match is not over)"]
    try:
        game = new_game(record["game"], preset=record["preset"], seats=record["seats"],
                        seed=record["seed"], options=record.get("options") or None)
    except (ValueError, TypeError) as exc:
        return False, [f"cannot start the game from the record: {exc}"]
    commitment = game.commitment()
    if commitment != record["commitment"]:
        return False, [f"commitment mismatch: the seed gives {commitment}, the room published "
                       f"{record['commitment']}"]
    notes.append(f"commitment {commitment[:16]}… matches the revealed seed and deck order")
    actions = record["actions"]
    if not isinstance(actions, list):
        return False, notes + ["actions must be a list of [seat, action]"]
    for i, item in enumerate(actions):
        try:
            seat, action = item
        except (TypeError, ValueError):
            return False, notes + [f"action {i} is not a [seat, action] pair"]
        try:
            game.apply(seat, action)
        except IllegalAction as exc:
            return False, notes + [f"action {i} {action} by seat {seat} is illegal: {exc}"]
    notes.append(f"{len(actions)} actions replayed, each legal, every draw from the deck order")
    if "result" in record and record["result"] is not None:
        if game.result != record["result"]:
            return False, notes + [f"result mismatch: replay gives {game.result}, record says "
                                   f"{record['result']}"]
        notes.append(f"result matches: {game.result}")
    elif not game.over:
        notes.append("note: the match is not over in this record")
    return True, notes


def verify_record_file(source: str) -> bool:
    """Read a record from a file (or '-' for stdin), check it, print the findings."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        record = json.loads(text)
    except OSError as exc:
        print(f"error: cannot read {source}: {exc}", file=sys.stderr)
        return False
    except ValueError as exc:
        print(f"error: {source} is not JSON: {exc}", file=sys.stderr)
        return False
    ok, notes = verify_record(record)
    for note in notes:
        print(("  ok  " if ok or note is not notes[-1] else "  FAIL ") + note)
    print("verified: the deal and every draw follow from the revealed seed" if ok
          else "NOT verified")
    return ok
