"""What the three strategies share: settings, selection, prompt building and the response record."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..models.base import Call, Completion, GenerationParams, Progress
from ..models.client import ModelClient
from ..schema import OutputImage, Response, Sample
from .parsing import candidate_key
from .protocols import Protocol, get_protocol
from .selection import Candidate, Selection, SelectionConfig, select
from .templates import render, template_id, to_message

#: ``stage(name, total) -> Progress``: how a strategy reports its passes (the CLI shows a bar per stage).
StageReporter = Callable[[str, int], Progress | None]


def no_progress(name: str, total: int) -> Progress | None:
    return None


@dataclass(frozen=True)
class StrategyConfig:
    """Everything that shapes a strategy's calls, all settable by task file or CLI."""

    modality: str = "llm"  # "llm": images as their descriptions; "mllm": images as pixels
    selection: SelectionConfig = SelectionConfig()
    generation: GenerationParams = GenerationParams(temperature=0.0, max_tokens=1024)
    protocol: str = "default"
    thumbnail: int = 512  # longest side of images sent to MLLMs
    similarity_threshold: float = 0.1  # separate strategy: source attribution threshold
    embedder: str | None = None  # separate strategy: sentence-transformers model (None: offline default)

    def __post_init__(self) -> None:
        if self.modality not in ("llm", "mllm"):
            raise ValueError(f"modality must be 'llm' or 'mllm', not {self.modality!r}")
        get_protocol(self.protocol)


@dataclass
class Work:
    """One sample in flight through a strategy's stages."""

    sample: Sample
    selection: Selection
    stages: dict[str, Any] = field(default_factory=dict)
    usage: Counter = field(default_factory=Counter)
    counts: Counter = field(default_factory=Counter)
    error: str | None = None

    def record(self, stage: str, call: Call, completion: Completion, **extra: Any) -> None:
        """Keep a stage's raw output (and which template made it) and add up its usage."""
        entry = {"template": call.template, "output": completion.text, "usage": completion.usage.to_dict(),
                 "cached": completion.cached, **extra}
        if completion.error:
            entry["error"] = completion.error
            self.error = self.error or f"{stage}: {completion.error}"
        current = self.stages.get(stage)
        if current is None:
            self.stages[stage] = entry
        else:
            self.stages[stage] = (current if isinstance(current, list) else [current]) + [entry]
        self.usage["prompt_tokens"] += completion.usage.prompt_tokens
        self.usage["completion_tokens"] += completion.usage.completion_tokens


class Strategy(ABC):
    """A way to turn samples into illustrated answers with one or more batched passes of model calls."""

    name: str = ""

    def __init__(self, config: StrategyConfig = StrategyConfig()) -> None:
        self.config = config
        self.protocol: Protocol = get_protocol(config.protocol)

    @property
    def modality(self) -> str:
        return self.config.modality

    def templates(self) -> dict[str, str]:
        """``name -> name@vN`` of every template this strategy uses (for the run stamp)."""
        return {name: template_id(name) for name in self.template_names}

    template_names: tuple[str, ...] = ()

    def select(self, sample: Sample) -> Selection:
        cfg = replace(self.config.selection, piece_separator=self.protocol.piece_separator)
        return select(sample, cfg)

    def call(self, template: str, candidates: list[Candidate], params: GenerationParams | None = None,
             slots: dict[int, Candidate] | None = None, **context: Any) -> Call:
        """A call from a template; ``candidates`` are the images its slots may refer to (or ``slots``, by number)."""
        text = render(template, modality=self.modality, **context)
        mapping = slots if slots is not None else {c.index: c for c in candidates}
        message = to_message(text, mapping, self.modality, self.config.thumbnail)
        return Call((message,), params or self.config.generation, template_id(template))

    def run(self, samples: list[Sample], client: ModelClient, stage: StageReporter = no_progress) -> list[Response]:
        """Answer every sample; failures become responses with ``error`` set."""
        work = [Work(s, self.select(s)) for s in samples]
        self.passes(work, client, stage)
        return [self.response(w, client) for w in work]

    @abstractmethod
    def passes(self, work: list[Work], client: ModelClient, stage: StageReporter) -> None:
        """Run the strategy's stages over all samples; each stage is one batched pass."""

    def response(self, w: Work, client: ModelClient) -> Response:
        parsed = w.stages.get("parsed", {})
        w.stages.pop("parsed", None)
        w.stages["selection"] = {
            "pages": [p.page.webpage_id for p in w.selection.pages],
            "candidates": [{"index": c.index, "image_id": candidate_key(c), "final_score": c.image.final_score}
                           for c in w.selection.candidates]}
        w.stages["counts"] = dict(w.counts)
        return Response(query_id=w.sample.query_id, strategy=self.name, modality=self.modality, model=client.model,
                        protocol=self.protocol.name, response=None if w.error else parsed.get("response"),
                        placeholder_response=None if w.error else parsed.get("placeholder_response"),
                        output_images=[] if w.error else parsed.get("output_images", []), stages=w.stages,
                        usage=dict(w.usage), error=w.error)

    @staticmethod
    def finish(w: Work, response: str, placeholder: str, images: list[OutputImage]) -> None:
        w.stages["parsed"] = {"response": response, "placeholder_response": placeholder, "output_images": images}


def pass_over(client: ModelClient, name: str, items: list[tuple[Work, Call]], stage: StageReporter) -> list[Completion]:
    """One batched pass: every pending call of this stage, for all samples at once."""
    if not items:
        return []
    return client.complete([call for _, call in items], stage(name, len(items)))
