"""Coloretto's ``random``, ``easy`` and ``medium`` computer players."""

from __future__ import annotations

from colorclash.bots.base import Action, Bot, View
from colorclash.bots.coloretto.policy import DEFAULT_SPITE, choose, supply_mix
from colorclash.bots.coloretto.world import unseen, world

#: easy's settings (measured: docs/coloretto.md, "Computer players")
EASY_SPITE = 0.0
EASY_PATIENCE = 0.6


class RandomBot(Bot):
    """Any legal action, uniformly."""

    level = "random"

    def __init__(self, *, game: str = "coloretto", seed: int | str | None = None) -> None:
        super().__init__(game=game, seed=seed)

    def choose(self, view: View, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


class MediumBot(Bot):
    """The heuristic of :mod:`colorclash.bots.coloretto.policy`: place where it helps me
    and hurts the others, take when waiting is unlikely to bring more."""

    level = "medium"

    def __init__(self, *, game: str = "coloretto", seed: int | str | None = None,
                 spite: float = DEFAULT_SPITE, patience: float | None = None,
                 deny: float | None = None) -> None:
        super().__init__(game=game, seed=seed)
        self.spite = spite
        self.take_patience = patience
        self.deny = deny

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        pool = unseen(view)
        g = world(view, self.rng, pool)  # the supply's order plays no part in the choice
        action = choose(g, view["seat"], supply_mix(pool), self.spite, self.take_patience,
                        self.deny)
        assert action in legal, (action, legal)
        return action


class EasyBot(MediumBot):
    """A beginner's play: medium's heuristic for itself alone, in a hurry.

    It places the drawn card where it helps its own collection most, with no thought of
    what the card gives the others (no spite), and takes the best row for itself early
    (little patience: waiting counts for little), never to deny a row to another player.
    """

    level = "easy"

    def __init__(self, *, game: str = "coloretto", seed: int | str | None = None) -> None:
        super().__init__(game=game, seed=seed, spite=EASY_SPITE, patience=EASY_PATIENCE,
                         deny=0.0)
