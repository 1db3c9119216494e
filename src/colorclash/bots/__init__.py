"""Computer players, per game, by level (issues 4 and 15).

>>> from colorclash.bots import make_bot
>>> bot = make_bot("coloretto", "medium", seed=1)   # or make_bot("medium") for Color Clash
>>> action = bot.act(game.view(seat), events)        # one of view["legal"]

A bot sees only what ``view(seat)`` shows it, plus the public events it was given. Each
game's players live in their own module or package, listed in :data:`_BOT_MODULES`; that
module has ``LEVELS``: an ordered dict of level name -> class (weakest first).
"""

from __future__ import annotations

import importlib
from functools import cache

from colorclash.bots.base import Bot

#: game key -> module whose ``LEVELS`` maps level names to bot classes
_BOT_MODULES = {
    "color-clash": "colorclash.bots.color_clash_levels",
    "coloretto": "colorclash.bots.coloretto",
    "rainbow": "colorclash.bots.rainbow",
}

#: Color Clash's levels (kept for existing callers; other games: :func:`levels`)
LEVELS = ("random", "easy", "medium", "hard")
GAMES = tuple(_BOT_MODULES)


@cache
def _levels(game: str) -> dict[str, type[Bot]]:
    if game not in _BOT_MODULES:
        raise ValueError(f"no computer player for game {game!r}; known: {', '.join(GAMES)}")
    return dict(importlib.import_module(_BOT_MODULES[game]).LEVELS)


def levels(game: str = "color-clash") -> list[str]:
    """The levels of ``game``'s computer players, weakest first."""
    return list(_levels(game))


def default_level(game: str = "color-clash") -> str:
    """The level of Play Now's computer players and of substitutes: ``easy`` where the
    game has it, else the one in the middle."""
    names = levels(game)
    return "easy" if "easy" in names else names[len(names) // 2]


def make_bot(game_or_level: str, level: str | None = None, *, game: str | None = None,
             seed: int | str | None = None, **kwargs) -> Bot:
    """A computer player: ``make_bot(game, level)``, or ``make_bot(level, game=...)``
    (the game defaults to Color Clash).

    ``seed`` makes the bot's choices reproducible. Extra keyword arguments go to the
    level's class (Color Clash's ``hard`` takes ``budget_ms`` and ``rollouts``).
    """
    if level is None:
        level, game = game_or_level, game or "color-clash"
    else:
        if game is not None and game != game_or_level:
            raise ValueError("give the game once")
        game = game_or_level
    classes = _levels(game)
    if level not in classes:
        raise ValueError(f"unknown bot level {level!r} for {game}; known: "
                         f"{', '.join(classes)}")
    return classes[level](game=game, seed=seed, **kwargs)


__all__ = ["Bot", "GAMES", "LEVELS", "default_level", "levels", "make_bot"]
