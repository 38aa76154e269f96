"""Small behaviours of the curation driver."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from m2rag_bench.curate import similarity as similarity_mod
from m2rag_bench.curate.pipeline import CurateOptions, Curator
from m2rag_bench.curate.store import CurateError, Store


def _curator(tmp_path: Path, name: str) -> tuple[Curator, Console]:
    console = Console(record=True, width=200)
    return Curator(Store(tmp_path), [], CurateOptions(similarity=name), None, console), console


def _clip_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = similarity_mod.make_similarity

    def fake(name: str = "auto", **options):  # noqa: ANN003, ANN202
        if name in ("auto", "clip"):
            raise similarity_mod.SimilarityUnavailable("cannot load CLIP model 'ViT-B-32' with weights 'openai'")
        return real(name, embedder="lexical")

    monkeypatch.setattr(similarity_mod, "make_similarity", fake)


def test_auto_similarity_falls_back_to_alt_text_when_clip_will_not_load(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _clip_fails(monkeypatch)
    curator, console = _curator(tmp_path, "auto")
    assert curator.similarity().kind == "text"
    text = console.export_text()
    assert "cannot load CLIP model" in text and "alt-text similarity instead" in text


def test_asking_for_clip_that_will_not_load_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _clip_fails(monkeypatch)
    curator, _ = _curator(tmp_path, "clip")
    with pytest.raises(CurateError, match="image similarity: cannot load CLIP model"):
        curator.similarity()


def test_unknown_stage_is_refused_before_any_work(tmp_path: Path) -> None:
    curator, _ = _curator(tmp_path / "out", "none")
    with pytest.raises(CurateError, match="unknown stage"):
        curator.run(["search", "crawl"])
    assert not (tmp_path / "out").exists()
