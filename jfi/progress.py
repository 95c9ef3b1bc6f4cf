"""A progress display for long loops: rich's bar on a terminal; on a pipe, one plain line per step that has a note."""

from __future__ import annotations

import sys
import time

from .output import collecting
from .output import note as say_note


class Progress:
    def __init__(self, total: int, unit: str, problem: str):
        self.total, self.unit, self.problem = total, unit, problem
        self.done, self.problems, self.start = 0, 0, time.monotonic()
        self.bar = None
        if sys.stderr.isatty() and total and not collecting():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bar

            from .output import raw_stream

            self.bar = Bar(
                TextColumn(f"[bold]{unit}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[problems]} " + problem),
                TimeElapsedColumn(),
                console=Console(file=raw_stream(sys.stderr)),
                transient=False,
            )
            self.task = self.bar.add_task(unit, total=total, problems=0)
            self.bar.start()

    def step(self, ok: bool, note: str | None = None) -> None:
        self.done += 1
        self.problems += 0 if ok else 1
        if self.bar is not None:
            self.bar.update(self.task, advance=1, problems=self.problems)
            if self.done >= self.total:
                self.bar.stop()
        elif note:
            say_note(f"{note} ({self.done}/{self.total}, {time.monotonic() - self.start:.1f}s)")
