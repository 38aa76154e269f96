"""``dataset build``: a release in, Hub-style parquet shards, a dataset card and a build report out.

Output layout (what ``datasets.load_dataset(OUT)`` and the Hub read)::

    OUT/README.md                                   card with a ``configs:`` block
    OUT/benchmark/test-00000-of-0000N.parquet       one folder per config, shards per split
    OUT/train/train-00000-of-0000N.parquet
    OUT/build_report.json                           every problem met, with file, line and field
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
from datasets import Features

from .builder import CONFIG_SPLITS, make_builder
from .card import write_card
from .report import BuildReport

DEFAULT_SHARD_SIZE = "500MB"
_SHARD_RE = re.compile(r"-(\d{5})-of-(\d{5})\.parquet$")


@dataclass
class ExportResult:
    """What one `build_dataset` call wrote."""

    out: Path
    configs: dict[str, dict[str, int]]  # config -> split -> rows
    reports: dict[str, BuildReport]


def _move_shards(tmp: Path, dest: Path, split: str) -> list[Path]:
    """Rename the builder's ``<name>-<split>[-i-of-n].parquet`` files to the Hub's ``<split>-i-of-n.parquet``."""
    found = sorted(tmp.glob(f"*-{split}*.parquet"))
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob(f"{split}-*.parquet"):
        old.unlink()
    moved = []
    for i, path in enumerate(found):
        target = dest / f"{split}-{i:05d}-of-{len(found):05d}.parquet"
        shutil.move(str(path), target)
        moved.append(target)
    return moved


def existing_configs(out: Path) -> dict[str, dict[str, int]]:
    """Configs already exported under ``out`` (so building ``train`` after ``benchmark`` keeps both)."""
    return {config: {split: rows for split, (rows, _) in info["splits"].items()} for config, info in scan_export(out).items()}


def scan_export(out: Path) -> dict[str, dict]:
    """Per config: its features (from the parquet schema) and, per split, the rows and bytes of its shards."""
    found: dict[str, dict] = {}
    for config, split in CONFIG_SPLITS.items():
        shards = sorted((out / config).glob(f"{split}-*.parquet"))
        if shards:
            files = [pq.ParquetFile(s) for s in shards]
            rows = sum(f.metadata.num_rows for f in files)
            found[config] = {"features": Features.from_arrow_schema(files[0].schema_arrow),
                             "splits": {split: (rows, sum(s.stat().st_size for s in shards))}}
    return found


def build_dataset(release: str | Path, out: str | Path, configs: list[str] | None = None, *, skip_bad: bool = False,
                  max_shard_size: str | int = DEFAULT_SHARD_SIZE, pretty_name: str | None = None,
                  card_kind: str | None = None) -> ExportResult:
    """Build the requested configs (default: every config the release holds) from ``release`` into ``out``."""
    from .release import ReleaseLayout

    out = Path(out)
    layout = ReleaseLayout.find(release)
    if configs is None:
        configs = [c for c, present in (("benchmark", layout.benchmark), ("train", layout.training)) if present]
        if not configs:
            raise FileNotFoundError(f"{release}: neither dev_set.jsonl(.tar.gz) nor data/{{llm,mllm}}/raw.jsonl found")
    out.mkdir(parents=True, exist_ok=True)
    reports: dict[str, BuildReport] = {}
    with tempfile.TemporaryDirectory(prefix=".build-", dir=out) as tmp:
        for config in configs:
            report = BuildReport()
            builder = make_builder(config, release, Path(tmp) / "cache", skip_bad=skip_bad, report=report)
            staging = Path(tmp) / config
            builder.download_and_prepare(output_dir=str(staging), file_format="parquet", max_shard_size=max_shard_size)
            _move_shards(staging, out / config, CONFIG_SPLITS[config])
            reports[config] = report
    exported = scan_export(out)
    result = ExportResult(out, existing_configs(out), reports)
    _write_reports(out, reports)
    write_card(out, result.configs, kind=card_kind, pretty_name=pretty_name, infos=exported)
    return result


def _write_reports(out: Path, reports: dict[str, BuildReport]) -> None:
    path = out / "build_report.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data.update({config: report.to_dict() for config, report in reports.items()})
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
