"""Agreement statistics against textbook values, judgment matching, and human-label loading."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from m2rag_bench.judges.agreement import compare_judgments, krippendorff_alpha, load_human_labels, spearman
from m2rag_bench.schema import Judgment

NAN = float("nan")

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers (A-D) x 12 units,
# values 1-5, missing values as NaN. Published: nominal α = 0.743, ordinal α = 0.815, interval α = 0.849,
# ratio α = 0.797. The krippendorff package reproduces all of them; the table is observers x units, so transpose.
KRIPPENDORFF_2011 = np.array([
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
]).T


@pytest.mark.parametrize("level, published", [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849),
                                              ("ratio", 0.797)])
def test_krippendorff_2011_example(level, published):
    assert krippendorff_alpha(KRIPPENDORFF_2011, level) == pytest.approx(published, abs=5e-4)


def test_krippendorff_hand_computed_interval():
    # Units (1,1), (2,3), (3,3); n = 6 pairable values 1,1,2,3,3,3.
    # D_o = (1/n) Σ_u 1/(m_u-1) Σ_ordered pairs (c-k)² = (0 + 2·1² + 0) / 6 = 1/3
    # D_e = Σ_ordered pairs over all values (c-k)² / (n(n-1))
    #     = 2·(1s–2: 2·1 + 1s–3s: 6·4 + 2–3s: 3·1) / 30 = 58/30
    # α = 1 - D_o/D_e = 1 - (1/3)/(29/15) = 24/29
    assert krippendorff_alpha([[1, 1], [2, 3], [3, 3]], "interval") == pytest.approx(24 / 29)
    assert krippendorff_alpha([[1, 1], [2, 2], [3, 3]], "ordinal") == pytest.approx(1.0)


def test_krippendorff_degenerate_and_errors():
    assert math.isnan(krippendorff_alpha([[5, 5], [5, 5]]))          # one value only: undefined
    assert math.isnan(krippendorff_alpha([[1, NAN], [NAN, 2]]))      # nothing pairable
    with pytest.raises(ValueError, match="unknown level"):
        krippendorff_alpha([[1, 2]], "cardinal")
    with pytest.raises(ValueError, match="units x raters"):
        krippendorff_alpha([1, 2, 3])


def test_spearman_hand_ranked():
    # No ties: d = (-1, 1, -1, 1, 0), Σd² = 4, ρ = 1 - 6·4 / (5·(25-1)) = 0.8
    rho, p = spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])
    assert rho == pytest.approx(0.8) and 0 < p < 1
    # Ties get mid-ranks: x → (1, 2.5, 2.5, 4), y → (1, 3, 2, 4); centred dx = (-1.5, 0, 0, 1.5),
    # dy = (-1.5, .5, -.5, 1.5); ρ = Σdxdy / √(Σdx² Σdy²) = 4.5 / √(4.5 · 5) = √0.9
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4])[0] == pytest.approx(math.sqrt(0.9))
    # Pairs with a NaN are dropped; reversed order gives -1.
    assert spearman([1, 2, NAN, 3], [3, 2, 9, 1])[0] == pytest.approx(-1.0)
    assert all(math.isnan(v) for v in spearman([1, 1, 1], [1, 2, 3]))
    with pytest.raises(ValueError):
        spearman([1, 2], [1, 2, 3])


def _j(qid, metric, score, raw_score=None, image_index=None):
    return Judgment(query_id=qid, metric=metric, score=score, raw_score=raw_score, image_index=image_index)


def test_compare_judgments_against_humans():
    judge = [
        _j("q1", "fluency", 0.8, 8), _j("q2", "fluency", 0.6, 6), _j("q3", "fluency", 0.9, 9),
        _j("q4", "fluency", None, None),                                   # missing: not matched
        _j("q1", "faithfulness", 0.5, 0.5), _j("q2", "faithfulness", 1.0, 1.0),  # RAGAS: score × 10
        _j("q1", "image_coherence", 0.7, 7, 0), _j("q1", "image_coherence", 0.3, 3, 1),
        _j("q1", "image_coherence", 0.5, 5, 1),                            # a repeat: averaged with the 3 → 4
        _j("q9", "relevance", 0.5, 5),                                     # no human label
    ]
    humans = {("q1", "fluency", None): 7.0, ("q2", "fluency", None): 5.0, ("q3", "fluency", None): 10.0,
              ("q4", "fluency", None): 4.0, ("q1", "faithfulness", None): 6.0, ("q2", "faithfulness", None): 9.0,
              ("q1", "image_coherence", 0): 8.0, ("q1", "image_coherence", 1): 2.0}
    out = compare_judgments(judge, humans)
    flu = out["metrics"]["fluency"]
    assert flu["n"] == 3
    assert flu["spearman"] == pytest.approx(1.0)                           # same order 6 < 8 < 9 vs 5 < 7 < 10
    assert flu["mean_abs_diff"] == pytest.approx((1 + 1 + 1) / 3)
    assert -1 <= flu["alpha_interval"] <= 1 and flu["alpha_ordinal"] == pytest.approx(
        krippendorff_alpha([[8, 7], [6, 5], [9, 10]], "ordinal"))
    assert out["metrics"]["faithfulness"]["mean_abs_diff"] == pytest.approx((abs(5 - 6) + abs(10 - 9)) / 2)
    assert out["metrics"]["image_coherence"]["mean_abs_diff"] == pytest.approx((abs(7 - 8) + abs(4 - 2)) / 2)
    assert list(out["metrics"]) == ["fluency", "faithfulness", "image_coherence", "all"]
    everything = out["metrics"]["all"]
    x, y = [8, 6, 9, 5, 10, 7, 4], [7, 5, 10, 6, 9, 8, 2]  # fluency, faithfulness, coherence in that order
    assert everything["n"] == 7
    assert everything["spearman"] == pytest.approx(spearman(x, y)[0])
    assert everything["alpha_interval"] == pytest.approx(krippendorff_alpha(np.column_stack([x, y]), "interval"))
    assert out["unmatched_a"] == 1 and out["unmatched_b"] == 1 and out["n_a"] == 8 and out["n_b"] == 8
    json.dumps(out, allow_nan=False)


def test_compare_two_judges_identical_and_degenerate():
    a = [_j(f"q{i}", "relevance", s / 10, s) for i, s in enumerate([2, 5, 7, 9])]
    same = compare_judgments(a, list(a))["metrics"]["relevance"]
    assert same["spearman"] == pytest.approx(1.0) and same["alpha_interval"] == pytest.approx(1.0)
    assert same["alpha_ordinal"] == pytest.approx(1.0) and same["mean_abs_diff"] == 0
    one = compare_judgments(a[:1], a[:1])["metrics"]["relevance"]
    assert one["n"] == 1 and one["spearman"] is None and one["alpha_interval"] is None
    assert compare_judgments(a, {})["metrics"] == {"all": {"n": 0, "spearman": None, "spearman_p": None,
                                                             "alpha_interval": None, "alpha_ordinal": None,
                                                             "mean_abs_diff": None}}


def test_load_human_labels_csv_and_jsonl(tmp_path):
    csv_path = tmp_path / "labels.csv"
    csv_path.write_text("\ufeffquery_id,metric,image_index,score\nq1,fluency,,7\nq1,image_coherence,0,8.5\n"
                        "q2,response_relevancy,,3\n")
    assert load_human_labels(csv_path) == {("q1", "fluency", None): 7.0, ("q1", "image_coherence", 0): 8.5,
                                           ("q2", "relevance", None): 3.0}
    jsonl = tmp_path / "labels.jsonl"
    rows = [{"query_id": "q1", "metric": "fluency", "score": 6, "annotator": "a"},
            {"query_id": "q1", "metric": "fluency", "score": 8, "annotator": "b"},
            {"query_id": "q1", "metric": "image_reference", "image_index": 1, "score": 0, "annotator": "a"}]
    jsonl.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    assert load_human_labels(jsonl) == {("q1", "fluency", None): 7.0, ("q1", "image_reference", 1): 0.0}


@pytest.mark.parametrize("body, line, field", [
    ("q1,fluency,,11\n", 2, "score"),
    ("q1,fluency,,high\n", 2, "score"),
    ("q1,fluency,,nan\n", 2, "score"),
    ("q1,fluency,,5\nq2,bleu,,5\n", 3, "metric"),
    ("q1,image_helpfulness,,5\n", 2, "image_index"),
    ("q1,fluency,0,5\n", 2, "image_index"),
    ("q1,image_helpfulness,x,5\n", 2, "image_index"),
    (",fluency,,5\n", 2, "query_id"),
])
def test_load_human_labels_errors_name_file_line_field(tmp_path, body, line, field):
    path = tmp_path / "bad.csv"
    path.write_text("query_id,metric,image_index,score\n" + body)
    with pytest.raises(ValueError) as err:
        load_human_labels(path)
    assert f"{path}:{line}: field {field!r}" in str(err.value)


def test_load_human_labels_structural_errors(tmp_path):
    dup = tmp_path / "dup.csv"
    dup.write_text("query_id,metric,score\nq1,fluency,5\nq1,fluency,6\n")
    with pytest.raises(ValueError, match=r"dup.csv:3: duplicate label .* \(first on line 2\)"):
        load_human_labels(dup)
    header = tmp_path / "header.csv"
    header.write_text("query,metric,score\nq1,fluency,5\n")
    with pytest.raises(ValueError, match=r"header.csv:1: missing column\(s\) query_id"):
        load_human_labels(header)
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"query_id": "q1", "metric": "fluency", "score": 5}\n{oops\n')
    with pytest.raises(ValueError, match=r"broken.jsonl:2: not valid JSON"):
        load_human_labels(broken)
    with pytest.raises(ValueError, match=r"expected a .csv or .jsonl"):
        load_human_labels(tmp_path / "labels.xlsx")
