""""How to play" for each table, in every language: from the home page (a page of its
own) and from a running table (a dialog that keeps the seat)."""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, PHONE, axe_check, catalog, cut_controls, shot
from scripted import ScriptedTable

pytestmark = pytest.mark.browser

PRESETS = ("classic-table", "standard", "family", "siege", "day-night")
LOCALES = {"en": "en-US", "es": "es-ES", "tr": "tr-TR"}
# what only that table's page explains (catalog keys whose text must be on it)
# (a one-round table's substitute plays to the end, not "until the next round"; only
# `standard` has a call to make and catch with L and C: player QA)
OWN = {
    "classic-table": ["howto.card.bomb", "howto.stack.classic", "howto.call.none",
                      "howto.awayOne", "table.keyHelpNoCall"],
    "standard": ["howto.call.manual", "howto.deal.actions", "howto.end.playOn", "howto.away",
                 "table.keyHelp"],
    "family": ["howto.call.auto", "howto.length.family", "howto.away", "table.keyHelpNoCall"],
    "siege": ["howto.card.shield", "howto.stack.ranked", "howto.awayOne",
              "table.keyHelpNoCall"],
    "day-night": ["howto.card.flip", "howto.card.hunt", "howto.stack.same", "howto.dayNight",
                  "howto.awayOne", "table.keyHelpNoCall", "howto.name.skipDay"],
}

# and what it must not say (another table's rule)
NOT_ON = {
    "classic-table": ["howto.call.manual", "howto.card.shield", "howto.end.playOn",
                      "howto.away", "table.keyHelp"],
    "standard": ["howto.card.bomb", "howto.stack.classic", "howto.call.auto", "howto.awayOne",
                 "howto.card.answered", "howto.name.skipDay"],
    "family": ["howto.call.manual", "howto.deal.actions", "howto.awayOne", "table.keyHelp",
               "howto.card.answered"],
    "siege": ["howto.card.bomb", "howto.stack.classic", "howto.away", "table.keyHelp"],
    "day-night": ["howto.card.plus2", "howto.card.wild4Restricted", "howto.card.bomb",
                  "howto.away", "table.keyHelp"],
}


def said(cat: dict, key: str, grace: int = 90, turn: int = 5) -> str:
    """A catalog's text as a page says it (the away paragraphs with the site's numbers:
    the test server's defaults)."""
    return cat[key].replace("{grace}", str(grace)).replace("{turn}", str(turn))


@pytest.mark.parametrize("lang", LOCALES)
def test_every_table_has_a_how_to_play_page_in_every_language(open_page, lang):
    cat = catalog(lang)
    page = open_page(PHONE, locale=LOCALES[lang])
    section = page.locator("section.rules-links")
    section.wait_for()
    links = section.locator("a")
    assert links.all_inner_texts() == [cat[f"preset.{p}"] for p in PRESETS]
    links.nth(0).click()
    page.wait_for_selector("article.howto h1")
    assert page.url.endswith("/?rules=classic-table")
    for preset in PRESETS:
        if preset != "classic-table":
            page.locator(".howto-nav a", has_text=cat[f"preset.{preset}"]).click()
            page.wait_for_url(f"**/?rules={preset}")
        article = page.locator("article.howto")
        text = article.inner_text()
        title = cat["howto.title"].format(table=cat[f"preset.{preset}"])
        assert page.inner_text("article.howto h1").strip() == title
        assert article.locator("h2").count() >= 8
        for key in OWN[preset]:
            assert said(cat, key) in text, (preset, key)
        for key in NOT_ON[preset]:
            assert said(cat, key) not in text, (preset, key)
        assert cat["howto.end.dead"] in text  # (every preset: spec 5.9)
        # what the site makes public, and how it keeps the game fair (a privacy review)
        assert cat["howto.fair"] in text and cat["howto.h.fair"] in text
        assert title in page.title()
        assert not page.evaluate("[...window.__i18nMissing]")
        assert not cut_controls(page), cut_controls(page)
    shot(page, f"howto-day-night-{lang}-phone", full_page=True)
    if lang == "tr":
        axe_check(page, "howto-page")
    # back home from the page
    page.click("article.howto ~ .row a")
    page.wait_for_selector("#btn-play-now")


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("path", ["/?rules=standard", "/?game=coloretto&rules=standard",
                                  "/?game=rainbow&rules=standard"])
def test_no_how_to_play_page_shows_a_blank_to_fill(open_page, lang, path):
    """Coloretto's keys read "1 to {n} take that row" in every language: a line of the
    table's, where the count is known, shown on the page, where it is not."""
    page = open_page(PHONE, locale=LOCALES[lang], path=path)
    page.wait_for_selector("article.howto h1")
    text = page.inner_text("article.howto")
    assert "{" not in text and "}" not in text, text
    assert not page.evaluate("[...window.__i18nMissing]")


@pytest.mark.parametrize("preset, answered", [("classic-table", ["plus2"]),
                                              ("siege", ["plus2", "wild4"]),
                                              ("day-night", ["plus1", "plus5"])])
def test_on_a_stacking_table_the_penalty_cards_lines_say_a_stack_waits(open_page, preset,
                                                                       answered):
    """The +2 line said "the next player draws two and loses their turn" on tables where a
    +2 waits for an answer (a rules-text review): on a stacking table the lines of the
    cards a stack answers say it waits, and no other card's line does."""
    en = catalog("en")
    page = open_page(DESKTOP, path=f"/?rules={preset}")
    page.wait_for_selector("article.howto .howto-cards li")
    items = page.locator("article.howto .howto-cards li > span")
    lines = {items.nth(i).locator("strong").inner_text(): items.nth(i).inner_text()
             for i in range(items.count())}
    names = {en[f"howto.name.{what}"]: what for what in ("plus1", "plus2", "plus5", "wild4")}
    assert set(names) & set(lines)  # (the penalty cards are there to be read)
    waiting = [names.get(name, name) for name, line in lines.items()
               if en["howto.card.answered"] in line]
    assert sorted(waiting) == sorted(answered)


@pytest.mark.parametrize("game", ["constructor", "__proto__", "toString", "chess"])
def test_a_rules_address_naming_no_game_opens_the_home_page(open_page, game):
    """``?game=constructor`` found Object's own member among the games and the page stayed
    blank (a web review): a key that is no game's is the home page."""
    errors: list[str] = []
    page = open_page(DESKTOP, path=f"/?rules=standard&game={game}")
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.wait_for_selector("#btn-practice")
    assert not page.locator("article.howto").count()
    assert not errors, errors


def test_how_to_play_opens_over_the_table_and_keeps_the_seat(open_page):
    table = ScriptedTable(open_page, preset="siege", seats=3, viewport=DESKTOP, locale="es-ES")
    page = table.page
    es = catalog("es")
    button = page.locator("#rules-btn")
    assert button.is_visible() and es["howto.button"] in button.inner_text()
    button.click()
    dialog = page.locator(".howto-overlay [role=dialog]")
    dialog.wait_for()
    assert es["howto.title"].format(table=es["preset.siege"]) in dialog.inner_text()
    assert es["howto.card.shield"] in dialog.inner_text()
    assert page.evaluate("document.querySelector('[role=dialog]').contains(document.activeElement)")
    axe_check(page, "howto-dialog")
    page.keyboard.press("Escape")
    assert page.locator(".howto-overlay").count() == 0
    assert page.evaluate("document.activeElement.id") == "rules-btn"
    # still seated: the table is there and nothing was sent
    assert page.locator(".hand .card").count() == 7
    assert not [m for m in table.sent if m["type"] == "leave"]


def test_the_chosen_games_rules_are_a_click_from_the_game_picker(open_page):
    """A newcomer chooses a game and finds its rules beside its few words, not under every
    panel 1,600 px down the page (newcomer review)."""
    cat = catalog("en")
    page = open_page(DESKTOP)
    for key, name, url in (("coloretto", "Coloretto", "/?game=coloretto&rules=standard"),
                           ("rainbow", "Rainbow", "/?game=rainbow&rules=standard"),
                           ("color-clash", "Color Clash", "/?rules=classic-table")):
        page.click(f"label.game-choice[data-game={key}]")
        link = page.locator(".game-chosen-about a.rules-link")
        assert link.inner_text().strip() == cat["howto.home"]
        assert link.get_attribute("aria-label") == cat["home.howToPlay"].format(game=name)
        box = link.bounding_box()
        assert box and box["y"] + box["height"] < DESKTOP["height"], box  # in the first view
        link.click()
        page.wait_for_selector(f"article.howto[data-game={key}] h1")
        assert page.url.endswith(url), page.url
        page.go_back()
        page.wait_for_selector("#btn-practice")
    shot(page, "home-rules-link")


def test_a_presets_page_words_the_engines_rules_not_a_copy_in_the_client(open_page):
    """The How to play page of a preset words the rule options the engine gives it (the
    preset's ``rules`` in GET /api/games; over a table, the table's own ``options``):
    the client kept its own table of the five presets' rules, a rule in two places. Given
    other rules, the page says them."""
    en = catalog("en")

    def games(route):
        answer = route.fetch().json()
        for g in answer["games"]:
            if g["key"] == "color-clash":
                rules = g["presets"]["classic-table"]["rules"]
                rules.update(call="manual", stacking="none", play_on=True)
        route.fulfill(json=answer)

    page = open_page(viewport=DESKTOP, path="/?rules=classic-table")
    page.wait_for_selector("article.howto h1")
    said = page.inner_text("article.howto")
    assert en["howto.call.none"] in said and en["howto.stack.classic"] in said
    page.context.route("**/api/games", games)
    page.reload()
    page.wait_for_selector("article.howto #howto-last")
    said = page.inner_text("article.howto")
    assert en["howto.call.manual"] in said and en["howto.call.none"] not in said
    assert en["howto.stack.none"] in said and en["howto.end.playOn"] in said


@pytest.mark.parametrize("path, key", [("/?rules=standard", "howto.away"),
                                       ("/?rules=siege", "howto.awayOne"),
                                       ("/?game=coloretto&rules=standard", "coloretto.howto.away"),
                                       ("/?game=rainbow&rules=standard", "rainbow.howto.away")])
def test_the_pages_say_the_sites_own_grace_for_a_lost_connection(open_page, path, key):
    """The pages said a seat waits 90 seconds and an away player's turns last 5, the
    default settings, whatever the operator set (COLORCLASH_RECONNECT_GRACE,
    COLORCLASH_AWAY_TURN_CLOCK): they say GET /api/games' ``away``."""
    cat = {**catalog("en"), **catalog("en", "coloretto"), **catalog("en", "rainbow")}

    def games(route):
        answer = route.fetch().json()
        assert answer["away"] == {"grace": 90, "turn_clock": 5}
        answer["away"] = {"grace": 45, "turn_clock": 8}
        route.fulfill(json=answer)

    page = open_page(viewport=DESKTOP)
    page.context.route("**/api/games", games)
    page.goto(path)
    page.wait_for_selector("article.howto .howto-away")
    text = page.inner_text("article.howto .howto-away")
    assert said(cat, key, grace=45, turn=8) in text
    assert "90" not in text
    assert cat["howto.fair"] in page.inner_text("article.howto")  # every game's page


def test_the_dialog_over_a_table_words_that_tables_own_rules(open_page):
    """Over a table the How to play dialog words the table's own rule options (its view's
    ``options``): a siege table dealt with the last-card call on says to call it."""
    en = catalog("en")
    table = ScriptedTable(open_page, preset="siege", seats=3, viewport=DESKTOP,
                          options={"call": "manual"})
    page = table.page
    page.click("#rules-btn")
    dialog = page.locator(".howto-overlay [role=dialog]")
    dialog.wait_for()
    said = dialog.inner_text()
    assert en["howto.call.manual"] in said and en["howto.call.none"] not in said
    assert en["howto.card.shield"] in said  # still the siege's page


@pytest.mark.parametrize("rounds, key, not_key", [(1, "howto.awayOne", "howto.away"),
                                                  (3, "howto.away", "howto.awayOne")])
def test_the_dialog_over_a_one_round_standard_table_says_the_substitute_plays_to_the_end(
        open_page, rounds, key, not_key):
    """A Standard table plays one round unless its host chose more: over it the dialog
    said a substitute plays "until the next round", while its Leave dialog said there is
    no next round (a rules review). The table's own length decides."""
    en = catalog("en")
    table = ScriptedTable(open_page, preset="standard", seats=3, viewport=DESKTOP,
                          options={"rounds": rounds})
    page = table.page
    page.click("#rules-btn")
    dialog = page.locator(".howto-overlay [role=dialog] .howto-away")
    dialog.wait_for()
    text = dialog.inner_text()
    assert said(en, key) in text and said(en, not_key) not in text
    # and the goal says this table's length, not only "one round by default" (a review)
    goal = page.inner_text(".howto-overlay [role=dialog] section[aria-labelledby=howto-goal]")
    length = en["room.rounds"]["one" if rounds == 1 else "other"].format(n=rounds)
    this = en["howto.length.thisTable"].format(length=length)
    assert this in goal


def test_a_how_to_play_page_says_so_when_the_games_cannot_be_had(open_page):
    """The page waits for GET /api/games (a preset's rules are the engine's): when it
    fails, the page said nothing and spun for ever (diff review); it says the server
    cannot be reached, and draws the rules once the answer comes."""
    en = catalog("en")
    page = open_page(viewport=DESKTOP, path="/")
    page.wait_for_selector("#btn-play-now")
    held = []
    page.context.route("**/api/games", lambda route: held.append(route) or route.abort())
    page.goto("/?rules=siege")
    page.wait_for_selector(".howto-unavailable")
    assert page.inner_text(".howto-unavailable") == en["error.network"]
    assert page.locator("article.howto .spinner").count() == 0
    page.context.unroute("**/api/games")
    page.wait_for_selector("article.howto #howto-stack", timeout=20_000)  # a retry came
    assert en["howto.stack.ranked"] in page.inner_text("article.howto")


def test_the_coloretto_dialog_over_a_table_has_its_sides_points_without_the_games(open_page):
    """Over a table, Coloretto's How to play shows the table's own side's points (the
    view's) when GET /api/games has not come: its scoring table was left out."""
    table = ScriptedTable(open_page, game="coloretto", preset="standard", seats=3,
                          viewport=DESKTOP, options={"scoring": "grey"})
    page = table.page
    page.evaluate("window.__cc.games = null")
    page.click("#rules-btn")
    page.wait_for_selector(".howto-overlay .ct-scoring-table")
    rows = page.locator(".howto-overlay .ct-scoring-table tbody tr")
    assert rows.count() == 1
    assert rows.locator("td").all_inner_texts() == ["1", "4", "8", "7", "6", "5"]
