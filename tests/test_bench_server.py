"""`colorclash bench server` still runs end to end (the figures in docs/benchmarks.md come
from it): a few rooms at full speed against a real server, then the three floors. Small and
short; it checks what the report holds, not how fast anything is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_server_benchmark_plays_rooms_and_measures_its_floors(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "colorclash.cli", "bench", "server", "--connections", "8",
         "--pace", "full", "--duration", "1.5", "--warmup", "0.5", "--echo", "--room-echo",
         "--raw-room-echo", "--out", str(out), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    [r] = json.loads(proc.stdout)
    assert r == json.loads(out.read_text().splitlines()[0])
    assert (r["connections"], r["rooms"], r["processes"]) == (8, 2, 1)
    assert r["errors"] == 0 and r["rooms_failed"] == 0
    assert r["player_actions"] > 0 and r["latency_ms"]["p50"] > 0
    assert r["state_bytes"] > 300  # a real state, views and all
    assert r["states"] == "compact"  # as the browser asks for them
    inside = r["server_action_ms"][0]
    assert inside["count"] >= r["player_actions"] and inside["p50"] > 0
    for floor in ("echo", "room_echo", "raw_room_echo"):
        assert r[floor]["messages"] > 0, floor
        assert r[f"p99_over_{floor}"] > 0
    assert r["room_echo"]["room_bytes"] == r["state_bytes"]


def test_repeated_pairs_alternate_and_give_the_median_ratio() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "colorclash.cli", "bench", "server", "--connections", "8",
         "--pace", "full", "--duration", "1", "--warmup", "0.5", "--echo", "--repeat", "2",
         "--full-states", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    first, second, summary = json.loads(proc.stdout)
    assert [first["pair"], second["pair"]] == [1, 2]
    assert first["states"] == second["states"] == "full"
    assert first["state_bytes"] > 1000  # the room object in every state
    assert [first["floors_first"], second["floors_first"]] == [False, True]
    assert summary["kind"] == "summary" and summary["pairs"] == 2
    assert summary["p99_over_echo"] == [first["p99_over_echo"], second["p99_over_echo"]]
    assert summary["median_p99_over_echo"] == (first["p99_over_echo"]
                                               + second["p99_over_echo"]) / 2


def test_the_loop_benchmark_times_actions_against_its_baselines() -> None:
    """`colorclash bench server-loop`: actions through the server's loop to sockets that
    count, with the engine alone and the yardstick timed beside them in the same run."""
    proc = subprocess.run(
        [sys.executable, "-m", "colorclash.cli", "bench", "server-loop", "--rooms", "4",
         "--actions", "300", "--repeat", "2", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout)
    assert len(summary["runs"]) == 2
    for run in summary["runs"]:
        assert run["actions"] >= 300
        assert run["states_sent"] >= 4 * run["actions"]  # every seat's state, handed over
        assert run["loop_us"] > run["engine_us"] > 0 and run["yardstick_us"] > 0
        assert abs(run["overhead"] - run["loop_us"] / run["engine_us"]) < 0.1
    assert summary["median_overhead"] > 1


def test_every_load_players_name_is_one_the_site_takes() -> None:
    """The idle benchmark stopped at its 308th room: "I307" was refused as a name that
    reads as a computer player's (307 spells BOT upside down), as would "P2807" at 2,808
    Practice tables. The load's names are letters no such word is made of."""
    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks.server import person
    finally:
        sys.path.remove(str(ROOT))
    from colorclash.server.protocol import clean_name

    names = {person(prefix, i, seat) for prefix in ("Host", "Player", "Idle", "Table")
             for i in range(3_000) for seat in (None, 1, 2, 3)}
    assert len(names) == 4 * 3_000 * 4
    for name in names:
        assert clean_name(name) == name, name
