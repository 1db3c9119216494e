"""Computer players take in the events a server adds to the engine's (its own `deal` with
the match number and commitment, `substitute` for games whose rules do not track it,
`time_up`) without failing: a hard player that raised on the server's `deal` lost its
memory of every deal and had its moves made by the fallback."""

from __future__ import annotations

import pytest

from colorclash.bots import levels, make_bot
from colorclash.engine import GAMES, new_game

SERVER_EVENTS = [
    {"type": "deal", "match": 1, "commitment": "0" * 64},
    {"type": "substitute", "seat": 1, "on": True},
    {"type": "time_up", "seat": 1, "clock": "turn", "by": "computer"},
]


@pytest.mark.parametrize("game", list(GAMES))
def test_every_level_takes_in_the_servers_own_events(game):
    for level in levels(game):
        g = new_game(game, seats=GAMES[game].min_seats, seed=11)
        bots = {s: make_bot(game, level, seed=s, **({"budget_ms": 5} if level == "hard" else {}))
                for s in range(GAMES[game].min_seats)}
        pending = {s: list(SERVER_EVENTS) for s in bots}
        for _ in range(40):
            if g.over:
                break
            seat = g.to_act[0]
            action = bots[seat].act(g.view(seat), pending[seat])  # must not raise
            pending[seat] = []
            assert action in g.legal_actions(seat), (game, level, action)
            events = g.apply(seat, action)
            for s in bots:
                pending[s] += ([SERVER_EVENTS[2]] if s != seat else []) + events
