"""The first screen's loading, as a visitor's browser does it (server/webpage.py, app.js's
boot), with the site's Content-Security-Policy: every module asked for at once, by its
fingerprint, from the page's preload hints (before, one import level at a time: six round
trips), the games and their catalogs beside the shell's, nothing asked for twice; and a
returning visitor's browser asks for no module again."""

from __future__ import annotations

from collections import Counter

import pytest
from browser_helpers import DESKTOP

from colorclash.server.app import WEB_DIR
from colorclash.server.webpage import module_graph

pytestmark = pytest.mark.browser


def test_the_first_screen_asks_for_everything_once_and_up_front(chromium, server):
    locale = "tr-TR"  # (its catalogs and the English ones beside them)
    ctx = chromium.new_context(viewport=DESKTOP, locale=locale, base_url=server.url,
                               reduced_motion="reduce")
    try:
        page = ctx.new_page()
        asked: list[str] = []
        warnings: list[str] = []
        page.on("request", lambda r: asked.append(r.url.removeprefix(server.url)))
        page.on("console", lambda m: warnings.append(m.text)
                if m.type in ("warning", "error") else None)
        page.goto("/")
        page.wait_for_selector("#btn-play-now")
        # every module and the games' catalogs asked for before the first module ran
        # (before, the game modules' own imports came a level after their index.js)
        starts = dict(page.evaluate("""() => performance.getEntriesByType('resource')
            .map(e => [new URL(e.name).pathname, e.startTime])"""))
        dom_ready = page.evaluate(
            "performance.getEntriesByType('navigation')[0].domInteractive")
        page.wait_for_timeout(3500)  # (Chromium warns of a preload not used within 3 s)
        # a returning player: the modules and styles from the browser's cache, unasked;
        # the page itself and the catalogs asked about (a bodiless 304 when unchanged)
        first_visit = list(asked)
        page.reload()
        page.wait_for_selector("#btn-play-now")
        sizes = dict(page.evaluate("""() => performance.getEntriesByType('resource')
            .map(e => [new URL(e.name).pathname, e.transferSize])"""))
    finally:
        ctx.close()
    assert all(sizes[m] == 0 for m in module_graph(WEB_DIR)[1:]), sizes
    assert sizes["/css/app.css"] == 0 and sizes["/i18n/tr.json"] > 0, sizes
    asked = first_visit
    twice = {url: n for url, n in Counter(asked).items() if n > 1}
    assert not twice, f"asked for more than once: {twice}"
    modules = module_graph(WEB_DIR)
    by_fingerprint = {url.partition("?v=")[0] for url in asked if "?v=" in url}
    assert set(modules) <= by_fingerprint  # (the page's CSP allowed its import map)
    asked = [url.partition("?")[0] for url in asked]
    assert all(starts[m] <= dom_ready for m in modules), {m: starts[m] for m in modules}
    lang = locale[:2]
    for catalog in (f"/i18n/{lang}.json", f"/i18n/coloretto/{lang}.json",
                    f"/i18n/rainbow/{lang}.json", "/i18n/coloretto/en.json"):
        assert catalog in asked
    # the games and the games' catalogs are asked for with the shell's, not after it
    shell_catalog = starts[f"/i18n/{lang}.json"]
    assert starts["/api/games"] <= shell_catalog + 50
    assert starts[f"/i18n/rainbow/{lang}.json"] <= shell_catalog + 50
    assert not [w for w in warnings if "preload" in w], warnings
