"""Connection limits below the ASGI app: slow or abusive clients cost only their own socket.

uvicorn gives a connection all the time it likes to send its request headers, and keeps
every connection it accepts; 20,000 sockets that each send one header line every 10 s
filled the process's file limit, and nobody else could connect. :class:`ConnectionGuard`
counts the connections of one server (per address and in total) and is used by the
protocol classes that :func:`guarded_protocol` derives from uvicorn's:

- **incomplete requests** ("pending": the request's headers and body have not all
  arrived) are closed with ``408`` after ``header_timeout`` seconds (from the connection,
  or from the end of the previous response on a keep-alive connection): a body sent a byte
  every few seconds is as slow as headers sent that way;
- request headers over ``MAX_HEAD_BYTES`` (16 KiB) get ``431`` at once: uvicorn keeps
  whatever headers arrive, and their parsing slowed as they grew (one connection sending
  an endless header for 9 s took 2 GB and stalled every room for seconds);
- one address holds at most ``max_pending_per_address`` pending connections: a new one
  **evicts the oldest** pending one of that address, so a real request (whose headers
  arrive at once) always gets in, while a slow client only competes with itself. A
  connection that has not yet sent its first request is evicted only once it is
  ``FRESH_GRACE`` old: connections opened together (a client's pool, people behind one
  NAT) are accepted together, before any of their requests is read, and the first ones
  were answered 408 though their requests were on their way. Over the cap meanwhile,
  the address is brought back to it when its oldest turns ``FRESH_GRACE`` old;
- the whole process holds at most ``max_pending`` pending connections (the oldest is
  evicted) and at most ``max_connections`` connections in all (beyond that a new
  connection gets an immediate ``503`` and is closed): ``max_connections`` stays below the
  file limit so that the process always has descriptors left for its store and its logs;
- one address holds at most ``max_connections_per_address`` connections in all
  (WebSockets included); beyond that, ``503`` at once. An IPv6 address counts as its /64,
  and a /48 holds at most ``NETWORK_SHARE`` times that: its 65,536 /64s (a tunnel broker
  gives one away) took every connection of the process, 256 from each of 60.

Addresses listed in ``trusted_proxies`` are exempt from the per-address limits (every
player behind a reverse proxy shares its address); the proxy should apply its own.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import time
from collections import OrderedDict
from typing import Any

from colorclash.server.config import Settings
from colorclash.server.limits import network_of, person_address
from colorclash.server.logs import TroubleLines
from colorclash.server.web_guard import SECURITY_HEADERS

log = logging.getLogger("colorclash.server.guard")

_RESERVED_FDS = 64  # descriptors kept for the store, logs and the listening sockets
LINGER = 0.5  # s a refused connection stays half-closed so that the answer arrives
FRESH_GRACE = 1.0  # s a connection has to send its first request before it can be evicted
NETWORK_SHARE = 16  # an IPv6 /48's connections, in addresses' (/64s') caps


class TrustedPeers:
    """The reverse proxies of ``COLORCLASH_TRUSTED_PROXIES``: addresses, networks
    (``10.0.0.0/8``, as uvicorn takes them for ``X-Forwarded-For``) or ``*``. A network
    listed was believed for the forwarded address but its proxies were not exempt from the
    per-address caps: only an exact address was."""

    def __init__(self, entries: list[str]) -> None:
        self.everyone = "*" in entries
        self.networks = []
        for entry in entries:
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                continue

    def __contains__(self, address: str) -> bool:
        if self.everyone:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.networks)


def raise_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit; return it."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        return soft if soft != resource.RLIM_INFINITY else 1 << 20
    except (ValueError, OSError):  # pragma: no cover - platform without the call
        return 1024


def error_response(status: str, code: str, message: str) -> bytes:
    """An answer written before the app sees the request: the error shape and the security
    headers of every other answer (they were missing from these)."""
    body = (f'{{"error":{{"code":"{code}","message":"{message}"}}}}').encode()
    security = b"".join(k + b": " + v + b"\r\n" for k, v in SECURITY_HEADERS)
    return (f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n").encode() + security + \
        b"connection: close\r\n\r\n" + body


TOO_SLOW = error_response("408 Request Timeout", "too_slow",
                          "the request did not arrive in time")
MAX_HEAD_BYTES = 16 * 1024
TOO_LARGE_HEAD = error_response("431 Request Header Fields Too Large", "too_large",
                                f"request headers over {MAX_HEAD_BYTES // 1024} KiB")
OVERLOADED = error_response("503 Service Unavailable", "overloaded",
                            "too many connections; try again shortly")
NOT_HTTP = error_response("400 Bad Request", "bad_request",
                          "the request is not valid HTTP/1.1")


#: the warning of a connection refused by each cap (said once a minute at most)
REFUSED_LINES = {
    "process": "connections refused (503 overloaded): this process holds its most, %d "
               "(COLORCLASH_MAX_CONNECTIONS, or the open-file limit)",
    "address": "connections refused (503 overloaded): an address holds its most, %d "
               "(COLORCLASH_MAX_CONNECTIONS_PER_ADDRESS; a proxy's own address: "
               "COLORCLASH_TRUSTED_PROXIES)",
    "network": "connections refused (503 overloaded): an IPv6 /48 network holds its "
               f"share, {NETWORK_SHARE} x %d (COLORCLASH_MAX_CONNECTIONS_PER_ADDRESS)",
}


class ConnectionGuard:
    """The connection accounting of one server process (one event loop)."""

    def __init__(self, settings: Settings, file_limit: int | None = None) -> None:
        limit = file_limit if file_limit is not None else raise_file_limit()
        self.header_timeout = settings.header_timeout
        self.max_connections = max(16, min(settings.max_connections, limit - _RESERVED_FDS))
        self.max_pending = max(4, min(settings.max_pending, self.max_connections // 2))
        self.max_per_address = settings.max_connections_per_address
        self.max_pending_per_address = settings.max_pending_per_address
        self.trusted = TrustedPeers(settings.trusted_proxies)
        self.total = 0
        self.per_address: dict[str, int] = {}
        self.per_network: dict[str, int] = {}  # IPv6 /48s
        # pending connections, oldest first: protocol -> address
        self.pending: OrderedDict[Any, str] = OrderedDict()
        self.pending_per_address: dict[str, int] = {}
        # pending connections that have not sent a request yet: protocol -> when opened
        self.fresh: dict[Any, float] = {}
        self._recheck: dict[str, asyncio.TimerHandle] = {}  # addresses over the cap
        self.refused = 0
        self.refused_by = dict.fromkeys(REFUSED_LINES, 0)
        self._trouble = TroubleLines(window=60.0)
        self.evicted = 0
        self.timed_out = 0

    # -- accounting ------------------------------------------------------------------
    def admit(self, proto: Any, address: str) -> bool:
        """A new connection: count it, or answer 503 and close it (False)."""
        exempt = address in self.trusted
        network = None if exempt else network_of(address)
        # (a /48 at its share is refused before anything is done for it: evicting a
        # stranger's pending connection first, to refuse it all the same, cost others)
        if network is not None and self.per_network.get(network, 0) >= \
                NETWORK_SHARE * self.max_per_address:
            return self._refuse(proto, "network")
        if self.total >= self.max_connections and not self._evict_oldest(None):
            return self._refuse(proto, "process")
        if not exempt and self.per_address.get(address, 0) >= self.max_per_address \
                and not self._evict_oldest(address):
            return self._refuse(proto, "address")
        if not exempt and self.pending_per_address.get(address, 0) >= \
                self.max_pending_per_address and not self._evict_oldest(address, grace=True):
            self._recheck_later(address)
        if len(self.pending) >= self.max_pending:
            self._evict_oldest(None)
        self.total += 1
        self.per_address[address] = self.per_address.get(address, 0) + 1
        if network is not None:
            self.per_network[network] = self.per_network.get(network, 0) + 1
        self._mark_pending(proto, address)
        self.fresh[proto] = time.monotonic()
        return True

    def _recheck_later(self, address: str) -> None:
        """The address is over its pending cap with only fresh connections: once the
        oldest of them is ``FRESH_GRACE`` old, evict down to the cap (those whose
        requests arrived meanwhile are no longer pending)."""
        if address in self._recheck:
            return
        oldest = min((self.fresh[p] for p, a in self.pending.items()
                      if a == address and p in self.fresh), default=time.monotonic())
        delay = max(0.0, oldest + FRESH_GRACE - time.monotonic()) + 0.01
        self._recheck[address] = asyncio.get_running_loop().call_later(
            delay, self._enforce, address)

    def _enforce(self, address: str) -> None:
        self._recheck.pop(address, None)
        # (a bounded loop: an evicted connection already closing leaves the count as it is)
        excess = self.pending_per_address.get(address, 0) - self.max_pending_per_address
        for _ in range(excess):
            if not self._evict_oldest(address, grace=True):
                self._recheck_later(address)
                return

    def _mark_pending(self, proto: Any, address: str) -> None:
        if proto in self.pending:
            return
        self.pending[proto] = address
        self.pending_per_address[address] = self.pending_per_address.get(address, 0) + 1

    def request_arrived(self, proto: Any) -> None:
        """The request (its headers and body, or a WebSocket upgrade) is complete: no
        longer pending."""
        self.fresh.pop(proto, None)
        address = self.pending.pop(proto, None)
        if address is not None:
            self._dec(self.pending_per_address, address)

    def idle_again(self, proto: Any, address: str) -> None:
        """A keep-alive connection waits for its next request: pending again."""
        self._mark_pending(proto, address)

    def closed(self, proto: Any, address: str) -> None:
        self.request_arrived(proto)
        self.total = max(0, self.total - 1)
        self._dec(self.per_address, address)
        network = network_of(address)
        if network is not None:
            self._dec(self.per_network, network)

    @staticmethod
    def _dec(counts: dict[str, int], key: str) -> None:
        n = counts.get(key, 0) - 1
        if n > 0:
            counts[key] = n
        else:
            counts.pop(key, None)

    def _evict_oldest(self, address: str | None, grace: bool = False) -> bool:
        """Close the oldest pending connection (of ``address``, or of anyone); with
        ``grace``, not one that has had less than ``FRESH_GRACE`` to send its first
        request."""
        young = time.monotonic() - FRESH_GRACE
        for proto, addr in self.pending.items():
            if address is None or addr == address:
                if grace and self.fresh.get(proto, young) > young:
                    continue
                self.evicted += 1
                proto.guard_close(TOO_SLOW)
                return True
        return False

    def _refuse(self, proto: Any, cap: str) -> bool:
        """Answer 503 overloaded and close: the process (``process``), the connection's
        address (``address``) or its IPv6 /48 (``network``) holds its most."""
        self.refused += 1
        self.refused_by[cap] += 1
        # (an operator could not tell from the log that anyone was turned away: one line
        # per kind of cap, then at most one a minute, saying how many were left out)
        self._trouble.warning(log, REFUSED_LINES[cap],
                              self.max_connections if cap == "process" else
                              self.max_per_address)
        proto.guard_close(OVERLOADED)
        return False

    def stats(self) -> dict[str, Any]:
        """The figures of ``/healthz``'s ``connections`` and of ``/metrics``."""
        return {"connections": self.total, "pending": len(self.pending),
                "max_connections": self.max_connections, "refused": self.refused,
                "refused_by": dict(self.refused_by),
                "evicted": self.evicted, "timed_out": self.timed_out}


def guarded_protocol(base: type[asyncio.Protocol], guard: ConnectionGuard
                     ) -> type[asyncio.Protocol]:
    """A subclass of uvicorn's HTTP protocol ``base`` that reports to ``guard`` and times
    out incomplete requests. After a WebSocket upgrade the WebSocket protocol's
    ``connection_lost`` reports the close instead."""

    class Guarded(base):  # type: ignore[misc, valid-type]
        _cc_guard = guard

        def connection_made(self, transport: Any) -> None:  # noqa: D401
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            raw = str(peer[0]) if peer else "?"
            # A trusted proxy by its own address (its /64, "::/64" for ::1, was in no
            # list of proxies: an IPv6 proxy was held to one person's connections)
            self._cc_address = raw if raw in self._cc_guard.trusted else person_address(raw)
            self._cc_counted = False
            self._cc_closing = False
            self._cc_head = 0  # bytes of the current request's headers so far
            self._cc_in_head = True
            self._cc_timer: asyncio.TimerHandle | None = None
            if not self._cc_guard.admit(self, self._cc_address):
                return
            self._cc_counted = True
            self._cc_arm()

        # -- the header clock --
        def _cc_arm(self) -> None:
            self._cc_disarm()
            if self._cc_guard.header_timeout > 0:
                self._cc_timer = self.loop.call_later(self._cc_guard.header_timeout,
                                                      self._cc_too_slow)

        def _cc_disarm(self) -> None:
            if self._cc_timer is not None:
                self._cc_timer.cancel()
                self._cc_timer = None

        def _cc_too_slow(self) -> None:
            self._cc_timer = None
            self._cc_guard.timed_out += 1
            self.guard_close(TOO_SLOW)

        def guard_close(self, answer: bytes) -> None:
            """Answer (408 or 503) and close, without waiting for the client.

            The answer is followed by end-of-file and the socket is closed a moment
            later (``LINGER`` s, or as soon as the client closes): closing at once with
            the client's request unread would make the kernel reset the connection and
            the client would never see the answer."""
            self._cc_disarm()
            transport = self.transport
            if transport is None or transport.is_closing() or self._cc_closing:
                return
            self._cc_closing = True
            try:
                transport.write(answer)
                if transport.can_write_eof():
                    transport.write_eof()
                    self.loop.call_later(LINGER, transport.close)
                else:  # pragma: no cover - TLS transports cannot half-close
                    transport.close()
            except Exception:  # noqa: BLE001 - the peer is gone already
                transport.close()
            if self._cc_counted:  # the accounting must not wait for connection_lost
                self._cc_counted = False
                self._cc_guard.closed(self, self._cc_address)

        def send_400_response(self, msg: str) -> None:
            """uvicorn's answer to a request its parser refuses (a ``Content-Length``
            beside ``Transfer-Encoding``, a length that is no number): the site's error
            shape and headers, not plain text without them."""
            self.guard_close(NOT_HTTP)

        def data_received(self, data: bytes) -> None:
            if self._cc_closing:
                return  # answered already: what the client still sends is dropped
            if self._cc_in_head:
                end = data.find(b"\r\n\r\n")
                self._cc_head += len(data) if end < 0 else end
                if self._cc_head > MAX_HEAD_BYTES:
                    self.guard_close(TOO_LARGE_HEAD)
                    return
            super().data_received(data)

        def eof_received(self) -> bool | None:
            if self._cc_closing:
                self.transport.close()
                return None
            return super().eof_received()

        def on_headers_complete(self) -> None:
            # still pending, and on the same clock, until the body has arrived too
            self._cc_in_head = False
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._cc_disarm()
            self._cc_guard.request_arrived(self)
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._cc_counted and not self.transport.is_closing() and not self.pipeline:
                self._cc_head, self._cc_in_head = 0, True
                self._cc_guard.idle_again(self, self._cc_address)
                self._cc_arm()

        def handle_websocket_upgrade(self) -> None:
            self._cc_disarm()
            self._cc_guard.request_arrived(self)
            super().handle_websocket_upgrade()
            ws_protocol = self.transport.get_protocol()
            if ws_protocol is self or not self._cc_counted:
                return
            # The WebSocket protocol owns the transport now: count its close instead.
            self._cc_counted = False
            self._cc_disarm()
            guard_, address, original = self._cc_guard, self._cc_address, \
                ws_protocol.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                guard_.closed(ws_protocol, address)
                original(exc)

            ws_protocol.connection_lost = connection_lost

        def connection_lost(self, exc: Exception | None) -> None:
            self._cc_disarm()
            if getattr(self, "_cc_counted", False):
                self._cc_counted = False
                self._cc_guard.closed(self, self._cc_address)
            super().connection_lost(exc)

    Guarded.__name__ = f"Guarded{base.__name__}"
    Guarded.__qualname__ = Guarded.__name__
    return Guarded


def http_protocol(guard: ConnectionGuard) -> type[asyncio.Protocol] | str:
    """uvicorn's httptools protocol, guarded (httptools comes with ``uvicorn[standard]``;
    without it uvicorn's own choice, unguarded, with a warning)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools missing
        log.warning("httptools is missing: connection limits are off (pip install httptools)")
        return "auto"
    return guarded_protocol(HttpToolsProtocol, guard)


__all__ = ["ConnectionGuard", "guarded_protocol", "http_protocol", "raise_file_limit"]
