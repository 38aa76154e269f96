"""``export_training``: evaluated runs in, a distilled single-stage fine-tuning set out (see `writers` for layout)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..judges.evaluator import load_run
from ..runs.layout import RunDir
from ..strategies.templates import template_id
from .rewrite import NotRewritable, TrainingPair, rewrite
from .rule import QualityRule, RuleReport, check, read_judgments
from .writers import (SHAREGPT_FILES, write_dataset_info, write_images, write_raw, write_readme, write_sharegpt)

FORMATS = ("sharegpt",)
_OURS = ("data", "images", "dataset_info.json", "README.md", "export_report.json", *SHAREGPT_FILES.values())


@dataclass
class ExportSummary:
    out: Path
    report: RuleReport
    pairs: dict[str, list[TrainingPair]] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)


def _prepare(out: Path) -> None:
    """Create ``out``; an earlier export there is replaced, any other non-empty folder refused."""
    if out.exists() and any(out.iterdir()):
        if not (out / "export_report.json").exists():
            raise FileExistsError(f"{out} is not empty and holds no earlier export; choose an empty --out")
        for name in _OURS:
            path = out / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
    out.mkdir(parents=True, exist_ok=True)


def export_training(runs: list[str | Path], out: str | Path, *, threshold: float = 0.7,
                    modalities: list[str] | tuple[str, ...] = ("llm", "mllm"), keep_imageless: bool = False,
                    fmt: str = "sharegpt", fence: bool = True) -> ExportSummary:
    """Select responses of evaluated ``runs`` by the quality rule, rewrite and write them under ``out``.

    A query kept in several runs is taken from the first run listed ("duplicate queries" for the others).
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    if not runs:
        raise ValueError("give at least one evaluated run directory")
    modalities = [m for m in ("llm", "mllm") if m in modalities]
    if not modalities:
        raise ValueError("choose at least one modality: llm, mllm")
    out = Path(out)
    rule = QualityRule(threshold, keep_imageless)
    report = RuleReport(rule)
    pairs: dict[str, list[TrainingPair]] = {m: [] for m in modalities}
    kept_queries: set[str] = set()
    loaded = []
    for run in runs:  # read everything first, so a bad run fails before anything is written
        run_dir = RunDir(run)
        config, responses, samples = load_run(run_dir)
        loaded.append((str(run), config, responses, samples, read_judgments(run)))
    for run, config, responses, samples, judgments in loaded:
        for response in responses:
            verdict = check(response, judgments, rule)
            report.add(run, verdict)
            if verdict.bucket != "kept":
                continue
            if response.query_id in kept_queries:
                report.move(run, "kept", "duplicate queries")
                continue
            sample = samples.get(response.query_id)
            try:
                if sample is None:
                    raise NotRewritable(f"{response.query_id}: not in the run's dataset")
                made = {m: rewrite(response, sample, config, m, run) for m in modalities}
            except NotRewritable as exc:
                report.move(run, "kept", "not rewritable")
                report.notes.append(f"{run}: {exc}")
                continue
            kept_queries.add(response.query_id)
            for m, pair in made.items():
                pairs[m].append(pair)
    _prepare(out)
    files: list[Path] = []
    for m in modalities:
        write_images(out, pairs[m])
        files += [write_raw(out, m, pairs[m]), write_sharegpt(out, m, pairs[m], fence)]
    files.append(write_dataset_info(out, modalities))
    report.written = {m: len(pairs[m]) for m in modalities}
    (out / "export_report.json").write_text(json.dumps({"runs": [r[0] for r in loaded], "format": fmt,
                                                        "fenced_target": fence, **report.to_dict()}, indent=2)
                                            + "\n", encoding="utf-8")
    files += [out / "export_report.json",
              write_readme(out, runs=[r[0] for r in loaded], rule=rule.describe(), rows=report.rows(),
                           written=report.written, template=template_id("single_stage"), fence=fence)]
    return ExportSummary(out, report, pairs, files)
