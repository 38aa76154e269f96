"""Rewriting a kept response into a single-stage training pair (reference §6.1).

* input: this package's single-stage prompt for the sample, rebuilt with the run's own selection settings and
  protocol, so the candidates carry the numbers the run used. ``llm``: each candidate is
  ``![<detailed description>](images/N.ext)``; ``mllm``: each is ``![<image>](images/N.ext)`` and its file is listed
  in ``images``, in order, one per ``<image>`` token.
* target: the run's ``response`` — the teacher's answer with its images as ``![caption](images/N.ext)``. Every
  strategy numbers candidates the same way (``strategies.selection``: page images in page and text order, then
  auxiliary images), and multi-stage answers place ``cand.pseudo_url``; this is checked per response against the
  candidates the run recorded (``stages.selection.candidates``) and the pseudo URLs in the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from ..data.images import image_key
from ..schema import Response, Sample
from ..strategies.parsing import candidate_key
from ..strategies.protocols import get_protocol
from ..strategies.selection import Candidate, SelectionConfig, select
from ..strategies.templates import render, template_id

IMAGE_TOKEN = "<image>"
_SLOT = re.compile("\x00IMG(\\d+)\x00")
_PSEUDO = re.compile(r"!\[[^\]\n]*\]\((images/(\d+)\.[A-Za-z0-9]+)\)")
TRAINING_SET = "ELI5/training_set"


class NotRewritable(ValueError):
    """The response cannot be turned into a faithful training pair (the reason says why)."""


@dataclass
class TrainingImage:
    release_path: str  # ELI5/training_set/query-…/… (the authors' path after IMAGE_URL)
    data: bytes


@dataclass
class TrainingPair:
    id: str
    query_id: str
    modality: str
    model_input: str
    model_response: str
    images: list[TrainingImage] = field(default_factory=list)  # mllm: one per <image> token, in order
    source_run: str = ""
    template: str = ""


def run_selection(config: dict[str, Any]) -> SelectionConfig:
    """The selection settings a run used (its stamp), with its protocol's piece separator, as `Strategy.select`."""
    identity = config.get("identity", {})
    settings = {k: v for k, v in (identity.get("selection") or {}).items() if k in SelectionConfig.__dataclass_fields__}
    protocol = get_protocol(identity.get("protocol") or config.get("protocol") or "default")
    return replace(SelectionConfig(**settings), piece_separator=protocol.piece_separator)


def _release_path(cand: Candidate, query_id: str) -> str:
    img = cand.image
    key = image_key(img.cached_path) if img.cached_path else ""
    if not key.startswith("query-"):
        key = f"query-{query_id}/" + (key.rsplit("/", 1)[-1] if key else f"{candidate_key(cand).replace('/', '-')}"
                                                                          f".{img.extension}")
    return f"{TRAINING_SET}/{key}"


def verify(response: Response, candidates: list[Candidate]) -> None:
    """Raise `NotRewritable` unless the run's numbering is the one the single-stage prompt will show."""
    recorded = [(c["index"], c["image_id"]) for c in response.stages.get("selection", {}).get("candidates", [])]
    rebuilt = [(c.index, candidate_key(c)) for c in candidates]
    if recorded != rebuilt:
        raise NotRewritable(f"{response.query_id}: the run's candidates {recorded} differ from the rebuilt "
                            f"selection {rebuilt} (other data or selection settings)")
    urls = {c.pseudo_url for c in candidates}
    for match in _PSEUDO.finditer(response.response or ""):
        if match.group(1) not in urls:
            raise NotRewritable(f"{response.query_id}: the answer refers to {match.group(1)}, not a candidate")
    by_index = {c.index: candidate_key(c) for c in candidates}
    for out in response.output_images:
        if by_index.get(out.index) != out.image_id:
            raise NotRewritable(f"{response.query_id}: output image {out.index} is {out.image_id}, but candidate "
                                f"{out.index} is {by_index.get(out.index)}")


def rewrite(response: Response, sample: Sample, config: dict[str, Any], modality: str, run: str = "") -> TrainingPair:
    """One single-stage training pair from a kept response."""
    if modality not in ("llm", "mllm"):
        raise ValueError(f"modality must be 'llm' or 'mllm', not {modality!r}")
    selection = select(sample, run_selection(config))
    candidates = selection.candidates
    verify(response, candidates)
    target = (response.response or "").strip()
    text = render("single_stage", modality=modality, query=sample.query, pages=selection.pages, aux=selection.aux)
    if IMAGE_TOKEN in text or IMAGE_TOKEN in target:
        raise NotRewritable(f"{response.query_id}: the text itself contains {IMAGE_TOKEN!r}, which would break the "
                            "one-token-per-image pairing")
    by_index = {c.index: c for c in candidates}
    images: list[TrainingImage] = []

    def fill(match: re.Match) -> str:
        cand = by_index[int(match.group(1))]
        if modality == "llm":
            return f"![{cand.caption}]({cand.pseudo_url})"
        if cand.image.image_bytes is None:
            raise NotRewritable(f"{response.query_id}: candidate {cand.index} has no image file")
        images.append(TrainingImage(_release_path(cand, sample.query_id), cand.image.image_bytes))
        return f"![{IMAGE_TOKEN}]({cand.pseudo_url})"

    model_input = _SLOT.sub(fill, text).strip()
    return TrainingPair(id=f"{sample.query_id}", query_id=sample.query_id, modality=modality, model_input=model_input,
                        model_response=target, images=images, source_run=run, template=template_id("single_stage"))
