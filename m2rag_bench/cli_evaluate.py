"""``m2rag-bench evaluate`` and ``m2rag-bench judge-agreement``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from .cli import CliError, console, main

PAPER_JUDGE, PAPER_TEXT_JUDGE = "gpt-4o-2024-08-06", "gpt-4o-mini-2024-07-18"


def make_judges(judge: str | None, judge_base_url: str | None, text_judge: str | None, judge_backend: str | None,
                api_key_env: str, concurrency: int | None, cache=True, check: bool = False):  # noqa: ANN001,ANN201
    """The judges ``(main, second)``: explicit choices first; the paper's GPT-4o pair with an OpenAI key; else the
    embedded smoke judge. ``check`` runs each backend's preflight (reachable, key accepted, model served)."""
    from .models import make_client

    backend = judge_backend or ("openai" if judge_base_url or os.environ.get(api_key_env) else "embedded")
    options: dict = {}
    if backend == "openai":
        judge = judge or (PAPER_JUDGE if not judge_base_url else None)
        if judge is None:  # a local server with one model needs no --judge
            from .models.openai_backend import only_served_model

            judge = only_served_model(judge_base_url, api_key_env)
        text_judge = text_judge or (PAPER_TEXT_JUDGE if not judge_base_url and judge == PAPER_JUDGE else judge)
        options = {"base_url": judge_base_url, "api_key_env": api_key_env}
        if concurrency:
            options["concurrency"] = concurrency
    main_judge = make_client(backend, judge, cache=cache, **options)
    second = main_judge if text_judge in (None, judge) else make_client(backend, text_judge, cache=cache, **options)
    if check:
        main_judge.backend.check()
        if second is not main_judge:
            second.backend.check()
    return main_judge, second


def print_scores(scores: dict, title: str) -> None:
    from .judges.aggregate import table_rows

    rows = table_rows(scores)
    table = Table(title=title)
    for label, _ in rows:
        table.add_column(label, justify="right")
    table.add_row(*[value for _, value in rows])
    Console().print(table)
    coverage = scores.get("coverage", {})
    judged = scores.get("metrics_judged") or list(coverage.get("metrics", {}))
    low = {m: c["coverage"] for m, c in coverage.get("metrics", {}).items()
           if m in judged and c.get("expected") and (c.get("coverage") or 0) < 1}
    if set(coverage.get("metrics", {})) - set(judged):
        console.print("not judged: " + ", ".join(sorted(set(coverage.get("metrics", {})) - set(judged))),
                      highlight=False)
    if low:
        console.print("coverage below 100% (missing verdicts are not zeros; see judgments.jsonl): "
                      + ", ".join(f"{m} {c or 0:.0%}" for m, c in low.items()), highlight=False)
    if (coverage.get("generation") or 1) < 1:
        console.print(f"generation coverage {coverage['generation']:.0%}: failed samples are not scored", highlight=False)
    if scores.get("smoke_test"):
        console.print("[bold yellow]smoke test:[/] scored by the small offline judge; not benchmark results.")


@main.command("evaluate")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--judge", default=None, help=f"Judge model (default with an OpenAI key: {PAPER_JUDGE}).")
@click.option("--judge-base-url", default=None, help="OpenAI-compatible endpoint serving the judge (e.g. `vllm serve`).")
@click.option("--text-judge", default=None, help=f"Judge for context precision and faithfulness (default: {PAPER_TEXT_JUDGE} with OpenAI, else --judge).")
@click.option("--judge-backend", type=click.Choice(["openai", "hf", "vllm", "embedded"]), default=None)
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True)
@click.option("--metrics", default=None, help="Comma-separated subset of the eight metrics.")
@click.option("--protocol", type=click.Choice(["default", "m2rag-2025-02"]), default=None,
              help="Default: the run's protocol.")
@click.option("--image-mode", type=click.Choice(["image", "description"]), default=None,
              help="Show image judges the image, or its description (LLM judge). Default: image if the judge can see.")
@click.option("--context-tokens", type=int, default=256, show_default=True, help="Text above and below each image.")
@click.option("--concurrency", type=int, default=None)
@click.option("--dry-run", is_flag=True, help="Print calls, tokens and estimated cost; send nothing.")
@click.option("--max-cost", type=float, default=None, help="Stop before spending more than this many USD.")
@click.option("--bootstrap", type=int, default=1000, show_default=True, help="Bootstrap resamples for the 95% intervals.")
def evaluate(run_dir: Path, judge: str | None, judge_base_url: str | None, text_judge: str | None,
             judge_backend: str | None, api_key_env: str, metrics: str | None, protocol: str | None,
             image_mode: str | None, context_tokens: int, concurrency: int | None, dry_run: bool,
             max_cost: float | None, bootstrap: int) -> None:
    """Score a run directory with the eight M2RAG judges (cached: re-running is free)."""
    evaluate_run(run_dir, judge=judge, judge_base_url=judge_base_url, text_judge=text_judge,
                 judge_backend=judge_backend, api_key_env=api_key_env,
                 metrics=[m.strip() for m in metrics.split(",")] if metrics else None, protocol=protocol,
                 image_mode=image_mode, context_tokens=context_tokens, concurrency=concurrency, dry_run=dry_run,
                 max_cost=max_cost, bootstrap=bootstrap)


def evaluate_run(run_dir: Path, *, judge: str | None = None, judge_base_url: str | None = None,
                 text_judge: str | None = None, judge_backend: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 metrics: list[str] | None = None, protocol: str | None = None, image_mode: str | None = None,
                 context_tokens: int = 256, concurrency: int | None = None, dry_run: bool = False,
                 max_cost: float | None = None, bootstrap: int = 1000) -> dict | None:
    from .judges.evaluator import Evaluation
    from .models import BackendError
    from .runs.progress import StageBars

    try:
        main_judge, second = make_judges(judge, judge_base_url, text_judge, judge_backend, api_key_env, concurrency,
                                         check=True)
        if metrics is None and main_judge.identity().get("smoke_test"):
            from .judges.metrics import METRICS, RAGAS_METRICS

            metrics = [m for m in METRICS if m not in RAGAS_METRICS]
            console.print("[yellow]the embedded smoke-test judge cannot follow ragas' JSON schemas: context precision "
                          "and faithfulness are not judged (ask for them with --metrics, or configure a judge)[/]")
        structured = main_judge.backend.name == "vllm" or (main_judge.backend.name == "openai" and
                                                           "api.openai.com" in (main_judge.backend.base_url or ""))
        ev = Evaluation(run_dir, main_judge, second, metrics=metrics, protocol=protocol, image_mode=image_mode,
                        context_budget=context_tokens, structured=structured, bootstrap=bootstrap)
        console.print(f"judging {len(ev.ok)} responses of {run_dir} with [bold]{main_judge.model}[/]"
                      + (f" and {second.model}" if second is not main_judge else "")
                      + f" (protocol {ev.protocol}, images as {ev.rubric.image_mode})", highlight=False)
        plan = ev.plan()
        if dry_run or max_cost is not None:
            _print_plan(plan, main_judge.model)
        if dry_run:
            return None
        if max_cost is not None and (plan.total_cost or 0) > max_cost:
            console.print(f"[yellow]estimated ${plan.total_cost:.4f} exceeds --max-cost ${max_cost}: metrics are judged "
                          "in order until the next one would pass the limit[/]")
        with StageBars(console) as bars:
            scores = ev.run(bars, max_cost)
    except (BackendError, ValueError, FileNotFoundError) as exc:
        raise CliError(str(exc)) from exc
    print_scores(scores, f"{scores.get('model')} · {scores.get('strategy')} · {scores.get('modality')} "
                         f"(judge {main_judge.model}, protocol {scores.get('protocol')})")
    cost = scores["cost"]
    console.print(f"judge calls sent: {cost['calls_sent']}, cost: "
                  + ("n/a" if cost["judge_usd"] is None else f"${cost['judge_usd']:.4f}")
                  + f"; wrote {run_dir / 'judgments.jsonl'} and {run_dir / 'scores.json'}", highlight=False)
    if scores.get("stopped"):
        console.print(f"[yellow]{scores['stopped']}[/]")
    return scores


def _print_plan(plan, model: str) -> None:  # noqa: ANN001 - judges.evaluator.Plan
    table = Table(title=f"plan (judge {model}): calls not already in the cache")
    for col in ("metric", "calls", "cached", "prompt tokens (est.)", "output tokens (est.)", "cost (est.)"):
        table.add_column(col, justify="right" if col != "metric" else "left")
    for metric, calls in plan.calls.items():
        cost = plan.cost_usd[metric]
        table.add_row(metric, str(calls), str(plan.cached[metric]), f"{plan.prompt_tokens[metric]:,}",
                      f"{plan.completion_tokens[metric]:,}", "n/a" if cost is None else f"${cost:.4f}")
    total = plan.total_cost
    table.add_row("total", str(sum(plan.calls.values())), str(sum(plan.cached.values())),
                  f"{sum(plan.prompt_tokens.values()):,}", f"{sum(plan.completion_tokens.values()):,}",
                  "n/a" if total is None else f"${total:.4f}", style="bold")
    Console().print(table)


@main.command("judge-agreement")
@click.argument("first", type=click.Path(exists=True, path_type=Path))
@click.argument("second", type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def judge_agreement(first: Path, second: Path, as_json: bool) -> None:
    """Agreement between two judges' judgments.jsonl (or a run dir), or a judge and a human-labels CSV/JSONL."""
    from .judges.agreement import compare_judgments, load_human_labels
    from .schema import Judgment

    def read(path: Path):  # noqa: ANN202
        path = path / "judgments.jsonl" if path.is_dir() else path
        if path.suffix == ".jsonl" and path.name.startswith("judgments"):
            return [Judgment.model_validate_json(line) for line in path.read_text().splitlines() if line.strip()]
        return load_human_labels(path)

    try:
        result = compare_judgments(read(first), read(second))
    except (ValueError, FileNotFoundError) as exc:
        raise CliError(str(exc)) from exc
    if as_json:
        click.echo(json.dumps(result, indent=2, default=str))
        return
    table = Table(title=f"agreement: {first} vs {second}")
    for col in ("metric", "n", "Spearman ρ", "α (interval)", "α (ordinal)", "mean |Δ|"):
        table.add_column(col, justify="right" if col != "metric" else "left")
    for metric, row in result["metrics"].items():
        table.add_row(metric, *[_fmt(row.get(k)) for k in ("n", "spearman", "alpha_interval", "alpha_ordinal",
                                                            "mean_abs_diff")])
    Console().print(table)


def _fmt(value: object) -> str:
    return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)
