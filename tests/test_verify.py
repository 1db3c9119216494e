"""`colorclash verify`: a record checks out, and any tampering is caught."""

from __future__ import annotations

import hashlib
import json

from hypothesis import example, given
from hypothesis import strategies as st
from typer.testing import CliRunner

from colorclash.bots import make_bot
from colorclash.cli import app
from colorclash.engine import new_game
from colorclash.fairness import log_hash, log_hash_next, match_rules
from colorclash.verify import verify_record, verify_record_file


def finished_record(seed="ab" * 32, preset="classic-table", seats=3):
    g = new_game("color-clash", preset=preset, seats=seats, seed=seed, options={"match": "1"})
    commitment = g.commitment()
    bots = [make_bot("easy", seed=i) for i in range(seats)]
    while not g.over:
        seat = g.to_act[0]
        g.apply(seat, bots[seat].act(g.view(seat), []))
    rec = {"game": "color-clash", "preset": preset, "seats": seats, "options": {"match": "1"},
           "seed": seed, "commitment": commitment,
           "actions": [[s, a] for s, a in g.log], "result": g.result, "log_hash_version": 2}
    return {**rec, "log_hash": rehash(rec)}


def rehash(rec: dict, actions=None) -> str:
    """The log hash of a record's actions (or ``actions``) under its own rules, as a
    forger who rewrites the record would compute it."""
    rules = match_rules(rec["game"], rec["preset"], rec["seats"], rec["options"])
    return log_hash(rec["commitment"], rules,
                    [tuple(x) for x in (rec["actions"] if actions is None else actions)])


def test_a_true_record_verifies():
    ok, notes = verify_record(finished_record())
    assert ok, notes
    assert any("commitment" in n for n in notes)


def test_tampering_is_caught():
    rec = finished_record()
    assert not verify_record({**rec, "seed": "cd" * 32})[0]          # another seed
    assert not verify_record({**rec, "commitment": "0" * 64})[0]      # another commitment
    bad = json.loads(json.dumps(rec))
    bad["actions"][0][1] = {"type": "pass"}  # never legal while the draw pile has cards
    ok, notes = verify_record({**rec, "actions": bad["actions"]})
    assert not ok and "were changed after the match" in notes[-1], notes
    ok, notes = verify_record({**rec, "actions": bad["actions"],
                               "log_hash": rehash(rec, bad["actions"])})
    assert not ok and "illegal" in notes[-1], notes
    assert not verify_record({**rec, "result": {"scores": [0, 0, 0], "winners": []}})[0]
    assert not verify_record({**rec, "actions": rec["actions"][:1] + rec["actions"]})[0]
    assert not verify_record({k: v for k, v in rec.items() if k != "seed"})[0]
    assert not verify_record({**rec, "seed": None})[0]


def test_a_result_of_other_json_types_is_caught():
    """The result must be exactly the record's: 28.0 for 28, false for 0 were taken (as
    Python's == takes them) and the record "verified" (attacker QA)."""
    rec = finished_record()
    scores = rec["result"]["scores"]
    floats = {**rec["result"], "scores": [float(x) for x in scores]}
    assert not verify_record({**rec, "result": floats})[0]
    rec = finished_record(seats=2)
    winner = rec["result"]["winners"][0]
    assert winner in (0, 1)  # (so that a bool passes Python's == for it)
    as_bool = {**rec["result"], "winners": [bool(winner)]}
    assert not verify_record({**rec, "result": as_bool})[0]
    reordered = dict(reversed(list(rec["result"].items())))
    assert verify_record({**rec, "result": reordered})[0]  # (its keys' order is no matter)


def test_an_action_with_a_field_added_is_caught_even_with_its_hash_recomputed():
    """A colour riding along a coloured card's play (and the log hash recomputed over
    it): no server could have written that log, so the record does not verify."""
    rec = finished_record()
    actions = json.loads(json.dumps(rec["actions"]))
    i = next(i for i, (_, a) in enumerate(actions)
             if a["type"] == "play" and not a["card"].startswith("W"))
    actions[i][1]["color"] = "G"
    forged = {**rec, "actions": actions,
              "log_hash": rehash(rec, actions)}
    ok, notes = verify_record(forged)
    assert not ok and "not a wild" in notes[-1], notes


def test_a_record_that_lacks_what_it_claims_fails():
    rec = finished_record()
    for key in ("result", "log_hash", "options", "commitment", "actions"):
        ok, notes = verify_record({k: v for k, v in rec.items() if k != key})
        assert not ok and key in notes[-1]
    for key in ("result", "log_hash"):
        ok, notes = verify_record({**rec, key: None})
        assert not ok and key in notes[-1]
    # a log cut short does not finish the match
    short = rec["actions"][:-1]
    ok, notes = verify_record({**rec, "actions": short})
    assert not ok and "log hash mismatch" in notes[-1]
    ok, notes = verify_record({**rec, "actions": short, "log_hash": rehash(rec, short)})
    assert not ok and "do not finish" in notes[-1]


def test_a_changed_colour_of_the_final_wild_is_caught():
    for n in range(400):
        rec = finished_record(seed=f"wild-end-{n}", preset="standard", seats=2)
        last = rec["actions"][-1][1]
        if last.get("type") == "play" and "color" in last:
            break
    else:  # pragma: no cover
        raise AssertionError("no game of 400 ended on a wild")
    assert verify_record(rec)[0]
    other = next(c for c in "RBYG" if c != last["color"])
    bad = json.loads(json.dumps(rec))
    bad["actions"][-1][1]["color"] = other
    ok, notes = verify_record(bad)
    assert not ok and "log hash" in notes[-1]
    # and a player who compares with the hash they were shown catches a record whose
    # log_hash was rewritten to match
    bad["log_hash"] = rehash(bad)
    assert verify_record(bad)[0]
    ok, notes = verify_record(bad, expected_log_hash=rec["log_hash"])
    assert not ok and "you were shown" in notes[-1]


def test_cli_verify(tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(finished_record()))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output
    # verified against itself only: the hash a player saw ties it to the match played
    assert "checked against itself only; give --log-hash" in result.output
    path.write_text(json.dumps({**finished_record(), "commitment": "1" * 64}))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert "NOT verified" in result.output
    assert verify_record_file(str(tmp_path / "missing.json")) is None
    # no record to check (a usage error, as elsewhere): exit 2, not 1 ("not verified")
    for where in (tmp_path / "missing.json", tmp_path):
        result = CliRunner().invoke(app, ["verify", str(where)])
        assert result.exit_code == 2 and "error: cannot read" in result.output, result.output
    rec = finished_record()
    path.write_text(json.dumps(rec))
    with_hash = CliRunner().invoke(app, ["verify", str(path), "--log-hash", rec["log_hash"]])
    assert with_hash.exit_code == 0 and "itself only" not in with_hash.output
    assert CliRunner().invoke(app, ["verify", str(path), "--log-hash", "0" * 64]
                              ).exit_code == 1
    # an empty hash is a usage error, not "not verified" as if the record were altered
    empty = CliRunner().invoke(app, ["verify", str(path), "--log-hash", " "])
    assert empty.exit_code == 2 and "'--log-hash'" in empty.output, empty.output
    assert "NOT verified" not in empty.output


def test_hostile_files_get_one_clear_line(tmp_path, capsys):
    for name, text in (("deep.json", "[" * 100_000), ("deep_obj.json", '{"a":' * 100_000),
                       ("nan.json", '{"seed": NaN'), ("bin.json", "\udcff")):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        assert verify_record_file(str(path)) is None, name
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1, (name, err[:300])


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=6)


@given(seat=st.integers(min_value=-1, max_value=6),
       action=st.dictionaries(st.text(max_size=8), _VALUES, max_size=5))
@example(seat=0, action={"\x7f": None})  # (CI found it: orjson writes DEL as itself)
@example(seat=0, action={"type": "play", "card": "R\x7f"})
def test_the_log_hash_is_its_documented_definition(seat, action):
    """The chain is SHA-256 over the standard library's canonical JSON (fairness.py), which
    third-party verifiers follow: the fast path must give the same bytes for any action."""
    previous = "ab" * 32
    canonical = json.dumps([seat, action], sort_keys=True, separators=(",", ":"))
    expected = hashlib.sha256(f"{previous}:{canonical}".encode()).hexdigest()
    assert log_hash_next(previous, seat, action) == expected


def test_the_log_hash_of_ordinary_actions_is_its_documented_definition():
    for seat, action in [(0, {"type": "play", "card": "R7"}), (2, {"type": "draw"}),
                         (1, {"type": "play", "card": "W+4", "color": "G"}),
                         (3, {"type": "catch", "target": 0}), (1, {"type": "timeout"}),
                         (0, {"type": "substitute", "on": True}),
                         # and what the fast path must leave to the standard library
                         (0, {"type": "play", "card": "\ud800"}), (0, {"n": 2**70}),
                         (0, {"\ud800": 1}), (0, {"x": 1e16}), (0, {"x": "ñ"})]:
        canonical = json.dumps([seat, action], sort_keys=True, separators=(",", ":"))
        assert log_hash_next("", seat, action) == hashlib.sha256(
            f":{canonical}".encode()).hexdigest()


def test_the_log_hash_starts_from_the_commitment_and_the_rules_as_documented():
    rules = match_rules("color-clash", "standard", 3, {"match": "1", "clock": 30})
    canonical = json.dumps(rules, sort_keys=True, separators=(",", ":"))
    assert log_hash("c0ffee", rules, []) == hashlib.sha256(
        f"colorclash-log:c0ffee:{canonical}".encode()).hexdigest()
    # the first version, for records made before: the commitment alone
    assert log_hash("c0ffee", None, []) == hashlib.sha256(
        b"colorclash-log:c0ffee").hexdigest()


def _coloretto_record(scoring="brown"):
    import random

    g = new_game("coloretto", seats=2, seed="s3cret", options={"scoring": scoring})
    rng = random.Random(4)
    while not g.over:
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    rec = json.loads(json.dumps({
        "game": "coloretto", "preset": "standard", "seats": 2, "options": g.options,
        "seed": "s3cret", "commitment": g.commitment(), "actions": g.log,
        "result": g.result, "log_hash_version": 2}))
    return {**rec, "log_hash": rehash(rec)}


def test_a_record_whose_rules_were_changed_after_the_match_is_caught():
    """The commitment covers the seed and the deck order only: a record whose options (the
    scoring side: another winner), preset or clock were changed after the match, with the
    result replayed to match and the log hash recomputed, verified even against the hash
    the player was shown (attacker QA). The hash now starts from the rules."""
    rec = _coloretto_record()
    assert verify_record(rec, expected_log_hash=rec["log_hash"])[0]
    for change in ({"options": {**rec["options"], "scoring": "grey"}}, {"preset": {}},
                   {"options": {**rec["options"], "clock": 90}}):
        forged = {**json.loads(json.dumps(rec)), **change}
        g = new_game("coloretto", preset="standard", seats=2, seed="s3cret",
                     options=forged["options"])
        assert g.commitment() == rec["commitment"]  # (what made it pass)
        for seat, action in forged["actions"]:
            g.apply(seat, action)
        forged["result"] = g.result
        forged["log_hash"] = rehash(forged)
        ok, notes = verify_record(forged, expected_log_hash=rec["log_hash"])
        assert not ok and "you were shown" in notes[-1], (change, notes)
    cc = finished_record()
    forged = {**cc, "options": {"match": "1", "clock": 600}}
    forged["log_hash"] = rehash(forged)
    assert not verify_record(forged, expected_log_hash=cc["log_hash"])[0]


def test_a_record_of_the_first_version_verifies_and_says_what_its_hash_covers():
    rec = finished_record()
    old = {k: v for k, v in rec.items() if k != "log_hash_version"}
    old["log_hash"] = log_hash(rec["commitment"], None, [tuple(x) for x in rec["actions"]])
    ok, notes = verify_record(old)
    assert ok and any("not the rules" in n for n in notes), notes
    ok, notes = verify_record(rec)
    assert ok and any("and the rules" in n for n in notes), notes
    # a version-2 record passed off as the first version does not match its hash
    assert not verify_record({k: v for k, v in rec.items() if k != "log_hash_version"})[0]
    for bad in (3, "2", True, None):
        ok, notes = verify_record({**rec, "log_hash_version": bad})
        assert not ok and "log_hash_version" in notes[-1], (bad, notes)


def test_a_record_names_the_version_of_the_rules_it_was_made_under():
    """A record carries ``rules_version``; one of older rules that replays verifies and says
    so, one that does not replay says a rule changed since (before, only the refused
    action: a record from before a rule change read as a forgery); one of newer rules than
    this verify knows is not checked."""
    from colorclash.engine import GAMES

    current = GAMES["color-clash"].rules_version
    rec = finished_record()
    assert verify_record({**rec, "rules_version": current})[0]
    old = {k: v for k, v in rec.items() if k != "rules_version"}  # before the field: 1
    ok, notes = verify_record(old)
    assert ok, notes
    if current > 1:
        assert any("the record's are version 1" in n for n in notes), notes
        bad = json.loads(json.dumps(old))
        bad["actions"][0][1] = {"type": "pass"}
        bad["log_hash"] = rehash(bad)  # (as the server under older rules hashed it)
        ok, notes = verify_record(bad)
        assert not ok and "illegal" in notes[-1]
        assert f"made under Color Clash rules version 1, and this verify plays version " \
               f"{current}" in notes[-1], notes
        longer = old["actions"] + old["actions"][-1:]
        ok, notes = verify_record({**old, "actions": longer, "log_hash": rehash(old, longer)})
        assert not ok and "after the end of the match" in notes[-1]
        assert "rules version 1" in notes[-1], notes
    ok, notes = verify_record({**rec, "rules_version": current + 1})
    assert not ok and f"rules version {current + 1}, newer than this verify's" in notes[-1]
    for wrong in ("2", 0, -1, 1.5, True):
        ok, notes = verify_record({**rec, "rules_version": wrong})
        assert not ok and "rules_version" in notes[-1], (wrong, notes)


def test_a_log_changed_under_a_claim_of_older_rules_is_named_changed_not_a_rule_change():
    """The hashes are compared before the replay: an action changed in a record that also
    claims older rules (``rules_version`` is outside the hash) read as a rule change, and
    the hash the player was shown was never compared (attacker review)."""
    rec = finished_record()
    shown_hash = rec["log_hash"]
    forged = json.loads(json.dumps(rec))
    forged["actions"][5][1] = {"type": "pass"}
    forged["rules_version"] = 1
    ok, notes = verify_record(forged, expected_log_hash=shown_hash)
    assert not ok and "were changed after the match" in notes[-1], notes
    assert "rule change" not in notes[-1]
    forged["log_hash"] = rehash(forged)  # (the forger rewrites the record's hash too)
    ok, notes = verify_record(forged, expected_log_hash=shown_hash)
    assert not ok and "you were shown" in notes[-1], notes
    assert "rule change" not in notes[-1]


def test_the_records_control_characters_are_printed_escaped(tmp_path, capsys):
    """A record's strings are quoted in the findings: printed as they were, its escape
    sequences erased the FAIL line and printed a forged "verified" (attacker review)."""
    rec = finished_record()
    trick = "\x1b[2K\r\x1b[1A\nverified: fake\x1b[8m\u202e"
    for forged in ({**rec, "log_hash": trick}, {**rec, "commitment": trick},
                   {**rec, "result": trick, "log_hash": rehash(rec)}):
        path = tmp_path / "record.json"
        path.write_text(json.dumps(forged))
        assert verify_record_file(str(path)) is False
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\u202e" not in out, out
        assert "\\x1b[2K" in out and "\\u202e" in out, out
        assert not any(line.startswith("verified") for line in out.splitlines()), out
        assert out.rstrip().endswith("NOT verified")


def test_a_record_far_larger_than_any_match_is_not_read(tmp_path, capsys, monkeypatch):
    """A 95 MB file of actions took 1.5 GB of memory to parse before any check (attacker
    review): past the size no match's record comes near, it is refused unread (exit 2)."""
    import colorclash.verify as verify

    rec = finished_record()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(rec))
    monkeypatch.setattr(verify, "RECORD_MAX_BYTES", len(path.read_bytes()) - 1)
    assert verify_record_file(str(path)) is None
    assert "no match's record is near that size" in capsys.readouterr().err
    monkeypatch.setattr(verify, "RECORD_MAX_BYTES", len(path.read_bytes()))
    assert verify_record_file(str(path)) is True
