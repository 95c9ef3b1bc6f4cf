"""The Python API: what the command line does, as calls that return results instead of printing.

    import jfi
    corpus = jfi.open_corpus("corpus/example-project")
    corpus.validate().data["counts"]            # the report `jfi corpus validate --json` prints
    corpus.query("SELECT status, count(*) AS n FROM corpus_items GROUP BY status")

    audit = jfi.import_inventory("inventory-run.json", "audits/imported")   # or jfi.open_audit(folder)
    audit.build().data["unit_count"]
    audit.merge()
    audit.query("SELECT id, flags FROM audit_units WHERE len(flags) > 0")

A refused call raises jfi.JfiError (its code, message, file, line and field, and the problems behind it); the
files are then byte-identical, as with the command line. A call that goes through returns a Result: its exit
status (0 done, 1 nothing to do or goals not met), what it said and, where there is one, its data.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import JfiError
from .jsonl import forget_hashes
from .output import collected


@dataclass
class Result:
    """What a command did: its exit status, what it told its user (stdout lines, stderr notes), its data."""
    code: int
    said: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    data: Any = None

    @property
    def ok(self) -> bool:
        return self.code == 0

    @property
    def text(self) -> str:
        return "\n".join(self.said)


def _run(command, *args, **kwargs) -> Result:
    """A workflow command run with its words collected; what it said as one JSON document is its data."""
    said: list[tuple[str, str]] = []
    forget_hashes()  # each call starts from what its kept store recorded of the files, as each command does
    with collected(lambda stream, text: said.append((stream, text))):
        code = command(*args, **kwargs)
    result = Result(code or 0, [t for s, t in said if s == "out"], [t for s, t in said if s == "err"])
    try:
        result.data = json.loads(result.text) if result.text.lstrip().startswith(("{", "[")) else None
    except ValueError:
        pass
    return result


def _records(columns: list[str], rows: list[tuple]) -> list[dict]:
    return [dict(zip(columns, row)) for row in rows]


class Corpus:
    """A functional-images corpus project (corpus/functional-images.jsonl, rounds/)."""

    def __init__(self, root: str | Path, profile: str | None = None):
        from .corpus.project import CorpusProject
        self.project = CorpusProject.at(Path(root), profile=profile).require()

    @property
    def root(self) -> Path:
        return self.project.root

    def validate(self, target: int | None = None) -> Result:
        """The validation report (data: the dict `corpus validate --json` prints); code 0 complete, 1 short of the
        goal, 2 violations (listed in data["errors"])."""
        from .corpus import validate
        report, code = validate.report(self.project, self.project.resolve_goal(target))
        return Result(code, data=report)

    def export(self, out: str | Path | None = None, fmt: str = "all", target: int | None = None) -> Result:
        """CSV, JSONL, Parquet, corpus.xlsx and jfi.duckdb in `out` (default: the project's exports/)."""
        from .corpus import export
        where = Path(out) if out is not None else self.root / "exports"
        result = _run(export.run, self.project, where, fmt, self.project.resolve_goal(target))
        result.data = where
        return result

    def query(self, sql: str) -> list[dict]:
        """One read statement over the corpus's views (see `jfi schema corpus`), as a list of rows."""
        from . import querying
        return _records(*querying.rows(self.project, sql))


class Audit:
    """A content-judgment audit folder (an inventory, and what build, judges and ratifiers made of it)."""

    def __init__(self, folder: str | Path):
        from .audit.folder import AuditFolder
        self.folder = AuditFolder(Path(folder))

    @property
    def root(self) -> Path:
        return self.folder.root

    def build(self, batch: int = 90) -> Result:
        """Judgment units, flags, the navigation-order check and judge batches (data: the build summary)."""
        from .audit import build
        return _run(build.run, self.folder, batch)

    def sample(self, seed: str = "") -> Result:
        from .audit import judging
        return _run(judging.sample, self.folder, seed)

    def merge(self) -> Result:
        """draft-judgments.csv/.json/.xlsx, per-product CSVs, nav-consistency.csv and calibration.json (data: the
        tally of rows by status and the files written)."""
        from .audit import judging
        return _run(judging.merge, self.folder)

    def worklist(self) -> Result:
        from .audit import worklist
        return _run(worklist.worklist, self.folder)

    def receipts(self) -> Result:
        from .audit import judging
        return _run(judging.receipts, self.folder)

    def report(self) -> Result:
        """report.html, to open in a browser (data: its path)."""
        from .audit.report import report
        result = _run(report, self.folder)
        result.data = self.root / "report.html"
        return result

    def export(self, out: str | Path | None = None) -> Result:
        """audit.duckdb and Parquet files for analysts (default: in the folder)."""
        from .audit.export import export
        return _run(export, self.folder, Path(out) if out is not None else None)

    def query(self, sql: str) -> list[dict]:
        """One read statement over the audit's views (see `jfi schema audit`), as a list of rows."""
        from . import querying
        return _records(*querying.rows(None, sql, inventory=self.root))


def open_corpus(root: str | Path = ".", profile: str | None = None) -> Corpus:
    return Corpus(root, profile)


def open_audit(folder: str | Path) -> Audit:
    return Audit(folder)


def import_inventory(manifest: str | Path, out: str | Path, *, replace: bool = False) -> Audit:
    """Take in a content-inventory/v1 manifest made elsewhere as a new audit folder (replace: over an audit already
    there), and open it."""
    from .capture import import_inventory as importer
    _run(importer.run, Path(manifest), Path(out), replace=replace)
    return Audit(out)


__all__ = ["Audit", "Corpus", "JfiError", "Result", "import_inventory", "open_audit", "open_corpus"]
