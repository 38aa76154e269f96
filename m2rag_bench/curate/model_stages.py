"""The model-judged stages of a curation: queries, score, describe (see `m2rag_bench.curate.pipeline`).

A mixin of `Curator`: it uses ``self.store``, ``self.options``, ``self.queries``, ``self._needs_judge`` and the
web stages' views (``searched``, ``cleaned``, ``kept_images``). Questions are judged in chunks of eight, and each
chunk's records are written when it is done; every call is cached as it completes, so a kill mid-chunk costs nothing
on the rerun.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from ..runs.progress import StageBars
from .judging import page_context
from .queries import QueryInput

if TYPE_CHECKING:
    from rich.console import Console

    from .judging import CurationJudge
    from .pipeline import CurateOptions
    from .store import Store


class ModelStages:
    """Stages 1, 6 and 7: the LLM and MLLM judges."""

    store: Store
    options: CurateOptions
    queries: list[QueryInput]
    console: Console
    failed_calls: dict[str, list[str]]
    _count: Callable[..., None]
    _needs_judge: Callable[[str], CurationJudge]
    searched: Callable[[], list[tuple[QueryInput, dict[str, Any]]]]
    cleaned: Callable[[str], list[dict[str, Any]]]
    kept_images: Callable[[str], list[dict[str, Any]]]

    # -- 1. queries -------------------------------------------------------------------------------------------
    def kept_queries(self) -> list[QueryInput]:
        """Questions the filter kept (in file order); all of them when filtering is off."""
        records = self.store.records("queries")
        return [q for q in self.queries if records.get(q.query_id, {}).get("keep")]

    def stage_queries(self, bars: StageBars) -> None:
        records = self.store.records("queries")
        todo = [q for q in self.queries if q.query_id not in records]
        if todo and not self.options.filter_queries:
            for q in todo:
                self.store.append("queries", q.query_id, {**q.to_dict(), "keep": True, "verdict": None})
        elif todo:
            judge = self._needs_judge("queries")
            outcomes = judge.filter_queries([q.query for q in todo], bars("queries: filter", len(todo)))
            for q, out in zip(todo, outcomes):
                if out.failed:  # not judged because the call failed: asked again on the next run
                    self._call_failed("queries", out.error)
                    continue
                verdict = out.value
                # no verdict is not a rejection: the question is kept, marked unjudged, and listed in the report
                record = {**q.to_dict(), "keep": verdict is None or verdict.keep, "unjudged": verdict is None,
                          "raw": out.raw,
                          "attempts": out.attempts, "error": out.error, "verdict": asdict(verdict) if verdict else None}
                if verdict and q.topic is None:
                    record["topic"] = verdict.topic
                record["reason"] = _drop_reason(verdict, out.error)
                self.store.append("queries", q.query_id, record)
        kept = self.kept_queries()
        if self.queries and not kept:
            self.console.print("[yellow]every question was filtered out (reasons in report.json after export); "
                               "--no-filter keeps them all[/]")
        unjudged = sum(bool(records.get(q.query_id, {}).get("unjudged")) for q in self.queries)
        if unjudged:
            self.console.print(f"[yellow]{unjudged} question(s) got no usable verdict from the filter judge and were "
                               "kept unjudged (see report.json)[/]")
        self._report_failed_calls("queries")
        self._count("queries", total=len(self.queries), kept=len(kept), dropped=len(self.queries) - len(kept),
                    unjudged=unjudged)


    def _call_failed(self, stage: str, error: str | None) -> None:
        self.failed_calls.setdefault(stage, []).append(error or "unknown error")

    def _any_failed(self, stage: str, outcomes: list[Any]) -> bool:
        """Whether some of a question's calls failed: then nothing of it is recorded, and the next run retries
        those calls (the ones that worked are in the call cache)."""
        failed = [o for o in outcomes if o.failed]
        for o in failed:
            self._call_failed(stage, o.error)
        return bool(failed)

    def _report_failed_calls(self, stage: str) -> None:
        errors = self.failed_calls.get(stage)
        if errors:
            self.console.print(f"[yellow]{stage}: {len(errors)} model call(s) failed, e.g. {errors[0]}; their "
                               "questions are not recorded: run the same command again to retry them[/]",
                               highlight=False)

    # -- 6. score ---------------------------------------------------------------------------------------------
    def stage_score(self, bars: StageBars) -> None:
        judge = None
        done = self.store.records("scores")
        todo = [q for q, _ in self.searched() if q.query_id not in done and q.query_id in self.store.records("image_filter")]
        for chunk in _chunks(todo, 8):
            judge = judge or self._needs_judge("score")
            pieces, images = [], []
            for q in chunk:
                pages = self.cleaned(q.query_id)
                pieces += [(q.query_id, f"{p['webpage_id']}/{s['split_id']}", q.query, s["text"]) for p in pages
                           for s in p["pieces"]]
                texts = _page_texts(pages)
                for o in self.kept_images(q.query_id):
                    around = _around(texts, o["key"], 64)
                    context = f"{around[0]} [picture] {around[1]}".strip() if around else ""
                    images.append((q.query_id, o["key"], {"query": q.query, "data": self.store.get_file(o["file"]),
                                                          "alt": o.get("alt") or "", "context": context}))
            piece_out = judge.score_pieces([(qq, text) for _, _, qq, text in pieces], bars("score pieces", len(pieces)))
            image_out = judge.score_images([it for _, _, it in images], bars("score images", len(images)))
            for q in chunk:
                mine = [o for (qid, *_), o in zip(pieces, piece_out) if qid == q.query_id] + \
                    [o for (qid, *_), o in zip(images, image_out) if qid == q.query_id]
                if self._any_failed("score", mine):
                    continue
                self.store.append("scores", q.query_id, {
                    "query_id": q.query_id,
                    "pieces": {key: _verdict(out) for (qid, key, _, _), out in zip(pieces, piece_out) if qid == q.query_id},
                    "images": {key: _verdict(out) for (qid, key, _), out in zip(images, image_out) if qid == q.query_id}})
        self._report_failed_calls("score")
        records = list(self.store.records("scores").values())
        scored = [v for r in records for part in ("pieces", "images") for v in r[part].values()]
        self._count("score", elements=len(scored), unjudged=sum(v["score"] is None for v in scored))

    # -- 7. describe ------------------------------------------------------------------------------------------
    def stage_describe(self, bars: StageBars) -> None:
        done = self.store.records("descriptions")
        scores = self.store.records("scores")
        todo = [q for q, _ in self.searched() if q.query_id not in done and q.query_id in scores]
        judge = None
        for chunk in _chunks(todo, 8):
            judge = judge or self._needs_judge("describe")
            items = []
            for q in chunk:
                texts = _page_texts(self.cleaned(q.query_id))
                image_scores = scores[q.query_id]["images"]
                for o in self.kept_images(q.query_id):
                    score = image_scores.get(o["key"], {}).get("score")
                    if score is None or score < self.options.min_describe_score:
                        continue
                    item = {"data": self.store.get_file(o["file"]), "alt": o.get("alt") or ""}
                    around = _around(texts, o["key"], self.options.context_tokens)
                    if around:
                        item["above"], item["below"] = around
                    else:
                        item["query"] = q.query  # an image-search result has no page: the question is its context
                    items.append((q.query_id, o["key"], item))
            outs = judge.describe_images([it for _, _, it in items], bars("describe images", len(items)))
            for q in chunk:
                if self._any_failed("describe", [o for (qid, *_), o in zip(items, outs) if qid == q.query_id]):
                    continue
                self.store.append("descriptions", q.query_id, {
                    "query_id": q.query_id,
                    "images": {key: {"caption": out.value, "raw": out.raw, "attempts": out.attempts, "error": out.error}
                               for (qid, key, _), out in zip(items, outs) if qid == q.query_id}})
        self._report_failed_calls("describe")
        records = list(self.store.records("descriptions").values())
        captions = [v for r in records for v in r["images"].values()]
        self._count("describe", images=len(captions), described=sum(v["caption"] is not None for v in captions))


def _page_texts(pages: list[dict[str, Any]]) -> dict[int, list[str]]:
    """A question's cleaned pages as their piece texts, by webpage id."""
    return {p["webpage_id"]: [s["text"] for s in p["pieces"]] for p in pages}


def _around(texts: dict[int, list[str]], key: str, budget: int) -> tuple[str, str] | None:
    """Page text above and below a page image (``"<webpage>/<n>"``); ``None`` for an image-search result."""
    if key.startswith("aux-"):
        return None
    wid, number = (int(x) for x in key.split("/"))
    return page_context(texts.get(wid, []), number, budget)


def _verdict(out: Any) -> dict[str, Any]:
    return {"score": out.value, "raw": out.raw, "attempts": out.attempts, "error": out.error}


def _drop_reason(verdict: Any, error: str | None) -> str | None:
    if verdict is None:
        return f"filter: no verdict, kept unjudged ({error})"
    if not verdict.needs_references:
        return "filter: does not need rich references"
    if not verdict.images_help:
        return "filter: images would not help"
    return None


def _chunks(items: list[Any], size: int) -> Iterable[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


