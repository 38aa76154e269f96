"""``dataset info``: counts, topics, images and score distributions of a benchmark dataset."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

from ..schema import ImageRef, Sample

POSITIVE_SCORE = 8  # images scored >= 8 are the positives of image recall


@dataclass
class DatasetSummary:
    """What `summarize` counts over a set of samples."""

    queries: int = 0
    topics: Counter = field(default_factory=Counter)
    levels: Counter = field(default_factory=Counter)
    pages: int = 0
    pages_crawled: int = 0
    pieces: int = 0
    piece_scores: Counter = field(default_factory=Counter)
    images: dict[str, Counter] = field(default_factory=lambda: {"page": Counter(), "aux": Counter()})
    image_scores: dict[str, Counter] = field(default_factory=lambda: {"page": Counter(), "aux": Counter()})
    image_bytes: int = 0

    def add(self, sample: Sample) -> None:
        self.queries += 1
        self.topics[sample.topic or "(none)"] += 1
        self.levels[sample.level if sample.level is not None else "(none)"] += 1
        for page in sample.webpages:
            self.pages += 1
            self.pages_crawled += page.pieces is not None
            for piece in page.pieces or []:
                self.pieces += 1
                self.piece_scores[piece.score if piece.score is not None else "null"] += 1
        for img in sample.all_images():
            self._add_image(img)

    def _add_image(self, img: ImageRef) -> None:
        counts = self.images[img.kind]
        counts["total"] += 1
        counts["available"] += img.available
        counts["valid"] += img.valid
        counts["captioned"] += img.detailed_caption is not None
        counts[f"score >= {POSITIVE_SCORE}"] += (img.final_score or 0) >= POSITIVE_SCORE
        self.image_scores[img.kind][img.final_score if img.final_score is not None else "null"] += 1
        self.image_bytes += len(img.image_bytes or b"")

    def to_dict(self) -> dict:
        return {
            "queries": self.queries, "topics": dict(self.topics), "levels": {str(k): v for k, v in self.levels.items()},
            "pages": self.pages, "pages_crawled": self.pages_crawled, "pieces": self.pieces,
            "piece_scores": {str(k): v for k, v in self.piece_scores.items()},
            "images": {k: dict(v) for k, v in self.images.items()},
            "image_scores": {k: {str(s): n for s, n in v.items()} for k, v in self.image_scores.items()},
            "image_bytes": self.image_bytes,
        }


def summarize(samples: Iterable[Sample]) -> DatasetSummary:
    summary = DatasetSummary()
    for sample in samples:
        summary.add(sample)
    return summary


def _mean(total: int, n: int) -> str:
    return f"{total / n:.1f}" if n else "-"


def render_summary(summary: DatasetSummary, title: str, console: Console | None = None) -> None:
    """Print the summary as three rich tables: overview, topics, score distributions."""
    console = console or Console()
    s = summary
    overview = Table(title=title, show_header=True)
    overview.add_column("item")
    overview.add_column("count", justify="right")
    overview.add_column("per query", justify="right")
    overview.add_row("queries", str(s.queries), "")
    overview.add_row("web pages", str(s.pages), _mean(s.pages, s.queries))
    overview.add_row("  crawled (with text)", str(s.pages_crawled), _mean(s.pages_crawled, s.queries))
    overview.add_row("text pieces", str(s.pieces), _mean(s.pieces, s.queries))
    for kind, label in (("page", "page images"), ("aux", "auxiliary images")):
        counts = s.images[kind]
        overview.add_row(label, str(counts["total"]), _mean(counts["total"], s.queries))
        for key in ("available", "valid", "captioned", f"score >= {POSITIVE_SCORE}"):
            overview.add_row(f"  {key}", str(counts[key]), _mean(counts[key], s.queries))
    overview.add_row("image data", f"{s.image_bytes / 1e6:.1f} MB", "")
    console.print(overview)

    topics = Table(title="topics and levels")
    topics.add_column("topic")
    topics.add_column("queries", justify="right")
    for topic, n in sorted(s.topics.items(), key=lambda kv: (-kv[1], kv[0])):
        topics.add_row(topic, str(n))
    for level, n in sorted(s.levels.items(), key=lambda kv: str(kv[0])):
        topics.add_row(f"level {level}", str(n), style="dim")
    console.print(topics)

    scores = Table(title="score distributions (0-10)")
    scores.add_column("score", justify="right")
    for label in ("text pieces", "page images", "aux images"):
        scores.add_column(label, justify="right")
    for score in [*range(11), "null"]:
        scores.add_row(str(score), str(s.piece_scores[score]), str(s.image_scores["page"][score]),
                       str(s.image_scores["aux"][score]))
    console.print(scores)
