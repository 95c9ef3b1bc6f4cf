"""Shared fixtures: a CLI runner, the bundled example project copied aside, and a valid item to mutate."""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.testing
from typer.testing import CliRunner

from jfi.cli import app, arguments

# CliRunner.invoke makes the click command from the Typer app anew on every call (about 60 ms, for the same app):
# made once per test process here, and every invocation runs the same command object, as a process running jfi does
if callable(getattr(typer.testing, "_get_command", None)):  # typer's own name for it; without it, nothing changes
    typer.testing._get_command = functools.lru_cache(maxsize=None)(typer.testing._get_command)

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "corpus" / "example-project"

VALID_ITEM = {
    "id": "fi-0001",
    "status": "candidate",
    "round_added": 1,
    "category": 2,
    "subtype": "action-or-toggle-icon",
    "page_url": "https://www.example.com/inbox",
    "domain": "example.com",
    "image_url": "https://example.com/i/g12.svg",
    "image_file": None,
    "image_sha256": None,
    "implementation": "img",
    "element_role": "button",
    "element_html": '<button><img src="/i/g12.svg" alt="gear"></button>',
    "surrounding_text": "",
    "destination": "Opens the account settings panel",
    "observed_alt": "gear",
    "observed_alt_verdict": "wrong",
    "gold_alt": "Settings",
    "gold_alt_rationale": "Names the outcome of activating the control rather than the glyph.",
    "gold_alt_passes": [{"author": "pass-a", "alt": "Settings", "rationale": "Function, not glyph."}],
    "adjudication": None,
    "difficulty": "standard",
    "dual_purpose": False,
    "leakage_check": "File name g12.svg reveals nothing about settings.",
    "leaky": False,
    "retrieved": "2026-08-27",
    "provenance_note": "Reserved example domain, test data.",
}


def item(**changes) -> dict:
    d = copy.deepcopy(VALID_ITEM)
    for k, v in changes.items():
        if v is ...:
            d.pop(k, None)
        else:
            d[k] = v
    return d


def dump(records) -> str:
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def json(self):
        return json.loads(self.stdout)


class Jfi:
    def __init__(self, project: Path):
        self.project = project
        self.runner = CliRunner()

    def __call__(self, *args: str) -> Result:
        r = self.runner.invoke(app, arguments(["--project", str(self.project), *args]), catch_exceptions=False)
        return Result(r.exit_code, r.stdout, r.stderr)

    @property
    def corpus(self) -> Path:
        return self.project / "corpus" / "functional-images.jsonl"

    def write_corpus(self, records) -> Path:
        self.corpus.parent.mkdir(parents=True, exist_ok=True)
        self.corpus.write_text(dump(records) if not isinstance(records, str) else records)
        return self.corpus

    def write_round(self, round_no: int, suffix: str, records) -> Path:
        path = self.project / "rounds" / f"round-{round_no:02d}-{suffix}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump(records) if not isinstance(records, str) else records)
        return path


def snapshot(root: Path) -> dict[str, str]:
    """sha256 of every file under root (the writer lock file aside), to prove nothing was written."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != ".jfi.lock"
    }


def pytest_collection_modifyitems(config, items):
    """The modules holding a slow test (real Chromium, many subprocesses) first, each module's tests in their order:
    `make test` hands whole modules to its workers in this order (--no-loadscope-reorder), so the modules started last
    are quick ones and no worker waits long for the other at the end (xdist's own order, most tests first, left the
    single long tests to the end)."""
    slow = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in slow)


@pytest.fixture(scope="session", autouse=True)
def one_chromium():
    """One Chromium for every capture of a test process (started on the first, closed at the end), as a notebook
    capturing many times keeps one with `jfi.browser.shared()`; each capture still opens its own contexts."""
    from jfi.browser import shared

    with shared():
        yield


@pytest.fixture
def jfi(tmp_path) -> Jfi:
    return Jfi(tmp_path)


@pytest.fixture
def example(tmp_path) -> Jfi:
    dest = tmp_path / "example"
    shutil.copytree(EXAMPLE, dest)
    return Jfi(dest)
