"""lm-eval hooks for the M2RAG-Bench single-stage tasks (`lm_eval --include_path tasks/lm_eval`).

Everything is the package's own code, so a prompt here is byte-for-byte the one `m2rag-bench run` sends for the
matching package task (the lm-eval task name without its ``lmeval_`` prefix):

* data: `load_mini` (the split bundled in the installed package) and `load_benchmark_data` (an export folder, a
  release folder or a Hub repo id, passed as lm-eval metadata ``m2rag_data``), both through
  `m2rag_bench.data.loading.load_benchmark`, level filter of the package task applied; pixels are dropped because a
  text-only LLM sees each image as its description (and so that ``--log_samples`` does not write image bytes);
* `doc_to_text`: row -> `Sample` -> in-document selection -> the ``single_stage`` template with candidate images as
  ``![<description>](images/N.ext)`` (the package's `SingleStage` strategy with the package task's settings);
* `process_results`: the answer parsed as the package parses it (`unwrap_markdown` + `extract_images`) against the
  same candidates, scored with three judge-free metrics (the eight judged metrics need `m2rag-bench evaluate`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import datasets

from m2rag_bench.data.features import row_to_sample
from m2rag_bench.data.loading import MINI, load_benchmark
from m2rag_bench.strategies.parsing import extract_images, unwrap_markdown
from m2rag_bench.strategies.selection import Selection
from m2rag_bench.strategies.single_stage import SingleStage
from m2rag_bench.tasks import TaskConfig, get_task

#: The package tasks whose selection, protocol and level settings these lm-eval tasks mirror.
MINI_TASK = "m2rag_single_stage_llm_mini"
FULL_TASK = "m2rag_single_stage_llm"
#: Candidates scored at least this high are the positives of image recall (reference §4.5, ``evaluate.py``).
RECALL_MIN_SCORE = 8
#: The lm-eval metadata key naming the full benchmark's data.
DATA_KEY = "m2rag_data"


@lru_cache(maxsize=None)
def _task(name: str) -> TaskConfig:
    return get_task(name)


@lru_cache(maxsize=None)
def _strategy(name: str = FULL_TASK) -> SingleStage:
    task = _task(name)
    if task.strategy != "single-stage" or task.modality != "llm":
        raise ValueError(f"package task {name} is {task.strategy}/{task.modality}, not single-stage/llm")
    return SingleStage(task.strategy_config())


# ----------------------------------------------------------------------------------------------------------- data


def _without_pixels(features: Any) -> Any:  # noqa: ANN401 - a datasets feature tree
    if isinstance(features, datasets.Image):
        return datasets.Image(decode=False)
    if isinstance(features, datasets.List):
        return datasets.List(_without_pixels(features.feature), length=features.length)
    if isinstance(features, dict):
        return {key: _without_pixels(value) for key, value in features.items()}
    return features


def _drop_pixels(row: dict[str, Any]) -> dict[str, Any]:
    for page in row["webpages"]:
        for image in page["images"]:
            image["image"] = None
    for image in row["aux_images"]:
        image["image"] = None
    return row


def _as_docs(source: str, task: TaskConfig) -> datasets.DatasetDict:
    """The package task's split of ``source`` as lm-eval docs: level filter applied, image bytes dropped."""
    ds = load_benchmark(source, config=task.dataset_name, split=task.test_split)
    if task.levels is not None:
        levels = set(task.levels)
        ds = ds.filter(lambda level: level in levels, input_columns="level", keep_in_memory=True)
    features = datasets.Features(_without_pixels(dict(ds.features)))
    ds = ds.cast(features, keep_in_memory=True)  # no decoding: the bytes are dropped anyway
    ds = ds.map(_drop_pixels, features=features, keep_in_memory=True)
    return datasets.DatasetDict({task.test_split: ds})


def load_mini(**_metadata: Any) -> datasets.DatasetDict:
    """``custom_dataset`` of the mini task: the 12-question split bundled inside the installed package.

    lm-eval calls this with the task's metadata (``version``, everything passed with ``--metadata`` and, on the
    CLI, the model args) as keyword arguments; none of it is needed here.
    """
    return _as_docs(MINI, _task(MINI_TASK))


def load_benchmark_data(**metadata: Any) -> datasets.DatasetDict:
    """``custom_dataset`` of the full task: the data named by lm-eval metadata ``m2rag_data``.

    ``m2rag_data`` takes what ``m2rag-bench run --split`` takes: a folder written by ``m2rag-bench dataset build``,
    an authors'-format release folder (built into a cache on first use) or a Hub repo id. Only the package task's
    levels are kept (level 1: the 200 questions of the paper's main table).
    """
    source = metadata.get(DATA_KEY)
    if not source:
        raise ValueError(
            f"lmeval_{FULL_TASK}: the full benchmark is not bundled. Name it with lm-eval metadata {DATA_KEY!r}, e.g. "
            f"--metadata '{{\"{DATA_KEY}\": \"/path/to/export\"}}' (a folder from `m2rag-bench dataset build`, a "
            f"release folder or a Hub repo id), or TaskManager(..., metadata={{\"{DATA_KEY}\": ...}}) in Python. "
            f"Use lmeval_{MINI_TASK} for the bundled mini split.")
    return _as_docs(str(source), _task(FULL_TASK))


# -------------------------------------------------------------------------------------------------------- prompts


def _selection(doc: dict[str, Any]) -> Selection:
    return _strategy().select(row_to_sample(doc))


def doc_to_text(doc: dict[str, Any]) -> str:
    """The package's single-stage prompt for a text-only LLM, images as ``![<description>](images/N.ext)``."""
    selection = _selection(doc)
    call = _strategy().call("single_stage", selection.candidates, query=selection.sample.query,
                            pages=selection.pages, aux=selection.aux)
    (message,) = call.conversation
    return message.text


# -------------------------------------------------------------------------------------------------------- metrics


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    """Judge-free metrics of one answer, parsed exactly as the package parses single-stage answers.

    * ``image_count``: images the answer placed that are real candidates (each counted once);
    * ``image_recall``: share of the candidates with ``final_score >= 8`` that the answer used (1.0 with none);
    * ``invalid_image_refs``: image references removed by the parser: out-of-range numbers, repeats of an image
      already placed, and foreign images (any other URL or made-up path).
    """
    strategy = _strategy()
    candidates = _selection(doc).candidates
    parsed = extract_images(unwrap_markdown(results[0] if results else ""), candidates,
                            compat=not strategy.protocol.strict_image_refs)
    used = {image.index for image in parsed.output_images}
    positives = {c.index for c in candidates if (c.image.final_score or 0) >= RECALL_MIN_SCORE}
    counts = parsed.counts
    return {
        "image_count": float(len(used)),
        "image_recall": len(positives & used) / len(positives) if positives else 1.0,
        "invalid_image_refs": float(counts["out_of_range"] + counts["duplicate"] + counts["foreign"]),
    }
