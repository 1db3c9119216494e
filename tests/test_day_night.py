"""Day & Night (`day-night`, spec section 7): deck, faces, flips, clock, hunt, stacks, views.

Positions are built with ``setup=`` and ``DAY//NIGHT`` card strings. Unless a test says
otherwise the cards are real cards of the frozen deck, so the positions could occur in play.
The property tests at the end use positions whose faces are all different, so that any face
string found in a view can be traced to exactly one card and one side.
"""

from __future__ import annotations

import ast
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from colorclash.engine import IllegalAction, new_game, replay
from colorclash.engine import day_night_deck as deck_module
from colorclash.engine.cards import COLORS, FACES, day_night_deck
from colorclash.engine.day_night_deck import DAY_NIGHT_CARDS
from hypothesis_scale import examples

# ---------------------------------------------------------------- helpers


def dn(hands, top, draw=(), first=0, **extra):
    """A Day & Night table from a position; ``draw`` is the draw pile, top first."""
    setup = {"hands": [list(h) for h in hands], "top": top, "draw": list(draw), "first": first}
    setup.update(extra)
    return new_game("color-clash", preset="day-night", seats=len(hands), setup=setup)


def types(events):
    return [e["type"] for e in events]


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def play(g, seat, card, color=None):
    action = {"type": "play", "card": card}
    if color is not None:
        action["color"] = color
    return g.apply(seat, action)


def side_index(g):
    return 1 if g.view(None)["side"] == "night" else 0


def active(g, card):
    return card.split("//")[side_index(g)]


def inactive(g, card):
    return card.split("//")[1 - side_index(g)]


def snapshot(g):
    """Everything observable plus the card zones, to prove an error changed nothing."""
    views = [json.dumps(g.view(s), sort_keys=True) for s in [None, *range(g.n)]]
    zones = ([list(h) for h in g.hands], list(g.draw_pile), list(g.discard))
    return views, zones, len(g.log)


def refused(g, seat, action, match=None):
    before = snapshot(g)
    with pytest.raises(IllegalAction, match=match):
        g.apply(seat, action)
    assert snapshot(g) == before


# Real cards of the frozen deck, named here once (day face // night face).
NUMBERS = ["R1//R8", "R2//B6", "R3//Y2", "R3//Y4", "R6//B8", "R7//Y3", "B1//G6", "B4//R7",
           "B5//G7", "B7//G9", "Y1//Y6", "G2//R2", "G5//B4", "G6//G2", "G7//B3", "G8//B1"]
FILLER = ["B2//R6", "B3//B-flip", "B4//G7", "B8//R8", "Y4//Y7", "Y5//B5", "Y6//B2",
          "Y7//G3", "G3//Y7", "G7//G3", "G9//R1"]


# ---------------------------------------------------------------- the deck

SPEC_DAY = {"+1": 2, "-skip": 2, "-reverse": 2, "-flip": 2}
SPEC_NIGHT = {"+5": 2, "-skipall": 2, "-reverse": 2, "-flip": 2}


def spec_faces(actions, wilds):
    """The face counts of one side, straight from the table of spec section 7."""
    counts: Counter = Counter()
    for color in COLORS:
        for n in range(1, 10):
            counts[f"{color}{n}"] = 2
        for rank, k in actions.items():
            counts[color + rank] = k
    counts.update(wilds)
    return counts


def test_deck_has_112_double_faced_cards_with_the_spec_face_counts_on_both_sides():
    deck = day_night_deck()
    assert len(deck) == 112
    assert all(card.count("//") == 1 for card in deck)
    day = Counter(card.split("//")[0] for card in deck)
    night = Counter(card.split("//")[1] for card in deck)
    assert day == spec_faces(SPEC_DAY, {"W": 4, "W-clock": 4})
    assert night == spec_faces(SPEC_NIGHT, {"W": 4, "W-hunt": 4})
    assert sum(day.values()) == sum(night.values()) == 112
    # no 0 and no single-faced-deck card on either side
    assert not any(f.endswith(("0", "+2", "+4", "-bomb", "-shield")) for f in day | night)
    # per colour: 26 coloured day faces and 26 coloured night faces
    for color in COLORS:
        assert sum(k for f, k in day.items() if f[0] == color) == 26
        assert sum(k for f, k in night.items() if f[0] == color) == 26


def test_deck_pairing_is_frozen_data_not_code():
    assert isinstance(DAY_NIGHT_CARDS, tuple)
    tree = ast.parse(Path(deck_module.__file__).read_text())
    # the module is a docstring and one literal assignment: nothing runs at import
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom, ast.Call))]
    assert ast.literal_eval(tree.body[-1].value) == DAY_NIGHT_CARDS
    # every call hands out the same cards, and a copy that cannot damage the table
    first = day_night_deck()
    first.clear()
    assert day_night_deck() == list(DAY_NIGHT_CARDS)


def test_deck_pairing_is_the_documented_one_time_generation():
    """The frozen table is reproducible from its documented recipe (random.Random(20261130))."""

    def side(actions, wilds):
        faces = []
        for color in COLORS:
            for n in range(1, 10):
                faces += [f"{color}{n}"] * 2
            for rank in actions:
                faces += [color + rank] * 2
        return faces + wilds

    day = side(["+1", "-skip", "-reverse", "-flip"], ["W"] * 4 + ["W-clock"] * 4)
    night = side(["+5", "-skipall", "-reverse", "-flip"], ["W"] * 4 + ["W-hunt"] * 4)
    random.Random(20261130).shuffle(night)
    assert tuple(f"{d}//{n}" for d, n in zip(day, night, strict=True)) == DAY_NIGHT_CARDS


@pytest.mark.parametrize("seed", range(12))
def test_a_dealt_game_starts_on_day_faces_with_a_number_and_keeps_all_112_cards(seed):
    seats = 2 + seed % 5
    g = new_game("color-clash", preset="day-night", seats=seats, seed=seed)
    v = g.view(None)
    assert v["side"] == "day" and v["clock"] is None
    assert FACES[v["top"]].kind == "number"
    assert v["top"] == g.discard[-1].split("//")[0]
    assert v["color"] == v["top"][0]
    assert v["counts"] == [7] * seats
    assert v["draw_count"] == 112 - 7 * seats - 1 and v["discard_count"] == 1
    assert Counter(g.all_cards()) == Counter(DAY_NIGHT_CARDS)
    assert v["options"]["stacking"] == "same" and v["options"]["deck"] == "day-night"


def test_setup_refuses_cards_that_are_not_double_faced():
    with pytest.raises(ValueError, match="DAY//NIGHT"):
        dn([["R1"], ["R2//B6"]], "R3//Y2")
    with pytest.raises(ValueError, match="unknown face"):
        dn([["R1//Q9"], ["R2//B6"]], "R3//Y2")


def test_setup_side_must_be_day_or_night_and_night_only_for_day_and_night():
    with pytest.raises(ValueError, match="side"):
        dn([["R1//R8"], ["R2//B6"]], "R3//Y2", side="dusk")
    with pytest.raises(ValueError, match="side"):
        new_game("color-clash", preset="siege", seats=2,
                 setup={"hands": [["R1"], ["R2"]], "top": "R3", "side": "night"})
    assert dn([["R1//R8"], ["R2//B6"]], "R3//Y2", side="day").view(None)["side"] == "day"


def test_card_points_on_the_active_face():
    hands = [["R1//R8"], ["W//R6", "W-clock//R4", "R3//Y2"], ["R+1//B6", "B-skip//Y9"]]
    g = dn(hands, "R7//Y3", FILLER)
    play(g, 0, "R1")
    # day: W 40, W-clock 40, 3  |  +1 20, Skip 20
    assert g.result["scores"] == [123, 40, 83] and g.result["winners"] == [0]

    hands = [["G9//R1"], ["R4//W-hunt", "W//B+5", "R8//W"], ["R+1//B6", "Y2//G-reverse"]]
    g = dn(hands, "R1//R8", FILLER, side="night")
    play(g, 0, "R1")
    # night: W-hunt 60, +5 20, W 40  |  6, Reverse 20
    assert g.result["scores"] == [146, 26, 120]


# ---------------------------------------------------------------- who sees what


def test_views_show_own_active_faces_opponents_inactive_faces_and_draw_top_inactive():
    hands = [["R1//R8", "W-clock//R4"], ["B1//G6", "R+1//W-hunt"], ["Y1//Y6"]]
    g = dn(hands, "R7//Y3", ["B4//R7", "B5//G7"], discard=["G2//R2"])
    v0 = g.view(0)
    assert v0["hand"] == ["R1", "W-clock"]
    assert v0["faces"] == {"1": ["G6", "W-hunt"], "2": ["Y6"]}
    assert v0["draw_top"] == "R7"  # the inactive face of the top card of the draw pile
    assert v0["top"] == "R7" and v0["side"] == "day"
    v1 = g.view(1)
    assert v1["hand"] == ["B1", "R+1"] and v1["faces"] == {"0": ["R8", "R4"], "2": ["Y6"]}
    spectator = g.view(None)
    assert spectator["hand"] == []
    assert spectator["faces"] == {"0": ["R8", "R4"], "1": ["G6", "W-hunt"], "2": ["Y6"]}
    for v in (v0, v1, spectator):
        text = json.dumps(v)
        assert "//" not in text
        # deeper draw pile (B5//G7) and the discard under the top (G2//R2) never show
        assert "B5" not in text and "G7" not in text and "G2" not in text
        assert "Y3" not in text  # the hidden face of the top discard
    assert "R8" not in json.dumps(v0)  # seat 0's own night faces stay hidden from seat 0
    assert "B1" not in json.dumps(v0)  # seat 1's active faces stay hidden from seat 0


def test_draw_top_is_none_when_the_draw_pile_is_empty():
    g = dn([["R1//R8"], ["B1//G6"]], "R7//Y3")
    assert g.view(0)["draw_top"] is None and g.view(None)["draw_top"] is None


@pytest.mark.parametrize("seed", range(6))
def test_dealt_views_match_the_faces_of_the_cards(seed):
    g = new_game("color-clash", preset="day-night", seats=2 + seed % 5, seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        if g.over:
            break
        for seat in [None, *range(g.n)]:
            check_exact_view(g, seat)
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))


def test_an_inactive_face_of_your_own_card_cannot_be_played():
    g = dn([["R1//R8", "R2//B6"], ["B1//G6"]], "R7//Y3", FILLER)
    refused(g, 0, {"type": "play", "card": "B6"}, match="not in your hand")
    refused(g, 0, {"type": "play", "card": "R1//R8"}, match="unknown card")


# ---------------------------------------------------------------- Flip


def test_flip_turns_hands_draw_pile_and_discard_pile_keeping_their_order():
    hands = [["R-flip//Y9", "R2//B6"], ["Y1//Y6", "B2//Y-flip"], ["B1//G6", "G2//R2"]]
    draw = ["B4//R7", "B5//G7", "B7//G9"]
    g = dn(hands, "R7//Y3", draw, discard=["R6//B-reverse"])
    before_draw, before_discard = list(g.draw_pile), list(g.discard)
    ev = play(g, 0, "R-flip")
    assert {"type": "flip", "cause": "card", "side": "night", "top": "Y9", "seat": 0} in ev
    assert g.draw_pile == before_draw and g.discard == before_discard + ["R-flip//Y9"]
    assert g.hands == [["R2//B6"], ["Y1//Y6", "B2//Y-flip"], ["B1//G6", "G2//R2"]]
    v = g.view(1)
    assert v["side"] == "night" and v["top"] == "Y9" and v["color"] == "Y" and v["turn"] == 1
    assert v["hand"] == ["Y6", "Y-flip"]
    assert v["faces"] == {"0": ["R2"], "2": ["B1", "G2"]}
    assert v["draw_top"] == "B4"  # the day face of the draw pile's top card now faces up
    assert v["discard_count"] == 3
    # the flipped top face has no effect of its own; seat 1 plays on Y9 as usual
    ev = play(g, 1, "Y-flip")
    assert {"type": "flip", "cause": "card", "side": "day", "top": "B2", "seat": 1} in ev
    v = g.view(2)
    assert v["side"] == "day" and v["top"] == "B2" and v["color"] == "B" and v["turn"] == 2
    assert v["hand"] == ["B1", "G2"] and v["draw_top"] == "R7"
    assert g.draw_pile == before_draw


def test_flip_onto_a_colourless_face_lets_the_flipper_choose_the_colour():
    # Not a card of the frozen deck (every Flip there has a coloured other face): setup only.
    g = dn([["R-flip//W", "R2//B6"], ["Y1//Y6"], ["B1//G6"]], "R7//Y3", FILLER)
    ev = play(g, 0, "R-flip")
    assert of_type(ev, "flip")[0]["top"] == "W"
    assert g.phase == "color" and g.to_act == [0]
    assert g.legal_actions(0) == [{"type": "color", "color": c} for c in COLORS]
    assert g.legal_actions(1) == []
    refused(g, 1, {"type": "draw"})
    refused(g, 0, {"type": "color", "color": "X"}, match="colour")
    ev = g.apply(0, {"type": "color", "color": "G"})
    assert {"type": "color_chosen", "seat": 0, "color": "G"} in ev
    assert g.color == "G" and g.turn == 1 and g.phase == "play"


def test_no_flip_of_the_frozen_deck_turns_up_a_colourless_face():
    for card in DAY_NIGHT_CARDS:
        day, night = card.split("//")
        if day.endswith("-flip"):
            assert FACES[night].color is not None, card
        if night.endswith("-flip"):
            assert FACES[day].color is not None, card


def test_flip_cannot_be_played_under_a_waiting_plus5():
    hands = [["Y3//R+5", "G1//G4"], ["R5//R-flip", "B-reverse//G-flip", "Y2//G-reverse"],
             ["B1//G6"]]
    g = dn(hands, "G2//R2", FILLER, side="night")
    play(g, 0, "R+5")
    assert g.stack == 5 and g.turn == 1
    assert g.legal_actions(1) == [{"type": "take"}]
    refused(g, 1, {"type": "play", "card": "R-flip"}, match="cannot answer")
    refused(g, 1, {"type": "play", "card": "G-flip"}, match="cannot answer")
    refused(g, 1, {"type": "draw"}, match="answer it or take it")


# ---------------------------------------------------------------- stacks (same value only)


def test_plus1_is_answered_only_by_plus1_of_any_colour():
    hands = [["R+1//B6", "R1//R8"],
             ["B+1//G-skipall", "W//R6", "W-clock//R4", "R-skip//R1", "R-reverse//Y6",
              "R-flip//Y9", "R2//B6"],
             ["G1//G4"]]
    g = dn(hands, "R3//Y2", FILLER)
    ev = play(g, 0, "R+1")
    assert {"type": "stacked", "seat": 1, "total": 1, "kind": "+1"} in ev
    assert g.legal_actions(1) == [{"type": "play", "card": "B+1"}, {"type": "take"}]
    for card, color in (("W", "R"), ("W-clock", "R"), ("R-skip", None), ("R-reverse", None),
                        ("R-flip", None), ("R2", None)):
        action = {"type": "play", "card": card} | ({"color": color} if color else {})
        refused(g, 1, action, match="cannot answer")
    ev = play(g, 1, "B+1")
    assert {"type": "stacked", "seat": 2, "total": 2, "kind": "+1"} in ev
    ev = g.apply(2, {"type": "take"})
    assert {"type": "take", "seat": 2, "count": 2, "stack": 2} in ev
    assert len(g.hands[2]) == 3 and g.stack == 0 and g.turn == 0


def test_plus5_is_answered_only_by_plus5_and_nothing_answers_with_a_hunt():
    hands = [["Y3//R+5", "G1//G4"],
             ["B5//Y+5", "R4//W-hunt", "R1//Y-skipall", "R8//W", "R7//R-reverse", "B3//Y3"],
             ["G9//R1"]]
    g = dn(hands, "G2//R2", FILLER, side="night")
    play(g, 0, "R+5")
    assert g.legal_actions(1) == [{"type": "play", "card": "Y+5"}, {"type": "take"}]
    for card, color in (("W-hunt", "Y"), ("W", "R"), ("Y-skipall", None),
                        ("R-reverse", None), ("Y3", None)):
        action = {"type": "play", "card": card} | ({"color": color} if color else {})
        refused(g, 1, action, match="cannot answer")
    play(g, 1, "Y+5")
    assert g.stack == 10 and g.turn == 2
    ev = g.apply(2, {"type": "take"})
    assert {"type": "take", "seat": 2, "count": 10, "stack": 10} in ev


def test_emptying_the_hand_with_plus5_wins_at_once_and_nobody_draws():
    g = dn([["Y3//R+5"], ["G1//G4"]], "G2//R2", FILLER, side="night")
    ev = play(g, 0, "R+5")
    assert "stacked" not in types(ev) and g.over and g.result["winners"] == [0]
    assert len(g.hands[1]) == 1


# ---------------------------------------------------------------- Midnight Clock


def clock_table(**extra):
    hands = [["W-clock//R4", "R1//R8", "R2//B6", "R8//W"],
             ["R3//Y2", "R6//B8", "R7//Y3", "R-skip//R1"],
             ["R3//Y4", "W-clock//Y-reverse", "G2//R2", "R9//Y2"]]
    return dn(hands, "R5//Y4", FILLER, **extra)


def test_clock_turns_the_table_three_turns_after_it_is_set():
    g = clock_table()
    ev = play(g, 0, "W-clock", "R")
    assert {"type": "clock_set", "seat": 0, "turns": 3} in ev
    assert g.view(1)["clock"] == 3  # the setter's own handover is not counted
    assert "flip" not in types(play(g, 1, "R3"))
    assert g.view(2)["clock"] == 2
    assert "flip" not in types(play(g, 2, "R3"))
    assert g.view(0)["clock"] == 1 and g.view(0)["side"] == "day"
    ev = play(g, 0, "R1")
    assert {"type": "flip", "cause": "clock", "side": "night", "top": "R8"} in ev
    v = g.view(1)
    assert v["side"] == "night" and v["clock"] is None and v["turn"] == 1
    assert v["top"] == "R8" and v["color"] == "R"
    assert v["hand"] == ["B8", "Y3", "R1"]


def test_clock_counts_skipped_turns_like_the_bomb_fuse():
    g = clock_table()
    play(g, 0, "W-clock", "R")
    ev = play(g, 1, "R-skip")  # seat 1's turn ends (2) and seat 2's turn is skipped (1)
    assert {"type": "skip", "seat": 2} in ev
    assert g.turn == 0 and g.view(0)["clock"] == 1
    ev = play(g, 0, "R1")
    assert {"type": "flip", "cause": "clock"}.items() <= of_type(ev, "flip")[0].items() and g.view(0)["side"] == "night"


def test_a_second_clock_relights_the_count_at_three():
    g = clock_table()
    play(g, 0, "W-clock", "R")
    play(g, 1, "R3")
    assert g.view(2)["clock"] == 2
    ev = play(g, 2, "W-clock", "R")
    assert {"type": "clock_set", "seat": 2, "turns": 3} in ev
    assert g.view(0)["clock"] == 3  # relit; seat 2's own handover is not counted
    play(g, 0, "R1")
    assert g.view(1)["clock"] == 2
    play(g, 1, "R6")
    assert g.view(2)["clock"] == 1 and g.view(2)["side"] == "day"
    ev = play(g, 2, "R9")
    assert {"type": "flip", "cause": "clock", "side": "night", "top": "Y2"} in ev
    assert g.view(0)["side"] == "night" and g.view(0)["clock"] is None


def test_a_flip_does_not_stop_the_clock():
    hands = [["W-clock//R4", "Y4//Y7", "R2//B6"],
             ["R-flip//Y9", "R6//B8", "R7//Y3"],
             ["R3//Y4", "Y6//Y8", "G2//R2"]]
    g = dn(hands, "R5//Y4", FILLER)
    play(g, 0, "W-clock", "R")
    ev = play(g, 1, "R-flip")
    assert {"type": "flip", "cause": "card", "side": "night", "top": "Y9", "seat": 1} in ev
    assert g.view(2)["clock"] == 2
    play(g, 2, "Y4")
    assert g.view(0)["clock"] == 1 and g.view(0)["hand"] == ["Y7", "B6"]
    ev = play(g, 0, "Y7")
    assert {"type": "flip", "cause": "clock", "side": "day", "top": "Y4"} in ev
    assert g.view(1)["side"] == "day" and g.view(1)["clock"] is None
    assert g.view(1)["hand"] == ["R6", "R7"] and g.color == "Y"


def test_clock_turning_up_a_colourless_face_lets_the_player_who_got_the_turn_choose():
    g = clock_table()
    play(g, 0, "W-clock", "R")
    play(g, 1, "R3")
    play(g, 2, "R9")
    ev = play(g, 0, "R8")  # the card R8//W: at night the top is the plain Wild
    assert {"type": "flip", "cause": "clock", "side": "night", "top": "W"} in ev
    assert g.phase == "color" and g.to_act == [1] and g.turn == 1
    refused(g, 0, {"type": "color", "color": "G"})
    g.apply(1, {"type": "color", "color": "Y"})
    assert g.phase == "play" and g.turn == 1 and g.color == "Y"
    # seat 1 now plays its own turn on yellow
    assert {"type": "play", "card": "Y3"} in g.legal_actions(1)


def test_clock_colourless_top_during_a_skip_is_chosen_by_the_player_who_gets_to_play():
    # R-skip//W is not in the frozen deck (setup only): a Skip whose night face is a Wild.
    hands = [["W-clock//R4", "R-skip//W", "R2//B6"],
             ["R3//Y2", "R6//B8"],
             ["R3//Y4", "R9//Y2", "G2//R2"]]
    g = dn(hands, "R5//Y4", FILLER)
    play(g, 0, "W-clock", "R")
    play(g, 1, "R3")
    play(g, 2, "R9")
    ev = play(g, 0, "R-skip")  # seat 1 is skipped; the table turns as the turn reaches it
    assert {"type": "skip", "seat": 1} in ev
    assert {"type": "flip", "cause": "clock", "side": "night", "top": "W"} in ev
    assert g.turn == 2 and g.phase == "color" and g.to_act == [2]
    g.apply(2, {"type": "color", "color": "G"})
    assert g.turn == 2 and g.phase == "play" and g.color == "G"


def test_clock_wild_under_a_waiting_plus1_timeout_chooses_colour_then_takes():
    """The clock turns up a Wild (Y+1//W) as a +1 reaches seat 1: seat 1 chooses the colour,
    and can only take the stack; when its clock runs out the engine does both."""
    hands = [["W-clock//R4", "Y+1//W", "R2//B6"],
             ["Y1//Y6", "G+1//B7", "B1//G6", "G5//B4"],
             ["Y2//G-reverse", "R9//Y2", "B5//G7"]]
    g = dn(hands, "R5//Y4", FILLER)
    play(g, 0, "W-clock", "Y")
    play(g, 1, "Y1")
    play(g, 2, "Y2")
    ev = play(g, 0, "Y+1")
    assert {"type": "flip", "cause": "clock", "side": "night", "top": "W"} in ev
    assert g.phase == "color" and g.turn == 1 and g.stack == 1
    assert g.legal_actions(1) == [{"type": "color", "color": c} for c in COLORS]
    ev = g.apply(1, {"type": "timeout"})
    # night hand B7, G6, B4: blue is held most; then the fixed policy can only take the +1
    assert {"type": "color_chosen", "seat": 1, "color": "B"} in ev
    assert {"type": "take", "seat": 1, "count": 1, "stack": 1} in ev
    assert g.turn == 2 and g.stack == 0 and g.color == "B"


def test_timeout_of_the_flippers_colour_choice_picks_a_colour_and_passes_the_turn():
    g = dn([["R-flip//W", "R2//B6", "G1//B4"], ["Y1//Y6"], ["B1//G6"]], "R7//Y3", FILLER)
    play(g, 0, "R-flip")
    ev = g.apply(0, {"type": "timeout"})
    assert {"type": "color_chosen", "seat": 0, "color": "B"} in ev  # night: B6, B4
    assert g.turn == 1 and g.phase == "play" and "play" not in types(ev)


def test_clock_turns_the_table_while_a_plus1_waits_on_you_so_you_must_take_it():
    """Spec 7 [001]: your hand now shows night faces with no +1, so you must take the stack."""
    hands = [["W-clock//R4", "R1//R8", "R+1//B6", "R2//B6"],
             ["R3//Y2", "G+1//B7", "Y3//R+5", "R6//B8"],
             ["R3//Y4", "R9//Y2", "B5//G7"]]
    g = dn(hands, "R5//Y4", FILLER)
    play(g, 0, "W-clock", "R")
    play(g, 1, "R3")
    play(g, 2, "R9")
    assert g.view(1)["hand"] == ["G+1", "Y3", "R6"]  # a +1 answer is in seat 1's hand by day
    ev = play(g, 0, "R+1")
    assert types(ev).index("stacked") < types(ev).index("flip")
    assert {"type": "stacked", "seat": 1, "total": 1, "kind": "+1"} in ev
    v = g.view(1)
    assert v["side"] == "night" and v["stack"] == 1 and v["stack_kind"] == "+1"
    assert v["hand"] == ["B7", "R+5", "B8"]
    assert v["legal"] == [{"type": "take"}]
    refused(g, 1, {"type": "play", "card": "G+1"}, match="not in your hand")
    refused(g, 1, {"type": "play", "card": "R+5"}, match="cannot answer")
    ev = g.apply(1, {"type": "take"})
    assert {"type": "take", "seat": 1, "count": 1, "stack": 1} in ev
    assert len(g.hands[1]) == 4 and g.turn == 2 and g.stack == 0


def test_clock_turns_the_table_under_a_waiting_plus5_so_you_must_take_five():
    """A flip under a waiting +5 stack: by day nothing can answer it (a +1 is not a +5)."""
    hands = [["W-clock//R4", "R1//R8", "B5//Y+5", "R2//B6"],
             ["R-flip//Y9", "G+1//B7", "B-skip//B+5", "R6//B8"],
             ["R3//Y4", "Y6//Y8", "B7//G9"]]
    g = dn(hands, "R5//Y4", FILLER)
    play(g, 0, "W-clock", "R")
    play(g, 1, "R-flip")  # night; the clock keeps counting
    play(g, 2, "Y8")
    assert g.view(0)["clock"] == 1
    assert g.view(1)["hand"] == ["B7", "B+5", "B8"]  # a +5 answer is in seat 1's hand by night
    ev = play(g, 0, "Y+5")
    assert {"type": "stacked", "seat": 1, "total": 5, "kind": "+5"} in ev
    assert {"type": "flip", "cause": "clock", "side": "day", "top": "B5"} in ev
    v = g.view(1)
    assert v["side"] == "day" and v["stack"] == 5 and v["hand"] == ["G+1", "B-skip", "R6"]
    assert v["legal"] == [{"type": "take"}]
    refused(g, 1, {"type": "play", "card": "G+1"}, match="cannot answer")
    ev = g.apply(1, {"type": "take"})
    assert {"type": "take", "seat": 1, "count": 5, "stack": 5} in ev
    assert len(g.hands[1]) == 8 and g.turn == 2


# ---------------------------------------------------------------- Color Hunt


def hunt_table(draw, seats=3, discard=()):
    hands = [["R4//W-hunt", "Y3//R+5"], ["G1//G4"], ["G9//R1"], ["B7//G9"], ["Y5//B5"]]
    return dn(hands[:seats], "R3//Y2", draw, side="night", discard=list(discard))


def test_color_hunt_stops_at_the_chosen_colour_and_the_victim_loses_the_turn():
    # night faces of the draw pile, top first: Y6, B6, W, R8, G6 (green), G7
    draw = ["Y1//Y6", "R2//B6", "Y9//W", "R1//R8", "B1//G6", "B5//G7"]
    g = hunt_table(draw)
    ev = play(g, 0, "W-hunt", "G")
    assert {"type": "hunt", "seat": 1, "color": "G", "count": 5} in ev
    assert {"type": "skip", "seat": 1} in ev
    assert "draw" not in types(ev) and "stacked" not in types(ev)  # not a stack, no faces
    assert g.hands[1] == ["G1//G4", "Y1//Y6", "R2//B6", "Y9//W", "R1//R8", "B1//G6"]
    assert g.turn == 2 and g.stack == 0 and g.color == "G"
    assert g.draw_pile == ["B5//G7"]
    # nothing answers a hunt: seat 2 plays an ordinary turn
    assert {"type": "draw"} in g.legal_actions(2) and {"type": "take"} not in g.legal_actions(2)


def test_color_hunt_stops_after_twelve_cards():
    no_blue = [c for c in NUMBERS + FILLER if not c.split("//")[1].startswith("B")]
    draw = no_blue[:15]
    assert len(draw) == 15
    g = hunt_table(draw)
    ev = play(g, 0, "W-hunt", "B")
    assert {"type": "hunt", "seat": 1, "color": "B", "count": 12} in ev
    assert len(g.hands[1]) == 13 and len(g.draw_pile) == 3 and g.turn == 2


def test_color_hunt_reshuffles_the_discard_pile_then_stops_when_no_card_is_left():
    g = hunt_table(["R1//R8", "Y1//Y6"], discard=["Y4//Y1"])
    ev = play(g, 0, "W-hunt", "B")
    # R8, Y6; then the discard pile under the W-hunt (Y1, Y2) is shuffled in: Y?, Y?; empty
    assert {"type": "reshuffle", "count": 2} in ev
    assert {"type": "hunt", "seat": 1, "color": "B", "count": 4} in ev
    assert g.draw_pile == [] and g.discard == ["R4//W-hunt"]
    assert len(g.hands[1]) == 5 and g.turn == 2


def test_color_hunt_with_two_players_comes_back_to_the_hunter():
    g = hunt_table(["B1//G6"], seats=2)
    ev = play(g, 0, "W-hunt", "G")
    assert {"type": "hunt", "seat": 1, "color": "G", "count": 1} in ev
    assert g.turn == 0 and g.phase == "play"


def test_color_hunt_cannot_answer_a_stack():
    hands = [["Y3//R+5", "G1//G4"], ["R4//W-hunt", "G9//R1"]]
    g = dn(hands, "G2//R2", FILLER, side="night")
    play(g, 0, "R+5")
    refused(g, 1, {"type": "play", "card": "W-hunt", "color": "G"}, match="cannot answer")


def test_color_hunt_hunts_the_chosen_colour_even_if_the_clock_turns_the_table():
    """Regression: the clock turning the table as the turn passes to the hunted player used to
    replace the hunted colour by the colour of the new top face."""
    hands = [["W-clock//R4", "R4//W-hunt", "G1//G4"],
             ["R-flip//Y9", "R6//B8"],
             ["R9//Y2", "Y7//G3"]]
    # day faces of the draw pile, top first: B1, B2, G9 (green), B3
    draw = ["B1//G6", "B2//R6", "G9//R1", "B3//B-flip"]
    g = dn(hands, "R5//Y4", draw)
    play(g, 0, "W-clock", "R")
    play(g, 1, "R-flip")
    play(g, 2, "Y2")
    assert g.view(0)["clock"] == 1 and g.view(0)["hand"] == ["W-hunt", "G4"]
    ev = play(g, 0, "W-hunt", "G")
    assert {"type": "flip", "cause": "clock", "side": "day", "top": "R4"} in ev
    assert {"type": "hunt", "seat": 1, "color": "G", "count": 3} in ev
    assert g.view(2)["hand"] == ["Y7"] and g.turn == 2
    assert g.color == "R"  # the new top, R4, sets the colour for the next play


# ---------------------------------------------------------------- Skip Everyone


@pytest.mark.parametrize("seats", [2, 5])
def test_skip_everyone_gives_the_player_another_turn(seats):
    hands = [["R1//Y-skipall", "R3//Y2", "R1//R8"]] + [["G1//G4", "B1//G6"]] * (seats - 1)
    g = dn(hands, "R3//Y4", FILLER, side="night")
    before = [list(h) for h in g.hands]
    ev = play(g, 0, "Y-skipall")
    assert {"type": "skip_all", "seat": 0} in ev
    assert g.turn == 0 and g.to_act == [0] and g.phase == "play"
    assert g.hands[1:] == before[1:]
    for other in range(1, seats):
        assert g.legal_actions(other) == []
        refused(g, other, {"type": "draw"}, match="not seat")
    play(g, 0, "Y2")
    assert g.turn == 1


def test_skip_everyone_as_the_last_card_wins():
    g = dn([["R1//Y-skipall"], ["G1//G4"], ["B1//G6"]], "R3//Y4", FILLER, side="night")
    play(g, 0, "Y-skipall")
    assert g.over and g.result["winners"] == [0]


def test_skip_everyone_counts_every_skipped_turn_for_the_clock():
    # day: seat 0 sets the clock (3), seat 1 flips to night (2), seat 2 plays Skip Everyone:
    # its own turn ends (1) and seat 0's turn is skipped (0): the table turns before seat 1's
    # turn is skipped too, and seat 2 plays again by day.
    hands = [["W-clock//R4", "R1//R8"], ["R-flip//Y9", "R6//B8"],
             ["R3//Y4", "R1//Y-skipall", "G2//R2"]]
    g = dn(hands, "R5//Y2", FILLER)
    play(g, 0, "W-clock", "R")
    play(g, 1, "R-flip")
    assert g.view(2)["clock"] == 2
    ev = play(g, 2, "Y-skipall")
    assert {"type": "flip", "cause": "clock"}.items() <= of_type(ev, "flip")[0].items() and g.turn == 2 and g.view(2)["side"] == "day"


# ---------------------------------------------------------------- same active face twice


def test_same_active_face_plays_the_card_held_longest():
    g = dn([["R3//Y2", "R3//Y4", "R1//R8"], ["G1//G4"]], "R5//Y6", FILLER)
    plays = [a for a in g.legal_actions(0) if a["type"] == "play"]
    assert plays == [{"type": "play", "card": "R3"}, {"type": "play", "card": "R1"}]
    play(g, 0, "R3")
    assert g.hands[0] == ["R3//Y4", "R1//R8"]
    assert g.view(1)["faces"]["0"] == ["Y4", "R8"]


# ---------------------------------------------------------------- property tests

DN_FACES = sorted({f for card in DAY_NIGHT_CARDS for f in card.split("//")})


def check_exact_view(g, seat):
    """(a) own hand = active faces; (b) others = inactive faces; (c) draw_top inactive."""
    v = g.view(seat)
    s = 1 if v["side"] == "night" else 0
    assert v["hand"] == ([c.split("//")[s] for c in g.hands[seat]] if seat is not None else [])
    assert v["faces"] == {
        str(o): [c.split("//")[1 - s] for c in g.hands[o]] for o in range(g.n) if o != seat
    }
    assert v["draw_top"] == (g.draw_pile[-1].split("//")[1 - s] if g.draw_pile else None)
    assert v["top"] == g.discard[-1].split("//")[s]
    assert v["counts"] == [len(h) for h in g.hands]
    return v


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, x in value.items():
            yield str(k)
            yield from strings_in(x)
    elif isinstance(value, (list, tuple)):
        for x in value:
            yield from strings_in(x)


def check_no_leak(g, seat):
    """(d) with all faces distinct, no face outside what the seat may see is in the view."""
    v = check_exact_view(g, seat)
    s = 1 if v["side"] == "night" else 0
    may_see = set(v["hand"]) | {f for fs in v["faces"].values() for f in fs}
    if g.draw_pile:
        may_see.add(g.draw_pile[-1].split("//")[1 - s])
    may_see |= {c.split("//")[s] for c in g.discard}  # the discard pile lies face up
    every_face = {f for c in g.all_cards() for f in c.split("//")}
    secret = every_face - may_see
    shown = list(strings_in(v))
    assert not [x for x in shown if "//" in x]
    leaked = secret & set(shown)
    assert not leaked, f"seat {seat} sees {leaked}"
    # the seat's own hidden faces and the other seats' active faces are all secret
    if seat is not None:
        assert not {c.split("//")[1 - s] for c in g.hands[seat]} & set(shown)
    for o in range(g.n):
        if o != seat:
            assert not {c.split("//")[s] for c in g.hands[o]} & set(shown)


@st.composite
def unique_positions(draw):
    """A Day & Night position in which every face appears on exactly one card side."""
    faces = draw(st.permutations(DN_FACES))
    cards = [f"{faces[2 * i]}//{faces[2 * i + 1]}" for i in range(len(faces) // 2)]
    # deal the cards with action faces first, so that flips, clocks and hunts get played
    cards.sort(key=lambda c: -sum(FACES[f].kind != "number" for f in c.split("//")))
    seats = draw(st.integers(2, 4))
    sizes = [draw(st.integers(2, 5)) for _ in range(seats)]
    hands, k = [], 0
    for size in sizes:
        hands.append(cards[k:k + size])
        k += size
    top = cards[k]
    k += 1
    n_draw = draw(st.integers(0, len(cards) - k))
    rest = cards[k:]
    setup = {"hands": hands, "top": top, "draw": rest[:n_draw], "discard": rest[n_draw:][:4],
             "first": draw(st.integers(0, seats - 1)), "color": draw(st.sampled_from(COLORS)),
             "side": draw(st.sampled_from(["day", "night"]))}
    return setup


def random_step(g, choice):
    """One legal action (or a timeout) picked by ``choice``; plays are preferred 4 to 1."""
    seat = g.to_act[choice % len(g.to_act)]
    legal = g.legal_actions(seat)
    plays = [a for a in legal if a["type"] in ("play", "color")]
    if choice % 11 == 0 or not legal:
        action = {"type": "timeout"}
    elif plays and choice % 5:
        action = plays[(choice // 11) % len(plays)]
    else:
        action = legal[(choice // 11) % len(legal)]
    return g.apply(seat, action)


PROPS = settings(max_examples=examples(40), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@PROPS
@given(unique_positions(), st.lists(st.integers(0, 10_000), min_size=10, max_size=40))
def test_hidden_information_with_faces(setup, choices):
    g = new_game("color-clash", preset="day-night", seats=len(setup["hands"]), setup=setup)
    for choice in [None, *choices]:
        if choice is not None:
            if g.over:
                break
            random_step(g, choice)
        for seat in [None, *range(g.n)]:
            check_no_leak(g, seat)


@PROPS
@given(unique_positions(), st.lists(st.integers(0, 10_000), min_size=10, max_size=40))
def test_flips_preserve_every_pile_order_and_swap_what_each_seat_sees(setup, choices):
    g = new_game("color-clash", preset="day-night", seats=len(setup["hands"]), setup=setup)
    for choice in choices:
        if g.over:
            break
        side = g.view(None)["side"]
        ev = random_step(g, choice)
        flips = [e for e in ev if e["type"] == "flip"]
        now = g.view(None)["side"]
        assert (side != now) == (len(flips) % 2 == 1)
        assert [e["side"] for e in flips] == (
            ["night", "day"] * 2)[(side == "night"):][:len(flips)]
    # now turn the table by hand and check every zone keeps its cards in order
    zones = ([list(h) for h in g.hands], list(g.draw_pile), list(g.discard))
    views = {s: g.view(s) for s in [None, *range(g.n)]}
    events = []
    g._flip_table(events, cause="card", seat=None)
    assert ([list(h) for h in g.hands], list(g.draw_pile), list(g.discard)) == zones
    assert events[0]["type"] == "flip" and events[0]["side"] == g.view(None)["side"]
    after = {s: g.view(s) for s in [None, *range(g.n)]}
    for s in range(g.n):
        # what the others saw of seat s is now seat s's own hand, and the other way round
        assert after[s]["hand"] == views[None]["faces"][str(s)]
        assert after[None]["faces"][str(s)] == views[s]["hand"]
    assert after[None]["top"] == g.discard[-1].split("//")[side_index(g)]
    for s in [None, *range(g.n)]:
        check_exact_view(g, s)


class ClockModel:
    """Spec 7: a clock turns the table 3 turns after it is set, counted like the Bomb fuse:
    the handover that ends the setter's turn does not count, every later one (each skipped
    turn included) counts one; a new clock relights the count at 3."""

    def __init__(self, g):
        self.g = g
        self.remaining = None
        self.fresh = False
        self.seen = {}  # id -> event, holding the event so that its id stays unique
        self.flips = 0
        original = type(g)._handover

        def handover(game, events):
            for e in events:
                if e["type"] == "clock_set" and id(e) not in self.seen:
                    self.seen[id(e)] = e
                    self.remaining, self.fresh = 3, True
            start = len(events)
            original(game, events)
            flipped = any(e["type"] == "flip" and e.get("cause") == "clock" for e in events[start:])
            expect = False
            if self.remaining is not None:
                if self.fresh:
                    self.fresh = False
                else:
                    self.remaining -= 1
                    if self.remaining == 0:
                        expect, self.remaining = True, None
            assert flipped == expect
            self.flips += flipped
            assert g.clock == self.remaining

        # watch every handover of this one game (the engine uses __slots__, so the
        # method is replaced on a per-game subclass rather than on the instance)
        g.__class__ = type("WatchedColorClash", (type(g),), {"__slots__": (),
                                                             "_handover": handover})


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6),
       st.lists(st.integers(0, 10_000), min_size=30, max_size=150))
def test_clock_count_property(seed, seats, choices):
    g = new_game("color-clash", preset="day-night", seats=seats, seed=seed)
    model = ClockModel(g)
    for choice in choices:
        if g.over:
            break
        ev = random_step(g, choice)
        if not g.over:
            assert g.view(None)["clock"] == model.remaining
        if any(e["type"] == "clock_set" for e in ev) and not g.over:
            assert g.clock == 3
    assert Counter(g.all_cards()) == Counter(DAY_NIGHT_CARDS)


def test_clock_model_sees_flips_in_long_games():
    """The property above is not vacuous: random games do set and fire clocks."""
    fired = 0
    for seed in range(30):
        g = new_game("color-clash", preset="day-night", seats=3, seed=seed)
        model = ClockModel(g)
        rng = random.Random(seed)
        while not g.over and len(g.log) < 400:
            random_step(g, rng.randrange(10_000))
        fired += model.flips
    assert fired >= 5


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6),
       st.lists(st.integers(0, 10_000), min_size=20, max_size=80))
def test_day_night_replays_byte_for_byte_and_conserves_cards(seed, seats, choices):
    g = new_game("color-clash", preset="day-night", seats=seats, seed=seed)
    for choice in choices:
        if g.over:
            break
        random_step(g, choice)
        assert Counter(g.all_cards()) == Counter(DAY_NIGHT_CARDS)
    again = replay("color-clash", actions=g.log, preset="day-night", seats=seats, seed=seed)
    for seat in [None, *range(seats)]:
        assert json.dumps(again.view(seat), sort_keys=True) == json.dumps(
            g.view(seat), sort_keys=True)
