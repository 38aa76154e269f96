"""Single-stage: one call per sample writes the answer and places images by pseudo URL (reference §3.2)."""

from __future__ import annotations

from ..models.client import ModelClient
from .base import StageReporter, Strategy, Work, pass_over
from .parsing import extract_images, unwrap_markdown


class SingleStage(Strategy):
    name = "single-stage"
    template_names = ("single_stage",)

    def passes(self, work: list[Work], client: ModelClient, stage: StageReporter) -> None:
        items = [(w, self.call("single_stage", w.selection.candidates, query=w.sample.query,
                               pages=w.selection.pages, aux=w.selection.aux)) for w in work]
        for (w, call), completion in zip(items, pass_over(client, "answer", items, stage)):
            w.record("answer", call, completion)
            if completion.ok:
                parsed = extract_images(unwrap_markdown(completion.text), w.selection.candidates,
                                        compat=not self.protocol.strict_image_refs)
                w.counts.update(parsed.counts)
                if not parsed.response.strip():
                    w.error = "answer: the model returned an empty answer"
                self.finish(w, parsed.response, parsed.placeholder_response, parsed.output_images)
