"""The built leaderboard site in a real headless Chromium, opened from disk (file://), driven by Playwright.

Needs Debian's chromium at /usr/bin/chromium and the Python ``playwright`` package (whose wheel carries its driver;
no browser is downloaded). Skipped when either is missing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from m2rag_bench.leaderboard import build_site
from m2rag_bench.leaderboard.site import _file_name
from tests.leaderboard.test_site import runs  # noqa: F401 - the module-scoped fixture: two evaluated runs

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
XSS = ("# Title\n\n<script>alert(1)</script>\n\n<script>window.__pwned = 1</script>\n\n"
       "<img src=x onerror=alert(1)>\n\n<img src=x onerror=\"window.__pwned=1\">\n\n"
       "[x](javascript:alert(1))\n\n[y](javascript:window.__pwned=1)\n\n"
       "<a href=\"javascript:alert(1)\">click</a>\n\n![remote](https://evil.example/a.png)\n\n"
       "![ok](images/0.png)\n\n<svg onload=\"window.__pwned=1\"></svg>\n")


@pytest.fixture(scope="module")
def built(runs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> dict:  # noqa: F811
    """A site of two runs: the first as evaluated, the second with its last answer replaced by XSS payloads."""
    tmp = tmp_path_factory.mktemp("browser")
    xss = tmp / "xss-run"
    shutil.copytree(runs[1], xss)
    lines = [json.loads(x) for x in (xss / "responses.jsonl").read_text().splitlines()]
    lines[-1]["response"] = XSS
    (xss / "responses.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = tmp / "site"
    report = build_site([runs[0], xss], out)
    assert report.warnings == []
    data = json.loads((out / "data" / "leaderboard.json").read_text())
    xss_run = next(r["run_id"] for r in data["runs"] if r["strategy"] == json.loads(
        (xss / "scores.json").read_text())["strategy"])
    return {"out": out, "rows": data["runs"], "xss_page": out / "runs" / xss_run / "samples" /
            f"{_file_name(lines[-1]['query_id'])}.html"}


@pytest.fixture(scope="module")
def browser():
    # launch() gives Chromium a new empty profile (--user-data-dir in a fresh temporary folder) of its own
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


class _Watched:
    """A page whose console errors, uncaught exceptions and dialogs are recorded."""

    def __init__(self, browser) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text} @ {self.page.url}")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e} @ {self.page.url}"))

        def on_dialog(d) -> None:
            self.dialogs.append(f"{d.type}: {d.message}")
            d.dismiss()

        self.page.on("dialog", on_dialog)

    def goto(self, path: Path) -> None:
        self.page.goto(path.resolve().as_uri(), wait_until="load")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def watched(browser):
    w = _Watched(browser)
    yield w
    w.close()


def _order(page) -> list[str]:
    return page.eval_on_selector_all("#board tbody tr", "rows => rows.map(r => r.dataset.run)")


def _visible(page) -> list[str]:
    return page.eval_on_selector_all("#board tbody tr", "rows => rows.filter(r => !r.hidden && r.offsetParent !== null)"
                                                         ".map(r => r.dataset.run)")


def _images_loaded(page) -> list[dict]:
    """Scroll every <img> into view (they are lazy), wait for it to settle, and report its natural size."""
    for img in page.query_selector_all("img"):
        img.scroll_into_view_if_needed()
    page.wait_for_function("() => Array.from(document.images).every(i => i.complete)", timeout=10_000)
    return page.eval_on_selector_all("img", "imgs => imgs.map(i => ({src: i.getAttribute('src'), w: i.naturalWidth}))")


def test_index_table_sorts_and_filters(built: dict, watched: _Watched) -> None:
    page = watched.page
    watched.goto(built["out"] / "index.html")
    rows = built["rows"]
    assert _order(page) == [r["run_id"] for r in rows]  # as built: best overall first
    assert len(rows) == 2 and rows[0]["overall"] != rows[1]["overall"]
    by_overall = sorted(rows, key=lambda r: r["overall"])

    header = page.locator("#board thead th", has_text="Overall")
    header.click()  # a numeric column sorts descending first
    assert _order(page) == [r["run_id"] for r in reversed(by_overall)]
    assert "desc" in (header.get_attribute("class") or "")
    header.click()
    assert _order(page) == [r["run_id"] for r in by_overall]
    assert "asc" in (header.get_attribute("class") or "")

    page.locator("#board thead th", has_text="Strategy").click()  # text sorts ascending first
    assert _order(page) == [r["run_id"] for r in sorted(rows, key=lambda r: r["strategy"])]
    page.locator("#board thead th", has_text="Strategy").click()
    assert _order(page) == [r["run_id"] for r in sorted(rows, key=lambda r: r["strategy"], reverse=True)]

    strategy = page.locator('select[data-filter="strategy"]')
    for row in rows:
        strategy.select_option(row["strategy"])
        assert _visible(page) == [row["run_id"]]
        assert page.locator(f'#board tbody tr[data-run="{row["run_id"]}"]').is_visible()
    strategy.select_option("")
    assert sorted(_visible(page)) == sorted(r["run_id"] for r in rows)
    assert watched.errors == [] and watched.dialogs == []


def test_run_and_sample_pages_load_with_images(built: dict, watched: _Watched) -> None:
    page = watched.page
    watched.goto(built["out"] / "index.html")
    checked = 0
    for row in built["rows"]:
        page.goto((built["out"] / "index.html").resolve().as_uri())
        page.click(f'#board tbody tr[data-run="{row["run_id"]}"] a')  # the index links to the run page
        page.wait_for_load_state("load")
        assert page.url.endswith(f"runs/{row['run_id']}/index.html")
        assert page.locator("h2", has_text="Per topic").count() == 1
        links = page.eval_on_selector_all('a[href^="samples/"]', "as => as.map(a => a.href)")
        assert len(links) == row["responses"] >= 1
        page.click('a[href^="samples/"] >> nth=0')  # the run page links to a sample page
        page.wait_for_load_state("load")
        assert "/samples/" in page.url and page.locator("article.answer").count() == 1
        for href in links:
            page.goto(href)
            images = _images_loaded(page)
            assert images, f"no images on {href}"
            broken = [i for i in images if i["w"] <= 0]
            assert broken == [], f"{href}: {broken}"
            checked += len(images)
    assert checked > 0
    assert watched.errors == [], watched.errors


def test_xss_answer_runs_nothing(built: dict, watched: _Watched) -> None:
    page = watched.page
    page.add_init_script("window.__pwned = undefined;")
    watched.goto(built["xss_page"])
    images = _images_loaded(page)
    page.wait_for_timeout(300)  # let any (wrongly) attached handler fire
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert watched.dialogs == []
    answer = page.locator("article.answer")
    assert answer.locator("script, svg, iframe, [onerror], [onload]").count() == 0
    assert page.locator('a[href^="javascript:" i]').count() == 0
    srcs = [i["src"] for i in images]
    assert not [s for s in srcs if not s.startswith("../../../assets/img/")], srcs  # no remote or bogus images
    assert answer.locator("img").count() == 1 and all(i["w"] > 0 for i in images)  # the real image still shows
    assert "not a candidate image" in answer.inner_text()
    assert "<script>alert(1)</script>" in answer.inner_text()  # raw HTML shows as text
    # the page's own script-src policy: an injected inline script is refused outright
    assert watched.errors == [], watched.errors


def test_topic_chart_bars(built: dict, watched: _Watched) -> None:
    page = watched.page
    for row in built["rows"]:
        watched.goto(built["out"] / "runs" / row["run_id"] / "index.html")
        bars = page.eval_on_selector_all(
            ".tchart:not([hidden]) .trow",
            "rows => rows.map(r => ({topic: r.querySelector('.tl').textContent, value: r.querySelector('.tv').textContent,"
            " w: r.querySelector('.tbar') ? r.querySelector('.tbar').getBoundingClientRect().width : 0}))")
        assert bars, row["run_id"]
        scored = [b for b in bars if not b["value"].startswith("–") and float(b["value"].split()[0]) > 0]
        assert scored and all(b["w"] > 0 for b in scored), bars  # a topic with a score has a visible bar
        assert page.locator(".tchart:visible").count() == 1
        assert page.locator(".tchart:visible figcaption").inner_text().startswith("Overall")
        select = page.locator("#topic-metric")
        values = page.eval_on_selector_all("#topic-metric option", "os => os.map(o => o.value)")
        select.select_option(values[1])
        assert page.locator(".tchart:visible").count() == 1
        assert page.locator(".tchart:visible").get_attribute("data-metric") == values[1]
    assert watched.errors == [], watched.errors


def _frame_src(page, side: str) -> str:
    """The URL the iframe shows (from file:// each file is its own origin: read through Playwright, not the DOM)."""
    page.frame_locator(f"#frame-{side}").locator("article.answer").wait_for(timeout=10_000)
    return page.frame(name=f"frame-{side}").url


def test_compare_page_loads_two_runs(built: dict, watched: _Watched) -> None:
    page = watched.page
    pages = sorted((built["out"] / "compare").glob("*.html"))
    assert pages
    target = pages[0]
    run_ids = [r["run_id"] for r in built["rows"]]
    sample = built["out"] / "runs" / run_ids[1] / "samples" / target.name
    watched.goto(sample)  # a sample page links to the compare page with its own run on the left
    page.click("a.compare-link")
    page.wait_for_load_state("load")
    assert page.url.endswith(f"compare/{target.name}#{run_ids[1]}")
    assert f"/runs/{run_ids[1]}/samples/{target.name}" in _frame_src(page, "a")
    assert f"/runs/{run_ids[0]}/samples/{target.name}" in _frame_src(page, "b")

    watched.goto(target)  # default: the first two runs in table order
    for side, run_id in zip("ab", run_ids):
        frame = page.frame_locator(f"#frame-{side}")
        frame.locator("article.answer").wait_for(timeout=10_000)
        assert frame.locator("main > h1").count() == 1
        assert f"/runs/{run_id}/samples/{target.name}" in _frame_src(page, side)
    srcs = [_frame_src(page, s) for s in "ab"]
    assert srcs[0] != srcs[1]

    page.locator("#run-b").select_option(label=page.eval_on_selector(
        f'#run-b option[data-run="{run_ids[0]}"]', "o => o.textContent"))
    page.wait_for_function(f"() => document.getElementById('frame-b').getAttribute('src').includes('/{run_ids[0]}/')")
    page.frame(name="frame-b").wait_for_url(f"**/runs/{run_ids[0]}/samples/{target.name}", timeout=10_000)
    assert f"/runs/{run_ids[0]}/samples/{target.name}" in _frame_src(page, "b")
    assert _frame_src(page, "a") == srcs[0]  # the other side did not change
    assert watched.errors == [] and watched.dialogs == [], watched.errors
