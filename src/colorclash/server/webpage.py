"""The browser client's page as served: ``index.html`` with its files named by content, an
import map and preload hints; and how long a browser may keep each static file.

**Caching.** The client has no build step, so its files have no version in their names.
A response without ``Cache-Control`` may be reused by a browser without asking, for a
tenth of the time since the file last changed (RFC 9111, heuristic freshness): after an
upgrade a returning player could run old modules beside new ones. So the page names every
module and style sheet it loads with a fingerprint of its content (``/js/ui.js?v=3f2a…``):
an import map sends each module's imports (``./ui.js``) to its fingerprinted name, and a
file asked for by its current fingerprint is kept for a year without asking
(``immutable``). Everything else (the page itself, the catalogs, a file asked for without
its current fingerprint) is ``no-cache``: kept, but asked about each time, a bodiless 304
when unchanged. A returning player's browser asks for the page and the catalogs only.

**Preload hints.** A browser learns of a module only when it reads the one importing it:
``app.js``, the shell, each game's ``index.js``, its table and rules, the results: six
round trips before the first screen. The page carries a ``<link rel="modulepreload">``
for every module ``app.js`` reaches through static imports, and a ``preload`` of each
game's style sheet, so the browser asks for them all at once.

**Compression.** The client's text files are 690 KB as they are and about 220 KB gzipped;
a first visit over a slow phone link took three to four times as long without it (a bad
network review: 26 s at 5 KB/s). A file asked for with ``Accept-Encoding: gzip`` is sent
gzipped, compressed once per content and kept in memory (Starlette's ``GZipMiddleware``
compresses every response anew: 4 ms of CPU for ``app.js`` at each request, which anyone
could ask for again and again).

All of it is read from the files as they are (the import graph, the contents' hashes) and
made again when a file changes: adding a game or a module touches nothing here.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.datastructures import Headers
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.staticfiles import StaticFiles

from colorclash.server.web_guard import CSP

REVALIDATE = {"Cache-Control": "no-cache"}
KEEP = {"Cache-Control": "public, max-age=31536000, immutable"}
#: the files sent gzipped when the browser takes it (text; images are compressed already)
_COMPRESSIBLE = (".js", ".css", ".json", ".html", ".svg", ".txt", ".webmanifest")
_SMALL = 1024  # bytes: smaller files are sent as they are (the headers would eat the gain)

#: ``import … from "x"``, ``export … from "x"`` and ``import "x"``; not ``import("x")``,
#: a dynamic import, which loads on demand (the dev page's scenes)
_STATIC_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b(?:[^"'();]*?\bfrom\s*|\s*)["']([^"']+\.js)["']""",
    re.MULTILINE)
_ENTRY = '<script type="module" src="/js/app.js"></script>'
#: the page's own links to files of the site (its style sheet, icon)
_PAGE_LINK = re.compile(r'\b(href|src)="(/[^"?#]+\.(?:css|svg|png|js))"')


def module_graph(web_dir: Path, entry: str = "js/app.js") -> list[str]:
    """The modules ``entry`` reaches by static imports (itself included), as site paths
    (``/js/…``), in the order found. Imports of other sites are left out."""
    root = web_dir.resolve()
    found: list[str] = []
    todo = [root / entry]
    seen: set[Path] = set()
    while todo:
        path = todo.pop(0)
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        found.append("/" + path.relative_to(root).as_posix())
        text = path.read_text(encoding="utf-8")
        for spec in _STATIC_IMPORT.findall(text):
            if "://" in spec:
                continue
            target = (root / spec.lstrip("/")) if spec.startswith("/") else path.parent / spec
            target = target.resolve()
            if target.is_relative_to(root):
                todo.append(target)
    return found


class Fingerprints:
    """Content hashes of the client's files, by path, made again when a file changes."""

    def __init__(self, web_dir: Path) -> None:
        self.root = web_dir.resolve()
        self._known: dict[Path, tuple[int, int, str]] = {}

    def of(self, path: Path, st: os.stat_result | None = None) -> str:
        path = path.resolve()
        st = st or path.stat()
        known = self._known.get(path)
        if known and known[:2] == (st.st_mtime_ns, st.st_size):
            return known[2]
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        self._known[path] = (st.st_mtime_ns, st.st_size, digest)
        return digest

    def url(self, site_path: str) -> str:
        return f"{site_path}?v={self.of(self.root / site_path.lstrip('/'))}"


class ClientPage:
    """``index.html`` as served, and its Content-Security-Policy (the import map is an
    inline script: allowed by its hash, and nothing else inline is)."""

    def __init__(self, web_dir: Path) -> None:
        self.web_dir = web_dir
        self.fingerprints = Fingerprints(web_dir)
        # (stamp, page, policy, etag, the page gzipped)
        self._made: tuple[Any, str, str, str, bytes] | None = None

    def _stamp(self) -> tuple[Any, ...]:
        files = [self.web_dir / "index.html", *sorted((self.web_dir / "js").rglob("*.js")),
                 *sorted((self.web_dir / "css").rglob("*.css"))]
        stats = [(str(f), f.stat()) for f in files]
        return tuple((name, st.st_mtime_ns, st.st_size) for name, st in stats)

    def page(self) -> tuple[str, str, str]:
        """(the page, its Content-Security-Policy, its ETag), made again when a file
        changed."""
        stamp = self._stamp()
        if self._made is None or self._made[0] != stamp:
            page, policy = self._make()
            digest = hashlib.sha256(f"{page}\0{policy}".encode()).hexdigest()[:32]
            packed = gzip.compress(page.encode(), compresslevel=9, mtime=0)
            self._made = (stamp, page, policy, f'"{digest}"', packed)
        return self._made[1], self._made[2], self._made[3]

    def response(self, request_headers: Headers, static: StaticFiles,
                 status_code: int = 200) -> Response:
        """The page as answered to a request with ``request_headers``: gzipped when it
        takes gzip (8.6 KB, 2.2 KB so), a bodiless 304 when it holds the current page (by
        ``static``'s own test of ``If-None-Match``, which takes a weak tag for its strong
        one)."""
        page, policy, etag = self.page()
        packed = takes_gzip(request_headers.get("accept-encoding", ""))
        headers = {**REVALIDATE, "Content-Security-Policy": policy, "Vary": "Accept-Encoding"}
        if status_code == 200:
            headers["ETag"] = f"W/{etag}" if packed else etag
            if static.is_not_modified(Headers({"etag": etag}), request_headers):
                return Response(status_code=304, headers=headers)
        if not packed:
            return HTMLResponse(page, status_code=status_code, headers=headers)
        assert self._made is not None
        return Response(self._made[4], status_code=status_code, media_type="text/html",
                        headers={**headers, "Content-Encoding": "gzip"})

    def _make(self) -> tuple[str, str]:
        page = (self.web_dir / "index.html").read_text(encoding="utf-8")
        policy = CSP.decode()
        if _ENTRY not in page:
            return page, policy
        url = self.fingerprints.url
        modules = module_graph(self.web_dir)
        imports = json.dumps({"imports": {m: url(m) for m in modules}}, indent=1,
                             separators=(",", ": "))
        digest = base64.b64encode(hashlib.sha256(imports.encode()).digest()).decode()
        policy = policy.replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'")
        head = [f'<script type="importmap">{imports}</script>',
                f'<script type="module" src="{html.escape(url(modules[0]))}"></script>']
        head += [f'<link rel="modulepreload" href="{html.escape(url(m))}">' for m in modules[1:]]
        # (a game's style sheet is linked by app.js under its own name: preloaded as such)
        head += [f'<link rel="preload" as="style" href="/{p.relative_to(self.web_dir).as_posix()}">'
                 for p in sorted((self.web_dir / "css" / "games").glob("*.css"))]
        # the page's own links by fingerprint, then what is added here (the games' style
        # sheets keep their names: app.js links them so)
        page = _PAGE_LINK.sub(
            lambda m: f'{m[1]}="{html.escape(url(m[2]))}"'
            if (self.web_dir / m[2].lstrip("/")).is_file() else m[0],
            page.replace(_ENTRY, "\0", 1))
        return page.replace("\0", "\n  ".join(head), 1), policy


class FingerprintedStaticFiles(StaticFiles):
    """Static files: kept a year when asked for by their current fingerprint (``?v=``),
    else kept but asked about each time (``no-cache``).

    ``hidden`` names files of the directory never served, however the path is spelt: a
    route refusing ``/dev.html`` did not refuse ``/dev.html/``, ``//dev.html`` or
    ``/r/..%2fdev.html``, which the directory resolves to the same file (and the same
    spellings of ``index.html`` served the page's template, without its script hash)."""

    def __init__(self, *args: Any, fingerprints: Fingerprints,
                 hidden: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fingerprints = fingerprints
        self.gzipped = GzippedFiles()
        root = Path(str(self.directory)).resolve()
        self.hidden = [root / name for name in hidden]

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        full_path, stat_result = super().lookup_path(path)
        if stat_result is not None and any(self._same(stat_result, p) for p in self.hidden):
            return "", None
        return full_path, stat_result

    @staticmethod
    def _same(found: os.stat_result, hidden: Path) -> bool:
        """Whether ``found`` is the file ``hidden`` (its device and inode, read now: a
        name compared would miss /DEV.html on a file system that ignores case)."""
        try:
            return os.path.samestat(found, os.stat(hidden))
        except OSError:  # (not there)
            return False

    def file_response(self, full_path: Any, stat_result: os.stat_result, scope: Any,
                      status_code: int = 200) -> Any:
        response = super().file_response(full_path, stat_result, scope, status_code)
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v")
        current = asked and asked[0] == self.fingerprints.of(Path(full_path), stat_result)
        response.headers.update(KEEP if current else REVALIDATE)
        return self.gzipped.answer(response, Path(full_path), stat_result, scope)


def takes_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (named, and not with ``q=0``)."""
    for part in accept_encoding.lower().split(","):
        name, _, params = part.partition(";")
        if name.strip() != "gzip":
            continue
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            return float(q) > 0
        except ValueError:
            return True
    return False


class GzippedFiles:
    """Each compressible file's gzipped bytes, made once per content (its size and time)
    and kept while the process lives: the client's files, about 220 KB in all."""

    def __init__(self) -> None:
        self._kept: dict[Path, tuple[tuple[int, int], bytes]] = {}

    def answer(self, response: Response, path: Path, st: os.stat_result,
               scope: Any) -> Response:
        """``response`` gzipped when the request takes gzip (not a range of it), the file
        is text and big enough; else ``response``, marked as depending on the request's
        ``Accept-Encoding`` when it could have been (a cache between keeps both). A 304
        names the representation the browser holds (its weak tag when gzipped)."""
        if path.suffix not in _COMPRESSIBLE or st.st_size < _SMALL:
            return response
        response.headers["Vary"] = "Accept-Encoding"
        asked = Headers(scope=scope)
        if not takes_gzip(asked.get("accept-encoding", "")) or "range" in asked:
            return response
        if not isinstance(response, FileResponse):  # (304: not modified)
            if "etag" in response.headers:
                response.headers["etag"] = "W/" + response.headers["etag"].removeprefix("W/")
            return response
        stamp = (st.st_size, st.st_mtime_ns)
        kept = self._kept.get(path)
        if kept is None or kept[0] != stamp:
            kept = (stamp, gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
            self._kept[path] = kept
        headers = {k: v for k, v in response.headers.items()
                   if k not in ("content-length", "accept-ranges")}
        # another representation of the same file: a weak tag, still matched by a
        # revisit's If-None-Match (the static files compare tags without "W/")
        headers["etag"] = "W/" + headers["etag"].removeprefix("W/")
        headers["content-encoding"] = "gzip"
        return Response(kept[1], status_code=response.status_code, headers=headers,
                        media_type=response.media_type)
