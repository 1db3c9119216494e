"""Deal the hidden faces of a Rainbow position consistently with what one player knows.

A *world* is a full game (built with ``setup=``) that agrees with the player's view and
memory: its own fronts, the opponent's backs, the faces up on the table and in the piles,
the faces it remembers underneath, and the deck's public pairing of faces (a colour's
hidden partner is drawn among the cards not yet accounted for). Everything else -- its
own backs, the opponent's fronts, faces underneath it does not know, the deck -- is
dealt at random from the cards that remain.

Each world also says who knows each face underneath (:attr:`World.masks`: bit ``s`` set
when seat ``s`` knows it), so that rollouts let each player use only its own knowledge.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from colorclash.bots.rainbow.memory import Memory
from colorclash.engine.rainbow import Rainbow
from colorclash.engine.rainbow_deck import CARD_COUNTS, COLORS, canonical

_ORDER = {c: i for i, c in enumerate(COLORS)}


class World:
    """A game and who knows each face underneath; ``done`` once its round has ended."""

    __slots__ = ("done", "game", "masks")

    def __init__(self, game: Rainbow, masks: list[int], done: bool = False) -> None:
        self.game = game
        self.masks = masks
        self.done = done


def _slots(view: dict[str, Any], memory: Memory) -> tuple[list[list[Any]], int]:
    """The cards a player can place: ``[area, seat, known face at 0, known face at 1]``
    (None where unknown), and the number of cards left in the deck."""
    me = view["seat"]
    slots: list[list[Any]] = []
    for s in (0, 1):
        h = view["hands"][s]
        faces = h["faces"] or [None] * h["count"]
        for f in faces:
            slots.append(["hand", s, f, None] if s == me else ["hand", s, None, f])
    ups = [f for f in view["table"] if f is not None]
    downs = memory.downs if memory.ups == ups else [None] * len(ups)
    for u, d in zip(ups, downs, strict=True):
        slots.append(["table", None, u, d])
    gone = memory.gone
    if len(gone) == sum(p["count"] for p in view["piles"]):
        by_up = Counter(u for u, _ in gone)
        shown = Counter(f for p in view["piles"] for f in p["faces"])
        if by_up != shown:
            gone = []
    else:
        gone = []
    downs_of: dict[str, list[str | None]] = {}
    for u, d in gone:
        downs_of.setdefault(u, []).append(d)
    for s, p in enumerate(view["piles"]):
        for f in p["faces"]:
            known = downs_of.get(f)
            slots.append(["pile", s, f, known.pop() if known else None])
    return slots, view["deck_count"]


class Sampler:
    """Deals worlds for one decision (the constraints are worked out once)."""

    def __init__(self, view: dict[str, Any], memory: Memory) -> None:
        self.view = view
        self.memory = memory
        self.slots, self.deck_count = _slots(view, memory)

    def sample(self, rng: random.Random, tries: int = 12) -> World | None:
        """One world, or None when the constraints could not be met: the faces it
        remembers first, then without them, then without the piles' faces (which only
        count cards)."""
        for trust_memory, use_piles in ((True, True), (False, True), (False, False)):
            for _ in range(tries):
                dealt = _deal(self.slots, rng, trust_memory, use_piles)
                if dealt is not None:
                    return _build(self.view, self.memory, self.slots, dealt,
                                  self.deck_count, rng)
        return None


def sample_world(view: dict[str, Any], memory: Memory, rng: random.Random) -> World | None:
    """One world for the player of ``view`` (see :class:`Sampler`)."""
    return Sampler(view, memory).sample(rng)


def _deal(slots: list[list[Any]], rng: random.Random, trust_memory: bool,
          use_piles: bool) -> list[tuple[str, str]] | None:
    """A card for every slot, then the deck: slots whose two faces are known take their
    card; slots with one known face draw a partner among the cards left, the scarcest
    faces first and never a partner that another slot of that face will need."""
    pool = Counter(CARD_COUNTS)
    cards: list[tuple[str, str] | None] = [None] * len(slots)
    half: list[int] = []
    for n, (area, _, a, b) in enumerate(slots):
        if area == "pile" and not use_piles:
            continue
        if a is not None and b is not None and trust_memory:
            key = canonical(a, b)
            if pool[key] > 0:
                pool[key] -= 1
                cards[n] = (a, b)
                continue
        if a is not None or b is not None:
            half.append(n)
    face_of = {n: slots[n][2] if slots[n][2] is not None else slots[n][3] for n in half}
    demand = Counter(face_of.values())
    supply = Counter()
    for (a, b), k in pool.items():
        supply[a] += k
        supply[b] += k
    rng.shuffle(half)
    half.sort(key=lambda n: supply[face_of[n]] - demand[face_of[n]])
    for n in half:
        face = face_of[n]
        options = [(key, k) for key, k in pool.items() if k > 0 and face in key]
        weights = []
        for key, k in options:
            other = key[1] if key[0] == face else key[0]
            weights.append(k if supply[other] - demand[other] > 0 else 0)
        total = sum(weights)
        if total == 0:
            weights = [k for _, k in options]
            total = sum(weights)
            if total == 0:
                return None
        pick = rng.randrange(total)
        chosen = 0
        for chosen, w in enumerate(weights):  # noqa: B007 - the index is the choice
            pick -= w
            if pick < 0:
                break
        key = options[chosen][0]
        other = key[1] if key[0] == face else key[0]
        pool[key] -= 1
        supply[face] -= 1
        supply[other] -= 1
        demand[face] -= 1
        cards[n] = (face, other) if slots[n][2] is not None else (other, face)
    rest = [k for k, c in pool.items() for _ in range(c)]
    rest.sort(key=lambda k: (_ORDER[k[0]], _ORDER[k[1]]))
    rng.shuffle(rest)
    for n, c in enumerate(cards):
        if c is None:
            if not rest:
                return None
            k = rest.pop()
            cards[n] = k if rng.random() < 0.5 else (k[1], k[0])
    deck = [k if rng.random() < 0.5 else (k[1], k[0]) for k in rest]
    return cards + deck  # type: ignore[operator]


def _build(view: dict[str, Any], memory: Memory, slots: list[list[Any]],
           dealt: list[tuple[str, str]], deck_count: int, rng: random.Random) -> World:
    me = view["seat"]
    hands: list[list[list[str]]] = [[], []]
    table: list[list[str]] = []
    piles: list[list[list[str]]] = [[], []]
    for (area, seat, _, _), card in zip(slots, dealt, strict=False):
        if area == "hand":
            hands[seat].append(list(card))
        elif area == "table":
            table.append(list(card))
        else:
            piles[seat].append(list(card))
    deck = [list(c) for c in dealt[len(slots):]][:deck_count]
    state = view["turn_state"]
    game = Rainbow(seed=0, setup={
        "hands": hands, "table": table, "piles": piles, "deck": deck,
        "turn": view["turn"], "starter": view["starter"], "round": view["round"],
        "played": state["played"], "flip_pending": state["flip_pending"]})
    ups = [f for f in view["table"] if f is not None]
    known_here = memory.ups == ups
    masks = []
    for p in range(len(table)):
        mask = 0
        if known_here and memory.downs[p] is not None:
            mask |= 1 << me
        if known_here and memory.opp_knows[p]:
            mask |= 1 << (1 - me)
        masks.append(mask)
    return World(game, masks)
