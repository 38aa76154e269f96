"""Calls, tokens and wall time per sample for each strategy on the mini split (default: the embedded model).

Each strategy runs in a fresh run directory with an empty call cache, through the real CLI; the figures come from
the run's ``summary.json``. The embedded model is a 135M smoke-test model on the CPU: the wall times show the cost of
the harness on a laptop-class machine, not what a GPU server does.

    python benchmarks/bench_strategies.py [--backend embedded] [--model M] [--base-url URL] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default="embedded")
    parser.add_argument("--model", default=None)
    parser.add_argument("--base-url", default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--strategies", nargs="+", default=["single-stage", "multi-stage", "separate"])
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="m2rag-bench-strategies-"))
    rows = []
    for strategy in args.strategies:
        out = work / strategy
        cmd = [sys.executable, "-m", "m2rag_bench", "run", "--backend", args.backend, "--strategy", strategy,
               "--out", str(out), "--no-eval"]
        for flag, value in (("--model", args.model), ("--base-url", args.base_url), ("--limit", args.limit)):
            if value is not None:
                cmd += [flag, str(value)]
        env = {**os.environ, "M2RAG_BENCH_CACHE": str(work / f"cache-{strategy}"), "HF_HUB_OFFLINE": "1",
               "HF_DATASETS_OFFLINE": "1"}
        subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        summary = json.loads((out / "summary.json").read_text())
        n = summary["samples"]
        usage = next(iter(summary["usage"].values()))
        responses = [json.loads(x) for x in (out / "responses.jsonl").read_text().splitlines()]
        row = {"strategy": strategy, "samples": n, "coverage": summary["coverage"],
               "calls_per_sample": round(summary["calls_sent"] / n, 2),
               "prompt_tokens_per_sample": round(usage["prompt_tokens"] / n),
               "completion_tokens_per_sample": round(usage["completion_tokens"] / n),
               "wall_s_per_sample": round(summary["wall_seconds"] / n, 1),
               "images_per_answer": round(sum(len(r["output_images"]) for r in responses) / n, 2)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(json.dumps({"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
                      "backend": args.backend, "results": rows}, indent=2))


if __name__ == "__main__":
    main()
