"""An answer shown two ways: a self-contained HTML page and a terminal rendering.

The page opens from disk with no network at all: inline CSS, no JavaScript, a Content-Security-Policy that refuses
everything but inline styles and ``data:``/same-folder images, and images either embedded as ``data:`` URIs or
copied beside the page as ``images/<sha256>.<ext>``. The answer and everything taken from the web (titles, URLs,
reasons) is untrusted: the answer goes through the leaderboard's renderer (markdown-it with raw HTML off, then the
nh3 allow-list, images only from this page's own files), and every other string is HTML-escaped here. An image the
answer names that is not one of the sample's candidates becomes a text note; nothing is ever fetched.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from PIL import Image
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from ..data.images import check_image
from ..leaderboard.render import PSEUDO_URL, _md, render_answer
from ..schema import ImageRef, Response, Sample
from .citations import IMAGE_MD, Source, candidate_images, selection_record

#: ``(what, url, reason)``: a page or image the curation could not use, listed under "Skipped".
Skipped = tuple[str, str, str]
MAX_SIDE = 1024  # embedded images are shrunk to this longest side
_FORMATS = {"PNG": ("png", "image/png"), "JPEG": ("jpg", "image/jpeg"), "GIF": ("gif", "image/gif"),
            "WEBP": ("webp", "image/webp")}
_COPY_SRC = re.compile(r"^images/[0-9a-f]{64}\.(?:png|jpg|gif|webp)$")
_DATA_SRC = re.compile(r"^data:image/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$")
_HTTP = re.compile(r"^https?://", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # terminal escapes in model or web text: never printed
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")
CSP = "default-src 'none'; img-src data: 'self'; style-src 'unsafe-inline'"
CSS = """
body{margin:0;background:#fafaf7;color:#1d1d1f;font:17px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:46rem;margin:0 auto;padding:2rem 1.25rem 4rem}
.kicker{color:#6b6b70;font-size:.9rem;margin:0}
h1{font-size:1.6rem;line-height:1.3;margin:.3rem 0 1.5rem}
h2{font-size:1.15rem;margin-top:2.5rem;border-bottom:1px solid #ddd}
.answer a,.sources a,.skipped a{color:#0b57d0;overflow-wrap:anywhere}
.answer pre{background:#f0f0ec;padding:.75rem;overflow-x:auto}
.answer table{border-collapse:collapse}.answer td,.answer th{border:1px solid #ccc;padding:.25rem .5rem}
figure.answer-image{margin:1.25rem 0;text-align:center}
figure.answer-image img{max-width:100%;height:auto;border-radius:4px;box-shadow:0 1px 4px #0002}
figcaption{font-size:.9rem;color:#444;margin-top:.4rem}
.img-source,.url,.meta{color:#6b6b70;font-size:.85rem}
.img-missing,.img-removed{color:#8a5a00;font-style:italic}
.error{color:#a50e0e;font-weight:600}
.sources li,.skipped li{margin:.35rem 0}
footer{margin-top:3rem;color:#6b6b70;font-size:.85rem}
"""


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _link(url: str, label: str) -> str:
    """A link to an http(s) URL (never fetched, only followed on click); anything else shows as text."""
    if url and _HTTP.match(url):
        return f'<a href="{_esc(url)}" rel="noopener noreferrer nofollow">{_esc(label)}</a>'
    return _esc(label)


def web_image(data: bytes, max_side: int | None = MAX_SIDE) -> tuple[bytes, str, str] | None:
    """``(bytes, extension, mime)`` a browser shows: PNG/JPEG/GIF/WebP kept, others converted to PNG, shrunk to
    ``max_side`` (None: never); None when the data does not decode."""
    if not check_image(data).ok:
        return None
    with Image.open(io.BytesIO(data)) as im:
        fmt = (im.format or "").upper()
        if fmt in _FORMATS and (max_side is None or max(im.size) <= max_side):
            return (data, *_FORMATS[fmt])
        out_fmt = "JPEG" if fmt == "JPEG" else "PNG"
        im = im.convert("RGB" if out_fmt == "JPEG" else "RGBA")
        if max_side is not None:
            im.thumbnail((max_side, max_side))
        buf = io.BytesIO()
        im.save(buf, out_fmt, **({"quality": 85} if out_fmt == "JPEG" else {"optimize": True}))
        return (buf.getvalue(), *_FORMATS[out_fmt])


def image_source(img: ImageRef, sample: Sample, sources: Sequence[Source] = ()) -> tuple[str, str | None]:
    """``(label, url)`` of where an image came from: its page (title, with its citation number) or its own URL."""
    if img.webpage_id is not None:
        page = next((p for p in sample.webpages if p.webpage_id == img.webpage_id), None)
        if page is not None:
            number = next((n for n, _, _, pid in sources if pid == page.webpage_id), None)
            label = (page.title or page.url or f"page {page.webpage_id}") + (f" [{number}]" if number else "")
            return label, page.url or None
    url = img.source_url or ""
    return (url or "image search result"), (url or None)


class _ImageFiles:
    """``image_src`` for the renderer: candidate N's image embedded or copied on first use (None: no usable image)."""

    def __init__(self, candidates: dict[int, ImageRef], mode: str, out_dir: Path | None) -> None:
        self.candidates, self.mode, self.out_dir = candidates, mode, out_dir
        self.srcs: dict[int, str | None] = {}

    def __call__(self, n: int) -> str | None:
        if n not in self.srcs:
            self.srcs[n] = self._src(n)
        return self.srcs[n]

    def _src(self, n: int) -> str | None:
        img = self.candidates.get(n)
        ready = web_image(img.image_bytes, MAX_SIDE if self.mode == "embed" else None) if img and img.image_bytes else None
        if ready is None:
            return None
        data, ext, mime = ready
        if self.mode == "embed":
            return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
        name = f"{hashlib.sha256(data).hexdigest()}.{ext}"
        target = self.out_dir / "images" / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return f"images/{name}"


def answer_html(response: Response, sample: Sample, sources: Sequence[Source] = (), *,
                images: Literal["embed", "copy"] = "embed", out_dir: Path | None = None, title: str = "",
                skipped: Sequence[Skipped] = (), markdown: str | None = None) -> str:
    """A complete HTML5 page for one answer: question, answer with its figures, sources and what was skipped.

    ``markdown`` overrides ``response.response`` (pass the cited answer: ``cite(...).markdown``). ``images="copy"``
    writes the image files to ``out_dir/images/`` (the page must be saved in ``out_dir``); ``"embed"`` writes
    nothing; only the images the answer shows are written or embedded. Returns the document; the caller writes it.
    """
    if images not in ("embed", "copy"):
        raise ValueError(f"images must be 'embed' or 'copy', not {images!r}")
    if images == "copy" and out_dir is None:
        raise ValueError("images='copy' needs out_dir (the folder the page is written to)")
    candidates = candidate_images(sample, selection_record(response)[1])
    files = _ImageFiles(candidates, images, Path(out_dir) if out_dir is not None else None)
    text = response.response if markdown is None else markdown
    body, _ = render_answer(text or "", files, allowed_src=_DATA_SRC if images == "embed" else _COPY_SRC,
                            figures=lambda n: image_source(candidates[n], sample, sources) if n in candidates else None)
    title = title or sample.query
    parts = [f'<p class="kicker">{_esc(title)}</p>' if title != sample.query else "",
             f"<h1>{_esc(sample.query)}</h1>"]
    if response.error or text is None:
        parts.append(f'<p class="error">No answer: {_esc(response.error or "the model returned nothing")}</p>')
    parts.append(f'<article class="answer">\n{body}</article>')
    if sources:
        items = "".join(f'<li value="{int(n)}">{_link(url, t or url)}<br><span class="url">{_esc(url)}</span></li>\n'
                        for n, t, url, _ in sources)
        parts.append(f'<section class="sources"><h2>Sources</h2>\n<ol>\n{items}</ol></section>')
    if skipped:
        items = "".join(f"<li><strong>{_esc(what)}</strong> {_link(url, url)}: {_esc(reason)}</li>\n"
                        for what, url, reason in skipped)
        parts.append(f'<section class="skipped"><h2>Skipped</h2>\n<ul>\n{items}</ul></section>')
    meta = [response.model, response.strategy, response.modality]
    if response.usage:
        meta.append(f"{sum(response.usage.values())} tokens")
    if response.smoke_test:
        meta.append("smoke test: made by the offline embedded model, not a real answer")
    parts.append(f'<footer class="meta">{_esc(" · ".join(m for m in meta if m))}</footer>')
    content = "\n".join(p for p in parts if p)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            f'<meta name="referrer" content="no-referrer">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n{content}\n</main>\n"
            f"</body>\n</html>\n")


def _md_escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def terminal_lines(markdown: str, candidates: dict[int, ImageRef]) -> tuple[str, list[tuple[int, int, str]]]:
    """The answer with each image replaced by ``[image k: caption]`` (code blocks untouched), and the images shown
    as ``(k, pseudo-URL number, caption)`` in order of first appearance."""
    lines = markdown.replace("\r\n", "\n").split("\n")
    code = {n for tok in _md.parse(markdown) if tok.type in ("fence", "code_block") and tok.map
            for n in range(*tok.map)}
    shown: dict[int, tuple[int, int, str]] = {}

    def label(match: re.Match[str]) -> str:
        alt, dest = match.group(1), match.group(2)
        pseudo = PSEUDO_URL.match(dest)
        if pseudo is None or int(pseudo.group(1)) not in candidates:
            return _md_escape(f"[image not shown: {alt or 'untitled'}]")
        n = int(pseudo.group(1))
        if n not in shown:
            shown[n] = (len(shown) + 1, n, " ".join(alt.split()))
        return _md_escape(f"[image {shown[n][0]}: {alt}]")

    out = [line if k in code else IMAGE_MD.sub(label, line) for k, line in enumerate(lines)]
    return "\n".join(out), list(shown.values())


def _clean(text: object) -> str:
    return _CONTROL.sub("", str(text))


def terminal_answer(response: Response, sample: Sample, sources: Sequence[Source], console: Console, *,
                    markdown: str | None = None, skipped: Sequence[Skipped] = ()) -> None:
    """Print the answer with rich: markdown with image lines, a table of the images, the sources and the skipped.

    Model and web text is printed without control characters (no terminal escape sequences) and never as rich
    markup."""
    text = response.response if markdown is None else markdown
    if response.error or text is None:
        console.print(Text(_clean(f"No answer: {response.error or 'the model returned nothing'}"), style="bold red"))
        return
    candidates = candidate_images(sample, selection_record(response)[1])
    body, shown = terminal_lines(_clean(text), candidates)
    console.print(Markdown(body))
    captions = {o.index: o.caption for o in response.output_images}
    if shown:
        console.print()
        table = Table(title="Images", title_justify="left", title_style="bold")
        for name in ("#", "caption", "source"):
            table.add_column(name, overflow="fold")
        for k, n, alt in shown:
            label, url = image_source(candidates[n], sample, sources)
            table.add_row(Text(str(k)), Text(_clean(alt or captions.get(n, ""))),
                          Text(_clean(label + (f"\n{url}" if url and url != label else ""))))
        console.print(table)
    if sources:
        console.print()
        console.print(Text("Sources", style="bold"))
        for n, title, url, _ in sources:
            line = Text(f"[{n}] ", style="bold")
            line.append(_clean(title or url))
            if url and url != title:
                line.append(f"\n    {_clean(url)}", style="dim")
            console.print(line)
    terminal_skipped(skipped, console)


def terminal_skipped(skipped: Sequence[Skipped], console: Console) -> None:
    """Print what was skipped and why (nothing when nothing was)."""
    if skipped:
        console.print()
        console.print(Text("Skipped", style="bold"))
        for what, url, reason in skipped:
            console.print(Text(_clean(f"- {what} {url}: {reason}")))
