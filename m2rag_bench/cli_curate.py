"""``m2rag-bench curate``: build new benchmark data from the web, resumably, into a release folder."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from .cli import CliError, console, main

STAGE_HELP = "queries, search, read, clean, images, score, describe, export"


def judge_options(f):  # noqa: ANN001,ANN201 - a click decorator
    """The judge options shared by ``curate`` and ``ask``."""
    for option in reversed([
        click.option("--judge", default=None, help="Image judge and describer (an MLLM). Default with an OpenAI key: "
                                                   "gpt-4o-2024-08-06; otherwise the offline smoke-test model."),
        click.option("--text-judge", default=None, help="Judge for questions and pieces (default: gpt-4o-mini with "
                                                        "OpenAI, else --judge)."),
        click.option("--judge-base-url", default=None, help="OpenAI-compatible endpoint serving the judges."),
        click.option("--judge-backend", type=click.Choice(["openai", "hf", "vllm", "embedded"]), default=None),
        click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True,
                     help="Environment variable holding the judges' API key."),
    ]):
        f = option(f)
    return f


def source_options(f):  # noqa: ANN001,ANN201 - a click decorator
    """Search, reading and fetching options shared by ``curate`` and ``ask``."""
    for option in reversed([
        click.option("--search", "search_name", default="google", show_default=True,
                     help="Search provider: google (Custom Search JSON API), or package.module:Class of your own."),
        click.option("--search-base-url", default=None, help="Search API endpoint (default: Google's)."),
        click.option("--search-key-env", default="GOOGLE_API_KEY", show_default=True,
                     help="Environment variable holding the search API key."),
        click.option("--search-engine-env", default="GOOGLE_CSE_ID", show_default=True,
                     help="Environment variable holding the search engine id (cx)."),
        click.option("--reader", type=click.Choice(["direct", "jina"]), default="direct", show_default=True,
                     help="Read pages directly (HTML → markdown here) or through the Jina Reader API."),
        click.option("--jina-base-url", default=None, help="Jina Reader endpoint (default https://r.jina.ai/)."),
        click.option("--aux-images", type=int, default=10, show_default=True, help="Image-search results per question."),
        click.option("--similarity", type=click.Choice(["auto", "clip", "text", "none"]), default="auto",
                     show_default=True, help="Query–image similarity filter: open_clip, or alt-text embeddings."),
        click.option("--min-similarity", type=float, default=None, help="Similarity threshold (default per method)."),
        click.option("--allow-loopback", is_flag=True, help="Allow fetching from 127.0.0.1 (tests, local mirrors)."),
        click.option("--concurrency", type=int, default=16, show_default=True, help="Pages and images fetched at once."),
    ]):
        f = option(f)
    return f


def build_options(search_name: str, search_base_url: str | None, search_key_env: str, search_engine_env: str,
                  reader: str, jina_base_url: str | None, aux_images: int, similarity: str,
                  min_similarity: float | None, allow_loopback: bool, concurrency: int, **more):  # noqa: ANN003,ANN201
    from .curate.pipeline import CurateOptions

    search_options = {"api_key_env": search_key_env, "engine_id_env": search_engine_env}
    if search_base_url:
        search_options["base_url"] = search_base_url
    reader_options = {"base_url": jina_base_url} if reader == "jina" and jina_base_url else {}
    if reader == "jina":
        reader_options["allow_loopback"] = allow_loopback
    return CurateOptions(search=search_name, reader=reader, aux_images=aux_images, similarity=similarity,
                         min_similarity=min_similarity, allow_loopback=allow_loopback, concurrency=concurrency,
                         search_options=search_options, reader_options=reader_options, **more)


def build_judge(out: Path, judge: str | None, text_judge: str | None, judge_base_url: str | None,
                judge_backend: str | None, api_key_env: str, concurrency: int | None):  # noqa: ANN201
    """The curation judge, checked first, then its calls cached inside the output folder."""
    from .cli_evaluate import make_judges
    from .curate.judging import CurationJudge
    from .models import BackendError
    from .models.cache import CallCache

    try:
        image_judge, text = make_judges(judge, judge_base_url, text_judge, judge_backend, api_key_env, concurrency,
                                        cache=False, check=True)
    except BackendError as exc:
        raise CliError(str(exc)) from exc
    (out / "work").mkdir(parents=True, exist_ok=True)
    cache = CallCache(out / "work" / "calls.sqlite")
    image_judge.cache = text.cache = cache
    return CurationJudge(text, image_judge)


def print_summary(counts: dict, report: dict | None, out: Console) -> None:
    table = Table(title="curation")
    table.add_column("stage")
    table.add_column("counts")
    for stage, values in counts.items():
        table.add_row(stage, ", ".join(f"{k} {v}" for k, v in values.items()))
    out.print(table)
    if report and report.get("summary"):
        dropped = Table(title="left out (details in report.json)")
        dropped.add_column("stage")
        dropped.add_column("reason")
        dropped.add_column("n", justify="right")
        for stage, reasons in report["summary"].items():
            for reason, n in reasons.items():
                dropped.add_row(stage, reason, str(n))
        out.print(dropped)


@main.command("curate")
@click.option("--queries", "queries_file", required=True, type=click.Path(path_type=Path),
              help="Questions: a jsonl file (query, id, topic, urls) or plain text, one per line.")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path), help="Curation folder.")
@click.option("--stages", default=None, help=f"Comma-separated stages to run (default all: {STAGE_HELP}).")
@click.option("--limit", type=int, default=None, help="Only the first N questions of the file.")
@click.option("--pages", type=int, default=10, show_default=True, help="Web results per question.")
@click.option("--no-filter", is_flag=True, help="Keep every question (no filtering judge; topics from the file).")
@click.option("--retry-failed", is_flag=True, help="Try failed pages and images again.")
@source_options
@judge_options
def curate(queries_file: Path, out: Path, stages: str | None, limit: int | None, pages: int, no_filter: bool,
           retry_failed: bool, judge: str | None, text_judge: str | None, judge_base_url: str | None,
           judge_backend: str | None, api_key_env: str, **source) -> None:  # noqa: ANN003
    """Build benchmark data from the web: search, read, clean, filter images, score, describe, export.

    Every finished step is kept in OUT; run the same command again to resume. The result, OUT/release, is read by
    `m2rag-bench dataset build --release OUT/release --out DATASET`.
    """
    import json

    from .curate.pipeline import STAGES, Curator
    from .curate.queries import read_queries
    from .curate.store import CurateError, Store

    try:
        queries = read_queries(queries_file)[:limit] if limit else read_queries(queries_file)
        chosen = [s.strip() for s in stages.split(",") if s.strip()] if stages else list(STAGES)
        options = build_options(pages=pages, filter_queries=not no_filter, retry_failed=retry_failed, **source)
        needs_judge = any(s in chosen for s in ("score", "describe")) or ("queries" in chosen and not no_filter)
        judge_obj = build_judge(out, judge, text_judge, judge_base_url, judge_backend, api_key_env,
                                source["concurrency"]) if needs_judge else None
        if judge_obj is not None and judge_obj.smoke_test:
            console.print("[bold yellow]smoke test:[/] judged by the small offline model; not benchmark data. "
                          "Configure a judge with --judge-base-url or an OpenAI key.")
        curator = Curator(Store(out), queries, options, judge_obj, console)
        counts = curator.run(chosen)
    except CurateError as exc:
        raise CliError(str(exc)) from exc
    except KeyboardInterrupt:
        console.print("\n[yellow]interrupted[/]: what finished is kept in the folder; run the same command again to "
                      "resume", highlight=False)
        raise SystemExit(130) from None
    report_path = out / "report.json"
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else None
    print_summary(counts, report, Console())  # the result on stdout; progress and messages on stderr
    if (out / "release" / "dev_set.jsonl").exists():
        console.print(f"next: m2rag-bench dataset build --release {out / 'release'} --out {out / 'dataset'}",
                      highlight=False, soft_wrap=True)
