"""Per-address limits on the REST endpoints and on opening room sockets.

One address created 20,000 rooms in 49 s and looked up about 280 room codes a second,
which makes guessing codes practical. Each kind of request has a token bucket per client
address (a burst, then a steady rate per minute): creating rooms (private, Practice, Play
Now), joining, looking a room up by its code (REST and WebSocket), and Quick Match tickets.
A look-up of a code that does not exist costs more than one that does, so guessing runs
dry five times sooner than normal use. Past the limit the answer is ``429`` with the
documented error body and a ``Retry-After`` header.

Room look-ups, creations, joins and Quick Match tickets are also counted per IPv6 /48
(``NETWORK_SHARE`` times one address's budget): an address counts as its /64, and a /48
(given away by tunnel brokers) holds 65,536 of them, which would make guessing codes
practical again, and let one person make rooms (Practice tables with computer players
running) 65,536 times as fast as another.

The client address is the socket's peer, or, when the peer is a configured trusted proxy
(``COLORCLASH_TRUSTED_PROXIES``), the address it forwards (uvicorn's proxy-headers
middleware rewrites the ASGI ``client`` only for those peers).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from colorclash.server.config import Settings
from colorclash.server.protocol import ProtocolError

MISS_COST = 5.0  # a look-up of a code that does not exist
#: kinds also counted per IPv6 /48, with this many times one address's budget
NETWORK_SHARE = {"lookup": 16, "create": 16, "join": 16, "queue": 16}


def network_of(address: str) -> str | None:
    """The IPv6 /48 of a /64 (as ``person_address`` gives it), else None (IPv4)."""
    if not address.endswith("/64"):
        return None
    try:
        return str(ipaddress.IPv6Network(address).supernet(new_prefix=48))
    except ValueError:
        return None


def person_address(raw: str) -> str:
    """The address as the limits (and Quick Match) count people: an IPv4 address mapped
    into IPv6 is that IPv4 address, and an IPv6 address counts as its /64 (what one home
    or one machine is given), else one person would be as many people as the addresses
    they hold (a dual-stack machine two, an IPv6 network 2^64)."""
    try:
        ip = ipaddress.ip_address(raw)
    except ValueError:
        return raw
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return raw


@dataclass
class _Bucket:
    tokens: float
    last: float


class AddressLimits:
    """Token buckets keyed by (kind, address); forgotten once full again."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.clock = clock
        self.rules: dict[str, tuple[float, float]] = {
            "create": (settings.limit_create_burst, settings.limit_create_per_min / 60.0),
            "join": (settings.limit_join_burst, settings.limit_join_per_min / 60.0),
            "lookup": (settings.limit_lookup_burst, settings.limit_lookup_per_min / 60.0),
            "queue": (settings.limit_queue_burst, settings.limit_queue_per_min / 60.0),
            # sockets opened on one seat, counted per seat: its own token gets in over
            # the address's look-up budget, and each opening (and each close) sends
            # every other player of the room a state
            "reconnect": (settings.limit_reconnect_burst,
                          settings.limit_reconnect_per_min / 60.0),
            # changes one person makes to a room, counted per seat and token: each one is
            # stored and sent to every seat (Hub.handle)
            "lobby": (settings.limit_lobby_burst, settings.limit_lobby_per_min / 60.0),
        }
        for kind, share in NETWORK_SHARE.items():
            burst, rate = self.rules[kind]
            self.rules[f"{kind}_net"] = (burst * share, rate * share)
        self.buckets: dict[tuple[str, str], _Bucket] = {}
        self._last_sweep = clock()

    def _bucket(self, kind: str, address: str) -> tuple[_Bucket, float, float]:
        burst, rate = self.rules[kind]
        now = self.clock()
        # (before the bucket is fetched: a sweep after it dropped the full bucket about to
        # be spent from, and the next request found a full one again: a test found it)
        if now - self._last_sweep > 60:
            self._sweep(now)
        b = self.buckets.get((kind, address))
        if b is None:
            b = self.buckets[(kind, address)] = _Bucket(float(burst), now)
        else:
            b.tokens = min(burst, b.tokens + (now - b.last) * rate)
            b.last = now
        return b, burst, rate

    def take(self, kind: str, address: str, cost: float = 1.0) -> None:
        """Spend ``cost`` tokens or raise ``rate_limited`` (HTTP 429)."""
        net = network_of(address) if kind in NETWORK_SHARE else None
        if net is not None:
            self._take_one(f"{kind}_net", net, cost, "network")
        self._take_one(kind, address, cost, "address")

    def charge(self, kind: str, address: str, cost: float, *, debt: bool = True) -> None:
        """Spend tokens after the fact, never refused. With ``debt`` the bucket may go
        below zero (a miss: the next request waits); without, it stops at zero (a request
        that must never be refused must not lock its address out of the others either)."""
        net = network_of(address) if kind in NETWORK_SHARE else None
        if net is not None:
            self._charge_one(f"{kind}_net", net, cost, debt)
        self._charge_one(kind, address, cost, debt)

    @staticmethod
    def _refuse(tokens: float, cost: float, rate: float, whose: str) -> ProtocolError:
        wait = math.ceil((cost - tokens) / rate) if rate > 0 else 3600
        return ProtocolError("rate_limited", f"too many requests of this kind from your "
                             f"{whose}; try again in {wait} s", status=429, retry_after=wait)

    def _take_one(self, kind: str, key: str, cost: float, whose: str) -> None:
        b, _burst, rate = self._bucket(kind, key)
        if b.tokens >= cost:
            b.tokens -= cost
            return
        raise self._refuse(b.tokens, cost, rate, whose)

    def _charge_one(self, kind: str, key: str, cost: float, debt: bool) -> None:
        b, burst, _rate = self._bucket(kind, key)
        b.tokens = max(-burst if debt else min(b.tokens, 0.0), b.tokens - cost)

    def _sweep(self, now: float) -> None:
        self._last_sweep = now
        for key, b in list(self.buckets.items()):
            burst, rate = self.rules[key[0]]
            if b.tokens + (now - b.last) * rate >= burst:
                del self.buckets[key]


# KEYS: the bucket; ARGV: burst, rate per s, cost, mode ("take" | "charge": down to
# -burst | "spend": down to zero, or where it already was below)
_BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local burst, rate, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(b[1]) or burst
local ts = tonumber(b[2]) or now
if now < ts then ts = now end  -- (the Redis host's clock stepped back: no time has passed)
tokens = math.min(burst, tokens + (now - ts) * rate)
local ok = 1
if ARGV[4] == 'take' then
  if tokens >= cost then tokens = tokens - cost else ok = 0 end
elseif ARGV[4] == 'charge' then
  tokens = math.max(-burst, tokens - cost)
else
  tokens = math.max(math.min(tokens, 0), tokens - cost)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
local full = 1000
if rate > 0 then full = math.ceil((burst - tokens) / rate * 1000) + 1000 end
redis.call('PEXPIRE', KEYS[1], full)
return {ok, tostring(tokens)}
"""


class SharedLimits(AddressLimits):
    """The same buckets kept in Redis, so that several processes share one budget per
    address (a client cannot multiply its budget by reaching other processes)."""

    def __init__(self, settings: Settings, redis_client: object, prefix: str) -> None:
        super().__init__(settings)
        self.r = redis_client
        self.prefix = prefix
        self._script = redis_client.register_script(_BUCKET)  # type: ignore[attr-defined]

    def _run(self, kind: str, address: str, cost: float, mode: str) -> tuple[bool, float]:
        burst, rate = self.rules[kind]
        ok, tokens = self._script(keys=[f"{self.prefix}limit:{kind}:{address}"],
                                  args=[burst, rate, cost, mode])
        return bool(ok), float(tokens)

    def _take_one(self, kind: str, key: str, cost: float, whose: str) -> None:
        ok, tokens = self._run(kind, key, cost, "take")
        if not ok:
            raise self._refuse(tokens, cost, self.rules[kind][1], whose)

    def _charge_one(self, kind: str, key: str, cost: float, debt: bool) -> None:
        self._run(kind, key, cost, "charge" if debt else "spend")


__all__ = ["AddressLimits", "MISS_COST", "SharedLimits"]
