"""Coloretto's computer players by level, weakest first (docs/coloretto.md)."""

from __future__ import annotations

from colorclash.bots.coloretto.hard import HardBot
from colorclash.bots.coloretto.players import EasyBot, MediumBot, RandomBot

LEVELS = {"random": RandomBot, "easy": EasyBot, "medium": MediumBot, "hard": HardBot}
