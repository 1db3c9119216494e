"""``colorclash verify``: check a finished match's record against what was published.

A record (``GET /api/rooms/{code}/record`` once the match is over, or
``/record/{match}`` for an earlier match of the room) holds the revealed seed, the
commitment published at the deal, every action, the result and the final hash of the
action log. Verification checks everything the record claims, and fails on a record that
lacks any of it:

1. the seed re-creates the deck order whose SHA-256 commitment was published at the deal
   (so the deal was fixed before anyone played);
2. the running hash of the action log (``colorclash.fairness``) equals the record's
   ``log_hash``; and, when the player gives the hash they were shown
   (``--log-hash``), that one too. Every ``state`` message carries the hash of the log so
   far, so a player can tell whether the record holds exactly the actions they saw: a
   changed colour of a last wild, a changed or removed action, changes the hash. The
   hashes are compared before the replay: a log changed after the match is named as
   such, whatever rules the record claims;
3. replaying every action through the engine from that seed, each one is legal and every
   draw comes from that deck order;
4. the replayed match is over, and its result is exactly the record's ``result`` (as
   JSON: each value of its type).

Every finding is printed with the record's control characters escaped.

A record names the version of its game's rules (``rules_version``; 1 when it has none).
This verify plays its own: a record of older rules that fails to replay says that a rule
changed since, and one of newer rules than it knows is not checked.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from colorclash.text import printable

#: A record's size past which it is not read (bytes): a long match's record is well under
#: 1 MB, and a 95 MB file made up of actions took 1.5 GB of memory to parse (attacker
#: review).
RECORD_MAX_BYTES = 16_000_000

REQUIRED = ("game", "preset", "seats", "options", "seed", "commitment", "actions", "result",
            "log_hash")


def verify_record(record: dict[str, Any], expected_log_hash: str | None = None
                  ) -> tuple[bool, list[str]]:
    """Check one record. Returns (ok, findings); the findings say what was checked."""
    from colorclash.engine import IllegalAction, game_definition, new_game
    from colorclash.fairness import LOG_HASH_VERSION, log_hash, match_rules

    notes: list[str] = []
    if not isinstance(record, dict):
        return False, ["the record is not a JSON object"]
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        return False, [f"the record lacks {', '.join(missing)}"]
    for key in ("seed", "commitment", "result", "log_hash"):
        if record[key] is None:
            why = " (the match is not over)" if key in ("seed", "result") else ""
            return False, [f"the record's {key} is empty{why}"]
    if not isinstance(record["options"], dict):
        return False, ["the record's options must be an object"]
    version = record.get("log_hash_version", 1)
    if version.__class__ is not int or version not in (1, LOG_HASH_VERSION):
        return False, [f"unknown log_hash_version {version!r} (this verify knows 1 and "
                       f"{LOG_HASH_VERSION})"]
    try:
        game = new_game(record["game"], preset=record["preset"], seats=record["seats"],
                        seed=record["seed"], options=record["options"] or None)
    except (ValueError, TypeError) as exc:
        return False, [f"cannot start the game from the record: {exc}"]
    # (a record from before records carried the version of the rules is of version 1)
    definition = game_definition(record["game"])
    rules_version = record.get("rules_version")
    rules_version = 1 if rules_version is None else rules_version
    if rules_version.__class__ is not int or rules_version < 1:
        return False, [f"the record's rules_version {rules_version!r} is not a version"]
    if rules_version > definition.rules_version:
        return False, [f"the record was made under {definition.name} rules version "
                       f"{rules_version}, newer than this verify's ({definition.rules_version}):"
                       " check it with the version of colorclash that made it"]
    older = "" if rules_version == definition.rules_version else (
        f" (the record was made under {definition.name} rules version {rules_version}, and "
        f"this verify plays version {definition.rules_version}: a record from before a rule "
        "change may not replay; docs/engine.md, Rule changes)")
    commitment = game.commitment()
    if commitment != record["commitment"]:
        return False, [f"commitment mismatch: the seed gives {commitment}, the room published "
                       f"{record['commitment']}"]
    notes.append(f"commitment {commitment[:16]}… matches the revealed seed and deck order")
    actions = record["actions"]
    if not isinstance(actions, list):
        return False, notes + ["actions must be a list of [seat, action]"]
    pairs: list[tuple[int, dict[str, Any]]] = []
    for i, item in enumerate(actions):
        if not isinstance(item, list) or len(item) != 2 or not isinstance(item[1], dict):
            return False, notes + [f"action {i} is not a [seat, action] pair"]
        pairs.append((item[0], item[1]))
    # The hashes first: they need no replay, and a log changed after the match fails here
    # as changed, whatever its rules (replayed first, an action changed in a record that
    # also claimed older rules read as a rule change, and --log-hash was never compared:
    # attacker review).
    # (version 2 names the rules in the chain: a record whose game, preset, seats or
    # options were changed after the match, the result replayed to match, verified)
    rules = (match_rules(record["game"], record["preset"], record["seats"], record["options"])
             if version == LOG_HASH_VERSION else None)
    computed = log_hash(record["commitment"], rules, pairs)
    if computed != record["log_hash"]:
        return False, notes + [f"log hash mismatch: the actions hash to {computed}, the record "
                               f"says {record['log_hash']}: the actions, or the rules they "
                               "are hashed with, were changed after the match"]
    notes.append(f"log hash {computed} matches the record's"
                 + (" (it covers the actions and the rules: game, preset, seats, options)"
                    if rules is not None else " (a record of the first version: its hash "
                    "covers the actions, not the rules)"))
    if expected_log_hash is not None:
        if computed != expected_log_hash.strip().lower():
            return False, notes + [f"log hash mismatch: the record's actions hash to {computed}, "
                                   f"you were shown {expected_log_hash}"]
        notes.append("log hash matches the one you were shown")
    for i, (seat, action) in enumerate(pairs):
        if game.over:
            return False, notes + [f"action {i} comes after the end of the match{older}"]
        try:
            game.apply(seat, action)
        except (IllegalAction, TypeError, AttributeError) as exc:
            return False, notes + [f"action {i} {action} by seat {seat} is illegal: {exc}"
                                   f"{older}"]
    notes.append(f"{len(actions)} actions replayed, each legal, every draw from the deck order"
                 + (f" (under {definition.name} rules version {definition.rules_version}; "
                    f"the record's are version {rules_version})" if older else ""))
    if not game.over:
        return False, notes + [f"the actions do not finish the match{older}"]
    # (as JSON, not Python's ==, where 28.0 == 28 and False == 0: the result is exactly
    # the record's, each value of its type)
    if json.dumps(game.result, sort_keys=True) != json.dumps(record["result"], sort_keys=True):
        return False, notes + [f"result mismatch: replay gives {game.result}, record says "
                               f"{record['result']}{older}"]
    notes.append(f"result matches: {game.result}")
    return True, notes


def verify_record_file(source: str, expected_log_hash: str | None = None) -> bool | None:
    """Read a record from a file (or '-' for stdin), check it, print the findings: True
    (verified), False (not), None (no record to check: the file cannot be read, or is not
    JSON; ``colorclash verify`` exits 2 then, as for any usage error, and 1 when a record
    does not verify)."""
    try:
        if source == "-":
            data = sys.stdin.buffer.read(RECORD_MAX_BYTES + 1)
        else:
            with Path(source).open("rb") as file:
                data = file.read(RECORD_MAX_BYTES + 1)
        if len(data) > RECORD_MAX_BYTES:
            print(f"error: {source} is over {RECORD_MAX_BYTES // 1_000_000} MB: no match's "
                  "record is near that size (not checked)", file=sys.stderr)
            return None
        record = json.loads(data)
    except OSError as exc:
        print(f"error: cannot read {source}: {exc}", file=sys.stderr)
        return None
    except ValueError as exc:
        print(f"error: {source} is not JSON: {exc}", file=sys.stderr)
        return None
    except RecursionError:
        print(f"error: {source} is not a record (JSON nested too deeply)", file=sys.stderr)
        return None
    ok, notes = verify_record(record, expected_log_hash)
    for note in notes:
        # (a finding quotes the record's own strings: printed as they were, a record's
        # control characters erased the FAIL line and showed a forgery verified: attacker
        # review)
        print(("  ok  " if ok or note is not notes[-1] else "  FAIL ") + printable(note))
    print("verified: the deal, every draw, the result and the action log follow from the "
          "revealed seed" if ok else "NOT verified")
    if ok and expected_log_hash is None:
        # (whoever publishes a record can rewrite it whole: only the hash a player saw
        # during the match ties it to what was played)
        print("note: checked against itself only; give --log-hash (the hash your table "
              "showed) to know it holds the match you played")
    return ok
