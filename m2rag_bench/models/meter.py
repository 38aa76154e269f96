"""Token usage and cost, per model, for everything that went through the call layer in a run."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from .base import Completion


@lru_cache(maxsize=1)
def price_table() -> dict[str, tuple[float, float]]:
    """USD per 1M (input, output) tokens for known API models (``prices.yaml``)."""
    data = yaml.safe_load(resources.files("m2rag_bench.models").joinpath("prices.yaml").read_text(encoding="utf-8"))
    return {name: (float(p[0]), float(p[1])) for name, p in data.items()}


def price_of(model: str) -> tuple[float, float] | None:
    """The price of ``model``; a dated snapshot falls back to its family (``gpt-4o-2025-…`` → ``gpt-4o``)."""
    table = price_table()
    if model in table:
        return table[model]
    family = [name for name in table if model.startswith(name + "-")]
    return table[max(family, key=len)] if family else None


def cost_usd(model: str, prompt_tokens: int, completion_tokens: int) -> float | None:
    price = price_of(model)
    if price is None:
        return None
    return (prompt_tokens * price[0] + completion_tokens * price[1]) / 1e6


@dataclass
class ModelUsage:
    calls: int = 0
    cached_calls: int = 0
    failed_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0
    saved_usd: float | None = 0.0  # what the cached calls would have cost


class UsageMeter:
    """Counts calls, tokens and dollars per model; cached calls are counted apart and cost nothing."""

    def __init__(self) -> None:
        self.models: dict[str, ModelUsage] = defaultdict(ModelUsage)

    def record(self, model: str, completion: Completion, local: bool = False) -> None:
        """Count one completion; ``local`` models (hf, vllm, embedded) cost nothing."""
        usage = self.models[model]
        cost = 0.0 if local else cost_usd(model, completion.usage.prompt_tokens, completion.usage.completion_tokens)
        if completion.cached:
            usage.cached_calls += 1
            usage.saved_usd = None if cost is None or usage.saved_usd is None else usage.saved_usd + cost
            return
        usage.calls += 1
        usage.failed_calls += not completion.ok
        usage.prompt_tokens += completion.usage.prompt_tokens
        usage.completion_tokens += completion.usage.completion_tokens
        usage.cost_usd = None if cost is None or usage.cost_usd is None else usage.cost_usd + cost

    @property
    def total_cost(self) -> float | None:
        costs = [u.cost_usd for u in self.models.values() if u.calls]
        return None if any(c is None for c in costs) else sum(costs)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        return {model: vars(u).copy() for model, u in self.models.items()}
