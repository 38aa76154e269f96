"""The five rubric judges: fluency and relevance per answer, image coherence, helpfulness and reference per image.

Each is one judge call at temperature 0 (seeded) on a rubric template carrying the paper's 0–10 scale. Text judges
see the answer without its images. Image judges see the image (a thumbnail; or, for a text-only judge, its detailed
description) between the answer text just before and just after it, each cut to a token budget (256 by default).
Unparsable verdicts are asked again (a new call, ``#retryN``), then recorded as missing with the raw reply.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..models.base import Call, GenerationParams, Progress
from ..models.client import ModelClient
from ..models.messages import ImagePart
from ..schema import PLACEHOLDER, ImageRef, Judgment, Response, Sample
from ..strategies.templates import Templates, thumbnail
from .metrics import IMAGE_METRICS
from .parsing import Verdict, context_tokens, parse_verdict
from .reask import ask

RUBRICS = Templates("m2rag_bench.judges", "rubrics")
JUDGE_PARAMS = GenerationParams(temperature=0.0, max_tokens=256, seed=1234)
VERDICT_SCHEMA = {"type": "object", "properties": {"reason": {"type": "string"}, "score": {"type": "integer"}},
                  "required": ["reason", "score"], "additionalProperties": False}


def answer_text(response: Response) -> str:
    """The answer as the text judges read it: the placeholder version with the placeholders removed."""
    return (response.placeholder_response or "").replace(PLACEHOLDER, "")


def image_lookup(sample: Sample) -> dict[str, ImageRef]:
    """Candidate images by the ids `OutputImage.image_id` uses (``<webpage_id>/<image_id>`` or ``aux-<i>``)."""
    return {img.key: img for img in sample.all_images()}


@dataclass
class Item:
    """One verdict to obtain."""

    query_id: str
    metric: str
    image_index: int | None
    topic: str | None
    build: Callable[[int], Call]  # attempt number -> the call
    input_key: str


class RubricJudge:
    def __init__(self, client: ModelClient, *, protocol: str = "default", image_mode: str | None = None,
                 context_budget: int = 256, max_side: int = 512, max_attempts: int = 3,
                 structured: bool = False) -> None:
        self.client = client
        self.compat = protocol == "m2rag-2025-02"
        self.protocol = protocol
        self.image_mode = image_mode or ("image" if client.supports_images else "description")
        self.context_budget = context_budget
        self.max_side = max_side
        self.params = replace(JUDGE_PARAMS, json_schema=VERDICT_SCHEMA) if structured else JUDGE_PARAMS
        self.smoke_test = bool(client.identity().get("smoke_test"))
        # The published protocol never re-asks; neither do we for the tiny smoke-test judge (asking again is slow
        # on a CPU and does not make a 135M model follow the format).
        self.max_attempts = 1 if self.compat or self.smoke_test else max_attempts
        if self.smoke_test:  # a verdict is one sentence and a number; don't let a 135M model ramble on a CPU
            self.params = replace(self.params, max_tokens=96)

    def template_version(self, metric: str) -> str:
        return RUBRICS.template_id(metric) + f"+context{self.context_budget}+{self.image_mode}"

    def _call(self, metric: str, attempt: int, image: ImagePart | None = None, **context: object) -> Call:
        return RUBRICS.call(metric, self.params, attempt=attempt, image=image, mode=self.image_mode, **context)

    def items(self, response: Response, sample: Sample, metrics: list[str]) -> list[Item]:
        """What to judge for one (successful) response."""
        items: list[Item] = []
        answer = answer_text(response)
        for metric in ("fluency", "relevance"):
            if metric in metrics:
                context = {"answer": answer, "query": sample.query}
                items.append(Item(response.query_id, metric, None, sample.topic,
                                  lambda a, m=metric, c=context: self._call(m, a, **c),
                                  _key(metric, answer, sample.query if metric == "relevance" else "")))
        wanted = [m for m in IMAGE_METRICS if m in metrics]
        if not wanted:
            return items
        splits = (response.placeholder_response or "").split(PLACEHOLDER)
        images = image_lookup(sample)
        for i, out in enumerate(response.output_images):
            above = context_tokens("".join(splits[: i + 1]), self.context_budget, "end")
            below = context_tokens("".join(splits[i + 1:]), self.context_budget, "start")
            ref = images.get(out.image_id)
            if ref is None:
                continue  # an output image the dataset does not know cannot be judged; counted as missing
            part = thumbnail(ref.image_bytes, self.max_side) if self.image_mode == "image" and ref.image_bytes else None
            context = {"query": sample.query, "above": above, "below": below,
                       "description": ref.detailed_caption or ""}
            for metric in wanted:
                items.append(Item(response.query_id, metric, i, sample.topic,
                                  lambda a, m=metric, c=context, p=part: self._call(m, a, p, **c),
                                  _key(metric, above, below, part.sha256 if part else ref.detailed_caption or "")))
        return items

    def judge(self, items: list[Item], progress: Progress | None = None) -> list[Judgment]:
        """Verdicts for all items; malformed replies are asked again up to ``max_attempts`` times."""
        outcomes = ask(self.client, [item.build for item in items], self._parse, self.max_attempts, progress)
        return [Judgment(
            query_id=item.query_id, metric=item.metric, image_index=item.image_index,
            score=out.value.score / 10 if out.value else None, raw_score=out.value.score if out.value else None,
            reason=out.value.reason if out.value else None, raw=out.raw, attempts=out.attempts,
            judge_model=self.client.model, template_version=self.template_version(item.metric),
            input_key=item.input_key, topic=item.topic, protocol=self.protocol, smoke_test=self.smoke_test,
            usage=out.usage, error=out.error) for item, out in zip(items, outcomes)]

    def _parse(self, text: str) -> tuple[Verdict | None, str | None]:
        verdict = parse_verdict(text, self.compat)
        return (verdict if verdict.score is not None else None), verdict.problem


def _key(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]
