"""What a person's display name may be, and when two names read the same.

A name is shown beside the computer players' label and beside the other people's names,
so it may neither pass for the label ("Computer", "Computadora", "Bilgisayar", "Bot", in
any letters that look like those) nor be drawn exactly like another name at the table
("Аna" with a Cyrillic А beside "Ana"). Both tests compare a name's *skeleton*: every
letter replaced by the plain Latin letter it is drawn like, accents dropped, case folded.
Which letter a character is drawn like is Unicode's confusables data
(``lookalikes.json``, written from it by ``tools/gen_lookalikes.py``); small capitals and
modifier letters (ᴄᴏᴍᴘ, ʙᴏᴛ, ᵇᵒᵗ) are named so in their Unicode names.

Blank letters (the Hangul fillers, the Braille blank) and long runs of stacked accents
are refused outright: they hide or smear a name.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path

# Words of the computer players' label in the site's languages: a person's name may not
# contain them. Long words are refused anywhere in the name, short ones as whole words.
_COMPUTER_PARTS = ("computer", "computador", "ordenador", "bilgisayar", "komputer")
_COMPUTER_WORDS = ("bot", "bots", "cpu")
# ...and whole names that are another word for one ("Robot", "R0b0t 2"; "Robot Ninja" is a
# person's fun, not the label)
_COMPUTER_NAMES = ("robot", "robots")
# Digits and symbols written for letters ("C0mputer", "B0t", "$ergio" is fine as a
# skeleton, since the comparison is only against the label's words).
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t",
                       "8": "b", "@": "a", "$": "s", "ı": "i"})
# Small capitals and modifier letters (ᴄᴏᴍᴘ, ʙᴏᴛ, ᵇᵒᵗ), the letters in black circles and
# squares (🅒🅞🅜🅟, 🅱🅾🆃) and the regional indicators (🇧🇴🇹, drawn as letters when they make no
# flag) are Latin letters that NFKD leaves alone: their Unicode names say which letter.
_LETTER_NAME = re.compile(r"(?:SMALL CAPITAL|MODIFIER LETTER (?:SMALL|CAPITAL)|"
                          r"LATIN (?:CAPITAL|SMALL) LETTER|INDICATOR SYMBOL LETTER) ([A-Z])$")
# Letters drawn as nothing at all (not format characters, so not caught as such).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
MAX_MARKS = 2  # combining marks on one letter (Vietnamese needs two)
# Marks drawn over or around the letter before them: nonspacing (accents) and enclosing
# (U+20DD, a circle around it; U+0489, U+A670: rings that smear over its neighbours).
_STACKING = frozenset({"Mn", "Me"})
# Single characters drawn many letters wide: the Arabic ligatures of whole phrases
# (U+FDFA-FDFD, "﷽"), the two- and three-em dashes (U+2E3A-2E3B: "⸻" twenty times is
# sixty letters wide) and cuneiform signs, which would run over the table's names; and
# the Cyrillic hundred-thousands and millions signs (U+0488-0489, "A҉"), one mark drawn as
# a ring of strokes over the letters on both sides (attacker review).
_WIDE = ((0xFDFA, 0xFDFD), (0x2E3A, 0x2E3B), (0x12000, 0x1254F), (0x0488, 0x0489))


_TABLE = Path(__file__).with_name("lookalikes.json")


@lru_cache(maxsize=1)
def _lookalikes() -> dict[str, str]:
    return json.loads(_TABLE.read_text(encoding="utf-8"))


# Look-alikes Unicode's confusables leave out: small Greek letters drawn like Latin ones
# ("βοτ" for "bot", where the capital Β is in the data), turned letters read the right
# way up ("Compuʇer"), an o crossed or barred, or Thai's ๏ ("Bøt", "B๏t"), circles
# drawn for an o ("B○t", "B◯t", "B⭕t", "B°t", "B◌t") and a B with a stroke ("Ƀot").
_MORE_LOOKALIKES = {"β": "b", "ε": "e", "ω": "w", "ʇ": "t", "ɐ": "a", "ɔ": "c", "ǝ": "e",
                    "ɹ": "r", "ʌ": "v", "ʍ": "w", "ʎ": "y", "ɯ": "m", "ɥ": "h",
                    "ø": "o", "Ø": "o", "ɵ": "o", "Ɵ": "o", "๏": "o",
                    "○": "o", "◯": "o", "⭕": "o", "°": "o", "◌": "o", "◦": "o", "Ƀ": "b",
                    "ƀ": "b", "ɓ": "b", "Ɓ": "b"}


def _latin_of(ch: str) -> str:
    """The plain Latin letter (or digit) ``ch`` is drawn like, else ``ch`` itself."""
    if ch.isascii():
        return ch
    match = _LETTER_NAME.search(unicodedata.name(ch, ""))
    if match:
        return match.group(1).lower()
    return _lookalikes().get(ch) or _MORE_LOOKALIKES.get(ch, ch)


def _latin(text: Iterable[str]) -> str:
    return "".join(_latin_of(c) for c in text)


def skeleton(name: str) -> str:
    """``name`` as it reads: look-alike letters made Latin, accents dropped, case folded.
    (Letters are mapped before and after the decomposition and the case folding, each of
    which can turn a look-alike into another character: Ϲ into Σ, Β into β.)

    Plain ASCII has look-alikes of its own, which Unicode's confusables fold as well: a
    capital I is drawn as a small l ("LiI" reads "Lil"; a Cyrillic І is an l already),
    "rn" as "m" ("rnia", "Mia"), a zero as an O. The I is folded before the
    decomposition, so that the Turkish İ stays an i with its dot."""
    latin = _latin(name).translate(_ASCII_ALIKE)
    decomposed = unicodedata.normalize("NFKD", latin)
    plain = _latin(c for c in decomposed
                   if not unicodedata.combining(c) and c not in VARIATION_SELECTORS)
    return _latin(plain.casefold()).replace("rn", "m")


def table_forms(name: str) -> frozenset[str]:
    """The forms in which two names at one table are compared: the skeleton, and the
    skeleton of the name in small letters. A capital I is drawn as a small l, so the
    skeleton of "MIA" reads "mla"; but "MIA" is "Mia" in capitals, and in any case the
    two read the same. ("Ali" and "All" stay apart: neither form of one is a form of the
    other.)"""
    return frozenset({skeleton(name), skeleton(name.casefold())})


# Marks that choose how the character before them is drawn (text or emoji style, a
# glyph variant): nonspacing marks of combining class 0, which the accents' test keeps.
# "Ana\ufe0f" and "A\U000e0100na" are drawn as "Ana": four seats all read "Ana".
VARIATION_SELECTORS = frozenset([*map(chr, range(0xFE00, 0xFE10)),
                                 *map(chr, range(0x180B, 0x1810)),
                                 *map(chr, range(0xE0100, 0xE01F0))])
# Capital I and small l (and "rn" and "m", 0 and O) read the same: see skeleton().
_ASCII_ALIKE = str.maketrans({"I": "l", "0": "O", "8": "B"})
# What the label's words are compared in: a skeleton's l may have been an I, and "cl"
# and "vv" are drawn like "d" and "w" ("Computaclor").
_LABEL_FOLD = str.maketrans({"l": "i"})


def _label_form(text: str) -> str:
    for drawn, letter in _DRAWN_LETTERS:
        text = text.replace(drawn, letter)
    return text.translate(_LEET).replace("cl", "d").replace("vv", "w").translate(_LABEL_FOLD)


# Letters drawn with symbols, in the label's words only ("Bo+", "|3ot", "l3ot", the
# German ß for a B: "ßot", which the skeleton reads "ssot") (attacker QA: taken)
_DRAWN_LETTERS = (("|3", "b"), ("l3", "b"), ("+", "t"), ("ss", "b"))


_LABEL_PARTS = tuple(_label_form(p) for p in _COMPUTER_PARTS)
_LABEL_WORDS = tuple(_label_form(w) for w in _COMPUTER_WORDS)
_LABEL_NAMES = tuple(_label_form(w) for w in _COMPUTER_NAMES)


# The computer players' avatar is a robot: a person's name may not wear one.
_ROBOTS = frozenset("\U0001F916")  # 🤖


def _spells_a_word(words: list[str]) -> bool:
    """Whether some run of ``words`` next to each other spells a short word of the label
    ("B o t", "B.o.t", "B ot" as well as "Bot")."""
    return any("".join(words[i:j]) in _LABEL_WORDS
               for i in range(len(words)) for j in range(i + 1, len(words) + 1))


# A name written upside down ("ɹǝʇndɯoƆ" is "Computer" turned): read from its end, each
# letter as it reads turned the right way up (n is a turned u, d a turned p).
_TURNED = str.maketrans({"ɐ": "a", "ɔ": "c", "Ɔ": "c", "ǝ": "e", "Ǝ": "e", "ɟ": "f", "ƃ": "g",
                         "ɥ": "h", "ᴉ": "i", "ɾ": "j", "ʞ": "k", "ɯ": "m", "ɹ": "r", "ʇ": "t",
                         "ʌ": "v", "ʍ": "w", "ʎ": "y", "n": "u", "u": "n", "d": "p",
                         "p": "d", "b": "q", "q": "b"})
_TURNED_ONLY = frozenset("ɐɔƆǝƎɟƃɥᴉɾʞɯɹʇʌʍʎ")


def _readings(name: str) -> list[str]:
    """``name`` as written and, when it has a letter only written upside down, as read
    turned the right way up."""
    if any(c in _TURNED_ONLY for c in name):
        return [name, name[::-1].translate(_TURNED)]
    return [name]


def imitates_computer(name: str) -> bool:
    """True when ``name`` spells the computer players' label (in any of our languages,
    in any case, with accents, look-alike letters or separators in between, digits after
    it: "Bot1", "CPU 01"; upside down too), or wears the computer players' robot."""
    if any(c in _ROBOTS for c in name):
        return True
    return any(any(part in "".join(words) or any(_holds_nearly(part, w) for w in words)
                   for part in _LABEL_PARTS)
               or _spells_a_word(words) or _spells_a_word(bare)
               or "".join(words) in _LABEL_NAMES or "".join(bare) in _LABEL_NAMES
               for words, bare in _label_words(name))


def _holds_nearly(word: str, text: str) -> bool:
    """Whether ``text`` holds ``word`` with at most one letter changed, added or left
    out ("Conputer", "Computr", "Computor": attacker review). Only the label's long
    words are so compared (a letter off "bot" is Bob, Dot or Boy), and within one word of
    a name: across two, real names came near ("Lorena Dorado" holds "orenador", a
    letter off "ordenador": a diff review)."""
    # the fewest edits that make ``word`` of some run of ``text`` (Sellers): a column of
    # the edit table per letter of ``text``, a run free to start at any of them
    column = list(range(len(word) + 1))
    best = column[-1]
    for letter in text:
        row = [0]
        for i, wanted in enumerate(word, 1):
            row.append(min(column[i] + 1, row[i - 1] + 1, column[i - 1] + (wanted != letter)))
        column = row
        best = min(best, column[-1])
    return best <= 1


def _label_words(name: str) -> Iterator[tuple[list[str], list[str]]]:
    """The runs of letters of the skeleton of each reading of ``name`` (as written, and
    turned the right way up), as the label's words are compared: with digits read as
    letters ("B0t"), and with digits as what they are, numbers between the words
    ("Bot1")."""
    for reading in _readings(name):
        words = re.findall(r"[a-z]+", _label_form(skeleton(reading)))
        bare = re.findall(r"[a-z]+", _label_form(skeleton(re.sub(r"\d+", " ", reading))))
        yield words, bare


# Names the site's own messages or people would go by, in our languages: a player so
# named ("Admin", "System", "Color Clash", "M0derator 2") could pass orders for the site's.
# The whole name, its letters only, as a skeleton (look-alikes and digits for letters
# read as in the computer players' label).
_SITE_NAMES = frozenset(_label_form(w) for w in (
    "admin", "admins", "administrator", "administrador", "moderator", "moderators",
    "moderador", "mod", "mods", "operator", "operador", "system", "sistema", "sistem",
    "server", "servidor", "sunucu", "colorclash", "colourclash", "support", "soporte",
    "destek", "staff", "yonetici", "official", "oficial", "resmi",
    # the site's name in Turkish (its pages' title and header; language QA)
    "renkkapismasi",
    # what the client writes for a seat with no name ("Seat 2" in the history and the
    # results): a player so named in seat 3 made them read wrong (attacker review); and
    # the host's tag
    "seat", "seats", "asiento", "puesto", "koltuk", "host", "anfitrion", "odasahibi"))


# The tags the table writes beside a seat's name, in our languages (the host's, "you",
# "away", "left"): in brackets after a name ("Ana (host)") a name passes for its seat's
# tag (attacker review). The whole bracket's letters, as the site's names are compared.
# Not "tú" and "sen", which are names too: "Riya (Sen)", a maiden name "Ayşe (Şen)",
# "Anh (Tú)" (a diff review).
_SEAT_TAGS = frozenset(_label_form(w) for w in (
    "host", "anfitrion", "odasahibi", "you", "away", "ausente", "baglidegil", "left",
    "sefue", "ayrildi"))
_BRACKETED = re.compile(r"[(\[{<«‹（［]([^)\]}>»›）］]*)[)\]}>»›）］]")


def writes_a_seat_tag(name: str) -> bool:
    """True when ``name`` writes a seat's tag in brackets ("Ana (host)", "Bo [you]",
    "Can (away)"), which the table draws beside a name as its own."""
    return any(any("".join(words) in _SEAT_TAGS for words, _ in _label_words(inside))
               for inside in _BRACKETED.findall(name))


def imitates_site(name: str) -> bool:
    """True when the letters of ``name`` spell one of the site's own names, nothing else
    ("Admin", "ADMIN 2", "Sy$tem", "Color Clash"; not "Adminton" or "Servet")."""
    return any("".join(words) in _SITE_NAMES or "".join(bare) in _SITE_NAMES
               for words, bare in _label_words(name))


def hidden_or_smeared(name: str) -> str | None:
    """Why ``name`` cannot be shown as it is meant to be read, or None."""
    if any(c in BLANK_LETTERS for c in name):
        return "name contains a blank character"
    if any(lo <= ord(c) <= hi for c in name for lo, hi in _WIDE):
        return "name contains a character drawn many letters wide"
    # decomposed, so that a letter's own accent counts (Á and two more are three)
    decomposed = unicodedata.normalize("NFD", name)
    if decomposed and unicodedata.category(decomposed[0]) in _STACKING:
        return "name starts with an accent on no letter"
    run = 0
    for c in decomposed:
        run = run + 1 if unicodedata.category(c) in _STACKING else 0
        if run > MAX_MARKS:
            return f"name stacks more than {MAX_MARKS} accents on one letter"
    return None


__all__ = ["hidden_or_smeared", "imitates_computer", "imitates_site", "skeleton",
           "table_forms", "writes_a_seat_tag"]
