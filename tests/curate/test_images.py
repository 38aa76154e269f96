"""Tests for the curation's image stage (m2rag_bench.curate.images), offline: images are served by a small threaded
HTTP server on 127.0.0.1, and the private-address case must not open any connection."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest
from PIL import Image

from m2rag_bench.curate.fetch import Fetcher
from m2rag_bench.curate.image_filters import svg_supported
from m2rag_bench.curate.images import (
    ImageItem,
    ImageOutcome,
    download_image,
    filter_query_images,
    svg_declared_size,
)


def _encode(img: Image.Image, fmt: str, **kw: Any) -> bytes:
    out = io.BytesIO()
    img.save(out, format=fmt, **kw)
    return out.getvalue()


def _photo(seed: int, size: tuple[int, int] = (400, 300)) -> Image.Image:
    """Smooth random colour fields plus `effect_noise` grain: photo-like, and heavy enough (> 20 KiB) on disk."""
    rng = np.random.default_rng(seed)
    coarse = Image.fromarray(rng.integers(0, 256, (5, 6, 3), dtype=np.uint8)).resize(size, Image.BICUBIC)
    grain = Image.effect_noise(size, 40).convert("RGB")
    return Image.blend(coarse, grain, 0.25)


PHOTO = _photo(1)
OTHER = _photo(2)
FILES: dict[str, tuple[int, str, bytes]] = {
    "/good.jpg": (200, "image/jpeg", _encode(PHOTO, "JPEG", quality=90)),
    "/same-larger.jpg": (200, "image/jpeg", _encode(PHOTO.resize((560, 420)), "JPEG", quality=75)),
    "/other.png": (200, "image/png", _encode(OTHER, "PNG")),
    "/icon.png": (200, "image/png", _encode(Image.new("RGB", (16, 16), "red"), "PNG")),
    "/huge.png": (200, "image/png", _encode(Image.new("L", (2100, 2100), 128), "PNG")),
    "/pic.bmp": (200, "image/bmp", _encode(_photo(3, (200, 150)), "BMP")),
    "/page.png": (200, "image/png", b"<html><body>" + b"not an image " * 3000 + b"</body></html>"),
    "/big.svg": (200, "image/svg+xml", b'<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000">'
                                       b'<rect width="10" height="10"/></svg>'),
}


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server API
        if self.path == "/error.png":
            status, ctype, body = 500, "text/plain", b"boom"
        else:
            status, ctype, body = FILES.get(self.path, (404, "text/plain", b"not found"))
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _download(urls: dict[str, str], **kw: Any) -> dict[str, ImageOutcome]:
    """Download ``{key: url}`` concurrently with a loopback-allowed fetcher (no retry delays)."""
    async def go() -> list[ImageOutcome]:
        async with Fetcher(allow_loopback=True, retries=0) as fetcher:
            return await asyncio.gather(*(download_image(fetcher, ImageItem(k, u), **kw) for k, u in urls.items()))
    return {o.key: o for o in asyncio.run(go())}


# --- download_image -----------------------------------------------------------------------------------------------

def test_good_jpeg_is_kept_as_downloaded(server: str) -> None:
    out = _download({"0/1": f"{server}/good.jpg"})["0/1"]
    raw = FILES["/good.jpg"][2]
    assert len(raw) > 20 * 1024
    assert out.ok and out.reason is None
    assert (out.fmt, out.width, out.height, out.nbytes) == ("jpeg", 400, 300, len(raw))
    assert out.data == raw
    import hashlib
    assert out.sha256 == hashlib.sha256(raw).hexdigest()


@pytest.mark.parametrize("path, reason", [
    ("/icon.png", "size: pixels: 256 < 10000"),
    ("/huge.png", "size: pixels: 4410000 > 4000000"),
    ("/error.png", "download: HTTP 500"),
    ("/missing.png", "download: HTTP 404"),
])
def test_refusals_have_categorised_reasons(server: str, path: str, reason: str) -> None:
    out = _download({"0/1": server + path})["0/1"]
    assert not out.ok and out.reason == reason
    assert out.data is None and out.sha256 is None


def test_non_image_bytes_are_dropped_as_format(server: str) -> None:
    out = _download({"0/1": f"{server}/page.png"})["0/1"]
    assert not out.ok and out.reason.startswith("format: unreadable")


def test_bmp_is_converted_to_png(server: str) -> None:
    out = _download({"aux-1": f"{server}/pic.bmp"})["aux-1"]
    assert out.ok and out.fmt == "png" and (out.width, out.height) == (200, 150)
    assert out.data is not None and out.data.startswith(b"\x89PNG")
    assert out.nbytes == len(out.data) != len(FILES["/pic.bmp"][2])


def test_private_address_refused_without_connecting(connects: list[Any]) -> None:
    out = _download({"0/1": "http://10.0.0.7/x.png"})["0/1"]
    assert not out.ok and out.reason == "download: refused: private address 10.0.0.7"
    assert connects == []


def test_svg_declaring_a_huge_canvas_is_refused_before_rendering(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from m2rag_bench.curate import images

    monkeypatch.setattr(images, "size_filter", lambda *a, **k: pytest.fail("rendered"))
    out = _download({"0/1": f"{server}/big.svg"})["0/1"]
    assert out.reason == "size: pixels: svg declares 400000000 > 4000000"


def test_svg_declared_size_units_and_viewbox() -> None:
    head = b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" '
    assert svg_declared_size(head + b'width="2in" height="10mm">') == pytest.approx((192, 37.795), rel=1e-3)
    assert svg_declared_size(head + b'viewBox="0 0 300 200">') == (300, 200)
    assert svg_declared_size(head + b'width="600" viewBox="0,0,300,200">') == (600, 400)
    assert svg_declared_size(head + b'width="100%" height="100%">') is None
    assert svg_declared_size(b"<html></html>") is None


@pytest.mark.skipif(not svg_supported(), reason="cairosvg / libcairo not available")
def test_small_svg_is_rendered_to_png(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="150">'
           + b"".join(b'<circle cx="%d" cy="%d" r="3" fill="#%06x"/>' % (i * 7 % 200, i * 13 % 150, i * 99991 % 2**24)
                      for i in range(600)) + b"</svg>")
    assert len(svg) > 20 * 1024
    monkeypatch.setitem(FILES, "/small.svg", (200, "image/svg+xml", svg))
    out = _download({"0/2": f"{server}/small.svg"})["0/2"]
    assert out.ok and out.fmt == "png" and (out.width, out.height) == (200, 150)


def test_outcome_dict_round_trip_leaves_data_out(server: str) -> None:
    out = _download({"0/1": f"{server}/good.jpg"})["0/1"]
    record = out.to_dict()
    assert "data" not in record
    json.dumps(record)
    back = ImageOutcome.from_dict(json.loads(json.dumps(record)))
    assert back == dataclasses.replace(out, data=None)
    assert ImageOutcome.from_dict(record, data=out.data) == out


# --- filter_query_images ------------------------------------------------------------------------------------------

class FakeSimilarity:
    """Scores from a table by alt text; records what it was asked."""

    name, kind, default_threshold = "fake", "text", 0.1

    def __init__(self, table: dict[str, float | None]) -> None:
        self.table, self.calls = table, []

    def scores(self, query: str, items: Sequence[tuple[bytes, str]]) -> list[float | None]:
        self.calls.append((query, [alt for _, alt in items]))
        return [self.table.get(alt) for _, alt in items]


@pytest.fixture(scope="module")
def query_images(server: str) -> list[ImageOutcome]:
    urls = {"0/1": "/good.jpg", "0/2": "/icon.png", "1/1": "/other.png", "1/2": "/same-larger.jpg",
            "aux-1": "/good.jpg", "aux-2": "/pic.bmp"}
    got = _download({k: server + p for k, p in urls.items()})
    return [got[k] for k in urls]  # page order, then auxiliary images


def test_near_duplicates_dropped_first_occurrence_kept(query_images: list[ImageOutcome]) -> None:
    before = [dataclasses.replace(o) for o in query_images]
    out = filter_query_images("q", query_images, None, None)
    assert query_images == before  # inputs untouched
    by_key = {o.key: o for o in out}
    assert [o.key for o in out] == [o.key for o in query_images]
    assert by_key["0/1"].ok and by_key["1/1"].ok and by_key["aux-2"].ok
    assert by_key["0/2"].reason == "size: pixels: 256 < 10000"  # failed downloads pass through unchanged
    for key in ("1/2", "aux-1"):  # re-encoded larger copy, and the same file again as an auxiliary image
        assert not by_key[key].ok
        assert by_key[key].reason == "duplicate of 0/1" and by_key[key].duplicate_of == "0/1"
    assert all(o.similarity is None for o in out)


def test_similarity_threshold_then_dedup(query_images: list[ImageOutcome]) -> None:
    alts = {"0/1": "snake plant", "1/1": "company logo", "1/2": "snake plant, larger", "aux-2": ""}
    sim = FakeSimilarity({"snake plant": 0.05, "company logo": 0.3, "snake plant, larger": 0.4, "": None})
    out = {o.key: o for o in filter_query_images("repot a snake plant", query_images, sim, None, alts=alts)}
    assert sim.calls == [("repot a snake plant", ["snake plant", "company logo", "snake plant, larger", "", ""])]
    assert not out["0/1"].ok and out["0/1"].reason == "similarity: 0.05 < 0.10" and out["0/1"].similarity == 0.05
    # 0/1 is gone, so its re-encoded copy 1/2 is now the first occurrence and aux-1 (no alt, not judged) its duplicate
    assert out["1/2"].ok and out["1/2"].similarity == 0.4
    assert out["aux-1"].reason == "duplicate of 1/2" and out["aux-1"].similarity is None
    assert out["1/1"].ok and out["aux-2"].ok  # aux-2 could not be judged: kept
    strict = {o.key: o for o in filter_query_images("q", query_images, sim, 0.35, alts=alts)}
    assert strict["1/1"].reason == "similarity: 0.30 < 0.35" and strict["1/2"].ok


def test_max_distance_zero_keeps_re_encoded_copy(query_images: list[ImageOutcome]) -> None:
    out = {o.key: o for o in filter_query_images("q", query_images, None, None, max_distance=0)}
    assert out["aux-1"].duplicate_of == "0/1"  # byte-identical: distance 0


def test_ok_outcome_without_data_is_an_error(query_images: list[ImageOutcome]) -> None:
    stripped = [dataclasses.replace(o, data=None) for o in query_images]
    with pytest.raises(ValueError, match="data"):
        filter_query_images("q", stripped, None, None)
