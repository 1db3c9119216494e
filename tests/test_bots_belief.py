"""``hard``'s beliefs about the opponents' hands (bots/belief.py): they follow the public
events, stay the right size, and learn what a draw or a choice of play says."""

from __future__ import annotations

import random

import pytest

from colorclash.bots import make_bot
from colorclash.bots.belief import Belief
from colorclash.bots.hard import HardBot, Memory, world_from_view
from colorclash.engine import new_game
from colorclash.engine.cards import DECKS, FACES

SINGLE_FACED = ("standard", "family", "classic-table", "siege")


def full_deck_but(deck: str, *seen: str) -> list[str]:
    cards = list(DECKS[deck]())
    for face in seen:
        cards.remove(face)
    return cards


def weighted_share(belief: Belief, seat: int, test) -> float:
    hands, weights = belief.hands[seat], belief.weights[seat]
    return sum(w for h, w in zip(hands, weights, strict=True) if test(h)) / sum(weights)


@pytest.mark.parametrize("preset", SINGLE_FACED)
@pytest.mark.parametrize("seats", [2, 4])
def test_particles_follow_every_hand_size(preset, seats):
    """Through whole games the tracked hand sizes and every particle match the real hands
    after each batch of events (no drift that a later view would have to mend)."""
    checked = 0
    for game in range(6):  # whole games until enough positions were checked
        g = new_game("color-clash", preset=preset, seats=seats, seed=f"belief:{seats}:{game}")
        hard = HardBot(seed=1, budget_ms=None, rollouts=12, belief=1.0, particles=12)
        bots = [hard] + [make_bot("medium", seed=s) for s in range(1, seats)]
        for b in bots:
            b.observe(g.start_events)
        steps = 0
        while not g.over and steps < 2000:
            seat = g.to_act[0]
            events = g.apply(seat, bots[seat].act(g.view(seat)))
            steps += 1
            for b in bots:
                b.observe(events)
            memory = hard.memory
            if memory.counts is None:
                continue
            sizes = [len(h) for h in g.hands]
            assert memory.counts == sizes
            for s, hands in memory.belief.hands.items():
                assert {len(h) for h in hands} == {sizes[s]}, (s, events)
            checked += 1
        starts = hard.memory.belief.restarts
        assert starts <= (seats - 1) * max(g.round_no, 1)  # only at the start of a round
        if checked > 60:
            break
    assert checked > 60


def test_a_draw_says_nothing_playable_was_held():
    belief = Belief(0, random.Random(1), particles=300, temperature=1.0)
    unseen = full_deck_but("standard", "R5", "B1", "B2")
    belief.sync([2, 7], unseen, 2, True)

    def playable(hand):
        return any(f.startswith("R") or f[1:] == "5" or f.startswith("W") for f in hand)

    before = weighted_share(belief, 1, playable)
    belief.drew_instead(1, "R5", "R")
    belief.received(1, 1)
    assert before > 0.8
    assert weighted_share(belief, 1, lambda h: playable(h[:7])) == 0
    assert {len(h) for h in belief.hands[1]} == {8}


def test_a_wild_played_from_a_long_hand_says_no_colour_card_fitted():
    """The model (medium's scores) keeps its wilds while it holds more than three cards:
    a Wild played from seven cards on red means no red card and no 5 was held, and the
    colour it names is the one it holds most."""
    belief = Belief(0, random.Random(2), particles=400, temperature=1.0)
    unseen = full_deck_but("standard", "R5", "B1", "B2")
    belief.sync([2, 7], unseen, 2, True)
    belief.chose(1, "W", "G", "R5", "R", [2, 7], 1, [], False)
    assert {len(h) for h in belief.hands[1]} == {6}
    fits = weighted_share(belief, 1, lambda h: any(
        FACES[f].color == "R" or f[1:] == "5" for f in h))
    assert fits < 0.1

    def green_most(hand):
        counts = {c: sum(1 for f in hand if FACES[f].color == c) for c in "RBYG"}
        return counts["G"] == max(counts.values())

    assert weighted_share(belief, 1, green_most) > 0.8


@pytest.mark.parametrize("preset", SINGLE_FACED)
def test_worlds_dealt_from_beliefs_show_the_same_view(preset):
    """Worlds whose opponent hands come from particles are still exactly the view."""
    keys = ("hand", "counts", "top", "color", "turn", "stack", "draw_count",
            "discard_count", "shields", "legal", "phase")
    rng = random.Random(0)
    g = new_game("color-clash", preset=preset, seats=3, seed=11)
    play = random.Random(11)
    events = list(g.start_events)
    memory = Memory(0)
    memory.belief = Belief(0, random.Random(3), particles=20, temperature=1.0)
    worlds = 0
    for _ in range(120):
        if g.over:
            break
        seat = g.to_act[0]
        if seat == 0 and g.phase == "play":
            memory.observe(events)
            events = []
            view = g.view(0)
            memory.sync(view)
            world = world_from_view(view, memory, rng)
            assert world is not None
            wv = world.view(0)
            for key in keys:
                assert wv.get(key) == view.get(key), key
            assert sorted(world.all_cards()) == sorted(g.all_cards())
            worlds += 1
        events += g.apply(seat, play.choice(g.legal_actions(seat)))
    assert worlds >= 5


def test_a_drawn_card_kept_is_taken_for_a_wild():
    """The model keeps a drawn card it could play only when it is a plain Wild."""
    belief = Belief(0, random.Random(4), particles=50, temperature=1.0)
    belief.sync([2, 5], full_deck_but("standard", "R5", "B1", "B2"), 2, True)
    belief.drew_instead(1, "R5", "R")
    belief.received(1, 1)
    belief.kept(1, "R5", "R")
    assert all(h[-1] == "W" for h in belief.hands[1])
    assert {len(h) for h in belief.hands[1]} == {6}
