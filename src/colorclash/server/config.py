"""Server settings: every timing and limit in one object, overridable by environment
variables (``COLORCLASH_*``) so operators can tune and tests can shrink them."""

from __future__ import annotations

import difflib
import ipaddress
import math
import os
import re
from dataclasses import dataclass, field, fields
from urllib.parse import urlsplit


class SettingsError(ValueError):
    """A ``COLORCLASH_*`` variable the server cannot use (the message names it)."""


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off", "")


def _number(name: str, raw: str, kind: type) -> int | float:
    """``raw`` as a number of ``kind`` that is finite and not negative, or SettingsError."""
    try:
        value = kind(raw.strip())
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise SettingsError(f"{name} must be {what}, not {raw!r}") from None
    if not math.isfinite(value) or value < 0:
        raise SettingsError(f"{name} must be a finite number of at least 0, not {raw!r}")
    return value


def _thresholds(name: str, raw: str) -> str:
    """Up to 3 whole numbers. Not empty (Python's own 700,10,10, with full collections of
    700 ms at 8,000 connections, say so: docs/benchmarks.md), and not a first one of 0,
    which turns the collector off: memory held in reference cycles would never be freed."""
    parts = [p.strip() for p in raw.strip().split(",")]
    if len(parts) > 3 or not all(p.isdigit() for p in parts):
        raise SettingsError(f"{name} must be up to 3 whole numbers separated by commas "
                            f"(for example 50000,50,100), not {raw!r}")
    if int(parts[0]) == 0:
        raise SettingsError(f"{name} must start with a number over 0 (0 turns the "
                            f"garbage collector off), not {raw!r}")
    return ",".join(parts)


@dataclass
class Settings:
    reconnect_grace: float = 90.0       # s away before a computer substitute plays the seat
    host_grace: float = 20.0            # s a host may be away between games before another person hosts
    away_turn_clock: float = 5.0        # s per turn for a person away who already let one run out
    default_turn_clock: float = 30.0    # s per turn for a game whose options have no clock
    call_window: float = 3.0            # s of the last-card call window
    drawn_choice: float = 6.0           # s for PLAY/KEEP of a drawn card
    next_round_delay: float = 8.0       # s between rounds of a multi-round match
    next_round_hold: float = 60.0       # s the pause lasts from a lone person's "wait"
    bot_delay: float = 1.0              # s before a computer player acts (0.6 s: a
    #                                     player could not follow three computers' moves)
    cluster: bool = True                # on a redis:// store, share rooms with other processes
    lease_ttl: float = 3.0              # s a process stays the owner of its rooms unheard (Redis)
    group_commit: bool = True           # batch store writes in a thread (server/writer.py)
    bot_workers: int = 1                # worker processes for searching bots (0: on the loop)
    clock_scale: float = 1.0            # multiplies the room's turn clock (tests: 0.01)
    quick_match_wait: float = 20.0      # s the queue waits for more than 2 people
    quick_match_ticket_ttl: float = 60.0  # s an unpolled, unconnected ticket stays queued
    quick_match_distinct_addresses: bool = True  # never two tickets of one address at a table
    quick_match_no_show: float = 20.0   # s before a computer plays a seat nobody ever opened
    gc_thresholds: str = "50000,50,100"  # the collector's thresholds (server/gctune.py)
    access_log: bool = False            # one line per HTTP request (uvicorn's), tokens masked
    slow_action_ms: float = 0.0         # log each action slower than this, split (0: off)
    summary_every: float = 300.0        # s between the log's summary lines (0: none)
    dev_pages: bool = False             # serve /dev.html, the fake screens for development
    ws_compression: bool = False        # per-message deflate: ~3x less traffic, more CPU and memory
    ws_ping: float = 10.0               # s between the server's pings; unanswered as long: gone
    max_frame: int = 8 * 1024           # bytes: larger frames get `too_large`
    hard_max_frame: int = 256 * 1024    # bytes: the WebSocket layer closes above this
    rate_per_s: float = 20.0            # messages per second per connection
    rate_burst: float = 40.0
    flood_limit: int = 40               # refused messages within flood_window -> close 4429
    flood_window: float = 5.0
    host_keys: list[str] = field(default_factory=list)  # operator-issued host keys
    allowed_origins: list[str] = field(default_factory=list)
    allowed_hosts: list[str] = field(default_factory=list)  # the site's names (none: any)
    public_url: str = ""                # base for invite links; default: from the request
    finished_room_ttl: float = 24 * 3600.0  # s a finished, empty room is kept
    practice_room_ttl: float = 3600.0   # s the same for Practice and Play Now (no one else's)
    lobby_room_ttl: float = 20 * 60.0   # s a room that never started is kept once nobody is in it
    # -- connections (server/guard.py) --
    header_timeout: float = 10.0        # s to send complete request headers, else 408
    max_connections: int = 10_000       # in all (capped below the process's file limit)
    max_pending: int = 1024             # connections still sending their request headers
    max_connections_per_address: int = 256
    max_pending_per_address: int = 8    # a newer one evicts the oldest
    trusted_proxies: list[str] = field(default_factory=list)  # their X-Forwarded-For is used
    # -- REST limits per client address (server/limits.py): burst, then per minute --
    limit_create_burst: int = 20        # rooms, practice, play now
    limit_create_per_min: float = 10.0
    limit_join_burst: int = 20
    limit_join_per_min: float = 20.0
    limit_lookup_burst: int = 60        # room look-ups by code (REST and WebSocket)
    limit_lookup_per_min: float = 60.0  # a look-up of a code that does not exist costs 5
    limit_queue_burst: int = 10         # Quick Match tickets
    limit_queue_per_min: float = 10.0
    limit_reconnect_burst: int = 20     # sockets opened on one seat (its own token)
    limit_reconnect_per_min: float = 20.0
    # -- changes each seat may make to its room (ready, settings, computer players,
    # removals): each one is stored and sent to every seat (Hub.handle) --
    limit_lobby_burst: int = 30         # (a host going through a select's choices with
    limit_lobby_per_min: float = 120.0  # the arrow keys changes the room at each one)

    # Short clocks a game asks for by kind (``game.timer()``), overridable here by name:
    # by game and kind (another game's "window" is its own: seam review).
    SHORT_CLOCKS = {("color-clash", "window"): "call_window",
                    ("color-clash", "drawn"): "drawn_choice"}

    def short_clock(self, game: str, kind: str, seconds: float) -> float:
        """The length of ``game``'s short clock ``kind`` (the game's, unless set here)."""
        name = self.SHORT_CLOCKS.get((game, kind))
        return float(getattr(self, name)) if name else seconds

    def away_policy(self) -> dict[str, float]:
        """What a player is told of a lost connection (``GET /api/games``' ``away``, the
        How to play pages' words): the seconds a seat waits for its player before a computer
        substitute plays it, and a turn's seconds for a player away who let one run out."""
        return {"grace": self.reconnect_grace, "turn_clock": self.away_turn_clock}

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """The settings, with every ``COLORCLASH_*`` variable set; a value that cannot be
        used raises :class:`SettingsError` naming the variable (``colorclash serve``
        prints that one line)."""
        s = cls()
        given: set[str] = set()
        for f in fields(cls):
            name = f"COLORCLASH_{f.name.upper()}"
            raw = os.environ.get(name)
            if raw is None:
                continue
            given.add(name)
            if f.name in ("host_keys", "allowed_origins", "allowed_hosts", "trusted_proxies"):
                setattr(s, f.name, [x.strip() for x in raw.split(",") if x.strip()])
            elif f.name == "public_url":
                s.public_url = raw.rstrip("/")
            elif f.name == "gc_thresholds":
                s.gc_thresholds = _thresholds(name, raw)
            elif isinstance(getattr(s, f.name), str):
                setattr(s, f.name, raw.strip())
            elif isinstance(getattr(s, f.name), bool):
                word = raw.strip().lower()
                if word not in _TRUE + _FALSE:
                    raise SettingsError(f"{name} must be 1/0, true/false, yes/no or on/off, "
                                        f"not {raw!r}")
                setattr(s, f.name, word in _TRUE)
            elif isinstance(getattr(s, f.name), int):
                setattr(s, f.name, _number(name, raw, int))
            else:
                setattr(s, f.name, _number(name, raw, float))
        s._check_env(given)
        for k, v in overrides.items():
            setattr(s, k, v)
        return s

    #: the longest pause before a computer acts (s): more is a units mistake
    BOT_DELAY_MAX = 60.0
    #: the fewest connections a process may be capped at (server/guard.py)
    MIN_CONNECTIONS = 16

    # Settings that must be more than 0 (0 would refuse everyone, or divide by it; a turn
    # clock of 0 ends every turn at once; a ticket kept 0 s leaves every queue at once).
    _POSITIVE = ("away_turn_clock", "default_turn_clock", "quick_match_ticket_ttl",
                 "quick_match_no_show", "lease_ttl", "clock_scale", "ws_ping", "max_frame", "hard_max_frame", "rate_per_s",
                 "rate_burst", "flood_limit", "flood_window", "max_connections",
                 "max_pending", "max_connections_per_address", "max_pending_per_address",
                 "limit_create_burst", "limit_create_per_min", "limit_join_burst",
                 "limit_join_per_min", "limit_lookup_burst", "limit_lookup_per_min",
                 "limit_queue_burst", "limit_queue_per_min", "limit_reconnect_burst",
                 "limit_reconnect_per_min", "limit_lobby_burst", "limit_lobby_per_min")

    def _check_env(self, given: set[str]) -> None:
        """What each value means together with the others (the values one by one are
        checked as they are read); only variables that are set are blamed."""
        for name in self._POSITIVE:
            var = f"COLORCLASH_{name.upper()}"
            if var in given and not getattr(self, name) > 0:
                raise SettingsError(f"{var} must be more than 0, not {os.environ[var]!r}")
            # a bucket that cannot hold one whole token refuses every message (0.5 made
            # every WebSocket message "rate_limited", a site nobody could play on)
            if var in given and name.endswith("burst") and getattr(self, name) < 1:
                raise SettingsError(f"{var} must be at least 1, not {os.environ[var]!r}")
        if {"COLORCLASH_MAX_FRAME", "COLORCLASH_HARD_MAX_FRAME"} & given \
                and self.max_frame > self.hard_max_frame:
            raise SettingsError(f"COLORCLASH_MAX_FRAME ({self.max_frame}) must not be more "
                                f"than COLORCLASH_HARD_MAX_FRAME ({self.hard_max_frame})")
        if "COLORCLASH_PUBLIC_URL" in given and self.public_url \
                and not re.fullmatch(r"https?://[^/\s]+", self.public_url):
            # (no path: the pages ask for /js/..., /api/... and /ws/... at the root, so
            # a site under https://example.org/cards/ would not work, its links neither)
            raise SettingsError("COLORCLASH_PUBLIC_URL must be an http:// or https:// address "
                                f"with no path (for example https://cards.example.org), not "
                                f"{os.environ['COLORCLASH_PUBLIC_URL']!r}")
        if "COLORCLASH_BOT_DELAY" in given and self.bot_delay > self.BOT_DELAY_MAX:
            # (1000, milliseconds meant, was taken: no computer moved before its clock ran
            # out, every computer turn a timeout: an operator review)
            raise SettingsError(f"COLORCLASH_BOT_DELAY is in seconds, from 0 to "
                                f"{self.BOT_DELAY_MAX:g}, not {os.environ['COLORCLASH_BOT_DELAY']!r}")
        if "COLORCLASH_MAX_CONNECTIONS" in given and self.max_connections < self.MIN_CONNECTIONS:
            # (5 was raised to 16 without a word: the guard keeps room for a page's own
            # requests beside its WebSocket)
            raise SettingsError(f"COLORCLASH_MAX_CONNECTIONS must be at least "
                                f"{self.MIN_CONNECTIONS}, not "
                                f"{os.environ['COLORCLASH_MAX_CONNECTIONS']!r}")
        if "COLORCLASH_LEASE_TTL" in given and self.lease_ttl < 0.5:
            # renewed every third of it over the network: shorter, a process would take
            # itself for cut off from Redis between its own beats
            raise SettingsError("COLORCLASH_LEASE_TTL must be at least 0.5 (seconds), not "
                                f"{os.environ['COLORCLASH_LEASE_TTL']!r}")
        if "COLORCLASH_SUMMARY_EVERY" in given and 0 < self.summary_every < 1:
            # 0.001 wrote 800 summary lines a second, each "0 action(s) in 0 s"
            raise SettingsError("COLORCLASH_SUMMARY_EVERY must be 0 (no summary) or at "
                                "least 1 (seconds), not "
                                f"{os.environ['COLORCLASH_SUMMARY_EVERY']!r}")
        if "COLORCLASH_ALLOWED_ORIGINS" in given:
            for origin in self.allowed_origins:
                if not re.fullmatch(r"https?://[^/\s]+", origin):
                    raise SettingsError(
                        "COLORCLASH_ALLOWED_ORIGINS must list origins such as "
                        f"https://friends.example.org (no path), not {origin!r}")
        if "COLORCLASH_ALLOWED_HOSTS" in given:
            given_names, self.allowed_hosts = self.allowed_hosts, []
            for name in given_names:
                plain = name.lower().removesuffix(".")  # (example.org. is example.org)
                if not re.fullmatch(r"\*|(\*\.)?[a-z0-9_-][a-z0-9_.-]*|\[[0-9a-f:.]+\]", plain):
                    raise SettingsError(
                        "COLORCLASH_ALLOWED_HOSTS must list host names without a port or "
                        "scheme (cards.example.org, *.example.org, localhost, 127.0.0.1, "
                        f"[::1]), not {name!r}")
                self.allowed_hosts.append(plain)
        if self.allowed_hosts and self.public_url:
            from colorclash.server.web_guard import host_allowed, host_name

            public = urlsplit(self.public_url).netloc
            if not host_allowed(public, self.allowed_hosts):
                # its own invite links would be refused with bad_host
                raise SettingsError(
                    f"COLORCLASH_ALLOWED_HOSTS must name the host of COLORCLASH_PUBLIC_URL "
                    f"({host_name(public)!r}), or the site's own links are refused")
        if "COLORCLASH_TRUSTED_PROXIES" in given:
            for proxy in self.trusted_proxies:
                try:
                    if proxy != "*":
                        ipaddress.ip_network(proxy, strict=False)
                except ValueError:
                    raise SettingsError(
                        "COLORCLASH_TRUSTED_PROXIES must list IP addresses or networks "
                        f"(127.0.0.1, 10.0.0.0/8, ::1) or *, not {proxy!r}") from None

    @classmethod
    def unknown_env(cls) -> list[str]:
        """A warning for each ``COLORCLASH_*`` variable that is no setting (a typo would
        otherwise be ignored without a word), or that is one no hosted game uses."""
        known = {f"COLORCLASH_{f.name.upper()}" for f in fields(cls)} | COMMAND_LINE_ENV
        out = []
        for var in sorted(os.environ):
            if var.startswith("COLORCLASH_") and var not in known:
                near = difflib.get_close_matches(var[len("COLORCLASH_"):], [
                    k[len("COLORCLASH_"):] for k in known], n=1, cutoff=0.75)
                hint = f" (did you mean COLORCLASH_{near[0]}?)" if near else ""
                out.append(f"warning: {var} is not a setting and is ignored{hint}")
        if "COLORCLASH_DEFAULT_TURN_CLOCK" in os.environ:
            from colorclash.server.games import clockless

            if not clockless():
                out.append("warning: COLORCLASH_DEFAULT_TURN_CLOCK changes nothing here: "
                           "every game this site hosts has a turn clock of its own (a "
                           "room's clock option, the preset's default unless the host "
                           "chose one)")
        return out

    @staticmethod
    def store_env_warnings(redis: bool) -> list[str]:
        """A warning for each setting of several processes on Redis given to a server on
        SQLite (where it changes nothing, which nothing said)."""
        if redis:
            return []
        return [f"warning: {var} changes nothing on a SQLite store (it is a setting of "
                "several processes on Redis: docs/deployment.md)"
                for var in REDIS_ONLY_ENV if var in os.environ]


#: the settings of processes sharing a Redis store
REDIS_ONLY_ENV = ("COLORCLASH_CLUSTER", "COLORCLASH_LEASE_TTL")

#: ``colorclash serve``'s options, which may come from the environment too (a Redis
#: password in ``--store`` is read by every user of the machine in the process list)
COMMAND_LINE_ENV = frozenset({"COLORCLASH_HOST", "COLORCLASH_PORT", "COLORCLASH_STORE"})

__all__ = ["COMMAND_LINE_ENV", "Settings", "SettingsError"]
