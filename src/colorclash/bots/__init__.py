"""Computer players (issue 4).

>>> from colorclash.bots import make_bot
>>> bot = make_bot("medium", seed=1)
>>> action = bot.act(game.view(seat), events)   # one of view["legal"]

A bot sees only what ``view(seat)`` shows it, plus the public events it was given.
"""

from __future__ import annotations

from colorclash.bots.base import Bot
from colorclash.bots.simple import EasyBot, RandomBot

LEVELS = ("random", "easy", "medium", "hard")
GAMES = ("color-clash",)


def _classes() -> dict[str, type[Bot]]:
    classes: dict[str, type[Bot]] = {"random": RandomBot, "easy": EasyBot}
    try:
        from colorclash.bots.medium import MediumBot

        classes["medium"] = MediumBot
    except ImportError:  # pragma: no cover - while the level is being written
        pass
    try:
        from colorclash.bots.hard import HardBot

        classes["hard"] = HardBot
    except ImportError:  # pragma: no cover
        pass
    return classes


def make_bot(level: str, *, game: str = "color-clash", seed: int | str | None = None,
             **kwargs) -> Bot:
    """A computer player of ``level`` (one of :data:`LEVELS`) for ``game``.

    ``seed`` makes the bot's choices reproducible. Extra keyword arguments go to the
    level's class (``hard`` takes ``budget_ms`` and ``rollouts``).
    """
    if game not in GAMES:
        raise ValueError(f"no computer player for game {game!r}; known: {', '.join(GAMES)}")
    classes = _classes()
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    if level not in classes:
        raise ValueError(f"bot level {level!r} is not available yet")
    return classes[level](game=game, seed=seed, **kwargs)


__all__ = ["Bot", "LEVELS", "make_bot"]
