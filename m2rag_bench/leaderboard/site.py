"""Build the static leaderboard site from evaluated run directories.

The site opens from disk (``file://``) with no server and no fetch()::

    SITE/index.html                          one row per run (no per-sample data: small for any number of samples)
    SITE/data/leaderboard.json|csv           the table as downloads (one JSON object per run, with its stamp)
    SITE/runs/<run-id>/index.html            per-topic breakdown, score distributions, configuration, sample list
    SITE/runs/<run-id>/samples/<qid>.html    question, the answer with its images in place, judge scores and reasons
    SITE/compare/<qid>.html                  the same question side by side across two runs (two selects, two iframes)
    SITE/assets/img/<sha256>.<ext>           each candidate image once, named by the hash of its bytes
    SITE/static/                             CSS and the table's sorting/filtering script

The output is a function of the inputs only (no build time written), so rebuilding gives identical bytes.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import shutil
from collections import defaultdict
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from ..judges.metrics import IMAGE_METRICS, LABELS, METRICS, RECALL, TEXT_METRICS
from ..runs.layout import RunDir
from ..schema import Judgment, Response, Sample
from .render import render_answer, render_text

REQUIRED = ("config.json", "responses.jsonl", "judgments.jsonl", "scores.json")
COLUMNS = ["run_id", "model", "strategy", "modality", "judge", "protocol", *METRICS, "text_avg", "mm_precision_avg",
           "overall", "overall_ci95_low", "overall_ci95_high", "coverage_generation", "coverage_min_metric",
           "responses", "cost_usd", "date", "smoke_test", "package_version", "git_revision", "dataset",
           "dataset_sha256", "templates", "run_fingerprint"]
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "png"), (b"\xff\xd8\xff", "jpg"), (b"GIF87a", "gif"), (b"GIF89a", "gif"))
_EXTS = {"png", "jpg", "jpeg", "gif", "webp", "bmp"}


@dataclass
class SiteReport:
    """What a build wrote."""

    out: Path
    runs: list[str] = field(default_factory=list)
    samples: int = 0
    images: int = 0  # distinct image files under assets/img
    image_refs: int = 0  # image references written (each served from one shared file)
    compare_pages: int = 0  # compare/<qid>.html pages (one per question answered by any run)
    warnings: list[str] = field(default_factory=list)

    @property
    def index(self) -> Path:
        return self.out / "index.html"


def _slug(text: str, limit: int = 80) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:limit]
    return s or "x"


def _file_name(query_id: str) -> str:
    slug = _slug(query_id, 60)
    return slug if slug == query_id else f"{slug}-{hashlib.sha256(query_id.encode()).hexdigest()[:8]}"


def _ext(data: bytes, fallback: str) -> str:
    for magic, ext in _MAGIC:
        if data.startswith(magic):
            return ext
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    fallback = fallback.lower()
    return fallback if fallback in _EXTS else "bin"


def _fmt(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


@dataclass
class _Run:
    path: Path
    config: dict[str, Any]
    scores: dict[str, Any]
    summary: dict[str, Any]
    responses: list[Response]
    judgments: list[Judgment]
    run_id: str = ""
    row: dict[str, Any] = field(default_factory=dict)


def _read_jsonl(path: Path, model: type) -> list:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                out.append(model.model_validate_json(line))
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: {exc}") from exc
    return out


def load_run(path: Path) -> _Run:
    missing = [f for f in REQUIRED if not (path / f).exists()]
    if missing:
        raise FileNotFoundError(f"{path} is not an evaluated run directory (missing {', '.join(missing)}); "
                                f"run `m2rag-bench evaluate {path}` first")
    summary = json.loads((path / "summary.json").read_text()) if (path / "summary.json").exists() else {}
    return _Run(path, json.loads((path / "config.json").read_text()), json.loads((path / "scores.json").read_text()),
                summary, list(RunDir(path).responses().values()), _read_jsonl(path / "judgments.jsonl", Judgment))


def _judge_name(scores: dict[str, Any]) -> str:
    judges = scores.get("judges") or {}
    rubric = (judges.get("rubric") or {}).get("model")
    ragas = (judges.get("ragas") or {}).get("model")
    if rubric and ragas and ragas != rubric:
        return f"{rubric} / {ragas}"
    return rubric or ragas or "?"


def _row(run: _Run) -> dict[str, Any]:
    s, c = run.scores, run.config
    identity = c.get("identity", {})
    paper = s.get("paper", {})
    metrics = {m: (paper.get("metrics", {}).get(m) or {}).get("mean") for m in METRICS}
    ci = (paper.get("overall") or {}).get("ci95") or [None, None]
    cov = s.get("coverage", {})
    cov_metrics = [v.get("coverage") for v in cov.get("metrics", {}).values() if v.get("coverage") is not None]
    judge_cost = (s.get("cost") or {}).get("judge_usd")
    gen_cost = run.summary.get("cost_usd")
    costs = [x for x in (judge_cost, gen_cost) if x is not None]
    stamp = s.get("stamp") or {}
    dataset = stamp.get("dataset") or c.get("dataset") or {}
    templates = {**(identity.get("templates") or {}), **((s.get("judges") or {}).get("templates") or {})}
    return {
        "run_id": run.run_id, "model": s.get("model") or c.get("model"),
        "strategy": s.get("strategy") or identity.get("strategy"), "modality": s.get("modality") or identity.get("modality"),
        "judge": _judge_name(s), "protocol": s.get("protocol", "default"), **metrics,
        "text_avg": paper.get("text_avg"), "mm_precision_avg": paper.get("mm_precision_avg"),
        "overall": (paper.get("overall") or {}).get("mean"), "overall_ci95_low": ci[0], "overall_ci95_high": ci[1],
        "coverage_generation": cov.get("generation"), "coverage_min_metric": min(cov_metrics) if cov_metrics else None,
        "responses": (s.get("counts") or {}).get("responses", len(run.responses)),
        "cost_usd": sum(costs) if costs else None,
        "date": (stamp.get("evaluated") or c.get("created") or "")[:10],
        "smoke_test": bool(s.get("smoke_test") or c.get("smoke_test")),
        "package_version": stamp.get("package_version") or c.get("package_version"),
        "git_revision": c.get("git_revision"), "dataset": dataset.get("name"), "dataset_sha256": dataset.get("sha256"),
        "templates": " ".join(sorted(set(templates.values()))), "run_fingerprint": c.get("fingerprint"),
    }


def _load_samples(run: _Run, warnings: list[str]) -> dict[str, Sample]:
    from ..data.features import iter_samples
    from ..data.loading import load_benchmark

    dataset = run.config.get("dataset") or {}
    try:
        ds = load_benchmark(dataset["name"], config=dataset.get("config", "benchmark"), split=dataset.get("split", "test"))
        wanted = {r.query_id for r in run.responses}
        return {s.query_id: s for s in iter_samples(ds) if s.query_id in wanted}
    except Exception as exc:  # noqa: BLE001 - a missing dataset costs questions and images, not the site
        warnings.append(f"{run.run_id}: dataset {dataset.get('name')!r} not loadable ({exc}); "
                        "sample pages show no question and no images")
        return {}


def _candidates(run: _Run, sample: Sample | None) -> list:
    if sample is None:
        return []
    from ..strategies.selection import SelectionConfig, select

    fields = SelectionConfig.__dataclass_fields__
    sel = {k: v for k, v in ((run.config.get("identity") or {}).get("selection") or {}).items() if k in fields}
    return select(sample, SelectionConfig(**sel)).candidates


class _Assets:
    def __init__(self, out: Path) -> None:
        self.dir = out / "assets" / "img"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.written: set[str] = set()
        self.refs = 0

    def add(self, data: bytes, fallback_ext: str) -> str:
        name = f"{hashlib.sha256(data).hexdigest()}.{_ext(data, fallback_ext)}"
        if name not in self.written:
            (self.dir / name).write_bytes(data)
            self.written.add(name)
        self.refs += 1
        return name


def _env() -> Environment:
    env = Environment(loader=PackageLoader("m2rag_bench.leaderboard", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True), trim_blocks=True,
                      lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["num"] = _fmt
    env.filters["pct"] = lambda v: "–" if v is None else f"{100 * v:.0f}%"
    env.filters["usd"] = lambda v: "n/a" if v is None else f"${v:,.2f}"
    env.globals.update(METRICS=METRICS, LABELS=LABELS, TEXT_METRICS=TEXT_METRICS, IMAGE_METRICS=IMAGE_METRICS,
                       RECALL=RECALL)
    return env


def _histogram(values: list[float]) -> list[dict[str, Any]]:
    bins = [0] * 10
    for v in values:
        bins[min(9, int(v * 10))] += 1
    top = max(bins) or 1
    return [{"label": f"{i / 10:.1f}–{(i + 1) / 10:.1f}", "count": n, "width": 5 * round(20 * n / top)}
            for i, n in enumerate(bins)]


def _topic_charts(per_topic: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """One horizontal bar chart per metric (Overall first) over the topics: value text and a width class p0..p100."""
    charts = []
    for key, label in (("overall", "Overall"), *((m, LABELS[m]) for m in METRICS)):
        bars = []
        for topic, t in per_topic:
            if key == "overall":
                value, n = t.get("overall"), t.get("responses")
            else:
                cell = (t.get("metrics") or {}).get(key) or {}
                value, n = cell.get("mean"), cell.get("n")
            pct = None if value is None else max(0, min(100, round(value)))
            bars.append({"topic": topic, "value": value, "n": n, "pct": pct})
        charts.append({"key": key, "label": label, "bars": bars})
    return charts


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _sample_pages(env: Environment, run: _Run, run_out: Path, assets: _Assets, report: SiteReport) -> list[dict]:
    samples = _load_samples(run, report.warnings)
    by_query: dict[str, list[Judgment]] = defaultdict(list)
    for j in run.judgments:
        by_query[j.query_id].append(j)
    template = env.get_template("sample.html")
    responses = sorted(run.responses, key=lambda r: r.query_id)
    names = [_file_name(r.query_id) for r in responses]
    listing = []
    for k, response in enumerate(responses):
        sample = samples.get(response.query_id)
        candidates = _candidates(run, sample)
        files: dict[int, str] = {}
        for cand in candidates:
            if cand.image.image_bytes:
                files[cand.index] = assets.add(cand.image.image_bytes, cand.image.extension)
        answer, used = render_answer(response.response or "", lambda i: f"../../../assets/img/{files[i]}" if i in files else None)
        judgments: dict[tuple[str, int | None], Judgment] = {}
        for j in by_query[response.query_id]:
            judgments[(j.metric, j.image_index)] = j  # the last judgment of a slot wins, as in aggregate
        text_scores = [{"metric": m, "label": LABELS[m], "j": judgments.get((m, None)),
                        "reason": render_text((judgments.get((m, None)) or Judgment(query_id="", metric=m)).reason or "")}
                       for m in (*TEXT_METRICS, RECALL)]
        cand_by_index = {c.index: c for c in candidates}
        images = []
        for pos, out_img in enumerate(response.output_images):
            cand = cand_by_index.get(out_img.index)
            images.append({
                "pos": pos, "index": out_img.index, "image_id": out_img.image_id, "caption": out_img.caption,
                "src": f"../../../assets/img/{files[out_img.index]}" if out_img.index in files else None,
                "final_score": cand.image.final_score if cand else None,
                "scores": [{"label": LABELS[m], "j": judgments.get((m, pos)),
                            "reason": render_text((judgments.get((m, pos)) or Judgment(query_id="", metric=m)).reason or "")}
                           for m in IMAGE_METRICS]})
        placed = {o.index for o in response.output_images}
        unused = [{"index": c.index, "image_id": c.image.image_id, "final_score": c.image.final_score,
                   "caption": c.caption, "src": f"../../../assets/img/{files[c.index]}" if c.index in files else None}
                  for c in candidates if c.index not in placed]
        topic = sample.topic if sample else next((j.topic for j in by_query[response.query_id] if j.topic), None)
        html = template.render(
            run=run.row, response=response, file=names[k], sample=sample, topic=topic, answer=Markup(answer), images=images,
            unused=unused, text_scores=text_scores, candidates=len(candidates),
            prev=names[k - 1] if k else None, next=names[k + 1] if k + 1 < len(names) else None,
            pseudo_unmatched=[i for i in used if i not in cand_by_index] if candidates else [])
        _write(run_out / "samples" / f"{names[k]}.html", html)
        report.samples += 1
        listing.append({"file": names[k], "query_id": response.query_id, "topic": topic,
                        "query": sample.query if sample else None,
                        "error": response.error, "images": len(response.output_images),
                        "scores": {m: (judgments.get((m, None)).score if judgments.get((m, None)) else None)
                                   for m in (*TEXT_METRICS, RECALL)}})
    return listing


def build_site(run_dirs: list[Path], out: Path) -> SiteReport:
    """Write the static leaderboard for ``run_dirs`` (evaluated run directories) into ``out``."""
    out = Path(out)
    runs = [load_run(Path(p)) for p in run_dirs]
    if not runs:
        raise ValueError("no run directories given")
    for sub in ("runs", "data", "static", "assets", "compare"):
        if (out / sub).exists():
            shutil.rmtree(out / sub)
    out.mkdir(parents=True, exist_ok=True)
    report = SiteReport(out)
    seen: set[str] = set()
    for run in runs:
        identity = run.config.get("identity") or {}
        base = _slug(f"{run.scores.get('model') or run.config.get('model')}-{identity.get('strategy')}-"
                     f"{identity.get('modality')}-{_judge_name(run.scores)}-{run.scores.get('protocol', 'default')}")
        run_id, n = base, 2
        while run_id in seen:
            run_id, n = f"{base}-{n}", n + 1
        seen.add(run_id)
        run.run_id = run_id
        run.row = _row(run)
    runs.sort(key=lambda r: (r.row["smoke_test"], -(r.row["overall"] if r.row["overall"] is not None else -1),
                             r.run_id))
    env = _env()
    assets = _Assets(out)
    static = resources.files("m2rag_bench.leaderboard") / "static"
    (out / "static").mkdir(parents=True, exist_ok=True)
    for item in static.iterdir():
        if item.is_file():
            (out / "static" / item.name).write_bytes(item.read_bytes())

    answered: dict[str, dict[str, Any]] = {}  # file name -> the question and the runs (in table order) that answered it
    for run in runs:
        run_out = out / "runs" / run.run_id
        listing = _sample_pages(env, run, run_out, assets, report)
        for s in listing:
            entry = answered.setdefault(s["file"], {"query_id": s["query_id"], "query": None, "topic": None, "runs": []})
            entry["query"] = entry["query"] or s["query"]
            entry["topic"] = entry["topic"] or s["topic"]
            entry["runs"].append(run.row)
        dist: dict[str, list[float]] = defaultdict(list)
        for j in run.judgments:
            if j.score is not None:
                dist[j.metric].append(j.score)
        distributions = [{"metric": m, "label": LABELS[m], "n": len(dist[m]), "bins": _histogram(dist[m])}
                         for m in METRICS if dist[m]]
        _write(run_out / "index.html", env.get_template("run.html").render(
            run=run.row, scores=run.scores, per_topic=sorted((run.scores.get("per_topic") or {}).items()),
            topic_charts=_topic_charts(sorted((run.scores.get("per_topic") or {}).items())),
            distributions=distributions, samples=listing,
            config_json=json.dumps(run.config, indent=2, sort_keys=True, default=str),
            judges_json=json.dumps({k: run.scores.get(k) for k in ("judges", "cost", "stamp", "notes", "stopped")},
                                   indent=2, sort_keys=True, default=str)))
        _write(run_out / "scores.json", json.dumps(run.scores, indent=2, sort_keys=True, default=str) + "\n")
        report.runs.append(run.run_id)

    compare = env.get_template("compare.html")
    for name, entry in sorted(answered.items()):
        chosen = entry["runs"][:2] if len(entry["runs"]) > 1 else entry["runs"] * 2
        _write(out / "compare" / f"{name}.html", compare.render(file=name, entry=entry, a=chosen[0], b=chosen[1]))
    report.compare_pages = len(answered)

    rows = [r.row for r in runs]
    _write(out / "data" / "leaderboard.json", json.dumps({"columns": COLUMNS, "runs": rows}, indent=2) + "\n")
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    _write(out / "data" / "leaderboard.csv", buf.getvalue())
    facets = {k: sorted({str(r[k]) for r in rows}) for k in ("strategy", "modality", "judge", "protocol")}
    _write(out / "index.html", env.get_template("index.html").render(rows=rows, facets=facets))
    report.images = len(assets.written)
    report.image_refs = assets.refs
    return report
