"""The computer players of each room: seated bots, substitutes for absent people, and the
computer that plays an absent seat's turn when its clock runs out (in games without a
timeout rule of their own).

A computer player sees exactly what ``view(seat)`` shows that seat, plus the public events
since its last move, like any player; it acts ``bot_delay`` seconds after its turn comes.

A searching player (``thinks``, in a worker process) starts thinking as soon as its turn
comes and its move waits for that same time: its search ran after the delay, so the time
to its move told how many choices it had weighed (a forced move 0.54-0.63 s, a searched
one 0.61-0.79 s: attacker review). A move whose thought comes back late (a busy pool) is
made when it comes.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

from colorclash.server import games
from colorclash.server.model import Room
from colorclash.server.protocol import ProtocolError

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
        """New computer players for every seat a computer plays (a deal, a rebuild, a
        load): the searches under way and the thoughts kept were the old ones', for the
        table before, and are dropped (their marks gone, a late answer is ignored)."""
        room.bots = {}
        room.bot_events = {}
        room.thinking.clear()
        room.thought.clear()
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

    #: the share of ``bot_delay`` computer players wait when nobody but them is left in the
    #: round and the people at the table only watch them play on for places (the first
    #: person out of a Standard round watched 38 s of it with a 0.3 s delay: more than
    #: three times that at the default 1 s)
    WATCHED_PACE = 0.25

    def wait(self, room: Room) -> None:
        """A change happened: computer players act after the bot delay from now."""
        delay = self.hub.settings.bot_delay
        if self.only_watched(room):
            delay *= self.WATCHED_PACE
        now = self.hub.now()
        room.bot_due = now + delay
        room.bot_declined.clear()
        room.bot_extra = self.patience(room, room.bot_due)

    @staticmethod
    def patience(room: Room, now: float) -> dict[int, float]:
        """How long past the bot delay each computer player to act waits (a bot's
        ``patience(view)``: a share of the time left on the table's clock once the delay
        is over, ``now``, so that a level's share keeps inside the clock whatever the
        delay). A person has the last-card window's 3 seconds to call, not the delay
        before a computer catches."""
        game, clock = room.game, room.clock
        if game is None or not clock or not clock.get("deadline"):
            return {}
        extra = {}
        for seat in game.to_act:
            bot = room.bots.get(seat) if room.bot_controlled(seat) else None
            share = getattr(bot, "patience", None)
            if share is None:
                continue
            wait = share(game.view(seat)) * max(0.0, clock["deadline"] - now)
            if wait > 0:
                extra[seat] = wait
        return extra

    def _ready(self, room: Room, seat: int) -> bool:
        return (room.bot_controlled(seat) and seat not in room.bot_declined
                and seat not in room.thinking)

    @staticmethod
    def only_watched(room: Room) -> bool:
        """Every seat still in the round is a computer's, and a person watches (the game's
        ``watching``: seats out of the round while the others play on)."""
        game = room.game
        watching = game.watching if game is not None else None
        if not watching:
            return False
        return (any(room.seats[s].kind == "human" for s in watching)
                and all(room.bot_controlled(s) for s in range(len(room.seats))
                        if s not in watching))

    @staticmethod
    def unwatched(room: Room) -> bool:
        """A table no person has open (any kind of room: Practice, Play Now, a private
        room of a host and computer players, a Quick Match table everyone left): its
        computer players, substitutes included, wait for someone to come back (a person's
        own turn clock still runs; a computer's waits too: ``Clocks.computer_waits``)
        instead of playing on for nobody. Abandoned tables played on for up to an hour,
        each move a store write and a hard player's a search: 70 of them, made from one
        address within its creation budget, slowed every other table's hard players from
        0.6 s a move to 4 s. Private rooms, which share that budget, were left out of the
        first fix."""
        return not room.conns

    def _searches(self, room: Room, seat: int) -> bool:
        bot = room.bots.get(seat)
        return bot is not None and getattr(bot, "thinks", False) and self.hub.thinking.enabled

    def _to_think(self, room: Room) -> int | None:
        """The first computer player to act that searches and has not begun: it begins at
        once (one search at a time per room: the first move made changes the others')."""
        if room.thinking:
            return None
        for seat in room.game.to_act:
            if self._ready(room, seat) and self._searches(room, seat) \
                    and not self._thought_current(room, seat):
                return seat
        return None

    @staticmethod
    def _position(room: Room) -> tuple[str | None, int]:
        """Where the table is: the log's running hash and the match. Not ``seq``: a write
        the store refused takes the table back to an earlier seq, which another move can
        reach again, and a thought for the first would have been played on the second
        (diff review)."""
        return room.log_hash, room.match_no

    def _thought_current(self, room: Room, seat: int) -> bool:
        held = room.thought.get(seat)
        return held is not None and held[0] == self._position(room)

    def due(self, room: Room) -> float | None:
        if self.unwatched(room):
            return None  # (attach schedules the room again when the person is back)
        if self._to_think(room) is not None:
            return self.hub.now()
        ready = [room.bot_extra.get(i, 0.0) for i in room.game.to_act
                 if self._ready(room, i)
                 and (not self._searches(room, i) or self._thought_current(room, i))]
        return room.bot_due + min(ready) if ready else None

    def move(self, room: Room, now: float) -> None:
        if self.unwatched(room):
            return
        seat = self._to_think(room)
        if seat is not None:
            self.think(room, seat, room.bots[seat])
            return
        if now < room.bot_due:
            return
        for seat in list(room.game.to_act):
            if not self._ready(room, seat) or now < room.bot_due + room.bot_extra.get(seat, 0.0):
                continue
            if self._searches(room, seat):
                if not self._thought_current(room, seat):
                    continue  # (its thought is on its way, or was for another position)
                _, action = room.thought.pop(seat)
                if action is not None and self._apply(room, seat, action):
                    return
                # (no thought at all: the events it did not take in are still waiting)
                if self.bot_move(room, seat, room.bots.get(seat),
                                 events=None if action is None else []):
                    return
            elif self.bot_move(room, seat, room.bots.get(seat)):
                return
            room.bot_declined.add(seat)

    # -- searching bots think in a worker process (server/thinking.py) --
    def think(self, room: Room, seat: int, bot: Any) -> None:
        view = room.game.view(seat)
        events = room.bot_events.get(seat, [])
        room.bot_events[seat] = []
        position = self._position(room)
        # this search's own mark: one begun before a rebuild or a new match (which clear
        # the marks) is not taken for a later one
        mark = room.thinking[seat] = object()
        try:
            future = self.hub.thinking.think(bot, view, events)
        except Exception:  # noqa: BLE001 - the pool cannot take it: decided here at its time
            log.exception("bot at seat %s could not be sent to a worker in %s", seat, room.code)
            del room.thinking[seat]
            # (the events it was to take in go back: the move on the loop reads them)
            room.bot_events[seat] = events + room.bot_events.get(seat, [])
            room.thought[seat] = (position, None)
            return
        future.add_done_callback(lambda f: self._thought(room.code, seat, mark, position, f))

    def _thought(self, code: str, seat: int, mark: object, position: tuple[str | None, int],
                 future: Any) -> None:
        room = self.hub.rooms.get(code)
        if room is None or room.thinking.get(seat) is not mark:
            if not future.cancelled():
                future.exception()  # (retrieved: asyncio logged a worker's crash as unread)
            return  # the room went, was rebuilt, or dealt again meanwhile
        del room.thinking[seat]
        try:
            action, bot = future.result()
        except Exception:  # noqa: BLE001 - a crashed worker: think here instead
            log.exception("bot at seat %s failed in a worker in %s", seat, code)
            action, bot = None, room.bots.get(seat)
        if room.bot_controlled(seat):
            room.bots[seat] = bot  # it has taken in the events either way
        if (room.status == "playing" and room.game is not None
                and self._position(room) == position
                and room.bot_controlled(seat) and seat in room.game.to_act):
            # made at its time (move), not now: see the module's docstring
            room.thought[seat] = (position, action)
        self.hub.clocks.schedule(room)

    def _apply(self, room: Room, seat: int, action: dict[str, Any]) -> bool:
        try:
            self.hub.table.apply(room, seat, action)
            return True
        except ProtocolError as exc:
            log.warning("bot at seat %s sent an illegal action %s: %s", seat, action,
                        exc.message)
            return False

    def play_for(self, room: Room, seat: int, notice: dict[str, Any] | None = None) -> bool:
        """An absent person's turn ran out: a computer player chooses their action."""
        return self.bot_move(room, seat, self.new_bot(room, None), events=[], notice=notice)

    def bot_move(self, room: Room, seat: int, bot: Any,
                 events: list[dict[str, Any]] | None = None,
                 notice: dict[str, Any] | None = None) -> bool:
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
                self.hub.table.apply(room, seat, action, notice)
                return True
            except ProtocolError as exc:
                log.warning("bot at seat %s sent an illegal action %s: %s", seat, action,
                            exc.message)
        server_only = self.hub.table.server_actions(room)
        for fallback in view.get("legal") or []:
            if fallback.get("type") in server_only:
                continue
            try:
                self.hub.table.apply(room, seat, fallback, notice)
                return True
            except ProtocolError:
                continue
        return False
