"""`m2rag-bench judge-agreement` on hand-written judgments and human labels, with Spearman values worked by hand."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from m2rag_bench.cli import main

# Two judges on the 0-10 scale. Rubric metrics carry raw_score (score = raw/10); faithfulness is RAGAS (0-1, compared
# as score x 10). A's q6 fluency is missing (score None) and B's q9 relevance has no partner: neither is matched.
JUDGE_A = ([("q1", "fluency", None, 2), ("q2", "fluency", None, 4), ("q3", "fluency", None, 6),
            ("q4", "fluency", None, 8), ("q5", "fluency", None, 10), ("q6", "fluency", None, None),
            ("q1", "relevance", None, 7), ("q2", "relevance", None, 5), ("q3", "relevance", None, 3),
            ("q4", "relevance", None, 9),
            ("q1", "image_coherence", 0, 9), ("q1", "image_coherence", 1, 3), ("q2", "image_coherence", 0, 6)],
           [("q1", 0.5), ("q2", 1.0), ("q3", 0.25)])
JUDGE_B = ([("q1", "fluency", None, 3), ("q2", "fluency", None, 1), ("q3", "fluency", None, 5),
            ("q4", "fluency", None, 9), ("q5", "fluency", None, 7), ("q6", "fluency", None, 4),
            ("q1", "relevance", None, 6), ("q2", "relevance", None, 6), ("q3", "relevance", None, 2),
            ("q4", "relevance", None, 8), ("q9", "relevance", None, 5),
            ("q1", "image_coherence", 0, 8), ("q1", "image_coherence", 1, 2), ("q2", "image_coherence", 0, 7)],
           [("q1", 0.6), ("q2", 0.9), ("q3", 0.1)])


def _write(path: Path, judge: tuple) -> Path:
    rubric, ragas = judge
    rows = [{"query_id": q, "metric": m, "image_index": i, "score": None if raw is None else raw / 10,
             "raw_score": raw, "judge_model": path.stem} for q, m, i, raw in rubric]
    rows += [{"query_id": q, "metric": "faithfulness", "score": s, "raw_score": s} for q, s in ragas]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _ranks(values: list[float]) -> list[float]:
    """Mid-ranks (1-based): tied values share the mean of the ranks they span."""
    order = sorted(values)
    return [order.index(v) + (order.count(v) + 1) / 2 for v in values]


def _spearman_by_hand(x: list[float], y: list[float]) -> float:
    """Pearson's r of the mid-ranks."""
    rx, ry = _ranks(x), _ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    return cov / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


def _run(*args: str):  # noqa: ANN202 - click.testing.Result
    result = CliRunner().invoke(main, ["judge-agreement", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def judgments(tmp_path: Path) -> tuple[Path, Path]:
    return _write(tmp_path / "judgments_a.jsonl", JUDGE_A), _write(tmp_path / "judgments_b.jsonl", JUDGE_B)


def test_two_judges_json(judgments: tuple[Path, Path]) -> None:
    result = _run(str(judgments[0]), str(judgments[1]), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    rows = out["metrics"]
    assert list(rows) == ["fluency", "relevance", "faithfulness", "image_coherence", "all"]  # the paper's order

    # fluency: A = 2,4,6,8,10 (ranks 1..5); B = 3,1,5,9,7 (ranks 2,1,3,5,4); d = -1,1,0,-1,1, Σd² = 4;
    # ρ = 1 - 6·4 / (5·(25-1)) = 0.8. Mean |Δ| = (1+3+1+1+3)/5 = 1.8. q6 is missing in A: not matched.
    assert rows["fluency"]["n"] == 5
    assert rows["fluency"]["spearman"] == pytest.approx(0.8)
    assert rows["fluency"]["mean_abs_diff"] == pytest.approx(1.8)
    # relevance: A = 7,5,3,9 (ranks 3,2,1,4); B = 6,6,2,8 (ties: ranks 2.5,2.5,1,4). Centred: dx = .5,-.5,-1.5,1.5,
    # dy = 0,0,-1.5,1.5; ρ = Σdxdy / √(Σdx²·Σdy²) = 4.5 / √(5·4.5) = √0.9.
    assert rows["relevance"]["n"] == 4
    assert rows["relevance"]["spearman"] == pytest.approx(math.sqrt(0.9))
    # faithfulness (RAGAS, ×10): A = 5,10,2.5 and B = 6,9,1, the same order: ρ = 1; mean |Δ| = (1+1+1.5)/3.
    assert rows["faithfulness"]["spearman"] == pytest.approx(1.0)
    assert rows["faithfulness"]["mean_abs_diff"] == pytest.approx(3.5 / 3)
    # image coherence matches per (query, image): A = 9,3,6 and B = 8,2,7, the same order: ρ = 1.
    assert rows["image_coherence"]["n"] == 3 and rows["image_coherence"]["spearman"] == pytest.approx(1.0)
    # all matched pairs, in the paper's metric order, then query and image
    x = [2, 4, 6, 8, 10, 7, 5, 3, 9, 5, 10, 2.5, 9, 3, 6]
    y = [3, 1, 5, 9, 7, 6, 6, 2, 8, 6, 9, 1, 8, 2, 7]
    assert rows["all"]["n"] == 15
    assert rows["all"]["spearman"] == pytest.approx(_spearman_by_hand(x, y))
    assert rows["all"]["mean_abs_diff"] == pytest.approx(sum(abs(a - b) for a, b in zip(x, y)) / 15)
    assert out["n_a"] == 15 and out["n_b"] == 17 and out["unmatched_a"] == 0 and out["unmatched_b"] == 2


def test_a_run_directory_stands_for_its_judgments(judgments: tuple[Path, Path], tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "judgments.jsonl").write_text(judgments[1].read_text())
    result = _run(str(judgments[0]), str(run), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["metrics"]["fluency"]["spearman"] == pytest.approx(0.8)


def test_judge_against_human_labels_csv(judgments: tuple[Path, Path], tmp_path: Path) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text("query_id,metric,image_index,score,annotator\n"
                      "q1,fluency,,1,ann1\nq2,fluency,,5,ann1\nq3,fluency,,4,ann1\nq4,fluency,,8,ann1\n"
                      "q5,fluency,,8,ann1\nq5,fluency,,10,ann2\n"          # two annotators: averaged to 9
                      "q1,image_coherence,1,2,ann1\nq1,image_coherence,0,7,ann1\n"
                      "q3,response_relevancy,,4,ann1\nq4,response_relevancy,,6,ann1\n")  # the authors' key
    result = _run(str(judgments[0]), str(labels), "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["metrics"]
    # fluency: judge 2,4,6,8,10 (ranks 1..5) vs humans 1,5,4,8,9 (ranks 1,3,2,4,5); d = 0,-1,1,0,0, Σd² = 2;
    # ρ = 1 - 6·2 / (5·24) = 0.9. Mean |Δ| = (1+1+2+0+1)/5 = 1.
    assert rows["fluency"]["n"] == 5 and rows["fluency"]["spearman"] == pytest.approx(0.9)
    assert rows["fluency"]["mean_abs_diff"] == pytest.approx(1.0)
    # relevance (as response_relevancy): judge 3,9 vs humans 4,6: same order, ρ = 1
    assert rows["relevance"]["n"] == 2 and rows["relevance"]["spearman"] == pytest.approx(1.0)
    assert rows["image_coherence"]["n"] == 2 and rows["image_coherence"]["spearman"] == pytest.approx(1.0)
    assert "faithfulness" not in rows  # no human label for it


def test_table_output(judgments: tuple[Path, Path]) -> None:
    result = _run(str(judgments[0]), str(judgments[1]))
    assert result.exit_code == 0, result.output
    assert "fluency" in result.stdout and "0.800" in result.stdout and "1.800" in result.stdout


@pytest.mark.parametrize("row, line, field", [
    ("q2,fluency,,eleven", 3, "score"),
    ("q2,fluency,,12", 3, "score"),
    ("q2,image_coherence,,5", 3, "image_index"),
    ("q2,bleu,,5", 3, "metric"),
])
def test_bad_labels_row_names_file_and_line(judgments: tuple[Path, Path], tmp_path: Path, row: str, line: int,
                                            field: str) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text(f"query_id,metric,image_index,score\nq1,fluency,,5\n{row}\nq3,fluency,,6\n")
    result = _run(str(judgments[0]), str(labels))
    assert result.exit_code == 1 and not result.stdout
    squashed = re.sub(r"\s+", "", result.stderr)  # rich may wrap the line anywhere on a narrow console
    assert f"error:{labels}:{line}:field'{field}'" in squashed, result.stderr
    assert "Traceback" not in result.output
