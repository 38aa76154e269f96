"""The run directory contract (read by ``evaluate``, the leaderboard and outside tools)::

    RUN_DIR/config.json       the full resolved configuration and stamp (see stamp.py)
    RUN_DIR/responses.jsonl   one line per sample and attempt (schema.Response); the last line of a query wins
    RUN_DIR/summary.json      coverage, calls, tokens, cost and time of the latest invocation

Responses are appended and flushed as each chunk of samples finishes, so an interrupted run keeps them. Re-running
the same command finds the finished samples and skips them; samples that failed are tried again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..files import atomic_write
from ..schema import Response


class RunMismatch(ValueError):
    """The run directory holds a run with another configuration."""


class RunDir:
    CONFIG, RESPONSES, SUMMARY = "config.json", "responses.jsonl", "summary.json"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    @property
    def config_path(self) -> Path:
        return self.path / self.CONFIG

    @property
    def responses_path(self) -> Path:
        return self.path / self.RESPONSES

    def config(self) -> dict[str, Any]:
        return json.loads(self.config_path.read_text(encoding="utf-8"))

    def start(self, config: dict[str, Any]) -> None:
        """Create the directory or check that it holds a run of the same configuration."""
        self.path.mkdir(parents=True, exist_ok=True)
        if self.config_path.exists():
            old = self.config()
            if old.get("fingerprint") != config.get("fingerprint"):
                changed = sorted(k for k in set(old.get("identity", {})) | set(config.get("identity", {}))
                                 if old.get("identity", {}).get(k) != config.get("identity", {}).get(k))
                raise RunMismatch(f"{self.path} holds a run with a different configuration "
                                  f"(differs in: {', '.join(changed) or 'unknown'}); use another --out")
        _write_json(self.config_path, config)

    def responses(self) -> dict[str, Response]:
        """The latest response of each query (bad lines are skipped with a warning naming file and line)."""
        found: dict[str, Response] = {}
        if not self.responses_path.exists():
            return found
        with open(self.responses_path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    response = Response.model_validate_json(line)
                except ValidationError as err:
                    import warnings

                    warnings.warn(f"{self.responses_path}:{number}: skipped, not a valid response "
                                  f"({err.errors()[0]['loc']}: {err.errors()[0]['msg']})", stacklevel=2)
                    continue
                found[response.query_id] = response
        return found

    def finished(self) -> set[str]:
        return {qid for qid, r in self.responses().items() if r.error is None}

    def append(self, responses: list[Response]) -> None:
        with open(self.responses_path, "a", encoding="utf-8") as handle:
            for response in responses:
                handle.write(response.model_dump_json() + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def write_summary(self, summary: dict[str, Any]) -> None:
        _write_json(self.path / self.SUMMARY, summary)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    atomic_write(path, json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")
