"""The rules engine: pure, deterministic game state machines (contract.md section 3).

>>> from colorclash.engine import new_game
>>> g = new_game("color-clash", preset="classic-table", seats=3, seed=7)
>>> seat = g.to_act[0]
>>> events = g.apply(seat, g.legal_actions(seat)[0])

:data:`GAMES` is the registry of the games the site hosts: key -> :class:`GameDefinition`
(seat range, presets, the options a host may choose, how to build one). A game is one
module of this package with a ``DEFINITION``; adding a game adds its module name to
``_GAME_MODULES`` (docs/adding-a-game.md).
"""

from __future__ import annotations

import importlib
from typing import Any

from colorclash.engine.base import (
    Action,
    Event,
    Game,
    GameDefinition,
    IllegalAction,
    OptionSpec,
    SeededRandom,
    secure_seed,
)
from colorclash.engine.color_clash import ColorClash

_GAME_MODULES = ("color_clash", "coloretto", "rainbow")


def _load_games() -> dict[str, GameDefinition]:
    games: dict[str, GameDefinition] = {}
    for name in _GAME_MODULES:
        definition = importlib.import_module(f"colorclash.engine.{name}").DEFINITION
        games[definition.key] = definition
    return games


#: key -> definition, in the order the site lists them.
GAMES: dict[str, GameDefinition] = _load_games()


def game_definition(game: str) -> GameDefinition:
    """The definition of ``game`` (ValueError naming the known games otherwise)."""
    try:
        return GAMES[game]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {game!r}; known: {', '.join(GAMES)}") from None


def new_game(
    game: str,
    *,
    preset: str | None = None,
    seats: int,
    seed: int | str | bytes | None = None,
    setup: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> Game:
    """Start a game. ``seed=None`` draws a secure seed (kept on the game as ``g.seed``)."""
    definition = game_definition(game)
    if seed is None and setup is None:
        seed = secure_seed()
    return definition.make(preset=preset, seats=seats, seed=seed, setup=setup,
                           options=options)


def replay(
    game: str,
    *,
    actions: list[tuple[int, Action]],
    **kwargs: Any,
) -> Game:
    """Rebuild a game from its start arguments and its action log."""
    g = new_game(game, **kwargs)
    for seat, action in actions:
        g.apply(seat, action)
    return g


__all__ = [
    "Action",
    "ColorClash",
    "Event",
    "GAMES",
    "Game",
    "GameDefinition",
    "IllegalAction",
    "OptionSpec",
    "SeededRandom",
    "game_definition",
    "new_game",
    "replay",
    "secure_seed",
]
