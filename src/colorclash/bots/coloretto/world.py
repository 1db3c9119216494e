"""What a Coloretto player knows, from its view alone, and the worlds it can believe in.

Everything but the order of the supply is public: the colours removed from the game, every
collection, the rows, the drawn card, the cards out of the game with a third row, and
where the last-round card lies (the deal puts it on the bottom 15 cards; the view says how
many cards lie above it). So the *composition* of the supply is known exactly: the deck
less every card in sight. A world is that supply in one random order, with the
last-round card at its known place, built as an engine position with ``setup=``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from colorclash.engine.coloretto import LAST, Coloretto, full_deck
from colorclash.engine.coloretto_scoring import COLOURS, JOKER, PLUS2

View = dict[str, Any]


def collection_cards(entry: dict[str, Any]) -> list[str]:
    """A view's collection entry as a list of cards."""
    cards = [c for c, k in entry["colours"].items() for _ in range(k)]
    return cards + [JOKER] * entry["jokers"] + [PLUS2] * entry["plus2"]


def unseen(view: View) -> Counter[str]:
    """The cards of the supply (the last-round card left out), by kind."""
    pool = Counter(c for c in full_deck() if c not in view["removed_colours"] and c != LAST)
    seen: list[str] = [c for entry in view["collections"] for c in collection_cards(entry)]
    seen += [c for row in view["rows"] for c in row["cards"]] + list(view["out"])
    if view["drawn"] is not None:
        seen.append(view["drawn"])
    pool.subtract(seen)
    if any(k < 0 for k in pool.values()):
        raise ValueError("the view shows more cards than the deck holds")
    return +pool


def world_setup(view: View, rng: random.Random, pool: Counter[str] | None = None
                ) -> dict[str, Any]:
    """An engine ``setup=`` for the view's position with the supply in a random order."""
    pool = unseen(view) if pool is None else pool
    cards = list(pool.elements())
    rng.shuffle(cards)  # top first
    above = view["cards_above_last_round"]
    if above is not None:
        cards.insert(above, LAST)
    return {
        "removed_colours": list(view["removed_colours"]),
        "collections": [collection_cards(e) for e in view["collections"]],
        "rows": [list(r["cards"]) for r in view["rows"]],
        "taken_by": [r["taken_by"] for r in view["rows"]],
        "taken": list(view["taken"]),
        "supply": cards,
        "turn": view["turn"],
        "first": view["first"],
        "drawn": view["drawn"],
        "last_round": view["last_round"],
        "round": view["round"],
        "out": list(view["out"]),
    }


def world(view: View, rng: random.Random, pool: Counter[str] | None = None) -> Coloretto:
    """An engine game in the view's position (one random supply order)."""
    return Coloretto(seats=view["seats"], seed=0, setup=world_setup(view, rng, pool),
                     options={"scoring": view["scoring_side"]})


def kinds_in_play(view: View) -> tuple[str, ...]:
    return (*(c for c in COLOURS if c not in view["removed_colours"]), JOKER, PLUS2)


def reshuffle(base: Coloretto, rng: random.Random, above: int | None) -> Coloretto:
    """A copy of the world ``base`` with its supply in a new random order (the last-round
    card kept ``above`` cards from the top)."""
    g = base.copy()
    cards = [c for c in g.supply if c != LAST]
    rng.shuffle(cards)
    if above is not None:
        cards.insert(len(cards) - above, LAST)  # the supply lists the bottom first
    g.supply = cards
    return g
