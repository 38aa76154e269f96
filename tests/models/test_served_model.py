"""A local server with one model needs no --model / --judge."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2rag_bench.models import BackendError
from m2rag_bench.models.openai_backend import only_served_model
from tests.helpers.cli import run_cli
from tests.helpers.openai_server import OpenAIStub
from tests.strategies.scripted_model import reply


def test_the_only_served_model_is_found() -> None:
    with OpenAIStub(["Qwen/Qwen2-VL-7B-Instruct"]) as one, OpenAIStub(["a", "b"]) as two:
        assert only_served_model(one.base_url) == "Qwen/Qwen2-VL-7B-Instruct"
        with pytest.raises(BackendError, match=r"serves 2 models \(a, b\); choose one"):
            only_served_model(two.base_url)
        gone = one.base_url
    with pytest.raises(BackendError, match="cannot reach"):
        only_served_model(gone)


def test_run_without_model_uses_the_servers_only_model(tmp_path: Path) -> None:
    with OpenAIStub(["served-model"], reply) as srv:
        proc = run_cli(tmp_path, "run", "--backend", "openai", "--base-url", srv.base_url, "--limit", "1",
                       "--out", str(tmp_path / "run"), "--no-eval")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert '"model":"served-model"' in (tmp_path / "run" / "responses.jsonl").read_text()
