"""The browser says Quick Match's animal names in its language (web/i18n/names/): every
adjective and animal the server draws from has its words in every catalog, each word
once (two names never read the same)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from colorclash.server.names import ADJECTIVES, ANIMALS

NAMES = Path(__file__).resolve().parents[1] / "src" / "colorclash" / "web" / "i18n" / "names"


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_every_word_of_the_servers_names_is_in_the_catalog_once(lang):
    cat = json.loads((NAMES / f"{lang}.json").read_text(encoding="utf-8"))
    adjectives = [cat[f"names.adj.{a}"] for a in ADJECTIVES]
    animals = [cat[f"names.animal.{a}"] for a in ANIMALS]
    assert len(set(adjectives)) == len(ADJECTIVES) and len(set(animals)) == len(ANIMALS)
    assert set(cat) == ({"names.pattern"} | {f"names.adj.{a}" for a in ADJECTIVES}
                        | {f"names.animal.{a}" for a in ANIMALS})
    assert "{adj}" in cat["names.pattern"] and "{animal}" in cat["names.pattern"]
