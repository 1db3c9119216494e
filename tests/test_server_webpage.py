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
