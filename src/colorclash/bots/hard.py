"""The ``hard`` computer player: determinized Monte Carlo search.

For each decision with a real choice ``hard``

1. builds *worlds*: engine positions consistent with everything it knows (its view and the
   public events it has observed). Unseen cards, the full deck minus its own hand, the
   top card, the discards it saw played and the standing Shields, are dealt to the
   opponents by their card counts: from its *beliefs* about their hands
   (:mod:`colorclash.bots.belief`, single-faced decks), else at random within what they
   showed they lack (in Day & Night, consistent with the inactive faces it can see); the
   rest go under the top discard and to the draw pile. Stack, fuse,
   shields, clock, direction and who is out are set from the view
   (:func:`world_from_view`);
2. in every world, plays each candidate action and then the rest of the round with the
   ``medium`` policy for every seat, all candidates sharing the same world and the same
   random stream (common random numbers make the comparison sharp);
3. plays the candidate with the best mean outcome (1 for winning the round; a rollout cut
   short scores the chance to win from where it stopped: in two-seat rounds a learned
   value, :mod:`colorclash.bots.value`, else a share by hand sizes; at the end of a round
   of a two-seat match scored by the winner, the chance to win the match, see below), falling
   back to its *prior* choice unless another candidate is clearly better. The prior is
   ``medium``'s move; ``prior=True`` uses :mod:`colorclash.bots.hard_prior` instead (off by
   default: over 1,000 games it did not make ``hard`` stronger, see docs/bots.md).

Tactics it gets for free from the rollouts and also checks directly: it does not send a
penalty into a standing Shield when it has something else (spec 6.1), it counts the Bomb
fuse (who will be hit when it blows), and it watches players down to one card.

In a two-seat match of several rounds scored by the round winner (``family``), winning the
round is not the whole story: the winner scores the points left in the loser's hand. Once
either hand is down to :data:`ENDGAME_CARDS` cards, the rollouts play on to the end of the
round (:data:`ENDGAME_DEPTH` actions) and score the match standing that results
(:func:`colorclash.bots.value.standing_chance`): shedding a Wild before the other player
goes out, or playing a +2 before going out, now counts by what it does to the match.
Earlier in the round the points a hand holds say little about the points it will hold
when the round ends (high cards get played), and a search that judged cut-short rollouts
by the match did worse: it shed Wilds too soon (docs/benchmarks.md).

Budget: ``budget_ms`` (default 50 ms of wall time, counted from the call of ``act``) and
``rollouts`` (default 400 rollouts in all, each at most ``depth`` actions: 4 where the
learned value scores the end, 8 where hand sizes do); whichever
runs out first ends the search. With ``budget_ms=None`` the search is bounded by the
rollout count only, and a seeded bot is fully reproducible.
"""

from __future__ import annotations

import gc
import math
import random
import time
from typing import Any

from colorclash.bots.base import (
    Action,
    Bot,
    Event,
    View,
    forced,
    most_held_color,
)
from colorclash.bots.belief import Belief
from colorclash.bots.hard_prior import own_adjustments, prior_choice, prior_plays
from colorclash.bots.medium import (
    medium_choice,
    next_seat,
    play_context,
    score_play,
    score_plays,
    wild_color,
)
from colorclash.bots.value import (
    WEIGHTS,
    logistic,
    match_chance,
    match_share,
    standing_chance,
    uses_match_value,
    win_chance,
)
from colorclash.engine import new_game
from colorclash.engine.cards import COLORS, DECKS, FACES

DEFAULT_BUDGET_MS = 50.0
DEFAULT_ROLLOUTS = 400
MAX_ROLLOUT_ACTIONS = 400
DEFAULT_DEPTH = 8  # actions per rollout scored by hand sizes
VALUE_DEPTH = 4  # actions per rollout scored by the learned value (it sees more, so less play)
ENDGAME_CARDS = 2  # in a match scored by the round winner: play for the match from here
ENDGAME_DEPTH = 30  # ... with rollouts to the end of the round
DEFAULT_BELIEF = 1.0  # temperature of the opponent model of the beliefs (0: no beliefs)
DEFAULT_PARTICLES = 400
PRUNE_AFTER = 8  # worlds before candidates far behind are dropped
PRUNE_GAP = 0.25


# ---------------------------------------------------------------------- card knowledge


class DeckIndex:
    """The cards of a deck and their faces on each side (single-faced: both sides alike)."""

    _cache: dict[str, DeckIndex] = {}

    def __init__(self, deck_name: str) -> None:
        self.cards = DECKS[deck_name]()
        self.double = deck_name == "day-night"
        if self.double:
            self.side_faces = [
                {c: c.split("//")[0] for c in set(self.cards)},
                {c: c.split("//")[1] for c in set(self.cards)},
            ]
        else:
            same = {c: c for c in set(self.cards)}
            self.side_faces = [same, same]
        self.counts: dict[str, int] = {}
        for c in self.cards:
            self.counts[c] = self.counts.get(c, 0) + 1

    @classmethod
    def get(cls, deck_name: str) -> DeckIndex:
        if deck_name not in cls._cache:
            cls._cache[deck_name] = DeckIndex(deck_name)
        return cls._cache[deck_name]


_ANSWERS = {
    # stacking mode -> stack kind -> faces that answer it (spec 6)
    "classic": {"+2": lambda f: f.rank == "+2"},
    "ranked": {"+2": lambda f: f.rank in ("+2", "W+4") or f.kind == "shield",
               "W+4": lambda f: f.rank == "W+4" or f.kind == "shield"},
    "same": {"+1": lambda f: f.rank == "+1", "+5": lambda f: f.rank == "+5"},
}
MAX_VOIDS = 4


class Memory:
    """Public facts a bot saw: the cards in the discard pile, the standing shields, and
    what opponents showed they did not hold.

    When an opponent draws instead of playing, or takes a stack instead of answering it,
    it (very likely) held no card that could be played: those faces are *forbidden* for
    the cards it held then. Each such fact is kept with the number of cards the seat has
    received since (``new``), which are not constrained; a card played from the forbidden
    set must have been one of those new cards.
    """

    def __init__(self, me: int | None = None) -> None:
        self.me = me
        self.side = 0
        self.pile: list[tuple[int, str]] = []  # (side when seen, face), bottom first
        self.shields: dict[int, str] = {}
        self.color: str | None = None
        self.stack_kind: str | None = None
        self.stacking: str | None = None
        self.voids: dict[int, list[list]] = {}  # seat -> [[forbidden faces, new], ...]
        # what the beliefs about the opponents' hands need (bots/belief.py)
        self.counts: list[int] | None = None  # hand sizes, from the last view and events
        self.direction = 1
        self.out: list[int] = []
        self.drew: int | None = None  # the seat whose drawn card may be played now
        self.belief: Belief | None = None

    def sync(self, view: View) -> None:
        """Take the hand sizes and the direction from a view (events keep them after)."""
        self.counts = list(view["counts"])
        self.direction = view.get("direction", 1)
        self.out = list(view.get("out") or [])
        belief = self.belief
        if belief is not None:
            options = view.get("options") or {}
            deck = DeckIndex.get(options.get("deck", "standard"))
            if deck.double:
                return
            remaining = dict(deck.counts)
            seen = list(view["hand"])
            seen.append(view["top"])
            under_n = max(view.get("discard_count", 1) - 1, 0)
            if under_n:
                seen.extend(f for _, f in self.pile[:-1][-under_n:])
            seen.extend(self.shields.values())
            for face in seen:
                if remaining.get(face, 0) > 0:
                    remaining[face] -= 1
            unseen = [f for f, c in remaining.items() for _ in range(c)]
            belief.me = self.me
            belief.sync(self.counts, unseen, view["seats"],
                        options.get("wild4_restricted", True))

    def _top(self) -> str | None:
        return self.pile[-1][1] if self.pile else None

    def _void(self, seat: int, forbidden: frozenset[str], new: int) -> None:
        if seat == self.me or not forbidden:
            return
        voids = self.voids.setdefault(seat, [])
        voids.append([forbidden, new])
        del voids[:-MAX_VOIDS]

    def _received(self, seat: int, count: int) -> None:
        for v in self.voids.get(seat, ()):
            v[1] += count
        if self.counts is not None and 0 <= seat < len(self.counts):
            self.counts[seat] += count
        if self.belief is not None and seat != self.me:
            self.belief.received(seat, count)

    def _played(self, seat: int, face: str) -> None:
        for v in self.voids.get(seat, ()):
            if face in v[0] and v[1] > 0:
                v[1] -= 1
        if self.counts is not None and 0 <= seat < len(self.counts):
            self.counts[seat] -= 1

    def _believe_play(self, seat: int, face: str, color: str | None) -> None:
        """Tell the beliefs that an opponent played ``face``: a choice they can learn from
        when it was one (from the whole hand, not a drawn card; on no stack)."""
        belief = self.belief
        if belief is None or seat == self.me:
            return
        top = self._top()
        if (self.counts is None or self.drew == seat or top is None
                or self.color is None or self.stack_kind is not None):
            belief.played(seat, face, drawn=self.drew == seat)
        else:
            belief.chose(seat, face, color, top, self.color, list(self.counts),
                         self.direction, self.out, seat in self.shields)

    def observe(self, events: list[Event]) -> None:
        for e in events:
            t = e.get("type")
            if t == "play":
                face = e["card"]
                self._believe_play(e["seat"], face, e.get("color"))
                self._played(e["seat"], face)
                self.drew = None
                self.pile.append((self.side, face))
                self.color = e.get("color") or FACES[face].color
            elif t == "color_chosen":
                self.color = e["color"]
            elif t == "draw":
                seat, count = e["seat"], e.get("count", 0)
                if e.get("reason") == "draw" and count:
                    self.drew = seat
                    top = self._top()
                    if (self.belief is not None and seat != self.me and top is not None
                            and self.color is not None):
                        self.belief.drew_instead(seat, top, self.color)
                    self._received(seat, count)
                    if top is not None and self.color is not None:
                        self._void(seat, _matching(self.color, top), count)
                else:
                    self._received(seat, count)
            elif t == "stacked":
                self.stack_kind = e.get("kind")
            elif t == "take":
                seat, count = e["seat"], e.get("count", 0)
                self._received(seat, count)
                rule = _ANSWERS.get(self.stacking or "", {}).get(self.stack_kind or "")
                if rule is not None:
                    self._void(seat, frozenset(f for f, x in FACES.items() if rule(x)), count)
                self.stack_kind = None
            elif t in ("boom", "hunt", "caught"):
                self._received(e["seat"], e.get("count", 0))
            elif t in ("blocked", "shield_block"):
                self.stack_kind = None
                if t == "blocked":
                    face = self.shields.pop(e["seat"], None)
                    if face is not None:
                        self.pile.insert(max(len(self.pile) - 1, 0), (0, face))
            elif t in ("keep", "pass"):
                if (t == "keep" and self.belief is not None and self.drew == e.get("seat")
                        and e.get("seat") != self.me and self.color is not None and self.pile):
                    self.belief.kept(e["seat"], self.pile[-1][1], self.color)
                self.drew = None
            elif t == "reverse":
                self.direction = e.get("direction", self.direction)
            elif t == "out":
                if e.get("seat") is not None and e["seat"] not in self.out:
                    self.out.append(e["seat"])
            elif t == "deal" and "top" in e:  # (the server's own deal event has no card)
                self.counts = None  # until the next view
                if self.belief is not None:
                    self.belief.clear()
                self.drew = None
                self.side = 0
                self.pile = [(0, e["top"])]
                self.color = FACES[e["top"]].color
                self.shields = {}
                self.voids = {}
                self.stack_kind = None
            elif t == "reshuffle":
                self.pile = self.pile[-1:]
            elif t == "flip":
                self.side = 1 if e.get("side") == "night" else 0
                top = e.get("top")
                if top in FACES and FACES[top].color:
                    self.color = FACES[top].color
                self.voids = {}  # every hand shows other faces now
                if self.belief is not None:
                    self.belief.clear()
            elif t == "shield_up":
                self.shields[e["seat"]] = e["card"]
                self._played(e["seat"], e["card"])
                self._left_hand(e["seat"], e["card"])
            elif t == "shield_wasted":
                self.pile.insert(max(len(self.pile) - 1, 0), (self.side, e["card"]))
                self._played(e["seat"], e["card"])
                self._left_hand(e["seat"], e["card"])

    def _left_hand(self, seat: int, face: str) -> None:
        self.drew = None
        if self.belief is not None and seat != self.me:
            self.belief.played(seat, face)

    def forbidden_slots(self, seat: int, count: int) -> list[frozenset[str]]:
        """For each card slot of ``seat`` (most constrained first), the faces it cannot be."""
        slots: list[frozenset[str]] = []
        voids = self.voids.get(seat)
        if not voids:
            return slots
        for j in range(count):
            sets = [v[0] for v in voids if count - v[1] > j]
            if not sets:
                break
            slots.append(frozenset().union(*sets))
        return slots


def _matching(color: str, top: str) -> frozenset[str]:
    """Faces that could be played on ``top`` in ``color`` (wilds included)."""
    rank = FACES[top].rank if top in FACES else None
    return frozenset(f for f, x in FACES.items()
                     if x.color is None or x.color == color or (rank and x.rank == rank))


def _sample_world(view: View, memory: Memory, rng: random.Random) -> dict[str, Any] | None:
    """A random deal of the unseen cards consistent with ``view`` and ``memory``.

    Certain facts are placed first (own hand, top card; in Day & Night the inactive faces
    of the opponents' cards and of the draw pile's top), then the likely ones (discards
    seen, standing shields, what opponents showed they lack), then the rest at random.
    Returns the pieces of an engine ``setup``, or None when no consistent deal was found.
    """
    options = view.get("options") or {}
    deck = DeckIndex.get(options.get("deck", "standard"))
    if not deck.double:
        return _sample_single(view, memory, rng, deck)
    for _ in range(6):
        sample = _try_sample(view, memory, rng)
        if sample is not None:
            return sample
    return None


def _sample_single(view: View, memory: Memory, rng: random.Random,
                   deck: DeckIndex) -> dict[str, Any] | None:
    """The fast path for single-faced decks, where a card is its face: count the unseen
    faces, shuffle them once, deal."""
    remaining = dict(deck.counts)

    def take(face: str | None) -> bool:
        if face is not None and remaining.get(face, 0) > 0:
            remaining[face] -= 1
            return True
        return False

    for face in view["hand"]:
        if not take(face):
            return None
    top = view["top"]
    if not take(top):
        return None
    n = view["seats"]
    me = view["seat"]
    counts = view["counts"]
    shield_cards: list[str | None] = [None] * n
    for s in view.get("shields") or []:
        face = memory.shields.get(s)
        if not take(face):
            face = next((c + "-shield" for c in COLORS if take(c + "-shield")), None)
        shield_cards[s] = face
    under_n = max(view.get("discard_count", 1) - 1, 0)
    under = [f for _, f in (memory.pile[:-1][-under_n:] if under_n else []) if take(f)]
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[me] = list(view["hand"])
    believed: set[int] = set()
    belief = memory.belief
    if belief is not None:
        for s in range(n):
            particle = belief.pick(s, rng) if s != me else None
            if particle is not None and len(particle) == counts[s]:
                believed.add(s)
                hands[s] = [f for f in particle if take(f)]  # a card seen since: redealt
    pool = [f for f, c in remaining.items() for _ in range(c)]
    rand = rng.random
    pool.sort(key=lambda _: rand())
    for s in range(n):
        if s == me:
            continue
        hand = hands[s]
        for forbidden in () if s in believed else memory.forbidden_slots(s, counts[s]):
            # the last card of the pool that the slot allows (the pool is shuffled)
            for i in range(len(pool) - 1, -1, -1):
                if pool[i] not in forbidden:
                    pool[i], pool[-1] = pool[-1], pool[i]
                    break
            if not pool:
                return None
            hand.append(pool.pop())
        while len(hand) < counts[s]:
            if not pool:
                return None
            hand.append(pool.pop())
    while len(under) < under_n and pool:
        under.append(pool.pop())
    want = view.get("draw_count", 0)
    draw = pool[-want:] if want else []
    return {"hands": hands, "top": top, "draw": draw, "discard": under,
            "shield_cards": shield_cards, "side": 0}


def _try_sample(view: View, memory: Memory, rng: random.Random) -> dict[str, Any] | None:
    options = view.get("options") or {}
    deck = DeckIndex.get(options.get("deck", "standard"))
    side = 1 if view.get("side") == "night" else 0
    other = 1 - side
    faces_now = deck.side_faces[side]
    faces_other = deck.side_faces[other]
    pool = list(deck.cards)
    rand = rng.random
    pool.sort(key=lambda _: rand())  # a uniform shuffle, faster than rng.shuffle here
    # bucket the pool by (side, face) so a constrained slot finds its card quickly
    buckets: dict[tuple[int, str], list[int]] = {}
    for i, c in enumerate(pool):
        buckets.setdefault((side, faces_now[c]), []).append(i)
        if deck.double:
            buckets.setdefault((other, faces_other[c]), []).append(i)
    taken = [False] * len(pool)
    cursor = [0]

    def take(key: tuple[int, str] | None) -> str | None:
        if key is not None:
            for i in buckets.get(key, ()):
                if not taken[i]:
                    taken[i] = True
                    return pool[i]
        return None

    def take_any() -> str | None:
        while cursor[0] < len(pool):
            i = cursor[0]
            cursor[0] += 1
            if not taken[i]:
                taken[i] = True
                return pool[i]
        return None

    def take_not(forbidden: frozenset[str]) -> str | None:
        for i in range(cursor[0], len(pool)):
            if not taken[i] and faces_now[pool[i]] not in forbidden:
                taken[i] = True
                return pool[i]
        return None  # nothing fits: the slot is filled at random below

    n = view["seats"]
    me = view["seat"]
    counts = view["counts"]
    hands: list[list[Any]] = [[None] * counts[s] for s in range(n)]
    # 1. certain facts. Day & Night: the faces we see on the other side of cards.
    first_draw = None
    if deck.double:
        faces_seen = view.get("faces") or {}
        for s in range(n):
            seen = faces_seen.get(str(s)) if s != me else None
            if seen and len(seen) == counts[s]:
                for j, f in enumerate(seen):
                    card = take((other, f))
                    if card is None:
                        return None
                    hands[s][j] = card
        draw_top = view.get("draw_top")
        if draw_top and view.get("draw_count"):
            first_draw = take((other, draw_top))
            if first_draw is None:
                return None
    for j, face in enumerate(view["hand"]):
        card = take((side, face))
        if card is None:
            return None
        hands[me][j] = card
    top = take((side, view["top"]))
    if top is None:
        return None
    # 2. likely facts: standing shields, discards seen, what opponents lack
    shield_cards: list[str | None] = [None] * n
    for s in view.get("shields") or []:
        face = memory.shields.get(s)
        card = take((0, face)) if face else None
        for c in COLORS:
            if card is None:
                card = take((0, c + "-shield"))
        shield_cards[s] = card
    under_n = max(view.get("discard_count", 1) - 1, 0)
    known_under = memory.pile[:-1][-under_n:] if under_n else []
    under: list[str] = []
    for key in known_under:
        card = take(key)
        if card is not None:
            under.append(card)
    if not deck.double:
        for s in range(n):
            if s == me:
                continue
            for j, forbidden in enumerate(memory.forbidden_slots(s, counts[s])):
                hands[s][j] = take_not(forbidden)
    # 3. the rest at random
    for s in range(n):
        hand = hands[s]
        for j in range(len(hand)):
            if hand[j] is None:
                card = take_any()
                if card is None:
                    return None
                hand[j] = card
    while len(under) < under_n:
        card = take_any()
        if card is None:
            break
        under.append(card)
    draw: list[str] = [first_draw] if first_draw else []
    want = view.get("draw_count", 0)
    while len(draw) < want:
        card = take_any()
        if card is None:
            break
        draw.append(card)
    return {
        "hands": hands,
        "top": top,
        "draw": draw,
        "discard": under,
        "shield_cards": shield_cards,
        "side": side,
    }


def world_from_view(view: View, memory: Memory, rng: random.Random) -> Any | None:
    """An engine game in a position consistent with ``view`` (hidden cards sampled).

    The engine's ``setup`` gives hands, piles, colour and direction; the public state
    that setup does not cover (stack, fuse, shields, Midnight Clock, who is out, scores,
    calls, the drawn card) is set on the game object from the view.
    """
    sample = _sample_world(view, memory, rng)
    if sample is None:
        return None
    n = view["seats"]
    setup = {
        "hands": sample["hands"],
        "top": sample["top"],
        "draw": sample["draw"],
        "discard": sample["discard"],
        "first": view["turn"] if view.get("turn") is not None else view["seat"],
        "direction": view.get("direction", 1),
        "color": view.get("color"),
        "side": "night" if sample["side"] else "day",
    }
    try:
        g = new_game("color-clash", preset=view["preset"], seats=n, seed=0, setup=setup,
                     options={"first_card": "number"})
    except ValueError:
        return None
    g.rng = random.Random(rng.getrandbits(64))  # fast shuffles inside rollouts
    deck = DeckIndex.get(g.options.deck)
    if deck.double:  # face tables of the whole deck (standing shields are not in setup)
        g._sides = tuple(deck.side_faces)
        g._faces, g._faces_other = g._sides[g.side], g._sides[1 - g.side]
    else:
        g._faces = deck.side_faces[0]
    g.turn = setup["first"]
    g.stack = view.get("stack", 0)
    g.stack_kind = view.get("stack_kind")
    fuse = view.get("fuse")
    if fuse:
        g.fuse = fuse["count"]
        g.blast = fuse["blast"]
    g.shield_cards = list(sample["shield_cards"])
    if view.get("clock") is not None:
        g.clock = view["clock"]
    g.out = list(view.get("out") or [])
    g.scores = list(view.get("scores") or [0] * n)
    g.round_no = view.get("round", 1)
    g.substitutes = set(view.get("substitutes") or [])
    for s in view.get("called") or []:
        g.called[s] = True
    phase = view.get("phase")
    if phase == "drawn":
        g.phase = "drawn"
        g.drawn_card = view.get("drawn")
    return g


# ---------------------------------------------------------------------- rollouts




def fast_policy(g: Any, seat: int) -> Action | None:
    """The ``medium`` policy on the engine's state (no view built): used in rollouts."""
    phase = g.phase
    faces = g._faces
    hand = [faces[c] for c in g.hands[seat]]
    if phase == "color":
        return {"type": "color", "color": most_held_color(hand)}
    if phase == "call_window":
        return {"type": "call"} if seat == g.window_seat else None
    if phase == "drawn":
        card = g.drawn_card
        face = FACES[card]
        if face.color is None:
            if face.kind == "wild" and len(hand) > 3:  # medium keeps a drawn plain wild
                n = g.n
                if min(len(g.hands[s]) for s in range(n) if s != seat and s not in g.out) > 2:
                    return {"type": "keep"}
            return {"type": "play", "card": card, "color": wild_color(hand, card)}
        return {"type": "play", "card": card}
    if g.options.call == "manual" and len(hand) == 2 and not g.called[seat]:
        return {"type": "call"}
    playable = g._playable_faces(seat)
    if not playable:
        return _no_play(g)
    if len(playable) == 1 and len(hand) > 1:
        best = playable[0]
    else:
        ctx = play_context(
            hand, [len(h) for h in g.hands], seat, g.n, g.direction, g.out, g.stack,
            g.shield_cards[seat] is not None,
        )
        best = max(playable, key=lambda f: score_play(f, None, ctx))
    if FACES[best].color is None:
        return {"type": "play", "card": best, "color": wild_color(hand, best)}
    return {"type": "play", "card": best}


def _no_play(g: Any) -> Action:
    """Nothing can be played: take the waiting stack, else draw, else pass."""
    if g.stack:
        return {"type": "take"}
    if g._can_draw():
        return {"type": "draw"}
    return {"type": "pass"}


_FACE_COLOR = {name: face.color for name, face in FACES.items()}


def fast_policy_lean(g: Any, seat: int, wild_extra: float = 0.0,
                     number_extra: float = 0.0) -> Action | None:
    """:func:`fast_policy` with fewer allocations (same choices; the rollouts' hot loop).

    The hand's faces are only looked up when a choice needs them, and the play context
    is built only when there are two or more plays to compare."""
    phase = g.phase
    if phase == "play":
        if g.options.call == "manual" and len(g.hands[seat]) == 2 and not g.called[seat]:
            return {"type": "call"}
        playable = g._playable_faces(seat)
        if not playable:
            return _no_play(g)
        cards = g.hands[seat]
        if len(playable) == 1 and len(cards) > 1:
            best = playable[0]
            if _FACE_COLOR[best] is not None:
                return {"type": "play", "card": best}
            faces = g._faces
            return {"type": "play", "card": best,
                    "color": wild_color([faces[c] for c in cards], best)}
        faces = g._faces
        hand = [faces[c] for c in cards]
        ctx = play_context(
            hand, [len(h) for h in g.hands], seat, g.n, g.direction, g.out, g.stack,
            g.shield_cards[seat] is not None,
        )
        extras = wild_extra or number_extra  # hard's prior (bots/hard_prior.py), own seat
        best, top = playable[0], -1e18
        for f in playable:  # the first of the best scores, as max() would pick
            sc = score_play(f, None, ctx)
            if extras:
                x = FACES[f]
                if x.color is None:
                    sc += wild_extra
                elif x.kind == "number":
                    sc += number_extra * x.points
            if sc > top:
                best, top = f, sc
        if _FACE_COLOR[best] is None:
            return {"type": "play", "card": best, "color": wild_color(hand, best)}
        return {"type": "play", "card": best}
    return fast_policy(g, seat)


def rollout(g: Any, me: int, limit: int = MAX_ROLLOUT_ACTIONS, beta: float = 0.6,
            match_scale: float = 0.0, wild_bonus: float = 0.0,
            turn_bonus: float = 0.0, own: tuple[float, float] = (0.0, 0.0),
            weights: tuple[float, ...] | None = None, match: bool = False) -> float:
    """Play on with :func:`fast_policy` for at most ``limit`` actions, to the round's end.

    Returns 1.0 if ``me`` wins the round, 0.0 if another seat does (or nobody: a dead
    round); a rollout cut short by ``limit`` is scored by the learned value when
    ``weights`` are given (:func:`colorclash.bots.value.win_chance`), else by hand sizes,
    the share of ``exp(-beta * cards)`` that ``me`` holds among the seats still in the
    round.

    With ``match`` (a two-seat match of several rounds scored by the round winner, and
    ``weights``) the result is the chance to win the match instead: a finished round by
    the standing (:func:`colorclash.bots.value.standing_chance`), a cut one by the learned
    round chance turned into a match chance (:func:`colorclash.bots.value.match_chance`).
    """
    steps = 0
    while steps < limit:
        phase = g.phase
        if phase == "round_over" or phase == "game_over":
            break
        seat = g.window_seat if phase == "call_window" else g.turn
        action = fast_policy_lean(g, seat, *own) if seat == me else fast_policy_lean(g, seat)
        if action is None:  # pragma: no cover - defensive
            break
        g.apply(seat, action)
        steps += 1
    out = g.out
    if match:
        if out or g.phase == "round_over" or g.phase == "game_over":
            return standing_chance(g, me)
        return match_chance(g, me, win_chance(g, me, weights))
    multi = match_scale and g.options.rounds != 1
    if out:
        if multi:
            return _match_value(g, me, match_scale)
        return 1.0 if out[0] == me else 0.0
    if g.phase == "round_over" or g.phase == "game_over":
        return _match_value(g, me, match_scale) if multi else 0.0  # a dead round
    if weights is not None:
        share = win_chance(g, me, weights)
        return _cut_match_value(g, me, share, match_scale) if multi else share
    if wild_bonus or turn_bonus:
        faces = g._faces
        eff = [len(h) - wild_bonus * sum(1 for c in h if _FACE_COLOR[faces[c]] is None)
               for h in g.hands]
        if g.phase != "call_window":
            eff[g.turn] -= turn_bonus
        weights = [math.exp(-beta * e) for e in eff]
        for s in g.out:
            weights[s] = 0.0
    else:
        weights = [math.exp(-beta * len(h)) for h in g.hands]
    share = weights[me] / sum(weights)
    if multi:
        return _cut_match_value(g, me, share, match_scale)
    return share


def _standing(g: Any, me: int, extra: list[int] | None = None) -> float:
    """My score minus the best other score (after adding ``extra`` points)."""
    scores = g.scores if extra is None else [a + b for a, b in zip(g.scores, extra, strict=True)]
    return scores[me] - max(scores[s] for s in range(g.n) if s != me)


def _standing_value(diff: float, rounds_left: int, scale: float) -> float:
    """Chance to win the match from a score difference with ``rounds_left`` rounds to go
    (exact when none is left; a logistic guess otherwise)."""
    if rounds_left <= 0:
        return 1.0 if diff > 0 else (0.5 if diff == 0 else 0.0)
    return logistic(diff / (scale * math.sqrt(rounds_left)))


def _rounds_left(g: Any) -> int:
    o = g.options
    if o.rounds == 0:  # first to a target: count the target as a few rounds
        return 0 if max(g.scores) >= o.target else 2
    return max(o.rounds - g.round_no, 0)


def _match_value(g: Any, me: int, scale: float) -> float:
    """Value of a finished round in a match of several rounds: the match standing."""
    if g.phase == "game_over":
        return match_share(g, me)
    return _standing_value(_standing(g, me), _rounds_left(g), scale)


def _cut_match_value(g: Any, me: int, share: float, scale: float) -> float:
    """A cut-short rollout in a match of several rounds: ``share`` is my chance to win the
    round; the points each outcome would bring are counted with the hands as they are."""
    n = g.n
    left = _rounds_left(g)
    if n != 2 or g.options.scoring == "table":
        return share
    opp = 1 - me
    gain = [0, 0]
    gain[me] = g._hand_points(opp)
    win = _standing_value(_standing(g, me, gain), left, scale)
    gain = [0, 0]
    gain[opp] = g._hand_points(me)
    lose = _standing_value(_standing(g, me, gain), left, scale)
    return share * win + (1.0 - share) * lose


# ---------------------------------------------------------------------- the bot


def _candidates(view: View, legal: list[Action]) -> list[Action]:
    """The actions worth searching: each play once per sensible wild colour."""
    hand = view.get("hand") or []
    out: list[Action] = []
    seen: set[tuple] = set()
    for a in legal:
        t = a["type"]
        if t in ("call", "catch", "next"):
            continue
        if t == "play" and "color" in a:
            rest = list(hand)
            if a["card"] in rest:
                rest.remove(a["card"])
            held = {FACES[f].color for f in rest if FACES[f].color}
            best = most_held_color(hand, exclude_card=a["card"])
            if a["color"] != best and a["color"] not in held:
                continue
        if t == "draw" and any(b["type"] == "play" for b in legal):
            continue  # drawing while holding a playable card is almost never better
        key = (t, a.get("card"), a.get("color"))
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


class HardBot(Bot):
    """Determinized Monte Carlo search (see the module docstring)."""

    level = "hard"
    catch_patience = 0.3  # of the last-card window (base.Bot.patience)
    thinks = True

    def __init__(self, *, game: str = "color-clash", seed: int | str | None = None,
                 budget_ms: float | None = DEFAULT_BUDGET_MS,
                 rollouts: int = DEFAULT_ROLLOUTS, margin: float = 0.01, z: float = 1.28,
                 depth: int | None = None, beta: float = 0.6,
                 match_scale: float = 0.0, wild_bonus: float = 0.0,
                 turn_bonus: float = 0.0, prior: bool = False,
                 rollout_prior: bool = False, belief: float = DEFAULT_BELIEF,
                 particles: int = DEFAULT_PARTICLES, value: bool = True,
                 match_value: bool = True) -> None:
        super().__init__(game=game, seed=seed)
        self.budget_ms = budget_ms
        self.rollouts = rollouts
        self.margin = margin
        self.z = z
        self.depth = depth
        self.beta = beta
        self.match_scale = match_scale
        self.wild_bonus = wild_bonus
        self.turn_bonus = turn_bonus
        self.prior = prior
        self.rollout_prior = rollout_prior
        self.value = value
        self.match_value = match_value
        self._started: float | None = None
        self.memory = Memory()
        if belief:
            self.memory.belief = Belief(-1, random.Random(self.rng.getrandbits(64)),
                                        particles, belief)
        self.last_search: dict[str, Any] = {}

    def observe(self, events: list[Event] | None) -> None:
        if events:
            self.memory.observe(events)

    def act(self, view: View, events: list[Event] | None = None) -> Action:
        # the budget counts from here: taking in the events (the beliefs) is part of it
        self._started = time.perf_counter()
        try:
            return super().act(view, events)
        finally:
            self._started = None

    def choose(self, view: View, legal: list[Action]) -> Action:
        sure = forced(view, legal)
        if sure is not None:
            return sure
        memory = self.memory
        memory.me = view.get("seat")
        memory.sync(view)
        memory.stacking = (view.get("options") or {}).get("stacking")
        if view.get("side") is not None:
            memory.side = 1 if view["side"] == "night" else 0
        fallback = medium_choice(view, legal)
        if view.get("phase") not in ("play", "drawn"):
            return fallback
        if self.prior:
            fallback = prior_choice(view, legal, fallback, memory)
        candidates = _candidates(view, legal)
        if fallback not in candidates:
            candidates.append(fallback)
        candidates = self._prune(view, candidates, fallback)
        if not candidates:
            return fallback
        if fallback not in candidates:  # pruned: the best of the rest by the prior's scores
            plays = prior_plays(view, legal, memory) if self.prior \
                else score_plays(view, legal)
            scores = {_key(a): sc for sc, a in plays}
            fallback = max(candidates, key=lambda a: scores.get(_key(a), -1e9))
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, candidates, fallback)

    def _prune(self, view: View, candidates: list[Action], fallback: Action) -> list[Action]:
        """Direct tactics before any search: never fire a penalty into a standing Shield
        when anything else can be played (spec 6.1: the hard bot checks for shields)."""
        shields = view.get("shields") or []
        if not shields or view.get("stack"):
            return candidates
        nxt = next_seat(view["seat"], view["seats"], view.get("direction", 1),
                        view.get("out") or [])
        if nxt not in shields:
            return candidates
        kept = [a for a in candidates
                if not (a["type"] == "play" and FACES[a["card"]].kind == "draw")]
        plays = [a for a in kept if a["type"] == "play"]
        return kept if plays or len(view.get("hand") or []) > 1 else candidates

    def _search(self, view: View, candidates: list[Action], fallback: Action) -> Action:
        gc_was_on = gc.isenabled()
        gc.disable()  # a collection in the middle of a search costs more than the search
        try:
            return self._search_worlds(view, candidates, fallback)
        finally:
            if gc_was_on:
                gc.enable()

    def _search_worlds(self, view: View, candidates: list[Action], fallback: Action) -> Action:
        me = view["seat"]
        rng = self.rng
        start = self._started or time.perf_counter()
        own = own_adjustments(view) if self.prior and self.rollout_prior else (0.0, 0.0)
        deadline = None if self.budget_ms is None else start + self.budget_ms / 1000.0
        weights = WEIGHTS.get(view.get("preset", "")) \
            if self.value and view["seats"] == 2 else None
        depth = self.depth if self.depth is not None \
            else (DEFAULT_DEPTH if weights is None else VALUE_DEPTH)
        options = view.get("options") or {}
        match = bool(self.match_value and weights is not None and not self.match_scale
                     and uses_match_value(options, view["seats"])
                     and min(view["counts"]) <= ENDGAME_CARDS)
        if match and self.depth is None:
            depth = ENDGAME_DEPTH
        k = len(candidates)
        fb = candidates.index(fallback)
        totals = [0.0] * k
        counts = [0] * k
        history: list[list[float]] = [[] for _ in range(k)]
        active = list(range(k))
        runs = 0
        worlds = 0
        while runs + len(active) <= self.rollouts:
            if deadline is not None and time.perf_counter() > deadline:
                break
            world_seed = rng.getrandbits(64)
            base = self._world(view, random.Random(world_seed))
            if base is None:
                return fallback
            roll_seed = rng.getrandbits(64)
            values = []
            last = len(active) - 1
            for j, i in enumerate(active):
                if deadline is not None and j and time.perf_counter() > deadline:
                    break  # an unfinished world would unbalance the comparison
                g = base if j == last else _clone(base)
                g.rng = random.Random(roll_seed)
                try:
                    g.apply(me, candidates[i])
                except ValueError:
                    return fallback
                values.append(rollout(g, me, depth, self.beta, self.match_scale,
                                      self.wild_bonus, self.turn_bonus, own, weights,
                                      match))
            if len(values) < len(active):
                break
            worlds += 1
            runs += len(active)
            for i, value in zip(active, values, strict=True):
                totals[i] += value
                counts[i] += 1
                history[i].append(value)
            if worlds >= PRUNE_AFTER and len(active) > 2:
                # stop spending rollouts on candidates that are clearly behind
                best_mean = max(totals[i] / counts[i] for i in active)
                active = [i for i in active
                          if i == fb or totals[i] / counts[i] >= best_mean - PRUNE_GAP]
        if worlds == 0:
            return fallback
        means = [totals[i] / counts[i] if counts[i] else -1.0 for i in range(k)]
        best = max(active, key=lambda i: means[i])
        choice = candidates[best] if self._clearly_better(history[best], history[fb]) \
            else fallback
        self.last_search = {"worlds": worlds, "rollouts": runs,
                            "ms": (time.perf_counter() - start) * 1000.0,
                            "means": dict(zip([_key(a) for a in candidates], means,
                                              strict=True))}
        return choice


    def _world(self, view: View, rng: random.Random) -> Any | None:
        """One world for the search (benchmarks/bots_ceiling.py overrides it to measure
        what seeing hidden cards would be worth; the bot itself never sees them)."""
        return world_from_view(view, self.memory, rng)

    def _clearly_better(self, best: list[float], base: list[float]) -> bool:
        """Is ``best`` better than ``base`` beyond noise? Paired over the same worlds: the
        mean difference must exceed ``margin`` and ``z`` standard errors."""
        diffs = [b - a for a, b in zip(base, best, strict=False)]
        w = len(diffs)
        if w < 2:
            return False
        mean = sum(diffs) / w
        if mean <= self.margin:
            return False
        var = sum((d - mean) ** 2 for d in diffs) / (w - 1)
        return mean > self.z * math.sqrt(var / w)


def _key(a: Action) -> str:
    return ":".join(str(a[k]) for k in ("type", "card", "color") if k in a)


def _clone(g: Any) -> Any:
    """A copy of a game deep enough for a rollout (the engine's own copy)."""
    return g.copy()


__all__ = ["HardBot", "Memory", "world_from_view", "rollout", "fast_policy",
           "fast_policy_lean"]
