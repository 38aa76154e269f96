"""Builder benchmark: does `dataset build` stream? Wall time, peak RSS and output size as the release grows.

For each N, a synthetic release of N queries × 12 images (3 pages × 3 images + 3 auxiliary images, JPEG/PNG,
``--image-size`` pixels) is written in the authors' layout, then built by ``m2rag-bench dataset build`` in a fresh
child process whose peak RSS is read from ``getrusage``. Streaming means the peak stays flat as N grows.

    python benchmarks/bench_builder.py --n 250 1000 [--shards 10] [--image-size 320 240] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[250, 1000])
    parser.add_argument("--shards", type=int, default=10, help="tar shards (0 = extracted images)")
    parser.add_argument("--image-size", type=int, nargs=2, default=[320, 240])
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="m2rag-bench-builder-"))
    results = []
    for n in args.n:
        release, out = work / f"release-{n}", work / f"out-{n}"
        shutil.rmtree(out, ignore_errors=True)
        if not (release / "dev_set" / "dev_set.jsonl").exists():
            subprocess.run([sys.executable, "-c", (
                "from m2rag_bench.data.synthetic import write_release;"
                f"write_release({str(release)!r}, {n}, shards={args.shards}, image_size={tuple(args.image_size)},"
                " images_per_page=3, n_pages=3, n_aux=3, texture=True)")], check=True)
        # Each N is measured in its own child of a fresh interpreter, so earlier peaks cannot mask later ones.
        code = ("import resource, subprocess, sys, json;"
                f"subprocess.run([sys.executable, '-m', 'm2rag_bench.cli', 'dataset', 'build', '--release', {str(release)!r},"
                f" '--out', {str(out)!r}], check=True, stderr=subprocess.DEVNULL);"
                "print(json.dumps(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))")
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                              env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"})
        wall = time.perf_counter() - start
        peak = int(proc.stdout.strip().splitlines()[-1]) * 1024
        row = {"n": n, "images": n * 12, "release_mb": round(dir_size(release) / 1e6, 1), "wall_s": round(wall, 1),
               "peak_rss_mb": round(peak / 1e6), "output_mb": round(dir_size(out) / 1e6, 1)}
        results.append(row)
        print(json.dumps(row), flush=True)
    print(json.dumps({"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                                 f"Python {platform.python_version()}", "shards": args.shards,
                      "image_size": args.image_size, "results": results}, indent=2))


if __name__ == "__main__":
    main()
