"""The build report: every problem met while reading a release, with file, line and field, plus counts.

Nothing is dropped silently: each skipped line or unavailable image adds a `Problem`, and the report is written
next to the export (``build_report.json``) and printed as a table.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import ValidationError


@dataclass(frozen=True)
class Problem:
    """One problem in the input: where it is and what is wrong."""

    file: str
    line: int | None
    field: str | None
    message: str
    action: Literal["line skipped", "sample skipped", "image unavailable", "kept"] = "kept"

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        what = f" [{self.field}]" if self.field else ""
        return f"{where}{what}: {self.message} ({self.action})"


@dataclass
class BuildReport:
    """Problems and counts collected while reading a release."""

    problems: list[Problem] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)
        self.counts[f"problems: {problem.action}"] += 1

    def add_validation_error(self, file: str, line: int | None, err: ValidationError, prefix: str = "",
                             action: Literal["line skipped", "sample skipped", "kept"] = "line skipped") -> None:
        """Turn each pydantic error into a problem whose field is the dotted path of the bad value."""
        for e in err.errors():
            loc = ".".join(str(p) for p in e["loc"])
            self.add(Problem(file, line, ".".join(x for x in (prefix, loc) if x), e["msg"], action))

    def merge(self, other: "BuildReport") -> None:
        self.problems.extend(other.problems)
        self.counts.update(other.counts)

    def to_dict(self) -> dict:
        return {"counts": dict(sorted(self.counts.items())), "problems": [asdict(p) for p in self.problems]}

    def write(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def read(cls, path: str | Path) -> "BuildReport":
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls([Problem(**p) for p in data.get("problems", [])], Counter(data.get("counts", {})))
