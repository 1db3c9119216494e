"""The garbage collector, tuned for a long-lived server and watched.

A process holding thousands of connections and rooms has a large heap of long-lived
objects, and CPython's full (generation 2) collections walk all of it: 156 ms at 1,000
connections, 525 ms at 4,000 (measured), every player waiting meanwhile. At start the
objects made while loading (modules, restored rooms) are moved out of the collector's way
for good (``gc.freeze``), and the thresholds are raised so that young collections run less
often and a full one only after many of them (``COLORCLASH_GC_THRESHOLDS``). The pauses
are timed (``gc.callbacks``) and reported by ``/healthz``: watch ``gc.max_ms``.
"""

from __future__ import annotations

import gc
import time
from typing import Any

_stats: dict[str, Any] = {"collections": [0, 0, 0], "max_ms": [0.0, 0.0, 0.0],
                          "total_ms": 0.0}
_started: list[float] = [0.0]


def _callback(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
        return
    ms = (time.perf_counter() - _started[0]) * 1000
    g = info.get("generation", 0)
    _stats["collections"][g] += 1
    _stats["max_ms"][g] = max(_stats["max_ms"][g], ms)
    _stats["total_ms"] += ms


def tune(thresholds: str) -> None:
    """Freeze what exists now, set the thresholds ("g0,g1,g2"), time every collection."""
    if thresholds:
        parts = [int(x) for x in thresholds.split(",")]
        gc.set_threshold(*parts)
    gc.collect()
    gc.freeze()
    if _callback not in gc.callbacks:
        gc.callbacks.append(_callback)


def stats() -> dict[str, Any]:
    return {"collections": list(_stats["collections"]),
            "max_ms": [round(x, 1) for x in _stats["max_ms"]],
            "total_ms": round(_stats["total_ms"], 1), "frozen": gc.get_freeze_count(),
            "thresholds": list(gc.get_threshold())}
