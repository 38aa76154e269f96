"""Query–image similarity for the curation's image filter.

The authors drop an image when its CLIP similarity to the query is not above 10 (the 100-scaled cosine, Fig. 2),
i.e. cosine ≤ 0.1. Two scorers implement :class:`ImageSimilarity`:

* :class:`ClipSimilarity` — the paper's gate: cosine of L2-normalised CLIP image and text features (``open_clip``,
  the optional ``[clip]`` extra, imported only when used). Default threshold 0.1.
* :class:`TextSimilarity` — a stand-in for machines without CLIP: cosine between the query and the image's *alt
  text* with the project's text embedder (MiniLM when it loads, else the lexical one). It judges the alt text, not
  the pixels, so an image without informative alt text (empty, a file name, "image 3") gets ``None`` — not
  judged, hence not filtered.

:func:`make_similarity` picks one by name (``auto`` = CLIP when ``open_clip`` imports, else text).
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from ..models.base import BackendError
from ..models.embeddings import Embedder, LexicalEmbedder, make_embedder

__all__ = [
    "CLIP_THRESHOLD",
    "LEXICAL_THRESHOLD",
    "MINILM_THRESHOLD",
    "ClipSimilarity",
    "ImageSimilarity",
    "SimilarityUnavailable",
    "TextSimilarity",
    "clip_available",
    "make_similarity",
]

#: The paper's gate: CLIP similarity > 10 on the 100-scaled cosine.
CLIP_THRESHOLD = 0.10
#: MiniLM query/alt-text cosine: unrelated alt texts ("Company logo", "Subscribe to our newsletter", a red car for a
#: plant question) score about -0.05–0.09, on-topic ones 0.15–0.7 (a "rear cassette" photo for a bicycle-gears
#: question: 0.149). Alt text is a weak signal and the MLLM scorer does the real ranking, so the gate only drops
#: what is plainly off-topic: 0.10, the same number as the paper's CLIP gate.
MINILM_THRESHOLD = 0.10
#: Lexical (hashed bag of content words, used when sentence-transformers is not installed): word overlap cannot tell
#: that "chlorophyll model" belongs with "why do leaves change colour?" (it scores 0), so on a core install it dropped
#: 20 of 43 fixture images, most of them on topic. The score is recorded, but the default gate lets everything
#: through (cosines are ≥ 0); pass ``--min-similarity`` to filter on word overlap anyway.
LEXICAL_THRESHOLD = 0.0

Kind = Literal["clip", "text"]


class SimilarityUnavailable(BackendError):
    """The requested similarity cannot be used here (extra not installed, weights not available offline)."""


@runtime_checkable
class ImageSimilarity(Protocol):
    """Scores images against a query; ``scores`` returns one value per item, ``None`` when it cannot judge one."""

    name: str
    kind: Kind
    default_threshold: float

    def scores(self, query: str, items: Sequence[tuple[bytes, str]]) -> list[float | None]:
        """Cosine similarity of each ``(image bytes, alt text)`` item with ``query``; ``None`` = not judged."""
        ...


# --- CLIP ---------------------------------------------------------------------------------------------------------

def _import_open_clip() -> Any:
    try:
        import open_clip
    except Exception as exc:  # ImportError, or a broken torch install raising OSError/RuntimeError
        raise SimilarityUnavailable(
            f'CLIP similarity needs open_clip: pip install "m2rag-bench[clip]" ({type(exc).__name__}: {exc})'
        ) from exc
    return open_clip


def clip_available() -> bool:
    """Whether ``open_clip`` imports (weights are not checked: they load with :class:`ClipSimilarity`)."""
    try:
        _import_open_clip()
    except SimilarityUnavailable:
        return False
    return True


def _rgb(data: bytes) -> Any:
    """First frame of an encoded image as RGB, transparency composited on white (as the pHash does)."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as img:
        img.seek(0)
        if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
            rgba = img.convert("RGBA")
            base = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            return Image.alpha_composite(base, rgba).convert("RGB")
        return img.convert("RGB")


class ClipSimilarity:
    """Cosine of normalised CLIP image and query features (``open_clip``; the paper's filter).

    Loading never downloads on its own when ``HF_HUB_OFFLINE=1``: open_clip then finds the weights in the Hugging
    Face cache or fails, and the failure is reported as :class:`SimilarityUnavailable`. ``pretrained`` may also be a
    local checkpoint path, or ``None`` for random weights (tests).
    """

    kind: Kind = "clip"

    def __init__(self, model: str = "ViT-B-32", pretrained: str | None = "openai", device: str = "cpu",
                 batch_size: int = 16) -> None:
        open_clip = _import_open_clip()
        try:
            net, _train_tf, preprocess = open_clip.create_model_and_transforms(model, pretrained=pretrained,
                                                                              device=device)
            tokenizer = open_clip.get_tokenizer(model)
        except Exception as exc:  # open_clip raises RuntimeError, OSError, hub errors, ...
            offline = os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on")
            hint = (" (HF_HUB_OFFLINE=1: only cached weights can be used; run once online, or pass a local "
                    "checkpoint as pretrained)") if offline else ""
            raise SimilarityUnavailable(
                f"cannot load CLIP model {model!r} with weights {pretrained!r}: {type(exc).__name__}: {exc}{hint}"
            ) from exc
        net.eval()
        self.model, self.preprocess, self.tokenizer = net, preprocess, tokenizer
        self.device, self.batch_size = device, max(1, int(batch_size))
        self.name = f"clip:{model}/{pretrained or 'random'}"
        self.default_threshold = CLIP_THRESHOLD

    def scores(self, query: str, items: Sequence[tuple[bytes, str]]) -> list[float | None]:
        """One cosine per image (alt texts are not used); ``None`` for bytes that do not open as an image."""
        import torch

        out: list[float | None] = [None] * len(items)
        tensors: list[tuple[int, Any]] = []
        for i, (data, _alt) in enumerate(items):
            try:
                tensors.append((i, self.preprocess(_rgb(data))))
            except Exception:  # noqa: BLE001 - an unreadable image is simply not judged
                continue
        if not tensors:
            return out
        with torch.no_grad():
            tokens = self.tokenizer([query])  # the tokenizer truncates to the model's context length
            text = self.model.encode_text(tokens.to(self.device)).float()
            text = text / text.norm(dim=-1, keepdim=True)
            for start in range(0, len(tensors), self.batch_size):
                batch = tensors[start:start + self.batch_size]
                feats = self.model.encode_image(torch.stack([t for _, t in batch]).to(self.device)).float()
                feats = feats / feats.norm(dim=-1, keepdim=True)
                for (i, _), sim in zip(batch, (feats @ text.T).squeeze(-1).tolist()):
                    out[i] = float(sim)
        return out


# --- alt text -----------------------------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")
_FILENAME = re.compile(r"^[\w\-.%+~ ]*\.(?:jpe?g|png|gif|webp|svg|bmp|tiff?|ico|avif|heic)$", re.I)
#: Words that say nothing about what an image shows; an alt text made only of these (and numbers) is not judged.
_GENERIC = frozenset("""image images img photo photos photograph picture pictures pic pics figure fig untitled
    thumbnail thumb placeholder graphic alt jpg jpeg png gif webp svg""".split())
#: English function words, ignored by the lexical embedder (bag-of-words overlap on "the", "of" means nothing).
_STOPWORDS = frozenset("""a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has have having
    he her here hers him his how i if in into is it its itself just me more most my no nor not now of off on once
    only or other our ours out over own same she should so some such than that the their them then there these
    they this those through to too under until up very was we were what when where which while who whom why will
    with would you your""".split())


def informative_alt(alt: str | None) -> str | None:
    """The alt text when it can describe an image; ``None`` when empty, a file name, or only generic words."""
    text = " ".join((alt or "").split())
    if not text or _FILENAME.match(text):
        return None
    words = _WORD.findall(text.lower())
    if all(w in _GENERIC or w in _STOPWORDS or w.isdigit() for w in words):
        return None
    return text


def _content_words(text: str) -> str:
    return " ".join(w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS)


class TextSimilarity:
    """Cosine between the query and each image's alt text with a text embedder (a stand-in for CLIP).

    ``embedder``: an :class:`~m2rag_bench.models.embeddings.Embedder`, an embedder name for ``make_embedder``, or
    ``None`` for the offline MiniLM (falling back to the lexical embedder when it cannot load). The default threshold
    follows the embedder: :data:`LEXICAL_THRESHOLD` for the lexical one, :data:`MINILM_THRESHOLD` otherwise.
    """

    kind: Kind = "text"

    def __init__(self, embedder: Embedder | str | None = None) -> None:
        if embedder is None:
            try:
                embedder = make_embedder(None)
            except (BackendError, ImportError, OSError):
                embedder = LexicalEmbedder()
        elif isinstance(embedder, str):
            embedder = make_embedder(embedder)
        self.embedder: Embedder = embedder
        self.lexical = isinstance(embedder, LexicalEmbedder) or embedder.name == "lexical"
        self.name = f"text:{embedder.name}"
        self.default_threshold = LEXICAL_THRESHOLD if self.lexical else MINILM_THRESHOLD

    def _prepare(self, text: str) -> str:
        return _content_words(text) if self.lexical else text

    def scores(self, query: str, items: Sequence[tuple[bytes, str]]) -> list[float | None]:
        """One cosine per item from its alt text; ``None`` where the alt text is uninformative (or the query empty)."""
        out: list[float | None] = [None] * len(items)
        q = self._prepare(query).strip()
        alts = [(i, informative_alt(alt)) for i, (_data, alt) in enumerate(items)]
        judged = [(i, self._prepare(a)) for i, a in alts if a is not None]
        if not q or not judged:
            return out
        vecs = self.embedder.encode([q] + [t for _, t in judged])
        sims = vecs[1:] @ vecs[0]
        for (i, _), sim in zip(judged, sims.tolist()):
            out[i] = float(sim)
        return out


# --- choice -------------------------------------------------------------------------------------------------------

_CLIP_OPTIONS = ("model", "pretrained", "device", "batch_size")
_TEXT_OPTIONS = ("embedder",)


def make_similarity(name: str = "auto", **options: Any) -> ImageSimilarity | None:
    """A scorer by name: ``clip``, ``text``, ``none`` (returns ``None``: no similarity filter) or ``auto``.

    ``auto`` is CLIP when ``open_clip`` imports, else text; it passes on only the options the chosen scorer takes,
    so ``make_similarity("auto", device="cuda", embedder="lexical")`` works either way. With an explicit name an
    unknown option is a ``TypeError``.
    """
    if name == "none":
        return None
    if name == "auto":
        name = "clip" if clip_available() else "text"
        allowed = _CLIP_OPTIONS if name == "clip" else _TEXT_OPTIONS
        options = {k: v for k, v in options.items() if k in allowed}
    if name == "clip":
        return ClipSimilarity(**options)
    if name == "text":
        return TextSimilarity(**options)
    raise ValueError(f"unknown image similarity {name!r} (choose auto, clip, text or none)")
