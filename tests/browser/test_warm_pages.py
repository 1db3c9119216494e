"""The browser tests' kept pages (conftest.WarmPages): a page handed to the next test is
a new visitor's (no storage, no document of the last test), and a page whose test left
something that outlives a document is not kept."""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP

pytestmark = pytest.mark.browser


def _fresh_page(chromium, server):
    ctx = chromium.new_context(viewport=DESKTOP, base_url=server.url, bypass_csp=True)
    page = ctx.new_page()
    page.goto("/")
    page.wait_for_selector("#btn-create")
    return page


def test_a_kept_page_comes_back_blank_with_its_storage_cleared(chromium, server):
    from conftest import WarmPages

    pages = WarmPages()
    page = _fresh_page(chromium, server)
    try:
        page.fill("#player-name", "Kept")
        page.evaluate("localStorage.setItem('cc.seat.ABCDEF', '{}')")
        assert pages.keep(("k",), page)
        assert pages.take(("other",)) is None  # only a page of the kind asked for
        again = pages.take(("k",))
        assert again is page
        assert page.url == f"{server.url}/favicon.svg"  # the test's document is gone
        assert page.evaluate("localStorage.length") == 0
        page.goto("/")
        assert page.input_value("#player-name") == ""  # a new visitor's home page
    finally:
        page.context.close()
        pages.close()


@pytest.mark.parametrize("what", ["route", "clock", "listener", "context"])
def test_a_page_left_with_something_that_outlives_its_document_is_not_kept(
        chromium, server, what):
    from conftest import WarmPages

    pages = WarmPages()
    page = _fresh_page(chromium, server)
    try:
        if what == "route":
            page.route("**/api/games", lambda route: route.continue_())
        elif what == "clock":
            page.clock.install()
        elif what == "listener":
            page.on("console", lambda message: None)
        else:
            page.context.set_offline(False)
        assert not pages.keep(("k",), page)
        assert pages.take(("k",)) is None
    finally:
        page.context.close()
        pages.close()


def test_no_more_pages_are_kept_than_the_most(chromium, server):
    from conftest import WarmPages

    pages = WarmPages()
    made = [_fresh_page(chromium, server) for _ in range(WarmPages.MOST_KEPT + 1)]
    try:
        for page in made:
            assert pages.keep(("k",), page)
        assert made[0].is_closed()  # the first kept, closed to keep the most
        assert all(not page.is_closed() for page in made[1:])
    finally:
        for page in made[1:]:
            page.context.close()
        pages.close()
