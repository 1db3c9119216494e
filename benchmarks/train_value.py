"""Fit the value ``hard`` gives a two-seat position where a rollout stops
(:mod:`colorclash.bots.value`).

Self-play rounds of the rollouts' own policy (``medium``'s, :func:`fast_policy_lean`) on
every seat; a quarter of the positions are kept, each seen by a random seat and labelled
with whether that seat won the round. A logistic regression (Newton's method, a little L2)
is fitted on them and checked on rounds from another seed: the log-loss of the model, of a
coin, and of the hand-size share ``hard`` uses otherwise.

With ``--match`` it fits instead the models that turn a round chance into a match chance
(``MATCH_WEIGHTS``, ``STANDING_WEIGHTS``) on self-play ``family`` matches of five rounds:
every kept position is seen from the seat that went on to win its round and labelled with
whether that seat won the match; every break between rounds gives the standing and the
match's outcome.

Usage: ``python -m benchmarks.train_value [--presets P,...] [--rounds N] [--seed S]
[--match]``; it prints the entries to paste into ``bots/value.py``. Needs numpy (the
``bench`` extra).
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np

from colorclash.bots.hard import fast_policy_lean
from colorclash.bots.value import FEATURES, MAX_ROUNDS_LEFT, features, match_share
from colorclash.engine import new_game

PRESETS = ("standard", "family", "classic-table", "siege")
KEEP = 0.25  # share of positions kept: neighbours in one round are much alike


def positions(preset: str, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Features and outcomes of positions from ``rounds`` self-play rounds."""
    rng = random.Random(seed)
    xs: list[list[float]] = []
    ys: list[float] = []
    for r in range(rounds):
        g = new_game("color-clash", preset=preset, seats=2, seed=f"value:{seed}:{r}",
                     options={"rounds": 1})
        g.rng = random.Random(rng.getrandbits(64))
        kept: list[tuple[list[float], int]] = []
        steps = 0
        while g.phase not in ("round_over", "game_over") and steps < 1000:
            if rng.random() < KEEP:
                me = rng.randrange(2)
                kept.append((features(g, me), me))
            seat = g.to_act[0]
            g.apply(seat, fast_policy_lean(g, seat))
            steps += 1
        if not g.out:
            continue  # a dead round teaches nothing about who wins
        winner = g.out[0]
        for x, me in kept:
            xs.append(x)
            ys.append(1.0 if winner == me else 0.0)
    return np.array(xs), np.array(ys)


def match_positions(matches: int, seed: int) -> tuple[dict[int, tuple[np.ndarray, np.ndarray]],
                                                     dict[int, tuple[np.ndarray, np.ndarray]]]:
    """From ``matches`` self-play ``family`` matches of five rounds: per rounds still to
    play after the current one, the winner-side features (MATCH_FEATURES) of kept positions
    and whether the round's winner won the match; per rounds still to play between rounds,
    the standing (both sides) and the match outcome."""
    rng = random.Random(seed)
    rounds = MAX_ROUNDS_LEFT + 1
    during: dict[int, tuple[list[list[float]], list[float]]] = {
        k: ([], []) for k in range(rounds)}
    between: dict[int, tuple[list[list[float]], list[float]]] = {
        k: ([], []) for k in range(1, rounds)}
    for m in range(matches):
        g = new_game("color-clash", preset="family", seats=2, seed=f"match:{seed}:{m}",
                     options={"rounds": rounds})
        g.rng = random.Random(rng.getrandbits(64))
        kept: list[tuple[int, list[int], list[int]]] = []  # round, scores, cards
        round_winner: dict[int, int] = {}  # by round; a dead round has none
        breaks: list[tuple[int, int]] = []  # (rounds left, seat 0's standing)
        steps = 0
        while steps < 5000:
            if g.phase in ("round_over", "game_over") and g.out:
                round_winner[g.round_no] = g.out[0]
            if g.phase == "game_over":
                break
            if g.phase == "round_over":
                breaks.append((rounds - g.round_no, g.scores[0] - g.scores[1]))
                g.apply(0, {"type": "next"})
                continue
            if rng.random() < KEEP / 2:
                kept.append((g.round_no, list(g.scores), [len(h) for h in g.hands]))
            seat = g.to_act[0]
            g.apply(seat, fast_policy_lean(g, seat))
            steps += 1
        if g.phase != "game_over":
            continue
        result = [match_share(g, s) for s in (0, 1)]
        for round_no, scores, cards in kept:
            w = round_winner.get(round_no)
            if w is None:
                continue  # a dead round
            lose = 1 - w
            xs, ys = during[rounds - round_no]
            xs.append([1.0, (scores[w] - scores[lose]) / 100.0, min(cards[lose], 20) / 10.0])
            ys.append(result[w])
        for left, standing in breaks:
            xs, ys = between[left]
            xs += [[standing / 100.0], [-standing / 100.0]]
            ys += [result[0], result[1]]
    return ({k: (np.array(v[0]), np.array(v[1])) for k, v in during.items()},
            {k: (np.array(v[0]), np.array(v[1])) for k, v in between.items()})


def fit_match(matches: int, seed: int) -> None:
    """Fit and print MATCH_WEIGHTS and STANDING_WEIGHTS (held-out log-loss alongside)."""
    t0 = time.perf_counter()
    during, between = match_positions(matches, seed)
    test_during, _ = match_positions(max(matches // 4, 1), seed + 1)
    print(f"# family matches of {MAX_ROUNDS_LEFT + 1} rounds: {matches} "
          f"({time.perf_counter() - t0:.0f} s)")
    print("MATCH_WEIGHTS = {")
    for left, (x, y) in during.items():
        w = fit(x, y)
        xt, yt = test_during[left]
        model = log_loss(1.0 / (1.0 + np.exp(-xt @ w)), yt)
        alone = fit(x[:, :2], y)
        standing = log_loss(1.0 / (1.0 + np.exp(-xt[:, :2] @ alone)), yt)
        print(f"    {left}: ({', '.join(f'{v:.4f}' for v in w)}),  # {len(y)} positions; "
              f"held-out log-loss {model:.4f}, standing alone {standing:.4f}")
    print("}")
    print("STANDING_WEIGHTS = {")
    for left, (x, y) in between.items():
        w = fit(x, y)
        print(f"    {left}: {w[0]:.4f},  # {len(y) // 2} breaks")
    print("}")


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Logistic regression by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + l2 * w
        hess = (x * (p * (1 - p))[:, None]).T @ x / len(y) + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def share(x: np.ndarray, beta: float = 0.6) -> np.ndarray:
    """``hard``'s hand-size share for the same positions."""
    mine = x[:, FEATURES.index("me cards/10")] * 10
    theirs = x[:, FEATURES.index("opp cards/10")] * 10
    return 1.0 / (1.0 + np.exp(-beta * (theirs - mine)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--rounds", type=int, default=20_000, help="training rounds per preset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--match", action="store_true",
                    help="fit the match models (from --rounds matches) instead")
    args = ap.parse_args(argv)
    if args.match:
        fit_match(args.rounds, args.seed)
        return 0
    for preset in args.presets.split(","):
        t0 = time.perf_counter()
        x, y = positions(preset, args.rounds, args.seed)
        xt, yt = positions(preset, max(args.rounds // 4, 1), args.seed + 1)
        w = fit(x, y)
        model = log_loss(1.0 / (1.0 + np.exp(-xt @ w)), yt)
        print(f"# {preset}: {len(y)} positions, held out {len(yt)}: log-loss "
              f"model {model:.4f}, coin {math.log(2):.4f}, hand-size share "
              f"{log_loss(share(xt), yt):.4f} ({time.perf_counter() - t0:.0f} s)")
        print(f'    "{preset}": (' + ", ".join(f"{v:.4f}" for v in w) + "),")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
