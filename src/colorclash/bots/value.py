"""A learned value of a two-seat position, for ``hard``'s rollouts cut short.

``hard`` plays each rollout only a few actions deep; the position it stops in is then
worth the chance that the searching seat wins the round from there. Counting cards alone
misjudges that chance badly (a Wild, a Skip that plays again, a hand that cannot follow
the colour are worth a lot with few cards left), so the chance is a logistic model over a
handful of features of both hands, fitted offline to the outcomes of self-play rounds of
the rollouts' own policy (``benchmarks/train_value.py`` regenerates the weights below).

Only two-seat rounds: with more seats ``hard`` keeps its hand-size share.
"""

from __future__ import annotations

import math
from typing import Any

from colorclash.engine.cards import FACES
from colorclash.engine.color_clash import playable_faces

# per face: (is a wild, is a wild draw card, plays again with two seats (skip, reverse,
# skip-all), coloured draw card, shield, bomb, points)
_TRAITS = {
    name: (
        1.0 if f.color is None else 0.0,
        1.0 if f.color is None and f.kind == "draw" else 0.0,
        1.0 if f.kind in ("skip", "reverse", "skipall") else 0.0,
        1.0 if f.color is not None and f.kind == "draw" else 0.0,
        1.0 if f.kind == "shield" else 0.0,
        1.0 if f.kind == "bomb" else 0.0,
        float(f.points),
    )
    for name, f in FACES.items()
}
_COLOR = {name: f.color for name, f in FACES.items()}

FEATURES = (
    "bias", "my turn",
    *(f"{who} {what}" for who in ("me", "opp") for what in (
        "cards/10", "1 card", "2 cards", "3 cards", "log cards", "wilds", "wild draws",
        "again cards", "draw cards", "shields", "bombs", "colours", "active colour",
        "can play", "can play with 1 card", "can play on turn", "points/100")),
    "stack/4", "fuse lit", "shield standing me", "shield standing opp",
)


def features(g: Any, me: int) -> list[float]:
    """The features of the engine game ``g`` (two seats) seen by ``me``."""
    faces = g._faces
    top = faces[g.discard[-1]] if g.discard else None
    color = g.color
    phase = g.phase
    acting = g.window_seat if phase == "call_window" else g.turn
    my_turn = 1.0 if acting == me else 0.0
    out = [1.0, my_turn]
    for seat in (me, 1 - me):
        hand = [faces[c] for c in g.hands[seat]]
        n = len(hand)
        wild = wdraw = again = draw = shield = bomb = points = 0.0
        colors = set()
        active = 0
        for f in hand:
            t = _TRAITS[f]
            wild += t[0]
            wdraw += t[1]
            again += t[2]
            draw += t[3]
            shield += t[4]
            bomb += t[5]
            points += t[6]
            c = _COLOR[f]
            if c is not None:
                colors.add(c)
                if c == color:
                    active += 1
        # can it follow the top card, by the engine's rule (a waiting stack is its own feature)
        can = 1.0 if color is not None and top is not None and playable_faces(
            hand, top, color, wild4_restricted=False) else 0.0
        turn = my_turn if seat == me else 1.0 - my_turn
        out += [
            min(n, 20) / 10.0, 1.0 if n == 1 else 0.0, 1.0 if n == 2 else 0.0,
            1.0 if n == 3 else 0.0, math.log(n + 0.5), wild / 2.0, wdraw / 2.0,
            again / 2.0, draw / 2.0, shield, bomb, len(colors) / 4.0, active / 3.0, can,
            can if n == 1 else 0.0, can * turn, points / 100.0,
        ]
    shields = g.shield_cards
    out += [
        (g.stack or 0) / 4.0,
        1.0 if g.fuse else 0.0,
        1.0 if shields[me] is not None else 0.0,
        1.0 if shields[1 - me] is not None else 0.0,
    ]
    return out


def win_chance(g: Any, me: int, weights: tuple[float, ...]) -> float:
    """The model's chance that ``me`` wins the round from ``g``."""
    z = 0.0
    for w, x in zip(weights, features(g, me), strict=True):
        z += w * x
    if z > 30.0:
        return 1.0
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


# Fitted by benchmarks/train_value.py (per preset, two seats); a preset missing here keeps
# the hand-size share.
WEIGHTS: dict[str, tuple[float, ...]] = {
    "standard": (0.0660, -0.1922, -0.6287, -0.0998, 0.0349, -0.0061, -0.6480, 0.3699, 0.9727, 0.1214, 0.6054, 0.0000, 0.0000, -1.0144, 0.1040, 0.2639, 0.9957, 0.2382, 0.4323, 0.6063, 0.1038, -0.0027, 0.0038, 0.6829, -0.3794, -0.9532, -0.1491, -0.6109, 0.0000, 0.0000, 1.0291, -0.1144, -0.2703, -0.9971, -0.2408, -0.4413, 0.0000, 0.0000, 0.0000, 0.0000),
    "family": (0.0158, -0.1995, -0.6274, -0.0924, 0.0474, 0.0284, -0.6672, 0.3931, 0.9937, 0.1628, 0.6315, 0.0000, 0.0000, -0.9444, 0.0769, 0.2095, 1.0740, 0.2544, 0.4468, 0.6029, 0.0866, 0.0082, 0.0169, 0.6846, -0.3771, -1.0230, -0.1381, -0.5917, 0.0000, 0.0000, 0.9744, -0.0995, -0.2102, -1.0014, -0.2197, -0.4233, 0.0000, 0.0000, 0.0000, 0.0000),
    "classic-table": (0.0589, -0.1481, -0.6483, -0.0871, 0.0196, -0.0274, -0.5344, 0.3637, 0.6560, 0.1651, 0.5948, 0.0000, -0.3744, -0.7514, 0.0444, 0.2640, 0.9395, 0.1483, 0.2970, 0.6163, 0.0606, -0.0126, 0.0092, 0.5635, -0.3114, -0.7057, -0.1688, -0.5818, 0.0000, 0.3678, 0.7565, -0.0754, -0.2501, -0.9303, -0.1592, -0.3425, 0.0153, 0.0340, 0.0000, 0.0000),
    "siege": (0.0845, -0.1632, -0.5657, -0.0880, 0.0282, 0.0118, -0.6051, 0.3584, 0.5702, 0.1626, 0.4747, 0.1586, 0.0000, -0.9346, 0.1090, 0.2700, 1.0660, 0.1626, 0.3586, 0.5143, 0.0738, -0.0538, 0.0127, 0.5850, -0.3917, -0.5528, -0.1505, -0.4872, -0.1506, 0.0000, 0.9862, -0.0965, -0.2574, -1.0663, -0.1669, -0.3338, 0.0038, 0.0000, 0.1668, -0.1809),
}


__all__ = ["FEATURES", "WEIGHTS", "features", "win_chance"]
