"""`colorclash verify`: a record checks out, and any tampering is caught."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from colorclash.bots import make_bot
from colorclash.cli import app
from colorclash.engine import new_game
from colorclash.verify import verify_record, verify_record_file


def finished_record(seed="ab" * 32, preset="classic-table", seats=3):
    g = new_game("color-clash", preset=preset, seats=seats, seed=seed, options={"match": "1"})
    commitment = g.commitment()
    bots = [make_bot("easy", seed=i) for i in range(seats)]
    while not g.over:
        seat = g.to_act[0]
        g.apply(seat, bots[seat].act(g.view(seat), []))
    return {"game": "color-clash", "preset": preset, "seats": seats, "options": {"match": "1"},
            "seed": seed, "commitment": commitment,
            "actions": [[s, a] for s, a in g.log], "result": g.result}


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
    assert not ok and "illegal" in notes[-1]
    assert not verify_record({**rec, "result": {"scores": [0, 0, 0], "winners": []}})[0]
    assert not verify_record({**rec, "actions": rec["actions"][:1] + rec["actions"]})[0]
    assert not verify_record({k: v for k, v in rec.items() if k != "seed"})[0]
    assert not verify_record({**rec, "seed": None})[0]


def test_cli_verify(tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(finished_record()))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output
    path.write_text(json.dumps({**finished_record(), "commitment": "1" * 64}))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert "NOT verified" in result.output
    assert verify_record_file(str(tmp_path / "missing.json")) is False
