"""The eight judges of M2RAG-Bench: rubric judges, ragas metrics, image recall, aggregation and agreement."""

from __future__ import annotations

from .metrics import IMAGE_METRICS, LABELS, METRICS, RECALL, TEXT_METRICS

__all__ = ["IMAGE_METRICS", "LABELS", "METRICS", "RECALL", "TEXT_METRICS"]
