"""Tests for the safe fetcher, fully offline: a threaded HTTP server on 127.0.0.1 and nothing else.

Every socket connect made during a test is recorded; each test asserts that only 127.0.0.1 was contacted.
"""

from __future__ import annotations

import asyncio
import io
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from PIL import Image

from m2rag_bench.curate.fetch import (
    Fetcher,
    RefusedAddress,
    _PinnedBackend,
    address_allowed,
    check_image_bytes,
    resolve_checked,
)


def _png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` x ``height`` (1-bit grey); its data is not a real image."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00")) + chunk(b"IEND", b"")


def _real_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 6), (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


PAGE = b"<html><head><title>Hello</title></head><body><p>Some text.</p></body></html>"
PNG = _real_png()
BOMB = _png_claiming(20000, 20000)  # 400 Mpx: PIL's own bomb limit
OVERSIZE = _png_claiming(5000, 5000)  # 25 Mpx: over our 16 Mpx default, under PIL's limit


class _State:
    lock = threading.Lock()
    flaky: dict[str, int] = {}
    active = 0
    max_active = 0


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:  # keep test output quiet
        pass

    def _send(self, code: int, body: bytes = b"", ctype: str = "text/html", headers: dict[str, str] | None = None,
              length: bool = True) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802
        path, _, query = self.path.partition("?")
        if path == "/page":
            self._send(200, PAGE)
        elif path == "/img.png":
            self._send(200, PNG, "image/png")
        elif path == "/bomb.png":
            self._send(200, BOMB, "image/png")
        elif path == "/oversize.png":
            self._send(200, OVERSIZE, "image/png")
        elif path == "/r1":
            self._send(302, headers={"Location": "/r2"})
        elif path == "/r2":
            self._send(301, headers={"Location": f"http://127.0.0.1:{self.server.server_port}/page"})
        elif path == "/loop":
            self._send(302, headers={"Location": "/loop"})
        elif path == "/private":
            self._send(302, headers={"Location": "http://10.0.0.5/x"})
        elif path == "/tofile":
            self._send(302, headers={"Location": "file:///etc/passwd"})
        elif path == "/huge":
            self._send(200, b"x" * 5000, "text/plain")
        elif path == "/huge-stream":  # no Content-Length: the cap must hold while streaming
            self._send(200, b"y" * 5000, "text/plain", length=False)
        elif path == "/slow":
            time.sleep(3)
            self._send(200, PAGE)
        elif path == "/flaky":
            with _State.lock:
                n = _State.flaky[query] = _State.flaky.get(query, 0) + 1
            if n == 1:
                self._send(503, b"busy", headers={"Retry-After": "0"})
            else:
                self._send(200, PAGE)
        elif path == "/down":
            self._send(503, b"busy", headers={"Retry-After": "0"})
        elif path == "/conc":
            with _State.lock:
                _State.active += 1
                _State.max_active = max(_State.max_active, _State.active)
            time.sleep(0.2)
            with _State.lock:
                _State.active -= 1
            self._send(200, PAGE)
        else:
            self._send(404, b"not found")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def _only_loopback(connects: list[Any]) -> Iterator[None]:
    """Every test here may connect to 127.0.0.1 only."""
    yield
    assert all(isinstance(a, tuple) and a[0] == "127.0.0.1" for a in connects), connects


def _fetch(url: str, image: bool = False, **kwargs: Any) -> Any:
    kwargs.setdefault("allow_loopback", True)
    kwargs.setdefault("backoff", 0.01)

    async def go() -> Any:
        async with Fetcher(**kwargs) as f:
            return await (f.fetch_image(url) if image else f.fetch(url))
    return asyncio.run(go())


def test_page(server: str, connects: list[Any]) -> None:
    r = _fetch(server + "/page")
    assert r.ok and r.status == 200 and r.content == PAGE and r.content_type == "text/html"
    assert r.final_url == server + "/page"
    assert connects  # the monitor does see our connections


def test_image(server: str) -> None:
    r = _fetch(server + "/img.png", image=True)
    assert r.ok and r.content == PNG and r.content_type == "image/png"
    assert check_image_bytes(r.content).size == (8, 6)


def test_two_redirects_followed(server: str) -> None:
    r = _fetch(server + "/r1")
    assert r.ok and r.content == PAGE and r.final_url == server + "/page"


def test_redirect_loop(server: str) -> None:
    r = _fetch(server + "/loop", max_redirects=3)
    assert r.content is None and r.error == "too many redirects (more than 3)"


def test_redirect_limit_counts_hops(server: str) -> None:
    assert _fetch(server + "/r1", max_redirects=1).error == "too many redirects (more than 1)"
    assert _fetch(server + "/r1", max_redirects=2).ok


def test_redirect_to_private_refused_without_connecting(server: str, connects: list[Any]) -> None:
    r = _fetch(server + "/private")
    assert r.error == "refused: private address 10.0.0.5" and r.content is None
    assert connects and all(a[0] == "127.0.0.1" for a in connects)


def test_redirect_to_file_refused(server: str) -> None:
    assert _fetch(server + "/tofile").error == "refused: scheme 'file' is not http(s)"


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/", "/relative"])
def test_other_schemes_refused(url: str, connects: list[Any]) -> None:
    r = _fetch(url)
    assert r.error is not None and r.error.startswith("refused: scheme") and r.content is None
    assert connects == []


@pytest.mark.parametrize("path", ["/huge", "/huge-stream"])
def test_size_cap(server: str, path: str) -> None:
    r = _fetch(server + path, max_bytes=1000)
    assert r.error == "larger than 1000 bytes" and r.content is None
    assert _fetch(server + path, max_bytes=10_000).ok


def test_timeout(server: str) -> None:
    start = time.monotonic()
    r = _fetch(server + "/slow", timeout=0.5)
    assert r.error is not None and "timed out" in r.error and r.content is None
    assert time.monotonic() - start < 2.5


def test_retry_after_503(server: str) -> None:
    r = _fetch(server + "/flaky?a", retries=2)
    assert r.ok and r.content == PAGE


def test_no_retry_records_503(server: str) -> None:
    r = _fetch(server + "/flaky?b", retries=0)
    assert r.status == 503 and r.error == "HTTP 503"


def test_retries_exhausted(server: str) -> None:
    r = _fetch(server + "/down", retries=2)
    assert r.status == 503 and r.error == "HTTP 503" and r.content is None


def test_404_recorded(server: str) -> None:
    r = _fetch(server + "/missing")
    assert r.status == 404 and r.error == "HTTP 404"


def test_decompression_bomb_rejected(server: str) -> None:
    assert len(BOMB) < 200
    r = _fetch(server + "/bomb.png", image=True)
    assert r.content is None and r.error is not None and "decompression bomb" in r.error


def test_oversize_image_rejected_before_decoding(server: str) -> None:
    r = _fetch(server + "/oversize.png", image=True)
    assert r.content is None and r.error is not None and r.error.startswith("too large to decode (5000x5000")


def test_loopback_refused_by_default(server: str, connects: list[Any]) -> None:
    r = _fetch(server + "/page", allow_loopback=False)
    assert r.error == "refused: private address 127.0.0.1" and r.content is None
    r = _fetch(server.replace("127.0.0.1", "localhost") + "/page", allow_loopback=False)
    assert r.error is not None and r.error.startswith("refused:")
    assert connects == []


def test_per_host_limit_and_run_goes_on(server: str) -> None:
    _State.max_active = 0
    urls = [server + "/conc"] * 6 + [server + "/private", "ftp://x/y", server + "/missing"]

    async def go() -> Any:
        async with Fetcher(allow_loopback=True, per_host=2) as f:
            return await f.fetch_all(urls)
    results = asyncio.run(go())
    assert [r.ok for r in results] == [True] * 6 + [False] * 3
    assert 1 <= _State.max_active <= 2
    assert [r.url for r in results] == urls


@pytest.mark.parametrize("ip,loopback,ok", [
    ("10.0.0.5", True, False), ("192.168.1.1", True, False), ("172.16.0.1", True, False),
    ("169.254.169.254", True, False), ("0.0.0.0", True, False), ("100.64.0.1", True, False),
    ("fc00::1", True, False), ("fe80::1%eth0", True, False), ("::ffff:10.0.0.1", True, False),
    ("127.0.0.1", False, False), ("::1", False, False), ("127.0.0.1", True, True), ("::1", True, True),
    ("8.8.8.8", False, True), ("2606:4700::1111", False, True),
])
def test_address_policy(ip: str, loopback: bool, ok: bool) -> None:
    assert address_allowed(ip, loopback) is ok


def test_pinned_backend_refuses_private_at_connect_time(connects: list[Any]) -> None:
    async def go() -> None:
        with pytest.raises(RefusedAddress, match="private address 10.0.0.5"):
            await _PinnedBackend(allow_loopback=True).connect_tcp("10.0.0.5", 80)
        with pytest.raises(RefusedAddress, match="private address 192.168.0.1"):
            await resolve_checked("192.168.0.1", 443)
    asyncio.run(go())
    assert connects == []
