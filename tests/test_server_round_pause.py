"""The pause between the rounds of a match: it ends when every connected person is
ready, or after ``next_round_delay``; the only person at a table of computers may hold it
(``"ready": false``), ``next_round_hold`` seconds from each asking (WCAG 2.2.1: the round's
results closed by themselves after 8 s, and a slow reader had no way to keep them)."""

from __future__ import annotations

import asyncio
import json

import pytest

from colorclash.engine import new_game
from colorclash.server.config import Settings
from colorclash.server.hub import Hub
from colorclash.server.testing import LIFTED_LIMITS
from colorclash.store.sqlite import SQLiteStore

SETUP = {"hands": [["R1"], ["G2", "G3", "B4"], ["B5", "B6", "G7"]], "top": "R9", "first": 0,
         "draw": ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]}


class Socket:
    compact = False

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, msg: dict) -> None:
        self.sent.append(msg)

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str = "") -> None:
        pass


def _hub(tmp_path):
    def factory(*, preset, seats, seed, options):
        return new_game("color-clash", preset=preset, seats=seats, setup=SETUP, options=options)

    now = [1000.0]
    hub = Hub(SQLiteStore(tmp_path / "rooms.sqlite3"),
              Settings(**LIFTED_LIMITS, bot_delay=0.5, bot_workers=0, next_round_delay=8,
                       next_round_hold=60),
              clock=lambda: now[0], game_factory=factory)
    return hub, now


def _stop(hub: Hub) -> None:
    for r in hub.rooms.values():
        if r.timer:
            r.timer.cancel()


def _practice_to_the_pause(hub: Hub, now: list[float]):
    """Ana at a Practice table of two computers (family, three rounds), connected, in the
    pause after round 1: the room, her seat and her socket."""
    room, seat, _ = hub.create_practice("Ana", bots=2, level="easy", preset="family")
    sock = Socket()
    hub.attach(room, seat, sock)
    hub.human_action(room, seat, {"type": "play", "card": "R1"})  # round 1 is over
    while not hub.table.between_rounds(room):
        now[0] = max(now[0] + 0.5, room.bot_due or 0)
        hub.computers.move(room, now[0])
    return room, seat, sock


def test_the_only_person_at_a_table_of_computers_holds_the_pause(tmp_path):
    hub, now = _hub(tmp_path)

    async def play() -> None:
        room, seat, sock = _practice_to_the_pause(hub, now)
        assert room.clock["kind"] == "next"
        assert room.clock["deadline"] == pytest.approx(now[0] + 8)
        assert hub.clock_public(room)["hold"] == [seat]  # the client offers Wait by it
        now[0] += 5
        sent = len(sock.sent)
        hub.table.ready(room, seat, False)  # "wait"
        assert room.clock["deadline"] == pytest.approx(now[0] + 60)
        assert room.clock["seconds"] == 60
        said = [m for m in sock.sent[sent:] if m["type"] == "state"]
        assert said and said[-1]["clock"]["remaining_ms"] == 60_000
        assert hub.stored_room(room.code).clock["deadline"] == pytest.approx(now[0] + 60)
        now[0] += 50
        hub.clocks.tick_room(room)
        assert hub.table.between_rounds(room)  # held
        hub.table.ready(room, seat, False)  # and again
        assert room.clock["deadline"] == pytest.approx(now[0] + 60)
        hub.table.ready(room, seat, True)  # ready: the next round at once
        hub.clocks.tick_room(room)
        assert not hub.table.between_rounds(room) and room.game.round_no == 2
        _stop(hub)

    asyncio.run(play())
    hub.store.close()


def test_with_another_person_connected_nobody_holds_the_pause(tmp_path):
    hub, now = _hub(tmp_path)

    async def play() -> None:
        room, _, _ = hub.create_private("Ana", preset="family", seats=3)
        hub.join(room.code, "Bo")
        hub.add_bot(room, 0, 2, "easy")
        hub.lobby.ready(room, 1, True)
        hub.start(room, 0)
        for seat in (0, 1):
            hub.attach(room, seat, Socket())
        hub.human_action(room, 0, {"type": "play", "card": "R1"})
        while not hub.table.between_rounds(room):
            now[0] = max(now[0] + 0.5, room.bot_due or 0)
            if 1 in room.game.to_act:
                hub.human_action(room, 1, room.game.legal_actions(1)[0])
            else:
                hub.computers.move(room, now[0])
        deadline = room.clock["deadline"]
        assert "hold" not in hub.clock_public(room)  # no Wait offered: nobody holds it
        hub.table.ready(room, 0, False)
        assert room.clock["deadline"] == deadline  # Bo is not kept waiting
        _stop(hub)

    asyncio.run(play())
    hub.store.close()


def test_with_nobody_at_the_table_the_pause_runs_its_time(tmp_path):
    """Nobody connected between rounds (a restart: nobody has connected yet; everyone
    away) is not "everyone ready": the next round was dealt at once, and the players came
    back to a round begun without them, its clock running (an upgrade review). The pause
    runs its time; a person connected whose seat a substitute plays still lets it end
    when the others are ready."""
    hub, now = _hub(tmp_path)

    async def play() -> None:
        room, seat, sock = _practice_to_the_pause(hub, now)
        deadline = room.clock["deadline"]
        hub.detach(room, seat, room.conns[seat])  # everyone away
        assert not hub.table.all_ready(room)
        now[0] = deadline - 1
        hub.clocks.tick_room(room)
        assert hub.table.between_rounds(room)  # the pause runs on
        now[0] = deadline + 0.1
        hub.clocks.tick_room(room)
        assert not hub.table.between_rounds(room) and room.game.round_no == 2
        _stop(hub)

    asyncio.run(play())
    hub.store.close()


def test_a_restart_gives_the_pause_between_rounds_its_time_back(tmp_path):
    """The pause's deadline passed while the site was down, and the first tick after the
    restart dealt the next round before anyone was back (a diff review): the pause gets
    its time again, as a turn's clock does (Hub.RESTORED_CLOCK_AT_LEAST, or its whole
    length if shorter)."""
    hub, now = _hub(tmp_path)

    async def reach() -> str:
        room, _, _ = _practice_to_the_pause(hub, now)
        hub.persist(room)
        _stop(hub)
        return room.code

    code = asyncio.run(reach())
    hub.store.close()
    again, later = _hub(tmp_path)
    later[0] = now[0] + 60  # down for a minute: the 8 s pause is long over

    async def back() -> None:
        again.load_all()
        room = again.get(code)
        assert again.table.between_rounds(room)
        assert room.clock["deadline"] == pytest.approx(later[0] + 8)
        again.clocks.tick_room(room)
        assert again.table.between_rounds(room)  # not dealt at once
        seat = next(i for i, s in enumerate(room.seats) if s.kind == "human")
        again.attach(room, seat, Socket())
        again.table.ready(room, seat, True)  # back, and ready: dealt
        again.clocks.tick_room(room)
        assert not again.table.between_rounds(room) and room.game.round_no == 2
        _stop(again)

    asyncio.run(back())
    again.store.close()


@pytest.mark.asyncio
async def test_a_step_of_the_system_clock_moves_no_deadline(tmp_path, monkeypatch):
    """The server's time is the wall clock as of its start run on by the monotonic clock
    (``clocks.steady_wall``): read from ``time.time()``, a step of the system clock (NTP
    setting it, a virtual machine resumed) an hour forward timed every running turn out
    at once, and one back held them for an hour."""
    import time as time_module

    store = SQLiteStore(str(tmp_path / "rooms.sqlite3"))
    hub = Hub(store, Settings(bot_delay=0))
    room, host, _ = hub.create_private("Ana", seats=2, preset="standard")
    _, guest, _ = hub.join(room.code, "Bo")
    hub.lobby.ready(room, guest, True)
    hub.start(room, host)
    deadline, seq = room.clock["deadline"], room.seq
    real, steady = time_module.time, time_module.monotonic
    for step in (3600.0, -3600.0):
        monkeypatch.setattr(time_module, "time", lambda step=step: real() + step)
        assert abs(hub.now() - real()) < 1.0
        hub.clocks.tick_room(room)
        assert room.seq == seq and room.clock["deadline"] == deadline  # no turn timed out
    monkeypatch.undo()
    # the server's time runs on with the monotonic clock: the turn's 30 s, then it is out
    monkeypatch.setattr(time_module, "monotonic", lambda: steady() + 40.0)
    assert hub.now() >= deadline
    hub.clocks.tick_room(room)
    monkeypatch.undo()
    assert room.seq > seq
    if room.timer:
        room.timer.cancel()
    await hub.shutdown()
    store.close()
