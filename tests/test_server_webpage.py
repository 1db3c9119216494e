"""The client's page as served (server/webpage.py): every module the page needs is named
in it up front (modulepreload) by a fingerprint of its content, kept by the browser for a
year under that name, while nothing else is reused without asking: after an upgrade no
browser runs old modules beside new ones, and a returning one asks for no module again."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from colorclash.server.app import WEB_DIR
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer
from colorclash.server.webpage import ClientPage, Fingerprints, module_graph

#: modules the page itself never loads: the dev page's, and what it imports on demand
DEV_ONLY = {"/js/dev.js", "/js/games/coloretto/scenes.js"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("page") / "p.sqlite3"
    with InProcessServer(f"sqlite:///{db}", Settings(**LIFTED_LIMITS)) as srv:
        yield srv


def _get(url: str, headers: dict[str, str] | None = None, method: str = "GET"
         ) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()


def test_the_graph_holds_every_module_of_the_client_but_the_dev_pages():
    """A module the import reader missed (an import written a new way) fails here."""
    graph = module_graph(WEB_DIR)
    every = {"/" + p.relative_to(WEB_DIR).as_posix() for p in (WEB_DIR / "js").rglob("*.js")}
    assert graph[0] == "/js/app.js" and len(graph) == len(set(graph))
    assert set(graph) == every - DEV_ONLY
    assert {"/js/games/rainbow/table.js", "/js/shell/results.js"} <= set(graph)


def test_imports_are_read_in_every_form_and_dynamic_ones_left_for_later(tmp_path):
    js = tmp_path / "js"
    (js / "sub").mkdir(parents=True)
    (js / "app.js").write_text(
        '// import { no } from "./commented.js";\n'
        'import { a,\n  b } from "./a.js";\n'
        "import * as c from './sub/c.js';\n"
        'import "./side.js";\n'
        'export { d } from "./d.js";\n'
        'export const name = "not-a-module.js";\n'
        'const later = () => import("./later.js");\n'
        'import { far } from "https://cdn.example/x.js";\n'
        'import { top } from "/js/top.js";\n')
    for name in ("a", "sub/c", "side", "d", "later", "commented", "not-a-module", "top"):
        (js / f"{name}.js").write_text("export const x = 1;\n")
    (js / "sub" / "c.js").write_text('import { a } from "../a.js";\nexport const c = a;\n')
    assert module_graph(tmp_path) == ["/js/app.js", "/js/a.js", "/js/sub/c.js", "/js/side.js",
                                      "/js/d.js", "/js/top.js"]


def _importmap(page: str) -> tuple[str, dict[str, str]]:
    text = re.search(r'<script type="importmap">(.*?)</script>', page, re.S)[1]
    return text, json.loads(text)["imports"]


def test_the_page_names_every_file_by_its_content_and_preloads_the_modules(server):
    modules = module_graph(WEB_DIR)
    fingerprints = Fingerprints(WEB_DIR)
    for path in ("/", "/index.html", "/r/ABCDEF"):
        status, headers, body = _get(server.url + path)
        assert status == 200 and headers["content-type"].startswith("text/html")
        assert headers["cache-control"] == "no-cache"  # the page: asked about each time
        page = body.decode()
        text, imports = _importmap(page)
        assert imports == {m: f"{m}?v={fingerprints.of(WEB_DIR / m[1:])}" for m in modules}
        # the import map is the page's only inline script, allowed by its hash alone
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"; script-src 'self' 'sha256-{digest}';" in headers["content-security-policy"]
        assert page.count("<script") == 2
        assert f'<script type="module" src="{imports["/js/app.js"]}"></script>' in page
        preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', page)
        assert preloaded == [imports[m] for m in modules[1:]]
        assert page.index("importmap") < page.index("modulepreload")
        css = f"/css/app.css?v={fingerprints.of(WEB_DIR / 'css/app.css')}"
        assert f'<link rel="stylesheet" href="{css}">' in page
        # a game's style sheet under the name app.js links it by
        assert '<link rel="preload" as="style" href="/css/games/rainbow.css">' in page
    status, headers, body = _get(server.url + "/", method="HEAD")
    assert status == 200 and body == b"" and headers["cache-control"] == "no-cache"


@pytest.mark.parametrize("path", ["/js/app.js", "/js/games/rainbow/table.js", "/css/app.css",
                                  "/favicon.svg"])
def test_a_file_asked_for_by_its_fingerprint_is_kept_and_else_asked_about(server, path):
    _, _, page = _get(server.url + "/")
    current = re.search(re.escape(path) + r"\?v=([0-9a-f]+)", page.decode())[1]
    status, headers, body = _get(f"{server.url}{path}?v={current}")
    assert status == 200 and body
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    for asked in (path, f"{path}?v=0123456789abcdef"):  # no fingerprint, or an old one
        status, headers, again = _get(server.url + asked)
        assert status == 200 and again == body
        assert headers["cache-control"] == "no-cache"  # never reused without asking
        status, headers, empty = _get(server.url + asked, {"If-None-Match": headers["etag"]})
        assert status == 304 and empty == b"" and headers["cache-control"] == "no-cache"
    status, headers, _ = _get(server.url + "/i18n/tr.json")
    assert status == 200 and headers["cache-control"] == "no-cache"


def test_a_changed_file_gets_a_new_name_in_a_new_page(tmp_path):
    web = tmp_path / "web"
    shutil.copytree(WEB_DIR, web)
    client = ClientPage(web)
    page, _, _ = client.page()
    assert client.page()[0] is page  # made once while nothing changes
    _, before = _importmap(page)
    table = web / "js" / "games" / "rainbow" / "table.js"
    table.write_text(table.read_text() + "\n// a release later\n")
    _, after = _importmap(client.page()[0])
    changed = {m for m in after if after[m] != before[m]}
    assert changed == {"/js/games/rainbow/table.js"}


def test_without_a_client_the_page_is_a_clear_404(tmp_path, monkeypatch):
    import colorclash.server.app as app_module

    monkeypatch.setattr(app_module, "WEB_DIR", Path(tmp_path))
    with InProcessServer(f"sqlite:///{tmp_path / 'n.sqlite3'}", Settings(**LIFTED_LIMITS)) as srv:
        status, _, body = _get(srv.url + "/r/ABCDEF")
    assert status == 404 and b"no_client" in body


def test_the_page_has_an_etag_and_a_revisit_with_it_gets_304(server):
    """The page was sent no-cache with no ETag: a browser could never be told it had not
    changed. Each of its addresses carries the same tag now, and a revisit with it gets
    304 with no body and the headers of the page (its CSP among them)."""
    tags = set()
    for path in ("/", "/index.html", "/r/ABCDEF"):
        status, headers, body = _get(server.url + path)
        assert status == 200 and body
        assert headers["cache-control"] == "no-cache"
        tags.add(headers["etag"])
    assert len(tags) == 1
    tag = tags.pop()
    status, headers, body = _get(server.url + "/r/ABCDEF", {"If-None-Match": tag})
    assert status == 304 and body == b""
    assert headers["etag"] == tag and "script-src" in headers["content-security-policy"]
    status, _, body = _get(server.url + "/", {"If-None-Match": f'W/{tag}, "other"'})
    assert status == 304
    status, _, body = _get(server.url + "/", {"If-None-Match": '"stale"'})
    assert status == 200 and body


@pytest.mark.parametrize("path", ["/nope", "/rules/standard", "/r/ABCDEF/extra", "/js/nope.js",
                                  "/dev.html"])
def test_a_browser_that_opens_an_address_that_is_nothing_gets_the_page_with_404(server, path):
    """A mistyped address opened in a browser was raw JSON (`{"error": ...}`): it is the
    site's page, still 404, which says so in the visitor's language with the way home. A
    script (no text/html in Accept) and every /api path still get the error format."""
    html = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    status, headers, body = _get(server.url + path, html)
    assert status == 404 and headers["content-type"].startswith("text/html")
    assert b'type="module"' in body and "script-src" in headers["content-security-policy"]
    status, headers, body = _get(server.url + path)
    assert status == 404 and not headers["content-type"].startswith("text/html")
    status, headers, body = _get(server.url + "/api" + path, html)
    assert status == 404 and json.loads(body)["error"]["code"] == "not_found"


def test_a_hidden_file_is_hidden_by_any_name_it_has(tmp_path):
    """The dev page was hidden by its resolved path: on a file system that ignores case
    /DEV.html is another path to the same file. A hidden file is known by its inode too
    (a hard link stands for a second name here)."""
    import os

    from colorclash.server.webpage import FingerprintedStaticFiles, Fingerprints

    (tmp_path / "dev.html").write_text("fake screens")
    os.link(tmp_path / "dev.html", tmp_path / "DEV.html")
    (tmp_path / "app.js").write_text("ok")
    files = FingerprintedStaticFiles(directory=tmp_path, hidden=("dev.html",),
                                     fingerprints=Fingerprints(tmp_path))
    assert files.lookup_path("dev.html") == ("", None)
    assert files.lookup_path("DEV.html") == ("", None)
    assert files.lookup_path("app.js")[1] is not None


@pytest.mark.parametrize("path", ["/js/app.js", "/css/app.css", "/i18n/es.json"])
def test_a_browser_that_takes_gzip_gets_the_text_files_gzipped(server, path):
    """The client's files went as they are (690 KB; about 220 KB gzipped): a first visit
    over a slow phone link took 26 s at 5 KB/s (a bad network review). Gzipped for a
    browser that takes it, the same bytes once unpacked, the same caching, and a revisit
    with the tag it got is still a 304."""
    import gzip

    _, _, page = _get(server.url + "/")
    found = re.search(re.escape(path) + r"\?v=([0-9a-f]+)", page.decode())
    asked = f"{path}?v={found[1]}" if found else path
    status, plain_headers, plain = _get(server.url + asked)
    assert status == 200 and "content-encoding" not in plain_headers
    assert plain_headers["vary"] == "Accept-Encoding"  # (a cache between keeps both)
    status, headers, body = _get(server.url + asked, {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == plain and len(body) < len(plain) / 2
    assert int(headers["content-length"]) == len(body)
    assert headers["cache-control"] == plain_headers["cache-control"]
    assert headers["content-type"] == plain_headers["content-type"]
    assert headers["etag"] == "W/" + plain_headers["etag"]
    status, again, empty = _get(server.url + asked, {"Accept-Encoding": "gzip",
                                                     "If-None-Match": headers["etag"]})
    assert status == 304 and empty == b""
    # (the 304 names what the browser holds, for a cache between: diff review)
    assert again["etag"] == headers["etag"] and again["vary"] == "Accept-Encoding"
    for refused in ("gzip;q=0", "identity", "br, gzip; q=0.0"):
        status, plain_again, _ = _get(server.url + asked, {"Accept-Encoding": refused})
        assert status == 200 and "content-encoding" not in plain_again, refused
    status, head, empty = _get(server.url + asked, {"Accept-Encoding": "gzip"}, method="HEAD")
    assert status == 200 and empty == b"" and head["content-encoding"] == "gzip"
    # a range of the file is a range of its bytes as they are
    status, ranged, part = _get(server.url + asked, {"Accept-Encoding": "gzip",
                                                     "Range": "bytes=0-99"})
    assert status == 206 and part == plain[:100] and "content-encoding" not in ranged


def test_the_page_itself_goes_gzipped_to_a_browser_that_takes_it(server):
    """The client's files went gzipped but the page itself did not (8.6 KB, the first
    thing a visit waits for: a bad network review). It goes gzipped too, at its every
    address and as the 404 page, with the same headers, and a revisit with its tag gets
    a 304."""
    import gzip

    status, plain_headers, plain = _get(server.url + "/")
    assert status == 200 and "content-encoding" not in plain_headers
    assert plain_headers["vary"] == "Accept-Encoding"
    for path in ("/", "/r/ABCDEF"):
        status, headers, body = _get(server.url + path, {"Accept-Encoding": "gzip, br"})
        assert status == 200 and headers["content-encoding"] == "gzip", path
        assert gzip.decompress(body) == plain and len(body) < len(plain) / 2
        assert int(headers["content-length"]) == len(body)
        assert headers["etag"] == "W/" + plain_headers["etag"]
        for same in ("cache-control", "content-security-policy", "content-type", "vary"):
            assert headers[same] == plain_headers[same], same
    status, again, empty = _get(server.url + "/", {"Accept-Encoding": "gzip",
                                                   "If-None-Match": headers["etag"]})
    assert status == 304 and empty == b"" and again["etag"] == headers["etag"]
    status, again, empty = _get(server.url + "/", {"If-None-Match": "*"})
    assert status == 304 and empty == b""
    status, headers, _ = _get(server.url + "/", {"Accept-Encoding": "gzip;q=0"})
    assert status == 200 and "content-encoding" not in headers
    html = {"Accept": "text/html", "Accept-Encoding": "gzip"}
    status, headers, body = _get(server.url + "/nope", html)
    assert status == 404 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == plain and "etag" not in headers


def test_a_file_is_gzipped_once_for_each_content_it_has(tmp_path, monkeypatch):
    """Compressed at each request, ``app.js`` cost 4 ms of CPU a time, which anyone could
    ask for again and again: each content is compressed once and kept."""
    import gzip

    from starlette.responses import FileResponse

    from colorclash.server import webpage

    made: list[int] = []
    real = gzip.compress
    monkeypatch.setattr(webpage.gzip, "compress",
                        lambda data, **kw: made.append(len(data)) or real(data, **kw))
    text = tmp_path / "a.js"
    text.write_text("export const a = 1;\n" * 200)
    scope = {"type": "http", "headers": [(b"accept-encoding", b"gzip")]}
    files = webpage.GzippedFiles()

    def answer(path: Path) -> bytes:
        st = path.stat()
        response = files.answer(FileResponse(path, stat_result=st), path, st, scope)
        return response.headers.get("content-encoding", ""), getattr(response, "body", b"")

    first = answer(text)
    assert first[0] == "gzip" and answer(text) == first and made == [4000]
    text.write_text("export const b = 2;\n" * 300)  # a release later: unpacked anew
    assert gzip.decompress(answer(text)[1]) == text.read_bytes() and made == [4000, 6000]
    small, image = tmp_path / "s.js", tmp_path / "i.png"
    small.write_text("export const s = 1;\n")
    image.write_bytes(b"\x89PNG" + b"\0" * 4000)
    assert answer(small) == ("", b"") and answer(image) == ("", b"")
    assert made == [4000, 6000]
