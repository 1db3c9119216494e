"""Property tests over random games of every preset and 2-6 seats (issue 2).

Hypothesis draws a preset, a table size, a seed and a stream of choices; the game is
played by those choices. Invariants checked at every step:

- the total number of cards never changes (hands + piles + standing shields);
- ``view(seat)`` never contains another seat's card;
- an illegal action raises ``IllegalAction`` and changes nothing;
- replay of (seed, actions) is identical;
- every game ends when players play a card whenever they can.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from colorclash.engine import IllegalAction, new_game, replay
from colorclash.engine.cards import FACES
from colorclash.engine.color_clash import playable_faces
from hypothesis_scale import examples

PRESETS = ["standard", "family", "classic-table", "siege", "day-night"]

games = st.tuples(
    st.sampled_from(PRESETS), st.integers(min_value=2, max_value=6), st.integers(0, 2**32)
)

PROPS = settings(max_examples=examples(40), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


def snapshot(g):
    """Everything that defines the state, for 'changes nothing' checks."""
    return json.dumps(
        {
            "hands": g.hands, "draw": g.draw_pile, "discard": g.discard,
            "turn": g.turn, "phase": g.phase, "color": g.color, "stack": g.stack,
            "fuse": g.fuse, "blast": g.blast, "dir": g.direction, "side": g.side,
            "scores": g.scores, "shields": g.shield_cards, "out": g.out, "clock": g.clock,
            "rng": repr(g.rng.getstate()), "log": len(g.log), "called": g.called,
            "views": [g.view(s) for s in range(g.n)],
        },
        sort_keys=True,
        default=str,
    )


def choose(g, rng, greedy):
    """A random seat among those to act, and a random legal action (plays first if greedy)."""
    seat = rng.choice(g.to_act)
    actions = g.legal_actions(seat)
    if not actions:
        return seat, None
    if greedy:
        plays = [a for a in actions if a["type"] in ("play", "color", "next", "call")]
        if plays:
            return seat, rng.choice(plays)
        if g.phase == "drawn":
            return seat, actions[0]
    return seat, rng.choice(actions)


def play_out(preset, seats, seed, greedy=True, max_steps=3000, each_step=None):
    g = new_game("color-clash", preset=preset, seats=seats, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not g.over and steps < max_steps:
        seat, action = choose(g, rng, greedy)
        if action is None:
            continue
        g.apply(seat, action)
        steps += 1
        if each_step:
            each_step(g)
    return g


def visible_strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from visible_strings(k)
            yield from visible_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from visible_strings(v)


@PROPS
@given(games)
def test_cards_are_conserved(params):
    preset, seats, seed = params
    g0 = new_game("color-clash", preset=preset, seats=seats, seed=seed)
    deck = Counter(g0.all_cards())
    total = sum(deck.values())
    assert total == (108 if preset in ("standard", "family") else 112)

    def check(g):
        assert Counter(g.all_cards()) == deck
        assert sum(g.view(0)["counts"]) + g.view(0)["draw_count"] + g.view(0)[
            "discard_count"] + len(g.view(0)["shields"]) == total

    play_out(preset, seats, seed, each_step=check)


@PROPS
@given(games)
def test_a_view_never_shows_another_seats_cards(params):
    preset, seats, seed = params
    card_keys = {"hand", "legal", "top", "drawn", "faces", "draw_top", "stack_kind",
                 "unplayable"}

    def check(g):
        for seat in [*range(g.n), None]:
            v = g.view(seat)
            own = [] if seat is None else [g._faces[c] for c in g.hands[seat]]
            assert v["hand"] == own
            assert v["top"] == g._faces[g.discard[-1]]
            assert v["drawn"] is None or v["drawn"] in own
            assert all(a["card"] in own for a in v["legal"] if "card" in a)
            assert set(v["unplayable"]) <= set(own)  # (the reasons name own cards only)
            # no other part of the view names a card face
            rest = {k: val for k, val in v.items() if k not in card_keys and k != "options"}
            assert not [x for x in visible_strings(rest) if x in FACES], rest
            if g.double_faced:
                assert set(v["faces"]) == {str(s) for s in range(g.n) if s != seat}
                for s in range(g.n):
                    if s != seat:
                        assert v["faces"][str(s)] == [g._faces_other[c] for c in g.hands[s]]
                top = g.draw_pile[-1] if g.draw_pile else None
                assert v["draw_top"] == (g._faces_other[top] if top else None)
            else:
                assert "faces" not in v and "draw_top" not in v

    play_out(preset, seats, seed, each_step=check, max_steps=300)


@PROPS
@given(games, st.integers(0, 2**16))
def test_illegal_actions_raise_and_change_nothing(params, salt):
    preset, seats, seed = params
    g = new_game("color-clash", preset=preset, seats=seats, seed=seed)
    rng = random.Random(salt)
    junk = [
        {"type": "play", "card": "R9"}, {"type": "play", "card": "W", "color": "X"},
        {"type": "play", "card": "W"}, {"type": "play", "card": "nonsense"},
        {"type": "draw"}, {"type": "keep"}, {"type": "take"}, {"type": "pass"},
        {"type": "call"}, {"type": "catch", "target": 0}, {"type": "color", "color": "R"},
        {"type": "next"}, {"type": "fly"}, {"card": "R1"}, {"type": 3},
        {"type": "play", "card": "W+4", "color": "G"}, {"type": "play", "card": "R-bomb"},
        # (a catch of any seat but the one in the window: a mutation review)
        *({"type": "catch", "target": t} for t in range(1, 6)),
    ]
    for _ in range(60):
        if g.over:
            break
        for _ in range(4):
            seat = rng.randrange(-1, seats + 1)
            action = rng.choice(junk)
            legal = g.legal_actions(seat) if 0 <= seat < seats else []
            if action in legal:
                continue
            before = snapshot(g)
            with pytest.raises(IllegalAction):
                g.apply(seat, action)
            assert snapshot(g) == before
        seat, action = choose(g, rng, greedy=True)
        if action is not None:
            g.apply(seat, action)


@PROPS
@given(games)
def test_replay_is_identical(params):
    preset, seats, seed = params
    g = play_out(preset, seats, seed, max_steps=500)
    again = replay("color-clash", preset=preset, seats=seats, seed=seed, actions=g.log)
    assert snapshot(again) == snapshot(g)
    assert again.result == g.result


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_game_ends_when_players_play_whenever_they_can(preset, seats):
    for seed in range(8):
        g = play_out(preset, seats, seed, max_steps=20000)
        assert g.over, (preset, seats, seed)
        result = g.result
        assert len(result["scores"]) == seats
        assert all(0 <= w < seats for w in result["winners"])


def test_same_seed_same_deal_different_seed_different_deal():
    a = new_game("color-clash", preset="standard", seats=4, seed=1)
    b = new_game("color-clash", preset="standard", seats=4, seed=1)
    c = new_game("color-clash", preset="standard", seats=4, seed=2)
    assert a.hands == b.hands and a.draw_pile == b.draw_pile
    assert a.commitment() == b.commitment() != c.commitment()
    assert a.hands != c.hands


def test_secure_seed_when_none_given():
    a = new_game("color-clash", preset="standard", seats=2)
    b = new_game("color-clash", preset="standard", seats=2)
    assert isinstance(a.seed, str) and len(a.seed) == 64 and a.seed != b.seed
    again = new_game("color-clash", preset="standard", seats=2, seed=a.seed)
    assert again.hands == a.hands


@PROPS
@given(games)
def test_legal_actions_list_plays_first_in_hand_order(game):
    """The documented order (docs/engine.md): plays first, one per distinct face in hand
    order (a wild once per colour, R B Y G), then the other move, then ``call``."""
    preset, seats, seed = game
    order = {"R": 0, "B": 1, "Y": 2, "G": 3}

    def check(g):
        for seat in g.to_act:
            acts = g.legal_actions(seat)
            kinds = [a["type"] for a in acts]
            k = kinds.count("play")
            assert kinds[:k] == ["play"] * k
            assert kinds.count("call") <= 1 and ("call" not in kinds or kinds[-1] == "call")
            if g.phase != "play":
                continue
            faces = [a["card"] for a in acts[:k]]
            distinct = list(dict.fromkeys(faces))
            held = [g._faces[c] for c in g.hands[seat]]
            assert distinct == sorted(distinct, key=held.index)
            assert distinct == g._playable_faces(seat)  # the inlined scan agrees
            o = g.options  # and the rule for a hand away from the table (bots ask it)
            assert distinct == playable_faces(
                held, g.top_face, g.color, wild4_restricted=o.wild4_restricted,
                stacking=o.stacking, stack=g.stack, stack_kind=g.stack_kind)
            for face in distinct:
                colours = [a.get("color") for a in acts[:k] if a["card"] == face]
                if FACES[face].color is None:
                    assert [order[c] for c in colours] == [0, 1, 2, 3]
                else:
                    assert colours == [None]

    play_out(preset, seats, seed, each_step=check)


def test_a_seed_deals_the_same_cards_in_every_version():
    """Pinned deals: a stored match is verified (``colorclash verify``) and rebuilt by replay
    from its seed, so a change of the shuffle or of the first-seat draw must be deliberate."""
    g = new_game("color-clash", preset="standard", seats=2, seed=2026)
    assert g.initial_order[-8:] == ["B+2", "R2", "R+2", "G-skip", "W+4", "B3", "Y0", "G7"]
    assert g.first == 1
    g = new_game("color-clash", preset="day-night", seats=2, seed=2026)
    assert g.initial_order[-4:] == ["B-reverse//G8", "Y6//Y8", "R8//W-hunt", "G-skip//G2"]
    assert g.first == 1


_REFUSED_AS = {"drawn": "only the drawn card may be played", "stack": "cannot answer",
               "wild4": r"W\+4 may be played only", "match": "does not match"}


@PROPS
@given(games)
def test_the_view_says_why_each_card_the_seat_to_play_holds_cannot_be_played(params):
    """``unplayable``: on its turn to play, every card of the seat's hand is either one it
    may play (in ``legal``) or named with the reason the engine refuses it for; the table
    says that reason, not a hint of its own."""
    preset, seats, seed = params

    def check(g):
        for seat in range(g.n):
            v = g.view(seat)
            why = v["unplayable"]
            if seat != g.turn or g.phase not in ("play", "drawn"):
                assert why == {}
                continue
            can = {a["card"] for a in v["legal"] if a["type"] == "play"}
            assert set(v["hand"]) == can | set(why) and not can & set(why)
            assert g.views([seat])[0]["unplayable"] == why
            for face, reason in why.items():
                play = {"type": "play", "card": face}
                if face.startswith("W"):
                    play["color"] = "R"
                with pytest.raises(IllegalAction, match=_REFUSED_AS[reason]):
                    g.copy().apply(seat, play)

    play_out(preset, seats, seed, each_step=check)
