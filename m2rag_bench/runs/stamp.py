"""The reproducibility stamp of a run: versions, revisions, dataset identity and every setting that shapes calls."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import platform
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .._version import __version__


def git_revision() -> str | None:
    """The git commit of the package's checkout, with ``-dirty`` when it has local changes (None if not a checkout)."""
    root = Path(__file__).resolve().parents[2]
    try:
        rev = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5).stdout.strip()
        return rev + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return None


def versions(*names: str) -> dict[str, str | None]:
    found = {}
    for name in names:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = None
    return found


def files_digest(paths: list[Path]) -> str:
    """sha256 over the bytes of files (sorted by name): the identity of a local dataset's data."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(path.name.encode())
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def fingerprint(identity: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()[:16]


def build_stamp(identity: dict[str, Any], extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """``config.json``: what identifies the run's outputs (``identity``, fingerprinted) plus environment facts."""
    return {
        "fingerprint": fingerprint(identity),
        "identity": identity,
        "package_version": __version__,
        "git_revision": git_revision(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "libraries": versions("datasets", "openai", "transformers", "torch", "vllm", "sentence-transformers"),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        **(extra or {}),
    }
