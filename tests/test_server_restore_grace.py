"""A room loaded again (a restart, an upgrade, another process taking it over) gives a
person away from its game the whole grace again: the time the site was down is not time
away, as it is not time off a turn's clock (Hub.RESTORED_CLOCK_AT_LEAST)."""

from __future__ import annotations

import asyncio

from colorclash.server.config import Settings
from colorclash.server.hub import Hub
from colorclash.server.testing import LIFTED_LIMITS
from colorclash.store.sqlite import SQLiteStore

GRACE = 90.0


def _hub(path, now):
    return Hub(SQLiteStore(path), Settings(**LIFTED_LIMITS, bot_delay=0, bot_workers=0,
                                           reconnect_grace=GRACE),
               clock=lambda: now[0])


def _stop(hub: Hub) -> None:
    for r in hub.rooms.values():
        if r.timer:
            r.timer.cancel()
    hub.store.close()


def _away_at_the_stop(tmp_path, now, *, start: bool):
    """Ana's two-seat room, Bo away from t=1000 on (and the game started: ``start``),
    stored and stopped at t=1080: Bo's grace had 10 s left."""
    hub = _hub(tmp_path / "rooms.sqlite3", now)
    room, host, _ = hub.create_private("Ana", seats=2, preset="classic-table")
    _, guest, _ = hub.join(room.code, "Bo")
    if start:
        hub.lobby.ready(room, guest, True)
        hub.start(room, host)
    room.seats[guest].away_since = now[0]
    now[0] += 80.0
    hub.persist(room)
    _stop(hub)
    return room.code, guest


def test_a_person_away_from_a_game_gets_the_whole_grace_again_after_a_restart(tmp_path):
    now = [1000.0]

    async def run() -> None:
        code, guest = _away_at_the_stop(tmp_path, now, start=True)
        now[0] += 14 * 60.0  # an upgrade of 14 minutes
        again = _hub(tmp_path / "rooms.sqlite3", now)
        again.load_all()
        room = again.get(code)
        assert room.seats[guest].away_since == now[0]
        assert again.clocks.substitute_due(room, guest) == now[0] + GRACE
        again.clocks.tick_room(room)  # no substitute at the first tick, none played
        assert not room.seats[guest].substitute
        _stop(again)

    asyncio.run(run())


def test_a_room_taken_back_after_a_refused_write_keeps_when_a_person_went_away(tmp_path):
    """(Nothing was down: each refused write gave the grace again, and a substitute whose
    own write was refused would never have come: a diff review.)"""
    now = [1000.0]

    async def run() -> None:
        code, guest = _away_at_the_stop(tmp_path, now, start=True)
        again = _hub(tmp_path / "rooms.sqlite3", now)
        again.load_all()
        room = again.get(code)
        loaded_at = room.seats[guest].away_since
        now[0] += 85.0
        again.table._rebuild(room)
        assert room.seats[guest].away_since == loaded_at
        assert again.clocks.substitute_due(room, guest) == loaded_at + GRACE
        _stop(again)

    asyncio.run(run())


def test_between_games_a_restart_keeps_when_a_person_went_away(tmp_path):
    """(The lobby's mark dates its idleness and the host's absence: kept.)"""
    now = [1000.0]

    async def run() -> None:
        code, guest = _away_at_the_stop(tmp_path, now, start=False)
        now[0] += 60.0
        again = _hub(tmp_path / "rooms.sqlite3", now)
        again.load_all()
        assert again.get(code).seats[guest].away_since == 1000.0
        _stop(again)

    asyncio.run(run())


def test_between_games_a_mark_later_than_now_is_taken_as_now(tmp_path):
    """A mark stored in another time (a process whose clock was ahead, or the system
    clock stepped back since) put a host's hand-on off by the difference (a time review):
    a mark later than now is now."""
    now = [1000.0]

    async def run() -> None:
        code, guest = _away_at_the_stop(tmp_path, now, start=False)
        now[0] -= 600.0  # the clock stepped back
        again = _hub(tmp_path / "rooms.sqlite3", now)
        again.load_all()
        assert again.get(code).seats[guest].away_since == 480.0  # (stopped at 1080)
        _stop(again)

    asyncio.run(run())
