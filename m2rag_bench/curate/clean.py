"""Reading, cleaning and splitting web pages into ``TextPiece`` records (reference §5.3–5.4, §8.1 items 16 and 19).

Two readers produce the same :class:`Page` — markdown in which every page image sits where it was, as the
marker ``<IMAGE_PLACEHOLDER>[N]`` (``N`` = 1-based image number in the page), plus the list of those images:

* :func:`jina_to_page` reads the markdown of the Jina Reader API (``![Image N: alt](url)``, numbered by Jina);
* :func:`html_to_markdown` converts a page fetched directly, with ``markdownify`` (BeautifulSoup-based) rather
  than hand-written regexes; page chrome (``script``, ``style``, ``nav``, ``footer``, ``header``, ``aside``,
  ``form``, …) is dropped before converting, and each ``<img>`` becomes a marker in place.

:func:`clean` then reduces links to their text, removes markdown images left without a marker, drops
boilerplate lines (:data:`BOILERPLATE_PATTERNS`) and normalises whitespace, keeping paragraph breaks.

:func:`split` cuts the text into pieces of at most ``max_chars`` characters (the authors used LangChain's
``RecursiveCharacterTextSplitter(chunk_size=1000)``) at paragraph, then line, then sentence, then word
boundaries. Unlike the authors' splitter it strips nothing: ``"".join(p.text for p in pieces) == text`` whenever
the ``max_pieces`` cap is not reached (otherwise the join is a prefix of the text). A marker is never cut; a
piece is longer than ``max_chars`` only when ``max_chars`` is shorter than one marker.

Marker handling never uses lazy ``.*?`` patterns that can run across several images (§8.1 item 16): while
links are rewritten, markers are swapped for private-use sentinels so ``<IMAGE_PLACEHOLDER>[1](x)`` cannot be
mistaken for a link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urljoin

from ..schema import IMAGE_MARKER_RE, TextPiece

__all__ = [
    "BOILERPLATE_PATTERNS",
    "DROPPED_TAGS",
    "Page",
    "PageImage",
    "clean",
    "html_to_markdown",
    "image_split_ids",
    "jina_to_page",
    "marker",
    "split",
]


def marker(number: int) -> str:
    """The marker for image ``number`` of a page: ``<IMAGE_PLACEHOLDER>[number]``."""
    return f"<IMAGE_PLACEHOLDER>[{number}]"


@dataclass(frozen=True)
class PageImage:
    """An image of a page: its 1-based number (the ``N`` of its marker), absolute URL and alt text."""

    number: int
    url: str
    alt: str = ""


@dataclass
class Page:
    """Markdown of a page with image markers in place, and the images those markers refer to (by number)."""

    markdown: str
    images: list[PageImage] = field(default_factory=list)


# --- Jina Reader markdown -------------------------------------------------------------------------------------

# ``![Image 3: alt text](https://host/x.png "title")`` — the alt may not hold ``]`` and the URL may not hold
# whitespace or unbalanced parentheses, so one match never spans two images (the authors' lazy pattern could).
_JINA_IMAGE_RE = re.compile(
    r"!\[\s*Image\s+(\d+)\s*(?::\s*([^\]\n]*))?\]\(\s*((?:[^()\s]|\([^()\s]*\))*)(?:\s+\"[^\"]*\")?\s*\)"
)
# A link whose whole text is one marker (a linked image): ``[<IMAGE_PLACEHOLDER>[3]](https://…)``.
_LINKED_MARKER_RE = re.compile(r"\[\s*(<IMAGE_PLACEHOLDER>\[\d+\])\s*\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\s*\)")


def jina_to_page(markdown: str, base_url: str = "") -> Page:
    """Turn Jina Reader markdown into a :class:`Page`: each ``![Image N: alt](url)`` becomes marker ``N``.

    Jina's own numbers are kept (Jina gives a repeated image the same number; the first URL and alt are
    recorded). A linked image ``[![Image 3: x](u)](link)`` becomes just the marker. Relative URLs are resolved
    against ``base_url``. Other markdown images (no ``Image N`` label) are left for :func:`clean` to remove.
    """
    images: dict[int, PageImage] = {}

    def _replace(m: re.Match[str]) -> str:
        number = int(m.group(1))
        if number < 1:
            return m.group(0)
        url = urljoin(base_url, m.group(3)) if base_url else m.group(3)
        images.setdefault(number, PageImage(number=number, url=url, alt=(m.group(2) or "").strip()))
        return marker(number)

    text = _JINA_IMAGE_RE.sub(_replace, markdown)
    text = _LINKED_MARKER_RE.sub(r"\1", text)
    return Page(markdown=text, images=[images[n] for n in sorted(images)])


# --- HTML pages fetched directly --------------------------------------------------------------------------------

#: Tags removed with their content before converting HTML (page chrome, not page content).
DROPPED_TAGS = ("script", "style", "noscript", "template", "nav", "footer", "header", "aside", "form",
                "iframe", "svg", "button", "select", "dialog")

_MARKER_ATTR = "data-m2rag-image-number"


def _img_url(img, base_url: str) -> str | None:
    """The absolute http(s) URL of an ``<img>`` (``src``, else lazy-loading ``data-src``, else ``srcset``)."""
    candidates = [img.get("src"), img.get("data-src"), img.get("data-original"), img.get("data-lazy-src")]
    srcset = img.get("srcset") or img.get("data-srcset")
    if srcset:
        candidates.append(srcset.split(",")[0].strip().split(" ")[0])
    for raw in candidates:
        raw = (raw or "").strip()
        if not raw or raw.startswith(("data:", "javascript:", "about:")):
            continue
        url = urljoin(base_url, raw)
        if url.startswith(("http://", "https://")):
            return url
    return None


def _converter_class():
    from markdownify import MarkdownConverter

    class _MarkerConverter(MarkdownConverter):
        """``markdownify`` converter that writes numbered image markers and unwraps linked images."""

        def convert_img(self, el, text, parent_tags):  # noqa: D102 - markdownify hook
            number = el.get(_MARKER_ATTR)
            return f" {marker(int(number))} " if number else ""

        def convert_a(self, el, text, parent_tags):  # noqa: D102 - markdownify hook
            if IMAGE_MARKER_RE.search(text or ""):
                return text  # a linked image (or a link around one): keep the content, drop the link
            return super().convert_a(el, text, parent_tags)

    return _MarkerConverter


def html_to_markdown(html: str, base_url: str = "") -> Page:
    """Convert an HTML page to a :class:`Page` with ``markdownify``; images become markers in document order.

    Images are numbered 1, 2, … in document order, one number per ``<img>`` with a usable http(s) URL (resolved
    against ``base_url``; ``data:`` URIs, usually spacers and icons, are skipped). Tags in :data:`DROPPED_TAGS`
    and HTML comments are removed with their content first. Asterisks and underscores are not escaped.
    """
    from bs4 import BeautifulSoup, Comment

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(list(DROPPED_TAGS)):
        tag.decompose()
    for comment in soup.find_all(string=lambda s: isinstance(s, Comment)):
        comment.extract()
    images: list[PageImage] = []
    for img in soup.find_all("img"):
        url = _img_url(img, base_url)
        if url is None:
            continue
        number = len(images) + 1
        img[_MARKER_ATTR] = str(number)
        images.append(PageImage(number=number, url=url, alt=" ".join((img.get("alt") or "").split())))
    body = soup.body or soup
    converter = _converter_class()(heading_style="ATX", bullets="-", escape_asterisks=False,
                                   escape_underscores=False, escape_misc=False, strip_document="strip")
    markdown = converter.convert_soup(body)
    # markdownify pads the marker with spaces so it never glues to words; tidy them at line edges
    markdown = re.sub(r"[ \t]+\n", "\n", markdown)
    markdown = re.sub(r"\n[ \t]+(?=<IMAGE_PLACEHOLDER>)", "\n", markdown)
    return Page(markdown=markdown.strip(), images=images)


# --- cleaning ----------------------------------------------------------------------------------------------------

#: Boilerplate lines dropped by :func:`clean` (case-insensitive ``re.search`` on the line with markdown
#: emphasis and list bullets removed). Only lines of at most :data:`_BOILERPLATE_MAX_LINE` characters that hold
#: no image marker are dropped, so a content paragraph that merely mentions cookies survives.
BOILERPLATE_PATTERNS: tuple[str, ...] = (
    # cookie / consent banners
    r"\b(we|this (web)?site) uses? cookies\b",
    r"\baccept (all )?cookies\b",
    r"\b(reject|decline|manage) (all |optional )?cookies\b",
    r"^cookie (policy|settings|preferences|consent)\b",
    r"\bby (continuing to (browse|use)|using) (this|our) (web)?site,? you (agree|consent)\b",
    # newsletters and sign-up prompts
    r"\b(subscribe|sign up) (to|for) (our|the) (free )?(weekly |daily )?newsletter\b",
    r"^(subscribe|sign up|log ?in|sign in|register)( now| here| today)?[.!]?$",
    # share buttons
    r"^share( this)?( article| post| page| story)?( on| via)?:?$",
    r"\bshare (on|via|to) (facebook|twitter|x|linkedin|pinterest|reddit|whatsapp|email|telegram)\b",
    r"^(tweet|pin it|email|print|facebook|twitter|linkedin|pinterest|reddit|whatsapp)( this)?$",
    r"\bclick to share\b",
    # navigation leftovers
    r"^skip to (main )?(content|navigation)$",
    r"^(back|return) to top$",
    r"^advertisement$",
    r"\ball rights reserved\b",
)
_BOILERPLATE_RE = re.compile("|".join(f"(?:{p})" for p in BOILERPLATE_PATTERNS), re.IGNORECASE)
_BOILERPLATE_MAX_LINE = 200

# Markers are swapped for sentinels made of private-use characters while links and images are rewritten.
_SENTINEL_RE = re.compile("\ue000(\\d+)\ue001")
# ``![alt](url "title")`` and ``[text](url "title")``; the text may not hold brackets (one level of nesting is
# allowed for link texts such as ``[a [b] c](u)``), the URL may hold one level of balanced parentheses.
_URL = r"\(\s*<?(?:[^()\s<>]|\([^()\s]*\))*>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
_MD_IMAGE_RE = re.compile(r"!\[[^\]\n]*\]" + _URL)
_MD_LINK_RE = re.compile(r"\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]" + _URL)
_EMPTY_LINK_RE = re.compile(r"(?<!!)\[\s*\]" + _URL)
_INLINE_WS_RE = re.compile(r"[ \t\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_ZERO_WIDTH_RE = re.compile(r"[\u200b\u200c\u200d\u2060\ufeff]")
_EMPHASIS_RE = re.compile(r"^[\s>*_#\-+|]+|[\s*_|]+$")


def _is_boilerplate(line: str) -> bool:
    if len(line) > _BOILERPLATE_MAX_LINE or IMAGE_MARKER_RE.search(line) or _SENTINEL_RE.search(line):
        return False
    bare = _EMPHASIS_RE.sub("", line).strip()
    return bool(bare) and bool(_BOILERPLATE_RE.search(bare))


def clean(markdown: str) -> str:
    """Clean page markdown (with image markers) into piece-ready text.

    1. linked markers ``[<IMAGE_PLACEHOLDER>[N]](link)`` → the marker; other links ``[text](url)`` → ``text``;
    2. markdown images left without a marker (``![alt](url)``) → removed, as are empty links ``[](url)``;
    3. boilerplate lines matching :data:`BOILERPLATE_PATTERNS` → removed;
    4. whitespace: ``\\r\\n`` → ``\\n``, zero-width characters removed, runs of spaces/tabs (and other inline
       spaces) → one space, lines stripped, runs of blank lines → one blank line (paragraph breaks kept).
    """
    text = markdown.replace("\r\n", "\n").replace("\r", "\n")
    text = _ZERO_WIDTH_RE.sub("", text)
    text = _LINKED_MARKER_RE.sub(r"\1", text)
    text = IMAGE_MARKER_RE.sub(lambda m: f"\ue000{m.group(1)}\ue001", text)
    text = _MD_IMAGE_RE.sub("", text)
    text = _EMPTY_LINK_RE.sub("", text)
    for _ in range(3):  # nested links such as [[a](u)](v)
        new = _MD_LINK_RE.sub(lambda m: m.group(1), text)
        if new == text:
            break
        text = new
    lines = []
    for line in text.split("\n"):
        line = _INLINE_WS_RE.sub(" ", line).strip()
        if line and _is_boilerplate(line):
            continue
        lines.append(line)
    text = "\n".join(lines)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    return _SENTINEL_RE.sub(lambda m: marker(int(m.group(1))), text)


# --- splitting ---------------------------------------------------------------------------------------------------

# Separators, coarsest first; each unit keeps the separator that follows it, so nothing is ever lost.
_SEPARATORS = (
    re.compile(r"\n\s*\n\s*"),                       # paragraphs
    re.compile(r"\n\s*"),                            # lines
    re.compile(r"(?<=[.!?;:])[\"')\]]*\s+|(?<=[。！？；])\s*"),  # sentences
    re.compile(r"\s+"),                              # words
)
_ATOM_RE = re.compile(r"<IMAGE_PLACEHOLDER>\[\d+\]|.", re.DOTALL)


def _units(text: str, sep: re.Pattern[str]) -> list[str]:
    units, start = [], 0
    for m in sep.finditer(text):
        if m.end() > start:
            units.append(text[start:m.end()])
            start = m.end()
    if start < len(text):
        units.append(text[start:])
    return units


def _pack(units: list[str], max_chars: int, level: int) -> list[str]:
    pieces: list[str] = []
    current = ""
    for unit in units:
        if len(current) + len(unit) <= max_chars:
            current += unit
            continue
        if current:
            pieces.append(current)
            current = ""
        if len(unit) <= max_chars:
            current = unit
        elif level >= len(_SEPARATORS):
            pieces.append(unit)  # one marker longer than max_chars: unsplittable, a piece of its own
        else:
            sub = _split_text(unit, max_chars, level + 1)
            pieces.extend(sub[:-1])
            current = sub[-1]  # the tail of an over-long unit may take the next units along
    if current:
        pieces.append(current)
    return pieces


def _split_text(text: str, max_chars: int, level: int) -> list[str]:
    if len(text) <= max_chars:
        return [text]
    if level < len(_SEPARATORS):
        units = _units(text, _SEPARATORS[level])
        if len(units) <= 1:
            return _split_text(text, max_chars, level + 1)
        return _pack(units, max_chars, level)
    # last resort: characters, a marker counting as one unsplittable atom
    return _pack(_ATOM_RE.findall(text), max_chars, level)


def split(text: str, max_chars: int = 1000, max_pieces: int | None = 200) -> list[TextPiece]:
    """Split cleaned text into :class:`TextPiece` records of at most ``max_chars`` characters.

    Cuts at paragraph breaks, then line breaks, then sentence ends, then spaces, and only then between
    characters; whitespace stays with the piece before the cut, so joining the pieces with ``""`` gives the text
    back exactly. Markers are never cut (a single marker longer than ``max_chars`` makes a longer piece). At most
    ``max_pieces`` pieces are kept (the authors kept 200; ``None`` keeps all). ``image_ids`` lists the image
    numbers of the markers in each piece, in order, without repeats. Whitespace-only text gives no pieces.
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    if not text.strip():
        return []
    chunks = _split_text(text, max_chars, 0)
    if max_pieces is not None:
        chunks = chunks[:max_pieces]
    pieces = []
    for i, chunk in enumerate(chunks):
        ids = list(dict.fromkeys(int(n) for n in IMAGE_MARKER_RE.findall(chunk)))
        pieces.append(TextPiece(split_id=i, text=chunk, image_ids=ids))
    return pieces


def image_split_ids(pieces: list[TextPiece]) -> dict[int, tuple[int, int]]:
    """Map each image number to ``(split_id, character offset)`` of its first marker (for ``ImageRef``).

    Images whose marker is in no piece (e.g. cut off by ``max_pieces``) are absent: the authors then set
    ``split_id = None``, which makes the image unusable for generation (reference §5.4 step 6).
    """
    found: dict[int, tuple[int, int]] = {}
    for piece in pieces:
        for m in IMAGE_MARKER_RE.finditer(piece.text):
            found.setdefault(int(m.group(1)), (piece.split_id, m.start()))
    return found
