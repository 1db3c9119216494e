"""Write the Coloretto dev scenes (src/colorclash/web/js/games/coloretto/scenes.json):
real engine views and events of positions worth looking at (the dev page, dev.html, and
the browser tests render them without a server).

    PYTHONPATH=src python scripts/coloretto_dev_scenes.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from colorclash.engine import new_game

OUT = Path(__file__).resolve().parents[1] / "src/colorclash/web/js/games/coloretto/scenes.json"


def play_until(game, done, seed: int, me: int = 0) -> list[dict]:
    """Random legal actions (seeded) until done(game) holds; the last action's events."""
    rng = random.Random(seed)
    events: list[dict] = []
    while not done(game):
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        # take a row a little less often than a uniform choice, for fuller rows
        others = [a for a in legal if a["type"] != "take"]
        pool = others if others and rng.random() < 0.7 else legal
        events = game.apply(seat, rng.choice(pool))
    return events


def scene(game, me: int, events: list[dict], **extra) -> dict:
    return {"view": game.view(me), "events": events, **extra}


def build() -> dict[str, dict]:
    scenes: dict[str, dict] = {}

    g = new_game("coloretto", seats=5, seed=11)
    ev = play_until(g, lambda x: x.view(0)["round"] >= 5 and 0 in x.to_act
                    and x.view(0)["phase"] == "turn" and x.view(0)["taken"]
                    and sum(len(r["cards"]) for r in x.view(0)["rows"]) >= 5, seed=3)
    scenes["coloretto"] = scene(g, 0, ev)

    g = new_game("coloretto", seats=4, seed=5)
    ev = play_until(g, lambda x: x.view(0)["round"] >= 3 and 0 in x.to_act
                    and x.view(0)["phase"] == "place", seed=4)
    scenes["coloretto-place"] = scene(g, 0, ev)

    g = new_game("coloretto", seats=2, seed=8)
    ev = play_until(g, lambda x: x.view(0)["round"] >= 4 and 0 in x.to_act
                    and x.view(0)["phase"] == "turn" and 1 in x.view(0)["taken"], seed=6)
    scenes["coloretto-2"] = scene(g, 0, ev)

    g = new_game("coloretto", seats=3, seed=21, options={"scoring": "grey"})
    ev = play_until(g, lambda x: x.view(0)["last_round"], seed=9)  # the card came up
    play_until(g, lambda x: 0 in x.view(0)["taken"] or x.over, seed=9)
    scenes["coloretto-last"] = scene(g, 0, ev)

    g = new_game("coloretto", seats=5, seed=12)
    ev = play_until(g, lambda x: x.over, seed=10)
    scenes["coloretto-over"] = scene(g, 0, ev)

    g = new_game("coloretto", seats=2, seed=13, options={"scoring": "grey"})
    ev = play_until(g, lambda x: x.over, seed=11)
    scenes["coloretto-over-2"] = scene(g, 1, ev)
    return scenes


if __name__ == "__main__":
    data = build()
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{OUT}: {', '.join(data)}")
