#!/usr/bin/env bash
# Install Color Clash and start the site on its embedded defaults (SQLite file store).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check -e .
exec colorclash serve "$@"
