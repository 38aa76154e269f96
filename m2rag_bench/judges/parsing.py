"""Reading a judge's verdict. Default: strict (JSON, or a final "score: N" line, within 0–10), else missing.
``m2rag-2025-02``: the published rule, the last digit run anywhere in the reply, clipped to 0–10, 0 when none."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from dataclasses import dataclass

_JSON = re.compile(r"\{[^{}]*\}", re.S)
_FINAL = re.compile(r"^\W*(?:score|rating)?\W*(-?\d+(?:\.\d+)?)\s*(?:/\s*10)?\W*$", re.I)


@dataclass(frozen=True)
class Verdict:
    score: float | None  # on the 0–10 scale; None = unparsable
    reason: str | None = None
    problem: str | None = None


def parse_verdict(text: str, compat: bool = False) -> Verdict:
    """The score and reason of a rubric judge's reply."""
    if compat:
        digits = re.findall(r"\d+", text)
        return Verdict(float(min(10, max(0, int(digits[-1])))) if digits else 0.0, None, None)
    for match in reversed(_JSON.findall(text)):
        try:
            obj = json.loads(match)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and "score" in obj:
            return _checked(obj["score"], obj.get("reason"))
    lines = [line.strip() for line in text.strip().split("\n") if line.strip()]
    if lines:
        match = _FINAL.match(lines[-1])
        if match:
            return _checked(match.group(1), " ".join(lines[:-1]) or None)
    return Verdict(None, None, "no JSON object with a score and no final score line")


def _checked(value: object, reason: object) -> Verdict:
    try:
        score = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return Verdict(None, None, f"score is not a number: {value!r}")
    if not 0 <= score <= 10:
        return Verdict(None, None, f"score {score:g} is outside 0-10")
    return Verdict(score, str(reason) if reason is not None else None, None)


def context_tokens(text: str, budget: int, keep: str) -> str:
    """The last (``keep="end"``) or first (``"start"``) ``budget`` tokens of ``text``.

    Tokens are counted with tiktoken's ``o200k_base`` (GPT-4o's) when tiktoken is installed and its vocabulary is
    already on disk (tiktoken would otherwise download it), else approximated by words and punctuation marks.
    """
    enc = _o200k()
    if enc is not None:
        ids = enc.encode(text)
        return enc.decode(ids[-budget:] if keep == "end" else ids[:budget]) if len(ids) > budget else text
    pieces = re.findall(r"\w+|[^\w\s]|\s+", text)
    words = [i for i, p in enumerate(pieces) if not p.isspace()]
    if len(words) <= budget:
        return text
    cut = words[-budget] if keep == "end" else words[budget]
    return "".join(pieces[cut:]) if keep == "end" else "".join(pieces[:cut])


_O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"


@lru_cache(maxsize=1)
def _o200k():  # noqa: ANN202 - tiktoken.Encoding | None
    """GPT-4o's tokenizer, only if its vocabulary is in tiktoken's local cache (never downloaded)."""
    import hashlib
    import os
    import tempfile

    try:
        import tiktoken
    except ImportError:
        return None
    cache = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR") or os.path.join(
        tempfile.gettempdir(), "data-gym-cache")
    if not os.path.exists(os.path.join(cache, hashlib.sha1(_O200K_URL.encode()).hexdigest())):
        return None
    try:
        return tiktoken.get_encoding("o200k_base")
    except Exception:  # noqa: BLE001 - a damaged cache file
        return None
