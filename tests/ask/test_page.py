"""The `m2rag-bench ask` answer page (self-contained HTML) and terminal rendering.

Built from mini-01 with a hand-written response placing two images (a page image and an auxiliary one). The last
test opens the written pages in headless Chromium when it and playwright are available (as tests/leaderboard).
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image
from rich.console import Console

from m2rag_bench.ask.citations import cite
from m2rag_bench.ask.page import CSP, answer_html, terminal_answer, web_image
from m2rag_bench.models.embeddings import LexicalEmbedder
from tests.ask.test_citations import URLS, make_response, mini_sample

ANSWER = """Sunlight looks white, but it is a blend of every colour of the rainbow. Violet and blue waves are short, \
roughly 400 to 480 nanometres, while orange and red waves are long.

![How air scatters sunlight](images/0.png)

You can make a sunset in a glass: stir half a teaspoon of milk into water and shine a torch through it.

![Visible light wavelengths](images/5.png)

Kittens like to nap in warm places.
"""
PLACED = {0: "How air scatters sunlight", 5: "Visible light wavelengths"}
XSS = ("<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n<img src=\"http://evil.example/a.png\">\n\n"
       "[click](javascript:alert(1))\n\n![remote](http://evil.example/b.png)\n\n![fake](images/99.png)\n\n"
       "[data](data:text/html,<b>x</b>)\n\n<svg onload=alert(1)></svg>\n\n![ok](images/0.png)\n")
SKIPPED = [("page", "https://slow.example/a", "timed out after 20 s"),
           ("image", "https://cdn.example/<b>.png", "not an image <script>")]


class _Tags(HTMLParser):
    """Every start tag with its attributes, and the text inside <article>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.article = 0
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.article += tag == "article"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        self.article -= tag == "article"

    def handle_data(self, data: str) -> None:
        if self.article:
            self.text.append(data)


def _parse(html: str) -> _Tags:
    parser = _Tags()
    parser.feed(html)
    parser.close()
    return parser


def _paragraph_links(html: str) -> list[tuple[str, list[str]]]:
    """(text start, hrefs) of each <p> in the answer."""
    article = html[html.index('<article class="answer">'):html.index("</article>")]
    out = []
    for body in re.findall(r"<p>(.*?)</p>", article, re.S):
        out.append((re.sub(r"<[^>]+>", "", body)[:40], re.findall(r'href="([^"]+)"', body)))
    return out


@pytest.fixture(scope="module")
def page() -> dict:
    sample = mini_sample()
    cited = cite(ANSWER, sample, embedder=LexicalEmbedder())
    response = make_response(sample, ANSWER, PLACED)
    html = answer_html(response, sample, cited.sources, images="embed", title="m2rag-bench ask",
                       skipped=SKIPPED, markdown=cited.markdown)
    return {"sample": sample, "cited": cited, "response": response, "html": html}


def _no_remote_resources(html: str) -> None:
    tags = _parse(html).tags
    srcs = [a.get("src") or "" for _, a in tags if "src" in a]
    assert not [s for s in srcs if not (s.startswith("data:image/") or re.match(r"^images/[0-9a-f]{64}\.", s))]
    assert not re.search(r"""<[^>]*\ssrc\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)  # text shows "<" as &lt;
    assert not [t for t, _ in tags if t in ("script", "link", "iframe", "object", "embed", "svg", "base", "form")]
    assert "url(" not in html and "@import" not in html


def test_page_is_complete_and_self_contained(page: dict) -> None:
    html = page["html"]
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    parsed = _parse(html)
    metas = [a for t, a in parsed.tags if t == "meta"]
    assert {"http-equiv": "Content-Security-Policy", "content": CSP} in metas
    assert CSP == "default-src 'none'; img-src data: 'self'; style-src 'unsafe-inline'"
    assert "<title>m2rag-bench ask</title>" in html
    assert f"<h1>{page['sample'].query}</h1>".replace("'", "&#x27;") in html
    _no_remote_resources(html)


def test_embedded_images_decode_in_place_with_captions_and_sources(page: dict) -> None:
    html, sample = page["html"], page["sample"]
    imgs = [a for t, a in _parse(html).tags if t == "img"]
    assert [i["alt"] for i in imgs] == list(PLACED.values())
    for img in imgs:
        head, data = img["src"].split(",", 1)
        assert head.startswith("data:image/") and head.endswith(";base64")
        with Image.open(io.BytesIO(base64.b64decode(data))) as im:
            im.load()
            assert im.size[0] > 0 and max(im.size) <= 1024
    figures = re.findall(r'<figure class="answer-image">.*?</figure>', html, re.S)
    assert len(figures) == 2
    page0 = sample.webpages[0]
    assert "How air scatters sunlight" in figures[0] and "source: " in figures[0]
    assert f'href="{page0.url}"' in figures[0] and page0.title.split(" |")[0] in figures[0]
    aux_url = sample.aux_images[0].source_url
    assert aux_url and f"source: <a href=\"{aux_url}\"" in figures[1]
    # in place: the first figure comes between the first and second paragraphs
    assert html.index("nanometres") < html.index(figures[0]) < html.index("You can make a sunset") < html.index(figures[1])


def test_paragraphs_cite_their_pages_and_sources_are_listed(page: dict) -> None:
    html, cited = page["html"], page["cited"]
    links = _paragraph_links(html)
    assert URLS[0] in links[0][1] and links[0][0].startswith("Sunlight looks white")
    assert links[1][0].startswith("You can make a sunset") and URLS[3] in links[1][1]
    assert links[2][1] == []  # draws on no page; the image before it is an auxiliary one
    sources = html[html.index('<section class="sources">'):]
    for s in cited.sources:
        assert f'<li value="{s.number}"><a href="{s.url}"' in sources
    assert "[1]" in html[html.index('<article class="answer">'):]  # the citation links render as [n]


def test_skipped_section_is_escaped(page: dict) -> None:
    html = page["html"]
    skipped = html[html.index('<section class="skipped">'):]
    assert "timed out after 20 s" in skipped and 'href="https://slow.example/a"' in skipped
    assert "not an image &lt;script&gt;" in skipped and "<script>" not in html


def test_sanitiser_removes_injected_markup(tmp_path: Path) -> None:
    sample = mini_sample()
    response = make_response(sample, XSS, {0: "ok"})
    for mode in ("embed", "copy"):
        html = answer_html(response, sample, [], images=mode, out_dir=None if mode == "embed" else tmp_path,
                           title="xss")
        tags = _parse(html).tags
        assert not [a for _, a in tags for k in a if k.startswith("on")]
        assert not [a for t, a in tags if t == "a" and (a.get("href") or "").lower().startswith(("javascript:", "data:"))]
        _no_remote_resources(html)
        assert len([t for t, _ in tags if t == "img"]) == 1  # only the candidate image
        text = "".join(_parse(html).text)
        assert "<script>alert(1)</script>" in text  # raw HTML is shown as text, never run
        assert "not a candidate image" in text and "[image 99 unavailable: fake]" in text


def test_copy_mode_writes_hashed_files(tmp_path: Path, page: dict) -> None:
    html = answer_html(page["response"], page["sample"], page["cited"].sources, images="copy", out_dir=tmp_path,
                       title="copy", markdown=page["cited"].markdown)
    (tmp_path / "answer.html").write_text(html, encoding="utf-8")
    srcs = [a["src"] for t, a in _parse(html).tags if t == "img"]
    assert len(srcs) == 2
    for src in srcs:
        assert re.fullmatch(r"images/[0-9a-f]{64}\.(png|jpg|gif|webp)", src)
        data = (tmp_path / src).read_bytes()
        assert hashlib.sha256(data).hexdigest() == Path(src).stem
        with Image.open(io.BytesIO(data)) as im:
            im.load()
    assert sorted(p.name for p in (tmp_path / "images").iterdir()) == sorted(Path(s).name for s in srcs)
    assert "data:image" not in html
    _no_remote_resources(html)
    with pytest.raises(ValueError):
        answer_html(page["response"], page["sample"], [], images="copy", out_dir=None)


def test_large_images_are_thumbnailed_and_odd_formats_converted() -> None:
    buf = io.BytesIO()
    Image.new("RGB", (3000, 1200), (10, 120, 200)).save(buf, "PNG")
    data, ext, mime = web_image(buf.getvalue())
    with Image.open(io.BytesIO(data)) as im:
        assert im.size == (1024, 410) and (ext, mime) == ("png", "image/png")
    assert web_image(buf.getvalue(), None)[0] == buf.getvalue()
    bmp = io.BytesIO()
    Image.new("RGB", (20, 10)).save(bmp, "BMP")
    assert web_image(bmp.getvalue())[1] == "png"
    assert web_image(b"<svg onload=alert(1)>") is None


def test_error_response_page() -> None:
    sample = mini_sample()
    response = make_response(sample, "", {}).model_copy(update={"response": None, "error": "model <timeout>"})
    html = answer_html(response, sample, [], title="t")
    assert "No answer: model &lt;timeout&gt;" in html


def test_terminal_answer_lists_images_and_sources(page: dict) -> None:
    console = Console(record=True, width=120, color_system=None)
    terminal_answer(page["response"], page["sample"], page["cited"].sources, console, markdown=page["cited"].markdown,
                    skipped=SKIPPED)
    out = console.export_text()
    assert "[image 1: How air scatters sunlight]" in out and "[image 2: Visible light wavelengths]" in out
    assert "images/0.png" not in out
    images = out[out.index("Images"):out.index("Sources")]
    assert "How air scatters sunlight" in images and "Skylab Science Museum" in images
    assert page["sample"].aux_images[0].source_url in images
    sources = out[out.index("Sources"):]
    for s in page["cited"].sources:
        assert f"[{s.number}] {s.title}" in sources and s.url in sources
    assert "timed out after 20 s" in out
    assert out.index("Sunlight looks white") < out.index("[image 1:") < out.index("You can make a sunset")


def test_terminal_answer_keeps_code_and_marks_foreign_images() -> None:
    sample = mini_sample()
    text = "```\n![x](images/0.png)\n```\n\n![remote](https://evil.example/a.png) [b](c) \x1b[2Jcleared\x9b\n"
    buf = io.StringIO()
    console = Console(file=buf, record=True, width=100, force_terminal=True)
    terminal_answer(make_response(sample, text, {}), sample, [], console)
    out = console.export_text()
    assert "![x](images/0.png)" in out and "[image not shown: remote]" in out and "Images" not in out
    assert "cleared" in out and "\x1b[2J" not in buf.getvalue() and "\x9b" not in buf.getvalue()


CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def test_pages_in_headless_chromium(tmp_path: Path, page: dict) -> None:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    sample, cited = page["sample"], page["cited"]
    files = {"embed": tmp_path / "embed" / "answer.html", "copy": tmp_path / "copy" / "answer.html",
             "xss": tmp_path / "xss" / "answer.html"}
    files["embed"].parent.mkdir()
    files["embed"].write_text(page["html"], encoding="utf-8")
    files["copy"].write_text(answer_html(page["response"], sample, cited.sources, images="copy",
                                         out_dir=files["copy"].parent, markdown=cited.markdown), encoding="utf-8")
    files["xss"].write_text(answer_html(make_response(sample, XSS, {0: "ok"}), sample, [], images="copy",
                                        out_dir=files["xss"].parent), encoding="utf-8")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            for name, path in files.items():
                context = browser.new_context()
                tab = context.new_page()
                errors: list[str] = []
                requests: list[str] = []
                tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                tab.on("pageerror", lambda e: errors.append(str(e)))
                tab.on("dialog", lambda d: (errors.append(f"dialog {d.message}"), d.dismiss()))
                tab.on("request", lambda r: requests.append(r.url))
                tab.add_init_script("window.__pwned = undefined;")
                tab.goto(path.resolve().as_uri(), wait_until="load")
                for img in tab.query_selector_all("img"):
                    img.scroll_into_view_if_needed()
                tab.wait_for_function("() => Array.from(document.images).every(i => i.complete)", timeout=10_000)
                widths = tab.eval_on_selector_all("img", "imgs => imgs.map(i => i.naturalWidth)")
                assert widths and all(w > 0 for w in widths), (name, widths)
                assert len(widths) == (1 if name == "xss" else 2)
                tab.wait_for_timeout(200)
                assert tab.evaluate("typeof window.__pwned") == "undefined"
                assert errors == [], (name, errors)
                assert not [u for u in requests if not u.startswith(("file:", "data:"))], (name, requests)
                context.close()
        finally:
            browser.close()


def test_candidates_come_from_the_recorded_selection() -> None:
    sample = mini_sample()
    response = make_response(sample, "Look: ![diagram](images/0.png)\n", {})
    response.stages["selection"]["candidates"] = []  # the run had no candidates: nothing to show
    html = answer_html(response, sample, [])
    assert "<img" not in html and "[image 0 unavailable: diagram]" in html
    bare = response.model_copy(update={"stages": {}})  # nothing recorded: the default selection's numbering
    assert len([t for t, _ in _parse(answer_html(bare, sample, [])).tags if t == "img"]) == 1
