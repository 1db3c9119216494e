"""The rules engine: pure, deterministic game state machines (contract.md section 3).

>>> from colorclash.engine import new_game
>>> g = new_game("color-clash", preset="classic-table", seats=3, seed=7)
>>> seat = g.to_act[0]
>>> events = g.apply(seat, g.legal_actions(seat)[0])
"""

from __future__ import annotations

from typing import Any

from colorclash.engine.base import Action, Event, Game, IllegalAction, SeededRandom, secure_seed
from colorclash.engine.color_clash import ColorClash

GAMES = ("color-clash", "coloretto", "rainbow")


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
    if seed is None and setup is None:
        seed = secure_seed()
    if game == "color-clash":
        return ColorClash(preset=preset or "standard", seats=seats, seed=seed, setup=setup,
                          options=options)
    raise ValueError(f"unknown game {game!r}; known: {', '.join(GAMES)}")


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
    "Event",
    "GAMES",
    "Game",
    "IllegalAction",
    "SeededRandom",
    "new_game",
    "replay",
    "secure_seed",
]
