"""``colorclash simulate``: computer players against each other.

>>> from colorclash.simulate import simulate
>>> report = simulate(preset="classic-table", players=2, games=10, bots=["medium", "easy"])
>>> report["games"] == report["wins"] + report["draws"]
True

The bot list is cycled to fill the seats (``hard,medium`` at 4 seats is
hard, medium, hard, medium) and the line-up rotates by one seat every game, so no level
keeps the first seat. Game ``i`` deals deal ``i // players`` of the tournament seed, so
every deal is played once in each rotation of the line-up ("duplicate" format: the luck
of the cards falls on every level alike). Figures are per level: when two seats play the same level their
games add up. A game whose result names exactly one winner is a win for that seat's level;
a game with no winner (a dead round) or a shared win is a draw (a shared win also counts
as ``shared`` for each tied level). So ``games == wins + draws`` always holds.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from typing import Any

from colorclash.bots import levels, make_bot
from colorclash.engine import IllegalAction, game_definition, new_game

MAX_ACTIONS = 200_000  # a game still running after this many actions is stopped as a draw


class BotRefused(IllegalAction):
    """A bot chose an action the rules refuse (its seat and choice named)."""


def outside_bot(game: str, spec: str, seed: int | str | None = None) -> Any:
    """A bot of the caller's own, named ``module:Class`` (the module importable from the
    current folder, as ``python -m`` finds it): built with the ``game`` and ``seed``
    keywords its class takes, if any. ValueError saying what is wrong (a bot author's
    bot could not be put at the table: docs/bots.md)."""
    import importlib
    import inspect
    import os

    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise ValueError(f"--bots: {spec!r}: name your own bot as module:Class")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())  # (last: a file here does not hide an installed module)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - ImportError, or the module's own (a SyntaxError)
        raise ValueError(f"--bots: cannot import {module_name!r} for {spec!r}: "
                         f"{type(exc).__name__}: {exc}") from None
    cls = getattr(module, class_name, None)
    if cls is None or not callable(cls):
        raise ValueError(f"--bots: {module_name!r} has no class {class_name!r}")
    try:
        accepted = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        accepted = {}
    takes_any = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
    given = {k: v for k, v in (("game", game), ("seed", seed)) if takes_any or k in accepted}
    try:
        bot = cls(**given)
    except Exception as exc:  # noqa: BLE001 - a constructor that wants other arguments
        raise ValueError(f"--bots: {spec!r} could not be made with "
                         f"{', '.join(given) or 'no arguments'}: {type(exc).__name__}: "
                         f"{exc}") from None
    if not callable(getattr(bot, "act", None)):
        raise ValueError(f"--bots: {spec!r} has no act(view) method")
    made_for = getattr(bot, "game", game)
    if isinstance(made_for, str) and made_for != game:
        raise ValueError(f"--bots: {spec!r} plays {made_for}, not {game}")
    return bot


def _bot(game: str, level: str, seed: str, options: dict[str, Any]) -> Any:
    """A seat's bot: a level of the game's, or one of the caller's own (``module:Class``)."""
    if ":" in level:
        return outside_bot(game, level, seed)
    return make_bot(game, level, seed=seed, **options)


def _check(game: str, preset: str | None, players: int, games: int, bots: list[str],
           options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The preset played and the options typed (:func:`typed_options`), or ValueError."""
    try:
        definition = game_definition(game)
    except ValueError as exc:  # (it did not name the option: "Invalid value: unknown game")
        raise ValueError(f"--game: {exc}") from None
    known = levels(game)
    # Color Clash's engine plays "standard" when no preset is named; other games have one
    # default preset of their own.
    if preset is None:
        preset = "standard" if game == "color-clash" else definition.default_preset
    if preset not in definition.presets:  # ("" too: it was read as the default)
        raise ValueError(f"--preset: unknown preset {preset!r} for {game}; known: "
                         f"{', '.join(definition.presets)}")
    if not definition.min_seats <= players <= definition.max_seats:
        if definition.min_seats == definition.max_seats:
            raise ValueError(f"--players must be {definition.min_seats} for {game}")
        raise ValueError(f"--players must be between {definition.min_seats} and "
                         f"{definition.max_seats} for {game}")
    if games < 1:
        raise ValueError("--games must be at least 1")
    if not any(bots):
        raise ValueError("--bots needs at least one level")
    if not all(bots):
        raise ValueError(f"--bots has an empty level in {','.join(bots)!r} (two commas "
                         "together, or one at an end)")
    for level in bots:
        if ":" in level:
            outside_bot(game, level, 0)  # (imported and built once here: ValueError)
        elif level not in known:
            raise ValueError(f"unknown bot level {level!r} for {game}; known: "
                             f"{', '.join(known)}, or a bot of your own as module:Class")
    options = typed_options(game, preset, options)
    if options:
        new_game(game, preset=preset, seats=players, seed=0, options=options)  # ValueError
    return preset, options


def typed_options(game: str, preset: str | None, options: dict[str, Any] | None
                  ) -> dict[str, Any]:
    """Options written on the command line (text) as the game's own choices are typed:
    ``--option match=3`` is the match choice ``"3"``, as ``GET /api/games``, rooms and
    records have it, and a turn clock of ``30`` a number. Text that is no choice stays
    as written, for the game to refuse by name. A house rule the room screen does not
    offer is read as JSON when it is a number or true/false (``wild4_restricted=false``,
    ``call_window=2.5``)."""
    specs = {o.name: o for o in game_definition(game).options_for(preset)}
    out: dict[str, Any] = {}
    for name, value in (options or {}).items():
        spec = specs.get(name)
        if spec is not None and isinstance(value, str):
            value = next((c for c in spec.choices if str(c) == value), value)
        elif isinstance(value, str):
            value = _scalar(value)
        out[name] = value
    return out


def _scalar(text: str) -> Any:
    """``text`` as the number or true/false it spells, else as it is."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, (bool, int, float)) else text


def seatings(bots: list[str], players: int) -> list[str]:
    """The levels that take turns at the table: fewer levels than seats are cycled to fill
    them (``medium,random`` at 4 seats: medium, random, medium, random); more take turns
    (``random,medium,hard`` at 2 seats: each game seats the next two, so that each level
    plays as many games as the others, from every seat)."""
    if len(bots) > players:
        return list(bots)
    return [bots[i % len(bots)] for i in range(players)]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (``wins`` out of ``n``)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100.0 * (len(ordered) - 1))))
    return ordered[index]


def play_game(
    preset: str,
    lineup: list[str],
    seed: int | str,
    *,
    game: str = "color-clash",
    bot_seed: str = "",
    bot_options: dict[str, dict[str, Any]] | None = None,
    times: dict[str, list[float]] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play one game; seat ``s`` is played by ``lineup[s]``. Returns the result and length.

    Each bot gets every event (the deal included) through ``observe`` and decides from
    ``view(seat)`` only. Decision times (seconds) are appended to ``times[level]``.
    """
    n = len(lineup)
    g = new_game(game, preset=preset, seats=n, seed=seed, options=options or None)
    bots = [
        _bot(game, level, f"{bot_seed}:{s}", (bot_options or {}).get(level, {}))
        for s, level in enumerate(lineup)
    ]
    # (observe is optional: a bot that keeps no memory may leave it out, docs/bots.md)
    observers = [bot.observe for bot in bots if callable(getattr(bot, "observe", None))]
    start = g.start_events
    for observe in observers:
        observe(start)
    actions = 0
    decisions = [0] * n
    clock = time.perf_counter
    while not g.over and actions < MAX_ACTIONS:
        seat = g.to_act[0]
        view = g.view(seat)
        t0 = clock()
        action = bots[seat].act(view)
        spent = clock() - t0
        if times is not None:
            times.setdefault(lineup[seat], []).append(spent)
        decisions[seat] += 1
        try:
            events = g.apply(seat, action)  # the game's own levels: a bug
        except IllegalAction as exc:
            raise BotRefused(f"the bot {lineup[seat]!r} at seat {seat} chose {action!r}, "
                             f"which the rules refuse: {exc}") from exc
        actions += 1
        for observe in observers:
            observe(events)
    result = g.result
    return {
        "finished": g.over,
        "winners": list(result["winners"]) if result else [],
        "scores": list(result["scores"]) if result else [0] * n,
        "actions": actions,
        "rounds": getattr(g, "round_no", 1),
        "decisions": decisions,
    }


def simulate(
    *,
    game: str = "color-clash",
    preset: str | None = None,
    players: int,
    games: int,
    bots: list[str],
    seed: int = 0,
    bot_options: dict[str, dict[str, Any]] | None = None,
    progress: Any = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run the tournament and return the report (a JSON-ready dict).

    ``progress`` is an optional callable taking the number of games finished so far.
    ``bot_options`` passes keyword arguments to a level (``{"hard": {"budget_ms": 50}}``);
    ``options`` are the game's rule options (``{"scoring": "grey"}`` in Coloretto).
    """
    preset, options = _check(game, preset, players, games, bots, options)
    lineup = seatings(bots, players)
    levels = list(dict.fromkeys(lineup))
    per: dict[str, dict[str, Any]] = {
        level: {"seats": lineup.count(level), "wins": 0, "shared": 0, "score_sum": 0,
                "seat_games": 0, "games": 0, "decisions": 0}
        for level in levels
    }
    times: dict[str, list[float]] = {}
    wins = draws = unfinished = 0
    total_actions = total_rounds = 0
    started = time.perf_counter()
    for gi in range(games):
        seating = [lineup[(s + gi) % len(lineup)] for s in range(players)]
        deal = gi // len(lineup)  # each deal is played once per rotation (duplicate format)
        out = play_game(preset, seating, f"{seed}:{deal}", game=game, bot_seed=f"{seed}:{gi}",
                        bot_options=bot_options, times=times, options=options)
        total_actions += out["actions"]
        total_rounds += out["rounds"]
        for level in set(seating):
            per[level]["games"] += 1
        for s, level in enumerate(seating):
            per[level]["score_sum"] += out["scores"][s]
            per[level]["seat_games"] += 1
            per[level]["decisions"] += out["decisions"][s]
        winners = out["winners"]
        if not out["finished"]:
            unfinished += 1
            draws += 1
        elif len(winners) == 1:
            wins += 1
            per[seating[winners[0]]]["wins"] += 1
        else:
            draws += 1
            for level in {seating[w] for w in winners}:
                per[level]["shared"] += 1
        if progress is not None:
            progress(gi + 1)
    elapsed = time.perf_counter() - started
    bots_out: dict[str, Any] = {}
    for level in levels:
        p = per[level]
        t = times.get(level, [])
        bots_out[level] = {
            "seats": p["seats"],
            "games": p["games"],
            "wins": p["wins"],
            "shared": p["shared"],
            "win_rate": p["wins"] / p["games"] if p["games"] else 0.0,
            "mean_score": p["score_sum"] / p["seat_games"] if p["seat_games"] else 0.0,
            "decisions": p["decisions"],
            "ms_per_decision": 1000.0 * statistics.fmean(t) if t else 0.0,
            "ms_median": 1000.0 * statistics.median(t) if t else 0.0,
            "ms_p99": 1000.0 * _percentile(t, 99) if t else 0.0,
            "ms_max": 1000.0 * max(t) if t else 0.0,
        }
    return {
        "game": game,
        "preset": preset,
        "players": players,
        "games": games,
        "seed": seed,
        "options": dict(options or {}),
        "lineup": lineup,
        "wins": wins,
        "draws": draws,
        "unfinished": unfinished,
        "mean_actions": total_actions / games,
        "mean_rounds": total_rounds / games,
        "seconds": elapsed,
        "bots": bots_out,
    }


def render_table(report: dict[str, Any]) -> Any:
    from rich.table import Table

    title = (f"{report['game']} {report['preset']}, {report['players']} players, {report['games']} games, "
             f"seed {report['seed']}\nmean game length {report['mean_actions']:.1f} turns "
             f"(actions), {report['mean_rounds']:.1f} rounds")
    table = Table(title=title)
    # levels taking turns (more levels than seats) each sit out some games: the column
    # says how many games each played instead of its seats at every table (80 columns
    # hold no more)
    rotating = any(b["games"] != report["games"] for b in report["bots"].values())
    for col in ("bot", "games" if rotating else "seats", "wins", "win %", "shared",
                "mean score", "ms/decision", "p99 ms"):
        table.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
    for level, b in report["bots"].items():
        table.add_row(level, str(b["games" if rotating else "seats"]), str(b["wins"]), f"{100 * b['win_rate']:.1f}",
                      str(b["shared"]), f"{b['mean_score']:.1f}",
                      f"{b['ms_per_decision']:.2f}", f"{b['ms_p99']:.2f}")
    table.caption = (f"wins {report['wins']} + draws {report['draws']} = games "
                     f"{report['games']}" + (f" ({report['unfinished']} stopped unfinished)"
                                             if report["unfinished"] else ""))
    return table


def run_simulation(
    game: str,
    preset: str | None,
    players: int,
    games: int,
    bots: list[str],
    seed: int,
    as_json: bool,
    options: dict[str, Any] | None = None,
    bot_options: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The ``colorclash simulate`` command: progress bar, then a table (or ``--json``)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    try:
        preset, options = _check(game, preset, players, games, bots, options)
    except ValueError as exc:
        import typer

        raise typer.BadParameter(str(exc)) from None
    # (the bar only on a terminal: off one, a cron job's log got an empty line a run)
    err = Console(stderr=True)
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                  transient=as_json, disable=not err.is_terminal) as bar:
        task = bar.add_task(f"{game} {preset}: {','.join(bots)}", total=games)
        try:
            report = simulate(game=game, preset=preset, players=players, games=games,
                              bots=bots, seed=seed,
                              progress=lambda done: bar.update(task, completed=done),
                              options=options, bot_options=bot_options)
        except BotRefused as exc:  # (a bot of one's own, as a line, not a traceback)
            import typer

            err.print(f"error: {exc}", markup=False, highlight=False)
            raise typer.Exit(1) from None
    if as_json:
        sys.stdout.write(json.dumps(report) + "\n")
    else:
        Console().print(render_table(report))
    return report
