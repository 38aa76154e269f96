"""An ask session: one question curated live from the web, answered by a strategy, kept in one folder.

The folder is a curation folder (``manifest.json``, ``work/``, ``release/``, ``report.json``: see
`m2rag_bench.curate.store`) plus ``session.json`` (the question and options), ``run/`` (a run directory,
so ``m2rag-bench evaluate SESSION/run`` works) and the answer as ``answer.md`` and ``answer.html``. Every model
call is cached in ``work/calls.sqlite`` and every curation unit is on disk, so ``--resume`` repeats nothing
that finished; ``release/`` can be built into a dataset like any curation.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..curate.pipeline import STAGES, CurateOptions, Curator
from ..curate.queries import QueryInput, query_id_for
from ..curate.store import CurateError, Store
from ..runs.progress import StageBars
from ..schema import Response, Sample


class AskError(CurateError):
    """The session cannot produce an answer (no usable page, a failed generation, a bad session folder)."""


@dataclass
class Skipped:
    """Something that failed or was filtered out, shown to the user."""

    what: str
    url: str
    reason: str


@dataclass
class AskResult:
    folder: Path
    question: str
    response: Response
    sample: Sample
    skipped: list[Skipped] = field(default_factory=list)


def default_folder(question: str) -> Path:
    slug = re.sub(r"[^a-z0-9]+", "-", question.lower()).strip("-")[:40] or "question"
    return Path("asks") / f"{time.strftime('%Y%m%d-%H%M%S')}-{slug}"


def read_session(folder: Path) -> dict[str, Any]:
    path = folder / "session.json"
    if not path.exists():
        raise AskError(f"{folder} is not an ask session (no session.json)")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise AskError(f"{path}: not valid JSON ({exc})") from exc


def start_session(folder: Path, question: str, settings: dict[str, Any]) -> dict[str, Any]:
    """Create ``session.json`` with the question and the options used (never an API key), or check that a resumed
    one asks the same question."""
    path = folder / "session.json"
    if path.exists():
        session = read_session(folder)
        if session["question"] != question:
            raise AskError(f"{folder} holds another question ({session['question']!r}); use a new --out folder")
        return session
    folder.mkdir(parents=True, exist_ok=True)
    session = {"question": question, "created": time.strftime("%Y-%m-%dT%H:%M:%S"), "settings": settings}
    path.write_text(json.dumps(session, indent=2, ensure_ascii=False), encoding="utf-8")
    return session


def skipped_items(store: Store) -> list[Skipped]:
    """Pages that could not be read and images left out, from the curation report."""
    report_path = store.root / "report.json"
    if not report_path.exists():
        return []
    report = json.loads(report_path.read_text(encoding="utf-8"))
    out = []
    for d in report.get("dropped", []):
        if d["stage"] == "read":
            out.append(Skipped("page", d.get("item") or "", d.get("reason") or ""))
        elif d["stage"] == "images":
            out.append(Skipped("image", d.get("item") or "", d.get("reason") or ""))
    return out


def curate_question(folder: Path, question: str, options: CurateOptions, judge: Any, bars: StageBars) -> Curator:
    """Run the curation stages for the one question (it is never filtered out: the user asked it)."""
    options.filter_queries = False
    # the id is the question's hash, as in a curation file: records of several sessions can be pooled into one release
    query = QueryInput(query_id_for(question), question)
    curator = Curator(Store(folder), [query], options, judge, bars.progress.console)
    curator.run(STAGES, bars)
    return curator


def usable(sample: Sample) -> bool:
    return any(p.pieces for p in sample.webpages)


def answer(folder: Path, question: str, strategy: str, client: Any, bars: StageBars, task_overrides: dict | None = None
           ) -> tuple[Response, Sample]:
    """Generate (or reuse) the answer for the curated question; the run directory is ``folder/run``."""
    from ..runs.layout import RunDir
    from ..runs.runner import load_samples, run_task
    from ..tasks import TaskConfig

    release = folder / "release"
    modality = "mllm" if client.supports_images else "llm"
    task = TaskConfig(task=f"ask_{strategy.replace('-', '_')}_{modality}", strategy=strategy, modality=modality,
                      dataset_path=str(release.resolve()), **(task_overrides or {}))
    samples, dataset = load_samples(str(release.resolve()), task, None)
    if not samples or not usable(samples[0]):
        raise AskError("no usable web page: every page failed or had no text (see the list above and "
                       f"{folder / 'report.json'})")
    run_dir = RunDir(folder / "run")
    run_task(task, client, run_dir, samples, dataset, stage=bars)
    response = run_dir.responses().get(samples[0].query_id)
    if response is None or response.error:
        raise AskError(f"generation failed: {response.error if response else 'no response'}")
    return response, samples[0]
