"""Synthetic releases in the authors' layout, for tests and the builder benchmark.

The content is filler (numbered sentences, noise images); the *layout* is faithful: ``dev_set.jsonl`` with the
release's field names, images extracted under ``images/ELI5/dev_set/…`` or packed into ``dev_set-{i}.tar`` shards,
cached URLs on the authors' ``http://0.0.0.0:65535`` prefix, and the training release's ``data/{llm,mllm}/raw.jsonl``.
"""

from __future__ import annotations

import io
import json
import random
import tarfile
from pathlib import Path

from PIL import Image

from ..topics import TOPICS

IMAGE_URL = "http://0.0.0.0:65535"


def noise_image(rng: random.Random, fmt: str = "png", size: tuple[int, int] = (64, 48), texture: bool = False) -> bytes:
    """An image of random blocks; ``texture`` adds (unseeded) grain so files weigh what photographs do (tens of KB)."""
    w, h = size
    img = Image.new("RGB", size, tuple(rng.randrange(256) for _ in range(3)))
    if texture:
        grain = Image.effect_noise(size, 60).convert("RGB")
        img = Image.blend(img, grain, 0.5)
    for _ in range(6):
        x, y = rng.randrange(w), rng.randrange(h)
        block = Image.new("RGB", (max(1, w // 4), max(1, h // 4)), tuple(rng.randrange(256) for _ in range(3)))
        img.paste(block, (x, y))
    buf = io.BytesIO()
    img.save(buf, format={"jpeg": "JPEG", "png": "PNG", "webp": "WEBP", "gif": "GIF"}[fmt])
    return buf.getvalue()


def make_query(qid: str, rng: random.Random, n_pages: int = 3, images_per_page: int = 3, n_aux: int = 2,
               image_size: tuple[int, int] = (64, 48), texture: bool = False) -> tuple[dict, dict[str, bytes]]:
    """One release record plus its image files (release path → bytes)."""
    files: dict[str, bytes] = {}
    pages = []
    for wid in range(n_pages):
        pieces, images = [], []
        for sid in range(4):
            ids = [i for i in range(1, images_per_page + 1) if (i - 1) % 4 == sid]
            marks = " ".join(f"<IMAGE_PLACEHOLDER>[{i}]" for i in ids)
            text = f"Page {wid} piece {sid} about query {qid}. " + " ".join(f"Sentence {k}." for k in range(20)) + marks
            pieces.append({"split_id": sid, "text": text, "score": rng.randrange(11), "evaluation": "synthetic",
                           "image_ids": ids})
        for i in range(1, images_per_page + 1):
            fmt = rng.choice(["png", "jpeg"])
            rel = f"ELI5/dev_set/query-{qid}/webpage-{wid}/{i}.{fmt}"
            files[rel] = noise_image(rng, fmt, image_size, texture)
            images.append({"split_id": (i - 1) % 4, "image_id": i, "image_url": f"https://site{wid}.example/{i}.{fmt}",
                           "valid": True, "cached_image_url": f"{IMAGE_URL}/{rel}", "final_score": rng.randrange(11),
                           "detailed_image_caption": f"Synthetic image {i} of page {wid} for query {qid}."})
        pages.append({"kind": "customsearch#result", "title": f"Page {wid} for {qid}", "displayLink": f"site{wid}.example",
                      "snippet": "synthetic snippet", "webpage_id": wid, "url": f"https://site{wid}.example/{qid}",
                      "cleaned_webpage_splits": pieces, "images": images})
    aux = []
    for i in range(n_aux):
        rel = f"ELI5/dev_set/query-{qid}/aux-{i}.{'jpeg' if texture else 'png'}"
        files[rel] = noise_image(rng, "jpeg" if texture else "png", image_size, texture)
        aux.append({"image_id": f"aux-{i}", "image_url": f"https://img.example/{qid}/{i}.png", "valid": True,
                    "cached_image_url": f"{IMAGE_URL}/{rel}", "final_score": rng.randrange(11),
                    "detailed_image_caption": f"Auxiliary image {i} for query {qid}."})
    record = {"query_id": qid, "content": f"Why does synthetic thing {qid} happen?", "topic": rng.choice(TOPICS),
              "level": rng.choice([1, 2, 3]), "webpages": pages, "aux_images": aux}
    return record, files


def write_release(root: str | Path, n_queries: int, *, shards: int = 0, seed: int = 0,
                  image_size: tuple[int, int] = (64, 48), images_per_page: int = 3, n_pages: int = 3,
                  n_aux: int = 2, texture: bool = False) -> Path:
    """Write a release of ``n_queries`` under ``root``; ``shards > 0`` packs the images into that many tar files.

    Records and images are written one query at a time, so arbitrarily large releases can be produced.
    """
    root = Path(root)
    (root / "dev_set").mkdir(parents=True, exist_ok=True)
    tars = [tarfile.open(root / f"dev_set-{i}.tar", "w") for i in range(shards)]
    rng = random.Random(seed)
    try:
        with open(root / "dev_set" / "dev_set.jsonl", "w", encoding="utf-8") as out:
            for q in range(n_queries):
                record, files = make_query(f"{q:06d}", rng, n_pages, images_per_page, n_aux, image_size, texture)
                out.write(json.dumps(record) + "\n")
                for rel, data in files.items():
                    if tars:  # inside a shard, paths start at query-… (the shards are extracted into ELI5/dev_set/)
                        info = tarfile.TarInfo(rel.split("ELI5/dev_set/", 1)[1])
                        info.size = len(data)
                        tars[q % len(tars)].addfile(info, io.BytesIO(data))
                    else:
                        path = root / "images" / rel
                        path.parent.mkdir(parents=True, exist_ok=True)
                        path.write_bytes(data)
    finally:
        for tar in tars:
            tar.close()
    return root


def write_training_release(root: str | Path, n: int, seed: int = 0) -> Path:
    """A training release: ``data/{llm,mllm}/raw.jsonl`` plus ``images/ELI5/training_set/…`` files."""
    root = Path(root)
    rng = random.Random(seed)
    for modality in ("llm", "mllm"):
        folder = root / "data" / modality
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "raw.jsonl", "w", encoding="utf-8") as out:
            for q in range(n):
                record = {"id": f"t{q:04d}", "model_input": f"Question {q}? Pages: ...",
                          "model_response": f"Answer {q}.\n![a diagram](images/0.png)\nMore text."}
                if modality == "mllm":
                    rels = [f"ELI5/training_set/query-t{q:04d}/webpage-0/{i}.png" for i in (1, 2)]
                    record["model_input"] += " <image> <image>"
                    record["images"] = rels
                    for rel in rels:
                        path = root / "images" / rel
                        path.parent.mkdir(parents=True, exist_ok=True)
                        path.write_bytes(noise_image(rng))
                out.write(json.dumps(record) + "\n")
    return root
