"""A progress line for long loops: a bar on a terminal; on a pipe, one plain line per step that has a note."""
from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, unit: str, problem: str):
        self.total, self.unit, self.problem = total, unit, problem
        self.done, self.problems, self.start = 0, 0, time.monotonic()
        self.tty = sys.stderr.isatty()

    def step(self, ok: bool, note: str | None = None) -> None:
        self.done += 1
        self.problems += 0 if ok else 1
        elapsed = time.monotonic() - self.start
        if self.tty and self.total:
            filled = 30 * self.done // self.total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} {self.unit}, "
                             f"{self.problems} {self.problem}, {elapsed:5.1f}s" + ("\n" if self.done == self.total else ""))
        elif not self.tty and note:
            sys.stderr.write(f"{note} ({self.done}/{self.total}, {elapsed:.1f}s)\n")
        sys.stderr.flush()
