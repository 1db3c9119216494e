#!/usr/bin/env bash
# Install Color Clash into the project's own virtualenv (.venv) and start the site on its
# embedded defaults (SQLite file store). Prints the URL to open. Extra arguments go to
# `colorclash serve` (for example --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh ""
exec "$PY" -m colorclash.cli serve "$@"
