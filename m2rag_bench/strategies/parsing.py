"""Parsing model output: strict, and counted. Nothing is dropped without a count saying so.

* `unwrap_markdown`: the body of a ```` ```markdown ```` fence when the model wrapped its answer in one.
* `extract_images`: keep ``![caption](images/N.ext)`` references to real candidates, each at most once; remove
  out-of-range, duplicate and foreign (non-candidate) images, and count each kind.
* `parse_placement`: the stage-2 decision of multi-stage, a signed line index (−1 rejects).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..schema import PLACEHOLDER, OutputImage
from .selection import Candidate

_FENCE = re.compile(r"```[ \t]*(?:markdown|md)[ \t]*\n(.*?)(?:\n```|\Z)", re.S | re.I)
_STRICT = re.compile(r"!\[([^\]\n]*)\]\(\s*<?\s*images/(\d+)\.[A-Za-z0-9]+\s*>?\s*\)")
_ANY_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
# The published code's pattern: lazy groups, index = first digit run anywhere in the URL (reference §3.1, §8.1.16).
_COMPAT = re.compile(r"!\[(.*?)\]\((.*?)(\d+)(.*?)\)")
_REFUSAL = re.compile(r"^\s*(i can['’]?t|i cannot|i['’]m sorry|i am sorry|sorry, i|as an ai)\b", re.I)


def unwrap_markdown(text: str) -> str:
    """The content of the first ```` ```markdown ```` fence (to its close, or to the end), else the text stripped."""
    match = _FENCE.search(text)
    return (match.group(1) if match else text).strip()


def is_refusal(text: str) -> bool:
    return bool(_REFUSAL.match(text))


@dataclass
class ParsedAnswer:
    """An answer with its images resolved against the candidates."""

    response: str  # markdown; images as ![caption](images/N.ext)
    placeholder_response: str  # the same with each image replaced by PLACEHOLDER
    output_images: list[OutputImage] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)


def extract_images(text: str, candidates: list[Candidate], compat: bool = False,
                   placeholder: str = PLACEHOLDER) -> ParsedAnswer:
    """Resolve image references in an answer; see the module docstring for the rules."""
    used: set[int] = set()
    images: list[OutputImage] = []
    counts: Counter = Counter()
    pieces: list[tuple[str, str]] = []  # (response text, placeholder text)
    pattern = _COMPAT if compat else _STRICT
    pos = 0
    for match in pattern.finditer(text):
        index = int(match.group(3) if compat else match.group(2))
        caption = match.group(1).strip()
        between = text[pos:match.start()]
        pieces.append((between, between))
        pos = match.end()
        if index >= len(candidates):
            counts["out_of_range"] += 1
        elif index in used:
            counts["duplicate"] += 1
        else:
            used.add(index)
            cand = candidates[index]
            images.append(OutputImage(index=cand.index, image_id=candidate_key(cand), caption=caption))
            pieces.append((f"![{caption}]({cand.pseudo_url})", placeholder))
            counts["accepted"] += 1
    pieces.append((text[pos:], text[pos:]))
    response = "".join(p[0] for p in pieces)
    placeholder_response = "".join(p[1] for p in pieces)
    if not compat:  # images that are not candidates (remote URLs, made-up paths) are removed and counted
        foreign = [m for m in _ANY_IMAGE.finditer(response) if not _STRICT.fullmatch(m.group(0))]
        if foreign:
            counts["foreign"] += len(foreign)
            response = _ANY_IMAGE.sub(lambda m: m.group(0) if _STRICT.fullmatch(m.group(0)) else "", response)
            placeholder_response = _ANY_IMAGE.sub("", placeholder_response)
    return ParsedAnswer(response, placeholder_response, images, counts)


def candidate_key(cand: Candidate) -> str:
    """A stable id of a candidate: ``<webpage_id>/<image_id>`` for page images, ``aux-<i>`` for auxiliary ones."""
    return cand.image.key


def parse_placement(text: str, n_lines: int, compat: bool = False) -> tuple[int, str, str | None]:
    """``(line index or -1, caption, problem)`` from a stage-2 reply: caption line(s), then the index line.

    Default: the last non-empty line must be a signed integer; out of range or unparsable means −1 with a problem.
    ``compat``: the published parse, the last digit run of the last line, so "−1" reads as 1 (reference §3.3).
    """
    lines = [line.strip() for line in unwrap_markdown(text).split("\n")]
    if compat:
        last = lines[-1] if lines else ""
        digits = re.findall(r"\d+", last)
        index = int(digits[-1]) if digits else -1
        index = index if 0 <= index < n_lines else -1
        return index, " ".join(lines[:-1]).strip(), None
    lines = [line for line in lines if line]
    if not lines:
        return -1, "", "empty reply"
    match = re.fullmatch(r"(?:line\s*)?\[?\s*([+-]?\d+)\s*\]?\.?", lines[-1], re.I)
    caption = " ".join(lines[:-1]).strip().strip("*_`\"'")
    if not match:
        return -1, caption, f"last line is not an integer: {lines[-1][:80]!r}"
    index = int(match.group(1))
    if index == -1:
        return -1, caption, None
    if not 0 <= index < n_lines:
        return -1, caption, f"line {index} out of range 0..{n_lines - 1}"
    return index, caption, None
