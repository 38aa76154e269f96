"""ragas' context precision and faithfulness, with every judge call going through our call layer to a local stub."""

from __future__ import annotations

import base64
import json
import socket
import sys
from pathlib import Path

import pytest

pytest.importorskip("ragas")

from m2rag_bench.judges.ragas_metrics import RagasJudge, request_to_call  # noqa: E402
from m2rag_bench.models.base import BackendError  # noqa: E402
from m2rag_bench.models.cache import CallCache  # noqa: E402
from m2rag_bench.models.client import ModelClient  # noqa: E402
from m2rag_bench.models.openai_backend import OpenAIBackend  # noqa: E402
from tests.helpers.openai_server import OpenAIStub  # noqa: E402

QUERY = "What do cats eat?"
RESPONSE = "Cats eat fish. Cats eat mice. Cats eat rocks."
CONTEXTS = ["ctx-A: cats like fish", "ctx-B: dogs bark", "ctx-C: cats hunt mice"]
CP_VERDICTS = {"ctx-A": 1, "ctx-B": 0, "ctx-C": 1}
STATEMENTS = {"Cats eat fish.": 1, "Cats eat mice.": 1, "Cats eat rocks.": 0}


def _schema_title(request: dict) -> str:
    system = request["messages"][0]["content"]
    return json.loads(system[system.index("{"):system.rindex("}") + 1])["title"]


def judge_responder(request: dict) -> str:
    """Answers each ragas prompt with JSON matching the schema ragas puts in the system message."""
    title, prompt = _schema_title(request), request["messages"][-1]["content"]
    if title == "StatementGeneratorOutput":
        return json.dumps({"statements": list(STATEMENTS)})
    if title == "NLIStatementOutput":
        return json.dumps({"statements": [{"statement": s, "reason": "checked", "verdict": v}
                                          for s, v in STATEMENTS.items()]})
    if title == "ContextPrecisionOutput":
        tail = prompt[prompt.rindex("Now perform the same"):]  # the examples above mention other contexts
        [verdict] = [v for name, v in CP_VERDICTS.items() if name in tail]
        return json.dumps({"reason": "scripted", "verdict": verdict})
    raise AssertionError(f"unexpected schema {title}")


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> list:
    """Every connection must stay on the loopback (ragas analytics would try to post otherwise)."""
    attempts: list = []
    real_connect, real_getaddrinfo = socket.socket.connect, socket.getaddrinfo
    local = ("127.0.0.1", "::1", "localhost")

    def connect(sock: socket.socket, address):  # noqa: ANN001, ANN202
        if isinstance(address, tuple) and address[0] not in local:
            attempts.append(address)
            raise OSError(f"network blocked in tests: {address}")
        return real_connect(sock, address)

    def getaddrinfo(host, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202 - DNS lookups count too
        if host not in local:
            attempts.append(host)
            raise socket.gaierror(f"network blocked in tests: {host}")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield attempts
    assert attempts == [], f"something tried to leave the machine: {attempts}"


def _judge(srv: OpenAIStub, tmp_path: Path, **kw) -> RagasJudge:
    backend = OpenAIBackend("judge", srv.base_url, max_retries=1, backoff=0.01)
    return RagasJudge(ModelClient(backend, CallCache(tmp_path / "calls.sqlite")), **kw)


def test_scores_match_the_formulas_and_rerun_is_free(tmp_path: Path) -> None:
    with OpenAIStub(["judge"], judge_responder) as srv:
        judge = _judge(srv, tmp_path)
        faith, cp = judge.score_many([("faithfulness", QUERY, RESPONSE, CONTEXTS),
                                      ("context_precision", QUERY, RESPONSE, CONTEXTS)])
        assert faith.error is None and faith.score == pytest.approx(2 / 3)
        assert cp.error is None and cp.score == pytest.approx((1 / 1 * 1 + 2 / 3 * 1) / 2)  # average precision
        assert srv.count == 2 + 3  # faithfulness: statements + NLI; context precision: one call per context
        assert faith.raw["calls"] == 2 and cp.raw["calls"] == 3 and faith.raw["cached_calls"] == 0
        for request in srv.requests:  # what ragas asked for reached the server through our backend
            assert request["response_format"] == {"type": "json_object"}
            assert request["top_p"] == 0.1 and request["max_tokens"] == 1024 and request["temperature"] == 0.01
            assert request["seed"] == 1234  # ragas sends none: the project default fills in
        usage = judge.client.meter.models["judge"]
        assert usage.calls == 5 and usage.cached_calls == 0 and usage.failed_calls == 0
        assert usage.prompt_tokens > 0 and usage.completion_tokens > 0
        assert judge.client.sent == 5

        srv.reset()
        assert judge.score_many([("faithfulness", QUERY, RESPONSE, CONTEXTS)])[0].score == faith.score
        assert srv.count == 0  # the same judge in a new event loop: from the cache

        again = _judge(srv, tmp_path)  # a fresh client on the same cache file
        faith2, cp2 = again.score_many([("faithfulness", QUERY, RESPONSE, CONTEXTS),
                                        ("context_precision", QUERY, RESPONSE, CONTEXTS)])
        assert srv.count == 0 and again.client.sent == 0
        assert (faith2.score, cp2.score) == (faith.score, cp.score)
        assert faith2.raw["cached_calls"] == 2 and cp2.raw["cached_calls"] == 3
        assert again.client.meter.models["judge"].cached_calls == 5
        assert again.client.meter.models["judge"].calls == 0


def test_templates_and_params_reach_the_cache_key(tmp_path: Path) -> None:
    with OpenAIStub(["judge"], judge_responder) as srv:
        judge = _judge(srv, tmp_path)
        body = {"model": "x", "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}],
                "temperature": 0.0, "top_p": 0.1, "max_tokens": 1024, "response_format": {"type": "json_object"}}
        call = request_to_call(body, judge.template("faithfulness"))
        assert call.template.startswith("ragas-0.4.") and call.template.endswith(":faithfulness")
        assert call.params.json_object and call.params.top_p == 0.1 and call.params.temperature == 0.0
        assert [m.role for m in call.conversation] == ["system", "user"]
        with pytest.raises(ValueError, match="tools"):
            request_to_call({**body, "tools": []}, "t")
        png = base64.b64encode(b"\x89PNG-bytes").decode()
        parts = [{"type": "text", "text": "see"},
                 {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png}"}}]
        [msg] = request_to_call({**body, "messages": [{"role": "user", "content": parts}]}, "t").conversation
        assert msg.text == "see" and msg.images[0].data == b"\x89PNG-bytes" and msg.images[0].mime == "image/png"
        with pytest.raises(ValueError, match="data: URLs"):  # no downloads through the judge
            request_to_call({**body, "messages": [{"role": "user", "content": [
                {"type": "image_url", "image_url": {"url": "https://example.com/x.png"}}]}]}, "t")


def test_unparsable_judge_gives_no_score_not_zero(tmp_path: Path) -> None:
    with OpenAIStub(["judge"], lambda request: "I think it is fine.") as srv:
        judge = _judge(srv, tmp_path)
        [faith, cp] = judge.score_many([("faithfulness", QUERY, RESPONSE, CONTEXTS),
                                        ("context_precision", QUERY, RESPONSE, CONTEXTS)])
        for result in (faith, cp):
            assert result.score is None and result.error and "nan" not in result.raw
        assert srv.count == 8  # instructor: the first call plus 3 re-asks, once per metric (ragas stops there)


def test_failed_call_and_nan(tmp_path: Path) -> None:
    def responder(request: dict) -> str | dict:
        if _schema_title(request) == "StatementGeneratorOutput":
            return json.dumps({"statements": []})
        return {"status": 500, "body": {"error": {"message": "boom"}}}

    with OpenAIStub(["judge"], responder) as srv:
        judge = _judge(srv, tmp_path)
        [faith, cp] = judge.score_many([("faithfulness", QUERY, "Hmm.", CONTEXTS),
                                        ("context_precision", QUERY, RESPONSE, CONTEXTS[:1])])
        assert faith.score is None and faith.raw["nan"] is True and faith.error is None  # no statements: NaN
        assert cp.score is None and "500" in cp.error and "boom" in cp.error and cp.raw["calls"] == 1
        assert judge.client.meter.models["judge"].failed_calls == 1
        assert srv.count == 1 + 2  # our backend retried the 500 once (max_retries=1); instructor did not


def test_backend_gone_stops_the_run(tmp_path: Path) -> None:
    with OpenAIStub(["judge"], judge_responder) as srv:
        judge = _judge(srv, tmp_path)
    with pytest.raises(BackendError, match="lost the connection"):  # the server is stopped now
        judge.score_many([("context_precision", QUERY, RESPONSE, CONTEXTS)])


def test_bounded_concurrency(tmp_path: Path) -> None:
    with OpenAIStub(["judge"], judge_responder, delay=0.05) as srv:
        judge = _judge(srv, tmp_path, concurrency=3)
        items = [("faithfulness", f"{QUERY} #{i}", RESPONSE, CONTEXTS) for i in range(8)]
        results = judge.score_many(items)
        assert [r.score for r in results] == pytest.approx([2 / 3] * 8)
        # 8 statement calls; the 8 NLI prompts are identical (they do not contain the query): sent once
        assert srv.max_concurrent <= 3 and srv.count == 8 + 1
        assert judge.client.meter.models["judge"].calls == 9 and judge.client.sent == 9


def test_unknown_metric(tmp_path: Path) -> None:
    with OpenAIStub(["judge"], judge_responder) as srv:
        with pytest.raises(ValueError, match="unknown ragas metric"):
            _judge(srv, tmp_path).score_many([("answer_relevancy", QUERY, RESPONSE, CONTEXTS)])


def test_missing_ragas_is_a_clear_backend_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ragas", None)  # `import ragas` now raises ImportError
    client = ModelClient(OpenAIBackend("judge", "http://127.0.0.1:9/v1"), CallCache(tmp_path / "c.sqlite"))
    with pytest.raises(BackendError, match=r"pip install 'm2rag-bench\[ragas\]'"):
        RagasJudge(client)
