"""The paper's quality filter for distillation (reference §6.1), with its counts.

A response is kept when each of mean image coherence, mean image helpfulness, mean image reference (means over its
output images) and image recall is ≥ the threshold (0.7 by default; scores are the judges' 0–1 normalised scores).

Choices made explicit here, where the authors' script decided by accident:

* **answers without images** — the authors' ``np.mean([]) < 0.7`` is ``NaN < 0.7`` = False, so image-free answers
  silently passed the three image checks. Here they are **excluded** by default ("no images"); with
  ``keep_imageless=True`` they are kept when their image recall passes (the only image metric they have).
* **missing judgments** — a response whose required judgments are absent or unparsed (``score`` None) for any output
  image is excluded ("missing judgments"): the rule cannot be checked, and a missing score is never read as 0 or 1.
* failed generations (``error`` set or no response text) and smoke-test responses are excluded first.

Each response lands in exactly one bucket, checked in the order of `STEPS`; "below threshold" also counts every
metric that failed (a response can fail several).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..judges.metrics import IMAGE_METRICS, RECALL
from ..schema import Judgment, Response

RULE_METRICS: tuple[str, ...] = (*IMAGE_METRICS, RECALL)
EPSILON = 1e-9  # a mean of 0.7s must not fail 0.7 by a rounding error

#: The buckets, in the order they are checked.
STEPS = ("failed generations", "smoke-test responses", "no images", "missing judgments", "below threshold",
         "not rewritable", "duplicate queries", "kept")


@dataclass(frozen=True)
class QualityRule:
    threshold: float = 0.7
    keep_imageless: bool = False

    def describe(self) -> str:
        imageless = ("answers without images are kept when image recall passes" if self.keep_imageless
                     else "answers without images are excluded")
        return (f"keep a response when each of mean image_coherence, mean image_helpfulness, mean image_reference "
                f"(over its output images) and image_recall is >= {self.threshold}; {imageless}; responses with a "
                "missing judgment are excluded")


@dataclass
class Verdict:
    bucket: str  # one of STEPS
    means: dict[str, float] = field(default_factory=dict)
    below: list[str] = field(default_factory=list)
    detail: str | None = None


@dataclass
class RuleReport:
    """Counts at each step, overall and per run."""

    rule: QualityRule
    counts: Counter = field(default_factory=Counter)
    below_by_metric: Counter = field(default_factory=Counter)
    per_run: dict[str, Counter] = field(default_factory=dict)
    written: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, run: str, verdict: Verdict) -> None:
        run_counts = self.per_run.setdefault(run, Counter())
        for counter in (self.counts, run_counts):
            counter["responses read"] += 1
            counter[verdict.bucket] += 1
        self.below_by_metric.update(verdict.below)
        if verdict.detail and verdict.bucket in ("not rewritable", "missing judgments"):
            self.notes.append(f"{run}: {verdict.detail}")

    def move(self, run: str, old: str, new: str) -> None:
        """Re-file one response (e.g. kept by the rule, then found not rewritable or a duplicate)."""
        for counter in (self.counts, self.per_run[run]):
            counter[old] -= 1
            counter[new] += 1

    def rows(self) -> list[tuple[str, int]]:
        rows = [("responses read", self.counts["responses read"])]
        for step in STEPS:
            rows.append((step, self.counts[step]))
            if step == "below threshold":
                rows += [(f"  below on {m}", self.below_by_metric[m]) for m in RULE_METRICS]
        return rows

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule.describe(), "threshold": self.rule.threshold,
                "keep_imageless": self.rule.keep_imageless,
                "counts": {"responses read": self.counts["responses read"], **{s: self.counts[s] for s in STEPS}},
                "below_threshold_by_metric": {m: self.below_by_metric[m] for m in RULE_METRICS},
                "per_run": {run: {"responses read": c["responses read"], **{s: c[s] for s in STEPS}}
                            for run, c in self.per_run.items()},
                "written": self.written, "notes": self.notes}


def read_judgments(run_dir: str | Path) -> dict[tuple[str, str, int | None], Judgment]:
    """``(query_id, metric, image_index) -> Judgment`` from a run's ``judgments.jsonl`` (the last line wins)."""
    path = Path(run_dir) / "judgments.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"{run_dir} has no judgments.jsonl; evaluate it first, e.g. `m2rag-bench evaluate "
                                f"{run_dir} --metrics {','.join(RULE_METRICS)}`")
    found: dict[tuple[str, str, int | None], Judgment] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                j = Judgment.model_validate(json.loads(line))
                found[(j.query_id, j.metric, j.image_index)] = j
    return found


def check(response: Response, judgments: dict[tuple[str, str, int | None], Judgment], rule: QualityRule) -> Verdict:
    """Which bucket a response falls in under ``rule``."""
    if response.error is not None or not (response.response or "").strip():
        return Verdict("failed generations", detail=response.error)
    if response.smoke_test:
        return Verdict("smoke-test responses")
    n = len(response.output_images)
    if n == 0 and not rule.keep_imageless:
        return Verdict("no images")
    means: dict[str, float] = {}
    for metric in RULE_METRICS:
        keys = [(response.query_id, metric, None)] if metric == RECALL else \
            [(response.query_id, metric, i) for i in range(n)]
        scores = [judgments[k].score if k in judgments else None for k in keys]
        if any(s is None or (isinstance(s, float) and math.isnan(s)) for s in scores):
            missing = sum(s is None for s in scores)
            return Verdict("missing judgments", detail=f"{response.query_id}: {missing} {metric} judgment(s) missing")
        if scores:
            means[metric] = sum(scores) / len(scores)
    below = [m for m, v in means.items() if v + EPSILON < rule.threshold]
    return Verdict("below threshold" if below else "kept", means, below)
