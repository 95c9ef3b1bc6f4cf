"""Layout is checked, not argued over: Python is formatted and linted by ruff (pyproject.toml: lines of 120, a string
the formatter cannot break to 130), and every SQL file of the rulebook keeps one layout: UTF-8 with LF endings, no
tab, no trailing space, one final newline, a header comment first, and code lines of at most 120 characters (a
string literal may run longer: a regular expression or a sentence is not broken; header lines are one per meaning)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from jfi import rulebook

ROOT = Path(__file__).resolve().parent.parent
SQL = sorted(rulebook.sql_dir().rglob("*.sql"))


@pytest.mark.parametrize(
    "args", [["check", "jfi", "tests"], ["format", "--check", "jfi", "tests"]], ids=["lint", "format"]
)
def test_python_is_as_ruff_formats_and_lints_it(args):
    r = subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def layout_problems(text: str) -> list[str]:
    out = []
    if "\r" in text:
        out.append("CR line endings")
    if not text.endswith("\n") or text.endswith("\n\n"):
        out.append("not one final newline")
    if not text.startswith("-- "):
        out.append("no header comment on line 1")
    for n, line in enumerate(text.split("\n"), 1):
        if "\t" in line:
            out.append(f"line {n}: a tab")
        if line != line.rstrip():
            out.append(f"line {n}: trailing space")
        code = re.sub(r"'(?:[^']|'')*'", "''", line)
        if not line.lstrip().startswith("--") and len(code) > 120:
            out.append(f"line {n}: {len(code)} characters of code")
    return out


@pytest.mark.parametrize("path", SQL, ids=[p.relative_to(rulebook.sql_dir()).as_posix() for p in SQL])
def test_every_sql_file_keeps_the_layout(path):
    assert layout_problems(path.read_bytes().decode("utf-8")) == []


def test_the_sql_layout_check_finds_what_it_names():
    text = (
        "-- v: a view\nCREATE VIEW v AS\nSELECT 1 AS one,\t2 AS two \n" + "SELECT " + "x, " * 50 + "'a long string'\n\n"
    )
    found = layout_problems(text)
    assert found == [
        "not one final newline",
        "line 3: a tab",
        "line 3: trailing space",
        "line 4: 159 characters of code",
    ]
    assert layout_problems("-- v: fine\nSELECT '" + "a" * 200 + "' AS sentence\n") == []
