"""What every backend implements, and the values that cross the call layer.

A backend turns a batch of `Call` s into `Completion` s, in order. It does no caching, no cost accounting and no
bookkeeping: `ModelClient` (client.py) does those once for all backends.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from .messages import Conversation


class BackendError(RuntimeError):
    """A backend cannot be used at all (unreachable endpoint, unknown model, missing extra); the run stops."""


class ModelNotFound(BackendError):
    """The backend does not know the requested model."""


@dataclass(frozen=True)
class GenerationParams:
    """Sampling parameters; all of them are part of the cache key and the run stamp."""

    temperature: float = 0.0
    max_tokens: int = 1024
    top_p: float | None = None
    seed: int | None = 1234
    stop: tuple[str, ...] | None = None
    json_schema: dict[str, Any] | None = None  # structured output where the backend supports it
    json_object: bool = False  # ask for some JSON object (OpenAI ``response_format: json_object``); json_schema wins

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["stop"] = list(self.stop) if self.stop else None
        if not self.json_object:  # absent when off, so cache keys made before the field existed still hit
            del data["json_object"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GenerationParams":
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        if known.get("stop") is not None:
            known["stop"] = tuple(known["stop"])
        return cls(**known)


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, int]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "total_tokens": self.total_tokens}


@dataclass(frozen=True)
class Call:
    """One model call: a conversation, its parameters, and the prompt template (name@version) that made it."""

    conversation: Conversation
    params: GenerationParams = GenerationParams()
    template: str = ""


@dataclass
class Completion:
    """The outcome of one call. ``error`` is set (and ``text`` empty) when the call failed after its retries."""

    text: str = ""
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    model: str | None = None
    cached: bool = False
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "usage": self.usage.to_dict(), "finish_reason": self.finish_reason,
                "model": self.model, "error": self.error}

    @classmethod
    def from_dict(cls, data: dict[str, Any], cached: bool = False) -> "Completion":
        usage = data.get("usage") or {}
        return cls(data.get("text", ""), Usage(usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)),
                   data.get("finish_reason"), data.get("model"), cached, data.get("error"))


Progress = Callable[[int], None]  # called with the number of calls just finished


class Backend(ABC):
    """A way to run a model. Subclasses set ``name`` and implement `generate`."""

    name: str = ""
    #: whether image parts reach the model as pixels (otherwise callers must describe images in text)
    supports_images: bool = False
    #: whether `json_schema` is enforced by the backend (otherwise it is only a hint in the prompt)
    supports_structured_output: bool = False

    def __init__(self, model: str, base_url: str | None = None) -> None:
        self.model = model
        self.base_url = base_url

    @abstractmethod
    def generate(self, calls: list[Call], progress: Progress | None = None) -> list[Completion]:
        """Run a batch of calls; one completion per call, in order. Per-call failures go into `Completion.error`."""

    def check(self) -> None:
        """Raise `BackendError` with a clear message when the backend cannot serve the model at all."""

    def identity(self) -> dict[str, Any]:
        """What identifies this backend's outputs (goes into cache keys and run stamps; never secrets)."""
        return {"backend": self.name, "model": self.model, "base_url": self.base_url}

    def close(self) -> None:
        """Release resources (connections, GPU memory)."""
