"""Figures an operator watches on ``/healthz``: how long the server takes to answer a
player's action, measured inside the process (the load benchmark measures it from the
client's side; the difference is the network, the client and the kernel)."""

from __future__ import annotations

from collections import deque
from typing import Any


def nearest_rank(xs: list[float], q: float) -> float:
    """The ``q`` percentile (0 < q < 1) of the sorted, non-empty ``xs``, by nearest rank."""
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class LatencyWindow:
    """The last ``size`` durations, for percentiles on demand (adding is a deque append:
    cheap enough for every action)."""

    def __init__(self, size: int = 4096) -> None:
        self._ms: deque[float] = deque(maxlen=size)
        self.count = 0
        self.total_s = 0.0  # of every duration since the start (/metrics' summary sum)

    def add(self, seconds: float) -> None:
        self._ms.append(seconds * 1000.0)
        self.count += 1
        self.total_s += seconds

    def latest(self, n: int) -> list[float]:
        """The last ``n`` durations in ms (fewer if the window holds fewer), oldest first."""
        if n <= 0:
            return []
        return list(self._ms)[-n:]

    def summary(self) -> dict[str, Any]:
        """``count`` since the start; percentiles (nearest rank) over the last ``window``."""
        xs = sorted(self._ms)
        out: dict[str, Any] = {"count": self.count, "window": len(xs)}
        if xs:
            for name, q in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99)):
                out[name] = round(nearest_rank(xs, q), 3)
            out["max"] = round(xs[-1], 3)
        return out


def occupancy(hub: Any) -> dict[str, int]:
    """What this process holds now: its rooms, those being played, the people connected
    to them here, the Quick Match queue (``/healthz`` and the summary line)."""
    rooms = list(hub.rooms.values())
    return {"rooms": len(rooms),
            "playing": sum(1 for r in rooms if r.status == "playing"),
            "players": sum(len(r.conns) for r in rooms),
            "quick_match": len(hub.quick.queue)}


class Summary:
    """The line a process writes every ``COLORCLASH_SUMMARY_EVERY`` seconds, so that an
    operator reading the log sees how busy it was without polling ``/healthz``: its rooms,
    the people connected and queued, the actions since the last line with their time
    inside the process, and the store's writes and commits since then."""

    def __init__(self) -> None:
        self._actions = 0
        self._writes = 0
        self._commits = 0

    def line(self, hub: Any, seconds: float) -> str:
        now = occupancy(hub)
        latency = hub.action_latency
        actions = latency.count - self._actions
        self._actions = latency.count
        recent = sorted(latency.latest(actions))
        timing = ""
        if recent:
            n = len(recent)
            timing = (f" (p50 {nearest_rank(recent, 0.5):.1f} ms, p99 "
                      f"{nearest_rank(recent, 0.99):.1f} ms"
                      f"{'' if n == actions else f', of the last {n:,}'})")
        out = (f"summary: {now['rooms']:,} room(s) ({now['playing']:,} playing), "
               f"{now['players']:,} player(s) connected, {now['quick_match']:,} in Quick "
               f"Match; {actions:,} action(s) in "
               f"{seconds:.0f} s{timing}")
        writer = hub.writer
        if writer is not None:
            writes, commits = writer.writes - self._writes, writer.batches - self._commits
            self._writes, self._commits = writer.writes, writer.batches
            out += f"; {writes:,} store write(s) in {commits:,} commit(s)"
        return out


__all__ = ["LatencyWindow", "Summary"]
