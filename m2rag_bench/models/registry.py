"""Backends by name. Each entry is imported only when chosen, so the core stays light."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from .base import Backend, BackendError
from .cache import CallCache
from .client import ModelClient

BACKENDS: dict[str, str] = {
    "openai": "m2rag_bench.models.openai_backend:OpenAIBackend",
    "vllm": "m2rag_bench.models.vllm_backend:VLLMBackend",
    "hf": "m2rag_bench.models.hf:HFBackend",
    "embedded": "m2rag_bench.models.embedded:EmbeddedBackend",
}


def make_backend(backend: str, model: str | None = None, **options: Any) -> Backend:
    """Instantiate a backend by name; unknown names are a `BackendError` listing the known ones."""
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    module, cls = BACKENDS[backend].split(":")
    backend_cls = getattr(importlib.import_module(module), cls)
    if model is None:
        model = getattr(backend_cls, "default_model", None)
        if model is None:
            raise BackendError(f"the {backend} backend needs --model")
    return backend_cls(model, **options)


def make_client(backend: str, model: str | None = None, *, cache: CallCache | str | Path | None | bool = True,
                **options: Any) -> ModelClient:
    """A `ModelClient` over a new backend; ``cache=True`` uses the default cache file, ``False`` none."""
    if cache is True:
        cache = CallCache()
    elif cache is False or cache is None:
        cache = None
    elif not isinstance(cache, CallCache):
        cache = CallCache(cache)
    return ModelClient(make_backend(backend, model, **options), cache)
