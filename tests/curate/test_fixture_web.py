"""Tests of the offline fixture web itself: content, images (distinct by pHash), hazards, stubs, bookkeeping."""

from __future__ import annotations

import http.client
import io
import itertools
import json
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from PIL import Image

from m2rag_bench.curate.clean import clean, html_to_markdown, split
from m2rag_bench.curate.image_filters import UnsupportedImage, convert, dedup, image_hash, size_filter, svg_supported
from tests.helpers.fixture_images import CONTENT_TYPES, IMAGES, image_bytes
from tests.helpers.fixture_pages import PAGES, render_page
from tests.helpers.fixture_web import FIXTURE_CX, FIXTURE_KEY, FIXTURE_QUERIES, FixtureWeb


@pytest.fixture(scope="module")
def web() -> Iterator[FixtureWeb]:
    with FixtureWeb() as w:
        yield w


def _get(web: FixtureWeb, path: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(web.netloc, timeout=10)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def _hashable(key: str) -> bytes:
    """Bytes pHash can read: SVG rendered to PNG, everything else as served."""
    data = image_bytes(key)
    return convert(data)[0] if IMAGES[key].fmt == "svg" else data


def test_queries() -> None:
    assert [q["id"] for q in FIXTURE_QUERIES] == ["q1", "q2", "q3", "q4"]
    assert FIXTURE_QUERIES[3]["query"] == "What is 2 + 2?"


def test_pages_are_long_enough_to_split() -> None:
    for path, spec in PAGES.items():
        text = clean(html_to_markdown(render_page(spec), "http://x").markdown)
        assert 1500 <= len(text) <= 4000, path
        pieces = split(text, 1000)
        assert len(pieces) >= 2 and all(len(p.text) <= 1000 for p in pieces), path


def test_distinct_pictures_are_far_apart_and_copies_close() -> None:
    if not svg_supported():
        pytest.skip("cairosvg is needed to hash the SVG picture")
    by_picture: dict[str, list[str]] = {}
    for key, spec in IMAGES.items():
        if spec.picture and spec.kind in ("picture", "svg", "oversized"):
            by_picture.setdefault(spec.picture, []).append(key)
    hashes = {key: image_hash(_hashable(key)) for keys in by_picture.values() for key in keys}
    firsts = [keys[0] for keys in by_picture.values()]
    assert len(firsts) >= 25
    for a, b in itertools.combinations(firsts, 2):
        assert hashes[a] - hashes[b] > 10, (a, b, hashes[a] - hashes[b])
    copies = {name: keys for name, keys in by_picture.items() if len(keys) > 1}
    assert set(copies) == {"solar_roof", "maple", "cassette", "drivetrain"}
    for keys in copies.values():
        assert all(hashes[keys[0]] - hashes[k] <= 10 for k in keys[1:]), keys
    kept, dups = dedup([(k, _hashable(k)) for keys in by_picture.values() for k in keys])
    assert sorted(kept) == sorted(firsts) and set(dups.values()) <= set(firsts)


def test_image_files_have_declared_format_and_weight() -> None:
    pil_names = {"jpeg": "JPEG", "png": "PNG", "webp": "WEBP", "gif": "GIF", "bmp": "BMP"}
    for key, spec in IMAGES.items():
        if spec.kind in ("picture", "oversized"):
            data = image_bytes(key)
            with Image.open(io.BytesIO(data)) as img:
                assert img.format == pil_names[spec.fmt] and img.size == spec.size, key
            assert len(data) > 20 * 1024, key
    formats = {spec.fmt for spec in IMAGES.values() if spec.kind in ("picture", "svg")}
    assert {"jpeg", "png", "webp", "gif", "bmp", "svg"} <= formats
    assert len(image_bytes("grid_diagram")) > 20 * 1024


def test_hazard_images() -> None:
    assert size_filter(image_bytes("solar_farm")) == "pixels: 4410000 > 4000000"
    for key in ("info_icon", "warning_icon", "site_logo", "share_icon"):
        assert (size_filter(image_bytes(key)) or "").startswith("pixels:"), key
    assert (size_filter(image_bytes("anthocyanin_broken")) or "").startswith("unreadable")
    with pytest.raises(UnsupportedImage, match="does not decode"):
        convert(image_bytes("rain_truncated"))
    assert convert(image_bytes("net_meter"))[1] == "png"  # BMP is converted


def test_expected_description(web: FixtureWeb) -> None:
    exp = web.expected()
    assert set(exp) == {"q1", "q2", "q3", "q4"}
    kinds = {o.kind for q in exp.values() for o in q.images}
    assert kinds == {"good", "duplicate", "tiny", "oversized", "broken", "server_error", "private"}
    assert {h for q in exp.values() for h in q.failing.values()} == {"private", "not_found", "redirect_loop"}
    for q in exp.values():
        for page in q.pages:
            good = [o for o in q.by_kind("good") if o.source == page]
            assert len(good) >= 2, page
        for dup in q.by_kind("duplicate"):
            assert any(o.url == dup.duplicate_of and o.kind == "good" for o in q.images), dup
    q1 = exp["q1"]
    assert q1.results[1] == "http://169.254.169.254/latest/meta-data/"
    assert len(q1.pages) == 3 and len(q1.image_results) == 3
    assert any(o.source == "image-search" for o in q1.by_kind("duplicate"))
    same_url = [o for o in q1.by_kind("duplicate") if o.url == o.duplicate_of]
    assert same_url and same_url[0].source == web.url("/solar/inverters-and-the-grid.html")
    assert [o.url for o in exp["q2"].by_kind("private")] == ["http://10.0.0.7/secret.png"]
    assert {o.note for o in exp["q2"].by_kind("broken")} == {"HTML bytes served as image/jpeg",
                                                             "a JPEG cut after 45% of its bytes"}
    assert exp["q4"].results == () and exp["q4"].images == ()


def test_serving(web: FixtureWeb) -> None:
    web.reset()
    status, headers, body = _get(web, "/solar/how-solar-panels-work.html")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8" and b"<title>" in body
    for key in ("solar_roof", "pn_junction", "electron_flow", "net_meter", "grid_diagram", "anthocyanin_broken"):
        status, headers, body = _get(web, IMAGES[key].path)
        assert status == 200 and headers["content-type"] == CONTENT_TYPES[IMAGES[key].fmt]
        assert body == image_bytes(key)
    assert _get(web, IMAGES["cadence_graph"].path)[0] == 500
    assert _get(web, "/leaves/autumn-colour-myths.html")[0] == 404
    status, headers, _ = _get(web, "/loop/a")
    assert status == 302 and headers["location"] == "/loop/b"
    assert _get(web, "/loop/b")[1]["location"] == "/loop/a"
    assert web.count() == 11 and web.count("/loop/") == 2
    assert web.requests[0] == ("GET", "/solar/how-solar-panels-work.html")
    web.reset()
    assert web.requests == [] and web.count() == 0


def test_cse_stub(web: FixtureWeb) -> None:
    q = quote(FIXTURE_QUERIES[2]["query"])
    status, _, body = _get(web, f"/customsearch/v1?key=bad&cx={FIXTURE_CX}&q={q}")
    assert status == 403 and "API key not valid" in json.loads(body)["error"]["message"]
    status, _, body = _get(web, f"/customsearch/v1?key={FIXTURE_KEY}&cx={FIXTURE_CX}&q={q}&num=10")
    items = json.loads(body)["items"]
    assert [i["link"] for i in items] == list(web.expected()["q3"].results)
    assert {"title", "link", "snippet", "displayLink", "kind"} <= set(items[0])
    status, _, body = _get(web, f"/customsearch/v1?key={FIXTURE_KEY}&cx={FIXTURE_CX}&q={q}&searchType=image")
    items = json.loads(body)["items"]
    assert len(items) == 3 and all(i["image"]["contextLink"].startswith(web.base_url) for i in items)
    status, _, body = _get(web, f"/customsearch/v1?key={FIXTURE_KEY}&cx={FIXTURE_CX}&q=unknown")
    assert status == 200 and "items" not in json.loads(body)
    web.fail_next("/customsearch/v1", 503)
    assert _get(web, f"/customsearch/v1?key={FIXTURE_KEY}&cx={FIXTURE_CX}&q={q}")[0] == 503
    assert _get(web, f"/customsearch/v1?key={FIXTURE_KEY}&cx={FIXTURE_CX}&q={q}")[0] == 200


def test_jina_stub(web: FixtureWeb) -> None:
    url = web.url("/bikes/how-bicycle-gears-work.html")
    status, _, body = _get(web, f"/jina/{url}")
    data = json.loads(body)
    assert status == 200 and data["code"] == 200 and data["data"]["url"] == url
    assert data["data"]["title"].startswith("How Bicycle Gears Make Pedalling Easier")
    content = data["data"]["content"]
    assert f"![Image 1: Bicycle drivetrain with chainrings, chain, cassette and derailleur]" \
           f"({web.url('/img/bikes/drivetrain.jpg')})" in content
    assert f"]({web.url('/bikes/gear-ratios-explained.html')})" in content  # links made absolute
    assert "site-logo" not in content and "Share on Facebook" not in content
    for target in ("http://169.254.169.254/latest/meta-data/", web.url("/loop/a"), web.url("/nope")):
        status, _, body = _get(web, f"/jina/{target}")
        assert status == 422 and json.loads(body)["code"] == 422
