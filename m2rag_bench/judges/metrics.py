"""The eight metrics of M2RAG-Bench: names, groups and table labels (reference §4.1)."""

from __future__ import annotations

TEXT_METRICS = ("fluency", "relevance", "context_precision", "faithfulness")
IMAGE_METRICS = ("image_coherence", "image_helpfulness", "image_reference")
RECALL = "image_recall"
METRICS = TEXT_METRICS + IMAGE_METRICS + (RECALL,)
RAGAS_METRICS = ("context_precision", "faithfulness")
RUBRIC_METRICS = ("fluency", "relevance") + IMAGE_METRICS

#: Column labels of the paper's table, in its order.
LABELS = {"fluency": "Flu.", "relevance": "Rel.", "context_precision": "CP.", "faithfulness": "Faith.",
          "image_coherence": "Coher.", "image_helpfulness": "Help.", "image_reference": "Ref.",
          "image_recall": "Recall"}

#: Final-score threshold above which a candidate image counts as a positive for image recall.
POSITIVE_SCORE = 8
