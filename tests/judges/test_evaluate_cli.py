"""`m2rag-bench evaluate` on a run of the mini split with a local judge server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2rag_bench.schema import Judgment
from tests.helpers.cli import run_cli
from tests.helpers.openai_server import OpenAIStub
from tests.judges.scripted_judge import RUBRIC_SCORES, make_judge
from tests.strategies.scripted_model import reply as generator


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("evalrun")
    with OpenAIStub(["gen"], generator) as srv:
        proc = run_cli(tmp, "run", "--backend", "openai", "--model", "gen", "--base-url", srv.base_url, "--limit", "4",
                    "--strategy", "single-stage", "--out", str(tmp / "run"), "--no-eval")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return tmp / "run"


def _read(run: Path) -> tuple[list[Judgment], dict]:
    judgments = [Judgment.model_validate_json(x) for x in (run / "judgments.jsonl").read_text().splitlines()]
    return judgments, json.loads((run / "scores.json").read_text())


def test_all_eight_metrics_recomputable_by_hand(run_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("ragas")
    with OpenAIStub(["judge"], make_judge(unparsable_for="Why is the sky blue")) as srv:
        proc = run_cli(tmp_path, "evaluate", str(run_dir), "--judge", "judge", "--judge-base-url", srv.base_url,
                    "--bootstrap", "200")
        first_calls = srv.count
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert "Flu." in proc.stdout and "Overall" in proc.stdout and "Recall" in proc.stdout
        judgments, scores = _read(run_dir)
        assert {j.metric for j in judgments} == set(scores["paper"]["metrics"])
        means = {m: v["mean"] for m, v in scores["paper"]["metrics"].items()}
        # relevance: the verdict on one question is prose only -> missing after 3 attempts, never 0
        rel = [j for j in judgments if j.metric == "relevance"]
        missing = [j for j in rel if j.score is None]
        assert len(missing) == 1 and missing[0].attempts == 3 and missing[0].raw and missing[0].error
        assert scores["coverage"]["metrics"]["relevance"]["coverage"] == pytest.approx(3 / 4)
        assert means["relevance"] == pytest.approx(70.0) and means["fluency"] == pytest.approx(80.0)
        # image metrics are pooled over output images (each judged once per metric); recall per response
        images = [j for j in judgments if j.metric == "image_coherence"]
        assert len(images) == scores["counts"]["output_images"] > 0
        for metric, value in RUBRIC_SCORES.values():
            if metric.startswith("image_"):
                assert means[metric] == pytest.approx(value * 10)
        recalls = [j.score for j in judgments if j.metric == "image_recall"]
        assert means["image_recall"] == pytest.approx(100 * sum(recalls) / len(recalls))
        assert means["faithfulness"] == pytest.approx(50.0)
        assert means["context_precision"] == pytest.approx(100.0, abs=1e-3)
        assert scores["paper"]["overall"]["mean"] == pytest.approx(sum(means.values()) / 8)
        assert scores["paper"]["text_avg"] == pytest.approx(sum(means[m] for m in list(means)[:4]) / 4)

        again = run_cli(tmp_path, "evaluate", str(run_dir), "--judge", "judge", "--judge-base-url", srv.base_url)
        assert again.returncode == 0 and srv.count == first_calls  # re-running is free
        dry = run_cli(tmp_path, "evaluate", str(run_dir), "--judge", "judge", "--judge-base-url", srv.base_url, "--dry-run")
        assert dry.returncode == 0 and srv.count == first_calls and "plan" in dry.stdout


def test_dry_run_prices_the_paper_judges_without_calls(run_dir: Path, tmp_path: Path) -> None:
    with OpenAIStub(["gpt-4o-2024-08-06", "gpt-4o-mini-2024-07-18"], make_judge()) as srv:
        proc = run_cli(tmp_path, "evaluate", str(run_dir), "--judge", "gpt-4o-2024-08-06", "--text-judge",
                    "gpt-4o-mini-2024-07-18", "--judge-base-url", srv.base_url, "--dry-run")
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert srv.count == 0 and "$" in proc.stdout and "image_coherence" in proc.stdout


def test_max_cost_stops_before_the_limit(run_dir: Path, tmp_path: Path) -> None:
    with OpenAIStub(["gpt-4o-2024-08-06"], make_judge()) as srv:
        proc = run_cli(tmp_path, "evaluate", str(run_dir), "--judge", "gpt-4o-2024-08-06", "--judge-base-url",
                    srv.base_url, "--max-cost", "0.000001", "--metrics", "fluency,relevance,image_recall")
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert srv.count == 0 and "stopped before fluency" in proc.stderr
