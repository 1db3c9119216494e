"""The lobby: opening rooms (private, Practice, Play Now), seats, settings, starting.

Every choice a room offers (game, preset, seat count, each option of the preset, computer
levels) is checked against the game's definition in the engine's registry
(``server/games.py``); nothing here knows a game's rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from colorclash.server import games
from colorclash.server.model import COMPUTER, Room, Seat
from colorclash.server.name_rules import table_forms
from colorclash.server.names import hash_token, new_token
from colorclash.server.protocol import NAME_MAX, ProtocolError

if TYPE_CHECKING:
    from colorclash.server.hub import Hub

#: what a Quick Match table's players do for another game (no host deals one there)
QUICK_MATCH_NEXT = ("its next game is Find new players: the Quick Match queue again "
                    "(POST /api/quick-match)")


class Lobby:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    # ------------------------------------------------------------------ seats
    def seat_human(self, room: Room, index: int, name: str, token: str | None = None) -> str:
        name = self.distinct_name(room, index, name)
        token = token or new_token()
        room.seats[index] = Seat(kind="human", name=name, token_hash=hash_token(token),
                                 away_since=self.hub.now())
        return token

    @staticmethod
    def distinct_name(room: Room, index: int, name: str) -> str:
        """``name``, or ``name 2``, ``name 3``... when another person at the table has it
        or one that reads the same (in any case, or in look-alike letters: "Аna" with a
        Cyrillic А): two "Player"s made "Player's turn" mean either of them."""
        taken = set().union(*(table_forms(s.name) for i, s in enumerate(room.seats)
                              if i != index and s.kind == "human" and s.name))
        if not table_forms(name) & taken:
            return name
        n = 2
        while True:
            suffix = f" {n}"
            candidate = name[:NAME_MAX - len(suffix)].rstrip() + suffix
            if not table_forms(candidate) & taken:
                return candidate
            n += 1

    @staticmethod
    def seat_bot(room: Room, index: int, level: str) -> None:
        room.seats[index] = Seat(kind="bot", name=COMPUTER, level=level, ready=True)

    # ------------------------------------------------------------------ opening rooms
    def create_private(self, name: str, game: str | None, preset: str | None,
                       seats: int | None, options: dict[str, Any], host_key: str | None
                       ) -> tuple[Room, int, str]:
        guest = not self.hub.is_operator_key(host_key)
        settings = games.check_settings(game, preset, seats, options, guest)
        room = self.hub.new_room("private", settings)
        token = self.seat_human(room, 0, name)
        room.seats[0].ready = True
        room.host = 0
        room.guest = guest
        self.hub.persist(room)
        return room, 0, token

    def create_practice(self, name: str, game: str | None, bots: int | None, level: str | None,
                        preset: str | None, options: dict[str, Any], kind: str = "practice"
                        ) -> tuple[Room, int, str]:
        d = games.definition(game)
        if bots is None:
            bots = d.default_seats - 1
        if not isinstance(bots, int) or not 1 <= bots <= d.max_seats - 1:
            raise ProtocolError("bad_settings", "practice takes "
                                f"{games.count_range(1, d.max_seats - 1, 'computer player')}"
                                f" in {d.name}", status=422)
        # None is "the game's default"; any text, "" included, must be one of its levels
        level = games.check_level(d.key, games.default_level(d.key) if level is None
                                  else level)
        settings = games.check_settings(d.key, preset, bots + 1, options, guest=False)
        room = self.hub.new_room(kind, settings)
        token = self.seat_human(room, 0, name)
        room.seats[0].ready = True
        for i in range(1, bots + 1):
            self.seat_bot(room, i, level)
        self.hub.table.deal(room)
        return room, 0, token

    def create_play_now(self, name: str, game: str | None) -> tuple[Room, int, str]:
        """You and computer players at once, at the game's Play Now table (three seats
        where the game has no other: ``GameDefinition.table_for_play_now``)."""
        d = games.definition(game)
        bots = d.table_for_play_now() - 1
        return self.create_practice(name, d.key, bots, games.default_level(d.key), None, {},
                                    kind="play-now")

    def join(self, code: str, name: str, seat: int | None = None,
             token: str | None = None) -> tuple[Room, int, str]:
        """Seat ``name``. ``token``, made by the process the joiner asked (several
        processes), makes the join safe to ask again: a token already seated is answered
        with its seat."""
        room = self.hub.get(code)
        if token is not None and (held := room.seat_of_token(token)) is not None:
            return room, held, token
        if room.kind != "private":  # (first: a finished Quick Match table has no host)
            raise ProtocolError("not_in_lobby", "only private rooms can be joined", status=409)
        if room.status == "finished":
            raise ProtocolError("not_in_lobby", "this room's game is over; its host can open "
                                "the free seats again with Play again or Back to room",
                                status=409)
        if room.status != "lobby":
            raise ProtocolError("not_in_lobby", "the game has already started", status=409)
        if seat is None:
            free = [i for i, s in enumerate(room.seats) if s.kind == "empty"]
            if not free:
                raise ProtocolError("room_full", "every seat is taken", status=409)
            seat = free[0]
        if not 0 <= seat < len(room.seats):
            raise ProtocolError("bad_seat", f"seat must be between 0 and {len(room.seats) - 1}",
                                status=422)
        if room.seats[seat].kind != "empty":
            raise ProtocolError("seat_taken", f"seat {seat} is taken", status=409)
        token = self.seat_human(room, seat, name, token)
        if room.host is None:
            # a room back from a match that everyone then left (its records kept): the
            # first to come back hosts it, or nobody could start it
            room.host = seat
            room.seats[seat].ready = True
        self.hub.persist(room)
        self.hub.broadcast(room, [])
        return room, seat, token

    # ------------------------------------------------------------------ host commands
    _HOST_COMMANDS = {"settings": "change the settings", "add_bot": "add a computer player",
                      "remove_bot": "remove a computer player",
                      "remove_player": "remove a player", "start": "start the game",
                      "reopen": "take the table back to the room"}

    @classmethod
    def need_host(cls, room: Room, seat: int, what: str) -> None:
        if room.host != seat:
            if room.kind == "quick-match":
                raise ProtocolError("not_host", f"a Quick Match table has no host to "
                                    f"{cls._HOST_COMMANDS[what]}; {QUICK_MATCH_NEXT}", ref=what)
            raise ProtocolError("not_host", f"only the host may {cls._HOST_COMMANDS[what]}",
                                ref=what)

    @staticmethod
    def need_lobby(room: Room, what: str) -> None:
        if room.status != "lobby":
            raise ProtocolError("not_in_lobby", f"{what} is only possible before the game "
                                "starts", ref=what)

    @staticmethod
    def next_host(room: Room) -> list[int]:
        """Who may take the host's powers over now: the people at the table, connected."""
        return [i for i in sorted(room.conns)
                if i != room.host and 0 <= i < len(room.seats)
                and room.seats[i].kind == "human"]

    @staticmethod
    def counts_ready(room: Room, seat: int) -> bool:
        """A seat ready whatever it said: the host's, and the host's passed over while away
        (``host_away``: nobody may remove it, so a settings change that asks everyone
        for Ready again must not leave the lobby waiting for it for good; a computer
        substitutes for it in play, as for anyone away)."""
        return seat in (room.host, room.host_away)

    @staticmethod
    def free_seat(room: Room, seat: int, former: str | None = None) -> None:
        """A person's seat emptied (a leave, a removal, a seat left during the match): it
        is nobody's any more, not the host's passed over either."""
        room.seats[seat] = Seat(former=former)
        if room.host_away == seat:
            room.host_away = None

    def pass_host(self, room: Room, seat: int) -> None:
        """The host's powers pass to ``seat`` (the host was away too long between games:
        ``Clocks.host_due``). The old host keeps their seat and may come back to it: the
        first host so passed over hosts again when they do (``Hub.attach``), and until then
        nobody may take them off the table (a guest made host by a phone's locked screen
        removed the person who opened the room)."""
        if room.host_away is None:
            room.host_away = room.host
        room.host = seat
        room.seats[seat].ready = True
        self.hub.persist(room)
        self.hub.broadcast(room, [])

    @staticmethod
    def host_back(room: Room, seat: int) -> bool:
        """``seat`` opened the room again: if its host part passed while it was away
        (``pass_host``), it is its own again, and True (the room is to be stored). The one
        who hosted meanwhile was ready only by hosting, so in a lobby says Ready again
        (else the room could start without their word)."""
        if room.host_away != seat:
            return False
        stand_in, room.host, room.host_away = room.host, seat, None
        room.seats[seat].ready = True
        if room.status == "lobby" and stand_in is not None and stand_in != seat \
                and 0 <= stand_in < len(room.seats) and room.seats[stand_in].kind == "human":
            room.seats[stand_in].ready = False
        return True

    def ready(self, room: Room, seat: int, ready: bool) -> None:
        ready = ready or room.host == seat
        if room.seats[seat].ready == ready:
            return  # nothing changes: nothing to store or tell (a page sending it twice)
        room.seats[seat].ready = ready
        self.hub.persist(room)
        self.hub.broadcast(room, [])

    def change_settings(self, room: Room, seat: int, patch: dict[str, Any]) -> None:
        self.need_host(room, seat, "settings")
        self.need_lobby(room, "settings")
        if "game" in patch and patch["game"] != room.game_key:
            raise ProtocolError("bad_settings", "a room's game is chosen when it is opened",
                                ref="settings")
        new = {**room.settings, **patch}
        options = {k: v for k, v in new.items() if k not in ("game", "preset", "seats")}
        if "preset" in patch and patch["preset"] != room.settings["preset"]:
            # A new preset brings its own defaults unless they are given too.
            options = {k: v for k, v in patch.items() if k not in ("game", "preset", "seats")}
        try:
            checked = games.check_settings(room.game_key, new["preset"], new["seats"],
                                           options, guest=room.guest)
        except ProtocolError as exc:
            exc.ref = "settings"
            exc.status = 400
            raise
        if checked == room.settings:
            # A change that changes nothing is neither stored nor sent, as a repeated
            # ``ready``: it took back every guest's Ready and cost a write (attacker QA).
            return
        n = checked["seats"]
        # Only empty seats taken away (what the lobby's hint "set Seats to 2 to play now"
        # asks for): the table is the one the seated people said they were ready for, and
        # their Ready stands (it went back, and Start stayed off: player QA).
        only_fewer = (n < len(room.seats)
                      and {**checked, "seats": None} == {**room.settings, "seats": None})
        if n < len(room.seats):
            if any(s.kind != "empty" for s in room.seats[n:]):
                raise ProtocolError("bad_settings", "free the last seats before removing them",
                                    ref="settings", reason="seats_taken")
            room.seats = room.seats[:n]
        else:
            room.seats.extend(Seat() for _ in range(n - len(room.seats)))
        room.settings = checked
        if not only_fewer:
            for i, s in enumerate(room.seats):
                if s.kind == "human":
                    s.ready = self.counts_ready(room, i)
        self.hub.persist(room)
        self.hub.broadcast(room, [])

    def add_bot(self, room: Room, seat: int, target: int, level: str | None) -> None:
        self.need_host(room, seat, "add_bot")
        self.need_lobby(room, "add_bot")
        if level is None:  # "" is refused like any unknown level, not taken as the default
            level = games.default_level(room.game_key)
        try:
            games.check_level(room.game_key, level)
        except ProtocolError as exc:
            exc.ref = "add_bot"
            raise
        if not 0 <= target < len(room.seats):
            raise ProtocolError("bad_seat", f"no seat {target}", ref="add_bot")
        if room.seats[target].kind != "empty":
            raise ProtocolError("seat_taken", f"seat {target} is taken", ref="add_bot")
        self.seat_bot(room, target, level)
        self.hub.persist(room)
        self.hub.broadcast(room, [])

    def remove_bot(self, room: Room, seat: int, target: int) -> None:
        self.need_host(room, seat, "remove_bot")
        self.need_lobby(room, "remove_bot")
        if not 0 <= target < len(room.seats) or room.seats[target].kind != "bot":
            raise ProtocolError("bad_seat", f"seat {target} has no computer player",
                                ref="remove_bot")
        room.seats[target] = Seat()
        self.hub.persist(room)
        self.hub.broadcast(room, [])

    def remove_player(self, room: Room, seat: int, target: int) -> None:
        """The host frees a person's seat before the game: someone who took a seat and
        never came (or anyone who knew the code) cannot hold a room's lobby forever. Their
        token stops working; they may join again with the link while a seat is free."""
        self.need_host(room, seat, "remove_player")
        self.need_lobby(room, "remove_player")
        if not 0 <= target < len(room.seats) or room.seats[target].kind != "human":
            raise ProtocolError("bad_seat", f"seat {target} has no person",
                                ref="remove_player")
        if target == seat:
            raise ProtocolError("bad_seat", "you cannot remove yourself: leave the room "
                                "instead", ref="remove_player")
        if target == room.host_away:
            raise ProtocolError("bad_seat", f"seat {target} hosted this room and is only "
                                "away: the seat stays theirs", ref="remove_player")
        conn = room.conns.pop(target, None)
        self.free_seat(room, target)
        self.hub.persist(room)
        self.hub.broadcast(room, [])
        if conn is not None:
            conn.send(ProtocolError("removed", "the host took you off this table").to_message())
            conn.close(4410, "removed")

    def start(self, room: Room, seat: int) -> None:
        self.need_host(room, seat, "start")
        if room.status == "playing":
            raise ProtocolError("not_in_lobby", "the game is already running", ref="start")
        if room.status == "finished":
            self._free_left_seats(room)
            if any(s.kind == "empty" for s in room.seats):
                # Someone left: back to the lobby, where the host can invite someone or
                # seat a computer player (a rematch was impossible before).
                self._back_to_lobby(room)
                return
        if any(s.kind == "empty" for s in room.seats):
            raise ProtocolError("seats_empty", "fill or remove the empty seats first",
                                ref="start")
        waiting = [i for i, s in enumerate(room.seats)
                   if s.kind == "human" and not s.ready and not self.counts_ready(room, i)
                   and room.status == "lobby"]
        if waiting:
            raise ProtocolError("not_ready", f"waiting for seats {waiting} to be ready",
                                ref="start")
        self.hub.table.deal(room)

    def reopen(self, room: Room, seat: int) -> None:
        """After a match, the host takes a private room's table back to its lobby, the
        people kept in their seats, to change the rules or the seats before the next one:
        another preset, the table's size, a seat for a third friend (the room's game is
        the one it was opened for). Play again deals the same table at once: the host had
        to open a new room and invite everyone again. Everyone says Ready again there, as
        after a change of settings. The room's records stay with it for the finished
        rooms' time, even once all have left (then whoever takes a seat by its link next
        hosts it)."""
        if room.kind != "private":  # (first: a Quick Match table has no host at all)
            then = (QUICK_MATCH_NEXT if room.kind == "quick-match"
                    else "this table's next game is Play again")
            raise ProtocolError("not_private", "only a private room has a room to go back "
                                f"to; {then}", ref="reopen")
        self.need_host(room, seat, "reopen")
        if room.status != "finished":
            raise ProtocolError("not_finished", "the table goes back to the room only after "
                                "the game is over", ref="reopen")
        self._free_left_seats(room)
        self._back_to_lobby(room)

    def _free_left_seats(self, room: Room) -> None:
        """Whoever left the table during the game (and has not come back) is not dealt
        into the next one: their seat is freed, like a leave after the end."""
        for i, s in enumerate(room.seats):
            if s.kind == "human" and s.left and i not in room.conns and i != room.host:
                self.free_seat(room, i)
            elif s.kind == "empty":
                s.former = None  # (the finished match's results are closed now)

    def _back_to_lobby(self, room: Room) -> None:
        # (the finished match's game stays in memory, unseen: a lobby has no view, and on
        # Redis a room stored again from memory writes its log back; a restart replays no
        # lobby's game, as its settings may have changed since: Hub.rebuild_game)
        room.status = "lobby"
        for i, s in enumerate(room.seats):
            # nothing is played in a lobby: a person a computer played for to the end was
            # shown there as "Computer" (the next deal cleared it only then)
            s.substitute = False
            s.left = False
            s.ready = s.kind == "bot" or self.counts_ready(room, i)
        self.hub.persist(room)
        self.hub.broadcast(room, [])

    def leave(self, room: Room, seat: int) -> None:
        """Leave a room that is not playing: the seat is freed (the token stops working).
        After a match the freed seat keeps its player's name as ``former``: the others'
        results and history still say who played (they read "Seat 2 wins")."""
        conn = room.conns.get(seat)
        gone = room.seats[seat]
        finished = room.status == "finished" and gone.kind == "human"
        self.free_seat(room, seat, former=gone.name if finished else None)
        room.conns.pop(seat, None)
        if room.host == seat:
            # the powers go to a person at the table (connected) first: a seat taken by
            # someone who never opened the page got them, and kept them, while the one
            # waiting there could not start
            humans = self.next_host(room) or [
                i for i, x in enumerate(room.seats) if x.kind == "human"]
            room.host = humans[0] if humans else None
            if room.host is not None:
                new = room.seats[room.host]
                new.ready = True
                if room.host not in room.conns and new.away_since is None:
                    new.away_since = self.hub.now()  # (away: passed on after host_grace)
        if room.abandoned_lobby:
            self.hub.close_room(room)  # a finished room stays for its records until swept
            self.hub.note_closed(room.code)
        else:
            # (a lobby back from a match that everyone left stays, for its records and its
            # link, until swept: closed, its records were gone with it; whoever takes a
            # seat next hosts it: ``join``)
            self.hub.persist(room)
            self.hub.broadcast(room, [])
            self.hub.clocks.schedule(room)  # (a host away: its powers pass in time)
        if conn is not None:
            conn.close(1000, "left")
