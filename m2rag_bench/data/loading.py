"""``load_benchmark``: one call for the bundled mini split, a local export, a release directory or a Hub repo."""

from __future__ import annotations

import hashlib
import os
from importlib import resources
from pathlib import Path

import datasets

from .builder import CONFIG_SPLITS, make_builder
from .release import ReleaseLayout

MINI = "mini"


def mini_path() -> Path:
    """Folder of the bundled mini split inside the installed package."""
    return Path(str(resources.files("m2rag_bench.data").joinpath("mini")))


def _cache_root() -> Path:
    return Path(os.environ.get("M2RAG_BENCH_CACHE", Path(datasets.config.HF_DATASETS_CACHE) / "m2rag_bench"))


def _is_export(path: Path) -> bool:
    return (path / "README.md").is_file() and any(path.glob("*/*.parquet"))


def resolve_source(name_or_path: str | os.PathLike) -> tuple[str, str]:
    """Classify a dataset reference: ``("mini"|"export"|"release"|"hub", location)``."""
    name = str(name_or_path)
    if name == MINI:
        return "mini", str(mini_path())
    path = Path(name).expanduser()
    if path.exists():
        if path.is_dir() and _is_export(path):
            return "export", str(path)
        layout = ReleaseLayout.find(path)
        if layout.benchmark or layout.training:
            return "release", str(path)
        raise FileNotFoundError(f"{path}: neither a dataset export (README.md + <config>/*.parquet) nor a release "
                                "(dev_set.jsonl, dev_set.jsonl.tar.gz or data/{llm,mllm}/raw.jsonl)")
    if name.count("/") == 1 and not name.startswith((".", "/", "~")):
        return "hub", name
    raise FileNotFoundError(f"dataset not found: {name!r} is not 'mini', an existing path or a Hub repo id (org/name)")


def load_benchmark(name_or_path: str | os.PathLike = MINI, config: str = "benchmark", split: str | None = None,
                   revision: str | None = None) -> datasets.Dataset | datasets.DatasetDict:
    """Load M2RAG-Bench data as a `datasets` object.

    ``name_or_path`` is ``"mini"`` (the bundled split), a folder written by ``m2rag-bench dataset build``, an
    authors'-format release directory (built on first use into a cache keyed by its path and modification times), or
    a Hub repo id. ``split`` defaults to the config's only split (``test`` for ``benchmark``, ``train`` for
    ``train``).
    """
    if config not in CONFIG_SPLITS:
        raise ValueError(f"unknown config {config!r}; expected one of {', '.join(CONFIG_SPLITS)}")
    split = split or CONFIG_SPLITS[config]
    kind, location = resolve_source(name_or_path)
    if kind == "release":
        return _load_release(Path(location), config, split)
    return datasets.load_dataset(location, config, split=split, revision=revision)


def _fingerprint(release: Path) -> str:
    """Cache key of a release: its resolved path and the size and modification time of its files."""
    digest = hashlib.sha256(str(release.resolve()).encode())
    for path in sorted(p for p in release.rglob("*") if p.is_file()):
        stat = path.stat()
        digest.update(f"{path.relative_to(release)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def _load_release(release: Path, config: str, split: str) -> datasets.Dataset:
    cache = _cache_root() / "releases" / _fingerprint(release)
    builder = make_builder(config, release, cache)
    builder.download_and_prepare()
    return builder.as_dataset(split=split)
