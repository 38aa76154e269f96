"""The single-stage tasks registered for lm-eval itself (`tasks/lm_eval/`), run through lm-eval's own backends."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

lm_eval = pytest.importorskip("lm_eval")
pytest.importorskip("torch")

from lm_eval.tasks import TaskManager  # noqa: E402

from m2rag_bench.data.export import build_dataset  # noqa: E402
from m2rag_bench.data.features import row_to_sample  # noqa: E402
from m2rag_bench.data.loading import load_benchmark  # noqa: E402
from m2rag_bench.strategies.selection import select  # noqa: E402
from m2rag_bench.strategies.templates import render, to_message  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
TASKS = REPO / "tasks" / "lm_eval"
MINI = "lmeval_m2rag_single_stage_llm_mini"
FULL = "lmeval_m2rag_single_stage_llm"
METRICS = ("image_count", "image_recall", "invalid_image_refs")


def _utils() -> ModuleType:
    """`tasks/lm_eval/utils.py` (not a package module: lm-eval loads it by path, and so do the tests)."""
    spec = importlib.util.spec_from_file_location("m2rag_lm_eval_task_utils", TASKS / "utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _task_manager(**metadata: str) -> TaskManager:
    return TaskManager(include_path=str(TASKS), include_defaults=False, metadata=metadata or None)


def test_tasks_are_indexed_under_their_own_names() -> None:
    assert {MINI, FULL} <= set(_task_manager().all_tasks)
    assert not {name for name in _task_manager().all_tasks if not name.startswith("lmeval_")}


def test_hf_backend_runs_the_mini_task() -> None:
    from tests.helpers.tiny_models import get_tiny_llm

    results = lm_eval.simple_evaluate(
        model="hf", model_args={"pretrained": str(get_tiny_llm()), "dtype": "float32"}, tasks=[MINI],
        task_manager=_task_manager(), device="cpu", batch_size=2, limit=3, gen_kwargs={"max_gen_toks": 8},
        apply_chat_template=True, log_samples=True, bootstrap_iters=0)

    scores = results["results"][MINI]
    assert scores["sample_len"] == 3
    assert 0 <= scores["image_count,none"] <= 10
    assert 0.0 <= scores["image_recall,none"] <= 1.0
    assert scores["invalid_image_refs,none"] >= 0
    assert results["configs"][MINI]["generation_kwargs"]["max_gen_toks"] == 8  # the override reached the task
    samples = results["samples"][MINI]
    assert len(samples) == 3
    first = load_benchmark("mini")[0]
    prompt = samples[0]["arguments"][0][0]
    assert first["query"] in prompt and "images/0." in prompt
    assert prompt.startswith("<|im_start|>user\n")  # the tiny model's chat template was applied
    assert all(set(METRICS) <= set(s["metrics"]) for s in samples)


def test_prompt_is_the_package_single_stage_prompt() -> None:
    utils = _utils()
    for doc in load_benchmark("mini").select(range(3)):
        selection = select(row_to_sample(doc))
        text = render("single_stage", modality="llm", query=selection.sample.query, pages=selection.pages,
                      aux=selection.aux)
        expected = to_message(text, {c.index: c for c in selection.candidates}, "llm").text
        assert utils.doc_to_text(doc) == expected
        assert "\x00" not in expected
        for cand in selection.candidates:
            assert f"![{cand.caption}]({cand.pseudo_url})" in expected


def test_process_results_scores_what_the_parser_keeps() -> None:
    utils = _utils()
    doc = load_benchmark("mini")[0]
    candidates = select(row_to_sample(doc)).candidates
    positives = [c for c in candidates if c.image.final_score >= 8]
    assert positives and len(positives) < len(candidates)
    answer = ("```markdown\nIntro.\n\n"
              + "".join(f"![c]({c.pseudo_url})\n\n" for c in positives[:1])
              + f"![again]({positives[0].pseudo_url})\n\n"  # duplicate
              + "![far](images/99.png)\n\n"  # out of range
              + "![web](https://example.com/x.png)\n```")  # foreign
    scores = utils.process_results(doc, [answer])
    assert scores == {"image_count": 1.0, "image_recall": 1 / len(positives), "invalid_image_refs": 3.0}
    assert utils.process_results(doc, ["No images at all."]) == {
        "image_count": 0.0, "image_recall": 0.0, "invalid_image_refs": 0.0}


def test_full_task_reads_the_export_named_by_metadata(release: Path, tmp_path: Path) -> None:
    export = tmp_path / "export"
    build_dataset(release, export, ["benchmark"])
    rows = load_benchmark(export)
    level_1 = [row["query_id"] for row in rows if row["level"] == 1]
    assert 0 < len(level_1) < rows.num_rows

    task = _task_manager(m2rag_data=str(export)).load([FULL])["tasks"][FULL]
    docs = list(task.eval_docs)
    assert [d["query_id"] for d in docs] == level_1  # the package task's levels: [1]
    assert all(img["image"] is None for d in docs for p in d["webpages"] for img in p["images"])
    assert docs[0]["query"] in task.doc_to_text(docs[0])

    with pytest.raises(ValueError, match="m2rag_data"):
        _task_manager().load([FULL])


def test_local_chat_completions_backend() -> None:
    pytest.importorskip("tenacity")  # lm-eval's [api] extra
    from tests.helpers.openai_server import OpenAIStub

    utils = _utils()
    docs = load_benchmark("mini").select(range(2))
    expected = []
    for doc in docs:
        candidates = select(row_to_sample(doc)).candidates
        positives = {c.index for c in candidates if c.image.final_score >= 8}
        expected.append((0 in positives) / len(positives) if positives else 1.0)

    def responder(request: dict) -> str:  # places image 0 twice, one made-up image and one remote image
        return ("Answer.\n\n![first](images/0.png)\n\n![twice](images/0.png)\n\n![made up](images/42.png)\n\n"
                "![remote](http://example.com/a.png)")

    with OpenAIStub(["stub-model"], responder) as server:
        results = lm_eval.simple_evaluate(
            model="local-chat-completions",
            model_args={"model": "stub-model", "base_url": f"{server.base_url}/chat/completions",
                        "num_concurrent": 1, "max_retries": 1, "tokenized_requests": False},
            tasks=[MINI], task_manager=_task_manager(), limit=2, apply_chat_template=True, log_samples=True,
            bootstrap_iters=0)
        requests = server.requests

    scores = results["results"][MINI]
    assert scores["image_count,none"] == 1.0
    assert scores["invalid_image_refs,none"] == 3.0
    assert scores["image_recall,none"] == pytest.approx(sum(expected) / len(expected))
    assert len(requests) == 2
    body = requests[0]
    assert body["max_tokens"] == 2048 and body["temperature"] == 0 and body["seed"] == 1234
    assert body["messages"][0]["role"] == "user"
    assert body["messages"][0]["content"] == utils.doc_to_text(docs[0])


def test_lm_eval_validate_cli() -> None:
    done = subprocess.run([sys.executable, "-m", "lm_eval", "validate", "--tasks", f"{MINI},{FULL}",
                           "--include_path", str(TASKS)], capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All tasks found and valid" in done.stdout
