"""Tests for m2rag_bench.curate.image_filters: size gates, format conversion, pHash near-duplicate removal."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageEnhance

from m2rag_bench.curate import image_filters
from m2rag_bench.curate.image_filters import UnsupportedImage, convert, dedup, size_filter, svg_supported


def _encode(img: Image.Image, fmt: str, **kw) -> bytes:
    out = io.BytesIO()
    img.save(out, format=fmt, **kw)
    return out.getvalue()


def _photo(seed: int, size=(320, 240)) -> Image.Image:
    """A photo-like test image: smooth random shapes plus fine noise (so it is also large on disk)."""
    rng = np.random.default_rng(seed)
    coarse = Image.fromarray(rng.integers(0, 256, (6, 8, 3), dtype=np.uint8)).resize(size, Image.BICUBIC)
    arr = np.asarray(coarse).astype(np.int16) + rng.integers(-12, 13, (size[1], size[0], 3))
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))


# --- size_filter -------------------------------------------------------------------------------------------------

def test_size_filter_passes_a_normal_photo():
    data = _encode(_photo(1), "PNG")
    assert len(data) >= 20 * 1024
    assert size_filter(data) is None


def test_size_filter_refuses_tiny_icon():
    assert size_filter(_encode(Image.new("RGB", (16, 16), "red"), "PNG")) == "pixels: 256 < 10000"


def test_size_filter_refuses_huge_image_from_header_without_decoding(monkeypatch):
    full = _encode(Image.new("L", (5000, 5000)), "PNG")
    truncated = full[:200] + b"\0" * 30_000  # header intact, pixel data garbage: decoding would fail

    def _no_decode(self, *a, **k):
        raise AssertionError("image was decoded")

    monkeypatch.setattr(Image.Image, "load", _no_decode)
    monkeypatch.setattr(Image.Image, "convert", _no_decode)
    assert size_filter(full) == "pixels: 25000000 > 4000000"
    assert size_filter(truncated) == "pixels: 25000000 > 4000000"


def test_size_filter_refuses_small_file():
    data = _encode(Image.new("RGB", (200, 200), "blue"), "PNG")  # 40k pixels but a few hundred bytes
    assert len(data) < 20 * 1024
    assert size_filter(data) == f"file size: {len(data)} B < 20480 B"
    assert size_filter(data, min_bytes=100) is None


def test_size_filter_unreadable():
    assert size_filter(b"<html>not an image</html>" * 2000).startswith("unreadable:")


# --- convert -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "GIF", "WEBP"])
def test_convert_keeps_web_formats_unchanged(fmt):
    data = _encode(_photo(2, (64, 64)), fmt)
    assert convert(data) == (data, fmt.lower())


@pytest.mark.parametrize("fmt,mode", [("BMP", "RGB"), ("TIFF", "CMYK"), ("TIFF", "RGBA"), ("TIFF", "I;16")])
def test_convert_other_formats_to_png(fmt, mode):
    img = _photo(3, (64, 48))
    img = img.convert("L").convert(mode) if mode == "I;16" else img.convert(mode)
    out, out_fmt = convert(_encode(img, fmt))
    assert out_fmt == "png"
    with Image.open(io.BytesIO(out)) as back:
        assert back.format == "PNG" and back.size == (64, 48)
        assert ("A" in back.getbands()) == (mode == "RGBA")


def test_convert_refuses_garbage_and_truncated():
    with pytest.raises(UnsupportedImage, match="unreadable"):
        convert(b"definitely not an image")
    data = _encode(_photo(4), "JPEG")
    with pytest.raises(UnsupportedImage, match="does not decode"):
        convert(data[: len(data) // 3])


SVG = (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">'
       b'<rect width="200" height="100" fill="#3a7"/><circle cx="50" cy="50" r="40" fill="#fff"/></svg>')


def test_convert_svg():
    if svg_supported():
        out, fmt = convert(SVG)
        assert fmt == "png"
        with Image.open(io.BytesIO(out)) as img:
            assert img.size == (200, 100)
        assert size_filter(SVG) == f"file size: {len(SVG)} B < 20480 B"
    else:
        with pytest.raises(UnsupportedImage, match="unsupported: svg"):
            convert(SVG)
        assert size_filter(SVG) == "unsupported: svg"


def test_convert_svg_unsupported_without_renderer(monkeypatch):
    monkeypatch.setattr(image_filters, "svg_supported", lambda: False)
    with pytest.raises(UnsupportedImage, match="^unsupported: svg$"):
        convert(SVG)


# --- dedup -------------------------------------------------------------------------------------------------------

def test_dedup_precision_recall_on_known_near_duplicates():
    base = _photo(10, (400, 300))
    other_a, other_b = _photo(11, (400, 300)), _photo(12, (300, 300))
    images = [
        ("orig", _encode(base, "PNG")),
        ("other_a", _encode(other_a, "JPEG", quality=90)),
        ("resized", _encode(base.resize((200, 150), Image.LANCZOS), "PNG")),
        ("recompressed", _encode(base, "JPEG", quality=30)),
        ("brightened", _encode(ImageEnhance.Brightness(base).enhance(1.15), "WEBP", quality=80)),
        ("other_b", _encode(other_b, "PNG")),
        ("other_a_copy", _encode(other_a.resize((320, 240)), "JPEG", quality=60)),
    ]
    truth = {"resized": "orig", "recompressed": "orig", "brightened": "orig", "other_a_copy": "other_a"}
    kept, duplicates = dedup(images)
    found = set(duplicates)
    precision = len(found & set(truth)) / len(found)
    recall = len(found & set(truth)) / len(truth)
    assert (precision, recall) == (1.0, 1.0)
    assert duplicates == truth
    assert kept == ["orig", "other_a", "other_b"]  # first occurrence kept, order preserved


def test_dedup_threshold_and_unhashable_and_keys():
    a = _encode(_photo(20), "PNG")
    b = _encode(ImageEnhance.Brightness(_photo(20)).enhance(1.15), "PNG")
    assert dedup([(1, a), (2, b)]) == ([1], {2: 1})
    assert dedup([(1, a), (2, b)], max_distance=-1) == ([1, 2], {})
    assert dedup([("x", b"junk"), ("y", a)]) == (["x", "y"], {})
    with pytest.raises(ValueError, match="duplicate key"):
        dedup([(1, a), (1, b)])
    assert dedup([]) == ([], {})
