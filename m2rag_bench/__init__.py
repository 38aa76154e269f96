"""m2rag-bench: M2RAG-Bench (Ma et al., arXiv 2411.16365) as a package.

The dataset (builder, bundled mini split, Hub export), typed records, and — in later modules — the generation
harness, the eight judges and the leaderboard. Heavy parts are imported only when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._version import __version__
from .schema import ImageRef, Judgment, OutputImage, Response, RunConfig, Sample, TextPiece, TrainingExample, WebPage
from .topics import TOPICS

if TYPE_CHECKING:  # pragma: no cover
    from .data.features import iter_samples
    from .data.loading import load_benchmark

_LAZY = {"load_benchmark": "m2rag_bench.data.loading", "iter_samples": "m2rag_bench.data.features"}

__all__ = ["__version__", "TOPICS", "ImageRef", "Judgment", "OutputImage", "Response", "RunConfig", "Sample",
           "TextPiece", "TrainingExample", "WebPage", "load_benchmark", "iter_samples"]


def __getattr__(name: str) -> Any:
    """Import ``datasets``-backed helpers on first use, so ``import m2rag_bench`` stays fast."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'm2rag_bench' has no attribute {name!r}")
