"""Where a command's time goes, by phase, when JFI_PROFILE is set: start-up, hashing and reading the inputs, the
rulebook, the checks, writing outputs, the kept store's update; capture's page load, settle, inventory and
accessibility tree, axe-core, pictures and emptying the tab (summed over views: pages captured at once overlap).
The command line prints them beside each rule file's time (`profile: N s  phase: NAME`); `make bench` reads them."""

from __future__ import annotations

import contextlib
import os
import time

TIMES: dict[str, float] = {}  # phase -> seconds, in the order phases first ran


def since_start() -> float | None:
    """Seconds since this process started (the interpreter, its imports, reading the arguments), from the kernel's
    record of the process (Linux; None elsewhere)."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        started = int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19]) / ticks
        return float(open("/proc/uptime").read().split()[0]) - started
    except (OSError, ValueError, IndexError):
        return None


def on() -> bool:
    return bool(os.environ.get("JFI_PROFILE"))


def add(name: str, seconds: float) -> None:
    if on():
        TIMES[name] = TIMES.get(name, 0.0) + seconds


@contextlib.contextmanager
def phase(name: str):
    """The time spent inside the block, added to the phase `name` (nothing is recorded without JFI_PROFILE)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        add(name, time.perf_counter() - start)
