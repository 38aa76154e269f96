"""Every strategy × modality through the `hf` backend on tiny local models (random weights: the contract, not quality)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from m2rag_bench.models import make_client  # noqa: E402
from m2rag_bench.runs.layout import RunDir  # noqa: E402
from m2rag_bench.runs.runner import load_samples, run_task  # noqa: E402
from m2rag_bench.schema import PLACEHOLDER  # noqa: E402
from m2rag_bench.tasks import get_task  # noqa: E402
from tests.helpers.tiny_models import get_tiny_llm, get_tiny_vlm  # noqa: E402


@pytest.mark.parametrize("strategy", ["single_stage", "multi_stage", "separate"])
@pytest.mark.parametrize("modality", ["llm", "mllm"])
def test_hf_backend_runs_every_strategy(tmp_path: Path, strategy: str, modality: str) -> None:
    task = get_task(f"m2rag_{strategy}_{modality}_mini")
    task = task.model_copy(update={"generation_kwargs": {**task.generation_kwargs, "max_tokens": 12},
                                   "embedder": "lexical"})
    samples, dataset = load_samples("mini", task, limit=2)
    model = get_tiny_vlm() if modality == "mllm" else get_tiny_llm()
    client = make_client("hf", str(model), cache=tmp_path / "calls.sqlite", batch_size=2)
    assert client.supports_images == (modality == "mllm")
    result = run_task(task, client, RunDir(tmp_path / "run"), samples, dataset)
    responses = RunDir(tmp_path / "run").responses()
    assert result.total == 2 and set(responses) == {s.query_id for s in samples}
    for r in responses.values():
        assert r.strategy == strategy.replace("_", "-") and r.modality == modality and r.model == str(model)
        if r.error is None:
            assert r.placeholder_response.count(PLACEHOLDER) == len(r.output_images)
        else:  # a random model may answer nothing at all; that must be a recorded, named error
            assert "empty answer" in r.error
        assert r.stages["selection"]["candidates"]
    assert client.sent > 0
