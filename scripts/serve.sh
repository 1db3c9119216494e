#!/usr/bin/env bash
# Install Color Clash into the project's own virtualenv (.venv) and start the site on its
# embedded defaults (SQLite file store). Prints the URL to open. Extra arguments go to
# `colorclash serve` (for example --port 9000), run in the caller's working directory:
# a relative store path (and the default store, colorclash.sqlite3) is taken from there.
set -euo pipefail
here="$(pwd)"
cd "$(dirname "$0")/.."
source scripts/venv.sh ""
cd "$here"
exec "$PY" -m colorclash.cli serve "$@"
