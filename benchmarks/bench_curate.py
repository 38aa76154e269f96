"""Curation end to end: wall time per stage, requests and judge calls, concurrent vs one at a time, and a rerun.

A generated site (Q questions × P pages of prose with 4 photos, a duplicate and an icon each; 2 image-search results
per question) is served by a static HTTP server in its own process with a fixed latency per request; a scripted
OpenAI-compatible judge (tests/curate/curate_judge.py) answers after a fixed delay. Search is an in-process provider
(``--search bench_curate:SiteSearch``), so the figures are about our pipeline, not a search API. Each configuration
curates into a fresh folder, stage by stage, timing each stage; the first one is then run again (resume of a
finished curation).

    python benchmarks/bench_curate.py [--questions 6] [--pages 10] [--latency 0.05] [--judge-delay 0.1]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(REPO), str(HERE)]
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402
from bench_curate_images import encode, photo, start_server  # noqa: E402
from PIL import Image  # noqa: E402
from rich.console import Console  # noqa: E402

from m2rag_bench.cli_evaluate import make_judges  # noqa: E402
from m2rag_bench.curate.judging import CurationJudge  # noqa: E402
from m2rag_bench.curate.pipeline import STAGES, CurateOptions, Curator  # noqa: E402
from m2rag_bench.curate.queries import QueryInput  # noqa: E402
from m2rag_bench.curate.search import ImageHit, WebHit  # noqa: E402
from m2rag_bench.curate.similarity import make_similarity  # noqa: E402
from m2rag_bench.curate.store import Store  # noqa: E402
from m2rag_bench.models.cache import CallCache  # noqa: E402
from m2rag_bench.runs.progress import StageBars  # noqa: E402
from tests.curate.curate_judge import reply  # noqa: E402
from tests.helpers.openai_server import OpenAIStub  # noqa: E402

SUBJECTS = ["solar panels", "sourdough bread", "mountain bikes", "coral reefs", "violins", "lighthouses",
            "volcanoes", "espresso machines", "snake plants", "chess openings", "tides", "glaciers"]
WORDS = ("how why energy layer surface works because light heat water pressure shape small large part system "
         "process changes moves inside outside early later common rare reason effect").split()


def make_site(folder: Path, questions: int, pages: int, seed: int = 7) -> dict:
    """Write the site; returns the search index {question: {"web": [...], "images": [...]}} (paths)."""
    rng, pyr = np.random.default_rng(seed), random.Random(seed)
    icon = encode(Image.new("RGB", (24, 24), (200, 30, 30)), "PNG")
    (folder / "icon.png").write_bytes(icon)
    index = {}
    for q in range(questions):
        subject = SUBJECTS[q % len(SUBJECTS)]
        question = f"How do {subject} work (question {q})?"
        web, images = [], []
        for p in range(pages):
            imgs = []
            for k in range(4):
                name = f"q{q}/p{p}-{k}.jpg"
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                (folder / name).write_bytes(encode(photo(rng), "JPEG", quality=90))
                imgs.append(name)
            paragraphs = []
            for k in range(6):
                words = " ".join(pyr.choice(WORDS) for _ in range(70))
                paragraphs.append(f"<p>{subject.capitalize()}: {words}.</p>")
                if k < 4:
                    paragraphs.append(f'<img src="/{imgs[k]}" alt="A photo of {subject}, view {k}">')
            paragraphs.append(f'<img src="/{imgs[0]}" alt="{subject} again">')  # a duplicate within the page
            html = (f"<html><head><title>{subject} {p}</title></head><body><nav><img src='/icon.png' alt='logo'>"
                    f"Home</nav><h1>{subject.capitalize()}, page {p}</h1>{''.join(paragraphs)}"
                    "<footer>Contact us</footer></body></html>")
            (folder / f"q{q}/p{p}.html").write_text(html, encoding="utf-8")
            web.append(f"/q{q}/p{p}.html")
        images = [f"/q{q}/p0-1.jpg", f"/q{q}/p1-2.jpg"]
        index[question] = {"web": web, "images": images}
    return index


class SiteSearch:
    """Search over the generated site (index and base URL from BENCH_SITE_INDEX / BENCH_SITE_BASE)."""

    name = "site"

    def __init__(self) -> None:
        self.index = json.loads(Path(os.environ["BENCH_SITE_INDEX"]).read_text())
        self.base = os.environ["BENCH_SITE_BASE"]

    async def web(self, query: str, num: int = 10) -> list[WebHit]:
        return [WebHit(i, f"result {i}", self.base + p, None, {}) for i, p in enumerate(self.index[query]["web"][:num])]

    async def images(self, query: str, num: int = 10) -> list[ImageHit]:
        return [ImageHit(i, self.base + p, f"image result {i}", None, {})
                for i, p in enumerate(self.index[query]["images"][:num])]

    async def aclose(self) -> None:
        return None


def curate(out: Path, questions: list[str], judge_url: str, fetch_concurrency: int, judge_concurrency: int,
           stub: OpenAIStub, similarity: object) -> dict:
    """Curate stage by stage; returns per-stage wall time and judge calls, and the final counts."""
    image_judge, text = make_judges("judge", judge_url, None, "openai", "OPENAI_API_KEY", judge_concurrency,
                                    cache=False)
    (out / "work").mkdir(parents=True, exist_ok=True)
    image_judge.cache = text.cache = CallCache(out / "work" / "calls.sqlite")
    options = CurateOptions(search="bench_curate:SiteSearch", similarity="text", concurrency=fetch_concurrency,
                            allow_loopback=True,
                            pages=len(json.loads(Path(os.environ["BENCH_SITE_INDEX"]).read_text())[questions[0]]["web"]))
    quiet = Console(file=io.StringIO())
    curator = Curator(Store(out), [QueryInput(f"q{i}", q) for i, q in enumerate(questions)], options,
                      CurationJudge(text, image_judge), quiet)
    curator._similarity = similarity  # loaded once, outside the timings
    rows = {}
    for stage in STAGES:
        calls, start = stub.count, time.perf_counter()
        with StageBars(quiet) as bars:
            curator.run([stage], bars)
        rows[stage] = (time.perf_counter() - start, stub.count - calls)
    return {"stages": rows, "counts": curator.counts,
            "downloads": sum(1 for _ in open(out / "work" / "downloads.jsonl"))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--questions", type=int, default=6)
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--latency", type=float, default=0.05, help="web server delay per request (s)")
    ap.add_argument("--judge-delay", type=float, default=0.1, help="judge delay per call (s)")
    args = ap.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory(prefix="bench-curate-") as tmp:
        tmp = Path(tmp)
        site = tmp / "site"
        site.mkdir()
        index = make_site(site, args.questions, args.pages)
        (tmp / "index.json").write_text(json.dumps(index))
        server, base = start_server(site, args.latency)
        os.environ.update(BENCH_SITE_INDEX=str(tmp / "index.json"), BENCH_SITE_BASE=base,
                          M2RAG_BENCH_CACHE=str(tmp / "cache"))
        questions = list(index)
        start = time.perf_counter()
        similarity = make_similarity("text")
        print(f"alt-text similarity model ({similarity.name}) loaded in {time.perf_counter() - start:.1f} s (not timed below)")
        try:
            with OpenAIStub(["judge"], reply, delay=args.judge_delay) as stub:
                runs = {}
                for label, fetch_c, judge_c in (("concurrent (fetch 16, judge 16)", 16, 16),
                                                ("one at a time (fetch 1, judge 1)", 1, 1)):
                    runs[label] = curate(tmp / label.split()[0], questions, stub.base_url, fetch_c, judge_c, stub,
                                         similarity)
                runs["rerun of the concurrent folder"] = curate(tmp / "concurrent", questions, stub.base_url, 16, 16,
                                                                stub, similarity)
        finally:
            server.kill()
    print(f"\n{args.questions} questions × {args.pages} pages, web latency {args.latency * 1000:.0f} ms, "
          f"judge delay {args.judge_delay * 1000:.0f} ms")
    labels = list(runs)
    print("| stage | " + " | ".join(labels) + " |")
    print("|---|" + "---|" * len(labels))
    for stage in STAGES:
        cells = [f"{runs[k]['stages'][stage][0]:.2f} s ({runs[k]['stages'][stage][1]} calls)" for k in labels]
        print(f"| {stage} | " + " | ".join(cells) + " |")
    totals = [f"**{sum(t for t, _ in runs[k]['stages'].values()):.1f} s**" for k in labels]
    print("| total | " + " | ".join(totals) + " |")
    first = runs[labels[0]]
    print(f"\ncounts: {json.dumps(first['counts'])}\nimage downloads recorded: {first['downloads']}")


if __name__ == "__main__":
    main()
