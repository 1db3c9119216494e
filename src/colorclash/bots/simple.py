"""The two simplest computer players: ``random`` and ``easy``."""

from __future__ import annotations

from colorclash.bots.base import Action, Bot, View, find, forced, most_held_color, with_color


class RandomBot(Bot):
    """Picks uniformly among the legal actions (a wild's colour is part of the action)."""

    level = "random"

    def choose(self, view: View, legal: list[Action]) -> Action:
        nxt = find(legal, "next")
        if nxt is not None:
            return nxt
        return self.rng.choice(legal)


class EasyBot(Bot):
    """Plays the first legal card in hand order (a wild in the colour it holds most).

    Otherwise it takes a waiting stack, draws, or passes. It calls "Last card!" when the
    call is legal, plays a drawn card that can be played, and picks the colour it holds
    most when asked for a colour.
    """

    level = "easy"
    catch_patience = 0.75  # of the last-card window (base.Bot.patience)

    def choose(self, view: View, legal: list[Action]) -> Action:
        sure = forced(view, legal)
        if sure is not None:
            return sure
        hand = view.get("hand") or []
        if view.get("phase") == "color":
            color = most_held_color(hand)
            return next(a for a in legal if a.get("color") == color)
        play = find(legal, "play")
        if play is not None:
            card = play["card"]
            if "color" in play:
                return with_color(legal, card, most_held_color(hand, exclude_card=card))
            return play
        for kind in ("take", "draw", "keep", "pass"):
            a = find(legal, kind)
            if a is not None:
                return a
        return legal[0]
