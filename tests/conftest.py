"""Test-wide setup: everything offline, caches in a throwaway folder, small release fixtures."""

from __future__ import annotations

import os
import tempfile

# Must happen before datasets / huggingface_hub are imported anywhere: both read these at import time.
_HOME = tempfile.mkdtemp(prefix="m2rag-test-hf-")
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
os.environ.setdefault("HF_HOME", _HOME)
os.environ.setdefault("M2RAG_BENCH_CACHE", os.path.join(_HOME, "m2rag"))

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from m2rag_bench.data.synthetic import write_release, write_training_release  # noqa: E402


@pytest.fixture
def release(tmp_path: Path) -> Path:
    """A 4-query release in the authors' layout with extracted images."""
    return write_release(tmp_path / "release", 4, seed=1)


@pytest.fixture
def training_release(tmp_path: Path) -> Path:
    return write_training_release(tmp_path / "training", 3, seed=2)
