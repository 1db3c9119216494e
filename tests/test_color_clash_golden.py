"""Golden seeded playthroughs of Color Clash, every preset at 2, 4 and 6 seats: the same
seed and the same choices must always give the same deal, the same events, the same views
and the same result. Two ways of choosing: any legal action (rounds won), and one that
draws, keeps and passes when it may (hands grow, both piles empty, rounds end dead: the
rule of 5.9 that changed with rules version 2).

A change here is a change of the rules or of the protocol. If a log of the older rules
may no longer replay, raise the game's ``rules_version`` and add its row to
docs/engine.md ("Rule changes"), and ``RULES_VERSION`` here; then update the figures, on
purpose (``python tests/test_color_clash_golden.py`` prints them)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from colorclash.engine import new_game
from colorclash.engine.presets import PRESETS

HOARD = ("draw", "keep", "pass")
LIMIT = 20_000


def playthrough(preset: str, seats: int, hoard: bool):
    g = new_game("color-clash", preset=preset, seats=seats, seed=f"golden-{preset}-{seats}")
    rng = random.Random(f"{preset}-{seats}-{hoard}")
    events = list(g.start_events)
    while not g.over and len(g.log) < LIMIT:  # (a rule that never ends a round: figures
        seat = rng.choice(g.to_act)             # that differ, not a test that hangs)
        legal = g.legal_actions(seat)
        held = [a for a in legal if a["type"] in HOARD] if hoard else []
        events += g.apply(seat, rng.choice(held if held and rng.random() < 0.85 else legal))
    return g, events


def digest(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def figures(preset: str, seats: int, hoard: bool) -> list:
    g, events = playthrough(preset, seats, hoard)
    dead = sum(e["type"] == "dead_round" for e in events)
    return [g.commitment()[:16], len(g.log), dead, digest(events),
            digest([g.view(s) for s in range(seats)]), g.result["winners"],
            digest(g.result)]


CASES = [(p, n, h) for p in PRESETS for n in (2, 4, 6) for h in (False, True)]


#: the rules version the figures are of: figures updated without a look at it fail here
RULES_VERSION = 2


def test_the_figures_are_of_the_rules_version_the_game_says():
    from colorclash.engine import GAMES

    assert GAMES["color-clash"].rules_version == RULES_VERSION


@pytest.mark.parametrize(("preset", "seats", "hoard"), CASES)
def test_golden_playthrough(preset, seats, hoard):
    assert figures(preset, seats, hoard) == GOLDEN[f"{preset} {seats} {'hoard' if hoard else 'any'}"]


def test_both_ways_of_choosing_reach_what_they_are_for():
    """Any legal action wins rounds; hoarding ends them dead, in every preset."""
    for preset in PRESETS:
        assert any(GOLDEN[f"{preset} {n} any"][5] for n in (2, 4, 6)), preset
        assert all(GOLDEN[f"{preset} {n} hoard"][2] for n in (2, 4, 6)), preset


GOLDEN = {
    "standard 2 any": ["2938b9f6f22d426f", 970, 0, "fffe4ddfb9544a87", "888e71fd5ff82f83", [1], "9384f5b430833323"],
    "standard 2 hoard": ["2938b9f6f22d426f", 181, 1, "92469ba10de1563c", "cef892e95dcdfca6", [], "ca7a8f091e8c4966"],
    "standard 4 any": ["3f308693dbc11de3", 8607, 0, "8a3f3ab6eda5719c", "4dfe5a3c61697045", [2], "72bb84e91a2f54f9"],
    "standard 4 hoard": ["3f308693dbc11de3", 176, 1, "353986ac58d56a52", "a5bc778ad76e8471", [], "712c7849890b456a"],
    "standard 6 any": ["5ab92dc892bb8ae0", 6803, 0, "01719f12791b3ab8", "59b86f4184762efc", [2], "5a10bed4165dc327"],
    "standard 6 hoard": ["5ab92dc892bb8ae0", 175, 1, "0ccdb49d992b7da0", "8b91f86b9142d3eb", [], "4e30873884fdb6fc"],
    "family 2 any": ["f987a212572f9c70", 5136, 0, "7344977ac2103640", "fdd2707966d5bbc0", [0], "6c1918f8b7b10884"],
    "family 2 hoard": ["f987a212572f9c70", 496, 3, "32845aa5822fd4b7", "4483d4c25834705f", [0, 1], "819309180afd3b5f"],
    "family 4 any": ["4aaa512a327bb119", 6523, 0, "df316b58d8543248", "5939cf6d28e0cf11", [0], "5e515b10541ec321"],
    "family 4 hoard": ["4aaa512a327bb119", 456, 3, "255c507ac70519e3", "5df78ba72bb42c1b", [0, 1, 2, 3], "0e0f42d84ba3527a"],
    "family 6 any": ["e94deaf19c317b73", 7686, 0, "3555c5ac533e7b6b", "0085f0b26abd83fe", [5], "6f95736e0ef3f983"],
    "family 6 hoard": ["e94deaf19c317b73", 465, 3, "69533e6e6eefe788", "11f8b8745d21bc77", [0, 1, 2, 3, 4, 5], "54479c203f80a875"],
    "classic-table 2 any": ["c78fd7f92ffcaf08", 4370, 0, "a05399a02299dd92", "98aca94f56d6c7cb", [0], "8987f7446d6f5457"],
    "classic-table 2 hoard": ["c78fd7f92ffcaf08", 153, 1, "b5ff78691b5c66b2", "f0dea7185d705ae3", [], "ca7a8f091e8c4966"],
    "classic-table 4 any": ["08852abab619b0cc", 1633, 0, "9272f498bcf86e74", "dc470718b1a01df5", [3], "aee02871aea48c2d"],
    "classic-table 4 hoard": ["08852abab619b0cc", 147, 1, "f7154ef39392aece", "52d37936487d0a97", [], "712c7849890b456a"],
    "classic-table 6 any": ["facf0e4c456595a7", 244, 0, "904da99be6d8952a", "59f49f5d8f9fbd05", [0], "98558c1341f609f0"],
    "classic-table 6 hoard": ["facf0e4c456595a7", 138, 1, "de4876e9d68c71ab", "31ba3a5e459b21cc", [], "4e30873884fdb6fc"],
    "siege 2 any": ["489ab9ace371b355", 43, 0, "9e6c8d179a8e93e6", "12103909df33bfbc", [0], "3e77c76d07de7c70"],
    "siege 2 hoard": ["489ab9ace371b355", 185, 1, "1d6c27cb40c007c5", "96a3b8e3c074b313", [], "ca7a8f091e8c4966"],
    "siege 4 any": ["19ae73f4cb920763", 365, 0, "6c05c7503f3e8179", "5d544a4c32e25fa4", [0], "cd27040523eceeac"],
    "siege 4 hoard": ["19ae73f4cb920763", 136, 1, "390149f0cba532ba", "2d5cb87d0fecdc35", [], "712c7849890b456a"],
    "siege 6 any": ["870d8752b20bb9bc", 224, 0, "b41eb89e185bcb39", "f8dfed2b102e2677", [4], "1f8ce925a0ad5b48"],
    "siege 6 hoard": ["870d8752b20bb9bc", 177, 1, "649521414d82c805", "b383aaa9237eebc5", [], "4e30873884fdb6fc"],
    "day-night 2 any": ["14c7aae5e2380fd7", 836, 0, "4f7324afa8f9f020", "be60da9be8a709cb", [1], "abffafe05420368b"],
    "day-night 2 hoard": ["14c7aae5e2380fd7", 143, 1, "a3d22b844df64227", "3a3227fba276e8a0", [], "ca7a8f091e8c4966"],
    "day-night 4 any": ["ab21c3994ecaabfa", 914, 0, "659de07f0085902d", "17523b8c2a86607c", [3], "27e35b46cee6205f"],
    "day-night 4 hoard": ["ab21c3994ecaabfa", 144, 1, "101798b65d8d4299", "4a9e7fe57d07d23f", [], "712c7849890b456a"],
    "day-night 6 any": ["35b31d290a99bf48", 95, 0, "33949547f3eefb4c", "ed446679ce3fb3db", [2], "c62b776c7684aeec"],
    "day-night 6 hoard": ["35b31d290a99bf48", 121, 1, "54d48e485f24d097", "8eb75be796177a03", [], "4e30873884fdb6fc"],
}

if __name__ == "__main__":
    for p, n, h in CASES:
        print(f"    {f'{p} {n} ' + ('hoard' if h else 'any')!r}: {figures(p, n, h)!r},")
