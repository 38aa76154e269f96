"""Leaderboard benchmark: `build_site` on 20 runs × 1,000 samples. Build time, site size, index size, file count.

A synthetic release of N queries is written (its images drawn from a pool of ~200 small PNGs, so the site's
content-hash dedup matters), built with ``build_dataset``, and 20 evaluated run directories are written directly
(config.json, responses.jsonl, judgments.jsonl, scores.json from the package's own ``aggregate()`` and schema
classes), each answer placing 2–3 of its sample's candidate images. Then ``build_site`` is timed.

    python benchmarks/bench_leaderboard.py [--runs 20] [--n 1000] [--pool 200] [--workdir DIR] [--keep]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import itertools
import json
import os
import platform
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")


def dir_stats(path: Path) -> tuple[int, int]:
    files = [p for p in path.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def png_pool(n: int, seed: int = 7) -> list[bytes]:
    from PIL import Image

    rng = random.Random(seed)
    pool = []
    for _ in range(n):
        img = Image.new("RGB", (64, 48), tuple(rng.randrange(256) for _ in range(3)))
        for _ in range(6):
            block = Image.new("RGB", (16, 12), tuple(rng.randrange(256) for _ in range(3)))
            img.paste(block, (rng.randrange(64), rng.randrange(48)))
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        pool.append(buf.getvalue())
    return pool


def write_dataset(work: Path, n: int, pool: list[bytes]) -> Path:
    """A synthetic release whose images all come from ``pool`` (PNG bytes whatever the file's extension), built."""
    from m2rag_bench.data import synthetic
    from m2rag_bench.data.export import build_dataset

    release, out = work / "release", work / "dataset"
    original = synthetic.noise_image
    synthetic.noise_image = lambda rng, fmt="png", size=(64, 48), texture=False: pool[rng.randrange(len(pool))]
    try:
        synthetic.write_release(release, n, seed=0)
    finally:
        synthetic.noise_image = original
    build_dataset(release, out)
    return out


ANSWER = ("# Answer to {qid}\n\n{body}\n\n![{c0}](images/{i0}.png)\n\n## More\n\nSecond part of the answer, with "
          "**emphasis**, a [link](https://example.org/{qid}) and a list:\n\n- one\n- two\n\n![{c1}](images/{i1}.png)\n"
          "{third}")


def write_runs(work: Path, dataset: Path, n_runs: int) -> list[Path]:
    from m2rag_bench import __version__
    from m2rag_bench.data.features import iter_samples
    from m2rag_bench.data.loading import load_benchmark
    from m2rag_bench.judges.aggregate import aggregate
    from m2rag_bench.judges.metrics import IMAGE_METRICS, RECALL, TEXT_METRICS
    from m2rag_bench.schema import Judgment, OutputImage, Response
    from m2rag_bench.strategies.selection import SelectionConfig, select

    samples = list(iter_samples(load_benchmark(str(dataset))))
    candidates = {s.query_id: select(s, SelectionConfig()).candidates for s in samples}
    sha = hashlib.sha256(str(dataset).encode()).hexdigest()
    ds_info = {"name": str(dataset), "kind": "built", "config": "benchmark", "split": "test", "levels": None,
               "rows": len(samples), "sha256": sha}
    combos = list(itertools.product([f"model-{k}" for k in range(4)], ["single-stage", "multi-stage"],
                                    ["llm", "mllm"], ["default"]))
    combos += list(itertools.product([f"model-{k}" for k in range(4)], ["separate"], ["mllm"], ["m2rag-2025-02"]))
    runs = []
    for r, (model, strategy, modality, protocol) in enumerate(combos[:n_runs]):
        rng = random.Random(r)
        run = work / "runs" / f"run-{r:02d}"
        run.mkdir(parents=True, exist_ok=True)
        quality = 0.4 + 0.5 * rng.random()
        responses, judgments = [], []
        for s in samples:
            cands = candidates[s.query_id]
            picked = rng.sample(cands, min(len(cands), rng.choice((2, 3))))
            if len(picked) < 2:
                responses.append(Response(query_id=s.query_id, strategy=strategy, modality=modality, model=model,
                                          protocol=protocol, error="too few candidates"))
                continue
            body = " ".join(f"Sentence {k} of a synthetic answer about {s.query[:40]}." for k in range(8))
            third = f"\n![{picked[2].caption[:30]}](images/{picked[2].index}.png)\n" if len(picked) > 2 else ""
            text = ANSWER.format(qid=s.query_id, body=body, c0=picked[0].caption[:30], i0=picked[0].index,
                                 c1=picked[1].caption[:30], i1=picked[1].index, third=third)
            outs = [OutputImage(index=c.index, image_id=c.image.image_id, caption=c.caption[:30]) for c in picked]
            responses.append(Response(query_id=s.query_id, strategy=strategy, modality=modality, model=model,
                                      protocol=protocol, response=text, output_images=outs,
                                      usage={"prompt_tokens": 2000, "completion_tokens": 300}))

            def judge(metric: str, image_index: int | None = None) -> Judgment:
                raw = max(0, min(10, round(rng.gauss(10 * quality, 2))))
                return Judgment(query_id=s.query_id, metric=metric, image_index=image_index, score=raw / 10,
                                raw_score=float(raw), reason=f"Synthetic reason for {metric}: the answer is "
                                f"*adequate*; score {raw}.", judge_model="judge-x", topic=s.topic,
                                template_version=f"{metric}@v1", protocol=protocol,
                                usage={"prompt_tokens": 500, "completion_tokens": 40})
            judgments += [judge(m) for m in TEXT_METRICS]
            judgments += [judge(m, pos) for pos in range(len(outs)) for m in IMAGE_METRICS]
            judgments.append(Judgment(query_id=s.query_id, metric=RECALL, score=rng.random(), topic=s.topic,
                                      protocol=protocol))
        scores = aggregate(judgments, responses, protocol=protocol, bootstrap=200)
        scores.update({"run": str(run), "model": model, "strategy": strategy, "modality": modality,
                       "judges": {"rubric": {"backend": "openai", "model": "judge-x"},
                                  "ragas": {"backend": "openai", "model": "judge-x"},
                                  "templates": {m: f"{m}@v1" for m in ("fluency", "relevance", *IMAGE_METRICS)}},
                       "cost": {"judge_usd": round(rng.uniform(1, 20), 2)}, "stopped": None,
                       "stamp": {"package_version": __version__, "evaluated": "2026-11-30T00:00:00+00:00",
                                 "run_fingerprint": f"fp{r:04d}", "dataset": ds_info}})
        config = {"fingerprint": f"fp{r:04d}", "identity": {"strategy": strategy, "modality": modality,
                                                            "protocol": protocol, "dataset": ds_info,
                                                            "selection": {}, "templates": {strategy: f"{strategy}@v1"}},
                  "package_version": __version__, "git_revision": "0" * 40, "created": "2026-11-30T00:00:00+00:00",
                  "dataset": ds_info, "model": model, "smoke_test": False, "protocol": protocol}
        (run / "config.json").write_text(json.dumps(config, indent=2))
        (run / "responses.jsonl").write_text("".join(x.model_dump_json() + "\n" for x in responses))
        (run / "judgments.jsonl").write_text("".join(x.model_dump_json() + "\n" for x in judgments))
        (run / "scores.json").write_text(json.dumps(scores, indent=2, default=str))
        runs.append(run)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--n", type=int, default=1000, help="samples per run (queries in the synthetic release)")
    parser.add_argument("--pool", type=int, default=200, help="distinct PNGs the release's images are drawn from")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="m2rag-bench-leaderboard-"))
    from m2rag_bench.leaderboard import build_site

    t0 = time.perf_counter()
    dataset = write_dataset(work, args.n, png_pool(args.pool))
    runs = write_runs(work, dataset, args.runs)
    setup = time.perf_counter() - t0
    site = work / "site"
    shutil.rmtree(site, ignore_errors=True)
    start = time.perf_counter()
    report = build_site(runs, site)
    wall = time.perf_counter() - start
    files, size = dir_stats(site)
    img_files, img_size = dir_stats(site / "assets" / "img")
    index = (site / "index.html").stat().st_size
    result = {
        "runs": len(report.runs), "samples_per_run": args.n, "sample_pages": report.samples,
        "build_site_s": round(wall, 1), "pages_per_s": round(report.samples / wall),
        "site_mb": round(size / 1e6, 1), "files": files, "index_html_kb": round(index / 1e3, 1),
        "index_under_1mb": index < 1_000_000, "images_stored": report.images, "image_refs": report.image_refs,
        "images_mb": round(img_size / 1e6, 2), "image_pool": args.pool, "warnings": report.warnings[:3],
        "setup_s": round(setup, 1),
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "python": platform.python_version(), "platform": platform.platform()},
    }
    print(json.dumps(result, indent=2))
    if not args.keep and args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
