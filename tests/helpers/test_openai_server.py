"""Fast checks of the local OpenAI-compatible stub (``tests/helpers/openai_server.py``)."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.helpers.openai_server import OpenAIStub, scripted

openai = pytest.importorskip("openai")

PNG = ("data:image/png;base64,"
       "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")


def _post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    req = urllib.request.Request(url + "/chat/completions", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, dict(resp.headers), json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), json.loads(err.read())


def test_openai_client_completion_with_usage() -> None:
    with OpenAIStub(["stub-vlm"]) as srv:

        async def go() -> Any:
            async with openai.AsyncOpenAI(base_url=srv.base_url, api_key="x", max_retries=0) as client:
                models = await client.models.list()
                resp = await client.chat.completions.create(
                    model="stub-vlm", temperature=0, max_tokens=16, seed=1,
                    messages=[{"role": "system", "content": "be brief"},
                              {"role": "user", "content": [{"type": "text", "text": "what is shown here"},
                                                           {"type": "image_url", "image_url": {"url": PNG}}]}])
                return [m.id for m in models.data], resp

        ids, resp = asyncio.run(go())
    assert ids == ["stub-vlm"]
    assert resp.object == "chat.completion" and resp.model == "stub-vlm"
    assert resp.choices[0].message.role == "assistant"
    assert resp.choices[0].message.content == "echo: what is shown here [1 image(s)]"
    assert resp.choices[0].finish_reason == "stop"
    assert resp.usage.prompt_tokens == 2 + 4 + 85
    assert resp.usage.completion_tokens == 7
    assert resp.usage.total_tokens == 98
    assert srv.count == 1 and srv.requests[0]["max_tokens"] == 16


def test_concurrent_requests_overlap() -> None:
    with OpenAIStub(["m"], delay=0.2) as srv:

        async def go() -> list[str]:
            async with openai.AsyncOpenAI(base_url=srv.base_url, api_key="x", max_retries=0) as client:
                resps = await asyncio.gather(*(client.chat.completions.create(
                    model="m", messages=[{"role": "user", "content": f"q{i}"}]) for i in range(64)))
            return [r.choices[0].message.content or "" for r in resps]

        t0 = time.perf_counter()
        replies = asyncio.run(go())
        elapsed = time.perf_counter() - t0
    assert replies == [f"echo: q{i}" for i in range(64)]
    assert elapsed < 2.0, elapsed
    assert srv.count == 64 and srv.max_concurrent >= 32


def test_rate_limit_injection_and_error_schedule() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    with OpenAIStub(["m"], fail_first=2, retry_after=0.25) as srv:
        for _ in range(2):
            status, headers, payload = _post(srv.base_url, body)
            assert status == 429 and float(headers["Retry-After"]) == 0.25
            assert payload["error"]["code"] == "rate_limit_exceeded"
        assert _post(srv.base_url, body)[0] == 200
        other = {**body, "seed": 7}  # a distinct body has its own count
        assert _post(srv.base_url, other)[0] == 429
        srv.reset()
        assert srv.count == 0 and srv.requests == []
        assert _post(srv.base_url, body)[0] == 429
    with OpenAIStub(["m"], error_status=[500, 503]) as srv:
        assert [_post(srv.base_url, body)[0] for _ in range(3)] == [500, 503, 200]


def test_unknown_model_and_api_key() -> None:
    body = {"model": "nope", "messages": [{"role": "user", "content": "hi"}]}
    with OpenAIStub(["m"], require_api_key="sk-good") as srv:
        status, _, payload = _post(srv.base_url, body, {"Authorization": "Bearer sk-good"})
        assert status == 404
        assert payload["error"]["code"] == "model_not_found" and "model not found" in payload["error"]["message"]
        assert payload["error"]["type"] == "invalid_request_error"
        status, _, payload = _post(srv.base_url, {**body, "model": "m"}, {"Authorization": "Bearer sk-bad"})
        assert status == 401 and payload["error"]["code"] == "invalid_api_key"
        assert _post(srv.base_url, {**body, "model": "m"})[0] == 401

        async def go() -> None:
            async with openai.AsyncOpenAI(base_url=srv.base_url, api_key="sk-bad", max_retries=0) as client:
                await client.chat.completions.create(model="m", messages=body["messages"])

        with pytest.raises(openai.AuthenticationError):
            asyncio.run(go())


def test_scripted_responder_and_overrides() -> None:
    responder = scripted([(lambda t: "capital" in t, "Paris"),
                          (lambda t: "boom" in t, {"status": 502, "body": {"error": {"message": "bad gw"}}})],
                         default="dunno")
    with OpenAIStub(["m"], responder) as srv:

        def ask(text: str) -> tuple[int, dict[str, str], Any]:
            return _post(srv.base_url, {"model": "m", "messages": [{"role": "user", "content": text}]})

        assert ask("the capital of France?")[2]["choices"][0]["message"]["content"] == "Paris"
        assert ask("boom")[0] == 502
        assert ask("other")[2]["choices"][0]["message"]["content"] == "dunno"


def test_port_freed_after_exit() -> None:
    with OpenAIStub() as srv:
        port = srv.port
        _post(srv.base_url, {"model": "stub-model", "messages": []})
    assert not [t for t in threading.enumerate() if t.name == "openai-stub"]
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
