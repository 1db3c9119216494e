"""Clocks: the game says what it waits for (``game.timer()``), the server keeps the time.

- ``turn``: the room's turn clock for a seat; the deadline is kept while the timer's
  ``key`` (the turn) stays the same. Once a person has let one turn run out while away
  (disconnected), their next turns in that absence get ``away_turn_clock`` seconds only,
  so the others do not wait a whole turn clock each time; coming back ends it.
- ``next``: the pause between rounds; ``{"type": "next"}`` is applied when every connected
  person is ready, or when the pause is over.
- any other kind: a short clock whose length the game gives (Color Clash's 3 s last-card
  window and 6 s drawn-card choice; settings of the same name override them for tests).
  One the game marks ``"silent"`` (the call window) runs out without a word to the table;
  any other that runs out is told as a turn's is (``time_up``).
  A short clock that follows a seat's turn clock (``within_turn``) never ends after it.

When a clock runs out, the server applies ``{"type": "timeout"}`` for the seat where the
game has that action; otherwise a computer player chooses the seat's action.

Deadlines are absolute wall-clock times kept in the room document: they survive
reconnections and restarts. One timer per room wakes the loop at the earliest due time
(a clock, a substitute coming in, a computer player's move). Within a process the wall
clock is read as of the process's start and run on by the monotonic clock
(:func:`steady_wall`): a step of the system clock while it runs (NTP setting it, a
virtual machine resumed) moves no deadline, as a server's clocks should not.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from colorclash.server.model import Room
from colorclash.server.protocol import ProtocolError

if TYPE_CHECKING:
    from colorclash.server.hub import Hub

log = logging.getLogger("colorclash.server")


_WALL_AT_START = time.time()
_STEADY_AT_START = time.monotonic()


def steady_wall() -> float:
    """The wall-clock time (seconds since the epoch) as of the process's start, run on by
    the monotonic clock: the server's own time (``Hub.now``). Read from ``time.time()``, a
    step of the system clock timed out every running turn at once (a step forward) or
    held them for its length (back)."""
    return _WALL_AT_START + (time.monotonic() - _STEADY_AT_START)


#: turns in a row a person *connected* lets run out before their turns get the away clock
#: (``away_turn_clock``) until they act again. A tab left open, or someone keeping the
#: socket open on purpose, had the whole clock (30 s in Quick Match) on every turn of the
#: match, while closing the tab would have cut it to the away clock.
IDLE_TURNS = 2


class Clocks:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def turn_seconds(self, room: Room, seat: int | None) -> float:
        st = self.hub.settings
        seconds = float(room.settings.get("clock") or st.default_turn_clock) * st.clock_scale
        if seat is not None and 0 <= seat < len(room.seats):
            s = room.seats[seat]
            # away: after one turn run out; connected: after IDLE_TURNS in a row (``missed``
            # counts both, and starts again when the person acts or comes back)
            if s.kind == "human" and not s.substitute \
                    and s.missed >= (1 if s.away_since is not None else IDLE_TURNS):
                seconds = min(seconds, st.away_turn_clock)
        return seconds

    def update(self, room: Room, actor: int | None, action: dict[str, Any] | None) -> None:
        """Set ``room.clock`` to what the game waits for now (kept when unchanged)."""
        game = room.game
        if game is None or game.over or room.status != "playing":
            room.clock = None
            return
        timer = game.timer()
        if not timer:
            room.clock = None
            return
        st = self.hub.settings
        now = self.hub.now()
        prev = room.clock or {}
        kind = timer["kind"]
        seat = timer.get("seat")
        key = timer.get("key")
        same = (prev.get("kind") == kind and prev.get("seat") == seat
                and prev.get("key") == key)
        if kind == "next":
            if prev.get("kind") != "next":
                room.clock = {"kind": "next", "seat": None, "seconds": st.next_round_delay,
                              "deadline": now + st.next_round_delay}
            return
        if kind == "turn":
            if same:
                return
            seconds = self.turn_seconds(room, seat)
            room.clock = {"kind": "turn", "seat": seat, "key": key, "seconds": seconds,
                          "deadline": now + seconds}
            if seconds < self.turn_seconds(room, None):
                # the away clock: said to the seat, which was not told why its turns had
                # become 5 s ones, nor how to have the whole clock back (a player review)
                room.clock["cut"] = True
            return
        if same:
            return
        seconds = st.short_clock(room.game_key, kind,
                                 float(timer.get("seconds") or 0) or st.next_round_delay)
        clock: dict[str, Any] = {"kind": kind, "seat": seat, "key": key, "seconds": seconds,
                                 "deadline": now + seconds}
        if timer.get("within_turn"):
            if prev.get("kind") == "turn" and prev.get("seat") == seat:
                turn_deadline = prev["deadline"]
            else:
                turn_deadline = now + self.turn_seconds(room, seat)
            clock["deadline"] = min(turn_deadline, clock["deadline"])
            clock["turn_deadline"] = turn_deadline
        room.clock = clock

    # ------------------------------------------------------------------ the room's timer
    def schedule(self, room: Room) -> None:
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        if room.code not in self.hub.rooms:
            return
        due = self.next_due(room)
        if due is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, due - self.hub.now())
        room.timer = loop.call_later(delay, self.tick, room.code)

    def next_due(self, room: Room) -> float | None:
        if room.status != "playing" or room.game is None or room.game.over:
            return self.host_due(room)
        dues: list[float] = []
        if room.clock and not self.computer_waits(room):
            dues.append(room.clock["deadline"])
        for i in range(len(room.seats)):
            due = self.substitute_due(room, i)
            if due is not None:
                dues.append(due)
        if self.hub.table.between_rounds(room):
            if self.hub.table.all_ready(room):
                dues.append(self.hub.now())
        else:
            due = self.hub.computers.due(room)
            if due is not None:
                dues.append(due)
        return max(min(dues), room.stall_until) if dues else None

    def computer_waits(self, room: Room) -> bool:
        """The clock is a computer player's, and nobody has the table open: it does not
        run out (the computer waits for a person, ``Computers.unwatched``; a clock run out
        was a timeout for it, in Standard a card drawn and the turn lost, again and again
        while the table was closed)."""
        if not self.hub.computers.unwatched(room):
            return False  # (the common case first: this is asked at every action)
        return self._computers_clock(room)

    @staticmethod
    def _computers_clock(room: Room) -> bool:
        """The running clock is a seat's that a computer plays."""
        seat = room.clock.get("seat") if room.clock else None
        return seat is not None and 0 <= seat < len(room.seats) and room.bot_controlled(seat)

    def resume(self, room: Room) -> None:
        """Someone opened a table whose computer player waited: its clock starts again
        (it may have passed while it waited), so it moves, not times out."""
        if not self._computers_clock(room):
            return
        clock = room.clock
        now = self.hub.now()
        if clock["deadline"] < now + clock["seconds"]:
            room.clock = dict(clock, deadline=now + clock["seconds"])
            if "turn_deadline" in clock:
                room.clock["turn_deadline"] = max(clock["turn_deadline"], room.clock["deadline"])

    def substitute_due(self, room: Room, seat: int) -> float | None:
        """When a computer substitute must take this seat (None: not due to)."""
        s = room.seats[seat]
        if s.kind != "human" or s.substitute:
            return None
        if s.left:
            due = 0.0
        elif s.away_since is not None:
            # A stranger who never came to a Quick Match table (a page closed as the table
            # was made, or a ticket held open by a script) is not waited for as long as a
            # player who dropped: the others played against an empty seat for 90 s.
            grace = (self.hub.settings.quick_match_no_show if seat in room.never_came
                     else self.hub.settings.reconnect_grace)
            due = s.away_since + grace
        else:
            return None
        return max(due, room.retry_after.get(seat, 0.0))

    def host_due(self, room: Room) -> float | None:
        """Between games (the lobby, the results), when the host's powers pass to another
        person: the host has been away ``host_grace`` seconds while someone else is at
        the table. Otherwise the others wait for a host who closed the window, with no
        way to start the next game (None: nothing to pass)."""
        host = room.host
        if room.status == "playing" or host is None or host in room.conns \
                or not 0 <= host < len(room.seats):
            return None
        s = room.seats[host]
        if s.kind == "human" and s.away_since is None:
            return None
        if not self.hub.lobby.next_host(room):
            return None
        return (s.away_since or 0.0) + self.hub.settings.host_grace

    def tick(self, code: str) -> None:
        room = self.hub.rooms.get(code)
        if room is None:
            return
        room.timer = None
        try:
            self.tick_room(room)
        except ProtocolError as exc:
            log.warning("room %s: server action refused: %s", code, exc.message)
            room.stall_until = self.hub.now() + 1.0
        except Exception:  # noqa: BLE001 - keep the server alive
            log.exception("room %s: tick failed", code)
            room.stall_until = self.hub.now() + 1.0
        if room.timer is None:
            self.schedule(room)

    def tick_room(self, room: Room) -> None:
        if room.status != "playing" or room.game is None or room.game.over:
            due = self.host_due(room)
            if due is not None and self.hub.now() >= due:
                self.hub.lobby.pass_host(room, self.hub.lobby.next_host(room)[0])
            return
        hub = self.hub
        now = hub.now()
        game = room.game
        # 1. seats away too long get a computer substitute
        for i in range(len(room.seats)):
            due = self.substitute_due(room, i)
            if due is not None and now >= due:
                hub.table.substitute(room, i, True)
                return
        # 2. between rounds: everyone ready, or the pause is over
        if hub.table.between_rounds(room):
            if hub.table.all_ready(room) or (room.clock and now >= room.clock["deadline"]):
                seat = game.to_act[0] if game.to_act else 0
                hub.table.apply(room, seat, {"type": "next"})
            return
        # 3. an expired clock
        if room.clock and now >= room.clock["deadline"] and not self.computer_waits(room):
            self.expire(room, now)
            return
        # 4. computer players
        hub.computers.move(room, now)

    def expire(self, room: Room, now: float) -> None:
        """The clock ran out: the game's timeout, or a computer's move for the seat."""
        game = room.game
        seat = room.clock.get("seat")
        if seat is None:
            seat = game.to_act[0] if game.to_act else 0
        s = room.seats[seat] if 0 <= seat < len(room.seats) else None
        # The players are told whose time ran out (the move that follows was not theirs);
        # the pause between rounds and a game's silent clocks (Color Clash's call window)
        # close without a word. Silent as the game says now (its timer is this clock's: no
        # action came since): a clock stored before its game marked it, restored after an
        # upgrade, is silent as well.
        kind = room.clock.get("kind")
        timer = game.timer() or {}
        said = kind != "next" and not (timer.get("kind") == kind and timer.get("silent"))
        # Once per clock: a turn of several actions (Coloretto's draw, then place) runs out
        # once, though the table then makes each of its actions.
        told = (kind, seat, room.clock.get("key"), room.clock.get("deadline"))
        first = room.told_time_up != told
        if s is not None and s.kind == "human" and kind == "turn" and first:
            # a shorter turn clock for the rest of this absence, or idleness (counted once
            # per turn: Coloretto's and Rainbow's turns of several moves counted one turn
            # as two, and a connected player had the short clock after one)
            s.missed += 1
        notice = None
        by_rule = "timeout" in self.hub.table.server_actions(room)
        if said and first:
            # ``by``: the game's own timeout move (Standard draws a card) or a computer's
            # choice for the seat (the table presets): the history words the one as the
            # player's and the other as their substitute's
            notice = {"type": "time_up", "seat": seat, "clock": kind,
                      "by": "rule" if by_rule else "computer"}
            room.told_time_up = told
        elif said and not by_rule:
            # the same turn's next action, the computer's too (Coloretto's placing after
            # its draw): marked, not said again, so that the history does not word it as
            # the player's ("You put Blue in row 2": a diff review)
            notice = {"type": "time_up", "seat": seat, "clock": kind, "by": "computer",
                      "again": True}
        try:
            if by_rule:
                self.hub.table.apply(room, seat, {"type": "timeout"}, notice)
            elif not self.hub.computers.play_for(room, seat, notice):
                raise ProtocolError("internal", f"no move could be made for seat {seat}")
        except ProtocolError:
            # The game has no move here: restart the clock rather than spin.
            room.clock = dict(room.clock, deadline=now + room.clock["seconds"])
            self.hub.persist(room)
            raise
