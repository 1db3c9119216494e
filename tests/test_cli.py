"""The `colorclash` command's own help and refusals (contract section 2)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from colorclash.cli import BENCHMARKS, app

runner = CliRunner(env={"COLUMNS": "200", "TERMINAL_WIDTH": "200"})


def _text(output: str) -> str:
    """The words of the output, without rich's box and line breaks."""
    return " ".join(output.replace("│", " ").split())


def test_bench_help_lists_every_benchmark():
    for args in (["bench", "-h"], ["bench", "--help"]):
        out = runner.invoke(app, args)
        assert out.exit_code == 0, out.output
        text = _text(out.output)
        for name in ("engine", "engine-instructions", "bots", "bots-ceiling", "server"):
            assert name in text
        assert "colorclash bench NAME -h" in text


def test_an_unknown_benchmark_is_refused_with_the_known_ones():
    out = runner.invoke(app, ["bench", "plot_server"])
    assert out.exit_code == 2
    text = _text(out.output)
    assert "unknown benchmark 'plot-server'" in text
    assert "engine-instructions" in text


def test_each_named_benchmark_has_its_script():
    from colorclash.cli import _benchmarks_dir

    for name in BENCHMARKS:
        assert (_benchmarks_dir() / f"{name.replace('-', '_')}.py").exists(), name


def test_dash_h_is_help_on_every_command():
    for args in ([], ["serve"], ["simulate"], ["verify"], ["bench"], ["copy-store"]):
        short = runner.invoke(app, [*args, "-h"])
        assert short.exit_code == 0, (args, short.output)
        text = _text(short.output)
        assert "Usage:" in text and "-h, --help" in text, args  # the help lists both
        assert "╭" not in short.output, args  # plain text, no boxes
        assert short.output == runner.invoke(app, [*args, "--help"]).output, args


def test_after_a_benchmark_name_the_help_options_are_the_benchmarks():
    for flag in ("-h", "--help"):
        out = runner.invoke(app, ["bench", "engine", flag])
        assert out.exit_code == 0, out.output
        assert "usage: colorclash bench engine" in out.output


@pytest.mark.parametrize("name", ["engine", "engine-instructions", "bots", "bots-ceiling",
                                  "server", "server-loop"])
def test_every_benchmarks_help_says_what_it_measures(name):
    """``bench engine-instructions -h`` listed its options with no word of what it
    measures, unlike the others."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "colorclash.cli", "bench", name, "-h"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    head, _, options = out.stdout.partition("options:")
    prose = [line for line in head.splitlines()[1:] if line.strip() and not
             line.strip().startswith(("[", "usage:")) and not line.startswith(" " * 10)]
    assert prose, out.stdout[:400]
    # and each option says what it is ("--games GAMES" alone, in bots-ceiling and
    # server-loop, did not)
    lines = options.splitlines()
    bare = [line.strip() for i, line in enumerate(lines)
            if line.strip().startswith("-") and len(re.split(r"\s{2,}", line.strip())) == 1
            and not (i + 1 < len(lines) and lines[i + 1].startswith(" " * 8)
                     and not lines[i + 1].strip().startswith("-"))]
    assert bare == [], bare


def test_the_readme_simulate_line_names_levels_every_game_has():
    import re
    from pathlib import Path

    from colorclash.bots import levels
    from colorclash.engine import GAMES

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    line = next(x for x in readme.splitlines() if x.startswith("colorclash simulate "))
    games = re.search(r"--game (\S+)", line).group(1).split("|")
    bots = re.search(r"--bots ([a-z,]+)", line).group(1).split(",")
    assert games == list(GAMES)
    for game in games:
        assert set(bots) <= set(levels(game)), (game, bots)


def test_the_version():
    from typer.testing import CliRunner

    from colorclash import __version__
    from colorclash.build import build_id

    out = CliRunner().invoke(app, ["--version"])
    assert out.exit_code == 0
    assert out.output.strip() == f"colorclash {__version__} (build {build_id()})"


def test_the_build_changes_with_any_file_of_the_package_and_only_with_them(tmp_path):
    """Every build between two releases said "0.1.0": two processes of different builds
    could not be told apart (an upgrade review). The build is the package's files."""
    import shutil
    from pathlib import Path

    import colorclash
    from colorclash.build import build_id, fingerprint

    package = Path(colorclash.__file__).resolve().parent
    copy = tmp_path / "colorclash"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert fingerprint(copy) == build_id() and len(build_id()) == 12
    (copy / "__pycache__").mkdir(exist_ok=True)
    (copy / "__pycache__" / "x.cpython-313.pyc").write_bytes(b"cache")
    assert fingerprint(copy) == build_id()  # (caches are no part of it)
    catalog = copy / "web" / "i18n" / "tr.json"
    catalog.write_text(catalog.read_text() + " ")
    assert fingerprint(copy) != build_id()


def test_python_dash_m_colorclash_is_the_command():
    import subprocess
    import sys

    from colorclash import __version__

    out = subprocess.run([sys.executable, "-m", "colorclash", "--version"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith(f"colorclash {__version__} (build ")


def test_a_usage_error_is_plain_lines_an_operator_can_grep():
    """Typer drew usage errors in a box of rich's (three lines of frame for one error)."""
    out = runner.invoke(app, ["serve", "--port", "abc"])
    assert out.exit_code == 2
    lines = out.output.strip().splitlines()
    assert lines[-1].startswith("Error: Invalid value for '--port'"), lines
    assert "╭" not in out.output and "│" not in out.output


def test_serve_takes_its_store_from_the_environment(monkeypatch):
    """A Redis password could only be given on the command line, where every user of the
    machine reads it (ps). COLORCLASH_STORE (and _HOST, _PORT) give serve's options, and
    no start-up warning calls them unknown."""
    import colorclash.server.run as run
    from colorclash.server.config import Settings

    seen = {}
    monkeypatch.setattr(run, "run_server", lambda **kw: seen.update(kw))
    url = "redis://:s3cret@127.0.0.1:6390/0"
    out = CliRunner().invoke(app, ["serve"], env={"COLORCLASH_STORE": url,
                                                  "COLORCLASH_PORT": "9001"})
    assert out.exit_code == 0, out.output
    assert seen == {"host": "127.0.0.1", "port": 9001, "store_url": url}
    monkeypatch.setenv("COLORCLASH_STORE", url)
    assert Settings.unknown_env() == []
    help_text = CliRunner().invoke(app, ["serve", "-h"], env={"COLUMNS": "200"}).output
    assert "COLORCLASH_STORE" in help_text and "docs/deployment.md" in help_text


def _bench_bots():
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bots.py"
    spec = importlib.util.spec_from_file_location("colorclash_bench_bots_cli", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_bench_bots_fits_a_game_of_two_and_says_when_there_is_nothing_to_compare(
        monkeypatch, capsys):
    """``bench bots --game rainbow`` was refused ("--players between 2 and 2": the default
    table sizes 2,4), and a game of one level printed nothing, exit 0 (seam review)."""
    import pytest

    import colorclash.bots

    bots = _bench_bots()
    assert bots.main(["--game", "rainbow", "--games", "1", "--no-timing",
                      "--pairs", "medium:random"]) == 0
    assert "| medium > random | standard | 2 | 1 |" in capsys.readouterr().out
    monkeypatch.setattr(colorclash.bots, "levels", lambda game="color-clash": ["random"])
    with pytest.raises(SystemExit) as end:
        bots.main(["--game", "rainbow", "--games", "1"])
    assert end.value.code == 2
    assert "has one computer level (random): nothing to compare" in capsys.readouterr().err


def test_simulate_help_names_every_game_the_engine_hosts(monkeypatch):
    """The list was written by hand: a game added to the engine went unnamed in
    ``simulate --help``. It is the engine's list now."""
    from colorclash import cli, engine

    text = " ".join(_text(runner.invoke(app, ["simulate", "-h"]).output).split())
    assert "Game: color-clash, coloretto or rainbow." in text
    monkeypatch.setattr(engine, "GAMES", {**engine.GAMES, "fourth-game": None})
    assert cli._game_keys() == "color-clash, coloretto, rainbow or fourth-game"
