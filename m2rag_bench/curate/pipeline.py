"""`Curator`: runs the curation stages over a `Store`, each stage idempotent and resumable (reference §5).

Stages, in order (``STAGES``), and their unit of work:

=========  ==========================  =========================================================================
queries    one question                keep it? (needs rich references, images would help) and its topics
search     one question                web results and image results (or the question's own ``urls``)
read       one page                    Jina Reader or direct fetch → markdown with image markers
clean      one page                    links to text, boilerplate out, pieces of ~1,000 characters (≤ 200)
images     one image, then a question  download, convert, size filter; then similarity and near-duplicates
score      one question                each piece 0–10 (LLM), each kept image 0–10 (MLLM)
describe   one question                a detailed description of each image scored ≥ ``min_describe_score``
export     the whole folder            ``release/`` in the authors' layout + ``report.json``
=========  ==========================  =========================================================================

A unit whose record is on disk is never redone (``retry_failed`` redoes failed pages and images). Search
failures are not recorded (nothing downstream can exist without a search), so they are tried again next time.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field
from typing import Any

from rich.console import Console

from ..runs.progress import StageBars
from .judging import CurationJudge
from .model_stages import ModelStages
from .queries import QueryInput
from .store import CurateError, Store
from .web_stages import WebStages

STAGES = ("queries", "search", "read", "clean", "images", "score", "describe", "export")
#: the stage each stage works from, and the store file holding that stage's records
NEEDS = {"search": "queries", "read": "search", "clean": "read", "images": "clean", "score": "images",
         "describe": "score", "export": "search"}
RECORDS = {"queries": "queries", "search": "search", "read": "read", "clean": "clean", "images": "image_filter",
           "score": "scores", "describe": "descriptions"}


@dataclass
class CurateOptions:
    """Everything that shapes the data (fingerprinted in the manifest) and how it is fetched (not fingerprinted)."""

    pages: int = 10
    aux_images: int = 10
    search: str = "google"
    reader: str = "direct"
    filter_queries: bool = True
    chunk_size: int = 1000
    max_pieces: int = 200
    max_images_per_page: int = 30
    min_pixels: int = 10_000
    max_pixels: int = 4_000_000
    min_bytes: int = 20 * 1024
    similarity: str = "auto"
    min_similarity: float | None = None
    dedup_distance: int = 10
    min_describe_score: int = 3
    context_tokens: int = 256
    # not part of the fingerprint:
    allow_loopback: bool = False
    concurrency: int = 16
    search_options: dict[str, Any] = field(default_factory=dict)
    reader_options: dict[str, Any] = field(default_factory=dict)
    retry_failed: bool = False

    def fingerprint(self) -> dict[str, Any]:
        skip = {"allow_loopback", "concurrency", "search_options", "reader_options", "retry_failed"}
        return {k: v for k, v in asdict(self).items() if k not in skip}


class Curator(WebStages, ModelStages):
    """Curate ``queries`` into ``store`` with ``judge`` (queries, pieces, images, descriptions)."""

    def __init__(self, store: Store, queries: list[QueryInput], options: CurateOptions, judge: CurationJudge | None,
                 console: Console | None = None) -> None:
        self.store, self.queries, self.options, self.judge = store, queries, options, judge
        self.console = console or Console(stderr=True)
        self.search_errors: dict[str, str] = {}
        self.failed_calls: dict[str, list[str]] = {}
        self._similarity = None
        self.counts: dict[str, dict[str, int]] = {}

    # -- driver -----------------------------------------------------------------------------------------------
    def config(self) -> dict[str, Any]:
        config = self.options.fingerprint()
        if self.judge is not None:
            ident = self.judge.identity()
            config["judges"] = {"text": _model_id(ident["text_judge"]), "image": _model_id(ident["image_judge"]),
                                "image_mode": ident["image_mode"], "templates": ident["templates"]}
        return config

    def run(self, stages: Iterable[str] = STAGES, bars: StageBars | None = None) -> dict[str, Any]:
        stages = list(stages)
        unknown = [s for s in stages if s not in STAGES]
        if unknown:
            raise CurateError(f"unknown stage(s) {', '.join(unknown)}; stages are: {', '.join(STAGES)}")
        self.store.open(self.config())
        if self.judge is not None:
            self.store.update(judges=self.judge.identity())
        own_bars = bars is None
        bars = bars or StageBars(self.console)
        try:
            with bars if own_bars else nullcontext():
                for stage in STAGES:
                    if stage not in stages:
                        continue
                    before = NEEDS.get(stage)
                    if before and before not in stages and not self.store.records(RECORDS[before]):
                        self.console.print(f"[yellow]{stage}: nothing to work from; run the {before} stage first[/]")
                    getattr(self, f"stage_{stage}")(bars)
        finally:
            self.store.close()
        return self.counts

    def _count(self, stage: str, **counts: int) -> None:
        self.counts[stage] = counts
        self.store.update_stage(stage, **counts)

    def _needs_judge(self, stage: str) -> CurationJudge:
        if self.judge is None:
            raise CurateError(f"the {stage} stage needs a judge model (see --judge / --judge-base-url)")
        return self.judge

    # -- 8. export --------------------------------------------------------------------------------------------
    def stage_export(self, bars: StageBars) -> None:
        from .output import export_release

        summary = export_release(self, self.store.root / "release")
        self._count("export", **summary)


def _model_id(identity: dict[str, Any]) -> str:
    return f"{identity.get('backend')}:{identity.get('model')}"
