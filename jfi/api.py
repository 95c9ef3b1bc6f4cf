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

import functools
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


@functools.lru_cache(maxsize=None)
def _params(command: str) -> dict:
    """The options of a command as the command line declares them (its click command is made once per process)."""
    import typer.main

    from .cli import app

    node = typer.main.get_command(app)
    for word in command.split():
        node = node.commands[word]
    return {p.name: p for p in node.params}


def _checked(command: str, **values) -> None:
    """The arguments of an API call checked as the command line checks the same options (their type, and the range
    the command line declares): a wrong one is a JfiError (`invalid_argument`, exit status 3 as for a usage error),
    never a TypeError or a database's exception after something was written. The command line's own declarations
    are the one source (jfi.cli)."""
    params = _params(command)
    whole = lambda v: isinstance(v, int) and not isinstance(v, bool)  # noqa: E731
    number = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)  # noqa: E731
    takes = {
        "int": whole,
        "int range": whole,
        "float": number,
        "float range": number,
        "boolean": lambda v: isinstance(v, bool),
        "str": lambda v: isinstance(v, str),
        "choice": lambda v: isinstance(v, str),
        "path": lambda v: isinstance(v, (str, Path)),
    }  # by the names of typer's own click types
    for name, value in values.items():
        param = params[name]
        if value is None and not param.required:
            continue
        kind = param.type
        if not takes[kind.name](value):  # a type of option not named here fails loudly, in the tests
            raise JfiError(
                "invalid_argument",
                f"{name} is {type(value).__name__}; `jfi {command}` takes {kind.name}",
                field=name,
                exit_code=3,
            )
        try:
            kind.convert(value, param, None)
        except Exception as e:  # typer's click reports a value out of its range or choices
            raise JfiError("invalid_argument", f"{name}: {getattr(e, 'message', e)}", field=name, exit_code=3) from None


def _run(command, *args, **kwargs) -> Result:
    """A workflow command run with its words collected; what it said as one JSON document is its data. What the
    command line turns into a refusal is one here too (JfiError): a file that cannot be read or written, input the
    database could not take, a value nested too deeply."""
    said: list[tuple[str, str]] = []
    forget_hashes()  # each call starts from what its kept store recorded of the files, as each command does
    with collected(lambda stream, text: said.append((stream, text))):
        try:
            code = command(*args, **kwargs)
        except JfiError:
            raise
        except OSError as e:
            raise JfiError("io_error", e.strerror or str(e), source=e.filename) from None
        except RecursionError:
            raise JfiError("invalid_json", "a value is nested too deeply to read") from None
        except Exception as e:
            import duckdb

            if not isinstance(e, duckdb.Error):
                raise
            raise JfiError(
                "out_of_memory" if isinstance(e, duckdb.OutOfMemoryException) else "data_error",
                str(e).splitlines()[0][:300],
            ) from None
    result = Result(code or 0, [t for s, t in said if s == "out"], [t for s, t in said if s == "err"])
    try:
        result.data = json.loads(result.text) if result.text.lstrip().startswith(("{", "[")) else None
    except ValueError:
        pass
    return result


def _path(name: str, value) -> None:
    if not isinstance(value, (str, Path)):
        raise JfiError(
            "invalid_argument",
            f"{name} is {type(value).__name__}; a path (str or Path) is needed",
            field=name,
            exit_code=3,
        )


def _records(columns: list[str], rows: list[tuple]) -> list[dict]:
    return [dict(zip(columns, row)) for row in rows]


class Corpus:
    """A functional-images corpus project (corpus/functional-images.jsonl, rounds/)."""

    def __init__(self, root: str | Path, profile: str | None = None):
        from .corpus.project import CorpusProject

        _path("root", root)
        self.project = CorpusProject.at(Path(root), profile=profile).require()

    @property
    def root(self) -> Path:
        return self.project.root

    def validate(self, target: int | None = None) -> Result:
        """The validation report (data: the dict `corpus validate --json` prints); code 0 complete, 1 short of the
        goal, 2 violations (listed in data["errors"])."""
        from .corpus import validate

        _checked("corpus validate", target=target)
        report, code = validate.report(self.project, self.project.resolve_goal(target))
        return Result(code, data=report)

    def export(self, out: str | Path | None = None, fmt: str = "all", target: int | None = None) -> Result:
        """CSV, JSONL, Parquet, corpus.xlsx and jfi.duckdb in `out` (default: the project's exports/)."""
        from .corpus import export

        _checked("corpus export", fmt=fmt, out=out, target=target)
        where = Path(out) if out is not None else self.root / "exports"
        result = _run(export.run, self.project, where, fmt, self.project.resolve_goal(target))
        result.data = where
        return result

    def query(self, sql: str) -> list[dict]:
        """One read statement over the corpus's views (see `jfi schema corpus`), as a list of rows."""
        from . import querying

        _checked("query", sql=sql)
        return _records(*querying.rows(self.project, sql))


class Audit:
    """A content-judgment audit folder (an inventory, and what build, judges and ratifiers made of it)."""

    def __init__(self, folder: str | Path):
        from .audit.folder import AuditFolder

        _path("folder", folder)
        self.folder = AuditFolder(Path(folder))

    @property
    def root(self) -> Path:
        return self.folder.root

    def build(self, batch: int = 90) -> Result:
        """Judgment units, flags, the navigation-order check and judge batches (data: the build summary)."""
        from .audit import build

        _checked("audit build", batch=batch)
        return _run(build.run, self.folder, batch)

    def judge(
        self,
        endpoint: str,
        model: str | None = None,
        *,
        api_key_env: str | None = None,
        batch: list[str] | None = None,
        jobs: int = 4,
        timeout: float = 120.0,
        retries: int = 4,
        temperature: float = 0.0,
        dry_run: bool = False,
        no_cache: bool = False,
        images: bool = False,
        second_reader: str | None = None,
    ) -> Result:
        """Drafts from a model endpoint (`jfi audit judge`): batches/<batch>.judged.jsonl for each batch without one,
        or, with second_reader, spot-checks.jsonl from the sample."""
        from .judge.run import judge

        _checked(
            "audit judge",
            endpoint=endpoint,
            model=model,
            api_key_env=api_key_env,
            jobs=jobs,
            timeout=timeout,
            retries=retries,
            temperature=temperature,
            dry_run=dry_run,
            no_cache=no_cache,
            images=images,
            second_reader=second_reader,
        )
        if (model is None) == (second_reader is None):
            raise JfiError(
                "invalid_argument", "name the drafting judge (model) or the second reader, one of them", exit_code=3
            )
        return _run(
            judge,
            self.root,
            endpoint=endpoint,
            model=model,
            api_key_env=api_key_env,
            only=batch,
            jobs=jobs,
            timeout_s=timeout,
            retries=retries,
            temperature=temperature,
            dry_run=dry_run,
            use_cache=not no_cache,
            images=images,
            second_reader=second_reader,
        )

    def sample(self, seed: str = "") -> Result:
        from .audit import judging

        _checked("audit sample", seed=seed)
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

        _checked("audit export", out=out)
        return _run(export, self.folder, Path(out) if out is not None else None)

    def plan(self, command: str):
        """What `jfi audit <command>` would run here, computed without running it (jfi.audit.plan.Plan: the rule
        files in order, whether each runs and why, the input files changed since the kept store)."""
        from .audit.plan import plan

        return plan(self.folder, command)

    def query(self, sql: str) -> list[dict]:
        """One read statement over the audit's views (see `jfi schema audit`), as a list of rows."""
        from . import querying

        _checked("query", sql=sql)
        return _records(*querying.rows(None, sql, inventory=self.root))


def open_corpus(root: str | Path = ".", profile: str | None = None) -> Corpus:
    return Corpus(root, profile)


def open_audit(folder: str | Path) -> Audit:
    return Audit(folder)


def import_inventory(manifest: str | Path, out: str | Path, *, replace: bool = False) -> Audit:
    """Take in a content-inventory/v1 manifest made elsewhere as a new audit folder (replace: over an audit already
    there), and open it."""
    from .capture import import_inventory as importer

    _checked("audit import-inventory", manifest=manifest, out=out, replace=replace)
    _run(importer.run, Path(manifest), Path(out), replace=replace)
    return Audit(out)


__all__ = ["Audit", "Corpus", "JfiError", "Result", "import_inventory", "open_audit", "open_corpus"]
