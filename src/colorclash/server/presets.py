"""What the room screen offers per preset: clock choices, match lengths, timeout policy.

The values mirror spec section 4. When the engine knows a preset it is asked (its
``view(None)["options"]``) so the two never drift; this table is the fallback and the
source of the match-length choices, which the server maps to engine options.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

DEFAULT_PRESET = "classic-table"
TABLE_CLOCKS = [15, 20, 30, 45, 60, 600]

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {"clock_choices": [30, 45, 60, 90], "clock_default": 30,
                 "match_choices": ["1", "3", "5", "500"], "match_default": "1",
                 "timeout_policy": "draw"},
    "family": {"clock_choices": [30, 45, 60, 90], "clock_default": 60,
               "match_choices": ["3", "5"], "match_default": "3", "timeout_policy": "draw"},
    "classic-table": {"clock_choices": TABLE_CLOCKS, "clock_default": 30,
                      "match_choices": ["1"], "match_default": "1", "timeout_policy": "bot"},
    "siege": {"clock_choices": TABLE_CLOCKS, "clock_default": 30,
              "match_choices": ["1"], "match_default": "1", "timeout_policy": "bot"},
    "day-night": {"clock_choices": TABLE_CLOCKS, "clock_default": 30,
                  "match_choices": ["1"], "match_default": "1", "timeout_policy": "bot"},
}


def engine_options(preset: str, match: str, clock: int | None = None) -> dict[str, Any]:
    """Engine ``options`` for the room's match length ("1", "3", "5" rounds, "500" points)
    and turn clock (the engine checks both against the preset's choices)."""
    options: dict[str, Any] = {"match": str(match)}
    if clock is not None:
        options["clock"] = int(clock)
    return options


def _engine_supports(preset: str) -> dict[str, Any] | None:
    try:
        from colorclash.engine import new_game

        g = new_game("color-clash", preset=preset, seats=2, seed=0)
        view = g.view(None)
        return dict(view.get("options") or {})
    except Exception:  # noqa: BLE001 - the engine may not know this preset (yet)
        return None


@lru_cache(maxsize=1)
def available_presets() -> dict[str, dict[str, Any]]:
    """Presets the installed engine can deal, with their room-screen choices."""
    out: dict[str, dict[str, Any]] = {}
    for name, info in PRESETS.items():
        opts = _engine_supports(name)
        if opts is None:
            continue
        merged = dict(info)
        if isinstance(opts.get("clock_choices"), list) and opts["clock_choices"]:
            merged["clock_choices"] = [int(x) for x in opts["clock_choices"]]
        if isinstance(opts.get("clock_default"), int | float):
            merged["clock_default"] = int(opts["clock_default"])
        if isinstance(opts.get("match_choices"), list) and opts["match_choices"]:
            merged["match_choices"] = [str(x) for x in opts["match_choices"]]
            if merged["match_default"] not in merged["match_choices"]:
                merged["match_default"] = merged["match_choices"][0]
        if isinstance(opts.get("timeout_policy"), str):
            merged["timeout_policy"] = opts["timeout_policy"]
        out[name] = merged
    return out


def preset_info(name: str) -> dict[str, Any] | None:
    return available_presets().get(name)


def bot_levels() -> list[str]:
    try:
        import colorclash.bots as bots

        levels = getattr(bots, "LEVELS", None)
        if levels:
            return [str(x) for x in levels]
    except Exception:  # noqa: BLE001
        pass
    return ["random", "easy"]
