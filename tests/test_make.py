"""Rebuilds driven by make: the main job is a chain of file targets, so a second `make` runs no jfi command, a
touched input reruns only what reads it, and `make -n` says so."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

VENV = Path(sys.prefix)  # the virtual environment the tests run in (make test: the one make set up)


def _commands(folder: Path, *args: str) -> list[str]:
    """The jfi commands `make -n` would run, as `audit build`, `corpus export`, ..."""
    done = subprocess.run(
        ["make", "-n", *args, f"VENV={VENV}"], cwd=folder, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return re.findall(r"/jfi (?:--project \S+ )?((?:audit|corpus) [a-z-]+)", done.stdout)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.slow
def test_a_second_make_runs_nothing_and_a_touched_input_reruns_only_what_reads_it(tmp_path):
    if not (VENV / ".installed").is_file() or not (VENV / ".browser").is_file():
        pytest.skip("the project's virtual environment is not set up by make")
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(REPO / name, tmp_path / name)
    os.utime(tmp_path / "pyproject.toml", (0, 0))  # older than the environment: nothing to reinstall
    shutil.copytree(REPO / "sql", tmp_path / "sql")
    for name in ("example-site", "example-project"):
        shutil.copytree(REPO / "corpus" / name, tmp_path / "corpus" / name)
    first = _commands(tmp_path)
    assert first[:2] == ["corpus validate", "corpus export"] and "audit inventory" in first and "audit report" in first
    done = subprocess.run(["make", f"VENV={VENV}"], cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (tmp_path / "exports" / "audit" / "report.html").is_file()
    assert _commands(tmp_path) == []  # everything is up to date
    judged = tmp_path / "exports" / "audit" / "batches" / "harbor-title-01.judged.jsonl"
    os.utime(judged)  # a judged batch came back again
    assert sorted(_commands(tmp_path)) == [
        "audit merge",
        "audit receipts",
        "audit report",
        "audit sample",
        "audit worklist",
    ]
    os.utime(tmp_path / "corpus" / "example-site" / "fares.html")  # the site changed: capture and all after it
    again = _commands(tmp_path)
    assert again[0] == "audit inventory" and "audit build" in again and "corpus export" not in again
