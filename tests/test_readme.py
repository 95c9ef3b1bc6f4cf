"""The README's commands: the tour runs line by line as written; every synopsis (README and docs/) names commands and
options that exist."""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from conftest import REPO

from jfi.cli import app

README = (REPO / "README.md").read_text(encoding="utf-8")


def sh_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, re.S)


def command_lines(block: str) -> list[str]:
    """A block's lines, continuation lines joined; comment-only lines dropped."""
    joined = re.sub(r"\\\n\s*", " ", block)
    return [line for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


TOUR = README[README.index("## A five-minute tour\n") :]
TOUR = TOUR[: TOUR.index("\n## ", 4)]


@pytest.mark.slow
def test_the_tour_runs_line_by_line_as_written(tmp_path):
    """On a folder laid out as the repository (its bundled example), each line exits 0, or 1 where it says so."""
    for name in ("example-site", "example-project"):
        shutil.copytree(REPO / "corpus" / name, tmp_path / "corpus" / name)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    lines = [line for block in sh_blocks(TOUR) for line in command_lines(block)]
    assert sum(line.startswith("jfi ") for line in lines) >= 20
    for line in lines:
        done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        expected = 1 if "exits 1" in line.partition("#")[2] else 0
        assert done.returncode == expected, (line, done.stdout[-2000:], done.stderr[-2000:])
        assert "Traceback" not in done.stderr, (line, done.stderr)
    assert (tmp_path / "audits" / "site" / "report.html").is_file()
    assert "RATIFIED" in (tmp_path / "audits" / "site" / "draft-judgments.csv").read_text(encoding="utf-8")
    assert (tmp_path / "my-corpus" / "exports" / "jfi.duckdb").is_file()


def _command(words: list[str]):
    """The command a synopsis names (a group has `commands`) and the words after it."""
    command = typer.main.get_command(app)
    rest = list(words)
    while hasattr(command, "commands") and rest and rest[0] in command.commands:
        command = command.commands[rest.pop(0)]
    return command, rest


def _options(command) -> set[str]:
    return {name for param in command.params for name in (*param.opts, *param.secondary_opts)}


DOCS = [README] + [p.read_text(encoding="utf-8") for p in sorted((REPO / "docs").glob("*.md"))]
SYNOPSES = [
    line
    for text in DOCS
    for block in sh_blocks(text)
    for line in command_lines(block)
    if line.startswith("jfi ") and block not in sh_blocks(TOUR)
]


@pytest.mark.parametrize("line", SYNOPSES)
def test_every_synopsis_names_a_command_and_options_that_exist(line):
    words = shlex.split(line.partition(" #")[0], posix=True)[1:]
    root = typer.main.get_command(app)
    while words and words[0] in ("-C", "--project"):  # the global option and its value
        words = words[2:]
    command, rest = _command(words)
    assert not hasattr(command, "commands"), f"{line!r} names no command"
    known = _options(command) | _options(root) | {"--help"}
    for word in rest:
        for option in re.findall(r"(?:^|[\[|])(--?[a-zA-Z][\w-]*)", word):
            assert option in known, f"{line!r}: {option} is not an option of `{command.name}`"


def test_the_synopses_are_found():
    assert len(SYNOPSES) >= 30 and any("--shard" in line for line in SYNOPSES)
