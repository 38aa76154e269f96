"""Finding and checking the image files of a release.

The authors' records point at images through ``cached_image_url`` (``<IMAGE_URL>/ELI5/dev_set/query-<q>/…``), where
``IMAGE_URL`` was a private server of theirs. We never use the host: the path after it is matched against the files
of the release, whether extracted (``images/ELI5/dev_set/…``) or still inside the ``dev_set-{0..9}.tar`` shards. The
match key is the path from the ``query-<id>`` segment on, so any extraction prefix inside a shard does not matter.
"""

from __future__ import annotations

import io
import os
import tarfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from PIL import Image

#: Largest image we agree to decode (pixels). Bigger ones are reported, never decoded.
MAX_PIXELS = 64_000_000
IMAGE_SUFFIXES = {".jpeg", ".jpg", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff"}
SETS = ("dev_set", "training_set")


def path_after_host(url_or_path: str) -> str:
    """``http://0.0.0.0:65535/ELI5/dev_set/q/1.png`` → ``ELI5/dev_set/q/1.png``; plain paths are returned cleaned."""
    parts = urlsplit(url_or_path)
    path = parts.path if parts.scheme else url_or_path
    return unquote(path).replace("\\", "/").lstrip("/")


def image_key(path: str) -> str:
    """The part of a release path that identifies an image: from the ``query-…`` segment on."""
    parts = [p for p in path.replace("\\", "/").split("/") if p and p != "."]
    for i, part in enumerate(parts):
        if part.startswith("query-"):
            return "/".join(parts[i:])
    return "/".join(parts)


@dataclass(frozen=True)
class CheckedImage:
    """Result of `check_image`: the format and size when it decodes, otherwise the reason."""

    ok: bool
    reason: str | None = None
    format: str | None = None
    size: tuple[int, int] | None = None


def check_image(data: bytes, max_pixels: int = MAX_PIXELS) -> CheckedImage:
    """Check an encoded image: the header is read first, and only images within ``max_pixels`` are decoded."""
    if not data:
        return CheckedImage(False, "empty file")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                w, h = im.size
                if w * h > max_pixels:
                    return CheckedImage(False, f"too large to decode ({w}x{h} pixels > {max_pixels})", im.format, (w, h))
                im.load()
                return CheckedImage(True, None, (im.format or "").lower() or None, (w, h))
    except Image.DecompressionBombError as exc:
        return CheckedImage(False, f"decompression bomb rejected: {exc}")
    except Image.UnidentifiedImageError:
        return CheckedImage(False, f"cannot decode image: not a recognised image format ({len(data)} bytes; truncated "
                                   "or not an image)")
    except Exception as exc:  # PIL raises many types for corrupt data
        return CheckedImage(False, f"cannot decode image: {type(exc).__name__}: {exc}")


class ImageStore:
    """Index of the image files of one release set (``dev_set`` or ``training_set``) under a directory."""

    def __init__(self, root: str | Path, set_name: str = "dev_set") -> None:
        self.root = Path(root)
        self.set_name = set_name
        self.files: dict[str, Path] = {}
        self.members: dict[str, tuple[Path, int, int]] = {}
        self._handles: dict[Path, io.BufferedReader] = {}
        self._scan()

    def _belongs(self, rel_parts: tuple[str, ...]) -> bool:
        named = [p for p in rel_parts if p in SETS]
        return not named or self.set_name in named

    def _scan(self) -> None:
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            rel = Path(dirpath).relative_to(self.root).parts
            for name in sorted(filenames):
                path = Path(dirpath, name)
                if name.endswith(".tar") and (name.startswith(self.set_name + "-") or name == self.set_name + ".tar"):
                    self._index_tar(path)
                elif path.suffix.lower() in IMAGE_SUFFIXES and self._belongs(rel):
                    key = image_key("/".join(rel + (name,)))
                    self.files.setdefault(key, path)

    def _index_tar(self, path: Path) -> None:
        with tarfile.open(path, "r:") as tar:
            for member in tar:
                if member.isfile():
                    self.members.setdefault(image_key(member.name), (path, member.offset_data, member.size))

    def __len__(self) -> int:
        return len(self.files.keys() | self.members.keys())

    @property
    def source(self) -> str:
        """Where the images come from, for reports: extracted files, tar shards or both."""
        kinds = [k for k, v in (("extracted files", self.files), ("tar shards", self.members)) if v]
        return " and ".join(kinds) or "no image files"

    def locate(self, url_or_path: str) -> str | None:
        """Human-readable location of the file for a reference, or None when it is not in the release."""
        key = image_key(path_after_host(url_or_path))
        if key in self.files:
            return str(self.files[key])
        if key in self.members:
            tar, _, _ = self.members[key]
            return f"{tar}:{key}"
        return None

    def read(self, url_or_path: str) -> bytes | None:
        """The file's bytes, or None when the release does not hold it."""
        key = image_key(path_after_host(url_or_path))
        if key in self.files:
            return self.files[key].read_bytes()
        if key in self.members:
            tar, offset, size = self.members[key]
            handle = self._handles.get(tar)
            if handle is None:
                handle = self._handles[tar] = open(tar, "rb")
            handle.seek(offset)
            return handle.read(size)
        return None

    def close(self) -> None:
        for handle in self._handles.values():
            handle.close()
        self._handles.clear()
