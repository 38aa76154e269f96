#!/usr/bin/env python3
"""Generate the bundled M2RAG mini split (``data/mini-release/``).

All text and images come from ``content_a.py`` / ``content_b.py`` next to this
file; images are drawn with Pillow from fixed seeds, so the output is
byte-for-byte reproducible.  Usage::

    python scripts/mini/make_mini_release.py [--out data/mini-release]
"""
import argparse
import csv
import functools
import html
import importlib
import io
import json
import os
import random
import re
import shutil
import sys
import traceback
from urllib.parse import urlparse

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODULES = ("content_a", "content_b")
CACHE_BASE = "http://0.0.0.0:65535/ELI5/dev_set"
IMAGE_DIR = "images/ELI5/dev_set"
MARKER = re.compile(r"<IMAGE_PLACEHOLDER>\[(\d+)\]")
TOPICS = ("Society & Culture", "Science & Mathematics", "Health", "Education & Reference",
          "Computers & Internet", "Sports", "Business & Finance", "Entertainment & Music",
          "Family & Relationships", "Politics & Government")
FORMATS = {"png": "PNG", "jpeg": "JPEG", "webp": "WEBP", "gif": "GIF"}
LICENCE = "Apache-2.0, made for m2rag-bench"
MAX_IMAGE_BYTES = 60_000
STOPWORDS = set("the and but are for you how why what does did its can this that with from your when then".split())


def encode(img, fmt):
    """Save ``img`` in ``fmt`` with fixed parameters (no metadata) and return the bytes."""
    buf = io.BytesIO()
    rgb = img.convert("RGB")
    if fmt == "png":
        pal = rgb.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        pal.save(buf, "PNG", optimize=True)
    elif fmt == "gif":
        pal = rgb.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        pal.save(buf, "GIF", optimize=True)
    elif fmt == "jpeg":
        rgb.save(buf, "JPEG", quality=80, optimize=True, progressive=False)
    elif fmt == "webp":
        rgb.save(buf, "WEBP", quality=85, method=4)
    else:
        raise ValueError(f"unsupported format {fmt!r}")
    return buf.getvalue()


def func_name(draw):
    while isinstance(draw, functools.partial):
        draw = draw.func
    return getattr(draw, "__name__", repr(draw))


def html_title(title, question):
    """Mimic Google's htmlTitle: escape and bold the words shared with the query."""
    words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", question)} - STOPWORDS
    return re.sub(r"[A-Za-z]{3,}", lambda m: f"<b>{m[0]}</b>" if m[0].lower() in words else m[0],
                  html.escape(title, quote=False))


class Builder:
    def __init__(self, out):
        self.out, self.errors, self.warnings, self.rows = out, [], [], []
        self.stats = dict(queries=0, pages=0, failed_pages=0, pieces=0, dropped_pieces=0,
                          images=0, valid=0, strong=0, weak=0, bytes=0)

    def check(self, cond, msg):
        if not cond:
            self.errors.append(msg)
        return cond

    def image(self, spec, where, rel_path, seed, qid, kind, module):
        """Render ``spec`` and write it; returns the file extension/format."""
        fmt = spec["fmt"]
        if not self.check(fmt in FORMATS, f"{where}: fmt {fmt!r} not in {sorted(FORMATS)}"):
            return "png"
        img = spec["draw"](random.Random(seed))
        w, h = img.size
        self.check(200 <= w <= 800 and 150 <= h <= 600, f"{where}: size {w}x{h} outside 200x150..800x600")
        data = encode(img, fmt)
        if len(data) > MAX_IMAGE_BYTES:
            self.warnings.append(f"{where}: {len(data)} bytes (> {MAX_IMAGE_BYTES})")
        path = os.path.join(self.out, rel_path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
        name = func_name(spec["draw"])
        if name == "<lambda>":
            self.warnings.append(f"{where}: draw is a lambda; use a named function for IMAGES.csv")
        score = spec.get("final_score")
        self.rows.append([rel_path, qid, kind, "" if score is None else score,
                          f"drawn programmatically by scripts/mini/{module}.py::{name}", LICENCE])
        self.stats["images"] += 1
        self.stats["bytes"] += len(data)
        self.stats["strong"] += score is not None and score >= 8
        self.stats["weak"] += score is not None and score <= 4
        return fmt

    def page(self, q, wid, p, module):
        qid, where = q["query_id"], f"{q['query_id']}/webpage-{wid}"
        url = p["url"]
        host = urlparse(url).netloc
        self.check(host.endswith(".example"), f"{where}: url host {host!r} is not a .example domain")
        out = {"kind": "customsearch#result", "title": p["title"],
               "htmlTitle": html_title(p["title"], q["content"]), "displayLink": host,
               "snippet": p["snippet"], "formattedUrl": url, "webpage_id": wid, "url": url,
               "cleaned_webpage_splits": None, "images": []}
        self.stats["pages"] += 1
        if p.get("pieces") is None:
            self.stats["failed_pages"] += 1
            self.check(not p.get("images"), f"{where}: a failed (pieces=None) page cannot have images")
            return out
        pieces, images = p["pieces"], p.get("images") or {}
        self.check(4 <= len(pieces) <= 8, f"{where}: {len(pieces)} pieces (want 4-8)")
        marker_split, splits = {}, []
        for sid, piece in enumerate(pieces):
            text, score = piece["text"], piece["score"]
            self.check(len(text) <= 1000, f"{where} piece {sid}: {len(text)} chars (> 1000)")
            self.check(isinstance(score, int) and 0 <= score <= 10, f"{where} piece {sid}: bad score {score!r}")
            ids = sorted(int(m) for m in MARKER.findall(text))
            for i in ids:
                self.check(i not in marker_split, f"{where}: marker [{i}] appears more than once")
                self.check(i in images, f"{where} piece {sid}: marker [{i}] has no image entry")
                marker_split.setdefault(i, sid)
            splits.append({"split_id": sid, "text": text, "score": score,
                           "evaluation": piece["evaluation"], "image_ids": ids})
            self.stats["pieces"] += 1
            self.stats["dropped_pieces"] += score < 3
        out["cleaned_webpage_splits"] = splits
        for iid in sorted(images):
            spec = images[iid]
            split_id = marker_split.get(iid)
            if split_id is None:
                self.warnings.append(f"{where}: image {iid} has no marker in any piece (split_id null)")
            rel = f"{IMAGE_DIR}/query-{qid}/webpage-{wid}/{iid}.{spec['fmt']}"
            fmt = self.image(spec, f"{where}/image-{iid}", rel, f"{qid}/webpage-{wid}/{iid}", qid, "webpage", module)
            valid = spec.get("caption") is not None and split_id is not None and spec.get("final_score") is not None
            self.stats["valid"] += valid
            out["images"].append({"split_id": split_id, "image_id": iid, "image_url": spec["source_url"],
                                  "valid": valid,
                                  "cached_image_url": f"{CACHE_BASE}/query-{qid}/webpage-{wid}/{iid}.{fmt}",
                                  "final_score": spec.get("final_score"),
                                  "detailed_image_caption": spec.get("caption")})
        return out

    def query(self, q, module):
        qid = q["query_id"]
        self.check(re.fullmatch(r"mini-\d\d", qid or ""), f"{module}: bad query_id {qid!r}")
        self.check(q["topic"] in TOPICS, f"{qid}: unknown topic {q['topic']!r}")
        self.check(q["level"] in (1, 2, 3), f"{qid}: level must be 1, 2 or 3")
        self.check(3 <= len(q["webpages"]) <= 4, f"{qid}: {len(q['webpages'])} webpages (want 3-4)")
        self.check(2 <= len(q["aux_images"]) <= 4, f"{qid}: {len(q['aux_images'])} aux images (want 2-4)")
        self.stats["queries"] += 1
        pages = [self.page(q, wid, p, module) for wid, p in enumerate(q["webpages"])]
        aux = []
        for i, spec in enumerate(q["aux_images"]):
            rel = f"{IMAGE_DIR}/query-{qid}/aux-{i}.{spec['fmt']}"
            fmt = self.image(spec, f"{qid}/aux-{i}", rel, f"{qid}/aux-{i}", qid, "aux", module)
            valid = spec.get("caption") is not None and spec.get("final_score") is not None
            self.stats["valid"] += valid
            aux.append({"image_id": f"aux-{i}", "image_url": spec["source_url"],
                        "cached_image_url": f"{CACHE_BASE}/query-{qid}/aux-{i}.{fmt}", "valid": valid,
                        "final_score": spec.get("final_score"),
                        "detailed_image_caption": spec.get("caption")})
        return {"query_id": qid, "content": q["content"], "topic": q["topic"], "level": q["level"],
                "webpages": pages, "aux_images": aux}


def load_modules():
    sys.path.insert(0, HERE)
    loaded = []
    for name in MODULES:
        try:
            loaded.append((name, importlib.import_module(name).QUERIES))
        except Exception:  # noqa: BLE001 - a half-written sibling module must not block the build
            print(f"WARNING: skipping {name}: import failed\n{traceback.format_exc(limit=2)}", file=sys.stderr)
    return loaded


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "data", "mini-release"))
    args = ap.parse_args(argv)
    b = Builder(args.out)
    shutil.rmtree(os.path.join(args.out, "images"), ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)
    records, seen = [], set()
    for module, queries in load_modules():
        for q in queries:
            b.check(q["query_id"] not in seen, f"duplicate query_id {q['query_id']}")
            seen.add(q["query_id"])
            records.append(b.query(q, module))
    records.sort(key=lambda r: r["query_id"])
    with open(os.path.join(args.out, "dev_set.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    with open(os.path.join(args.out, "IMAGES.csv"), "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["path", "query_id", "kind", "final_score", "origin", "licence"])
        writer.writerows(sorted(b.rows))
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(args.out) for f in fs)
    s = b.stats
    print(f"queries={s['queries']} pages={s['pages']} (failed crawl: {s['failed_pages']}) "
          f"pieces={s['pieces']} (score<3: {s['dropped_pieces']}) images={s['images']} "
          f"(valid {s['valid']}, strong>=8 {s['strong']}, weak<=4 {s['weak']}) "
          f"image bytes={s['bytes']} total bytes={total}")
    for w in b.warnings:
        print("WARNING:", w, file=sys.stderr)
    for e in b.errors:
        print("ERROR:", e, file=sys.stderr)
    return 1 if b.errors else 0


if __name__ == "__main__":
    sys.exit(main())
