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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .audit.formats import CODE_SCANNING
from .errors import JfiError
from .jsonl import forget_hashes
from .output import Outcome, collected


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
def _root_command():
    import typer.main

    from .cli import app

    return typer.main.get_command(app)


def _node(command: str):
    node = _root_command()
    for word in command.split():
        node = node.commands[word]
    return node


@functools.lru_cache(maxsize=None)
def _params(command: str) -> dict:
    """The options of a command as the command line declares them (its click command is made once per process)."""
    return {p.name: p for p in _node(command).params}


def _invoke(command: str, project: str | Path = ".", **options) -> Result:
    """A command of the command line (its words: "audit review export") run with these options, as the command line
    reads them (the same conversions, defaults and checks), its words collected instead of printed; a refusal is
    raised (JfiError). What it said as one JSON document is its data."""
    from . import cli

    _checked(command, **options)
    params = _params(command)
    argv = ["--project", str(project), *command.split()]
    positional = []
    for name, value in options.items():
        p = params[name]
        if value is None or (value is False and getattr(p, "is_flag", False)):
            continue
        values = list(value) if isinstance(value, (list, tuple)) else [value]
        if p.param_type_name == "argument":
            positional += [str(v) for v in values]
        elif getattr(p, "is_flag", False):
            argv.append(p.opts[0])
        else:
            for v in values:
                argv += [p.opts[0], str(v)]
    token = cli._CALLED.set(True)
    try:
        args = [*argv, "--", *positional] if positional else argv  # a value starting with - is a value, not an option
        return _run(lambda: _root_command().main(args=args, standalone_mode=False, prog_name="jfi"))
    finally:
        cli._CALLED.reset(token)


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
        many = getattr(param, "multiple", False) or param.nargs == -1
        for item in value if many and isinstance(value, (list, tuple)) else [value]:
            if not takes[kind.name](item):  # a type of option not named here fails loudly, in the tests
                raise JfiError(
                    "invalid_argument",
                    f"{name} is {type(item).__name__}; `jfi {command}` takes {kind.name}",
                    field=name,
                    exit_code=3,
                )
            try:
                kind.convert(item, param, None)
            except Exception as e:  # typer's click reports a value out of its range or choices
                raise JfiError(
                    "invalid_argument", f"{name}: {getattr(e, 'message', e)}", field=name, exit_code=3
                ) from None


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
    report = code if isinstance(code, Outcome) else None  # a command's report, as the object it is
    if report is not None:
        code = report.code
        if (shown := report.shown()) is not None:
            said.append(("out", shown))  # what the command line would print
        said += [("out", line) for line in report.lines] + [("err", line) for line in report.notes]
    result = Result(code or 0, [t for s, t in said if s == "out"], [t for s, t in said if s == "err"])
    if report is not None:
        result.data = report.data
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

    def __init__(
        self,
        root: str | Path,
        profile: str | None = None,
        corpus: str | Path | None = None,
        rounds: str | Path | None = None,
    ):
        from .corpus.project import CorpusProject

        _path("root", root)
        self.project = CorpusProject.at(
            Path(root), Path(corpus) if corpus else None, Path(rounds) if rounds else None, profile=profile
        ).require()

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
        """CSV, JSONL, Parquet, corpus.xlsx and jfi.duckdb in `out` (default: the project's exports/); data: the files
        written, the profile and the rulebook's sha256."""
        from .corpus import export

        _checked("corpus export", fmt=fmt, out=out, target=target)
        where = Path(out) if out is not None else self.root / "exports"
        return _run(export.run, self.project, where, fmt, self.project.resolve_goal(target))

    def query(self, sql: str) -> list[dict]:
        """One read statement over the corpus's views (see `jfi schema corpus`), as a list of rows."""
        from . import querying

        _checked("query", sql=sql)
        return _records(*querying.rows(self.project, sql))

    # the other commands of `jfi corpus`, with the command line's options
    def profile(self, name: str | None = None) -> Result:
        return _invoke("corpus profile", self.root, name=name)

    def target(self, n: int) -> Result:
        return _invoke("corpus target", self.root, n=n)

    def apply_verdicts(self, round_no: int, dry_run: bool = False) -> Result:
        return _invoke("corpus apply-verdicts", self.root, round_no=round_no, dry_run=dry_run)

    def migrate(self, to: str, sector: str | None = None, dry_run: bool = False) -> Result:
        return _invoke("corpus migrate", self.root, to=to, sector=sector, dry_run=dry_run)

    def apply_review(self, batch: int, dry_run: bool = False) -> Result:
        return _invoke("corpus apply-review", self.root, batch=batch, dry_run=dry_run)

    def second_pass_extract(self, round_no: int, replace: bool = False) -> Result:
        return _invoke("corpus second-pass extract", self.root, round_no=round_no, replace=replace)

    def second_pass_apply(self, round_no: int, dry_run: bool = False) -> Result:
        return _invoke("corpus second-pass apply", self.root, round_no=round_no, dry_run=dry_run)

    def fetch_images(self, dry_run: bool = False, verify: bool = False) -> Result:
        return _invoke("corpus fetch-images", self.root, dry_run=dry_run, verify=verify)


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
        return _invoke("audit build", inventory=self.root, batch=batch)

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
        role: str = "drafter",
    ) -> Result:
        """Drafts from a model endpoint (`jfi audit judge`): batches/<batch>.judged.jsonl for each batch without one,
        or, with second_reader, spot-checks.jsonl from the sample; role detector writes pre-sorting only."""
        return _invoke(
            "audit judge",
            inventory=self.root,
            endpoint=endpoint,
            model=model,
            api_key_env=api_key_env,
            batch=batch,
            jobs=jobs,
            timeout=timeout,
            retries=retries,
            temperature=temperature,
            dry_run=dry_run,
            no_cache=no_cache,
            images=images,
            second_reader=second_reader,
            role=role,
        )

    def sample(self, seed: str = "") -> Result:
        return _invoke("audit sample", inventory=self.root, seed=seed)

    def merge(self) -> Result:
        """draft-judgments.csv/.json/.xlsx, per-product CSVs, nav-consistency.csv and calibration.json (data: the
        tally of rows by status and the files written)."""
        return _invoke("audit merge", inventory=self.root)

    def worklist(self) -> Result:
        return _invoke("audit worklist", inventory=self.root)

    def receipts(self) -> Result:
        return _invoke("audit receipts", inventory=self.root)

    def report(self, shot: str | Path | None = None) -> Result:
        """report.html, to open in a browser (data: its path and rows); shot: a PNG picture of it besides."""
        return _invoke("audit report", inventory=self.root, shot=shot)

    def export(
        self,
        out: str | Path | None = None,
        fmt: str = "duckdb",
        flags_fail: bool = False,
        max_results: int = CODE_SCANNING,
    ) -> Result:
        """audit.duckdb and Parquet files for analysts (default: in the folder), or the results in a published
        format: fmt sarif, junit, earl or openacr (flags_fail: JUnit counts a decisive flag as a failure;
        max_results: the most results SARIF holds, the lowest levels left out first, 0 for every one)."""
        return _invoke(
            "audit export", inventory=self.root, out=out, fmt=fmt, flags_fail=flags_fail, max_results=max_results
        )

    def judge_kit(self, images: bool = False) -> Result:
        return _invoke("audit judge-kit", inventory=self.root, images=images)

    def rule(
        self,
        ruling: str,
        sentence: str,
        by: str,
        judgment: str,
        *,
        family: str | None = None,
        fact_class: str | None = None,
        utc: str | None = None,
        fix: str | None = None,
    ) -> Result:
        """One ruling for a whole worklist family or fact class, a ledger record per row."""
        return _invoke(
            "audit rule",
            inventory=self.root,
            family=family,
            fact_class=fact_class,
            ruling=ruling,
            sentence=sentence,
            by=by,
            judgment=judgment,
            utc=utc,
            fix=fix,
        )

    def diff(self, frm: int | None = None, to: int | None = None, as_json: bool = True) -> Result:
        """What changed between two merges (data: the changes)."""
        return _invoke("audit diff", inventory=self.root, frm=frm, to=to, as_json=as_json)

    def gate(
        self, baseline: str | Path | None = None, fail_on: str = "objective", write_baseline: str | Path | None = None
    ) -> Result:
        """The CI gate: code 0 when every finding is in the baseline, 1 naming each new one."""
        return _invoke(
            "audit gate", inventory=self.root, baseline=baseline, fail_on=fail_on, write_baseline=write_baseline
        )

    def eval(
        self,
        expectations: str | Path,
        run: list[str] | None = None,
        *,
        overrides: str | Path | None = None,
        judge: list[str] | None = None,
        draws: int = 2,
        endpoint: str | None = None,
        api_key_env: str | None = None,
        temperature: float = 0.7,
    ) -> Result:
        """Judges scored against planted expectations (eval.json, eval.md)."""
        return _invoke(
            "audit eval",
            inventory=self.root,
            expectations=expectations,
            overrides=overrides,
            run=run,
            judge=judge,
            draws=draws,
            endpoint=endpoint,
            api_key_env=api_key_env,
            temperature=temperature,
        )

    def review_export(
        self, out: str | Path, include_all: bool = False, reviewers: int = 1, by: str | None = None
    ) -> Result:
        """A review bundle: one task per decision."""
        return _invoke(
            "audit review export", inventory=self.root, out=out, include_all=include_all, reviewers=reviewers, by=by
        )

    def review_apply(self, bundle: str | Path, responses: str | Path) -> Result:
        """A returned bundle's decisions into the ledger, all or nothing."""
        return _invoke("audit review apply", inventory=self.root, bundle=bundle, responses=responses)

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


class Verification:
    """A verification folder: artifact versions, claims and checkpoints (`jfi verify`)."""

    def __init__(self, folder: str | Path = "verification", project: str | Path = "."):
        _path("folder", folder)
        self.folder, self.project = Path(folder), Path(project)

    def snapshot(self, paths: list[str | Path]) -> Result:
        return _invoke("verify snapshot", self.project, paths=paths, folder=self.folder)

    def checkpoint(
        self, screenshot: str | Path, version: str | None = None, changes: str = "", known_issues: str = ""
    ) -> Result:
        return _invoke(
            "verify checkpoint",
            self.project,
            screenshot=screenshot,
            version=version,
            changes=changes,
            known_issues=known_issues,
            folder=self.folder,
        )

    def import_claims(self, source: str | Path) -> Result:
        return _invoke("verify import", self.project, source=source, folder=self.folder)

    def measure(self, url: str, bindings: str | Path, out: str | Path, viewport: str = "1440x900") -> Result:
        return _invoke("verify measure", self.project, url=url, bindings=bindings, out=out, viewport=viewport)

    def gate(self) -> Result:
        return _invoke("verify gate", self.project, folder=self.folder)


def open_corpus(
    root: str | Path = ".",
    profile: str | None = None,
    corpus: str | Path | None = None,
    rounds: str | Path | None = None,
) -> Corpus:
    return Corpus(root, profile, corpus, rounds)


def init_corpus(root: str | Path, target: int | None = None, profile: str | None = None) -> Corpus:
    """A new corpus project in `root` (`jfi corpus init`), opened."""
    _invoke("corpus init", root, target=target, profile=profile)
    return Corpus(root, profile)


def open_verification(folder: str | Path = "verification", project: str | Path = ".") -> Verification:
    return Verification(folder, project)


def capture(out: str | Path, **options) -> Audit:
    """Capture pages into a new audit folder (`jfi audit inventory`: the same options, by their names: urls_file,
    serve, settle, viewport, workers, ...), and open it."""
    _invoke("audit inventory", out=out, **options)
    return Audit(out)


def combine(shards: list[str | Path], out: str | Path, replace: bool = False) -> Audit:
    """Shard folders captured apart, combined into one audit folder (`jfi audit combine`), opened."""
    _invoke("audit combine", shards=shards, out=out, replace=replace)
    return Audit(out)


def query(
    sql: str,
    fmt: str = "json",
    inventory: str | Path | None = None,
    verify: str | Path | None = None,
    timeout: float = 60.0,
    memory_limit: str | None = None,
    project: str | Path = ".",
) -> Result:
    """`jfi query` as the command line runs it (data: the rows, as dicts of Python values, whatever the format)."""
    return _invoke(
        "query",
        project,
        sql=sql,
        fmt=fmt,
        inventory=inventory,
        verify=verify,
        timeout=timeout,
        memory_limit=memory_limit,
    )


def schema(
    section: str | None = None, json_out: bool = True, include_all: bool = False, json_schema: str | None = None
) -> Result:
    """`jfi schema` (data: the views and their columns)."""
    return _invoke("schema", section=section, json_out=json_out, include_all=include_all, json_schema=json_schema)


def open_audit(folder: str | Path) -> Audit:
    return Audit(folder)


def import_inventory(manifest: str | Path, out: str | Path, *, replace: bool = False) -> Audit:
    """Take in a content-inventory/v1 manifest made elsewhere as a new audit folder (replace: over an audit already
    there), and open it."""
    _invoke("audit import-inventory", manifest=manifest, out=out, replace=replace)
    return Audit(out)


__all__ = [
    "Audit",
    "Corpus",
    "JfiError",
    "Result",
    "Verification",
    "capture",
    "combine",
    "import_inventory",
    "init_corpus",
    "open_audit",
    "open_corpus",
    "open_verification",
    "query",
    "schema",
]

# Every command of the command line and its call here, with the options the call's object holds instead (the audit
# folder, the verification folder, how a corpus was opened) or that only choose how the command line prints (json_out:
# a call returns the data): tests/test_api.py fails on a command without a call, or an option the call does not take.
CALLS = {
    "corpus init": (init_corpus, ()),
    "corpus profile": (Corpus.profile, ()),
    "corpus validate": (Corpus.validate, ("json_out", "corpus", "rounds", "profile")),
    "corpus target": (Corpus.target, ()),
    "corpus apply-verdicts": (Corpus.apply_verdicts, ()),
    "corpus migrate": (Corpus.migrate, ()),
    "corpus apply-review": (Corpus.apply_review, ()),
    "corpus second-pass extract": (Corpus.second_pass_extract, ()),
    "corpus second-pass apply": (Corpus.second_pass_apply, ()),
    "corpus fetch-images": (Corpus.fetch_images, ()),
    "corpus export": (Corpus.export, ()),
    "audit inventory": (capture, ()),
    "audit combine": (combine, ()),
    "audit import-inventory": (import_inventory, ()),
    "audit build": (Audit.build, ("inventory",)),
    "audit judge": (Audit.judge, ("inventory",)),
    "audit judge-kit": (Audit.judge_kit, ("inventory",)),
    "audit sample": (Audit.sample, ("inventory",)),
    "audit merge": (Audit.merge, ("inventory",)),
    "audit receipts": (Audit.receipts, ("inventory",)),
    "audit worklist": (Audit.worklist, ("inventory",)),
    "audit rule": (Audit.rule, ("inventory",)),
    "audit report": (Audit.report, ("inventory",)),
    "audit export": (Audit.export, ("inventory",)),
    "audit diff": (Audit.diff, ("inventory",)),
    "audit gate": (Audit.gate, ("inventory",)),
    "audit eval": (Audit.eval, ("inventory",)),
    "audit review export": (Audit.review_export, ("inventory",)),
    "audit review apply": (Audit.review_apply, ("inventory",)),
    "verify snapshot": (Verification.snapshot, ("folder",)),
    "verify checkpoint": (Verification.checkpoint, ("folder",)),
    "verify import": (Verification.import_claims, ("folder",)),
    "verify measure": (Verification.measure, ()),
    "verify gate": (Verification.gate, ("folder",)),
    "query": (query, ()),
    "schema": (schema, ()),
}
