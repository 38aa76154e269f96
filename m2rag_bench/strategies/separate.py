"""Separate (MuRAR): text first, then images retrieved by embeddings, then a refinement (reference §3.4).

Stage 1 writes a text answer ending with the sources it used. Stage 2 makes no model call: each answer line is
attributed to the retrieved piece most similar to it (if the similarity reaches the threshold); within each piece
that holds candidate images, each attributed line picks its most similar image ("caption + piece text"), and each
image keeps only its most similar line. Stage 3 asks the model to integrate the images placed before their lines.
Auxiliary images have no source piece, so this strategy never uses them.
"""

from __future__ import annotations

import re

import numpy as np

from ..models.client import ModelClient
from ..schema import IMAGE_MARKER_RE
from ..models.embeddings import make_embedder
from .base import StageReporter, Strategy, Work, pass_over
from .parsing import extract_images, unwrap_markdown
from .selection import IMAGE_SLOT, Candidate, SelectedPage, SelectionConfig, select, strip_slots

_REFS = re.compile(r"^\W*references?\W*:?\s*([\d\s,;]*)$", re.I)


def split_references(text: str) -> tuple[list[str], list[int]]:
    """Answer lines without the trailing "References: 0 2" line, and the source numbers it lists."""
    lines = text.split("\n")
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip():
            match = _REFS.match(lines[i].strip())
            if match:
                return lines[:i], [int(n) for n in re.findall(r"\d+", match.group(1))]
            break
    return lines, []


class Separate(Strategy):
    name = "separate"
    template_names = ("separate_text", "separate_refine")

    def select(self, sample):  # noqa: ANN001, ANN201 - Sample -> Selection
        if self.protocol.murar_filters:
            selection = super().select(sample)
        else:  # as published: no image score filter or caps, pieces kept from score 0.1
            cfg = SelectionConfig(min_piece_score=0.1, min_image_score=0, max_images_per_page=10**6,
                                  max_images=10**6, use_aux_images=False, piece_separator="")
            selection = select(sample, cfg)
        selection.aux = []
        return selection

    def passes(self, work: list[Work], client: ModelClient, stage: StageReporter) -> None:
        items = [(w, self.call("separate_text", [], query=w.sample.query, aux=[],
                               pages=[_textual(p) for p in w.selection.pages])) for w in work]
        answers: dict[int, tuple[list[str], list[int]]] = {}
        for (w, call), done in zip(items, pass_over(client, "1/3 text", items, stage)):
            w.record("stage_1", call, done)
            if done.ok:
                answers[id(w)] = split_references(unwrap_markdown(done.text))
                if not "".join(answers[id(w)][0]).strip():
                    w.error = "stage_1: the model returned an empty answer"
        live = [w for w in work if w.error is None]

        embedder = make_embedder(self.config.embedder) if live else None
        progress = stage("2/3 retrieve images", len(live))
        matches: dict[int, dict[int, Candidate]] = {}
        for w in live:
            matches[id(w)] = self._retrieve(w, answers[id(w)][0], embedder)
            w.stages["stage_2"] = {"embedder": embedder.name, "threshold": self.config.similarity_threshold,
                                   "matches": {str(line): c.index for line, c in sorted(matches[id(w)].items())}}
            w.counts["retrieved"] += len(matches[id(w)])
            if progress:
                progress(1)

        items3, order = [], []
        for w in live:
            lines, refs = answers[id(w)]
            text, slot_candidates = self._with_images(lines, matches[id(w)])
            if not slot_candidates:
                self._finish(w, "\n".join(lines), [], refs)
                continue
            call = self.call("separate_refine", [], slots=slot_candidates, query=w.sample.query, answer=text)
            items3.append((w, call))
            order.append((refs, [matches[id(w)][line] for line in sorted(matches[id(w)])]))
        for (w, call), (refs, matched), done in zip(items3, order, pass_over(client, "3/3 refine", items3, stage)):
            w.record("stage_3", call, done)
            if done.ok:
                self._finish(w, unwrap_markdown(done.text), matched, refs)

    def _retrieve(self, w: Work, lines: list[str], embedder) -> dict[int, Candidate]:  # noqa: ANN001
        """line number -> the candidate image placed before it."""
        sections = [(page, piece, [c for c in page.candidates if c.image.split_id == piece.split_id])
                    for page in w.selection.pages for piece in page.pieces]
        sections = [s for s in sections if s[2]]
        numbered = [(i, line) for i, line in enumerate(lines) if line.strip()]
        if not sections or not numbered:
            return {}
        line_vecs = embedder.encode([line for _, line in numbered])
        section_vecs = embedder.encode([_plain(piece.text) for _, piece, _ in sections])
        sims = line_vecs @ section_vecs.T
        best = sims.argmax(axis=1)
        chosen: dict[int, tuple[float, int]] = {}  # candidate index -> (similarity, line number)
        for s, (_, piece, cands) in enumerate(sections):
            members = [k for k in range(len(numbered))
                       if best[k] == s and sims[k, s] >= self.config.similarity_threshold]
            if not members:
                continue
            image_vecs = embedder.encode([f"Image caption: {c.caption}\nImage context: {_plain(piece.text)}"
                                          for c in cands])
            image_sims = line_vecs[members] @ image_vecs.T
            for row, k in enumerate(members):
                pick = int(np.argmax(image_sims[row]))
                score = float(image_sims[row, pick])
                if cands[pick].index not in chosen or score > chosen[cands[pick].index][0]:
                    chosen[cands[pick].index] = (score, numbered[k][0])
        by_index = {c.index: c for c in w.selection.candidates}
        return {line: by_index[index] for index, (_, line) in chosen.items()}

    def _with_images(self, lines: list[str], matched: dict[int, Candidate]) -> tuple[str, dict[int, Candidate]]:
        """The answer with an image slot before each matched line; slot number -> candidate as the model sees it."""
        out, slots = [], {}
        for i, line in enumerate(lines):
            if i in matched:
                cand = matched[i]
                shown = cand if self.protocol.murar_numbering else Candidate(0, cand.image, cand.page)
                slot_id = len(slots) + 10**6  # slot ids never collide with candidate numbers
                slots[slot_id] = shown
                out.append(IMAGE_SLOT.format(slot_id))
            out.append(line)
        return "\n".join(out), slots

    def _finish(self, w: Work, text: str, matched: list[Candidate], refs: list[int]) -> None:
        if self.protocol.murar_numbering:
            parsed = extract_images(text, w.selection.candidates)
        else:  # as published: every placeholder says images/0, which resolves to the first matched image
            parsed = extract_images(text, matched, compat=True)
        w.counts.update(parsed.counts)
        titles = [f"{k}. {p.page.title} - {p.page.url}" for k in refs for p in w.selection.pages if p.index == k]
        tail = "\n\n## References\n" + "\n".join(titles) if titles and self.protocol.murar_numbering else ""
        raw_tail = "\n\nReferences: " + " ".join(map(str, refs)) if refs and not self.protocol.murar_numbering else ""
        self.finish(w, parsed.response + tail, parsed.placeholder_response + (tail or raw_tail), parsed.output_images)


def _textual(page: SelectedPage) -> SelectedPage:
    """A page with its image slots removed (stage 1 sees text only)."""
    return SelectedPage(page.index, page.page, page.pieces, strip_slots(page.text), [])


def _plain(text: str) -> str:
    return IMAGE_MARKER_RE.sub(" ", text)
