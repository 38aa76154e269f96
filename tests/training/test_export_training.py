"""`export-training` from two evaluated mini runs (single-stage and multi-stage) with a local judge server."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from m2rag_bench.cli_training import export_training
from m2rag_bench.schema import Judgment, Response
from tests.helpers.cli import run_cli
from tests.helpers.openai_server import OpenAIStub
from tests.judges.scripted_judge import RUBRIC_SCORES
from tests.strategies.scripted_model import ANSWER, prompt_text
from tests.strategies.scripted_model import reply as scripted

RULE = ("image_coherence", "image_helpfulness", "image_reference", "image_recall")
SINGLE_STAGE_CUE = "place it on a line of its own as"


def generator(request: dict) -> str:
    """Single-stage: per query, all candidates / empty / no images / one image. Multi-stage: place every image."""
    text = prompt_text(request)
    if "Decide where the image should go" in text:
        return "A helpful diagram\n1"
    if SINGLE_STAGE_CUE not in text:
        return scripted(request)
    question = text.split("Question: ", 1)[1]
    urls = list(dict.fromkeys(re.findall(r"\]\((images/\d+\.\w+)\)", text)))
    if "closest to the Sun" in question:  # mini-02: an empty answer -> failed generation
        return ""
    if "muscles hurt" in question:  # mini-03: no images
        return ANSWER
    if "caffeine" in question:  # mini-04: one image only -> low recall
        urls = urls[:1]
    body = "\n\n".join(f"Paragraph {k} about the diagram below.\n\n![figure {k}]({u})" for k, u in enumerate(urls))
    return "```markdown\n" + ANSWER + "\n\n" + body + "\n```"


def judge(request: dict) -> str:
    text = prompt_text(request)
    for cue, (metric, _) in RUBRIC_SCORES.items():
        if cue in text:
            if "store my password" in text and metric == "image_coherence":  # mini-06: unparsable -> missing
                return "A lovely picture, I would say."
            if "typing a website address" in text and metric in ("image_coherence", "image_helpfulness"):
                return json.dumps({"reason": "weak", "score": 5})  # mini-05: below on two metrics
            score = 7 if metric == "image_reference" else 9  # 7 -> 0.7: exactly at the threshold passes
            return json.dumps({"reason": f"scripted {metric}", "score": score})
    raise AssertionError("unexpected judge prompt: " + text[:200])


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    tmp = tmp_path_factory.mktemp("trainruns")
    out = []
    with OpenAIStub(["gen"], generator) as gen, OpenAIStub(["judge"], judge) as jud:
        for strategy in ("single-stage", "multi-stage"):
            run = tmp / strategy
            proc = run_cli(tmp, "run", "--backend", "openai", "--model", "gen", "--base-url", gen.base_url, "--limit",
                        "6", "--strategy", strategy, "--out", str(run), "--no-eval")
            assert proc.returncode == 0, proc.stderr[-3000:]
            proc = run_cli(tmp, "evaluate", str(run), "--judge", "judge", "--judge-base-url", jud.base_url,
                        "--metrics", ",".join(RULE), "--bootstrap", "10")
            assert proc.returncode == 0, proc.stderr[-3000:]
            out.append(run)
    return out


def _hand_count(run: Path, threshold: float = 0.7) -> dict[str, str]:
    """query_id -> bucket, recomputed from the run's files."""
    responses: dict[str, Response] = {}
    for line in (run / "responses.jsonl").read_text().splitlines():
        r = Response.model_validate_json(line)
        responses[r.query_id] = r
    scores: dict[tuple, list] = {}
    for line in (run / "judgments.jsonl").read_text().splitlines():
        j = Judgment.model_validate_json(line)
        scores.setdefault((j.query_id, j.metric), []).append(j.score)
    buckets = {}
    for qid, r in responses.items():
        if r.error:
            buckets[qid] = "failed generations"
        elif not r.output_images:
            buckets[qid] = "no images"
        elif any(None in scores.get((qid, m), [None]) for m in RULE):
            buckets[qid] = "missing judgments"
        elif any(sum(scores[(qid, m)]) / len(scores[(qid, m)]) < threshold - 1e-9 for m in RULE):
            buckets[qid] = "below threshold"
        else:
            buckets[qid] = "kept"
    return buckets


@pytest.fixture(scope="module")
def exported(runs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "train"
    result = CliRunner().invoke(export_training, ["--runs", str(runs[0]), str(runs[1]), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_report_counts_match_a_hand_count(runs: list[Path], exported: Path) -> None:
    report = json.loads((exported / "export_report.json").read_text())
    first, second = _hand_count(runs[0]), _hand_count(runs[1])
    assert first == {"mini-01": "kept", "mini-02": "failed generations", "mini-03": "no images",
                     "mini-04": "below threshold", "mini-05": "below threshold", "mini-06": "missing judgments"}
    assert second["mini-01"] == "kept" and second["mini-05"] == "below threshold"
    assert second["mini-06"] == "missing judgments"
    per_run = report["per_run"]
    for run, hand in ((runs[0], first), (runs[1], second)):
        counts = per_run[str(run)]
        expected = Counter(hand.values())
        if run == runs[1]:  # a query already kept from the first run is a duplicate here
            dup = sum(1 for q, b in hand.items() if b == "kept" and first[q] == "kept")
            expected["kept"] -= dup
            expected["duplicate queries"] += dup
        assert counts["responses read"] == 6
        for step in ("failed generations", "no images", "missing judgments", "below threshold", "kept",
                     "duplicate queries", "not rewritable"):
            assert counts[step] == expected[step], (run, step, counts)
    assert report["per_run"][str(runs[1])]["duplicate queries"] >= 1
    # per metric (run 1: mini-04 recall; mini-05 coherence and helpfulness)
    assert report["below_threshold_by_metric"]["image_recall"] >= 1
    assert report["below_threshold_by_metric"]["image_helpfulness"] >= 1
    assert report["below_threshold_by_metric"]["image_reference"] == 0  # 0.7 exactly passes
    total = report["counts"]
    assert total["responses read"] == 12
    assert sum(total[s] for s in total if s != "responses read") == 12
    kept = total["kept"]
    assert report["written"] == {"llm": kept, "mllm": kept} and kept >= 2
    assert "excluded" in report["rule"] and "0.7" in report["rule"]


def test_imageless_answers_are_an_explicit_choice(runs: list[Path], tmp_path: Path) -> None:
    result = CliRunner().invoke(export_training, ["--runs", str(runs[0]), "--out", str(tmp_path / "t"),
                                                  "--keep-imageless", "--modality", "llm"])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "t" / "export_report.json").read_text())
    # mini-03 is no longer dropped as imageless: it is judged on image recall alone, and fails it (0 of 3 used)
    assert report["counts"]["no images"] == 0 and report["counts"]["below threshold"] == 3
    assert report["counts"]["kept"] == 1 and report["written"] == {"llm": 1}
    assert not (tmp_path / "t" / "m2rag_mllm.json").exists()


def _check_sharegpt(out: Path, modality: str) -> list[dict]:
    info = json.loads((out / "dataset_info.json").read_text())
    name = {"llm": "M2RAG-LLM", "mllm": "M2RAG-MLLM"}[modality]
    entry = info[name]
    assert entry["formatting"] == "sharegpt"
    assert entry["tags"] == {"role_tag": "role", "content_tag": "content", "user_tag": "user",
                             "assistant_tag": "assistant"}
    assert entry["columns"]["messages"] == "messages"
    records = json.loads((out / entry["file_name"]).read_text())
    assert isinstance(records, list) and records
    for rec in records:
        roles = [m[entry["tags"]["role_tag"]] for m in rec["messages"]]
        assert roles == ["user", "assistant"] * (len(roles) // 2) and len(roles) % 2 == 0
        assert all(isinstance(m["content"], str) and m["content"] for m in rec["messages"])
        tokens = sum(m["content"].count("<image>") for m in rec["messages"])
        if modality == "mllm":
            assert entry["columns"]["images"] == "images"
            assert tokens == len(rec["images"]) > 0
            for path in rec["images"]:
                assert not Path(path).is_absolute() and (out / path).is_file()
        else:
            assert "images" not in entry["columns"] and tokens == 0
    return records


def test_sharegpt_files_follow_llama_factory_schema(exported: Path) -> None:
    llm = _check_sharegpt(exported, "llm")
    mllm = _check_sharegpt(exported, "mllm")
    assert {r["id"] for r in llm} == {r["id"] for r in mllm}
    rec = next(r for r in llm if r["id"] == "mini-01")
    user, assistant = rec["messages"][0]["content"], rec["messages"][1]["content"]
    assert "Question: Why is the sky blue" in user and "![" in user and "](images/0." in user
    assert assistant.startswith("```markdown\n") and "](images/0." in assistant
    # every pseudo URL the target uses is a candidate shown in the input
    for url in re.findall(r"\]\((images/\d+\.\w+)\)", assistant):
        assert f"]({url})" in user
    readme = (exported / "README.md").read_text()
    assert "lora_rank: 128" in readme and "lora_alpha: 256" in readme and "M2RAG-MLLM" in readme


def test_multi_stage_targets_use_the_single_stage_numbering(runs: list[Path], exported: Path) -> None:
    raw = [json.loads(x) for x in (exported / "data" / "mllm" / "raw.jsonl").read_text().splitlines()]
    responses = {}
    for line in (runs[1] / "responses.jsonl").read_text().splitlines():
        r = Response.model_validate_json(line)
        responses[r.query_id] = r
    from_multi = [r for r in raw if r["model_response"] == (responses[r["id"]].response or "").strip()]
    assert from_multi, "some pairs come from the multi-stage run"
    for row in from_multi:
        r = responses[row["id"]]
        for out in r.output_images:
            url = re.search(rf"\]\((images/{out.index}\.\w+)\)", r.response).group(1)
            assert f"![<image>]({url})" in row["model_input"]
        assert row["model_input"].count("<image>") == len(row["images"])
        assert all(p.startswith("ELI5/training_set/query-") for p in row["images"])
        assert all((exported / "images" / p).is_file() for p in row["images"])


def test_release_layout_builds_the_train_config(exported: Path, tmp_path: Path) -> None:
    import datasets
    from m2rag_bench.data.export import build_dataset

    result = build_dataset(exported, tmp_path / "hub", ["train"])
    kept = json.loads((exported / "export_report.json").read_text())["counts"]["kept"]
    assert result.configs["train"]["train"] == 2 * kept
    assert not result.reports["train"].problems
    ds = datasets.load_dataset(str(tmp_path / "hub"), "train", split="train")
    rows = [r for r in ds if r["modality"] == "mllm"]
    assert rows and all(len(r["images"]) == r["model_input"].count("<image>") > 0 for r in rows)
    assert all(hasattr(img, "size") for r in rows for img in r["images"])  # decoded PIL images
    assert {r["modality"] for r in ds} == {"llm", "mllm"}


def test_export_refuses_unevaluated_or_foreign_dirs(runs: list[Path], tmp_path: Path) -> None:
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x.txt").write_text("mine")
    result = CliRunner().invoke(export_training, ["--runs", str(runs[0]), "--out", str(tmp_path / "busy")])
    assert result.exit_code != 0 and "not empty" in result.output
    bare = tmp_path / "bare"
    bare.mkdir()
    for name in ("config.json", "responses.jsonl"):
        (bare / name).write_bytes((runs[0] / name).read_bytes())
    result = CliRunner().invoke(export_training, ["--runs", str(bare), "--out", str(tmp_path / "o")])
    assert result.exit_code != 0 and "evaluate it first" in result.output
