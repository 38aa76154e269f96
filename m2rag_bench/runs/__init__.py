"""Run directories: the resolved configuration and stamp, the responses, and resuming."""

from __future__ import annotations

from .layout import RunDir, RunMismatch
from .stamp import build_stamp

__all__ = ["RunDir", "RunMismatch", "build_stamp"]
