"""Asking a judge and asking again when its reply cannot be parsed.

Shared by the rubric judges and the curation judge. A reply ``parse`` rejects is asked again as a new call (the
builder gets the attempt number, which goes into the template id as ``#retryN``), up to ``max_attempts``; a call that
fails outright is not asked again here (``failed``: its caller decides whether to retry later). Usage is summed over
the attempts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..models.base import Call, Progress
from ..models.client import ModelClient

T = TypeVar("T")


@dataclass
class Outcome(Generic[T]):
    """A parsed verdict (``value``) or why there is none (``error``), with the last raw reply and the attempts used."""

    value: T | None
    raw: str
    attempts: int
    error: str | None = None
    usage: dict[str, int] = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0})
    failed: bool = False  # the call itself failed (server down, refused): not a verdict problem


def ask(client: ModelClient, builds: Sequence[Callable[[int], Call]], parse: Callable[[str], tuple[T | None, str | None]],
        max_attempts: int = 3, progress: Progress | None = None) -> list[Outcome[T]]:
    """Run ``builds[i](attempt)`` for every item, asking again the items whose reply ``parse`` rejects.

    ``parse`` returns ``(value, problem)``; a problem means the reply is asked again while attempts remain.
    """
    results: dict[int, Outcome[T]] = {}
    usage = {i: {"prompt_tokens": 0, "completion_tokens": 0} for i in range(len(builds))}
    pending = list(range(len(builds)))
    for attempt in range(max_attempts):
        if not pending:
            break
        done = client.complete([builds[i](attempt) for i in pending], progress if attempt == 0 else None)
        retry = []
        for i, completion in zip(pending, done):
            usage[i]["prompt_tokens"] += completion.usage.prompt_tokens
            usage[i]["completion_tokens"] += completion.usage.completion_tokens
            if not completion.ok:
                results[i] = Outcome(None, completion.text, attempt + 1, completion.error, dict(usage[i]), failed=True)
                continue
            value, problem = parse(completion.text)
            results[i] = Outcome(value, completion.text, attempt + 1, problem, dict(usage[i]))
            if problem:
                retry.append(i)
        pending = retry
    return [results[i] for i in range(len(builds))]
