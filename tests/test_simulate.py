"""``colorclash simulate``: a small tournament whose figures add up."""

from __future__ import annotations

import json
import re
import sys

import pytest
from typer.testing import CliRunner

from colorclash.cli import app
from colorclash.simulate import play_game, simulate, typed_options


def test_a_small_tournament_adds_up():
    report = simulate(preset="classic-table", players=3, games=12, bots=["medium", "easy"],
                      seed=4)
    assert report["games"] == 12 == report["wins"] + report["draws"]
    assert report["lineup"] == ["medium", "easy", "medium"]
    bots = report["bots"]
    assert set(bots) == {"medium", "easy"}
    assert sum(b["wins"] for b in bots.values()) == report["wins"]
    assert bots["medium"]["seats"] == 2 and bots["easy"]["seats"] == 1
    for b in bots.values():
        assert b["decisions"] > 0
        assert b["ms_per_decision"] >= 0
        assert 0 <= b["win_rate"] <= 1
    assert report["mean_actions"] > 0


def test_seats_rotate_so_no_level_keeps_the_first_seat(monkeypatch):
    import colorclash.simulate as sim

    seen = []
    real = sim.play_game

    def spy(preset, lineup, seed, **kw):
        seen.append(list(lineup))
        return real(preset, lineup, seed, **kw)

    monkeypatch.setattr(sim, "play_game", spy)
    sim.simulate(preset="standard", players=3, games=6, bots=["easy", "medium", "random"])
    firsts = [lineup[0] for lineup in seen]
    assert firsts.count("easy") == firsts.count("medium") == firsts.count("random") == 2


def test_same_seed_same_tournament():
    a = simulate(preset="siege", players=2, games=6, bots=["medium", "random"], seed=9)
    b = simulate(preset="siege", players=2, games=6, bots=["medium", "random"], seed=9)
    for key in ("wins", "draws", "mean_actions"):
        assert a[key] == b[key]
    assert {k: v["wins"] for k, v in a["bots"].items()} == {
        k: v["wins"] for k, v in b["bots"].items()}


def test_shared_wins_count_as_draws(monkeypatch):
    import colorclash.simulate as sim

    def tie(preset, lineup, seed, **kw):
        return {"finished": True, "winners": [0, 1], "scores": [10, 10], "actions": 5,
                "rounds": 3, "decisions": [3, 2]}

    monkeypatch.setattr(sim, "play_game", tie)
    report = sim.simulate(preset="family", players=2, games=4, bots=["easy", "medium"])
    assert report["wins"] == 0 and report["draws"] == 4
    assert report["bots"]["easy"]["shared"] == 4 == report["bots"]["medium"]["shared"]


def test_play_game_reports_a_finished_game():
    out = play_game("day-night", ["medium", "easy", "hard"], 3,
                    bot_options={"hard": {"budget_ms": None, "rollouts": 12}})
    assert out["finished"]
    assert len(out["winners"]) <= 1
    assert sum(out["decisions"]) == out["actions"]


@pytest.mark.parametrize("bad, message", [
    (["--bots", "expert"], "unknown bot level 'expert'"),
    (["--preset", "nope"], "unknown preset 'nope'"),
    (["--players", "7"], "between 2 and 6"),
    (["--game", "chess"], "--game: unknown game 'chess'; known: color-clash"),
    (["--preset", ""], "--preset: unknown preset ''"),  # (it was read as the default)
    (["--option", "match"], "write --option NAME=VALUE"),
    (["--option", "match=7"], "match"),
    (["--option", "match=3", "--option", "match=5"], "'match' is given twice"),
    (["--bots", "random,,hard"], "empty level in 'random,,hard'"),
    (["--bots", "random,"], "empty level"),
    (["--bots", " "], "needs at least one level"),
])
def test_the_command_rejects_bad_input_clearly(bad, message):
    args = ["simulate", "--players", "2", "--games", "2", *bad]
    if "--players" in bad:
        args = ["simulate", "--games", "2", *bad]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_the_command_prints_json_that_adds_up():
    result = CliRunner().invoke(app, [
        "simulate", "--game", "color-clash", "--preset", "family", "--players", "2",
        "--games", "5", "--bots", "medium,easy", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    line = [x for x in result.stdout.splitlines() if x.startswith("{")][-1]
    report = json.loads(line)
    assert report["games"] == 5 == report["wins"] + report["draws"]
    assert report["preset"] == "family" and report["seed"] == 3
    assert sum(b["wins"] for b in report["bots"].values()) == report["wins"]


def test_the_command_takes_the_games_rule_options():
    """Coloretto's grey side could not be simulated: only the default brown was played."""
    result = CliRunner().invoke(app, [
        "simulate", "--game", "coloretto", "--players", "3", "--games", "3", "--seed", "4",
        "--option", "scoring=grey", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads([x for x in result.stdout.splitlines() if x.startswith("{")][-1])
    assert report["options"] == {"scoring": "grey"}
    grey = play_game("standard", ["random"] * 3, "4:0", game="coloretto",
                     options={"scoring": "grey"})
    brown = play_game("standard", ["random"] * 3, "4:0", game="coloretto")
    assert grey["actions"] == brown["actions"]  # the same game, scored on the other side
    assert grey["scores"] != brown["scores"]


def test_more_levels_than_seats_take_turns_at_the_table():
    """contract.md writes ``--bots a,b,c``: Rainbow has two seats, and three levels were
    refused. They now take turns: each game seats the next two, so that every level plays
    as many games as the others, from each seat."""
    result = CliRunner().invoke(app, [
        "simulate", "--game", "rainbow", "--players", "2", "--games", "3", "--seed", "2",
        "--bots", "random,medium,hard", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["lineup"] == ["random", "medium", "hard"]
    assert {level: b["games"] for level, b in report["bots"].items()} == {
        "random": 2, "medium": 2, "hard": 2}
    assert report["wins"] + report["draws"] == 3
    assert sum(b["wins"] for b in report["bots"].values()) == report["wins"]
    for b in report["bots"].values():
        assert b["win_rate"] == b["wins"] / b["games"]
    table = CliRunner().invoke(app, [
        "simulate", "--game", "rainbow", "--players", "2", "--games", "1",
        "--bots", "random,medium,hard"]).stdout
    head = next(line for line in table.splitlines() if "bot" in line and "wins" in line)
    assert "games" in head and "seats" not in head, table
    # fewer levels than seats are cycled, and every level sits at every game
    report = simulate(preset="standard", players=4, games=2, bots=["medium", "random"])
    assert report["lineup"] == ["medium", "random", "medium", "random"]
    assert all(b["games"] == 2 and b["seats"] == 2 for b in report["bots"].values())


def test_options_are_typed_as_the_game_has_them():
    """``--option match=3`` was reported as the number 3; the API, rooms and records have
    the match choice as the text "3"."""
    result = CliRunner().invoke(app, [
        "simulate", "--preset", "standard", "--players", "3", "--games", "1",
        "--option", "match=3", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["options"] == {"match": "3"}
    report = simulate(game="coloretto", players=2, games=1, bots=["random"],
                      options={"clock": "45"})
    assert report["options"] == {"clock": 45}


def test_a_house_rule_on_the_command_line_is_read_as_a_number_or_true_or_false():
    """``wild4_restricted=false`` reached the game as the text "false" (refused now, it
    was read as true before the engine checked yes/no options)."""
    report = simulate(players=2, games=1, bots=["random"],
                      options=typed_options("color-clash", "standard", {
                          "wild4_restricted": "false", "call_window": "2.5",
                          "first_card": "number"}))
    assert report["options"] == {"wild4_restricted": False, "call_window": 2.5,
                                 "first_card": "number"}


def test_an_option_value_not_offered_is_named_with_the_choices_in_words():
    """It read "turn clock 'abc' s is not offered by standard: (30, 45, 60, 90)"."""
    import re

    said = {}
    for option in ("clock=abc", "match=7", "first_card=none"):
        result = CliRunner().invoke(app, ["simulate", "--players", "3", "--games", "1",
                                          "--option", option])
        assert result.exit_code == 2
        said[option] = re.sub(r"[\s│╭╮╰╯─]+", " ", result.output)
    assert "turn clock 'abc' is not offered by standard: 30, 45, 60, 90 (seconds)" in \
        said["clock=abc"]
    assert "match length '7' is not offered by standard: 1, 3, 5, 500" in said["match=7"]
    assert "option first_card must be one of actions, number, not 'none'" in \
        said["first_card=none"]


def test_the_command_prints_a_table():
    result = CliRunner().invoke(app, [
        "simulate", "--preset", "standard", "--players", "4", "--games", "3",
        "--bots", "medium,random"])
    assert result.exit_code == 0, result.output
    for word in ("medium", "random", "wins", "mean score", "ms/decision", "= games 3"):
        assert word in result.stdout


def _bench_bots():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bots.py"
    spec = importlib.util.spec_from_file_location("bench_bots_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wilson_interval():
    from colorclash.simulate import wilson

    low, high = wilson(600, 1000)
    assert 0.569 < low < 0.570 and 0.629 < high < 0.631
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(10, 10)
    assert high == 1.0 and low > 0.7


def test_bench_bots_passes_hard_options_and_rejects_unknown_ones(capsys):
    bench = _bench_bots()
    args = ["--games", "2", "--pairs", "hard:medium", "--presets", "standard",
            "--players", "2", "--no-timing", "--json", "--hard-budget-ms", "none",
            "--hard-option", "rollouts=8", "--hard-option", "belief=0"]
    assert bench.main(args) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["lines"][0]
    assert line["bot_options"] == {"hard": {"budget_ms": None, "rollouts": 8, "belief": 0}}
    with pytest.raises(SystemExit):
        bench.main(["--games", "2", "--hard-option", "no_such_option=1"])
    with pytest.raises(SystemExit):
        bench.main(["--games", "2", "--hard-option", "belief"])


def test_bench_bots_ceiling_peeks_only_in_its_own_bot(capsys):
    """The ceiling benchmark's peeking bot sees the table; the fair one plays as usual."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bots_ceiling.py"
    spec = importlib.util.spec_from_file_location("bench_ceiling_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--games", "2", "--modes", "fair,hand,all", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert [r["mode"] for r in results] == ["fair", "hand", "all"]
    assert all(r["games"] == 2 and 0 <= r["wins"] <= 2 for r in results)


def test_bench_bots_runs_small_lines_and_resumes(tmp_path, capsys):
    bench = _bench_bots()
    out = tmp_path / "lines.jsonl"
    args = ["--games", "4", "--pairs", "medium:easy", "--presets", "siege,day-night",
            "--players", "2", "--no-timing", "--out", str(out), "--json"]
    assert bench.main(args) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [(r["preset"], r["players"]) for r in report["lines"]] == [
        ("siege", 2), ("day-night", 2)]
    for r in report["lines"]:
        assert r["wins_hi"] + r["wins_lo"] + r["draws"] == r["games"] == 4
        assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
    assert len(out.read_text().splitlines()) == 2
    assert bench.main(args + ["--resume"]) == 0  # nothing left to run
    assert len(out.read_text().splitlines()) == 2


def test_bench_bots_times_hard(capsys):
    bench = _bench_bots()
    t = bench.timing(1, 5, ("siege",))
    assert t["decisions"] > 0 and t["games"] == 1
    assert t["median_ms"] <= t["p99_ms"] <= t["max_ms"]


def test_bench_bots_rejects_a_bad_pair():
    bench = _bench_bots()
    with pytest.raises(SystemExit):
        bench.main(["--pairs", "hard-medium"])


def test_a_game_of_one_seat_count_says_so():
    from colorclash.simulate import simulate

    with pytest.raises(ValueError, match=r"--players must be 2 for rainbow$"):
        simulate(game="rainbow", players=3, games=1, bots=["easy"])
    with pytest.raises(ValueError, match=r"between 2 and 6"):
        simulate(players=7, games=1, bots=["easy"])


def test_off_a_terminal_the_command_writes_nothing_but_its_result():
    """The progress bar is for a terminal: a cron job's log got an empty line on stderr
    each run."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "colorclash.cli", "simulate", "--players",
                          "2", "--games", "2", "--json"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    assert json.loads(out.stdout)["games"] == 2


def test_no_time_budget_gives_hard_no_clock_and_repeats_a_run(monkeypatch):
    """--seed repeats a run with hard only without its wall-clock budget (a contract
    review: two runs of one command with hard differed): --no-time-budget makes hard with
    ``budget_ms=None``, and two such runs give the same games."""
    import colorclash.simulate as sim

    made: list[tuple[str, dict]] = []
    real = sim.make_bot

    def recording(game, level, **kwargs):
        made.append((level, kwargs))
        return real(game, level, **kwargs)

    monkeypatch.setattr(sim, "make_bot", recording)
    args = ["simulate", "--game", "rainbow", "--players", "2", "--games", "2",
            "--bots", "hard,random", "--seed", "5", "--json", "--no-time-budget"]
    runs = []
    for _ in range(2):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        report = json.loads([x for x in result.stdout.splitlines() if x.startswith("{")][-1])
        runs.append((report["wins"], report["draws"], report["mean_actions"],
                     {k: (b["wins"], b["mean_score"]) for k, b in report["bots"].items()}))
    assert runs[0] == runs[1]
    assert all(kw.get("budget_ms", "absent") is None for level, kw in made if level == "hard")
    assert any(level == "hard" for level, _ in made)


OWN_BOTS = '''
import random


class FirstLegal:
    """A bot of an outside author's: act only, no observe, no arguments."""

    def act(self, view, events=None):
        return view["legal"][0]


class Seeded:
    def __init__(self, seed=None, game=None):
        self.rng = random.Random(seed)
        self.game = game
        self.seen = 0

    def observe(self, events):
        self.seen += len(events or [])

    def act(self, view, events=None):
        return self.rng.choice(view["legal"])


class Wrong:
    def act(self, view, events=None):
        return {"type": "fly"}


class NeedsMore:
    def __init__(self, depth):
        self.depth = depth

    def act(self, view, events=None):
        return view["legal"][0]


class ForColoretto:
    game = "coloretto"

    def act(self, view, events=None):
        return view["legal"][0]
'''


def test_a_bot_of_your_own_plays_in_simulate_as_module_and_class(tmp_path, monkeypatch):
    """A bot author could not put a bot of their own at the table: --bots took the game's
    levels only (a bot author's review). ``module:Class``, importable from the folder the
    command runs in, plays as a level does; a bot made for another game is refused."""
    (tmp_path / "mybots.py").write_text(OWN_BOTS)
    (tmp_path / "broken.py").write_text("def act(:\n")
    monkeypatch.chdir(tmp_path)  # (found from the folder the command runs in)
    monkeypatch.setattr("sys.path", [p for p in sys.path if p not in ("", str(tmp_path))])
    for game, players in (("rainbow", 2), ("coloretto", 3), ("color-clash", 2)):
        result = CliRunner().invoke(app, [
            "simulate", "--game", game, "--players", str(players), "--games", "4",
            "--bots", "mybots:FirstLegal,mybots:Seeded,random", "--seed", "5", "--json"])
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout.strip().splitlines()[-1])
        assert set(report["bots"]) == {"mybots:FirstLegal", "mybots:Seeded", "random"}
        assert report["games"] == 4 == report["wins"] + report["draws"]
    for bad, says in (("mybots:ForColoretto", "plays coloretto, not rainbow"),
                      ("mybots:Nothing", "'mybots' has no class 'Nothing'"),
                      ("nosuchmodule:Bot", "cannot import 'nosuchmodule'"),
                      ("mybots:", "name your own bot as module:Class"),
                      ("broken:Bot", "cannot import 'broken' for 'broken:Bot': SyntaxError"),
                      ("mybots:NeedsMore", "could not be made with no arguments: TypeError")):
        result = CliRunner().invoke(app, ["simulate", "--game", "rainbow", "--players", "2",
                                          "--games", "2", "--bots", bad])
        assert result.exit_code == 2, (bad, result.output)
        assert says in " ".join(result.output.split()), (bad, result.output)
    result = CliRunner().invoke(app, ["simulate", "--game", "rainbow", "--players", "2",
                                      "--games", "2", "--bots", "mybots:Wrong"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert re.search(r"error: the bot 'mybots:Wrong' at seat [01] chose \{'type': 'fly'\}, "
                     r"which the rules refuse: unknown action 'fly'",
                     " ".join(result.output.split())), result.output
