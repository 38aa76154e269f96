"""Tests for pluggable web search (Google CSE) against the offline fixture web; the key must never leak."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import traceback
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from m2rag_bench.curate.search import (
    GoogleCSE,
    ImageHit,
    SearchError,
    SearchProvider,
    WebHit,
    httpx,
    make_search,
    redact,
)
from tests.helpers.fixture_web import FIXTURE_CX, FIXTURE_KEY, FIXTURE_QUERIES, FixtureWeb

Q = {q["id"]: q["query"] for q in FIXTURE_QUERIES}


def _cse(web: FixtureWeb, **options: Any) -> GoogleCSE:
    options.setdefault("api_key", FIXTURE_KEY)
    options.setdefault("engine_id", FIXTURE_CX)
    options.setdefault("backoff", 0.0)
    return GoogleCSE(base_url=web.url("/customsearch/v1"), trust_env=False, **options)


def _run(provider: GoogleCSE, kind: str, query: str, num: int = 10) -> Any:
    async def go() -> Any:
        try:
            return await getattr(provider, kind)(query, num)
        finally:
            await provider.aclose()
    return asyncio.run(go())


def _error(provider: GoogleCSE, kind: str = "web", query: str = Q["q1"]) -> SearchError:
    with pytest.raises(SearchError) as info:
        _run(provider, kind, query)
    return info.value


def _assert_no_key(exc: BaseException, key: str = FIXTURE_KEY) -> None:
    assert key not in str(exc)
    assert key not in repr(exc)
    assert key not in "".join(traceback.format_exception(exc))


def test_web_hits(web: FixtureWeb) -> None:
    hits = _run(_cse(web), "web", Q["q1"])
    exp = web.expected()["q1"]
    assert all(isinstance(h, WebHit) for h in hits)
    assert [h.rank for h in hits] == [1, 2, 3, 4]
    assert [h.url for h in hits] == list(exp.results)
    assert hits[0].title.startswith("How Solar Panels Work")
    assert hits[0].snippet and hits[0].snippet.startswith("A solar panel is")
    assert hits[0].extra["displayLink"] == web.netloc and "pagemap" in hits[0].extra
    assert not {"link", "title", "snippet"} & set(hits[0].extra)
    json.dumps([h.to_dict() for h in hits])
    (method, path), = web.requests
    params = parse_qs(urlsplit(path).query)
    assert params["q"] == [Q["q1"]] and params["num"] == ["10"] and "searchType" not in params


def test_image_hits(web: FixtureWeb) -> None:
    hits = _run(_cse(web), "images", Q["q2"])
    exp = web.expected()["q2"]
    assert all(isinstance(h, ImageHit) for h in hits)
    assert [h.image_url for h in hits] == list(exp.image_results)
    assert [h.rank for h in hits] == [1, 2, 3]
    assert all(h.context_url and h.context_url.startswith(web.base_url) for h in hits)
    assert hits[0].extra["image"]["contextLink"] == hits[0].context_url
    assert hits[0].title
    json.dumps([h.to_dict() for h in hits])
    assert parse_qs(urlsplit(web.requests[0][1]).query)["searchType"] == ["image"]


def test_no_items_is_empty(web: FixtureWeb) -> None:
    assert _run(_cse(web), "web", Q["q4"]) == []
    assert _run(_cse(web), "images", "a query the fixture does not know") == []


def test_num_limits_results(web: FixtureWeb) -> None:
    assert len(_run(_cse(web), "web", Q["q3"], num=2)) == 2
    web.reset()
    assert len(_run(_cse(web), "web", Q["q3"], num=30)) == 4  # only 4 exist: one request, no second page
    assert web.count("/customsearch/v1") == 1


def test_paging_beyond_ten() -> None:
    seen: list[dict[str, list[str]]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        params = parse_qs(request.url.query.decode())
        seen.append(params)
        start, num = int(params.get("start", ["1"])[0]), int(params["num"][0])
        items = [{"link": f"https://example.org/{i}", "title": f"t{i}"} for i in range(start, start + num)]
        return httpx.Response(200, json={"items": items})

    cse = GoogleCSE("k", "cx", transport=httpx.MockTransport(handler))
    hits = _run(cse, "web", "anything", num=25)
    assert [h.rank for h in hits] == list(range(1, 26))
    assert hits[-1].url == "https://example.org/25" and hits[0].snippet is None
    assert [(p.get("start", ["1"])[0], p["num"][0]) for p in seen] == [("1", "10"), ("11", "10"), ("21", "5")]


def test_bad_key_is_refused_without_showing_it(web: FixtureWeb) -> None:
    secret = "AIza-very-secret-key-123"
    exc = _error(_cse(web, api_key=secret))
    assert "refused" in str(exc) and "HTTP 403" in str(exc)
    assert "API key not valid" in str(exc)  # the server's own message
    _assert_no_key(exc, secret)
    assert web.count("/customsearch/v1") == 1  # a refusal is not retried


def test_bad_engine_id(web: FixtureWeb) -> None:
    exc = _error(_cse(web, engine_id="wrong-cx"), "images")
    assert "refused" in str(exc) and "search engine id" in str(exc)
    _assert_no_key(exc)


def test_missing_env_names_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_CSE_ID", raising=False)
    with pytest.raises(SearchError) as info:
        GoogleCSE()
    assert "GOOGLE_API_KEY" in str(info.value) and "GOOGLE_CSE_ID" in str(info.value)
    with pytest.raises(SearchError, match="MY_KEY"):
        make_search("google", api_key_env="MY_KEY", engine_id="cx")


def test_env_configuration(web: FixtureWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", FIXTURE_KEY)
    monkeypatch.setenv("GOOGLE_CSE_ID", FIXTURE_CX)
    cse = GoogleCSE(base_url=web.url("/customsearch/v1"), trust_env=False)
    assert FIXTURE_KEY not in repr(cse)
    assert len(_run(cse, "web", Q["q2"])) == 4


def test_retries_503_then_success(web: FixtureWeb) -> None:
    web.fail_next("/customsearch/v1", 503, times=1)
    hits = _run(_cse(web, retries=2), "web", Q["q1"])
    assert len(hits) == 4
    assert web.count("/customsearch/v1") == 2


def test_gives_up_after_retries(web: FixtureWeb) -> None:
    web.fail_next("/customsearch/v1", 503, times=5)
    exc = _error(_cse(web, retries=1))
    assert "after 2 attempts" in str(exc) and "HTTP 503" in str(exc) and "Injected failure" in str(exc)
    assert "key=REDACTED" in str(exc)
    _assert_no_key(exc)
    assert web.count("/customsearch/v1") == 2


def test_connection_error_hides_key() -> None:
    with socket.socket() as s:  # a port that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cse = GoogleCSE(FIXTURE_KEY, FIXTURE_CX, base_url=f"http://127.0.0.1:{port}/customsearch/v1", retries=1,
                    backoff=0.0, trust_env=False)
    exc = _error(cse)
    assert "could not connect" in str(exc)
    _assert_no_key(exc)


def test_error_messages_carrying_the_url_are_redacted() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"cannot reach {request.url}", request=request)

    exc = _error(GoogleCSE(FIXTURE_KEY, FIXTURE_CX, retries=0, transport=httpx.MockTransport(handler)))
    assert "key=REDACTED" in str(exc)
    _assert_no_key(exc)
    assert exc.__cause__ is None and (exc.__context__ is None or exc.__suppress_context__)


def test_request_log_hides_key(web: FixtureWeb, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    _run(_cse(web), "web", Q["q1"])
    assert "HTTP Request" in caplog.text and "key=REDACTED" in caplog.text
    assert FIXTURE_KEY not in caplog.text


def test_make_search(web: FixtureWeb) -> None:
    provider = make_search("google", api_key=FIXTURE_KEY, engine_id=FIXTURE_CX,
                           base_url=web.url("/customsearch/v1"))
    assert isinstance(provider, SearchProvider) and provider.name == "google"
    asyncio.run(provider.aclose())
    with pytest.raises(SearchError, match="known: google"):
        make_search("bing")


def test_redact() -> None:
    assert redact("GET https://x/y?cx=1&key=abc&q=z") == "GET https://x/y?cx=1&key=REDACTED&q=z"
    assert redact("https://x/?key=abc") == "https://x/?key=REDACTED"
    assert redact("token s3cr3t here", "s3cr3t") == "token REDACTED here"
    assert redact("monkey=1&donkey=2") == "monkey=1&donkey=2"


def test_invalid_base_url_hides_key() -> None:
    exc = _error(GoogleCSE(FIXTURE_KEY, FIXTURE_CX, base_url="http://[bad", retries=0, trust_env=False))
    assert "failed" in str(exc)
    _assert_no_key(exc)
