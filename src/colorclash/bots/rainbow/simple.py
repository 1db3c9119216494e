"""Rainbow's ``random``, ``easy`` and ``medium`` players."""

from __future__ import annotations

from colorclash.bots.base import Action, Bot, Event, View
from colorclash.bots.rainbow.policy import Policy, is_safe, used_colors
from colorclash.engine.rainbow import PLACES
from colorclash.engine.rainbow_deck import WHITE


class RandomBot(Bot):
    """A uniformly random legal action."""

    level = "random"

    def choose(self, view: View, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


class EasyBot(Bot):
    """A beginner's play: one card a turn, then End turn.

    It plays a card of its hand as seen whose face is safe on the row (a colour not
    showing yet, not black), keeping a white for the sixth place, and turns a card over at
    random only when no face of its hand is safe. It never turns a table card over, never
    plays a second card and does not think about what it leaves the other player.
    """

    level = "easy"

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        plays = [a for a in legal if a["type"] == "play"]
        if not plays:
            return next((a for a in legal if a["type"] == "end"), legal[0])
        hand = view["hand"]
        ups = [f for f in view["table"] if f is not None]
        used = used_colors(ups)
        last_place = len(ups) + 1 == PLACES
        safe = [a for a in plays if not a["turned"] and is_safe(hand[a["hand"]], used)]
        colours = [a for a in safe if hand[a["hand"]] != WHITE]
        pick = (safe if last_place else colours or safe) or [a for a in plays if a["turned"]]
        return self.rng.choice(pick or plays)


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
