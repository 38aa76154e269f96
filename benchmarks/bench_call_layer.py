"""Call-layer benchmark: how close does `ModelClient` + `OpenAIBackend` get to the ideal throughput?

A local OpenAI-compatible stub (tests/helpers/openai_server.py) answers every chat completion after a fixed
``--delay``. For each concurrency c, N = max(16, 8·c) distinct one-message text conversations go through
``ModelClient(OpenAIBackend(model, url, concurrency=c), cache=None).complete(...)`` as one batch. With zero client
overhead the batch takes ceil(N/c)·delay, i.e. c / delay calls/s; efficiency = achieved / ideal. The wall time
includes everything a real batch pays: the event loop (``asyncio.run``), creating the ``AsyncOpenAI`` client, building
requests, HTTP and JSON on both sides, and parsing responses. Each point runs ``--repeats`` times (best and median
reported) and also records the server's observed ``max_concurrent`` (should equal c).

Two variants are measured:

* ``in-process`` — the stub runs its own event loop in a thread of this process. This is PESSIMISTIC: client and
  server share one GIL (and, on a small machine, the same couple of cores), so the stub's parsing and JSON work is
  charged to the client's wall time.
* ``subprocess`` — the stub runs in a ``multiprocessing`` child (spawn) that reports its port over a pipe, closer to
  a real remote endpoint.

Why efficiency falls as c grows: with a fixed server delay the c calls of a "wave" come back together, and the
client's per-call CPU (X: SDK request/response handling, httpx, asyncio) is spent serially before the next wave goes
out, so efficiency ≈ delay / (delay + c·X). A real endpoint's varying latency breaks up the waves, so this is a
worst case for a given delay.

Finally the SQLite `CallCache` (temporary directory, server delay 0): 1,000 calls without a cache, the same number
filling a fresh cache (one committed INSERT per completion), and a fully cached re-run of those calls (no request
reaches the server); wall times and calls/s are reported.

    python benchmarks/bench_call_layer.py [--delay 0.2] [--concurrency 1 8 32 128] [--repeats 3] [--n N]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.helpers (and m2rag_bench when not installed)

from m2rag_bench.models.base import Call, GenerationParams  # noqa: E402
from m2rag_bench.models.cache import CallCache  # noqa: E402
from m2rag_bench.models.client import ModelClient  # noqa: E402
from m2rag_bench.models.messages import user  # noqa: E402
from m2rag_bench.models.openai_backend import OpenAIBackend  # noqa: E402
from tests.helpers.openai_server import OpenAIStub  # noqa: E402

MODEL = "stub-model"
_batch_id = 0


def make_calls(n: int) -> list[Call]:
    """n distinct small conversations (a fresh prefix per batch, so nothing is ever de-duplicated)."""
    global _batch_id
    _batch_id += 1
    params = GenerationParams(max_tokens=32)
    return [Call((user(f"batch {_batch_id} question {i}: what is shown in the picture of the red bridge?"),),
                 params, "bench@1") for i in range(n)]


class LocalServer:
    """The stub in a thread of this process."""

    label = "in-process"

    def __init__(self, delay: float) -> None:
        self.srv = OpenAIStub([MODEL], delay=delay).start()
        self.base_url = self.srv.base_url

    def reset(self) -> None:
        self.srv.reset()

    def stats(self) -> tuple[int, int]:
        return self.srv.count, self.srv.max_concurrent

    def close(self) -> None:
        self.srv.stop()


def _serve(conn, delay: float) -> None:  # noqa: ANN001 - child process: start the stub, report its port, obey the pipe
    with OpenAIStub([MODEL], delay=delay) as srv:
        conn.send(srv.port)
        while (cmd := conn.recv()) != "stop":
            if cmd == "reset":
                srv.reset()
            conn.send((srv.count, srv.max_concurrent))


class ChildServer(LocalServer):
    """The stub in a separate (spawned) process; reset and stats travel over a pipe."""

    label = "subprocess"

    def __init__(self, delay: float) -> None:  # noqa: D107 - no super(): nothing runs here
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, delay), daemon=True)
        self.proc.start()
        self.base_url = f"http://127.0.0.1:{self.conn.recv()}/v1"

    def reset(self) -> None:
        self.conn.send("reset")
        self.conn.recv()

    def stats(self) -> tuple[int, int]:
        self.conn.send("stats")
        return self.conn.recv()

    def close(self) -> None:
        self.conn.send("stop")
        self.proc.join(10)


def run_batch(base_url: str, c: int, n: int, cache: CallCache | None = None) -> float:
    """Wall seconds for one batch of n calls at concurrency c (client construction included)."""
    calls = make_calls(n)
    start = time.perf_counter()
    client = ModelClient(OpenAIBackend(MODEL, base_url, concurrency=c), cache=cache)
    outs = client.complete(calls)
    wall = time.perf_counter() - start
    bad = [o.error for o in outs if not o.ok]
    assert not bad, f"{len(bad)} failed calls, e.g. {bad[0]}"
    return wall


def measure(server: LocalServer, args: argparse.Namespace) -> list[dict]:
    run_batch(server.base_url, 4, 8)  # warm-up: imports, first connections
    rows = []
    for c in args.concurrency:
        n = args.n or max(16, 8 * c)
        ideal_s = math.ceil(n / c) * args.delay
        walls, peaks = [], []
        for _ in range(args.repeats):
            server.reset()
            walls.append(run_batch(server.base_url, c, n))
            count, peak = server.stats()
            assert count == n, (count, n)
            peaks.append(peak)
        best, med = min(walls), statistics.median(walls)
        rows.append({"server": server.label, "concurrency": c, "calls": n, "ideal_calls_s": round(n / ideal_s, 1),
                     "best_calls_s": round(n / best, 1), "median_calls_s": round(n / med, 1),
                     "best_eff_pct": round(100 * ideal_s / best, 1), "median_eff_pct": round(100 * ideal_s / med, 1),
                     "best_wall_s": round(best, 3), "median_wall_s": round(med, 3),
                     "max_concurrent": max(peaks)})
        print(f"  {server.label:<10} c={c:<4} N={n:<5} ideal {n / ideal_s:7.1f}/s  best {n / best:7.1f}/s "
              f"({100 * ideal_s / best:5.1f}%)  median {n / med:7.1f}/s ({100 * ideal_s / med:5.1f}%)  "
              f"max_concurrent {max(peaks)}", flush=True)
    return rows


def measure_cache(n: int = 1000, c: int = 32) -> dict:
    """n calls without a cache, then into a fresh CallCache (server delay 0), then a fully cached re-run of them."""
    with tempfile.TemporaryDirectory(prefix="m2rag-bench-cache-") as tmp, OpenAIStub([MODEL], delay=0.0) as srv:
        run_batch(srv.base_url, 4, 8)  # warm-up
        no_cache = run_batch(srv.base_url, c, n)
        cache = CallCache(Path(tmp) / "calls.sqlite")
        calls = make_calls(n)
        start = time.perf_counter()
        ModelClient(OpenAIBackend(MODEL, srv.base_url, concurrency=c), cache=cache).complete(calls)
        fill = time.perf_counter() - start
        sent = srv.count
        walls = []
        for _ in range(3):
            start = time.perf_counter()
            outs = ModelClient(OpenAIBackend(MODEL, srv.base_url, concurrency=c), cache=cache).complete(calls)
            walls.append(time.perf_counter() - start)
            assert all(o.cached for o in outs) and srv.count == sent, "the re-run was not fully cached"
        best = min(walls)
        row = {"calls": n, "concurrency": c, "no_cache_wall_s": round(no_cache, 3), "fill_wall_s": round(fill, 3),
               "fill_overhead_ms_per_call": round(1e3 * (fill - no_cache) / n, 2), "cached_best_wall_s": round(best, 4),
               "cached_median_wall_s": round(statistics.median(walls), 4), "cached_calls_s": round(n / best),
               "per_call_us": round(1e6 * best / n, 1), "db_kb": round(os.path.getsize(cache.path) / 1024)}
        cache.close()
    print(f"  cache: {n} calls, no cache {no_cache:.2f}s, filling {fill:.2f}s; fully cached re-run {best * 1e3:.1f} ms "
          f"({n / best:,.0f} calls/s, {1e6 * best / n:.0f} µs/call)", flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay", type=float, default=0.2, help="server answer delay, seconds")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32, 128])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n", type=int, default=None, help="calls per point (default max(16, 8*c))")
    parser.add_argument("--cache-calls", type=int, default=1000, help="calls for the cache measurement (0 = skip)")
    args = parser.parse_args()

    rows = []
    for kind in (LocalServer, ChildServer):
        server = kind(args.delay)
        try:
            rows += measure(server, args)
        finally:
            server.close()
    cache_row = measure_cache(args.cache_calls) if args.cache_calls else None

    head = ("server", "c", "N", "ideal/s", "best/s", "best %", "median/s", "median %", "max_conc")
    print("\n| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for r in rows:
        print(f"| {r['server']} | {r['concurrency']} | {r['calls']} | {r['ideal_calls_s']} | {r['best_calls_s']} | "
              f"{r['best_eff_pct']} | {r['median_calls_s']} | {r['median_eff_pct']} | {r['max_concurrent']} |")
    print(json.dumps({"machine": {"processor": platform.processor() or platform.machine(), "cpu_count": os.cpu_count(),
                                  "python": platform.python_version()},
                      "delay_s": args.delay, "repeats": args.repeats, "points": rows, "cache": cache_row}, indent=1))


if __name__ == "__main__":
    main()
