"""What ``hard`` believes the opponents hold: a particle filter over their hands.

Each opponent seat has a set of *particles*, hands it might hold now, all of the right
size. Public events move them:

- the seat receives cards (draws, takes a stack, a Bomb goes off): every particle gets that
  many cards at random from the cards ``hard`` has not seen;
- the seat draws instead of playing: a player draws when nothing fits, so every card of a
  particle that would have fitted is replaced by one that would not;
- the seat plays a card by choice: a particle without that card gets it in place of one of
  its cards at random (the card was certainly held), then each particle is weighed by how
  likely an opponent model (``medium``'s play scores, softened by a *temperature* in score
  points) would choose that play from it; the card leaves every particle;
- a drawn card played at once leaves as the card just drawn; one kept although it could
  be played becomes a plain Wild (what the model keeps);

When the weights concentrate on few particles (effective count under half) the set is
resampled. ``hard`` deals each world's opponent hands from a particle and the rest of the
unseen cards at random (a particle's card that ``hard`` has since seen is replaced).

The model is a guess about opponents, not knowledge: with a mild temperature a player who
plays unlike ``medium`` only makes the particles less sharp. Single-faced decks only (Day &
Night turns every hand at a Flip, and ``hard`` sees half of each card there anyway).
"""

from __future__ import annotations

import math
import random

from colorclash.bots.medium import play_context, score_play, wild_color
from colorclash.engine.cards import FACES
from colorclash.engine.color_clash import playable_faces

UNLIKELY = 0.02  # the model's chance of a play it could not have made (a slip, a house rule)

_FACE_COLOR = {name: face.color for name, face in FACES.items()}


def choice_likelihood(hand: list[str], card: str, color: str | None, top: str, active: str,
                      counts: list[int], seat: int, n: int, direction: int,
                      out: list[int], shield: bool, restricted: bool,
                      temperature: float) -> float:
    """The chance the opponent model plays ``card`` (naming ``color``) from ``hand``."""
    playable = playable_faces(hand, top, active, wild4_restricted=restricted)
    if card not in playable:
        return UNLIKELY
    if len(playable) == 1 and color is None:
        return 1.0
    ctx = play_context(hand, counts, seat, n, direction, out, 0, shield)
    best = max(score_play(f, wild_color(hand, f) if _FACE_COLOR[f] is None else None, ctx)
               for f in playable)
    mine = score_play(card, color, ctx)
    return 1.0 if mine >= best else math.exp((mine - best) / temperature)


class Belief:
    """Particles of every opponent's hand (see the module docstring)."""

    def __init__(self, me: int, rng: random.Random, particles: int = 400,
                 temperature: float = 1.0) -> None:
        self.me = me
        self.rng = rng
        self.size = particles
        self.temperature = temperature
        self.hands: dict[int, list[list[str]]] = {}
        self.weights: dict[int, list[float]] = {}
        self.unseen: list[str] = []
        self.restricted = True
        self.n = 0
        self.restarts = 0  # particle sets (re)started by ``sync`` (tests watch for drift)

    # ------------------------------------------------------------------ upkeep

    def sync(self, counts: list[int], unseen: list[str], n: int, restricted: bool) -> None:
        """Refresh what a view tells: hand sizes and the cards not seen; (re)start the
        particles of a seat whose size does not match (a missed event, a new round)."""
        self.unseen = unseen
        self.n = n
        self.restricted = restricted
        for seat in range(n):
            if seat == self.me:
                continue
            hands = self.hands.get(seat)
            if hands is None or (hands and len(hands[0]) != counts[seat]):
                self._start(seat, counts[seat])

    def clear(self) -> None:
        self.hands = {}
        self.weights = {}

    def _start(self, seat: int, count: int) -> None:
        pool = self.unseen
        if len(pool) < count:
            self.hands.pop(seat, None)
            return
        self.restarts += 1
        sample = self.rng.sample
        self.hands[seat] = [sample(pool, count) for _ in range(self.size)]
        self.weights[seat] = [1.0] * self.size

    def _random_cards(self, count: int) -> list[str]:
        pool = self.unseen
        if not pool:
            return []
        choice = self.rng.choice
        return [choice(pool) for _ in range(count)]

    # ------------------------------------------------------------------ events

    def received(self, seat: int, count: int) -> None:
        for hand in self.hands.get(seat, ()):
            hand.extend(self._random_cards(count))

    def drew_instead(self, seat: int, top: str, active: str) -> None:
        """``seat`` drew on its turn: it (very likely) held nothing playable. Each card of
        a particle that would have been playable is replaced by one that would not."""
        hands = self.hands.get(seat)
        if not hands:
            return
        unseen = self.unseen
        fits = {f for f in set(unseen) if playable_faces([f], top, active,
                                                         wild4_restricted=False)}
        allowed = [f for f in unseen if f not in fits]
        if not allowed:
            return
        choice = self.rng.choice
        for hand in hands:
            for i, face in enumerate(hand):
                if face in fits:
                    hand[i] = choice(allowed)

    def kept(self, seat: int, top: str, active: str) -> None:
        """``seat`` kept the card it just drew although it could play it: the model keeps
        only a plain Wild (``medium`` saves one while its hand is long), so the card just
        drawn becomes a Wild in every particle, or a card that fits when no Wild is left."""
        hands = self.hands.get(seat)
        if not hands:
            return
        unseen = self.unseen
        if "W" in unseen:
            options = ["W"]
        else:
            options = [f for f in unseen
                       if playable_faces([f], top, active, wild4_restricted=False)]
        if not options:
            return
        choice = self.rng.choice
        for hand in hands:
            if hand:
                hand[-1] = choice(options)

    def played(self, seat: int, card: str, drawn: bool = False) -> None:
        """``card`` left ``seat``'s hand with no choice to learn from (``drawn``: the card
        it just drew)."""
        for hand in self.hands.get(seat, ()):
            if drawn and hand:
                hand.pop()
            else:
                self._remove(hand, card)

    def chose(self, seat: int, card: str, color: str | None, top: str, active: str,
              counts: list[int], direction: int, out: list[int], shield: bool) -> None:
        """``seat`` played ``card`` by choice from its whole hand."""
        hands = self.hands.get(seat)
        if not hands:
            return
        weights = self.weights[seat]
        rng = self.rng
        for i, hand in enumerate(hands):
            if card not in hand and hand:
                hand[rng.randrange(len(hand))] = card
            weights[i] *= choice_likelihood(
                hand, card, color, top, active, counts, seat, self.n, direction, out,
                shield, self.restricted, self.temperature)
            self._remove(hand, card)
        self._maybe_resample(seat)

    @staticmethod
    def _remove(hand: list[str], card: str) -> None:
        try:
            hand.remove(card)
        except ValueError:
            if hand:
                hand.pop()

    def _maybe_resample(self, seat: int) -> None:
        weights = self.weights[seat]
        total = sum(weights)
        if total <= 0.0:
            self.weights[seat] = [1.0] * len(weights)
            return
        ess = total * total / sum(w * w for w in weights)
        if ess >= len(weights) / 2:
            return
        picks = self.rng.choices(range(len(weights)), weights=weights, k=len(weights))
        hands = self.hands[seat]
        self.hands[seat] = [list(hands[i]) for i in picks]
        self.weights[seat] = [1.0] * len(weights)

    # ------------------------------------------------------------------ worlds

    def pick(self, seat: int, rng: random.Random) -> list[str] | None:
        """A hand for ``seat`` drawn from its particles by weight (None: no belief)."""
        hands = self.hands.get(seat)
        if not hands:
            return None
        return rng.choices(hands, weights=self.weights[seat], k=1)[0]


__all__ = ["Belief", "choice_likelihood"]
