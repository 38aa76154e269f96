"""The curation's image stage: download, check, convert, then per query filter by similarity and remove duplicates.

This module holds the logic only; a pipeline module stores the outcomes (``ImageOutcome.to_dict``) and the bytes.

:func:`download_image` — one image: safe fetch (`Fetcher`), size gates read from the header (so a bomb is refused
before anything is decoded), format conversion, then dimensions and sha256 of the bytes to store. It uses
``Fetcher.fetch`` plus these checks rather than ``Fetcher.fetch_image``, because ``fetch_image`` refuses SVG, which
the stage renders when ``cairosvg`` works; an SVG's declared canvas is checked before it is rendered.

:func:`filter_query_images` — all of one query's downloaded images (pages in page order, then auxiliary images):
similarity to the query, then perceptual-hash dedup across the whole query, first occurrence kept.

Every refusal is an outcome with ``ok=False`` and a ``reason`` prefixed by its category: ``download:``, ``size:``,
``format:``, ``similarity:`` or ``duplicate of <key>``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from .fetch import Fetcher
from .image_filters import UnsupportedImage, convert, dedup, is_svg, size_filter
from .similarity import ImageSimilarity

__all__ = ["ImageItem", "ImageOutcome", "download_image", "filter_query_images", "svg_declared_size"]


@dataclass(frozen=True)
class ImageItem:
    """An image to download: ``key`` is ``"<page>/<image>"`` (e.g. ``"0/3"``) or ``"aux-<n>"``."""

    key: str
    url: str
    alt: str = ""


@dataclass(frozen=True)
class ImageOutcome:
    """What happened to one image. ``ok`` images carry their stored bytes in ``data`` (not serialised)."""

    key: str
    url: str
    ok: bool
    reason: str | None
    fmt: str | None = None
    width: int | None = None
    height: int | None = None
    sha256: str | None = None
    nbytes: int | None = None
    similarity: float | None = None
    duplicate_of: str | None = None
    data: bytes | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record, without ``data``."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "data"}

    @classmethod
    def from_dict(cls, record: dict[str, Any], data: bytes | None = None) -> ImageOutcome:
        """Inverse of :meth:`to_dict`; unknown keys are ignored, ``data`` may be reloaded from storage."""
        names = {f.name for f in dataclasses.fields(cls)} - {"data"}
        return cls(**{k: v for k, v in record.items() if k in names}, data=data)


def _failed(item: ImageItem, reason: str) -> ImageOutcome:
    return ImageOutcome(item.key, item.url, ok=False, reason=reason)


# --- SVG canvas -----------------------------------------------------------------------------------------------------

_SVG_TAG = re.compile(rb"<svg\b[^>]*>", re.I | re.S)
_NUM = rb"([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)"
_VIEWBOX = re.compile(rb"\sviewBox\s*=\s*[\"']\s*" + rb"[\s,]+".join([_NUM] * 4), re.I)
#: CSS units → px at 96 dpi (cairosvg's default); em/ex at a 16 px font.
_UNITS = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4,
          "q": 96 / 101.6, "em": 16.0, "ex": 8.0}


def _length(tag: bytes, name: bytes) -> float | None:
    m = re.search(rb"\s" + name + rb"\s*=\s*[\"']\s*" + _NUM + rb"\s*([a-z%]*)", tag, re.I)
    if not m:
        return None
    unit = m.group(2).decode("ascii", "replace").lower()
    return abs(float(m.group(1))) * _UNITS[unit] if unit in _UNITS else None  # % and unknown units: not known here


def svg_declared_size(data: bytes) -> tuple[float, float] | None:
    """The root ``<svg>`` canvas in pixels from ``width``/``height`` (else ``viewBox``), or ``None`` when unknown.

    Rendering a tiny file that declares a 20000×20000 canvas takes cairo ~10 s and gigabytes, so the stage checks
    this against ``max_pixels`` first.
    """
    m = _SVG_TAG.search(data[:65536])
    if not m:
        return None
    tag = m.group(0)
    width, height = _length(tag, b"width"), _length(tag, b"height")
    vb = _VIEWBOX.search(tag)
    vb_w, vb_h = (abs(float(vb.group(3))), abs(float(vb.group(4)))) if vb else (None, None)
    if width is None and height is None:
        width, height = vb_w, vb_h
    elif width is None or height is None:
        ratio = (vb_w / vb_h) if vb_w and vb_h else 1.0
        width = width if width is not None else height * ratio  # type: ignore[operator]
        height = height if height is not None else width / ratio
    if width is None or height is None:
        return None
    return width, height


# --- one image ----------------------------------------------------------------------------------------------------

def _process(item: ImageItem, data: bytes, min_pixels: int, max_pixels: int, min_bytes: int) -> ImageOutcome:
    """Size gates, conversion, dimensions and hash of downloaded bytes (CPU work, run in a thread)."""
    if is_svg(data):
        declared = svg_declared_size(data)
        if declared is not None and declared[0] * declared[1] > max_pixels:
            return _failed(item, f"size: pixels: svg declares {int(declared[0] * declared[1])} > {max_pixels}")
    why = size_filter(data, min_pixels=min_pixels, max_pixels=max_pixels, min_bytes=min_bytes)
    if why is not None:
        category = "size" if why.startswith(("pixels", "file size")) else "format"
        return _failed(item, f"{category}: {why}")
    try:
        stored, fmt = convert(data)
        with Image.open(io.BytesIO(stored)) as img:
            width, height = img.size
    except UnsupportedImage as exc:
        return _failed(item, f"format: {exc}")
    except Exception as exc:  # noqa: BLE001 - one bad file must not stop the stage
        return _failed(item, f"format: unreadable: {type(exc).__name__}: {exc}")
    return ImageOutcome(item.key, item.url, ok=True, reason=None, fmt=fmt, width=width, height=height,
                        sha256=hashlib.sha256(stored).hexdigest(), nbytes=len(stored), data=stored)


async def download_image(fetcher: Fetcher, item: ImageItem, *, min_pixels: int = 10_000,
                         max_pixels: int = 4_000_000, min_bytes: int = 20 * 1024) -> ImageOutcome:
    """Download and check one image; never raises for a per-image failure (``reason`` says why).

    Steps: fetch (public addresses only, size-capped by the fetcher) → :func:`size_filter` on the downloaded bytes
    (pixels from the header, file size) → :func:`convert` (JPEG/PNG/GIF/WEBP kept, other rasters → PNG, SVG rendered
    when possible) → width, height, sha256 and size of the bytes to store. The decoding runs in a worker thread so
    that other downloads go on meanwhile.
    """
    try:
        res = await fetcher.fetch(item.url)
    except Exception as exc:  # noqa: BLE001 - Fetcher.fetch should not raise; be safe anyway
        return _failed(item, f"download: {type(exc).__name__}: {exc}")
    if res.content is None:
        return _failed(item, f"download: {res.error or 'no content'}")
    try:
        return await asyncio.to_thread(_process, item, res.content, min_pixels, max_pixels, min_bytes)
    except Exception as exc:  # noqa: BLE001
        return _failed(item, f"format: unreadable: {type(exc).__name__}: {exc}")


# --- one query ----------------------------------------------------------------------------------------------------

def _below(score: float, limit: float) -> str:
    """``"0.03 < 0.10"``, with more decimals when two would print the same number on both sides."""
    for digits in (2, 3, 4, 6):
        text = f"{score:.{digits}f} < {limit:.{digits}f}"
        if f"{score:.{digits}f}" != f"{limit:.{digits}f}":
            return text
    return f"{score!r} < {limit!r}"


def filter_query_images(query: str, outcomes: Sequence[ImageOutcome], similarity: ImageSimilarity | None,
                        threshold: float | None, max_distance: int = 10,
                        alts: dict[str, str] | None = None) -> list[ImageOutcome]:
    """Similarity gate then near-duplicate removal over one query's images; returns new outcomes in input order.

    ``outcomes`` come in page order, then auxiliary images: the first occurrence of a picture is the one kept.
    Only ``ok`` outcomes are considered, and each must carry its bytes in ``data``. With ``similarity`` given, every
    ok image gets its score recorded and is dropped when the score is below ``threshold`` (``None`` = the scorer's
    ``default_threshold``); an image the scorer cannot judge (``None``) is kept. ``alts`` maps keys to alt texts for
    text similarity. The survivors are deduplicated by pHash within ``max_distance`` bits. Inputs are not mutated.
    """
    result = list(outcomes)
    live = [i for i, o in enumerate(result) if o.ok]
    for i in live:
        if result[i].data is None:
            raise ValueError(f"image {result[i].key!r} is ok but its bytes (data) are missing")
    if similarity is not None and live:
        limit = similarity.default_threshold if threshold is None else threshold
        items = [(result[i].data or b"", (alts or {}).get(result[i].key, "")) for i in live]
        scores = similarity.scores(query, items)
        if len(scores) != len(items):
            raise ValueError(f"{similarity.name} returned {len(scores)} scores for {len(items)} images")
        kept = []
        for i, score in zip(live, scores):
            if score is not None and score < limit:
                result[i] = dataclasses.replace(result[i], ok=False, similarity=score,
                                                reason=f"similarity: {_below(score, limit)}")
            else:
                result[i] = dataclasses.replace(result[i], similarity=score)
                kept.append(i)
        live = kept
    _kept, duplicates = dedup([(result[i].key, result[i].data or b"") for i in live], max_distance=max_distance)
    for i in live:
        original = duplicates.get(result[i].key)
        if original is not None:
            result[i] = dataclasses.replace(result[i], ok=False, duplicate_of=str(original),
                                            reason=f"duplicate of {original}")
    return result
