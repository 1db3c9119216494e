"""Which build of Color Clash runs: a fingerprint of the package's own files.

The version number (``colorclash.__version__``) is a release's, and every build between
two releases said the same "0.1.0": an operator could not tell two processes apart, nor
see that an old one still ran beside a new one on one Redis, which breaks their players
(the processes' messages and the write script change between builds: an upgrade
review). The fingerprint changes with any file of the package (code, client, catalogs)
and is the same for the same files wherever they are installed.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

#: the package's files that make a build (not its caches)
_PARTS = (".py", ".js", ".css", ".json", ".html", ".svg", ".lua")


@cache
def build_id() -> str:
    """This package's :func:`fingerprint` (read once)."""
    return fingerprint(Path(__file__).resolve().parent)


def fingerprint(root: Path) -> str:
    """12 hex digits of the SHA-256 of a package's files (their paths and contents)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*")
                       if p.suffix in _PARTS and "__pycache__" not in p.parts and p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def version_line() -> str:
    """The version and the build, as the start line and ``--version`` say them."""
    from colorclash import __version__

    return f"{__version__} (build {build_id()})"
