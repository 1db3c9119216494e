"""Fixtures for the browser tests: a real server on 127.0.0.1 (uvicorn in a thread, temp
SQLite store, fast computer players) and Debian's Chromium driven by Playwright's sync API.

These tests run in their own pytest process (scripts/test.sh): Playwright's sync API must
not share a process with the pytest-asyncio tests.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # browser_helpers, whatever the rootdir
from browser_helpers import DESKTOP  # noqa: E402

CHROMIUM = os.environ.get("COLORCLASH_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config, items):  # noqa: ARG001
    if not Path(CHROMIUM).exists():
        skip = pytest.mark.skip(reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)")
        for item in items:
            if "tests/browser" in str(item.fspath) and "chromium" in item.fixturenames:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    from colorclash.server.config import Settings
    from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

    store = tmp_path_factory.mktemp("store") / "browser.sqlite3"
    settings = Settings(**LIFTED_LIMITS,
        bot_delay=0.05,
        next_round_delay=1.5,
        clock_scale=0.5,  # turn clocks at half length: a stalled test still moves on
        quick_match_wait=2.0,
        host_grace=2.0,  # a host away between games passes the part on after 2 s
        dev_pages=True,  # /dev.html: screens from fake data
    )
    srv = InProcessServer(f"sqlite:///{store}", settings=settings).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()
    pw.stop()


class PageErrors(list):
    pass


@pytest.fixture
def open_page(chromium, server):
    """open_page(viewport=DESKTOP, locale="en-US", path="/") -> a Playwright page.

    Each page gets its own browser context (its own localStorage: a separate player).
    JavaScript errors on any page fail the test.
    """
    contexts = []
    errors = PageErrors()

    def _open(viewport=None, locale="en-US", path="/", reduced_motion="reduce", csp=False):
        # The site's Content-Security-Policy (scripts from the site only) forbids what
        # Playwright's wait_for_function does with its text (eval): bypassed, except
        # where a test checks the policy itself (csp=True; tests/browser/test_csp.py).
        ctx = chromium.new_context(
            viewport=viewport or DESKTOP,
            locale=locale,
            base_url=server.url,
            reduced_motion=reduced_motion,
            bypass_csp=not csp,
        )
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{locale}: {exc}"))
        page.goto(path)
        return page

    yield _open
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


