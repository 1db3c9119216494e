"""docs/protocol.md and the running server agree.

Every error code of the document's table is produced by a real server in the situation the
document describes, every code the server's source can send is in the table, and every
JSON example of the document is accepted (client messages) or matches what the server
really sends (the state, room, record and presets examples: same keys, same shapes).
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import websockets

from colorclash.client import Client, ClientError
from colorclash.server.config import Settings
from colorclash.server.protocol import (
    ProtocolError,
    parse_client_message,
    validate_server_message,
)
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SERVER_SRC = ROOT / "src" / "colorclash" / "server"

pytestmark = pytest.mark.timeout(180)


def _section(title_start: str) -> str:
    start = DOC.index(title_start)
    nxt = DOC.find("\n## ", start + 1)
    return DOC[start:nxt if nxt > 0 else len(DOC)]


def documented_codes() -> set[str]:
    table = _section("## 5. Error codes")
    codes: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            codes |= set(re.findall(r"`([a-z_]+)`", first))
    return codes


def codes_in_source() -> set[str]:
    codes: set[str] = set()
    for path in SERVER_SRC.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'_response\("\d+ [^"]+", "([a-z_]+)"', text))
        codes |= set(re.findall(r'"code": "([a-z_]+)", "message"', text))
    from colorclash.server.app import _HTTP_CODES

    codes |= set(_HTTP_CODES.values())
    codes.add("bad_name")  # the REST validation handler's name code
    return codes


def test_every_code_the_server_sends_is_documented_and_the_other_way_round():
    documented = documented_codes()
    sent = codes_in_source()
    assert sent - documented == set(), "codes the server sends but the document lacks"
    assert documented - sent == set(), "codes in the document the server never sends"


# ------------------------------------------------------------------ the running server
# The computer player waits 3 s: the test knows whose turn it is while it checks codes.
SETTINGS = dict(LIFTED_LIMITS, bot_delay=3.0, limit_queue_burst=3, limit_queue_per_min=0.01,
                header_timeout=1.0, allowed_origins=[])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("doc") / "doc.sqlite3"
    with InProcessServer(f"sqlite:///{db}", Settings(**SETTINGS)) as srv:
        yield srv


def _ws_url(srv, path: str) -> str:
    return srv.url.replace("http://", "ws://") + path


async def _first_error(srv, path: str, **kw) -> tuple[str, int | None]:
    async with websockets.connect(_ws_url(srv, path), **kw) as ws:
        msg = json.loads(await ws.recv())
        try:
            await asyncio.wait_for(ws.recv(), 2)
        except websockets.ConnectionClosed:
            pass
        return msg.get("code"), ws.close_code


async def _error_after(conn, send) -> str:
    await send()
    msg = await conn.wait_for(lambda m: m["type"] == "error", timeout=10)
    return msg["code"]


def _http(srv, method: str, path: str, body: bytes | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(srv.url + path, data=body, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _raw_http(srv, data: bytes, wait: float = 4.0) -> bytes:
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=wait)
    s.sendall(data)
    out = b""
    try:
        while chunk := s.recv(4096):
            out += chunk
    except TimeoutError:
        pass
    s.close()
    return out


@pytest.mark.asyncio
async def test_each_documented_code_happens_where_the_document_says(server, tmp_path):
    c = Client(server.url)
    seen: dict[str, str] = {}

    def saw(code: str, expected: str) -> None:
        assert code == expected, f"expected {expected}, got {code}"
        seen[expected] = code

    host = await c.create_room("Ana", seats=3)
    code = host["code"]
    a = await c.connect(code, host["token"])
    # frames (section 5: bad_json ... too_large)
    for raw, expected in (("{", "bad_json"), ('{"v":1,"type":"ping","t":NaN}', "bad_json"),
                          ('{"v":1.0,"type":"ping"}', "bad_version"),
                          ('{"v":1,"type":"chat"}', "unknown_type"),
                          ('{"v":1,"type":"ready","ready":"yes"}', "bad_message"),
                          ("[" + " " * 9000 + "]", "too_large")):
        saw(await _error_after(a, lambda raw=raw: a.send_raw(raw)), expected)
    saw(await _error_after(a, lambda: a.act({"type": "draw"})), "not_playing")
    saw(await _error_after(a, lambda: a.send("start")), "seats_empty")
    saw(await _error_after(a, lambda: a.send("settings", settings={"preset": "nope"})),
        "bad_settings")
    saw(await _error_after(a, lambda: a.send("add_bot", seat=7)), "bad_seat")
    bo = await c.join(code, "Bo")
    saw(await _error_after(a, lambda: a.send("add_bot", seat=bo["seat"])), "seat_taken")
    b = await c.connect(code, bo["token"])
    saw(await _error_after(b, lambda: b.send("start")), "not_host")
    await a.send("add_bot", seat=2)
    await a.wait_state(lambda s: s["room"]["seats"][2]["kind"] == "bot")
    with pytest.raises(ClientError) as err:
        await c.join(code, "Cy")
    saw(err.value.code, "room_full")
    saw(await _error_after(a, lambda: a.send("start")), "not_ready")
    with pytest.raises(ClientError) as err:
        await c.join(code, "Cy", seat=9)
    saw(err.value.code, "bad_seat")
    with pytest.raises(ClientError) as err:
        await c.create_room("Computer")
    saw(err.value.code, "bad_name")
    with pytest.raises(ClientError) as err:
        await c.create_room("Ana", seats=6)
    saw(err.value.code, "guest_limit")

    with pytest.raises(ClientError) as err:
        await c.record(code)
    saw(err.value.code, "not_finished")
    with pytest.raises(ClientError) as err:
        await c.record(code, 3)
    saw(err.value.code, "record_not_found")
    await b.send("ready")
    await a.wait_state(lambda s: s["room"]["seats"][1]["ready"])
    await a.send("start")
    st = await a.wait_state(lambda s: s["room"]["status"] == "playing")
    with pytest.raises(ClientError) as err:
        await c.join(code, "Cy", seat=1)
    saw(err.value.code, "not_in_lobby")
    turn = st["view"]["turn"]
    waiting = b if turn == a.seat else a
    saw(await _error_after(waiting, lambda: waiting.act({"type": "draw"})), "not_your_turn")
    saw(await _error_after(a, lambda: a.act({"type": "next"})), "illegal_action")
    mover = a if turn == a.seat else b
    await mover.act({"type": "draw"}, seq=st["seq"])
    # whoever of the two is to act next (the draw may keep the turn, or pass it on, the
    # computer's turn between), with the state the table has left
    later = await mover.wait_state(
        lambda s: s["seq"] > st["seq"] and {a.seat, b.seat} & set(s["view"]["to_act"]),
        timeout=15)
    now = a if a.seat in later["view"]["to_act"] else b
    mine = await now.wait_state(lambda s: s["seq"] >= later["seq"], timeout=10)
    legal = mine["view"]["legal"][0]
    saw(await _error_after(now, lambda: now.act(legal, seq=st["seq"])), "stale_action")
    # substituted: the seat left during play
    await waiting.send("leave")
    await a.wait_state(lambda s: s["room"]["seats"][waiting.seat]["substitute"])
    saw(await _error_after(waiting, lambda: waiting.act({"type": "draw"})), "substituted")
    # replaced: the same seat opened elsewhere
    again = await c.connect(code, host["token"])
    msg = await a.wait_for(lambda m: m["type"] == "error")
    saw(msg["code"], "replaced")
    await again.close()
    await b.close()
    # removed: the host frees a person's seat in the lobby
    r = await c.create_room("Ro")
    host_r = await c.connect(r["code"], r["token"])
    cy = await c.join(r["code"], "Cy")
    cy_conn = await c.connect(r["code"], cy["token"])
    await host_r.send("remove_player", seat=cy["seat"])
    saw((await cy_conn.wait_for(lambda m: m["type"] == "error"))["code"], "removed")
    await host_r.close()
    await cy_conn.close()
    # not_private: a Practice table has no lobby to go back to
    p = await c.practice("Pia", bots=1, level="easy")
    pia = await c.connect(p["code"], p["token"])
    saw(await _error_after(pia, lambda: pia.send("reopen")), "not_private")
    await pia.close()
    # connect errors (2.1)
    saw((await _first_error(server, f"/ws/{code}?token=nope"))[0], "bad_token")
    saw((await _first_error(server, "/ws/ZZZZZZ?token=x"))[0], "room_not_found")
    saw((await _first_error(server, "/ws/quick-match?ticket=nope"))[0], "ticket_not_found")
    saw((await _first_error(server, f"/ws/{code}?token=x", origin="http://evil.example")
         )[0], "bad_origin")
    # flood: past the rate, then the flood limit
    t = await c.create_room("Flo")
    f = await c.connect(t["code"], t["token"])
    codes = []
    for i in range(150):
        await f.send_raw(json.dumps({"v": 1, "type": "ping", "t": i}))
    try:
        while True:
            m = await f.recv(timeout=5)
            codes.append(m.get("code"))
    except (websockets.ConnectionClosed, TimeoutError):
        pass
    saw("rate_limited" if "rate_limited" in codes else "?", "rate_limited")
    saw("flood" if "flood" in codes else "?", "flood")
    # REST-only codes
    settings = server.hub.settings  # (the tests' settings let one address queue freely)
    settings.quick_match_distinct_addresses = True
    try:
        for _ in range(2):
            await c.quick_match()
        with pytest.raises(ClientError) as err:
            await c.quick_match()
        saw(err.value.code, "already_queued")
    finally:
        settings.quick_match_distinct_addresses = False
    with pytest.raises(ClientError) as err:  # (a burst of 3 tickets)
        await c.quick_match()
    assert err.value.status == 429
    status, body = _http(server, "GET", "/api/nothing-here")
    saw(body["error"]["code"], "not_found")
    status, body = _http(server, "DELETE", "/api/presets")
    saw(body["error"]["code"], "method_not_allowed")
    assert status == 405
    # connection-level answers
    out = _raw_http(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    assert out.startswith(b"HTTP/1.1 408")
    saw(re.search(rb'"code":"([a-z_]+)"', out).group(1).decode(), "too_slow")
    out = _raw_http(server, b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                            b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
    assert out.startswith(b"HTTP/1.1 400"), out[:80]  # (smuggling refused, and closed)
    assert b"x-content-type-options: nosniff" in out.lower()
    saw(re.search(rb'"code":"([a-z_]+)"', out).group(1).decode(), "bad_request")
    # internal: a server bug; the room is unchanged (tests/test_server_fuzz.py covers it)
    seen["internal"] = "internal"
    # no_client: an installation without the browser client (below, test_no_client)
    seen["no_client"] = "no_client"
    # store_unavailable: Redis not answering (tests/test_cluster.py stops it)
    seen["store_unavailable"] = "store_unavailable"
    # store_file_gone: the SQLite file deleted under a server that claimed it
    # (tests/test_server_stop.py deletes it)
    seen["store_file_gone"] = "store_file_gone"
    # overloaded: a server whose per-address cap is reached
    with InProcessServer(f"sqlite:///{tmp_path / 'cap.sqlite3'}",
                         Settings(**LIFTED_LIMITS, max_connections_per_address=1)) as small:
        t = await Client(small.url).create_room("Ana")
        conn = await Client(small.url).connect(t["code"], t["token"])
        out = _raw_http(small, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert out.startswith(b"HTTP/1.1 503")
        saw(re.search(rb'"code":"([a-z_]+)"', out).group(1).decode(), "overloaded")
        await conn.close()
    # bad_host: a server that answers to its own names only
    with InProcessServer(f"sqlite:///{tmp_path / 'host.sqlite3'}",
                         Settings(**LIFTED_LIMITS, allowed_hosts=["127.0.0.1"])) as named:
        out = _raw_http(named, b"GET /api/games HTTP/1.1\r\nHost: evil.example\r\n\r\n")
        assert out.startswith(b"HTTP/1.1 400")
        saw(re.search(rb'"code": ?"([a-z_]+)"', out).group(1).decode(), "bad_host")
    await a.close()
    missing = documented_codes() - set(seen)
    assert not missing, f"documented codes this test did not see: {sorted(missing)}"


# ------------------------------------------------------------------ the examples
def _json_blocks() -> list[str]:
    return re.findall(r"```json\n(.*?)```", DOC, flags=re.S)


def test_client_message_examples_are_accepted():
    blocks = [b for b in _json_blocks() if '"type": "action"' in b and "\n{" in "\n" + b]
    lines = [ln for b in blocks for ln in b.splitlines() if ln.startswith('{"v": 1')]
    assert len(lines) >= 10
    for line in lines:
        try:
            parse_client_message(line)
        except ProtocolError as exc:  # pragma: no cover - the failure message
            pytest.fail(f"the documented message {line} is refused: {exc.code} {exc.message}")


def test_server_message_examples_validate():
    lines = [ln for b in _json_blocks() for ln in b.splitlines()
             if ln.startswith('{"v": 1, "type": "') and '"type": "state"' not in ln
             and any(f'"type": "{t}"' in ln for t in ("welcome", "error", "pong", "queue",
                                                       "matched"))]
    assert {json.loads(ln)["type"] for ln in lines} == {"welcome", "error", "pong", "queue",
                                                        "matched"}
    for line in lines:
        validate_server_message(json.loads(line))


def _example_with_key(key: str) -> dict:
    for block in _json_blocks():
        try:
            data = json.loads(block)
        except ValueError:
            continue
        if isinstance(data, dict) and key in data:
            return data
    raise AssertionError(f"no JSON example with {key!r}")


def _shape(value):
    """Keys, recursively, of dicts; a list's shape is its first item's."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value and isinstance(value[0], dict) else []
    return None


@pytest.mark.asyncio
async def test_documented_objects_have_the_keys_the_server_sends(tmp_path):
    with InProcessServer(f"sqlite:///{tmp_path / 'keys.sqlite3'}",
                         Settings(**LIFTED_LIMITS, bot_delay=0.0)) as srv:
        await _documented_objects(srv)


async def _documented_objects(server) -> None:
    from colorclash.bots import make_bot

    c = Client(server.url)
    presets = await c.presets()
    example = _example_with_key("presets")
    assert set(example) == set(presets)
    assert set(example["presets"][0]) == set(presets["presets"][0])
    assert example["default"] == presets["default"]
    t = await c.practice("Ana", bots=2, preset="classic-table")
    async with await c.connect(t["code"], t["token"]) as me:
        room = me.room
        doc_room = _example_with_key("link")
        assert set(doc_room) == set(room)
        assert set(doc_room["seats"][0]) == set(room["seats"][0])
        assert set(doc_room["settings"]) == set(room["settings"])
        keys = {"v", "type", "seq", "room", "view", "events", "clock", "log_hash"}
        assert keys | {"recent"} == set(me.state)  # a socket's first state
        validate_server_message(me.state)
        doc_recent = _example_with_key("recent")["recent"]
        assert me.state["recent"] and set(doc_recent[0]) == set(me.state["recent"][0])
        assert doc_recent[0]["events"][0]["type"] == me.state["recent"][0]["events"][0]["type"]
        st = await me.play(make_bot("easy", seed=1), timeout=90)
        assert keys == set(st)
        assert st["room"]["status"] == "finished"
    record = await c.record(t["code"])
    doc_record = _example_with_key("actions")
    assert set(doc_record) == set(record)
    assert doc_record["options"] == record["options"]
    assert set(doc_record["result"]) <= set(record["result"])
    assert set(_example_with_key("qr")) == set(t)


def test_play_now_section_names_each_games_default_level():
    from colorclash.bots import default_level
    from colorclash.engine import GAMES

    start = DOC.index("### `POST /api/play-now`")
    text = " ".join(DOC[start:DOC.index("\n###", start + 1)].split())
    name = r"[A-Z][a-z]+(?: [A-Z][a-z]+)?"
    said = dict(re.findall(rf"`([a-z]+)` in ({name}(?:, {name})*(?: and {name})?)", text))
    for key, d in GAMES.items():
        assert any(d.name in names and level == default_level(key)
                   for level, names in said.items()), (key, said)


def test_no_client(tmp_path, monkeypatch):
    import colorclash.server.app as app_module

    monkeypatch.setattr(app_module, "WEB_DIR", tmp_path / "no-web")
    with InProcessServer(f"sqlite:///{tmp_path / 'n.sqlite3'}") as srv:
        req = urllib.request.Request(srv.url + "/r/ABCDEF")
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=5)
        assert e.value.code == 404
        assert json.loads(e.value.read())["error"]["code"] == "no_client"


def test_the_security_headers_are_those_the_document_names():
    """The document named a Content-Security-Policy of six directives; the server sent
    nine (default-src, style-src, img-src too: an attacker review)."""
    from colorclash.server.web_guard import SECURITY_HEADERS

    text = " ".join(DOC.split())
    named = re.search(r"`Content-Security-Policy: ([^`]+)`", text).group(1)
    assert named.replace(" 'sha256-…'", "") == dict(SECURITY_HEADERS)[
        b"content-security-policy"].decode()
    for header, value in SECURITY_HEADERS:
        if header != b"content-security-policy":
            assert f"`{header.decode()}: {value.decode()}`".lower() in text.lower(), header
