"""Running `python -m m2rag_bench` in a subprocess as a user would: offline, with its own cache and home."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def cli_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment of `run_cli`, plus ``extra`` variables."""
    return {"PATH": "/usr/bin:/bin", "M2RAG_BENCH_CACHE": str(tmp / "cache"), "HF_HUB_OFFLINE": "1",
           "HF_DATASETS_OFFLINE": "1", "PYTHONPATH": str(REPO), "COLUMNS": "200", "HOME": str(tmp),
           "RAGAS_DO_NOT_TRACK": "true", **extra}


def run_cli(tmp: Path, *args: str, timeout: int = 600, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The CLI with ``args`` in ``tmp`` (its cwd, home and call cache); nothing from the caller's environment leaks in
    (``env`` adds variables)."""
    env = cli_env(tmp, **(env or {}))
    return subprocess.run([sys.executable, "-m", "m2rag_bench", *args], env=env, capture_output=True, text=True,
                          cwd=tmp, timeout=timeout)
