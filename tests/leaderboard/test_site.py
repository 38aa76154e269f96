"""The static leaderboard site built from evaluated runs of the mini split (no browser)."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from m2rag_bench.leaderboard import build_site
from tests.helpers.cli import run_cli
from tests.helpers.openai_server import OpenAIStub
from tests.judges.scripted_judge import make_judge
from tests.strategies.scripted_model import reply as generator

REPO = Path(__file__).resolve().parents[2]
XSS = ("# Title\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[link](javascript:alert(1))\n\n"
       "![x](https://evil.example/a.png)\n\n<a href=\"javascript:alert(2)\">click</a>\n\n![ok](images/0.png)\n")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    tmp = tmp_path_factory.mktemp("lbruns")
    out = []
    for strategy in ("single-stage", "multi-stage"):
        run = tmp / strategy
        with OpenAIStub(["gen"], generator) as srv:
            proc = run_cli(tmp, "run", "--backend", "openai", "--model", "gen", "--base-url", srv.base_url, "--limit", "4",
                        "--strategy", strategy, "--out", str(run), "--no-eval")
        assert proc.returncode == 0, proc.stderr[-2000:]
        with OpenAIStub(["judge"], make_judge()) as srv:
            proc = run_cli(tmp, "evaluate", str(run), "--judge", "judge", "--judge-base-url", srv.base_url)
        assert proc.returncode == 0, proc.stderr[-2000:]
        out.append(run)
    return out


@pytest.fixture(scope="module")
def site(runs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("site")
    return out, build_site(runs, out)


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _elements(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Elements()
    parser.feed(html)
    return parser.tags


def _answer(page: str) -> str:
    return page.split('<article class="answer">', 1)[1].split("</article>", 1)[0]


def test_index_lists_both_runs_with_their_overall(site, runs: list[Path]) -> None:
    out, report = site
    index = (out / "index.html").read_text()
    assert len(report.runs) == 2 and report.warnings == []
    for run in runs:
        scores = json.loads((run / "scores.json").read_text())
        overall = scores["paper"]["overall"]["mean"]
        assert overall is not None and f">{overall:.1f}</td>" in index
        assert f">{scores['strategy']}</td>" in index
    for label in ("Text Avg.", "Multi-modal P. Avg.", "Overall", "Coverage", "Cost", "Flu.", "Recall"):
        assert label in index
    assert "SMOKE TEST</span></td>" not in index and "smoke-row" not in index
    assert "mini@" in index and "v0.1.0" in index  # reproducibility stamp
    assert (out / "static" / "table.js").exists() and '<script src="static/table.js">' in index
    assert len(index.encode()) < 100_000 and "mini-01" not in index  # no per-sample data in the index


def test_downloads_parse(site, runs: list[Path]) -> None:
    out, report = site
    data = json.loads((out / "data" / "leaderboard.json").read_text())
    rows = list(csv.DictReader((out / "data" / "leaderboard.csv").open()))
    assert [r["run_id"] for r in data["runs"]] == [r["run_id"] for r in rows] == report.runs
    by_strategy = {r["strategy"]: r for r in data["runs"]}
    for run in runs:
        scores = json.loads((run / "scores.json").read_text())
        row = by_strategy[scores["strategy"]]
        assert row["overall"] == pytest.approx(scores["paper"]["overall"]["mean"])
        assert row["dataset_sha256"] == scores["stamp"]["dataset"]["sha256"] and row["smoke_test"] is False
        assert row["image_recall"] == pytest.approx(scores["paper"]["metrics"]["image_recall"]["mean"])
    assert [float(r["overall"]) for r in rows] == pytest.approx([r["overall"] for r in data["runs"]])


def test_run_and_sample_pages_with_images_stored_once(site, runs: list[Path]) -> None:
    out, report = site
    seen_src = set()
    for run_id, run in zip(sorted(report.runs), sorted(runs, key=lambda p: p.name)):
        run_page = (out / "runs" / run_id / "index.html").read_text()
        assert "Per topic" in run_page and "Score distributions" in run_page and "config.json" in run_page
        responses = [json.loads(x) for x in (run / "responses.jsonl").read_text().splitlines()]
        for response in responses:
            page = out / "runs" / run_id / "samples" / f"{response['query_id']}.html"
            assert page.exists(), page
            html = page.read_text()
            assert f'href="samples/{response["query_id"]}.html"' in run_page
            srcs = [a["src"] for tag, a in _elements(html) if tag == "img"]
            answer_srcs = [a["src"] for tag, a in _elements(_answer(html)) if tag == "img"]
            assert len(answer_srcs) == len(re.findall(r"!\[[^\]]*\]\(images/\d+\.\w+\)", response["response"]))
            for src in srcs:
                assert re.fullmatch(r"\.\./\.\./\.\./assets/img/[0-9a-f]{64}\.\w+", src), src
                assert (page.parent / src).resolve().exists()
                seen_src.add(src)
            assert "Candidate images not used" in html and "scripted" in html  # judge reasons shown
    files = list((out / "assets" / "img").iterdir())
    assert len(files) == report.images == len(seen_src)
    import hashlib
    for f in files:  # named by content, so each distinct image is stored once
        assert f.stem == hashlib.sha256(f.read_bytes()).hexdigest()
    assert report.image_refs > report.images  # both runs use the same candidates: shared files


def test_smoke_run_is_marked_and_xss_is_inert(runs: list[Path], tmp_path: Path) -> None:
    smoke, xss = tmp_path / "smoke", tmp_path / "xss"
    shutil.copytree(runs[0], smoke)
    shutil.copytree(runs[1], xss)
    scores = json.loads((smoke / "scores.json").read_text())
    scores["smoke_test"] = True
    (smoke / "scores.json").write_text(json.dumps(scores))
    lines = [json.loads(x) for x in (xss / "responses.jsonl").read_text().splitlines()]
    lines[-1]["response"] = XSS
    (xss / "responses.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = tmp_path / "site"
    report = build_site([smoke, xss], out)

    index = (out / "index.html").read_text()
    assert index.count("SMOKE TEST</span>") == 2  # the legend and the smoke run's row
    assert index.count('class="smoke-row"') == 1
    data = json.loads((out / "data" / "leaderboard.json").read_text())
    assert sorted(r["smoke_test"] for r in data["runs"]) == [False, True]
    assert data["runs"][-1]["smoke_test"] is True  # smoke runs sort after results

    xss_id = next(r["run_id"] for r in data["runs"] if not r["smoke_test"])
    page = (out / "runs" / xss_id / "samples" / f"{lines[-1]['query_id']}.html").read_text()
    answer = _answer(page)
    assert "<script" not in answer.lower() and "onerror=" not in answer.replace("&lt;img src=x onerror", "")
    assert 'src="http' not in answer and not re.search(r'<a [^>]*javascript', answer)
    for tag, attrs in _elements(page):
        assert tag not in ("script", "iframe", "style", "object", "embed") or (tag == "script" and attrs.get("src"))
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)
            assert "javascript:" not in (value or "").lower(), (tag, name, value)
        if tag == "img":
            assert attrs["src"].startswith("../../../assets/img/"), attrs
    assert not [t for t, _ in _elements(answer) if t in ("script", "a")]  # the javascript: links are plain text
    assert "not a candidate image" in answer  # the remote image was replaced by a note
    assert [a["src"] for t, a in _elements(answer) if t == "img"]  # the real image still renders
    assert report.samples == 8


def test_cli_build(runs: list[Path], tmp_path: Path) -> None:
    """`m2rag-bench leaderboard build --runs A B --out SITE` as a user types it."""
    from click.testing import CliRunner

    from m2rag_bench.cli import main

    result = CliRunner().invoke(main, ["leaderboard", "build", "--runs", str(runs[0]), str(runs[1]),
                                       "--out", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "site" / "index.html").exists() and (tmp_path / "site" / "data" / "leaderboard.csv").exists()


def test_topic_chart_and_compare_pages(site, runs: list[Path]) -> None:
    out, report = site
    for run_id in report.runs:
        run_page = (out / "runs" / run_id / "index.html").read_text()
        assert 'id="topic-metric"' in run_page and '<script src="../../static/topics.js">' in run_page
        assert re.search(r'class="tbar p\d+"', run_page)  # bars as width classes (the CSP forbids inline styles)
    assert (out / "static" / "topics.js").exists() and (out / "static" / "compare.js").exists()
    css = (out / "static" / "style.css").read_text()
    assert ".tbar.p0 { width: 0%; }" in css and ".tbar.p100 { width: 100%; }" in css
    pages = sorted((out / "compare").glob("*.html"))
    assert len(pages) == report.compare_pages == 4  # both runs answered the same four questions
    for page in pages:
        html = page.read_text()
        frames = [a["src"] for tag, a in _elements(html) if tag == "iframe"]
        options = [a["value"] for tag, a in _elements(html) if tag == "option"]
        assert frames == [f"../runs/{r}/samples/{page.name}" for r in report.runs]  # the first two runs
        assert all((page.parent / f).resolve().exists() for f in frames + options)
        assert "frame-src 'self' file:;" in html
        sample = out / "runs" / report.runs[0] / "samples" / page.name
        assert f'href="../../../compare/{page.name}#{report.runs[0]}"' in sample.read_text()
        assert "frame-src 'none';" in sample.read_text()
    assert "compare/" not in (out / "index.html").read_text()


def test_cli_serve(site) -> None:
    """`m2rag-bench leaderboard serve SITE --port N` in a subprocess: index and a sample page over HTTP."""
    import socket
    import time
    import urllib.request

    out, report = site
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(out), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "m2rag_bench", "leaderboard", "serve", str(out), "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "index.html", timeout=5) as r:
                    status, index = r.status, r.read().decode()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
                assert time.monotonic() < deadline, "server did not answer"
                time.sleep(0.2)
        assert status == 200 and "M2RAG-Bench leaderboard" in index
        sample = next((out / "runs" / report.runs[0] / "samples").glob("*.html"))
        with urllib.request.urlopen(f"{base}runs/{report.runs[0]}/samples/{sample.name}", timeout=5) as r:
            assert r.status == 200 and r.read() == sample.read_bytes()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode is not None
