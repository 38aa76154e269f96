"""`m2rag-bench ask` as a user runs it, against the offline fixture web, search stub and one local model server that
answers and judges: an illustrated, cited answer; failing pages listed, not fatal; resume repeats nothing."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ask.test_page import CHROMIUM, FLAGS
from tests.curate.curate_judge import reply as judge_reply
from tests.helpers.cli import cli_env, run_cli
from tests.helpers.fixture_web import FIXTURE_CX, FIXTURE_KEY, FixtureWeb
from tests.helpers.openai_server import OpenAIStub

SEARCH_ENV = {"GOOGLE_API_KEY": FIXTURE_KEY, "GOOGLE_CSE_ID": FIXTURE_CX}
QUESTION = "How do solar panels turn sunlight into electricity?"


def model_reply(request: dict) -> str:
    """Curation prompts go to the scripted judge; the answer prompt gets an answer using the first two images."""
    text = "".join(p.get("text", "") for m in request["messages"]
                   for p in (m["content"] if isinstance(m["content"], list) else [{"text": m["content"]}]))
    if "## Question" in text and ("You are" in text or "Describe the picture" in text):
        return judge_reply(request)
    images = list(dict.fromkeys(re.findall(r"images/\d+\.[a-z]+", text)))[:2]
    parts = ["# How solar panels make electricity",
             "Each solar cell is a thin wafer of silicon treated so that sunlight knocks electrons loose, and the "
             "junction inside the cell pushes those electrons one way, which makes a direct current."]
    parts += [f"![Solar picture {i}]({src})" for i, src in enumerate(images)]
    parts.append("An inverter then turns the direct current from the panels into alternating current for the home.")
    return "\n\n".join(parts)


def _args(web: FixtureWeb, srv: OpenAIStub, *more: str) -> list[str]:
    return ["--backend", "openai", "--model", "m", "--base-url", srv.base_url, "--allow-loopback",
            "--search-base-url", f"{web.base_url}/customsearch/v1", "--similarity", "text", "--concurrency", "4",
            *more]


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    tmp = tmp_path_factory.mktemp("ask")
    with FixtureWeb() as web, OpenAIStub(["m"], model_reply) as srv:
        folder = tmp / "session"
        proc = run_cli(tmp, "ask", QUESTION, "--out", str(folder), "--images", "copy", *_args(web, srv), env=SEARCH_ENV)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        first = (web.count(), srv.count)
        # the session remembers its model, judge and sources: --resume alone is enough
        again = run_cli(tmp, "ask", "--resume", str(folder), "--images", "copy")
        assert again.returncode == 0, again.stderr[-3000:]
        yield tmp, folder, proc, again, first, (web.count() - first[0], srv.count - first[1]), web.expected()["q1"]


def test_ask_writes_an_illustrated_cited_answer(session) -> None:  # noqa: ANN001
    tmp, folder, proc, _, _, _, expected = session
    answer = (folder / "answer.md").read_text()
    assert re.search(r"!\[Solar picture 0\]\(images/\d+\.[a-z]+\)", answer)
    assert re.search(r"\[\[1\]\]\(http://127\.0\.0\.1:\d+/", answer), answer  # paragraphs cite their pages
    html = (folder / "answer.html").read_text()
    srcs = re.findall(r'<img[^>]+src="([^"]+)"', html)
    assert srcs and all(s.startswith("images/") and (folder / s).is_file() for s in srcs)
    assert "Solar picture 0" in html and "http-equiv=\"Content-Security-Policy\"" in html
    response = json.loads((folder / "run" / "responses.jsonl").read_text().splitlines()[-1])
    fixture_urls = {occ.url for occ in expected.images}
    from m2rag_bench.data.features import iter_samples
    from m2rag_bench.data.loading import load_benchmark

    sample = next(iter_samples(load_benchmark(str(folder / "release"))))
    placed = {img.key: img.source_url for img in sample.all_images()}
    assert response["output_images"] and all(placed[o["image_id"]] in fixture_urls for o in response["output_images"])
    out = proc.stdout + proc.stderr
    assert "Solar picture 0" in out and "Sources" in out or "sources" in out.lower()


def test_failing_pages_are_listed_not_fatal(session) -> None:  # noqa: ANN001
    _, folder, proc, _, _, _, expected = session
    out = proc.stdout + proc.stderr
    for url in expected.failing:
        assert url in out, url
    assert "private address" in out
    html = (folder / "answer.html").read_text()
    assert "169.254.169.254" in html  # the skipped list is on the page too


def test_resuming_a_finished_session_repeats_nothing(session) -> None:  # noqa: ANN001
    _, folder, _, again, first, second, _ = session
    assert second == (0, 0), (first, second)
    settings = json.loads((folder / "session.json").read_text())["settings"]
    assert settings["backend"] == "openai" and settings["model"] == "m" and FIXTURE_KEY not in json.dumps(settings)
    assert (folder / "answer.html").exists() and "Solar picture 0" in again.stdout + again.stderr


def test_the_page_opens_in_headless_chromium_with_its_images(session) -> None:  # noqa: ANN001
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    _, folder, *_ = session
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            tab = browser.new_page()
            requests: list[str] = []
            tab.on("request", lambda r: requests.append(r.url))
            tab.goto((folder / "answer.html").resolve().as_uri(), wait_until="load")
            for img in tab.query_selector_all("img"):
                img.scroll_into_view_if_needed()
            tab.wait_for_function("() => Array.from(document.images).every(i => i.complete)", timeout=10_000)
            widths = tab.eval_on_selector_all("img", "imgs => imgs.map(i => i.naturalWidth)")
            assert widths and all(w > 0 for w in widths), widths
            assert not [u for u in requests if not u.startswith(("file:", "data:"))], requests
        finally:
            browser.close()


def test_no_usable_page_is_a_clear_message(tmp_path: Path) -> None:
    with FixtureWeb() as web, OpenAIStub(["m"], model_reply) as srv:
        proc = run_cli(tmp_path, "ask", "What is 2 + 2?", "--out", str(tmp_path / "s"), *_args(web, srv),
                       env=SEARCH_ENV)
    assert proc.returncode != 0
    assert "no usable web page" in proc.stderr and "Traceback" not in proc.stderr


def test_an_interrupted_session_resumes_without_repeating_finished_calls(tmp_path: Path, session) -> None:  # noqa: ANN001
    _, _, _, _, (ref_web, ref_model), _, _ = session
    with FixtureWeb() as web, OpenAIStub(["m"], model_reply, delay=0.05) as srv:
        web.delay = 0.05
        folder = tmp_path / "s"
        proc = subprocess.Popen([sys.executable, "-m", "m2rag_bench", "ask", QUESTION, "--out", str(folder),
                                 *_args(web, srv)], env=cli_env(tmp_path, **SEARCH_ENV), cwd=tmp_path,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None and srv.count < 4:
            time.sleep(0.01)
        assert proc.poll() is None, "the session finished before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 130 and f"ask --resume {folder}" in err.replace("\n", ""), err[-2000:]
        again = run_cli(tmp_path, "ask", "--resume", str(folder), *_args(web, srv), env=SEARCH_ENV)
        assert again.returncode == 0, again.stderr[-3000:]
        # calls in flight at the interruption may be asked again (at most --concurrency 4 of each kind)
        assert srv.count <= ref_model + 4 and web.count() <= ref_web + 4, (srv.count, ref_model, web.count(), ref_web)
    assert (folder / "answer.html").exists()


@pytest.mark.parametrize("qid", ["q2", "q3"])
def test_other_failing_pages_are_listed_too(tmp_path: Path, qid: str) -> None:
    with FixtureWeb() as web, OpenAIStub(["m"], model_reply) as srv:
        expected = web.expected()[qid]
        proc = run_cli(tmp_path, "ask", expected.query, "--out", str(tmp_path / "s"), *_args(web, srv), env=SEARCH_ENV)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout + proc.stderr
    assert expected.failing and all(url in out for url in expected.failing), expected.failing
    html = (tmp_path / "s" / "answer.html").read_text()
    assert all(url in html for url in expected.failing)
    assert re.search(r"<img[^>]+src=\"data:image/", html), "images embedded by default"


def test_multi_stage_answers_place_images(tmp_path: Path) -> None:
    from tests.strategies.scripted_model import reply as strategy_reply

    def reply(request: dict) -> str:
        text = json.dumps(request)
        curating = any(m in text for m in ("You are choosing questions", "You are rating", "Describe the picture"))
        return judge_reply(request) if curating else strategy_reply(request)

    with FixtureWeb() as web, OpenAIStub(["m"], reply) as srv:
        proc = run_cli(tmp_path, "ask", QUESTION, "--strategy", "multi-stage", "--out", str(tmp_path / "s"),
                       *_args(web, srv), env=SEARCH_ENV)
    assert proc.returncode == 0, proc.stderr[-3000:]
    response = json.loads((tmp_path / "s" / "run" / "responses.jsonl").read_text().splitlines()[-1])
    assert response["strategy"] == "multi-stage" and response["output_images"]
    assert len(re.findall(r"<img ", (tmp_path / "s" / "answer.html").read_text())) == len(response["output_images"])
