"""``GET /metrics``: what ``/healthz`` says, for a Prometheus (its text format or OpenMetrics).

Each process answers for itself (as ``/healthz`` does): a Prometheus scrapes every
process at its own address, not through the load balancer, and sums across them. The
figures are read when the scraper asks (a collector over the hub), so nothing is added to
an action's path: the actions' count and time come from the window ``/healthz`` reads
(``metrics.LatencyWindow``), the store's from the writer's counters. The process's CPU,
memory and file descriptors, and the interpreter's collections, are prometheus_client's
own collectors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    GCCollector,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    InfoMetricFamily,
    Metric,
)
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

from colorclash import __version__
from colorclash.build import build_id
from colorclash.server import gctune
from colorclash.server.metrics import occupancy

QUANTILES = (0.5, 0.95, 0.99)


class HubCollector(Collector):
    """The hub's figures at the moment of a scrape."""

    def __init__(self, hub: Callable[[], Any],
                 guard: Callable[[], Any] = lambda: None) -> None:
        self._hub = hub
        self._guard = guard

    def collect(self) -> Iterator[Metric]:
        h = self._hub()
        # (which version each process runs: "do not mix versions" could not be checked)
        yield InfoMetricFamily("colorclash", "the version and build this process runs",
                               value={"version": __version__, "build": build_id()})
        guard = self._guard()
        if guard is not None:
            yield from connection_metrics(guard.stats())
        now = occupancy(h)
        for key, text in (("rooms", "rooms this process holds (lobbies, games, finished)"),
                          ("playing", "rooms of this process being played"),
                          ("players", "people connected to this process's rooms"),
                          ("quick_match", "people waiting in Quick Match (the leader's "
                                          "count with several processes, 0 on the others)")):
            yield GaugeMetricFamily(f"colorclash_{key}", text, value=now[key])
        window = h.action_latency
        actions = Metric("colorclash_action_seconds", "a player's action inside this "
                         "process, from its frame read to its states handed to the sockets "
                         "(quantiles over the last 4,096 actions)", "summary")
        recent = window.summary()
        for q in QUANTILES:
            key = f"p{round(q * 100)}"
            if key in recent:
                actions.add_sample("colorclash_action_seconds", {"quantile": str(q)},
                                   recent[key] / 1000.0)
        actions.add_sample("colorclash_action_seconds_count", {}, window.count)
        actions.add_sample("colorclash_action_seconds_sum", {}, window.total_s)
        yield actions
        writer = h.writer
        if writer is not None:
            yield CounterMetricFamily("colorclash_store_writes", "writes committed to the "
                                      "store", value=writer.writes)
            yield CounterMetricFamily("colorclash_store_commits", "store commits (a commit "
                                      "holds every write queued since the last)",
                                      value=writer.batches)
            yield GaugeMetricFamily("colorclash_store_refusing", "1 while the store refuses "
                                    "its commits (a full disk, Redis away): no game can go "
                                    "on here", value=1 if writer.refusing else 0)
        stats = gctune.stats()
        pauses = GaugeMetricFamily("colorclash_gc_pause_max_seconds", "the longest pause "
                                   "of the garbage collector since the start, by generation",
                                   labels=["generation"])
        for generation, ms in enumerate(stats["max_ms"]):
            pauses.add_metric([str(generation)], ms / 1000.0)
        yield pauses
        yield CounterMetricFamily("colorclash_gc_pause_seconds", "time the garbage collector "
                                  "paused the process, since the start",
                                  value=stats["total_ms"] / 1000.0)
        if h.cluster is not None:
            silence = h.cluster.silence()
            yield GaugeMetricFamily("colorclash_redis_silent", "1 while this process has "
                                    "not heard from Redis for longer than its lease",
                                    value=1 if silence else 0)


def connection_metrics(stats: dict[str, Any]) -> Iterator[Metric]:
    """The connection guard's figures (server/guard.py): how near the caps the process
    is, and whom they turned away (an operator could alert on neither)."""
    yield GaugeMetricFamily("colorclash_connections", "connections open to this process "
                            "(HTTP and WebSocket)", value=stats["connections"])
    yield GaugeMetricFamily("colorclash_connections_pending", "connections still sending "
                            "their request", value=stats["pending"])
    yield GaugeMetricFamily("colorclash_connections_max", "the most connections this "
                            "process takes (COLORCLASH_MAX_CONNECTIONS, or the open-file "
                            "limit)", value=stats["max_connections"])
    refused = CounterMetricFamily("colorclash_connections_refused", "connections answered "
                                  "503 overloaded, by the cap that was full: process, "
                                  "address or network", labels=["cap"])
    for cap, count in stats["refused_by"].items():
        refused.add_metric([cap], count)
    yield refused
    yield CounterMetricFamily("colorclash_connections_evicted", "pending connections "
                              "closed to make room for others", value=stats["evicted"])
    yield CounterMetricFamily("colorclash_connections_timed_out", "connections closed for "
                              "not sending their request headers in time",
                              value=stats["timed_out"])


def registry_for(hub: Callable[[], Any],
                 guard: Callable[[], Any] = lambda: None) -> CollectorRegistry:
    """A registry of one app's figures (an app of its own in each test, so not the
    library's global one) with the process's and the interpreter's; ``guard`` gives the
    connection guard, once the server has one."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(HubCollector(hub, guard))
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)
    return registry


def exposition(registry: CollectorRegistry, accept: str | None) -> tuple[bytes, str]:
    """The scrape's body and its content type, in the format the scraper's ``Accept``
    asks for (OpenMetrics, or Prometheus' text format), as prometheus_client's own
    exporters answer."""
    encoder, content_type = choose_encoder(accept or "")
    return encoder(registry), content_type


__all__ = ["HubCollector", "exposition", "registry_for"]
