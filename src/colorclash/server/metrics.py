"""Figures an operator watches on ``/healthz``: how long the server takes to answer a
player's action, measured inside the process (the load benchmark measures it from the
client's side; the difference is the network, the client and the kernel)."""

from __future__ import annotations

from collections import deque
from typing import Any


class LatencyWindow:
    """The last ``size`` durations, for percentiles on demand (adding is a deque append:
    cheap enough for every action)."""

    def __init__(self, size: int = 4096) -> None:
        self._ms: deque[float] = deque(maxlen=size)
        self.count = 0

    def add(self, seconds: float) -> None:
        self._ms.append(seconds * 1000.0)
        self.count += 1

    def summary(self) -> dict[str, Any]:
        """``count`` since the start; percentiles (nearest rank) over the last ``window``."""
        xs = sorted(self._ms)
        out: dict[str, Any] = {"count": self.count, "window": len(xs)}
        if xs:
            n = len(xs)
            for name, q in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99)):
                out[name] = round(xs[min(n - 1, int(q * n))], 3)
            out["max"] = round(xs[-1], 3)
        return out


__all__ = ["LatencyWindow"]
