"""Tasks: lm-eval-style YAML files naming a dataset split, a strategy, a modality, selection and generation settings.

A task file may ``include:`` another (relative path); its keys override the included ones, nested mappings merged.
The package ships the files of the repository's ``tasks/`` folder (``m2rag_bench/task_files``). The single-stage
tasks are also registered for lm-eval itself in ``tasks/lm_eval/``.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .models.base import GenerationParams
from .strategies import STRATEGIES, StrategyConfig
from .strategies.protocols import PROTOCOLS
from .strategies.selection import SelectionConfig

DEFAULT_TASK = "m2rag_single_stage_llm_mini"
METRICS = ("fluency", "relevance", "context_precision", "faithfulness", "image_coherence", "image_helpfulness",
           "image_reference", "image_recall")


class TaskConfig(BaseModel):
    """A resolved task."""

    model_config = ConfigDict(extra="forbid")

    task: str
    description: str = ""
    dataset_path: str | None = Field(None, description="'mini', an export or release folder, or a Hub repo id")
    dataset_name: str = "benchmark"
    test_split: str = "test"
    levels: list[int] | None = None
    strategy: str
    modality: str
    protocol: str = "default"
    selection: dict[str, Any] = Field(default_factory=dict)
    generation_kwargs: dict[str, Any] = Field(default_factory=dict)
    thumbnail: int = 512
    similarity_threshold: float = 0.1
    embedder: str | None = None
    metric_list: list[dict[str, Any]] = Field(default_factory=list)
    model_args: dict[str, Any] = Field(default_factory=dict, description="backend options, e.g. tensor_parallel_size; "
                                       "command-line options win")
    metadata: dict[str, Any] = Field(default_factory=dict)
    file: str | None = None

    def strategy_config(self) -> StrategyConfig:
        return StrategyConfig(modality=self.modality, selection=SelectionConfig(**self.selection),
                              generation=GenerationParams.from_dict(self.generation_kwargs), protocol=self.protocol,
                              thumbnail=self.thumbnail, similarity_threshold=self.similarity_threshold,
                              embedder=self.embedder)

    @property
    def metrics(self) -> list[str]:
        return [m["metric"] for m in self.metric_list] or list(METRICS)

    def validate_choices(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(f"strategy {self.strategy!r} is not one of {', '.join(STRATEGIES)}")
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"protocol {self.protocol!r} is not one of {', '.join(PROTOCOLS)}")
        unknown = set(self.metrics) - set(METRICS)
        if unknown:
            raise ValueError(f"unknown metrics {sorted(unknown)}; known: {', '.join(METRICS)}")
        self.strategy_config()  # checks modality and the selection / generation keys


def tasks_dir() -> Path:
    return Path(str(resources.files("m2rag_bench").joinpath("task_files")))


def _merge(base: dict, override: dict) -> dict:
    out = dict(base)
    for key, value in override.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _read(path: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    if path in seen:
        raise ValueError(f"{path}: include cycle")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a task file must be a mapping")
    include = data.pop("include", None)
    if include:
        data = _merge(_read((path.parent / include).resolve(), seen + (path,)), data)
    return data


def load_task_file(path: str | Path) -> TaskConfig:
    """Read and validate one task file; errors name the file and the field."""
    path = Path(path)
    data = _read(path)
    try:
        task = TaskConfig(**data, file=str(path))
        task.validate_choices()
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())
        raise ValueError(f"{path}: {problems}") from None
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{path}: {exc}") from None
    return task


def list_tasks(directory: Path | None = None) -> dict[str, Path]:
    """Task name -> file, for every task file in the shipped folder (files starting with '_' are includes)."""
    directory = directory or tasks_dir()
    found = {}
    for path in sorted(directory.glob("*.yaml")):
        if not path.name.startswith("_"):
            found[(yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("task", path.stem)] = path
    return found


def get_task(name_or_file: str) -> TaskConfig:
    """A task by name (shipped) or by path to a YAML file."""
    path = Path(name_or_file)
    if path.suffix in (".yaml", ".yml") and path.exists():
        return load_task_file(path)
    known = list_tasks()
    if name_or_file not in known:
        raise ValueError(f"unknown task {name_or_file!r}; `m2rag-bench tasks list` shows the {len(known)} known tasks")
    return load_task_file(known[name_or_file])
