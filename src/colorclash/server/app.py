"""The ASGI app: REST endpoints, the WebSockets, and the static browser client.

``create_app(store_url)`` builds a FastAPI app whose lifespan opens the store, restores
every stored room (games are rebuilt from seed and action log) and starts the clocks.
See ``docs/protocol.md`` for every endpoint and message.
"""

from __future__ import annotations

import io
import json
import logging
import math
import time
from collections import deque
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import segno
from fastapi import FastAPI, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from redis import exceptions as redis_errors
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route
from starlette.websockets import WebSocketState

from colorclash import __version__
from colorclash.build import build_id
from colorclash.server import games
from colorclash.server.config import Settings
from colorclash.server.conn import Conn
from colorclash.server.direct_ws import CLOSE_EXTENSION, SEND_EXTENSION
from colorclash.server.hub import Hub
from colorclash.server.limits import MISS_COST, AddressLimits, person_address
from colorclash.server.logs import (
    install_redaction,
    install_repeat_limit,
    install_websocket_access_lines,
)
from colorclash.server.model import Room
from colorclash.server.names import hash_token, normalize_code
from colorclash.server.protocol import (
    VERSION,
    CreateRoomBody,
    JoinBody,
    PlayNowBody,
    PracticeBody,
    PresetsAnswer,
    ProtocolError,
    QueueTicket,
    QuickMatchBody,
    SeatTicket,
    error_text,
    parse_client_message,
)
from colorclash.server.web_guard import CrossSiteGuard, origin_allowed
from colorclash.server.webpage import ClientPage, FingerprintedStaticFiles
from colorclash.store import DamagedRoom, Store, open_store

log = logging.getLogger("colorclash.server")
#: a room asked for with a host key that is not one of the site's: from where, and what came
#: of it (never the key)
WRONG_HOST_KEY = "%s: a room was asked for with a host key that is not one of this site's (%s)"
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DEV_PAGES = ("/dev.html", "/js/dev.js")  # served only with dev_pages


class RateLimiter:
    """Token bucket per connection, plus a flood detector over refused messages.

    A flooding connection must cost the others as little as possible: a refused message
    is dropped before it is parsed (each one still gets a short ``rate_limited`` answer, so
    that a fast but honest client knows to resend), and ``flood_limit`` refusals within
    ``flood_window`` seconds close the socket (4429): a flood is cut after its burst and
    at most ``flood_limit`` more messages.
    """

    def __init__(self, settings: Settings) -> None:
        self.rate = settings.rate_per_s
        self.burst = settings.rate_burst
        self.tokens = settings.rate_burst
        self.last = time.monotonic()
        self.refused: deque[float] = deque()
        self.flood_limit = settings.flood_limit
        self.flood_window = settings.flood_window

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused.append(now)
        while self.refused and now - self.refused[0] > self.flood_window:
            self.refused.popleft()
        return False

    @property
    def flooding(self) -> bool:
        return len(self.refused) >= self.flood_limit


class HeadAsGet:
    """``HEAD`` answered as ``GET`` without the body, on every path (RFC 9110: a server
    that answers GET answers HEAD). FastAPI's routes answer only the methods they name, so
    ``curl -I /api/games`` got 405; the static files already did this."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Any) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body"):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


class BodyLimit:
    """Refuse HTTP request bodies above ``limit`` bytes (413, code ``too_large``)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        try:
            declared = int(headers.get(b"content-length", b"0"))
        except ValueError:
            declared = 0
        if declared > self.limit:
            await self._refuse(send)
            return
        if not declared and b"chunked" not in headers.get(b"transfer-encoding", b""):
            await self.app(scope, receive, send)  # no body
            return
        # The body is read here, whole (it is small), so that one sent in chunks past the
        # limit is refused as too large: raised from inside the app's own reading, it came
        # out as a parse error (400).
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            seen += len(chunks[-1])
            if seen > self.limit:
                await self._refuse(send)
                return
            if not message.get("more_body"):
                break
        pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> Any:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Any) -> None:
        body = json.dumps({"error": {"code": "too_large", "message":
                                     f"request body above {self.limit} bytes"}}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _stored_for_token(h: Any, code: str) -> Room:
    """Room ``code`` as the store holds it, to check a token against while another process
    plays it; a damaged document is no room here (as at a process's start), said once in
    the log, not a traceback."""
    data = h.store.load_room(code)
    try:
        room = Room.from_stored(code, data) if data is not None else None
    except DamagedRoom as exc:
        log.error("%s", exc)
        room = None
    if room is None:
        raise h.room_not_found(code)
    return room


def _is_json_type(content_type: str) -> bool:
    """``application/json`` or a ``+json`` type (RFC 6839), parameters aside: the types
    FastAPI reads as JSON. ``text/json`` and ``application/jsonx`` are not."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json"))


def _wants_a_page(request: Request) -> bool:
    """A browser's visit (GET of an HTML page), not a script's or an API call's."""
    return (request.method in ("GET", "HEAD") and not request.url.path.startswith("/api")
            and "text/html" in request.headers.get("accept", ""))


def _origin_ok(ws: WebSocket, settings: Settings) -> bool:
    return origin_allowed(ws.headers.get("origin"), ws.headers.get("host", ""),
                          settings.allowed_origins)


def _error(exc: ProtocolError) -> JSONResponse:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    body: dict[str, Any] = {"code": exc.code, "message": exc.message}
    if exc.retry_after:
        body["retry_after"] = exc.retry_after  # (the header, for a page's words)
    if exc.reason:
        body["reason"] = exc.reason
    return JSONResponse(status_code=exc.status, headers=headers, content={"error": body})


# HTTP errors raised by the framework itself (bad JSON body, unknown path, wrong method),
# answered in the documented error format instead of FastAPI's {"detail": ...}.
_HTTP_CODES = {400: "bad_json", 404: "not_found", 405: "method_not_allowed",
               413: "too_large", 415: "bad_json", 422: "bad_message", 429: "rate_limited"}


def client_address(scope_client: Any) -> str:
    """The client's address as uvicorn reports it (a trusted proxy's forwarded one), as
    the limits count people (:func:`~colorclash.server.limits.person_address`)."""
    return person_address(str(scope_client[0])) if scope_client else "?"


def create_app(store_url: str | None = None, settings: Settings | None = None,
               store: Store | None = None, game_factory: Any = None,
               close_store: bool = False) -> FastAPI:
    """The whole site. Give ``store_url`` (``sqlite:///path``) or an open ``store`` (closed
    at shutdown with ``close_store``, as one opened here always is)."""
    settings = settings or Settings.from_env()
    install_redaction()
    install_repeat_limit()
    install_websocket_access_lines(settings.access_log)
    state: dict[str, Any] = {}
    limits = AddressLimits(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        st = store if store is not None else open_store(store_url or "sqlite:///colorclash.sqlite3")
        hub = Hub(st, settings, game_factory=game_factory)
        if settings.cluster and getattr(st, "redis", None) is not None:
            from colorclash.server.cluster import Cluster

            hub.cluster = Cluster(hub, st)
            await hub.cluster.start()
            from colorclash.server.limits import SharedLimits

            state["limits"] = SharedLimits(settings, st.redis, st.prefix)
        hub.limits = state.get("limits", limits)  # one budget per key, the app's and the hub's
        hub.start_writer()
        restored = hub.load_all()
        hub.start_background()
        from colorclash.server import gctune

        gctune.tune(settings.gc_thresholds)
        state["hub"] = hub
        app.state.hub = hub
        log.info("rooms restored: %d", restored)
        try:
            yield
        finally:
            kept = len(hub.rooms)
            await hub.shutdown()
            if hub.cluster is not None:
                await hub.cluster.stop()  # (which says where its rooms go)
            saved = getattr(st, "save_gone_file", None)
            if saved is not None:
                try:
                    where = saved()
                except Exception as exc:  # noqa: BLE001 - said, and the stop goes on
                    log.error("the store file was gone, and its rooms could not be "
                              "written back: %s", exc)
                else:
                    if where is not None:
                        log.error("the store file was gone: its rooms were written to %s "
                                  "(start the server on that file to keep them)", where)
            if store is None or close_store:
                # Here, not after the server returns: uvicorn raises a SIGTERM again once
                # it has shut down (systemd's and Docker's stop), ending the process there.
                st.close()
            if hub.cluster is None:  # (a stop said nothing of the games: operator review)
                log.info("stopped: %d room(s) lost with the store, which was in memory"
                         if getattr(st, "in_memory", False) else
                         "stopped: %d room(s) kept in the store for the next start", kept)

    # /openapi.json always; its pages (/docs, /redoc) load scripts from a CDN onto the
    # site's origin, where the seat tokens are: only with the dev pages.
    api_pages = settings.dev_pages
    app = FastAPI(title="Color Clash", version="1", lifespan=lifespan,
                  docs_url="/docs" if api_pages else None,
                  redoc_url="/redoc" if api_pages else None,
                  description="Rooms, seats and the game protocol. WebSocket messages: "
                              "docs/protocol.md.")

    def hub() -> Hub:
        return state["hub"]

    def base_url(request: Request) -> str:
        return settings.public_url or str(request.base_url).rstrip("/")

    def seat_ticket(request: Request, code: str, seat: int, token: str) -> dict[str, Any]:
        return {"code": code, "seat": seat, "token": token,
                "url": f"{base_url(request)}/r/{code}", "qr": f"/api/rooms/{code}/qr.svg",
                "ws": f"/ws/{code}?token={token}"}

    @app.exception_handler(ProtocolError)
    async def _protocol_error(request: Request, exc: ProtocolError) -> JSONResponse:
        return _error(exc)

    async def _store_down(request: Request, exc: Exception) -> JSONResponse | None:
        # One line per kind while the store is away, not one per request (an outage's
        # reconnecting players wrote a traceback each, every few seconds).
        hub().trouble.warning(log, "%s: the store did not answer (%s)",
                              request.url.path, exc)
        if request.scope["type"] == "http":
            return JSONResponse(status_code=503, headers={"Retry-After": "5"}, content={
                "error": {"code": "store_unavailable", "message": "the site's store does "
                          "not answer; try again in a moment"}})
        # A WebSocket (its handler's argument is the socket): closed with 1011, which the
        # clients retry with backoff (it was the server's 500 to the handshake).
        ws: Any = request
        try:
            if ws.client_state is WebSocketState.CONNECTING:
                await ws.accept()
            if ws.client_state is WebSocketState.CONNECTED:
                await ws.close(1011, "store unavailable")
        except (RuntimeError, OSError):  # (the socket went meanwhile)
            pass
        return None

    app.add_exception_handler(redis_errors.ConnectionError, _store_down)
    app.add_exception_handler(redis_errors.TimeoutError, _store_down)

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        # (Starlette logs the traceback after this answer has gone out)
        return JSONResponse(status_code=500, content={"error": {
            "code": "internal", "message": "the server failed on this request; try again"}})

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and _wants_a_page(request):
            # a mistyped address opened in a browser: the site's page, which says so in
            # the visitor's language with the way home (it was raw JSON)
            return not_found_page(request)
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        if exc.status_code == 400 and "pars" in message.lower():
            message = "the request body is not valid JSON (or nested too deeply)"
        return JSONResponse(status_code=exc.status_code, headers=getattr(exc, "headers", None),
                            content={"error": {"code": code, "message": message}})

    def limits_now() -> AddressLimits:
        return state.get("limits", limits)

    def limit(request: Request, kind: str) -> str:
        address = client_address(request.client)
        limits_now().take(kind, address)
        return address

    def lookup_budget(address: str) -> ProtocolError | None:
        """Take one look-up of ``address`` for a socket's opening: None, or the refusal
        if its budget is spent (said only if the opening turns out to be a guess)."""
        try:
            limits_now().take("lookup", address)
        except ProtocolError as exc:
            return exc
        return None

    async def on_room(request: Request, method: str, code: str, *args: Any) -> Any:
        """A REST operation on a room (wherever it lives), counted against the address's
        look-up budget (a code that does not exist costs more)."""
        address = limit(request, "lookup")
        try:
            return await hub().room_op(method, code, *args)
        except ProtocolError as exc:
            if exc.code == "room_not_found":
                limits_now().charge("lookup", address, MISS_COST - 1)
            raise

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        code = "bad_message"
        errors = exc.errors()
        not_json = None
        where = {(err.get("loc") or ("",))[0] for err in errors}
        if where == {"path"}:  # /api/rooms/X/record/abc: no such thing, whatever the body
            err = errors[0]
            name = str(err["loc"][-1])
            code = "record_not_found" if name == "match" else "not_found"
            return JSONResponse(status_code=404, content={"error": {
                "code": code, "message": f"no {name} {str(err.get('input'))[:20]!r} here"}})
        if where <= {"path", "query"}:
            pass  # the URL is wrong, not the body: no guessing about JSON below
        elif any(err.get("type") == "json_invalid" for err in errors):
            not_json = "the request body is not valid JSON"
        elif any(isinstance(err.get("input"), float) and not math.isfinite(err["input"])
                 for err in errors):
            not_json = "numbers must be finite: NaN, Infinity and 1e999 are not JSON"
        elif not _is_json_type(request.headers.get("content-type", "")):
            # text/plain, text/json, a form, or no Content-Type at all (FastAPI reads a
            # body as JSON only when told so; an empty body, with or without it, is {})
            not_json = "send the body as JSON, with Content-Type: application/json"
        if not_json:
            return JSONResponse(status_code=400, content={"error": {
                "code": "bad_json", "message": not_json}})
        reason = None
        takes_options = request.url.path in ("/api/rooms", "/api/practice")
        for err in errors[:3]:
            loc = [str(x) for x in err.get("loc", ()) if x != "body"]
            parts.append(f"{'.'.join(loc) or 'body'}: {error_text(err, takes_options)}")
            if loc == ["name"] and err.get("type") == "value_error":
                code = "bad_name"  # a text that is not an acceptable name (clean_name);
                # a name of the wrong JSON type (123, null) stays bad_message
                reason = getattr((err.get("ctx") or {}).get("error"), "reason", None)
        error: dict[str, Any] = {"code": code, "message": "; ".join(parts) or "invalid request"}
        if reason is not None:
            error["reason"] = reason  # which rule of a name (protocol.BadName)
        return JSONResponse(status_code=422, content={"error": error})

    # ------------------------------------------------------------------ REST
    @app.get("/healthz", tags=["ops"])
    async def healthz() -> dict[str, Any]:
        h = hub()
        from colorclash.server import gctune
        from colorclash.server.metrics import occupancy

        # (rooms, playing, players, quick_match: "rooms" alone counted lobbies and
        # finished rooms, and an operator could not tell when no game was running)
        out: dict[str, Any] = {"ok": True, "version": __version__, "build": build_id(),
                               **occupancy(h),
                               "gc": gctune.stats(), "actions": h.action_latency.summary()}
        guard = getattr(app.state, "connection_guard", None)
        if guard is not None:  # (open, pending, the cap, refused by cap, evicted, timed out)
            out["connections"] = guard.stats()
        if h.writer is not None:  # group commit: how many writes share a commit
            out["store_writes"] = {"writes": h.writer.writes, "commits": h.writer.batches}
        if h.writer is not None and h.writer.refusing:
            # the store refuses its commits (a full disk): no game can go on here
            out["ok"] = False
            out["error"] = {"code": "store_unavailable", "message":
                            f"the store refused the last commit: {h.writer.refusing}"}
            return JSONResponse(status_code=503, content=out)
        gone = h.store_file_gone()
        if gone:  # the games go on, in a file no name leads to: a crash would lose them
            out["ok"] = False
            out["error"] = {"code": "store_file_gone", "message": f"{gone}: its rooms are "
                            "written back when the server stops (SIGTERM); a crash or "
                            "SIGKILL would lose them"}
            return JSONResponse(status_code=503, content=out)
        if h.cluster is not None:
            out["process"] = h.cluster.id
            silence = h.cluster.silence()
            if silence:  # a load balancer sends nobody here until Redis answers again
                out["ok"] = False
                out["error"] = {"code": "store_unavailable", "message": silence}
                return JSONResponse(status_code=503, content=out)
        return out

    # (HEAD, as many health checkers send it: HeadAsGet)

    metrics_registry = None

    @app.get("/metrics", tags=["ops"])
    async def metrics(request: Request) -> Response:
        """The figures of /healthz for a Prometheus scraper (server/prometheus.py)."""
        nonlocal metrics_registry
        from colorclash.server import prometheus

        if metrics_registry is None:
            metrics_registry = prometheus.registry_for(
                hub, lambda: getattr(app.state, "connection_guard", None))
        body, content_type = prometheus.exposition(metrics_registry,
                                                       request.headers.get("accept"))
        return Response(body, media_type=content_type)

    @app.get("/api/games", tags=["rooms"])
    async def list_games() -> dict[str, Any]:
        """The games this site hosts: seats, presets, options with choices and defaults,
        computer levels; and how long this site keeps an away player's seat (``away``: the
        operator's settings, which the How to play pages say)."""
        return {**games.games_public(), "away": settings.away_policy()}

    @app.get("/api/presets", response_model=PresetsAnswer, tags=["rooms"])
    async def presets() -> dict[str, Any]:
        """Protocol v1: Color Clash's presets (`/api/games` has every game)."""
        return games.presets_public()

    @app.post("/api/rooms", response_model=SeatTicket, status_code=201, tags=["rooms"])
    async def create_room(request: Request, body: CreateRoomBody | None = None
                          ) -> dict[str, Any]:
        """Create a private room; the host sits in seat 0. Every field is optional: an
        empty body is ``{}``."""
        address = limit(request, "create")
        body = body or CreateRoomBody()
        # A wrong key: the room opens as a guest's, or is refused (more seats than a
        # guest's); the operator sees the attempt either way (a leaked or mistyped key,
        # or someone guessing: the creation budget bounds the guesses), and what came of it.
        wrong_key = bool(body.host_key) and not hub().is_operator_key(body.host_key)
        try:
            room, seat, token = hub().create_private(body.name, body.preset, body.seats,
                                                     body.clock, body.match, body.host_key,
                                                     game=body.game, options=body.options)
        except ProtocolError as exc:
            if wrong_key:
                log.warning(WRONG_HOST_KEY, address, f"refused: {exc.code}")
            raise
        if wrong_key:
            log.warning(WRONG_HOST_KEY, address,
                        f"opened as a guest's room, at most {games.GUEST_MAX_SEATS} seats")
        await hub().durable(room)  # the seat exists on disk before its token is given
        return seat_ticket(request, room.code, seat, token)

    @app.post("/api/rooms/{code}/join", response_model=SeatTicket, tags=["rooms"])
    async def join_room(code: str, request: Request, body: JoinBody | None = None
                        ) -> dict[str, Any]:
        """Take a seat in a private room's lobby (an empty one unless `seat` is given).
        Every field is optional: an empty body is ``{}``."""
        limit(request, "join")
        body = body or JoinBody()
        got = await on_room(request, "join", code, body.name, body.seat)
        return seat_ticket(request, got["code"], got["seat"], got["token"])

    @app.get("/api/rooms/{code}", tags=["rooms"])
    async def get_room(code: str, request: Request) -> dict[str, Any]:
        """The public room object (seats, settings, status, commitment)."""
        return await on_room(request, "public", code)

    @app.get("/api/rooms/{code}/qr.svg", tags=["rooms"],
             responses={200: {"content": {"image/svg+xml": {}}}})
    async def room_qr(code: str, request: Request) -> Response:
        """QR code (SVG) of the room's invite link."""
        room = await on_room(request, "public", code)
        link = f"{base_url(request)}/r/{room['code']}"
        try:
            qr = segno.make(link, error="m")
        except segno.DataOverflowError:  # (a Host header of thousands of characters)
            raise ProtocolError("bad_request", f"the invite link is too long for a QR code "
                                f"({len(link)} characters): check the Host header") from None
        buf = io.BytesIO()
        qr.save(buf, kind="svg", scale=6, border=2, xmldecl=False, svgclass="qr",
                title=f"Invite link to room {room['code']}")
        return Response(buf.getvalue(), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    @app.get("/api/rooms/{code}/record", tags=["fairness"])
    async def room_record(code: str, request: Request) -> dict[str, Any]:
        """The room's latest finished match: seed, commitment and actions, for
        `colorclash verify`."""
        return await on_room(request, "record", code)

    @app.get("/api/rooms/{code}/record/{match}", tags=["fairness"])
    async def room_record_of(code: str, request: Request,
                             match: Annotated[str, PathParam(pattern=r"^[1-9][0-9]{0,99}$")]
                             ) -> dict[str, Any]:
        """The record of finished match number `match` (1 for the room's first), written
        as a whole number: `1.0`, `01`, `+1` or `0_1` name no record (the number was read
        loosely and each of them gave match 1)."""
        return await on_room(request, "record", code, int(match))

    @app.post("/api/practice", response_model=SeatTicket, status_code=201, tags=["play"])
    async def practice(request: Request, body: PracticeBody | None = None
                       ) -> dict[str, Any]:
        """You against 1-5 computer players; dealt at once. Every field is optional: an
        empty body is ``{}``."""
        limit(request, "create")
        body = body or PracticeBody()
        room, seat, token = hub().create_practice(body.name, body.bots, body.level,
                                                  body.preset, body.clock, body.match,
                                                  game=body.game, options=body.options)
        await hub().durable(room)  # the seat exists on disk before its token is given
        return seat_ticket(request, room.code, seat, token)

    @app.post("/api/play-now", response_model=SeatTicket, status_code=201, tags=["play"])
    async def play_now(request: Request, body: PlayNowBody | None = None) -> dict[str, Any]:
        """A 3-seat table: you and 2 computer players; dealt at once."""
        limit(request, "create")
        room, seat, token = hub().create_play_now(body.name if body else "Player",
                                                  game=body.game if body else None)
        await hub().durable(room)  # the seat exists on disk before its token is given
        return seat_ticket(request, room.code, seat, token)

    @app.post("/api/quick-match", response_model=QueueTicket, status_code=202, tags=["play"])
    async def quick_match(request: Request, body: QuickMatchBody | None = None
                          ) -> dict[str, Any]:
        """Queue for a table of people only; you get an automatic animal name."""
        address = limit(request, "queue")
        return await queue_op("qm_join", body.preset if body else None,
                              body.game if body else None, address)

    async def queue_op(op: str, *args: Any) -> Any:
        """A Quick Match operation, on the process that holds the queue."""
        h = hub()
        if h.cluster is not None:
            return await h.cluster.queue_op(op, *args)
        return await h.local_op(op, None, *args)

    @app.get("/api/quick-match/{ticket}", tags=["play"])
    async def quick_match_status(ticket: str, request: Request) -> dict[str, Any]:
        # A poll is a person there (a table may start with it): counted against the
        # address's look-ups, as a room's are (free, one poll made a posted ticket nobody
        # was at a seat at a stranger's table)
        limit(request, "lookup")
        return await queue_op("qm_status", ticket)

    @app.delete("/api/quick-match/{ticket}", tags=["play"])
    async def quick_match_leave(ticket: str, request: Request) -> dict[str, Any]:
        # a look-up like the poll (free, a stream of them made the queue's process work
        # for nothing: attacker review), charged but never refused: a leave refused left
        # a person who had gone in the queue, to be seated with strangers (diff review);
        # a ticket already gone is left already, not a miss; and it spends no more than
        # there is (a stream of them, never refused, took the address's budget 60 below
        # zero: two minutes of its look-ups and joins refused, a school's behind one NAT)
        limits_now().charge("lookup", client_address(request.client), 1, debt=False)
        return await queue_op("qm_leave", ticket)

    # ------------------------------------------------------------------ WebSockets
    async def refuse(ws: WebSocket, exc: ProtocolError, close_code: int) -> None:
        await ws.accept()
        await ws.send_json(exc.to_message())
        await ws.close(close_code)
        if settings.access_log:  # (uvicorn's line for it said only "[accepted]")
            log.info('%s - "WebSocket %s" refused: %s, closed %d',
                     client_address(ws.client), ws.url.path, exc.code, close_code)

    async def opened_too_often(ws: WebSocket, key: str, what: str) -> bool:
        """Take one socket opening of ``key`` (a seat or a ticket: each opening and close
        tells the others a new state or count); refuse the socket past the budget."""
        try:
            limits_now().take("reconnect", key)
        except ProtocolError as exc:
            await refuse(ws, ProtocolError(
                "rate_limited", f"this {what} was opened too often; try again in "
                f"{exc.retry_after} s", retry_after=exc.retry_after), 1013)
            return True
        return False

    def make_conn(ws: WebSocket) -> Conn:
        extensions = ws.scope.get("extensions") or {}
        return Conn(ws.send_text, lambda code, reason: ws.close(code, reason),
                    extensions.get(SEND_EXTENSION), extensions.get(CLOSE_EXTENSION))

    async def read_loop(ws: WebSocket, conn: Conn, on_message: Any,
                        allowed: tuple[str, ...] | None = None,
                        answer: Any = None, settle: Any = None) -> None:
        """Read a connection's messages and hand each to ``on_message``. Every answer
        (an error, a pong) goes back through ``answer``, in the order of the messages (a
        room's: after the states already on their way)."""
        answer = answer or conn.send
        limiter = RateLimiter(settings)
        while not conn.closed:
            msg = await ws.receive()
            received = time.perf_counter()
            if msg["type"] == "websocket.disconnect" or conn.closed:
                # (closed while this frame was on its way: replaced, removed, or its seat
                # left; the seat may be someone else's by now, so the frame acts for nobody)
                return
            raw = msg.get("text")
            if raw is None:
                raw = msg.get("bytes") or b""
            if not limiter.allow():
                if limiter.flooding:
                    if settle is not None:
                        await settle()  # the answers on their way go out before the close
                    conn.send(ProtocolError("flood", "too many messages; closing").to_message())
                    conn.close(4429, "flood")
                    return
                # (unparsed, for a flood's sake; an action is told apart by its text, so a
                # bot knows which of its messages to send again, and when: a bot author
                # playing a long run of its own actions found nothing to go by)
                is_action = ('"action"' if isinstance(raw, str) else b'"action"') in raw
                answer(ProtocolError("rate_limited", "slow down: at most "
                                        f"{settings.rate_per_s:g} messages per second; this "
                                        f"{'action' if is_action else 'message'} was ignored: "
                                        "send it again in a moment",
                                        ref="action" if is_action else None,
                                        retry_after=1).to_message())
                continue
            try:
                parsed = parse_client_message(raw, settings.max_frame, allowed)
            except ProtocolError as exc:
                answer(exc.to_message())
                continue
            if parsed.type == "ping":
                answer({"v": VERSION, "type": "pong", "t": parsed.t,
                        "server_time": int(hub().now() * 1000)})
                continue
            h = hub()
            h.frame_at = received
            try:
                on_message(parsed)
            except ProtocolError as exc:
                answer(exc.to_message())
            except Exception:  # noqa: BLE001 - a bug must not kill the connection
                log.exception("message %s failed", parsed.type)
                answer(ProtocolError("internal", "the server failed on this message; "
                                        "nothing changed").to_message())
            finally:
                h.frame_at = None

    @app.websocket("/ws/quick-match")
    async def ws_quick_match(ws: WebSocket, ticket: str = "") -> None:
        if not _origin_ok(ws, settings):
            await refuse(ws, ProtocolError("bad_origin", "origin not allowed"), 4403)
            return
        h = hub()
        leader = None
        if h.cluster is not None:
            leader = h.cluster.leader_id()
            if leader == h.cluster.id:
                leader = None
        # An opening is a look-up, a ticket that does not exist a miss, as for a room's
        # socket (both were free: a stream of them made the queue's process work for
        # nothing; attacker review). Over the budget a ticket of the queue still gets in,
        # as a seat's own token does: one this process cannot check (the queue is on
        # another) is let through, charged (refused, a person behind a busy shared
        # address lost their place in the queue: diff review).
        # On another process than the queue's, a ticket not found is charged once the
        # queue says so, and over the budget the ticket is asked of the queue before the
        # socket opens: there a stream of made-up tickets was charged nothing, let
        # through and sent on to the queue for ever (attacker review).
        address = client_address(ws.client)
        over_budget = lookup_budget(address)

        def charge_miss() -> None:
            """A ticket that does not exist, opened within the budget: charged as a guess
            (over it, the opening was charged and refused or let through already)."""
            if over_budget is None:
                limits_now().charge("lookup", address, MISS_COST - 1)

        if not ticket:  # a miss, said as such ("no such ticket" read as if one were given)
            charge_miss()
            await refuse(ws, over_budget or ProtocolError(
                "ticket_not_found", "no ticket: open /ws/quick-match?ticket=TICKET with the "
                "ticket POST /api/quick-match gave"), 1013 if over_budget else 4404)
            return

        try:
            if leader is None:
                h.qm_get(ticket)
            elif over_budget is not None:
                await h.cluster.call(leader, "qm_exists", None, ticket, timeout=1.0)
        except ProtocolError as exc:
            if exc.code == "ticket_not_found":
                charge_miss()
                await refuse(ws, over_budget or exc, 1013 if over_budget else 4404)
                return
            if leader is None:
                raise
            # (the queue's process did not answer: let through, charged, as before)
        if leader is not None and over_budget is not None:
            limits_now().charge("lookup", address, 1)
        if await opened_too_often(ws, f"quick-match/{hash_token(ticket)[:32]}", "ticket"):
            return
        await ws.accept()
        conn = make_conn(ws)
        if leader is not None:  # the queue is on another process
            proxy = h.cluster.open_queue_proxy(ticket, conn, leader)
            try:
                await read_loop(ws, conn, lambda msg: h.cluster.queue_forward(
                    proxy, msg.model_dump()), allowed=("ping", "leave"))
            except Exception:  # noqa: BLE001 - disconnects surface here
                pass
            finally:
                h.cluster.close_queue_proxy(proxy)
                # (the queue never knew the ticket; not a queue lost with its process,
                # whose people are real: closed "queue_lost")
                if conn.closed_with == (4404, "ticket_not_found"):
                    charge_miss()
                await _finish(conn)
            return
        h.qm_attach(ticket, conn)

        def on_message(msg: Any) -> None:
            if msg.type == "leave":
                h.qm_leave(ticket, keep=conn)
                conn.close(1000, "left the queue")

        try:
            await read_loop(ws, conn, on_message, allowed=("ping", "leave"))
        except Exception:  # noqa: BLE001 - disconnects surface here
            pass
        finally:
            h.qm_detach(ticket, conn)
            await _finish(conn)

    @app.websocket("/ws/{code}")
    async def ws_room(ws: WebSocket, code: str, token: str = "", compact: str = "") -> None:
        if not _origin_ok(ws, settings):
            await refuse(ws, ProtocolError("bad_origin", "origin not allowed"), 4403)
            return
        h = hub()
        address = client_address(ws.client)
        # Look-ups are counted per address, so that codes cannot be guessed; but a seat's
        # own token always gets in, also over the budget (whoever shares the address, or
        # a page that spent it from the player's browser, cannot lock a player out of
        # their game). Over the budget every other answer is the same: 1013, try later.
        over_budget = lookup_budget(address)

        async def miss(exc: ProtocolError, close_code: int) -> None:
            """No such room, or no such seat: a guess, charged; over the budget, the
            answer that says neither."""
            if over_budget is not None:
                await refuse(ws, over_budget, 1013)
                return
            limits_now().charge("lookup", address, MISS_COST - 1)
            await refuse(ws, exc, close_code)

        owner = None
        try:
            if h.cluster is not None:
                room, owner = await h.cluster.locate(normalize_code(code))
                if room is None:  # held by another process: check the token on the store
                    room = _stored_for_token(h, normalize_code(code))
            else:
                room = h.get(code)
        except ProtocolError as exc:
            await miss(exc, 4404)
            return
        seat = room.seat_of_token(token) if token else None
        if seat is None:
            # (no token at all is said as such: "holds no seat" read as if one were given)
            why = ("this token holds no seat in this room" if token else
                   "no token: open /ws/CODE?token=TOKEN with the token your seat was given")
            await miss(ProtocolError("bad_token", why), 4401)
            return
        token_hash = hash_token(token)
        # A seat's own socket, opened and closed in a loop, sent every other player of
        # the room two states each time (1,400 a second from one client).
        if await opened_too_often(ws, f"{room.code}/{token_hash[:32]}", "seat"):
            return
        await ws.accept()
        current = h.rooms.get(room.code) if owner is None else room
        if current is not room:
            # The room left memory while the socket was being accepted (the janitor swept
            # it, or it was rebuilt from the store): the socket goes to the room as it is
            # now, or is told there is none (it was attached to a room nobody tracked: no
            # clocks, no computer players, and its writes stored a deleted room again).
            if current is None and h.cluster is not None:
                # (it may live on another process now: the client opens its socket again)
                await ws.close(1012, "the room moved; reconnect")
                return
            if current is None:
                await ws.send_json(h.room_not_found(room.code).to_message())
                await ws.close(4404)
                return
            room = current
        if owner is None and not h.holds_seat(room, seat, token_hash):
            # The seat was freed (a leave) while the socket was being accepted.
            await ws.send_json(ProtocolError(
                "bad_token", "this token holds no seat in this room").to_message())
            await ws.close(4401)
            return
        conn = make_conn(ws)
        conn.compact = compact in ("1", "true")
        if owner is not None:  # proxied: messages to the owner, its states back
            proxy = h.cluster.open_proxy(room.code, seat, conn, owner, token_hash)
            try:
                await read_loop(ws, conn, lambda msg: h.cluster.forward(proxy, msg.model_dump()))
            except Exception:  # noqa: BLE001 - disconnects surface here
                pass
            finally:
                h.cluster.close_proxy(proxy)
                await _finish(conn)
            return
        h.attach(room, seat, conn)
        try:
            await read_loop(ws, conn, lambda msg: h.handle(room, seat, msg),
                            answer=lambda message: h.answer(room, conn, message),
                            settle=lambda: h.answered(room))
        except Exception:  # noqa: BLE001 - disconnects surface here
            pass
        finally:
            h.detach(room, seat, conn)
            await _finish(conn)

    # ------------------------------------------------------------------ the browser client
    app.add_middleware(BodyLimit, limit=settings.max_frame * 2)
    app.add_middleware(HeadAsGet)
    app.add_middleware(CrossSiteGuard, allowed_origins=settings.allowed_origins,
                       allowed_hosts=settings.allowed_hosts)
    index = WEB_DIR / "index.html"
    client = ClientPage(WEB_DIR)  # index.html with its files by fingerprint (webpage.py)
    # index.html is a template, served by client_page; the dev page only when asked for
    hidden = ("index.html",) + (() if settings.dev_pages
                                else tuple(p.lstrip("/") for p in DEV_PAGES))
    static = (FingerprintedStaticFiles(directory=WEB_DIR, html=True, hidden=hidden,
                                       fingerprints=client.fingerprints)
              if WEB_DIR.is_dir() else None)

    def client_page(request: Request) -> Response:
        if static is None or not index.exists():
            return JSONResponse({"error": {"code": "no_client", "message":
                                           "the browser client is not installed"}}, 404)
        return client.response(request.headers, static)

    def not_found_page(request: Request) -> Response:
        if static is None or not index.exists():
            return JSONResponse({"error": {"code": "not_found", "message": "Not Found"}}, 404)
        return client.response(request.headers, static, status_code=404)

    @app.get("/", include_in_schema=False)
    async def home_page(request: Request) -> Response:
        return client_page(request)

    @app.get("/index.html", include_in_schema=False)
    async def index_html(request: Request) -> Response:
        return client_page(request)

    @app.get("/r/{code}", include_in_schema=False)
    async def invite(code: str, request: Request) -> Response:
        return client_page(request)

    # Every /api path the routes above do not answer with this method ends here, before
    # the static files (which would answer any GET or HEAD with 404, and any other method
    # with a 405 that allows GET): a known path with a wrong method is 405 with the methods
    # it does allow, an unknown one 404, both in the error format.
    # Any method: TRACE or PROPFIND, left out of a list of seven, got the static files' 405
    # "Allow: GET, HEAD" on an API path. (A route to an ASGI app, not to a function, is
    # what matches every method: a function's route takes GET unless told.)
    fallback = _ApiFallback([r for r in app.router.routes
                             if isinstance(r, APIRoute) and r.path.startswith("/api/")])
    for pattern in ("/api", "/api/{rest:path}"):
        app.router.routes.append(Route(pattern, fallback, include_in_schema=False))

    if not settings.dev_pages:
        # The dev page renders every screen from fake data: for development and the
        # browser tests (COLORCLASH_DEV_PAGES=1), not for a site's visitors.
        async def no_dev_page(request: Request) -> Response:
            # the 404 of any missing file, answered by the one handler (it was plain
            # text "Not Found", not the error format, and so told it apart)
            raise StarletteHTTPException(404, "Not Found")

        for path in DEV_PAGES:
            app.add_route(path, no_dev_page, methods=["GET", "HEAD"], include_in_schema=False)

    if static is not None:
        app.mount("/", static, name="web")

    return app


class _ApiFallback:
    """The answer of an /api path the routes do not answer with this method: a known path
    is 405 with the methods it does allow, an unknown one 404, both in the error format."""

    def __init__(self, api_routes: list[APIRoute]) -> None:
        self.api_routes = api_routes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.answer(Request(scope, receive))(scope, receive, send)

    def answer(self, request: Request) -> JSONResponse:
        path = request.url.path
        methods = {m for r in self.api_routes if r.path_regex.match(path)
                   for m in (r.methods or ())}
        if "GET" in methods:
            methods.add("HEAD")  # (HeadAsGet answers it: RFC 9110 lists it in Allow too)
        allowed = sorted(methods)
        if allowed:
            return JSONResponse(status_code=405, headers={"Allow": ", ".join(allowed)},
                                content={"error": {"code": "method_not_allowed", "message":
                                         f"{request.method} is not allowed on {path}; "
                                         f"use {', '.join(allowed)}"}})
        return JSONResponse(status_code=404, content={"error": {
            "code": "not_found", "message": f"no such path: {path}"}})


async def _finish(conn: Conn) -> None:
    """Let the writer flush what is queued, then stop it."""
    import asyncio

    for _ in range(20):
        if not conn.pending:
            break
        await asyncio.sleep(0.01)
    conn.stop()
