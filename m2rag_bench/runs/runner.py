"""``m2rag-bench run``: a task, a model and a run directory in; responses out, resumably."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..data.features import iter_samples
from ..data.loading import load_benchmark, resolve_source
from ..models.client import ModelClient
from ..schema import Sample
from ..strategies import make_strategy
from ..strategies.base import StageReporter, no_progress
from ..tasks import TaskConfig
from .layout import RunDir
from .stamp import build_stamp, files_digest

FULL_BENCHMARK_HINT = ("the full benchmark is not bundled: build it with `m2rag-bench dataset build --release DIR "
                       "--out OUT` and pass `--split OUT` (or a Hub repo id)")


@dataclass
class RunResult:
    run_dir: Path
    total: int
    done: int
    failed: int
    skipped: int  # finished earlier, not redone
    calls_sent: int
    wall_s: float
    usage: dict[str, Any] = field(default_factory=dict)
    cost_usd: float | None = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"samples": self.total, "finished": self.done, "failed": self.failed,
                "coverage": round(self.done / self.total, 4) if self.total else None,
                "resumed_from_earlier_runs": self.skipped, "calls_sent": self.calls_sent,
                "wall_seconds": round(self.wall_s, 2), "usage": self.usage, "cost_usd": self.cost_usd}


def resolve_dataset(task: TaskConfig, split: str | None) -> str:
    """``--split`` (mini | benchmark | PATH | org/name) against the task's own dataset."""
    if split in (None, "benchmark") and task.dataset_path not in (None, "mini"):
        return task.dataset_path
    if split is None:
        if task.dataset_path is None:
            raise ValueError(f"task {task.task}: {FULL_BENCHMARK_HINT}")
        return task.dataset_path
    if split == "benchmark":
        raise ValueError(FULL_BENCHMARK_HINT)
    return split


def dataset_identity(source: str, task: TaskConfig, ds: Any) -> dict[str, Any]:  # noqa: ANN401 - datasets.Dataset
    kind, location = resolve_source(source)
    name = str(Path(location).resolve()) if kind in ("export", "release") else source  # evaluate runs from anywhere
    info: dict[str, Any] = {"name": name, "kind": kind, "config": task.dataset_name, "split": task.test_split,
                            "levels": task.levels, "rows": ds.num_rows}
    if kind in ("mini", "export"):
        info["sha256"] = files_digest(list(Path(location).glob(f"{task.dataset_name}/{task.test_split}-*.parquet")))
    else:
        info["fingerprint"] = ds._fingerprint
    return info


def load_samples(source: str, task: TaskConfig, limit: int | None) -> tuple[list[Sample], dict[str, Any]]:
    ds = load_benchmark(source, config=task.dataset_name, split=task.test_split)
    # data without levels (e.g. a new curation) has nothing to filter on: all of it is the evaluation set
    samples = [s for s in iter_samples(ds) if task.levels is None or s.level is None or s.level in task.levels]
    return samples[:limit] if limit else samples, dataset_identity(source, task, ds)


def default_out(task: TaskConfig, backend: str, model: str, protocol: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model.strip("/").split("/")[-1] if Path(model).exists() else model)
    return Path("runs") / task.task / (f"{backend}-{slug}" + ("" if protocol == "default" else f"-{protocol}"))


def chunks(items: list[Sample], size: int) -> Iterator[list[Sample]]:
    for start in range(0, len(items), max(1, size)):
        yield items[start:start + size]


def run_task(task: TaskConfig, client: ModelClient, run_dir: RunDir, samples: list[Sample],
             dataset: dict[str, Any], *, chunk_size: int = 64, stage: StageReporter = no_progress,
             on_chunk: Callable[[int, int], None] | None = None) -> RunResult:
    """Answer every sample not finished in ``run_dir``; responses are appended chunk by chunk."""
    start = time.perf_counter()
    strategy = make_strategy(task.strategy, task.strategy_config())
    identity = client.identity()
    stamp_identity = {
        "task": task.task, "dataset": {k: v for k, v in dataset.items() if k != "rows"},
        "backend": {k: v for k, v in identity.items() if k not in ("smoke_test",)},
        "strategy": task.strategy, "modality": task.modality, "protocol": task.protocol,
        "selection": strategy.config.selection.__dict__, "generation": strategy.config.generation.to_dict(),
        "thumbnail": task.thumbnail, "similarity_threshold": task.similarity_threshold,
        "embedder": task.embedder, "templates": strategy.templates(),
    }
    run_dir.start(build_stamp(stamp_identity, {
        "task_file": task.file, "task": task.model_dump(exclude={"file"}), "dataset": dataset,
        "backend": identity.get("backend"), "model": client.model, "smoke_test": bool(identity.get("smoke_test")),
        "protocol": task.protocol, "metrics": task.metrics}))
    finished = run_dir.finished()
    pending = [s for s in samples if s.query_id not in finished]
    for n, chunk in enumerate(chunks(pending, chunk_size)):
        responses = strategy.run(chunk, client, stage)
        smoke = bool(identity.get("smoke_test"))
        responses = [r.model_copy(update={"smoke_test": smoke}) for r in responses]
        run_dir.append(responses)
        if on_chunk:
            on_chunk(n + 1, len(responses))
    latest = run_dir.responses()
    done = sum(1 for s in samples if s.query_id in latest and latest[s.query_id].error is None)
    result = RunResult(run_dir.path, len(samples), done, len(samples) - done, len(samples) - len(pending),
                       client.sent, time.perf_counter() - start, client.meter.to_dict(), client.meter.total_cost)
    run_dir.write_summary(result.to_dict())
    return result
