"""Tests for m2rag_bench.curate.clean: readers keep image positions, cleaning, exact round-trip splitting."""

from __future__ import annotations

import random

import pytest

from m2rag_bench.curate.clean import (
    Page,
    PageImage,
    clean,
    html_to_markdown,
    image_split_ids,
    jina_to_page,
    marker,
    split,
)
from m2rag_bench.schema import IMAGE_MARKER_RE, TextPiece

HTML = """<!doctype html>
<html><head><title>Tides</title>
<script>var tracking = "SCRIPT_TEXT";</script><style>.x { color: red } /* STYLE_TEXT */</style></head>
<body>
<header><a href="/">HEADER_TEXT</a></header>
<nav><ul><li><a href="/a">NAV_TEXT</a></li></ul></nav>
<main>
  <h1>How tides work</h1>
  <p>The <a href="https://en.wikipedia.org/wiki/Moon">Moon</a> pulls the oceans.</p>
  <img src="/images/moon.png" alt="The Moon">
  <p>Two bulges form on opposite sides of the Earth.</p>
  <figure><a href="/full/bulge.jpg"><img src="bulge.jpg" alt="Bulges"></a></figure>
  <p>Spring tides happen at new and full moon.</p>
  <img data-src="//cdn.example.org/spring.webp" alt="Spring tide">
  <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="spacer">
  <p>Neap tides happen at the quarter moons.</p>
  <!-- COMMENT_TEXT -->
  <form><input name="q"><button>FORM_TEXT</button></form>
  <aside>ASIDE_TEXT</aside>
</main>
<footer>FOOTER_TEXT &copy; 2024</footer>
</body></html>"""


def test_html_markers_keep_position_and_absolute_urls():
    page = html_to_markdown(HTML, "https://example.org/science/tides.html")
    assert [m.group(0) for m in IMAGE_MARKER_RE.finditer(page.markdown)] == [marker(1), marker(2), marker(3)]
    assert page.images == [
        PageImage(1, "https://example.org/images/moon.png", "The Moon"),
        PageImage(2, "https://example.org/science/bulge.jpg", "Bulges"),
        PageImage(3, "https://cdn.example.org/spring.webp", "Spring tide"),
    ]
    md = page.markdown
    order = [md.index(s) for s in ("pulls the oceans", marker(1), "Two bulges", marker(2), "Spring tides",
                                   marker(3), "Neap tides")]
    assert order == sorted(order)
    # the linked image became a bare marker, the text link is still a link until clean()
    assert "[<IMAGE_PLACEHOLDER>" not in md
    assert "[Moon](https://en.wikipedia.org/wiki/Moon)" in md


@pytest.mark.parametrize("chrome", ["SCRIPT_TEXT", "STYLE_TEXT", "HEADER_TEXT", "NAV_TEXT", "FOOTER_TEXT",
                                    "ASIDE_TEXT", "FORM_TEXT", "COMMENT_TEXT", "spacer"])
def test_html_page_chrome_removed(chrome):
    page = html_to_markdown(HTML, "https://example.org/")
    assert chrome not in page.markdown
    assert "How tides work" in page.markdown


def test_html_without_images_and_fragment():
    page = html_to_markdown("<p>Just <em>text</em>.</p>", "https://x.org")
    assert page.images == [] and "Just" in page.markdown and not IMAGE_MARKER_RE.search(page.markdown)


def test_jina_images_become_markers():
    md = ("Intro ![Image 1: a cat](https://x.org/cat.png) and [![Image 2: dog](https://x.org/dog.jpg)](https://x.org/"
          "dogs) then ![Image 3](https://x.org/c%20d.png \"title\") ![Image 4: fish](/fish.gif)\n\n"
          "![logo](https://x.org/logo.svg) Again ![Image 1: a cat](https://x.org/cat.png)")
    page = jina_to_page(md, base_url="https://x.org/page")
    assert page.markdown.startswith(f"Intro {marker(1)} and {marker(2)} then {marker(3)} {marker(4)}\n\n")
    assert page.markdown.endswith(f"Again {marker(1)}")
    assert [(i.number, i.url, i.alt) for i in page.images] == [
        (1, "https://x.org/cat.png", "a cat"), (2, "https://x.org/dog.jpg", "dog"),
        (3, "https://x.org/c%20d.png", ""), (4, "https://x.org/fish.gif", "fish")]
    assert "![logo](https://x.org/logo.svg)" in page.markdown  # not Jina's label: left for clean()
    assert "logo" not in clean(page.markdown)


def test_jina_two_images_on_one_line_do_not_merge():
    page = jina_to_page("![Image 1: a](https://x/a.png) text ![Image 2: b](https://x/b.png)")
    assert page.markdown == f"{marker(1)} text {marker(2)}"
    assert [i.url for i in page.images] == ["https://x/a.png", "https://x/b.png"]


def test_clean_links_images_boilerplate_whitespace():
    md = (
        "# Title\n\n"
        "We use cookies to improve your experience. Accept all cookies\n"
        "The [Moon](https://en.wikipedia.org/wiki/Moon_(satellite) \"moon\") pulls   the\toceans. ![icon](i.png)\n"
        "[[nested](u)](v) and [](https://empty)\n\n\n\n"
        f"[{marker(2)}](https://link) {marker(3)}(not a link)\n\n"
        "Subscribe to our newsletter!\n"
        "**Share this article:**\n"
        "Share on Facebook\n"
        "\u00a0 \n"
        "A paragraph about cookie recipes that mentions how we use cookies in baking, long enough to be content. "
        "It goes on and on about dough, sugar and butter, and it is certainly not a consent banner at all, not "
        "even close to one, because it is well over two hundred characters long.\n\n"
        "© 2024 Example Inc. All rights reserved."
    )
    out = clean(md)
    assert "https://" not in out and "](http" not in out and "![" not in out
    assert "The Moon pulls the oceans." in out
    assert "nested and" in out
    assert f"{marker(2)} {marker(3)}(not a link)" in out
    for gone in ("Accept all cookies", "Subscribe", "Share", "All rights reserved", "icon"):
        assert gone not in out
    assert "cookie recipes" in out
    assert "\n\n\n" not in out and "  " not in out and "\t" not in out
    assert out.startswith("# Title\n\nThe Moon")


def test_clean_keeps_markers_in_boilerplate_like_lines():
    assert clean(f"Share {marker(1)}") == f"Share {marker(1)}"


def _rich_text(n_paragraphs: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    words = ["tide", "moon", "ocean", "gravity", "bulge", "spring", "neap", "earth", "orbit", "water"]
    paras, img = [], 0
    for _ in range(n_paragraphs):
        sentences = []
        for _ in range(rng.randint(1, 12)):
            s = " ".join(rng.choice(words) for _ in range(rng.randint(3, 30)))
            if rng.random() < 0.2:
                img += 1
                s += f" {marker(img)}"
            sentences.append(s.capitalize() + rng.choice([".", "!", "?"]))
        sep = rng.choice([" ", "  ", "\n"])
        paras.append(sep.join(sentences))
    return rng.choice(["\n\n", "\n\n\n"]).join(paras) + "\n"


@pytest.mark.parametrize("max_chars", [1000, 300, 80, 30])
def test_split_round_trips_exactly_and_respects_max_chars(max_chars):
    text = _rich_text(60)
    pieces = split(text, max_chars=max_chars, max_pieces=None)
    assert "".join(p.text for p in pieces) == text
    assert [p.split_id for p in pieces] == list(range(len(pieces)))
    assert all(isinstance(p, TextPiece) for p in pieces)
    assert all(len(p.text) <= max_chars for p in pieces)
    # no marker is cut, and image_ids are the markers each piece holds
    all_ids = [int(n) for n in IMAGE_MARKER_RE.findall(text)]
    assert [i for p in pieces for i in p.image_ids] == all_ids
    for p in pieces:
        assert p.image_ids == p.marker_ids()


def test_split_prefers_paragraph_boundaries():
    a, b = "A" * 400 + ".", "B" * 400 + "."
    pieces = split(f"{a}\n\n{b}\n\n{a}", max_chars=1000)
    assert [p.text for p in pieces] == [f"{a}\n\n{b}\n\n", a]


def test_split_falls_back_to_sentences_then_words_then_characters():
    sentence = "word " * 19 + "end. "  # 100 chars
    pieces = split(sentence * 5, max_chars=250)
    assert [len(p.text) for p in pieces] == [200, 200, 100]
    assert all(p.text.endswith("end. ") for p in pieces)
    long_word = "x" * 95
    pieces = split(long_word, max_chars=40)
    assert [len(p.text) for p in pieces] == [40, 40, 15]


def test_split_never_cuts_a_marker():
    text = "ab" + marker(12) + "cd" + marker(3)
    for max_chars in (5, 10, 24, 30):
        pieces = split(text, max_chars=max_chars)
        assert "".join(p.text for p in pieces) == text
        for p in pieces:
            stripped = IMAGE_MARKER_RE.sub("", p.text)
            assert "<IMAGE" not in stripped and "]" not in stripped
            # only an unsplittable single marker may exceed max_chars
            assert len(p.text) <= max_chars or IMAGE_MARKER_RE.fullmatch(p.text)
    assert [p.image_ids for p in split(text, max_chars=10)] == [[], [12], [], [3]]


def test_split_caps_pieces():
    text = "".join(f"Paragraph {i} " + "z" * 80 + ".\n\n" for i in range(500))
    pieces = split(text, max_chars=100)
    assert len(pieces) == 200
    assert text.startswith("".join(p.text for p in pieces))
    assert len(split(text, max_chars=100, max_pieces=None)) == 500


def test_split_empty_and_bad_args():
    assert split("") == [] and split("  \n\n ") == []
    with pytest.raises(ValueError):
        split("abc", max_chars=0)


def test_end_to_end_html_pieces_and_image_split_ids():
    page = html_to_markdown(HTML, "https://example.org/")
    text = clean(page.markdown)
    pieces = split(text, max_chars=60)
    assert "".join(p.text for p in pieces) == text
    where = image_split_ids(pieces)
    assert sorted(where) == [1, 2, 3]
    for number, (sid, pos) in where.items():
        assert pieces[sid].text[pos:].startswith(marker(number))
    assert isinstance(page, Page)
