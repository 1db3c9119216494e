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
from typing import Any

import pytest
from playwright.sync_api import Page

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


# ---------------------------------------------------------------- warm pages
# A page opened in a new browser context costs Chromium about a CPU-second (a renderer
# process, the site's 45 files fetched and compiled); the same page taken to another
# address of the site costs a third of that. The browser tests are bound by the machine's
# cores, so a page a test leaves as it found it is kept for the next test that asks for
# a page of the same kind (server, language, motion, policy): taken to a blank file of the site
# and its storage cleared in between, so the next test starts as a new visitor.
#
# A page is kept only when its test passed and did nothing that outlives a document: a
# route, an init script, a fake clock, a listener, an emulated medium, its context asked
# for (and whatever a test then does with it). Those calls mark the page (the patch of
# Playwright's Page below), and a marked page's context is closed as before. A test that
# must have a browser's first visit (nothing in its cache) makes its own context
# (tests/browser/test_page_load.py).

_LEAVES_A_MARK = ("route", "route_web_socket", "route_from_har", "add_init_script",
                  "expose_function", "expose_binding", "emulate_media",
                  "set_extra_http_headers", "on", "once", "add_locator_handler",
                  "set_default_timeout", "set_default_navigation_timeout")
_MARKED = "_cc_marked"


def _mark_pages_that_keep_state() -> None:
    def marking(method):
        def marked(self, *args, **kwargs):
            setattr(self, _MARKED, True)
            return method(self, *args, **kwargs)
        marked.__wrapped__ = method
        return marked

    def marking_property(prop):
        return property(lambda self: (setattr(self, _MARKED, True), prop.fget(self))[1])

    if getattr(Page.on, "__wrapped__", None):
        return
    for name in _LEAVES_A_MARK:
        setattr(Page, name, marking(getattr(Page, name)))
    Page.context = marking_property(Page.context)
    Page.clock = marking_property(Page.clock)


_mark_pages_that_keep_state()
_BLANK = "/favicon.svg"  # a file of the site: its storage, no script of the client


class WarmPages:
    """Pages kept between the tests of one worker: the last few kept, of any kind (each
    holds a renderer process, 100-150 MB)."""

    MOST_KEPT = 6

    def __init__(self) -> None:
        self._kept: list[tuple[tuple, Any]] = []  # (kind, page), the last kept last

    def take(self, kind: tuple):
        for i in range(len(self._kept) - 1, -1, -1):
            if self._kept[i][0] == kind:
                return self._kept.pop(i)[1]
        return None

    def keep(self, kind: tuple, page) -> bool:
        """Keep ``page`` (its test passed) if nothing it did outlives a document."""
        if page.is_closed() or getattr(page, _MARKED, False) or len(page.context.pages) > 1:
            return False
        try:
            page.goto(_BLANK)  # the test's document gone: its sockets and timers with it
            page.evaluate("localStorage.clear()")
            page.mouse.move(0, 0)
        except Exception:  # noqa: BLE001 (a page that cannot be reset is not kept)
            return False
        setattr(page, _MARKED, False)  # (page.context above marked it)
        self._kept.append((kind, page))
        if len(self._kept) > self.MOST_KEPT:
            self._kept.pop(0)[1].context.close()
        return True

    def close(self) -> None:
        for _, page in self._kept:
            page.context.close()
        self._kept.clear()


@pytest.fixture(scope="session")
def warm_pages(chromium):
    pages = WarmPages()
    yield pages
    pages.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):  # noqa: ARG001
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.passed_its_call = report.passed


@pytest.fixture
def open_page(chromium, server, warm_pages, request):
    """open_page(viewport=DESKTOP, locale="en-US", path="/") -> a Playwright page.

    Each page is its own browser context (its own localStorage: a separate player); a
    page may be one a passed test left as it found it (see WarmPages), its storage
    cleared. JavaScript errors on any page fail the test.
    """
    opened = []  # (kind, page, its error listener)
    errors = PageErrors()

    def _open(viewport=None, locale="en-US", path="/", reduced_motion="reduce", csp=False):
        # The site's Content-Security-Policy (scripts from the site only) forbids what
        # Playwright's wait_for_function does with its text (eval): bypassed, except
        # where a test checks the policy itself (csp=True; tests/browser/test_csp.py).
        viewport = viewport or DESKTOP
        kind = (server.url, locale, reduced_motion, csp)  # (a module may have its own server)
        page = warm_pages.take(kind)
        if page is None:
            ctx = chromium.new_context(
                viewport=viewport,
                locale=locale,
                base_url=server.url,
                reduced_motion=reduced_motion,
                bypass_csp=not csp,
            )
            ctx.set_default_timeout(10_000)
            page = ctx.new_page()
        elif page.viewport_size != viewport:
            page.set_viewport_size(viewport)

        def listener(exc):
            errors.append(f"{locale}: {exc}")

        Page.on.__wrapped__(page, "pageerror", listener)
        opened.append((kind, page, listener))
        page.goto(path)
        return page

    yield _open
    passed = getattr(request.node, "passed_its_call", False) and not errors
    for kind, page, listener in opened:
        if not page.is_closed():
            page.remove_listener("pageerror", listener)
        if not (passed and warm_pages.keep(kind, page)):
            page.context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
