"""Image filters in the spirit of the M2RAG curation (reference §5.5–5.7, §8.1 item 18).

* :func:`size_filter` — pixel count within 10,000–4,000,000 (read from the file header, nothing decoded) and
  file size ≥ 20 KiB. Unlike the authors, who measured the size of the image *re-encoded* to a temp file, the
  size checked is that of the bytes given (the download).
* :func:`convert` — JPEG, PNG, GIF and WEBP are kept as downloaded (after checking that they decode); other
  raster formats PIL reads (BMP, TIFF, ICO, …) are re-encoded as PNG (the authors used JPEG, which loses
  transparency); SVG is rendered to PNG with ``cairosvg`` when it (and the system cairo library) is installed,
  otherwise it is refused with the reason ``"unsupported: svg"``.
* :func:`dedup` — near-duplicate removal by perceptual hash (``imagehash.phash``, 64 bits, Hamming distance
  ≤ 10, as the authors' ``imagededup`` ``PHash`` defaults). Call it on one page's images, or on all of a
  query's images (pages and auxiliary images) to remove duplicates across pages too.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Hashable, Sequence

from PIL import Image, UnidentifiedImageError

__all__ = [
    "KEPT_FORMATS",
    "UnsupportedImage",
    "convert",
    "dedup",
    "image_hash",
    "is_svg",
    "size_filter",
    "svg_supported",
]

#: Formats kept as downloaded (PIL format names); anything else is converted to PNG.
KEPT_FORMATS = ("JPEG", "PNG", "GIF", "WEBP")

_SVG_RE = re.compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]", re.DOTALL | re.I)


class UnsupportedImage(ValueError):
    """The bytes are not an image this module can keep; ``str(exc)`` is the reason to record."""


def is_svg(data: bytes) -> bool:
    """Whether ``data`` looks like an SVG document (gzip-compressed SVGZ is not recognised)."""
    return bool(_SVG_RE.match(data[:4096]))


def svg_supported() -> bool:
    """Whether SVG can be rendered: ``cairosvg`` imports and finds the system cairo library."""
    try:
        import cairosvg  # noqa: F401  (raises OSError when libcairo is missing)
    except (ImportError, OSError):
        return False
    return True


def _render_svg(data: bytes) -> bytes:
    if not svg_supported():
        raise UnsupportedImage("unsupported: svg")
    import cairosvg

    try:
        # unsafe=False (the default) forbids XML entities and fetching anything but data: URLs
        return cairosvg.svg2png(bytestring=data, unsafe=False)
    except Exception as exc:  # noqa: BLE001 - cairosvg raises many kinds of errors on bad input
        raise UnsupportedImage(f"unreadable: svg ({type(exc).__name__}: {exc})") from exc


def _open(data: bytes) -> Image.Image:
    """Open lazily (header only); decompression-bomb warnings are silenced, errors become UnsupportedImage."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as exc:
        raise UnsupportedImage(f"pixels: decompression bomb ({exc})") from exc
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise UnsupportedImage(f"unreadable: {type(exc).__name__}") from exc


def size_filter(data: bytes, min_pixels: int = 10_000, max_pixels: int = 4_000_000,
                min_bytes: int = 20 * 1024) -> str | None:
    """Why the image should be filtered out by size, or ``None`` when it passes.

    Checks, in the authors' order: pixel count (``width × height`` from the header; the image is not decoded,
    so a 5000×5000 image costs nothing), then ``len(data) >= min_bytes``. SVG is measured after rendering
    (pixels) and on its own bytes (file size). Reasons look like ``"pixels: 256 < 10000"``,
    ``"file size: 1234 B < 20480 B"``, ``"unreadable: …"`` or ``"unsupported: svg"``.
    """
    try:
        if is_svg(data):
            with _open(_render_svg(data)) as img:
                width, height = img.size
        else:
            with _open(data) as img:
                width, height = img.size
    except UnsupportedImage as exc:
        return str(exc)
    pixels = width * height
    if pixels < min_pixels:
        return f"pixels: {pixels} < {min_pixels}"
    if pixels > max_pixels:
        return f"pixels: {pixels} > {max_pixels}"
    if len(data) < min_bytes:
        return f"file size: {len(data)} B < {min_bytes} B"
    return None


def convert(data: bytes) -> tuple[bytes, str]:
    """Return ``(bytes, fmt)`` ready to store; ``fmt`` is the lower-case format name, also the file extension
    (``"jpeg"``, ``"png"``, ``"gif"``, ``"webp"``).

    JPEG/PNG/GIF/WEBP come back unchanged once they decode; other formats PIL reads are re-encoded as PNG (first
    frame; CMYK, 16-bit and other modes converted to RGB/RGBA); SVG is rendered to PNG when ``cairosvg`` works.
    Raises :class:`UnsupportedImage` (``"unsupported: svg"``, ``"unreadable: …"``) otherwise.
    """
    if is_svg(data):
        return _render_svg(data), "png"
    img = _open(data)
    try:
        fmt = img.format or ""
        try:
            img.load()
        except Exception as exc:  # noqa: BLE001 - truncated / corrupt files raise many kinds of errors
            raise UnsupportedImage(f"unreadable: {fmt or 'image'} does not decode ({type(exc).__name__})") from exc
        if fmt in KEPT_FORMATS:
            return data, fmt.lower()
        if img.mode not in ("1", "L", "LA", "P", "RGB", "RGBA"):
            has_alpha = "A" in img.getbands() or "transparency" in img.info
            img = img.convert("RGBA" if has_alpha else "RGB")
        out = io.BytesIO()
        img.save(out, format="PNG", optimize=True)
        return out.getvalue(), "png"
    finally:
        img.close()


def image_hash(data: bytes):
    """The 64-bit perceptual hash (``imagehash.phash``, 8×8 DCT of a 32×32 grey image) of an encoded image.

    Transparent pixels are composited on white first so a logo's hash does not depend on its hidden colours.
    """
    import imagehash

    with _open(data) as img:
        img.seek(0)
        if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
            rgba = img.convert("RGBA")
            base = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            frame = Image.alpha_composite(base, rgba).convert("RGB")
        else:
            frame = img.convert("RGB")
        return imagehash.phash(frame)


def dedup(images: Sequence[tuple[Hashable, bytes]], max_distance: int = 10
          ) -> tuple[list[Hashable], dict[Hashable, Hashable]]:
    """Remove near-duplicates: returns ``(kept_keys, duplicates)`` with ``duplicates[key] = kept_key``.

    Images are taken in the order given and the **first occurrence is kept** (in page order that is the copy
    whose marker comes first, which keeps results stable and independent of file sizes); a later image is a
    duplicate of the first kept image whose pHash is within ``max_distance`` bits (Hamming). To dedup across a
    query, pass its pages' images in page order, then its auxiliary images. Images that cannot be hashed are
    kept and compared with nothing (filter them with :func:`convert` / :func:`size_filter` first).
    """
    kept: list[Hashable] = []
    hashes: list[tuple[Hashable, object]] = []
    duplicates: dict[Hashable, Hashable] = {}
    for key, data in images:
        if key in duplicates or key in kept:
            raise ValueError(f"duplicate key {key!r}")
        try:
            h = image_hash(data)
        except (UnsupportedImage, OSError, ValueError):
            kept.append(key)
            continue
        match = next((k for k, kh in hashes if h - kh <= max_distance), None)
        if match is None:
            kept.append(key)
            hashes.append((key, h))
        else:
            duplicates[key] = match
    return kept, duplicates
