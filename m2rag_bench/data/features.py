"""The `datasets` features of each config, and the conversions between dataset rows and records.

Images are ``Image()`` columns inside ``List({...})`` structs next to their ``final_score`` and
``detailed_image_caption``, so one row holds everything the later stages need. Image ids are strings in the
dataset: ``"3"`` for the third image of a page, ``"aux-0"`` for the first auxiliary image.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from typing import Any

from datasets import Dataset, Features, Image, Json, List, Value

from ..schema import ImageRef, Sample, TextPiece, TrainingExample, WebPage

_IMAGE_STRUCT = {
    "image_id": Value("string"),
    "split_id": Value("int32"),
    "position": Value("int32"),
    "image_url": Value("string"),
    "cached_path": Value("string"),
    "image": Image(),
    "available": Value("bool"),
    "valid": Value("bool"),
    "final_score": Value("int32"),
    "detailed_image_caption": Value("string"),
}

BENCHMARK_FEATURES = Features({
    "query_id": Value("string"),
    "query": Value("string"),
    "topic": Value("string"),
    "level": Value("int32"),
    "webpages": List({
        "webpage_id": Value("int32"),
        "title": Value("string"),
        "url": Value("string"),
        "snippet": Value("string"),
        "crawled": Value("bool"),
        "pieces": List({
            "split_id": Value("int32"),
            "text": Value("string"),
            "score": Value("int32"),
            "image_ids": List(Value("int32")),
            "evaluation": Value("string"),
        }),
        "images": List(dict(_IMAGE_STRUCT)),
        "extra": Json(),
    }),
    "aux_images": List({k: v for k, v in _IMAGE_STRUCT.items() if k not in ("split_id", "position")}),
})

TRAIN_FEATURES = Features({
    "id": Value("string"),
    "modality": Value("string"),
    "model_input": Value("string"),
    "model_response": Value("string"),
    "image_paths": List(Value("string")),
    "images": List(Image()),
})


def _image_row(ref: ImageRef, with_piece: bool) -> dict[str, Any]:
    row = {
        "image_id": ref.image_id,
        "image_url": ref.source_url,
        "cached_path": ref.cached_path,
        "image": {"bytes": ref.image_bytes, "path": ref.cached_path} if ref.available else None,
        "available": ref.available,
        "valid": ref.valid,
        "final_score": ref.final_score,
        "detailed_image_caption": ref.detailed_caption,
    }
    if with_piece:
        row.update(split_id=ref.split_id, position=ref.position)
    return row


def sample_to_row(sample: Sample) -> dict[str, Any]:
    """A `Sample` as a row of the ``benchmark`` config."""
    return {
        "query_id": sample.query_id,
        "query": sample.query,
        "topic": sample.topic,
        "level": sample.level,
        "webpages": [
            {
                "webpage_id": page.webpage_id,
                "title": page.title,
                "url": page.url,
                "snippet": page.snippet,
                "crawled": page.pieces is not None,
                "pieces": [p.model_dump(exclude={"embedding_score"}) for p in page.pieces or []],
                "images": [_image_row(img, True) for img in page.images],
                "extra": page.extra or None,
            }
            for page in sample.webpages
        ],
        "aux_images": [_image_row(img, False) for img in sample.aux_images],
    }


def training_to_row(example: TrainingExample, blobs: list[bytes | None]) -> dict[str, Any]:
    """A training example as a row of the ``train`` config; missing images are stored as null."""
    row = example.model_dump()
    row["images"] = [{"bytes": b, "path": p} if b is not None else None for b, p in zip(blobs, example.image_paths)]
    return row


def _image_bytes(value: Any) -> bytes | None:
    """Bytes of a stored image, whether the row came undecoded (dict) or decoded (PIL)."""
    if value is None:
        return None
    if isinstance(value, dict):
        return value.get("bytes")
    buf = io.BytesIO()
    value.save(buf, format=value.format or "PNG")
    return buf.getvalue()


def _image_ref(row: dict[str, Any], kind: str, webpage_id: int | None) -> ImageRef:
    return ImageRef(image_id=row["image_id"], kind=kind, webpage_id=webpage_id, split_id=row.get("split_id"),
                    position=row.get("position"), source_url=row["image_url"], cached_path=row["cached_path"],
                    image_bytes=_image_bytes(row["image"]), final_score=row["final_score"],
                    detailed_caption=row["detailed_image_caption"], valid=bool(row["valid"]),
                    available=bool(row["available"]))


def row_to_sample(row: dict[str, Any]) -> Sample:
    """A ``benchmark`` row (decoded or not) as a validated `Sample`."""
    pages = []
    for page in row["webpages"]:
        pieces = [TextPiece(**p) for p in page["pieces"]] if page["crawled"] else None
        extra = page.get("extra") or {}
        pages.append(WebPage(webpage_id=page["webpage_id"], title=page["title"] or "", url=page["url"] or "",
                             snippet=page["snippet"], pieces=pieces,
                             images=[_image_ref(i, "page", page["webpage_id"]) for i in page["images"]],
                             extra=extra if isinstance(extra, dict) else {"value": extra}))
    return Sample(query_id=row["query_id"], query=row["query"], topic=row["topic"], level=row["level"],
                  webpages=pages, aux_images=[_image_ref(i, "aux", None) for i in row["aux_images"]])


def iter_samples(dataset: Dataset | Iterable[dict[str, Any]], batch_size: int = 16) -> Iterator[Sample]:
    """Turn ``benchmark`` rows into `Sample` records without decoding the images."""
    if isinstance(dataset, Dataset):
        for batch in dataset.with_format("arrow").iter(batch_size=batch_size):
            for row in batch.to_pylist():
                for page in row["webpages"]:  # Json() columns come back as JSON text in arrow format
                    if isinstance(page.get("extra"), str):
                        page["extra"] = Json().decode_example(page["extra"])
                yield row_to_sample(row)
    else:
        for row in dataset:
            yield row_to_sample(row)
