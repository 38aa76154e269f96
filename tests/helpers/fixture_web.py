"""An offline fixture web for the curation tests: pages, images, a Google CSE stub and a Jina Reader stub.

``with FixtureWeb() as web:`` serves on ``web.base_url`` (``http://127.0.0.1:PORT``, a stdlib
``ThreadingHTTPServer`` in a background thread):

* ``/solar/…``, ``/leaves/…``, ``/bikes/…`` — three HTML pages for each of the queries q1–q3 of
  :data:`FIXTURE_QUERIES` (prose in ``fixture_pages``, pictures generated in ``fixture_images``), with page chrome
  (header logo, nav, cookie banner, aside, footer icon) around the article;
* ``/img/…`` — the images, with their hazards: duplicates (re-encoded/resized copies across pages and the same
  URL twice in a page), tiny icons, a 2100×2100 image, HTML bytes served as JPEG, a truncated JPEG, an image that
  always answers 500, and an ``<img>`` on the private address 10.0.0.7;
* ``/loop/a`` ↔ ``/loop/b`` — a redirect loop; ``/empty.html`` — a page without text; unknown paths → 404;
* ``/customsearch/v1`` — the Google Custom Search stub (``key`` must be :data:`FIXTURE_KEY` and ``cx``
  :data:`FIXTURE_CX`, else 403 with a CSE-style JSON error);
* ``/jina/<absolute url>`` — the Jina Reader stub (fixture pages only; anything else → code 422).

:func:`expected` (also ``web.expected()``) describes, per query, what a pipeline should find and report.
``web.requests`` lists ``(method, path?query)`` of every request served; ``web.fail_next`` injects failures.
"""

from __future__ import annotations

import html as htmlmod
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urljoin, urlsplit

from .fixture_images import BY_PATH, CHROME, CONTENT_TYPES, IMAGES, image_bytes
from .fixture_pages import BIKES_1, BIKES_2, BIKES_3, LEAVES_1, LEAVES_2, LEAVES_3, PAGES, SOLAR_1, SOLAR_2, \
    SOLAR_3, TOKEN_RE, PageSpec, jina_markdown, render_page

FIXTURE_KEY = "fixture-key-0123456789abcdef"
FIXTURE_CX = "fixture-cx-42"
FIXTURE_QUERIES: list[dict[str, str]] = [
    {"id": "q1", "query": "How do solar panels turn sunlight into electricity?"},
    {"id": "q2", "query": "Why do leaves change colour in autumn?"},
    {"id": "q3", "query": "How do bicycle gears make pedalling easier?"},
    {"id": "q4", "query": "What is 2 + 2?"},
]
PRIVATE_RESULT = "http://169.254.169.254/latest/meta-data/"
MISSING_RESULT = "/leaves/autumn-colour-myths.html"
LOOP_RESULT = "/loop/a"
#: A page with a title and an icon but no text (in no search result).
EMPTY_PAGE = "/empty.html"
#: Web results per query in rank order: fixture paths (made absolute on the server) or absolute URLs.
RESULTS: dict[str, list[str]] = {
    "q1": [SOLAR_1.path, PRIVATE_RESULT, SOLAR_2.path, SOLAR_3.path],
    "q2": [LEAVES_1.path, LEAVES_2.path, MISSING_RESULT, LEAVES_3.path],
    "q3": [BIKES_1.path, BIKES_2.path, LOOP_RESULT, BIKES_3.path],
    "q4": [],
}
#: Failing results: location → (hazard, title, snippet).
HAZARD_RESULTS = {
    PRIVATE_RESULT: ("private", "Instance metadata service", "ami-id hostname iam/ instance-id local-ipv4"),
    MISSING_RESULT: ("not_found", "Ten myths about autumn colour", "No, frost does not paint the leaves red..."),
    LOOP_RESULT: ("redirect_loop", "Bicycle gear calculator", "Work out the gear inches of every combination..."),
}
#: Image-search hits per query: (image key, page path used as ``image.contextLink``).
IMAGE_RESULTS: dict[str, list[tuple[str, str]]] = {
    "q1": [("sun_spectrum", SOLAR_1.path), ("solar_roof_search", SOLAR_2.path), ("panel_closeup", SOLAR_3.path)],
    "q2": [("leaf_cells", LEAVES_1.path), ("maple_search", LEAVES_2.path), ("ginkgo", LEAVES_3.path)],
    "q3": [("gear_teeth", BIKES_1.path), ("cassette_search", BIKES_2.path), ("commuter", BIKES_3.path)],
    "q4": [],
}
_QUERY_IDS = {" ".join(q["query"].casefold().split()): q["id"] for q in FIXTURE_QUERIES}


# --- what a pipeline should find --------------------------------------------------------------------------------

@dataclass(frozen=True)
class ImageOccurrence:
    """One image occurrence of a query: in a page (``number`` = reader order) or an image-search hit (rank).

    ``kind``: ``good``, ``duplicate`` (of ``duplicate_of``, the first occurrence of the same picture in query
    order: pages in rank order, then image-search hits; it equals ``url`` for a URL repeated in one page),
    ``tiny``, ``oversized``, ``broken`` (``note`` says how), ``server_error`` or ``private``.
    """

    source: str
    number: int
    url: str
    key: str
    kind: str
    format: str
    duplicate_of: str | None = None
    note: str = ""


@dataclass(frozen=True)
class QueryExpectation:
    """What the fixture web holds for one query."""

    id: str
    query: str
    results: tuple[str, ...]
    pages: tuple[str, ...]
    failing: dict[str, str]
    page_images: dict[str, tuple[str, ...]]
    image_results: tuple[str, ...]
    images: tuple[ImageOccurrence, ...]
    chrome: tuple[str, ...] = field(default=())

    def by_kind(self, kind: str) -> list[ImageOccurrence]:
        """The occurrences of one kind, in query order."""
        return [o for o in self.images if o.kind == kind]


def page_image_keys(spec: PageSpec) -> list[str]:
    """Image keys of a page's article in document order (what a reader numbers 1, 2, …)."""
    keys: list[str] = []
    for block in spec.blocks:
        if block[0] == "fig":
            keys.append(block[1])
        elif block[0] == "p":
            keys.extend(TOKEN_RE.findall(block[1]))
    return keys


def _abs(base_url: str, location: str) -> str:
    return location if location.startswith("http") else base_url + location


def expected(base_url: str) -> dict[str, QueryExpectation]:
    """Per query id, the fixture's results, pages and image occurrences with their expected verdicts."""
    out: dict[str, QueryExpectation] = {}
    for q in FIXTURE_QUERIES:
        qid = q["id"]
        results = tuple(_abs(base_url, loc) for loc in RESULTS[qid])
        failing = {_abs(base_url, loc): HAZARD_RESULTS[loc][0] for loc in RESULTS[qid] if loc in HAZARD_RESULTS}
        pages = tuple(loc for loc in RESULTS[qid] if loc in PAGES)
        occurrences: list[tuple[str, int, str]] = []
        page_images: dict[str, tuple[str, ...]] = {}
        for path in pages:
            keys = page_image_keys(PAGES[path])
            page_images[base_url + path] = tuple(_abs(base_url, IMAGES[k].path) for k in keys)
            occurrences += [(base_url + path, i, k) for i, k in enumerate(keys, 1)]
        occurrences += [("image-search", rank, k) for rank, (k, _) in enumerate(IMAGE_RESULTS[qid], 1)]
        first: dict[str, str] = {}
        images = []
        for source, number, key in occurrences:
            spec = IMAGES[key]
            url = _abs(base_url, spec.path)
            kind, dup = {"not_image": "broken", "truncated": "broken"}.get(spec.kind, spec.kind), None
            if spec.kind in ("picture", "svg"):
                dup = first.get(spec.picture or "")
                kind = "good" if dup is None else "duplicate"
                first.setdefault(spec.picture or "", url)
            note = spec.note or ("converted to PNG" if spec.fmt == "bmp" else "needs cairosvg" if spec.fmt == "svg"
                                 else "")
            fmt = spec.fmt if spec.fmt in CONTENT_TYPES and spec.kind != "not_image" else ""
            images.append(ImageOccurrence(source, number, url, key, kind, "png" if fmt == "tiny" else fmt, dup,
                                          note))
        out[qid] = QueryExpectation(
            qid, q["query"], results, tuple(base_url + p for p in pages), failing, page_images,
            tuple(base_url + IMAGES[k].path for k, _ in IMAGE_RESULTS[qid]), tuple(images),
            tuple(base_url + IMAGES[k].path for k in CHROME) if pages else ())
    return out


def _further(path: str) -> PageSpec:
    """The page a fixture page links to under "Further reading": the next page of the same query."""
    siblings = next([p for p in locs if p in PAGES] for locs in RESULTS.values() if path in locs)
    return PAGES[siblings[(siblings.index(path) + 1) % len(siblings)]]


# --- the server -------------------------------------------------------------------------------------------------

class Response(NamedTuple):
    status: int
    content_type: str
    body: bytes
    headers: dict[str, str] = {}


def _json(status: int, data: Any) -> Response:
    return Response(status, "application/json; charset=UTF-8", json.dumps(data).encode())


def _cse_error(status: int, message: str, reason: str) -> Response:
    return _json(status, {"error": {"code": status, "message": message, "status": reason,
                                    "errors": [{"message": message, "domain": "global", "reason": reason}]}})


class FixtureWeb:
    """The fixture web server; use as a context manager. ``allow_loopback=True`` is needed to fetch from it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests: list[tuple[str, str]] = []
        self.headers: list[dict[str, str]] = []
        self._failures: list[list[Any]] = []
        self.delay = 0.0  # seconds to wait before answering each request (to catch a crawl mid-way)
        web = self

        class _Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                try:
                    resp = web._handle("GET", self.path, {k.lower(): v for k, v in self.headers.items()})
                except Exception as exc:  # a fixture bug: answer 500 with the reason instead of hanging up
                    resp = Response(500, "text/plain", f"fixture error: {type(exc).__name__}: {exc}".encode())
                self.send_response(resp.status)
                self.send_header("Content-Type", resp.content_type)
                for k, v in resp.headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(resp.body)))
                self.end_headers()
                self.wfile.write(resp.body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self.netloc = f"127.0.0.1:{self._server.server_address[1]}"
        self.base_url = f"http://{self.netloc}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    def __enter__(self) -> FixtureWeb:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def url(self, path: str) -> str:
        """Absolute URL of a fixture path."""
        return self.base_url + path

    def expected(self) -> dict[str, QueryExpectation]:
        """:func:`expected` on this server's base URL."""
        return expected(self.base_url)

    def count(self, prefix: str = "") -> int:
        """How many requests were served whose path (with query) starts with ``prefix``."""
        with self._lock:
            return sum(1 for _, path in self.requests if path.startswith(prefix))

    def reset(self) -> None:
        """Forget the request log and any pending injected failures."""
        with self._lock:
            self.requests.clear()
            self.headers.clear()
            self._failures.clear()

    def fail_next(self, prefix: str, status: int = 503, times: int = 1) -> None:
        """Answer the next ``times`` requests whose path starts with ``prefix`` with HTTP ``status``."""
        with self._lock:
            self._failures.append([prefix, status, times])

    def _handle(self, method: str, raw_path: str, headers: dict[str, str]) -> Response:
        with self._lock:
            self.requests.append((method, raw_path))
            self.headers.append(headers)
            for rule in self._failures:
                if raw_path.startswith(rule[0]) and rule[2] > 0:
                    rule[2] -= 1
                    return _cse_error(rule[1], "Injected failure (backend unavailable).", "backendError")
        if self.delay:
            time.sleep(self.delay)
        path, _, query = raw_path.partition("?")
        if path == "/customsearch/v1":
            return self._cse(parse_qs(query))
        if path.startswith("/jina/"):
            return self._jina(raw_path[len("/jina/"):])
        return self._route(path)

    def _route(self, path: str) -> Response:
        """The fixture site itself (pages, images, redirect loop, 404s)."""
        if path in PAGES:
            spec = PAGES[path]
            ctype = f"text/html; charset={spec.charset}" if spec.charset_in_header else "text/html"
            return Response(200, ctype, render_page(spec, _further(path)).encode(spec.charset))
        if path == EMPTY_PAGE:
            return Response(200, "text/html; charset=utf-8", b'<!DOCTYPE html><html><head><title>Coming soon</title>'
                            b'</head><body><nav><a href="/">Home</a></nav><p><img src="/img/icons/info-32.png" '
                            b'alt=""></p></body></html>')
        if path in ("/loop/a", "/loop/b"):
            return Response(302, "text/html", b"", {"Location": "/loop/b" if path == "/loop/a" else "/loop/a"})
        key = BY_PATH.get(path)
        if key is not None and IMAGES[key].kind != "server_error":
            return Response(200, CONTENT_TYPES[IMAGES[key].fmt], image_bytes(key))
        if key is not None:
            return Response(500, "text/html", b"<h1>500 Internal Server Error</h1>")
        return Response(404, "text/html", b"<h1>404 Not Found</h1>")

    def _cse(self, params: dict[str, list[str]]) -> Response:
        """Google Custom Search JSON API stub."""
        arg = {k: v[0] for k, v in params.items()}
        if arg.get("key") != FIXTURE_KEY:
            return _cse_error(403, "API key not valid. Please pass a valid API key.", "PERMISSION_DENIED")
        if arg.get("cx") != FIXTURE_CX:
            return _cse_error(403, "The provided search engine id is not valid.", "PERMISSION_DENIED")
        try:
            num, start = int(arg.get("num", "10")), int(arg.get("start", "1"))
        except ValueError:
            return _cse_error(400, "Invalid value for num or start.", "INVALID_ARGUMENT")
        if not 1 <= num <= 10 or start < 1 or start + num - 1 > 100:
            return _cse_error(400, "Request contains an invalid argument.", "INVALID_ARGUMENT")
        qid = _QUERY_IDS.get(" ".join(arg.get("q", "").casefold().split()))
        images = arg.get("searchType") == "image"
        items = (self._image_items(qid) if images else self._web_items(qid)) if qid else []
        body: dict[str, Any] = {"kind": "customsearch#search",
                                "queries": {"request": [{"searchTerms": arg.get("q", ""), "count": num,
                                                         "startIndex": start}]},
                                "searchInformation": {"totalResults": str(len(items))}}
        page = items[start - 1:start - 1 + num]
        if page:
            body["items"] = page
        return _json(200, body)

    def _web_items(self, qid: str) -> list[dict[str, Any]]:
        items = []
        for loc in RESULTS[qid]:
            url = _abs(self.base_url, loc)
            if loc in PAGES:
                spec = PAGES[loc]
                first = next(b[1] for b in spec.blocks if b[0] == "p")
                title, snippet = spec.title, TOKEN_RE.sub("", first)[:150].rsplit(" ", 1)[0] + " ..."
            else:
                _, title, snippet = HAZARD_RESULTS[loc]
            items.append({"kind": "customsearch#result", "title": title, "htmlTitle": htmlmod.escape(title),
                          "link": url, "displayLink": urlsplit(url).netloc, "snippet": snippet,
                          "htmlSnippet": htmlmod.escape(snippet), "formattedUrl": url,
                          "pagemap": {"metatags": [{"og:title": title}]}})
        return items

    def _image_items(self, qid: str) -> list[dict[str, Any]]:
        items = []
        for key, context in IMAGE_RESULTS[qid]:
            spec, url = IMAGES[key], self.base_url + IMAGES[key].path
            w, h = spec.size
            items.append({"kind": "customsearch#result", "title": spec.alt, "htmlTitle": spec.alt, "link": url,
                          "displayLink": self.netloc, "snippet": spec.alt, "mime": CONTENT_TYPES[spec.fmt],
                          "fileFormat": CONTENT_TYPES[spec.fmt],
                          "image": {"contextLink": self.base_url + context, "height": h, "width": w,
                                    "byteSize": len(image_bytes(key)), "thumbnailLink": url,
                                    "thumbnailHeight": h // 4, "thumbnailWidth": w // 4}})
        return items

    def _jina(self, target: str) -> Response:
        """Jina Reader stub: reads fixture pages only (following redirects internally), never the outside."""
        target = re.sub(r"^(https?):/(?!/)", r"\1://", target)
        url = target
        for _hop in range(6):
            parts = urlsplit(url)
            if parts.scheme != "http" or parts.netloc != self.netloc:
                break
            resp = self._route(parts.path)
            if resp.status in (301, 302, 303, 307, 308):
                url = urljoin(url, resp.headers["Location"])
                continue
            if resp.status != 200 or not resp.content_type.startswith("text/html"):
                break
            spec = PAGES.get(parts.path)
            charset = resp.content_type.partition("charset=")[2] or (spec.charset if spec else "utf-8")
            title, content = jina_markdown(resp.body.decode(charset), url)
            return _json(200, {"code": 200, "status": 20000, "data": {
                "title": title, "description": "", "url": url, "content": content,
                "usage": {"tokens": len(content) // 4}}, "meta": {"usage": {"tokens": len(content) // 4}}})
        message = f"Failed to goto {target}: the page could not be loaded"
        return _json(422, {"data": None, "code": 422, "name": "AssertionFailureError", "status": 42206,
                           "message": message, "readableMessage": f"AssertionFailureError: {message}"})
