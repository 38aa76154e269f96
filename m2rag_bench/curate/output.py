"""Writing a curation out: ``release/`` in the authors' layout (reference §1.2–1.6) and ``report.json``.

``release/dev_set.jsonl`` has one line per kept question that was searched, with the fields the builder reads:
``query_id``, ``content``, ``topic``, ``webpages`` (search fields, ``webpage_id``, ``url``,
``cleaned_webpage_splits`` — null for a page that could not be read — and ``images``) and ``aux_images``.
Image files go to ``release/images/ELI5/dev_set/query-<id>/webpage-<k>/<n>.<fmt>`` and
``…/query-<id>/aux-<i>.<fmt>``; ``cached_image_url`` is that path. As in the authors' data, an image is
``valid`` when it has a score and a description (and, for page images, a piece); filtered images are kept in the
record with ``final_score`` null so nothing is silently lost. The whole folder is rewritten on every export.
"""

from __future__ import annotations

import filecmp
import json
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..files import atomic_write

if TYPE_CHECKING:
    from .pipeline import Curator

IMAGE_PREFIX = "ELI5/dev_set"


def export_release(curator: Curator, out: Path) -> dict[str, int]:
    """Write ``out`` (a release folder) and ``report.json`` beside it; returns counts for the manifest."""
    store = curator.store
    tmp = out.with_name(out.name + ".partial")
    if tmp.exists():
        shutil.rmtree(tmp)
    (tmp / "images").mkdir(parents=True)
    records = [_record(curator, q, search, tmp) for q, search in curator.searched()]
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    (tmp / "dev_set.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    if out.exists() and _same_tree(tmp, out):
        shutil.rmtree(tmp)  # unchanged: keep the old files (and their times, which dataset caches key on)
    else:
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    report = build_report(curator)
    atomic_write(store.root / "report.json", json.dumps(report, indent=2, ensure_ascii=False).encode("utf-8"))
    valid = sum(img["valid"] for r in records for img in [*(i for p in r["webpages"] for i in p["images"]),
                                                         *r["aux_images"]])
    return {"queries": len(records), "valid_images": valid, "dropped": len(report["dropped"])}


def _same_tree(a: Path, b: Path) -> bool:
    """Whether two folders hold the same files with the same bytes."""
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    return files_a == files_b and all(filecmp.cmp(a / f, b / f, shallow=False) for f in files_a)


def _record(curator: Curator, q: Any, search: dict[str, Any], root: Path) -> dict[str, Any]:
    store = curator.store
    qid = q.query_id
    query_record = store.records("queries").get(qid, {})
    reads = {r["webpage_id"]: r for r in store.records("read").values() if r["query_id"] == qid}
    cleans = {r["webpage_id"]: r for r in store.records("clean").values() if r["query_id"] == qid}
    scores = store.records("scores").get(qid, {"pieces": {}, "images": {}})
    captions = store.records("descriptions").get(qid, {"images": {}}).get("images", {})
    filtered = store.records("image_filter").get(qid, {"outcomes": []})
    outcomes = {o["key"]: o for o in filtered["outcomes"]}

    def image_fields(key: str, rel: str) -> dict[str, Any]:
        outcome = outcomes.get(key)
        score = scores["images"].get(key, {}).get("score") if outcome and outcome["ok"] else None
        caption = captions.get(key, {}).get("caption") if score is not None else None
        cached = None
        if outcome and outcome["ok"] and outcome.get("file") and store.has_file(outcome["file"]):
            cached = f"{rel}.{outcome.get('fmt') or Path(outcome['file']).suffix.lstrip('.')}"
            target = root / "images" / cached
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(store.work / outcome["file"], target)
        return {"cached_image_url": cached, "final_score": score, "detailed_image_caption": caption,
                "valid": score is not None and caption is not None}

    webpages = []
    for hit in search["web"]:
        wid = hit["rank"]
        read, cleaned = reads.get(wid, {}), cleans.get(wid)
        page: dict[str, Any] = {**(hit.get("extra") or {}), "title": hit.get("title") or read.get("title") or "",
                                "snippet": hit.get("snippet"), "webpage_id": wid, "url": hit["url"],
                                "cleaned_webpage_splits": None, "images": []}
        if cleaned and cleaned["ok"]:
            splits = []
            for s in cleaned["pieces"]:
                verdict = scores["pieces"].get(f"{wid}/{s['split_id']}", {})
                splits.append({**s, "score": verdict.get("score"), "evaluation": verdict.get("raw")})
            page["cleaned_webpage_splits"] = splits
            for img in cleaned["images"]:
                key = f"{wid}/{img['number']}"
                fields = image_fields(key, f"{IMAGE_PREFIX}/query-{qid}/webpage-{wid}/{img['number']}")
                fields["valid"] = fields["valid"] and img["split_id"] is not None
                page["images"].append({"split_id": img["split_id"], "image_id": img["number"],
                                       "image_url": img["url"], **fields})
        webpages.append(page)
    aux = []
    for hit in search.get("images", []):
        key = f"aux-{hit['rank']}"
        aux.append({"image_id": key, "image_url": hit["image_url"],
                    **image_fields(key, f"{IMAGE_PREFIX}/query-{qid}/{key}")})
    return {"query_id": qid, "content": q.query, "topic": query_record.get("topic", q.topic), "level": None,
            "webpages": webpages, "aux_images": aux}


def build_report(curator: Curator) -> dict[str, Any]:
    """Every element left out, with the stage and the reason, counts of reasons per stage, and warnings."""
    store = curator.store
    dropped: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []  # kept, but not as intended (e.g. a question the filter could not judge)
    for q in curator.queries:
        record = store.records("queries").get(q.query_id)
        if record is not None and not record.get("keep"):
            dropped.append({"stage": "queries", "query_id": q.query_id, "item": q.query, "reason": record.get("reason")})
        elif record is not None and record.get("unjudged"):
            warnings.append({"stage": "queries", "query_id": q.query_id, "item": q.query, "reason": record.get("reason")})
    for qid, error in curator.search_errors.items():
        dropped.append({"stage": "search", "query_id": qid, "item": None, "reason": error})
    for r in store.records("read").values():
        if not r.get("ok"):
            dropped.append({"stage": "read", "query_id": r["query_id"], "item": r["url"], "reason": r.get("error")})
    for r in store.records("clean").values():
        if not r["ok"] and str(r.get("error", "")).startswith("no text"):
            dropped.append({"stage": "clean", "query_id": r["query_id"], "item": f"page {r['webpage_id']}",
                            "reason": r["error"]})
    for r in store.records("image_filter").values():
        for s in r.get("skipped", []):
            dropped.append({"stage": "images", "query_id": r["query_id"], "item": s["url"], "key": s["key"],
                            "reason": s["reason"]})
        for o in r["outcomes"]:
            if not o["ok"]:
                dropped.append({"stage": "images", "query_id": r["query_id"], "item": o["url"], "key": o["key"],
                                "reason": o.get("reason")})
    for r in store.records("scores").values():
        for part in ("pieces", "images"):
            for key, v in r[part].items():
                if v["score"] is None:
                    dropped.append({"stage": "score", "query_id": r["query_id"], "item": f"{part[:-1]} {key}",
                                    "reason": f"unjudged: {v.get('error')}"})
    for r in store.records("descriptions").values():
        for key, v in r["images"].items():
            if v["caption"] is None:
                dropped.append({"stage": "describe", "query_id": r["query_id"], "item": f"image {key}",
                                "reason": f"no description: {v.get('error')}"})
    reasons = Counter((d["stage"], _category(d["reason"])) for d in dropped)
    summary: dict[str, dict[str, int]] = {}
    for (stage, reason), n in sorted(reasons.items()):
        summary.setdefault(stage, {})[reason] = n
    return {"dropped": dropped, "summary": summary, "warnings": warnings}


def _category(reason: str | None) -> str:
    """A reason without its specifics, for counting (``"size: pixels: 256 < 10000"`` → ``"size: pixels"``)."""
    if not reason:
        return "unknown"
    text = reason.split(" of ", 1)[0] if reason.startswith("duplicate") else reason
    parts = [p.strip() for p in text.split(":")]
    short = ": ".join(parts[:2]) if len(parts) > 1 else parts[0][:60]
    return re.sub(r"\d+(?:\.\d+)*", "N", short)
