"""A golden seeded playthrough of Rainbow: the same seed and the same choices must always
give the same deal, the same events and the same result. A change here is a change of
the rules or of the protocol: update the figures only on purpose."""

from __future__ import annotations

import hashlib
import json
import random

from colorclash.engine import new_game


def playthrough():
    g = new_game("rainbow", seats=2, seed="golden-2026")
    rng = random.Random(2026)
    events = list(g.start_events)
    while not g.over:
        seat = g.turn
        legal = g.legal_actions(seat)
        if g.phase == "continue" and rng.random() < 0.5:
            action = {"type": "end"}
        else:
            action = rng.choice(legal)
        events += g.apply(seat, action)
    return g, events


def digest(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def test_golden_playthrough():
    g, events = playthrough()
    kinds = [e["type"] for e in events]
    assert g.commitment()[:16] == GOLDEN["commitment"]
    assert g.start_events[0]["first"] == GOLDEN["first"]
    assert len(g.log) == GOLDEN["actions"]
    assert g.round_no == GOLDEN["rounds"]
    assert {k: kinds.count(k) for k in ("shadow", "error", "rainbow", "pass")} == \
        GOLDEN["checks"]
    assert g.result == GOLDEN["result"]
    assert digest(events) == GOLDEN["events"]
    assert digest([g.view(0), g.view(1)]) == GOLDEN["views"]
    # every round that ended is one seat's, by the way it ended
    won = g.view(0)["rounds_won"]
    assert {k: won[0][k] + won[1][k] for k in ("shadow", "error", "rainbow")} == \
        {k: GOLDEN["checks"][k] for k in ("shadow", "error", "rainbow")}
    assert events[:8] == GOLDEN["opening"]


GOLDEN = {
    "commitment": "d36aa06750ef6268",
    "first": 1,
    "actions": 102,
    "rounds": 14,
    "checks": {"shadow": 7, "error": 5, "rainbow": 1, "pass": 23},
    "result": {"scores": [28, 21], "winners": [0], "draw": False},
    "events": "2a13523a31b5d625",
    "views": "7fa834be9da92152",  # (with rounds_won, then check)
    "opening": [
        {"type": "deal", "round": 1, "first": 1, "hand_counts": [3, 3], "deck": 51},
        {"type": "play", "seat": 1, "hand": 0, "place": 0, "face": "green", "turned": False},
        {"type": "end", "seat": 1, "reason": "stopped"},
        {"type": "pass", "seat": 1, "next": 0},
        {"type": "draw", "seat": 1, "count": 1, "deck": 50},
        {"type": "play", "seat": 0, "hand": 2, "place": 1, "face": "yellow", "turned": False},
        {"type": "flip", "seat": 0, "place": 0, "face": "violet"},
        {"type": "play", "seat": 0, "hand": 0, "place": 2, "face": "green", "turned": True},
    ],
}
