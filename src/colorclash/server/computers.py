"""The computer players of each room: seated bots, substitutes for absent people, and the
computer that plays an absent seat's turn when its clock runs out (in games without a
timeout rule of their own).

A computer player sees exactly what ``view(seat)`` shows that seat, plus the public events
since its last move, like any player; it acts ``bot_delay`` seconds after its turn comes.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

from colorclash.server import games
from colorclash.server.model import Room
from colorclash.server.protocol import ProtocolError
from colorclash.server.table import SERVER_ONLY

if TYPE_CHECKING:
    from colorclash.server.hub import Hub

log = logging.getLogger("colorclash.server")


class Computers:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def new_bot(self, room: Room, level: str | None) -> Any:
        from colorclash.bots import make_bot

        game = room.game_key
        return make_bot(game, level or games.default_level(game), seed=secrets.randbits(63))

    def seat_all(self, room: Room) -> None:
        room.bots = {}
        room.bot_events = {}
        for i, s in enumerate(room.seats):
            if s.kind == "bot" or (s.kind == "human" and s.substitute):
                room.bots[i] = self.new_bot(room, s.level)
                room.bot_events[i] = []

    def seat_substitute(self, room: Room, seat: int) -> None:
        room.bots[seat] = self.new_bot(room, None)
        room.bot_events[seat] = []

    def unseat(self, room: Room, seat: int) -> None:
        room.bots.pop(seat, None)
        room.bot_events.pop(seat, None)

    def observe(self, room: Room, events: list[dict[str, Any]]) -> None:
        for seat in room.bots:
            room.bot_events.setdefault(seat, []).extend(events)
            del room.bot_events[seat][:-200]

    def wait(self, room: Room) -> None:
        """A change happened: computer players act after the bot delay from now."""
        room.bot_due = self.hub.now() + self.hub.settings.bot_delay
        room.bot_declined.clear()

    def due(self, room: Room) -> float | None:
        if any(room.bot_controlled(i) and i not in room.bot_declined
               for i in room.game.to_act):
            return room.bot_due
        return None

    def move(self, room: Room, now: float) -> None:
        if now < room.bot_due:
            return
        for seat in list(room.game.to_act):
            if not room.bot_controlled(seat) or seat in room.bot_declined:
                continue
            if self.bot_move(room, seat, room.bots.get(seat)):
                return
            room.bot_declined.add(seat)

    def play_for(self, room: Room, seat: int) -> bool:
        """An absent person's turn ran out: a computer player chooses their action."""
        return self.bot_move(room, seat, self.new_bot(room, None), events=[])

    def bot_move(self, room: Room, seat: int, bot: Any,
                 events: list[dict[str, Any]] | None = None) -> bool:
        if bot is None:
            bot = room.bots[seat] = self.new_bot(room, room.seats[seat].level)
        view = room.game.view(seat)
        if events is None:
            events = room.bot_events.get(seat, [])
            room.bot_events[seat] = []
        try:
            action = bot.act(view, events)
        except Exception:  # noqa: BLE001 - a bot bug must not stall the table
            log.exception("bot at seat %s failed in %s", seat, room.code)
            action = None
        if action is not None:
            try:
                self.hub.table.apply(room, seat, action)
                return True
            except ProtocolError as exc:
                log.warning("bot at seat %s sent an illegal action %s: %s", seat, action,
                            exc.message)
        for fallback in view.get("legal") or []:
            if fallback.get("type") in SERVER_ONLY:
                continue
            try:
                self.hub.table.apply(room, seat, fallback)
                return True
            except ProtocolError:
                continue
        return False
