"""`load_benchmark` and the training-release layouts."""

from __future__ import annotations

import io
import shutil
import tarfile
from pathlib import Path

import datasets
import pytest

import m2rag_bench
from m2rag_bench.data import loading
from m2rag_bench.data.export import build_dataset
from m2rag_bench.data.loading import resolve_source


def test_release_directory_is_built_once_then_cached(release: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ds = m2rag_bench.load_benchmark(release)
    assert ds.num_rows == 4 and ds.split == "test"
    samples = list(m2rag_bench.iter_samples(ds))
    assert samples[0].webpages[0].images[0].image_bytes
    calls = []
    original = loading.make_builder
    monkeypatch.setattr(loading, "make_builder", lambda *a, **k: calls.append(a) or original(*a, **k))
    again = m2rag_bench.load_benchmark(release)
    assert again.num_rows == 4 and again._fingerprint == ds._fingerprint
    assert len(calls) == 1  # a builder object, but it found its prepared data in the cache


def test_export_folder_and_train_config(release: Path, training_release: Path, tmp_path: Path) -> None:
    build_dataset(release, tmp_path / "out")
    build_dataset(training_release, tmp_path / "out")
    assert m2rag_bench.load_benchmark(tmp_path / "out").num_rows == 4
    assert m2rag_bench.load_benchmark(tmp_path / "out", config="train").num_rows == 6
    with pytest.raises(ValueError, match="unknown config"):
        m2rag_bench.load_benchmark(tmp_path / "out", config="dev")


def test_hub_ids_go_to_datasets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert resolve_source("my-org/m2rag-bench") == ("hub", "my-org/m2rag-bench")
    seen = {}
    monkeypatch.setattr(datasets, "load_dataset", lambda *a, **k: seen.update(args=a, kwargs=k) or "ds")
    assert m2rag_bench.load_benchmark("my-org/m2rag-bench", revision="v1") == "ds"
    assert seen == {"args": ("my-org/m2rag-bench", "benchmark"), "kwargs": {"split": "test", "revision": "v1"}}
    with pytest.raises(FileNotFoundError, match="not 'mini', an existing path or a Hub repo id"):
        resolve_source("./no/such/thing")


def _pack(root: Path, folder: str, tar_name: str) -> None:
    """Move ``root/images/ELI5/<folder>/`` into a tar shard whose members start at query-…"""
    src = root / "images" / "ELI5" / folder
    with tarfile.open(root / tar_name, "w") as tar:
        for path in sorted(src.rglob("*")):
            if path.is_file():
                tar.add(path, arcname=str(path.relative_to(src)))
    shutil.rmtree(root / "images")


def test_training_release_from_archives(training_release: Path, tmp_path: Path) -> None:
    _pack(training_release, "training_set", "training_set-0.tar")
    data = training_release / "data"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(data, arcname="data")
    (training_release / "data.tar.gz").write_bytes(buf.getvalue())
    shutil.rmtree(data)
    result = build_dataset(training_release, tmp_path / "out")
    assert result.configs == {"train": {"train": 6}} and result.reports["train"].problems == []
    ds = datasets.load_dataset(str(tmp_path / "out"), "train", split="train")
    assert sum(len(r["images"]) for r in ds) == 6 and all(im is not None for r in ds for im in r["images"])
