"""Computer players' pace: the bot delay, shortened when only they are left in a round that
people watch (Color Clash's play-on for places)."""

from __future__ import annotations

import asyncio

import pytest

from colorclash.engine import new_game
from colorclash.server.config import Settings
from colorclash.server.hub import Hub
from colorclash.server.testing import LIFTED_LIMITS
from colorclash.store.sqlite import SQLiteStore

DELAY = 2.0


def _hub(tmp_path, setup):
    def factory(*, preset, seats, seed, options):
        return new_game("color-clash", preset=preset, seats=seats, setup=setup, options=options)

    now = [1000.0]
    hub = Hub(SQLiteStore(tmp_path / "rooms.sqlite3"),
              Settings(**LIFTED_LIMITS, bot_delay=DELAY, bot_workers=0),
              clock=lambda: now[0], game_factory=factory)
    return hub, now


def _run(hub, play) -> None:
    """Run the test's ``play()`` on an event loop of its own, then cancel the rooms' timers
    (on that loop) and close the store."""
    async def run() -> None:
        try:
            await play()
        finally:
            for r in hub.rooms.values():
                if r.timer:
                    r.timer.cancel()

    try:
        asyncio.run(run())
    finally:
        hub.store.close()


def _deal(hands, top="R9"):
    return {"hands": [list(h) for h in hands], "top": top, "first": 0,
            "draw": ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]}


@pytest.mark.parametrize("preset, brisk", [("standard", True), ("family", True),
                                           ("classic-table", False)])
def test_computers_play_on_briskly_once_the_person_is_out(tmp_path, preset, brisk):
    """The person plays their last card: on a table that plays on for places the computer
    players go on at a quarter of the delay (the person only watches); before that, and
    where going out ends the round, at the whole delay."""
    hub, now = _hub(tmp_path, _deal([["R1"], ["G2", "G3", "B4"], ["B5", "B6", "G7"]]))

    async def play() -> None:
        room, seat, _ = hub.create_practice("Ana", bots=2, level="easy", preset=preset)
        assert seat == 0 and room.status == "playing"
        assert room.bot_due == pytest.approx(now[0] + DELAY) or room.game.to_act == [0]
        now[0] += 5
        hub.human_action(room, 0, {"type": "play", "card": "R1"})
        if brisk:
            assert room.game.watching == [0]
            assert room.bot_due == pytest.approx(now[0] + DELAY * hub.computers.WATCHED_PACE)
        else:
            assert room.game.watching == []
            assert room.bot_due == pytest.approx(now[0] + DELAY) or room.status == "finished"

    _run(hub, play)


def test_a_person_still_in_the_round_keeps_the_whole_delay(tmp_path):
    """Two people and a computer: the first person out watches, but the other person still
    plays: the computer keeps its whole delay."""
    hub, now = _hub(tmp_path, _deal([["R1"], ["G2", "G3", "B4"], ["B5", "B6", "G7"]]))

    async def play() -> None:
        room, _, _ = hub.create_private("Ana", preset="standard", seats=3)
        hub.join(room.code, "Bo")
        hub.add_bot(room, 0, 2, "easy")
        hub.lobby.ready(room, 1, True)
        hub.start(room, 0)
        now[0] += 5
        hub.human_action(room, 0, {"type": "play", "card": "R1"})
        assert room.game.watching == [0]
        assert not hub.computers.only_watched(room)
        assert room.bot_due == pytest.approx(now[0] + DELAY)

    _run(hub, play)


class _HeldPool:
    """A thinking pool whose answers the test gives, when it chooses."""

    enabled = True

    def __init__(self) -> None:
        self.asked: list[tuple[dict, asyncio.Future]] = []
        self.submitted = 0

    def think(self, bot, view, events):
        self.submitted += 1
        future = asyncio.get_running_loop().create_future()
        self.asked.append((view, future))
        return future

    def close(self) -> None:
        pass


class _Watching:
    """A person's socket at the table (computers play only for a table someone has open)."""

    def send(self, *_args, **_kwargs) -> None:
        pass

    def __getattr__(self, _name):
        return lambda *a, **k: None


def test_a_searching_computer_moves_at_the_same_time_whatever_it_weighed(tmp_path):
    """A hard player searched after the bot delay, so the time to its move told whether it
    had one choice or several (attacker review: 0.54-0.63 s forced, 0.64-0.79 s searched).
    It now begins to think when its turn comes, and its move is made at the delay's end:
    not before, however soon its thought came back, and not later."""
    hub, now = _hub(tmp_path, _deal([["R1", "R2", "G5"], ["G2", "R3", "B4"]]))
    pool = hub.thinking = _HeldPool()

    async def play() -> None:
        room, seat, _ = hub.create_practice("Ana", bots=1, level="hard", preset="classic-table")
        room.conns[0] = _Watching()
        assert room.game.to_act == [0]
        now[0] += 5
        hub.human_action(room, 0, {"type": "play", "card": "R1"})
        assert room.game.to_act == [1] and room.bots[1].thinks
        due = room.bot_due
        assert due == pytest.approx(now[0] + DELAY)
        # its thinking begins at once, not at the delay's end
        assert hub.computers.due(room) == now[0]
        hub.computers.move(room, now[0])
        assert pool.submitted == 1 and 1 in room.thinking
        view, future = pool.asked[0]
        assert view["seat"] == 1
        # the thought comes back at once: the move still waits for the delay's end
        future.set_result(({"type": "play", "card": "R3"}, room.bots[1]))
        await asyncio.sleep(0)
        assert room.game.to_act == [1] and 1 not in room.thinking
        assert hub.computers.due(room) == pytest.approx(due)
        now[0] = due - 0.01
        hub.computers.move(room, now[0])
        assert room.game.to_act == [1]  # not yet
        now[0] = due
        hub.computers.move(room, now[0])
        assert room.game.to_act == [0] and room.game.view(0)["top"] == "R3"
        assert pool.submitted == 1

    _run(hub, play)



def test_a_thought_is_not_played_on_another_position_after_a_rollback(tmp_path):
    """A write the store refused takes the table back to an earlier seq; another move can
    reach that seq again. A thought kept by seq was played there, on a position it was not
    weighed on (diff review): it is kept by the log's hash, and a rebuild forgets the
    thoughts and the searches under way."""
    hub, now = _hub(tmp_path, _deal([["R1", "R2", "G5"], ["G2", "R3", "B4"]]))
    pool = hub.thinking = _HeldPool()

    async def play() -> None:
        room, _, _ = hub.create_practice("Ana", bots=1, level="hard", preset="classic-table")
        room.conns[0] = _Watching()
        now[0] += 5
        real = hub.store.save_room
        hub.store.save_room = lambda *a, **k: None  # the store never gets the R1
        hub.human_action(room, 0, {"type": "play", "card": "R1"})
        hub.store.save_room = real
        hub.computers.move(room, now[0])  # the hard player begins to think at once
        _, future = pool.asked[0]
        future.set_result(({"type": "play", "card": "R3"}, room.bots[1]))
        await asyncio.sleep(0)
        assert 1 in room.thought
        hub.table._rebuild(room)  # the refusal noticed: back to what the store holds
        assert room.seq == 0 and room.game.view(1)["top"] == "R9"
        assert not room.thought and not room.thinking
        hub.human_action(room, 0, {"type": "play", "card": "R2"})  # seq 1 again, elsewhere
        assert room.seq == 1 and room.game.view(1)["top"] == "R2"
        hub.computers.move(room, now[0])
        assert pool.submitted == 2  # thought again, for this position
        now[0] += DELAY + 0.01
        hub.computers.move(room, now[0])
        assert room.game.to_act == [1]  # its new thought has not come: nothing played
        pool.asked[1][1].set_result(({"type": "play", "card": "G2"}, room.bots[1]))
        await asyncio.sleep(0)
        hub.computers.move(room, now[0])
        assert room.game.view(0)["top"] == "G2"

    _run(hub, play)


class _BrokenPool(_HeldPool):
    """A pool whose worker died: it refuses every search."""

    def think(self, bot, view, events):
        import concurrent.futures.process

        self.submitted += 1
        raise concurrent.futures.process.BrokenProcessPool("a worker was terminated")


def test_a_pool_that_refuses_a_search_does_not_stall_the_table(tmp_path):
    """A search the pool refused (a worker died) left its mark for good: the computer
    never moved by itself, each of its turns waited out the clock (diff review). It moves
    at the delay's end, decided on the event loop."""
    hub, now = _hub(tmp_path, _deal([["R1", "R2", "G5"], ["G2", "R3", "B4"]]))
    hub.thinking = _BrokenPool()

    async def play() -> None:
        room, _, _ = hub.create_practice("Ana", bots=1, level="hard", preset="classic-table")
        room.conns[0] = _Watching()
        now[0] += 5
        hub.human_action(room, 0, {"type": "play", "card": "R1"})
        hub.computers.move(room, now[0])
        assert hub.thinking.submitted == 1 and not room.thinking
        assert hub.computers.due(room) == pytest.approx(room.bot_due)
        now[0] = room.bot_due
        hub.computers.move(room, now[0])
        assert room.game.to_act == [0]  # it moved

    _run(hub, play)


def test_the_thinking_pool_starts_again_after_a_worker_died():
    """``ThinkingPool``: a dead worker broke the executor for good (every later search
    refused); the next search starts a new pool."""
    import os
    import signal

    from colorclash.bots import make_bot
    from colorclash.engine import new_game
    from colorclash.server.thinking import ThinkingPool

    pool = ThinkingPool(1)

    async def run() -> None:
        game = new_game("color-clash", preset="classic-table", seats=2, seed=3)
        seat = game.to_act[0]
        bot = make_bot("color-clash", "hard", seed=1)
        action, _ = await pool.think(bot, game.view(seat), [])
        assert action in game.legal_actions(seat)
        for pid in list(pool._pool._processes):
            os.kill(pid, signal.SIGKILL)
        for _ in range(200):  # (the executor notices its dead worker: 10 s at most)
            if pool._pool._broken:
                break
            await asyncio.sleep(0.05)
        action, _ = await pool.think(bot, game.view(seat), [])
        assert action in game.legal_actions(seat) and pool.restarted == 1

    try:
        asyncio.run(run())
    finally:
        pool.close()
