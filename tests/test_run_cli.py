"""`m2rag-bench run` as a user runs it: the run-directory contract, resume after a kill, and clear failures."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from m2rag_bench.schema import PLACEHOLDER, Response
from tests.helpers.openai_server import OpenAIStub
from tests.strategies.scripted_model import reply

REPO = Path(__file__).resolve().parents[1]


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "M2RAG_BENCH_CACHE": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1", "PYTHONPATH": str(REPO), "COLUMNS": "200"}


def _run(tmp_path: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:  # noqa: ANN003
    return subprocess.run([sys.executable, "-m", "m2rag_bench", "run", *args], env=_env(tmp_path),
                          capture_output=True, text=True, cwd=tmp_path, timeout=300, **kwargs)


def _responses(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "responses.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("strategy", ["single-stage", "multi-stage", "separate"])
@pytest.mark.parametrize("modality", ["llm", "mllm"])
def test_every_strategy_and_modality_follows_the_contract(tmp_path: Path, strategy: str, modality: str) -> None:
    with OpenAIStub(["m"], reply) as srv:
        out = tmp_path / "run"
        proc = _run(tmp_path, "--backend", "openai", "--model", "m", "--base-url", srv.base_url, "--strategy", strategy,
                    "--modality", modality, "--limit", "4", "--out", str(out), "--embedder", "lexical", "--no-eval")
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = _responses(out)
    assert len(lines) == 4
    for line in lines:
        r = Response.model_validate(line)
        assert {"query_id", "strategy", "modality", "model", "response", "placeholder_response", "output_images",
                "stages", "usage", "error"} <= line.keys()
        assert r.error is None and r.strategy == strategy and r.modality == modality and r.model == "m"
        assert r.placeholder_response.count(PLACEHOLDER) == len(r.output_images)
        assert all({"index", "image_id", "caption"} <= o.keys() for o in line["output_images"])
    config = json.loads((out / "config.json").read_text())
    for key in ("package_version", "git_revision", "dataset", "task_file", "identity", "protocol", "model", "backend"):
        assert key in config, key
    assert config["identity"]["templates"] and config["identity"]["generation"]["temperature"] == 0.0
    assert config["dataset"]["name"] == "mini" and len(config["dataset"]["sha256"]) == 64
    summary = json.loads((out / "summary.json").read_text())
    assert summary["coverage"] == 1.0 and summary["calls_sent"] > 0


def test_killed_run_resumes_without_repeating_calls(tmp_path: Path) -> None:
    with OpenAIStub(["m"], reply, delay=0.05) as srv:
        args = ("--backend", "openai", "--model", "m", "--base-url", srv.base_url, "--strategy", "multi-stage",
                "--out", str(tmp_path / "run"), "--concurrency", "2", "--chunk-size", "4", "--no-eval")
        proc = subprocess.Popen([sys.executable, "-m", "m2rag_bench", "run", *args], env=_env(tmp_path),
                                cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        while srv.count < 40 and time.time() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        first = srv.count
        assert 0 < first and not (tmp_path / "run" / "summary.json").exists()
        done = _run(tmp_path, *args)
        assert done.returncode == 0, done.stderr[-3000:]
        bodies = Counter(json.dumps(b, sort_keys=True) for b in srv.requests)
    # The only repeats allowed are requests in flight at the moment of the kill (concurrency 2).
    repeats = sum(n - 1 for n in bodies.values())
    assert repeats <= 2, f"{repeats} repeated calls"
    assert len(_responses(tmp_path / "run")) >= 12 and json.loads((tmp_path / "run" / "summary.json").read_text())[
        "coverage"] == 1.0


def test_rerun_of_a_finished_run_makes_no_calls(tmp_path: Path) -> None:
    with OpenAIStub(["m"], reply) as srv:
        args = ("--backend", "openai", "--model", "m", "--base-url", srv.base_url, "--limit", "3",
                "--out", str(tmp_path / "run"), "--no-eval")
        assert _run(tmp_path, *args).returncode == 0
        before = srv.count
        again = _run(tmp_path, *args)
        assert again.returncode == 0 and srv.count == before
    assert "already finished before this invocation" in again.stderr


def test_unreachable_endpoint_is_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = _run(tmp_path, "--backend", "openai", "--model", "m", "--base-url", f"http://127.0.0.1:{port}/v1")
    assert proc.returncode == 1 and "cannot reach" in proc.stderr and "Traceback" not in proc.stderr


def test_unknown_backend_and_model_are_clear(tmp_path: Path) -> None:
    proc = _run(tmp_path, "--backend", "tgi", "--model", "m")
    assert proc.returncode == 1 and "unknown backend 'tgi'" in proc.stderr
    with OpenAIStub(["served"]) as srv:
        proc = _run(tmp_path, "--backend", "openai", "--model", "nope", "--base-url", srv.base_url)
    assert proc.returncode == 1 and "'nope' is not served" in proc.stderr and "Traceback" not in proc.stderr


def test_malformed_output_is_recorded_per_sample_and_nothing_is_lost(tmp_path: Path) -> None:
    def sometimes_empty(request: dict) -> str:
        return "" if "Why is the sky blue" in json.dumps(request) else reply(request)

    with OpenAIStub(["m"], sometimes_empty) as srv:
        proc = _run(tmp_path, "--backend", "openai", "--model", "m", "--base-url", srv.base_url, "--limit", "3",
                    "--out", str(tmp_path / "run"), "--no-eval")
    assert proc.returncode == 0
    lines = {r["query_id"]: r for r in _responses(tmp_path / "run")}
    assert "empty answer" in lines["mini-01"]["error"] and lines["mini-01"]["response"] is None
    assert lines["mini-02"]["error"] is None and lines["mini-03"]["error"] is None
    assert "67% coverage" in proc.stderr


def test_changing_the_model_in_the_same_run_dir_is_refused(tmp_path: Path) -> None:
    with OpenAIStub(["m", "other"], reply) as srv:
        base = ("--backend", "openai", "--base-url", srv.base_url, "--limit", "1", "--out", str(tmp_path / "r"), "--no-eval")
        assert _run(tmp_path, "--model", "m", *base).returncode == 0
        proc = _run(tmp_path, "--model", "other", *base)
    assert proc.returncode == 1 and "different configuration" in proc.stderr and "backend" in proc.stderr
