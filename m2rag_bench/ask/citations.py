"""Numbered citations for an answer: which retrieved page each paragraph draws on.

The answer is parsed with the same markdown-it configuration as the renderer, so "paragraph" means what the reader
sees: a paragraph or list-item paragraph (headings, code, tables and image-only paragraphs never cite). A paragraph
cites a page when

* its text is close to one of the page's kept pieces (score ≥ ``min_piece_score``, the selection's 3): cosine
  similarity of sentence embeddings between the paragraph and windows of ≤ 2 sentences of the piece, best window
  per page, at least the threshold and within ``margin`` of the paragraph's best page (every page answers the same
  question, so a second page needs to be nearly as close as the best one to count as drawn on); or
* an image of the page sits inside the paragraph or in the block right before or after it (auxiliary images have no
  page and add nothing).

Pages are numbered in order of first citation. Each citing paragraph gets `` [[n]](url)`` links appended to the
end of its last text line (before a trailing hard break or inline image), so block structure is unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from markdown_it.token import Token

from ..leaderboard.render import PSEUDO_URL, _md
from ..models.embeddings import DEFAULT_EMBEDDER, Embedder, LexicalEmbedder
from ..schema import IMAGE_MARKER_RE, ImageRef, Response, Sample

#: Default similarity thresholds per embedder name, measured on the bundled mini split (see `default_threshold`).
DEFAULT_THRESHOLDS = {"lexical": 0.42, f"sentence-transformers/{DEFAULT_EMBEDDER}": 0.60}
#: How far below a paragraph's best page another page may score and still be cited, per embedder.
DEFAULT_MARGINS = {"lexical": 0.10, f"sentence-transformers/{DEFAULT_EMBEDDER}": 0.06}
#: An inline image in markdown source: ``![alt](dest "title")`` (alt may hold one level of brackets).
IMAGE_MD = re.compile(r"!\[((?:[^\[\]\\]|\\.|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_CONTAINER = re.compile(r"^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+|>\s?)*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
_URL_UNSAFE = re.compile(r"[\s()<>\\`\"'|\[\]]")


class Source(NamedTuple):
    """A cited page: its number in the answer, title, URL and webpage id in the sample."""

    number: int
    title: str
    url: str
    webpage_id: int


@dataclass
class Block:
    """A leaf block of the answer: ``kind`` is "text" (a citable paragraph), "image" (images only) or "other"."""

    kind: str
    start: int  # first source line (0-based)
    end: int  # one past the last source line
    text: str = ""  # plain text of a paragraph (no markup, no images)
    images: list[int] = field(default_factory=list)  # pseudo-URL numbers of the images in the block


@dataclass
class ParagraphCitation:
    """Why a paragraph cites what it cites (kept for the report and for tests)."""

    line: int  # 0-based line the citation was appended to
    text: str
    pages: list[int]  # webpage ids cited, in the order written
    similarity: dict[int, float]  # best similarity per considered webpage id
    image_pages: list[int]  # webpage ids cited because of an adjacent or inline image


@dataclass
class CitedAnswer:
    """The answer with citation links, the numbered sources and the evidence behind each citation."""

    markdown: str
    sources: list[Source]
    paragraphs: list[ParagraphCitation]
    embedder: str
    threshold: float


def default_threshold(embedder: Embedder) -> float:
    """The similarity a paragraph needs to cite a page with this embedder.

    Measured on the mini split with 22 hand-written paragraphs (restatements and paraphrases of one page's piece,
    and on-topic sentences from no page), similarity = best two-sentence window of the page:

    * MiniLM, 0.60 (margin 0.06): paraphrases score 0.67–0.96 against their page; pages they do not draw on score
      0.3–0.6 (the same question, so the same vocabulary), a few up to 0.73 when a second page says the same thing
      (the margin then decides); on-topic sentences from no page reach 0.64 at most. Other sentence-transformers
      models get the same values.
    * lexical, 0.42 (margin 0.10): word overlap — paraphrases 0.46–0.87, other pages ≤ 0.53, sentences from no page
      ≤ 0.33. Paraphrases in new words can fall below it, which is the lexical embedder's limit.
    """
    name = getattr(embedder, "name", "")
    return DEFAULT_THRESHOLDS.get(name, DEFAULT_THRESHOLDS["lexical" if name == "lexical" else
                                                           f"sentence-transformers/{DEFAULT_EMBEDDER}"])


def _margin(embedder: Embedder) -> float:
    return DEFAULT_MARGINS["lexical" if getattr(embedder, "name", "") == "lexical" else
                           f"sentence-transformers/{DEFAULT_EMBEDDER}"]


def default_embedder() -> Embedder:
    """The offline MiniLM model when it is installed (with sentence-transformers), otherwise the lexical one."""
    from ..models.embeddings import make_embedder

    try:
        return make_embedder(None)
    except Exception:  # noqa: BLE001 - BackendError, ImportError or a broken install: fall back, never fail
        return LexicalEmbedder()


def _inline_text(children: list[Token]) -> tuple[str, list[int], bool]:
    """Plain text, image numbers and whether anything but images and whitespace is present."""
    parts: list[str] = []
    images: list[int] = []
    for tok in children:
        if tok.type == "image":
            match = PSEUDO_URL.match(str(tok.attrs.get("src", "")))
            images.append(int(match.group(1)) if match else -1)
        elif tok.type in ("text", "code_inline"):
            parts.append(tok.content)
        elif tok.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    text = " ".join("".join(parts).split())
    return text, images, bool(text)


def answer_blocks(markdown: str) -> list[Block]:
    """The leaf blocks of an answer in document order (paragraphs, image-only paragraphs and everything else)."""
    tokens = _md.parse(markdown)
    blocks: list[Block] = []
    for i, tok in enumerate(tokens):
        if tok.map is None or tok.nesting == -1:
            continue
        if tok.type == "paragraph_open":
            inline = tokens[i + 1]
            text, images, has_text = _inline_text(inline.children or [])
            blocks.append(Block("text" if has_text else "image", tok.map[0], tok.map[1], text, images))
        elif tok.type in ("heading_open", "fence", "code_block", "table_open", "hr", "html_block"):
            blocks.append(Block("other", tok.map[0], tok.map[1]))
    return blocks


def _is_image_line(line: str) -> bool:
    rest = IMAGE_MD.sub("", line[_CONTAINER.match(line).end():])
    return IMAGE_MD.search(line) is not None and not rest.strip()


def _append(line: str, cite: str) -> str:
    """``line`` with ``cite`` after its text: before a trailing hard break and any trailing inline images."""
    body = line.rstrip(" \t")
    tail = line[len(body):]
    if body.endswith("\\") and not body.endswith("\\\\"):
        body, tail = body[:-1], "\\" + tail
    if len(tail) < 2 and tail and not tail.startswith("\\"):
        tail = ""  # one trailing space is no hard break
    images = ""
    while True:
        match = re.search(IMAGE_MD.pattern + r"\s*$", body)
        if not match or not body[:match.start()].strip() or _CONTAINER.fullmatch(body[:match.start()]):
            break
        images = body[match.start():] + images
        body = body[:match.start()].rstrip()
    return f"{body}{cite}{' ' + images.lstrip() if images else ''}{tail}"


def _link(number: int, url: str) -> str:
    if re.match(r"^https?://", url, re.I):
        return f" [[{number}]]({_URL_UNSAFE.sub(lambda m: f'%{ord(m.group()):02X}', url)})"
    return f" \\[{number}\\]"


def _windows(text: str) -> list[str]:
    """A piece as windows of up to two consecutive sentences (the whole piece when it has one or two)."""
    sentences = [s.strip() for s in _SENTENCE.split(" ".join(IMAGE_MARKER_RE.sub(" ", text).split())) if s.strip()]
    if len(sentences) <= 2:
        return [" ".join(sentences)] if sentences else []
    return [" ".join(sentences[k:k + 2]) for k in range(len(sentences) - 1)]


def candidate_images(sample: Sample, image_keys: Mapping[int, str] | None = None) -> dict[int, ImageRef]:
    """Pseudo-URL number -> candidate image: by ``image_keys`` (number -> ``ImageRef.key``, as a strategy records
    them) or, without them, as the default selection numbers them."""
    if image_keys is None:
        from ..strategies.selection import select

        return {c.index: c.image for c in select(sample).candidates}
    by_key = {img.key: img for img in sample.all_images()}
    return {n: by_key[k] for n, k in image_keys.items() if k in by_key}


def cite(answer_markdown: str, sample: Sample, selected_pages: list[int] | None = None,
         embedder: Embedder | str | None = None, threshold: float | None = None, *,
         image_keys: Mapping[int, str] | None = None, margin: float | None = None,
         min_piece_score: float = 3) -> CitedAnswer:
    """Add numbered page citations to ``answer_markdown``.

    ``selected_pages``: webpage ids the model saw (``stages["selection"]["pages"]``); None = every page with a kept
    piece. ``embedder``: an `Embedder`, a name for `make_embedder`, or None for `default_embedder`. ``threshold`` /
    ``margin``: None = the embedder's default (`default_threshold`). ``image_keys``: pseudo-URL number ->
    ``ImageRef.key`` of the candidates (``stages["selection"]["candidates"]``); None = the default selection's
    numbering.
    """
    if isinstance(embedder, str):
        from ..models.embeddings import make_embedder

        embedder = make_embedder(embedder)
    embedder = embedder or default_embedder()
    threshold = default_threshold(embedder) if threshold is None else threshold
    margin = _margin(embedder) if margin is None else margin
    text = (answer_markdown or "").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    blocks = answer_blocks(text)
    pages = {p.webpage_id: p for p in sample.webpages}
    wanted = [pid for pid in (selected_pages if selected_pages is not None else pages) if pid in pages]
    windows: list[tuple[int, str]] = []
    for pid in wanted:
        for piece in pages[pid].pieces or []:
            if piece.score is not None and piece.score >= min_piece_score:
                windows += [(pid, w) for w in _windows(piece.text)]
    paragraphs = [k for k, b in enumerate(blocks) if b.kind == "text"]
    sims = np.zeros((len(paragraphs), 0), dtype=np.float32)
    if paragraphs and windows:
        vecs = embedder.encode([blocks[k].text for k in paragraphs] + [w for _, w in windows])
        sims = vecs[: len(paragraphs)] @ vecs[len(paragraphs):].T
    image_page = {n: img.webpage_id for n, img in candidate_images(sample, image_keys).items()
                  if img.webpage_id is not None}
    numbers: dict[int, int] = {}
    cited: list[ParagraphCitation] = []
    for row, k in enumerate(paragraphs):
        block = blocks[k]
        best: dict[int, float] = {}
        for col, (pid, _) in enumerate(windows):
            best[pid] = max(best.get(pid, -1.0), float(sims[row, col]))
        top = max(best.values(), default=-1.0)
        by_text = [pid for pid, s in best.items() if s >= threshold and s >= top - margin]
        near = list(block.images)
        for j in (k - 1, k + 1):
            if 0 <= j < len(blocks) and blocks[j].kind == "image":
                near += blocks[j].images
        by_image = [image_page[n] for n in near if n in image_page and image_page[n] in pages]
        chosen = list(dict.fromkeys(sorted(by_text, key=lambda p: -best[p]) + by_image))
        if not chosen:
            continue
        order = {p: i for i, p in enumerate(chosen)}  # already numbered pages first, then by evidence
        chosen.sort(key=lambda p: (numbers.get(p, len(numbers) + 1), order[p]))
        for pid in chosen:
            numbers.setdefault(pid, len(numbers) + 1)
        line = next((n for n in range(block.end - 1, block.start - 1, -1) if not _is_image_line(lines[n])), None)
        if line is None:
            continue
        lines[line] = _append(lines[line], "".join(_link(numbers[p], pages[p].url) for p in chosen))
        cited.append(ParagraphCitation(line, block.text, chosen, best, list(dict.fromkeys(by_image))))
    sources = [Source(n, pages[pid].title or pages[pid].url, pages[pid].url, pid)
               for pid, n in sorted(numbers.items(), key=lambda kv: kv[1])]
    return CitedAnswer("\n".join(lines), sources, cited, getattr(embedder, "name", type(embedder).__name__),
                       threshold)


def selection_record(response: Response) -> tuple[list[int] | None, dict[int, str] | None]:
    """The selected webpage ids and pseudo-URL number -> image key a strategy recorded in ``stages["selection"]``
    (None for what it did not record; the placed images stand in for missing candidates)."""
    record = response.stages.get("selection") or {}
    pages = record.get("pages")
    if "candidates" in record:
        keys: dict[int, str] | None = {int(c["index"]): str(c["image_id"]) for c in record["candidates"] or []}
    elif response.output_images:
        keys = {o.index: o.image_id for o in response.output_images}
    else:
        keys = None
    return (list(pages) if pages is not None else None), keys


def cite_response(response: Response, sample: Sample, embedder: Embedder | str | None = None,
                  threshold: float | None = None) -> CitedAnswer:
    """`cite` for a strategy's response, with the pages and image numbering it recorded."""
    pages, keys = selection_record(response)
    return cite(response.response or "", sample, pages, embedder, threshold, image_keys=keys)
