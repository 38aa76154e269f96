"""The model-judged steps of curation (reference §2.1, §5.1, §5.8): query filtering and topics, piece scores,
image scores and detailed image descriptions.

Every call goes through the one call layer (`ModelClient`: cached, de-duplicated, metered), with prompts in
versioned templates (``curate/prompts/*.jinja``). Replies are parsed strictly; an unparsable reply is asked again
(a new call, template ``name@vN#retryK``) and after ``max_attempts`` the element is recorded as unjudged with the
raw reply: a missing score is ``None``, never a 0.

When the judge cannot see images (a text-only model), images are judged and described from their alternative
text and the page text around them; every record says which (``mode``), so such data is never mistaken for the
paper's MLLM-judged data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..judges.parsing import context_tokens, parse_verdict
from ..judges.reask import Outcome, ask
from ..models.base import GenerationParams, Progress
from ..models.client import ModelClient
from ..models.messages import ImagePart
from ..strategies.templates import Templates, thumbnail
from ..topics import OTHER_TOPIC, TOPICS

PROMPTS = Templates("m2rag_bench.curate", "prompts")
JUDGE_PARAMS = GenerationParams(temperature=0.0, max_tokens=256, seed=1234)
DESCRIBE_PARAMS = GenerationParams(temperature=0.0, max_tokens=400, seed=1234)
SCORE_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["reason", "score"],
                "properties": {"reason": {"type": "string"}, "score": {"type": "integer", "minimum": 0, "maximum": 10}}}
FILTER_SCHEMA = {"type": "object", "additionalProperties": False,
                 "required": ["reason", "needs_references", "images_help", "topics"],
                 "properties": {"reason": {"type": "string"}, "needs_references": {"type": "integer"},
                                "images_help": {"type": "integer"},
                                "topics": {"type": "array", "items": {"type": "integer"}}}}
_JSON = re.compile(r"\{[^{}]*\}", re.S)
_MARKER = re.compile(r"<IMAGE_PLACEHOLDER>\[(\d+)\]")

def parse_score(text: str) -> tuple[int | None, str | None]:
    """An integer 0–10 from a JSON verdict or a final ``score: N`` line."""
    verdict = parse_verdict(text)
    if verdict.score is None:
        return None, verdict.problem
    return int(round(verdict.score)), None


@dataclass(frozen=True)
class QueryVerdict:
    needs_references: bool
    images_help: bool
    topics: list[str]
    reason: str

    @property
    def keep(self) -> bool:
        return self.needs_references and self.images_help

    @property
    def topic(self) -> str | None:
        """The first benchmark topic named, or ``None`` ("Others" is not a benchmark topic)."""
        return next((t for t in self.topics if t in TOPICS), None)


def parse_query_verdict(text: str) -> tuple[QueryVerdict | None, str | None]:
    """The filter verdict: the last JSON object of the reply with 0/1 flags and topic numbers 1–11."""
    for match in reversed(_JSON.findall(text)):
        try:
            obj = json.loads(match)
        except json.JSONDecodeError:
            continue
        if not isinstance(obj, dict) or "needs_references" not in obj:
            continue
        flags = [obj.get("needs_references"), obj.get("images_help")]
        if any(f not in (0, 1, True, False) for f in flags):
            return None, f"needs_references/images_help must be 0 or 1, got {flags}"
        numbers = obj.get("topics")
        if not isinstance(numbers, list) or not numbers or not all(isinstance(n, int) for n in numbers):
            return None, f"topics must be a non-empty list of numbers, got {numbers!r}"
        if any(not 1 <= n <= len(TOPICS) + 1 for n in numbers):
            return None, f"topic numbers must be within 1-{len(TOPICS) + 1}, got {numbers}"
        names = [TOPICS[n - 1] if n <= len(TOPICS) else OTHER_TOPIC for n in dict.fromkeys(numbers)]
        return QueryVerdict(bool(flags[0]), bool(flags[1]), names, str(obj.get("reason") or "")), None
    return None, "no JSON object with needs_references, images_help and topics"


def parse_description(text: str) -> tuple[str | None, str | None]:
    """A description is the reply itself, on one line; an empty reply or a refusal is no description."""
    cleaned = " ".join(text.split())
    if not cleaned:
        return None, "empty description"
    if re.match(r"^(i'm sorry|i am sorry|sorry|i can(no|')t|i am unable|i'm unable)\b", cleaned, re.I):
        return None, "the model declined to describe the image"
    return cleaned, None


def page_context(texts: Sequence[str], number: int, budget: int = 256) -> tuple[str, str]:
    """Page text above and below image ``number``'s marker (other markers removed), ``budget`` tokens each side."""
    full = "".join(texts)
    target = f"<IMAGE_PLACEHOLDER>[{number}]"
    above, sep, below = full.partition(target)
    if not sep:
        return "", ""
    above, below = _MARKER.sub("", above), _MARKER.sub("", below)
    return context_tokens(above, budget, "end").strip(), context_tokens(below, budget, "start").strip()


def _enforces_schema(client: ModelClient) -> bool:
    """Structured output only where it is known to be enforced: vLLM, and OpenAI's own API (not every server
    that speaks its protocol accepts ``response_format``)."""
    backend = client.backend
    return backend.name == "vllm" or (backend.name == "openai" and "api.openai.com" in (backend.base_url or ""))


class CurationJudge:
    """Builds and runs the curation calls on a text judge (queries, pieces) and an image judge (images)."""

    def __init__(self, text_client: ModelClient, image_client: ModelClient | None = None, *,
                 max_attempts: int = 3, max_side: int = 512, structured: bool | None = None) -> None:
        self.text = text_client
        self.image = image_client or text_client
        self.image_mode = "image" if self.image.supports_images else "description"
        self.max_side = max_side
        self.smoke_test = bool(self.text.identity().get("smoke_test") or self.image.identity().get("smoke_test"))
        self.max_attempts = 1 if self.smoke_test else max_attempts
        self.structured = structured

    def identity(self) -> dict[str, Any]:
        """Who judged and with which prompts: stored in the manifest."""
        return {"text_judge": self.text.identity(), "image_judge": self.image.identity(), "image_mode": self.image_mode,
                "templates": {n: PROMPTS.template_id(n) for n in
                              ("query_filter", "piece_score", "image_score", "image_describe")},
                "smoke_test": self.smoke_test}

    def _params(self, client: ModelClient, base: GenerationParams, schema: dict | None) -> GenerationParams:
        params = base
        enforce = self.structured if self.structured is not None else _enforces_schema(client)
        if schema is not None and enforce:
            params = replace(params, json_schema=schema)
        if self.smoke_test:
            params = replace(params, max_tokens=min(params.max_tokens, 96))
        return params

    def filter_queries(self, queries: Sequence[str], progress: Progress | None = None) -> list[Outcome[QueryVerdict]]:
        params = self._params(self.text, JUDGE_PARAMS, FILTER_SCHEMA)
        builds = [lambda a, q=q: PROMPTS.call("query_filter", params, attempt=a, query=q, topics=TOPICS) for q in queries]
        return ask(self.text, builds, parse_query_verdict, self.max_attempts, progress)

    def score_pieces(self, items: Sequence[tuple[str, str]], progress: Progress | None = None) -> list[Outcome[int]]:
        """``items`` are ``(query, passage)``."""
        params = self._params(self.text, JUDGE_PARAMS, SCORE_SCHEMA)
        builds = [lambda a, q=q, p=p: PROMPTS.call("piece_score", params, attempt=a, query=q, passage=p)
                  for q, p in items]
        return ask(self.text, builds, parse_score, self.max_attempts, progress)

    def score_images(self, items: Sequence[dict[str, Any]], progress: Progress | None = None) -> list[Outcome[int]]:
        """``items`` are dicts with ``query``, ``data`` (image bytes), ``alt`` and ``context``."""
        params = self._params(self.image, JUDGE_PARAMS, SCORE_SCHEMA)
        builds = [lambda a, it=it: PROMPTS.call("image_score", params, attempt=a, image=self._part(it["data"]),
                                        query=it["query"], alt=it.get("alt", ""), context=it.get("context", ""),
                                        mode=self.image_mode) for it in items]
        return ask(self.image, builds, parse_score, self.max_attempts, progress)

    def describe_images(self, items: Sequence[dict[str, Any]], progress: Progress | None = None) -> list[Outcome[str]]:
        """``items`` are dicts with ``data``, ``alt`` and either ``above``/``below`` (page images) or ``query`` (aux)."""
        params = self._params(self.image, DESCRIBE_PARAMS, None)
        builds = [lambda a, it=it: PROMPTS.call("image_describe", params, attempt=a, image=self._part(it["data"]),
                                        above=it.get("above", ""), below=it.get("below", ""),
                                        query=it.get("query", ""), alt=it.get("alt", ""), mode=self.image_mode)
                  for it in items]
        return ask(self.image, builds, parse_description, self.max_attempts, progress)

    def _part(self, data: bytes | None) -> ImagePart | None:
        if self.image_mode != "image" or not data:
            return None
        return thumbnail(data, self.max_side)
