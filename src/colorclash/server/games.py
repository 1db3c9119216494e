"""The games the site hosts, as the rooms see them: every choice a room offers comes from
the engine's registry (:data:`colorclash.engine.GAMES`) and the bots' (levels per game).
Nothing here names a game; a new game appears here by being registered.

A room's ``settings`` are ``{"game", "preset", "seats", <each option of the preset>}``,
flat, so Color Clash rooms keep protocol v1's ``{"preset", "seats", "clock", "match"}``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from colorclash.bots import default_level, levels
from colorclash.engine import GAMES, GameDefinition
from colorclash.engine.base import OptionSpec, OptionTypeError
from colorclash.server.protocol import ProtocolError
from colorclash.store import DamagedRoom

if TYPE_CHECKING:
    from colorclash.server.model import Room

DEFAULT_GAME = "color-clash"
GUEST_MAX_SEATS = 4  # a room opened without an operator host key


def definition(game: str | None) -> GameDefinition:
    """The hosted game ``game`` (None: the default one; an empty name is no game)."""
    key = DEFAULT_GAME if game is None else game
    if key not in GAMES:
        raise ProtocolError("bad_settings", f"unknown game {key!r}; this site hosts "
                            f"{', '.join(GAMES)}", status=422, ref="settings")
    return GAMES[key]


def clockless() -> list[str]:
    """The hosted ``game/preset`` pairs whose rooms have no ``clock`` option: those whose
    turns ``COLORCLASH_DEFAULT_TURN_CLOCK`` times (every other room has a clock of its
    own, the preset's default unless its host chose one)."""
    return [f"{key}/{preset}" for key, d in GAMES.items() for preset in d.presets
            if not any(o.name == "clock" for o in d.options_for(preset))]


def option_names(settings: dict[str, Any]) -> list[str]:
    d = definition(settings["game"])
    return [o.name for o in d.options_for(settings["preset"])]


def engine_options(settings: dict[str, Any]) -> dict[str, Any]:
    """The engine ``options`` of a room: its value of each option of the preset."""
    return {name: settings[name] for name in option_names(settings) if name in settings}


def match_game(room: Room, seed: str | None, factory: Callable[..., Any] | None = None) -> Any:
    """A match of ``room``'s game and settings dealt from ``seed``, by the engine or by
    ``factory`` (a test's rigged deal: ``Hub.game_factory``)."""
    kwargs = dict(preset=room.settings["preset"], seats=room.settings["seats"], seed=seed,
                  options=engine_options(room.settings) or None)
    if factory is not None:
        return factory(**kwargs)
    from colorclash.engine import new_game

    return new_game(room.game_key, **kwargs)


def replay(room: Room, actions: Iterable[Any], factory: Callable[..., Any] | None = None,
           on_events: Callable[[int, list[Any]], None] | None = None) -> Any:
    """The engine game of ``room``'s current match, rebuilt from its seed and stored log
    (dealt by ``match_game``, ``factory`` passed on; ``on_events(seq, events)`` is told
    each action's events, and the deal's own as seq 0). The server restores rooms so, and
    ``colorclash rooms`` and ``copy-store`` check a store so: a log the rules refuse
    (edited by hand, or stored under other rules) is the store's refusal naming the room
    and the action (``DamagedRoom``). The server said it in a traceback, while ``rooms``
    listed the room as playing and ``copy-store`` said it was checked."""
    where = f"room {room.code}: its match {room.match_no}"
    d = GAMES.get(room.game_key)
    if d is not None and (room.rules_version or 1) > d.rules_version:
        # (a downgrade: the log replayed under the older rules, or not, and the match went
        # on under them, marked with this version's number: an upgrade review)
        raise DamagedRoom(f"{where} was written under {d.name} rules version "
                          f"{room.rules_version}, newer than this version's "
                          f"({d.rules_version}): start the newer version again "
                          "(docs/deployment.md, Upgrading)")
    try:
        game = match_game(room, room.seed, factory)
    except (TypeError, ValueError, KeyError) as exc:
        raise DamagedRoom(f"{where} cannot be dealt again ({exc})") from None
    if on_events is not None:
        on_events(0, list(getattr(game, "start_events", None) or []))
    seq = 0
    try:
        for seq, (seat, action) in enumerate(actions, 1):
            events = game.apply(seat, action)
            if on_events is not None and events:
                on_events(seq, list(events))
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        # (IllegalAction is a ValueError)
        raise DamagedRoom(f"{where} does not replay: its action {seq} is refused by the "
                          f"rules ({exc}){rules_changed(room)}") from None
    return game


def rules_changed(room: Room) -> str:
    """Why a stored log may not replay, when the rules changed since it was written: the
    versions (``GameDefinition.rules_version``; a room stored before rooms carried one
    is of version 1), or nothing."""
    d = GAMES.get(room.game_key)
    stored = room.rules_version or 1
    if d is None or stored == d.rules_version:
        return ""
    return (f"; it was written under {d.name} rules version {stored}, and this version "
            f"plays version {d.rules_version} (docs/engine.md, Rule changes)")


def count_range(low: int, high: int, noun: str) -> str:
    """"2 to 6 seats", or "2 seats" when both bounds are one number ("1 seat")."""
    if low == high:
        return f"{low} {noun}" + ("" if low == 1 else "s")
    return f"{low} to {high} {noun}s"


def max_seats(game: str | None, guest: bool) -> int:
    """The most seats a room of ``game`` may have: the game's own, or a guest's (spec 9:
    a room opened without a host key holds at most ``GUEST_MAX_SEATS``)."""
    most = definition(game).max_seats
    return min(most, GUEST_MAX_SEATS) if guest else most


def check_settings(game: str | None, preset: str | None, seats: int | None,
                   options: dict[str, Any], guest: bool) -> dict[str, Any]:
    """A room's settings, checked against the game's definition (``bad_settings``,
    ``guest_limit``). Options not given take the preset's defaults."""
    d = definition(game)
    preset = d.default_preset if preset is None else preset  # "" is no preset
    if preset not in d.presets:
        raise ProtocolError("bad_settings", f"unknown preset {preset!r} for {d.name}; "
                            f"available: {', '.join(d.presets)}", status=422)
    seats = d.default_seats if seats is None else seats
    if not isinstance(seats, int) or isinstance(seats, bool) \
            or not d.min_seats <= seats <= d.max_seats:
        raise ProtocolError("bad_settings", f"{d.name} is played by "
                            f"{count_range(d.min_seats, d.max_seats, 'seat')}", status=422)
    if guest and seats > GUEST_MAX_SEATS:
        raise ProtocolError("guest_limit", f"a room opened without a host key holds at most "
                            f"{GUEST_MAX_SEATS} seats", status=422)
    specs = {o.name: o for o in d.options_for(preset)}
    chosen = {k: as_choice(specs.get(k), v) for k, v in options.items() if v is not None}
    try:
        checked = d.check_options(preset, chosen)
    except OptionTypeError as exc:  # (a wrong type, as anywhere else in a message)
        raise ProtocolError("bad_message", str(exc), status=422) from None
    except ValueError as exc:
        raise ProtocolError("bad_settings", str(exc), status=422) from None
    return {"game": d.key, "preset": preset, "seats": seats, **checked}


def as_choice(spec: OptionSpec | None, value: Any) -> Any:
    """``value`` as the option ``spec`` holds it: a whole number given for an option whose
    choices are numbers written as text names the choice of that text (Color Clash's
    match lengths, ``3`` for ``"3"``, as protocol v1 took them); anything else as it is,
    for the game to check (a number for Coloretto's scoring side is of the wrong kind)."""
    if (spec is not None and isinstance(value, int) and not isinstance(value, bool)
            and spec.choices
            and all(isinstance(c, str) and c.isdigit() for c in spec.choices)):
        return str(value)
    return value


def check_level(game: str, level: str) -> str:
    names = levels(game)
    if level not in names:
        raise ProtocolError("bad_settings", f"unknown computer level {level!r}; "
                            f"choose one of {', '.join(names)}", status=422)
    return level


@cache
def games_public() -> dict[str, Any]:
    """``GET /api/games``: every game with its seats, presets, options and bot levels."""
    out = []
    for key, d in GAMES.items():
        entry = d.public()
        entry["bot_levels"] = levels(key)
        entry["default_level"] = default_level(key)
        entry["quick_match_seats"] = d.table_for_quick_match()
        entry["guest_max_seats"] = max_seats(key, guest=True)
        out.append(entry)
    return {"games": out, "default": DEFAULT_GAME}


@cache
def presets_public() -> dict[str, Any]:
    """``GET /api/presets`` of protocol v1: the default game's presets with their clock and
    match-length choices (``GET /api/games`` has every game)."""
    d = definition(DEFAULT_GAME)
    presets = []
    for name, specs in d.presets.items():
        by_name = {o.name: o for o in specs}
        entry: dict[str, Any] = {"name": name}
        for option in ("clock", "match"):
            if option in by_name:
                entry[f"{option}_choices"] = list(by_name[option].choices)
                entry[f"{option}_default"] = by_name[option].default
        entry.update(d.preset_info.get(name, {}))
        presets.append(entry)
    return {
        "presets": presets,
        "default": d.default_preset,
        "seats": {"min": d.min_seats, "max": d.max_seats, "default": d.default_seats,
                  "guest_max": GUEST_MAX_SEATS},
        "bot_levels": levels(DEFAULT_GAME),
    }
