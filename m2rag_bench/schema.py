"""Typed records that flow through m2rag-bench.

Everything read from disk, the network or a model is parsed into one of these records at the edge, so that
later stages can trust their input. Validation errors carry the field path; readers add the file and line.

The benchmark side (``Sample`` → ``WebPage`` → ``TextPiece`` / ``ImageRef``) mirrors the authors' release
(reference §1.2–1.6). The generation and judging side (``Response``, ``OutputImage``, ``Judgment``,
``RunConfig``) is what later stages write to run directories.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .topics import TOPICS

#: Marker the authors' cleaner puts into page text where image ``N`` of the page sat: ``<IMAGE_PLACEHOLDER>[N]``.
IMAGE_MARKER_RE = re.compile(r"<IMAGE_PLACEHOLDER>\[(\d+)\]")
#: Token used in ``placeholder_response``: the i-th occurrence stands for ``output_images[i]``.
PLACEHOLDER = "<IMAGE_PLACEHOLDER>"


class Record(BaseModel):
    """Base of all records: unknown fields are rejected, values are validated on assignment."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class TextPiece(Record):
    """One cleaned chunk of a web page (≤ ~1,000 characters), scored 0–10 for relevance to the query."""

    split_id: int = Field(ge=0)
    text: str
    score: int | None = Field(default=None, ge=0, le=10, description="LLM relevance score; None when unscored")
    image_ids: list[int] = Field(default_factory=list, description="ids of the page images whose markers are in the text")
    evaluation: str | None = Field(default=None, description="raw text of the judge that scored the piece")
    embedding_score: float | None = None

    def marker_ids(self) -> list[int]:
        """Image ids in the order their markers appear in the text."""
        return [int(m) for m in IMAGE_MARKER_RE.findall(self.text)]


class ImageRef(Record):
    """A candidate image: a web-page image (``kind="page"``) or an auxiliary image-search result (``kind="aux"``)."""

    image_id: str = Field(description='page images: the 1-based number within the page ("3"); aux images: "aux-<i>"')
    kind: Literal["page", "aux"]
    webpage_id: int | None = None
    split_id: int | None = Field(default=None, description="the text piece holding the image's marker")
    position: int | None = Field(default=None, description="character offset of the marker inside that piece")
    source_url: str | None = Field(default=None, description="original URL on the web")
    cached_path: str | None = Field(default=None, description="path of the image file inside the release")
    image_bytes: bytes | None = Field(default=None, repr=False, description="encoded image file, when available")
    final_score: int | None = Field(default=None, ge=0, le=10, description="MLLM relevance score; None = filtered")
    detailed_caption: str | None = None
    valid: bool = False
    available: bool = Field(default=False, description="True when the image file was found and decodes")

    @property
    def key(self) -> str:
        """The id answers use for this image: ``<webpage_id>/<image_id>`` for page images, ``aux-<i>`` for auxiliary ones."""
        return self.image_id if self.kind == "aux" else f"{self.webpage_id}/{self.image_id}"

    @property
    def extension(self) -> str:
        """File extension used in pseudo URLs (``images/<i>.<ext>``), from the cached path."""
        if self.cached_path and "." in self.cached_path.rsplit("/", 1)[-1]:
            return self.cached_path.rsplit(".", 1)[-1].lower()
        return "png"


class WebPage(Record):
    """A retrieved web page: its search-result fields, its cleaned pieces and its images."""

    webpage_id: int = Field(ge=0)
    title: str = ""
    url: str = ""
    snippet: str | None = None
    pieces: list[TextPiece] | None = Field(default=None, description="None when the page was never crawled or cleaned")
    images: list[ImageRef] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict, description="remaining search-result fields (pagemap, …)")


class Sample(Record):
    """One benchmark query with its retrieved pages and auxiliary images."""

    query_id: str
    query: str = Field(min_length=1)
    topic: str | None = None
    level: int | None = Field(default=None, ge=1, le=3)
    webpages: list[WebPage] = Field(default_factory=list)
    aux_images: list[ImageRef] = Field(default_factory=list)

    @field_validator("topic")
    @classmethod
    def _known_topic(cls, value: str | None) -> str | None:
        if value is not None and value not in TOPICS:
            raise ValueError(f"unknown topic {value!r}; expected one of {', '.join(TOPICS)}")
        return value

    def all_images(self) -> list[ImageRef]:
        """Page images in page order, then auxiliary images."""
        return [img for page in self.webpages for img in page.images] + list(self.aux_images)


class TrainingExample(Record):
    """One single-stage training pair from the authors' distilled training release (reference §6.1)."""

    id: str
    modality: Literal["llm", "mllm"]
    model_input: str
    model_response: str
    image_paths: list[str] = Field(default_factory=list, description="release paths, one per <image> token (MLLM)")


# --- generation and judging records (filled by `run` and `evaluate`) -------------------------------------------


class OutputImage(Record):
    """An image the model placed in its answer; ``index`` is its global candidate index (pseudo URL number)."""

    index: int = Field(ge=0)
    image_id: str
    caption: str = ""


class Response(Record):
    """One generated answer, as written to ``responses.jsonl``."""

    query_id: str
    strategy: Literal["single-stage", "multi-stage", "separate"]
    modality: Literal["llm", "mllm"]
    model: str
    protocol: str = "default"
    response: str | None = None
    placeholder_response: str | None = None
    output_images: list[OutputImage] = Field(default_factory=list)
    stages: dict[str, Any] = Field(default_factory=dict, description="raw inputs/outputs of every stage")
    usage: dict[str, int] = Field(default_factory=dict)
    error: str | None = None
    smoke_test: bool = Field(default=False, description="made by the offline embedded model: not a benchmark result")


class Judgment(Record):
    """One judge verdict: a response × metric (× output image for the image metrics); a line of ``judgments.jsonl``."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, ser_json_inf_nan="constants")

    query_id: str
    metric: str
    image_index: int | None = Field(default=None, description="position of the image in output_images (image metrics)")
    score: float | None = Field(default=None, ge=0, le=1, description="normalised to 0–1; None = missing, never 0")
    raw_score: float | None = Field(default=None, description="the judge's own scale (0–10 rubric, 0–1 ragas)")
    reason: str | None = None
    raw: str | None = Field(default=None, description="the judge's raw output (last attempt)")
    attempts: int = 1
    judge_model: str | None = None
    template_version: str | None = None
    input_key: str | None = Field(default=None, description="hash of what was judged, to spot stale judgments")
    topic: str | None = None
    protocol: str = "default"
    smoke_test: bool = False
    usage: dict[str, int] = Field(default_factory=dict)
    error: str | None = None


class RunConfig(Record):
    """The resolved configuration and reproducibility stamp of a run directory (``config.json``)."""

    model_config = ConfigDict(extra="allow")

    package_version: str
    git_revision: str | None = None
    dataset: dict[str, Any] = Field(default_factory=dict)
    task: str | None = None
    backend: str | None = None
    model: str | None = None
    strategy: str | None = None
    modality: str | None = None
    protocol: str = "default"
    generation: dict[str, Any] = Field(default_factory=dict)
    templates: dict[str, str] = Field(default_factory=dict)
