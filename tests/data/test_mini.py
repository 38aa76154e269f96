"""The bundled mini split: what the issue promises of it, and that it is the builder's output of data/mini-release."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import datasets
import pytest

import m2rag_bench
from m2rag_bench.data.export import build_dataset
from m2rag_bench.data.features import iter_samples
from m2rag_bench.data.loading import mini_path

REPO = Path(__file__).resolve().parents[2]
RELEASE = REPO / "data" / "mini-release"


@pytest.fixture(scope="module")
def samples() -> list[m2rag_bench.Sample]:
    return list(iter_samples(m2rag_bench.load_benchmark("mini")))


def test_mini_meets_its_promises(samples: list[m2rag_bench.Sample]) -> None:
    assert len(samples) >= 12
    assert len({s.topic for s in samples}) >= 6 and all(s.topic in m2rag_bench.TOPICS for s in samples)
    images = [img for s in samples for img in s.all_images()]
    assert len(images) >= 40 and all(img.available for img in images)
    for s in samples:
        crawled = [p for p in s.webpages if p.pieces is not None]
        assert len(s.webpages) >= 3 and len(crawled) >= 2, s.query_id
        assert all(len(p.pieces) >= 3 and any("<IMAGE_PLACEHOLDER>[" in x.text for x in p.pieces) or not p.images
                   for p in crawled)
        assert all(x.score is not None for p in crawled for x in p.pieces)
        scores = [img.final_score for img in s.all_images() if img.final_score is not None]
        assert max(scores) >= 8 and min(scores) <= 4, s.query_id  # strong images and weak distractors
        assert s.aux_images
    valid = [img for img in images if img.valid]
    assert all(img.detailed_caption and img.final_score is not None for img in valid)
    assert sum(img.kind == "aux" for img in images) >= 12


def test_every_marker_has_its_image_at_the_recorded_position(samples: list[m2rag_bench.Sample]) -> None:
    for s in samples:
        for page in s.webpages:
            texts = {p.split_id: p.text for p in page.pieces or []}
            for img in page.images:
                if img.split_id is not None:
                    marker = f"<IMAGE_PLACEHOLDER>[{img.image_id}]"
                    assert texts[img.split_id][img.position:].startswith(marker), (s.query_id, img.image_id)


def test_mini_is_small_and_licensed() -> None:
    shipped = sum(p.stat().st_size for p in mini_path().rglob("*") if p.is_file())
    assert shipped < 5_000_000
    rows = list(csv.DictReader(open(RELEASE / "IMAGES.csv", encoding="utf-8")))
    assert len(rows) == sum(1 for p in (RELEASE / "images").rglob("*") if p.is_file())
    assert all(r["origin"] and "Apache-2.0" in r["licence"] for r in rows)
    card = (mini_path() / "README.md").read_text()
    assert "license: apache-2.0" in card and "M2RAG-Bench (Ma et al., arXiv 2411.16365)" in card


def test_shipped_mini_is_the_builder_output_of_the_release(tmp_path: Path) -> None:
    build_dataset(RELEASE, tmp_path / "mini", card_kind="mini")
    rebuilt = [s.model_dump() for s in iter_samples(datasets.load_dataset(str(tmp_path / "mini"), split="test"))]
    shipped = [s.model_dump() for s in iter_samples(m2rag_bench.load_benchmark("mini"))]
    assert rebuilt == shipped
    assert (tmp_path / "mini" / "README.md").read_text() == (mini_path() / "README.md").read_text()


def test_release_regenerates_from_scripts(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(REPO / "scripts" / "mini" / "make_mini_release.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    assert (tmp_path / "dev_set.jsonl").read_bytes() == (RELEASE / "dev_set.jsonl").read_bytes()
    made = sorted(p.relative_to(tmp_path) for p in (tmp_path / "images").rglob("*") if p.is_file())
    assert made == sorted(p.relative_to(RELEASE) for p in (RELEASE / "images").rglob("*") if p.is_file())
