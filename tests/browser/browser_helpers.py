"""Helpers of the browser tests: screenshots, axe checks, and playing by clicking."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
AXE_DIR = ROOT / "test-artifacts" / "axe"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


@contextmanager
def dev_scene(chromium, server, scene: str, *, touch: bool, viewport: dict | None = None,
              lang: str = "en") -> Iterator:
    """A dev scene's page in a context of its own: a touch phone (``touch``: coarse
    pointer, no hover) or a mouse and keyboard, 390x844 unless ``viewport``."""
    ctx = chromium.new_context(viewport=viewport or {"width": 390, "height": 844},
                               base_url=server.url, has_touch=touch, is_mobile=touch,
                               bypass_csp=True)  # (wait_for_function evaluates text)
    try:
        page = ctx.new_page()
        page.goto(f"/dev.html?scene={scene}&lang={lang}")
        page.wait_for_function("window.__devReady === true")
        yield page
    finally:
        ctx.close()


def focus_ring(selector: str) -> str:
    """A function for page.evaluate: the outline style of the focused element if it
    matches ``selector`` ("none" where a touch screen hides its ring), else null."""
    return ("() => { const a = document.activeElement; return a && a.matches("
            f"'{selector}') ? getComputedStyle(a).outlineStyle : null; }}")


def ring_shows_after_a_key(page, selector: str, key: str = "ArrowRight") -> None:
    """On a touch screen: no ring on the focused ``selector`` until a key is pressed."""
    ring = focus_ring(selector)
    assert page.evaluate(ring) == "none"
    page.keyboard.press(key)
    page.wait_for_function(f"() => ({ring})() === 'solid'")


def shot(page, name: str, full_page: bool = False) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def axe_check(page, name: str) -> list[dict]:
    """Run axe-core on the page; fail on any serious or critical violation."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    violations = results.response["violations"]
    AXE_DIR.mkdir(parents=True, exist_ok=True)
    (AXE_DIR / f"{name}.json").write_text(json.dumps(violations, indent=1))
    bad = [v for v in violations if v.get("impact") in ("serious", "critical")]
    assert not bad, f"axe on {name}:\n" + results.generate_report()
    return violations


def listen_to_live_region(page) -> None:
    """Keep every text the polite live region shows from now on (``wait_said``): it is
    replaced by the next batch of news 120 ms later, which a poll of its current text
    can miss when the computers play fast and the machine is busy."""
    page.evaluate("""() => {
        const live = document.getElementById('live');
        window.__said = [live.textContent];
        new MutationObserver(() => window.__said.push(live.textContent))
            .observe(live, {childList: true, characterData: true, subtree: true});
    }""")


def wait_said(page, words: str, timeout: float = 5_000) -> None:
    """Wait until the live region has said ``words`` since ``listen_to_live_region``."""
    page.wait_for_function("(w) => window.__said.some(t => t.includes(w))", arg=words,
                           timeout=timeout)


# ---------------------------------------------------------------- playing by clicking

def _try_click(locator) -> bool:
    try:
        locator.click(timeout=1500)
        return True
    except Exception:  # noqa: BLE001 - the table changed under the click: try again
        return False


#: what a player may do on the table, most pressing first: (selector, what is done)
_STEPS = (
    (".results-overlay[data-phase=game_over]", "results"),
    (".results-overlay", "next"),  # round results of a multi-round match
    (".color-overlay .color-btn", "colour"),
    (".actions button.call", "call"),
    (".actions button.catch", "catch"),
    (".hand .card.playable", "play"),
    (".actions button.primary", "play-drawn"),
    (".actions button.take", "take"),
    (".actions button.draw", "draw"),
    (".actions button[data-focus-key='act:pass']", "pass"),
)
#: (one question to the page for the whole list: a count() each took most of a game's
#: time on a loaded machine)
_FIRST_THERE = "(sels) => sels.findIndex((s) => document.querySelector(s) !== null)"
_NEXT = "button[data-focus-key='res:next']:not([disabled])"


def step(page) -> str:
    """Do one thing a player would do on the table, by clicking. Returns what was done:
    "results" when the match results show, "" when there was nothing to do."""
    found = page.evaluate(_FIRST_THERE, [selector for selector, _ in _STEPS])
    if found < 0:
        return ""
    selector, what = _STEPS[found]
    if what == "results":
        return what
    if what == "next":
        nxt = page.locator(_NEXT)
        if nxt.count():
            return what if _try_click(nxt.first) else ""
        return ""  # ready: waiting for the next round
    return what if _try_click(page.locator(selector).first) else ""


def play_to_results(pages, timeout: float = 150.0) -> dict:
    """Click through the game on every page until each shows the results screen."""
    pages = [pages] if hasattr(pages, "goto") else list(pages)
    done: set[int] = set()
    counts: dict[str, int] = {}
    end = time.monotonic() + timeout
    while len(done) < len(pages):
        assert time.monotonic() < end, f"game not over after {timeout} s: {counts}"
        idle = True
        for i, page in enumerate(pages):
            if i in done:
                continue
            what = step(page)
            if what == "results":
                done.add(i)
            elif what:
                idle = False
                counts[what] = counts.get(what, 0) + 1
        if idle:
            pages[0].wait_for_timeout(60)
    return counts


def set_room(page, **settings) -> None:
    """Change the lobby's settings through their controls (``seats=3``), each time waiting
    until the room the server sent back has the value, of the same type."""
    for name, value in settings.items():
        page.select_option(f"#set-{name}", str(value))
        page.wait_for_function(
            f"() => window.__cc.room.settings.{name} === {json.dumps(value)}")


def create_room(page, name: str) -> str:
    """On the home page: a private room made under ``name``; its code."""
    page.fill("#player-name", name)
    page.click("#btn-create")
    page.wait_for_selector("#room-code")
    return page.inner_text("#room-code").strip()


def join_as_guest(page, code: str, name: str) -> None:
    """From the home screen: join the private room ``code`` (typed in lower case) and take
    a seat."""
    page.fill("#player-name", name)
    page.fill("#join-code", code.lower())
    page.click("#btn-join")
    page.wait_for_selector("#btn-join-room")
    page.click("#btn-join-room")


def wait_table(page, timeout: float = 15_000) -> None:
    page.wait_for_selector(".table-screen", timeout=timeout)


def my_turn(page, timeout: float = 20_000) -> None:
    """Wait until it is this page's seat's turn to play a card or draw."""
    try:
        _wait_my_turn(page, timeout)
    except Exception as exc:
        state = page.evaluate(
            "JSON.stringify({me: window.__cc.me, conn: window.__cc.connStatus, "
            "view: window.__cc.view && {phase: window.__cc.view.phase, "
            "turn: window.__cc.view.turn, legal: window.__cc.view.legal}, "
            "clock: window.__cc.clock})"
        )
        raise AssertionError(f"never our turn: {state}") from exc


def _wait_my_turn(page, timeout: float) -> None:
    page.wait_for_function(
        """() => { const s = window.__cc; const v = s && s.view;
                   return v && v.phase === 'play' && v.turn === s.me &&
                          v.legal.some(a => ['draw', 'play', 'take'].includes(a.type)); }""",
        timeout=timeout,
    )


# ---------------------------------------------------------------- what the eye can reach

# Every control and dialog that is displayed: its box inside the window, and its text not
# cut inside it. Controls inside a sideways-scrolling strip (a hand, data-scroller) are
# checked through the strip itself.
_CUT_JS = """() => {
  const W = window.innerWidth, H = window.innerHeight, bad = [];
  const shown = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !e.closest('.sr-only'); };
  const name = (e) => (e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' +
    [...e.classList].join('.')) + ' "' + (e.innerText || e.value || '').trim().slice(0, 30) + '"';
  const sel = 'button, a.btn, select, input, [role=dialog], .dialog, h1, h2, .banner';
  for (const e of document.querySelectorAll(sel)) {
    if (!shown(e)) continue;
    const strip = e.closest('[data-scroller]');
    if (strip && strip !== e) continue;
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.right > W + 0.5) bad.push(`${name(e)} leaves the screen sideways (${Math.round(r.left)}..${Math.round(r.right)} of ${W})`);
    if (e.matches('button, a.btn, .banner') && e.scrollWidth > e.clientWidth + 1)
      bad.push(`${name(e)} cuts its text (${e.scrollWidth} > ${e.clientWidth})`);
    const dlg = e.closest('[role=dialog]');
    if (dlg && dlg !== e) { const d = dlg.getBoundingClientRect();
      if (r.left < d.left - 0.5 || r.right > d.right + 0.5)
        bad.push(`${name(e)} sticks out of its dialog (${Math.round(r.left)}..${Math.round(r.right)} vs ${Math.round(d.left)}..${Math.round(d.right)})`); }
  }
  for (const e of document.querySelectorAll('.results-scroll')) {
    if (shown(e) && e.scrollWidth > e.clientWidth + 1)
      bad.push(`the results table needs scrolling sideways (${e.scrollWidth} > ${e.clientWidth})`);
  }
  if (document.documentElement.scrollWidth > W) bad.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${W})`);
  return bad;
}"""


def cut_controls(page) -> list[str]:
    """Controls, dialogs and headings that leave the screen or cut their own text."""
    return page.evaluate(_CUT_JS)


I18N = ROOT / "src" / "colorclash" / "web" / "i18n"
# The games' own catalogs: i18n/<game>/<lang>.json, every key "<game>."
GAME_CATALOGS = sorted(p.name for p in I18N.iterdir() if p.is_dir())


def catalog(lang: str, game: str | None = None) -> dict:
    """The shell's catalog of a language, or a game's."""
    path = I18N / (f"{game}/{lang}.json" if game else f"{lang}.json")
    return json.loads(path.read_text(encoding="utf-8"))


def all_catalogs(lang: str) -> dict:
    """The shell's catalog and every game's, merged as the client merges them."""
    merged = dict(catalog(lang))
    for game in GAME_CATALOGS:
        merged.update(catalog(lang, game))
    return merged
