"""The eight `evaluate` modules: loaded offline by path, computed against the scripted judge on a local server."""

from __future__ import annotations

import ast
import base64
import io
import re
import sys
from pathlib import Path

import pytest
from PIL import Image

import m2rag_bench.evaluate_modules as m2
from m2rag_bench.judges.metrics import IMAGE_METRICS, METRICS, RAGAS_METRICS
from m2rag_bench.schema import PLACEHOLDER
from tests.helpers.openai_server import OpenAIStub
from tests.judges.scripted_judge import RUBRIC_SCORES, make_judge

SCORE = {metric: value / 10 for metric, value in RUBRIC_SCORES.values()}
CLASSES = {"fluency": "M2ragFluency", "relevance": "M2ragRelevance", "context_precision": "M2ragContextPrecision",
           "faithfulness": "M2ragFaithfulness", "image_coherence": "M2ragImageCoherence",
           "image_helpfulness": "M2ragImageHelpfulness", "image_reference": "M2ragImageReference",
           "image_recall": "M2ragImageRecall"}
ANSWERS = ["## Tides\n\nThe Moon pulls the oceans into two bulges.\n\n![Two bulges](images/3.png)\n\nSo two high "
           "tides a day.", "Rayleigh scattering: short wavelengths scatter most.\n\n<IMAGE_PLACEHOLDER>\n"]
QUESTIONS = ["Why are there two high tides a day?", "Why is the sky blue?"]


@pytest.fixture(scope="module")
def evaluate(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - the evaluate package
    """``evaluate`` with every cache (modules, metric arrow files) in a throwaway folder, offline."""
    home = tmp_path_factory.mktemp("hf-evaluate")
    with pytest.MonkeyPatch.context() as mp:
        env = {"HF_HOME": home, "HF_MODULES_CACHE": home / "modules", "HF_METRICS_CACHE": home / "metrics",
               "HF_EVALUATE_CACHE": home / "evaluate"}
        for name, value in env.items():
            mp.setenv(name, str(value))
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("HF_EVALUATE_OFFLINE", "1")
        import evaluate

        # evaluate reads these at import time; it may have been imported already (lm-eval), so set them too
        for name, value in env.items():
            if name != "HF_HOME":
                mp.setattr(evaluate.config, name, Path(value))
        mp.setattr(evaluate.config, "HF_EVALUATE_OFFLINE", True)
        # loaded modules are imported as the package ``evaluate_modules`` found under HF_MODULES_CACHE
        for name in [n for n in sys.modules if n == "evaluate_modules" or n.startswith("evaluate_modules.")]:
            mp.delitem(sys.modules, name)
        yield evaluate


@pytest.fixture(scope="module")
def server():  # noqa: ANN201 - OpenAIStub
    with OpenAIStub(["judge"], make_judge()) as srv:
        yield srv


@pytest.fixture
def judge(server: OpenAIStub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """Judge options for ``compute``: the scripted judge, with a fresh call cache."""
    monkeypatch.setenv("M2RAG_BENCH_CACHE", str(tmp_path / "calls"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server.responder = make_judge()
    server.reset()
    return {"judge_model": "judge", "judge_base_url": server.base_url}


def _png(color: str, size: tuple[int, int] = (8, 6)) -> Image.Image:
    return Image.new("RGB", size, color)


def _texts(server: OpenAIStub) -> list[str]:
    return ["\n".join(p if isinstance(p, str) else p.get("text", "") for m in r["messages"]
                      for p in ([m["content"]] if isinstance(m["content"], str) else m["content"]))
            for r in server.requests]


def _image_urls(server: OpenAIStub) -> list[str]:
    return [p["image_url"]["url"] for r in server.requests for m in r["messages"] if isinstance(m["content"], list)
            for p in m["content"] if p.get("type") == "image_url"]


# -- files, cards, loading -------------------------------------------------------------------------------------------


def test_every_metric_has_a_module_file_and_a_card() -> None:
    for metric in METRICS:
        path = Path(m2.path(metric))
        assert path.is_file() and path.name == f"m2rag_{metric}.py" and path.parent.name == f"m2rag_{metric}"
        source = path.read_text()
        assert f"class {CLASSES[metric]}(m2.M2ragMetric)" in source and len(source.splitlines()) < 60
        assert not re.search(r"^from \.|^import \.", source, re.M)  # evaluate imports the copy standalone
        card = (path.parent / "README.md").read_text()
        assert f'evaluate.load(m2rag_bench.evaluate_modules.path("{metric}"))' in card
        for section in ("## Metric Description", "### Inputs", "### Output Values", "## Citation", "2411.16365"):
            assert section in card, (metric, section)
    with pytest.raises(ValueError, match="unknown metric 'bleu'"):
        m2.path("bleu")


def test_path_does_not_import_evaluate() -> None:
    import subprocess

    code = ("import sys, m2rag_bench.evaluate_modules as m2; m2.path('fluency'); "
            "assert 'evaluate' not in sys.modules, 'evaluate imported'")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_all_eight_load_offline_with_info(evaluate) -> None:  # noqa: ANN001
    for metric in METRICS:
        module = evaluate.load(m2.path(metric))
        assert type(module).__name__ == CLASSES[metric] and module.name == f"m2rag_{metric}"
        info = module.info
        assert "arXiv:2411.16365" in info.citation and "@article{ma2024m2rag" in info.citation
        assert info.description.strip() and "Examples:" in info.inputs_description
        assert f'm2.path("{metric}")' in info.inputs_description
        expected = {"predictions", "references"} | ({"contexts"} if metric in RAGAS_METRICS else set()) | (
            {"images"} if metric in IMAGE_METRICS else set())
        assert set(module.features) == expected
    by_dir = evaluate.load(str(Path(m2.path("image_recall")).parent))  # the directory form works too
    assert type(by_dir).__name__ == "M2ragImageRecall"
    described = evaluate.load(m2.path("image_reference"), "descriptions")
    assert str(described.features["images"].feature.dtype) == "string"
    with pytest.raises(ValueError, match="unknown configuration 'descriptions' of m2rag_fluency"):
        evaluate.load(m2.path("fluency"), "descriptions")


# -- image recall: no judge ------------------------------------------------------------------------------------------


def test_image_recall(evaluate) -> None:  # noqa: ANN001
    recall = evaluate.load(m2.path("image_recall"))
    out = recall.compute(predictions=[["0/1", "aux-3"], [], ["2/4"], ["0/1", "0/1", "1/2"]],
                         references=[["0/1", "1/2"], ["0/1"], [], ["0/1", "1/2", "3/1"]])
    assert out["scores"] == pytest.approx([0.5, 0.0, 1.0, 2 / 3])  # no positives: 1.0, as in the paper
    assert out["image_recall"] == pytest.approx((0.5 + 0 + 1 + 2 / 3) / 4)
    assert out["coverage"] == 1.0 and out["judge_model"] is None
    assert recall.compute(predictions=[], references=[])["image_recall"] is None


def test_image_recall_card_example_runs_as_shown(evaluate) -> None:  # noqa: ANN001
    card = (Path(m2.path("image_recall")).parent / "README.md").read_text()
    code = re.search(r"## How to Use\n\n```python\n(.*?)```", card, re.S).group(1)
    shown = re.search(r"Example output:\n\n```python\n(.*?)```", card, re.S).group(1)
    tree = ast.parse(code)
    namespace: dict = {}
    exec(compile(ast.Module(tree.body[:-1], []), "README", "exec"), namespace)  # noqa: S102
    result = eval(compile(ast.Expression(tree.body[-1].value), "README", "eval"), namespace)  # noqa: S307
    assert result == ast.literal_eval(shown.strip())


# -- rubric metrics against the scripted judge -----------------------------------------------------------------------


def test_fluency_and_relevance(evaluate, server: OpenAIStub, judge: dict) -> None:  # noqa: ANN001
    fluency = evaluate.load(m2.path("fluency"))
    out = fluency.compute(predictions=ANSWERS, references=QUESTIONS, **judge)
    assert out["fluency"] == pytest.approx(SCORE["fluency"]) and out["scores"] == pytest.approx([0.8, 0.8])
    assert out["coverage"] == 1.0 and out["judge_model"] == "judge"
    texts = _texts(server)
    assert len(texts) == 2 and not any("images/3.png" in t or PLACEHOLDER in t for t in texts)  # images removed
    assert not any("Why is the sky blue" in t for t in texts)  # fluency does not read the question
    sent = server.count
    again = fluency.compute(predictions=ANSWERS, references=QUESTIONS, **judge)
    assert server.count == sent and again.pop("cost_usd") == 0  # answered from the call cache, free
    assert out.pop("cost_usd") is None and again == out  # the stub's model has no known price

    server.responder = make_judge(unparsable_for="Why is the sky blue")
    relevance = evaluate.load(m2.path("relevance"))
    out = relevance.compute(predictions=ANSWERS, references=QUESTIONS, **judge)
    assert out["scores"][0] == pytest.approx(SCORE["relevance"]) and out["scores"][1] is None  # missing, never 0
    assert out["relevance"] == pytest.approx(SCORE["relevance"]) and out["coverage"] == 0.5
    compat = relevance.compute(predictions=ANSWERS, references=QUESTIONS, protocol="m2rag-2025-02", **judge)
    assert compat["scores"] == pytest.approx([0.7, 0.0])  # the published parse: no digit reads as 0
    assert compat["relevance"] == pytest.approx(0.35) and compat["coverage"] == 1.0
    with pytest.raises(ValueError, match=r"references\[1\] must be the question"):
        relevance.compute(predictions=ANSWERS, references=[QUESTIONS[0], " "], **judge)


@pytest.mark.parametrize("metric", IMAGE_METRICS)
def test_image_metrics_see_the_images(evaluate, server: OpenAIStub, judge: dict, metric: str) -> None:  # noqa: ANN001
    module = evaluate.load(m2.path(metric))
    predictions = [f"## Tides\n\n{PLACEHOLDER}\nThe two bulges.\n\n{PLACEHOLDER}\nThe Moon's orbit.",
                   f"Sky.\n{PLACEHOLDER}\nBlue light scatters.", "No image here."]
    buf = io.BytesIO()
    _png("blue", (900, 300)).save(buf, "PNG")  # larger than the 512 px thumbnail: shrunk before sending
    images = [[_png("red"), _png("green")], [{"bytes": buf.getvalue(), "path": None}], []]
    out = module.compute(predictions=predictions, references=QUESTIONS + ["What is the Moon?"], images=images,
                         **judge)
    assert out["scores"] == [[pytest.approx(SCORE[metric])] * 2, [pytest.approx(SCORE[metric])], []]
    assert out[metric] == pytest.approx(SCORE[metric]) and out["coverage"] == 1.0
    assert server.count == 3 and len(_image_urls(server)) == 3
    assert any("The two bulges." in t for t in _texts(server))  # the text around each image is shown
    sides = [Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size for url in _image_urls(server)]
    assert max(max(s) for s in sides) == 512  # the 900 px image was shrunk to the judge's thumbnail size

    with pytest.raises(ValueError, match=r"predictions\[0\] has 2 <IMAGE_PLACEHOLDER> token\(s\) but images\[0\] "
                                         r"holds 1 image"):
        module.compute(predictions=predictions[:1], references=QUESTIONS[:1], images=[[_png("red")]], **judge)


def test_image_metric_with_descriptions_for_a_text_judge(evaluate, server: OpenAIStub,  # noqa: ANN001
                                                         judge: dict) -> None:
    module = evaluate.load(m2.path("image_helpfulness"), "descriptions")
    out = module.compute(predictions=[f"Tides.\n{PLACEHOLDER}\nTwo bulges."], references=QUESTIONS[:1],
                         images=[["A diagram of the Earth with two ocean bulges."]], **judge)
    assert out["scores"] == [[pytest.approx(SCORE["image_helpfulness"])]] and out["coverage"] == 1.0
    assert not _image_urls(server) and "two ocean bulges" in _texts(server)[0]


def test_text_only_judge_needs_descriptions(evaluate, tmp_path: Path,  # noqa: ANN001
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("M2RAG_BENCH_CACHE", str(tmp_path / "calls"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    module = evaluate.load(m2.path("image_coherence"))
    with pytest.raises(ValueError, match="cannot see images: load the 'descriptions' configuration"):
        module.compute(predictions=[f"a {PLACEHOLDER}"], references=["q"], images=[[_png("red")]])  # embedded


# -- ragas metrics -----------------------------------------------------------------------------------------------------


def test_ragas_metrics(evaluate, server: OpenAIStub, judge: dict) -> None:  # noqa: ANN001
    pytest.importorskip("ragas")
    contexts = [["The Moon's gravity raises two tidal bulges.", "A diagram of the two bulges."],
                ["Rayleigh scattering favours short wavelengths."]]
    faithfulness = evaluate.load(m2.path("faithfulness"))
    out = faithfulness.compute(predictions=ANSWERS, references=QUESTIONS, contexts=contexts, **judge)
    assert out["faithfulness"] == pytest.approx(0.5) and out["scores"] == pytest.approx([0.5, 0.5])
    assert out["coverage"] == 1.0 and server.count == 4  # statements, then verdicts, per answer
    assert not any("images/3.png" in t for t in _texts(server))
    precision = evaluate.load(m2.path("context_precision"))
    out = precision.compute(predictions=ANSWERS, references=QUESTIONS, contexts=contexts, **judge)
    assert out["context_precision"] == pytest.approx(1.0, abs=1e-6) and out["coverage"] == 1.0
    assert server.count == 4 + 3  # one verdict per context
    with pytest.raises(ValueError, match="Evaluation module inputs are missing: \\['contexts'\\]"):
        precision.compute(predictions=ANSWERS, references=QUESTIONS, **judge)


# -- judge choice -----------------------------------------------------------------------------------------------------


def test_judge_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("M2RAG_BENCH_CACHE", str(tmp_path / "calls"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert m2.judge_client("fluency").backend.name == "embedded"  # offline smoke judge; nothing is loaded yet
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert m2.judge_client("image_coherence").model == "gpt-4o-2024-08-06"  # the paper's judges
    assert m2.judge_client("faithfulness").model == "gpt-4o-mini-2024-07-18"
    client = m2.judge_client("fluency", judge_model="j", judge_base_url="http://127.0.0.1:9/v1")
    assert client.backend.name == "openai" and client.backend.base_url == "http://127.0.0.1:9/v1"
    with pytest.raises(ValueError, match="judge_base_url needs judge_model"):
        m2.judge_client("fluency", judge_base_url="http://127.0.0.1:9/v1")
    with pytest.raises(ValueError, match="unknown protocol"):
        m2.compute("image_recall", [[]], [[]], protocol="v2")
