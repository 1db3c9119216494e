"""The ``colorclash`` command: serve the site, pit bots against each other, benchmark, verify.

Each sub-command imports its implementation lazily so that ``colorclash --help`` stays fast
and a missing optional dependency only affects the command that needs it.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import typer

T = TypeVar("T")

app = typer.Typer(
    help="Color Clash: colour card games in the browser.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # plain help and usage errors: one greppable line, no boxes
    # -h as well as --help, on every command (the sub-commands inherit it)
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from colorclash.build import version_line

        typer.echo(f"colorclash {version_line()}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version,
                                       is_eager=True, help="Print the version and stop.")
          ) -> None:
    """Color Clash: colour card games in the browser."""


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", envvar="COLORCLASH_HOST",
                             help="Interface to listen on."),
    port: int = typer.Option(8000, min=0, max=65535, envvar="COLORCLASH_PORT",
                             help="TCP port (0: any free port, printed at start)."),
    store: str = typer.Option(
        "sqlite:///colorclash.sqlite3", envvar="COLORCLASH_STORE",
        help="Where games are kept: sqlite:///PATH (or just a file path) or "
             "redis://HOST:PORT/DB. A Redis password belongs in the variable, not on the "
             "command line, where every user of the machine reads it (ps).",
    ),
) -> None:
    """Start the game server (HTTP + WebSocket) and print the URL to open.

    Everything else (limits, clocks, several processes, logs) is set with COLORCLASH_*
    environment variables: docs/deployment.md lists them.
    """
    from colorclash.server.run import run_server

    run_server(host=host, port=port, store_url=store)


def _game_keys() -> str:
    """The site's games, as ``--game`` takes them (the engine's list: a game added is
    named here without an edit; importing the rules costs about 10 ms)."""
    from colorclash.engine import GAMES

    *first, last = GAMES
    return f"{', '.join(first)} or {last}" if first else last


@app.command()
def simulate(
    game: str = typer.Option("color-clash", help=f"Game: {_game_keys()}."),
    preset: str = typer.Option(None, help="Rule preset (Color Clash)."),
    players: int = typer.Option(..., help="Seats at each table."),
    games: int = typer.Option(..., help="How many games to play."),
    bots: str = typer.Option("random", help="Comma-separated bot levels: cycled to fill "
                             "the seats; more levels than seats take turns at the table. "
                             "A bot of your own: module:Class (importable from here)."),
    seed: int = typer.Option(0, help="Seed of the whole tournament."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    no_time_budget: bool = typer.Option(
        False, "--no-time-budget",
        help="Give hard its fixed number of rollouts and no wall-clock budget, so that "
             "--seed repeats a run with hard exactly (slower; docs/bots.md)."),
    option: list[str] = typer.Option(
        None, "--option", metavar="NAME=VALUE",
        help="A rule option of the game (repeatable), e.g. --option scoring=grey "
             "(Coloretto), --option match=3; see GET /api/games."),
) -> None:
    """Bot-vs-bot games with a progress bar, then a results table."""
    from colorclash.simulate import run_simulation

    options: dict[str, object] = {}
    for item in option or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise typer.BadParameter(f"{item!r}: write --option NAME=VALUE",
                                     param_hint="--option")
        if name.strip() in options:  # (the last one counted, without a word)
            raise typer.BadParameter(f"{name.strip()!r} is given twice: give each option "
                                     "once", param_hint="--option")
        options[name.strip()] = value.strip()  # typed as the game's choices are

    run_simulation(
        game=game,
        preset=preset,
        players=players,
        games=games,
        bots=[b.strip() for b in bots.split(",")],
        seed=seed,
        as_json=json_out,
        options=options,
        bot_options={"hard": {"budget_ms": None}} if no_time_budget else None,
    )


def _benchmarks_dir() -> Path:
    """The repository's ``benchmarks/`` folder (benchmarks run from a checkout)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "benchmarks"
        if (candidate / "__init__.py").exists():
            return candidate
    raise typer.BadParameter("benchmarks/ not found: run `colorclash bench` from a checkout")


#: The benchmarks `colorclash bench NAME` runs (benchmarks/NAME.py, '-' for '_').
BENCHMARKS = {
    "engine": "decisions per second of the engine, against RLCard's UNO in the same run",
    "engine-instructions": "the engine's cost in instructions (callgrind), not seconds",
    "bots": "the computer players' strength and time per decision",
    "bots-ceiling": "how far hard is from a player who sees every hand",
    "server": "the site under load: connections, actions/s, latency against an echo floor",
    "server-loop": "one action's cost on the server's loop without sockets, against the "
                   "engine's",
}


# Everything after NAME is the benchmark's own (allow_interspersed_args off): `colorclash
# bench engine -h` is the engine benchmark's help, `colorclash bench -h` this command's.
@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True,
                               "allow_interspersed_args": False},
             epilog="Benchmarks: " + "; ".join(f"{k}: {v}" for k, v in BENCHMARKS.items())
             + ". Their options: colorclash bench NAME -h.")
def bench(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME",
                               help="Which benchmark: " + ", ".join(BENCHMARKS) + "."),
) -> None:
    """Run a benchmark from benchmarks/ (for example: colorclash bench engine)."""
    if name in ("-h", "--help"):
        typer.echo(ctx.get_help())
        raise typer.Exit(0)
    name = name.replace("_", "-")
    if name not in BENCHMARKS:
        raise typer.BadParameter(f"unknown benchmark {name!r}; known: {', '.join(BENCHMARKS)}")
    folder = _benchmarks_dir()
    path = folder / f"{name.replace('-', '_')}.py"
    spec = importlib.util.spec_from_file_location(f"benchmarks.{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    code = module.main(list(ctx.args))
    raise typer.Exit(code or 0)


@app.command()
def verify(
    source: str = typer.Argument(
        ..., metavar="SOURCE",
        help="A finished game record (JSON file, or '-' for stdin) with seed and actions."
    ),
    log_hash: str = typer.Option(
        None, "--log-hash", help="The log hash your table showed at the end of the match: "
        "the record must hold exactly the actions you saw."),
) -> None:
    """Check a finished game: commitment and seed, every action, result and log hash."""
    # (the commitment matches the revealed seed, every action is legal, and the result
    # and the action log's hash match the record; the help keeps a docstring's breaks)
    from colorclash.verify import verify_record_file

    if log_hash is not None and not log_hash.strip():
        # (an empty hash was "not verified", exit 1: as if the record had been altered)
        raise typer.BadParameter("is empty: give the log hash your table showed, or leave "
                                 "the option out", param_hint="'--log-hash'")
    ok = verify_record_file(source, log_hash)
    raise typer.Exit(2 if ok is None else 0 if ok else 1)  # (2: no record to check)


@app.command("copy-store")
def copy_store(
    source: str = typer.Argument(..., metavar="FROM",
                                 help="The store to copy: sqlite:///PATH (or a path) or "
                                      "redis://HOST:PORT/DB."),
    target: str = typer.Argument(..., metavar="TO", help="An empty store to copy it into."),
) -> None:
    """Copy every room (seats, cards, logs, records) into another store, and check it:
    to move a site from SQLite to Redis, or to copy a store no server is using."""
    from rich.console import Console
    from rich.progress import Progress

    from colorclash.server.model import Room
    from colorclash.store import StoreError
    from colorclash.store import shown_url as shown
    from colorclash.store.copy import copy_store as run

    # (the bar on stderr, and only on a terminal: on stdout it left an empty line before
    # the result, and before an error)
    console = Console(stderr=True)
    try:
        with Progress(transient=True, console=console, disable=not console.is_terminal) as bar:
            task = bar.add_task("copying rooms", total=None)
            done = run(source, target,
                       progress=lambda i, n: bar.update(task, completed=i, total=n),
                       read_document=Room.restorable)
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"copied {done.rooms:,} room(s), {done.actions:,} action(s) of their current "
               f"matches and {done.records:,} record(s) of finished ones from {shown(source)} "
               f"to {shown(target)}; each read back and checked")


@app.command()
def rooms(
    store: str = typer.Option(
        "sqlite:///colorclash.sqlite3", envvar="COLORCLASH_STORE",
        help="The site's store, as given to serve: sqlite:///PATH (or a path) or "
             "redis://HOST:PORT/DB (a password in COLORCLASH_STORE, not here)."),
    status: str = typer.Option(None, "--status", metavar="STATUS",
                               help="Only the rooms in this status: lobby, playing or "
                                    "finished."),
    as_json: bool = typer.Option(False, "--json",
                                 help="One JSON object per room and line, for scripts."),
) -> None:
    """List the rooms a store holds: code, status, game, seats, age, the running clock and,
    on Redis, the process that runs each. It only reads: safe beside a running site."""
    import json

    from colorclash.server.roomlist import STATUSES, empty_store_note, room_lines, table
    from colorclash.store import StoreError, open_store

    if status is not None and status not in STATUSES:
        raise typer.BadParameter(f"{status!r} is none of {', '.join(STATUSES)}",
                                 param_hint="'--status'")
    damaged: list[str] = []
    try:
        opened = open_store(store, create=False)
        try:
            lines = room_lines(opened, status, damaged=damaged)
            note = None if lines or damaged else empty_store_note(opened)
        finally:
            opened.close()
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        for line in lines:
            typer.echo(json.dumps(line.to_json(), ensure_ascii=False))
    else:
        typer.echo(table(lines))
    if note:
        typer.echo(note, err=True)
    for reason in damaged:  # listed without them; exit 1: the store needs looking at
        typer.echo(f"error: {reason} (not listed)", err=True)
    if damaged:
        raise typer.Exit(1)


def _or_exit_2(call: Callable[[], T]) -> T:
    """What an operator's store command returns, or its refusal (``StoreError``) in one
    line on stderr, exit status 2."""
    from colorclash.store import StoreError

    try:
        return call()
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


@app.command()
def backup(
    target: str = typer.Argument(..., metavar="FILE",
                                 help="A new file for the copy (never overwritten)."),
    store: str = typer.Option(
        "sqlite:///colorclash.sqlite3", envvar="COLORCLASH_STORE",
        help="The site's SQLite store, as given to serve: sqlite:///PATH (or a path)."),
) -> None:
    """Copy a SQLite store into a new file while the site runs (a consistent copy of one
    moment, readable by its owner only). Restoring it: docs/deployment.md."""
    from colorclash.store import shown_url
    from colorclash.store.maintenance import backup as run

    rooms = _or_exit_2(lambda: run(store, target))
    typer.echo(f"backed up {rooms:,} room(s) from {shown_url(store)} to {target}; "
               "checked by SQLite and read back")


@app.command("delete-rooms")
def delete_rooms(
    codes: list[str] = typer.Argument(..., metavar="CODE...",
                                      help="The rooms' codes (as colorclash rooms lists "
                                           "them, or as a server's log names them)."),
    store: str = typer.Option(
        "sqlite:///colorclash.sqlite3", envvar="COLORCLASH_STORE",
        help="The site's store, as given to serve: sqlite:///PATH (or a path) or "
             "redis://HOST:PORT/DB (a password in COLORCLASH_STORE, not here)."),
) -> None:
    """Delete rooms (their seats, logs and records) from a store no server is using:
    rooms a server cannot restore (damaged, or refused by newer rules)."""
    from colorclash.store import shown_url
    from colorclash.store.maintenance import delete_rooms as run

    deleted = _or_exit_2(lambda: run(store, codes))
    typer.echo(f"deleted {len(deleted):,} room(s) from {shown_url(store)}: "
               f"{', '.join(deleted)}")


def main() -> None:  # console-script entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
