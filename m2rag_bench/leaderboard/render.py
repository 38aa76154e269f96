"""Markdown answers to safe HTML.

Model output is untrusted. An answer is parsed with markdown-it-py with raw HTML *off* (tags show as text), its
image tokens are rewritten (a pseudo URL ``images/N.ext`` becomes the site's copy of candidate ``N``; any other
image becomes a text note), and the rendered HTML is then sanitised with nh3 to a small tag and attribute set:
no scripts, frames, styles or event handlers; links only to http(s)/mailto; images only from the site's
``assets/img/`` — or from another ``allowed_src`` pattern a caller passes (``m2rag-bench ask`` pages use their own
``images/<sha256>.<ext>`` files or ``data:`` URIs).
"""

from __future__ import annotations

import html as html_lib
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
_SPAN_CLASSES = ("img-missing", "img-removed", "img-source")
_CONTROL = re.compile(r"[\x00-\x20\x7f]+")
#: ``figures(N) -> (label, href)``: the source line under candidate N's figure (href None: no link; None: no line)
FigureSource = Callable[[int], "tuple[str, str | None] | None"]


def _attribute_filter(allowed_src: re.Pattern[str]) -> Callable[[str, str, str], str | None]:
    def keep(tag: str, attr: str, value: str) -> str | None:
        if tag == "img" and attr == "src":
            return value if allowed_src.match(value) else None
        if tag == "a" and attr == "href" and _CONTROL.sub("", value).lower().startswith("data:"):
            return None  # data: is an allowed scheme only for images the allowed_src pattern admits
        if tag == "span" and attr == "class":
            return value if value in _SPAN_CLASSES else None
        if tag == "figure" and attr == "class":
            return value if value == "answer-image" else None
        return value

    return keep


def sanitize(html: str, allowed_src: re.Pattern[str] = ASSET_SRC) -> str:
    """Clean an HTML fragment to the leaderboard's allow-list; ``<img src>`` must match ``allowed_src``."""
    return nh3.clean(html, tags=TAGS, clean_content_tags={"script", "style", "iframe", "object", "embed", "template"},
                     attributes=ATTRIBUTES, attribute_filter=_attribute_filter(allowed_src),
                     url_schemes=URL_SCHEMES | {"data"}, link_rel="noopener noreferrer nofollow", strip_comments=True)


_md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable(["table", "strikethrough"])


def _text_token(content: str, css: str) -> list[Token]:
    open_ = Token("html_inline", "", 0)
    open_.content = f'<span class="{css}">'
    text = Token("text", "", 0)
    text.content = content
    close = Token("html_inline", "", 0)
    close.content = "</span>"
    return [open_, text, close]


def _figure(src: str, alt: str, source: tuple[str, str | None] | None) -> str:
    """A placed image as a ``<figure>``: the image, the model's caption and a "source:" line."""
    esc = html_lib.escape
    caption = esc(alt)
    if source is not None:
        label, href = source
        where = f'<a href="{esc(href)}">{esc(label)}</a>' if href else esc(label)
        caption += f'{"<br>" if caption else ""}<span class="img-source">source: {where}</span>'
    return (f'<figure class="answer-image"><img src="{esc(src)}" alt="{esc(alt)}" loading="lazy">'
            + (f"<figcaption>{caption}</figcaption>" if caption else "") + "</figure>")


def _html_token(kind: str, content: str) -> Token:
    tok = Token(kind, "", 0)
    tok.content = content
    return tok


def render_answer(markdown: str, image_src: Callable[[int], str | None], *, allowed_src: re.Pattern[str] = ASSET_SRC,
                  figures: FigureSource | None = None) -> tuple[str, list[int]]:
    """Render an answer to sanitised HTML.

    ``image_src(N)`` gives the page-relative path of candidate ``N``'s file (``None`` when the site has no copy);
    ``allowed_src`` is what the sanitiser lets through as an image source. With ``figures``, each shown image is a
    ``<figure>`` with its caption and ``figures(N)`` as a source line, placed right after the paragraph or heading
    that held it (a paragraph of images only is replaced by its figures); in table cells it stays in place.
    Returns the HTML and the candidate numbers referenced, in order.
    """
    tokens = _md.parse(markdown or "")
    used: list[int] = []
    out: list[Token] = []
    pending: list[str] = []  # figures to write after the current paragraph / heading closes
    for i, block in enumerate(tokens):
        out.append(block)
        if block.type in ("paragraph_close", "heading_close") and pending:
            out.append(_html_token("html_block", "".join(pending) + "\n"))
            pending = []
        if block.type != "inline" or not block.children:
            continue
        hoist = figures is not None and i > 0 and tokens[i - 1].type in ("paragraph_open", "heading_open")
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
            if figures is not None:
                figure = _figure(path, alt, figures(index))
                if hoist:
                    pending.append(figure)
                else:
                    children.append(_html_token("html_inline", figure))
                continue
            tok.attrs["src"] = path
            tok.attrs["loading"] = "lazy"
            children.append(tok)
        block.children = children
        if hoist and pending and tokens[i - 1].type == "paragraph_open" and not any(
                c.type not in ("softbreak", "hardbreak") and (c.type != "text" or c.content.strip()) for c in children):
            tokens[i - 1].hidden = tokens[i + 1].hidden = True  # nothing left but the images: no empty <p>
    # html_inline/html_block tokens above are ours (html=False stops the model's); the sanitiser still checks all
    html = _md.renderer.render(out, _md.options, {})
    return sanitize(html, allowed_src), used


def render_text(text: str) -> str:
    """Render plain markdown (e.g. a judge's reason) with no images."""
    html, _ = render_answer(text, lambda _i: None)
    return html
