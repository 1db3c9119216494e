"""RLCard's UNO game driven by the benchmark policy: the baseline of ``colorclash bench engine``.

We use RLCard's raw ``rlcard.games.uno.game.UnoGame`` (not the RL ``env`` wrapper, which adds
state encoding and action-id translation on top): ``init_game()`` then ``step(action)`` until
``is_over()``. The legal actions come from the state that ``init_game``/``step`` already return
(``state["legal_actions"]``); asking ``get_legal_actions()`` again would compute them twice.

What RLCard's rules do that matters for the policy (read from ``rlcard/games/uno/round.py``,
RLCard 1.2):

* A Wild or Wild Draw 4 is listed once per colour (``"r-wild"``, ``"g-wild"``, ...), however
  many of them the hand holds; any other card is listed once per copy held (two red 7s give
  ``"r-7"`` twice). The policy therefore picks among the distinct cards first and then,
  for a wild, among the four colours: the same two-stage choice as on our side.
* A Wild Draw 4 is listed only when nothing else (not even a plain Wild) can be played.
* ``"draw"`` is listed only when no card can be played, and it is one step: the drawn card is
  played at once, inside the same ``step``, if it is a wild (random colour; a drawn Wild Draw 4
  then acts as a plain Wild) or has the colour of the top card; otherwise it is kept and the
  turn passes. A drawn card that matches only by number or symbol is kept.
* When the draw pile is empty the discard pile (its top card included) is shuffled back.
  If both are empty RLCard's ``deck.pop()`` raises ``IndexError``; we count such a game as
  ``aborted`` (it did finish, with no winner) so that a rare pathological deal cannot stop
  the benchmark.

This module imports RLCard lazily so that the rest of the benchmark works without it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

#: Safety net against a game that never ends (none was ever observed; RLCard has no dead-round
#: rule). A game cut here counts as aborted.
MAX_STEPS = 20_000

_WILD_TRAITS = ("wild", "wild_draw_4")
_COLOURS = ("r", "g", "b", "y")


@dataclass
class Tally:
    """What one side did in one measured batch of games."""

    games: int = 0
    decisions: int = 0  # calls of the policy (one per turn; see docs/benchmarks.md)
    steps: int = 0  # calls that changed the game state (apply / step)
    draws: int = 0  # decisions that were "draw"
    drawn_played: int = 0  # draws whose card was played at once
    wins: list[int] = field(default_factory=list)  # per seat
    no_winner: int = 0  # games that ended without a winner (dead round)
    aborted: int = 0  # games cut short (engine error or MAX_STEPS)
    seconds: float = 0.0  # wall-clock time of the batch (time.perf_counter)
    cpu_seconds: float = 0.0  # CPU time of the measuring thread over the batch (time.thread_time)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.decisions += other.decisions
        self.steps += other.steps
        self.draws += other.draws
        self.drawn_played += other.drawn_played
        if len(self.wins) < len(other.wins):
            self.wins.extend([0] * (len(other.wins) - len(self.wins)))
        for i, w in enumerate(other.wins):
            self.wins[i] += w
        self.no_winner += other.no_winner
        self.aborted += other.aborted
        self.seconds += other.seconds
        self.cpu_seconds += other.cpu_seconds

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "decisions": self.decisions,
            "steps": self.steps,
            "draws": self.draws,
            "drawn_played": self.drawn_played,
            "wins": list(self.wins),
            "no_winner": self.no_winner,
            "aborted": self.aborted,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
        }


def rlcard_available() -> bool:
    """True when RLCard's UNO game can be imported (the optional ``bench`` extra)."""
    try:
        import rlcard.games.uno.game  # noqa: F401
    except Exception:  # ImportError, or a broken optional dependency of rlcard
        return False
    return True


def rlcard_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("rlcard")
    except Exception:
        return None


def choose(legal: list[str], rand) -> str:
    """The benchmark policy on RLCard's action strings.

    A uniformly random distinct playable card (a wild counts once, whatever its colours),
    then for a wild a uniformly random colour; ``"draw"`` when nothing can be played.
    ``rand`` is a ``random.Random().random`` (the same source as our side's policy).
    """
    if legal[0] == "draw":
        return "draw"
    cards: dict[str, None] = {}  # ordered (a set's order would depend on PYTHONHASHSEED)
    for action in legal:
        trait = action[2:]  # colour letter, "-", trait
        cards[trait if trait in _WILD_TRAITS else action] = None
    distinct = list(cards)
    pick = distinct[int(rand() * len(distinct))]
    if pick in _WILD_TRAITS:
        return _COLOURS[int(rand() * 4)] + "-" + pick
    return pick


def play_games(seeds: range | list[int], policy_seed: int = 0) -> Tally:
    """Play one full two-player UNO game per seed with the benchmark policy; time the batch.

    Each game gets its own ``numpy.random.RandomState(seed)`` (deck, wild colours of drawn
    cards) so a game is reproducible; the policy draws from one ``random.Random``.
    """
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    rand = random.Random(policy_seed).random
    tally = Tally(wins=[0, 0])
    game = UnoGame(num_players=2)
    perf, cpu = time.perf_counter, time.thread_time
    start, start_cpu = perf(), cpu()
    for seed in seeds:
        game.np_random = np.random.RandomState(seed % 2**32)
        state, _player = game.init_game()
        steps = 0
        try:
            while not game.round.is_over:
                legal = state["legal_actions"]
                action = choose(legal, rand)
                tally.decisions += 1
                if action == "draw":
                    tally.draws += 1
                    hand = game.players[game.round.current_player].hand
                    before = len(hand)
                    state, _player = game.step(action)
                    if len(hand) == before:  # the drawn card did not stay: RLCard played it
                        tally.drawn_played += 1
                else:
                    state, _player = game.step(action)
                steps += 1
                if steps >= MAX_STEPS:
                    raise RuntimeError("step limit")
        except (IndexError, RuntimeError):
            tally.aborted += 1
        tally.steps += steps
        tally.games += 1
        winner = game.round.winner
        if winner:
            tally.wins[winner[0]] += 1
        else:
            tally.no_winner += 1
    tally.seconds = perf() - start
    tally.cpu_seconds = cpu() - start_cpu
    return tally
