"""``evaluate``: judge a run directory's responses with the eight metrics and write the results beside them.

    RUN_DIR/judgments.jsonl   one line per response × metric (× output image): score, raw output, judge, template
    RUN_DIR/scores.json       both aggregations, coverage, intervals, per topic, cost, judges and stamps

Every judge call goes through the call layer, so evaluating unchanged responses again is answered from the cache
(zero calls), and changing the judge or a rubric re-judges only what it affects.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .._version import __version__
from ..data.features import iter_samples
from ..data.loading import load_benchmark
from ..files import atomic_write
from ..models.base import Call, Progress
from ..models.client import ModelClient
from ..models.meter import cost_usd
from ..runs.layout import RunDir
from ..schema import Judgment, Response, Sample
from .metrics import IMAGE_METRICS, METRICS, RAGAS_METRICS, RECALL
from .recall import image_recall
from .rubric import Item, RubricJudge, answer_text

StageReporter = Callable[[str, int], Progress | None]
RUBRIC_OUTPUT_TOKENS = 60  # a verdict is a sentence and a number


@dataclass
class Plan:
    """What an evaluation would cost before anything is sent."""

    calls: dict[str, int] = field(default_factory=dict)  # metric -> calls to send (cache misses)
    cached: dict[str, int] = field(default_factory=dict)
    prompt_tokens: dict[str, int] = field(default_factory=dict)
    completion_tokens: dict[str, int] = field(default_factory=dict)
    cost_usd: dict[str, float | None] = field(default_factory=dict)

    @property
    def total_cost(self) -> float | None:
        values = list(self.cost_usd.values())
        return None if any(v is None for v in values) else sum(values)  # type: ignore[arg-type]


def estimate_tokens(call: Call) -> int:
    """Prompt tokens of a call, estimated: ~4 characters a token, 85 per image (OpenAI's low-detail cost)."""
    return sum(len(p.text) // 4 if hasattr(p, "text") else 85 for m in call.conversation for p in m.parts)


def load_run(run_dir: RunDir) -> tuple[dict[str, Any], list[Response], dict[str, Sample]]:
    if not run_dir.config_path.exists() or not run_dir.responses_path.exists():
        raise FileNotFoundError(f"{run_dir.path} is not a run directory: it needs config.json and responses.jsonl "
                                "(made by `m2rag-bench run`)")
    config = run_dir.config()
    responses = list(run_dir.responses().values())
    dataset = config["dataset"]
    ds = load_benchmark(dataset["name"], config=dataset.get("config", "benchmark"), split=dataset.get("split", "test"))
    wanted = {r.query_id for r in responses}
    samples = {s.query_id: s for s in iter_samples(ds) if s.query_id in wanted}
    return config, responses, samples


def ragas_contexts(response: Response, sample: Sample, selection: dict[str, Any] | None = None) -> list[str]:
    """The selected pages' text (in prompt order) plus the detailed descriptions of the output images."""
    from ..strategies.selection import SelectionConfig, select, strip_slots

    chosen = {p.page.webpage_id: p for p in select(sample, SelectionConfig(**(selection or {}))).pages}
    texts = [strip_slots(chosen[w].text) for w in response.stages.get("selection", {}).get("pages", []) if w in chosen]
    captions = {img.key: img.detailed_caption for img in sample.all_images()}
    return texts + [captions[o.image_id] for o in response.output_images if captions.get(o.image_id)]


class Evaluation:
    """One evaluation of a run directory with given judges."""

    def __init__(self, run_dir: str | Path, judge: ModelClient, text_judge: ModelClient | None = None, *,
                 metrics: list[str] | None = None, protocol: str | None = None, image_mode: str | None = None,
                 context_budget: int = 256, structured: bool = False, bootstrap: int = 1000) -> None:
        self.run_dir = RunDir(run_dir)
        self.config, self.responses, self.samples = load_run(self.run_dir)
        self.protocol = protocol or self.config.get("protocol", "default")
        self.metrics = metrics or list(METRICS)
        unknown = set(self.metrics) - set(METRICS)
        if unknown:
            raise ValueError(f"unknown metrics {sorted(unknown)}; choose from {', '.join(METRICS)}")
        self.judge, self.text_judge = judge, text_judge or judge
        self.rubric = RubricJudge(judge, protocol=self.protocol, image_mode=image_mode, context_budget=context_budget,
                                  structured=structured)
        self.bootstrap = bootstrap
        self.selection = self.config.get("identity", {}).get("selection")
        ok = [r for r in self.responses if r.error is None and r.query_id in self.samples]
        self.items: list[Item] = [i for r in ok for i in self.rubric.items(r, self.samples[r.query_id], self.metrics)]
        self.ok = ok

    # -- planning ------------------------------------------------------------------------------------------------

    def plan(self) -> Plan:
        plan = Plan()
        for metric in [m for m in self.metrics if m not in RAGAS_METRICS + (RECALL,)]:
            calls = [i.build(0) for i in self.items if i.metric == metric]
            send = self.judge.uncached(calls)
            plan.calls[metric], plan.cached[metric] = len(send), len(calls) - len(send)
            plan.prompt_tokens[metric] = sum(estimate_tokens(c) for c in send)
            plan.completion_tokens[metric] = RUBRIC_OUTPUT_TOKENS * len(send)
            plan.cost_usd[metric] = 0.0 if not send else cost_usd(
                self.judge.model, plan.prompt_tokens[metric], plan.completion_tokens[metric])
        for metric in [m for m in self.metrics if m in RAGAS_METRICS]:
            # ragas: faithfulness = 2 calls (statements, then verdicts); context precision = 1 call per context.
            calls = prompt = 0
            for r in self.ok:
                contexts = ragas_contexts(r, self.samples[r.query_id], self.selection)
                words = len(answer_text(r)) // 4
                if metric == "faithfulness":
                    calls, prompt = calls + 2, prompt + 2 * words + sum(len(c) // 4 for c in contexts) + 600
                else:
                    calls, prompt = calls + len(contexts), prompt + sum(len(c) // 4 + words + 300 for c in contexts)
            plan.calls[metric], plan.cached[metric] = calls, 0
            plan.prompt_tokens[metric], plan.completion_tokens[metric] = prompt, 150 * calls
            plan.cost_usd[metric] = cost_usd(self.text_judge.model, prompt, 150 * calls) if calls else 0.0
        return plan

    # -- judging -------------------------------------------------------------------------------------------------

    def run(self, stage: StageReporter | None = None, max_cost: float | None = None) -> dict[str, Any]:
        stage = stage or (lambda name, total: None)
        judgments: list[Judgment] = []
        stopped = None
        by_metric: dict[str, list[Item]] = {}
        for item in self.items:
            by_metric.setdefault(item.metric, []).append(item)
        plan = self.plan() if max_cost is not None else None  # each metric's calls are its own: plan once
        for metric in [m for m in self.metrics if m in by_metric]:
            if plan is not None and max_cost is not None:
                spent = self.spent()
                upcoming = plan.cost_usd.get(metric) or 0.0
                if spent + upcoming > max_cost:
                    stopped = f"stopped before {metric}: ${spent:.4f} spent + ${upcoming:.4f} estimated > ${max_cost}"
                    break
            judgments += self.rubric.judge(by_metric[metric], stage(metric, len(by_metric[metric])))
        if stopped is None:
            ragas_wanted = [m for m in self.metrics if m in RAGAS_METRICS]
            if ragas_wanted:
                judgments += self._ragas(ragas_wanted, stage, max_cost)
            if RECALL in self.metrics:
                judgments += [image_recall(r, self.samples[r.query_id].topic, self.protocol) for r in self.ok]
        return self._write(judgments, stopped)

    def spent(self) -> float:
        total = 0.0
        for client in {id(self.judge): self.judge, id(self.text_judge): self.text_judge}.values():
            cost = client.meter.total_cost
            total += cost or 0.0
        return total

    def _ragas(self, metrics: list[str], stage: StageReporter, max_cost: float | None) -> list[Judgment]:
        from .ragas_metrics import ragas_judgments

        contexts = {r.query_id: ragas_contexts(r, self.samples[r.query_id], self.selection) for r in self.ok}
        return ragas_judgments(self.text_judge, self.ok, self.samples, contexts, metrics, self.protocol, stage)

    def _write(self, judgments: list[Judgment], stopped: str | None) -> dict[str, Any]:
        from .aggregate import aggregate

        atomic_write(self.run_dir.path / "judgments.jsonl", "".join(j.model_dump_json() + "\n" for j in judgments))
        scores = aggregate(judgments, self.responses, protocol=self.protocol, bootstrap=self.bootstrap)
        scores.update({
            "run": str(self.run_dir.path), "model": self.config.get("model"), "task": self.config.get("identity", {})
            .get("task"), "strategy": self.config.get("identity", {}).get("strategy"),
            "modality": self.config.get("identity", {}).get("modality"),
            "judges": {"rubric": self.judge.identity(), "ragas": self.text_judge.identity(),
                       "image_mode": self.rubric.image_mode,
                       "templates": {m: self.rubric.template_version(m) for m in self.metrics if m in
                                     ("fluency", "relevance", *IMAGE_METRICS)}},
            "cost": {"judge_usd": self.spent(), "usage": {**self.judge.meter.to_dict(),
                                                          **self.text_judge.meter.to_dict()},
                     "calls_sent": self.judge.sent + (self.text_judge.sent if self.text_judge is not self.judge else 0)},
            "stopped": stopped,
            "metrics_judged": self.metrics,
            "stamp": {"package_version": __version__, "evaluated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                      "run_fingerprint": self.config.get("fingerprint"), "dataset": self.config.get("dataset")},
        })
        (self.run_dir.path / "scores.json").write_text(json.dumps(scores, indent=2, default=str) + "\n", encoding="utf-8")
        return scores
