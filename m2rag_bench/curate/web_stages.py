"""The network stages of a curation: search, read, clean, images (see `m2rag_bench.curate.pipeline`).

A mixin of `Curator`: it uses ``self.store``, ``self.options``, ``self.search_errors`` and ``self._count``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from ..runs.progress import StageBars
from .clean import clean, image_split_ids, split
from .fetch import Fetcher
from .queries import QueryInput
from .store import CurateError

if TYPE_CHECKING:
    from rich.console import Console

    from .pipeline import CurateOptions
    from .store import Store


class WebStages:
    """Stages 2–5: what is fetched from the web, one unit of work per search, page and image."""

    store: Store
    options: CurateOptions
    search_errors: dict[str, str]
    console: Console
    _similarity: Any
    _count: Callable[..., None]
    kept_queries: Callable[[], list[QueryInput]]

    # -- 2. search --------------------------------------------------------------------------------------------
    def stage_search(self, bars: StageBars) -> None:
        records = self.store.records("search")
        todo = [q for q in self.kept_queries() if q.query_id not in records]
        provider_needed = [q for q in todo if not q.urls]
        provider = None
        if provider_needed:
            from .search import SearchError, make_search

            try:
                provider = make_search(self.options.search, **self.options.search_options)
            except SearchError as exc:
                raise CurateError(f"search: {exc}. Questions in a jsonl file may also list their own \"urls\", "
                                  "which need no search.") from None
        advance = bars("search", len(todo))

        async def one(q: QueryInput) -> None:
            try:
                if q.urls:
                    web = [{"rank": i, "title": "", "url": u, "snippet": None, "extra": {}} for i, u in enumerate(q.urls)]
                    images: list[dict[str, Any]] = []
                else:
                    assert provider is not None
                    hits, image_hits = await asyncio.gather(provider.web(q.query, self.options.pages),
                                                            provider.images(q.query, self.options.aux_images))
                    web = [asdict(h) for h in hits[: self.options.pages]]
                    images = [asdict(h) for h in image_hits[: self.options.aux_images]]
            except Exception as exc:  # noqa: BLE001 - reported, and tried again on the next run
                self.search_errors[q.query_id] = f"{type(exc).__name__}: {exc}"
            else:
                self.store.append("search", q.query_id, {"query_id": q.query_id, "web": web, "images": images})
            advance(1)

        async def main() -> None:
            try:
                await asyncio.gather(*(one(q) for q in todo))
            finally:
                if provider is not None:
                    await provider.aclose()

        if todo:
            asyncio.run(main())
        if self.search_errors and len(self.search_errors) == len(todo):
            first = next(iter(self.search_errors.values()))
            raise CurateError(f"every search failed ({len(todo)}), e.g.: {first}")
        self._count("search", done=len(self.store.records("search")), failed=len(self.search_errors))

    def searched(self) -> list[tuple[QueryInput, dict[str, Any]]]:
        records = self.store.records("search")
        return [(q, records[q.query_id]) for q in self.kept_queries() if q.query_id in records]

    # -- 3. read ----------------------------------------------------------------------------------------------
    def stage_read(self, bars: StageBars) -> None:
        records = self.store.records("read")
        if self.options.retry_failed:
            self.store.forget("read", {k for k, r in records.items() if not r.get("ok")})
            records = self.store.records("read")
        todo = [(q, hit) for q, s in self.searched() for hit in s["web"] if f"{q.query_id}/{hit['rank']}" not in records]
        if todo:
            asyncio.run(self._read_all(todo, bars("read pages", len(todo))))
        done = [r for k, r in self.store.records("read").items()]
        self._count("read", pages=len(done), ok=sum(bool(r.get("ok")) for r in done),
                    failed=sum(not r.get("ok") for r in done))

    async def _read_all(self, todo: list[tuple[QueryInput, dict[str, Any]]], advance: Callable[[int], None]) -> None:
        from .reader import make_reader

        limit = asyncio.Semaphore(self.options.concurrency)
        async with Fetcher(allow_loopback=self.options.allow_loopback) as fetcher:
            reader = make_reader(self.options.reader, fetcher, **self.options.reader_options)
            try:
                async def one(q: QueryInput, hit: dict[str, Any]) -> None:
                    async with limit:
                        result = await reader.read(hit["url"])
                    self.store.append("read", f"{q.query_id}/{hit['rank']}", {
                        "query_id": q.query_id, "webpage_id": hit["rank"], "url": hit["url"],
                        "search_title": hit.get("title") or "", "snippet": hit.get("snippet"),
                        "extra": hit.get("extra") or {}, **result.to_dict()})
                    advance(1)

                await asyncio.gather(*(one(q, h) for q, h in todo))
            finally:
                await reader.aclose()

    # -- 4. clean ---------------------------------------------------------------------------------------------
    def stage_clean(self, bars: StageBars) -> None:
        records = self.store.records("clean")
        todo = [r for k, r in self.store.records("read").items() if k not in records]
        advance = bars("clean + split", len(todo))
        for read in todo:
            self.store.append("clean", read["key"], self.clean_page(read))
            advance(1)
        done = list(self.store.records("clean").values())
        self._count("clean", pages=len(done), with_text=sum(bool(r["ok"]) for r in done),
                    pieces=sum(len(r["pieces"]) for r in done))

    def clean_page(self, read: dict[str, Any]) -> dict[str, Any]:
        base = {"query_id": read["query_id"], "webpage_id": read["webpage_id"]}
        if not read.get("ok"):
            return {**base, "ok": False, "error": f"not read: {read.get('error')}", "pieces": [], "images": []}
        page = read.get("page") or {}
        pieces = split(clean(page.get("markdown", "")), self.options.chunk_size, self.options.max_pieces)
        where = image_split_ids(pieces)
        images = []
        for img in page.get("images", []):
            split_id, offset = where.get(img["number"], (None, None))
            images.append({**img, "split_id": split_id, "position": offset})
        if not pieces:
            return {**base, "ok": False, "error": "no text left after cleaning", "pieces": [], "images": images}
        return {**base, "ok": True, "error": None, "images": images,
                "pieces": [p.model_dump(include={"split_id", "text", "image_ids"}) for p in pieces]}

    def cleaned(self, query_id: str) -> list[dict[str, Any]]:
        """A question's cleaned pages (with text), in rank order."""
        pages = [r for r in self.store.records("clean").values() if r["query_id"] == query_id and r["ok"]]
        return sorted(pages, key=lambda r: r["webpage_id"])

    # -- 5. images --------------------------------------------------------------------------------------------
    def image_items(self, q: QueryInput, search: dict[str, Any]) -> tuple[list[Any], list[dict[str, Any]]]:
        """The images to fetch for a question (page images whose marker survived, then aux) and those skipped."""
        from .images import ImageItem

        items, skipped = [], []
        for page in self.cleaned(q.query_id):
            placed = [img for img in page["images"] if img["split_id"] is not None]
            for img in page["images"]:
                if img["split_id"] is None:
                    skipped.append({"key": f"{page['webpage_id']}/{img['number']}", "url": img["url"],
                                    "reason": "cleaning: its marker is not in any kept piece"})
            for n, img in enumerate(placed):
                key = f"{page['webpage_id']}/{img['number']}"
                if n >= self.options.max_images_per_page:
                    skipped.append({"key": key, "url": img["url"],
                                    "reason": f"cap: more than {self.options.max_images_per_page} images on the page"})
                else:
                    items.append(ImageItem(key, img["url"], img.get("alt") or ""))
        for hit in search.get("images", []):
            items.append(ImageItem(f"aux-{hit['rank']}", hit["image_url"], hit.get("title") or ""))
        return items, skipped

    def stage_images(self, bars: StageBars) -> None:
        downloads = self.store.records("downloads")
        if self.options.retry_failed:
            failed = {k for k, r in downloads.items() if not r.get("ok") and str(r.get("reason", "")).startswith("download")}
            self.store.forget("downloads", failed)
            stale = {r["query_id"] for k, r in self.store.records("image_filter").items()
                     if any(f"{r['query_id']}/{o['key']}" in failed for o in r["outcomes"])}
            self.store.forget("image_filter", stale)
            downloads = self.store.records("downloads")
        todo = []
        for q, search in self.searched():
            items, _ = self.image_items(q, search)
            todo += [(q, item) for item in items if f"{q.query_id}/{item.key}" not in downloads]
        if todo:
            asyncio.run(self._download_all(todo, bars("download images", len(todo))))
        self._filter_images(bars)

    async def _download_all(self, todo: list[tuple[QueryInput, Any]], advance: Callable[[int], None]) -> None:
        from .images import download_image

        limit = asyncio.Semaphore(self.options.concurrency)
        o = self.options
        async with Fetcher(allow_loopback=o.allow_loopback) as fetcher:
            async def one(q: QueryInput, item: Any) -> None:
                async with limit:
                    outcome = await download_image(fetcher, item, min_pixels=o.min_pixels, max_pixels=o.max_pixels,
                                                   min_bytes=o.min_bytes)
                fields = outcome.to_dict()
                record = {"query_id": q.query_id, "image_key": fields.pop("key"), **fields, "alt": item.alt}
                if outcome.ok and outcome.data is not None:
                    record["file"] = self.store.put_file(outcome.data, outcome.fmt or "bin")
                self.store.append("downloads", f"{q.query_id}/{item.key}", record)
                advance(1)

            await asyncio.gather(*(one(q, item) for q, item in todo))

    def _filter_images(self, bars: StageBars) -> None:
        from .images import ImageOutcome, filter_query_images

        done = self.store.records("image_filter")
        downloads = self.store.records("downloads")
        todo = []
        for q, search in self.searched():
            if q.query_id in done:
                continue
            items, skipped = self.image_items(q, search)
            if all(f"{q.query_id}/{it.key}" in downloads for it in items):
                todo.append((q, items, skipped))
        advance = bars("filter + dedup images", len(todo))
        for q, items, skipped in todo:
            outcomes = []
            for item in items:
                rec = downloads[f"{q.query_id}/{item.key}"]
                fields = {k: v for k, v in rec.items() if k not in ("key", "query_id", "file", "alt", "image_key")}
                data = self.store.get_file(rec["file"]) if rec.get("ok") else None
                outcomes.append(ImageOutcome.from_dict({**fields, "key": rec["image_key"]}, data=data))
            similarity = self.similarity()
            threshold = self.options.min_similarity
            if threshold is None and similarity is not None:
                threshold = similarity.default_threshold
            filtered = filter_query_images(q.query, outcomes, similarity, threshold, self.options.dedup_distance,
                                           alts={it.key: it.alt for it in items})
            self.store.append("image_filter", q.query_id, {
                "query_id": q.query_id, "similarity": getattr(similarity, "name", None), "threshold": threshold,
                "outcomes": [{**o.to_dict(), "file": downloads[f"{q.query_id}/{o.key}"].get("file")} for o in filtered],
                "skipped": skipped})
            advance(1)
        records = list(self.store.records("image_filter").values())
        outcomes = [o for r in records for o in r["outcomes"]]
        self._count("images", candidates=len(outcomes), kept=sum(bool(o["ok"]) for o in outcomes),
                    dropped=len(outcomes) - sum(bool(o["ok"]) for o in outcomes))

    def similarity(self):  # noqa: ANN201 - ImageSimilarity | None
        """The query–image similarity; with ``auto``, a CLIP model that will not load falls back to alt text."""
        if self._similarity is None and self.options.similarity != "none":
            from .similarity import SimilarityUnavailable, make_similarity

            try:
                self._similarity = make_similarity(self.options.similarity)
            except SimilarityUnavailable as exc:
                if self.options.similarity != "auto":
                    raise CurateError(f"image similarity: {exc}") from None
                self.console.print(f"[yellow]{exc}; using alt-text similarity instead[/]", highlight=False)
                self._similarity = make_similarity("text")
        return self._similarity

    def kept_images(self, query_id: str) -> list[dict[str, Any]]:
        record = self.store.records("image_filter").get(query_id)
        return [o for o in record["outcomes"] if o["ok"]] if record else []

