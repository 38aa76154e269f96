"""In-document selection: which pieces and images of a sample's pages go into the prompt (reference §2.2).

Per page: pieces scored ≥ ``min_piece_score``, the top ``max_pieces_per_page`` by score, put back in document
order; a page left without pieces is dropped. An image is a candidate only if its piece survived (so its context
comes with it), its file is available, it has a caption and ``min_image_score ≤ final_score``; then the top
``max_images_per_page`` per page by score, the top ``max_aux_images`` auxiliary images, and the top ``max_images``
overall (ties keep page images, in order, before auxiliary ones). Candidates are numbered globally: page images in
page and text order, then auxiliary images — the number ``N`` of the pseudo URL ``images/N.<ext>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..schema import IMAGE_MARKER_RE, ImageRef, Sample, TextPiece, WebPage

IMAGE_SLOT = "\x00IMG{}\x00"  # where candidate N sits in a page's prompt text (rendered per modality later)
_SLOTS = re.compile("\x00IMG\\d+\x00")


def strip_slots(text: str) -> str:
    """Page text without its image slots."""
    return _SLOTS.sub("", text)


@dataclass(frozen=True)
class SelectionConfig:
    """Selection parameters, each settable from a task file; the defaults are the paper's."""

    min_piece_score: float = 3
    max_pieces_per_page: int = 20
    min_image_score: float = 3
    max_images_per_page: int = 5
    max_aux_images: int = 5
    max_images: int = 10
    use_aux_images: bool = True
    piece_separator: str = "\n\n"


@dataclass
class Candidate:
    """A candidate image with its global number."""

    index: int
    image: ImageRef
    page: int | None  # prompt index of its page; None for auxiliary images

    @property
    def pseudo_url(self) -> str:
        return f"images/{self.index}.{self.image.extension}"

    @property
    def caption(self) -> str:
        return " ".join((self.image.detailed_caption or "").split())


@dataclass
class SelectedPage:
    """A page as the model sees it: prompt index, kept pieces, and text with candidate slots."""

    index: int
    page: WebPage
    pieces: list[TextPiece]
    text: str = ""  # kept pieces joined; each candidate's marker replaced by IMAGE_SLOT.format(N), others removed
    candidates: list[Candidate] = field(default_factory=list)


@dataclass
class Selection:
    """What one sample contributes to a prompt."""

    sample: Sample
    pages: list[SelectedPage]
    aux: list[Candidate]

    @property
    def candidates(self) -> list[Candidate]:
        return [c for p in self.pages for c in p.candidates] + self.aux

    def candidate(self, index: int) -> Candidate:
        return self.candidates[index]


def _usable(img: ImageRef, cfg: SelectionConfig) -> bool:
    return (img.available and img.detailed_caption is not None and img.final_score is not None
            and img.final_score >= cfg.min_image_score)


def _top(items: list, key, k: int) -> list:  # noqa: ANN001 - a stable top-k by descending key
    ranked = sorted(range(len(items)), key=lambda i: -key(items[i]))[: max(0, k)]
    return [items[i] for i in sorted(ranked)]


def select(sample: Sample, cfg: SelectionConfig = SelectionConfig()) -> Selection:
    """Apply in-document selection to one sample."""
    kept_pages: list[tuple[WebPage, list[TextPiece], list[ImageRef]]] = []
    for page in sample.webpages:
        pieces = [p for p in page.pieces or [] if p.score is not None and p.score >= cfg.min_piece_score]
        pieces = _top(pieces, lambda p: p.score, cfg.max_pieces_per_page)
        if not pieces:
            continue
        kept_ids = {p.split_id for p in pieces}
        images = [img for img in page.images if img.split_id in kept_ids and _usable(img, cfg)]
        kept_pages.append((page, pieces, _top(images, lambda i: i.final_score, cfg.max_images_per_page)))
    aux = [img for img in sample.aux_images if img.valid and _usable(img, cfg)] if cfg.use_aux_images else []
    aux = _top(aux, lambda i: i.final_score, cfg.max_aux_images)
    pooled = [img for _, _, imgs in kept_pages for img in imgs] + aux
    chosen = {id(img) for img in _top(pooled, lambda i: i.final_score, cfg.max_images)}

    pages: list[SelectedPage] = []
    counter = 0
    for k, (page, pieces, images) in enumerate(kept_pages):
        by_id = {img.image_id: img for img in images if id(img) in chosen}
        selected = SelectedPage(k, page, pieces)
        texts = []
        for piece in pieces:
            def slot(match) -> str:  # noqa: ANN001 - re.Match
                nonlocal counter
                img = by_id.pop(match.group(1), None)
                if img is None:
                    return ""
                selected.candidates.append(Candidate(counter, img, k))
                counter += 1
                return IMAGE_SLOT.format(counter - 1)

            texts.append(IMAGE_MARKER_RE.sub(slot, piece.text))
        selected.text = cfg.piece_separator.join(texts)
        pages.append(selected)
    aux_candidates = []
    for img in aux:
        if id(img) in chosen:
            aux_candidates.append(Candidate(counter, img, None))
            counter += 1
    return Selection(sample, pages, aux_candidates)
