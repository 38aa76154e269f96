"""Agreement between judges, or between a judge and human labels (reference §7.1, the Table 1 protocol).

Spearman's ρ comes from ``scipy.stats.spearmanr`` and Krippendorff's α from the ``krippendorff`` package; both are
tested against textbook values. Comparisons run on the judges' raw 0–10 scale: a rubric metric's ``raw_score``
(clipped to 0–10) when the judgment has a score, otherwise ``score × 10`` (so a RAGAS 0–1 result is rescaled).
Judgments without a ``score`` are missing and take no part. Undefined statistics (fewer than 2 items, constant
input) are ``None`` in :func:`compare_judgments` and NaN in :func:`spearman` / :func:`krippendorff_alpha`.
"""

from __future__ import annotations

import csv
import json
import math
from collections import defaultdict
from pathlib import Path

import numpy as np

from ..schema import Judgment
from .metrics import IMAGE_METRICS, METRICS, RUBRIC_METRICS

Key = tuple[str, str, int | None]
LEVELS = ("interval", "ordinal", "nominal", "ratio")
ALIASES = {"response_relevancy": "relevance"}  # the authors' metric key


def spearman(a, b) -> tuple[float, float]:
    """Spearman's ρ and its two-sided p-value over the pairs where neither value is NaN (ties get mid-ranks)."""
    from scipy.stats import spearmanr

    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"spearman needs two 1-D sequences of equal length, got shapes {x.shape} and {y.shape}")
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return math.nan, math.nan
    result = spearmanr(x, y)
    return float(result.statistic), float(result.pvalue)


def krippendorff_alpha(ratings, level: str = "interval") -> float:
    """Krippendorff's α of a units × raters matrix (NaN = missing); NaN when fewer than 2 distinct pairable values."""
    import krippendorff

    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    data = np.asarray(ratings, dtype=float)
    if data.ndim != 2:
        raise ValueError(f"ratings must be a units x raters matrix, got shape {data.shape}")
    pairable = data[(~np.isnan(data)).sum(axis=1) >= 2]
    if np.unique(pairable[~np.isnan(pairable)]).size < 2:
        return math.nan
    return float(krippendorff.alpha(reliability_data=data.T, level_of_measurement=level))


def _key(j: Judgment) -> Key:
    return (j.query_id, j.metric, j.image_index)


def _on_ten(j: Judgment) -> float | None:
    if j.score is None:
        return None
    if j.metric in RUBRIC_METRICS and j.raw_score is not None and math.isfinite(j.raw_score):
        return min(10.0, max(0.0, float(j.raw_score)))
    return round(j.score * 10, 9)  # round so that 0.7 × 10 is the same ordinal category as 7


def _values(items: list[Judgment]) -> dict[Key, float]:
    """0–10 value per key; repeated judgments of one key (e.g. the paper's 3 MLLM runs) are averaged."""
    groups: dict[Key, list[float]] = defaultdict(list)
    for j in items:
        v = _on_ten(j)
        if v is not None:
            groups[_key(j)].append(v)
    return {k: float(np.mean(v)) for k, v in groups.items()}


def _none(x: float) -> float | None:
    return None if math.isnan(x) else x


def _row(x: list[float], y: list[float]) -> dict:
    rho, p = spearman(x, y) if x else (math.nan, math.nan)
    pair = np.column_stack([x, y]) if x else np.empty((0, 2))
    alpha = {lv: _none(krippendorff_alpha(pair, lv)) if x else None for lv in ("interval", "ordinal")}
    return {"n": len(x), "spearman": _none(rho), "spearman_p": _none(p), "alpha_interval": alpha["interval"],
            "alpha_ordinal": alpha["ordinal"], "mean_abs_diff": float(np.mean(np.abs(pair[:, 0] - pair[:, 1])))
            if x else None}


def compare_judgments(a: list[Judgment], b: list[Judgment] | dict[Key, float]) -> dict:
    """Agreement of ``a`` with ``b`` (another judge, or human labels from :func:`load_human_labels`) per metric.

    Returns ``{"metrics": {metric | "all": {"n", "spearman", "spearman_p", "alpha_interval", "alpha_ordinal",
    "mean_abs_diff"}}, "n_a", "n_b", "unmatched_a", "unmatched_b"}``; items match on (query_id, metric,
    image_index) and everything is on the 0–10 scale.
    """
    va = _values(a)
    vb = dict(b) if isinstance(b, dict) else _values(b)
    order = {m: i for i, m in enumerate(METRICS)}
    keys = sorted(set(va) & set(vb),
                  key=lambda k: (order.get(k[1], len(order)), k[1], k[0], -1 if k[2] is None else k[2]))
    rows = {}
    for metric in dict.fromkeys(k[1] for k in keys):
        sel = [k for k in keys if k[1] == metric]
        rows[metric] = _row([va[k] for k in sel], [vb[k] for k in sel])
    rows["all"] = _row([va[k] for k in keys], [vb[k] for k in keys])
    return {"metrics": rows, "n_a": len(va), "n_b": len(vb),
            "unmatched_a": len(va) - len(keys), "unmatched_b": len(vb) - len(keys)}


def _rows(path: Path):
    """(line number, dict) for each data row of a CSV (header = line 1) or JSONL file."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".jsonl", ".ndjson"):
        raise ValueError(f"{path}: expected a .csv or .jsonl file")
    with path.open(newline="", encoding="utf-8-sig") as f:  # -sig: spreadsheets write a BOM
        if suffix == ".csv":
            reader = csv.DictReader(f)
            missing = {"query_id", "metric", "score"} - set(reader.fieldnames or [])
            if missing:
                raise ValueError(f"{path}:1: missing column(s) {', '.join(sorted(missing))}")
            for row in reader:
                yield reader.line_num, row
        else:
            for n, line in enumerate(f, 1):
                if line.strip():
                    try:
                        row = json.loads(line)
                    except json.JSONDecodeError as e:
                        raise ValueError(f"{path}:{n}: not valid JSON ({e.msg})") from None
                    if not isinstance(row, dict):
                        raise ValueError(f"{path}:{n}: expected a JSON object")
                    yield n, row


def load_human_labels(path: str | Path) -> dict[Key, float]:
    """Read human scores (0–10) keyed like judgments: columns ``query_id, metric, image_index, score``.

    ``image_index`` is required for the image metrics and must be empty for the others. With an optional
    ``annotator`` column the labels of one key are averaged over annotators; otherwise a repeated key is an error.
    """
    path = Path(path)
    labels: dict[Key, list[float]] = defaultdict(list)
    seen: dict[tuple, int] = {}
    for n, row in _rows(path):
        def bad(field: str, why: str) -> ValueError:
            return ValueError(f"{path}:{n}: field {field!r}: {why} (got {row.get(field)!r})")

        qid = str(row.get("query_id") or "").strip()
        if not qid:
            raise bad("query_id", "empty")
        metric = ALIASES.get(str(row.get("metric") or "").strip(), str(row.get("metric") or "").strip())
        if metric not in METRICS:
            raise bad("metric", f"unknown metric; expected one of {', '.join(METRICS)}")
        raw_index = row.get("image_index")
        image_index = None
        if raw_index not in (None, ""):
            try:
                image_index = int(str(raw_index).strip())
            except (TypeError, ValueError):
                raise bad("image_index", "not an integer") from None
            if image_index < 0 or metric not in IMAGE_METRICS:
                raise bad("image_index", "must be >= 0, and set only for the image metrics")
        elif metric in IMAGE_METRICS:
            raise bad("image_index", f"required for {metric}")
        try:
            score = float(row.get("score"))
        except (TypeError, ValueError):
            raise bad("score", "not a number") from None
        if not 0 <= score <= 10:  # also rejects NaN
            raise bad("score", "outside 0-10")
        key = (qid, metric, image_index)
        dup = (key, str(row.get("annotator") or "")) if "annotator" in row else key
        if dup in seen:
            raise ValueError(f"{path}:{n}: duplicate label for {key} (first on line {seen[dup]})")
        seen[dup] = n
        labels[key].append(score)
    return {k: float(np.mean(v)) for k, v in labels.items()}
