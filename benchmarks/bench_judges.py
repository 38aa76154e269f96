"""Judges: throughput against a slow judge, a cached re-evaluation, and calls, tokens and dollars per metric.

Runs of the mini split (all 12 samples; single-stage and multi-stage) are made through the real CLI against a local
stub generator (tests/strategies/scripted_model.py), each with its own ``M2RAG_BENCH_CACHE``. Each run is then judged
in-process by ``Evaluation`` against a judge stub (tests/judges/scripted_judge.py) that answers after ``--delay``:
rubric judge gpt-4o-2024-08-06, ragas judge gpt-4o-mini-2024-07-18 (the paper's pair; only the names, for prices).

* Throughput: per concurrency c (a fresh call cache each time), the rubric phase (five metrics, one batch each) against
  its ideal wall time sum(ceil(n_metric / c)) * delay, and the nominal c / delay; the ragas phase is reported apart:
  its calls are sequential within a sample (faithfulness 2, context precision one per context), so its floor is
  max(longest chain, ceil(calls / c)) * delay. The peak concurrency the server saw is given for each phase (ragas
  scores 8 samples at a time and runs each call in ``asyncio.to_thread``'s pool of min(32, CPUs + 4) threads).
* Re-evaluation: the same run judged again on the same cache: calls the server received (must be 0), wall vs the first.
* Cost: calls and tokens per response (per output image for the image metrics) per metric, from ``judgments.jsonl``
  (rubric usage; ragas tallies in ``raw``), priced at gpt-4o / gpt-4o-mini list prices (``meter.cost_usd``), beside
  ``Evaluation.plan()`` and the paper's Table 7 ($ per 1K samples / output images). The stub counts tokens as
  whitespace words + 85 per image; the o200k columns re-count the request texts with tiktoken o200k_base (+85 per
  low-detail image, +3 per message and +3 per reply, as OpenAI bills; the mean of the requests sent times the calls
  needed). The stub's verdicts are short JSON, so completion tokens are fewer than a real judge's. Offline, tiktoken
  needs the o200k_base file in ``TIKTOKEN_CACHE_DIR``; without it those columns are left out.

    python benchmarks/bench_judges.py [--delay 0.2] [--concurrency 8 32]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from m2rag_bench.judges.evaluator import Evaluation, ragas_contexts  # noqa: E402
from m2rag_bench.judges.metrics import IMAGE_METRICS, RAGAS_METRICS, RUBRIC_METRICS  # noqa: E402
from m2rag_bench.models import CallCache, make_client  # noqa: E402
from m2rag_bench.models.meter import cost_usd  # noqa: E402
from tests.helpers.openai_server import OpenAIStub, count_prompt_tokens, message_text  # noqa: E402
from tests.judges.scripted_judge import RUBRIC_SCORES, make_judge  # noqa: E402
from tests.strategies.scripted_model import reply  # noqa: E402

JUDGE, TEXT_JUDGE = "gpt-4o-2024-08-06", "gpt-4o-mini-2024-07-18"
PAPER = {"fluency": 3.50, "relevance": 3.58, "context_precision": 4.61, "faithfulness": 3.98,
         "image_coherence": 4.76, "image_helpfulness": 4.92, "image_reference": 4.70}  # Table 7, $ per 1K units
ORDER = list(PAPER)


def o200k():  # noqa: ANN201 - a tiktoken Encoding, or the reason there is none
    try:
        import tiktoken
        return tiktoken.get_encoding("o200k_base")
    except Exception as exc:  # noqa: BLE001 - not installed, or offline without the file in TIKTOKEN_CACHE_DIR
        return f"{type(exc).__name__}: {str(exc)[:120]}"


def images(req: dict) -> int:
    return sum(isinstance(m["content"], list) and sum(p.get("type") == "image_url" for p in m["content"])
               for m in req["messages"])


class Recorder:
    """The scripted judge, noting for every request its metric, the request and the reply."""

    def __init__(self) -> None:
        self.judge, self.rows = make_judge(), []

    def __call__(self, req: dict) -> str:
        text = self.judge(req)
        system = str(req["messages"][0].get("content")) if req["messages"][0]["role"] == "system" else ""
        if "json_schema" in system or "StatementGeneratorOutput" in system:
            metric = "faithfulness" if ("StatementGeneratorOutput" in system or "NLIStatementOutput" in system) \
                else "context_precision"
        else:
            metric = next(m for cue, (m, _) in RUBRIC_SCORES.items() if cue in message_text(req["messages"]))
        self.rows.append((metric, req, text))
        return text


def evaluate(run: Path, srv: OpenAIStub, cache_path: Path, c: int) -> dict:
    cache = CallCache(cache_path)
    judge, text_judge = (make_client("openai", m, cache=cache, base_url=srv.base_url, concurrency=c)
                         for m in (JUDGE, TEXT_JUDGE))
    ev = Evaluation(run, judge, text_judge)
    plan, marks, peaks = ev.plan(), {}, {}

    def stage(name: str, total: int):  # noqa: ANN202 - a Progress or None
        marks[name] = time.perf_counter()
        if not name.startswith("ragas"):
            return None
        peaks["rubric"], peaks["rubric_sent"] = srv.max_concurrent, srv.count
        srv.reset()  # nothing is in flight between the phases: the peak from here on is the ragas phase's
        return lambda n: marks.__setitem__("ragas_end", time.perf_counter())

    srv.reset()
    start = time.perf_counter()
    ev.run(stage)
    wall = time.perf_counter() - start
    cache.close()
    ragas_start = next(t for k, t in marks.items() if k.startswith("ragas"))
    chain = max(max(2, len(ragas_contexts(r, ev.samples[r.query_id], ev.selection))) for r in ev.ok)
    return {"ev": ev, "plan": plan, "wall": wall, "sent": peaks["rubric_sent"] + srv.count, "chain": chain,
            "rubric_peak": peaks["rubric"], "ragas_peak": srv.max_concurrent,
            "rubric_wall": ragas_start - marks[RUBRIC_METRICS[0]], "ragas_wall": marks["ragas_end"] - ragas_start}


def throughput(res: dict, rows: list, c: int, delay: float) -> dict:
    per = Counter(m for m, _, _ in rows)
    rubric = sum(per[m] for m in RUBRIC_METRICS)
    ragas = sum(per[m] for m in RAGAS_METRICS)
    ideal_rubric = sum(math.ceil(per[m] / c) for m in RUBRIC_METRICS) * delay
    ideal_ragas = max(res["chain"], math.ceil(ragas / c)) * delay
    return {"concurrency": c, "nominal_ideal_calls_s": round(c / delay, 1), "rubric_calls": rubric,
            "rubric_peak_conc": res["rubric_peak"], "rubric_wall_s": round(res["rubric_wall"], 2),
            "rubric_calls_s": round(rubric / res["rubric_wall"], 1),
            "rubric_ideal_calls_s": round(rubric / ideal_rubric, 1),
            "rubric_eff_pct": round(100 * ideal_rubric / res["rubric_wall"], 1),
            "ragas_calls": ragas, "ragas_peak_conc": res["ragas_peak"], "ragas_wall_s": round(res["ragas_wall"], 2),
            "ragas_calls_s": round(ragas / res["ragas_wall"], 1), "ragas_floor_calls_s": round(ragas / ideal_ragas, 1),
            "ragas_eff_pct": round(100 * ideal_ragas / res["ragas_wall"], 1), "total_wall_s": round(res["wall"], 2)}


def costs(res: dict, rows: list, run: Path, enc) -> list[dict]:  # noqa: ANN001 - enc: Encoding or str
    """Per unit, from judgments.jsonl: rubric attempts and usage (identical prompts, e.g. the fluency of identical
    scripted answers, are sent once but billed per judgment); ragas: the calls and tokens in each judgment's raw."""
    ev, plan = res["ev"], res["plan"]
    judged = [json.loads(x) for x in (run / "judgments.jsonl").read_text().splitlines()]
    out = []
    for metric in ORDER:
        mine = [(req, text) for m, req, text in rows if m == metric]
        mj = [j for j in judged if j["metric"] == metric]
        units = len(mj) if metric in IMAGE_METRICS else len(ev.ok)
        model = TEXT_JUDGE if metric in RAGAS_METRICS else JUDGE
        if metric in RUBRIC_METRICS:
            calls, used = sum(j["attempts"] for j in mj), [j["usage"] for j in mj]
        else:  # ragas: each judgment's raw holds the calls and tokens of its sample
            used = [json.loads(j["raw"]) for j in mj]
            calls = sum(u.get("calls", 0) for u in used)
        prompt, completion = (sum(u.get(k, 0) for u in used) for k in ("prompt_tokens", "completion_tokens"))
        plan_usd = plan.cost_usd.get(metric) or 0
        if metric in RUBRIC_METRICS:  # the plan counts de-duplicated calls: per call, times the calls needed
            plan_usd = plan_usd / max(plan.calls.get(metric, 0), 1) * calls
        row = {"metric": metric, "model": model, "units": units, "calls_sent": len(mine),
               "calls_per_unit": round(calls / units, 2), "prompt_per_unit": round(prompt / units),
               "completion_per_unit": round(completion / units),
               "usd_per_1k": round(1000 * cost_usd(model, prompt, completion) / units, 2),
               "plan_usd_per_1k": round(1000 * plan_usd / units, 2), "paper_usd_per_1k": PAPER[metric]}
        if not isinstance(enc, str):  # mean over the requests sent, times the calls needed
            p = sum(len(enc.encode(message_text(req["messages"]), disallowed_special=())) + 3 * len(req["messages"])
                    + 3 + 85 * images(req) for req, _ in mine) * calls / len(mine)
            q = sum(len(enc.encode(text, disallowed_special=())) for _, text in mine) * calls / len(mine)
            row.update({"o200k_prompt_per_unit": round(p / units), "o200k_completion_per_unit": round(q / units),
                        "o200k_usd_per_1k": round(1000 * cost_usd(model, p, q) / units, 2)})
        out.append(row)
    return out


def table(rows: list[dict], keys: list[str]) -> str:
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    return "\n".join(lines + ["| " + " | ".join(str(r.get(k, "–")) for k in keys) + " |" for r in rows])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay", type=float, default=0.2, help="judge stub answer delay, seconds")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--strategies", nargs="+", default=["single-stage", "multi-stage"])
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="m2rag-bench-judges-"))
    os.environ.update({"M2RAG_BENCH_CACHE": str(work / "cache"), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"})
    enc = o200k()
    speed, reeval, cost_rows = [], [], []
    with OpenAIStub(["m"], reply) as gen:
        for strategy in args.strategies:
            run = work / strategy
            done = subprocess.run([sys.executable, "-m", "m2rag_bench", "run", "--backend", "openai", "--model", "m",
                                   "--base-url", gen.base_url, "--strategy", strategy, "--out", str(run), "--no-eval"],
                                  env={**os.environ, "M2RAG_BENCH_CACHE": str(work / f"gen-{strategy}"),
                                       "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
            if done.returncode:
                sys.exit(f"the {strategy} run failed:\n{done.stdout}{done.stderr}")
    with OpenAIStub([JUDGE, TEXT_JUDGE], make_judge()) as srv:  # warm-up: imports, ragas set-up, first connections
        evaluate(work / args.strategies[0], srv, work / "warm-up.sqlite", args.concurrency[0])
    for strategy in args.strategies:
        run = work / strategy
        for c in args.concurrency:
            recorder = Recorder()
            with OpenAIStub([JUDGE, TEXT_JUDGE], recorder, delay=args.delay) as srv:
                cache_path = work / f"judge-cache-{strategy}-{c}.sqlite"
                first = evaluate(run, srv, cache_path, c)
                speed.append({"strategy": strategy, **throughput(first, recorder.rows, c, args.delay)})
                print(json.dumps(speed[-1]), flush=True)
                if c == args.concurrency[0]:
                    cost_rows += [{"strategy": strategy, **r} for r in costs(first, recorder.rows, run, enc)]
                    again = evaluate(run, srv, cache_path, c)
                    reeval.append({"strategy": strategy, "concurrency": c, "first_calls": first["sent"],
                                   "second_calls": again["sent"], "first_wall_s": round(first["wall"], 2),
                                   "second_wall_s": round(again["wall"], 3),
                                   "second_vs_first_pct": round(100 * again["wall"] / first["wall"], 1)})
                    print(json.dumps(reeval[-1]), flush=True)
    print(f"\nThroughput (judge delay {args.delay}s; ideal = the wall time with zero overhead)\n")
    print(table(speed, ["strategy", "concurrency", "nominal_ideal_calls_s", "rubric_calls", "rubric_peak_conc",
                        "rubric_wall_s", "rubric_calls_s", "rubric_ideal_calls_s", "rubric_eff_pct", "ragas_calls",
                        "ragas_peak_conc", "ragas_wall_s", "ragas_calls_s", "ragas_floor_calls_s", "ragas_eff_pct",
                        "total_wall_s"]))
    print("\nRe-evaluation on the same cache\n")
    print(table(reeval, list(reeval[0])))
    print("\nCalls, tokens and $ per 1K units (unit: response; output image for image_*)\n")
    print(table(cost_rows, ["strategy", "metric", "model", "units", "calls_sent", "calls_per_unit", "prompt_per_unit",
                            "o200k_prompt_per_unit", "completion_per_unit", "o200k_completion_per_unit", "usd_per_1k",
                            "o200k_usd_per_1k", "plan_usd_per_1k", "paper_usd_per_1k"]))
    print(json.dumps({"machine": {"processor": platform.processor() or platform.machine(), "cpu_count": os.cpu_count(),
                                  "python": platform.python_version(), "platform": platform.platform()},
                      "delay_s": args.delay, "tiktoken_o200k": "ok" if not isinstance(enc, str) else enc,
                      "throughput": speed, "reevaluation": reeval, "cost": cost_rows}, indent=1))


if __name__ == "__main__":
    main()
