"""Color Clash's computer players by level, weakest first (see docs/bots.md)."""

from __future__ import annotations

from colorclash.bots.hard import HardBot
from colorclash.bots.medium import MediumBot
from colorclash.bots.simple import EasyBot, RandomBot

LEVELS = {"random": RandomBot, "easy": EasyBot, "medium": MediumBot, "hard": HardBot}
