"""The OpenAI-compatible backend and the call layer against a local server."""

from __future__ import annotations

import io
import socket
import time
from pathlib import Path

import pytest
from PIL import Image

from m2rag_bench.models.base import BackendError, Call, GenerationParams, ModelNotFound
from m2rag_bench.models.cache import CallCache
from m2rag_bench.models.client import ModelClient
from m2rag_bench.models.messages import ImagePart, user
from m2rag_bench.models.openai_backend import OpenAIBackend
from tests.helpers.openai_server import OpenAIStub


def _png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), "blue").save(buf, "PNG")
    return buf.getvalue()


def _calls(n: int) -> list[Call]:
    return [Call((user(f"question {i}"),), GenerationParams(max_tokens=16), "test@1") for i in range(n)]


def test_text_and_image_messages_reach_the_server() -> None:
    with OpenAIStub(["m"], lambda req: "an answer") as srv:
        backend = OpenAIBackend("m", srv.base_url)
        backend.check()
        out = backend.generate([Call((user("look: ", ImagePart.from_bytes(_png()), " what colour?"),))])
        assert out[0].text == "an answer" and out[0].usage.prompt_tokens > 85
        body = srv.requests[0]
        parts = body["messages"][0]["content"]
        assert [p["type"] for p in parts] == ["text", "image_url", "text"]
        assert parts[1]["image_url"]["url"].startswith("data:image/png;base64,") and parts[1]["image_url"]["detail"] == "low"
        assert body["temperature"] == 0.0 and body["seed"] == 1234 and body["max_tokens"] == 1024


def test_retries_honour_retry_after_and_5xx() -> None:
    with OpenAIStub(["m"], fail_first=2, retry_after=0.05, error_status=[500, 503]) as srv:
        out = OpenAIBackend("m", srv.base_url, backoff=0.01).generate(_calls(1))
        assert out[0].ok and srv.count == 5  # 500, 503, 429, 429, then the answer


def test_non_retryable_status_is_a_per_call_error() -> None:
    with OpenAIStub(["m"], lambda req: {"status": 400, "body": {"error": {"message": "context too long"}}}) as srv:
        out = OpenAIBackend("m", srv.base_url).generate(_calls(2))
        assert all("HTTP 400" in c.error and "context too long" in c.error for c in out) and srv.count == 2


def test_unreachable_endpoint_and_unknown_model_are_clear() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(BackendError, match=f"cannot reach .*127.0.0.1:{port}.*is the server running"):
        OpenAIBackend("m", f"http://127.0.0.1:{port}/v1").check()
    with OpenAIStub(["served-model"]) as srv:
        with pytest.raises(ModelNotFound, match="'nope' is not served .* served-model"):
            OpenAIBackend("nope", srv.base_url).check()


def test_wrong_key_is_reported_without_the_key() -> None:
    with OpenAIStub(["m"], require_api_key="right") as srv:
        with pytest.raises(BackendError, match="refused the API key") as err:
            OpenAIBackend("m", srv.base_url, api_key="sk-secret-wrong").check()
        assert "sk-secret-wrong" not in str(err.value)


def test_concurrency_is_bounded_and_used() -> None:
    with OpenAIStub(["m"], delay=0.2) as srv:
        start = time.perf_counter()
        out = OpenAIBackend("m", srv.base_url, concurrency=8).generate(_calls(32))
        elapsed = time.perf_counter() - start
    assert all(c.ok for c in out) and srv.max_concurrent == 8
    assert elapsed < 32 * 0.2 / 8 * 2  # ~0.8 s ideal


def test_cache_makes_reruns_free_and_keys_on_content(tmp_path: Path) -> None:
    with OpenAIStub(["m"]) as srv:
        cache = CallCache(tmp_path / "calls.sqlite")
        client = ModelClient(OpenAIBackend("m", srv.base_url), cache)
        first = client.complete(_calls(3) + _calls(1))  # the 4th call repeats the 1st: sent once
        assert srv.count == 3 and client.meter.models["m"].calls == 3
        again = ModelClient(OpenAIBackend("m", srv.base_url), CallCache(tmp_path / "calls.sqlite")).complete(_calls(3))
        assert srv.count == 3 and all(c.cached for c in again) and [c.text for c in again] == [c.text for c in first[:3]]
        changed = [Call(c.conversation, GenerationParams(max_tokens=17), c.template) for c in _calls(1)]
        ModelClient(OpenAIBackend("m", srv.base_url), cache).complete(changed)
        ModelClient(OpenAIBackend("m", srv.base_url), cache).complete([Call(c.conversation, c.params, "test@2")
                                                                       for c in _calls(1)])
        assert srv.count == 5  # a parameter or template-version change is a miss


def test_failed_calls_are_not_cached(tmp_path: Path) -> None:
    cache = CallCache(tmp_path / "calls.sqlite")
    with OpenAIStub(["m"], lambda req: {"status": 400, "body": {"error": {"message": "bad"}}}) as srv:
        ModelClient(OpenAIBackend("m", srv.base_url), cache).complete(_calls(1))
    assert len(cache) == 0
