"""Rainbow's ``random`` and ``medium`` players."""

from __future__ import annotations

from colorclash.bots.base import Action, Bot, Event, View
from colorclash.bots.rainbow.policy import Policy


class RandomBot(Bot):
    """A uniformly random legal action."""

    level = "random"

    def choose(self, view: View, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


class MediumBot(Bot):
    """The heuristic of :mod:`.policy` on what the view shows now: its own fronts, the
    opponent's backs, the faces up. It keeps no memory of faces gone underneath."""

    level = "medium"

    def __init__(self, *, game: str = "rainbow", seed: int | str | None = None,
                 end_values: tuple[float, ...] | None = None) -> None:
        super().__init__(game=game, seed=seed)
        self.policy = Policy(end_values) if end_values is not None else Policy()

    def observe(self, events: list[Event] | None) -> None:
        """Medium keeps no memory."""

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        ups = [f for f in view["table"] if f is not None]
        state = view["turn_state"]
        action = self.policy.decide(
            ups, [None] * len(ups), list(view["hand"]),
            list(view["hands"][1 - view["seat"]]["faces"]),
            state["played"], state["flip_pending"], self.rng)
        return action if action in legal else legal[0]
