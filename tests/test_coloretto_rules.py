"""Coloretto's rules, one test per rule of the spec (positions built with ``setup=``)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from colorclash.engine import GAMES, IllegalAction, new_game
from colorclash.engine.coloretto import LAST, full_deck
from colorclash.engine.coloretto_scoring import COLOURS


def game(seats=4, options=None, **setup):
    return new_game("coloretto", seats=seats, seed=1, setup=setup, options=options)


def state(g):
    return json.dumps([g.view(s) for s in range(g.n)] + [g.log, g.timer()], sort_keys=True)


def refused(g, seat, action, words):
    before = state(g)
    with pytest.raises(IllegalAction, match=words):
        g.apply(seat, action)
    assert state(g) == before


# ---------------------------------------------------------------------- the deal


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_deal(seats):
    g = new_game("coloretto", seats=seats, seed=11)
    v = g.view(None)
    removed = {2: 2, 3: 1}.get(seats, 0)
    assert len(v["removed_colours"]) == removed
    assert len(v["colours"]) == 7 - removed
    if seats == 2:
        assert [r["slots"] for r in v["rows"]] == [1, 2, 3]
        assert {r["kind"] for r in v["rows"]} == {"green"}
    else:
        assert [r["slots"] for r in v["rows"]] == [3] * seats
        assert {r["kind"] for r in v["rows"]} == {"brown"}
    per_seat = 2 if seats == 2 else 1
    start = [c for col in v["collections"] for c in col["colours"]]
    assert all(col["cards"] == per_seat for col in v["collections"])
    assert all(sum(col["colours"].values()) == per_seat for col in v["collections"])
    assert len(start) == len(set(start)) == per_seat * seats  # all different colours
    assert not set(start) & set(v["removed_colours"])
    # supply: every other card, the last-round card with 15 cards under it
    deck = 63 - 9 * removed + 10 + 3
    assert v["supply"] == deck - per_seat * seats + 1
    assert v["cards_above_last_round"] == v["supply"] - 16
    assert v["last_round"] is False and v["round"] == 1
    assert v["turn"] == v["first"] == g.to_act[0]
    assert g.start_events[0]["type"] == "deal"
    assert g.start_events[0]["removed_colours"] == v["removed_colours"]


def test_removed_colours_starting_cards_and_first_player_are_drawn_by_lot():
    removed, starts, firsts = set(), set(), set()
    for seed in range(40):
        v = new_game("coloretto", seats=3, seed=seed).view(None)
        removed.add(tuple(v["removed_colours"]))
        starts.add(tuple(tuple(c["colours"]) for c in v["collections"]))
        firsts.add(v["first"])
    assert len(removed) >= 5 and len(starts) >= 20 and firsts == {0, 1, 2}


def test_the_last_round_card_lies_on_15_cards():
    g = new_game("coloretto", seats=4, seed=5)
    assert g.supply.index(LAST) == 15  # the supply lists the bottom first


# ---------------------------------------------------------------------- a turn


def test_draw_shows_the_card_to_everyone_then_place_beside_a_row():
    g = game(supply=["blue", "pink"], turn=2)
    events = g.apply(2, {"type": "draw"})
    assert events == [{"type": "draw", "seat": 2, "card": "blue"}]
    for s in [None, 0, 1, 2, 3]:
        assert g.view(s)["drawn"] == "blue" and g.view(s)["phase"] == "place"
    assert g.legal_actions(2) == [{"type": "place", "row": i} for i in range(4)]
    events = g.apply(2, {"type": "place", "row": 1})
    assert events == [{"type": "place", "seat": 2, "row": 1, "card": "blue"}]
    assert g.view(0)["rows"][1]["cards"] == ["blue"]
    assert g.turn == 3 and g.view(0)["drawn"] is None  # the turn passes to the left


def test_a_row_holds_at_most_its_slots():
    g = game(rows=[["blue"] * 3, [], [], []], supply=["pink", "pink"])
    g.apply(0, {"type": "draw"})
    assert {"type": "place", "row": 0} not in g.legal_actions(0)
    refused(g, 0, {"type": "place", "row": 0}, "full")


def test_when_every_row_is_full_you_must_take():
    g = game(rows=[["blue"] * 3, ["pink"] * 3, ["grey"] * 3, ["+2"] * 3],
             supply=["orange", "orange"])
    assert g.legal_actions(0) == [{"type": "take", "row": i} for i in range(4)]
    refused(g, 0, {"type": "draw"}, "full")


def test_a_row_is_taken_only_with_a_card_beside_it():
    g = game(rows=[["blue"], [], [], []], supply=["pink", "pink"])
    assert g.legal_actions(0) == [{"type": "draw"}, {"type": "take", "row": 0}]
    refused(g, 0, {"type": "take", "row": 1}, "no card")


def test_taking_a_row_puts_its_cards_in_the_collection_and_sits_the_player_out():
    g = game(rows=[["blue", "joker", "+2"], ["pink"], [], []], supply=["grey"] * 5,
             collections=[["blue"], [], [], []])
    events = g.apply(0, {"type": "take", "row": 0})
    assert events == [{"type": "take", "seat": 0, "row": 0, "cards": ["blue", "joker", "+2"]}]
    v = g.view(3)
    assert v["collections"][0] == {"colours": {"blue": 2}, "jokers": 1, "plus2": 1, "cards": 4}
    assert v["rows"][0] == {"slots": 3, "cards": [], "taken_by": 0, "removed": False,
                            "kind": "brown"}
    assert v["taken"] == [0]
    # the turn goes round without seat 0, and nobody may use the taken row
    g.apply(1, {"type": "draw"})
    assert {"type": "place", "row": 0} not in g.legal_actions(1)
    refused(g, 1, {"type": "place", "row": 0}, "taken")
    g.apply(1, {"type": "place", "row": 2})
    g.apply(2, {"type": "take", "row": 1})
    assert g.turn == 3
    g.apply(3, {"type": "draw"})
    g.apply(3, {"type": "place", "row": 3})
    assert g.turn == 1  # 0 and 2 sit out
    refused(g, 0, {"type": "draw"}, "it is seat 1's turn, not seat 0's")


def test_the_player_alone_keeps_drawing_and_placing_then_takes():
    g = game(seats=3, taken_by=[0, 2, None], rows=[[], [], ["blue"]], turn=1,
             supply=["pink", "grey", "orange", "yellow"], collections=[["grey"], [], ["grey"]],
             removed_colours=["green"])
    for _ in range(2):
        assert g.to_act == [1]
        g.apply(1, {"type": "draw"})
        g.apply(1, {"type": "place", "row": 2})
    assert g.view(1)["rows"][2]["cards"] == ["blue", "pink", "grey"]
    assert g.legal_actions(1) == [{"type": "take", "row": 2}]  # the last row is full
    g.apply(1, {"type": "take", "row": 2})
    assert g.round_no == 2


def test_the_player_who_took_the_last_row_starts_the_next_round():
    g = game(seats=3, taken_by=[None, None, 1], rows=[["blue"], ["pink"], []], turn=2,
             supply=["orange"] * 5, removed_colours=["green"])
    # seat 2 takes, then seat 0 (turn passes left, skipping 1), who takes the last row
    g.apply(2, {"type": "take", "row": 0})
    assert g.turn == 0
    events = g.apply(0, {"type": "take", "row": 1})
    assert [e["type"] for e in events] == ["take", "round_end", "round_start"]
    assert events[-1] == {"type": "round_start", "round": 2, "first": 0}
    v = g.view(None)
    assert v["round"] == 2 and v["turn"] == 0 and v["first"] == 0 and v["taken"] == []
    assert all(r["cards"] == [] and r["taken_by"] is None for r in v["rows"])


def test_two_players_remove_the_third_row_with_its_cards():
    g = game(seats=2, rows=[["blue"], ["pink", "+2"], ["yellow", "joker"]],
             removed_colours=["grey", "green"])
    g.apply(0, {"type": "take", "row": 1})
    assert g.turn == 1
    events = g.apply(1, {"type": "take", "row": 0})
    assert events[1] == {"type": "row_removed", "row": 2, "cards": ["yellow", "joker"]}
    assert events[2]["type"] == "round_end"
    assert g.view(0)["out"] == ["yellow", "joker"]
    assert g.round_no == 2 and g.turn == 1  # the last taker starts
    assert Counter(g.all_cards()) == Counter(c for c in full_deck())


def test_two_players_remove_the_third_row_even_when_it_is_empty():
    g = game(seats=2, rows=[["blue"], ["pink"], []], removed_colours=["grey", "green"])
    g.apply(0, {"type": "take", "row": 0})
    events = g.apply(1, {"type": "take", "row": 1})
    assert events[1] == {"type": "row_removed", "row": 2, "cards": []}
    # a new round: every row card back in the middle
    assert [r["removed"] for r in g.view(0)["rows"]] == [False, False, False]


def test_two_players_rows_have_1_2_and_3_slots():
    g = game(seats=2, rows=[["blue"], ["pink", "pink"], []], supply=["orange"] * 3,
             removed_colours=["grey", "green"])
    g.apply(0, {"type": "draw"})
    assert g.legal_actions(0) == [{"type": "place", "row": 2}]


def test_drawing_the_last_round_card_sets_it_aside_and_the_next_card_is_drawn():
    g = game(supply=[LAST, "blue", "pink"])
    assert g.view(0)["cards_above_last_round"] == 0
    events = g.apply(0, {"type": "draw"})
    assert events == [{"type": "last_round", "seat": 0},
                      {"type": "draw", "seat": 0, "card": "blue"}]
    v = g.view(1)
    assert v["last_round"] is True and v["drawn"] == "blue" and v["supply"] == 1
    assert v["cards_above_last_round"] is None
    assert g.timer()["key"] == 0  # still the same turn


def test_the_game_ends_with_the_last_round():
    g = game(seats=2, rows=[["blue"], ["pink", "+2"], []], supply=[LAST, "yellow", "blue"],
             collections=[["blue", "blue"], ["pink"]], removed_colours=["grey", "green"])
    g.apply(0, {"type": "draw"})
    g.apply(0, {"type": "place", "row": 2})
    g.apply(1, {"type": "take", "row": 1})
    assert not g.over
    events = g.apply(0, {"type": "take", "row": 0})
    assert [e["type"] for e in events] == ["take", "row_removed", "round_end", "game_over"]
    assert events[1] == {"type": "row_removed", "row": 2, "cards": ["yellow"]}
    assert [r["removed"] for r in g.view(0)["rows"]] == [False, False, True]
    assert g.over and g.to_act == [] and g.timer() is None
    r = g.result
    assert r["scores"] == [6, 5] and r["winners"] == [0]  # 3 blue: 6; 2 pink + "+2": 3 + 2
    assert r["scoring"][0] == {"positive": {"blue": 3}, "negative": {}, "jokers": {},
                               "points": {"blue": 6}, "plus2": 0, "total": 6}
    assert r["scoring"][1]["plus2"] == 1 and r["scoring"][1]["positive"] == {"pink": 2}
    assert g.view(1)["phase"] == "game_over" and g.view(1)["result"] == r
    g.view(1)["result"]["scores"][0] = 99  # a view is the viewer's own copy
    assert g.result["scores"] == [6, 5]
    assert g.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="over"):
        g.apply(0, {"type": "draw"})


def test_ties_share_the_win():
    g = game(seats=2, rows=[["blue"], ["pink"], []], supply=["orange", "orange"],
             last_round=True, removed_colours=["grey", "green"])
    g.apply(0, {"type": "take", "row": 0})
    g.apply(1, {"type": "take", "row": 1})
    assert g.result["scores"] == [1, 1] and g.result["winners"] == [0, 1]


def test_the_worked_example_at_the_end_of_a_game():
    # Andy: 1 joker, 1 "+2", 6 green, 4 yellow, 3 red (orange here), 2 blue [002]
    andy = ["joker", "+2"] + ["green"] * 6 + ["yellow"] * 4 + ["orange"] * 3 + ["blue"] * 2
    g = game(seats=3, collections=[andy[:-1], [], []], rows=[["blue"], ["pink"], ["pink"]],
             last_round=True, supply=["brown"], removed_colours=["grey"])
    g.apply(0, {"type": "take", "row": 0})
    g.apply(1, {"type": "take", "row": 1})
    g.apply(2, {"type": "take", "row": 2})
    layout = g.result["scoring"][0]
    assert layout["jokers"] == {"yellow": 1}
    assert layout["total"] == 21 + 15 + 6 - 3 + 2
    assert g.result["winners"] == [0]


def test_the_grey_side_scores_by_its_table():
    cards = ["blue"] * 4 + ["pink"] * 3
    g = game(seats=3, options={"scoring": "grey"}, collections=[cards, [], []],
             removed_colours=["green"], supply=["orange"] * 3)
    assert g.view(0)["scores"][0] == 7 + 8
    assert g.view(0)["scoring_side"] == "grey"
    assert game(seats=3, collections=[cards, [], []], removed_colours=["green"],
                supply=["orange"] * 3).view(0)["scores"][0] == 10 + 6


@pytest.mark.parametrize("side", ["brown", "grey"])
def test_the_view_and_the_option_say_the_sides_points(side):
    """The table's chip, the results and the lobby's note show a side's points from the
    engine (the view's ``scoring_points``, the option's ``facts``), not from a copy of the
    rule in the client: the points a view shows are those the game counts."""
    from colorclash.engine.coloretto import DEFINITION
    from colorclash.engine.coloretto_scoring import colour_points

    points = [colour_points(n, side) for n in range(1, 7)]
    g = game(seats=3, options={"scoring": side})
    assert g.view(0)["scoring_points"] == points == g.view(None)["scoring_points"]
    option = next(o for o in DEFINITION.public()["presets"]["standard"]["options"]
                  if o["name"] == "scoring")
    assert option["facts"] == {"brown": {"points": [1, 3, 6, 10, 15, 21]},
                               "grey": {"points": [1, 4, 8, 7, 6, 5]}}
    assert option["facts"][side]["points"] == points


def test_the_view_previews_each_players_best_score():
    g = game(collections=[["blue"] * 2 + ["joker"], ["+2"], [], []], supply=["pink"])
    v = g.view(2)
    assert v["scores"] == [6, 2, 0, 0]
    assert v["preview"][0]["jokers"] == {"blue": 1}


def test_a_joker_becomes_only_a_colour_in_play():
    g = game(seats=3, collections=[["joker"], [], []], removed_colours=["orange"],
             supply=["pink"])
    assert "orange" not in g.view(0)["preview"][0]["jokers"]


# ---------------------------------------------------------------------- a dry supply


def test_an_empty_supply_makes_drawing_impossible():
    g = game(rows=[["blue"], [], [], []], supply=[])
    assert g.legal_actions(0) == [{"type": "take", "row": 0}]
    refused(g, 0, {"type": "draw"}, "empty")


def test_nothing_to_draw_and_nothing_to_take_ends_the_round_and_the_game():
    g = game(rows=[["blue"], [], [], []], supply=["pink"])
    g.apply(0, {"type": "draw"})
    g.apply(0, {"type": "place", "row": 0})
    g.apply(1, {"type": "take", "row": 0})
    # seat 2 could take nothing and draw nothing
    assert g.over
    assert g.log[-1] == (1, {"type": "take", "row": 0})
    assert g.result["scores"] == [0, 2, 0, 0]


# ---------------------------------------------------------------------- refusals


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing():
    g = game(rows=[["blue"], [], [], []], supply=["pink", "pink"])
    refused(g, 1, {"type": "draw"}, "it is seat 0's turn, not seat 1's")
    refused(g, 0, {"type": "place", "row": 0}, "draw a card")
    refused(g, 0, {"type": "jump"}, "unknown action")
    refused(g, 0, "draw", "dict")
    refused(g, 0, {"type": "take", "row": 9}, "'row' must be a number from 0 to 3: there are 4 rows")
    refused(g, 0, {"type": "take", "row": True}, "from 0 to 3")
    refused(g, 0, {"type": "take"}, "from 0 to 3")
    g.apply(0, {"type": "draw"})
    refused(g, 0, {"type": "draw"}, "place the drawn card")
    refused(g, 0, {"type": "take", "row": 0}, "place the drawn card")


def test_bad_setups_are_refused():
    with pytest.raises(ValueError, match="no 'blue' left"):
        game(collections=[["blue"] * 10, [], [], []])
    with pytest.raises(ValueError, match="removed colour"):
        game(seats=3, removed_colours=["blue"], supply=["blue"])
    with pytest.raises(ValueError, match="slots"):
        game(seats=2, rows=[["blue", "orange"], [], []])
    with pytest.raises(ValueError, match="under it"):
        game(supply=["blue", LAST])
    with pytest.raises(ValueError, match="never out of the game"):
        game(out=[LAST])
    with pytest.raises(ValueError, match="unknown setup keys"):
        game(hands=[])
    with pytest.raises(ValueError, match="2 to 5"):
        new_game("coloretto", seats=6, seed=1)


@pytest.mark.parametrize(("setup", "words"), [
    ({"last_round": "no"}, "'last_round' must be true or false"),  # (not read as true)
    ({"taken_by": [True, None, None, None], "rows": [[], ["blue"], [], []], "turn": 2},
     "distinct seat numbers"),
    ({"first": True}, "'first' must be a seat number"),
    ({"turn": True}, "'turn' must be a seat"),
    ({"round": True}, "'round' must be 1 or more"),
    ({"supply": None}, "supply must be a list"),
    ({"collections": [["blue"], "pink", [], []]}, "collections must be a list"),
    ({"collections": [["blue"], [{"x": 1}], [], []]}, "cards are colour names"),
    ({"drawn": ["blue"]}, "'drawn' must be a card"),
    ({"removed_colours": ["pink", "grey", "green"]}, "4 players play without 0 colours"),
])
def test_a_malformed_setup_is_refused_saying_what_is_wrong(setup, words):
    with pytest.raises(ValueError, match=words):
        game(**setup)


def test_two_and_three_players_play_without_two_and_one_colours_in_a_setup_too():
    with pytest.raises(ValueError, match="2 players play without 2 colours"):
        game(seats=2, removed_colours=[])
    assert game(seats=3, removed_colours=["pink"]).view(0)["removed_colours"] == ["pink"]


# ---------------------------------------------------------------------- the site's view


def test_the_timer_keeps_one_key_for_a_draw_and_its_placing():
    g = game(supply=["blue", "pink", "grey"])
    k0 = g.timer()
    assert k0 == {"kind": "turn", "seat": 0, "key": k0["key"]}
    g.apply(0, {"type": "draw"})
    assert g.timer() == k0
    g.apply(0, {"type": "place", "row": 0})
    k1 = g.timer()
    assert k1["seat"] == 1 and k1["key"] != k0["key"]
    g.apply(1, {"type": "take", "row": 0})
    assert g.timer()["seat"] == 2 and g.timer()["key"] not in (k0["key"], k1["key"])


def test_the_definition():
    d = GAMES["coloretto"]
    assert (d.name, d.min_seats, d.max_seats, d.default_seats, d.quick_match_seats) == (
        "Coloretto", 2, 5, 4, 4)
    assert d.defaults("standard") == {"scoring": "brown", "clock": 30}
    assert d.server_actions == frozenset()
    with pytest.raises(ValueError, match="scoring"):
        new_game("coloretto", seats=3, seed=1, options={"scoring": "red"})
    g = new_game("coloretto", seats=3, seed=1, options={"scoring": "grey", "clock": 60})
    assert g.view(0)["options"] == {"scoring": "grey", "clock": 60}


def test_every_view_has_the_shells_keys():
    g = new_game("coloretto", seats=4, seed=3)
    for seat in [None, 0, 1, 2, 3]:
        v = g.view(seat)
        for key in ("game", "seat", "seats", "phase", "turn", "to_act", "legal", "round",
                    "scores", "result", "options"):
            assert key in v
        assert v["legal"] == (g.legal_actions(seat) if seat is not None else [])
    assert json.loads(json.dumps(g.view(0))) == g.view(0)


def test_the_commitment_depends_on_the_deal():
    a = new_game("coloretto", seats=4, seed=1)
    b = new_game("coloretto", seats=4, seed=1)
    c = new_game("coloretto", seats=4, seed=2)
    assert a.commitment() == b.commitment() != c.commitment()
    assert len(a.commitment()) == 64


def test_colours_are_the_documented_names():
    assert COLOURS == ("orange", "blue", "brown", "yellow", "grey", "green", "pink")


def test_a_finished_game_verifies_from_its_record():
    import random

    from colorclash.verify import verify_record

    g = new_game("coloretto", seats=3, seed="s3cret", options={"scoring": "grey"})
    rng = random.Random(2)
    while not g.over:
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    from colorclash.fairness import log_hash, match_rules

    rules = match_rules("coloretto", "standard", 3, g.options)
    record = json.loads(json.dumps({
        "game": "coloretto", "preset": "standard", "seats": 3, "seed": "s3cret",
        "options": g.options, "commitment": g.commitment(), "actions": g.log,
        "result": g.result, "log_hash_version": 2,
        "log_hash": log_hash(g.commitment(), json.loads(json.dumps(rules)), g.log)}))
    ok, notes = verify_record(record)
    assert ok, notes
    placed = next(a for _, a in record["actions"] if a["type"] == "place")
    placed["row"] = 99
    assert not verify_record(record)[0]
