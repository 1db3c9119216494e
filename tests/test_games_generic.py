"""What every registered game owes the site, checked the same way for each (issue 15).

Random playouts to the end, determinism from a seed, replay and copies, illegal actions
refused with the game unchanged, the keys the table shell reads in every view, JSON-ready
views and events that never hold the seed, the clock the game asks for, and the game's
definition (seats, presets, options) as the lobby reads it. Each game adds its own rules,
hidden-information and golden tests beside these.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colorclash.engine import GAMES, IllegalAction, new_game, replay

SHELL_KEYS = {"game", "seat", "seats", "phase", "turn", "to_act", "legal", "round", "scores",
              "result", "options"}
KEYS = list(GAMES)


def _seats(key: str, rng: random.Random) -> int:
    d = GAMES[key]
    return rng.randint(d.min_seats, d.max_seats)


def _playout(key: str, seats: int, seed, rng: random.Random, limit: int = 20_000):
    g = new_game(key, seats=seats, seed=seed)
    events = list(g.start_events)
    steps = 0
    while not g.over and steps < limit:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        assert legal, f"{key}: seat {seat} is to act with nothing legal"
        events += g.apply(seat, rng.choice(legal))
        steps += 1
    return g, events


@pytest.mark.parametrize("key", KEYS)
def test_the_definition_is_complete(key):
    d = GAMES[key]
    assert d.key == key and d.name
    assert 2 <= d.min_seats <= d.default_seats <= d.max_seats
    # its Play Now and Quick Match tables are tables it has (else refused when asked for)
    assert d.min_seats <= d.table_for_play_now() <= d.max_seats
    assert d.min_seats <= d.table_for_quick_match() <= d.max_seats
    assert d.default_preset in d.presets
    for preset, options in d.presets.items():
        names = [o.name for o in options]
        assert "clock" in names, f"{key}/{preset}: the room's turn clock is an option"
        for o in options:
            assert o.default in o.choices
        g = new_game(key, preset=preset, seats=d.min_seats, seed=1,
                     options={o.name: o.default for o in options})
        assert not g.over
    public = json.loads(json.dumps(d.public()))
    assert public["key"] == key and public["presets"]


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**9), pick=st.integers(0, 10**9))
def test_random_playouts_end_and_replay_exactly(key, seed, pick):
    rng = random.Random(pick)
    seats = _seats(key, rng)
    g, events = _playout(key, seats, seed, rng)
    assert g.over, f"{key} did not end"
    assert g.to_act == [] and g.timer() is None
    result = g.result
    assert len(result["scores"]) == seats
    assert result["winners"] and all(0 <= w < seats for w in result["winners"])
    again = replay(key, actions=g.log, seats=seats, seed=seed)
    for s in [None, *range(seats)]:
        assert again.view(s) == g.view(s)
    # the seed is revealed with the end of the game, never before
    before_end = [e for e in events if e.get("type") != "game_over"]
    assert f'"seed": {seed}' not in json.dumps(before_end)
    for e in events:
        assert isinstance(e.get("type"), str)


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**9), pick=st.integers(0, 10**9))
def test_views_serve_the_shell_and_illegal_actions_change_nothing(key, seed, pick):
    rng = random.Random(pick)
    seats = _seats(key, rng)
    g = new_game(key, seats=seats, seed=f"secret-{seed}")
    commitment = g.commitment()
    for _ in range(rng.randint(0, 30)):
        if g.over:
            break
        for s in range(seats):
            v = g.view(s)
            assert SHELL_KEYS <= set(v), f"{key}: view lacks {SHELL_KEYS - set(v)}"
            assert v["game"] == key and v["seat"] == s and v["seats"] == seats
            assert v["legal"] == g.legal_actions(s)
            assert (s in g.to_act) == bool(v["legal"]) or v["phase"] == "round_over"
            text = json.dumps(v)
            assert f"secret-{seed}" not in text
        timer = g.timer()
        assert timer is None or timer["kind"] in ("turn", "next") or "seconds" in timer
        seat = g.to_act[0]
        before = [json.dumps(g.view(s), sort_keys=True) for s in [None, *range(seats)]]
        log = list(g.log)
        # (a legal action with a field its type does not have is refused too: the log
        # would keep it forever)
        for bad in ({"type": "no-such-move"}, {"nope": 1}, "draw",
                    {**g.legal_actions(seat)[0], "extra": [1]},
                    {**g.legal_actions(seat)[0], 7: "x"}):
            with pytest.raises(IllegalAction) as exc:
                g.apply(seat, bad)
            assert str(exc.value)
            assert [json.dumps(g.view(s), sort_keys=True) for s in [None, *range(seats)]] \
                == before
            assert g.log == log
        others = [s for s in range(seats) if s not in g.to_act]
        if others:
            with pytest.raises(IllegalAction):
                g.apply(others[0], g.legal_actions(seat)[0])
        copy = g.copy()
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        assert copy.log == log  # a copy does not follow the original
    assert g.commitment() == commitment


@pytest.mark.parametrize("key", KEYS)
def test_same_seed_same_game_other_seed_other_deal(key):
    d = GAMES[key]
    a = new_game(key, seats=d.default_seats, seed=11)
    b = new_game(key, seats=d.default_seats, seed=11)
    c = new_game(key, seats=d.default_seats, seed=12)
    assert a.commitment() == b.commitment() != c.commitment()
    assert json.dumps(a.view(0)) == json.dumps(b.view(0))
    with pytest.raises(ValueError):
        new_game(key, seats=d.max_seats + 1, seed=1)
    with pytest.raises(ValueError):
        new_game(key, seats=d.min_seats - 1, seed=1)
    with pytest.raises(ValueError):
        new_game(key, seats=d.default_seats, seed=1, options={"no-such-option": 1})


def _vandalize(value) -> None:
    """Change every list and dict inside ``value`` in place."""
    if isinstance(value, dict):
        for v in value.values():
            _vandalize(v)
        value["vandal"] = True
    elif isinstance(value, list):
        for v in value:
            _vandalize(v)
        value.append("vandal")


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**9), pick=st.integers(0, 10**9))
def test_what_a_game_hands_out_is_the_callers_to_change(key, seed, pick):
    """Views, events, start events and the result are the caller's: changing them (a bot,
    the server) never changes the game, which plays on exactly like an untouched twin."""
    rng = random.Random(pick)
    seats = _seats(key, rng)
    g, twin = new_game(key, seats=seats, seed=seed), new_game(key, seats=seats, seed=seed)
    _vandalize(g.start_events)
    while not g.over:
        seat = g.to_act[0]
        action = rng.choice(g.legal_actions(seat))
        for s in [None, *range(seats)]:
            _vandalize(g.view(s))
        _vandalize(g.apply(seat, dict(action)))
        twin.apply(seat, dict(action))
        _vandalize(g.result)
    assert g.result == twin.result and g.start_events == twin.start_events
    for s in [None, *range(seats)]:
        assert g.view(s) == twin.view(s)
    assert g.log == twin.log


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("kind", [["draw"], {"a": 1}, 3, None, True])
def test_an_action_type_that_is_not_a_word_is_refused(key, kind):
    g = new_game(key, seats=GAMES[key].min_seats, seed=5)
    seat = g.to_act[0]
    before = json.dumps(g.view(None), sort_keys=True)
    with pytest.raises(IllegalAction):
        g.apply(seat, {"type": kind})
    assert json.dumps(g.view(None), sort_keys=True) == before


def _random_positions(key: str, rng: random.Random):
    """The positions of three random games of ``key`` at its most seats (200 actions at
    most each): (game, seat to act, its legal actions). After each, a random legal action
    is played, and the log keeps it exactly as listed."""
    for seed in range(3):
        g = new_game(key, seats=GAMES[key].max_seats, seed=seed)
        for _ in range(200):
            if g.over:
                break
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            yield g, seat, legal
            choice = rng.choice(legal)
            g.apply(seat, choice)
            assert g.log[-1] == (seat, choice)


@pytest.mark.parametrize("key", KEYS)
def test_every_legal_action_is_taken_as_listed_and_refused_with_a_field_more(key):
    """What legal_actions lists is accepted as it is (its fields are the action's
    fields); the same action with one field more is refused, naming the field."""
    for g, seat, legal in _random_positions(key, random.Random(7)):
        for action in legal:
            with pytest.raises(IllegalAction, match="'why'"):
                g.apply(seat, {**action, "why": "because"})


@pytest.mark.parametrize("key", KEYS)
def test_an_action_in_a_mapping_of_another_class_is_the_action_it_holds(key):
    """contract section 3: an action is a dict; Color Clash refused an OrderedDict of a
    legal play as "unknown action type 'play'" (the rules review). Every game takes it
    as the plain dict it holds, and logs a plain dict."""
    from collections import OrderedDict

    g, twin = (new_game(key, seats=GAMES[key].max_seats, seed=3) for _ in range(2))
    for action in g.legal_actions(g.to_act[0])[:1]:
        seat = g.to_act[0]
        g.apply(seat, OrderedDict(action))
        twin.apply(seat, dict(action))
    assert g.log == twin.log and g.log[-1][1].__class__ is dict
    assert g.view(None) == twin.view(None)


@pytest.mark.parametrize("key", KEYS)
def test_a_field_only_other_actions_of_its_type_have_is_refused(key):
    """``{"type": "play", "card": "B1", "color": "G"}``: a field that other legal actions
    of its type carry (a wild's colour) added to one that has none is refused, with the
    game unchanged; the engine would otherwise keep it in the log and the record."""
    tried = 0
    for g, seat, legal in _random_positions(key, random.Random(11)):
        for action in legal:
            for other in legal:
                extra = {k: v for k, v in other.items() if k not in action}
                if other["type"] != action["type"] or not extra:
                    continue
                before = json.dumps(g.view(None), sort_keys=True)
                with pytest.raises(IllegalAction):
                    g.apply(seat, {**action, **extra})
                assert json.dumps(g.view(None), sort_keys=True) == before
                tried += 1
    if key == "color-clash":
        assert tried > 0, "a coloured card beside a wild must have been tried"


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("seat", [True, False, 1.0, "0", -1, 99])
def test_a_seat_is_a_whole_number_of_the_table(key, seat):
    """True == 1 in Python, but a bool (or 1.0, or "0") is not a seat: every game refuses
    it alike, in apply, legal_actions and view (legal_actions answered [] to a seat not at
    the table, a bot's off-by-one read as "nothing to do": a contract review); a
    spectator, None, has nothing to do."""
    g = new_game(key, seats=GAMES[key].min_seats, seed=5)
    before = json.dumps(g.view(None), sort_keys=True)
    action = g.legal_actions(g.to_act[0])[0]
    with pytest.raises(IllegalAction):
        g.apply(seat, action)
    with pytest.raises(ValueError, match="there is no seat"):
        g.legal_actions(seat)
    assert g.legal_actions(None) == []
    with pytest.raises(ValueError):
        g.view(seat)
    assert json.dumps(g.view(None), sort_keys=True) == before


@pytest.mark.parametrize(("key", "preset"), [(k, p) for k in KEYS for p in sorted(GAMES[k].presets)])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**9), pick=st.integers(0, 10**9))
def test_views_of_all_seats_are_each_seats_view(key, preset, seed, pick):
    """``views(seats)``, what the server sends after every action (Color Clash makes the
    shared part once), is ``view(seat)`` for each seat at every moment of a game, in every
    preset; a key replaced or popped in one of them (the server does both) changes neither
    the others nor the game."""
    rng = random.Random(pick)
    seats = _seats(key, rng)
    g = new_game(key, preset=preset, seats=seats, seed=seed)
    order = list(range(seats))
    while not g.over:
        rng.shuffle(order)
        views = g.views(order)
        assert views == [g.view(s) for s in order]
        assert [list(v) for v in views] == [list(g.view(s)) for s in order]  # key order too
        views[0]["legal"] = []
        views[0].pop("options", None)
        assert views[1:] == [g.view(s) for s in order[1:]]
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert g.views(order) == [g.view(s) for s in order]
    with pytest.raises(ValueError):
        g.views([0, True])


@pytest.mark.parametrize("key", KEYS)
def test_copy_and_deepcopy_give_an_independent_game_in_the_same_state(key):
    """``copy.deepcopy`` of a game failed on its seeded random stream (a contract review);
    both library copies are the game's own ``copy()``: same views and future, and playing
    one leaves the other as it was."""
    import copy

    n = GAMES[key].min_seats
    g, _ = _playout(key, n, 11, random.Random(3), limit=5)
    seats = [None, *range(n)]
    for twin in (copy.deepcopy(g), copy.copy(g)):
        assert twin is not g
        assert [twin.view(s) for s in seats] == [g.view(s) for s in seats]
        before = [g.view(s) for s in seats]
        seat = twin.to_act[0]
        action = twin.legal_actions(seat)[0]
        assert twin.apply(seat, action) == g.copy().apply(seat, action)  # the same future
        assert [g.view(s) for s in seats] == before
    pair = copy.deepcopy([g, g])  # the game held twice: one twin, held twice
    assert pair[0] is pair[1] and pair[0] is not g
