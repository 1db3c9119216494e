"""``python -m colorclash``: the ``colorclash`` command."""

from colorclash.cli import main

main()
