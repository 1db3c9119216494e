"""REST and WebSocket answers agree with docs/protocol.md sections 1, 5 and 7 in the
corners an audit found: wrong methods, wrong JSON types, empty bodies, empty levels and
out-of-range numbers."""

from __future__ import annotations

import http.client
import json
import urllib.request

import pytest

from colorclash.client import Client, ClientError
from colorclash.engine import GAMES
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

pytestmark = pytest.mark.timeout(120)

POST_ONLY = ("/api/rooms", "/api/practice", "/api/play-now", "/api/quick-match",
             "/api/rooms/ABCDEF/join")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("rest") / "rest.sqlite3"
    with InProcessServer(f"sqlite:///{db}", Settings(**LIFTED_LIMITS)) as srv:
        yield srv


def _request(srv, method: str, path: str, body: bytes | None = None,
             content_type: str | None = "application/json"
             ) -> tuple[int, dict, dict[str, str]]:
    """One request; ``content_type=None`` sends no Content-Type header at all (urllib
    would add a form's)."""
    headers = {"Content-Type": content_type} if content_type else {}
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        raw, status, got = r.read(), r.status, {k.lower(): v for k, v in r.getheaders()}
    finally:
        conn.close()
    return status, (json.loads(raw) if raw else {}), got


@pytest.mark.parametrize("path", POST_ONLY)
@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
def test_a_wrong_method_on_a_post_only_path_is_405_with_allow(server, path, method):
    status, body, headers = _request(server, method, path)
    assert status == 405, (method, path, body)
    assert body["error"]["code"] == "method_not_allowed" and body["error"]["message"]
    assert headers.get("allow") == "POST"


def test_wrong_methods_elsewhere_in_the_api_name_the_methods_that_work(server):
    status, body, headers = _request(server, "POST", "/api/games")
    assert (status, body["error"]["code"], headers.get("allow")) == (
        405, "method_not_allowed", "GET, HEAD")  # (HEAD works where GET does: said too)
    status, body, headers = _request(server, "PUT", "/api/quick-match/some-ticket")
    assert (status, body["error"]["code"], headers.get("allow")) == (
        405, "method_not_allowed", "DELETE, GET, HEAD")
    status, body, headers = _request(server, "HEAD", "/api/rooms")
    assert (status, headers.get("allow")) == (405, "POST")
    # a method outside the common seven got the static files' 405 "Allow: GET, HEAD"
    for method in ("TRACE", "PROPFIND", "MKCOL"):
        status, body, headers = _request(server, method, "/api/rooms")
        assert (status, body["error"]["code"], headers.get("allow")) == (
            405, "method_not_allowed", "POST"), method
        status, body, _ = _request(server, method, "/api/nowhere")
        assert (status, body["error"]["code"]) == (404, "not_found"), method


def test_head_answers_what_get_answers_without_the_body(server):
    """RFC 9110: a server that answers GET answers HEAD (``curl -I``, link checkers,
    monitors). FastAPI's routes gave 405 where GET worked."""
    status, created, _ = _request(server, "POST", "/api/rooms", json.dumps(
        {"name": "Ana"}).encode())
    assert status == 201, created
    code = created["code"]
    for path in ("/api/games", "/api/presets", f"/api/rooms/{code}", f"/r/{code}",
                 f"/api/rooms/{code}/qr.svg", "/healthz", "/"):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            conn.request("GET", path)
            got = conn.getresponse()
            body = got.read()
            conn.request("HEAD", path)
            head = conn.getresponse()
            assert head.read() == b""
        finally:
            conn.close()
        assert (head.status, got.status) == (200, 200), path
        assert head.getheader("content-type") == got.getheader("content-type"), path
        if path != "/healthz":  # (its figures change between the two requests)
            assert int(head.getheader("content-length")) == len(body), path
    status, _, _ = _request(server, "HEAD", "/api/rooms/ZZZZZZ")
    assert status == 404


@pytest.mark.parametrize("method", ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"])
@pytest.mark.parametrize("path", ["/api/nothing-here", "/api/rooms/ABCDEF/join/more",
                                  "/api"])
def test_an_unknown_api_path_is_404_not_found_for_every_method(server, method, path):
    status, body, _ = _request(server, method, path)
    assert status == 404, (method, path, body)
    if method != "HEAD":
        assert body["error"]["code"] == "not_found" and body["error"]["message"]


def test_the_browser_client_is_still_served(server):
    with urllib.request.urlopen(server.url + "/", timeout=10) as r:
        assert r.status == 200 and r.headers["content-type"].startswith("text/html")
    status, body, _ = _request(server, "GET", "/api/games")
    assert status == 200 and body["games"]


NAMED = ("/api/rooms", "/api/practice", "/api/play-now")


@pytest.mark.parametrize("path", NAMED)
@pytest.mark.parametrize("name", [123, None, True, ["Ana"], {"n": "Ana"}])
def test_a_name_of_the_wrong_json_type_is_bad_message(server, path, name):
    status, body, _ = _request(server, "POST", path, json.dumps({"name": name}).encode())
    assert (status, body["error"]["code"]) == (422, "bad_message"), body


@pytest.mark.parametrize("name,reason", [
    ("", "empty"), ("   ", "empty"), ("x" * 21, "too_long"), ("Computer", "computer"),
    ("a\tb", "invisible"), ("Ana \U0001F469\u200d\U0001F680", "invisible"),
    ("A\u3164", "unreadable"), ("\u0301Ana", "unreadable")])
def test_a_text_that_is_not_an_acceptable_name_is_still_bad_name(server, name, reason):
    """``bad_name``, and its ``reason``: which rule, for the page to say in its words."""
    for path in NAMED:
        status, body, _ = _request(server, "POST", path, json.dumps({"name": name}).encode())
        assert (status, body["error"]["code"]) == (422, "bad_name"), (path, body)
        assert body["error"]["reason"] == reason, (path, body)
        message = body["error"]["message"]  # written for people, without pydantic's prefix
        assert message.startswith("name: ") and "Value error" not in message, message
    host = _request(server, "POST", "/api/rooms", b'{"name": "Ana"}')[1]
    path = f"/api/rooms/{host['code']}/join"
    assert _request(server, "POST", path, json.dumps({"name": name}).encode())[1][
        "error"]["code"] == "bad_name"
    assert _request(server, "POST", path, b'{"name": 7}')[1]["error"]["code"] == "bad_message"


@pytest.mark.parametrize("content_type", ["application/json", None])
def test_an_empty_body_is_the_empty_object(server, content_type):
    """Every field of the POST bodies is optional: no body at all means {}."""
    for path, status in (("/api/rooms", 201), ("/api/practice", 201),
                         ("/api/play-now", 201), ("/api/quick-match", 202)):
        for body in (b"", None):
            got, answer, _ = _request(server, "POST", path, body, content_type)
            assert got == status, (path, body, content_type, answer)
            assert answer.get("token") or answer.get("ticket")
    host = _request(server, "POST", "/api/rooms", b"", content_type)[1]
    room = _request(server, "GET", f"/api/rooms/{host['code']}")[1]
    assert room["seats"][0]["name"] == "Player" and room["settings"]["preset"] == (
        "classic-table")
    got, ticket, _ = _request(server, "POST", f"/api/rooms/{host['code']}/join", b"",
                              content_type)
    assert got == 200 and ticket["seat"] == 1
    room = _request(server, "GET", f"/api/rooms/{host['code']}")[1]
    assert room["seats"][1]["name"] == "Player 2"  # a taken name gets a number


def test_a_body_without_a_content_type_is_refused_as_not_json(server):
    got, answer, _ = _request(server, "POST", "/api/rooms", b'{"name": "Ana"}', None)
    assert (got, answer["error"]["code"]) == (400, "bad_json")
    assert "Content-Type" in answer["error"]["message"]


# ------------------------------------------------------------------ levels and ranges
async def _error_of(conn, type_: str, **fields) -> dict:
    await conn.send(type_, **fields)
    return await conn.wait_for(lambda m: m["type"] in ("error", "state"))


@pytest.mark.asyncio
@pytest.mark.parametrize("game", list(GAMES))
async def test_an_empty_level_is_refused_like_any_unknown_level(server, game):
    c = Client(server.url)
    for level in ("", "godlike"):
        with pytest.raises(ClientError) as err:
            await c.request("POST", "/api/practice", {"game": game, "level": level})
        assert (err.value.status, err.value.code) == (422, "bad_settings"), level
    host = await c.create_room("Ana", game=game, seats=2)
    async with await c.connect(host["code"], host["token"]) as me:
        await me.wait_state(lambda s: True)
        for level in ("", "godlike"):
            msg = await _error_of(me, "add_bot", seat=1, level=level)
            assert (msg["type"], msg.get("code")) == ("error", "bad_settings"), (level, msg)
        room = await c.room(host["code"])
        assert room["seats"][1]["kind"] == "empty"
        await me.send("add_bot", seat=1)  # no level: the game's default
        st = await me.wait_state(lambda s: s["room"]["seats"][1]["kind"] == "bot")
        listed = {g["key"]: g for g in (await c.request("GET", "/api/games"))["games"]}
        assert st["room"]["seats"][1]["level"] == listed[game]["default_level"]


@pytest.mark.asyncio
async def test_an_empty_preset_is_refused_like_any_unknown_preset(server):
    """``"preset": ""`` was read as the default: a lobby's settings message with it took a
    siege room back to classic-table and cleared everyone's ready (attacker review); an
    empty game or level was refused already."""
    c = Client(server.url)
    for path, body in (("/api/rooms", {"name": "Ana"}), ("/api/practice", {}),
                       ("/api/quick-match", {})):
        with pytest.raises(ClientError) as err:
            await c.request("POST", path, {**body, "preset": ""})
        assert (err.value.status, err.value.code) == (422, "bad_settings"), path
        assert "unknown preset ''" in err.value.message, path
    host = await c.create_room("Ana", preset="siege", clock=15)
    async with await c.connect(host["code"], host["token"]) as me:
        await me.wait_state(lambda s: True)
        msg = await _error_of(me, "settings", settings={"preset": ""})
        assert (msg["type"], msg.get("code")) == ("error", "bad_settings"), msg
        room = await c.room(host["code"])
        assert (room["settings"]["preset"], room["settings"]["clock"]) == ("siege", 15)


HUGE = (2**63, -(2**63) - 1, 10**30, -(10**30))


@pytest.mark.asyncio
async def test_out_of_range_integers_get_the_commands_own_code_however_large(server):
    """protocol.md section 7: out of range is the command's code, whatever the size
    (an integer beyond 64 bits was read as a float and refused as bad_message)."""
    c = Client(server.url)
    host = await c.create_room("Ana", seats=3)
    async with await c.connect(host["code"], host["token"]) as me:
        await me.wait_state(lambda s: True)
        for n in HUGE:
            for type_, fields, code in (
                    ("add_bot", {"seat": n}, "bad_seat"),
                    ("remove_bot", {"seat": n}, "bad_seat"),
                    ("settings", {"settings": {"seats": n}}, "bad_settings"),
                    ("settings", {"settings": {"clock": n}}, "bad_settings"),
                    ("settings", {"settings": {"options": {"clock": n}}}, "bad_settings")):
                msg = await _error_of(me, type_, **fields)
                assert (msg["type"], msg.get("code")) == ("error", code), (type_, n, msg)
        # a float is still a value of the wrong type
        msg = await _error_of(me, "add_bot", seat=1e30)
        assert msg.get("code") == "bad_message"
    for n in HUGE:
        for path, body, code in (("/api/rooms", {"seats": n}, "bad_settings"),
                                 ("/api/rooms", {"clock": n}, "bad_settings"),
                                 ("/api/practice", {"bots": n}, "bad_settings"),
                                 (f"/api/rooms/{host['code']}/join", {"seat": n}, "bad_seat")):
            with pytest.raises(ClientError) as err:
                await c.request("POST", path, body)
            assert (err.value.status, err.value.code) == (422, code), (path, body)


# ------------------------------------------------------------------ wording of messages
def test_a_range_of_one_number_is_said_as_that_number(server):
    status, body, _ = _request(server, "POST", "/api/rooms",
                               b'{"game": "rainbow", "seats": 3}')
    assert (status, body["error"]["code"]) == (422, "bad_settings")
    assert body["error"]["message"] == "Rainbow is played by 2 seats"
    status, body, _ = _request(server, "POST", "/api/practice", b'{"game": "rainbow", "bots": 2}')
    assert body["error"]["message"] == "practice takes 1 computer player in Rainbow"
    status, body, _ = _request(server, "POST", "/api/rooms", b'{"seats": 9}')
    assert body["error"]["message"] == "Color Clash is played by 2 to 6 seats"
    status, body, _ = _request(server, "POST", "/api/practice", b'{"bots": 6}')
    assert body["error"]["message"] == "practice takes 1 to 5 computer players in Color Clash"


@pytest.mark.asyncio
@pytest.mark.parametrize("game, until", [("color-clash", "until the next round"),
                                         ("coloretto", "until you connect to it again"),
                                         ("rainbow", "until you connect to it again")])
async def test_substituted_says_when_the_seat_comes_back_in_each_game(server, game, until):
    c = Client(server.url)
    ticket = await c.practice("Ana", game=game)
    async with await c.connect(ticket["code"], ticket["token"]) as me:
        await me.wait_state(lambda s: s["room"]["status"] == "playing")
        await me.send("leave")
        await me.wait_state(lambda s: s["room"]["seats"][0]["substitute"])
        await me.act({"type": "draw"})
        err = await me.wait_for(lambda m: m["type"] == "error")
        assert err["code"] == "substituted"
        assert err["message"].endswith(until), err


def test_a_url_that_names_nothing_is_404_and_health_checks_may_use_head(tmp_path):
    """A record number that is not a number named no record: it was 400 bad_json ('send
    the body as JSON'). HEAD /healthz, what many health checkers send, was 404."""
    import urllib.request

    from colorclash.server.testing import InProcessServer

    with InProcessServer(f"sqlite:///{tmp_path / 'u.sqlite3'}") as srv:
        for tail in ("abc", "1.5", "9" * 50):
            req = urllib.request.Request(srv.url + f"/api/rooms/ABCDEF/record/{tail}")
            try:
                urllib.request.urlopen(req, timeout=5)
            except urllib.error.HTTPError as exc:
                assert exc.code == 404, (tail, exc.code)
                code = json.loads(exc.read())["error"]["code"]
                # (a number, however long, is looked up: there is no room ABCDEF)
                assert code == ("room_not_found" if tail.isdigit() else "record_not_found")
            else:
                raise AssertionError(tail)
        # a match number written loosely names no record (each of these gave match 1 of a
        # room that had one: attacker QA)
        for tail in ("1.0", "01", "+1", "0_1", "%201", "1%20", "0"):
            req = urllib.request.Request(srv.url + f"/api/rooms/ABCDEF/record/{tail}")
            try:
                urllib.request.urlopen(req, timeout=5)
            except urllib.error.HTTPError as exc:
                assert exc.code == 404, (tail, exc.code)
                assert json.loads(exc.read())["error"]["code"] == "record_not_found", tail
            else:
                raise AssertionError(tail)
        req = urllib.request.Request(srv.url + "/healthz", method="HEAD")
        with urllib.request.urlopen(req, timeout=5) as r:
            assert r.status == 200 and r.read() == b""


def test_the_frame_limit_counts_bytes_not_characters():
    from colorclash.server.protocol import ProtocolError, parse_client_message

    frame = '{"v":1,"type":"ping","t":1,"pad":"' + "\U0001f600" * 2100 + '"}'
    assert len(frame) < 8192 < len(frame.encode())
    with pytest.raises(ProtocolError) as err:
        parse_client_message(frame, 8192)
    assert err.value.code == "too_large"
    with pytest.raises(ProtocolError) as err:  # small: on to the message's own checks
        parse_client_message('{"v":1,"type":"ping","t":1,"pad":"' + "\U0001f600" * 10 + '"}')
    assert err.value.code == "bad_message"


def test_an_unknown_quick_match_preset_is_refused_with_the_presets_there_are(server):
    """(It named the unknown preset only: attacker QA.)"""
    status, body, _ = _request(server, "POST", "/api/quick-match",
                               b'{"game": "color-clash", "preset": "nope"}')
    assert status == 422 and body["error"]["code"] == "bad_settings", body
    message = body["error"]["message"]
    assert "'nope'" in message
    assert all(p in message for p in ("standard", "family", "classic-table", "siege",
                                      "day-night")), message


def test_a_qr_code_of_a_link_too_long_for_one_is_a_clear_400(server):
    """The QR code's link is made from the Host header: one of thousands of characters
    overflowed the QR code and was a 500 with a traceback in the log (attacker QA)."""
    status, created, _ = _request(server, "POST", "/api/rooms", json.dumps(
        {"name": "Ana"}).encode())
    assert status == 201, created
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", f"/api/rooms/{created['code']}/qr.svg",
                     headers={"Host": "h" * 2900 + ".example"})
        got = conn.getresponse()
        body = json.loads(got.read())
    finally:
        conn.close()
    assert got.status == 400, body
    assert body["error"]["code"] == "bad_request" and "too long" in body["error"]["message"]


@pytest.mark.asyncio
async def test_the_site_says_how_long_an_away_players_seat_waits(tmp_path):
    """The How to play pages said 90 and 5 seconds whatever the operator set; the browser's
    offline bar kept saying the seat was kept after the grace. GET /api/games' ``away`` and
    each ``welcome``'s ``grace`` carry the settings."""
    settings = Settings(**LIFTED_LIMITS, reconnect_grace=42.0, away_turn_clock=7.0)
    with InProcessServer(f"sqlite:///{tmp_path / 'g.sqlite3'}", settings) as srv:
        status, body, _ = _request(srv, "GET", "/api/games")
        assert status == 200 and body["away"] == {"grace": 42.0, "turn_clock": 7.0}
        c = Client(srv.url)
        ticket = await c.practice("Ana")
        async with await c.connect(ticket["code"], ticket["token"]) as me:
            assert me.welcome["grace"] == 42.0 and me.welcome["seat"] == 0


@pytest.mark.asyncio
async def test_an_away_seat_says_when_its_substitute_comes(tmp_path):
    """During play an away person's seat carries ``substitute_at``: its ``away_since`` and
    the grace (the others saw "Away" and never how long the seat waits: clock review);
    none while connected, none once a substitute plays, none in a lobby."""
    settings = Settings(**LIFTED_LIMITS, reconnect_grace=42.0, bot_delay=30.0)
    with InProcessServer(f"sqlite:///{tmp_path / 'a.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        t = await c.create_room("Ana", preset="classic-table", seats=2, clock=600)
        bo = await c.join(t["code"], "Bo")
        ana = await c.connect(t["code"], t["token"])
        guest = await c.connect(t["code"], bo["token"], reconnect=False)
        await ana.wait_state(lambda s: s["room"]["seats"][1]["connected"])
        assert "substitute_at" not in ana.state["room"]["seats"][1]  # a lobby
        await guest.send("ready", ready=True)
        await ana.wait_state(lambda s: s["room"]["seats"][1]["ready"])
        await ana.send("start")
        st = await ana.wait_state(lambda s: s["room"]["status"] == "playing")
        assert all("substitute_at" not in s for s in st["room"]["seats"])
        await guest.close()
        st = await ana.wait_state(lambda s: not s["room"]["seats"][1]["connected"])
        seat = st["room"]["seats"][1]
        assert seat["substitute_at"] - seat["away_since"] == 42_000
        assert "substitute_at" not in st["room"]["seats"][0]
        await ana.close()
