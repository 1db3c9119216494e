"""Counts in words: an English or Spanish string that puts ``{n}`` before a counted noun is
a plural pair (``{"one": ..., "other": ...}``, chosen by ``Intl.PluralRules`` on ``n``),
unless ``n`` can never be 1. A screen reader said "Fuse lit: 1 turns left" and Spanish
"quedan 1 turnos" (a11y review). Turkish counts turns as "hamle", not "el", its word for
a round: the Bomb's fuse read as rounds left (a11y review)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB_I18N = Path(__file__).resolve().parents[1] / "src" / "colorclash" / "web" / "i18n"
CATALOGS = sorted(p for p in WEB_I18N.rglob("*.json") if p.stem in ("en", "es"))

COUNTED = re.compile(r"\{n\}\s(turns|points|cards|players|rounds|seconds|games|rows|"
                     r"turnos|puntos|cartas|jugadores|rondas|segundos|partidas|filas)\b")

#: keys whose ``n`` is never 1: a table's seats (2 or more), a points target (100 or more)
NEVER_ONE = {"home.quickSeats", "home.quickSeatsFull", "home.seatsExact", "room.seatsCap",
             "room.firstTo", "results.howTarget"}


def test_the_catalogs_are_found():
    assert len(CATALOGS) >= 6, CATALOGS


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_count_before_a_counted_noun_is_a_plural_pair(path):
    catalog = json.loads(path.read_text(encoding="utf-8"))
    plain = sorted(key for key, value in catalog.items()
                   if isinstance(value, str) and COUNTED.search(value) and key not in NEVER_ONE)
    assert plain == [], f"{path}: write these as {{'one': ..., 'other': ...}}: {plain}"


@pytest.mark.parametrize("key", ["table.fuseLabel", "table.fuseBlast", "table.midnightIn",
                                 "say.fuse", "say.clockSet", "say.you.clockSet",
                                 "howto.card.bomb", "howto.card.clock"])
def test_turkish_counts_turns_as_moves_not_rounds(key):
    catalog = json.loads((WEB_I18N / "tr.json").read_text(encoding="utf-8"))
    text = catalog[key] if isinstance(catalog[key], str) else catalog[key]["other"]
    assert "hamle" in text and not re.search(r"\bel(lik)?\b", text), (key, text)
