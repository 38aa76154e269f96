"""Safe fetching of web pages and images for building benchmark data.

Every request goes through `Fetcher`, which enforces:

* only ``http``/``https`` URLs;
* public addresses only: the host is resolved and *every* address must be global (loopback is allowed only with
  ``allow_loopback=True``, for tests). The check is done before each hop and again at connect time, where the
  connection is made to the address that was just checked (so a DNS answer cannot change in between);
* redirects followed by hand, each hop re-validated, at most ``max_redirects``;
* a size cap on the (decoded) body, read as a stream, and an overall time limit per attempt;
* a per-host concurrency limit and retries with backoff on connection errors, 5xx and 429 (``Retry-After``
  honoured up to a cap).

A failure for one URL never raises: it is returned as `FetchResult.error`, so a crawl goes on.
Images are checked with `check_image_bytes`, which reads the header first and rejects decompression bombs and
oversized images before any decoding.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

try:  # the httpx fork shipped with the openai SDK (a core dependency); plain httpx has the same API
    import httpcore2 as httpcore
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpcore  # type: ignore[no-redef]
    import httpx  # type: ignore[no-redef]

from .._version import __version__
from ..data.images import CheckedImage, check_image

MiB = 1024 * 1024
REDIRECT_CODES = {301, 302, 303, 307, 308}
RETRY_CODES = {429, 500, 502, 503, 504}
#: Default pixel limit for fetched images (16 megapixels).
MAX_IMAGE_PIXELS = 16_000_000


class RefusedAddress(Exception):
    """A URL or host the policy does not allow (scheme, private address, unresolvable host)."""


@dataclass(frozen=True)
class FetchResult:
    """Outcome of one fetch: the content when it worked, otherwise ``error`` says why."""

    url: str
    final_url: str | None = None
    status: int | None = None
    content_type: str | None = None
    content: bytes | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def check_image_bytes(data: bytes, max_pixels: int = MAX_IMAGE_PIXELS) -> CheckedImage:
    """Check fetched image bytes: header first; bombs and images over ``max_pixels`` are refused undecoded."""
    return check_image(data, max_pixels=max_pixels)


def address_allowed(ip: str, allow_loopback: bool = False) -> bool:
    """Whether an IP address may be contacted: global ones, and loopback only when allowed."""
    addr = ipaddress.ip_address(ip.split("%", 1)[0])
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return addr.is_global or (allow_loopback and addr.is_loopback)


async def resolve_checked(host: str, port: int, allow_loopback: bool = False) -> list[str]:
    """Resolve ``host`` and return its addresses; raise `RefusedAddress` unless every one is allowed."""
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise RefusedAddress(f"refused: cannot resolve {host}: {exc}") from exc
    addrs = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addrs:
        raise RefusedAddress(f"refused: no address for {host}")
    for ip in addrs:
        if not address_allowed(ip, allow_loopback):
            raise RefusedAddress(f"refused: private address {ip}")
    return addrs


class _PinnedBackend(httpcore.AsyncNetworkBackend):  # type: ignore[misc]
    """Network backend that resolves, checks, and connects to the checked address itself (no DNS rebinding)."""

    def __init__(self, allow_loopback: bool) -> None:
        self.allow_loopback = allow_loopback
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None,
                          socket_options: Iterable[Any] | None = None) -> Any:
        addrs = await resolve_checked(host, port, self.allow_loopback)
        last: Exception | None = None
        for ip in addrs:
            try:
                return await self._inner.connect_tcp(ip, port, timeout=timeout, local_address=local_address,
                                                     socket_options=socket_options)
            except httpcore.ConnectError as exc:
                last = exc
        assert last is not None
        raise last

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Iterable[Any] | None = None) -> Any:
        raise RefusedAddress("refused: unix sockets are not allowed")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _PinnedTransport(httpx.AsyncHTTPTransport):  # type: ignore[misc]
    """The library's transport with its connection pool built on `_PinnedBackend`."""

    def __init__(self, allow_loopback: bool, limits: httpx.Limits) -> None:
        super().__init__(trust_env=False, limits=limits)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False), max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections, keepalive_expiry=limits.keepalive_expiry,
            network_backend=_PinnedBackend(allow_loopback))


class _Retryable(Exception):
    """An attempt that failed in a way worth retrying; ``delay`` is the server's Retry-After, if any."""

    def __init__(self, reason: str, delay: float | None = None, result: FetchResult | None = None) -> None:
        super().__init__(reason)
        self.delay, self.result = delay, result


class Fetcher:
    """Polite, safe async fetcher. Use as ``async with Fetcher() as f: r = await f.fetch(url)``."""

    def __init__(self, allow_loopback: bool = False, max_bytes: int = 10 * MiB, timeout: float = 20.0,
                 max_redirects: int = 5, per_host: int = 4, retries: int = 2,
                 user_agent: str = f"m2rag-bench/{__version__}", backoff: float = 0.5,
                 max_retry_after: float = 30.0) -> None:
        self.allow_loopback, self.max_bytes, self.timeout = allow_loopback, max_bytes, timeout
        self.max_redirects, self.per_host, self.retries = max_redirects, per_host, retries
        self.user_agent, self.backoff, self.max_retry_after = user_agent, backoff, max_retry_after
        self._hosts: dict[str, asyncio.Semaphore] = {}
        self._client: httpx.AsyncClient | None = None

    def _get_client(self) -> httpx.AsyncClient:
        if self._client is None:
            limits = httpx.Limits(max_connections=100, max_keepalive_connections=20)
            self._client = httpx.AsyncClient(
                transport=_PinnedTransport(self.allow_loopback, limits), follow_redirects=False, trust_env=False,
                timeout=httpx.Timeout(self.timeout), headers={"User-Agent": self.user_agent})
        return self._client

    async def aclose(self) -> None:
        """Close the connection pool."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def __aenter__(self) -> Fetcher:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _check_url(self, url: str) -> str:
        """Validate scheme and host of one hop; returns the host. Raises `RefusedAddress`."""
        parts = urlsplit(url)
        if parts.scheme.lower() not in ("http", "https"):
            raise RefusedAddress(f"refused: scheme {parts.scheme or '(none)'!r} is not http(s)")
        host = parts.hostname
        if not host:
            raise RefusedAddress("refused: no host in URL")
        try:
            port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
        except ValueError as exc:
            raise RefusedAddress(f"refused: bad port: {exc}") from exc
        await resolve_checked(host, port, self.allow_loopback)
        return host

    async def _attempt(self, url: str) -> FetchResult:
        """One attempt, following redirects. Raises `_Retryable` or `RefusedAddress`; returns a result otherwise."""
        current = url
        for _hop in range(self.max_redirects + 1):
            host = await self._check_url(current)
            sem = self._hosts.setdefault(host.lower(), asyncio.Semaphore(self.per_host))
            async with sem:
                async with self._get_client().stream("GET", current) as resp:
                    status = resp.status_code
                    ctype = resp.headers.get("content-type")
                    if status in REDIRECT_CODES and "location" in resp.headers:
                        current = urljoin(current, resp.headers["location"])
                        continue
                    if status in RETRY_CODES:
                        raise _Retryable(f"HTTP {status}", _retry_after(resp.headers.get("retry-after")),
                                         FetchResult(url, current, status, ctype, None, f"HTTP {status}"))
                    if status >= 400:
                        return FetchResult(url, current, status, ctype, None, f"HTTP {status}")
                    declared = resp.headers.get("content-length", "")
                    if declared.isdigit() and int(declared) > self.max_bytes:
                        return FetchResult(url, current, status, ctype, None, f"larger than {self.max_bytes} bytes")
                    chunks, size = [], 0
                    async for chunk in resp.aiter_bytes():
                        size += len(chunk)
                        if size > self.max_bytes:
                            return FetchResult(url, current, status, ctype, None,
                                               f"larger than {self.max_bytes} bytes")
                        chunks.append(chunk)
                    return FetchResult(url, current, status, ctype, b"".join(chunks), None)
        return FetchResult(url, current, None, None, None, f"too many redirects (more than {self.max_redirects})")

    async def fetch(self, url: str) -> FetchResult:
        """Fetch ``url``; never raises for a per-URL failure (the reason is in ``error``)."""
        last: FetchResult | None = None
        for attempt in range(self.retries + 1):
            delay = self.backoff * (2 ** attempt)
            try:
                async with asyncio.timeout(self.timeout):
                    return await self._attempt(url)
            except RefusedAddress as exc:
                return FetchResult(url, error=str(exc))
            except TimeoutError:
                return FetchResult(url, error=f"timed out after {self.timeout:g}s")
            except _Retryable as exc:
                last = exc.result or FetchResult(url, error=str(exc))
                if exc.delay is not None:
                    delay = min(exc.delay, self.max_retry_after)
            except httpx.TimeoutException as exc:
                return FetchResult(url, error=f"timed out: {type(exc).__name__}")
            except (httpx.TransportError, httpx.DecodingError) as exc:
                last = FetchResult(url, error=f"{type(exc).__name__}: {exc}")
                if isinstance(exc, httpx.DecodingError):
                    return last
            except Exception as exc:  # never let one URL stop the run
                return FetchResult(url, error=f"{type(exc).__name__}: {exc}")
            if attempt < self.retries:
                await asyncio.sleep(delay)
        assert last is not None
        return last

    async def fetch_image(self, url: str, max_pixels: int = MAX_IMAGE_PIXELS) -> FetchResult:
        """Fetch an image and check its header; a bomb or undecodable file becomes an ``error``."""
        res = await self.fetch(url)
        if res.content is None:
            return res
        checked = check_image_bytes(res.content, max_pixels)
        if not checked.ok:
            return FetchResult(res.url, res.final_url, res.status, res.content_type, None, checked.reason)
        return res

    async def fetch_all(self, urls: Iterable[str]) -> list[FetchResult]:
        """Fetch many URLs concurrently (bounded per host); results in input order."""
        return list(await asyncio.gather(*(self.fetch(u) for u in urls)))


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (numeric form only; dates are ignored)."""
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
