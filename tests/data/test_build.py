"""`dataset build`: a release in the authors' layout in, a loadable Hub-style dataset out."""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path

import datasets
import pytest
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard
from PIL import Image

from m2rag_bench.data.export import build_dataset
from m2rag_bench.data.features import iter_samples
from m2rag_bench.data.synthetic import write_release


def _lines(release: Path) -> list[dict]:
    return [json.loads(x) for x in (release / "dev_set" / "dev_set.jsonl").read_text().splitlines()]


def _write_lines(release: Path, records: list[dict], extra: str = "") -> None:
    text = "".join(json.dumps(r) + "\n" for r in records) + extra
    (release / "dev_set" / "dev_set.jsonl").write_text(text)


def _problems(out: Path, config: str = "benchmark") -> list[dict]:
    return json.loads((out / "build_report.json").read_text())[config]["problems"]


def test_damaged_release_builds_loads_and_reports_every_problem(release: Path, tmp_path: Path) -> None:
    records = _lines(release)
    first = records[0]
    missing = release / "images" / first["webpages"][0]["images"][0]["cached_image_url"].split(":65535/")[1]
    corrupt = release / "images" / first["aux_images"][1]["cached_image_url"].split(":65535/")[1]
    missing.unlink()
    corrupt.write_bytes(b"\x89PNG\r\n\x1a\n truncated")
    first["webpages"][1]["cleaned_webpage_splits"] = None  # never crawled
    first["webpages"][2]["cleaned_webpage_splits"][0]["score"] = None  # unscored piece
    first["webpages"][2]["images"][1]["final_score"] = None
    first["webpages"][2]["images"][1]["valid"] = False
    del records[2]["content"]
    _write_lines(release, records, extra='{"query_id": "broken", "content": "cut off\n')

    out = tmp_path / "out"
    result = build_dataset(release, out)

    problems = _problems(out)
    jsonl = str(release / "dev_set" / "dev_set.jsonl")
    by_field = {(p["line"], p["field"]): p for p in problems}
    assert by_field[(1, "webpages[0].images[0].cached_image_url")]["action"] == "image unavailable"
    assert "not found" in by_field[(1, "webpages[0].images[0].cached_image_url")]["message"]
    assert "cannot decode" in by_field[(1, "aux_images[1].cached_image_url")]["message"]
    assert by_field[(3, "content")]["action"] == "line skipped"
    assert by_field[(5, None)]["message"].startswith("malformed JSON")
    assert all(p["file"] == jsonl for p in problems)
    assert len(problems) == 4

    ds = datasets.load_dataset(str(out))
    assert list(ds) == ["test"] and ds["test"].num_rows == 3
    row = ds["test"][0]
    assert row["webpages"][0]["images"][0]["image"] is None
    assert row["webpages"][0]["images"][0]["available"] is False
    assert isinstance(row["webpages"][0]["images"][1]["image"], Image.Image)
    assert row["aux_images"][1]["image"] is None and isinstance(row["aux_images"][0]["image"], Image.Image)
    assert row["webpages"][1]["crawled"] is False and row["webpages"][1]["pieces"] == []
    assert row["webpages"][2]["pieces"][0]["score"] is None
    assert row["webpages"][2]["images"][1]["final_score"] is None
    assert result.configs == {"benchmark": {"test": 3}}


def test_skip_bad_drops_samples_with_unavailable_images(release: Path, tmp_path: Path) -> None:
    first = _lines(release)[0]
    (release / "images" / first["aux_images"][0]["cached_image_url"].split(":65535/")[1]).unlink()
    build_dataset(release, tmp_path / "out", skip_bad=True)
    ds = datasets.load_dataset(str(tmp_path / "out"), "benchmark", split="test")
    assert first["query_id"] not in ds["query_id"] and ds.num_rows == 3
    assert [p["action"] for p in _problems(tmp_path / "out")] == ["image unavailable", "sample skipped"]


def test_tar_shards_and_extracted_images_give_the_same_dataset(tmp_path: Path) -> None:
    extracted = write_release(tmp_path / "extracted", 6, seed=7)
    sharded = write_release(tmp_path / "sharded", 6, seed=7, shards=3)
    assert not (sharded / "images").exists() and len(list(sharded.glob("dev_set-*.tar"))) == 3
    build_dataset(extracted, tmp_path / "a")
    build_dataset(sharded, tmp_path / "b")
    a = [s.model_dump() for s in iter_samples(datasets.load_dataset(str(tmp_path / "a"), split="test"))]
    b = [s.model_dump() for s in iter_samples(datasets.load_dataset(str(tmp_path / "b"), split="test"))]
    assert a == b
    images = [img for s in a for p in s["webpages"] for img in p["images"]] + [i for s in a for i in s["aux_images"]]
    assert len(images) == 6 * (3 * 3 + 2) and all(img["available"] and img["image_bytes"] for img in images)


def test_images_resolve_by_path_after_host_not_by_host(release: Path, tmp_path: Path) -> None:
    records = _lines(release)
    for rec in records:
        for img in rec["aux_images"]:
            img["cached_image_url"] = img["cached_image_url"].replace("http://0.0.0.0:65535", "https://cdn.other:8443")
    _write_lines(release, records)
    build_dataset(release, tmp_path / "out")
    assert _problems(tmp_path / "out") == []
    ds = datasets.load_dataset(str(tmp_path / "out"), split="test")
    assert all(img["available"] for row in ds for img in row["aux_images"])


def test_gzipped_jsonl_release(release: Path, tmp_path: Path) -> None:
    jsonl = release / "dev_set" / "dev_set.jsonl"
    with tarfile.open(release / "dev_set.jsonl.tar.gz", "w:gz") as tar:
        tar.add(jsonl, arcname="dev_set/dev_set.jsonl")
    shutil.rmtree(release / "dev_set")
    result = build_dataset(release, tmp_path / "out")
    assert result.configs == {"benchmark": {"test": 4}}
    assert all(p["file"].endswith("!dev_set/dev_set.jsonl") for p in _problems(tmp_path / "out"))


def test_card_has_configs_block_matching_the_shards(release: Path, training_release: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build_dataset(release, out)
    build_dataset(training_release, out, ["train"])  # a second build adds its config and keeps the first
    card = DatasetCard.load(out / "README.md")
    configs = MetadataConfigs.from_dataset_card_data(card.data)
    assert sorted(configs) == ["benchmark", "train"]
    assert configs["benchmark"]["default"] is True
    assert datasets.get_dataset_config_names(str(out)) == ["benchmark", "train"]
    text = (out / "README.md").read_text()
    assert "M2RAG-Bench (Ma et al., arXiv 2411.16365)" in text and "2502.17297" in text
    for field in ("final_score", "detailed_image_caption", "image_paths", "cached_path", "level", "topic"):
        assert f"`{field}`" in text or f".{field}`" in text
    assert "@article{ma2024m2rag" in text
    assert json.loads((out / "build_report.json").read_text()).keys() == {"benchmark", "train"}


def test_train_config_loads_with_image_columns(training_release: Path, tmp_path: Path) -> None:
    build_dataset(training_release, tmp_path / "out")
    ds = datasets.load_dataset(str(tmp_path / "out"), "train", split="train")
    assert ds.num_rows == 6 and sorted(set(ds["modality"])) == ["llm", "mllm"]
    mllm = ds.filter(lambda r: r["modality"] == "mllm")[0]
    assert len(mllm["images"]) == 2 == mllm["model_input"].count("<image>")
    assert all(isinstance(im, Image.Image) for im in mllm["images"])
    assert isinstance(ds.features["images"], datasets.List) and isinstance(ds.features["images"].feature, datasets.Image)


def test_shards_split_by_size(tmp_path: Path) -> None:
    rel = write_release(tmp_path / "rel", 40, seed=3, image_size=(96, 96))
    build_dataset(rel, tmp_path / "out", max_shard_size="50KB")
    shards = sorted((tmp_path / "out" / "benchmark").glob("test-*.parquet"))
    assert len(shards) > 1 and shards[0].name == f"test-00000-of-{len(shards):05d}.parquet"
    assert datasets.load_dataset(str(tmp_path / "out"), split="test").num_rows == 40


def test_missing_release_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="dev_set.jsonl"):
        build_dataset(tmp_path / "empty", tmp_path / "out")


def test_rebuilt_export_loads_the_new_data_not_a_stale_cache(tmp_path: Path) -> None:
    out = tmp_path / "out"
    build_dataset(write_release(tmp_path / "r1", 3, seed=1), out)
    assert datasets.load_dataset(str(out), split="test").num_rows == 3
    build_dataset(write_release(tmp_path / "r2", 5, seed=2), out)
    assert datasets.load_dataset(str(out), split="test").num_rows == 5
