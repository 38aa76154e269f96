"""Reading the authors' published release (reference §1.1–1.8) into typed records, one line at a time.

Layouts accepted under a release directory (at any depth):

* benchmark: ``dev_set.jsonl`` or ``dev_set.jsonl.tar.gz``; images extracted under ``…/ELI5/dev_set/`` or in
  ``dev_set-{0..9}.tar`` shards;
* training: ``data/llm/raw.jsonl`` and ``data/mllm/raw.jsonl`` (or ``data.tar.gz`` holding them); images under
  ``…/ELI5/training_set/`` or in ``training_set-*.tar`` shards.

The data is messy in known ways (null ``cleaned_webpage_splits``, null scores, invalid or missing images, a
malformed line): each case is tolerated and recorded in the `BuildReport` with file, line and field.
"""

from __future__ import annotations

import io
import json
import os
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..schema import IMAGE_MARKER_RE, ImageRef, Sample, TextPiece, TrainingExample, WebPage
from ..topics import TOPICS
from .images import ImageStore, check_image, path_after_host
from .report import BuildReport, Problem

_MAX_DEPTH = 5
_PAGE_FIELDS = {"webpage_id", "title", "url", "link", "snippet", "cleaned_webpage_splits", "images"}


@dataclass
class ReleaseLayout:
    """Where the parts of a release were found."""

    root: Path
    benchmark: Path | None = None
    training: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def find(cls, root: str | Path) -> "ReleaseLayout":
        root = Path(root)
        if not root.exists():
            raise FileNotFoundError(f"release not found: {root}")
        if root.is_file():
            return cls(root.parent, benchmark=root)
        layout = cls(root)
        for dirpath, dirnames, filenames in os.walk(root):
            depth = len(Path(dirpath).relative_to(root).parts)
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and depth < _MAX_DEPTH)
            for name in sorted(filenames):
                path = Path(dirpath, name)
                if name in ("dev_set.jsonl", "dev_set.jsonl.tar.gz") and (
                    layout.benchmark is None or layout.benchmark.name.endswith(".tar.gz")
                ):
                    layout.benchmark = path
                elif name == "raw.jsonl" and path.parent.name in ("llm", "mllm"):
                    layout.training.setdefault(path.parent.name, path)
                elif name == "data.tar.gz":
                    layout.training.setdefault("archive", path)
        return layout


def iter_lines(path: Path, member_suffix: str = ".jsonl") -> Iterator[tuple[str, int, str]]:
    """Yield ``(file label, 1-based line number, line)`` from a jsonl file or the jsonl members of a tar.gz."""
    if path.name.endswith((".tar.gz", ".tgz", ".tar")):
        with tarfile.open(path, "r:*") as tar:
            for member in tar:
                if member.isfile() and member.name.endswith(member_suffix):
                    handle = tar.extractfile(member)
                    assert handle is not None
                    label = f"{path}!{member.name}"
                    for number, raw in enumerate(io.TextIOWrapper(handle, encoding="utf-8"), 1):
                        yield label, number, raw
        return
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, 1):
            yield str(path), number, raw


def parse_json_line(label: str, number: int, raw: str, report: BuildReport) -> dict[str, Any] | None:
    """Parse one jsonl line into a dict; blank lines are ignored, bad ones reported."""
    if not raw.strip():
        return None
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as exc:
        report.add(Problem(label, number, None, f"malformed JSON: {exc.msg} at column {exc.colno}", "line skipped"))
        return None
    if not isinstance(obj, dict):
        report.add(Problem(label, number, None, f"expected a JSON object, got {type(obj).__name__}", "line skipped"))
        return None
    return obj


class BenchmarkReader:
    """Streams `Sample` records (with image bytes) from a release's benchmark file."""

    def __init__(self, release: str | Path, report: BuildReport | None = None, skip_bad: bool = False) -> None:
        self.layout = ReleaseLayout.find(release)
        if self.layout.benchmark is None:
            raise FileNotFoundError(f"no dev_set.jsonl or dev_set.jsonl.tar.gz under {self.layout.root}")
        self.report = report if report is not None else BuildReport()
        self.skip_bad = skip_bad
        self.images = ImageStore(self.layout.root, "dev_set")

    def __iter__(self) -> Iterator[Sample]:
        seen: set[str] = set()
        try:
            for label, number, raw in iter_lines(self.layout.benchmark):
                obj = parse_json_line(label, number, raw, self.report)
                if obj is None:
                    continue
                self.report.counts["lines read"] += 1
                sample = self._sample(obj, label, number)
                if sample is None:
                    continue
                if sample.query_id in seen:
                    self.report.add(Problem(label, number, "query_id", f"duplicate query_id {sample.query_id!r}",
                                            "line skipped"))
                    continue
                if self.skip_bad and any(img.cached_path and not img.available for img in sample.all_images()):
                    self.report.add(Problem(label, number, None, "sample has unavailable images (--skip-bad)",
                                            "sample skipped"))
                    continue
                seen.add(sample.query_id)
                self.report.counts["samples"] += 1
                yield sample
        finally:
            self.images.close()

    # -- one record --------------------------------------------------------------------------------------------

    def _sample(self, obj: dict[str, Any], label: str, number: int) -> Sample | None:
        for key in ("query_id", "content"):
            if obj.get(key) in (None, ""):
                self.report.add(Problem(label, number, key, "required field is missing or empty", "line skipped"))
                return None
        topic = obj.get("topic", obj.get("category"))
        if topic is not None and topic not in TOPICS:
            self.report.add(Problem(label, number, "topic", f"unknown topic {topic!r}; stored as null", "kept"))
            topic = None
        try:
            pages = [self._page(p, i, obj, label, number) for i, p in enumerate(self._list(obj, "webpages", label, number))]
            aux = [self._aux(a, i, obj, label, number) for i, a in enumerate(self._list(obj, "aux_images", label, number))]
            return Sample(query_id=str(obj["query_id"]), query=obj["content"],
                          topic=topic, level=obj.get("level"), webpages=[p for p in pages if p is not None],
                          aux_images=[a for a in aux if a is not None])
        except ValidationError as err:
            self.report.add_validation_error(label, number, err)
            return None

    def _list(self, obj: dict[str, Any], key: str, label: str, number: int, prefix: str = "") -> list[Any]:
        value = obj.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.report.add(Problem(label, number, prefix + key, f"expected a list, got {type(value).__name__}; ignored"))
            return []
        return value

    def _page(self, page: Any, index: int, obj: dict, label: str, number: int) -> WebPage | None:
        where = f"webpages[{index}]"
        if not isinstance(page, dict):
            self.report.add(Problem(label, number, where, "expected an object; page ignored"))
            return None
        pieces: list[TextPiece] | None = None
        splits = page.get("cleaned_webpage_splits")
        if isinstance(splits, list):
            pieces = []
            for j, piece in enumerate(splits):
                try:
                    pieces.append(TextPiece(**{k: piece.get(k) for k in TextPiece.model_fields if piece.get(k) is not None}))
                except (ValidationError, AttributeError, TypeError) as err:
                    self._piece_problem(err, f"{where}.cleaned_webpage_splits[{j}]", label, number)
        elif splits is not None:
            self.report.add(Problem(label, number, f"{where}.cleaned_webpage_splits", "expected a list or null; page has no text"))
        if pieces is None:
            self.report.counts["pages without text"] += 1
        texts = {p.split_id: p.text for p in pieces or []}
        images = []
        for k, img in enumerate(self._list(page, "images", label, number, where + ".")):
            ref = self._image(img, f"{where}.images[{k}]", obj, label, number, kind="page", webpage_id=page.get("webpage_id", index))
            if ref is not None:
                if ref.split_id in texts:
                    ref.position = self._marker_offset(texts[ref.split_id], ref.image_id)
                images.append(ref)
        extra = {k: v for k, v in page.items() if k not in _PAGE_FIELDS}
        try:
            return WebPage(webpage_id=page.get("webpage_id", index), title=page.get("title") or "",
                           url=page.get("url") or page.get("link") or "", snippet=page.get("snippet"),
                           pieces=pieces, images=images, extra=extra)
        except ValidationError as err:
            self.report.add_validation_error(label, number, err, where, action="kept")
            return None

    def _piece_problem(self, err: Exception, where: str, label: str, number: int) -> None:
        if isinstance(err, ValidationError):
            for e in err.errors():
                loc = ".".join(str(p) for p in e["loc"])
                self.report.add(Problem(label, number, f"{where}.{loc}", f"{e['msg']}; piece ignored"))
        else:
            self.report.add(Problem(label, number, where, "expected an object; piece ignored"))

    @staticmethod
    def _marker_offset(text: str, image_id: str) -> int | None:
        for match in IMAGE_MARKER_RE.finditer(text):
            if match.group(1) == image_id:
                return match.start()
        return None

    def _aux(self, img: Any, index: int, obj: dict, label: str, number: int) -> ImageRef | None:
        return self._image(img, f"aux_images[{index}]", obj, label, number, kind="aux", webpage_id=None)

    def _image(self, img: Any, where: str, obj: dict, label: str, number: int, *, kind: str,
               webpage_id: Any) -> ImageRef | None:
        if not isinstance(img, dict):
            self.report.add(Problem(label, number, where, "expected an object; image ignored"))
            return None
        cached = img.get("cached_image_url")
        try:
            ref = ImageRef(image_id=str(img.get("image_id")), kind=kind, webpage_id=webpage_id,
                           split_id=img.get("split_id") if kind == "page" else None,
                           source_url=img.get("image_url"), cached_path=path_after_host(cached) if cached else None,
                           final_score=img.get("final_score"), detailed_caption=img.get("detailed_image_caption"),
                           valid=bool(img.get("valid", False)))
        except ValidationError as err:
            self.report.add_validation_error(label, number, err, where, action="kept")
            return None
        self.report.counts[f"{kind} images"] += 1
        if cached is None:
            self.report.counts[f"{kind} images without a cached file"] += 1
            return ref
        data = self.images.read(cached)
        if data is None:
            self.report.add(Problem(label, number, f"{where}.cached_image_url",
                                    f"image file {ref.cached_path} not found in the release ({self.images.source})",
                                    "image unavailable"))
            return ref
        checked = check_image(data)
        if not checked.ok:
            self.report.add(Problem(label, number, f"{where}.cached_image_url",
                                    f"{self.images.locate(cached)}: {checked.reason}", "image unavailable"))
            return ref
        ref.image_bytes, ref.available = data, True
        self.report.counts[f"{kind} images available"] += 1
        return ref


class TrainingReader:
    """Streams `TrainingExample` records from the training release (``data/{llm,mllm}/raw.jsonl``)."""

    def __init__(self, release: str | Path, report: BuildReport | None = None, skip_bad: bool = False) -> None:
        self.layout = ReleaseLayout.find(release)
        if not self.layout.training:
            raise FileNotFoundError(f"no data/llm/raw.jsonl, data/mllm/raw.jsonl or data.tar.gz under {self.layout.root}")
        self.report = report if report is not None else BuildReport()
        self.skip_bad = skip_bad
        self.images = ImageStore(self.layout.root, "training_set")

    def _sources(self) -> Iterator[tuple[str, str, int, str]]:
        for modality in ("llm", "mllm"):
            if modality in self.layout.training:
                for label, number, raw in iter_lines(self.layout.training[modality]):
                    yield modality, label, number, raw
        if "archive" in self.layout.training:
            for label, number, raw in iter_lines(self.layout.training["archive"], "raw.jsonl"):
                modality = Path(label.split("!", 1)[1]).parent.name
                if modality in ("llm", "mllm") and modality not in self.layout.training:
                    yield modality, label, number, raw

    def __iter__(self) -> Iterator[tuple[TrainingExample, list[bytes | None]]]:
        """Yield each example with the bytes of its images (None where a file is missing or broken)."""
        try:
            for modality, label, number, raw in self._sources():
                obj = parse_json_line(label, number, raw, self.report)
                if obj is None:
                    continue
                self.report.counts["lines read"] += 1
                model_input = obj.get("model_input")
                if isinstance(model_input, list):  # message parts: keep the text, one <image> token per image part
                    model_input = "".join(p.get("text", "<image>") if isinstance(p, dict) else str(p) for p in model_input)
                try:
                    example = TrainingExample(id=str(obj.get("id")) if obj.get("id") is not None else None,
                                              modality=modality, model_input=model_input,
                                              model_response=obj.get("model_response"),
                                              image_paths=[path_after_host(p) for p in obj.get("images") or []])
                except ValidationError as err:
                    self.report.add_validation_error(label, number, err)
                    continue
                blobs = [self._image(p, f"images[{k}]", label, number) for k, p in enumerate(example.image_paths)]
                if self.skip_bad and any(b is None for b in blobs):
                    self.report.add(Problem(label, number, "images", "example has unavailable images (--skip-bad)",
                                            "sample skipped"))
                    continue
                self.report.counts[f"{modality} examples"] += 1
                yield example, blobs
        finally:
            self.images.close()

    def _image(self, path: str, where: str, label: str, number: int) -> bytes | None:
        data = self.images.read(path)
        reason = "not found in the release" if data is None else check_image(data).reason
        if reason:
            self.report.add(Problem(label, number, where, f"image file {path}: {reason}", "image unavailable"))
            return None
        return data
