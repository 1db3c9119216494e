"""How many examples the property tests run: `HYPOTHESIS_PROFILE=thorough` multiplies the
CI counts by 25 (run it with `--timeout=0`; it takes minutes, not seconds)."""

import os

SCALE = 25 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1


def examples(n: int) -> int:
    return n * SCALE
