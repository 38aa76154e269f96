"""``m2rag-bench ask``: one question in, an illustrated answer out, built live from the web."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import click
from rich.console import Console
from click.core import ParameterSource

from .cli import CliError, console, main
from .cli_curate import build_judge, build_options, judge_options, source_options


@main.command("ask")
@click.argument("question", required=False)
@click.option("--model", default=None, help="Answering model (default for --backend embedded: SmolLM2-135M-Instruct).")
@click.option("--backend", type=click.Choice(["openai", "vllm", "hf", "embedded"]), default="embedded",
              show_default=True)
@click.option("--base-url", default=None, help="OpenAI-compatible endpoint of the answering model.")
@click.option("--strategy", type=click.Choice(["single-stage", "multi-stage"]), default="single-stage",
              show_default=True)
@click.option("--pages", type=int, default=10, show_default=True, help="Web pages to read.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Session folder (default: asks/<time>-<question>).")
@click.option("--resume", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Continue a session folder; nothing that finished is repeated.")
@click.option("--images", "image_mode", type=click.Choice(["embed", "copy"]), default="embed", show_default=True,
              help="Put images inside answer.html, or copy them beside it.")
@click.option("--open", "open_page", is_flag=True, help="Open answer.html in the browser.")
@source_options
@judge_options
def ask(question: str | None, model: str | None, backend: str, base_url: str | None, strategy: str, pages: int,
        out: Path | None, resume: Path | None, image_mode: str, open_page: bool, judge: str | None,
        text_judge: str | None, judge_base_url: str | None, judge_backend: str | None, api_key_env: str,
        **source) -> None:  # noqa: ANN003
    """Answer QUESTION from live web pages with images in place; writes answer.md and answer.html."""
    from .ask.page import terminal_skipped
    from .ask.session import AskError, answer, curate_question, default_folder, read_session, skipped_items, start_session
    from .curate.store import CurateError, Store
    from .models import BackendError, make_client
    from .models.cache import CallCache
    from .runs.layout import RunMismatch
    from .runs.progress import StageBars

    try:
        ctx = click.get_current_context()
        settings = {"strategy": strategy, "pages": pages, "model": model, "backend": backend, "base_url": base_url,
                    "judge": judge, "text_judge": text_judge, "judge_base_url": judge_base_url,
                    "judge_backend": judge_backend, "api_key_env": api_key_env, **source}
        folder = resume or out
        if resume is not None:
            session = read_session(resume)
            if question and question != session["question"]:
                raise AskError(f"{resume} holds another question ({session['question']!r})")
            question, folder = session["question"], resume
            # what the command line does not set comes from the session (API keys are never stored)
            for key, value in (session.get("settings") or {}).items():
                if key in settings and ctx.get_parameter_source(key) in (ParameterSource.DEFAULT, None):
                    settings[key] = value
        elif not question:
            raise CliError("give a QUESTION, or --resume SESSION_FOLDER")
        else:
            folder = out or default_folder(question)
        assert question is not None
        strategy, pages, model, backend, base_url = (settings[k] for k in ("strategy", "pages", "model", "backend",
                                                                            "base_url"))
        judge, text_judge, judge_base_url, judge_backend, api_key_env = (
            settings[k] for k in ("judge", "text_judge", "judge_base_url", "judge_backend", "api_key_env"))
        source = {k: settings[k] for k in source}
        options = {"base_url": base_url, "api_key_env": api_key_env} if backend == "openai" else {}
        if backend == "openai" and model is None and base_url:
            from .models.openai_backend import only_served_model

            model = only_served_model(base_url, api_key_env)
        client = make_client(backend, model, cache=False, **{k: v for k, v in options.items() if v is not None})
        client.backend.check()  # before anything is written: a wrong model leaves no half-made session behind
        if judge_base_url is None and judge_backend is None and backend == "openai" and base_url:
            judge_base_url, judge = base_url, judge or client.model  # one local server answers and judges
        elif judge_backend is None and judge_base_url is None and backend == "embedded":
            judge_backend = "embedded"
        curate_judge = build_judge(folder, judge, text_judge, judge_base_url, judge_backend, api_key_env,
                                   source["concurrency"])
        start_session(folder, question, settings)
        client.cache = CallCache(folder / "work" / "calls.sqlite")
        console.print(f"session [bold]{folder}[/] — {question}", highlight=False)
        curate_options = build_options(pages=pages, **source)
        with StageBars(console) as bars:
            curate_question(folder, question, curate_options, curate_judge, bars)
            skipped = skipped_items(Store(folder))
            try:
                response, sample = answer(folder, question, strategy, client, bars)
            except AskError:
                bars.progress.stop()
                terminal_skipped([(s.what, s.url, s.reason) for s in skipped], Console())
                raise
    except (CurateError, BackendError, RunMismatch) as exc:  # AskError is a CurateError
        raise CliError(str(exc)) from exc
    except KeyboardInterrupt:
        console.print(f"\n[yellow]interrupted[/]: what finished is kept; continue with "
                      f"m2rag-bench ask --resume {folder}", highlight=False, soft_wrap=True)
        raise SystemExit(130) from None
    html_path = _present(folder, question, response, sample, skipped, image_mode)
    if client.identity().get("smoke_test"):
        console.print("[bold yellow]smoke test:[/] answered by the small offline model; use --backend/--model for a "
                      "real answer.")
    console.print(f"answer: {folder / 'answer.md'}  page: {html_path}", highlight=False, soft_wrap=True)
    if open_page:
        webbrowser.open(html_path.resolve().as_uri())


def _present(folder: Path, question: str, response, sample, skipped: list, image_mode: str) -> Path:  # noqa: ANN001
    from .ask.citations import cite_response
    from .ask.page import answer_html, terminal_answer

    cited = cite_response(response, sample)
    (folder / "answer.md").write_text(cited.markdown + "\n", encoding="utf-8")
    rows = [(s.what, s.url, s.reason) for s in skipped]
    # the answer is the command's output: stdout (progress and messages stay on stderr)
    terminal_answer(response, sample, cited.sources, Console(), markdown=cited.markdown, skipped=rows)
    html = answer_html(response, sample, cited.sources, images=image_mode, out_dir=folder, title=question,
                       skipped=rows, markdown=cited.markdown)
    path = folder / "answer.html"
    path.write_text(html, encoding="utf-8")
    return path
