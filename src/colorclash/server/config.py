"""Server settings: every timing and limit in one object, overridable by environment
variables (``COLORCLASH_*``) so operators can tune and tests can shrink them."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields


def _env(name: str, default: str) -> str:
    return os.environ.get(f"COLORCLASH_{name}", default)


@dataclass
class Settings:
    reconnect_grace: float = 90.0       # s away before a computer substitute plays the seat
    call_window: float = 3.0            # s of the last-card call window
    drawn_choice: float = 6.0           # s for PLAY/KEEP of a drawn card
    next_round_delay: float = 8.0       # s between rounds of a multi-round match
    bot_delay: float = 0.6              # s before a computer player acts
    clock_scale: float = 1.0            # multiplies the room's turn clock (tests: 0.01)
    quick_match_wait: float = 20.0      # s the queue waits for more than 2 people
    quick_match_ticket_ttl: float = 60.0  # s an unpolled, unconnected ticket stays queued
    max_frame: int = 8 * 1024           # bytes: larger frames get `too_large`
    hard_max_frame: int = 256 * 1024    # bytes: the WebSocket layer closes above this
    rate_per_s: float = 20.0            # messages per second per connection
    rate_burst: float = 40.0
    flood_limit: int = 200              # refused messages within flood_window -> close 4429
    flood_window: float = 10.0
    host_keys: list[str] = field(default_factory=list)  # operator-issued host keys
    allowed_origins: list[str] = field(default_factory=list)
    public_url: str = ""                # base for invite links; default: from the request
    finished_room_ttl: float = 24 * 3600.0  # s a finished, empty room is kept

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        s = cls()
        for f in fields(cls):
            raw = os.environ.get(f"COLORCLASH_{f.name.upper()}")
            if raw is None:
                continue
            if f.name in ("host_keys", "allowed_origins"):
                setattr(s, f.name, [x.strip() for x in raw.split(",") if x.strip()])
            elif f.name == "public_url":
                s.public_url = raw.rstrip("/")
            elif isinstance(getattr(s, f.name), int):
                setattr(s, f.name, int(raw))
            else:
                setattr(s, f.name, float(raw))
        for k, v in overrides.items():
            setattr(s, k, v)
        return s


__all__ = ["Settings"]
