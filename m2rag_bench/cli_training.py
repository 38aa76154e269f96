"""``m2rag-bench export-training``: distil evaluated runs into a LLaMA-Factory / Hub fine-tuning set."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from .cli import CliError, console, main


@main.command("export-training")
@click.option("--runs", "runs", multiple=True, required=True, type=click.Path(exists=True, file_okay=False),
              help="Evaluated run directories (`--runs A B` or `--runs A --runs B`); a query kept in several runs "
                   "is taken from the first one listed.")
@click.argument("more_runs", nargs=-1, type=click.Path(exists=True, file_okay=False))
@click.option("--out", "out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Output folder (LLaMA-Factory dataset_dir and authors' training-release layout).")
@click.option("--min-image-score", "threshold", type=click.FloatRange(0, 1), default=0.7, show_default=True,
              help="Threshold on each of mean image coherence, helpfulness, reference and image recall (0-1).")
@click.option("--modality", "modalities", multiple=True, type=click.Choice(["llm", "mllm"]),
              help="Input format(s): llm (images as descriptions) or mllm (<image> slots); default: both.")
@click.option("--format", "fmt", type=click.Choice(["sharegpt"]), default="sharegpt", show_default=True)
@click.option("--keep-imageless", is_flag=True,
              help="Keep answers without images when their image recall passes (default: exclude them).")
@click.option("--no-fence", is_flag=True, help="Do not wrap targets in a ```markdown fence (the authors did).")
def export_training(runs: tuple[str, ...], more_runs: tuple[str, ...], out: Path, threshold: float,
                    modalities: tuple[str, ...], fmt: str, keep_imageless: bool, no_fence: bool) -> None:
    """Select good responses of evaluated runs, rewrite them as single-stage pairs, write a fine-tuning set."""
    from .training import export_training as export

    try:
        summary = export([*runs, *more_runs], out, threshold=threshold, modalities=modalities or ("llm", "mllm"),
                         keep_imageless=keep_imageless, fmt=fmt, fence=not no_fence)
    except (FileNotFoundError, FileExistsError, ValueError) as exc:
        raise CliError(str(exc)) from exc
    report = summary.report
    console.print(f"rule: {report.rule.describe()}", highlight=False)
    table = Table(title="export-training")
    table.add_column("step")
    table.add_column("responses", justify="right")
    for name, n in report.rows():
        table.add_row(name, str(n))
    console.print(table)
    for note in report.notes[:20]:
        console.print(f"  {note}", markup=False, highlight=False)
    written = ", ".join(f"{n} {m}" for m, n in report.written.items())
    console.print(f"wrote {written} pair(s) to {out} (dataset_info.json, ShareGPT JSON, data/*/raw.jsonl, images, "
                  "README.md, export_report.json)", highlight=False)
