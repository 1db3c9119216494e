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
    return logistic(z)


# Fitted by benchmarks/train_value.py (per preset, two seats); a preset missing here keeps
# the hand-size share.
WEIGHTS: dict[str, tuple[float, ...]] = {
    "standard": (0.0660, -0.1922, -0.6287, -0.0998, 0.0349, -0.0061, -0.6480, 0.3699, 0.9727, 0.1214, 0.6054, 0.0000, 0.0000, -1.0144, 0.1040, 0.2639, 0.9957, 0.2382, 0.4323, 0.6063, 0.1038, -0.0027, 0.0038, 0.6829, -0.3794, -0.9532, -0.1491, -0.6109, 0.0000, 0.0000, 1.0291, -0.1144, -0.2703, -0.9971, -0.2408, -0.4413, 0.0000, 0.0000, 0.0000, 0.0000),
    "family": (0.0158, -0.1995, -0.6274, -0.0924, 0.0474, 0.0284, -0.6672, 0.3931, 0.9937, 0.1628, 0.6315, 0.0000, 0.0000, -0.9444, 0.0769, 0.2095, 1.0740, 0.2544, 0.4468, 0.6029, 0.0866, 0.0082, 0.0169, 0.6846, -0.3771, -1.0230, -0.1381, -0.5917, 0.0000, 0.0000, 0.9744, -0.0995, -0.2102, -1.0014, -0.2197, -0.4233, 0.0000, 0.0000, 0.0000, 0.0000),
    "classic-table": (0.0589, -0.1481, -0.6483, -0.0871, 0.0196, -0.0274, -0.5344, 0.3637, 0.6560, 0.1651, 0.5948, 0.0000, -0.3744, -0.7514, 0.0444, 0.2640, 0.9395, 0.1483, 0.2970, 0.6163, 0.0606, -0.0126, 0.0092, 0.5635, -0.3114, -0.7057, -0.1688, -0.5818, 0.0000, 0.3678, 0.7565, -0.0754, -0.2501, -0.9303, -0.1592, -0.3425, 0.0153, 0.0340, 0.0000, 0.0000),
    "siege": (0.0845, -0.1632, -0.5657, -0.0880, 0.0282, 0.0118, -0.6051, 0.3584, 0.5702, 0.1626, 0.4747, 0.1586, 0.0000, -0.9346, 0.1090, 0.2700, 1.0660, 0.1626, 0.3586, 0.5143, 0.0738, -0.0538, 0.0127, 0.5850, -0.3917, -0.5528, -0.1505, -0.4872, -0.1506, 0.0000, 0.9862, -0.0965, -0.2574, -1.0663, -0.1669, -0.3338, 0.0038, 0.0000, 0.1668, -0.1809),
}


# ------------------------------------------------------------------ matches of rounds
#
# In a match of several rounds scored by the winner (``family``: three rounds, the winner
# of a round scores the points left in the loser's hand), winning the round is not the
# whole goal. ``hard`` plays for the match at the end of a round, where its rollouts play
# on until the round is over (colorclash.bots.hard, ENDGAME_CARDS):
#
# - :func:`standing_chance` scores a finished round: a logistic model of the score
#   difference, fitted per number of rounds still to play;
# - :func:`match_chance` scores the rare rollout still cut short: the chance to win the
#   match if the searching seat wins this round and if it loses it, each a logistic model
#   of the standing and the loser's card count (per rounds still to play after this one),
#   weighed by the round chance. The points in the loser's hand are left out on purpose:
#   mid-round they say little about the points at stake when the round ends, and a search
#   that counted them shed its Wilds too early (docs/benchmarks.md).
#
# Both are fitted by ``python -m benchmarks.train_value --match`` on self-play matches of
# the rollouts' own policy. The models are written from the round winner's side, so one
# set of weights serves both outcomes: losing the round is the other seat winning it.

MATCH_FEATURES = ("bias", "standing/100", "loser cards/10")
MAX_ROUNDS_LEFT = 4  # the longest match offered is five rounds


def logistic(z: float) -> float:
    """1 / (1 + e^-z), without overflow."""
    if z > 30.0:
        return 1.0
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def _rounds_after(g: Any) -> int:
    """Rounds still to play after the current one (capped at :data:`MAX_ROUNDS_LEFT`)."""
    return min(max(g.options.rounds - g.round_no, 0), MAX_ROUNDS_LEFT)


def winner_match_chance(standing: float, loser_cards: int, rounds_after: int) -> float:
    """The chance that the seat that wins this round wins the match, from its standing
    (its score minus the other's) and the number of cards the loser holds now."""
    w = MATCH_WEIGHTS[rounds_after]
    return logistic(w[0] + w[1] * standing / 100.0 + w[2] * min(loser_cards, 20) / 10.0)


def match_chance(g: Any, me: int, round_chance: float) -> float:
    """The chance that ``me`` wins a two-seat match of several rounds scored by the
    winner, from a round still being played in which it has ``round_chance`` (see
    :func:`uses_match_value`)."""
    opp = 1 - me
    standing = g.scores[me] - g.scores[opp]
    after = _rounds_after(g)
    if_win = winner_match_chance(standing, len(g.hands[opp]), after)
    if_lose = 1.0 - winner_match_chance(-standing, len(g.hands[me]), after)
    return round_chance * if_win + (1.0 - round_chance) * if_lose


def match_share(g: Any, seat: int) -> float:
    """``seat``'s share of a finished match: 1 / the number of winners if it is one, else 0."""
    winners = g.result["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def standing_chance(g: Any, me: int) -> float:
    """The chance that ``me`` wins the match from the standing between two rounds (exact
    when the match is over)."""
    if g.phase == "game_over":
        return match_share(g, me)
    after = max(_rounds_after(g), 1)  # between rounds, at least one is still to play
    return logistic(STANDING_WEIGHTS[after] * (g.scores[me] - g.scores[1 - me]) / 100.0)


def uses_match_value(options: dict[str, Any], seats: int) -> bool:
    """Do these game options (a view's ``options``) make a two-seat match of several
    rounds scored by the round winner, where :func:`match_chance` applies?"""
    return (seats == 2 and options.get("rounds", 1) > 1
            and options.get("scoring") == "winner" and options.get("deck") != "day-night")


# Fitted by benchmarks/train_value.py --match: MATCH_WEIGHTS per rounds still to play after
# the current one (MATCH_FEATURES), STANDING_WEIGHTS per rounds still to play.
MATCH_WEIGHTS: dict[int, tuple[float, float, float]] = {
    0: (1.3790, 4.9996, 0.8260),
    1: (0.6692, 2.7551, 0.4837),
    2: (0.5052, 2.0213, 0.3711),
    3: (0.4097, 1.6414, 0.3401),
    4: (0.3992, 0.0000, 0.2471),
}
STANDING_WEIGHTS: dict[int, float] = {1: 3.0884, 2: 2.1918, 3: 1.7758, 4: 1.4752}


__all__ = ["FEATURES", "MATCH_FEATURES", "WEIGHTS", "features", "logistic", "match_chance", "match_share",
           "standing_chance", "uses_match_value", "win_chance", "winner_match_chance"]
