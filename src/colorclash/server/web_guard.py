"""What a browser may be made to do from another site, and the headers that say so.

- **Other sites' requests.** A page on any site can make its visitor's browser send a
  form-like ``POST`` to this one (no CORS check applies to those), with the visitor's
  address: it could take seats in a room whose code it knows, or spend the visitor's
  budgets (``server/limits.py``). Requests that change something (every method but
  ``GET``, ``HEAD`` and ``OPTIONS``) are refused with ``403 bad_origin`` when the browser
  says they come from another site: an ``Origin`` that is not the site's own (nor in
  ``COLORCLASH_ALLOWED_ORIGINS``), or ``Sec-Fetch-Site: cross-site``. Bots and
  ``colorclash.client`` send neither header and are not concerned. The WebSockets apply
  the same test to their ``Origin`` (``origin_allowed``). So are the API's reads
  (``/api/…`` by any method): a room's look-up costs the address's look-up budget, a code
  that does not exist five times more, and twelve ``<img src=".../api/rooms/ZZZZZZ/qr.svg">``
  on any page emptied its visitors' budget, keeping them (and everyone behind their
  address) from opening an invite or joining a room while the page stayed open.
- **Headers on every answer**: ``X-Content-Type-Options: nosniff``; no framing by other
  sites (``X-Frame-Options: DENY`` and ``frame-ancestors 'none'``: a framed table could be
  clicked through); ``Referrer-Policy: same-origin`` (an invite link's code is not told
  to the sites a page links to); scripts from the site only (``script-src 'self'``),
  requests, sockets and forms to the site only (``connect-src``, ``form-action``), and
  everything else from the site only (``default-src 'self'``), but inline styles and
  ``data:``/``blob:`` images.
- **Other names for the site.** A browser sends the ``Host`` its address bar names, and a
  page of another site can be served from this one's address under its own name (DNS
  rebinding: ``evil.example`` answers first with its own address, then with the site's).
  Its ``Origin`` then matches its ``Host``. With ``COLORCLASH_ALLOWED_HOSTS`` set, a
  request or a socket naming any other host (or more than one, or none) is refused with
  ``400 bad_host`` before anything else is done (``host_allowed``); but the probes'
  ``GET /healthz`` and ``/metrics``, which change nothing and tell no secret, and which a
  load balancer or an orchestrator asks for by an address of its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: what a load balancer's or an orchestrator's probe asks for, by an address of its own
#: (not checked against COLORCLASH_ALLOWED_HOSTS: read-only, and no secret in them)
PROBES = frozenset({"/healthz", "/metrics"})
#: the paths of the site's own sockets (``/ws/quick-match`` and ``/ws/CODE``)
_SOCKET_PATH = re.compile(r"/ws/[^/]+")

# Scripts only from the site itself: the client has no inline script, and a script
# from anywhere else (a compromised CDN, an injected tag) would read the seat tokens the
# page keeps. Requests and sockets to the site only, and forms sent to it only: should a
# script or a form ever get in anyway, it cannot send what it read elsewhere. Everything
# else from the site only too (``default-src``: an image, a font, a frame from elsewhere
# could carry out what an injection read; a web review), but inline styles (the client
# sets some) and images of ``data:`` and ``blob:`` URLs.
CSP = (b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       b"img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; "
       b"object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", CSP),
    (b"referrer-policy", b"same-origin"),
    # (the page uses none of these: a script injected anyway could not ask for them; a
    # privacy review) and no window opened from elsewhere keeps a hold on the page
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
# The OpenAPI pages (served only with COLORCLASH_DEV_PAGES) load Swagger UI and ReDoc
# from a CDN with an inline script: no script rule there.
API_PAGES = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
API_PAGE_HEADERS = [(k, b"frame-ancestors 'none'" if k == b"content-security-policy" else v)
                    for k, v in SECURITY_HEADERS]


def origin_allowed(origin: str | None, host: str, allowed: Iterable[str]) -> bool:
    """May a browser page from ``origin`` use this site (whose ``Host`` is ``host``)?"""
    if not origin:
        return True  # not a browser: bots and colorclash.client send no Origin
    allowed = list(allowed)
    if origin in allowed or "*" in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def host_name(host: str) -> str:
    """The name of a ``Host`` header, without its port or a final dot (``example.org.``
    is the same name), in lower case (``[::1]`` for an IPv6 address)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[:host.find("]") + 1] if "]" in host else host
    return (host.rsplit(":", 1)[0] if host.count(":") == 1 else host).removesuffix(".")


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """Is ``host`` (a ``Host`` header) one of the site's names? ``allowed`` lists names
    without a port; ``*.example.org`` is any name under example.org; none listed: any."""
    allowed = [a.lower().removesuffix(".") for a in allowed]
    if not allowed or "*" in allowed:
        return True
    name = host_name(host)
    for pattern in allowed:
        if name == pattern or (pattern.startswith("*.") and name.endswith(pattern[1:])):
            return True
    return False


def _bad_host_body(host: str) -> bytes:
    shown = host.encode("ascii", "backslashreplace").decode()[:100]
    return json.dumps({"error": {"code": "bad_host", "message":
                                 f"this site does not answer to the name {shown!r}: "
                                 "open it by its own address"}}).encode()


class CrossSiteGuard:
    """Refuse state-changing HTTP requests that a browser says come from another site, and
    add the security headers to every HTTP answer."""

    def __init__(self, app: Any, allowed_origins: Iterable[str] = (),
                 allowed_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = list(allowed_origins)
        self.hosts = list(allowed_hosts)  # (host_allowed reads them as names: any case, a final dot)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.hosts and scope["type"] in ("http", "websocket") \
                and scope.get("path") not in PROBES:
            hosts = [v.decode("latin-1") for k, v in scope.get("headers", [])
                     if k.lower() == b"host"]
            if len(hosts) != 1 or not host_allowed(hosts[0], self.hosts):
                await self._refuse_host(scope, send, ", ".join(hosts))
                return
        if scope["type"] == "websocket":
            # (the site's own sockets are passed as they are: no wrapper on their sends)
            if not _SOCKET_PATH.fullmatch(scope.get("path", "")):
                send = self._handshake_refusals(scope, send)
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if ((scope["method"] not in SAFE_METHODS or scope.get("path", "").startswith("/api/"))
                and self._cross_site(scope)):
            await self._refuse(send)
            return

        security = API_PAGE_HEADERS if scope.get("path") in API_PAGES else SECURITY_HEADERS
        if scope.get("path", "").startswith("/api/"):
            # The API's answers carry seat tokens (a seat ticket, a matched Quick Match
            # poll) and rooms as they are now: kept by no cache, shared or the browser's
            security = (*security, (b"cache-control", b"no-store"))

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in security if k not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)

    @staticmethod
    def _handshake_refusals(scope: Any, send: Any) -> Any:
        """A socket closed before it was accepted: Starlette's answer to an upgrade on a
        path with no socket (``/api/games``). uvicorn turned it into an empty ``403``,
        without the error body or the headers every other answer has; where the server
        can (the ASGI denial response), the answer is ``404 not_found``, as JSON with the
        security headers. (The site's own sockets, ``/ws/…``, accept first, and close with
        a code of the protocol and an error message.)"""
        if "websocket.http.response" not in scope.get("extensions", {}):
            return send
        accepted = False

        async def refusing(message: Any) -> None:
            nonlocal accepted
            kind = message["type"]
            if kind == "websocket.accept" or kind.startswith("websocket.http.response"):
                accepted = True
            elif kind == "websocket.close" and not accepted:
                accepted = True
                body = json.dumps({"error": {"code": "not_found", "message":
                                             "no WebSocket at this path: a room's is "
                                             "/ws/CODE"}}).encode()
                await send({"type": "websocket.http.response.start", "status": 404,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode()),
                                        *SECURITY_HEADERS]})
                await send({"type": "websocket.http.response.body", "body": body})
                return
            await send(message)

        return refusing

    def _cross_site(self, scope: Any) -> bool:
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        origin = headers.get(b"origin", b"").decode("latin-1") or None
        if origin is not None:
            host = headers.get(b"host", b"").decode("latin-1")
            return not origin_allowed(origin, host, self.allowed)
        # No Origin: a browser that sends Sec-Fetch-Site still says where it comes from.
        return headers.get(b"sec-fetch-site") == b"cross-site" and "*" not in self.allowed

    @staticmethod
    async def _refuse_host(scope: Any, send: Any, host: str) -> None:
        """``400 bad_host``, as JSON with the security headers; a socket gets the same
        answer to its handshake where the server can send one (else a bare refusal)."""
        body = _bad_host_body(host)
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 400, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": 400,
                        "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008})

    @staticmethod
    async def _refuse(send: Any) -> None:
        body = json.dumps({"error": {"code": "bad_origin", "message":
                                     "requests from pages of other sites are refused"}}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})


__all__ = ["CrossSiteGuard", "host_allowed", "origin_allowed"]
