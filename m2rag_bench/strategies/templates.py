"""Prompt templates: versioned Jinja files in ``strategies/prompts/``, rendered into text-and-image messages.

The first line of each file is a comment ``{#- name vN: purpose -#}``; ``name@vN`` is recorded with every call and
is part of the cache key, so editing a prompt and bumping its version re-runs exactly the calls it affects.
Candidate images are rendered as ``![<description>](images/N.ext)`` for text-only LLMs and as
``![<the image>](images/N.ext)`` (the image inside the brackets) for MLLMs.
"""

from __future__ import annotations

import io
import re
from functools import cached_property, lru_cache
from importlib import resources

import jinja2
from PIL import Image

from ..models.base import Call, GenerationParams
from ..models.messages import ImagePart, Message, Part, TextPart
from .selection import IMAGE_SLOT, Candidate

_IMAGE_SLOT = "\x00image\x00"  # where a template's single image goes (split out of the rendered text)
_HEADER = re.compile(r"^\{#-?\s*(?P<name>[\w.-]+)\s+v(?P<version>\d+)\s*:")
_SLOT = re.compile(IMAGE_SLOT.replace("{}", r"(\d+)").replace("\x00", "\\x00"))


class Templates:
    """A folder of versioned Jinja templates inside a package."""

    def __init__(self, package: str, folder: str) -> None:
        self.package, self.folder = package, folder

    def source(self, name: str) -> str:
        return resources.files(self.package).joinpath(self.folder).joinpath(name).read_text(encoding="utf-8")

    @cached_property
    def environment(self) -> jinja2.Environment:
        return jinja2.Environment(loader=jinja2.FunctionLoader(self.source), undefined=jinja2.StrictUndefined,
                                  keep_trailing_newline=False, autoescape=False, trim_blocks=False)

    def template_id(self, name: str) -> str:
        """``name@vN`` of a template file (``name`` without the ``.jinja`` suffix)."""
        match = _HEADER.match(self.source(f"{name}.jinja"))
        if not match or match["name"] != name:
            raise ValueError(f"{self.folder}/{name}.jinja must start with a '{{#- {name} vN: purpose -#}}' header")
        return f"{name}@v{match['version']}"

    def render(self, name: str, **context) -> str:  # noqa: ANN003 - template variables
        return self.environment.get_template(f"{name}.jinja").render(**context).strip() + "\n"

    def call(self, name: str, params: GenerationParams, *, attempt: int = 0, image: ImagePart | None = None,
             **context) -> Call:  # noqa: ANN003 - template variables
        """A one-message call from template ``name``: where the template writes ``{{ image }}`` the image part goes
        (nothing without one). A re-ask (``attempt`` > 0) is recorded as ``name@vN#retryN``, so it is a new call."""
        text = self.render(name, image=_IMAGE_SLOT, **context)
        before, sep, after = text.partition(_IMAGE_SLOT)
        parts = [TextPart(before), image, TextPart(after)] if sep and image is not None else [TextPart(before + after)]
        parts = [p for p in parts if not (isinstance(p, TextPart) and not p.text)]
        template = self.template_id(name) + (f"#retry{attempt}" if attempt else "")
        return Call((Message("user", tuple(parts)),), params, template)


PROMPTS = Templates("m2rag_bench.strategies", "prompts")


def template_id(name: str) -> str:
    """``name@vN`` of a generation prompt."""
    return PROMPTS.template_id(name)


def render(name: str, **context) -> str:  # noqa: ANN003 - template variables
    """Render a generation prompt; candidate images appear as slots that `to_message` turns into parts."""
    return PROMPTS.render(name, slot=slot, **context)


def slot(candidate: Candidate) -> str:
    return IMAGE_SLOT.format(candidate.index)


@lru_cache(maxsize=4096)
def thumbnail(data: bytes, max_side: int) -> ImagePart:
    """The image as sent to an MLLM: shrunk to fit ``max_side`` (never enlarged), aspect ratio kept."""
    with Image.open(io.BytesIO(data)) as im:
        if max(im.size) <= max_side and (im.format or "").upper() in ("PNG", "JPEG", "WEBP"):
            return ImagePart.from_bytes(data, im.format.lower())
        im = im.convert("RGB")
        im.thumbnail((max_side, max_side))
        buf = io.BytesIO()
        im.save(buf, "PNG")
        return ImagePart(buf.getvalue(), "image/png")


def to_message(text: str, candidates: dict[int, Candidate], modality: str, max_side: int = 512) -> Message:
    """A user message from rendered text: each slot becomes the candidate's markdown, with pixels for MLLMs."""
    parts: list[Part] = []
    pos = 0
    for match in _SLOT.finditer(text):
        cand = candidates[int(match.group(1))]
        before = text[pos:match.start()]
        if modality == "mllm":
            parts += [TextPart(before + "!["), thumbnail(cand.image.image_bytes, max_side),
                      TextPart(f"]({cand.pseudo_url})")]
        else:
            parts.append(TextPart(f"{before}![{cand.caption}]({cand.pseudo_url})"))
        pos = match.end()
    parts.append(TextPart(text[pos:]))
    merged: list[Part] = []
    for part in parts:
        if isinstance(part, TextPart) and merged and isinstance(merged[-1], TextPart):
            merged[-1] = TextPart(merged[-1].text + part.text)
        elif not (isinstance(part, TextPart) and not part.text):
            merged.append(part)
    return Message("user", tuple(merged))
