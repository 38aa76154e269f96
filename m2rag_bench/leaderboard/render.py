"""Markdown answers to safe HTML.

Model output is untrusted. An answer is parsed with markdown-it-py with raw HTML *off* (tags show as text), its
image tokens are rewritten (a pseudo URL ``images/N.ext`` becomes the site's copy of candidate ``N``; any other
image becomes a text note), and the rendered HTML is then sanitised with nh3 to a small tag and attribute set:
no scripts, frames, styles or event handlers; links only to http(s)/mailto; images only from the site's
``assets/img/``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import nh3
from markdown_it import MarkdownIt
from markdown_it.token import Token

PSEUDO_URL = re.compile(r"^images/(\d+)\.[A-Za-z0-9]{1,5}$")
#: what an <img src> may be after rendering: the site's own content-hashed image files, relative to the page
ASSET_SRC = re.compile(r"^(\.\./)*assets/img/[0-9a-f]{64}\.[a-z0-9]{1,5}$")

TAGS = {"p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "s", "code", "pre", "blockquote",
        "ul", "ol", "li", "a", "img", "table", "thead", "tbody", "tr", "th", "td", "span", "figure", "figcaption"}
ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt", "title", "loading"}, "ol": {"start"},
              "th": {"align"}, "td": {"align"}, "span": {"class"}, "figure": {"class"}}
URL_SCHEMES = {"http", "https", "mailto"}


def _attribute_filter(tag: str, attr: str, value: str) -> str | None:
    if tag == "img" and attr == "src":
        return value if ASSET_SRC.match(value) else None
    if tag == "span" and attr == "class":
        return value if value in ("img-missing", "img-removed") else None
    if tag == "figure" and attr == "class":
        return value if value == "answer-image" else None
    return value


def sanitize(html: str) -> str:
    """Clean an HTML fragment to the leaderboard's allow-list."""
    return nh3.clean(html, tags=TAGS, clean_content_tags={"script", "style", "iframe", "object", "embed", "template"},
                     attributes=ATTRIBUTES, attribute_filter=_attribute_filter, url_schemes=URL_SCHEMES,
                     link_rel="noopener noreferrer nofollow", strip_comments=True)


_md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable(["table", "strikethrough"])


def _text_token(content: str, css: str) -> list[Token]:
    open_ = Token("html_inline", "", 0)
    open_.content = f'<span class="{css}">'
    text = Token("text", "", 0)
    text.content = content
    close = Token("html_inline", "", 0)
    close.content = "</span>"
    return [open_, text, close]


def render_answer(markdown: str, image_src: Callable[[int], str | None]) -> tuple[str, list[int]]:
    """Render an answer to sanitised HTML.

    ``image_src(N)`` gives the page-relative path of candidate ``N``'s file (``None`` when the site has no copy).
    Returns the HTML and the candidate numbers referenced, in order.
    """
    tokens = _md.parse(markdown or "")
    used: list[int] = []
    for block in tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        for tok in block.children:
            if tok.type != "image":
                children.append(tok)
                continue
            src = str(tok.attrs.get("src", ""))
            alt = "".join(c.content for c in tok.children or []) or tok.content
            match = PSEUDO_URL.match(src)
            if not match:
                children += _text_token(f"[image not shown: {alt or 'untitled'} — not a candidate image]", "img-removed")
                continue
            index = int(match.group(1))
            used.append(index)
            path = image_src(index)
            if path is None:
                children += _text_token(f"[image {index} unavailable: {alt}]", "img-missing")
                continue
            tok.attrs["src"] = path
            tok.attrs["loading"] = "lazy"
            children.append(tok)
        block.children = children
    # html_inline tokens above are ours (html=False stops the model's); the sanitiser still checks everything
    html = _md.renderer.render(tokens, _md.options, {})
    return sanitize(html), used


def render_text(text: str) -> str:
    """Render plain markdown (e.g. a judge's reason) with no images."""
    html, _ = render_answer(text, lambda _i: None)
    return html
