"""Tests for the page readers (direct and Jina) against the offline fixture web."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from m2rag_bench.curate import fetch as fetch_mod
from m2rag_bench.curate.clean import marker
from m2rag_bench.curate.fetch import Fetcher, FetchResult
from m2rag_bench.curate.reader import (
    DirectReader,
    JinaReader,
    ReadResult,
    decode_html,
    httpx,
    make_reader,
)
from m2rag_bench.schema import IMAGE_MARKER_RE
from tests.helpers.fixture_pages import PAGES
from tests.helpers.fixture_web import EMPTY_PAGE, LOOP_RESULT, MISSING_RESULT, PRIVATE_RESULT, FixtureWeb

PAGE = "/solar/how-solar-panels-work.html"


def _direct(urls: list[str]) -> list[ReadResult]:
    async def go() -> list[ReadResult]:
        async with Fetcher(allow_loopback=True, retries=0, timeout=10) as fetcher:
            reader = make_reader("direct", fetcher)
            return list(await asyncio.gather(*(reader.read(u) for u in urls)))
    return asyncio.run(go())


def _jina(web: FixtureWeb, urls: list[str], **options: Any) -> list[ReadResult]:
    options.setdefault("base_url", web.url("/jina/"))
    options.setdefault("allow_loopback", True)
    options.setdefault("backoff", 0.0)
    options.setdefault("trust_env", False)

    async def go() -> list[ReadResult]:
        reader = JinaReader(**options)
        try:
            return [await reader.read(u) for u in urls]
        finally:
            await reader.aclose()
    return asyncio.run(go())


def _check_page(res: ReadResult, url: str, expected_images: tuple[str, ...]) -> None:
    assert res.ok, res.error
    assert res.page is not None and res.final_url == url
    assert [i.url for i in res.page.images] == list(expected_images)
    assert [i.number for i in res.page.images] == list(range(1, len(expected_images) + 1))
    numbers = [int(n) for n in IMAGE_MARKER_RE.findall(res.page.markdown)]
    assert sorted(set(numbers)) == [i.number for i in res.page.images]
    assert list(dict.fromkeys(numbers)) == sorted(set(numbers))  # markers appear in page order
    assert "site-logo" not in res.page.markdown and "Popular this week" not in res.page.markdown


def test_direct_reads_fixture_pages(web: FixtureWeb) -> None:
    expected = web.expected()
    urls = [u for q in expected.values() for u in q.pages]
    results = _direct(urls)
    for url, res in zip(urls, results):
        exp = next(q for q in expected.values() if url in q.pages)
        _check_page(res, url, exp.page_images[url])
        spec = PAGES[url[len(web.base_url):]]
        assert res.title == f"{spec.title} | {spec.site}" and res.reader == "direct"
        assert res.page is not None and all(i.alt for i in res.page.images)
    first = results[0].page
    assert first is not None
    assert first.images[0].url == web.url("/img/solar/rooftop-array.jpg")
    assert first.images[0].alt == "Rooftop solar panel array on a family house"
    assert re.search(re.escape(marker(2)) + r"\s+Tip: a panel works on cloudy days", first.markdown)


def test_direct_decodes_declared_charsets(web: FixtureWeb) -> None:
    latin1, cp1252 = _direct([web.url("/leaves/leaf-pigments.html"), web.url("/bikes/shifting-tips.html")])
    assert latin1.page is not None and "Qu\u00e9bec" in latin1.page.markdown  # charset in the header
    assert cp1252.page is not None and "sprockets \u2014 and" in cp1252.page.markdown  # only in <meta>
    assert "\ufffd" not in latin1.page.markdown + cp1252.page.markdown


def test_direct_private_image_url_is_kept_but_not_fetched(web: FixtureWeb) -> None:
    res, = _direct([web.url("/leaves/weather-and-autumn-colour.html")])
    assert res.page is not None and "http://10.0.0.7/secret.png" in [i.url for i in res.page.images]
    assert not any("10.0.0.7" in path for _, path in web.requests)


def test_direct_failures(web: FixtureWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    connected: list[str] = []
    original = fetch_mod._PinnedBackend.connect_tcp

    async def spy(self: Any, host: str, port: int, *args: Any, **kwargs: Any) -> Any:
        connected.append(host)
        return await original(self, host, port, *args, **kwargs)

    monkeypatch.setattr(fetch_mod._PinnedBackend, "connect_tcp", spy)
    loop, missing, private, image, empty = _direct([
        web.url(LOOP_RESULT), web.url(MISSING_RESULT), PRIVATE_RESULT, web.url("/img/solar/rooftop-array.jpg"),
        web.url(EMPTY_PAGE)])
    assert not loop.ok and "redirects" in (loop.error or "")
    assert not missing.ok and missing.error == "HTTP 404"
    assert not private.ok and "private address" in (private.error or "")
    assert not image.ok and image.error == "not HTML: image/jpeg"
    assert not empty.ok and empty.error == "empty page: no text" and empty.title == "Coming soon"
    assert all(r.page is None and r.reader == "direct" for r in (loop, missing, private, image, empty))
    assert "169.254.169.254" not in connected and set(connected) == {"127.0.0.1"}
    assert not any("169.254" in path for _, path in web.requests)


class _FakeFetcher:
    """Stands in for a Fetcher: answers every URL with one canned result."""

    allow_loopback = False

    def __init__(self, content: bytes, content_type: str | None) -> None:
        self.content, self.content_type = content, content_type

    async def fetch(self, url: str) -> FetchResult:
        return FetchResult(url, url, 200, self.content_type, self.content)


def _read_canned(content: bytes, content_type: str | None, url: str = "https://example.org/x") -> ReadResult:
    return asyncio.run(DirectReader(_FakeFetcher(content, content_type)).read(url))  # type: ignore[arg-type]


@pytest.mark.parametrize("ctype, ok", [(None, True), ("application/octet-stream", True), ("text/plain", True),
                                       ("application/pdf", False), ("application/xhtml+xml", True)])
def test_direct_sniffs_generic_content_types(ctype: str | None, ok: bool) -> None:
    html = b"<!DOCTYPE html><html><head><title>T</title></head><body><p>Some words here.</p></body></html>"
    res = _read_canned(html, ctype)
    assert res.ok is ok
    if not ok:
        assert res.error == f"not HTML: {ctype}"
    plain = _read_canned(b"just text", "text/plain")
    assert not plain.ok and plain.error == "not HTML: text/plain"


def test_direct_honours_base_href() -> None:
    html = (b'<html><head><base href="https://cdn.example.org/a/"></head><body><p>Words and more words.'
            b'<img src="pic.png" alt="p"></p></body></html>')
    res = _read_canned(html, "text/html")
    assert res.page is not None and res.page.images[0].url == "https://cdn.example.org/a/pic.png"


def test_decode_html() -> None:
    text = "caf\u00e9 \u2014 na\u00efve"
    assert decode_html(text.encode("cp1252"), "text/html; charset=windows-1252") == text
    assert decode_html(b'<meta charset="iso-8859-1">caf\xe9', "text/html") == '<meta charset="iso-8859-1">caf\u00e9'
    meta = b'<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">\x97'
    assert decode_html(meta, None).endswith("\u2014")
    assert decode_html(b"\xef\xbb\xbfcaf\xc3\xa9", "text/html; charset=latin-1") == "caf\u00e9"  # BOM wins
    assert decode_html(b"caf\xc3\xa9 \xff", "text/html; charset=no-such-codec") == "caf\u00e9 \ufffd"
    assert decode_html(b"caf\xc3\xa9", "text/html; charset=rot13") == "caf\u00e9"  # not a text encoding


def test_read_result_round_trip(web: FixtureWeb) -> None:
    ok, bad = _direct([web.url(PAGE), web.url(MISSING_RESULT)])
    for res in (ok, bad):
        back = ReadResult.from_dict(json.loads(json.dumps(res.to_dict())))
        assert back == res
    assert ok.to_dict()["page"]["images"][0] == {"number": 1, "url": web.url("/img/solar/rooftop-array.jpg"),
                                                 "alt": "Rooftop solar panel array on a family house"}


def test_jina_matches_direct(web: FixtureWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JINA_API_KEY", raising=False)
    expected = web.expected()
    urls = [u for q in expected.values() for u in q.pages]
    direct = _direct(urls)
    jina = _jina(web, urls)
    for url, d, j in zip(urls, direct, jina):
        exp = next(q for q in expected.values() if url in q.pages)
        _check_page(j, url, exp.page_images[url])
        assert j.reader == "jina" and j.title == d.title
        assert j.page is not None and d.page is not None
        assert [(i.number, i.url, i.alt) for i in j.page.images] == [(i.number, i.url, i.alt) for i in d.page.images]
        assert IMAGE_MARKER_RE.findall(j.page.markdown) == IMAGE_MARKER_RE.findall(d.page.markdown)
    headers = web.headers[web.requests.index(("GET", f"/jina/{urls[0]}"))]
    assert headers["accept"] == "application/json" and headers["x-token-budget"] == "32768"
    assert "authorization" not in headers


def test_jina_sends_key_from_env(web: FixtureWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JINA_API_KEY", "jina-secret-123")
    res, = _jina(web, [web.url(PAGE)], token_budget=1000)
    assert res.ok
    assert web.headers[-1]["authorization"] == "Bearer jina-secret-123"
    assert web.headers[-1]["x-token-budget"] == "1000"
    assert "jina-secret-123" not in repr(JinaReader())


def test_jina_never_sends_private_urls(web: FixtureWeb) -> None:
    results = _jina(web, [PRIVATE_RESULT, "http://10.0.0.7/secret.png", "ftp://example.org/x", "file:///etc/passwd"])
    assert all(not r.ok and (r.error or "").startswith("refused:") for r in results)
    assert "private address" in (results[0].error or "") and "scheme" in (results[2].error or "")
    assert web.count("/jina/") == 0


def test_jina_failures(web: FixtureWeb) -> None:
    loop, missing, empty = _jina(web, [web.url(LOOP_RESULT), web.url(MISSING_RESULT), web.url(EMPTY_PAGE)])
    assert not loop.ok and "HTTP 422" in (loop.error or "") and "Failed to goto" in (loop.error or "")
    assert not missing.ok and "HTTP 422" in (missing.error or "")
    assert not empty.ok and empty.error == "empty page: no text"


def test_jina_retries_then_succeeds(web: FixtureWeb) -> None:
    web.fail_next("/jina/", 503, times=1)
    res, = _jina(web, [web.url(PAGE)], retries=2)
    assert res.ok and web.count("/jina/") == 2
    web.reset()
    web.fail_next("/jina/", 503, times=3)
    res, = _jina(web, [web.url(PAGE)], retries=1)
    assert not res.ok and "HTTP 503" in (res.error or "") and web.count("/jina/") == 2


def test_jina_key_never_in_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"failed with headers {request.headers['authorization']}", request=request)

    reader = JinaReader(api_key="jina-secret-456", retries=0, transport=httpx.MockTransport(handler),
                        allow_loopback=True)
    res = asyncio.run(reader.read("http://127.0.0.1:9/page"))
    assert not res.ok and "could not connect" in (res.error or "")
    assert "jina-secret-456" not in (res.error or "") and "REDACTED" in (res.error or "")


def test_make_reader() -> None:
    fetcher = Fetcher(allow_loopback=True)
    assert isinstance(make_reader("direct", fetcher), DirectReader)
    jina = make_reader("jina", fetcher, token_budget=10)
    assert isinstance(jina, JinaReader) and jina.allow_loopback and jina.token_budget == 10
    assert make_reader("jina", Fetcher()).allow_loopback is False  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="direct, jina"):
        make_reader("other", fetcher)
