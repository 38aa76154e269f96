"""Reading web pages into :class:`~m2rag_bench.curate.clean.Page` (markdown with image markers + images).

Two readers share one interface, ``await reader.read(url) -> ReadResult``, which never raises for a per-URL
failure (the reason is in ``ReadResult.error``):

* :class:`DirectReader` fetches the page itself through the safe :class:`~m2rag_bench.curate.fetch.Fetcher`
  (so its address, redirect, size and time rules apply), decodes it (charset from the headers, else from a
  ``<meta>`` tag or BOM, else UTF-8 with replacement) and converts it with
  :func:`~m2rag_bench.curate.clean.html_to_markdown`;
* :class:`JinaReader` asks the Jina Reader API (``GET https://r.jina.ai/<url>``, JSON answer) and converts its
  markdown with :func:`~m2rag_bench.curate.clean.jina_to_page`. A URL is checked with the Fetcher's policy
  (http(s) only, every address of the host public unless ``allow_loopback``) *before* it is sent, so we never
  ask a third party to fetch a private address. The API key is never shown in errors or ``repr``.

:class:`ReadResult` round-trips through JSON (``to_dict`` / ``from_dict``) so results can be kept in jsonl files.
"""

from __future__ import annotations

import asyncio
import codecs
import os
import re
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urljoin, urlsplit

try:  # the httpx fork shipped with the openai SDK (a core dependency); plain httpx has the same API
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef]

from .._version import __version__
from .clean import Page, PageImage, html_to_markdown, jina_to_page
from .fetch import Fetcher, RefusedAddress, resolve_checked

__all__ = ["DirectReader", "JinaReader", "PageReader", "ReadResult", "check_url", "decode_html", "make_reader"]

JINA_READER_URL = "https://r.jina.ai/"
_RETRY_CODES = {429, 500, 502, 503, 504}
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_SNIFF_TYPES = ("", "application/octet-stream", "binary/octet-stream", "text/plain")
_HTML_SNIFF_RE = re.compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)[\s>]",
                            re.IGNORECASE | re.DOTALL)
_META_CHARSET_RE = re.compile(
    rb"<meta[^>]+?(?:charset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)|content\s*=\s*[\"'][^\"'>]*charset=([A-Za-z0-9._:-]+))",
    re.IGNORECASE)
_WORD_RE = re.compile(r"\w{2,}")
_MARKER_RE = re.compile(r"<IMAGE_PLACEHOLDER>\[\d+\]")


@dataclass
class ReadResult:
    """Outcome of reading one URL: ``page`` and ``title`` when ``ok``, otherwise ``error`` says why."""

    url: str
    ok: bool
    title: str = ""
    page: Page | None = None
    final_url: str | None = None
    error: str | None = None
    reader: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; the page is ``{"markdown": …, "images": [{"number", "url", "alt"}, …]}``."""
        page = None
        if self.page is not None:
            page = {"markdown": self.page.markdown,
                    "images": [{"number": i.number, "url": i.url, "alt": i.alt} for i in self.page.images]}
        return {"url": self.url, "ok": self.ok, "title": self.title, "page": page, "final_url": self.final_url,
                "error": self.error, "reader": self.reader}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReadResult:
        """Inverse of :meth:`to_dict`."""
        raw = data.get("page")
        page = None
        if raw is not None:
            page = Page(markdown=raw.get("markdown", ""),
                        images=[PageImage(number=int(i["number"]), url=i["url"], alt=i.get("alt", ""))
                                for i in raw.get("images", [])])
        return cls(url=data["url"], ok=bool(data["ok"]), title=data.get("title") or "", page=page,
                   final_url=data.get("final_url"), error=data.get("error"), reader=data.get("reader") or "")


class PageReader(Protocol):
    """What the curation pipeline needs from a page reader."""

    name: str

    async def read(self, url: str) -> ReadResult:
        """Read one page; per-URL failures come back as ``ok=False`` results."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...


async def check_url(url: str, allow_loopback: bool = False) -> None:
    """Apply the Fetcher's address policy to ``url`` without fetching it; raises `RefusedAddress`."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise RefusedAddress(f"refused: scheme {parts.scheme or '(none)'!r} is not http(s)")
    if not parts.hostname:
        raise RefusedAddress("refused: no host in URL")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError as exc:
        raise RefusedAddress(f"refused: bad port: {exc}") from exc
    await resolve_checked(parts.hostname, port, allow_loopback)


def _charset_ok(name: str | None) -> str | None:
    """``name`` when Python knows that codec, else ``None``."""
    if not name:
        return None
    try:
        codec = codecs.lookup(name.strip().strip("\"'")).name
        b"a".decode(codec, errors="replace")  # LookupError for codecs that are no text encoding (rot13, …)
    except LookupError:
        return None
    return codec


def decode_html(content: bytes, content_type: str | None = None) -> str:
    """Decode HTML bytes: BOM, then ``charset=`` of the content type, then a ``<meta>`` charset, else UTF-8.

    Undecodable bytes are replaced (U+FFFD) rather than failing the page.
    """
    for bom, name in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                      (codecs.BOM_UTF16_BE, "utf-16-be")):
        if content.startswith(bom):
            return content[len(bom):].decode(name, errors="replace")
    charset = None
    if content_type and "charset=" in content_type.lower():
        charset = _charset_ok(content_type.lower().split("charset=", 1)[1].split(";")[0])
    if charset is None:
        m = _META_CHARSET_RE.search(content[:4096])
        if m:
            charset = _charset_ok((m.group(1) or m.group(2)).decode("ascii", "ignore"))
    if charset in (None, "ascii"):  # pages labelled ASCII are very often UTF-8 in practice
        charset = "utf-8"
    return content.decode(charset, errors="replace")


def _is_html(content: bytes, content_type: str | None) -> bool:
    """Whether the body is HTML: by content type, or by sniffing when the type is missing or generic."""
    ctype = (content_type or "").split(";")[0].strip().lower()
    if ctype in _HTML_TYPES:
        return True
    return ctype in _SNIFF_TYPES and bool(_HTML_SNIFF_RE.match(content[:2048]))


def _has_text(page: Page) -> bool:
    """Whether the page holds any words besides image markers."""
    return bool(_WORD_RE.search(_MARKER_RE.sub(" ", page.markdown)))


def _parse_html(html: str, url: str) -> tuple[str, Page]:
    """Title and :class:`Page` of an HTML document (CPU-bound; run in a worker thread)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    title = " ".join(soup.title.get_text().split()) if soup.title else ""
    base = soup.find("base", href=True)
    base_url = urljoin(url, str(base["href"])) if base is not None else url
    return title, html_to_markdown(html, base_url)


class DirectReader:
    """Read pages by fetching them with a :class:`Fetcher` (the caller owns and closes the fetcher)."""

    name = "direct"

    def __init__(self, fetcher: Fetcher) -> None:
        self.fetcher = fetcher

    async def read(self, url: str) -> ReadResult:
        """Fetch and convert one page; never raises for a failure of this URL."""
        res = await self.fetcher.fetch(url)
        if res.error is not None or res.content is None:
            return ReadResult(url, False, final_url=res.final_url, error=res.error or "empty body",
                              reader=self.name)
        final = res.final_url or url
        if not _is_html(res.content, res.content_type):
            return ReadResult(url, False, final_url=final, reader=self.name,
                              error=f"not HTML: {res.content_type or 'no content type'}")
        try:
            html = decode_html(res.content, res.content_type)
            title, page = await asyncio.to_thread(_parse_html, html, final)
        except Exception as exc:  # a malformed page must not stop the crawl
            return ReadResult(url, False, final_url=final, error=f"unparsable HTML: {type(exc).__name__}: {exc}",
                              reader=self.name)
        if not _has_text(page):
            return ReadResult(url, False, title=title, final_url=final, error="empty page: no text",
                              reader=self.name)
        return ReadResult(url, True, title=title, page=page, final_url=final, reader=self.name)

    async def aclose(self) -> None:
        """Nothing to release: the fetcher belongs to the caller."""


class JinaReader:
    """Read pages through the Jina Reader API (``GET {base_url}{url}``, ``Accept: application/json``).

    ``Authorization: Bearer <key>`` is sent when the environment variable ``api_key_env`` (or ``api_key``) is
    set; ``X-Token-Budget`` caps the tokens of one page. 429, 5xx, timeouts and connection errors are retried
    ``retries`` times with exponential backoff.
    """

    name = "jina"

    def __init__(self, base_url: str = JINA_READER_URL, api_key: str | None = None,
                 api_key_env: str = "JINA_API_KEY", token_budget: int = 32768, timeout: float = 60.0,
                 retries: int = 2, backoff: float = 1.0, allow_loopback: bool = False, trust_env: bool = True,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.base_url, self.token_budget, self.timeout = base_url, token_budget, timeout
        self.retries, self.backoff, self.allow_loopback = retries, backoff, allow_loopback
        # the authors' code read JINA_AI_API_KEY: honoured too when the default variable is not set
        self._api_key = api_key or os.environ.get(api_key_env) or (
            os.environ.get("JINA_AI_API_KEY") if api_key_env == "JINA_API_KEY" else None) or None
        self._trust_env, self._transport = trust_env, transport
        self._client: httpx.AsyncClient | None = None

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return f"JinaReader(base_url={self.base_url!r}, token_budget={self.token_budget}, key={key})"

    def _get_client(self) -> httpx.AsyncClient:
        if self._client is None:
            headers = {"Accept": "application/json", "X-Token-Budget": str(self.token_budget),
                       "User-Agent": f"m2rag-bench/{__version__}"}
            if self._api_key:
                headers["Authorization"] = f"Bearer {self._api_key}"
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.timeout), headers=headers,
                                             trust_env=self._trust_env, transport=self._transport)
        return self._client

    async def aclose(self) -> None:
        """Close the connection pool."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def _clean(self, text: str) -> str:
        return text.replace(self._api_key, "REDACTED") if self._api_key else text

    def _fail(self, url: str, error: str) -> ReadResult:
        return ReadResult(url, False, error=self._clean(error), reader=self.name)

    async def read(self, url: str) -> ReadResult:
        """Read one page through Jina; never raises for a failure of this URL."""
        target = url.split("#", 1)[0]
        try:
            await check_url(target, self.allow_loopback)
        except RefusedAddress as exc:
            return self._fail(url, str(exc))
        problem = ""
        for attempt in range(self.retries + 1):
            if attempt:
                await asyncio.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                resp = await self._get_client().get(self.base_url + target)
            except httpx.TimeoutException as exc:
                problem = f"jina: timed out after {self.timeout:g}s ({type(exc).__name__})"
                continue
            except httpx.TransportError as exc:
                problem = f"jina: could not connect: {type(exc).__name__}: {exc}"
                continue
            except Exception as exc:  # e.g. an invalid URL: a failure of this URL only
                return self._fail(url, f"jina: {type(exc).__name__}: {exc}")
            if resp.status_code in _RETRY_CODES:
                problem = f"jina: HTTP {resp.status_code}: {_jina_message(resp)}"
                continue
            return self._result(url, resp)
        return self._fail(url, problem)

    def _result(self, url: str, resp: httpx.Response) -> ReadResult:
        """Turn one (non-retryable) Jina answer into a result."""
        try:
            body = resp.json()
        except ValueError:
            return self._fail(url, f"jina: HTTP {resp.status_code}: not JSON")
        data = body.get("data") if isinstance(body, dict) else None
        if resp.status_code != 200 or not isinstance(data, dict) or body.get("code") != 200:
            code = body.get("code") if isinstance(body, dict) else None
            return self._fail(url, f"jina: HTTP {resp.status_code} (code {code}): {_jina_message(resp)}")
        final = str(data.get("url") or url)
        title = " ".join(str(data.get("title") or "").split())
        page = jina_to_page(str(data.get("content") or ""), final)
        if not _has_text(page):
            return ReadResult(url, False, title=title, final_url=final, error="empty page: no text",
                              reader=self.name)
        return ReadResult(url, True, title=title, page=page, final_url=final, reader=self.name)


def _jina_message(resp: httpx.Response) -> str:
    """The readable message of a Jina error answer, else a short excerpt of the body."""
    try:
        body = resp.json()
    except ValueError:
        return resp.text.strip()[:300]
    if isinstance(body, dict):
        for key in ("readableMessage", "message"):
            if body.get(key):
                return str(body[key])[:300]
    return str(body)[:300]


def make_reader(name: str, fetcher: Fetcher, **options: Any) -> DirectReader | JinaReader:
    """Build the ``"direct"`` or ``"jina"`` reader; Jina takes the fetcher's ``allow_loopback`` by default."""
    if name == "direct":
        if options:
            raise ValueError(f"the direct reader takes no options (got {', '.join(sorted(options))})")
        return DirectReader(fetcher)
    if name == "jina":
        options.setdefault("allow_loopback", fetcher.allow_loopback)
        return JinaReader(**options)
    raise ValueError(f"unknown reader {name!r}; known: direct, jina")
