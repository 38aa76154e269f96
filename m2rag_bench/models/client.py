"""`ModelClient`: the one door to every model. Caching, de-duplication and the usage meter live here, once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .base import Backend, Call, Completion, Progress
from .cache import CallCache, call_key
from .meter import UsageMeter

LOCAL_BACKENDS = {"hf", "vllm", "embedded"}


class ModelClient:
    """Runs batches of calls on a backend through a content-keyed cache and a usage meter.

    Identical calls inside a batch are sent once. Calls found in the cache are not sent at all. Successful
    completions are cached as soon as they arrive (backends that stream results report each one), so an
    interrupted batch resumes where it stopped.
    """

    def __init__(self, backend: Backend, cache: CallCache | None = None, meter: UsageMeter | None = None) -> None:
        self.backend = backend
        self.cache = cache
        self.meter = meter if meter is not None else UsageMeter()
        self.sent = 0  # calls actually sent to the backend by this client
        self._lock = threading.Lock()  # complete() may be called from worker threads (ragas' transport)

    @property
    def model(self) -> str:
        return self.backend.model

    @property
    def supports_images(self) -> bool:
        return self.backend.supports_images

    def identity(self) -> dict[str, Any]:
        return self.backend.identity()

    def uncached(self, calls: list[Call]) -> list[Call]:
        """The calls that would be sent (not in the cache, duplicates once): for dry runs and cost limits."""
        identity = self.backend.identity()
        seen: dict[str, Call] = {}
        for call in calls:
            key = call_key(identity, call)
            if key not in seen and (self.cache is None or self.cache.get(key) is None):
                seen[key] = call
        return list(seen.values())

    def complete(self, calls: list[Call], progress: Progress | None = None) -> list[Completion]:
        """One completion per call, in order."""
        identity = self.backend.identity()
        local = identity.get("backend") in LOCAL_BACKENDS
        keys = [call_key(identity, call) for call in calls]
        results: list[Completion | None] = [None] * len(calls)
        pending: dict[str, list[int]] = {}
        for i, key in enumerate(keys):
            hit = self.cache.get(key) if self.cache is not None else None
            if hit is not None:
                results[i] = hit
                with self._lock:
                    self.meter.record(self.model, hit, local)
            else:
                pending.setdefault(key, []).append(i)
        if progress and len(calls) - sum(len(v) for v in pending.values()):
            progress(len(calls) - sum(len(v) for v in pending.values()))
        order = list(pending)

        def store(j: int, completion: Completion) -> None:
            if self.cache is not None:
                self.cache.put(order[j], completion)

        if order:
            to_send = [calls[pending[key][0]] for key in order]
            on_result: Callable[[int, Completion], None] | None = store if self.cache is not None else None
            if getattr(self.backend, "streams_results", False):
                outs = self.backend.generate(to_send, _fan_out(progress, pending, order), on_result=on_result)
            else:
                outs = self.backend.generate(to_send, _fan_out(progress, pending, order))
                for j, completion in enumerate(outs):
                    store(j, completion)
            with self._lock:
                self.sent += len(to_send)
                for key, completion in zip(order, outs):
                    self.meter.record(self.model, completion, local)
            for key, completion in zip(order, outs):
                for i in pending[key]:
                    results[i] = completion
        return results  # type: ignore[return-value]


def _fan_out(progress: Progress | None, pending: dict[str, list[int]], order: list[str]) -> Progress | None:
    """Progress in calls asked for, not calls sent (a de-duplicated call advances every copy)."""
    if progress is None:
        return None
    ratio = sum(len(pending[k]) for k in order) / max(1, len(order))
    state = {"sent": 0, "shown": 0}

    def advance(n: int) -> None:
        state["sent"] += n
        target = round(state["sent"] * ratio)
        progress(target - state["shown"])
        state["shown"] = target

    return advance
