"""Resume: interrupt a run half-way, run it again, and count the calls the server received.

A local OpenAI-compatible server (tests/helpers/openai_server.py, answering like a model through the scripted
responder of the strategy tests) serves a multi-stage run of the mini split. The run is killed (SIGKILL) once the
server has seen about half of the calls a full run makes, then the same command is run again. With a content-keyed
cache and per-sample resume, total calls = distinct calls (apart from calls in flight at the kill).

    python benchmarks/bench_resume.py [--strategy multi-stage] [--delay 0.05] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.helpers.openai_server import OpenAIStub  # noqa: E402
from tests.strategies.scripted_model import reply  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategy", default="multi-stage")
    parser.add_argument("--delay", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="m2rag-bench-resume-"))
    env = {**os.environ, "M2RAG_BENCH_CACHE": str(work / "cache"), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "PYTHONPATH": str(REPO)}
    with OpenAIStub(["m"], reply, delay=args.delay) as srv:
        def command(out: Path) -> list[str]:
            return [sys.executable, "-m", "m2rag_bench", "run", "--backend", "openai", "--model", "m", "--base-url",
                    srv.base_url, "--strategy", args.strategy, "--out", str(out), "--concurrency",
                    str(args.concurrency), "--chunk-size", "4", "--no-eval", "--embedder", "lexical"]

        # Reference: an uninterrupted run with its own cache tells how many calls a full run makes.
        subprocess.run(command(work / "reference"), check=True, env={**env, "M2RAG_BENCH_CACHE": str(work / "c0")},
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        full = srv.count
        srv.reset()
        proc = subprocess.Popen(command(work / "run"), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while srv.count < full // 2 and proc.poll() is None:
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        before_kill = srv.count
        subprocess.run(command(work / "run"), check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        bodies = Counter(json.dumps(b, sort_keys=True) for b in srv.requests)
    result = {"strategy": args.strategy, "calls_in_a_full_run": full, "calls_before_kill": before_kill,
              "calls_after_restart": srv.count - before_kill, "total_calls": srv.count, "distinct_calls": len(bodies),
              "repeated_calls": srv.count - len(bodies), "concurrency": args.concurrency}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
