"""Text from outside, made safe to print on an operator's terminal."""

from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with every character that is not printable (controls, reordering and other
    format marks, line separators) written as its escape (``\\x1b``, ``\\u202e``): text
    from outside printed as it is (a log record's argument, a record's own strings in
    ``colorclash verify``) can recolour a terminal, erase or move its lines, or read like
    another line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)
