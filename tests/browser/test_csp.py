"""The site's Content-Security-Policy (``script-src 'self'``) enforced, as a visitor's
browser does: every game's table loads and plays with no violation (the other browser
tests bypass the policy: Playwright's wait_for_function evaluates text)."""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, play_to_results, wait_table

from colorclash.engine import GAMES

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", list(GAMES))
def test_every_table_runs_under_the_sites_content_security_policy(open_page, game):
    page = open_page(DESKTOP, csp=True)
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.evaluate("""() => document.addEventListener('securitypolicyviolation',
        e => console.error('Content Security Policy: ' + e.violatedDirective))""")
    page.fill("#player-name", "Ana")
    page.click(f"label[data-game={game}]")
    if page.locator("select#practice-bots").count():  # (a duel offers no choice)
        page.select_option("#practice-bots", "1")
    if game == "color-clash":  # (the random level's games can run to 600 moves)
        page.select_option("#practice-preset", "standard")
    page.select_option("#practice-level", "easy" if game == "color-clash" else "random")
    page.click("#btn-practice")
    wait_table(page)
    if game == "color-clash":  # (the clicking helper knows this table's controls)
        assert play_to_results(page, timeout=150), "nothing was played"
    else:  # its table drawn, and redrawn as the computer player moves
        page.wait_for_selector(".table-screen > *")
        page.wait_for_timeout(2500)
    page.goto("/")  # the home page again, from the start
    page.wait_for_selector("#btn-practice")
    assert not violations, violations
