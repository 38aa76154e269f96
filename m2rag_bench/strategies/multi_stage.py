"""Multi-stage: write the text, place each image, refine the passages that receive one (reference §3.3).

Stage 1 writes a text-only answer, split into lines. Stage 2 asks, for every candidate image, before which line it
belongs (−1 rejects it). Stage 3 rewrites, for every placed image, the passage that follows it. Each stage is one
batched pass over all samples. Calls: 1 + candidates + placed images per sample.
"""

from __future__ import annotations

from dataclasses import replace

from ..models.client import ModelClient
from ..schema import PLACEHOLDER, OutputImage
from .base import StageReporter, Strategy, Work, pass_over
from .parsing import candidate_key, is_refusal, parse_placement, unwrap_markdown
from .selection import Candidate

_STAGE2 = "multi_stage_place"
PLACEMENT_TOKENS = 128  # a placement decision is two short lines
_STAGE3 = "multi_stage_refine"


class MultiStage(Strategy):
    name = "multi-stage"
    template_names = ("multi_stage_text", _STAGE2, _STAGE3)

    def passes(self, work: list[Work], client: ModelClient, stage: StageReporter) -> None:
        # Stage 1: the text answer.
        items = [(w, self.call("multi_stage_text", w.selection.candidates, query=w.sample.query,
                               pages=w.selection.pages, aux=w.selection.aux)) for w in work]
        lines: dict[int, list[str]] = {}
        for (w, call), done in zip(items, pass_over(client, "1/3 text", items, stage)):
            w.record("stage_1", call, done)
            if done.ok:
                lines[id(w)] = unwrap_markdown(done.text).split("\n")
                if not "".join(lines[id(w)]).strip():
                    w.error = "stage_1: the model returned an empty answer"
        live = [w for w in work if w.error is None]

        # Stage 2: a placement decision per candidate image.
        short = replace(self.config.generation, max_tokens=min(self.config.generation.max_tokens, PLACEMENT_TOKENS))
        items2 = [(w, self.call(_STAGE2, [c], short, query=w.sample.query, lines=lines[id(w)], candidate=c))
                  for w in live for c in w.selection.candidates]
        cands = [c for w in live for c in w.selection.candidates]
        placed: dict[int, list[tuple[int, Candidate, str]]] = {id(w): [] for w in live}
        for (w, call), cand, done in zip(items2, cands, pass_over(client, "2/3 place images", items2, stage)):
            if not done.ok:
                w.record("stage_2", call, done, image=cand.index)
                continue
            index, caption, problem = parse_placement(done.text, len(lines[id(w)]),
                                                      compat=not self.protocol.signed_placement)
            w.record("stage_2", call, done, image=cand.index, line=index, problem=problem)
            w.counts["placement_invalid" if problem else "rejected" if index < 0 else "placed"] += 1
            if index >= 0:
                placed[id(w)].append((index, cand, caption))
        live = [w for w in live if w.error is None]

        # Stage 3: refine the passage after each placed image.
        items3, slots = [], []
        for w in live:
            ordered = sorted(placed[id(w)], key=lambda t: t[0])  # stable: equal lines keep candidate order
            placed[id(w)] = ordered
            for j, (index, cand, _) in enumerate(ordered):
                end = ordered[j + 1][0] if j + 1 < len(ordered) else len(lines[id(w)])
                passage = "\n".join(lines[id(w)][index:end])
                slots.append((w, j, passage))
                if passage.strip() or not self.protocol.skip_empty_refinement:
                    items3.append((w, self.call(_STAGE3, [cand], query=w.sample.query, passage=passage,
                                                candidate=cand)))
        refined: dict[tuple[int, int], str] = {}
        todo = iter(pass_over(client, "3/3 refine", items3, stage))
        calls = iter(items3)
        for w, j, passage in slots:
            if not passage.strip() and self.protocol.skip_empty_refinement:
                refined[id(w), j] = passage
                w.counts["empty_passage"] += 1
                continue
            (_, call), done = next(calls), next(todo)
            w.record("stage_3", call, done, image=placed[id(w)][j][1].index)
            text = _clean(unwrap_markdown(done.text)) if done.ok else passage
            if is_refusal(text) and self.protocol.drop_refusals:
                w.counts["refusal"] += 1
                text = passage
            refined[id(w), j] = text
        for w in live:
            if w.error is None:
                self._assemble(w, lines[id(w)], placed[id(w)], refined)

    def _assemble(self, w: Work, lines: list[str], placed: list, refined: dict) -> None:  # noqa: ANN001
        if not placed:
            text = "\n".join(lines)
            self.finish(w, text, text, [])
            return
        head = "\n".join(lines[: placed[0][0]])
        response, placeholder, images = head, head, []
        for j, (_, cand, caption) in enumerate(placed):
            response += f"\n![{caption}]({cand.pseudo_url})\n" + refined[id(w), j]
            placeholder += f"\n{PLACEHOLDER}\n" + refined[id(w), j]
            images.append(OutputImage(index=cand.index, image_id=candidate_key(cand), caption=caption))
        self.finish(w, response, placeholder, images)


def _clean(text: str) -> str:
    """Stage-3 output with image markdown and links reduced to their text (the image is placed separately)."""
    import re

    text = re.sub(r"!\[([^\]\n]*)\]\([^)\n]*\)", r"\1", text)
    return re.sub(r"(?<!!)\[([^\]\n]*)\]\([^)\n]*\)", r"\1", text)
