"""Training data: distil evaluated runs into a single-stage fine-tuning set (reference §6).

``rule`` decides which responses are good enough (the paper's quality filter, with an explicit choice for answers
without images), ``rewrite`` turns a kept response into a single-stage training pair, ``writers`` writes the
LLaMA-Factory ShareGPT files and the authors' training-release layout, and ``export`` ties them together for
``m2rag-bench export-training``.
"""

from .export import ExportSummary, export_training
from .rule import QualityRule, RuleReport
from .rewrite import TrainingPair, rewrite

__all__ = ["ExportSummary", "QualityRule", "RuleReport", "TrainingPair", "export_training", "rewrite"]
