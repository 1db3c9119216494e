"""Rainbow's computer players, weakest first (docs/rainbow.md, "Computer players")."""

from __future__ import annotations

from colorclash.bots.rainbow.hard import HardBot
from colorclash.bots.rainbow.simple import EasyBot, MediumBot, RandomBot

LEVELS = {"random": RandomBot, "easy": EasyBot, "medium": MediumBot, "hard": HardBot}
