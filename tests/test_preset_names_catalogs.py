"""Each preset has a name of its own in every language: no name is another's first word
("Classic" beside "Classic Table" read as one and the same rules)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from colorclash.engine.presets import PRESETS

WEB_I18N = Path(__file__).resolve().parents[1] / "src" / "colorclash" / "web" / "i18n"


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_preset_names_are_distinct_and_none_starts_another(lang):
    cat = json.loads((WEB_I18N / f"{lang}.json").read_text(encoding="utf-8"))
    names = {p: cat[f"preset.{p}"].casefold() for p in PRESETS}
    assert len(set(names.values())) == len(names)
    for a, name_a in names.items():
        for b, name_b in names.items():
            assert a == b or not name_b.split()[0] == name_a.split()[0], (a, b, names)
