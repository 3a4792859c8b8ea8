"""The browser client's files, fingerprinted so a browser keeps them for a year and still never runs
an old copy after a deploy.

At start-up every file under ``static/`` is read once; the build's fingerprint is a SHA-256 of all
of them (paths and bytes). Every reference to a script, stylesheet or picture in the HTML, JS and
CSS (``/static/dom.js``, ``/static/games/${id}.js`` in a template literal, ``url(/static/img/x.svg)``)
is rewritten to ``/static/v/<fingerprint>/…``. Those URLs are served with ``Cache-Control: public,
max-age=31536000, immutable``; any change to any file gives every asset a new URL. Pages (HTML) keep
their plain URLs (they are bookmarked and linked) and are served with ``no-cache`` and an ETag: the
browser asks each time and usually gets a 304. One fingerprint for the whole tree rather than one per
file: ES modules import each other by absolute path, including template literals computed at run
time (``import(`/static/games/${game}.js`)``), which a per-file hash could not follow without an
import map (an inline script the Content-Security-Policy forbids).

A URL with another fingerprint (a page loaded from another process of a cluster during a rolling
deploy) still gets this build's file, with ``no-cache``, so nothing wrong is kept for a year.
Editing a file under ``static/`` takes effect at the next start.

A page made at run time (``AssetTable.page``) also names every module its scripts import, directly
or not, as ``<link rel="modulepreload">``: the browser fetches the whole static import graph at once
instead of one level per round trip (app.js, then room.js, then lobby.js, …), which on a slow
mobile network costs several round trips before the first table is drawn (Lighthouse, issue 32).
The graph is read from the files' ``import … from "…"`` statements at start-up."""

from __future__ import annotations

import hashlib
import mimetypes
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
REWRITTEN = {".html", ".js", ".css"}
ASSET_SUFFIXES = (".js", ".css", ".svg", ".png", ".ico", ".webp", ".woff2", ".woff", ".json")
# A static import or re-export (``import { h } from "/static/dom.js";``, ``import "./x.js";``), over
# several lines when formatted so; dynamic ``import(…)`` is not followed (loaded when needed).
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;"'`]*?(?:\bfrom\s*)?["']([^"'\s]+\.js)["']""", re.M)
MODULE_SCRIPT = re.compile(r"""<script type="module" src="/static/([^"]+\.js)"></script>""")
# A reference: /static/ then everything up to a quote, a space or a tag's end. In a template literal
# it includes ${…}; in CSS a closing parenthesis may follow it.
REFERENCE = re.compile(r"""(?<![\w/.])/static/(?!v/)([^"'`\s<>]*)""")
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".html": "text/html; charset=utf-8", ".svg": "image/svg+xml", ".ico": "image/x-icon",
         ".json": "application/json", ".woff": "font/woff", ".woff2": "font/woff2"}


@dataclass(frozen=True)
class Asset:
    body: bytes
    media_type: str
    etag: str


def _is_asset(reference: str) -> bool:
    path = re.split(r"[?#]", reference, maxsplit=1)[0].rstrip(");,")
    return path.endswith(ASSET_SUFFIXES)


def _imports(name: str, text: str) -> list[str]:
    """The modules ``name`` imports statically, as names under static/."""
    found = []
    for target in IMPORT.findall(text):
        if target.startswith("/static/"):
            found.append(target[len("/static/"):])
        elif target.startswith("."):
            found.append((PurePosixPath(name).parent / target).as_posix())
    return [posixpath.normpath(n) for n in found]


def rewrite(text: str, prefix: str) -> str:
    """Point every asset reference in ``text`` at ``prefix`` (``/static/v/<fingerprint>/``)."""
    return REFERENCE.sub(lambda m: prefix + m.group(1) if _is_asset(m.group(1)) else m.group(0), text)


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith("."))


_loaded: dict[Path, tuple[tuple, "AssetTable"]] = {}


def load(root: Path) -> "AssetTable":
    """The table of ``root``, read again only when a file under it changed (its name, size or
    modification time): reading, hashing and rewriting the tree (2.5 MB with the vendored API docs)
    took 0.14 s of CPU, and a process that makes several apps (the tests make one per server
    they start, some thousand a run) needs it once. Tables are never changed once made."""
    files = _files(root)
    signature = tuple((path.as_posix(), stat.st_size, stat.st_mtime_ns) for path in files for stat in (path.stat(),))
    cached = _loaded.get(root)
    if cached is not None and cached[0] == signature:
        return cached[1]
    table = AssetTable(root)
    _loaded[root] = (signature, table)
    return table


class AssetTable:
    """Every file under ``root`` in memory, references rewritten, with its ETag."""

    def __init__(self, root: Path):
        files = _files(root)
        digest = hashlib.sha256()
        raw: dict[str, bytes] = {}
        for path in files:
            name = path.relative_to(root).as_posix()
            raw[name] = path.read_bytes()
            digest.update(name.encode() + b"\0" + hashlib.sha256(raw[name]).digest())
        self.fingerprint = digest.hexdigest()[:16]
        self.prefix = f"/static/v/{self.fingerprint}/"
        self.imports = {name: _imports(name, body.decode("utf-8")) for name, body in raw.items() if name.endswith(".js")}
        self.files: dict[str, Asset] = {}
        for name, body in raw.items():
            suffix = Path(name).suffix
            if suffix in REWRITTEN:
                body = rewrite(body.decode("utf-8"), self.prefix).encode("utf-8")
            media_type = TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
            self.files[name] = Asset(body, media_type, '"%s"' % hashlib.sha256(body).hexdigest()[:32])

    def rewrite(self, html: str) -> str:
        """A page made at run time (app/page_html.py), pointed at this build's assets."""
        return rewrite(html, self.prefix)

    def modules(self, entry: str) -> list[str]:
        """Every module ``entry`` imports, directly or through others, in the order first reached."""
        seen: dict[str, None] = {}
        todo = list(self.imports.get(entry, []))
        while todo:
            name = todo.pop(0)
            if name not in seen and name in self.imports:
                seen[name] = None
                todo.extend(self.imports[name])
        seen.pop(entry, None)
        return list(seen)

    def page(self, html: str, preload: tuple[str, ...] = ()) -> str:
        """A page made at run time: ``modulepreload`` links for its module scripts' import graphs
        (and the modules named in ``preload``, with theirs), then pointed at this build's assets."""
        entries = [*MODULE_SCRIPT.findall(html), *preload]
        names = [n for entry in entries for n in ([entry] if entry in preload else []) + self.modules(entry)]
        names = [n for n in dict.fromkeys(names) if n not in MODULE_SCRIPT.findall(html)]
        links = "".join(f'<link rel="modulepreload" href="/static/{n}">\n' for n in names)
        return self.rewrite(html.replace("</head>", links + "</head>", 1) if links else html)

    def url(self, name: str) -> str:
        return self.prefix + name

    def locate(self, route: str) -> tuple[str, bool]:
        """A path under /static/ → (file name, whether it may be kept for a year)."""
        parts = route.split("/", 2)
        if len(parts) == 3 and parts[0] == "v":
            return parts[2], parts[1] == self.fingerprint and _is_asset(parts[2])
        return route, False

    def response(self, name: str, request_headers: Headers, immutable: bool = False) -> Response:
        """The file as an HTTP answer: 304 when the browser's copy is current, 404 when unknown."""
        asset = self.files.get(name)
        if asset is None:
            raise HTTPException(404)
        headers = {"ETag": asset.etag, "Cache-Control": IMMUTABLE if immutable else REVALIDATE}
        if asset.etag in [tag.strip() for tag in request_headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=headers)
        return Response(asset.body, media_type=asset.media_type, headers=headers)


def _route_path(scope) -> str:
    """The path below the mount point (Starlette keeps the full path and sets ``root_path``)."""
    path, root = scope["path"], scope.get("root_path", "")
    return path[len(root):] if root and path.startswith(root + "/") else path


class StaticAssets:
    """The ASGI app mounted at ``/static``: ``v/<fingerprint>/<file>`` (long-lived) and ``<file>``."""

    def __init__(self, table: AssetTable):
        self.table = table

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise HTTPException(404)
        if scope["method"] not in ("GET", "HEAD"):
            response = Response(status_code=405, headers={"Allow": "GET, HEAD"})
        else:
            name, immutable = self.table.locate(_route_path(scope).lstrip("/"))
            response = self.table.response(name, Headers(scope=scope), immutable=immutable)
        await response(scope, receive, send)
