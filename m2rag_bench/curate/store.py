"""The curation store: a folder of append-only jsonl files, content-addressed image files and a manifest.

No database server: every finished unit of work (a query judged, a search made, a page read, an image
downloaded, a query's elements scored) is one line appended to its stage's file as soon as it is done, and
flushed. A rerun reads the files back and skips every unit already there, so a killed run loses at most the
units that were in flight. A last line cut short by a kill is ignored (and its unit redone).

Layout of ``OUT/``::

    manifest.json            configuration, judges, per-stage counts and times (rewritten atomically)
    work/<stage>.jsonl       one record per finished unit: {"key": ..., ...}
    work/files/ab/<sha256>.<ext>   downloaded (and converted) images
    work/calls.sqlite        the model-call cache of this curation (so model calls are never paid twice)
    report.json              every dropped element with its stage and reason
    release/                 the output, in the layout `m2rag-bench dataset build --release` reads
"""

from __future__ import annotations

import fcntl
import json
import time
from collections.abc import Iterator
from hashlib import sha256
from pathlib import Path
from typing import Any

from .._version import __version__
from ..files import atomic_write

MANIFEST_VERSION = 1


class CurateError(RuntimeError):
    """A problem the user has to fix (bad queries file, configuration clash, missing credentials)."""


class Store:
    """Read and append the records of one curation folder."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.work = self.root / "work"
        self._handles: dict[str, Any] = {}
        self._cache: dict[str, dict[str, dict[str, Any]]] = {}
        self.truncated: dict[str, int] = {}
        self._lock_handle: Any = None

    # -- manifest ---------------------------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.root / "manifest.json"

    def manifest(self) -> dict[str, Any]:
        if not self.manifest_path.exists():
            return {}
        try:
            return json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise CurateError(f"{self.manifest_path}: not valid JSON ({exc}); move the folder aside or fix it") from exc

    def open(self, config: dict[str, Any]) -> dict[str, Any]:
        """Create the folder, or check that an existing one was made with the same ``config``.

        Only settings both runs state are compared: a run of early stages without a judge, followed by one with a
        judge, is the same curation (the judge is added to the manifest); a different judge or setting is refused.
        """
        self.work.mkdir(parents=True, exist_ok=True)
        self._lock()
        manifest = self.manifest()
        if manifest:
            old = manifest.get("config", {})
            changed = [k for k in sorted(set(old) & set(config)) if old[k] != config[k]]
            if changed:
                details = "; ".join(f"{k}: {old[k]!r} -> {config[k]!r}" for k in changed[:5])
                raise CurateError(f"{self.root} was curated with a different configuration ({details}). "
                                  "Use another --out folder, or the same options as before to resume.")
            if set(config) - set(old):
                manifest["config"] = {**old, **config}
                self.write_manifest(manifest)
        else:
            manifest = {"manifest_version": MANIFEST_VERSION, "package_version": __version__,
                        "created": _now(), "config": config, "stages": {}}
            self.write_manifest(manifest)
        return manifest

    def update(self, **fields: Any) -> None:
        """Set top-level manifest fields (e.g. the judges' identity)."""
        manifest = self.manifest()
        manifest.update(fields)
        self.write_manifest(manifest)

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        atomic_write(self.manifest_path, json.dumps(manifest, indent=2, ensure_ascii=False).encode("utf-8"))

    def update_stage(self, stage: str, **fields: Any) -> None:
        manifest = self.manifest()
        manifest.setdefault("stages", {}).setdefault(stage, {}).update(fields, updated=_now())
        self.write_manifest(manifest)

    # -- records ----------------------------------------------------------------------------------------------
    def path(self, stage: str) -> Path:
        return self.work / f"{stage}.jsonl"

    def records(self, stage: str) -> dict[str, dict[str, Any]]:
        """Every record of a stage by key (a later line for the same key wins)."""
        if stage not in self._cache:
            records: dict[str, dict[str, Any]] = {}
            for record in self._read(stage):
                records[record["key"]] = record
            self._cache[stage] = records
        return self._cache[stage]

    def _read(self, stage: str) -> Iterator[dict[str, Any]]:
        path = self.path(stage)
        if not path.exists():
            return
        with open(path, encoding="utf-8") as handle:
            lines = handle.readlines()
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                if number == len(lines) and not line.endswith("\n"):
                    self.truncated[stage] = self.truncated.get(stage, 0) + 1  # cut short by a kill: redo it
                    self._repair(path, lines[:-1])
                    continue
                raise CurateError(f"{path}:{number}: not valid JSON; the store is damaged (remove the line to redo "
                                  "that unit)") from None
            if not isinstance(record, dict) or "key" not in record:
                raise CurateError(f"{path}:{number} [key]: record without a key")
            yield record

    @staticmethod
    def _repair(path: Path, good: list[str]) -> None:
        atomic_write(path, "".join(good).encode("utf-8"))

    def append(self, stage: str, key: str, record: dict[str, Any]) -> dict[str, Any]:
        """Record one finished unit (written and flushed at once)."""
        if "key" in record and record["key"] != key:
            raise ValueError(f"record for {key!r} carries another key {record['key']!r}")
        record = {"key": key, **record}
        handle = self._handles.get(stage)
        if handle is None:
            handle = self._handles[stage] = open(self.path(stage), "a", encoding="utf-8")
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        handle.flush()
        self.records(stage)[key] = record
        return record

    def forget(self, stage: str, keys: set[str]) -> None:
        """Drop records (``--retry-failed``): rewrite the stage file without them."""
        if not keys:
            return
        self.close()
        kept = [r for r in self._read(stage) if r["key"] not in keys]
        atomic_write(self.path(stage), "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept).encode("utf-8"))
        self._cache.pop(stage, None)

    def close(self) -> None:
        for handle in self._handles.values():
            handle.close()
        self._handles.clear()
        if self._lock_handle is not None:
            self._lock_handle.close()  # releases the lock
            self._lock_handle = None

    def _lock(self) -> None:
        """One process at a time per folder: two writers would interleave their records."""
        if self._lock_handle is not None:
            return
        handle = open(self.work / ".lock", "a+")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise CurateError(f"{self.root} is in use by another m2rag-bench process; wait for it to finish "
                              "(or stop it) and run the command again") from None
        self._lock_handle = handle

    # -- files ------------------------------------------------------------------------------------------------
    def put_file(self, data: bytes, ext: str) -> str:
        """Store bytes under their hash; returns the path relative to ``work/``."""
        digest = sha256(data).hexdigest()
        rel = f"files/{digest[:2]}/{digest}.{ext}"
        path = self.work / rel
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, data)
        return rel

    def get_file(self, rel: str) -> bytes:
        return (self.work / rel).read_bytes()

    def has_file(self, rel: str | None) -> bool:
        return bool(rel) and (self.work / rel).is_file()  # type: ignore[operator]


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
