"""Hugging Face ``evaluate`` modules for the eight M2RAG metrics: thin wrappers over `m2rag_bench.judges`.

Each metric lives in ``evaluate_modules/m2rag_<metric>/m2rag_<metric>.py`` (with a ``README.md`` card beside it)
and is loaded by path, offline::

    import evaluate
    import m2rag_bench.evaluate_modules as m2

    recall = evaluate.load(m2.path("image_recall"))
    recall.compute(predictions=[["0/1"]], references=[["0/1", "aux-2"]])
    # {'image_recall': 0.5, 'scores': [0.5], 'coverage': 1.0, 'judge_model': None, 'cost_usd': None}

    fluency = evaluate.load(m2.path("fluency"))
    fluency.compute(predictions=["# Tides\\nThe Moon pulls ..."], references=["Why are there tides?"],
                    judge_model="my-judge", judge_base_url="http://localhost:8000/v1")

Everything below is shared by the eight module files, which stay a few lines each. The judging is the library's:
`RubricJudge` for fluency, relevance and the three image metrics, `RagasJudge` (through `ragas_judgments`) for
context precision and faithfulness, `image_recall` for recall, and `aggregate` for the mean and coverage under a
protocol. Every judge call goes through `make_client`, so it is cached (re-computing is free) and metered.

This module does not import ``evaluate`` (a slow import) until a module class is asked for: ``path()`` is cheap.
Note that ``evaluate.load`` copies a module file into its own cache and imports it standalone, so the module files
import this package absolutely (``import m2rag_bench.evaluate_modules as m2``) and keep the base class behind the
``m2.`` prefix: ``evaluate`` picks the first `EvaluationModule` subclass in the module's namespace as *the* metric.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..judges.metrics import IMAGE_METRICS, METRICS, RAGAS_METRICS, RECALL
from ..schema import PLACEHOLDER

__all__ = ["CITATION", "CONFIGS", "JUDGE_ARGS", "METRICS", "M2ragMetric", "compute", "features", "judge_client", "path"]

HERE = Path(__file__).resolve().parent
PAPER_JUDGE, PAPER_TEXT_JUDGE = "gpt-4o-2024-08-06", "gpt-4o-mini-2024-07-18"  # as `m2rag-bench evaluate`
#: Configurations of the image metrics: ``images`` holds pictures, or their descriptions for a text-only judge.
CONFIGS = ("default", "descriptions")
PROTOCOLS = ("default", "m2rag-2025-02")
_MARKDOWN_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")

CITATION = """\
@article{ma2024m2rag,
  title   = {Multi-modal Retrieval Augmented Multi-modal Generation: Datasets, Evaluation Metrics and Strong Baselines},
  author  = {Ma, Zi-Ao and Lan, Tian and Tu, Rong-Cheng and Hu, Yong and Guo, Yu-Shi and Zhang, Tong and Huang, Heyan and Mao, Xian-Ling},
  journal = {arXiv preprint arXiv:2411.16365},
  year    = {2024}
}
"""
PAPER_URL = "https://arxiv.org/abs/2411.16365"

#: The judge options every judged module's ``compute`` accepts (appended to each module's inputs description).
JUDGE_ARGS = """\
    judge_backend (`str`, optional): "openai" (any OpenAI-compatible endpoint), "vllm", "hf" or "embedded".
        Default: "openai" when `judge_base_url` is given or $OPENAI_API_KEY is set, else "embedded" (a small
        offline smoke-test judge: its scores are not benchmark results).
    judge_model (`str`, optional): the judge model. Default on OpenAI: the paper's, gpt-4o-2024-08-06
        (gpt-4o-mini-2024-07-18 for context precision and faithfulness). Required with `judge_base_url`.
    judge_base_url (`str`, optional): an OpenAI-compatible endpoint, e.g. `vllm serve` at http://localhost:8000/v1.
    api_key_env (`str`, default "OPENAI_API_KEY"): the environment variable holding the API key.
    protocol (`str`, default "default"): "default" (strict verdict parsing; a missing score is left out of the
        mean) or "m2rag-2025-02" (the authors' published parsing and averaging).
    Every judge call goes through m2rag-bench's call cache ($M2RAG_BENCH_CACHE): computing again is free.
"""

#: Inputs and outputs shared by the image-precision modules (``.replace("{metric}", name)``).
IMAGE_INPUTS = ("""
Args:
    predictions (`list` of `str`): the answers with each image replaced by an `<IMAGE_PLACEHOLDER>` token.
    references (`list` of `str`): the questions, one per answer.
    images (`list` of `list`): per answer, one image per `<IMAGE_PLACEHOLDER>` token, in order: PIL images,
        file paths or `{"bytes": ...}` dicts. With `evaluate.load(path, "descriptions")`, a detailed description
        of each image (`str`) instead, for a judge that cannot see images.
    context_tokens (`int`, default 256): the answer text shown just before and just after each image.
""" + JUDGE_ARGS + """
Returns:
    {metric} (`float` or `None`): the mean 0-1 score over the scored images of all answers (pooled).
    scores (`list` of `list`): per answer, per image, the 0-1 score, or None when missing.
    coverage (`float` or `None`): scored images / images.
    judge_model (`str`), cost_usd (`float` or `None`): the judge, and what its calls cost (None if unknown).
""")

#: Inputs and outputs shared by the ragas modules (``.replace("{metric}", name)``).
RAGAS_INPUTS = ("""
Args:
    predictions (`list` of `str`): the answers, in markdown. Images, as `![caption](images/N.ext)` or
        `<IMAGE_PLACEHOLDER>` tokens, are removed before judging.
    references (`list` of `str`): the questions, one per answer.
    contexts (`list` of `list` of `str`): per answer, the retrieved contexts in prompt order (in M2RAG: the
        selected web pages' text, then the detailed descriptions of the answer's images).
""" + JUDGE_ARGS + """
Returns:
    {metric} (`float` or `None`): the mean 0-1 score over the scored answers.
    scores (`list`): per answer, the 0-1 score, or None when missing.
    coverage (`float` or `None`): scored answers / answers.
    judge_model (`str` or `None`), cost_usd (`float` or `None`): the judge, and what its calls cost (None if unknown).
""")


def path(metric: str) -> str:
    """The file of the ``evaluate`` module of ``metric`` (one of the eight), for ``evaluate.load``."""
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose one of: {', '.join(METRICS)}")
    return str(HERE / f"m2rag_{metric}" / f"m2rag_{metric}.py")


# -- the evaluate side (imported lazily) ----------------------------------------------------------------------------


def features(metric: str, config_name: str = "default") -> Any:
    """The ``datasets.Features`` of a metric's inputs (``config_name`` matters for the image metrics only)."""
    import datasets

    if config_name not in CONFIGS or (config_name != "default" and metric not in IMAGE_METRICS):
        allowed = CONFIGS if metric in IMAGE_METRICS else ("default",)
        raise ValueError(f"unknown configuration {config_name!r} of m2rag_{metric}; choose one of: "
                         f"{', '.join(allowed)}")
    text = datasets.Value("string")
    if metric == RECALL:
        return datasets.Features({"predictions": datasets.List(text), "references": datasets.List(text)})
    columns = {"predictions": text, "references": text}
    if metric in RAGAS_METRICS:
        columns["contexts"] = datasets.List(text)
    elif metric in IMAGE_METRICS:
        # decode=False: the judge gets the original file bytes (no re-encoding, stable cache keys)
        columns["images"] = datasets.List(datasets.Image(decode=False) if config_name == "default" else text)
    return datasets.Features(columns)


@lru_cache(maxsize=1)
def _base_class() -> type:
    import evaluate

    class M2ragMetric(evaluate.Metric):
        """Base of the eight M2RAG metric modules; a subclass sets ``metric``, ``description`` and
        ``inputs_description`` (the module file's texts) and inherits everything else."""

        metric = ""
        description = ""
        inputs_description = ""

        def _info(self) -> Any:
            return evaluate.MetricInfo(
                description=self.description, citation=CITATION, inputs_description=self.inputs_description,
                features=features(self.metric, self.config_name), homepage=PAPER_URL, license="Apache-2.0",
                reference_urls=[PAPER_URL], module_type="metric")

        def _compute(self, *, predictions: list, references: list, **kwargs: Any) -> dict[str, Any]:
            return compute(self.metric, predictions, references, config_name=self.config_name, **kwargs)

    M2ragMetric.__module__ = __name__
    M2ragMetric.__qualname__ = "M2ragMetric"
    return M2ragMetric


def __getattr__(name: str) -> Any:
    if name == "M2ragMetric":  # the evaluate.Metric base class, built on first use (imports evaluate)
        return _base_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- judges ---------------------------------------------------------------------------------------------------------


def judge_client(metric: str, *, judge_backend: str | None = None, judge_model: str | None = None,
                 judge_base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY") -> Any:
    """The judge of a metric through `make_client` (cached, metered), chosen like ``m2rag-bench evaluate`` does.

    Backend: ``judge_backend``, else ``openai`` when ``judge_base_url`` is given or ``$api_key_env`` is set, else
    ``embedded`` (the small offline smoke judge). Model: ``judge_model``, else the paper's judges on OpenAI
    (GPT-4o for the rubric metrics, GPT-4o-mini for the RAGAS ones); a ``judge_base_url`` needs ``judge_model``.
    """
    from ..models import make_client

    backend = judge_backend or ("openai" if judge_base_url or os.environ.get(api_key_env) else "embedded")
    if backend != "openai":
        if judge_base_url:
            raise ValueError(f"judge_base_url is for the openai backend, not {backend!r}")
        return make_client(backend, judge_model)
    if judge_model is None:
        if judge_base_url:
            raise ValueError("judge_base_url needs judge_model (the model the server serves)")
        judge_model = PAPER_TEXT_JUDGE if metric in RAGAS_METRICS else PAPER_JUDGE
    return make_client("openai", judge_model, base_url=judge_base_url, api_key_env=api_key_env)


# -- compute --------------------------------------------------------------------------------------------------------


def compute(metric: str, predictions: Sequence, references: Sequence, *, contexts: Sequence | None = None,
            images: Sequence | None = None, config_name: str = "default", judge_backend: str | None = None,
            judge_model: str | None = None, judge_base_url: str | None = None,
            api_key_env: str = "OPENAI_API_KEY", protocol: str = "default",
            context_tokens: int = 256) -> dict[str, Any]:
    """One metric over a batch: ``{metric: mean 0–1 | None, "scores", "coverage", "judge_model", "cost_usd"}``.

    ``scores`` has one entry per prediction (a list with one entry per image for the three image metrics);
    None marks a missing score (unparsable verdict, failed call, NaN RAGAS result), which the mean leaves out under
    the default protocol. ``coverage`` = scored / expected items (items = images for the image metrics, pooled as
    in the paper); both are None when there is nothing to score.
    """
    from ..judges.aggregate import aggregate
    from ..schema import Judgment, Sample

    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose one of: {', '.join(METRICS)}")
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; choose one of: {', '.join(PROTOCOLS)}")
    predictions, references = list(predictions), list(references)
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
    n = len(predictions)
    qids = [str(i) for i in range(n)]
    client = None

    if metric == RECALL:
        from ..judges.recall import image_recall

        responses = [_recall_response(q, used, positives) for q, used, positives in zip(qids, predictions, references)]
        judgments: list[Judgment] = [image_recall(r, protocol=protocol) for r in responses]
    else:
        for i, question in enumerate(references):
            if not isinstance(question, str) or (metric != "fluency" and not question.strip()):
                raise ValueError(f"references[{i}] must be the question (a non-empty string)")
        samples = [Sample(query_id=q, query=question if question.strip() else "-")
                   for q, question in zip(qids, references)]
        client = judge_client(metric, judge_backend=judge_backend, judge_model=judge_model,
                              judge_base_url=judge_base_url, api_key_env=api_key_env)
        if metric in RAGAS_METRICS:
            from ..judges.ragas_metrics import ragas_judgments

            if contexts is None or len(contexts) != n:
                raise ValueError(f"m2rag_{metric} needs contexts: one list of strings per prediction")
            responses = [_text_response(q, answer, client.model) for q, answer in zip(qids, predictions)]
            client.backend.check()
            judgments = ragas_judgments(client, responses, {s.query_id: s for s in samples},
                                        {q: list(c or []) for q, c in zip(qids, contexts)}, [metric], protocol,
                                        lambda name, total: None)
        else:
            from ..judges.rubric import RubricJudge

            if metric in IMAGE_METRICS:
                mode = "image" if config_name == "default" else "description"
                if mode == "image" and not client.supports_images:
                    raise ValueError(f"the judge {client.model!r} cannot see images: load the 'descriptions' "
                                     "configuration and pass image descriptions, or choose a multimodal judge")
                if images is None or len(images) != n:
                    raise ValueError(f"m2rag_{metric} needs images: one list per prediction")
                pairs = [_image_records(i, q, answer, sample, imgs, mode, client.model)
                         for i, (q, answer, sample, imgs) in enumerate(zip(qids, predictions, samples, images))]
                responses, samples = [p[0] for p in pairs], [p[1] for p in pairs]
            else:
                mode = None
                responses = [_text_response(q, answer, client.model) for q, answer in zip(qids, predictions)]
            backend = client.backend
            structured = backend.name == "vllm" or (backend.name == "openai" and
                                                    "api.openai.com" in (backend.base_url or ""))
            client.backend.check()
            judge = RubricJudge(client, protocol=protocol, image_mode=mode, context_budget=context_tokens,
                                structured=structured)
            items = [item for r, s in zip(responses, samples) for item in judge.items(r, s, [metric])]
            judgments = judge.judge(items)

    scores = aggregate(judgments, responses, protocol=protocol, bootstrap=0)
    mean = scores["paper"]["metrics"][metric]["mean"]
    found = {(j.query_id, j.image_index): j.score for j in judgments}
    if metric in IMAGE_METRICS:
        per_item: list = [[found.get((q, k)) for k in range(len(r.output_images))] for q, r in zip(qids, responses)]
    else:
        per_item = [found.get((q, None)) for q in qids]
    return {metric: None if mean is None else round(mean / 100, 12), "scores": per_item,
            "coverage": scores["coverage"]["metrics"][metric]["coverage"],
            "judge_model": client.model if client else None,
            "cost_usd": client.meter.total_cost if client else None}


def _text_response(qid: str, answer: str, model: str) -> Any:
    """A response record of a markdown answer; its images (``![c](url)`` or placeholders) are what judges skip."""
    from ..schema import Response

    if not isinstance(answer, str):
        raise ValueError(f"predictions[{qid}] must be the answer (a string)")
    return Response(query_id=qid, strategy="single-stage", modality="mllm", model=model,
                    response=answer, placeholder_response=_MARKDOWN_IMAGE.sub(PLACEHOLDER, answer))


def _image_records(i: int, qid: str, answer: str, sample: Any, images: Sequence, mode: str, model: str
                   ) -> tuple[Any, Any]:
    """The response and sample records of an answer with ``<IMAGE_PLACEHOLDER>`` tokens and one image per token."""
    from ..schema import ImageRef, OutputImage, Response, WebPage

    if not isinstance(answer, str):
        raise ValueError(f"predictions[{i}] must be the answer text with {PLACEHOLDER} tokens (a string)")
    images = list(images or [])
    if answer.count(PLACEHOLDER) != len(images):
        raise ValueError(f"predictions[{i}] has {answer.count(PLACEHOLDER)} {PLACEHOLDER} token(s) but images[{i}] "
                         f"holds {len(images)} image(s); give one image per token, in order")
    refs = []
    for k, image in enumerate(images):
        if mode == "image":
            data = _image_bytes(image)
            if not data:
                raise ValueError(f"images[{i}][{k}] is empty")
            refs.append(ImageRef(image_id=str(k + 1), kind="page", webpage_id=0, image_bytes=data, available=True))
        else:
            if not isinstance(image, str) or not image.strip():
                raise ValueError(f"images[{i}][{k}] must be a description of the image (a non-empty string)")
            refs.append(ImageRef(image_id=str(k + 1), kind="page", webpage_id=0, detailed_caption=image))
    response = Response(query_id=qid, strategy="single-stage", modality="mllm", model=model,
                        placeholder_response=answer,
                        output_images=[OutputImage(index=k, image_id=f"0/{k + 1}") for k in range(len(refs))])
    return response, sample.model_copy(update={"webpages": [WebPage(webpage_id=0, images=refs)]})


def _image_bytes(image: Any) -> bytes | None:
    """Encoded image bytes from what a ``datasets.Image`` column holds (``{"bytes", "path"}``) or a PIL image."""
    if isinstance(image, dict):
        if image.get("bytes"):
            return image["bytes"]
        return Path(image["path"]).read_bytes() if image.get("path") else None
    if isinstance(image, (bytes, bytearray)):
        return bytes(image)
    if hasattr(image, "save"):  # a PIL image, when the module is used without evaluate's encoding
        buf = io.BytesIO()
        image.save(buf, "PNG")
        return buf.getvalue()
    raise ValueError(f"not an image: {type(image).__name__}")


def _recall_response(qid: str, used: Sequence[str] | None, positives: Sequence[str] | None) -> Any:
    """A response that used ``used`` among candidates whose positives are ``positives`` (for `image_recall`)."""
    from ..judges.metrics import POSITIVE_SCORE
    from ..schema import OutputImage, Response

    for name, ids in (("predictions", used), ("references", positives)):
        if isinstance(ids, str):
            raise ValueError(f"{name}[{qid}] must be a list of image ids, not a string")
    candidates = [{"image_id": str(p), "final_score": POSITIVE_SCORE} for p in dict.fromkeys(positives or [])]
    return Response(query_id=qid, strategy="single-stage", modality="mllm", model="-",
                    output_images=[OutputImage(index=k, image_id=str(u)) for k, u in enumerate(used or [])],
                    stages={"selection": {"candidates": candidates}})
