"""Write src/colorclash/server/lookalikes.json: every character Unicode's confusables
data says is drawn like a plain Latin letter or digit, with that letter (lower case).

The data comes from the ``confusable_homoglyphs`` package (its copy of Unicode's
confusables.txt); the site reads only the small table this writes: 1,400 characters in
17 KB, against the package's 0.9 MB of JSON of every confusable pair (about 7 MB in
memory), of which names need only this. Run after upgrading that
package:

    .venv/bin/pip install confusable-homoglyphs
    .venv/bin/python tools/gen_lookalikes.py
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path

import confusable_homoglyphs

OUT = Path(__file__).resolve().parents[1] / "src/colorclash/server/lookalikes.json"
_LETTER_NAME = re.compile(r"(?:SMALL CAPITAL|MODIFIER LETTER (?:SMALL|CAPITAL)) ([A-Z])$")


# Drawn like Latin letters in common fonts, but not in Unicode's data.
EXTRA = {"Ꮎ": "o", "Ꮜ": "u", "Ⲃ": "b", "ⲃ": "b"}


def latin(c: str) -> str | None:
    if len(c) != 1:
        return None
    if c.isascii():
        return c.lower() if c.isalnum() else None
    m = _LETTER_NAME.search(unicodedata.name(c, ""))
    return m.group(1).lower() if m else None


def main() -> None:
    path = Path(os.path.dirname(confusable_homoglyphs.__file__)) / "confusables.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    table: dict[str, str] = dict(EXTRA)
    changed = True
    while changed:  # also through a look-alike of a look-alike (к ~ ĸ ~ k)
        changed = False
        for ch, glyphs in data.items():
            if len(ch) != 1 or ch.isascii() or ch in table:
                continue
            for g in glyphs:
                letter = latin(g["c"]) or table.get(g["c"])
                if letter:
                    table[ch] = letter
                    changed = True
                    break
    OUT.write_text(json.dumps(dict(sorted(table.items())), ensure_ascii=False, indent=0)
                   + "\n", encoding="utf-8")
    print(f"{len(table)} characters -> {OUT}")


if __name__ == "__main__":
    main()
