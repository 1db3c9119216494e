"""Every rule of spec/rainbow.md, from exact positions built with ``setup=``.

A card in a setup is ``[front, back]`` in a hand (front: the face its holder sees),
``[up, down]`` on the table and in piles, ``[front, back]`` in the deck (draw order, first
drawn first). The cards must exist in the frozen deck (rainbow_deck.py).
"""

from __future__ import annotations

import json

import pytest

from colorclash.engine import GAMES, IllegalAction, new_game, replay
from colorclash.engine.rainbow import DEFINITION, Rainbow, check_row

# A deck that is long enough not to end the game in these tests (real cards).
DECK = [["red", "green"], ["red", "indigo"], ["red", "violet"], ["orange", "indigo"],
        ["yellow", "indigo"], ["yellow", "violet"], ["yellow", "violet"], ["green", "violet"],
        ["blue", "violet"], ["indigo", "violet"]]


def game(**setup):
    setup.setdefault("deck", DECK)
    return new_game("rainbow", seats=2, seed=0, setup=setup)


def play(hand, turned=False):
    return {"type": "play", "hand": hand, "turned": turned}


def flip(place):
    return {"type": "flip", "place": place}


END = {"type": "end"}


def types(events):
    return [e["type"] for e in events]


def state(g):
    return json.dumps({"hands": g.hands, "table": g.table, "deck": g.deck, "piles": g.piles,
                       "turn": g.turn, "phase": g.phase, "played": g.played,
                       "log": g.log, "views": [g.view(0), g.view(1), g.view(None)],
                       "result": g.result, "round": g.round_no, "turn_no": g.turn_no})


# --------------------------------------------------------------------- registry, deal


def test_registered_with_its_definition():
    d = GAMES["rainbow"]
    assert d is DEFINITION
    assert (d.name, d.min_seats, d.max_seats, d.default_seats, d.quick_match_seats) == (
        "Rainbow", 2, 2, 2, 2)
    assert list(d.presets) == ["standard"] and d.default_preset == "standard"
    (clock,) = d.presets["standard"]
    assert clock.name == "clock" and clock.default == 30 and 30 in clock.choices
    assert d.server_actions == frozenset()


def test_options_are_checked_and_shown():
    g = new_game("rainbow", seats=2, seed=1, options={"clock": 60})
    assert g.view(0)["options"] == {"clock": 60}
    assert new_game("rainbow", seats=2, seed=1).view(1)["options"] == {"clock": 30}
    with pytest.raises(ValueError, match="clock"):
        new_game("rainbow", seats=2, seed=1, options={"clock": 7})
    with pytest.raises(ValueError, match="no option"):
        new_game("rainbow", seats=2, seed=1, options={"rounds": 3})


def test_two_seats_only():
    with pytest.raises(ValueError, match="2 seats"):
        new_game("rainbow", seats=3, seed=1)


def test_the_deal_gives_three_cards_each_from_57():
    g = new_game("rainbow", seats=2, seed=5)
    assert [len(h) for h in g.hands] == [3, 3]
    assert len(g.deck) == 51 and len(g.all_cards()) == 57
    assert g.phase == "play" and g.to_act == [g.turn] and g.round_no == 1
    assert g.start_events == [{"type": "deal", "round": 1, "first": g.turn,
                               "hand_counts": [3, 3], "deck": 51}]
    firsts = {new_game("rainbow", seats=2, seed=s).turn for s in range(20)}
    assert firsts == {0, 1}  # who starts comes from the seed


# --------------------------------------------------------------------- playing cards


def test_play_as_seen_shows_the_front_and_turned_shows_the_back():
    g = game(hands=[[["red", "black"], ["blue", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    ev = g.apply(0, play(0))
    assert ev == [{"type": "play", "seat": 0, "hand": 0, "place": 0, "face": "red",
                   "turned": False}]
    assert g.table == [("red", "black")]
    g.apply(0, flip(0))
    ev = g.apply(0, play(0, turned=True))  # the blue/white card, turned: white shows
    assert ev[0] == {"type": "play", "seat": 0, "hand": 0, "place": 1, "face": "white",
                     "turned": True}
    assert g.table[1] == ("white", "blue")
    assert g.view(1)["table"] == ["black", "white", None, None, None, None]


def test_a_play_without_turned_is_the_listed_play_as_seen():
    """``turned`` may be left out (docs/engine.md): the play is the listed one with
    ``turned`` false, and its event says so; a ``turned`` that is not a bool is refused."""
    g = game(hands=[[["red", "black"], ["blue", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    assert {"type": "play", "hand": 0, "turned": False} in g.legal_actions(0)
    with pytest.raises(IllegalAction, match="turned must be true or false"):
        g.apply(0, {"type": "play", "hand": 0, "turned": 0})
    ev = g.apply(0, {"type": "play", "hand": 0})
    assert ev[0]["face"] == "red" and ev[0]["turned"] is False


def test_cards_go_to_the_next_free_place():
    g = game(table=[["red", "orange"], ["yellow", "green"]],
             hands=[[["blue", "white"], ["indigo", "white"], ["violet", "black"]],
                    [["orange", "white"]] * 3])
    events = g.apply(0, play(1))
    assert events[0]["place"] == 2 and g.table[2] == ("indigo", "white")
    assert g.view(0)["next_place"] == 3


def test_after_a_card_the_player_may_turn_one_over_or_end():
    g = game(table=[["red", "orange"]],
             hands=[[["blue", "white"], ["indigo", "white"], ["violet", "black"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(0))
    assert g.phase == "continue"
    assert g.legal_actions(0) == [flip(0), flip(1), END]
    assert g.legal_actions(1) == []


def test_a_turned_card_must_be_followed_by_a_play():
    g = game(hands=[[["blue", "white"], ["indigo", "white"], ["violet", "black"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(0))
    g.apply(0, flip(0))  # the card just played may be turned over
    assert g.table == [("white", "blue")]
    assert g.phase == "play"
    assert g.legal_actions(0) == [play(0), play(0, True), play(1), play(1, True)]
    before = state(g)
    with pytest.raises(IllegalAction, match="play a card now"):
        g.apply(0, END)
    with pytest.raises(IllegalAction, match="turned a card over: play a card now"):
        g.apply(0, flip(0))
    assert state(g) == before
    assert g.view(0)["turn_state"] == {"played": 1, "max_cards": 3, "flip_pending": True,
                                       "placed": [0], "flipped": [0]}


def test_the_view_says_what_the_check_of_the_row_would_give_now():
    """Before an End turn that loses the round the table warns the player: the view
    carries the check of the row as it shows (the engine's words, not the client's)."""
    g = game(table=[["red", "orange"], ["blue", "indigo"]],
             hands=[[["yellow", "white"], ["red", "blue"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    assert g.view(0)["check"] == {"kind": "pass", "places": []}
    g.apply(0, play(0))  # yellow: still fine if the turn ended here
    assert g.view(0)["check"] == g.view(1)["check"] == {"kind": "pass", "places": []}
    g.apply(0, flip(2))  # white shows where the yellow was
    g.apply(0, play(0))  # red beside the red: an error if the turn ended now
    assert g.view(0)["check"] == {"kind": "error", "places": [0, 3]}
    assert g.view(None)["check"] == dict(zip(
        ("kind", "places"), check_row([f for f in g.view(None)["table"] if f]), strict=True))
    before = state(g)
    g.view(0)
    assert state(g) == before  # (a view changes nothing)


def test_flip_before_the_first_card_is_refused():
    g = game(hands=[[["green", "white"]] * 3, [["orange", "white"]] * 3])
    before = state(g)
    with pytest.raises(IllegalAction, match="play a card first"):
        g.apply(0, flip(0))
    with pytest.raises(IllegalAction, match="play a card first"):
        g.apply(0, END)
    assert state(g) == before


def test_the_turn_ends_by_itself_after_the_third_card():
    g = game(hands=[[["red", "orange"], ["blue", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(0))   # red
    g.apply(0, flip(0))   # orange
    g.apply(0, play(0))   # blue
    g.apply(0, flip(1))   # white
    events = g.apply(0, play(0))  # green: third card
    assert types(events) == ["play", "end", "pass", "draw"]
    assert events[1] == {"type": "end", "seat": 0, "reason": "three_cards"}
    assert g.turn == 1 and g.phase == "play"
    assert [f for f, _ in g.table] == ["orange", "white", "green"]


def test_the_turn_ends_by_itself_when_the_row_is_full():
    g = game(table=[["red", "orange"], ["orange", "blue"], ["yellow", "green"],
                    ["green", "indigo"], ["blue", "indigo"]],
             hands=[[["violet", "black"], ["red", "black"], ["white", "black"]],
                    [["orange", "white"]] * 3])
    events = g.apply(0, play(0))
    assert types(events)[:3] == ["play", "end", "rainbow"]
    assert events[1]["reason"] == "table_full"


def test_end_stops_the_turn_and_the_turn_passes():
    g = game(hands=[[["red", "black"], ["blue", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(2))
    events = g.apply(0, END)
    assert events == [{"type": "end", "seat": 0, "reason": "stopped"},
                      {"type": "pass", "seat": 0, "next": 1},
                      {"type": "draw", "seat": 0, "count": 1, "deck": len(DECK) - 1}]
    assert g.turn == 1 and g.round_no == 1
    assert g.hands[0][-1] == ("red", "green")  # refilled from the deck's first card
    assert len(g.hands[0]) == 3


# --------------------------------------------------------------------- the check


def test_shadow_loses_the_round_and_the_player_starts_the_next():
    g = game(table=[["red", "orange"], ["orange", "blue"]],
             hands=[[["black", "white"], ["blue", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3],
             piles=[[], [["yellow", "green"]]])
    g.apply(0, play(0))
    events = g.apply(0, END)
    assert types(events) == ["end", "shadow", "draw", "round"]
    shadow = events[1]
    assert shadow == {"type": "shadow", "round": 1, "seat": 0, "winner": 1, "places": [2],
                      "faces": ["red", "orange", "black"], "cards": 3, "scores": [0, 4]}
    assert g.table == [] and len(g.piles[1]) == 4
    assert events[3] == {"type": "round", "round": 2, "first": 0}
    assert g.turn == 0 and g.round_no == 2 and g.starter == 0
    assert g.view(1)["last_round"]["kind"] == "shadow"
    assert g.view(1)["scores"] == [0, 4]
    # the round is seat 1's, won by seat 0's Shadow: both views say so
    won = [{"rainbow": 0, "shadow": 0, "error": 0}, {"rainbow": 0, "shadow": 1, "error": 0}]
    assert g.view(0)["rounds_won"] == g.view(1)["rounds_won"] == won


def test_a_black_face_covered_again_before_the_end_is_no_shadow():
    g = game(hands=[[["black", "white"], ["blue", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(0))      # black shows
    g.apply(0, flip(0))      # white shows
    events = g.apply(0, play(0))
    events += g.apply(0, END)
    assert "shadow" not in types(events) and "pass" in types(events)


def test_every_black_place_is_named():
    g = game(table=[["red", "orange"]],
             hands=[[["black", "white"], ["black", "red"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(0))
    g.apply(0, flip(0))   # orange
    events = g.apply(0, play(0))  # black again
    events += g.apply(0, END)
    shadow = next(e for e in events if e["type"] == "shadow")
    assert shadow["places"] == [1, 2]


def test_error_two_faces_of_one_colour_lose():
    g = game(table=[["red", "orange"], ["blue", "indigo"]],
             hands=[[["red", "blue"], ["yellow", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(0))
    events = g.apply(0, END)
    error = events[1]
    assert error["type"] == "error" and error["winner"] == 1 and error["places"] == [0, 2]
    assert g.turn == 0 and len(g.piles[1]) == 3
    assert g.view(0)["rounds_won"][1] == {"rainbow": 0, "shadow": 0, "error": 1}


def test_shadow_is_checked_before_error():
    assert check_row(["red", "red", "black"]) == ("shadow", [2])
    assert check_row(["red", "blue", "red", "blue"]) == ("error", [0, 1, 2, 3])
    assert check_row(["red", "white", "white"]) == ("pass", [])


def test_white_twice_is_no_error():
    g = game(table=[["white", "yellow"]],
             hands=[[["white", "black"], ["yellow", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(0))
    events = g.apply(0, END)
    assert types(events) == ["end", "pass", "draw"]


def test_rainbow_wins_the_round_and_the_opponent_starts():
    g = game(table=[["red", "orange"], ["white", "indigo"], ["yellow", "green"],
                    ["green", "indigo"]],
             hands=[[["blue", "indigo"], ["violet", "black"], ["white", "black"]],
                    [["orange", "white"]] * 3],
             piles=[[["red", "blue"]], []])
    g.apply(0, play(0))      # blue
    g.apply(0, flip(0))      # red -> orange
    events = g.apply(0, play(0))  # violet: six places, six colours with white standing in
    assert types(events) == ["play", "end", "rainbow", "draw", "round"]
    rainbow = events[2]
    assert rainbow["winner"] == 0 and rainbow["seat"] == 0
    assert rainbow["places"] == [0, 1, 2, 3, 4, 5]
    assert rainbow["faces"] == ["orange", "white", "yellow", "green", "blue", "violet"]
    assert g.scores() == [7, 0]
    assert g.turn == 1 and g.starter == 1 and g.round_no == 2
    assert g.view(1)["rounds_won"] == [{"rainbow": 1, "shadow": 0, "error": 0},
                                       {"rainbow": 0, "shadow": 0, "error": 0}]


def test_five_different_colours_are_no_rainbow():
    assert check_row(["red", "orange", "yellow", "green", "blue"]) == ("pass", [])
    assert check_row(["white"] * 6) == ("rainbow", list(range(6)))
    assert check_row(["red", "orange", "yellow", "green", "blue", "blue"])[0] == "error"


def test_a_round_ending_early_in_the_turn_still_refills():
    g = game(table=[["red", "orange"]],
             hands=[[["red", "blue"], ["yellow", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(0))
    events = g.apply(0, END)
    assert events[2] == {"type": "draw", "seat": 0, "count": 1, "deck": len(DECK) - 1}
    assert len(g.hands[0]) == 3


def test_the_refill_takes_as_many_cards_as_were_played():
    g = game(hands=[[["red", "orange"], ["blue", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(0))
    g.apply(0, flip(0))
    g.apply(0, play(0))
    events = g.apply(0, END)
    assert events[-1] == {"type": "draw", "seat": 0, "count": 2, "deck": len(DECK) - 2}
    assert g.hands[0] == [("green", "violet"), ("red", "green"), ("red", "indigo")]


# --------------------------------------------------------------------- the end


def test_the_game_ends_when_the_player_cannot_refill():
    g = game(hands=[[["red", "orange"], ["blue", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3],
             deck=[["yellow", "violet"]], piles=[[["red", "blue"]], []])
    g.apply(0, play(0))
    g.apply(0, flip(0))
    g.apply(0, play(0))
    events = g.apply(0, END)
    assert types(events) == ["end", "pass", "draw", "game_over"]
    assert events[2] == {"type": "draw", "seat": 0, "count": 1, "deck": 0}
    assert events[3]["result"] == {"scores": [1, 0], "winners": [0], "draw": False}
    assert g.over and g.to_act == [] and g.timer() is None
    assert g.view(0)["phase"] == "game_over" and g.view(0)["turn"] is None
    assert g.view(0)["legal"] == [] and g.view(0)["result"] == g.result
    assert len(g.table) == 2  # the unfinished round's cards score for nobody
    with pytest.raises(IllegalAction, match="over"):
        g.apply(1, play(0))


def test_an_exact_refill_emptying_the_deck_lets_the_game_go_on():
    g = game(hands=[[["red", "orange"], ["blue", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3],
             deck=[["yellow", "violet"]])
    g.apply(0, play(0))
    g.apply(0, END)
    assert not g.over and g.turn == 1 and len(g.deck) == 0
    g.apply(1, play(0))
    events = g.apply(1, END)
    assert events[-1]["type"] == "game_over"
    assert g.result == {"scores": [0, 0], "winners": [0, 1], "draw": True}


def test_equal_piles_are_a_draw_and_more_cards_win():
    g = game(hands=[[["red", "orange"]] * 3, [["orange", "white"]] * 3], deck=[],
             piles=[[["red", "blue"]], [["red", "blue"]]])
    g.apply(0, play(0))
    g.apply(0, END)
    assert g.result == {"scores": [1, 1], "winners": [0, 1], "draw": True}
    g = game(hands=[[["red", "orange"]] * 3, [["orange", "white"]] * 3], deck=[],
             piles=[[], [["red", "blue"]]])
    g.apply(0, play(0))
    g.apply(0, END)
    assert g.result == {"scores": [0, 1], "winners": [1], "draw": False}


def test_a_round_won_on_the_last_turn_counts():
    g = game(table=[["red", "orange"]],
             hands=[[["red", "blue"], ["yellow", "white"], ["green", "violet"]],
                    [["orange", "white"]] * 3], deck=[])
    g.apply(0, play(0))
    events = g.apply(0, END)
    assert types(events) == ["end", "error", "draw", "game_over"]
    assert g.result["scores"] == [0, 2] and g.result["winners"] == [1]


# --------------------------------------------------------------------- refusals


@pytest.mark.parametrize("seat, action, message", [
    (1, play(0), "it is seat 0's turn, not seat 1's"),
    (0, {"type": "draw"}, "unknown action"),
    (0, "play", "a dict"),
    (0, play(3), "hand must be a number from 0 to 2: there are 3 cards in your hand"),
    (0, play(-1), "from 0 to 2"),
    (0, {"type": "play", "hand": True}, "from 0 to 2"),
    (0, {"type": "play", "hand": "0"}, "from 0 to 2"),
    (0, {"type": "play", "hand": 0, "turned": "yes"}, "true or false"),
])
def test_illegal_actions_are_refused_and_change_nothing(seat, action, message):
    g = game(hands=[[["red", "orange"]] * 3, [["orange", "white"]] * 3])
    before = state(g)
    with pytest.raises(IllegalAction, match=message):
        g.apply(seat, action)
    assert state(g) == before


def test_bad_flip_places_are_refused():
    g = game(table=[["red", "orange"]], hands=[[["green", "white"]] * 3,
                                               [["orange", "white"]] * 3])
    g.apply(0, play(0))
    before = state(g)
    for bad in (2, -1, None, True, "0"):
        with pytest.raises(IllegalAction, match="place"):
            g.apply(0, flip(bad))
    assert state(g) == before
    g = game(hands=[[["red", "orange"]] * 3, [["orange", "white"]] * 3])
    g.apply(0, play(0))
    with pytest.raises(IllegalAction, match="place must be 0: there is one card on the table"):
        g.apply(0, flip(3))


# --------------------------------------------------------------------- views, timer


def test_views_show_own_fronts_and_the_opponents_backs():
    g = game(table=[["red", "black"]],
             hands=[[["blue", "white"], ["indigo", "white"], ["violet", "black"]],
                    [["orange", "white"], ["green", "black"], ["yellow", "indigo"]]],
             piles=[[], [["orange", "blue"]]])
    v0, v1, spectator = g.view(0), g.view(1), g.view(None)
    assert v0["hand"] == ["blue", "indigo", "violet"]
    assert v0["hands"][1] == {"seat": 1, "count": 3, "side": "back",
                              "faces": ["white", "black", "indigo"]}
    assert v1["hand"] == ["orange", "green", "yellow"]
    assert v1["hands"][0]["faces"] == ["white", "white", "black"]
    assert spectator["hand"] == [] and spectator["legal"] == []
    assert all(h["faces"] is None for h in spectator["hands"])
    for v in (v0, v1, spectator):
        assert v["table"] == ["red", None, None, None, None, None]
        assert v["deck_count"] == len(DECK)
        assert v["piles"][1] == {"seat": 1, "count": 1, "faces": ["orange"]}
        assert v["scores"] == [0, 1]
        for key in ("game", "seat", "seats", "phase", "turn", "to_act", "legal", "round",
                    "scores", "result", "options"):
            assert key in v
    assert v0["legal"] == g.legal_actions(0) and v1["legal"] == []
    for v in (v1, spectator):  # the pile card's face underneath
        assert "blue" not in json.dumps(v)


def test_views_never_name_the_deck_or_a_face_underneath():
    g = game(table=[["red", "black"], ["orange", "black"]],
             hands=[[["green", "white"]] * 3, [["yellow", "white"]] * 3],
             deck=[["violet", "black"]])
    for seat in (0, 1, None):
        text = json.dumps(g.view(seat))
        assert "black" not in text and "violet" not in text


def test_the_timer_names_the_turn_not_the_action():
    g = game(hands=[[["green", "white"]] * 3, [["yellow", "white"]] * 3])
    first = g.timer()
    assert first["kind"] == "turn" and first["seat"] == 0
    g.apply(0, play(0))
    g.apply(0, flip(0))
    assert g.timer() == first
    g.apply(0, play(0))
    g.apply(0, END)
    second = g.timer()
    assert second["seat"] == 1 and second["key"] != first["key"]


def test_copy_is_independent():
    g = new_game("rainbow", seats=2, seed=3)
    c = g.copy()
    seat = g.turn
    c.apply(seat, c.legal_actions(seat)[0])
    assert g.log == [] and len(g.table) == 0 and len(c.table) == 1
    assert c.hands[seat] != g.hands[seat] or len(c.hands[seat]) != len(g.hands[seat])
    assert g.view(0) != c.view(0)
    c.rounds_won[0]["rainbow"] += 1  # the tallies are the copy's own
    assert g.rounds_won[0]["rainbow"] == 0


def test_commitment_depends_on_seed_and_deal():
    a = new_game("rainbow", seats=2, seed=9).commitment()
    assert a == new_game("rainbow", seats=2, seed=9).commitment()
    assert a != new_game("rainbow", seats=2, seed=10).commitment()
    assert len(a) == 64


def test_replay_rebuilds_the_game():
    g = new_game("rainbow", seats=2, seed=11)
    while not g.over and len(g.log) < 30:
        s = g.turn
        g.apply(s, g.legal_actions(s)[-1])
    again = replay("rainbow", actions=g.log, seats=2, seed=11)
    assert again.view(0) == g.view(0) and again.view(1) == g.view(1)


# --------------------------------------------------------------------- setup=


@pytest.mark.parametrize("setup, message", [
    ({"hands": [[["red", "red"]], []]}, "not a card"),
    ({"hands": [[["red", "pink"]], []]}, "not a card"),
    ({"table": [["white", "black"], ["black", "white"]]}, "2 cards white/black"),
    ({"hands": [[["red", "orange"], ["red", "green"], ["red", "blue"], ["red", "white"]],
                []]}, "at most 3"),
    ({"table": [["red", "orange"]] * 3 + [["blue", "white"]] * 2 + [["green", "white"]]},
     "at most 5"),
    ({"turn": 2}, "turn"),
    ({"played": 3, "table": [["red", "orange"]] * 3}, "played"),
    ({"played": 1}, "played"),
    ({"flip_pending": True}, "flip_pending"),
    ({"colour": "red"}, "unknown setup keys"),
    ({"hands": [[], []], "deck": []}, "no card to play"),
    # the other seat's turn would come with nothing to do, for good (the rules review)
    ({"hands": [[["blue", "red"], ["indigo", "yellow"], ["white", "black"]], []], "turn": 0},
     "the other player has no card"),
    ({"piles": [[]]}, "both seats"),
])
def test_bad_setups_are_refused(setup, message):
    with pytest.raises(ValueError, match=message):
        new_game("rainbow", seats=2, seed=0, setup=setup)


def test_setup_without_a_deck_deals_the_other_cards():
    g = new_game("rainbow", seats=2, seed=0, setup={
        "hands": [[["white", "black"]], [["red", "orange"]]], "turn": 1,
        "table": [["blue", "indigo"]], "played": 1, "round": 4, "starter": 0})
    assert len(g.all_cards()) == 57 and len(g.deck) == 54
    assert g.turn == 1 and g.phase == "continue" and g.round_no == 4 and g.starter == 0
    assert g.view(1)["turn_state"]["placed"] == [0]


def test_setup_without_hands_deals_them_from_the_given_deck():
    g = game(turn=1)
    assert len(g.deck) == len(DECK) - 6
    assert g.hands[1][0] == ("red", "green") and g.hands[0][0] == ("red", "indigo")
    assert g.hands[1][1] == ("red", "violet")


def test_a_game_class_built_directly_works_like_new_game():
    g = Rainbow(seed=4)
    assert g.view(0) == new_game("rainbow", seats=2, seed=4).view(0)


def test_a_card_turned_twice_still_hides_its_face_underneath():
    g = game(table=[["red", "black"]],
             hands=[[["blue", "white"], ["green", "white"], ["indigo", "white"]],
                    [["orange", "white"]] * 3])
    g.apply(0, play(0))
    g.apply(0, flip(0))   # black shows for a moment
    g.apply(0, play(0))
    events = g.apply(0, flip(0))  # red again
    assert events == [{"type": "flip", "seat": 0, "place": 0, "face": "red"}]
    g.apply(0, play(0))
    assert g.table[0] == ("red", "black")
    for seat in (0, 1, None):
        assert "black" not in json.dumps(g.view(seat))
