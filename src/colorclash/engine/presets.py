"""Rule options and presets of Color Clash (spec sections 3 and 4), as data.

A preset is a named set of option values. The engine reads options, never preset names,
so a house rule is one more option. ``new_game(..., options={...})`` overrides options,
checked against :data:`OPTION_CHOICES` (the room screen offers the clock and the match
length; everything else is for tests and house rules).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

TABLE_CLOCKS = (15, 20, 30, 45, 60, 600)
CLASSIC_CLOCKS = (30, 45, 60, 90)


@dataclass(frozen=True, slots=True)
class Options:
    deck: str = "standard"  # standard | classic-table | siege | day-night
    hand_size: int = 7
    first_card: str = "actions"  # actions (5.2) | number
    first_player: str = "rotate"  # rotate | random
    wild4_restricted: bool = True  # W+4 only without a card of the active colour
    stacking: str = "none"  # none | classic | ranked | same
    call: str = "manual"  # manual (call + catch) | auto | none (ONE CARD! banner only)
    last_card_effect: bool = True  # the effect of a winning card still applies
    play_on: bool = True  # after the first player goes out, play on for places
    scoring: str = "winner"  # winner (takes the others' hands) | table (all minus own)
    rounds: int = 1  # rounds in the match; 0 = until someone reaches `target`
    target: int = 500  # points that end a match when rounds == 0
    ties_share: bool = True  # equal match totals share the win
    match_choices: tuple[str, ...] = ("1", "3", "5", "500")
    clock: int = 30  # seconds per turn (server-side)
    clock_choices: tuple[int, ...] = CLASSIC_CLOCKS
    timeout_policy: str = "draw"  # draw (draw one, turn ends) | bot (a fixed policy plays)
    drawn_timeout: str = "keep"  # keep | play: what the 6 s drawn-card timeout does
    call_window: float = 3.0  # seconds of the last-card window (server-side)
    drawn_choice: float = 6.0  # seconds of the drawn-card choice (server-side)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["match_choices"] = list(self.match_choices)
        data["clock_choices"] = list(self.clock_choices)
        return data

    @property
    def match(self) -> str:
        """The match length as the room screen names it: "1", "3", "5" or "500"."""
        return str(self.target) if self.rounds == 0 else str(self.rounds)


_TABLE = dict(
    first_card="number",
    first_player="random",
    wild4_restricted=False,
    call="none",
    last_card_effect=False,
    play_on=False,
    scoring="table",
    rounds=1,
    ties_share=False,
    match_choices=("1",),
    clock=30,
    clock_choices=TABLE_CLOCKS,
    timeout_policy="bot",
    drawn_timeout="play",
)

PRESETS: dict[str, Options] = {
    "standard": Options(),
    "family": Options(
        first_card="number", call="auto", rounds=3, match_choices=("3", "5"), clock=60
    ),
    "classic-table": Options(deck="classic-table", stacking="classic", **_TABLE),
    "siege": Options(deck="siege", stacking="ranked", **_TABLE),
    "day-night": Options(deck="day-night", stacking="same", **_TABLE),
}

OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "deck": ("standard", "classic-table", "siege", "day-night"),
    "first_card": ("actions", "number"),
    "first_player": ("rotate", "random"),
    "stacking": ("none", "classic", "ranked", "same"),
    "call": ("manual", "auto", "none"),
    "scoring": ("winner", "table"),
    "timeout_policy": ("draw", "bot"),
    "drawn_timeout": ("keep", "play"),
}


_OPTIONS_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Options] = {}


def make_options(preset: str, overrides: dict[str, Any] | None = None) -> Options:
    """The options of ``preset`` with ``overrides`` applied and checked (memoized: options
    are frozen, and a tournament makes the same ones thousands of times)."""
    try:
        key = (preset, tuple(sorted(overrides.items())) if overrides else ())
        cached = _OPTIONS_CACHE.get(key)
    except TypeError:  # unhashable values: checked below and not cached
        key, cached = None, None
    if cached is not None:
        return cached
    options = _make_options(preset, overrides)
    if key is not None and len(_OPTIONS_CACHE) < 1024:
        _OPTIONS_CACHE[key] = options
    return options


def _make_options(preset: str, overrides: dict[str, Any] | None) -> Options:
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
    options = PRESETS[preset]
    if not overrides:
        return options
    overrides = dict(overrides)
    if "match" in overrides:  # the room screen's name for rounds/target
        match = str(overrides.pop("match"))
        if match not in options.match_choices:
            raise ValueError(
                f"match length {match!r} is not offered by {preset}: "
                f"{', '.join(options.match_choices)}"
            )
        if match == "500":
            overrides.update(rounds=0, target=500)
        else:
            overrides["rounds"] = int(match)
    fields = options.__dataclass_fields__
    for key, value in overrides.items():
        if key not in fields:
            raise ValueError(f"unknown option {key!r}")
        overrides[key] = _checked(key, value)
    options = replace(options, **overrides)
    if not _is_int(options.clock, 1) or options.clock not in options.clock_choices:
        raise ValueError(
            f"turn clock {options.clock!r} is not offered by {preset}: "
            f"{', '.join(map(str, options.clock_choices))} (seconds)"
        )
    return options


_YES_NO = ("wild4_restricted", "last_card_effect", "play_on", "ties_share")
_SECONDS = ("call_window", "drawn_choice")


def _checked(key: str, value: Any) -> Any:
    """One option's value as the engine reads it, or ValueError saying what it takes (a
    yes/no option given "no" was read as true: any non-empty text is)."""
    if key in OPTION_CHOICES and value not in OPTION_CHOICES[key]:
        raise ValueError(f"option {key} must be one of "
                         f"{', '.join(map(str, OPTION_CHOICES[key]))}, not {value!r}")
    if key in _YES_NO and not isinstance(value, bool):
        raise ValueError(f"option {key} must be true or false, not {value!r}")
    if key in ("rounds", "hand_size", "target") and not _is_int(value, 0):
        raise ValueError(f"option {key} must be a non-negative integer")
    if key == "hand_size" and not 1 <= value <= 15:
        raise ValueError("option hand_size must be between 1 and 15")
    if key == "target" and value < 1:
        raise ValueError("option target must be at least 1 point")
    if key in _SECONDS and not (
        isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 600
    ):
        raise ValueError(f"option {key} must be a number of seconds above 0, at most 600")
    if key == "clock_choices":
        if not isinstance(value, (list, tuple)) or not value or not all(
            _is_int(v, 1) for v in value
        ):
            raise ValueError("option clock_choices must list whole numbers of seconds")
        return tuple(value)
    if key == "match_choices":
        if not isinstance(value, (list, tuple)) or not value or not all(
            isinstance(v, str) and v.isdecimal() and v.isascii() and int(v) >= 1 for v in value
        ):
            raise ValueError('option match_choices must list match lengths such as "3" or "500"')
        return tuple(value)
    return value


def _is_int(value: Any, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least
