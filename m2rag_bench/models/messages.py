"""Conversations as the call layer sees them: chat messages whose content mixes text and images.

Every backend (OpenAI-compatible HTTP, vLLM, transformers, the embedded model) receives the same objects, so
strategies and judges never build SDK payloads themselves. Images are carried as encoded bytes and identified by the
sha256 of those bytes, which is also what cache keys use.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Union

from PIL import Image

_MIME = {"jpeg": "image/jpeg", "jpg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp"}


@dataclass(frozen=True)
class TextPart:
    """A run of text inside a message."""

    text: str


@dataclass(frozen=True)
class ImagePart:
    """An image inside a message: encoded bytes (already resized by the caller if it wants a thumbnail)."""

    data: bytes = field(repr=False)
    mime: str = "image/png"

    @cached_property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def data_url(self) -> str:
        return f"data:{self.mime};base64,{base64.b64encode(self.data).decode()}"

    def to_pil(self) -> Image.Image:
        import io

        with Image.open(io.BytesIO(self.data)) as im:
            return im.convert("RGB")

    @classmethod
    def from_bytes(cls, data: bytes, fmt: str | None = None) -> "ImagePart":
        """Wrap encoded image bytes; the MIME type comes from ``fmt`` (a file extension) or the data itself."""
        if fmt is None:
            import io

            with Image.open(io.BytesIO(data)) as im:
                fmt = (im.format or "png").lower()
        return cls(data, _MIME.get(fmt.lower(), f"image/{fmt.lower()}"))


Part = Union[TextPart, ImagePart]


@dataclass(frozen=True)
class Message:
    """One chat message; ``parts`` keep text and images in their reading order."""

    role: Literal["system", "user", "assistant"]
    parts: tuple[Part, ...]

    @property
    def text(self) -> str:
        """The text parts joined (images dropped)."""
        return "".join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def images(self) -> list[ImagePart]:
        return [p for p in self.parts if isinstance(p, ImagePart)]


Conversation = tuple[Message, ...]


def user(*parts: str | Part) -> Message:
    """A user message from strings and parts; adjacent strings are merged."""
    merged: list[Part] = []
    for part in parts:
        part = TextPart(part) if isinstance(part, str) else part
        if isinstance(part, TextPart) and merged and isinstance(merged[-1], TextPart):
            merged[-1] = TextPart(merged[-1].text + part.text)
        elif not (isinstance(part, TextPart) and not part.text):
            merged.append(part)
    return Message("user", tuple(merged))


def conversation_images(conversation: Conversation) -> list[ImagePart]:
    return [img for message in conversation for img in message.images]


def canonical(conversation: Conversation) -> list[dict[str, Any]]:
    """A JSON-able form of a conversation with images replaced by their content hash (for cache keys and logs)."""
    return [
        {"role": m.role,
         "content": [{"text": p.text} if isinstance(p, TextPart) else {"image": p.sha256, "mime": p.mime}
                     for p in m.parts]}
        for m in conversation
    ]


def render_text(conversation: Conversation, image_token: str = "<image>") -> str:
    """The conversation's text with each image replaced by ``image_token`` (for logs and text-only backends)."""
    return "\n\n".join("".join(p.text if isinstance(p, TextPart) else image_token for p in m.parts)
                       for m in conversation)
