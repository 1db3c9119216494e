"""Coloretto's computer players by level, weakest first (docs/coloretto.md)."""

from __future__ import annotations

from colorclash.bots.coloretto.hard import HardBot
from colorclash.bots.coloretto.players import MediumBot, RandomBot

LEVELS = {"random": RandomBot, "medium": MediumBot, "hard": HardBot}
