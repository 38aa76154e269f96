"""The one call layer for every model, generator or judge: conversations in, completions out.

``make_client(backend, model, ...)`` gives a `ModelClient` with the persistent cache and the usage meter.
Backends: ``openai`` (any OpenAI-compatible endpoint), ``vllm`` (in-process, GPUs), ``hf`` (transformers) and
``embedded`` (a small offline default). Heavy libraries are imported only by the backend that needs them.
"""

from __future__ import annotations

from .base import Backend, BackendError, Call, Completion, GenerationParams, ModelNotFound, Usage
from .cache import CallCache
from .client import ModelClient
from .messages import Conversation, ImagePart, Message, TextPart, user
from .meter import UsageMeter
from .registry import BACKENDS, make_backend, make_client

__all__ = ["BACKENDS", "Backend", "BackendError", "Call", "CallCache", "Completion", "Conversation",
           "GenerationParams", "ImagePart", "Message", "ModelClient", "ModelNotFound", "TextPart", "Usage",
           "UsageMeter", "make_backend", "make_client", "user"]
