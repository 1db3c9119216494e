"""A Python client that plays one seat over the real protocol (docs/protocol.md).

Bots written against it play exactly as a browser does: REST to get a seat token, then
one WebSocket carrying JSON messages.

>>> import asyncio
>>> from colorclash.bots import make_bot
>>> from colorclash.client import Client
>>> async def main():
...     client = Client("http://127.0.0.1:8000")
...     ticket = await client.play_now("Ana")
...     async with client.connect(ticket["code"], ticket["token"]) as seat:
...         await seat.play(make_bot("easy"))       # until the match is over
...         print(seat.view["result"])

Run one seat from the shell: ``python -m colorclash.client --url http://127.0.0.1:8000
--play-now`` (or ``--code KMPXRA --token ...``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine, Generator
from typing import Any

import orjson
import websockets

VERSION = 1


class ClientError(RuntimeError):
    """The server refused: a REST call (``status``: its HTTP status) or a seat's socket
    (``status`` 0); ``code`` and ``message`` as in docs/protocol.md section 5."""

    def __init__(self, status: int, code: str, message: str) -> None:
        # (a socket's error read "0 illegal_action: ...": no status to give)
        super().__init__(f"{status} {code}: {message}" if status else f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message


class Client:
    """REST calls of the protocol, and :meth:`connect` to open a seat's WebSocket."""

    #: s between the client's pings and how long the close then waits; a ping may go
    #: unanswered twice as long (a server's loop can stall for a few seconds while it
    #: takes over rooms): a dead link (a hung process, a network gone) is noticed within
    #: four times this (websockets' defaults took 45 s where the browser takes 8)
    PING_S = 5.0

    def __init__(self, base_url: str | list[str], origin: str | None = None,
                 ping_s: float | None = None) -> None:
        """``base_url``: the site, or a list of its processes' addresses (several
        processes on Redis without a load balancer in front: a lost connection is opened
        again on the next one). ``ping_s``: see :attr:`PING_S`."""
        urls = [base_url] if isinstance(base_url, str) else list(base_url)
        self.base_urls = [u.rstrip("/") for u in urls]
        self.base_url = self.base_urls[0]
        self.origin = origin
        self.ping_s = self.PING_S if ping_s is None else ping_s
        if not self.ping_s > 0:
            raise ValueError(f"ping_s must be more than 0 seconds, not {ping_s!r}")

    # ------------------------------------------------------------------ REST
    def _request_sync(self, method: str, path: str, body: dict[str, Any] | None
                      ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base_url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                raw = resp.read()
                ctype = resp.headers.get("Content-Type", "")
                return resp.status, (json.loads(raw) if "json" in ctype else raw.decode())
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            try:
                err = json.loads(raw).get("error", {})
            except ValueError:
                err = {}
            raise ClientError(exc.code, err.get("code", "http_error"),
                              err.get("message", raw.decode(errors="replace"))) from None

    async def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        _, answer = await asyncio.to_thread(self._request_sync, method, path, body)
        return answer

    async def presets(self) -> dict[str, Any]:
        return await self.request("GET", "/api/presets")

    async def create_room(self, name: str, **settings: Any) -> dict[str, Any]:
        """Private room (settings: preset, seats, clock, match, host_key)."""
        return await self.request("POST", "/api/rooms", {"name": name, **settings})

    async def join(self, code: str, name: str, seat: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        return await self.request("POST", f"/api/rooms/{code}/join", body)

    async def room(self, code: str) -> dict[str, Any]:
        return await self.request("GET", f"/api/rooms/{code}")

    async def record(self, code: str, match: int | None = None) -> dict[str, Any]:
        """The fairness record of the room's latest finished match (or of ``match``)."""
        path = f"/api/rooms/{code}/record" + (f"/{match}" if match is not None else "")
        return await self.request("GET", path)

    async def practice(self, name: str, bots: int | None = None, level: str | None = None,
                       **settings: Any) -> dict[str, Any]:
        """A table against computer players (settings: game, preset, options...). ``bots``
        and ``level`` left out take the game's own defaults (``GET /api/games``)."""
        body = {"name": name, "bots": bots, "level": level, **settings}
        return await self.request("POST", "/api/practice",
                                  {k: v for k, v in body.items() if v is not None})

    async def play_now(self, name: str = "Player", game: str | None = None) -> dict[str, Any]:
        body = {"name": name} if game is None else {"name": name, "game": game}
        return await self.request("POST", "/api/play-now", body)

    async def quick_match(self, preset: str | None = None,
                          game: str | None = None) -> dict[str, Any]:
        body = {"preset": preset, "game": game}
        return await self.request("POST", "/api/quick-match",
                                  {k: v for k, v in body.items() if v is not None})

    async def quick_match_status(self, ticket: str) -> dict[str, Any]:
        return await self.request("GET", f"/api/quick-match/{ticket}")

    async def wait_for_match(self, ticket: str, timeout: float = 60.0) -> dict[str, Any]:
        """Wait on the queue WebSocket until the table is ready; returns ``matched``.

        After ``timeout`` seconds without a table the ticket leaves the queue (so that a
        retry is not refused as ``already_queued``, and no table starts with a seat
        nobody takes) and ``TimeoutError`` is raised.
        """
        url = self._ws_url(f"/ws/quick-match?ticket={ticket}")
        async with websockets.connect(url, **self._ws_kwargs()) as ws:
            try:
                async with asyncio.timeout(timeout):
                    async for raw in ws:
                        msg = json.loads(raw)
                        if msg["type"] == "matched":
                            return msg
                        if msg["type"] == "error":
                            raise ClientError(0, msg["code"], msg["message"])
            except TimeoutError:
                matched = await self._leave_queue(ws, ticket)
                if matched is not None:  # the table was made as we gave up: take it
                    return matched
                raise TimeoutError(f"no Quick Match table within {timeout:g} s; "
                                   "the ticket left the queue") from None
        raise ClientError(0, "closed", "the queue socket closed before a match")

    async def _leave_queue(self, ws: Any, ticket: str) -> dict[str, Any] | None:
        """Take ``ticket`` out of the queue; the ``matched`` message if a table came first."""
        try:
            await ws.send(json.dumps({"type": "leave"}))
            async with asyncio.timeout(5):
                async for raw in ws:  # until the server closes it ("left the queue")
                    msg = json.loads(raw)
                    if msg.get("type") == "matched":
                        return msg
        except (TimeoutError, websockets.ConnectionClosed):
            pass
        try:  # the socket may have been on another process: the REST call is the sure one
            await self.request("DELETE", f"/api/quick-match/{ticket}")
        except ClientError:
            pass  # already gone
        return None

    # ------------------------------------------------------------------ WebSocket
    def _ws_url(self, path: str) -> str:
        base = self.base_url.replace("https://", "wss://").replace("http://", "ws://")
        return base + path

    def _ws_kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = {"max_size": 2**22, "open_timeout": 10,
                              "ping_interval": self.ping_s, "ping_timeout": 2 * self.ping_s,
                              "close_timeout": self.ping_s}
        if self.origin:
            kw["origin"] = self.origin
        return kw

    def connect(self, code: str, token: str, record: bool = False,
                reconnect: bool = True, compact: bool = False) -> Connecting:
        """Open the seat's WebSocket; waits for ``welcome`` and the first ``state``.

        Await it for the :class:`SeatConnection` (``conn = await client.connect(...)``),
        or use it directly as an async context manager, which closes the connection at
        the end (``async with client.connect(code, token) as conn:``; ``async with await
        client.connect(...)`` works too).

        With ``reconnect`` (the default) a connection the server loses (a restart, a
        process that died: close codes 1001, 1006, 1011, 1012, 1013) is opened again on
        its own, with backoff (0.2 s doubling to 2 s, for up to 60 s), on the next of
        the client's addresses; the seat, its cards and its clock are the same, and the
        next message is a complete ``state``. Refusals (4xxx) are not retried.

        With ``compact`` the server leaves ``room`` (and ``view.options``) out of a state
        when the room has not changed (``docs/protocol.md`` 2.3); :attr:`SeatConnection.state`
        is still complete (filled in from the state before), the messages that
        :meth:`SeatConnection.recv` returns and :attr:`SeatConnection.frames` are as sent."""
        return Connecting(self._connect(code, token, record, reconnect, compact))

    async def _connect(self, code: str, token: str, record: bool, reconnect: bool,
                       compact: bool) -> SeatConnection:
        conn = SeatConnection(None, code, token, record=record, client=self,
                              reconnect=reconnect, compact=compact)
        await conn.open()
        try:
            await conn.wait_for(lambda m: m["type"] == "state", timeout=10)
        except websockets.ConnectionClosed as exc:
            # refused (no such room, a token that holds no seat): the server said why in
            # an ``error`` before closing; it rides along as ``exc.error``
            exc.error = conn.errors[-1] if conn.errors else None  # type: ignore[attr-defined]
            raise
        return conn

    async def _open_ws(self, code: str, token: str, attempt: int = 0,
                       compact: bool = False) -> Any:
        base = self.base_urls[attempt % len(self.base_urls)]
        url = (base.replace("https://", "wss://").replace("http://", "ws://")
               + f"/ws/{code}?token={token}" + ("&compact=1" if compact else ""))
        return await websockets.connect(url, **self._ws_kwargs())


class Connecting:
    """What :meth:`Client.connect` returns: awaitable (the :class:`SeatConnection`) and an
    async context manager (the connection, closed on leaving the block), as
    ``websockets.connect`` is: contract.md calls the connection an async context
    manager, and both spellings of it are natural."""

    def __init__(self, opening: Coroutine[Any, Any, SeatConnection]) -> None:
        self._opening = opening
        self._conn: SeatConnection | None = None

    def __await__(self) -> Generator[Any, None, SeatConnection]:
        return self._opening.__await__()

    async def __aenter__(self) -> SeatConnection:
        self._conn = await self._opening
        return self._conn

    async def __aexit__(self, *exc: Any) -> None:
        if self._conn is not None:
            await self._conn.close()


class SeatConnection:
    """One seat's WebSocket: keeps the latest ``state``, and the latest events and errors
    received (at most ``KEPT`` of each: a bot playing match after match kept every event,
    40,000 after nine matches of Classic Table, a long session review)."""

    RETRY_CODES = {1001, 1006, 1011, 1012, 1013}
    RETRY_FOR = 60.0
    KEPT = 5000

    def __init__(self, ws: Any, code: str, token: str, record: bool = False,
                 client: Client | None = None, reconnect: bool = False,
                 compact: bool = False) -> None:
        self.ws = ws
        self.compact = compact
        self.client = client
        self.reconnect = reconnect and client is not None
        self.reconnects = 0
        self.code = code
        self.token = token
        self.seat: int | None = None
        self.welcome: dict[str, Any] | None = None  # the latest (its seat, name, grace...)
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.frames: list[str] | None = [] if record else None
        self.messages = 0
        self.close_code: int | None = None
        self._lost_since: float | None = None  # when the connection was first lost
        self._delay = 0.2  # the reopening's backoff meanwhile

    async def __aenter__(self) -> SeatConnection:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @property
    def view(self) -> dict[str, Any] | None:
        return self.state["view"] if self.state else None

    @property
    def room(self) -> dict[str, Any] | None:
        return self.state["room"] if self.state else None

    async def open(self) -> None:
        assert self.client is not None
        self.ws = await self.client._open_ws(self.code, self.token, self.reconnects,
                                             self.compact)

    async def _reopen(self) -> None:
        """Open the seat again after a lost connection, with backoff, for ``RETRY_FOR``
        seconds from the first loss of the trouble (a socket accepted then closed at once,
        Redis away, is the same trouble, not a fresh window)."""
        if self._lost_since is None:
            self._lost_since, self._delay = time.monotonic(), 0.2
        else:  # opened, then lost again at once: the backoff goes on (no storm of opens)
            await asyncio.sleep(self._delay)
            self._delay = min(2.0, self._delay * 2)
        while True:
            self.reconnects += 1
            try:
                await self.open()
                return
            except (OSError, websockets.InvalidHandshake, websockets.ConnectionClosed,
                    TimeoutError):
                if self._window_over(after=self._delay):
                    raise
                await asyncio.sleep(self._delay)
                self._delay = min(2.0, self._delay * 2)

    def _window_over(self, after: float = 0.0) -> bool:
        """Is the trouble's ``RETRY_FOR`` over (``after`` seconds from now)?"""
        return (self._lost_since is not None
                and time.monotonic() + after > self._lost_since + self.RETRY_FOR)

    def _retryable(self, exc: websockets.ConnectionClosed) -> bool:
        code = exc.rcvd.code if exc.rcvd else 1006
        return self.reconnect and code in self.RETRY_CODES

    async def close(self) -> None:
        self.reconnect = False
        await self.ws.close()

    async def send(self, type_: str, **fields: Any) -> None:
        await self.send_raw(json.dumps({"v": VERSION, "type": type_, **fields}))

    async def send_raw(self, data: str | bytes) -> None:
        try:
            await self.ws.send(data)
        except websockets.ConnectionClosed as exc:
            if not self._retryable(exc):
                raise
            # Lost: open again; the message is dropped (the next state says what holds).
            await self._reopen()

    async def act(self, action: dict[str, Any], seq: int | None = None) -> None:
        """Send ``action`` for this seat. ``seq``: the state's it was chosen on; the
        server refuses it (``stale_action``) if the table has moved on since."""
        if seq is None:
            await self.send("action", action=action)
        else:
            await self.send("action", action=action, seq=seq)

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message (updates :attr:`state`, :attr:`errors`, :attr:`events`)."""
        while True:
            try:
                async with asyncio.timeout(timeout):
                    raw = await self.ws.recv()
                break
            except websockets.ConnectionClosed as exc:
                # (a socket opened again may be closed at once too, 1011 while Redis is
                # away: each retryable close is retried, within the trouble's window)
                self.close_code = exc.rcvd.code if exc.rcvd else None
                if not self._retryable(exc) or self._window_over():
                    raise
                await self._reopen()
        self._lost_since = None  # a message came: the trouble, if any, is over
        if self.frames is not None:
            self.frames.append(raw if isinstance(raw, str) else raw.decode())
        msg = orjson.loads(raw)
        self.messages += 1
        if msg["type"] == "state":
            self.state = complete_state(msg, self.state)
            self.events.extend(msg["events"])
            if len(self.events) > self.KEPT:
                del self.events[:-self.KEPT]
        elif msg["type"] == "welcome":
            self.seat = msg["seat"]
            self.welcome = msg
        elif msg["type"] == "error":
            self.errors.append(msg)
            if len(self.errors) > self.KEPT:
                del self.errors[:-self.KEPT]
        return msg

    async def wait_for(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0
                       ) -> dict[str, Any]:
        """Read messages until one satisfies ``pred``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message in time")
            msg = await self.recv(timeout=left)
            if pred(msg):
                return msg

    async def wait_state(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0
                         ) -> dict[str, Any]:
        """Wait until the latest ``state`` satisfies ``pred`` (checks the current one first)."""
        if self.state is not None and pred(self.state):
            return self.state
        await self.wait_for(lambda m: m["type"] == "state" and pred(self.state), timeout)
        return self.state  # (complete: a compact message is filled in by recv)

    def my_turn(self) -> bool:
        v = self.view
        return bool(v and self.seat in v.get("to_act", []) and v.get("legal"))

    #: the bot's actions refused while the game does not move, before play() gives up
    REFUSED_IN_A_ROW = 20
    #: seconds play() rides out the server's own trouble (an action that did not reach
    #: the table or was not stored: Redis away, a process stopping) before it gives up
    TROUBLE_LIMIT = 180.0
    #: the longest pause between two tries meanwhile (from 0.5 s, doubling)
    TROUBLE_PAUSE_MAX = 5.0

    @staticmethod
    def _server_trouble(msg: dict[str, Any]) -> bool:
        """An action the server lost or could not store (``reason``: ``not_delivered``,
        ``not_stored``): play again once the table answers, not the bot's fault
        (docs/protocol.md, the error codes). An engine's failure on the action
        (``internal`` without a reason) is not: it is refused as any other."""
        return msg.get("code") == "internal" and msg.get("reason") in ("not_delivered",
                                                                       "not_stored")

    async def play(self, bot: Any, timeout: float = 3600.0,
                   until: Callable[[dict[str, Any]], bool] | None = None,
                   pace: float = 0.0) -> dict[str, Any]:
        """Let ``bot`` (anything with ``act(view, events)``) play this seat until the match
        is over (or ``until(state)``), waiting ``pace`` seconds before each action;
        returns the last state. ``TimeoutError`` after ``timeout`` seconds (an hour, as the
        command line's: a match of several rounds at a computer's pace takes minutes). A
        bot made for another game than the table's is refused at once (``ValueError``):
        it failed deep in its own code, on a view of another shape."""
        table = ((self.state or {}).get("room") or {}).get("game")
        made_for = getattr(bot, "game", None)
        if table and isinstance(made_for, str) and made_for != table:
            raise ValueError(f"this bot plays {made_for} and this table plays {table}: make "
                             f"one for it with make_bot({table!r}, level)")
        until = until or (lambda st: st["room"]["status"] == "finished")
        deadline = time.monotonic() + timeout
        acted_at: tuple[int, int] | None = None
        pending: list[dict[str, Any]] = []
        refused = 0  # the bot's actions refused since the game last moved
        stale = 0  # and refused as chosen on a state the table had left
        trouble = 0  # the server's own trouble since the game last moved
        trouble_since = 0.0
        resume_at = 0.0  # (monotonic) no action before, after the server's trouble
        while True:
            st = self.state
            assert st is not None
            if until(st):
                return st
            v = st["view"]
            key = (st["seq"], self.messages)
            if (v and self.seat in v.get("to_act", []) and v.get("legal")
                    and v.get("phase") != "round_over" and acted_at is None
                    and time.monotonic() >= resume_at
                    and not any(s.get("substitute") for s in st["room"]["seats"]
                                if s["seat"] == self.seat)):
                if pace:
                    await asyncio.sleep(pace)
                    if self.state is not st:
                        continue  # something changed meanwhile: look again
                action = bot.act(v, pending)
                pending = []
                if action is not None:
                    # with the state it was chosen on: if the table moved on meanwhile
                    # (a clock ran out), it is refused rather than played there
                    await self.act(action, seq=st["seq"])
                    acted_at = key
            elif v and v.get("phase") == "round_over" and acted_at is None:
                await self.send("ready")
                acted_at = key
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the match did not finish in time")
            pause = resume_at - time.monotonic()
            if 0 < pause < left:
                # the pause over: act again (its own timer: a reconnection that ran out of
                # tries inside recv raises a TimeoutError that is not the pause's)
                try:
                    async with asyncio.timeout(pause) as paused:
                        msg = await self.recv(timeout=left)
                except TimeoutError:
                    if paused.expired():
                        continue
                    raise
            else:
                msg = await self.recv(timeout=left)
            if msg["type"] == "state":
                pending.extend(msg["events"])
                if acted_at is None or msg["seq"] != acted_at[0] or msg["events"]:
                    acted_at = None
                if msg["events"]:
                    refused = stale = trouble = 0
                    resume_at = 0.0
            elif msg["type"] == "welcome":
                acted_at = None  # (re)attached: an action in flight may have been lost
            elif msg["type"] == "error" and self._server_trouble(msg):
                # Not delivered or not stored (Redis away a minute): the 20 in a row
                # closed the seat after 22 s of an outage (operator review). Played again
                # with a growing pause, for as long as TROUBLE_LIMIT.
                if not trouble:
                    trouble_since = time.monotonic()
                elif time.monotonic() - trouble_since > self.TROUBLE_LIMIT:
                    raise ClientError(0, msg.get("code", "internal"),
                                      f"the server could not take an action for "
                                      f"{self.TROUBLE_LIMIT:g} s; the last: "
                                      f"{msg.get('message', '')}")
                trouble += 1
                # (the messages meanwhile are read as ever: a state's events reach the bot)
                resume_at = time.monotonic() + min(self.TROUBLE_PAUSE_MAX,
                                                   0.25 * 2 ** min(trouble, 5))
                acted_at = None
            elif msg["type"] == "error":
                # Refused: the state we acted on was already out of date (the next state is
                # on its way) or we were too fast. Look again once a new state arrives, or
                # after a short pause; never resend in a tight loop. A bot whose every
                # action is refused would go on until the timeout without a word: stop.
                # (a stale action is a race with the table, not the bot's error: counted
                # apart, and allowed more, so that seqs that never agree still stop it)
                stale += msg.get("code") == "stale_action"
                refused += msg.get("code") not in ("rate_limited", "stale_action")
                if refused >= self.REFUSED_IN_A_ROW or stale >= 5 * self.REFUSED_IN_A_ROW:
                    raise ClientError(0, msg.get("code", "refused"),
                                      f"the server refused {max(refused, stale)} actions in a "
                                      f"row; the last: {msg.get('message', '')}")
                # a pause read by the loop above (a state meanwhile reaches the bot with its
                # events, and ends the pause if the game moved: diff review)
                resume_at = time.monotonic() + (0.25 if msg["code"] == "rate_limited" else 0.5)
                acted_at = None


def complete_state(msg: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """A compact ``state`` made whole: ``room``, and ``view.options`` with it, left out
    because the room did not change, are those of the state ``before`` (a copy of ``msg``
    then; ``msg`` itself when nothing is missing)."""
    if "room" in msg or before is None:
        return msg
    whole = {**msg, "room": before["room"]}
    view, seen = msg.get("view"), before.get("view")
    if view is not None and "options" not in view and seen and "options" in seen:
        whole["view"] = {**view, "options": seen["options"]}
    return whole


async def _main(argv: list[str] | None = None) -> int:
    from colorclash.bots import default_level, make_bot

    p = argparse.ArgumentParser(prog="python -m colorclash.client",
                                description="Play one seat with a computer player.")
    p.add_argument("--url", default="http://127.0.0.1:8000")
    p.add_argument("--code")
    p.add_argument("--token")
    p.add_argument("--play-now", action="store_true",
                   help="take a seat at a new Play Now table, with computer players")
    p.add_argument("--game", default="color-clash", help="with --play-now (GET /api/games)")
    p.add_argument("--name", default="Player",
                   help="with --play-now; names that claim to be a computer are refused")
    p.add_argument("--level", default=None,
                   help="the level that plays this seat (default: the game's default level)")
    argv = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(argv[:-1]):
        if arg == "--token" and argv[i + 1].startswith("-"):
            # A token may begin with "-" (one in 64 of those made before tokens were made
            # not to): argparse would take it for an option.
            argv[i:i + 2] = [f"--token={argv[i + 1]}"]
            break
    args = p.parse_args(argv)
    scheme, _, rest = args.url.partition("://")
    if scheme not in ("http", "https") or not rest.strip("/"):
        # (urllib's "unknown url type: 'notaurl/api/play-now'" named neither the option
        # nor what it takes)
        p.error(f"--url {args.url!r}: give the site's address, http://HOST:PORT")
    if not args.play_now and not (args.code and args.token):
        p.error("give --code and --token, or --play-now")
    if args.play_now and args.level is not None:
        try:  # before a table is made for nothing
            make_bot(args.level, game=args.game)
        except ValueError as exc:
            p.error(str(exc))
    client = Client(args.url)

    def fail(message: str) -> int:
        print(f"{p.prog}: error: {message}", file=sys.stderr)
        return 1

    try:
        if args.play_now:
            ticket = await client.play_now(args.name, game=args.game)
            args.code, args.token = ticket["code"], ticket["token"]
        async with await client.connect(args.code, args.token) as seat:
            game = (seat.room or {}).get("game", args.game)
            st = await seat.play(make_bot(args.level or default_level(game), game=game),
                                 timeout=3600)
            # What checking the deal needs (docs/server.md "To check a match"), on stderr:
            # stdout stays the result alone, one JSON line.
            room = st.get("room") or {}
            match = room.get("match")
            if room.get("code") and match and st.get("log_hash"):
                url = args.url.rstrip("/")
                print(f"room {room['code']}, match {match}, log hash {st['log_hash']}; "
                      f"to check the deal: curl -s {url}/api/rooms/{room['code']}/record/"
                      f"{match} > record.json && colorclash verify record.json --log-hash "
                      f"{st['log_hash']}", file=sys.stderr)
            print(json.dumps(st["view"]["result"]))
    except ClientError as exc:  # the server refused: its code and message, no traceback
        status = f" (HTTP {exc.status})" if exc.status else ""
        return fail(f"{exc.code}{status}: {exc.message}")
    except websockets.ConnectionClosed as exc:  # e.g. 4404 no such room, 4401 bad token
        code, reason = (exc.rcvd.code, exc.rcvd.reason) if exc.rcvd else (1006, "")
        said = getattr(exc, "error", None)
        if said:  # the server's own code and message, as for a REST refusal
            return fail(f"{said.get('code')} (closed {code}): {said.get('message')}")
        return fail(f"the server closed the connection ({code}{': ' if reason else ''}"
                    f"{reason})")
    except urllib.error.URLError as exc:
        return fail(f"cannot reach {args.url}: {exc.reason}")
    except (OSError, websockets.InvalidHandshake) as exc:
        return fail(f"cannot reach {args.url}: {exc}")
    except TimeoutError as exc:
        return fail(str(exc) or "the server did not answer in time")
    except ValueError as exc:  # a level the room's game does not have
        return fail(str(exc))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(asyncio.run(_main()))
