"""What the room screen offers per preset: clock choices, match lengths, timeout policy.

Everything here is read from the engine's presets (``colorclash.engine.presets``), the one
place where rules and their options live; this module only shapes them for the room
screen and maps the room's choices back to engine options.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from colorclash.bots import LEVELS
from colorclash.engine.presets import PRESETS

DEFAULT_PRESET = "classic-table"


def engine_options(preset: str, match: str, clock: int | None = None) -> dict[str, Any]:
    """Engine ``options`` for the room's match length ("1", "3", "5" rounds, "500" points)
    and turn clock (the engine checks both against the preset's choices)."""
    options: dict[str, Any] = {"match": str(match)}
    if clock is not None:
        options["clock"] = int(clock)
    return options


@lru_cache(maxsize=1)
def available_presets() -> dict[str, dict[str, Any]]:
    """Every preset with its room-screen choices and defaults."""
    return {
        name: {
            "clock_choices": list(o.clock_choices),
            "clock_default": o.clock,
            "match_choices": list(o.match_choices),
            "match_default": o.match,
            "timeout_policy": o.timeout_policy,
        }
        for name, o in PRESETS.items()
    }


def preset_info(name: str) -> dict[str, Any] | None:
    return available_presets().get(name)


def bot_levels() -> list[str]:
    return list(LEVELS)
