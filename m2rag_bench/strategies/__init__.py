"""Generation strategies: in-document selection, then single-stage, multi-stage or separate (MuRAR) answering."""

from __future__ import annotations

from .base import Strategy, StrategyConfig
from .protocols import PROTOCOLS, Protocol, get_protocol
from .selection import Selection, SelectionConfig, select

STRATEGIES = {
    "single-stage": "m2rag_bench.strategies.single_stage:SingleStage",
    "multi-stage": "m2rag_bench.strategies.multi_stage:MultiStage",
    "separate": "m2rag_bench.strategies.separate:Separate",
}


def make_strategy(name: str, config: StrategyConfig) -> Strategy:
    """A strategy by name (``single-stage``, ``multi-stage``, ``separate``)."""
    import importlib

    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r}; choose one of: {', '.join(STRATEGIES)}")
    module, cls = STRATEGIES[name].split(":")
    return getattr(importlib.import_module(module), cls)(config)


__all__ = ["PROTOCOLS", "STRATEGIES", "Protocol", "Selection", "SelectionConfig", "Strategy", "StrategyConfig",
           "get_protocol", "make_strategy", "select"]
