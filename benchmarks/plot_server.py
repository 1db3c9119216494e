"""Plot ``colorclash bench server`` results: p99 latency against connections.

``python -m benchmarks.plot_server RESULTS.jsonl [MORE.jsonl ...] --out docs/server-p99.png``
draws one line per setup (the ``label`` of each result, else its store and pace) and the
echo floor measured in the same runs. Needs matplotlib (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--out", default="docs/server-p99.png")
    ap.add_argument("--title", default="p99 from an action to its state (human pace)")
    args = ap.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines: dict[str, list[tuple[int, float]]] = defaultdict(list)
    echo: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for path in args.results:
        for text in Path(path).read_text().splitlines():
            if not text.strip():
                continue
            r = json.loads(text)
            if r.get("kind") != "game":
                continue
            label = r.get("label") or f"{r.get('store', '?')} ({r.get('pace')})"
            lines[label].append((r["connections"], r["latency_ms"]["p99"]))
            if "echo" in r:  # the floor of the same runs, beside its own line
                echo[label].append((r["connections"], r["echo"]["latency_ms"]["p99"]))
    fig, ax = plt.subplots(figsize=(10.5, 4.5), dpi=120)
    ax.set_prop_cycle(color=plt.get_cmap("tab20").colors)  # more setups than tab10 has colours
    colours = {}
    for label, pts in sorted(lines.items()):
        pts.sort()
        (line,) = ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
        colours[label] = line.get_color()
    for label, pts in sorted(echo.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], linestyle="--", marker=".",
                color=colours[label], alpha=0.7, label=f"echo floor, same runs as {label}")
    ax.set_xlabel("player connections (rooms of 4)")
    ax.set_ylabel("p99 latency (ms)")
    ax.set_yscale("log")
    ax.set_title(args.title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
