"""Spanish, Turkish and English: every string comes from a catalog, and none is missing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import (
    DESKTOP,
    GAME_CATALOGS,
    PHONE,
    all_catalogs,
    catalog,
    cut_controls,
    shot,
    wait_table,
)

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "src" / "colorclash" / "web"
LANGS = {"en": "en-US", "es": "es-ES", "tr": "tr-TR"}
SCENES = [
    "home", "quick", "join", "join-full", "join-started", "room-host", "room-guest", "table", "bomb",
    "siege", "window", "call", "called", "drawn", "pass", "color", "choose", "day-night",
    "round-over", "game-over", "game-over-guest", "game-over-quick", "time-up", "clock-low", "substituted", "cards", "day-night-6",
    "long-hand", "leave", "rules", "history-open", "faces",
    "howto-classic-table", "howto-standard", "howto-family", "howto-siege", "howto-day-night",
    # Coloretto (js/games/coloretto/scenes.js)
    "home-coloretto", "coloretto", "coloretto-place", "coloretto-2", "coloretto-last",
    "coloretto-over", "coloretto-over-2", "coloretto-rules", "coloretto-leave", "coloretto-room",
    "howto-coloretto",
]


def _placeholders(value) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {p for text in texts for p in re.findall(r"\{(\w+)\}", text)}


@pytest.mark.parametrize("game", [None, *GAME_CATALOGS])
def test_catalogs_have_the_same_keys_and_placeholders(game):
    en = catalog("en", game)
    for lang in ("es", "tr"):
        other = catalog(lang, game)
        assert sorted(other) == sorted(en), (
            f"{lang}: missing {sorted(set(en) - set(other))}, extra {sorted(set(other) - set(en))}"
        )
        for key, value in other.items():
            assert value, f"{lang}:{key} is empty"
            if isinstance(value, dict):
                assert "other" in value, f"{lang}:{key} plural without 'other'"
            assert _placeholders(value) == _placeholders(en[key]), f"{lang}:{key} placeholders"


# Values that are rightly the same in English and another language.
SAME_AS_ENGLISH = {
    "es": {"app.name", "game.color-clash.name", "results.total", "room.minutes", "room.seconds", "table.secondsShort",
           "coloretto.name", "coloretto.card.colour", "rainbow.face", "rainbow.kind.error",
           "names.animal.Panda", "names.animal.Koala",
           # the Spanish seed plays "Rainbow" (its winning row is the "Arcoíris")
           "rainbow.name"},
    "tr": {"card.label", "card.feminine", "coloretto.name", "coloretto.card.colour", "rainbow.face",
           "names.pattern", "names.animal.Panda", "names.animal.Koala", "names.animal.Zebra"},
}


def test_games_keep_their_words_in_their_own_catalogs():
    """A game's catalog holds only its own keys ("<game>."), and the shell's none of them."""
    assert "coloretto" in GAME_CATALOGS
    for lang in LANGS:
        shell = catalog(lang)
        for game in GAME_CATALOGS:
            own = catalog(lang, game)
            assert all(k.startswith(f"{game}.") for k in own), (lang, game)
            assert not [k for k in shell if k.startswith(f"{game}.")], (lang, game)


def test_no_value_is_left_in_english():
    en = all_catalogs("en")
    for lang, allowed in SAME_AS_ENGLISH.items():
        other = all_catalogs(lang)
        same = {k for k in en if other[k] == en[k]}
        assert same <= allowed, f"{lang}: still in English: {sorted(same - allowed)}"


def test_every_key_the_code_asks_for_is_in_the_catalog():
    en = all_catalogs("en")
    used: set[str] = set()
    for path in (WEB / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\(\s*["']([\w.+-]+)["']""", text))
        # keys chosen in a ternary: t(cond ? "a.b" : "c.d")
        for a, b in re.findall(r"""\bt\([^()"']*\?\s*"([\w.+-]+)"\s*:\s*"([\w.+-]+)"\s*[,)]""", text):
            used |= {a, b}
        used |= set(re.findall(r"""countdown:\s*"([\w.+-]+)\"""", text))
    for path in WEB.glob("*.html"):
        used |= set(re.findall(r'data-i18n(?:-[a-z]+)?="([\w.+-]+)"', path.read_text()))
    # keys built from data
    for c in "RBYG":
        used |= {f"color.{c}", f"shape.{c}", f"color.word.{c}", f"card.color.{c}", f"card.colorF.{c}"}
    used |= {f"preset.{p}" for p in ("standard", "family", "classic-table", "siege", "day-night")}
    used |= {f"level.{lv}" for lv in ("random", "easy", "medium", "hard")}
    used |= {f"card.{r}" for r in ("skip", "reverse", "+2", "+1", "+5", "bomb", "shield",
                                   "skipall", "flip", "W", "W+4", "W-clock", "W-hunt")}
    # Coloretto's keys built from data (js/games/coloretto/)
    colours = ("orange", "blue", "brown", "yellow", "grey", "green", "pink")
    shapes = ("circle", "square", "triangle", "star", "diamond", "hexagon", "heart", "rainbow",
              "plus", "flag")
    used |= {f"coloretto.colour.{c}" for c in colours}
    used |= {f"coloretto.shape.{sh}" for sh in shapes}
    used |= {f"coloretto.side.{side}" for side in ("brown", "grey")}
    used |= {f"coloretto.say.{k}{you}" for k in ("draw", "place", "take", "lastRound")
             for you in ("", "You")}
    used |= {"coloretto.table.alone", "coloretto.table.yourTurn", "coloretto.table.take",
             "coloretto.table.place", "coloretto.howto.goal", "coloretto.howto.colours",
             "coloretto.howto.rows", "coloretto.howto.start", "coloretto.howto.two",
             "coloretto.howto.round", "coloretto.howto.alone", "coloretto.howto.end",
             "coloretto.howto.count", "coloretto.howto.best", "coloretto.howto.example",
             "coloretto.howto.win", "coloretto.howto.away"}
    assert len(used) > 150
    missing = sorted(k for k in used if k not in en)
    assert not missing, f"keys used by the client but not in the catalogs: {missing}"


def test_banner_wording_follows_the_seeds():
    es, tr = catalog("es"), catalog("tr")
    assert es["banner.stacked"] == "¡+{n} ACUMULADO!"
    assert es["table.drawN"] == "ROBAR +{n}"
    assert es["banner.shield_up"] == "¡ESCUDO ARRIBA!"
    assert es["banner.blocked"] == "¡BLOQUEADO!"
    assert es["banner.last_card"] == "¡Última carta!"
    assert "Atrapar" in es["table.catchName"]
    assert es["seat.computerLabel"] == "Computadora"
    assert tr["banner.fuse_lit"] == "FİTİL YANDI"
    assert tr["banner.boom"] == "BUM"
    assert tr["banner.one_card"] == "TEK KART!"
    assert tr["table.draw"] == "KART ÇEK"
    assert tr["table.play"] == "OYNA"
    assert tr["table.keep"] == "ELDE TUT"


@pytest.mark.parametrize("lang", LANGS)
def test_how_to_play_names_each_colours_shape_as_the_table_does(lang):
    """Turkish's rules said "yeşil baklava" where the table and the moves say "Yeşil 2
    (karo)": the rules' sentence uses the table's word for every shape."""
    cat = catalog(lang)
    words = set(re.findall(r"\w+", cat["howto.colours"].lower()))
    missing = [cat[f"shape.{c}"] for c in "RBYG" if cat[f"shape.{c}"].lower() not in words]
    assert not missing, (missing, cat["howto.colours"])


@pytest.mark.parametrize("lang", LANGS)
def test_language_follows_the_browser_and_nothing_is_untranslated(open_page, lang):
    cat = catalog(lang)
    page = open_page(PHONE, locale=LANGS[lang])
    page.wait_for_selector("#btn-play-now")
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#btn-play-now").strip() == cat["home.playNow"]
    page.click("#btn-play-now")
    wait_table(page)
    page.wait_for_timeout(200)
    body = page.inner_text("body")
    assert "⟦" not in body
    legal = page.evaluate("window.__cc.view.legal.map(a => a.type)")
    if "draw" in legal:
        assert cat["table.draw"] in page.inner_text(".actions")
    shot(page, f"table-{lang}-phone")
    # every dev scene (rare states, all banners and announcements) in this language, with
    # no control, dialog or banner leaving a 360 px screen or cutting its words
    page.goto(f"/dev.html?scene={SCENES[0]}&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    for scene in SCENES:
        # (each drawn in the same page, as a new page draws it: a page load per scene
        # was nearly all of the walk's 40 s)
        page.evaluate("(scene) => window.__devShow(scene)", scene)
        assert page.evaluate("window.__devReady"), scene
        assert "⟦" not in page.inner_text("body"), scene
        missing = page.evaluate("[...window.__i18nMissing]")
        assert not missing, f"{lang} {scene}: untranslated keys {missing}"
        cut = cut_controls(page)
        assert not cut, f"{lang} {scene}: {cut}"


def test_language_switch_is_remembered(open_page):
    page = open_page(DESKTOP, locale="en-US")
    page.wait_for_selector("#btn-play-now")
    page.select_option("#lang-select", "tr")
    page.wait_for_function("document.documentElement.lang === 'tr'")
    assert page.inner_text("#btn-play-now").strip() == catalog("tr")["home.playNow"]
    page.reload()
    page.wait_for_selector("#btn-play-now")
    assert page.get_attribute("html", "lang") == "tr"
    assert page.inner_text("#btn-play-now").strip() == catalog("tr")["home.playNow"]


def test_the_language_menu_walked_with_the_arrow_keys_switches_once_they_rest(open_page):
    """A closed select changes at each arrow key: English to Turkish drew the whole page in
    Spanish on the way (an accessibility review). With the keys the choice is taken once
    they rest, at once with Enter."""
    page = open_page(DESKTOP, locale="en-US")
    page.wait_for_selector("#btn-play-now")
    page.evaluate("""() => { window.__langs = [];
      new MutationObserver(() => window.__langs.push(document.documentElement.lang))
        .observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] }); }""")
    # The page's timers run when the test says (its clock stands still otherwise): "once
    # they rest" and "at once" are told apart by the page's time, not the machine's speed.
    page.clock.install()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    page.focus("#lang-select")
    page.keyboard.press("ArrowDown")  # Español
    page.keyboard.press("ArrowDown")  # Türkçe
    assert page.input_value("#lang-select") == "tr"
    page.clock.run_for(700)
    page.wait_for_timeout(200)  # (a language taken would be on its way by now)
    assert page.get_attribute("html", "lang") == "en"
    page.clock.run_for(200)  # the keys have rested
    page.wait_for_function("document.documentElement.lang === 'tr'", timeout=5000)
    assert page.evaluate("window.__langs") == ["tr"]  # not through Spanish
    assert page.inner_text("#btn-play-now").strip() == catalog("tr")["home.playNow"]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")  # at once: no time passes on the page's clock
    page.wait_for_function("document.documentElement.lang === 'es'", timeout=5000)
    page.reload()  # (remembered, as a choice of the pointer is)
    page.wait_for_selector("#btn-play-now")
    assert page.get_attribute("html", "lang") == "es"
    # a key that moves nothing (Shift of a Shift+Tab) does not delay a pointer's choice
    page.clock.install()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    page.focus("#lang-select")
    page.keyboard.press("Shift")
    page.select_option("#lang-select", "tr")
    page.wait_for_function("document.documentElement.lang === 'tr'", timeout=5000)


CARD_NAMES = """async () => {
  const { cardLabel } = await import('/js/games/color-clash/cards.js');
  const { describeEvent } = await import('/js/games/color-clash/events.js');
  const { t } = await import('/js/i18n.js');
  const model = { me: 0, room: { seats: [{ seat: 0, kind: 'human', name: 'Ana', connected: true },
                                      { seat: 1, kind: 'human', name: 'Bo', connected: true }] } };
  const names = {};
  for (const code of ['Y-reverse', 'Y-skip', 'R3', 'R-bomb', 'G-flip', 'B+2', 'Y-shield']) names[code] = cardLabel(code);
  names.play = t('say.you.play', { card: cardLabel('Y-reverse') });
  names.chose = describeEvent({ type: 'color_chosen', seat: 0, color: 'Y' }, model);
  names.boChose = describeEvent({ type: 'color_chosen', seat: 1, color: 'Y' }, model);
  for (const [key, seat, count] of [['hunt1', 1, 1], ['hunt3', 1, 3], ['youHunt1', 0, 1]])
    names[key] = describeEvent({ type: 'hunt', seat, color: 'R', count }, model);
  for (const [key, seat, count] of [['take1', 1, 1], ['youTake1', 0, 1], ['take4', 1, 4]])
    names[key] = describeEvent({ type: 'take', seat, count }, model);
  return names;
}"""


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_card_names_agree_and_colours_are_lower_case_mid_sentence(open_page, lang):
    """"Reversa Amarillo", "Jugaste Reversa Amarillo", "3 Rojo": a Spanish card's colour
    agrees with its name and is written in lower case; Turkish puts it first, English is
    as it was. A colour hunt of one card says "1 card" ("drew 1 cards" in en and es), and
    so does a stack of one taken."""
    page = open_page(DESKTOP, locale=LANGS[lang], path=f"/dev.html?scene=table&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(CARD_NAMES)
    want = {
        "en": {"Y-reverse": "Yellow Reverse (triangle)", "Y-skip": "Yellow Skip (triangle)",
               "R3": "Red 3 (circle)", "R-bomb": "Red Bomb (circle)",
               "play": "You played Yellow Reverse (triangle)", "chose": "You chose Yellow",
               "boChose": "Bo chose Yellow", "hunt1": "Bo drew 1 card hunting for Red",
               "hunt3": "Bo drew 3 cards hunting for Red",
               "youHunt1": "You drew 1 card hunting for Red",
               "take1": "Bo took the stack: 1 card", "take4": "Bo took the stack: 4 cards"},
        "es": {"Y-reverse": "Reversa amarilla (triángulo)", "Y-skip": "Salto amarillo (triángulo)",
               "R3": "3 rojo (círculo)", "R-bomb": "Bomba roja (círculo)", "G-flip": "Vuelta verde (rombo)",
               "B+2": "Roba Dos azul (cuadrado)", "Y-shield": "Escudo amarillo (triángulo)",
               "play": "Jugaste Reversa amarilla (triángulo)", "chose": "Elegiste amarillo",
               "boChose": "Bo eligió amarillo", "hunt1": "Bo robó 1 carta buscando rojo",
               "hunt3": "Bo robó 3 cartas buscando rojo",
               # ("robó el montón: 1 cartas", player review)
               "take1": "Bo robó el montón: 1 carta", "youTake1": "Robaste el montón: 1 carta",
               "take4": "Bo robó el montón: 4 cartas"},
        "tr": {"Y-reverse": "Sarı Yön (üçgen)", "R3": "Kırmızı 3 (daire)", "R-bomb": "Kırmızı Bomba (daire)",
               "chose": "Rengi seçtin: sarı", "boChose": "Bo rengi seçti: sarı",
               "hunt1": "Bo kırmızı ararken 1 kart çekti"},
    }[lang]
    assert {k: got[k] for k in want} == want, got


ANIMAL_NAMES = """async () => {
  const { seatName, animalName } = await import('/js/shell/seats.js');
  const seats = [{ seat: 0, kind: 'human', name: 'Quiet Turtle' },
                 { seat: 1, kind: 'human', name: 'Blue Otter 2' },
                 { seat: 2, kind: 'human', name: 'Quiet Person' }];
  const quick = { kind: 'quick-match', seats }, own = { kind: 'private', seats };
  return { quick: [0, 1, 2].map((s) => seatName(quick, s)),
           private: [0, 1, 2].map((s) => seatName(own, s)),
           queue: animalName('Golden Fox') };
}"""


@pytest.mark.parametrize("lang", ["en", "es", "tr"])
def test_quick_match_animal_names_are_said_in_the_pages_language(open_page, lang):
    """Quick Match names are the site's words ("Quiet Turtle"): a Spanish or Turkish page
    says them in its language; a name a person chose (a private room's) stays as it is."""
    page = open_page(DESKTOP, locale=LANGS[lang], path=f"/dev.html?scene=table&lang={lang}")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(ANIMAL_NAMES)
    want = {"en": ["Quiet Turtle", "Blue Otter 2", "Quiet Person"],
            "es": ["Tortuga Sutil", "Nutria Azul 2", "Quiet Person"],
            "tr": ["Sessiz Kaplumbağa", "Mavi Su Samuru 2", "Quiet Person"]}[lang]
    assert got["quick"] == want
    assert got["private"] == ["Quiet Turtle", "Blue Otter 2", "Quiet Person"]
    assert got["queue"] == {"en": "Golden Fox", "es": "Zorro de Oro", "tr": "Altın Tilki"}[lang]


HISTORY_LINES = """async () => {
  const { colorClash } = await import('/js/games/color-clash/index.js');
  const { describeAll } = await import('/js/shell/notices.js');
  const model = { me: 0, room: { kind: 'private', seats: [
    { seat: 0, kind: 'human', name: 'Ana', connected: true },
    { seat: 1, kind: 'human', name: 'Bo', connected: true }] } };
  const say = (events) => describeAll(colorClash, events, model);
  return {
    caught: say([{ type: 'draw', seat: 0, count: 2, reason: 'caught' },
                 { type: 'caught', seat: 0, by: 1, count: 2 }]),
    call: say([{ type: 'call_on', seat: 1 }]),
    playAfterCall: say([{ type: 'play', seat: 1, card: 'G6' }, { type: 'last_card', seat: 1 }]),
    windowCall: say([{ type: 'last_card', seat: 1 }]),
    draw: say([{ type: 'draw', seat: 1, count: 1, reason: 'draw' }]),
    myTimeUp: say([{ type: 'time_up', seat: 0, clock: 'turn', by: 'computer' }, { type: 'play', seat: 0, card: 'B4' }]),
    myRuleTimeUp: say([{ type: 'time_up', seat: 0, clock: 'turn', by: 'rule' }, { type: 'play', seat: 0, card: 'B4' }]),
    theirTimeUp: say([{ type: 'time_up', seat: 1, clock: 'turn', by: 'computer' }, { type: 'play', seat: 1, card: 'B4' }]),
    theirTimeUpBack: say([{ type: 'time_up', seat: 1, clock: 'turn', by: 'computer' },
                          { type: 'substitute', seat: 1, on: false }, { type: 'play', seat: 1, card: 'B4' }]),
    mine: say([{ type: 'play', seat: 0, card: 'B4' }]),
  };
}"""


def test_the_history_says_each_penalty_and_call_once(open_page):
    """Caught: "Bo caught you: you draw 2", not also "You drew 2 cards" (it read as 4).
    A last card called before the play: "Bo called last card", then "Bo played Green 6 ·
    Bo has one card" (it said "called last card" twice); called in the window after the
    play, or a plain draw, as before."""
    page = open_page(DESKTOP, path="/dev.html?scene=table&lang=en")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(HISTORY_LINES)
    en = catalog("en")
    assert got["caught"] == en["say.you.caught"].replace("{by}", "Bo").replace("{n}", "2"), got
    assert got["call"] == en["say.lastCard"].replace("{name}", "Bo")
    assert "called" not in got["playAfterCall"] and \
        got["playAfterCall"].endswith(en["say.oneCard"].replace("{name}", "Bo")), got
    assert got["windowCall"] == en["say.lastCard"].replace("{name}", "Bo")
    assert got["draw"] == "Bo drew 1 card", got


def test_the_move_made_when_your_time_ran_out_is_not_said_as_yours(open_page):
    """"Your time ran out: a move was made for you · You played Blue 4" credited the player
    with the computer's choice (clock review). A computer's move is your substitute's, and
    another seat's, that seat's substitute's (a diff review: "Bo played" credited Bo with
    it); the game's own timeout move and your own moves are worded as before."""
    page = open_page(DESKTOP, path="/dev.html?scene=table&lang=en")
    page.wait_for_function("window.__devReady === true")
    got = page.evaluate(HISTORY_LINES)
    en = catalog("en")
    assert got["myTimeUp"] == f"{en['say.you.timeUp']} · Your substitute played Blue 4 (square)", got
    assert got["theirTimeUp"] == "Bo's time ran out · Bo's substitute played Blue 4 (square)", got
    # (still the computer's choice after a substitute event of the same moment)
    assert got["theirTimeUpBack"] == "Bo's time ran out · Bo is back · Bo's substitute played " \
        "Blue 4 (square)", got
    assert got["mine"] == "You played Blue 4 (square)", got
    # the game's own timeout move (a draw, a fixed policy) is worded as the player's
    assert got["myRuleTimeUp"] == f"{en['say.you.timeUp']} · You played Blue 4 (square)", got


def test_a_name_in_a_right_to_left_script_keeps_its_place_in_a_sentence(open_page):
    """ "سارة, 2 kart çekti": the comma and the number took the Arabic name's direction and
    were drawn before it ("2 ,سارة kart çekti"). A right-to-left name is now isolated in
    the sentence; a left-to-right one is left as it is."""
    page = open_page(DESKTOP, locale="tr-TR")
    page.wait_for_selector("#btn-play-now")
    said = page.evaluate("""async () => {
        const { t } = await import('/js/i18n.js');
        return [t('say.draw', { name: 'سارة', n: 2 }), t('say.draw', { name: 'Ana', n: 2 })];
    }""")
    assert said == ["\u2068سارة\u2069, 2 kart çekti", "Ana, 2 kart çekti"]
    # as drawn: the name first, then its comma and the number, left to right
    xs = page.evaluate("""(text) => {
        const p = document.createElement('p');
        p.textContent = text;
        document.body.append(p);
        const node = p.firstChild;
        const x = (i) => {
            const r = document.createRange();
            r.setStart(node, i);
            r.setEnd(node, i + 1);
            return r.getBoundingClientRect().left;
        };
        const at = (s) => text.indexOf(s);
        const out = { name: x(at('س')), comma: x(at(',')), n: x(at('2')), kart: x(at('k')) };
        p.remove();
        return out;
    }""", said[0])
    assert xs["name"] < xs["comma"] < xs["n"] < xs["kart"], xs
