"""Tests for m2rag_bench.curate.similarity. open_clip is not installed here: ClipSimilarity is tested against a
fake ``open_clip`` module injected into ``sys.modules`` that checks how it is called (its features are real torch
tensors)."""

from __future__ import annotations

import io
import sys
import types
from typing import Any

import numpy as np
import pytest
from PIL import Image

from m2rag_bench.curate import similarity as sim_mod
from m2rag_bench.curate.similarity import (
    CLIP_THRESHOLD,
    LEXICAL_THRESHOLD,
    MINILM_THRESHOLD,
    ClipSimilarity,
    ImageSimilarity,
    SimilarityUnavailable,
    TextSimilarity,
    informative_alt,
    make_similarity,
)
from m2rag_bench.models.embeddings import LexicalEmbedder

try:
    import torch
except ImportError:  # pragma: no cover - the fake CLIP returns torch tensors; the text tests need no torch
    torch = None

CONTEXT = 77


def _png(color: tuple[int, ...], mode: str = "RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, (120, 100), color).save(out, format="PNG")
    return out.getvalue()


class FakeOpenClip(types.ModuleType):
    """Records calls; a model whose image features are the mean RGB and whose query feature is fixed."""

    def __init__(self, fail: Exception | None = None) -> None:
        super().__init__("open_clip")
        self.fail, self.log = fail, []

    def create_model_and_transforms(self, model: str, pretrained: Any = None, device: Any = None) -> Any:
        self.log.append(("create", model, pretrained, device))
        if self.fail:
            raise self.fail
        log = self.log

        def preprocess(img: Image.Image) -> Any:
            assert isinstance(img, Image.Image) and img.mode == "RGB"
            log.append(("preprocess", img.size))
            return torch.from_numpy(np.asarray(img, dtype=np.float32)).mean(dim=(0, 1))  # (3,)

        class Model:
            def eval(self) -> Model:
                log.append(("eval",))
                return self

            def encode_text(self, tokens: Any) -> Any:
                assert tokens.shape == (1, CONTEXT)
                log.append(("encode_text", tuple(tokens.shape)))
                return torch.tensor([[255.0, 0.0, 0.0]]) * 3  # unnormalised: red

            def encode_image(self, batch: Any) -> Any:
                log.append(("encode_image", tuple(batch.shape)))
                return batch + 1e-3

        return Model(), "train-transform", preprocess

    def get_tokenizer(self, model: str) -> Any:
        log = self.log

        def tokenize(texts: list[str]) -> Any:
            log.append(("tokenize", list(texts)))
            ids = torch.zeros((len(texts), CONTEXT), dtype=torch.long)
            for row, text in enumerate(texts):
                words = text.split()[:CONTEXT]  # truncation to the context length, as open_clip's tokenizers do
                ids[row, :len(words)] = torch.arange(1, len(words) + 1)
            return ids

        self.log.append(("tokenizer", model))
        return tokenize


@pytest.fixture
def fake_clip(monkeypatch: pytest.MonkeyPatch) -> FakeOpenClip:
    if torch is None:
        pytest.skip("torch is not installed")
    module = FakeOpenClip()
    monkeypatch.setitem(sys.modules, "open_clip", module)
    return module


@pytest.fixture
def no_clip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "open_clip", None)  # `import open_clip` raises ImportError


def test_clip_scores_are_cosines_of_normalised_features(fake_clip: FakeOpenClip) -> None:
    clip = ClipSimilarity(batch_size=2)
    assert isinstance(clip, ImageSimilarity)
    assert (clip.name, clip.kind, clip.default_threshold) == ("clip:ViT-B-32/openai", "clip", CLIP_THRESHOLD)
    assert fake_clip.log[:3] == [("create", "ViT-B-32", "openai", "cpu"), ("tokenizer", "ViT-B-32"), ("eval",)]
    long_query = "word " * 500
    items = [(_png((255, 0, 0)), ""), (b"not an image", "alt"), (_png((0, 255, 0)), ""),
             (_png((255, 0, 0, 0), "RGBA"), "")]  # fully transparent: composited on white
    scores = clip.scores(long_query, items)
    assert scores[0] == pytest.approx(1.0, abs=1e-4)
    assert scores[1] is None
    assert scores[2] == pytest.approx(0.0, abs=1e-4)
    assert scores[3] == pytest.approx(3 ** -0.5, abs=1e-4)
    calls = [c for c in fake_clip.log[3:] if c[0] != "preprocess"]
    assert calls == [("tokenize", [long_query]), ("encode_text", (1, CONTEXT)),
                     ("encode_image", (2, 3)), ("encode_image", (1, 3))]


def test_clip_without_images_does_not_run_the_model(fake_clip: FakeOpenClip) -> None:
    clip = ClipSimilarity(model="ViT-L-14", pretrained="laion2b_s32b_b82k", device="cuda")
    assert clip.scores("q", []) == [] and clip.scores("q", [(b"junk", "")]) == [None]
    assert fake_clip.log == [("create", "ViT-L-14", "laion2b_s32b_b82k", "cuda"), ("tokenizer", "ViT-L-14"),
                             ("eval",)]


def test_clip_missing_names_the_extra(no_clip: None) -> None:
    with pytest.raises(SimilarityUnavailable, match=r'pip install "m2rag-bench\[clip\]"'):
        ClipSimilarity()
    assert not sim_mod.clip_available()


def test_clip_weights_missing_offline_is_a_clear_error(fake_clip: FakeOpenClip,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "open_clip", FakeOpenClip(fail=OSError("offline mode is enabled")))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(SimilarityUnavailable, match="cannot load CLIP model 'ViT-B-32'.*offline mode is enabled"
                                                    ".*HF_HUB_OFFLINE=1: only cached weights"):
        ClipSimilarity()


def test_make_similarity(fake_clip: FakeOpenClip, monkeypatch: pytest.MonkeyPatch) -> None:
    assert make_similarity("none") is None
    auto = make_similarity("auto", device="cuda", embedder="lexical")
    assert isinstance(auto, ClipSimilarity) and fake_clip.log[0] == ("create", "ViT-B-32", "openai", "cuda")
    assert isinstance(make_similarity("text", embedder="lexical"), TextSimilarity)
    with pytest.raises(TypeError):
        make_similarity("clip", embedder="lexical")
    with pytest.raises(ValueError, match="unknown image similarity"):
        make_similarity("siglip")
    monkeypatch.setitem(sys.modules, "open_clip", None)
    text = make_similarity("auto", device="cuda", embedder="lexical")
    assert isinstance(text, TextSimilarity) and text.name == "text:lexical"


@pytest.mark.parametrize("alt, informative", [
    ("", False), ("   ", False), ("IMG_2034.jpg", False), ("my holiday photo.JPEG", False), ("Picture 3", False),
    ("image", False), ("Figure 2: the photo", False),
    ("logo", True), ("Snake plant in a pot", True), ("Figure 2: repotting a snake plant", True),
])
def test_informative_alt(alt: str, informative: bool) -> None:
    assert (informative_alt(alt) is not None) is informative


def test_lexical_text_similarity_ignores_function_words() -> None:
    text = TextSimilarity(LexicalEmbedder())
    assert (text.name, text.kind, text.default_threshold) == ("text:lexical", "text", LEXICAL_THRESHOLD)
    q = "How do I repot a snake plant without damaging the roots?"
    scores = text.scores(q, [(b"", "Snake plant being repotted into a terracotta pot"),
                             (b"", "A cat sleeping on the sofa"), (b"", ""), (b"", "IMG_1.png"), (b"", "the of a")])
    assert scores[0] > LEXICAL_THRESHOLD
    assert scores[1] == 0.0  # shares only "a"/"the" with the query
    assert scores[2:] == [None, None, None]
    assert text.scores("what is it", [(b"", "a snake plant")]) == [None]  # no content word in the query


def test_default_text_similarity_falls_back_to_lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    from m2rag_bench.models.base import BackendError

    def unavailable(name: Any = None) -> Any:
        raise BackendError("not installed")

    monkeypatch.setattr(sim_mod, "make_embedder", unavailable)
    assert TextSimilarity().name == "text:lexical"


def test_minilm_text_similarity_separates_on_and_off_topic_alts() -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("all_minilm_l6_v2")
    text = TextSimilarity()
    assert text.name == "text:sentence-transformers/all-MiniLM-L6-v2" and text.default_threshold == MINILM_THRESHOLD
    q = "How do I repot a snake plant without damaging the roots?"
    on = ["Snake plant being repotted into a terracotta pot", "Hands holding a houseplant with tangled roots"]
    off = ["Company logo", "Subscribe to our newsletter", "A cat sleeping on a sofa"]
    scores = text.scores(q, [(b"", a) for a in on + off])
    assert min(scores[:2]) > MINILM_THRESHOLD > max(scores[2:])
