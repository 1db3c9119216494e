"""Quick Match: strangers only, under automatic animal names, one queue per game and preset.

A table starts at once when the game's Quick Match table size (``quick_match_seats`` in
its definition) has queued, or with fewer (at least the game's smallest table) once the
first of them has waited ``quick_match_wait`` seconds. Only tickets whose person is there
are seated: a socket open on the ticket, or a poll in the last ``POLL_PRESENCE`` seconds
(a ticket that was posted and never opened nor polled was seated with strangers, who then
played against an empty seat: one address could do it to ten tables a minute). A ticket
nobody polls or waits on is dropped after ``quick_match_ticket_ttl`` seconds.

Strangers only: two tickets from one address never sit at one table
(``quick_match_distinct_addresses``), else one person could queue several tickets and
take several seats, seeing several hands at a table of strangers. Such a ticket waits
for the next table. For IPv6 "one address" is one /48 at a table (a person counts as a
/64, but a /48 of 65,536 of them is given away by tunnel brokers: one person queued three
tickets from three /64s and held three of the four seats); the two tickets one address
may have waiting in a queue are still counted per /64.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import TYPE_CHECKING, Any

from colorclash.server import games
from colorclash.server.limits import network_of
from colorclash.server.names import animal_name, new_token
from colorclash.server.protocol import VERSION, ProtocolError

if TYPE_CHECKING:
    from colorclash.server.conn import Conn
    from colorclash.server.hub import Hub

log = logging.getLogger("colorclash.server")


def ticket_gone(conn: Any, why: str, reason: str) -> None:
    """Close a queue socket whose ticket is gone, as for a ticket not found (the error,
    then 4404), with the close's ``reason`` saying why: the page words it, and only a
    ticket the queue never knew (``ticket_not_found``) is charged as a guess (app.py)."""
    conn.send(ProtocolError("ticket_not_found", why).to_message())
    conn.close(4404, reason)


def queue_again(conn: Any) -> None:
    """Close a waiting person's queue socket so that the page says to queue again: the
    queue it waited in is gone (its process died, or no longer leads the Quick Match)."""
    ticket_gone(conn, "the Quick Match queue was lost with its process: queue again",
                "queue_lost")


class QuickMatch:
    TICKETS_PER_ADDRESS = 2  # waiting in one queue (game and preset) at once
    GONE_GRACE = 10.0  # s a ticket whose every socket closed keeps its place (a reload)
    SOCKETS_PER_TICKET = 4  # open on one ticket at once (a newer one closes the oldest)
    POLL_PRESENCE = 10.0  # s a poll of a ticket with no socket counts as its person there
    RETRY = 1.0  # s before a check that failed (Redis away) is made again

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.queue: dict[str, dict[str, Any]] = {}   # tickets waiting, in arrival order
        self.tickets: dict[str, dict[str, Any]] = {}  # every live ticket (queued or matched)
        self._timer: asyncio.TimerHandle | None = None
        self.stopped = False
        self._retry: asyncio.TimerHandle | None = None  # a table the store refused: again

    def stop(self) -> None:
        self.stopped = True  # (a table's write answered after this makes nothing more)
        if self._timer:
            self._timer.cancel()
        if self._retry:
            self._retry.cancel()

    def join(self, game: str | None, preset: str | None,
             address: str | None = None) -> dict[str, Any]:
        d = games.definition(game)
        preset = d.default_preset if preset is None else preset  # "" is no preset
        if preset not in d.presets:
            raise ProtocolError("bad_settings", f"unknown preset {preset!r} for {d.name}; "
                                f"available: {', '.join(d.presets)}", status=422)
        ticket = new_token()
        now = self.hub.now()
        # this queue's tickets, those whose sockets closed a moment ago too (held)
        held = [t for t in self.queue.values() if (t["game"], t["preset"]) == (d.key, preset)]
        same_queue = [t for t in held if not t.get("gone")]
        # The address is kept only as a digest, and only to keep its tickets apart.
        source = hashlib.sha256((address or ticket).encode()).hexdigest()[:16]
        net = network_of(address) if address else None
        network = hashlib.sha256(net.encode()).hexdigest()[:16] if net else source
        # (a ticket whose sockets closed keeps its place a few seconds and comes back when
        # one reopens: counted, or closing and reopening made a third, a fourth...)
        if self.hub.settings.quick_match_distinct_addresses and sum(
                1 for t in held if t["source"] == source) >= self.TICKETS_PER_ADDRESS:
            # Its tickets never share a table, so more would only pile up (and use up
            # the animal names); two let a household queue side by side.
            raise ProtocolError("already_queued", f"{self.TICKETS_PER_ADDRESS} places from "
                                "your address are already waiting for this table (another "
                                "tab, or someone on the same network); wait a moment and "
                                "try again, or leave that queue first", status=409)
        # "joined": when its person was first there (the wait for more people runs from
        # it: from the POST, a ticket posted long before made a newcomer's table start
        # at once, at its smallest)
        t = {"ticket": ticket, "name": animal_name(t["name"] for t in same_queue), "game": d.key,
             "preset": preset, "joined": None, "seen": now, "conns": [], "matched": None,
             "polled": None, "source": source, "network": network}
        self.queue[ticket] = t
        self.tickets[ticket] = t
        # Not seated yet, nor counted: its person is there once its socket opens (the
        # browser opens it at once) or it is polled. The answer to POST /api/quick-match:
        return {"ticket": ticket, "name": t["name"], "status": "waiting",
                "waiting": self._waiting(t),
                "ws": f"/ws/quick-match?ticket={ticket}", "game": d.key, "preset": preset}

    def get(self, ticket: str) -> dict[str, Any]:
        t = self.tickets.get(ticket)
        if t is None:
            raise ProtocolError("ticket_not_found", "no such Quick Match ticket", status=404)
        t["seen"] = self.hub.now()
        return t

    def _present(self, t: dict[str, Any], now: float) -> bool:
        """Whether ``t``'s person is there: a socket open on it, or a poll a moment ago
        (a page closed a moment ago is not, though its place is held for a reload)."""
        if t.get("gone"):
            return False
        return bool(t["conns"]) or (t["polled"] is not None
                                    and now - t["polled"] <= self.POLL_PRESENCE)

    def _waiting(self, t: dict[str, Any]) -> int:
        """The people waiting at ``t``'s queue: tickets of one address count once (they
        never share a table, so two tabs of one home said "2 people waiting" to a table
        that would never start), and tickets nobody is there for not at all."""
        now = self.hub.now()
        waiting = [x for x in self.queue.values()
                   if (x["game"], x["preset"]) == (t["game"], t["preset"])
                   and (x is t or self._present(x, now))]
        if not self.hub.settings.quick_match_distinct_addresses:
            return len(waiting)
        return len({x["network"] for x in waiting})

    def _arrived(self, t: dict[str, Any], now: float) -> None:
        """``t``'s person has just come (its socket opened, or a poll): the wait for more
        people runs from their first coming; a table may start now."""
        if t["joined"] is None:
            t["joined"] = now
        self.check()

    def status(self, ticket: str) -> dict[str, Any]:
        """A poll: its person is there for ``POLL_PRESENCE`` seconds (a table may start
        now, and the answer says so); a page that closed its socket and polls instead
        (a socket that cannot stay open) is there as well."""
        t = self.get(ticket)
        if not t["matched"]:
            now = t["seen"]
            there = self._present(t, now)  # (not while its page is closed: it comes back)
            t.pop("gone", None)  # (its place, held for a reload, is back)
            t["polled"] = now
            if not there:
                self._arrived(t, now)  # (check() also times the poll's lapse)
                self.notify()
        if t["matched"]:
            return {"status": "matched", **t["matched"]}
        return {"ticket": ticket, "status": "waiting", "waiting": self._waiting(t),
                "name": t["name"], "game": t["game"], "preset": t["preset"],
                "ws": f"/ws/quick-match?ticket={ticket}"}

    def leave(self, ticket: str, keep: Any = None) -> None:
        """Leave the queue; a ticket already gone is left already (the page's socket
        ``leave`` and its ``DELETE`` both come). Every socket of it but ``keep`` (the one
        that said ``leave``, closed by its caller with 1000) is told that the ticket is
        gone, and closed as for a ticket not found: a second tab's stayed open on a
        ticket gone, told nothing (attacker review), and a close 1000 had its page
        reconnect to find out."""
        if ticket not in self.tickets:
            return
        self.queue.pop(ticket, None)
        t = self.tickets.pop(ticket)
        for conn in t["conns"]:
            if conn is not keep:
                ticket_gone(conn, "this ticket left the queue (from another tab, or by "
                            "DELETE)", "ticket_left")
        self.notify()

    def attach(self, ticket: str, conn: Conn) -> None:
        t = self.get(ticket)
        now = t["seen"]
        there = self._present(t, now)  # (not while its page is closed: it comes back)
        t.pop("gone", None)  # a reload, within the grace: its place is back
        if len(t["conns"]) >= self.SOCKETS_PER_TICKET:  # a few tabs, not hundreds
            oldest = t["conns"].pop(0)
            oldest.send(ProtocolError("replaced", "this ticket was opened elsewhere")
                        .to_message())
            oldest.close(4409, "replaced")
        t["conns"].append(conn)
        if t["matched"]:
            conn.send({"v": VERSION, "type": "matched", **t["matched"]})
            return
        if not there:
            self._arrived(t, now)
        if t["matched"] or t.get("seating") or ticket not in self.tickets:
            # (the table made now told every socket of the ticket, this one too, or will
            # once it is stored; or the queue was given up: this socket is closed, told
            # to queue again)
            return
        told = t.get("told")
        self.notify()  # every socket, if the count changed (a reload counts again)
        if t.get("told") == told:  # it did not: the new socket alone is told the count
            conn.send({"v": VERSION, "type": "queue", "waiting": told, "name": t["name"]})

    def attach_again(self, ticket: str, old: Conn, conn: Conn) -> None:
        """The same socket attached again through another process (``old`` is its former
        stand-in here; what was sent to it may have been lost): it takes ``old``'s place,
        with no "replaced", and is told the ticket as it is (``ticket_not_found``, raised,
        when the ticket is gone)."""
        t = self.get(ticket)
        if old not in t["conns"]:
            self.attach(ticket, conn)
            return
        t["conns"][t["conns"].index(old)] = conn
        if t["matched"]:
            conn.send({"v": VERSION, "type": "matched", **t["matched"]})
        else:
            conn.send({"v": VERSION, "type": "queue", "waiting": self._waiting(t),
                       "name": t["name"]})

    def detach(self, ticket: str, conn: Conn) -> None:
        t = self.tickets.get(ticket)
        if t and conn in t["conns"]:
            t["conns"].remove(conn)
            now = t["seen"] = self.hub.now()
            if not t["conns"] and ticket in self.queue:
                # The page was closed (or is reloading): its place is held a few seconds,
                # out of the counts and out of any table (a stranger must not be seated
                # with a closed tab), then given up.
                t["gone"] = now
                asyncio.get_running_loop().call_later(self.GONE_GRACE, self._drop_if_gone,
                                                      ticket, now)
                self.notify()

    def _drop_if_gone(self, ticket: str, since: float) -> None:
        t = self.queue.get(ticket)
        if t is not None and not t["conns"] and t.get("gone") == since:
            self.queue.pop(ticket, None)
            self.tickets.pop(ticket, None)
            self.notify()

    def notify(self) -> None:
        """Tell each waiting socket the count of its queue, when it has changed since it
        was told: a ticket's socket opened and closed in a loop sent every person waiting
        in every queue two messages each time (1,400 a second from one client)."""
        counts: dict[tuple[str, str], int] = {}  # a queue's, the same for each socket
        for t in self.queue.values():
            if not t["conns"]:
                continue
            queue = (t["game"], t["preset"])
            if queue not in counts:
                counts[queue] = self._waiting(t)
            waiting = counts[queue]
            if t.get("told") == waiting:
                continue
            t["told"] = waiting
            for conn in t["conns"]:
                conn.send({"v": VERSION, "type": "queue", "waiting": waiting,
                           "name": t["name"]})

    def sweep(self, now: float) -> None:
        for ticket, t in list(self.queue.items()):
            if not t["conns"] and now - t["seen"] > self.hub.settings.quick_match_ticket_ttl:
                self.queue.pop(ticket, None)
                self.tickets.pop(ticket, None)
        for ticket, t in list(self.tickets.items()):
            if t.get("matched") and now - t["seen"] > self.hub.settings.finished_room_ttl:
                self.tickets.pop(ticket, None)

    def give_up_queue(self) -> None:
        """The queue of a Quick Match leadership this process no longer holds (several
        processes: ``Cluster.lead``): every ticket waiting in it is told to queue again,
        as the other processes told theirs when they found the leader silent, instead of
        being seated at a table made by a leader that is one no more."""
        waiting = list(self.queue.values())
        if not waiting:
            return
        log.warning("this process no longer leads the Quick Match: %d waiting are told to "
                    "queue again", len(waiting))
        for t in waiting:
            self.queue.pop(t["ticket"], None)
            self.tickets.pop(t["ticket"], None)
            for conn in t["conns"]:
                queue_again(conn)
            if self.hub.cluster is not None:
                self.hub.cluster.forget_remotes("ticket", t["ticket"])
        if self._timer:
            self._timer.cancel()
            self._timer = None

    def check(self) -> None:
        # (several processes: a table is made only by the leader of this queue's term)
        cluster = self.hub.cluster
        if self.queue and cluster is not None and not cluster.lead():
            self.give_up_queue()  # (another leads: a queue here is none of the site's)
            return
        now = self.hub.now()
        by_table: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for t in self.queue.values():
            if self._present(t, now):  # a closed page, or a ghost, is seated with nobody
                by_table.setdefault((t["game"], t["preset"]), []).append(t)
        next_due: float | None = None
        for (game, preset), waiting in by_table.items():
            d = games.definition(game)
            full = d.table_for_quick_match()
            while True:
                people = self._strangers(waiting, full)
                if len(people) < full:
                    break
                self.table(game, preset, people)
                waiting = [t for t in waiting if t not in people]
            people = self._strangers(waiting, full)
            if len(people) >= d.min_seats:
                # from the first person who came (the first ticket posted may have come later)
                due = min(p["joined"] for p in people) + self.hub.settings.quick_match_wait
                if now >= due:
                    self.table(game, preset, people)
                else:
                    next_due = due if next_due is None else min(next_due, due)
        # A poll stops counting its person there (the counts change, a table may not
        # start) when no later poll or socket keeps them: the same timer wakes for it
        # (one timer per poll piled up, each telling every queue).
        for t in self.queue.values():
            if not t["conns"] and self._present(t, now):  # there by a poll alone
                lapse = t["polled"] + self.POLL_PRESENCE + 0.05
                next_due = lapse if next_due is None else min(next_due, lapse)
        if self._timer:
            self._timer.cancel()
            self._timer = None
        if next_due is not None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(max(0.0, next_due - now), self._tick)

    def _strangers(self, waiting: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
        """Up to ``n`` tickets in arrival order, at most one per address (an IPv6 /48)."""
        if not self.hub.settings.quick_match_distinct_addresses:
            return waiting[:n]
        people: list[dict[str, Any]] = []
        networks: set[str] = set()
        for t in waiting:
            if t["network"] not in networks:
                people.append(t)
                networks.add(t["network"])
                if len(people) == n:
                    break
        return people

    def _tick(self) -> None:
        self._timer = None
        self._check_now()

    def _retry_tick(self) -> None:
        self._retry = None
        self._check_now()

    def _check_now(self) -> None:
        try:
            self.check()
            self.notify()
        except Exception as exc:  # noqa: BLE001
            if self.hub.cluster is None or not self.hub.cluster.redis_error(exc):
                log.exception("quick match failed")
                return
            log.warning("quick match: no table made now (%s)", exc)
            # (Redis away: checked again in a moment; people waiting on sockets send
            # nothing, and the queue stalled until someone joined or left)
            if self._timer is None and self.queue:
                self._timer = asyncio.get_running_loop().call_later(self.RETRY, self._tick)

    def table(self, game: str, preset: str, people: list[dict[str, Any]]) -> None:
        hub = self.hub
        settings = games.check_settings(game, preset, len(people), {}, guest=False)
        room = hub.new_room("quick-match", settings)
        seats = []
        for i, t in enumerate(people):
            token = hub.lobby.seat_human(room, i, t["name"])
            room.seats[i].ready = True
            seats.append({"code": room.code, "seat": i, "token": token, "name": t["name"],
                          "ws": f"/ws/{room.code}?token={token}"})
            self.queue.pop(t["ticket"], None)
        room.host = None
        room.never_came = set(range(len(people)))  # (each one's page opens its seat at once)
        try:
            hub.table.deal(room)
        except Exception:  # noqa: BLE001 - without group commit the store refused it at once
            self._queue_again(people, room.code)  # (the room is dropped: its first write)
            return
        # Each seat is told once the table is stored, as POST /api/rooms answers then: told
        # at once, a first write the store refused left every ticket "matched" to a room
        # that was dropped ("no room with code", and no way back into the queue: a race
        # review). Refused, they wait in the queue again, in their places.
        written, restores = room.last_write, room.restores

        def stored(_: object = None) -> None:
            for t in people:
                t.pop("seating", None)
            if self.stopped:
                return
            if hub.refused(room, written, restores):
                self._queue_again(people, room.code)
                return
            for t, seat in zip(people, seats, strict=True):
                if self.tickets.get(t["ticket"]) is t:  # (not left meanwhile)
                    t["matched"] = seat
                    for conn in t["conns"]:
                        conn.send({"v": VERSION, "type": "matched", **seat})

        if written is None or written.done():
            stored()
        else:
            for t in people:
                t["seating"] = written  # (out of the queue, told nothing meanwhile)
            written.add_done_callback(stored)

    async def status_when_stored(self, ticket: str) -> dict[str, Any]:
        """A poll's answer (``status``), once the table it may have just made for the
        ticket is stored: the seat it is told is one the store has."""
        answer = self.status(ticket)
        t = self.tickets.get(ticket)
        written = t.get("seating") if t else None
        if written is not None:
            await asyncio.wait([written], timeout=10)
            await asyncio.sleep(0)  # (its own callback, ``stored``, has run)
            if self.tickets.get(ticket) is t and not t.get("seating"):
                answer = self.status(ticket)
        return answer

    def _queue_again(self, people: list[dict[str, Any]], code: str) -> None:
        """``people``'s table could not be stored: they wait again, first in their queue,
        and it is tried again in a moment (at once, a store that refuses would refuse it
        again)."""
        back = {t["ticket"]: t for t in people if self.tickets.get(t["ticket"]) is t}
        self.hub.trouble.warning(log, "quick match: table %s could not be stored; %d wait "
                                 "again", code, len(back))
        self.queue = {**back, **self.queue}
        for t in back.values():
            t.pop("told", None)  # (told the count again: still waiting)
        self.notify()
        # (a timer of its own: check(), which may have called this, sets the queue's timer
        # for the waits for more people, which may be far later)
        if self._retry is None and not self.stopped:
            self._retry = asyncio.get_running_loop().call_later(self.RETRY, self._retry_tick)
