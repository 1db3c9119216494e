"""``SeatConnection.play`` against a scripted socket: the pauses after a refusal or the
server's trouble read the messages meanwhile (their events reach the bot), and a
reconnection that runs out of tries during a pause is not taken for the pause's end
(second diff review)."""

from __future__ import annotations

import asyncio
import json
import time

import websockets
from websockets.frames import Close

from colorclash.client import SeatConnection


def _state(seq, to_act, events, status="playing"):
    return {"type": "state", "seq": seq, "events": events,
            "room": {"status": status, "seats": [{"seat": 0}, {"seat": 1}]},
            "view": {"to_act": to_act, "legal": [{"type": "draw"}], "phase": "play"}}


class _WS:
    def __init__(self, script):
        self.script = list(script)
        self.sent = []
    async def send(self, data):
        self.sent.append(json.loads(data))
    async def recv(self):
        if not self.script:
            await asyncio.sleep(3600)
        item = self.script.pop(0)
        return json.dumps(item)


class _Bot:
    def __init__(self):
        self.seen = []
    def act(self, view, events):
        self.seen.append([e["n"] for e in events])
        return {"type": "draw"}


def test_the_events_of_a_state_after_a_stale_refusal_reach_the_bot():
    async def run():
        ws = _WS([
            {"type": "error", "code": "stale_action", "ref": "action", "message": "x"},
            _state(2, [1], [{"n": "E1"}]),      # read inside wait_for: its events lost
            _state(3, [0], [{"n": "E2"}]),
            _state(4, [], [], status="finished"),
        ])
        c = SeatConnection(ws, "ABC", "t")
        c.seat = 0
        c.state = _state(1, [0], [])
        bot = _Bot()
        await c.play(bot, timeout=5)
        return bot.seen
    seen = asyncio.run(run())
    assert seen[1] == ["E1", "E2"], seen


def test_a_reconnect_that_times_out_during_the_pause_is_not_swallowed():
    class _ClosingWS(_WS):
        async def recv(self):
            if self.script:
                return await super().recv()
            raise websockets.ConnectionClosed(Close(1012, "moved"), None)
        async def send(self, data):
            raise websockets.ConnectionClosed(Close(1012, "moved"), None)

    class _Client:
        opens = 0
        async def _open_ws(self, *a):
            _Client.opens += 1
            await asyncio.sleep(0.05)
            raise TimeoutError("handshake timed out")

    async def run():
        ws = _ClosingWS([{"type": "error", "code": "internal", "ref": "action",
                          "reason": "not_delivered", "message": "lost"}])
        ws.send = _WS.send.__get__(ws)  # the first action goes out
        c = SeatConnection(ws, "ABC", "t", client=_Client(), reconnect=True)
        c.RETRY_FOR = 0.3
        c.TROUBLE_PAUSE_MAX = 5.0
        c.seat = 0
        c.state = _state(1, [0], [])
        t0 = time.monotonic()
        try:
            await c.play(_Bot(), timeout=30)
        except TimeoutError:
            pass
        return time.monotonic() - t0, _Client.opens
    took, opens = asyncio.run(run())
    assert opens <= 2, (took, opens)  # one retry window, then its TimeoutError


class _Closed(_WS):
    """A socket the server closes at once (1011: Redis away)."""
    async def recv(self):
        raise websockets.ConnectionClosed(Close(1011, "store unavailable"), None)


def test_a_socket_reopened_and_closed_again_at_once_is_reopened_again():
    """A seat's socket lost while Redis was away was opened again once; the new one,
    accepted then closed at once (1011 store unavailable), ended play() with the close
    (a Redis review): the second read was outside the retry. Each retryable close is
    retried, within one window for the whole trouble."""
    class _Client:
        opens = 0
        async def _open_ws(self, *a):
            _Client.opens += 1
            if _Client.opens < 3:  # accepted, then closed at once, twice
                return _Closed([])
            return _WS([_state(5, [], [], status="finished")])

    async def run():
        c = SeatConnection(_Closed([]), "ABC", "t", client=_Client(), reconnect=True)
        msg = await c.recv(timeout=5)
        return msg, _Client.opens, c.reconnects
    msg, opens, reconnects = asyncio.run(run())
    assert msg["type"] == "state" and msg["seq"] == 5
    assert opens == 3 and reconnects == 3


def test_a_socket_closed_again_and_again_gives_up_after_one_window():
    class _Client:
        opens = 0
        async def _open_ws(self, *a):
            _Client.opens += 1  # (opened at once: the server closes it at once)
            return _Closed([])

    async def run():
        c = SeatConnection(_Closed([]), "ABC", "t", client=_Client(), reconnect=True)
        c.RETRY_FOR = 2.0
        t0 = time.monotonic()
        try:
            await c.recv(timeout=5)
        except websockets.ConnectionClosed as exc:
            return time.monotonic() - t0, exc
        return None, None
    took, exc = asyncio.run(run())
    assert exc is not None and exc.rcvd.code == 1011
    assert took < 5.0, took  # (not a fresh window after each reopen, for ever)
    # with the backoff (0.2 s doubling): a handful of opens, not tens of thousands a second
    assert 3 <= _Client.opens <= 6, _Client.opens
