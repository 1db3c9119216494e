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
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

from colorclash.server import gctune
from colorclash.server.metrics import occupancy

QUANTILES = (0.5, 0.95, 0.99)


class HubCollector(Collector):
    """The hub's figures at the moment of a scrape."""

    def __init__(self, hub: Callable[[], Any]) -> None:
        self._hub = hub

    def collect(self) -> Iterator[Metric]:
        h = self._hub()
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


def registry_for(hub: Callable[[], Any]) -> CollectorRegistry:
    """A registry of one app's figures (an app of its own in each test, so not the
    library's global one) with the process's and the interpreter's."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(HubCollector(hub))
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
