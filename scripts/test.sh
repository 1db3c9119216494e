#!/usr/bin/env bash
# Install everything the tests need, then run the whole test suite.
# Used by README "Quick start" and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || need_apt+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_apt+=(nginx-light)
if [ ${#need_apt[@]} -gt 0 ]; then
    if [ "$(id -u)" = "0" ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
        # the packages' own services are not needed: the tests start their own
        { service nginx stop || true; service redis-server stop || true; } >/dev/null 2>&1
    else
        echo "note: ${need_apt[*]} missing and not root; the tests that need them will be skipped" >&2
    fi
fi

# The project's own virtualenv (.venv), with the test extras.
source scripts/venv.sh test
"$PY" -m ruff check src tests benchmarks
# Browser tests (Playwright's sync API) run in their own pytest process: they must not
# share an event loop with the pytest-asyncio tests.
# The unit tests run in 3 worker processes (pytest-xdist): most of their time is spent
# waiting on servers, sockets and clocks (one process kept a core 20% busy), so 3 workers
# finish in about 40% of the time on 2 cores.
unit=0
"$PY" -m pytest -q -n "${CC_TEST_WORKERS:-3}" --ignore=tests/browser "$@" || unit=$?
browser=5
if [ -d tests/browser ] && ls tests/browser/test_*.py >/dev/null 2>&1; then
    browser=0
    # 2 workers, each with its own server and Chromium: their time is mostly Chromium's
    # start of each page and its drawing, and 2 finish in about 55% of the time of one
    "$PY" -m pytest -q -n "${CC_BROWSER_WORKERS:-2}" tests/browser "$@" || browser=$?
fi
# pytest exits 5 when it selected no test: fine for one part when the arguments (-k ...)
# select tests of the other part only; not for both.
if [ $unit = 5 ] && [ $browser = 5 ]; then exit 5; fi
for status in $unit $browser; do
    if [ $status != 0 ] && [ $status != 5 ]; then exit $status; fi
done
exit 0
