"""Reading the questions to curate: a jsonl file of objects or a plain text file of one question per line.

jsonl fields: ``query`` (or ``question`` / ``content``; required), ``id`` (or ``query_id``; default: a hash of the
text, so reordering the file changes nothing), ``topic`` (one of the ten benchmark topics; wins over the
classifier), and ``urls`` (pages to read instead of searching the web). Any error stops before any work is done,
with every bad line named as ``file:line [field]: message``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..topics import TOPICS
from .store import CurateError

_TEXT_KEYS = ("query", "question", "content")
_ID_KEYS = ("id", "query_id")


@dataclass(frozen=True)
class QueryInput:
    """One question to curate."""

    query_id: str
    query: str
    topic: str | None = None
    urls: tuple[str, ...] = ()
    line: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"query_id": self.query_id, "query": self.query, "topic": self.topic, "urls": list(self.urls)}


def query_id_for(text: str) -> str:
    """A stable id from the question text."""
    return "q" + hashlib.sha1(" ".join(text.split()).lower().encode("utf-8")).hexdigest()[:10]


def read_queries(path: str | Path) -> list[QueryInput]:
    """Parse a queries file; raise `CurateError` listing every problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CurateError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise CurateError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    lines = text.splitlines()
    is_jsonl = path.suffix.lower() in (".jsonl", ".json", ".ndjson") or any(
        line.lstrip().startswith("{") for line in lines if line.strip())
    problems: list[str] = []
    queries: list[QueryInput] = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or (not is_jsonl and line.lstrip().startswith("#")):
            continue
        where = f"{path}:{number}"
        if not is_jsonl:
            queries.append(QueryInput(query_id_for(line), line.strip(), line=number))
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})")
            continue
        if not isinstance(obj, dict):
            problems.append(f"{where}: expected a JSON object, got {type(obj).__name__}")
            continue
        parsed = _parse_object(obj, where, number, problems)
        if parsed is not None:
            queries.append(parsed)
    seen: dict[str, int] = {}
    for q in queries:
        if q.query_id in seen:
            problems.append(f"{path}:{q.line} [id]: duplicate id {q.query_id!r} (first on line {seen[q.query_id]})")
        seen.setdefault(q.query_id, q.line)
    if problems:
        shown = "\n".join(problems[:20]) + (f"\n… and {len(problems) - 20} more" if len(problems) > 20 else "")
        raise CurateError(f"{len(problems)} problem(s) in the queries file; nothing was done:\n{shown}")
    if not queries:
        raise CurateError(f"{path}: no questions found")
    return queries


def _parse_object(obj: dict[str, Any], where: str, number: int, problems: list[str]) -> QueryInput | None:
    key = next((k for k in _TEXT_KEYS if k in obj), None)
    text = obj.get(key) if key else None
    if not isinstance(text, str) or not text.strip():
        problems.append(f"{where} [{key or 'query'}]: missing or empty question text")
        return None
    id_key = next((k for k in _ID_KEYS if k in obj), None)
    raw_id = obj.get(id_key) if id_key else None
    if raw_id is not None and (not isinstance(raw_id, (str, int)) or not str(raw_id).strip()
                               or "/" in str(raw_id) or str(raw_id).startswith(".")):
        problems.append(f"{where} [{id_key}]: ids must be non-empty strings or numbers without '/': {raw_id!r}")
        return None
    topic = obj.get("topic")
    if topic is not None and topic not in TOPICS:
        problems.append(f"{where} [topic]: unknown topic {topic!r}; use one of: {', '.join(TOPICS)}")
        return None
    urls = obj.get("urls", [])
    if not isinstance(urls, list) or not all(isinstance(u, str) and u.strip() for u in urls):
        problems.append(f"{where} [urls]: expected a list of URL strings")
        return None
    known = set(_TEXT_KEYS) | set(_ID_KEYS) | {"topic", "urls"}
    return QueryInput(str(raw_id) if raw_id is not None else query_id_for(text), text.strip(), topic,
                      tuple(u.strip() for u in urls), number, {k: v for k, v in obj.items() if k not in known})
