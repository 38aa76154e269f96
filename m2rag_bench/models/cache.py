"""A persistent, content-keyed cache of model calls (SQLite, one file, safe to share between runs).

The key is the content of the call: backend, model, base URL, the full conversation (images by content hash), the
generation parameters and the prompt template version. Change any of them and the call misses; change none and it
hits, so re-running finished work costs nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from .base import Call, Completion
from .messages import canonical

SCHEMA_VERSION = 1


def default_cache_path() -> Path:
    root = os.environ.get("M2RAG_BENCH_CACHE") or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "m2rag_bench"
    return Path(root) / "calls.sqlite"


def call_key(identity: dict[str, Any], call: Call) -> str:
    """sha256 of the canonical JSON of everything that determines the call's output."""
    payload = {
        "v": SCHEMA_VERSION,
        "backend": {k: identity.get(k) for k in ("backend", "model", "base_url", "revision")},
        "messages": canonical(call.conversation),
        "params": call.params.to_dict(),
        "template": call.template,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


class CallCache:
    """Completed calls by key. Only successful completions are stored: failures are retried next time."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # safe with WAL; a sync per call would stall the event loop
        self._db.execute("CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, completion TEXT NOT NULL, "
                         "created REAL NOT NULL)")
        self._db.commit()

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = self._db.execute("SELECT completion FROM calls WHERE key = ?", (key,)).fetchone()
        return Completion.from_dict(json.loads(row[0]), cached=True) if row else None

    def put(self, key: str, completion: Completion) -> None:
        if not completion.ok:
            return
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO calls VALUES (?, ?, ?)",
                             (key, json.dumps(completion.to_dict(), ensure_ascii=False), time.time()))
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM calls").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
