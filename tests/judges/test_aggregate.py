"""Aggregation of judgments into scores.json: hand-computed paper / macro / compat numbers, coverage, bootstrap."""

from __future__ import annotations

import json

import pytest

from m2rag_bench.judges.aggregate import aggregate, table_rows
from m2rag_bench.judges.metrics import METRICS
from m2rag_bench.schema import Judgment, OutputImage, Response

NAN = float("nan")


def _response(qid: str, n_images: int, error: str | None = None) -> Response:
    images = [OutputImage(index=i, image_id=str(i + 1)) for i in range(n_images)]
    return Response(query_id=qid, strategy="single-stage", modality="llm", model="m", output_images=images,
                    error=error, response=None if error else "answer")


def _j(qid, metric, score, image_index=None, topic=None, **kw) -> Judgment:
    return Judgment(query_id=qid, metric=metric, score=score, image_index=image_index, topic=topic, **kw)


# q1: two output images (Health); q2: one image (Sports); q3: no image (no topic); q4: failed generation.
RESPONSES = [_response("q1", 2), _response("q2", 1), _response("q3", 0), _response("q4", 0, error="timeout")]


def _judgments() -> list[Judgment]:
    h, s = "Health", "Sports"
    return [
        _j("q1", "fluency", 0.2, topic=h),  # superseded by the later line below: the last judgment of a slot wins
        _j("q1", "fluency", 0.8, topic=h), _j("q1", "relevance", 0.9, topic=h),
        _j("q1", "context_precision", 0.5, topic=h), _j("q1", "faithfulness", 1.0, topic=h),
        _j("q1", "image_coherence", 0.6, 0, h), _j("q1", "image_coherence", 0.8, 1, h),
        _j("q1", "image_helpfulness", 0.4, 0, h),
        _j("q1", "image_helpfulness", None, 1, h, raw="looks fine", error="unparsable"),  # missing, not 0
        _j("q1", "image_reference", 1.0, 0, h), _j("q1", "image_reference", 0.5, 1, h),
        _j("q1", "image_recall", 0.5, topic=h),
        _j("q2", "fluency", 0.6, topic=s), _j("q2", "relevance", 0.7, topic=s),
        _j("q2", "context_precision", 0.25, topic=s),
        _j("q2", "faithfulness", None, topic=s, raw_score=NAN),  # RAGAS NaN: missing, or 1.0 under m2rag-2025-02
        _j("q2", "image_coherence", 0.3, 0, s), _j("q2", "image_helpfulness", 0.9, 0, s),
        _j("q2", "image_reference", 0.2, 0, s), _j("q2", "image_recall", 1.0, topic=s),
        _j("q3", "fluency", 1.0), _j("q3", "relevance", None, raw="I think it is good"),  # unparsable: missing
        _j("q3", "context_precision", 0.75), _j("q3", "faithfulness", 0.5), _j("q3", "image_recall", 0.0),
        _j("q4", "fluency", 0.1),  # stale judgment of the failed generation: ignored
    ]


def _means(block: dict) -> dict[str, float | None]:
    return {m: block["metrics"][m]["mean"] for m in METRICS}


def test_paper_aggregation_by_hand():
    out = aggregate(_judgments(), RESPONSES, bootstrap=0)
    assert out["protocol"] == "default"
    expected = {
        "fluency": (0.8 + 0.6 + 1.0) / 3 * 100,               # 80.0
        "relevance": (0.9 + 0.7) / 2 * 100,                   # 80.0: q3's unparsable score is left out, not 0
        "context_precision": (0.5 + 0.25 + 0.75) / 3 * 100,   # 50.0
        "faithfulness": (1.0 + 0.5) / 2 * 100,                # 75.0: q2's NaN is missing
        "image_coherence": (0.6 + 0.8 + 0.3) / 3 * 100,       # 56.67, pooled over 3 images
        "image_helpfulness": (0.4 + 0.9) / 2 * 100,           # 65.0, pooled over the 2 scored images
        "image_reference": (1.0 + 0.5 + 0.2) / 3 * 100,       # 56.67
        "image_recall": (0.5 + 1.0 + 0.0) / 3 * 100,          # 50.0
    }
    assert _means(out["paper"]) == pytest.approx(expected)
    assert out["paper"]["overall"]["mean"] == pytest.approx((80 + 80 + 50 + 75 + 170 / 3 + 65 + 170 / 3 + 50) / 8)
    assert out["paper"]["overall"]["mean"] == pytest.approx(1540 / 24)  # 64.1667
    assert out["paper"]["text_avg"] == pytest.approx((80 + 80 + 50 + 75) / 4)  # 71.25
    assert out["paper"]["mm_precision_avg"] == pytest.approx((170 / 3 + 65 + 170 / 3) / 3)  # 59.44
    n = {m: out["paper"]["metrics"][m]["n"] for m in METRICS}
    assert n == {"fluency": 3, "relevance": 2, "context_precision": 3, "faithfulness": 2, "image_coherence": 3,
                 "image_helpfulness": 2, "image_reference": 3, "image_recall": 3}
    assert out["paper"]["metrics"]["fluency"]["ci95"] is None and out["bootstrap"] is None


def test_macro_aggregation_by_hand():
    out = aggregate(_judgments(), RESPONSES, bootstrap=0)
    macro = _means(out["macro"])
    assert macro["image_coherence"] == pytest.approx(((0.6 + 0.8) / 2 + 0.3) / 2 * 100)   # 50.0
    assert macro["image_helpfulness"] == pytest.approx((0.4 + 0.9) / 2 * 100)            # 65.0 (q1: 1 scored)
    assert macro["image_reference"] == pytest.approx(((1.0 + 0.5) / 2 + 0.2) / 2 * 100)   # 47.5
    for m in ("fluency", "relevance", "context_precision", "faithfulness", "image_recall"):
        assert macro[m] == pytest.approx(_means(out["paper"])[m])
    assert out["macro"]["metrics"]["image_coherence"]["n"] == 2  # responses, not images
    assert out["macro"]["responses_without_images"] == 1
    assert out["macro"]["overall"]["mean"] == pytest.approx((80 + 80 + 50 + 75 + 50 + 65 + 47.5 + 50) / 8)  # 62.1875
    assert out["macro"]["mm_precision_avg"] == pytest.approx((50 + 65 + 47.5) / 3)


def test_coverage_and_counts_without_zeros():
    out = aggregate(_judgments(), RESPONSES, bootstrap=0)
    cov = out["coverage"]
    assert cov["generation"] == pytest.approx(3 / 4)
    assert cov["metrics"]["relevance"] == {"scored": 2, "expected": 3, "coverage": pytest.approx(2 / 3)}
    assert cov["metrics"]["image_helpfulness"] == {"scored": 2, "expected": 3, "coverage": pytest.approx(2 / 3)}
    assert cov["metrics"]["faithfulness"]["coverage"] == pytest.approx(2 / 3)
    assert cov["metrics"]["fluency"]["coverage"] == 1.0
    assert cov["metrics"]["image_coherence"] == {"scored": 3, "expected": 3, "coverage": 1.0}
    counts = out["counts"]
    assert counts["responses"] == 4 and counts["failed"] == 1 and counts["output_images"] == 3
    assert counts["judgments"] == 26 and counts["ignored_judgments"] == 1 and counts["superseded_judgments"] == 1
    assert counts["missing"] == {"fluency": 0, "relevance": 1, "context_precision": 0, "faithfulness": 1,
                                 "image_coherence": 0, "image_helpfulness": 1, "image_reference": 0,
                                 "image_recall": 0}
    assert counts["nan_ragas"] == {"context_precision": 0, "faithfulness": 1}
    # No zero was introduced: the relevance mean would be 53.3 had q3 counted as 0.
    assert out["paper"]["metrics"]["relevance"]["mean"] != pytest.approx((0.9 + 0.7 + 0.0) / 3 * 100)
    assert any("1 of 4 generations failed" in n for n in out["notes"])
    assert any("NaN RAGAS scores treated as missing" in n for n in out["notes"])
    assert out["smoke_test"] is False
    json.dumps(out, allow_nan=False)  # plain JSON: no NaN anywhere


def test_compat_protocol_differs_exactly_as_documented():
    default = aggregate(_judgments(), RESPONSES, bootstrap=0)
    compat = aggregate(_judgments(), RESPONSES, protocol="m2rag-2025-02", bootstrap=0)
    assert compat["protocol"] == "m2rag-2025-02"
    d, c = _means(default["paper"]), _means(compat["paper"])
    assert c["relevance"] == pytest.approx((0.9 + 0.7 + 0.0) / 3 * 100)      # 53.33: missing text score = 0.0
    assert c["faithfulness"] == pytest.approx((1.0 + 1.0 + 0.5) / 3 * 100)   # 83.33: NaN RAGAS = 1.0
    assert c["image_helpfulness"] == pytest.approx(65.0)                     # missing image score still excluded
    assert {m for m in METRICS if c[m] != pytest.approx(d[m])} == {"relevance", "faithfulness"}
    assert compat["paper"]["overall"]["mean"] == pytest.approx(
        (80 + 160 / 3 + 50 + 250 / 3 + 170 / 3 + 65 + 170 / 3 + 50) / 8)  # 61.875
    assert compat["paper"]["metrics"]["relevance"]["n"] == 3
    # Failed generations: same denominators in both; compat only notes them. Coverage reports what really exists.
    assert compat["coverage"]["generation"] == default["coverage"]["generation"] == pytest.approx(0.75)
    assert compat["coverage"]["metrics"]["relevance"]["coverage"] == pytest.approx(2 / 3)
    assert compat["coverage"]["metrics"]["faithfulness"]["coverage"] == 1.0  # the NaN counts as scored there
    notes = " | ".join(compat["notes"])
    assert "dropped from every denominator" in notes
    assert "1 missing text/recall scores counted as 0.0" in notes and "1 NaN RAGAS scores counted as 1.0" in notes
    assert _means(compat["macro"])["image_reference"] == pytest.approx(47.5)


def test_bootstrap_contains_point_and_is_deterministic():
    a = aggregate(_judgments(), RESPONSES, bootstrap=500, seed=3)
    b = aggregate(_judgments(), RESPONSES, bootstrap=500, seed=3)
    c = aggregate(_judgments(), RESPONSES, bootstrap=500, seed=4)
    assert a == b and a != c
    assert a["bootstrap"] == {"iterations": 500, "seed": 3, "unit": "response", "interval": "percentile 2.5-97.5"}
    for block in ("paper", "macro"):
        for m in METRICS:
            entry = a[block]["metrics"][m]
            lo, hi = entry["ci95"]
            assert lo <= entry["mean"] <= hi, (block, m)
        lo, hi = a[block]["overall"]["ci95"]
        assert lo <= a[block]["overall"]["mean"] <= hi
    # Resampling responses: fluency's per-response values are 80, 60 and 100, so the interval lies within them.
    lo, hi = a["paper"]["metrics"]["fluency"]["ci95"]
    assert 60.0 - 1e-9 <= lo < hi <= 100.0 + 1e-9


def test_per_topic_rows():
    topics = aggregate(_judgments(), RESPONSES, bootstrap=0)["per_topic"]
    assert set(topics) == {"Health", "Sports", "(none)"}
    health = topics["Health"]
    assert health["responses"] == 1
    assert health["metrics"]["image_coherence"] == {"mean": pytest.approx(70.0), "n": 2}
    assert health["metrics"]["image_helpfulness"] == {"mean": pytest.approx(40.0), "n": 1}
    assert health["overall"] == pytest.approx((80 + 90 + 50 + 100 + 70 + 40 + 75 + 50) / 8)  # 69.375
    assert topics["Sports"]["metrics"]["faithfulness"] == {"mean": None, "n": 0}
    assert topics["Sports"]["overall"] is None
    none = topics["(none)"]
    assert none["metrics"]["fluency"]["mean"] == pytest.approx(100.0)
    assert none["metrics"]["image_reference"] == {"mean": None, "n": 0}


def test_table_rows_and_missing_metrics():
    out = aggregate(_judgments(), RESPONSES, bootstrap=0)
    assert table_rows(out) == [("Flu.", "80.0"), ("Rel.", "80.0"), ("CP.", "50.0"), ("Faith.", "75.0"),
                               ("Coher.", "56.7"), ("Help.", "65.0"), ("Ref.", "56.7"), ("Recall", "50.0"),
                               ("Overall", "64.2")]
    assert table_rows(out, "macro")[4] == ("Coher.", "50.0")
    text_only = [j for j in _judgments() if j.metric == "fluency"]
    partial = aggregate(text_only, RESPONSES, bootstrap=20)
    rows = dict(table_rows(partial))
    assert rows["Flu."] == "80.0" and rows["Rel."] == "–" and rows["Overall"] == "–"
    assert partial["paper"]["overall"] == {"mean": None, "ci95": None}
    assert any(n.startswith("overall undefined") for n in partial["notes"])


def test_flags_and_errors():
    js = _judgments()
    js[0] = js[0].model_copy(update={"smoke_test": True})
    assert aggregate(js, RESPONSES, bootstrap=0)["smoke_test"] is True
    assert aggregate([], [], bootstrap=10)["coverage"]["generation"] is None
    with pytest.raises(ValueError, match="unknown protocol"):
        aggregate(js, RESPONSES, protocol="paper")
    with pytest.raises(ValueError, match="two responses"):
        aggregate(js, RESPONSES + [_response("q1", 0)])
    bad_index = [_j("q2", "image_coherence", 0.5, 7), _j("q1", "fluency", 0.5, 0), _j("q1", "bleu", 0.5)]
    assert aggregate(bad_index, RESPONSES, bootstrap=0)["counts"]["ignored_judgments"] == 3
