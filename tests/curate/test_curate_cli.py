"""`m2rag-bench curate` as a user runs it, against the offline fixture web, search stub and a local judge:
curate → dataset build → run; every hazard reported; a killed curation resumes without redoing finished work."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.curate.curate_judge import reply as judge_reply
from tests.helpers.cli import cli_env, run_cli
from tests.helpers.fixture_web import FIXTURE_CX, FIXTURE_KEY, FIXTURE_QUERIES, FixtureWeb
from tests.helpers.openai_server import OpenAIStub
from tests.strategies.scripted_model import reply as model_reply

SEARCH_ENV = {"GOOGLE_API_KEY": FIXTURE_KEY, "GOOGLE_CSE_ID": FIXTURE_CX}


def _queries(tmp: Path) -> Path:
    path = tmp / "queries.jsonl"
    path.write_text("".join(json.dumps({"id": q["id"], "query": q["query"]}) + "\n" for q in FIXTURE_QUERIES))
    return path


def _args(tmp: Path, web: FixtureWeb, judge: OpenAIStub, out: Path, *more: str) -> list[str]:
    return ["curate", "--queries", str(_queries(tmp)), "--out", str(out), "--allow-loopback",
            "--search-base-url", f"{web.base_url}/customsearch/v1", "--judge-base-url", judge.base_url,
            "--judge", "judge", "--similarity", "text", "--concurrency", "4", *more]


def _release(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "release" / "dev_set.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def curated(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - (tmp, out, proc, web requests, judge calls)
    tmp = tmp_path_factory.mktemp("curate")
    with FixtureWeb() as web, OpenAIStub(["judge"], judge_reply) as judge:
        out = tmp / "out"
        proc = run_cli(tmp, *_args(tmp, web, judge, out), env=SEARCH_ENV)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        first = (web.count(), judge.count)
        again = run_cli(tmp, *_args(tmp, web, judge, out), env=SEARCH_ENV)
        assert again.returncode == 0, again.stderr[-3000:]
        second = (web.count() - first[0], judge.count - first[1])
        yield tmp, out, proc, web.expected(), first, second, web.netloc


def test_curation_is_filtered_scored_described_and_released(curated) -> None:  # noqa: ANN001
    tmp, out, proc, expected, first, *_ = curated
    records = _release(out)
    assert [r["query_id"] for r in records] == ["q1", "q2", "q3"]  # q4 ("What is 2 + 2?") filtered out
    for r in records:
        assert r["topic"] == "Science & Mathematics" and r["content"]
        read = [p for p in r["webpages"] if p["cleaned_webpage_splits"]]
        assert len(read) >= 2
        for page in read:
            for s in page["cleaned_webpage_splits"]:
                assert len(s["text"]) <= 1000 and isinstance(s["score"], int) and "](http" not in s["text"]
        valid = [(p, img) for p in r["webpages"] for img in p["images"] if img["valid"]]
        assert valid, r["query_id"]
        for page, img in valid:
            assert img["final_score"] == 7 and img["detailed_image_caption"].startswith("A detailed scripted description (1 image(s) seen)")
            assert (out / "release" / "images" / img["cached_image_url"]).is_file()
            piece = next(s for s in page["cleaned_webpage_splits"] if s["split_id"] == img["split_id"])
            assert img["image_id"] in piece["image_ids"] and f"<IMAGE_PLACEHOLDER>[{img['image_id']}]" in piece["text"]
        assert any(a["valid"] for a in r["aux_images"]), "aux images are scored and described too"
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["stages"]["export"]["queries"] == 3 and manifest["config"]["judges"]["text"] == "openai:judge"
    assert "dataset build --release" in proc.stderr


def test_every_fixture_hazard_is_reported(curated) -> None:  # noqa: ANN001
    _, out, _, expected, *_ = curated
    report = json.loads((out / "report.json").read_text())
    reasons = {(d["stage"], d.get("item")): d["reason"] for d in report["dropped"]}
    assert any(d["stage"] == "queries" and d["query_id"] == "q4" and "filter" in d["reason"] for d in report["dropped"])
    for qid in ("q1", "q2", "q3"):
        exp = expected[qid]
        for url, kind in exp.failing.items():
            reason = reasons[("read", url)]
            want = {"private": "private address", "not_found": "HTTP 404", "redirect_loop": "too many redirects"}[kind]
            assert want in reason, (url, reason)
        for occ in exp.images:
            if occ.kind == "good":
                continue
            reason = reasons.get(("images", occ.url))
            assert reason, (qid, occ)
            want = {"duplicate": "duplicate of", "tiny": "pixels", "oversized": "pixels", "broken": "",
                    "server_error": "HTTP 500", "private": "private address"}[occ.kind]
            assert want in reason, (occ, reason)
    private = [d for d in report["dropped"] if "10.0.0.7" in (d.get("item") or "") or "169.254" in (d.get("item") or "")]
    assert private and all("refused" in d["reason"] for d in private)  # refused before any connection


def test_rerunning_a_finished_curation_sends_nothing(curated) -> None:  # noqa: ANN001
    *_, second, _ = curated
    assert second == (0, 0)


def test_curated_data_builds_and_runs(curated) -> None:  # noqa: ANN001
    tmp, out, *_ = curated
    ds = tmp / "dataset"
    build = run_cli(tmp, "dataset", "build", "--release", str(out / "release"), "--out", str(ds))
    assert build.returncode == 0, build.stderr[-3000:]
    from m2rag_bench.data.features import iter_samples
    from m2rag_bench.data.loading import load_benchmark

    samples = list(iter_samples(load_benchmark(str(ds))))
    assert [s.query_id for s in samples] == ["q1", "q2", "q3"]
    assert all(img.available for s in samples for img in s.all_images() if img.valid)
    with OpenAIStub(["gen"], model_reply) as gen:
        run = run_cli(tmp, "run", "--backend", "openai", "--model", "gen", "--base-url", gen.base_url, "--split", str(ds),
                      "--out", str(tmp / "run"), "--no-eval", "--modality", "mllm")
    assert run.returncode == 0, run.stderr[-3000:]
    responses = [json.loads(line) for line in (tmp / "run" / "responses.jsonl").read_text().splitlines()]
    assert len(responses) == 3 and all(r["error"] is None and r["response"] for r in responses)


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


@pytest.mark.parametrize("stage,watch,at_least", [
    ("queries", "You are choosing questions", 2), ("read", "read.jsonl", 3), ("images", "downloads.jsonl", 6),
    ("score", "You are rating passages", 6), ("describe", "Describe the picture", 3)])
def test_a_killed_curation_resumes_without_redoing_work(tmp_path: Path, curated, stage: str, watch: str,
                                                       at_least: int) -> None:  # noqa: ANN001
    """Kill -9 while a stage is under way (a file of records growing, or judge calls of one kind answered)."""
    _, reference, _, _, (ref_web, ref_judge), _, ref_base = curated
    with FixtureWeb() as web, OpenAIStub(["judge"], judge_reply, delay=0.05) as judge:
        web.delay = 0.05
        out = tmp_path / "out"
        proc = subprocess.Popen([sys.executable, "-m", "m2rag_bench", *_args(tmp_path, web, judge, out)],
                                env=cli_env(tmp_path, **SEARCH_ENV), cwd=tmp_path, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None:
            if watch.endswith(".jsonl"):
                if _lines(out / "work" / watch) >= at_least:
                    break
            elif sum(watch in json.dumps(r) for r in judge.requests) >= at_least:
                break
            time.sleep(0.01)
        assert proc.poll() is None, "the curation finished before it could be killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed_web, killed_judge = web.count(), judge.count
        requests_before = Counter(path for _, path in web.requests)
        again = run_cli(tmp_path, *_args(tmp_path, web, judge, out), env=SEARCH_ENV)
        assert again.returncode == 0, again.stderr[-3000:]
        repeated = sum(min(n, requests_before[p]) for p, n in
                       Counter(path for _, path in web.requests[killed_web:]).items())
        # only what was in flight at the kill is asked again (at most --concurrency 4 per kind of work)
        assert repeated <= 4 + 2, repeated  # + the two search calls of a query whose record was not yet written
        assert web.count() <= ref_web + 6 and judge.count <= ref_judge + 4
        assert killed_judge < judge.count, "the rerun finished the judging the kill interrupted"
        base = web.netloc
    # the same data as an uninterrupted curation (fixture URLs differ only by the server's port)
    assert (out / "release" / "dev_set.jsonl").read_text().replace(base, "WEB") == \
        (reference / "release" / "dev_set.jsonl").read_text().replace(ref_base, "WEB")


def test_stages_and_limit_run_part_of_the_pipeline_then_the_rest(tmp_path: Path) -> None:
    with FixtureWeb() as web, OpenAIStub(["judge"], judge_reply) as judge:
        out = tmp_path / "out"
        args = _args(tmp_path, web, judge, out, "--stages", "queries,search,read", "--limit", "2")
        del args[args.index("--judge"):args.index("--judge") + 2]  # the server's only model is the judge
        part = run_cli(tmp_path, *args, env=SEARCH_ENV)
        assert part.returncode == 0, part.stderr[-3000:]
        assert (out / "work" / "read.jsonl").exists() and not (out / "work" / "downloads.jsonl").exists()
        assert not (out / "release").exists() and not web.count("/img/")
        read_requests = web.count()
        rest = run_cli(tmp_path, *_args(tmp_path, web, judge, out, "--limit", "2"), env=SEARCH_ENV)
        assert rest.returncode == 0, rest.stderr[-3000:]
        assert [r["query_id"] for r in _release(out)] == ["q1", "q2"]
        pages = [p for _, p in web.requests[read_requests:] if p.endswith(".html")]
        assert pages == [], "pages read by the first run are not read again"


def test_jina_reader_gives_the_same_pages(tmp_path: Path) -> None:
    with FixtureWeb() as web, OpenAIStub(["judge"], judge_reply) as judge:
        for reader, extra in (("direct", []), ("jina", ["--jina-base-url", f"{web.base_url}/jina/"])):
            out = tmp_path / reader
            proc = run_cli(tmp_path, *_args(tmp_path, web, judge, out, "--stages", "queries,search,read,clean",
                                            "--limit", "1", "--reader", reader, *extra), env=SEARCH_ENV)
            assert proc.returncode == 0, proc.stderr[-3000:]
        assert web.count("/jina/") >= 2
    def pages(out: Path) -> dict:
        rows = [json.loads(line) for line in (out / "work" / "clean.jsonl").read_text().splitlines()]
        return {r["webpage_id"]: [(i["number"], i["url"], i["split_id"] is not None) for i in r["images"]]
                for r in rows if r["ok"]}
    direct, jina = pages(tmp_path / "direct"), pages(tmp_path / "jina")
    assert direct and direct == jina


def test_a_refused_search_key_is_a_clear_error_without_the_key(tmp_path: Path) -> None:
    with FixtureWeb() as web, OpenAIStub(["judge"], judge_reply) as judge:
        proc = run_cli(tmp_path, *_args(tmp_path, web, judge, tmp_path / "out", "--no-filter"),
                       env={"GOOGLE_API_KEY": "wrong-secret-key", "GOOGLE_CSE_ID": FIXTURE_CX})
        missing = run_cli(tmp_path, *_args(tmp_path, web, judge, tmp_path / "out2", "--no-filter"))
    assert proc.returncode == 1 and "every search failed" in proc.stderr and "Traceback" not in proc.stderr
    assert "wrong-secret-key" not in proc.stdout + proc.stderr
    assert missing.returncode == 1 and "GOOGLE_API_KEY" in missing.stderr and "GOOGLE_CSE_ID" in missing.stderr


def test_a_judge_that_only_gives_scores_still_curates(tmp_path: Path) -> None:
    """A generic judge answering every prompt with a score: questions are kept unjudged (not dropped), pieces and
    images get its scores, descriptions its text."""
    with FixtureWeb() as web, OpenAIStub(["judge"], lambda request: '{"reason": "fine", "score": 8}') as judge:
        out = tmp_path / "out"
        proc = run_cli(tmp_path, *_args(tmp_path, web, judge, out, "--limit", "1"), env=SEARCH_ENV)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "kept unjudged" in proc.stderr
    report = json.loads((out / "report.json").read_text())
    assert [w["query_id"] for w in report["warnings"]] == ["q1"]
    [record] = _release(out)
    assert record["topic"] is None
    assert {s["score"] for p in record["webpages"] for s in p["cleaned_webpage_splits"] or []} == {8}
    assert any(img["valid"] for p in record["webpages"] for img in p["images"])


def test_failed_judge_calls_are_retried_on_the_next_run(tmp_path: Path) -> None:
    """A judge that fails the image prompts (HTTP 400, not retried): nothing of those questions' scores is recorded;
    the next run, with the judge healthy, sends only the calls that failed."""
    broken = {"on": True}

    def reply(request: dict) -> str | dict:
        if broken["on"] and "You are rating pictures" in json.dumps(request):
            return {"status": 400, "body": {"error": {"message": "image input is not supported", "type": "invalid"}}}
        return judge_reply(request)

    with FixtureWeb() as web, OpenAIStub(["judge"], reply) as judge:
        out = tmp_path / "out"
        first = run_cli(tmp_path, *_args(tmp_path, web, judge, out, "--limit", "1"), env=SEARCH_ENV)
        assert first.returncode == 0, first.stderr[-3000:]
        assert "model call(s) failed" in first.stderr and "run the same command again" in first.stderr
        assert not (out / "work" / "scores.jsonl").exists() or "q1" not in (out / "work" / "scores.jsonl").read_text()
        sent = judge.count
        broken["on"] = False
        second = run_cli(tmp_path, *_args(tmp_path, web, judge, out, "--limit", "1"), env=SEARCH_ENV)
        assert second.returncode == 0, second.stderr[-3000:]
        resent = [json.dumps(r) for r in judge.requests[sent:]]
    assert resent and all("You are rating pictures" in r or "Describe the picture" in r for r in resent)
    [record] = _release(out)
    assert any(img["valid"] for p in record["webpages"] for img in p["images"])
