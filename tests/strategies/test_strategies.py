"""The three strategies on the mini split against a scripted OpenAI-compatible model."""

from __future__ import annotations

import pytest

import m2rag_bench
from m2rag_bench.models import ModelClient
from m2rag_bench.models.openai_backend import OpenAIBackend
from m2rag_bench.schema import PLACEHOLDER
from m2rag_bench.strategies import StrategyConfig, make_strategy
from tests.helpers.openai_server import OpenAIStub
from tests.strategies.scripted_model import reply


@pytest.fixture(scope="module")
def samples() -> list[m2rag_bench.Sample]:
    return list(m2rag_bench.iter_samples(m2rag_bench.load_benchmark("mini")))[:3]


@pytest.fixture(scope="module")
def server():
    with OpenAIStub(["m"], reply) as srv:
        yield srv


def _run(server, samples, strategy: str, modality: str = "llm", protocol: str = "default"):  # noqa: ANN001
    server.reset()
    config = StrategyConfig(modality=modality, protocol=protocol, embedder="lexical")
    client = ModelClient(OpenAIBackend("m", server.base_url), None)
    return make_strategy(strategy, config).run(samples, client)


@pytest.mark.parametrize("strategy", ["single-stage", "multi-stage", "separate"])
@pytest.mark.parametrize("modality", ["llm", "mllm"])
def test_placeholders_match_output_images(server, samples, strategy: str, modality: str) -> None:  # noqa: ANN001
    responses = _run(server, samples, strategy, modality)
    assert [r.query_id for r in responses] == [s.query_id for s in samples]
    for r in responses:
        assert r.error is None and r.strategy == strategy and r.modality == modality and r.protocol == "default"
        assert r.placeholder_response.count(PLACEHOLDER) == len(r.output_images)
        assert len({o.index for o in r.output_images}) == len(r.output_images)
        for o in r.output_images:
            assert f"](images/{o.index}." in r.response
    images_sent = sum(p["type"] == "image_url" for req in server.requests for m in req["messages"]
                      if isinstance(m["content"], list) for p in m["content"])
    assert (images_sent > 0) == (modality == "mllm" and strategy != "separate" or
                                 modality == "mllm" and any(r.output_images for r in responses))


def test_single_stage_counts_what_it_removes(server, samples) -> None:  # noqa: ANN001
    r = _run(server, samples, "single-stage")[0]
    assert [o.index for o in r.output_images] == [0, 2]
    assert r.stages["counts"] == {"accepted": 2, "duplicate": 1}
    assert r.usage["prompt_tokens"] > 0 and r.stages["answer"]["template"] == "single_stage@v1"


def test_multi_stage_calls_and_rejections(server, samples) -> None:  # noqa: ANN001
    responses = _run(server, samples, "multi-stage")
    n_candidates = sum(len(r.stages["selection"]["candidates"]) for r in responses)
    placed = sum(r.stages["counts"].get("placed", 0) for r in responses)
    rejected = sum(r.stages["counts"].get("rejected", 0) for r in responses)
    refined = sum(len(r.stages.get("stage_3", [])) if isinstance(r.stages.get("stage_3"), list)
                  else int("stage_3" in r.stages) for r in responses)
    assert placed + rejected == n_candidates and rejected > 0
    assert server.count == len(samples) + n_candidates + refined
    assert sum(len(r.output_images) for r in responses) == placed
    assert all(o.index % 3 != 2 for r in responses for o in r.output_images)  # -1 means rejected


def test_compat_protocol_reads_minus_one_as_one(server, samples) -> None:  # noqa: ANN001
    default = _run(server, samples, "multi-stage")
    compat = _run(server, samples, "multi-stage", protocol="m2rag-2025-02")
    assert all(r.protocol == "m2rag-2025-02" for r in compat)
    assert sum(len(r.output_images) for r in compat) > sum(len(r.output_images) for r in default)


def test_separate_compat_keeps_at_most_one_image(server, samples) -> None:  # noqa: ANN001
    default = _run(server, samples, "separate")
    compat = _run(server, samples, "separate", protocol="m2rag-2025-02")
    assert all(len(r.output_images) <= 1 for r in compat)
    assert max(len(r.output_images) for r in default) > 1
    assert all(o.image_id.startswith("aux") is False for r in default for o in r.output_images)


def test_failed_call_is_a_per_sample_error(samples) -> None:  # noqa: ANN001
    def flaky(request: dict):
        text = str(request["messages"])
        return {"status": 400, "body": {"error": {"message": "prompt too long"}}} if samples[1].query[:30] in text \
            else reply(request)

    with OpenAIStub(["m"], flaky) as srv:
        client = ModelClient(OpenAIBackend("m", srv.base_url), None)
        responses = make_strategy("single-stage", StrategyConfig()).run(samples, client)
    assert responses[1].error and "prompt too long" in responses[1].error and responses[1].response is None
    assert responses[0].error is None and responses[2].error is None
