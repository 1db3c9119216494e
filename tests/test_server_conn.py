"""A connection's outgoing queue (server/conn.py) and the strict JSON reader: the pieces a
busy process runs for every message, rewritten for speed, checked for behaviour."""

from __future__ import annotations

import asyncio
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from colorclash.server.conn import Conn
from colorclash.server.protocol import NonFinite, loads_strict


class FakeSocket:
    def __init__(self, delay: float = 0.0) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.delay = delay
        self.gate = asyncio.Event()
        self.gate.set()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        if self.delay:
            await asyncio.sleep(self.delay)
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def _settle(conn: Conn) -> None:
    for _ in range(200):
        if not conn.pending:
            break
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_messages_leave_in_order_and_the_close_after_them() -> None:
    sock = FakeSocket()
    conn = Conn(sock.send_text, sock.close)
    for i in range(50):
        conn.send({"n": i})
    await asyncio.sleep(0)  # the writer may already have taken some
    conn.send_text('{"raw":true}')
    conn.close(4000, "bye")
    conn.send({"n": "after close"})  # refused: the connection is closing
    await _settle(conn)
    assert [json.loads(t) for t in sock.sent] == [{"n": i} for i in range(50)] + [{"raw": True}]
    assert sock.closed == (4000, "bye")
    assert conn.pending == 0


@pytest.mark.asyncio
async def test_the_writer_wakes_for_messages_sent_while_it_waits() -> None:
    sock = FakeSocket()
    conn = Conn(sock.send_text, sock.close)
    for i in range(3):
        await asyncio.sleep(0.005)  # the writer is idle, waiting
        conn.send({"n": i})
        await _settle(conn)
        assert len(sock.sent) == i + 1
    conn.stop()


@pytest.mark.asyncio
async def test_a_client_that_does_not_read_is_closed_too_slow() -> None:
    sock = FakeSocket()
    sock.gate.clear()  # the socket accepts nothing: its buffer is full
    conn = Conn(sock.send_text, sock.close)
    conn.send({"n": 0})
    await asyncio.sleep(0.01)  # the writer took it and waits on the socket
    for i in range(1, Conn.MAX_QUEUE + 5):
        conn.send({"n": i})
    assert conn.closed and conn.pending == 1  # the backlog dropped: only the close is left
    sock.gate.set()
    await _settle(conn)
    assert sock.closed == (4408, "too slow")
    assert [json.loads(t) for t in sock.sent] == [{"n": 0}]  # the one already in the socket


@pytest.mark.asyncio
async def test_a_socket_error_stops_the_writer_quietly() -> None:
    async def broken(text: str) -> None:
        raise ConnectionResetError

    sock = FakeSocket()
    conn = Conn(broken, sock.close)
    conn.send({"n": 1})
    await asyncio.sleep(0.01)
    assert conn.closed
    conn.send({"n": 2})  # ignored, no error
    assert conn.pending == 0


@pytest.mark.asyncio
async def test_a_message_with_a_non_finite_number_is_never_sent() -> None:
    sock = FakeSocket()
    conn = Conn(sock.send_text, sock.close)
    conn.send({"x": object()})  # not JSON-ready
    conn.send({"ok": 1})
    await _settle(conn)
    assert sock.sent == ['{"ok":1}']
    conn.stop()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)  # past 64 bits both ways
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@given(JSON_VALUES)
def test_strict_reading_agrees_with_the_json_module_on_json(value: object) -> None:
    text = json.dumps(value)
    assert loads_strict(text) == json.loads(text)
    assert loads_strict(text.encode()) == json.loads(text)


@pytest.mark.parametrize("text, why", [
    ("NaN", "NaN is not a JSON number"),
    ('{"t": Infinity}', "Infinity is not a JSON number"),
    ("[-Infinity]", "-Infinity is not a JSON number"),
    ('{"t": 1e999}', "too large"),
    ("-1e400", "too large"),
    ('{"t": ' + "9" * 5000 + "}", "has 5,000 digits: too large"),  # (Python's vague limit)
])
def test_strict_reading_refuses_what_is_not_json_and_says_why(text: str, why: str) -> None:
    with pytest.raises(NonFinite, match=why):
        loads_strict(text)


def test_strict_reading_keeps_large_finite_numbers() -> None:
    assert loads_strict("[1.5e308, -2.5e-300]") == [1.5e308, -2.5e-300]
    # integers just past 64 bits stay integers (orjson read -(2**63)-1 and 2**64 as floats,
    # so that a ping's t of one was echoed as a float and the other refused)
    for n in (-(2**63) - 1, 2**64, -(2**64)):
        assert type(loads_strict(str(n))) is int and loads_strict(str(n)) == n
    assert math.isfinite(loads_strict("1.7976931348623157e308"))


def test_strict_reading_raises_a_value_error_on_broken_text() -> None:
    for bad in ("{", "[1,]", '{"a" 1}', "", "\ufeff{}x"):
        with pytest.raises(ValueError):
            loads_strict(bad)


def test_the_latency_window_keeps_the_last_durations_and_ranks_them() -> None:
    from colorclash.server.metrics import LatencyWindow

    w = LatencyWindow(size=100)
    assert w.summary() == {"count": 0, "window": 0}
    for i in range(1, 201):  # 1..200 ms; the window keeps 101..200
        w.add(i / 1000)
    s = w.summary()
    assert (s["count"], s["window"]) == (200, 100)
    assert (s["p50"], s["p95"], s["p99"], s["max"]) == (151.0, 196.0, 200.0, 200.0)


class DirectSocket(FakeSocket):
    """A socket with a direct send that takes messages only while ``open_`` says so (as
    the transport does until its buffer is over the high-water mark)."""

    def __init__(self) -> None:
        super().__init__()
        self.open_ = True
        self.direct_sent = 0

    def direct(self, text: str) -> bool:
        if not self.open_:
            return False
        self.sent.append(text)
        self.direct_sent += 1
        return True


@pytest.mark.asyncio
async def test_a_direct_send_goes_out_at_once_without_the_writer_task() -> None:
    sock = DirectSocket()
    conn = Conn(sock.send_text, sock.close, sock.direct)
    for i in range(5):
        conn.send({"n": i})
    # written synchronously: nothing was queued, the writer task never ran
    assert [json.loads(t) for t in sock.sent] == [{"n": i} for i in range(5)]
    assert sock.direct_sent == 5 and conn.pending == 0
    conn.close(4000, "bye")
    conn.send({"n": "after close"})
    await _settle(conn)
    assert sock.closed == (4000, "bye") and len(sock.sent) == 5


@given(st.lists(st.sampled_from(["send", "pause", "resume", "yield"]), max_size=60))
def test_direct_and_queued_sends_keep_the_order_whatever_the_socket_does(steps) -> None:
    """Messages refused by the direct send (a full buffer) wait in the queue; later ones
    never overtake them, however the buffer fills and drains in between."""

    async def run() -> list[int]:
        sock = DirectSocket()
        conn = Conn(sock.send_text, sock.close, sock.direct)
        n = 0
        for step in steps:
            if step == "send":
                conn.send({"n": n})
                n += 1
            elif step == "pause":
                sock.open_ = False
                sock.gate.clear()  # the ASGI send waits for the drain too
            elif step == "resume":
                sock.open_ = True
                sock.gate.set()
            else:
                await asyncio.sleep(0)
        sock.open_ = True
        sock.gate.set()
        await _settle(conn)
        conn.stop()
        return [json.loads(t)["n"] for t in sock.sent], n

    sent, n = asyncio.run(run())
    assert sent == list(range(n))


@pytest.mark.asyncio
async def test_a_direct_socket_that_stays_full_is_closed_too_slow() -> None:
    sock = DirectSocket()
    sock.open_ = False
    sock.gate.clear()
    conn = Conn(sock.send_text, sock.close, sock.direct)
    for i in range(Conn.MAX_QUEUE + 5):
        conn.send({"n": i})
    assert conn.closed
    sock.open_ = True
    sock.gate.set()
    await _settle(conn)
    assert sock.closed == (4408, "too slow")


@pytest.mark.asyncio
async def test_a_socket_that_does_not_read_is_closed_at_once_not_behind_its_backlog() -> None:
    """Queued, the 4408 close waited behind a send that waited for the client to read:
    the client never got it. With a close-now it goes at once."""
    sock = DirectSocket()
    sock.open_ = False
    sock.gate.clear()  # stuck: nothing drains
    closed: list[tuple[int, str]] = []
    conn = Conn(sock.send_text, sock.close, sock.direct, lambda c, r: closed.append((c, r)))
    for i in range(Conn.MAX_QUEUE + 5):
        conn.send({"n": i})
    assert conn.closed and closed == [(4408, "too slow")] and conn.pending == 0
    conn.send({"n": "more"})  # ignored
    assert closed == [(4408, "too slow")]
    conn.stop()
