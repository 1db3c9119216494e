"""Requests a page of another site makes the visitor's browser send are refused; every
answer carries the security headers (server/web_guard.py)."""

from __future__ import annotations

import json
import re
import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer
from colorclash.server.web_guard import host_allowed, origin_allowed


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("guard") / "g.sqlite3"
    settings = Settings(**LIFTED_LIMITS, allowed_origins=["https://friends.example"])
    with InProcessServer(f"sqlite:///{db}", settings) as srv:
        yield srv


def _send(url: str, method: str = "GET", body: bytes | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def _room(server) -> dict:
    status, _, body = _send(server.url + "/api/rooms", "POST", json.dumps(
        {"name": "Ana", "seats": 4}).encode(), {"Content-Type": "application/json"})
    assert status == 201
    return json.loads(body)


def _seats(server, code: str) -> list[str]:
    _, _, body = _send(f"{server.url}/api/rooms/{code}")
    return [s["kind"] for s in json.loads(body)["seats"]]


def test_a_page_of_another_site_cannot_take_a_seat(server):
    """A form on any site could post an empty join to a room whose code it knows, from
    its visitors' browsers, until every seat was taken by nobody."""
    room = _room(server)
    join = f"{server.url}/api/rooms/{room['code']}/join"
    for headers in ({"Origin": "https://evil.example", "Content-Type": "text/plain"},
                    {"Origin": "null"},
                    {"Origin": server.url.replace("http://", "ftp://")},
                    {"Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"}):
        status, _, body = _send(join, "POST", b"", headers)
        assert status == 403, headers
        assert json.loads(body)["error"]["code"] == "bad_origin"
    status, _, _ = _send(server.url + "/api/practice", "POST", b"name=Mallory",
                         {"Origin": "https://evil.example",
                          "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403
    assert _seats(server, room["code"]) == ["human", "empty", "empty", "empty"]  # none taken


def test_a_page_of_another_site_cannot_spend_its_visitors_look_up_budget(tmp_path):
    """Twelve <img src=".../api/rooms/ZZZZZZ/qr.svg"> on any page emptied the visitor's
    look-up budget (a missing code costs 5): the visitor, and everyone behind their
    address, could not open an invite or join while the page stayed open."""
    db = tmp_path / "budget.sqlite3"
    settings = Settings(**{**LIFTED_LIMITS, "limit_lookup_burst": 10, "limit_lookup_per_min": 1})
    with InProcessServer(f"sqlite:///{db}", settings) as srv:
        room = _room(srv)
        image = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors",
                 "Sec-Fetch-Dest": "image"}
        for path in ("/api/rooms/ZZZZZZ/qr.svg", f"/api/rooms/{room['code']}",
                     f"/api/rooms/{room['code']}/record", "/api/games"):
            for _ in range(5):
                status, _, body = _send(srv.url + path, headers=image)
                assert status == 403, (path, status)
                assert json.loads(body)["error"]["code"] == "bad_origin"
        # an XHR of another site, by its Origin
        status, _, _ = _send(f"{srv.url}/api/rooms/{room['code']}",
                             headers={"Origin": "https://evil.example"})
        assert status == 403
        # the budget is whole: the visitor opens the invite and joins
        for _ in range(2):
            status, _, _ = _send(f"{srv.url}/api/rooms/{room['code']}",
                                 headers={"Sec-Fetch-Site": "same-origin"})
            assert status == 200
        status, _, _ = _send(f"{srv.url}/api/rooms/{room['code']}/join", "POST", b"{}",
                             {"Content-Type": "application/json",
                              "Origin": srv.url, "Sec-Fetch-Site": "same-origin"})
        assert status == 200
        # a link from another site to the invite page is a visit, not a request to refuse
        status, _, _ = _send(f"{srv.url}/r/{room['code']}",
                             headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
        assert status == 200


def test_the_sites_own_pages_allowed_origins_and_bots_still_join(server):
    room = _room(server)
    join = f"{server.url}/api/rooms/{room['code']}/join"
    body = json.dumps({"name": "Bo"}).encode()
    for headers in ({"Origin": server.url, "Sec-Fetch-Site": "same-origin"},
                    {"Origin": "https://friends.example"},   # COLORCLASH_ALLOWED_ORIGINS
                    {}):                                      # a bot: no Origin at all
        status, _, _ = _send(join, "POST", body, {"Content-Type": "application/json", **headers})
        assert status == 200, headers
    assert _seats(server, room["code"]) == ["human", "human", "human", "human"]
    # a link from anywhere opens the invite page (the API's reads are the page's own:
    # test_a_page_of_another_site_cannot_spend_its_visitors_look_up_budget)
    status, _, _ = _send(f"{server.url}/r/{room['code']}", headers={"Sec-Fetch-Site": "cross-site"})
    assert status == 200
    status, _, _ = _send(f"{server.url}/api/rooms/{room['code']}",
                         headers={"Origin": "https://friends.example"})
    assert status == 200


@pytest.mark.parametrize("path", ["/", "/api/games", "/r/ABCDEF", "/no-such-file.js"])
def test_every_answer_carries_the_security_headers(server, path):
    _status, headers, _ = _send(server.url + path)
    headers = {k.lower(): v for k, v in headers.items()}
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    # scripts from the site only; the page's import map, its one inline script, by its hash
    assert re.search(r"(^|; )script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')?; ",
                     headers["content-security-policy"]), headers["content-security-policy"]
    # and everything else from the site only (an image from elsewhere could carry out
    # what an injection read: a web review), but inline styles and data: images
    assert headers["content-security-policy"].startswith("default-src 'self'; ")
    assert "img-src 'self' data: blob:" in headers["content-security-policy"]
    # what the page reads goes nowhere but the site: fetches and sockets, forms
    assert "connect-src 'self'" in headers["content-security-policy"]
    assert "form-action 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "same-origin"
    assert headers["permissions-policy"] == ("camera=(), microphone=(), geolocation=(), "
                                             "payment=(), usb=()")
    assert headers["cross-origin-opener-policy"] == "same-origin"


def test_the_api_pages_that_load_scripts_from_a_cdn_are_not_served_unless_asked_for(
        server, tmp_path):
    """/docs and /redoc load Swagger UI and ReDoc from a CDN onto the site's origin, where
    the seat tokens are kept: only with the dev pages. /openapi.json stays for bots."""
    for path in ("/docs", "/redoc"):
        assert _send(server.url + path)[0] == 404
    assert _send(server.url + "/openapi.json")[0] == 200
    settings = Settings(**LIFTED_LIMITS, dev_pages=True)
    with InProcessServer(f"sqlite:///{tmp_path / 'docs.sqlite3'}", settings) as dev:
        status, headers, body = _send(dev.url + "/docs")
        assert status == 200 and b"swagger" in body.lower()
        csp = {k.lower(): v for k, v in headers.items()}["content-security-policy"]
        assert csp == "frame-ancestors 'none'"  # its inline script must run


def test_origin_allowed():
    assert origin_allowed(None, "a.example", [])
    assert origin_allowed("https://a.example", "a.example", [])
    assert origin_allowed("http://A.example:8000", "a.example:8000", [])
    assert not origin_allowed("https://a.example.evil", "a.example", [])
    assert not origin_allowed("chrome-extension://a.example", "a.example", [])
    assert not origin_allowed("null", "a.example", [])
    assert origin_allowed("https://b.example", "a.example", ["https://b.example"])
    assert origin_allowed("https://c.example", "a.example", ["*"])


@pytest.mark.parametrize("path", ["/dev.html", "/js/dev.js", "/dev.html?scene=table"])
def test_the_dev_page_is_not_served_unless_asked_for(server, path, tmp_path):
    """The fake screens of /dev.html are for development and the browser tests
    (COLORCLASH_DEV_PAGES=1); a site's visitors get 404, and its own client all the same.
    The 404 is any missing file's, in the error format (it was plain text, and so told
    the page apart from a path that is not there)."""
    status, headers, body = _send(server.url + path)
    assert status == 404
    missing = _send(server.url + "/js/nope.js")
    assert (headers["content-type"], body) == (missing[1]["content-type"], missing[2])
    assert json.loads(body)["error"]["code"] == "not_found"
    status, _, page = _send(server.url + path, headers={"Accept": "text/html"})
    assert status == 404 and b"<html" in page and b"dev.js" not in page  # the site's own
    assert _send(server.url + "/js/app.js")[0] == 200
    assert _send(server.url + "/")[0] == 200
    settings = Settings(**LIFTED_LIMITS, dev_pages=True)
    with InProcessServer(f"sqlite:///{tmp_path / 'dev.sqlite3'}", settings) as dev:
        status, _, body = _send(dev.url + path)
        assert status == 200 and body


def _send_raw(url: str, path: str) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` exactly as written (urllib would tidy ``//`` and ``..``)."""
    import http.client
    from urllib.parse import urlsplit

    host = urlsplit(url)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=5)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, dict(r.headers), r.read()
    finally:
        conn.close()


@pytest.mark.parametrize("path", ["/dev.html/", "//dev.html", "/./dev.html",
                                  "/r/..%2fdev.html", "/js/dev.js/", "//js/dev.js",
                                  "/js/../dev.html"])
def test_the_dev_page_is_not_served_by_another_spelling(server, path):
    """A route refused /dev.html itself; the static files served it as /dev.html/,
    //dev.html or /r/..%2fdev.html (browsers send those two as written)."""
    status, _, body = _send_raw(server.url, path)
    assert status == 404 and b"scene" not in body


@pytest.mark.parametrize("path", ["/r/..%2f", "/r/..%2findex.html", "/js/../index.html",
                                  "//index.html", "/index.html/"])
def test_the_page_template_is_never_served_raw(server, path):
    """index.html is the page's template: served from the static files (by a spelling
    the routes do not know) it came with the JSON answers' policy and without its
    script hash, a page that does not run."""
    status, headers, body = _send_raw(server.url, path)
    if status == 200:  # the page itself, as client_page serves it
        assert "sha256-" in headers["content-security-policy"], path
    else:
        assert status in (301, 302, 307, 404), (path, status)
    assert b'<script type="module" src="/js/app.js"></script>' not in body, path


def test_the_apis_answers_are_kept_by_no_cache(server):
    """A seat ticket (its token) and a matched Quick Match poll were answered with no
    Cache-Control: a shared cache or the browser's could keep them."""
    import http.client
    from urllib.parse import urlsplit

    host = urlsplit(server.url)
    for method, path, body in (("POST", "/api/rooms", b'{"name": "Ana"}'),
                               ("POST", "/api/quick-match", b"{}"),
                               ("GET", "/api/quick-match/nope", None),
                               ("GET", "/api/games", None)):
        conn = http.client.HTTPConnection(host.hostname, host.port, timeout=5)
        conn.request(method, path, body, {"Content-Type": "application/json"})
        r = conn.getresponse()
        r.read()
        conn.close()
        assert r.getheader("Cache-Control") == "no-store", (path, r.status)
    # the page and the client's files keep their own
    page = {k.lower(): v for k, v in _send(server.url + "/")[1].items()}
    assert page["cache-control"] == "no-cache"


def test_host_allowed():
    names = ["cards.example.org", "*.friends.example", "localhost", "[::1]"]
    for host in ("cards.example.org", "CARDS.example.org:8443", "a.friends.example",
                 "b.c.friends.example:80", "localhost:8000", "[::1]:8000", "[::1]",
                 "cards.example.org.", "cards.example.org.:443"):
        assert host_allowed(host, names), host
    for host in ("evil.example", "cards.example.org.evil.example", "friends.example",
                 "xfriends.example", "", "[::2]:8000", "cards.example.org:x:y"):
        assert not host_allowed(host, names), host
    assert host_allowed("anything.example", []) and host_allowed("x", ["*"])
    # a listed name with its final dot is the same name
    assert host_allowed("cards.example.org", ["cards.example.org."])
    assert host_allowed("a.friends.example:443", ["*.friends.example."])


def _upgrade(url: str, host: str, path: str = "/ws/quick-match") -> bytes:
    """The status line of a WebSocket handshake sent with ``host`` as its Host."""
    return _raw(url, f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")


def _raw(url: str, request: str) -> bytes:
    where = urlsplit(url)
    with socket.create_connection((where.hostname, where.port), timeout=5) as sock:
        sock.sendall(request.encode())
        return sock.recv(4096)


def test_a_name_the_site_does_not_answer_to_is_refused(tmp_path):
    """DNS rebinding: a page of evil.example served from the site's address, under its
    own name, has an Origin that matches its Host. With COLORCLASH_ALLOWED_HOSTS, any
    name but the site's is refused, pages, API and sockets alike."""
    db = tmp_path / "hosts.sqlite3"
    settings = Settings(**LIFTED_LIMITS, allowed_hosts=["127.0.0.1", "cards.example.org"])
    with InProcessServer(f"sqlite:///{db}", settings) as srv:
        room = _room(srv)  # (by its own address)
        port = urlsplit(srv.url).port
        evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}",
                "Content-Type": "application/json"}
        for path, method, body in (("/", "GET", None), ("/api/games", "GET", None),
                                   (f"/api/rooms/{room['code']}/join", "POST", b"{}"),
                                   ("/api/practice", "POST", b'{"name": "Eve"}')):
            status, headers, answer = _send(srv.url + path, method, body, evil)
            assert status == 400, path
            error = json.loads(answer)["error"]
            assert error["code"] == "bad_host"
            assert "'evil.example:" in error["message"]
            assert {k.lower(): v for k, v in headers.items()}["x-frame-options"] == "DENY"
        assert _seats(srv, room["code"]) == ["human", "empty", "empty", "empty"]
        assert _upgrade(srv.url, f"evil.example:{port}").startswith(b"HTTP/1.1 400")
        # the site's own names are served
        status, _, _ = _send(srv.url + "/api/games",
                             headers={"Host": f"cards.example.org:{port}"})
        assert status == 200
        assert _upgrade(srv.url, f"127.0.0.1:{port}").startswith(b"HTTP/1.1 101")
        # two names at once (a browser never sends two): which one would be believed?
        for hosts in ("Host: 127.0.0.1\r\nHost: evil.example\r\n",
                      "Host: evil.example\r\nHost: 127.0.0.1\r\n"):
            answer = _raw(srv.url, f"GET /api/games HTTP/1.1\r\n{hosts}\r\n")
            assert answer.startswith(b"HTTP/1.1 400") and b"bad_host" in answer, answer[:200]
        # a load balancer's or an orchestrator's probe, by an address of its own
        for probe in ("/healthz", "/metrics"):
            status, _, _ = _send(srv.url + probe, headers={"Host": "10.0.3.7:8001"})
            assert status == 200, probe
