"""Pluggable web and image search for the curation pipeline (queries → search results).

A provider implements :class:`SearchProvider`: ``web(query, num)`` returns ranked :class:`WebHit` records and
``images(query, num)`` ranked :class:`ImageHit` records. Raw result fields that are not mapped onto a hit are kept
in ``extra`` (JSON-serialisable) so nothing the engine said is lost when results are stored.

:class:`GoogleCSE` talks to the Google Custom Search JSON API. The API key travels in the ``key=`` query
parameter, so it is **never** shown: every URL or message that leaves this module passes through
:func:`redact`, exceptions are raised ``from None`` (so a traceback does not reprint the underlying error, whose
request URL holds the key), ``repr`` omits it, and a logging filter redacts ``key=`` in the HTTP client's
request log lines.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import logging
import os
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable
from urllib.parse import urlencode

try:  # the httpx fork shipped with the openai SDK (a core dependency); plain httpx has the same API
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef]

from .._version import __version__

__all__ = [
    "GOOGLE_CSE_URL",
    "GoogleCSE",
    "ImageHit",
    "SEARCH_PROVIDERS",
    "SearchError",
    "SearchProvider",
    "WebHit",
    "make_search",
    "redact",
]

#: Endpoint of the Google Custom Search JSON API.
GOOGLE_CSE_URL = "https://www.googleapis.com/customsearch/v1"
#: Results per request allowed by the CSE API, and the deepest result it serves (``start + num - 1 <= 100``).
CSE_PAGE_SIZE = 10
CSE_MAX_RESULTS = 100
_RETRY_CODES = {429, 500, 502, 503, 504}
_REFUSED_CODES = {400, 401, 403}
_KEY_RE = re.compile(r"(?i)([?&;]key=|\bkey%3D)[^&#\s'\"]*")


class SearchError(RuntimeError):
    """A search that could not be carried out (configuration, refused credentials, unreachable service)."""


@dataclass
class WebHit:
    """One web search result: 1-based ``rank``, page ``title`` and ``url``, the engine's ``snippet``."""

    rank: int
    title: str
    url: str
    snippet: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for jsonl files)."""
        return asdict(self)


@dataclass
class ImageHit:
    """One image search result: 1-based ``rank``, the image URL, its title and the page it was found on."""

    rank: int
    image_url: str
    title: str
    context_url: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for jsonl files)."""
        return asdict(self)


@runtime_checkable
class SearchProvider(Protocol):
    """What the curation pipeline needs from a search engine."""

    name: str

    async def web(self, query: str, num: int = 10) -> list[WebHit]:
        """The top ``num`` web results for ``query`` (fewer when the engine has fewer)."""
        ...

    async def images(self, query: str, num: int = 10) -> list[ImageHit]:
        """The top ``num`` image results for ``query``."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...


def redact(text: str, *secrets: str | None) -> str:
    """``text`` with every ``key=…`` URL parameter value and each given secret replaced by ``REDACTED``."""
    text = _KEY_RE.sub(lambda m: m.group(1) + "REDACTED", text)
    for secret in secrets:
        if secret:
            text = text.replace(secret, "REDACTED")
    return text


class _RedactKeyFilter(logging.Filter):
    """Logging filter that redacts ``key=`` parameters in a record's message and arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(str(a)) if _KEY_RE.search(str(a)) else a for a in record.args)
        return True


def _install_log_filter() -> None:
    """Make sure the HTTP client's request log (``HTTP Request: GET <url>``) never shows an API key."""
    logger = logging.getLogger(httpx.__name__)
    if not any(isinstance(f, _RedactKeyFilter) for f in logger.filters):
        logger.addFilter(_RedactKeyFilter())


def _server_message(resp: httpx.Response) -> str:
    """The error message of a Google API JSON error body (``{"error": {"message": …}}``), else a text excerpt."""
    try:
        body = resp.json()
    except ValueError:
        return resp.text.strip()[:300]
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
        if isinstance(err, str):
            return err
    return str(body)[:300]


class GoogleCSE:
    """Google Custom Search JSON API (``GET base_url?key=…&cx=…&q=…&num=…``, ``searchType=image`` for images).

    The key and engine id come from the arguments or else from the environment variables named by
    ``api_key_env`` / ``engine_id_env``. ``num`` above 10 is served by several requests (``start=11``, …) up to
    the API's limit of 100 results. Connection errors, timeouts, 429 and 5xx are retried ``retries`` times with
    exponential backoff; 400/401/403 mean the key or engine id was refused and are not retried.
    """

    name = "google"

    def __init__(self, api_key: str | None = None, engine_id: str | None = None, *,
                 api_key_env: str = "GOOGLE_API_KEY", engine_id_env: str = "GOOGLE_CSE_ID",
                 base_url: str = GOOGLE_CSE_URL, timeout: float = 20.0, retries: int = 2, backoff: float = 0.5,
                 trust_env: bool = True, transport: httpx.AsyncBaseTransport | None = None) -> None:
        api_key = api_key or os.environ.get(api_key_env) or None
        engine_id = engine_id or os.environ.get(engine_id_env) or None
        missing = [env for env, value in ((api_key_env, api_key), (engine_id_env, engine_id)) if not value]
        if missing:
            raise SearchError(
                f"Google Custom Search needs an API key and a search engine id: set {' and '.join(missing)} "
                f"(environment variables {api_key_env} and {engine_id_env}) or pass api_key= / engine_id=")
        assert api_key is not None and engine_id is not None
        self._api_key, self.engine_id = api_key, engine_id
        self.base_url, self.timeout, self.retries, self.backoff = base_url, timeout, retries, backoff
        self._trust_env, self._transport = trust_env, transport
        self._client: httpx.AsyncClient | None = None
        _install_log_filter()

    def __repr__(self) -> str:
        return f"GoogleCSE(base_url={self.base_url!r}, engine_id={self.engine_id!r}, key=REDACTED)"

    def _get_client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout), trust_env=self._trust_env, transport=self._transport,
                headers={"User-Agent": f"m2rag-bench/{__version__}", "Accept": "application/json"})
        return self._client

    async def aclose(self) -> None:
        """Close the connection pool."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def __aenter__(self) -> GoogleCSE:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _redact(self, text: str) -> str:
        return redact(text, self._api_key)

    async def _get(self, params: dict[str, str]) -> dict[str, Any]:
        """One API call with retries; returns the decoded JSON body or raises `SearchError` (key redacted)."""
        shown = f"{self.base_url}?{urlencode({'key': 'REDACTED', 'cx': self.engine_id, **params})}"
        params = {"key": self._api_key, "cx": self.engine_id, **params}
        problem = ""
        for attempt in range(self.retries + 1):
            if attempt:
                await asyncio.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                resp = await self._get_client().get(self.base_url, params=params)
            except httpx.TimeoutException as exc:
                problem = f"timed out after {self.timeout:g}s ({type(exc).__name__})"
                continue
            except httpx.TransportError as exc:
                problem = f"could not connect: {type(exc).__name__}: {self._redact(str(exc))}"
                continue
            except Exception as exc:  # e.g. an invalid base URL: not worth retrying, and the key stays hidden
                raise SearchError(f"Google Custom Search request to {shown} failed: {type(exc).__name__}: "
                                  f"{self._redact(str(exc))}") from None
            if resp.status_code in _RETRY_CODES:
                problem = f"HTTP {resp.status_code}: {self._redact(_server_message(resp))}"
                continue
            if resp.status_code in _REFUSED_CODES:
                raise SearchError(
                    f"Google Custom Search refused the request (HTTP {resp.status_code}): check the API key and "
                    f"the search engine id (cx={self.engine_id}); server says: "
                    f"{self._redact(_server_message(resp))}") from None
            if resp.status_code >= 400:
                raise SearchError(f"Google Custom Search error HTTP {resp.status_code} for {shown}: "
                                  f"{self._redact(_server_message(resp))}") from None
            try:
                body = resp.json()
            except ValueError:
                raise SearchError(f"Google Custom Search returned a non-JSON answer for {shown}") from None
            if not isinstance(body, dict):
                raise SearchError(f"Google Custom Search returned unexpected JSON for {shown}")
            return body
        raise SearchError(f"Google Custom Search failed after {self.retries + 1} attempts for {shown}: {problem}")

    async def _items(self, query: str, num: int, extra: dict[str, str]) -> list[dict[str, Any]]:
        """Up to ``num`` raw result items, fetched 10 at a time."""
        if not query.strip():
            raise SearchError("empty search query")
        num = max(0, min(num, CSE_MAX_RESULTS))
        items: list[dict[str, Any]] = []
        start = 1
        while len(items) < num:
            size = min(CSE_PAGE_SIZE, num - len(items), CSE_MAX_RESULTS - start + 1)
            params = {"q": query, "num": str(size), **extra}
            if start > 1:
                params["start"] = str(start)
            got = [it for it in (await self._get(params)).get("items") or [] if isinstance(it, dict)]
            items.extend(got)
            start += size
            if len(got) < size or start > CSE_MAX_RESULTS:
                break
        return items[:num]

    async def web(self, query: str, num: int = 10) -> list[WebHit]:
        """The top ``num`` web results; an answer without ``items`` means no results (empty list)."""
        hits = []
        for item in await self._items(query, num, {}):
            if not item.get("link"):
                continue
            extra = {k: v for k, v in item.items() if k not in ("link", "title", "snippet")}
            hits.append(WebHit(rank=len(hits) + 1, title=str(item.get("title") or ""), url=str(item["link"]),
                               snippet=item.get("snippet"), extra=extra))
        return hits

    async def images(self, query: str, num: int = 10) -> list[ImageHit]:
        """The top ``num`` image results (``searchType=image``); ``context_url`` is ``image.contextLink``."""
        hits = []
        for item in await self._items(query, num, {"searchType": "image"}):
            if not item.get("link"):
                continue
            image = item.get("image") if isinstance(item.get("image"), dict) else {}
            extra = {k: v for k, v in item.items() if k not in ("link", "title")}
            hits.append(ImageHit(rank=len(hits) + 1, image_url=str(item["link"]),
                                 title=str(item.get("title") or ""), context_url=image.get("contextLink"),
                                 extra=extra))
        return hits


#: Known provider names → classes (``make_search`` keys).
SEARCH_PROVIDERS: dict[str, type] = {"google": GoogleCSE}


def make_search(name: str = "google", **options: Any) -> SearchProvider:
    """Build the search provider called ``name`` with its constructor ``options``.

    ``name`` is a known provider (``SEARCH_PROVIDERS``) or ``package.module:Class`` for your own class that follows
    `SearchProvider`; such a class gets only the options its constructor names.
    """
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            cls = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise SearchError(f"cannot load search provider {name!r}: {exc}") from None
        accepted = inspect.signature(cls).parameters
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted.values()):
            options = {k: v for k, v in options.items() if k in accepted}
        return cls(**options)
    cls = SEARCH_PROVIDERS.get(name.lower())
    if cls is None:
        raise SearchError(f"unknown search provider {name!r}; known: {', '.join(sorted(SEARCH_PROVIDERS))}, "
                          "or package.module:Class")
    return cls(**options)
