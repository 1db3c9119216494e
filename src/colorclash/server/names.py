"""Room codes, seat tokens and Quick Match animal names."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable

# Letters that cannot be mistaken for each other or for digits: no I, L, O (1, 0).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6

ADJECTIVES = ["Blue", "Green", "Red", "Golden", "Silver", "Swift", "Quiet", "Brave", "Lucky",
              "Sunny", "Misty", "Happy", "Clever", "Calm", "Bright", "Jolly"]
ANIMALS = ["Otter", "Fox", "Panda", "Koala", "Falcon", "Dolphin", "Lynx", "Heron", "Badger",
           "Tiger", "Owl", "Zebra", "Beaver", "Penguin", "Gecko", "Moose", "Hedgehog", "Walrus",
           "Rabbit", "Turtle"]


def new_code(taken: Callable[[str], bool]) -> str:
    """A fresh six-letter room code for which ``taken(code)`` is False."""
    for _ in range(1000):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not taken(code):
            return code
    raise RuntimeError("could not find a free room code")


def normalize_code(code: str) -> str:
    return code.strip().upper()


def valid_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)


def new_token() -> str:
    """256 random bits, URL-safe; never with a leading "-", which a command line would
    take for an option (``python -m colorclash.client --token -x...``)."""
    while (token := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return token


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def animal_name(avoid: Iterable[str] = ()) -> str:
    """An automatic name like "Blue Otter", different from every name in ``avoid``."""
    used = set(avoid)
    for _ in range(200):
        name = f"{secrets.choice(ADJECTIVES)} {secrets.choice(ANIMALS)}"
        if name not in used:
            return name
    for adj in ADJECTIVES:  # only with hundreds of names in use
        for animal in ANIMALS:
            if f"{adj} {animal}" not in used:
                return f"{adj} {animal}"
    n = 2  # every pair in use: number them ("Blue Otter 2"), never fail
    while True:
        name = f"{secrets.choice(ADJECTIVES)} {secrets.choice(ANIMALS)} {n}"
        if name not in used:
            return name
        n += 1
