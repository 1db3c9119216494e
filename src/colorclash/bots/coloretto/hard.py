"""Coloretto's ``hard`` computer player: determinized rollouts over the supply's order.

The only hidden fact in Coloretto is the order of the supply; its composition is public
(:mod:`colorclash.bots.coloretto.world`). For each decision with a real choice ``hard``

1. deals a *world*: the position of its view with the supply in a random order (the
   last-round card at its known place);
2. in that world plays every candidate action, then the rest of the round (``rounds``:
   that many round ends) with the ``medium`` heuristic for every seat, all candidates
   sharing the world and the rollout's random stream (common random numbers: the
   comparison is sharp even with few worlds);
3. scores each rollout: at the end of the game, 1 for a win, 1/k for a win shared by k
   seats, 0 for a loss; earlier, a chance to win from the score margin over the best
   other player (a logistic curve that flattens as more of the supply remains);
4. repeats with new worlds until the budget runs out and plays the candidate with the best
   mean (ties: the heuristic's own choice). After ``prune_after`` worlds, candidates whose
   mean is more than ``prune_gap`` below the best are dropped, so the budget goes to the
   close calls; the search stops when one candidate is left.

Budget: ``budget_ms`` (default 80 ms of wall time from the call of ``act``) and ``rollouts``
(default 4,000 rollouts in all); whichever runs out first ends the search. With
``budget_ms=None`` the rollout count alone bounds it, and a seeded bot is reproducible.
"""

from __future__ import annotations

import gc
import math
import time
from typing import Any

from colorclash.bots.base import Action, Bot, View
from colorclash.bots.coloretto.policy import DEFAULT_SPITE, choose, supply_mix
from colorclash.bots.coloretto.world import reshuffle, unseen, world
from colorclash.engine.coloretto import Coloretto

DEFAULT_BUDGET_MS = 80.0
DEFAULT_ROLLOUTS = 4000
DEFAULT_ROUNDS = 2
#: margin (points) that makes a 73% favourite with an empty supply; widens with the supply
MARGIN_SCALE = 4.0
SUPPLY_SCALE = 0.15
MAX_ROLLOUT_ACTIONS = 2000
#: after this many worlds, candidates this far (in mean outcome) behind the best are dropped
PRUNE_AFTER = 8
PRUNE_GAP = 0.2


def outcome(g: Coloretto, seat: int) -> float:
    """How good the rollout's end is for ``seat``, from 0 to 1."""
    if g.over:
        winners = g.result["winners"]
        return 1.0 / len(winners) if seat in winners else 0.0
    scores = [g.score(s) for s in range(g.n)]
    margin = scores[seat] - max(scores[s] for s in range(g.n) if s != seat)
    scale = MARGIN_SCALE + SUPPLY_SCALE * len(g.supply)
    return 1.0 / (1.0 + math.exp(-margin / scale))


class HardBot(Bot):
    """Flat Monte Carlo over determinized worlds with ``medium`` rollouts."""

    level = "hard"
    thinks = True  # searches: the server runs it in a worker process

    def __init__(self, *, game: str = "coloretto", seed: int | str | None = None,
                 budget_ms: float | None = DEFAULT_BUDGET_MS,
                 rollouts: int | None = DEFAULT_ROLLOUTS, rounds: int = DEFAULT_ROUNDS,
                 spite: float = DEFAULT_SPITE, patience: float | None = None,
                 prune_after: int = PRUNE_AFTER, prune_gap: float = PRUNE_GAP) -> None:
        super().__init__(game=game, seed=seed)
        if budget_ms is None and rollouts is None:
            raise ValueError("hard needs a budget: budget_ms, rollouts or both")
        self.budget_ms = budget_ms
        self.rollouts = rollouts
        self.rounds = rounds
        self.spite = spite
        self.take_patience = patience
        self.prune_after = prune_after
        self.prune_gap = prune_gap
        self.last_search: dict[str, Any] = {}

    def choose(self, view: View, legal: list[Action]) -> Action:
        started = time.perf_counter()
        self.last_search = {}
        if len(legal) == 1:
            return legal[0]
        gc_was_on = gc.isenabled()
        gc.disable()  # a full collection (tens of ms with warm caches) would blow the budget
        try:
            return self._search(view, legal, started)
        finally:
            if gc_was_on:
                gc.enable()

    def _search(self, view: View, legal: list[Action], started: float) -> Action:
        me = view["seat"]
        pool = unseen(view)
        mix = supply_mix(pool)
        base = world(view, self.rng, pool)
        prior = choose(base, me, mix, self.spite, self.take_patience)
        above = view["cards_above_last_round"]
        target = view["round"] + self.rounds
        totals = [0.0] * len(legal)
        played = [0] * len(legal)  # worlds each candidate has played
        alive = list(range(len(legal)))
        worlds = rollouts = 0
        deadline = None if self.budget_ms is None else started + self.budget_ms / 1000.0
        cap = self.rollouts
        while True:
            w = reshuffle(base, self.rng, above)
            results = []
            for i in alive:
                g = w.copy()
                g.apply(me, legal[i])
                self._rollout(g, target, mix)
                results.append(outcome(g, me))
                if deadline is not None and worlds and time.perf_counter() >= deadline:
                    break  # a world counts only when every candidate left has played it
            if len(results) < len(alive):
                break
            for i, value in zip(alive, results, strict=True):
                totals[i] += value
                played[i] += 1
            worlds += 1
            rollouts += len(alive)
            if worlds >= self.prune_after and len(alive) > 1:
                top = max(totals[i] / played[i] for i in alive)
                alive = [i for i in alive if totals[i] / played[i] >= top - self.prune_gap]
            if len(alive) == 1:
                break
            if cap is not None and rollouts + len(alive) > cap:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        if not worlds:
            return prior
        means = [totals[i] / played[i] if played[i] else 0.0 for i in range(len(legal))]
        best = max(alive, key=lambda i: (means[i], legal[i] == prior))
        self.last_search = {"worlds": worlds, "candidates": len(legal), "rollouts": rollouts,
                            "means": means}
        return legal[best]

    def _rollout(self, g: Coloretto, target: int, mix: list[tuple[str, float]]) -> None:
        """Play on with the heuristic until round ``target`` begins (or the game ends)."""
        actions = 0
        while not g.over and g.round_no < target and actions < MAX_ROLLOUT_ACTIONS:
            seat = g.turn
            g.apply(seat, choose(g, seat, mix, self.spite, self.take_patience))
            actions += 1
