"""A store jfi keeps in a file takes its input layer, its rulebook and its seal each as one commit: DuckDB flushes
its log to disk at every commit, and a statement outside a transaction is a commit of its own (a build made about a
hundred flushes that way; on a disk where a flush costs milliseconds, that is most of a small build)."""

import re
import shutil
import subprocess
import sys

import pytest
from inventories import link, made, view

VIEWS = [view("home", links=[link("Learn more", "/a")], title="Home"), view("fares", title="Fares")]


def syncs(tmp_path, *args) -> int:
    """The flushes to disk (fsync, fdatasync) a jfi command makes, counted by strace."""
    out = tmp_path / "strace.txt"
    done = subprocess.run(
        ["strace", "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", str(out), sys.executable, "-m", "jfi.cli", *args],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 and not out.is_file():
        pytest.skip(f"strace cannot trace here: {done.stderr[-200:]}")
    assert done.returncode == 0, done.stderr
    return sum(
        int(m[1])
        for m in re.finditer(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?f(?:data)?sync$", out.read_text(), re.M)
    )


@pytest.mark.skipif(shutil.which("strace") is None, reason="counting flushes needs strace")
def test_a_build_flushes_to_disk_a_handful_of_times_not_once_per_statement(tmp_path):
    root = made(tmp_path, VIEWS)
    flushes = syncs(tmp_path, "--project", str(tmp_path), "audit", "build", "--inventory", str(root))
    assert (root / ".jfi" / "audit.duckdb").is_file()  # the kept store was made, sealed and put in place
    assert 0 < flushes <= 20, flushes  # each file written, the kept store's commits and its checkpoint
