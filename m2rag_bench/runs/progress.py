"""A rich progress display with one bar per strategy stage (reused across chunks)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ..models.base import Progress as Advance


class StageBars:
    """``stage(name, total)`` returns a callback advancing that stage's bar; totals grow as chunks arrive."""

    def __init__(self, console: Console | None = None) -> None:
        self.progress = Progress(TextColumn("{task.description:<22}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), TimeRemainingColumn(), console=console or Console(stderr=True),
                                 transient=False)
        self.tasks: dict[str, int] = {}
        self.totals: dict[str, int] = {}

    def __enter__(self) -> "StageBars":
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)

    def __call__(self, name: str, total: int) -> Advance:
        self.totals[name] = self.totals.get(name, 0) + total
        if name not in self.tasks:
            self.tasks[name] = self.progress.add_task(name, total=total)
        else:
            self.progress.update(self.tasks[name], total=self.totals[name])
        task = self.tasks[name]
        return lambda n: self.progress.advance(task, n)
