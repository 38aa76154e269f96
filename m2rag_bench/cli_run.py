"""``m2rag-bench run`` and ``m2rag-bench tasks``: the generation harness on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from .cli import CliError, console, main


@main.group()
def tasks() -> None:
    """The shipped task definitions (tasks/*.yaml)."""


@tasks.command("list")
def tasks_list() -> None:
    """List the tasks: strategy, modality, dataset and file."""
    from .tasks import get_task, list_tasks

    table = Table(title="m2rag-bench tasks")
    table.add_column("task", no_wrap=True)
    for col in ("strategy", "modality", "dataset", "levels"):
        table.add_column(col)
    for name, path in list_tasks().items():
        t = get_task(name)
        table.add_row(name, t.strategy, t.modality, t.dataset_path or "full (--split OUT)",
                      ",".join(map(str, t.levels)) if t.levels else "all")
    Console().print(table)


def _backend_options(backend: str, o: dict[str, Any]) -> dict[str, Any]:
    wanted = {"openai": ("base_url", "api_key_env", "concurrency", "image_detail", "max_retries", "timeout"),
              "vllm": ("tensor_parallel_size", "data_parallel_size", "max_model_len", "max_images",
                       "gpu_memory_utilization", "dtype", "trust_remote_code", "enforce_eager"),
              "hf": ("device", "batch_size", "dtype", "trust_remote_code", "max_images"),
              "embedded": ("batch_size",)}.get(backend, ())
    return {k: v for k, v in o.items() if k in wanted and v is not None}


@main.command("run")
@click.option("--model", default=None, help="Model name, path or Hub id (default for --backend embedded: SmolLM2-135M-Instruct).")
@click.option("--backend", default="embedded", show_default=True,
              help="openai | vllm | hf | embedded")
@click.option("--base-url", default=None, help="OpenAI-compatible endpoint (openai backend), e.g. http://127.0.0.1:8000/v1.")
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, help="Environment variable holding the API key.")
@click.option("--task", "task_name", default=None, help="Task name (`m2rag-bench tasks list`) or YAML file.")
@click.option("--strategy", type=click.Choice(["single-stage", "multi-stage", "separate"]), default=None)
@click.option("--modality", type=click.Choice(["llm", "mllm"]), default=None,
              help="llm: images given as descriptions; mllm: images given as images.")
@click.option("--split", default=None, help="mini | benchmark | PATH (export or release folder) | ORG/NAME.")
@click.option("--limit", type=int, default=None, help="Only the first N samples.")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Run directory (default: runs/<task>/<backend>-<model>).")
@click.option("--protocol", type=click.Choice(["default", "m2rag-2025-02"]), default=None)
@click.option("--temperature", type=float, default=None)
@click.option("--max-tokens", type=int, default=None)
@click.option("--seed", type=int, default=None)
@click.option("--concurrency", type=int, default=None, help="Parallel requests (openai backend; default 16).")
@click.option("--tensor-parallel-size", type=int, default=None, help="vllm: GPUs per model replica.")
@click.option("--data-parallel-size", type=int, default=None, help="vllm: model replicas.")
@click.option("--max-model-len", type=int, default=None, help="vllm: context length.")
@click.option("--device", default=None, help="hf: cpu, cuda, cuda:1, …")
@click.option("--batch-size", type=int, default=None, help="hf / embedded: calls per forward pass.")
@click.option("--embedder", default=None, help="separate strategy: sentence-transformers model (default: offline all-MiniLM-L6-v2).")
@click.option("--chunk-size", type=int, default=64, show_default=True, help="Samples per batched pass (responses are saved after each).")
@click.option("--cache/--no-cache", default=True, show_default=True, help="Use the persistent call cache.")
@click.option("--no-eval", is_flag=True, help="Only generate; do not run the judges afterwards.")
@click.option("--judge", default=None, help="Judge model for the evaluation that follows (see `m2rag-bench evaluate`).")
@click.option("--judge-base-url", default=None, help="OpenAI-compatible endpoint serving the judge.")
def run(model: str | None, backend: str, base_url: str | None, api_key_env: str, task_name: str | None,
        strategy: str | None, modality: str | None, split: str | None, limit: int | None, out: Path | None,
        protocol: str | None, temperature: float | None, max_tokens: int | None, seed: int | None,
        concurrency: int | None, tensor_parallel_size: int | None, data_parallel_size: int | None,
        max_model_len: int | None, device: str | None, batch_size: int | None, embedder: str | None,
        chunk_size: int, cache: bool, no_eval: bool, judge: str | None, judge_base_url: str | None) -> None:
    """Generate answers for a task with any model; re-running the same command resumes."""
    from .models import BackendError, make_client
    from .runs.layout import RunDir, RunMismatch
    from .runs.progress import StageBars
    from .runs.runner import default_out, load_samples, resolve_dataset, run_task
    from .tasks import DEFAULT_TASK, get_task

    try:
        if task_name is None:
            if strategy or modality:
                suffix = "" if split not in (None, "mini") else "_mini"
                task_name = f"m2rag_{(strategy or 'single-stage').replace('-', '_')}_{modality or 'llm'}{suffix}"
            else:
                task_name = DEFAULT_TASK
        task = get_task(task_name)
        updates: dict[str, Any] = {k: v for k, v in (("strategy", strategy), ("modality", modality),
                                                     ("protocol", protocol), ("embedder", embedder)) if v}
        gen = {k: v for k, v in (("temperature", temperature), ("max_tokens", max_tokens), ("seed", seed))
               if v is not None}
        if gen:
            updates["generation_kwargs"] = {**task.generation_kwargs, **gen}
        task = task.model_copy(update=updates)
        task.validate_choices()
        source = resolve_dataset(task, split)
        samples, dataset = load_samples(source, task, limit)
        cli_options = _backend_options(backend, dict(base_url=base_url, api_key_env=api_key_env, concurrency=concurrency,
                                                 tensor_parallel_size=tensor_parallel_size, device=device,
                                                 data_parallel_size=data_parallel_size, max_model_len=max_model_len,
                                                 batch_size=batch_size))
        options = {**_backend_options(backend, task.model_args), **cli_options}  # the command line wins
        if backend == "openai" and model is None and options.get("base_url"):
            from .models.openai_backend import only_served_model

            model = only_served_model(options["base_url"], options.get("api_key_env", "OPENAI_API_KEY"))
        client = make_client(backend, model, cache=cache, **options)
        console.print(f"checking {backend} backend, model [bold]{client.model}[/] …", highlight=False)
        client.backend.check()
        out = out or default_out(task, backend, client.model, task.protocol)
        if task.modality == "mllm" and not client.supports_images:
            raise CliError(f"{client.model} on the {backend} backend cannot read images; use --modality llm")
        console.print(f"task [bold]{task.task}[/] ({task.strategy}, {task.modality}, protocol {task.protocol}) on "
                      f"{dataset['name']}: {len(samples)} samples → {out}", highlight=False)
        with StageBars(console) as bars:
            result = run_task(task, client, RunDir(out), samples, dataset, chunk_size=chunk_size, stage=bars)
    except (BackendError, RunMismatch, ValueError, FileNotFoundError) as exc:
        raise CliError(str(exc)) from exc
    _summary(result, client)
    if not no_eval:
        from .cli_evaluate import evaluate_run

        console.print("evaluating (skip with --no-eval) …")
        evaluate_run(result.run_dir, judge=judge, judge_base_url=judge_base_url)


def _summary(result, client) -> None:  # noqa: ANN001
    identity = client.identity()
    table = Table(title=f"run summary: {result.run_dir}", show_header=False)
    table.add_column("item")
    table.add_column("value", justify="right")
    table.add_row("samples", str(result.total))
    table.add_row("finished", f"{result.done} ({result.done / max(1, result.total):.0%} coverage)")
    table.add_row("failed (recorded with their error)", str(result.failed))
    table.add_row("already finished before this invocation", str(result.skipped))
    table.add_row("calls sent / answered from cache", f"{client.sent} / {sum(u.cached_calls for u in client.meter.models.values())}")
    tokens = sum(u.prompt_tokens + u.completion_tokens for u in client.meter.models.values())
    table.add_row("tokens (sent calls)", f"{tokens:,}")
    cost = client.meter.total_cost
    table.add_row("cost", "n/a (no price known)" if cost is None else f"${cost:.4f}")
    table.add_row("wall time", f"{result.wall_s:.1f} s")
    console.print(table)
    if identity.get("smoke_test"):
        console.print("[bold yellow]smoke test:[/] answers from the small offline embedded model show the pipeline "
                      "working; they are not benchmark results.")
