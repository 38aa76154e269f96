"""Aggregate judgments into the body of ``scores.json`` (reference §4.5, §8.2, §8.3).

All scores are on a 0–100 scale and kept at full precision; round only for display (:func:`table_rows`).
Undefined values (no scores at all) are ``None``, never 0 and never NaN::

    {"protocol": "default" | "m2rag-2025-02",
     "smoke_test": bool,              # a judgment or response came from the offline smoke model
     "paper": {                       # the authors' aggregation: image precision pooled over output images
        "metrics": {metric: {"mean": float|None, "n": int, "ci95": [lo, hi]|None}},
        "overall": {"mean": float|None, "ci95": [lo, hi]|None},
        "text_avg": float|None, "mm_precision_avg": float|None},
     "macro": {... the same keys ..., "responses_without_images": int},
     "coverage": {"generation": float|None,          # non-failed / all responses
                  "metrics": {metric: {"scored": int, "expected": int, "coverage": float|None}}},
     "counts": {"responses", "failed", "output_images", "judgments", "ignored_judgments",
                "superseded_judgments",       # an earlier judgment of the same slot; the last one wins
                "missing": {metric: int}, "nan_ragas": {metric: int}},
     "per_topic": {topic: {"responses": int, "metrics": {metric: {"mean", "n"}}, "overall": float|None}},
     "bootstrap": {"iterations", "seed", "unit": "response", "interval": "percentile 2.5-97.5"} | None,
     "notes": [str, ...]}

``n`` counts the units averaged: responses for text metrics, recall and macro image precision; output images for
paper (pooled) image precision. Overall is the unweighted mean of the 8 metric means, "text_avg" that of the 4 text
metrics and "mm_precision_avg" that of coherence, helpfulness and reference; each is ``None`` when one of its
metrics has no score. Expected judgments: one per non-failed response for the text metrics and recall, one per
output image of a non-failed response for the 3 image metrics. The bootstrap resamples non-failed responses with
replacement (``numpy.random.default_rng(seed)``); pooled metrics pool the images of the resampled responses, and
overall is recomputed per replicate (a replicate where a metric has no unit, e.g. no image was drawn, is left
out of that interval). Per-topic rows use the paper aggregation and the ``topic`` of a response's
judgments ("(none)" when null).

Protocols (every output names the one that made it):

* ``default`` — a missing score (absent, unparsable, failed call, NaN RAGAS result) is excluded from the means
  and shows as coverage < 1; failed generations are not scored and ``coverage.generation`` plus a note say so.
* ``m2rag-2025-02`` (the authors' ``evaluate.py``, reference §4.4–4.5), differing only in:
  1. a missing text-metric or recall score counts as 0.0 (the published per-query default);
  2. a NaN RAGAS result (``score`` None, ``raw_score`` NaN) counts as 1.0 (``min(1, nan)`` in the original) and
     as scored for coverage;
  3. failed generations are dropped from every denominator as in the original (the same numbers as ``default``);
     only a note records them.
  Missing image-precision scores are excluded in both protocols: the authors' pooled lists hold only the scores
  that exist. Coverage reports the scores that exist (a NaN RAGAS result is one under m2rag-2025-02 only).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from ..schema import Judgment, Response
from .metrics import IMAGE_METRICS, LABELS, METRICS, RAGAS_METRICS, RECALL, TEXT_METRICS

COMPAT = "m2rag-2025-02"
PROTOCOLS = ("default", COMPAT)
NO_TOPIC = "(none)"
PER_RESPONSE = TEXT_METRICS + (RECALL,)


def _mean(values: list[float | None]) -> float | None:
    return None if any(v is None for v in values) or not values else float(sum(values) / len(values))


def _derived(means: dict[str, float | None]) -> dict[str, float | None]:
    return {"overall": _mean([means[m] for m in METRICS]), "text_avg": _mean([means[m] for m in TEXT_METRICS]),
            "mm_precision_avg": _mean([means[m] for m in IMAGE_METRICS])}


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def _is_nan(x: float | None) -> bool:
    return x is not None and math.isnan(x)


def _units(values: list[list[float]], macro: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per-response (sum, count) so that a mean over any response subset is Σsum / Σcount."""
    sums = np.array([(float(np.mean(v)) if macro else float(sum(v))) if v else 0.0 for v in values], dtype=float)
    counts = np.array([(1 if macro else len(v)) if v else 0 for v in values], dtype=float)
    return sums, counts


def _point(sums: np.ndarray, counts: np.ndarray) -> float | None:
    total = counts.sum()
    return float(100.0 * sums.sum() / total) if total > 0 else None


def _interval(samples: np.ndarray) -> list[float] | None:
    finite = samples[np.isfinite(samples)]
    return [float(x) for x in np.percentile(finite, [2.5, 97.5])] if finite.size else None


def _aggregation(units: dict[str, tuple[np.ndarray, np.ndarray]], idx: np.ndarray | None) -> dict:
    metrics, boots = {}, {}
    for m in METRICS:
        sums, counts = units[m]
        entry = {"mean": _point(sums, counts), "n": int(counts.sum()), "ci95": None}
        if idx is not None:
            with np.errstate(invalid="ignore", divide="ignore"):
                boots[m] = 100.0 * sums[idx].sum(axis=1) / counts[idx].sum(axis=1)
            entry["ci95"] = _interval(boots[m])
        metrics[m] = entry
    derived = _derived({m: metrics[m]["mean"] for m in METRICS})
    overall_ci = _interval(np.mean([boots[m] for m in METRICS], axis=0)) if idx is not None else None
    return {"metrics": metrics, "overall": {"mean": derived["overall"], "ci95": overall_ci},
            "text_avg": derived["text_avg"], "mm_precision_avg": derived["mm_precision_avg"]}


def aggregate(judgments: list[Judgment], responses: list[Response], *, protocol: str = "default",
              bootstrap: int = 1000, seed: int = 0) -> dict:
    """Aggregate one run's judgments over its latest ``responses``; see the module docstring for the layout."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; expected one of {', '.join(PROTOCOLS)}")
    if bootstrap < 0:
        raise ValueError("bootstrap must be >= 0")
    compat = protocol == COMPAT
    by_id: dict[str, Response] = {}
    for r in responses:
        if r.query_id in by_id:
            raise ValueError(f"two responses for query_id {r.query_id!r}; pass only the latest one per query")
        by_id[r.query_id] = r
    kept = [r for r in responses if r.error is None]
    failed = len(responses) - len(kept)
    pos = {r.query_id: i for i, r in enumerate(kept)}

    # Latest judgment per (query, metric, image); anything that does not fit an expected slot is ignored.
    latest: dict[tuple[str, str, int | None], Judgment] = {}
    ignored = superseded = 0
    topic_of: dict[str, str] = {}
    for j in judgments:
        r = by_id.get(j.query_id)
        image_ok = (j.image_index is not None and r is not None and 0 <= j.image_index < len(r.output_images)
                    if j.metric in IMAGE_METRICS else j.image_index is None)
        if j.metric not in METRICS or j.query_id not in pos or not image_ok:
            ignored += 1
            continue
        superseded += (j.query_id, j.metric, j.image_index) in latest
        latest[(j.query_id, j.metric, j.image_index)] = j
        if j.topic is not None:
            topic_of.setdefault(j.query_id, j.topic)

    values: dict[str, list[list[float]]] = {m: [[] for _ in kept] for m in METRICS}
    scored, expected, nan_ragas, zero_filled = Counter(), Counter(), Counter(), 0
    for i, r in enumerate(kept):
        slots = [(m, None) for m in PER_RESPONSE] + [(m, k) for m in IMAGE_METRICS for k in range(len(r.output_images))]
        for m, k in slots:
            expected[m] += 1
            j = latest.get((r.query_id, m, k))
            value = None if j is None else j.score
            if j is not None and value is None and m in RAGAS_METRICS and _is_nan(j.raw_score):
                nan_ragas[m] += 1
                value = 1.0 if compat else None
            if value is not None:
                scored[m] += 1
                values[m][i].append(float(value))
            elif compat and m in PER_RESPONSE:
                zero_filled += 1
                values[m][i].append(0.0)

    idx = None
    if bootstrap and kept:
        idx = np.random.default_rng(seed).integers(0, len(kept), size=(bootstrap, len(kept)))
    paper_units = {m: _units(values[m], macro=False) for m in METRICS}
    macro_units = {m: _units(values[m], macro=True) for m in METRICS}
    paper = _aggregation(paper_units, idx)
    macro = _aggregation(macro_units, idx)
    macro["responses_without_images"] = sum(1 for r in kept if not r.output_images)

    per_topic = {}
    topics = [topic_of.get(r.query_id, NO_TOPIC) for r in kept]
    for topic in sorted(set(topics)):
        sel = np.array([t == topic for t in topics])
        rows = {m: {"mean": _point(s[sel], c[sel]), "n": int(c[sel].sum())} for m, (s, c) in paper_units.items()}
        per_topic[topic] = {"responses": int(sel.sum()), "metrics": rows,
                            "overall": _derived({m: rows[m]["mean"] for m in METRICS})["overall"]}

    notes = []
    if failed and compat:
        notes.append(f"{failed} of {len(responses)} generations failed and were dropped from every denominator, "
                     f"as in the authors' evaluate.py ({COMPAT})")
    elif failed:
        notes.append(f"{failed} of {len(responses)} generations failed and are not scored (generation coverage "
                     f"{len(kept)}/{len(responses)}); compare systems only at equal generation coverage")
    if zero_filled:
        notes.append(f"{zero_filled} missing text/recall scores counted as 0.0 ({COMPAT})")
    if sum(nan_ragas.values()):
        how = f"counted as 1.0 ({COMPAT})" if compat else "treated as missing"
        notes.append(f"{sum(nan_ragas.values())} NaN RAGAS scores {how}")
    if ignored:
        notes.append(f"{ignored} judgments ignored: unknown metric, unknown or failed response, or bad image_index")
    if paper["overall"]["mean"] is None and kept:
        empty = [m for m in METRICS if paper["metrics"][m]["mean"] is None]
        notes.append(f"overall undefined: no scores for {', '.join(empty)}")
    other = sorted({j.protocol for j in judgments} - {protocol})
    if other:
        notes.append(f"judgments made under protocol {', '.join(other)} aggregated under {protocol}")

    return {
        "protocol": protocol,
        "smoke_test": any(j.smoke_test for j in judgments) or any(r.smoke_test for r in responses),
        "paper": paper,
        "macro": macro,
        "coverage": {"generation": _ratio(len(kept), len(responses)),
                     "metrics": {m: {"scored": scored[m], "expected": expected[m],
                                     "coverage": _ratio(scored[m], expected[m])} for m in METRICS}},
        "counts": {"responses": len(responses), "failed": failed,
                   "output_images": sum(len(r.output_images) for r in kept), "judgments": len(judgments),
                   "ignored_judgments": ignored, "superseded_judgments": superseded,
                   "missing": {m: expected[m] - scored[m] for m in METRICS},
                   "nan_ragas": {m: nan_ragas[m] for m in RAGAS_METRICS}},
        "per_topic": per_topic,
        "bootstrap": None if idx is None else {"iterations": bootstrap, "seed": seed, "unit": "response",
                                               "interval": "percentile 2.5-97.5"},
        "notes": notes,
    }


def table_rows(scores: dict, aggregation: str = "paper") -> list[tuple[str, str]]:
    """The paper's table row (Flu., Rel., CP., Faith., Coher., Help., Ref., Recall, Overall) as display strings."""
    block = scores[aggregation]

    def show(value: float | None) -> str:
        return "–" if value is None else f"{value:.1f}"

    rows = [(LABELS[m], show(block["metrics"][m]["mean"])) for m in METRICS]
    return rows + [("Overall", show(block["overall"]["mean"]))]
