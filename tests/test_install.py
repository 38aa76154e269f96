"""The built wheel carries the mini split and the card templates, and `load_benchmark("mini")` works from it."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist),
                    str(REPO)], check=True, capture_output=True, cwd=dist)
    (found,) = dist.glob("m2rag_bench-*.whl")
    return found


def test_wheel_ships_mini_split_and_cards(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "m2rag_bench/data/mini/README.md" in names
    assert any(n.startswith("m2rag_bench/data/mini/benchmark/test-") and n.endswith(".parquet") for n in names)
    assert {"m2rag_bench/cards/benchmark.md", "m2rag_bench/cards/train.md", "m2rag_bench/cards/mini.md"} <= set(names)
    assert {"m2rag_bench/judges/rubrics/fluency.jinja", "m2rag_bench/strategies/prompts/single_stage.jinja",
            "m2rag_bench/task_files/m2rag_single_stage_llm_mini.yaml", "m2rag_bench/models/prices.yaml",
            "m2rag_bench/evaluate_modules/m2rag_image_recall/m2rag_image_recall.py",
            "m2rag_bench/leaderboard/templates/index.html", "m2rag_bench/leaderboard/static/table.js"} <= set(names)
    assert not any(n.startswith(("tests/", "scripts/", "data/")) for n in names)


def test_load_mini_from_installed_wheel_offline(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    code = ("import m2rag_bench, sys; ds = m2rag_bench.load_benchmark('mini');"
            "img = next(i['image'] for p in ds[0]['webpages'] for i in p['images'] if i['image'] is not None);"
            "print(m2rag_bench.__file__, ds.num_rows, type(img).__name__)")
    env = {**os.environ, "PYTHONPATH": str(site), "HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "1",
           "HF_DATASETS_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True, check=True)
    path, rows, image_type = out.stdout.split()
    assert path.startswith(str(site)) and int(rows) >= 12 and image_type.endswith("ImageFile")
