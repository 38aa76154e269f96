"""The ``m2rag-bench`` command line (click + rich).

Command groups: ``dataset`` (build, push, info), ``run`` and ``tasks`` (cli_run.py). Later stages add
``evaluate``, ``leaderboard``, ``curate`` and ``export-training``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ._version import __version__

console = Console(stderr=True)


class CliError(click.ClickException):
    """An error shown to the user as one clear line, without a traceback."""

    def show(self, file=None) -> None:  # noqa: ANN001 - click's signature
        console.print(f"[bold red]error:[/] {escape(self.message)}", highlight=False)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="m2rag-bench")
def main() -> None:
    """M2RAG-Bench (Ma et al., arXiv 2411.16365): multi-modal RAG with multi-modal answers."""


@main.group()
def dataset() -> None:
    """Build, inspect and publish the benchmark and training data."""


@dataset.command("build")
@click.option("--release", "release", required=True, type=click.Path(exists=True, path_type=Path),
              help="The authors' release layout (dev_set.jsonl[.tar.gz] + images or shards; data/{llm,mllm}/raw.jsonl).")
@click.option("--out", "out", required=True, type=click.Path(path_type=Path), help="Output folder (parquet + card).")
@click.option("--config", "configs", multiple=True, type=click.Choice(["benchmark", "train"]),
              help="Config(s) to build; default: every one the release holds.")
@click.option("--skip-bad", is_flag=True, help="Drop samples with missing or broken images instead of keeping them "
              "with those images marked unavailable.")
@click.option("--max-shard-size", default="500MB", show_default=True, help="Largest parquet shard.")
@click.option("--card", "card_kind", type=click.Choice(["benchmark", "train", "mini"]), default=None,
              help="Card template (default: from the configs built).")
@click.option("--name", "pretty_name", default=None, help="Pretty name written in the card.")
def dataset_build(release: Path, out: Path, configs: tuple[str, ...], skip_bad: bool, max_shard_size: str,
                  card_kind: str | None, pretty_name: str | None) -> None:
    """Convert a release into Hub-style parquet shards with a dataset card."""
    from .data.export import build_dataset

    try:
        result = build_dataset(release, out, list(configs) or None, skip_bad=skip_bad, max_shard_size=max_shard_size,
                               pretty_name=pretty_name, card_kind=card_kind)
    except (FileNotFoundError, ValueError) as exc:
        raise CliError(str(exc)) from exc
    table = Table(title=f"built {out}")
    for col in ("config", "split", "rows", "problems"):
        table.add_column(col, justify="right" if col in ("rows", "problems") else "left")
    for config, splits in result.configs.items():
        report = result.reports.get(config)
        for split, rows in splits.items():
            table.add_row(config, split, str(rows), str(len(report.problems)) if report else "(kept)")
    console.print(table)
    for config, report in result.reports.items():
        if report.problems:
            console.print(f"[bold yellow]{config}: {len(report.problems)} problem(s)[/] "
                          f"(all listed in {out / 'build_report.json'}):")
            for problem in report.problems[:25]:
                console.print(f"  {problem}", markup=False, highlight=False, soft_wrap=True)
            if len(report.problems) > 25:
                console.print(f"  … and {len(report.problems) - 25} more", highlight=False)


@dataset.command("push")
@click.argument("export_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--repo", "repo_id", required=True, help="Hub dataset repo id, ORG/NAME.")
@click.option("--private", is_flag=True, help="Create the repo as private.")
@click.option("--revision", default=None, help="Branch to push to.")
@click.option("--message", "commit_message", default=None, help="Commit message.")
def dataset_push(export_dir: Path, repo_id: str, private: bool, revision: str | None, commit_message: str | None) -> None:
    """Publish an export folder to the Hugging Face Hub (token from HF_TOKEN or `hf auth login`)."""
    from .data.hub import push_dataset

    try:
        url = push_dataset(export_dir, repo_id, private=private, revision=revision, commit_message=commit_message)
    except (ValueError, RuntimeError, FileNotFoundError) as exc:
        raise CliError(str(exc)) from exc
    console.print(f"pushed {export_dir} to [bold]{repo_id}[/]: {url}")


@dataset.command("info")
@click.argument("name", default="mini")
@click.option("--config", default="benchmark", show_default=True, type=click.Choice(["benchmark"]))
@click.option("--split", default=None, help="Split (default: the config's only split).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON on stdout.")
def dataset_info(name: str, config: str, split: str | None, as_json: bool) -> None:
    """Summarise a dataset: 'mini', an export folder, a release folder or a Hub repo id."""
    from .data.features import iter_samples
    from .data.info import render_summary, summarize
    from .data.loading import load_benchmark

    try:
        ds = load_benchmark(name, config=config, split=split)
    except (FileNotFoundError, ValueError, ConnectionError) as exc:
        raise CliError(str(exc)) from exc
    summary = summarize(iter_samples(ds))
    if as_json:
        click.echo(json.dumps(summary.to_dict(), indent=2))
    else:
        render_summary(summary, f"{name} ({config}/{split or ds.split})", Console())


from . import cli_ask, cli_curate, cli_evaluate, cli_run, cli_training  # noqa: E402,F401 - register ask, curate, run, tasks, evaluate, judge-agreement, export-training
from .leaderboard.cli import leaderboard as _leaderboard  # noqa: E402

main.add_command(_leaderboard)

if __name__ == "__main__":  # pragma: no cover - `python -m m2rag_bench.cli`: use the registered instance
    from m2rag_bench.cli import main as registered

    sys.exit(registered())
