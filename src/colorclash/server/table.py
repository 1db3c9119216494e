"""The match being played: dealing, applying actions, substitutes, leaving and coming back,
and the fairness record of every finished match.

Every action goes through the engine (which decides every rule), is stored with the room
document in one transaction, and only then is announced: a player never sees an action
that a crash could lose. The game's definition says which actions only the server applies
(Color Clash's ``timeout``, ``next``, ``substitute``); players who send one are refused.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from colorclash.fairness import LOG_HASH_VERSION, log_hash_next, log_hash_start
from colorclash.server import games
from colorclash.server.model import Room, ms
from colorclash.server.protocol import ProtocolError

if TYPE_CHECKING:
    from colorclash.server.hub import Hub

log = logging.getLogger("colorclash.server")

#: seconds a person must have been away when the next match is dealt to get the away clock
#: from their first turn: a second's blip of the network at the results cost a player back
#: at once all but 5 s of their first turn (network review)
AWAY_AT_DEAL_S = 5.0


class Table:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    # ------------------------------------------------------------------ the game
    def deal(self, room: Room) -> None:
        """A new match: a fresh secret seed, its commitment published, cards dealt."""
        from colorclash.engine import secure_seed

        seed = secure_seed()
        game = games.match_game(room, seed, self.hub.game_factory)
        room.game = game
        room.seed = seed
        room.options = games.engine_options(room.settings)
        room.commitment = game.commitment()
        room.rules_version = games.definition(room.game_key).rules_version
        room.log_hash = log_hash_start(room.commitment, room.rules)
        room.match_no += 1
        room.status = "playing"
        room.result = None
        room.finished_at = None
        room.clock = None
        room.round_ready.clear()
        room.retry_after.clear()
        room.recent.clear()  # the moments of this match only
        again = room.match_no > 1  # Play again, at a table that has played
        now = self.hub.now()
        for s in room.seats:
            s.substitute = False
            s.left = False
            # someone away when the next match is dealt (the page closed at the results)
            # has the away clock from their first turn (server/clocks.py): the others
            # waited the whole turn clock first. Never at the first deal, before anyone
            # has had a chance to connect.
            s.missed = 1 if (again and s.kind == "human" and s.away_since is not None
                             and now - s.away_since >= AWAY_AT_DEAL_S) else 0
        self.hub.computers.seat_all(room)
        self.hub.clocks.update(room, None, None)
        self.hub.persist(room, new_match=True)  # drops any rows a replaced deal left
        self.hub.computers.wait(room)
        start = list(getattr(game, "start_events", None) or [])
        self.hub.broadcast(room, [{"type": "deal", "match": room.match_no,
                                   "commitment": room.commitment}, *start])
        self.hub.clocks.schedule(room)

    def server_actions(self, room: Room) -> frozenset[str]:
        return games.definition(room.game_key).server_actions

    def between_rounds(self, room: Room) -> bool:
        timer = room.game.timer() if room.game is not None and not room.game.over else None
        return bool(timer) and timer.get("kind") == "next"

    def sendable(self, room: Room, seat: int, legal: list[dict[str, Any]]
                 ) -> list[dict[str, Any]]:
        """Exactly the actions this seat's connection may send now: none while a computer
        substitute plays it or the room is not playing, never a server-only action."""
        s = room.seats[seat]
        if room.status != "playing" or s.substitute or s.kind != "human":
            return []
        server_only = self.server_actions(room)
        return [a for a in legal if a.get("type") not in server_only]

    def human_action(self, room: Room, seat: int, action: dict[str, Any],
                     seq: int | None = None) -> None:
        """A person's action for their seat. ``seq``: the state's it was chosen on, if the
        client says (refused as ``stale_action`` when the table has moved on since)."""
        if room.status != "playing" or room.game is None:
            raise ProtocolError("not_playing", "no game is running in this room", ref="action")
        if action.get("type") in self.server_actions(room):
            raise ProtocolError("illegal_action", f"{action['type']!r} is applied by the server "
                                "only", ref="action")
        if room.seats[seat].substitute:
            # Color Clash's rules keep a substitute to the end of the round; games whose
            # rules do not track substitutes give the seat back when its player connects
            # again (Hub.attach).
            until = ("the next round" if "substitute" in self.server_actions(room)
                     else "you connect to it again")
            raise ProtocolError("substituted", "a computer substitute plays your seat until "
                                f"{until}", ref="action")
        to_act = room.game.to_act
        if seat not in to_act:
            who = ", ".join(str(s) for s in to_act) or "nobody"
            raise ProtocolError("not_your_turn", f"it is not your turn (to act: {who})",
                                ref="action")
        if seq is not None and seq != room.seq:
            said = (f"the table has moved on since the state this action was chosen on (seq "
                    f"{seq}, now {room.seq})" if seq.__class__ is int and seq < room.seq else
                    f"seq {seq!r} is not the table's state (it is at seq {room.seq} of match "
                    f"{room.match_no}: a seq counts within a match)")
            raise ProtocolError("stale_action", f"{said}; nothing was played", ref="action")
        self._refuse_unknown_fields(room, seat, action)
        room.seats[seat].missed = 0  # here and acting: the whole turn clock again
        self.apply(room, seat, action, by_player=True)

    @staticmethod
    def _refuse_unknown_fields(room: Room, seat: int, action: dict[str, Any]) -> None:
        """A player's action may carry only fields the engine's legal actions of its type
        have: the engines read the fields they need and would store the rest in the log
        (an ``"evil": true`` riding along a legal play)."""
        legal = room.game.legal_actions(seat)
        if action in legal:
            return
        same = [a for a in legal if a.get("type") == action.get("type")]
        if not same:
            return  # the engine refuses the action itself, with its own reason
        # A legal action with fields added: fields that action does not have, even where
        # another action of its type has them ("color" on a coloured card, beside the
        # wild plays that take one), else they would ride along into the public record.
        base = [a for a in same if all(action.get(k) == v for k, v in a.items())]
        allowed = set().union(*base) if base else set().union(*same)
        unknown = sorted(set(action) - allowed)
        if unknown:
            raise ProtocolError("illegal_action", f"a {action['type']!r} action has no field "
                                f"{', '.join(repr(k) for k in unknown)}", ref="action")

    def apply(self, room: Room, seat: int, action: dict[str, Any],
              notice: dict[str, Any] | None = None, *,
              by_player: bool = False) -> list[dict[str, Any]]:
        """Apply one action through the engine, store it, update clocks, tell everyone.
        ``notice``: a server event told before the engine's (``time_up``: the clock ran
        out and this action was made for the seat). ``by_player``: the seat's person sent
        it (told if the store refuses it); else the server made it (a clock, a computer)."""
        from colorclash.engine import IllegalAction

        hub = self.hub
        game = room.game
        index = len(game.log)
        try:
            events = game.apply(seat, action)
        except IllegalAction as exc:
            raise ProtocolError("illegal_action", str(exc) or "illegal action",
                                ref="action") from None
        except Exception as exc:  # an engine bug: rebuild from the log, refuse the action
            log.exception("engine failed on %s by seat %s in %s", action, seat, room.code)
            hub.rebuild_game(room)
            raise ProtocolError("internal", f"the server could not apply this action "
                                f"({type(exc).__name__})", ref="action") from None
        before = (room.status, room.result, room.finished_at, room.clock,
                  room.seats[seat].substitute, len(room.history))
        room.log_hash = log_hash_next(room.log_hash or "", seat, game.log[-1][1])
        kind = action.get("type")
        if kind == "next":
            room.round_ready.clear()
        if kind == "substitute":
            room.seats[seat].substitute = bool(action.get("on"))
        if game.over:
            room.status = "finished"
            room.result = game.result
            room.finished_at = hub.now()
            room.add_record(self.match_record(room))
        hub.clocks.update(room, seat, action)
        try:
            durable = hub.persist(room, [(index, seat, action)])
        except Exception:
            log.exception("store failed in room %s; rolling back the action", room.code)
            (room.status, room.result, room.finished_at, room.clock,
             room.seats[seat].substitute, kept) = before
            del room.history[kept:]
            room.unsaved_records = [r for r in room.unsaved_records if r in room.history]
            hub.rebuild_game(room)
            raise ProtocolError("internal", "the action could not be stored; try again",
                                ref="action", reason="not_stored") from None
        hub.computers.wait(room)
        events = ([notice] if notice else []) + list(events or [])
        if durable is not None:
            room.unacked += 1
            if by_player:
                room.unacked_seats.add(seat)
            else:
                room.unacked_by_server = True
            durable.add_done_callback(lambda f: self._durable(room, f))
        # Each seat's state as of this action, sent once the action is durable.
        hub.broadcast(room, events, first=seat)
        if kind == "next":
            self.return_players(room)
        hub.clocks.schedule(room)
        return events

    def write_done(self, room: Room, future: Any, made: int) -> None:
        """Every write of the room, once the store has answered. A write it refused, of
        any kind (a lobby change, a deal, a substitute as well as an action), leaves the
        room broken: its later writes are refused too and its states are not sent, so once
        no action of it waits for the store (the last one's ``_durable`` rebuilds then) and
        no later write of it is queued, it goes back to what the store holds. (Only the
        writes of actions did that: a lobby whose write failed once, in a moment the store
        was away, stayed as it was in memory, and every later change of it was refused
        without a word.) ``made``: ``room.rebuilds`` when the write was made; a write made
        before the room's latest rebuild failed with the writes that rebuild undid (the
        store refuses a room's queued writes until it is rebuilt) and is not news."""
        if future.cancelled() or future.exception() is None or made != room.rebuilds:
            return
        if (self.hub.cluster is not None and "FENCED" in str(future.exception())
                and self.hub.cluster.lost(room.code)):
            return  # another process owns the room now
        room.broken = True
        if (room.unacked == 0 and room.last_write is future
                and self.hub.rooms.get(room.code) is room):
            self._rebuild(room)

    def _durable(self, room: Room, future: Any) -> None:
        room.unacked -= 1
        if future.cancelled() or future.exception() is not None:
            room.broken = True
            if (self.hub.cluster is not None and "FENCED" in str(future.exception())
                    and self.hub.cluster.lost(room.code)):
                return  # another process owns the room now
        if room.unacked == 0:
            if room.broken:
                self._rebuild(room)
            else:
                room.unacked_seats.clear()  # every action of theirs is stored
                room.unacked_by_server = False

    REBUILD_RETRY_S = 1.0

    def _rebuild(self, room: Room) -> None:
        """The store refused a write: the room goes back to what the store holds (no
        player saw the lost actions acknowledged) and everyone gets the fresh state. If
        the store cannot be read either (Redis away), the room stays as it is, refusing
        to announce anything, and the rebuild is tried again a moment later."""
        if room.rebuild_timer is not None:
            room.rebuild_timer.cancel()
            room.rebuild_timer = None
        try:
            restored = self.hub.stored_room(room.code)
        except Exception as exc:  # noqa: BLE001 - the store does not answer: later
            self.hub.trouble.warning(
                log, "room %s: a write failed and the store cannot be read (%s); "
                "trying again in %g s", room.code, exc, self.REBUILD_RETRY_S)
            room.rebuild_timer = asyncio.get_running_loop().call_later(
                self.REBUILD_RETRY_S, self._rebuild_later, room)
            return
        if (restored is None and self.hub.cluster is not None
                and self.hub.cluster.lost_by_redis(room.code)):
            self.restore(room)  # Redis lost it with its data: memory is the truth
            return
        room.broken = False
        room.rebuilds += 1
        if self.hub.writer is not None:
            self.hub.writer.forget_failure(room.code)
        if restored is None:  # never stored (its first write failed): nobody has it
            log.error("room %s: its first write failed; the room is dropped", room.code)
            if room.timer:
                room.timer.cancel()
            if self.hub.rooms.get(room.code) is room:
                del self.hub.rooms[room.code]
                if self.hub.cluster is not None:
                    try:  # its code and ownership in Redis are free again
                        self.hub.cluster.retire(room.code)
                    except Exception as exc:  # noqa: BLE001 - Redis away: the code stays taken
                        log.warning("room %s: could not free its code (%s)", room.code, exc)
            for conn in list(room.conns.values()):
                conn.close(1011, "the room could not be stored")
            return
        # A recovery, not a failure (each write refused was one warning line already);
        # once per 30 s whatever the room, as the refusals' lines: a full disk wrote it
        # for each room at each retry of its computer players (418 lines in 45 s)
        self.hub.trouble.warning(log, "room %s: a write failed; rebuilt from the store",
                                 room.code)
        for name in (*Room.DATA_FIELDS, "seats", "unsaved_records"):
            setattr(room, name, getattr(restored, name))
        self.hub.mark_absent(room, self.hub.now())
        self.hub.rebuild_game(room)
        # The clock ran while the store held the action, and the store's clock is the one
        # before it: the player told to play again found the turn spent and was timed out
        # at once (a Redis that stalled for 12 s). The time goes back as after a restart.
        if room.status == "playing":
            self.hub.give_time_back(room, self.hub.now())
        self.hub.computers.seat_all(room)
        room.last_write = None  # what follows is what the store holds
        # The states prepared since the failed write were never sent: a socket opened
        # meanwhile never had its first one (with the match's ``recent`` moments), and a
        # compact socket may lack the room they carried. Every socket gets a whole state
        # with ``recent`` (rebuilt with the game), as a socket just opened does.
        room.fresh = set(room.conns.values())
        self.hub.broadcast(room, [])
        # The players whose actions were lost are told so (the state above is the table
        # without them, with the same seq as the last they saw: a client waiting for the
        # answer to its action would wait for the turn clock).
        # (A player who sent nothing, whose turn a clock or a computer played, was told
        # "your last action could not be stored".)
        for seat in sorted(room.unacked_seats):
            conn = room.conns.get(seat)
            if conn is not None:
                self.hub.answer(room, conn, ProtocolError(
                    "internal", "your last action could not be stored; the table is as it "
                    "was before it: play again", ref="action", reason="not_stored").to_message())
        if not room.unacked_seats and not room.unacked_by_server:
            # a change of the room's (a start, a seat): whoever's
            for conn in room.conns.values():
                self.hub.answer(room, conn, ProtocolError(
                    "internal", "the last change to this room could not be stored; the "
                    "room is as it was before it: try again").to_message())
        room.unacked_seats.clear()
        room.unacked_by_server = False
        self.hub.clocks.schedule(room)

    def rebuild_if_broken(self, room: Room) -> None:
        """Rebuild the room if a write of it failed and no action of it waits for the
        store (without group commit: after the change whose write failed has been
        answered)."""
        if room.broken and room.unacked == 0 and self.hub.rooms.get(room.code) is room:
            self._rebuild(room)

    def restore(self, room: Room) -> None:
        """Redis lost the room with all its data (``Cluster.restore_if_data_lost``): it is
        stored again as it is in memory, the truth (the actions whose writes were refused
        meanwhile included: they were played), and every socket gets a whole state."""
        cluster = self.hub.cluster
        assert cluster is not None
        if room.rebuild_timer is not None:
            room.rebuild_timer.cancel()
            room.rebuild_timer = None
        try:
            stored = cluster.store_again(room)
        except Exception as exc:  # noqa: BLE001 - Redis away again: later
            log.warning("room %s: Redis lost it and it cannot be stored again yet (%s); "
                        "trying again in %g s", room.code, exc, self.REBUILD_RETRY_S)
            room.broken = True
            room.rebuild_timer = asyncio.get_running_loop().call_later(
                self.REBUILD_RETRY_S, self._rebuild_later, room)
            return
        cluster.awaiting_restore.discard(room.code)
        room.broken = False
        room.rebuilds += 1  # the refused writes made before this are not news
        room.restores += 1  # (the changes they made are stored now: Hub.durable)
        if self.hub.writer is not None:
            self.hub.writer.forget_failure(room.code)
        room.last_write = None
        room.unacked_seats.clear()
        room.unacked_by_server = False
        if not stored:  # its code is another room's now (made after Redis lost ours)
            log.error("room %s: Redis lost it and its code is taken; the room is dropped",
                      room.code)
            if room.timer:
                room.timer.cancel()
            if self.hub.rooms.get(room.code) is room:
                del self.hub.rooms[room.code]
            for conn in list(room.conns.values()):
                conn.close(1011, "the room could not be stored")
            return
        log.info("room %s: stored again from memory (Redis had lost it)", room.code)
        room.fresh = set(room.conns.values())
        self.hub.broadcast(room, [])
        self.hub.clocks.schedule(room)

    def _rebuild_later(self, room: Room) -> None:
        room.rebuild_timer = None
        self.rebuild_if_broken(room)

    # ------------------------------------------------------------------ substitutes
    def substitute(self, room: Room, seat: int, on: bool,
                   notice: dict[str, Any] | None = None) -> bool:
        """A computer substitute starts (or stops) playing a human's seat. Games that keep
        track of substitutes in their rules (Color Clash: a substitute cannot score) are
        told through their ``substitute`` action. ``notice``: a server event told first
        (``left``: the player chose to leave)."""
        if room.game is None or room.game.over:
            return False
        if "substitute" in self.server_actions(room):
            try:
                self.apply(room, seat, {"type": "substitute", "on": on}, notice)
            except ProtocolError:
                room.retry_after[seat] = self.hub.now() + 1.0
                return False
        s = room.seats[seat]
        s.substitute = on
        if on:
            self.hub.computers.seat_substitute(room, seat)
        else:
            s.missed = 0  # back after the substitute's time: the whole turn clock again
            self.hub.computers.unseat(room, seat)
        self.hub.persist(room)
        if "substitute" not in self.server_actions(room):
            self.hub.broadcast(room, [*([notice] if notice else []),
                                      {"type": "substitute", "seat": seat, "on": on}])
            self.hub.clocks.schedule(room)
        return True

    def return_players(self, room: Room) -> None:
        """At a new round, connected humans take their seats back from substitutes (one
        who sent ``leave`` but kept the connection open too: they are still here)."""
        for i, s in enumerate(room.seats):
            if s.kind == "human" and s.substitute and i in room.conns:
                s.left = False
                self.substitute(room, i, False)

    def leave(self, room: Room, seat: int) -> None:
        """Leave during play: a computer substitute plays the seat at once; the token keeps
        working and the player takes the seat back at the next round."""
        s = room.seats[seat]
        host = room.host
        if host == seat:
            # The host's powers (start another game, settings) pass to someone still at
            # the table, preferably connected: else the others would wait for a host who
            # is gone. Nobody else: the seat keeps them (it may come back).
            others = [i for i, x in enumerate(room.seats)
                      if i != seat and x.kind == "human" and not x.left]
            present = [i for i in others if i in room.conns]
            host = (present or others or [seat])[0]
        if s.left and s.substitute and host == room.host:
            # Gone already and played for: the same again changes nothing, so it is not
            # stored nor sent (repeated, it sent every seat a state per message).
            return
        # The others are told the player chose to leave (not a lost connection: they need
        # not wait for a return), before the substitute's own event.
        # (said once: a second leave only moves the host's powers)
        notice = None if s.left else {"type": "left", "seat": seat}
        s.left = True
        room.host = host
        if s.substitute:
            self.wait_out_the_turn(room, seat)
        elif self.substitute(room, seat, True, notice):
            notice = None  # told with the substitute's event
            self.wait_out_the_turn(room, seat)
        else:
            self.hub.persist(room)  # the tick retries the substitute shortly
        self.hub.broadcast(room, [notice] if notice else [])
        self.hub.clocks.schedule(room)

    def wait_out_the_turn(self, room: Room, seat: int) -> None:
        """A seat left in the middle of its own turn, in a game where the player may take it
        back at once (Coloretto, Rainbow: no ``substitute`` action): its substitute moves
        when the turn's clock runs out, as the player's own time would have. Else ``leave``
        then a reconnection got the computer's move for the turn on demand."""
        clock = room.clock
        if ("substitute" in self.server_actions(room) or room.game is None
                or seat not in room.game.to_act or not clock or clock.get("seat") != seat
                or not clock.get("deadline")):
            return
        room.bot_extra[seat] = max(room.bot_extra.get(seat, 0.0),
                                   clock["deadline"] - room.bot_due)

    def ready(self, room: Room, seat: int, ready: bool) -> None:
        """Between rounds of a longer match: ready for the next one. Not ready (``"ready":
        false``) from the only person at the table (the others are computers, or away)
        also holds the pause: it lasts ``next_round_hold`` seconds from then, again at
        each asking. The round's results closed by themselves after 8 s, and someone who
        reads slowly (a screen reader going through the table) had no way to keep them
        (WCAG 2.2.1; a11y QA); with other people waiting, nobody holds them up."""
        if room.status == "playing" and self.between_rounds(room):
            if ready:
                room.round_ready.add(seat)
            else:
                room.round_ready.discard(seat)
                if seat in self.holders(room) and room.clock and room.clock.get("deadline"):
                    hold = self.hub.settings.next_round_hold
                    room.clock = {**room.clock, "seconds": hold, "deadline": max(
                        room.clock["deadline"], self.hub.now() + hold)}
                    self.hub.persist(room)
                    self.hub.broadcast(room, [])
            self.hub.clocks.schedule(room)
            return
        raise ProtocolError("not_in_lobby", "nothing to be ready for now", ref="ready")

    @staticmethod
    def people_playing(room: Room) -> list[int]:
        """The seats of the people at the table now: connected, not played for."""
        return [i for i, s in enumerate(room.seats)
                if s.kind == "human" and not s.substitute and i in room.conns]

    def holders(self, room: Room) -> list[int]:
        """The connected people who may hold the pause between rounds (``ready``): each
        one with no other person playing at the table (sent with the clock, so that the
        client offers Wait where the server takes it)."""
        playing = self.people_playing(room)
        return [i for i, s in enumerate(room.seats) if s.kind == "human" and i in room.conns
                and all(j == i for j in playing)]

    def all_ready(self, room: Room) -> bool:
        """Every person at the table is ready for the next round; with nobody connected (a
        restart: nobody has connected yet; everyone away) the pause runs its time (it
        dealt at once: the players came back to a round begun without them, its clock
        running: an upgrade review)."""
        if not any(s.kind == "human" and i in room.conns for i, s in enumerate(room.seats)):
            return False
        return all(i in room.round_ready for i in self.people_playing(room))

    # ------------------------------------------------------------------ records
    def match_record(self, room: Room) -> dict[str, Any]:
        """The record of the room's current match (its actions excluded)."""
        # (the rules from the one place the log hash takes them: the record names what the
        # hash covers)
        return {"match": room.match_no, **room.rules, "seed": room.seed,
                "commitment": room.commitment,
                "result": room.result, "log_hash": room.log_hash,
                "log_hash_version": LOG_HASH_VERSION, "rules_version": room.rules_version,
                "finished_at": ms(room.finished_at)}

    def record(self, room: Room, match: int | None = None) -> dict[str, Any]:
        """The fairness record of finished match ``match`` (default: the latest)."""
        if match is None:
            if not room.history:
                raise ProtocolError("not_finished", "the record is published when the match "
                                    "is over", status=409)
            match = room.history[-1]["match"]
        entry = next((h for h in room.history if h["match"] == match), None)
        if entry is None:
            if match == room.match_no and room.status == "playing":
                raise ProtocolError("not_finished", f"match {match} is still being played; "
                                    "its record is published when it is over", status=409)
            raise ProtocolError("record_not_found", f"this room has no finished match "
                                f"{match}", status=404)
        if match == room.match_no and room.game is not None:
            actions = list(room.game.log)
        else:
            actions = self.hub.store.load_actions(room.code, match)
        record = {k: v for k, v in entry.items() if k != "finished_at"}
        record["actions"] = [[s, a] for s, a in actions]
        return record
