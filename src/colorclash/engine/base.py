"""What every game of the engine shares: the error type, the game interface, the seeded RNG.

A game object is a small state machine driven by ``apply(seat, action)``. It never reads a
clock, a file or a global random source: everything that looks random comes from the
:class:`SeededRandom` stream built from the game's seed, so the same seed and the same
actions always rebuild the same game. Production code passes a seed drawn from the
operating system's secure source (:func:`secure_seed`); tests pass small integers.
"""

from __future__ import annotations

import hashlib
import operator
import random
import secrets
import struct
from typing import Any


class IllegalAction(ValueError):
    """An action that the rules do not allow now. The game is left exactly as it was."""


Action = dict[str, Any]
Event = dict[str, Any]


def secure_seed() -> str:
    """A fresh 256-bit secret seed from the operating system (hex text)."""
    return secrets.token_hex(32)


class SeededRandom(random.Random):
    """A deterministic random stream built on SHA-256 in counter mode.

    ``random.Random`` (Mersenne Twister) can be predicted from enough of its outputs; a
    hash stream keyed by a 256-bit secret cannot, yet it is fully reproducible from the
    seed, which is what the published commitment and ``colorclash verify`` need.
    ``getrandbits`` and ``random`` are overridden, so ``randrange``/``choice`` of the
    standard library build on them; ``shuffle`` is a Fisher-Yates of its own that draws all
    its numbers from one SHAKE-256 output, because a Python-level call per card was most
    of the cost of a new game.
    """

    def __init__(self, seed: int | str | bytes) -> None:
        if isinstance(seed, int):
            key = b"int:" + str(seed).encode()
        elif isinstance(seed, str):
            key = b"str:" + seed.encode()
        else:
            key = b"bytes:" + bytes(seed)
        self._key = hashlib.sha256(key).digest()
        self._counter = 0
        self._pool = 0
        self._pool_bits = 0
        super().__init__(0)

    def seed(self, *args: Any, **kwargs: Any) -> None:  # noqa: D102 - random.Random hook
        # random.Random.__init__ calls seed(); our state is the key and the counter.
        pass

    def _refill(self) -> None:
        block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._pool |= int.from_bytes(block, "big") << self._pool_bits
        self._pool_bits += 256

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._pool_bits < k:
            self._refill()
        value = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._pool_bits -= k
        return value

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        n = len(x)
        if n < 2:
            return
        stream = hashlib.shake_256(
            b"shuffle" + self._key + self._counter.to_bytes(8, "big")
        ).digest(4 * n)
        self._counter += 1
        # Fisher-Yates with one 32-bit number per position (modulo bias below 2**-25 per
        # swap for a deck of 112), the reductions done in C by map() (operator.mod: a plain C
        # function, several times faster per call than the int.__mod__ slot wrapper).
        swaps = list(map(operator.mod, struct.unpack(f">{n}I", stream), range(1, n + 1)))
        for i in range(n - 1, 0, -1):
            j = swaps[i]
            x[i], x[j] = x[j], x[i]

    def random(self) -> float:
        return self.getrandbits(53) / 9007199254740992.0

    def getstate(self) -> Any:
        return (self._key, self._counter, self._pool, self._pool_bits)

    def setstate(self, state: Any) -> None:
        self._key, self._counter, self._pool, self._pool_bits = state


class Game:
    """The interface of every game (contract.md section 3).

    Subclasses set ``to_act`` (seats that may act now), ``over`` and ``result`` and
    implement ``legal_actions``, ``apply`` and ``view``. ``log`` holds every applied
    ``(seat, action)`` pair: with the seed it is the whole game.
    """

    game_name: str = ""
    __slots__ = ("log",)

    def __init__(self) -> None:
        self.log: list[tuple[int, Action]] = []

    @property
    def to_act(self) -> list[int]:
        raise NotImplementedError

    @property
    def over(self) -> bool:
        raise NotImplementedError

    @property
    def result(self) -> dict[str, Any] | None:
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, seat: int, action: Action) -> list[Event]:
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError
