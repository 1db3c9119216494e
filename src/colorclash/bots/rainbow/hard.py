"""Rainbow's ``hard`` player: rollouts over dealt worlds, with a memory of faces.

For each decision it deals worlds that agree with everything it has seen (its view, and
its :class:`~.memory.Memory` of faces gone underneath: see :mod:`.worlds`), and in each
world it tries every candidate action, then plays the round out with the heuristic of
:mod:`.policy` for both players -- each using only what *that* player knows of the faces
underneath, so no rollout cheats with the world's hidden faces. The action with the best
average outcome over the same worlds (common random numbers) is chosen.

The outcome of a rollout is the chance of winning the game from the scores at the end
of the round and the cards left in the deck (:func:`win_chance`), so that cards matter
more when few remain; a game that ends in the rollout counts as won, drawn or lost.

Options: ``budget_ms`` (wall-clock time per decision, default 80; None: no clock) and
``rollouts`` (worlds per decision; with ``budget_ms=None`` the search is deterministic
from the seed).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from colorclash.bots.base import Action, Bot, Event, View
from colorclash.bots.rainbow.memory import Memory
from colorclash.bots.rainbow.policy import Policy, is_safe, used_colors
from colorclash.bots.rainbow.worlds import Sampler, World
from colorclash.engine.rainbow import MAX_CARDS_PER_TURN, PLACES, PLAY

ROUND_ENDS = frozenset({"shadow", "error", "rainbow", "game_over"})

#: spread (standard deviation) of the change of margin until the end of the game, per
#: square root of the cards still to be drawn: about 2.0-2.2 in 400 games of medium
#: against itself (docs/rainbow.md); a few cards are added for the row still in play
MARGIN_SPREAD = 2.1
ROW_IN_PLAY = 3


def win_chance(margin: int, deck: int, over: bool) -> float:
    """The chance of winning with ``margin`` cards ahead and ``deck`` cards to draw."""
    if over or deck <= 0:
        return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    z = margin / (MARGIN_SPREAD * math.sqrt(deck + ROW_IN_PLAY))
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def rollout(world: World, policy: Policy, me: int) -> float:
    """Play ``world`` (in place) to the end of the round with the heuristic for both
    seats, each seeing only the faces underneath it knows; the outcome for ``me``."""
    g = world.game
    masks = world.masks
    while not g.over and not world.done:
        s = g.turn
        table = g.table
        ups = [u for u, _ in table]
        bit = 1 << s
        downs = [d if m & bit else None for (_, d), m in zip(table, masks, strict=True)]
        action = policy.decide(ups, downs, [f for f, _ in g.hands[s]],
                               [b for _, b in g.hands[1 - s]], g.played,
                               g.phase == PLAY and g.played > 0)
        if action["type"] == "flip":
            masks[action["place"]] = 3
        elif action["type"] == "play":
            masks.append(bit if action["turned"] else 3 - bit)
        events = g.apply(s, action)
        if any(e["type"] in ROUND_ENDS for e in events):
            break
    scores = g.scores()
    return win_chance(scores[me] - scores[1 - me], len(g.deck), g.over)


def apply_in_world(world: World, me: int, action: Action) -> World:
    """A copy of ``world`` after ``me`` took ``action`` (knowledge masks kept up)."""
    g = world.game.copy()
    masks = list(world.masks)
    if action["type"] == "flip":
        masks[action["place"]] = 3
    elif action["type"] == "play":
        masks.append(1 << me if action["turned"] else 1 << (1 - me))
    events = g.apply(me, action)
    done = any(e["type"] in ROUND_ENDS for e in events)
    return World(g, [] if done else masks, done)


def candidates(view: View, legal: list[Action], memory: Memory) -> list[Action]:
    """The legal actions worth a search: not a card shown face up that surely fails the
    check when it ends the turn, not turning over a card known to hide a losing face
    when the card that must follow ends the turn (unless nothing else is left)."""
    ups = [f for f in view["table"] if f is not None]
    state = view["turn_state"]
    last = state["played"] + 1 >= MAX_CARDS_PER_TURN or len(ups) + 1 >= PLACES
    keep = []
    for a in legal:
        if a["type"] == "play" and not a["turned"] and last:
            if not is_safe(view["hand"][a["hand"]], used_colors(ups)):
                continue
        if a["type"] == "flip" and memory.ups == ups:
            p = a["place"]
            d = memory.downs[p]
            if d is not None and last and not is_safe(d, used_colors(ups, skip=p)):
                continue
        keep.append(a)
    return keep or list(legal)


class HardBot(Bot):
    level = "hard"

    def __init__(self, *, game: str = "rainbow", seed: int | str | None = None,
                 budget_ms: float | None = 80.0, rollouts: int | None = None,
                 memory: bool = True) -> None:
        super().__init__(game=game, seed=seed)
        self.budget_ms = budget_ms
        self.rollouts = rollouts if rollouts is not None else (None if budget_ms else 64)
        self.use_memory = memory
        self.memory = Memory()
        self.policy = Policy()
        self.last_search: dict[str, Any] = {}
        self._sampler: Sampler | None = None

    def observe(self, events: list[Event] | None) -> None:
        if self.use_memory:
            self.memory.observe(events)

    def choose(self, view: View, legal: list[Action]) -> Action:
        if self.use_memory:
            self.memory.see(view)
        else:
            self.memory = Memory()
            self.memory.see(view)
        self.last_search = {}
        options = candidates(view, legal, self.memory)
        if len(options) == 1:
            return options[0]
        return self._search(view, options)

    def _world(self, view: View, rng: random.Random) -> World | None:
        """One world to search in, dealt from what this player knows."""
        assert self._sampler is not None
        return self._sampler.sample(rng)

    def _search(self, view: View, options: list[Action]) -> Action:
        me = view["seat"]
        start = time.perf_counter()
        deadline = None if self.budget_ms is None else start + self.budget_ms / 1000.0
        totals = [0.0] * len(options)
        worlds = 0
        rng = random.Random(self.rng.getrandbits(64))
        self._sampler = Sampler(view, self.memory)
        while True:
            if self.rollouts is not None and worlds >= self.rollouts:
                break
            if deadline is not None and worlds > 0 and time.perf_counter() >= deadline:
                break
            world = self._world(view, rng)
            if world is None:
                break
            for k, action in enumerate(options):
                totals[k] += rollout(apply_in_world(world, me, action), self.policy, me)
            worlds += 1
        self.last_search = {"worlds": worlds, "candidates": len(options),
                            "ms": 1000 * (time.perf_counter() - start)}
        if worlds == 0:
            return options[0]
        best = max(range(len(options)), key=lambda k: totals[k])
        return options[best]
