"""The `jfi` command line: a thin layer that parses options, calls one module, prints and exits.

Exit codes everywhere: 0 ok or complete, 1 nothing to do or goals not yet met, 2 refused or invalid
input (nothing written), 3 usage error.
"""

from __future__ import annotations

import contextvars
import functools
import gc
import json
import os
import signal
import sys
import threading
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .audit.formats import CODE_SCANNING, FORMATS
from .errors import JfiError
from .jsonl import forget_hashes
from .output import Outcome, Shown, dumps, err, say
from .version import __version__

try:  # usage errors exit 3, not click's 2, so that 2 always means "refused input"
    from typer._click.exceptions import UsageError as _UsageError
except ImportError:  # pragma: no cover - older typer uses click itself
    from click.exceptions import UsageError as _UsageError
_UsageError.exit_code = 3

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    help="jfi: JSONL sources of truth, versioned SQL rules in DuckDB, exports back out.",
)
corpus_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="The functional-images corpus: validate, review rounds, second passes, images, exports.",
)
second_pass_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Blind second passes: hand out items without answers, then take the answers in.",
)
audit_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Content-judgment audits: capture pages, build judgment units, judge, merge, ratify.",
)
review_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="The review loop: pinned task bundles out, signed decisions back into the ledger.",
)
audit_app.add_typer(review_app, name="review")
verify_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Verification checkpoints: artifact versions, claims, spatial measurement, the completion gate.",
)
app.add_typer(corpus_app, name="corpus")
app.add_typer(verify_app, name="verify")
app.add_typer(audit_app, name="audit")
corpus_app.add_typer(second_pass_app, name="second-pass")


class Format(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


class ExportFormat(str, Enum):
    all = "all"
    csv = "csv"
    jsonl = "jsonl"
    parquet = "parquet"


# duckdb (audit.duckdb and Parquet), then the published formats, one module each (jfi.audit.formats)
AuditFormat = Enum("AuditFormat", {name: name for name in ("duckdb", *FORMATS)}, type=str)


# What to do after a command that went through, said on stderr (stdout stays what programs read).
NEXT_STEPS = {
    "corpus_init": "add items to corpus/functional-images.jsonl, then `jfi corpus validate`",
    "corpus_migrate": "`jfi corpus validate` lists what the new profile still needs",
    "corpus_apply_verdicts": "`jfi corpus validate` for the criteria, `jfi corpus second-pass extract` for blind passes",
    "corpus_apply_review": "`jfi corpus validate` for the coverage report",
    "corpus_target": "`jfi corpus validate` reports progress toward the new goal",
    "second_pass_extract": "hand the round's second-pass input to a second reviewer; their answers go in "
    "rounds/round-NN-second-pass.jsonl, then `jfi corpus second-pass apply --round N`",
    "corpus_export": lambda a: {
        "csv": "open the CSVs or corpus.xlsx in {out}",
        "jsonl": "read the JSONL files in {out}",
        "parquet": "read the Parquet files in {out} (pyarrow, DuckDB, pandas)",
    }.get(
        getattr(a.get("fmt"), "value", a.get("fmt")),
        "open the CSVs or corpus.xlsx in {out}, or {out}/jfi.duckdb in any DuckDB client (Python: duckdb.connect)",
    ),
    "audit_inventory": lambda a: (
        "capture the other slices, then `jfi audit combine SLICE... --out DIR`"
        if a.get("shard")
        else "`jfi audit build --inventory {out}`"
    ),
    "audit_import_inventory": "`jfi audit build --inventory {out}`",
    "audit_build": "`jfi audit judge-kit --inventory {inventory}`, then return judged batches to batches/",
    "audit_judge": "`jfi audit sample --inventory {inventory}` picks the rows to spot-check",
    "audit_judge_kit": "hand each kit to a judge; put each returned *.judged.jsonl in {inventory}/batches/, then "
    "`jfi audit merge --inventory {inventory}`",
    "audit_sample": "spot-check the sampled rows into spot-checks.jsonl, then `jfi audit merge --inventory {inventory}`",
    "audit_merge": lambda a: (
        "`jfi audit worklist --inventory {inventory}` and `jfi audit report --inventory {inventory}`; "
        "ratifiers read "
        + (
            "draft-judgments.xlsx"
            if (Path(a["inventory"]) / "draft-judgments.xlsx").is_file()
            else "report.html (the rows are too many for a workbook)"
        )
    ),
    "audit_worklist": "settle families with `jfi audit rule --inventory {inventory} --family FAM-…`, or hand rows out "
    "with `jfi audit review export`",
    "audit_rule": "`jfi audit merge --inventory {inventory}` to see the rows ratified, then `jfi audit report`",
    "audit_report": "open {inventory}/report.html in a browser",
    "audit_receipts": "file the receipts' findings; `jfi audit export --inventory {inventory}` for analysts",
    "audit_export": lambda a: (
        "`jfi audit gate --inventory {inventory}` gates a CI job on the same results"
        if getattr(a.get("fmt"), "value", "duckdb") != "duckdb"
        else "open audit.duckdb in any DuckDB client, or `jfi query --inventory {inventory}`"
    ),
    "review_export": "fill review-tasks.xlsx (or .csv, or return-template.json) in {out} (in each part folder when "
    "split), then `jfi audit review apply` (each part on its own)",
    "review_apply": "`jfi audit merge --inventory {inventory}`, then `jfi audit report --inventory {inventory}`",
    "verify_snapshot": "`jfi verify checkpoint --screenshot PNG`",
    "verify_checkpoint": "`jfi verify import CLAIMS` (measurements and an external verifier's verdicts), then `jfi verify gate`",
    "verify_import": "`jfi verify gate`",
}


def _say_next(fn, kwargs: dict, code: int) -> None:
    hint = NEXT_STEPS.get(fn.__name__)
    if callable(hint):  # a hint that depends on the options given
        hint = hint(kwargs)
    if hint and "{out}" in hint and kwargs.get("out") is None:  # the default output folder
        hint = hint.replace("{out}", "exports")
    if hint and code == 0:
        try:
            err("next: " + hint.format(**{k: v for k, v in kwargs.items() if v is not None}))
        except (KeyError, IndexError):
            err("next: " + hint)


def guarded(fn):
    """Turn a refused operation into its message on stderr and its exit status; never a traceback. A command that
    went through ends by saying what to do next."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if _CALLED.get():  # through the Python API (jfi.api): its words are collected, a refusal raised
            return fn(*args, **kwargs)
        streams = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = Shown(sys.stdout), Shown(sys.stderr)  # text from files is shown, never obeyed
        forget_hashes()  # each command starts from what its kept store recorded of the files, nothing else
        if os.environ.get("JFI_PROFILE"):
            from . import phases

            phases.add("start-up: interpreter, imports, arguments", phases.since_start() or 0.0)
        try:
            if _PLANNING[0]:
                return _run(_plan, (fn, kwargs), {})
            return _run(fn, args, kwargs)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            sys.stdout, sys.stderr = streams

    return wrapper


_PLANNING = [False]  # the root's --plan, for this invocation (set by its callback)
# set while the Python API runs a command (jfi.api): the command's own function runs, nothing is printed, a refusal is
# raised to the caller and the exit status is the function's return value
_CALLED: contextvars.ContextVar = contextvars.ContextVar("jfi_called", default=False)


def _plan(fn, kwargs: dict) -> int:
    """`--plan`: the rule files the audit command would run, and which changed inputs make them run; nothing runs."""
    if not fn.__name__.startswith("audit_") or not isinstance(kwargs.get("inventory"), Path):
        raise JfiError(
            "no_plan", "--plan says what an audit command over a built folder (--inventory) would run", exit_code=3
        )
    from .audit.folder import AuditFolder
    from .audit.plan import plan

    found = plan(AuditFolder(kwargs["inventory"]), fn.__name__[len("audit_") :].replace("_", "-"))
    say("\n".join(found.lines()))
    return 0


def _stop(signum, frame):
    raise KeyboardInterrupt  # a SIGTERM unwinds like Ctrl-C: temp files and the writer lock go with it


def _run(fn, args, kwargs):
    """Run a command: its refusal becomes its message and exit status; SIGTERM and Ctrl-C end it with nothing half
    written and no lock left behind (exit 130)."""
    before = signal.signal(signal.SIGTERM, _stop) if threading.current_thread() is threading.main_thread() else None
    try:
        code = fn(*args, **kwargs)
        if isinstance(code, Outcome):  # a report for programs (one JSON document on stdout), and its words
            if (shown := code.shown()) is not None:
                say(shown)
            for line in code.lines:
                say(line)
            for line in code.notes:
                err(line)
            code = code.code
        _say_next(fn, kwargs, code or 0)
    except KeyboardInterrupt:
        err("interrupted: stopped before it finished; what it had not committed was not written")
        raise typer.Exit(130)
    except JfiError as e:
        err(e.render())
        raise typer.Exit(e.exit_code)
    except OSError as e:  # a path that cannot be read or written: say which, never a traceback
        err(f"{e.filename + ': ' if e.filename else ''}io_error: {e.strerror or e}")
        raise typer.Exit(2)
    except RecursionError:  # a value nested deeper than any reader takes, met where no line is known
        err("invalid_json: a value is nested too deeply to read")
        raise typer.Exit(2)
    except Exception as e:
        duckdb = sys.modules.get("duckdb")  # not imported for --help and --version
        if duckdb is None or not isinstance(e, duckdb.Error):
            raise
        if isinstance(e, duckdb.OutOfMemoryException):  # the limit, not the input: say which limit and how to raise it
            limit = os.environ.get("JFI_MEMORY_LIMIT")
            err(
                f"out_of_memory: DuckDB needed more memory than {'JFI_MEMORY_LIMIT=' + limit if limit else 'it may use'} "
                f"and could not spill the rest to disk; nothing was written (raise JFI_MEMORY_LIMIT, e.g. 4GB, or free "
                f"memory) ({str(e).splitlines()[0][:200]})"
            )
            raise typer.Exit(2)
        # input DuckDB could not take (rules read it line by line, so this is rare)
        err(f"data_error: {str(e).splitlines()[0][:300]}")
        raise typer.Exit(2)
    finally:
        if before is not None:
            signal.signal(signal.SIGTERM, before)
        _say_rule_times()
    raise typer.Exit(code or 0)


def _say_rule_times() -> None:
    """With JFI_PROFILE set, each rule file the command ran and its seconds, on stderr (`make bench` reads them)."""
    store = sys.modules.get("jfi.store")  # not imported for --help and --version
    if store is not None and os.environ.get("JFI_PROFILE"):
        for rel, seconds in store.RULE_TIMES:
            print(f"profile: {seconds:8.3f} s  {rel}", file=sys.stderr)
        store.RULE_TIMES.clear()
    phases = sys.modules.get("jfi.phases")
    if phases is not None and os.environ.get("JFI_PROFILE"):
        for name, seconds in phases.TIMES.items():
            print(f"profile: {seconds:8.3f} s  phase: {name}", file=sys.stderr)
        phases.TIMES.clear()


def _version(value: bool):
    if value:
        print(f"jfi {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    ctx: typer.Context,
    project: Path = typer.Option(Path("."), "--project", "-C", help="Project directory (default: current)."),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
    plan: bool = typer.Option(
        False,
        "--plan",
        help="Say which rule files an audit command would run, and which changed input files make them run; "
        "run nothing (also after the command: jfi audit merge --inventory A --plan).",
    ),
):
    ctx.obj = {"project": project}
    _PLANNING[0] = plan


def _project(
    ctx: typer.Context, corpus: Optional[Path] = None, rounds: Optional[Path] = None, profile: Optional[str] = None
):
    """The corpus project at --project; a folder that is not one is refused (no_project), never created."""
    from .corpus.project import CorpusProject

    return CorpusProject.at(ctx.obj["project"], corpus, rounds, profile).require()


PROFILE_HELP = (
    "Corpus profile: round-v1, round-v2 or harvest (default: corpus/profile.txt, else the first record's keys)."
)


@corpus_app.command("init")
@guarded
def corpus_init(
    ctx: typer.Context,
    target: Optional[int] = typer.Option(None, "--target", help="Write this goal N to corpus/target.txt."),
    profile: Optional[str] = typer.Option(
        None, "--profile", help="Write this profile to corpus/profile.txt (round-v1, round-v2 or harvest)."
    ),
):
    """Create a corpus project: corpus/functional-images.jsonl (empty), rounds/ (review/ for harvest), the goal and
    the profile when given.

    Exit 1 when the folder already holds a corpus file (nothing is changed).

    Example: jfi --project my-corpus corpus init --target 100 --profile round-v2
    """
    from .corpus.project import CorpusProject

    return CorpusProject.at(ctx.obj["project"], profile=profile).init(target)


@corpus_app.command("profile")
@guarded
def corpus_profile(
    ctx: typer.Context,
    name: Optional[str] = typer.Argument(None, help="round-v1, round-v2 or harvest; omit to print it."),
):
    """Print the project's profile, or set it in corpus/profile.txt (the data must be in that profile's shape).

    Exit 1 when the profile is already the one asked for.

    Example: jfi --project my-corpus corpus profile harvest
    """
    from .corpus.project import CorpusProject

    project = _project(ctx)
    if name is None:
        print(project.profile)
        return 0
    return CorpusProject.at(ctx.obj["project"], profile=name).set_profile()


@corpus_app.command("validate")
@guarded
def corpus_validate(
    ctx: typer.Context,
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    target: Optional[int] = typer.Option(None, "--target", help="Goal N (default: corpus/target.txt, else 250)."),
    corpus: Optional[Path] = typer.Option(
        None, "--corpus", help="Corpus file (default: corpus/functional-images.jsonl)."
    ),
    rounds: Optional[Path] = typer.Option(None, "--rounds", help="Rounds folder (default: rounds/)."),
    profile: Optional[str] = typer.Option(None, "--profile", help=PROFILE_HELP),
):
    """Check every item and round file (harvest: review batch) and report progress toward the acceptance criteria
    (harvest: the coverage report).

    Exit 0 clean and complete, 1 clean but incomplete, 2 violations or no corpus file. A harvest project is never
    gated on coverage: 0 clean, 1 empty, 2 violations.

    Example: jfi --project my-corpus corpus validate --target 100
    """
    from .corpus import validate

    project = _project(ctx, corpus, rounds, profile)
    result, code = validate.report(project, project.resolve_goal(target))
    for e in result["errors"]:
        err(_located(e))
    if json_out:
        print(dumps(result))
    else:
        print(validate.render(result))
    return code


def _located(v: dict) -> str:
    from .errors import format_location

    return format_location(v.get("source"), v.get("line"), v.get("field"), v["code"], v["message"])


@corpus_app.command("target")
@guarded
def corpus_target(ctx: typer.Context, n: int = typer.Argument(..., help="The accepted-item goal N (at least 25).")):
    """Write corpus/target.txt with the goal N.

    Example: jfi corpus target 100
    """
    from .corpus import target

    return target.write(_project(ctx), n)


@corpus_app.command("apply-verdicts")
@guarded
def corpus_apply_verdicts(
    ctx: typer.Context,
    round_no: int = typer.Option(..., "--round", min=1, max=999, help="Review round number (1 to 999)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Report what would change; write nothing."),
):
    """Apply a review round's verdicts to item statuses (accept, revise, reject), all or nothing.

    Example: jfi corpus apply-verdicts --round 1 --dry-run
    """
    from .corpus import verdicts

    return verdicts.apply(_project(ctx), round_no, dry_run=dry_run)


@corpus_app.command("migrate")
@guarded
def corpus_migrate(
    ctx: typer.Context,
    to: str = typer.Option(..., "--to", help="round-v2 or harvest."),
    sector: Optional[str] = typer.Option(None, "--sector", help="harvest: the sector of every item."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Check the migration; write nothing."),
):
    """Rewrite the corpus in a later profile's shape and record the profile, all or nothing.

    To round-v2, every item gains accessible_name and accessible_name_source as blanks to fill (validate then lists
    them). To harvest, the shared fields carry over, candidate and needs-revision become unreviewed, and every item
    that cannot be mapped (a decided status, an implementation or role harvest does not collect, no name, no sector)
    is listed and nothing is written; the round-format file is kept beside the new one.

    Example: jfi corpus migrate --to round-v2
    """
    from .corpus import migrate

    return migrate.migrate(_project(ctx), to, sector=sector, dry_run=dry_run)


@corpus_app.command("apply-review")
@guarded
def corpus_apply_review(
    ctx: typer.Context,
    batch: int = typer.Option(
        ..., "--batch", min=1, max=999, help="Review batch number NN of review/batch-NN.jsonl (1 to 999)."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Report what would change; write nothing."),
):
    """harvest: apply a review batch's verdicts, all or nothing: keep with a good alt becomes ready, anything else
    dropped; the reason, alt quality and any sub-type correction are copied into the item.

    Exit 1 when every verdict is already applied; 2 when the batch breaks a rule or a verdict cannot be applied.

    Example: jfi corpus apply-review --batch 3 --dry-run
    """
    from .corpus import review_batches

    return review_batches.apply(_project(ctx), batch, dry_run=dry_run)


@second_pass_app.command("extract")
@guarded
def second_pass_extract(
    ctx: typer.Context,
    round_no: int = typer.Option(..., "--round", min=1, max=999, help="Round number (1 to 999)."),
    replace: bool = typer.Option(
        False, "--replace", help="Replace the round's input file (never once it has answers)."
    ),
):
    """Write rounds/round-NN-second-pass-input.jsonl: the items owing a blind pass, without answers.

    Exit 1 when no item owes a second pass; 2 when the round already handed out items (without --replace)
    or already has answers.

    Example: jfi corpus second-pass extract --round 2
    """
    from .corpus import second_pass

    return second_pass.extract(_project(ctx), round_no, replace=replace)


@second_pass_app.command("apply")
@guarded
def second_pass_apply(
    ctx: typer.Context,
    round_no: int = typer.Option(..., "--round", min=1, max=999, help="Round number (1 to 999)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Report what would change; write nothing."),
):
    """Append the answers in rounds/round-NN-second-pass.jsonl as pass-b, all or nothing.

    Example: jfi corpus second-pass apply --round 2
    """
    from .corpus import second_pass

    return second_pass.apply(_project(ctx), round_no, dry_run=dry_run)


@corpus_app.command("fetch-images")
@guarded
def corpus_fetch_images(
    ctx: typer.Context,
    dry_run: bool = typer.Option(False, "--dry-run", help="List what would be fetched; write nothing."),
    verify: bool = typer.Option(False, "--verify", help="Re-hash every referenced copy instead."),
):
    """Archive image_url into corpus/images/<id>.<ext> and record image_file and image_sha256.

    Example: jfi corpus fetch-images --verify
    """
    from .corpus import images

    project = _project(ctx)
    return images.verify(project) if verify else images.fetch(project, dry_run=dry_run)


@corpus_app.command("export")
@guarded
def corpus_export(
    ctx: typer.Context,
    fmt: ExportFormat = typer.Option(ExportFormat.all, "--format", help="csv, jsonl, parquet, or all."),
    out: Optional[Path] = typer.Option(None, "--out", help="Output folder (default: <project>/exports)."),
    target: Optional[int] = typer.Option(None, "--target", help="Goal N for the criteria."),
):
    """Export items, criteria and concentration (CSV is formula-safe) and the jfi.duckdb store.

    Example: jfi corpus export --format csv --out exports
    """
    from .corpus import export

    project = _project(ctx)
    return export.run(project, out or project.root / "exports", fmt.value, project.resolve_goal(target))


@audit_app.command("inventory")
@guarded
def audit_inventory(
    urls: list[str] = typer.Argument(None, help="http(s) URLs to capture (after the views file)."),
    urls_file: Optional[Path] = typer.Option(
        None, "--urls-file", help="Views: id,product,url[,settle_ms] | id<TAB>url | url."
    ),
    sitemap: Optional[str] = typer.Option(
        None,
        "--sitemap",
        help="Views from a sitemap: a file, an http(s) URL, or a path in the --serve folder (an index is followed).",
    ),
    include: Optional[list[str]] = typer.Option(
        None, "--include", help="Sitemap: keep pages whose path matches this glob (repeatable), e.g. '/guide/*'."
    ),
    exclude: Optional[list[str]] = typer.Option(
        None, "--exclude", help="Sitemap: drop pages whose path matches this glob (repeatable)."
    ),
    max_views: Optional[int] = typer.Option(
        None, "--max-views", min=1, max=1_000_000, help="Sitemap: keep the first N pages."
    ),
    out: Path = typer.Option(..., "--out", help="Folder for inventory.jsonl, inventory-run.json, screenshots/."),
    settle: int = typer.Option(2600, "--settle", min=0, help="Milliseconds to wait after load."),
    viewport: Optional[list[str]] = typer.Option(
        None,
        "--viewport",
        help="WIDTHxHEIGHT; repeat it to capture each view at several "
        "(default: [capture] viewports in --out's audit.toml, else 1440x900).",
    ),
    only: Optional[str] = typer.Option(None, "--only", help="Capture only these view ids (comma-separated)."),
    product: Optional[str] = typer.Option(None, "--product", help="Capture only this product's views."),
    engagement: Optional[str] = typer.Option(None, "--engagement", help="Engagement label for the run header."),
    no_screenshots: bool = typer.Option(False, "--no-screenshots", help="Do not save viewport screenshots."),
    no_axe: bool = typer.Option(False, "--no-axe", help="Do not check the views with axe-core."),
    workers: Optional[int] = typer.Option(
        None,
        "--workers",
        min=1,
        help="Views captured at once (default: three per core, at most 8; with a settle under 500 ms, 4 views to a tab).",
    ),
    serve: Optional[Path] = typer.Option(
        None,
        "--serve",
        help="Serve this folder to the browser under --origin (no server, no port) and resolve /paths against it.",
    ),
    origin: Optional[str] = typer.Option(
        None, "--origin", help="Origin a served folder appears under (default http://127.0.0.1:8766)."
    ),
    port: Optional[int] = typer.Option(
        None, "--port", min=1, max=65535, help="Short for --origin http://127.0.0.1:PORT (nothing listens on it)."
    ),
    base_url: Optional[str] = typer.Option(
        None, "--base-url", help="Origin that /paths in the views file resolve against."
    ),
    nav_timeout: int = typer.Option(30000, "--nav-timeout", min=100, help="Navigation time budget per view, ms."),
    view_budget: Optional[float] = typer.Option(
        None,
        "--view-budget",
        min=1,
        help="Seconds one view may take in all (default: navigation + 8 s idle + settle + 30 s).",
    ),
    replace: bool = typer.Option(False, "--replace", help="Overwrite a capture already in --out."),
    shard: Optional[str] = typer.Option(
        None,
        "--shard",
        help="K/N: capture only slice K of N (every N-th view); join the slices with `jfi audit combine`.",
    ),
    cluster: Optional[str] = typer.Option(
        None,
        "--cluster",
        help="Capture on a Dask distributed cluster: a scheduler address (tcp://host:8786) or local:N "
        "(N worker processes here), each worker with its own Chromium.",
    ),
):
    """Capture each view read-only in Chromium: title, headings, links, images, fields, navigation.

    Exit 0 when every view was inventoried, 1 when some have only environment notes, 2 on invalid input.

    Example: jfi audit inventory --urls-file views.txt --out audits/2026-12 --settle 800
    """
    from .capture import browse, capture
    from .capture import views as views_mod
    from .capture.routing import DEFAULT_ORIGIN, FolderSite

    sizes = browse.viewports_of(viewport, out / "audit.toml")
    axe_options = browse.axe_of(no_axe, out / "audit.toml")
    if origin is not None and port is not None:
        raise JfiError("usage", "give --origin or --port, not both", exit_code=3)
    site = None
    if serve is not None:
        if not serve.is_dir():
            raise JfiError("invalid_serve", f"{serve} is not a folder", exit_code=2)
        origin = origin or (f"http://127.0.0.1:{port}" if port else DEFAULT_ORIGIN)
        if not views_mod.is_origin(origin):
            raise JfiError("invalid_origin", f"--origin must be http(s)://host[:port], got {origin!r}", exit_code=3)
        site = FolderSite(serve, origin)
    elif origin is not None or port is not None:
        raise JfiError("usage", "--origin and --port name the origin of a --serve folder", exit_code=3)
    if (include or exclude or max_views) and not sitemap:
        raise JfiError("usage", "--include, --exclude and --max-views choose among a --sitemap's pages", exit_code=3)
    extra = None
    if sitemap:
        from .capture import sitemap as sitemap_mod

        extra = sitemap_mod.views(
            sitemap, site=site, include=include, exclude=exclude, max_views=max_views, settle_ms=settle
        )
    selected = views_mod.parse(
        urls_file,
        list(urls or []),
        settle_ms=settle,
        base=site.origin if site else base_url,
        only=only.split(",") if only else None,
        product=product,
        extra=extra,
    )
    opts = browse.Options(
        viewports=sizes,
        axe=axe_options,
        workers=workers,
        screenshots=not no_screenshots,
        nav_timeout_ms=nav_timeout,
        engagement=engagement,
        urls_source=str(urls_file) if urls_file else sitemap or "argv",
        view_budget_s=view_budget,
        site=site,
    )
    sliced = None
    if shard is not None:
        from .capture.shards import parse_shard, slice_of

        selected, sliced = slice_of(selected, *parse_shard(shard))
    return capture.run(selected, out, opts, replace=replace, shard=sliced, cluster=cluster)


@audit_app.command("combine")
@guarded
def audit_combine(
    shards: list[Path] = typer.Argument(..., help="The slice folders of one sharded capture."),
    out: Path = typer.Option(..., "--out", help="The audit folder to write."),
    replace: bool = typer.Option(False, "--replace", help="Overwrite a capture already in --out."),
):
    """Join the slices of a `--shard K/N` capture into one audit folder: inventory.jsonl in the views file's order
    and the screenshots, as one run writes them. Refuses overlapping, missing, incomplete or foreign slices.

    Example: jfi audit combine shard-1 shard-2 --out audits/2026-12
    """
    from .capture.shards import combine

    return combine(shards, out, replace=replace)


@audit_app.command("import-inventory")
@guarded
def audit_import_inventory(
    manifest: Path = typer.Argument(..., help="A content-inventory/v1 inventory-run.json."),
    out: Path = typer.Option(..., "--out", help="Folder to write inventory.jsonl into."),
    replace: bool = typer.Option(
        False, "--replace", help="Replace an audit already in --out (what was derived from it goes too)."
    ),
):
    """Read a content-inventory/v1 manifest made elsewhere into an audit folder.

    Example: jfi audit import-inventory old/inventory-run.json --out audits/imported
    """
    from .capture import import_inventory

    return import_inventory.run(manifest, out, replace=replace)


@audit_app.command("build")
@guarded
def audit_build(
    inventory: Path = typer.Option(..., "--inventory", help="The audit folder (holds inventory.jsonl)."),
    batch: int = typer.Option(
        90, "--batch", min=1, max=100_000, help="Most units per judge batch file (1 to 100,000)."
    ),
):
    """Build judgment units (deduplicated across views, with flags), the 3.2.3 navigation check and judge batches.

    Example: jfi audit build --inventory audits/2026-12 --batch 90
    """
    from .audit import build
    from .audit.folder import AuditFolder

    return build.run(AuditFolder(inventory), batch)


class Role(str, Enum):
    drafter = "drafter"
    detector = "detector"


@audit_app.command("judge")
@guarded
def audit_judge(
    inventory: Path = typer.Option(..., "--inventory", help="The audit folder (judge-kit/ written)."),
    endpoint: str = typer.Option(
        ..., "--endpoint", help="An OpenAI-compatible API base URL (…/v1) or its /chat/completions URL."
    ),
    model: Optional[str] = typer.Option(None, "--model", help="The model id to ask for (the drafting judge)."),
    api_key_env: Optional[str] = typer.Option(
        None, "--api-key-env", help="The environment variable holding the API key (none for a local server)."
    ),
    batch: Optional[list[str]] = typer.Option(
        None, "--batch", help="Only this batch (repeatable; its name without .jsonl)."
    ),
    jobs: int = typer.Option(4, "--jobs", min=1, max=64, help="Requests under way at once (1 to 64)."),
    timeout: float = typer.Option(120.0, "--timeout", min=1, max=3600, help="Seconds one request may take."),
    retries: int = typer.Option(4, "--retries", min=0, max=20, help="Retries on 429, 5xx and dropped connections."),
    temperature: float = typer.Option(0.0, "--temperature", min=0, max=2, help="Sampling temperature."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the requests; send nothing."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Ask again even when judge-cache/ holds the answer."),
    images: bool = typer.Option(
        False, "--images", help="Send each image row's crop (from judge-kit --images) to a model that reads images."
    ),
    second_reader: Optional[str] = typer.Option(
        None, "--second-reader", help="Instead: have this model read the spot-check sample into spot-checks.jsonl."
    ),
    role: Role = typer.Option(
        Role.drafter,
        "--role",
        help="drafter (judged files in batches/, merged as drafts) or detector "
        "(in detector/<model>/: pre-sorting only, never a draft of record).",
    ),
):
    """Draft judgments with a model: each batch without a judged file is sent with its kit (rubric, instructions,
    product note, batch) and written as batches/<batch>.judged.jsonl only when every line keeps the contract.

    Example: jfi audit judge --inventory audits/2026-12 --endpoint http://127.0.0.1:8000/v1 --model qwen2.5-7b
    """
    from .audit.folder import AuditFolder
    from .judge.run import judge

    if (model is None) == (second_reader is None):
        raise JfiError(
            "usage",
            "name the drafting judge with --model, or the second reader with --second-reader (one of them)",
            exit_code=3,
        )
    folder = AuditFolder(inventory)
    out = None
    if role is Role.detector and model is not None:  # a local detector's lines never reach batches/, so never a draft
        import re as _re

        out = folder.root / "detector" / _re.sub(r"[^A-Za-z0-9._-]+", "_", model)
    return judge(
        folder.root,
        endpoint=endpoint,
        model=model,
        api_key_env=api_key_env,
        only=batch,
        jobs=jobs,
        out=out,
        timeout_s=timeout,
        retries=retries,
        temperature=temperature,
        dry_run=dry_run,
        use_cache=not no_cache,
        images=images,
        second_reader=second_reader,
    )


@audit_app.command("judge-kit")
@guarded
def audit_judge_kit(
    inventory: Path = typer.Option(..., "--inventory", help="The audit folder."),
    images: bool = typer.Option(
        False, "--images", help="Also write each image row's crop (crops/<id>.png), for judges that read images."
    ),
):
    """Write judge-kit/<batch>/ for every batch: rubric, instructions and output contract, batch, product note.

    The product-and-audience note comes from audit.toml ([products.<name>] note = "...").

    Example: jfi audit judge-kit --inventory audits/2026-12
    """
    from .audit import judge_kit
    from .audit.folder import AuditFolder

    return judge_kit.run(AuditFolder(inventory), images)


@audit_app.command("sample")
@guarded
def audit_sample(
    inventory: Path = typer.Option(..., "--inventory", help="The audit folder."),
    seed: str = typer.Option("", "--seed", help="Seed of the reproducible 10% draw (default: none)."),
):
    """Write spot-check-sample.jsonl: every unsure, every flag/draft disagreement, and a reproducible 10%.

    Example: jfi audit sample --inventory audits/2026-12 --seed round2
    """
    from .audit import judging
    from .audit.folder import AuditFolder

    return judging.sample(AuditFolder(inventory), seed)


@audit_app.command("merge")
@guarded
def audit_merge(inventory: Path = typer.Option(..., "--inventory", help="The audit folder.")):
    """Merge judged batches and spot checks into draft-judgments.csv (and per product), nav-consistency.csv, draft-judgments.json.

    Example: jfi audit merge --inventory audits/2026-12
    """
    from .audit import judging
    from .audit.folder import AuditFolder

    return judging.merge(AuditFolder(inventory))


@audit_app.command("receipts")
@guarded
def audit_receipts(inventory: Path = typer.Option(..., "--inventory", help="The audit folder.")):
    """Write receipts.csv and receipts.jsonl: the rows a named person ratified as no, as findings.

    Example: jfi audit receipts --inventory audits/2026-12
    """
    from .audit import judging
    from .audit.folder import AuditFolder

    return judging.receipts(AuditFolder(inventory))


@audit_app.command("worklist")
@guarded
def audit_worklist(inventory: Path = typer.Option(..., "--inventory", help="The audit folder.")):
    """Write worklist.md and worklist.csv: family decisions first, then rows that need a look, then fact classes.

    Example: jfi audit worklist --inventory audits/2026-12
    """
    from .audit import worklist
    from .audit.folder import AuditFolder

    return worklist.worklist(AuditFolder(inventory))


class Judgment(str, Enum):
    yes = "yes"
    no = "no"
    unsure = "unsure"


@audit_app.command("rule")
@guarded
def audit_rule(
    inventory: Path = typer.Option(..., "--inventory", help="The audit folder."),
    family: Optional[str] = typer.Option(None, "--family", help="Family id from the worklist (FAM-...)."),
    fact_class: Optional[str] = typer.Option(
        None, "--fact-class", help="A fact class of the worklist, by name or by one of its flags."
    ),
    ruling: str = typer.Option(..., "--ruling", help="Ruling id recorded on every row."),
    sentence: str = typer.Option(..., "--sentence", help="The ruling's sentence (the ratifier note)."),
    by: str = typer.Option(..., "--by", help="The named person who rules."),
    judgment: Judgment = typer.Option(..., "--judgment", help="yes, no or unsure."),
    utc: Optional[str] = typer.Option(None, "--utc", help="Timestamp (default: now, UTC)."),
    fix: Optional[str] = typer.Option(
        None, "--fix", help="The fix the ruling asks for (reaches the receipts, the report and the workbook)."
    ),
):
    """Fan one ruling out over the rows of a family (--family) or of a fact class (--fact-class) as pinned ledger
    records in ratifications.jsonl.

    Example: jfi audit rule --inventory A --family FAM-30a1755e7b --ruling R-1
      --sentence "Card links need their card's name" --by "Ana Ruiz" --judgment no
    """
    from .audit import worklist
    from .audit.folder import AuditFolder

    return worklist.rule(AuditFolder(inventory), family, ruling, sentence, by, judgment.value, utc, fact_class, fix)


@audit_app.command("report")
@guarded
def audit_report(
    inventory: Path = typer.Option(..., "--inventory", help="The built audit folder."),
    shot: Optional[Path] = typer.Option(
        None, "--screenshot", help="Also save a PNG of the report as Chromium shows it."
    ),
):
    """Write report.html (no server, no network) and report-files/ beside it: a summary, how to record decisions, the
    worklist, the 3.2.3 finding, and every row with its question, a crop of its view around the element, the
    evidence, the draft and the ratification in force, filterable (status, type, flag, family, draft, search).

    Example: jfi audit report --inventory exports/audit
    """
    from .audit.folder import AuditFolder
    from .audit.report import report

    return report(AuditFolder(inventory), shot)


@audit_app.command("export")
@guarded
def audit_export(
    inventory: Path = typer.Option(..., "--inventory", help="The built audit folder."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write (default: the audit folder)."),
    fmt: AuditFormat = typer.Option(
        AuditFormat.duckdb, "--format", help="duckdb (audit.duckdb and Parquet), sarif, junit, earl or openacr."
    ),
    flags_fail: bool = typer.Option(
        False, "--flags-fail", help="junit: an objective flag fails its test case too (not only a ratified no)."
    ),
    max_results: int = typer.Option(
        CODE_SCANNING,
        "--max-results",
        min=0,
        help="sarif: at most this many results, the lowest levels left out first and said so (a draft's note before "
        "a warning, a warning before an error); code scanning rejects a run of more than 25,000; 0: every one.",
    ),
):
    """Write audit.duckdb (the views people query, materialised with their meanings) and Parquet files of units,
    flags, nav rows, judgments, ratifications, draft rows and receipts, for analysts; or the results for other
    tools: SARIF 2.1.0 (audit.sarif), JUnit XML (audit-junit.xml), W3C EARL in JSON-LD (audit-earl.jsonld), OpenACR
    (audit-openacr.yaml, a VPAT 2.5 WCAG 2.2 report from ratified rows; audit.toml's [acr] names its author).

    Example: jfi audit export --inventory exports/audit --format sarif
    """
    from .audit.export import export
    from .audit.folder import AuditFolder

    return export(AuditFolder(inventory), out, fmt.value, flags_fail=flags_fail, max_results=max_results)


@audit_app.command("diff")
@guarded
def audit_diff(
    inventory: Path = typer.Option(..., "--inventory", help="The audit folder."),
    frm: Optional[int] = typer.Option(
        None, "--from", min=1, max=999_999, help="The earlier merge (default: the one before --to)."
    ),
    to: Optional[int] = typer.Option(None, "--to", min=1, max=999_999, help="The later merge (default: the latest)."),
    as_json: bool = typer.Option(False, "--json", help="The changes as JSON."),
):
    """What changed between two merges: rows added or removed, and rows whose status, draft or ratification moved,
    with the records that moved them (each merge records its run in history/). Exit 1 when fewer than two merges are
    recorded.

    Example: jfi audit diff --inventory audits/site --from 3 --to 5
    """
    from .audit.folder import AuditFolder
    from .audit.history import diff

    folder = AuditFolder(inventory)
    folder.require_built()
    return diff(folder.root, frm, to, as_json)


class FailOn(str, Enum):
    objective = "objective"
    decisive = "decisive"
    ratified_no = "ratified-no"


@audit_app.command("gate")
@guarded
def audit_gate(
    inventory: Path = typer.Option(..., "--inventory", help="The built audit folder."),
    baseline: Optional[Path] = typer.Option(
        None, "--baseline", help="Findings accepted before (a file --write-baseline wrote)."
    ),
    fail_on: FailOn = typer.Option(
        FailOn.objective,
        "--fail-on",
        help="objective (a flag stating a fact), decisive (any flag that counts) or ratified-no.",
    ),
    write_baseline: Optional[Path] = typer.Option(
        None, "--write-baseline", help="Record the current findings as a baseline file and pass."
    ),
):
    """A CI gate: exit 0 when no finding at the fail level is beyond the baseline, 1 naming each new finding, 2 on bad
    input. Findings are keyed by a stable fingerprint (unit id | flag or question).

    Example: jfi audit gate --inventory audits/site --baseline gate-baseline.json --fail-on objective
    """
    from .audit.folder import AuditFolder
    from .audit.gate import gate

    return gate(AuditFolder(inventory), baseline, fail_on.value, write_baseline)


@audit_app.command("eval")
@guarded
def audit_eval(
    inventory: Path = typer.Option(..., "--inventory", help="The built audit folder."),
    expectations: Path = typer.Option(..., "--expectations", help="expectations.yaml: the planted rows."),
    overrides: Optional[Path] = typer.Option(
        None, "--overrides", help="overrides.yaml: fields by unit id, and invalid rows."
    ),
    run: list[str] = typer.Option(
        [], "--run", help="LABEL=JUDGED_DIR, the label TIER/DRAW (e.g. sonnet/1); repeat per run."
    ),
    judge: list[str] = typer.Option(
        [], "--judge", help="A model to run as a judge on every batch (a tier; repeatable), with --endpoint."
    ),
    draws: int = typer.Option(
        2, "--draws", min=1, max=20, help="Draws of each --judge (each its own request and seed)."
    ),
    endpoint: Optional[str] = typer.Option(
        None, "--endpoint", help="The chat completions endpoint --judge models answer at."
    ),
    api_key_env: Optional[str] = typer.Option(
        None, "--api-key-env", help="The environment variable holding the endpoint's key."
    ),
    temperature: float = typer.Option(
        0.7, "--temperature", min=0, max=2, help="Sampling temperature of --judge draws."
    ),
):
    """Score judge runs against planted expectations, with the deterministic flags as a baseline judge, and give each
    model tier a verdict: promoted only when, in every draw, must recall and the false-alarm rate meet the bar in
    eval.toml beside the expectations (defaults: recall >= 0.9, false alarms <= 0.05, no inventing rationale).

    Writes eval.md, eval.json (and eval-inputs.json, so `jfi query --inventory` sees the eval_* views) in the folder.
    Exit 0 when every tier is promoted, 1 when not (or no run was given), 2 on bad input.

    Example: jfi audit eval --inventory audits/site --expectations site/expectations.yaml
      --run sonnet/1=runs/s1 --run sonnet/2=runs/s2
    """
    from .audit import evaluation
    from .audit.folder import AuditFolder

    folder = AuditFolder(inventory)
    ran = []  # the judge runs' outcomes
    if judge:  # the judge runs made here first: eval-runs/<model>/<draw>/, each scored as TIER/DRAW
        if not endpoint:
            raise JfiError("usage", "--judge needs --endpoint (where the models answer)", exit_code=3)
        import re as _re

        from .judge.run import judge as run_judge

        for model in judge:
            tier = _re.sub(r"[^A-Za-z0-9._-]+", "_", model)
            for draw in range(1, draws + 1):
                out = folder.root / "eval-runs" / tier / str(draw)
                ran.append(
                    run_judge(
                        folder.root,
                        endpoint=endpoint,
                        model=model,
                        api_key_env=api_key_env,
                        temperature=temperature,
                        out=out,
                        seed=draw,
                    )
                )
                run = [*run, f"{tier}/{draw}={out}"]
    scored = evaluation.evaluate(folder, expectations, overrides, run)
    # what each judge run said comes first, as it did when each run printed its own summary
    scored.text = "\n".join([*(t for r in ran for t in (r.shown(), *r.lines) if t), scored.text])
    scored.notes = [n for r in ran for n in r.notes] + scored.notes
    return scored


@review_app.command("export")
@guarded
def review_export(
    inventory: Path = typer.Option(..., "--inventory", help="The audit folder."),
    out: Path = typer.Option(..., "--out", help="A new folder for the bundle."),
    include_all: bool = typer.Option(False, "--all", help="Every unit, for a re-review."),
    reviewers: int = typer.Option(
        1,
        "--reviewers",
        min=1,
        max=1000,
        help="Split the tasks between N reviewers: out/part-K-of-N/, each a bundle returned alone.",
    ),
    by: Optional[str] = typer.Option(None, "--by", help="Split the tasks by product or type: a bundle per value."),
):
    """Export the units without a complete decision as a pinned review bundle (or several, one per reviewer).

    Example: jfi audit review export --inventory audits/2026-12 --out audits/2026-12-review-1 --reviewers 3
    """
    from .audit import review
    from .audit.folder import AuditFolder

    return review.export(AuditFolder(inventory), out, include_all, reviewers, by)


@review_app.command("apply")
@guarded
def review_apply(
    inventory: Path = typer.Option(..., "--inventory", help="The audit folder."),
    bundle: Path = typer.Option(..., "--bundle", help="The bundle folder that was exported."),
    responses: Path = typer.Option(
        ..., "--responses", help="The filled review-tasks.xlsx, review-tasks.csv or return-template.json."
    ),
):
    """Check a returned bundle and append its signed decisions to ratifications.jsonl, all or nothing.

    Example: jfi audit review apply --inventory audits/2026-12 --bundle audits/2026-12-review-1 --responses filled.json
    """
    from .audit import review
    from .audit.folder import AuditFolder

    return review.apply(AuditFolder(inventory), bundle, responses)


def _verify_folder(ctx: typer.Context, folder: Optional[Path], *, create: bool = False):
    """The verification folder; it must exist unless this command starts it (snapshot), and then its parent must."""
    from .verify.claims import VerifyFolder

    path = Path(folder or ctx.obj["project"] / "verification")
    if not path.is_dir() and not (create and path.parent.is_dir()):
        raise JfiError(
            "no_verification",
            f"{path} is not a folder; `jfi verify snapshot` starts one (in an existing project folder)",
            source=str(path),
        )
    return VerifyFolder(path)


VERIFY_DIR = typer.Option(None, "--dir", help="Verification folder (default: <project>/verification).")


@verify_app.command("snapshot")
@guarded
def verify_snapshot(
    ctx: typer.Context,
    paths: list[Path] = typer.Argument(..., help="Files or folders of the artifact."),
    folder: Optional[Path] = VERIFY_DIR,
):
    """Record an artifact version: the sha256 of each file and one version id over them (files inside the project
    folder only).

    Example: jfi verify snapshot site/index.html site/style.css shots/
    """
    from .verify import claims

    return claims.snapshot(_verify_folder(ctx, folder, create=True), paths, ctx.obj["project"])


@verify_app.command("checkpoint")
@guarded
def verify_checkpoint(
    ctx: typer.Context,
    screenshot: Path = typer.Option(..., "--screenshot", help="Screenshot of this version."),
    version: Optional[str] = typer.Option(None, "--version", help="Artifact version (default: the latest)."),
    changes: str = typer.Option("", "--changes", help="Changes since the previous checkpoint."),
    known_issues: str = typer.Option("", "--known-issues", help="Issues known now."),
    folder: Optional[Path] = VERIFY_DIR,
):
    """Record a checkpoint: an artifact version, its screenshot, the changes and the known issues.

    Example: jfi verify checkpoint --screenshot out/candidate.png --changes "hero title moved up 6 px"
    """
    from .verify import claims

    return claims.checkpoint(_verify_folder(ctx, folder), screenshot, version, changes, known_issues)


@verify_app.command("import")
@guarded
def verify_import(
    ctx: typer.Context,
    source: Path = typer.Argument(..., help="Claims JSONL (external verdicts or measurements.jsonl)."),
    folder: Optional[Path] = VERIFY_DIR,
):
    """Import claims: concrete statements with pinned inputs, a verifier, a result and evidence; all or nothing.

    Example: jfi verify import out/measurements.jsonl
    """
    from .verify import claims

    return claims.import_claims(_verify_folder(ctx, folder, create=True), source)


@verify_app.command("measure")
@guarded
def verify_measure(
    url: str = typer.Option(..., "--url", help="Page URL or local HTML file."),
    bindings: Path = typer.Option(..., "--bindings", help="JSONL {region, selector, box, significant}."),
    out: Path = typer.Option(..., "--out", help="Folder for measurements.jsonl and candidate.png."),
    viewport: str = typer.Option("1440x900", "--viewport", help="WIDTHxHEIGHT."),
):
    """Render the page in Chromium and measure every bound region against its reference box.

    Exit 0 when every region is PASS, 1 otherwise.

    Example: jfi verify measure --url site/index.html --bindings bindings.jsonl --out out
    """
    from .capture.browse import parse_viewport
    from .verify import measure

    return measure.run(url, bindings, out, parse_viewport(viewport))


@verify_app.command("gate")
@guarded
def verify_gate(ctx: typer.Context, folder: Optional[Path] = VERIFY_DIR):
    """The completion gate: one row per completion condition with its evidence, then the final summary.

    Exit 0 only when every row holds; otherwise 1.

    Example: jfi verify gate
    """
    from .verify import claims

    return claims.gate(_verify_folder(ctx, folder))


@app.command("query")
@guarded
def query(
    ctx: typer.Context,
    sql: str = typer.Argument(..., help="SQL over the views (see `jfi schema`)."),
    fmt: Format = typer.Option(Format.table, "--format", help="table, csv or json."),
    inventory: Optional[Path] = typer.Option(
        None, "--inventory", help="Query an audit folder instead of the corpus project."
    ),
    verify: Optional[Path] = typer.Option(None, "--verify", help="Query a verification folder instead."),
    timeout: float = typer.Option(60.0, "--timeout", help="Stop the query after this many seconds (default 60)."),
    memory_limit: Optional[str] = typer.Option(
        None, "--memory-limit", help="The most memory the query may use (default 2GB, or JFI_MEMORY_LIMIT)."
    ),
):
    """Run SQL over every view of the project's store (or of an audit folder with --inventory), within a time and a
    memory limit.

    Example: jfi query "SELECT status, count(*) FROM corpus_items GROUP BY status"
    Example: jfi query --inventory audits/2026-12 "SELECT id, flags FROM audit_units WHERE len(flags) > 0"
    """
    from . import querying

    if inventory is not None and verify is not None:
        raise JfiError("usage", "give --inventory or --verify, not both", exit_code=3)
    project = _project(ctx) if inventory is None and verify is None else None
    return querying.run(project, sql, fmt.value, inventory, verify, timeout_s=timeout, memory_limit=memory_limit)


@app.command("schema")
@guarded
def schema(
    section: Optional[str] = typer.Argument(None, help="corpus, audit or verify (default: all three)."),
    json_out: bool = typer.Option(False, "--json", help="Print as JSON."),
    include_all: bool = typer.Option(False, "--all", help="Also list the internal tables (raw_lines, ...)."),
    json_schema: Optional[str] = typer.Option(
        None, "--json-schema", help="Print the JSON Schema of a file format instead (list: the formats' names)."
    ),
):
    """List the views people query, grouped by section, their columns, and a one-line meaning of each; or print the
    JSON Schema (draft 2020-12) of a format jfi reads or writes, made from the rulebook's own field rules.

    Example: jfi schema audit
    Example: jfi schema --json-schema judged-line
    """
    if json_schema is not None:
        from . import schemas

        if json_schema == "list":
            return Outcome(0, list(schemas.PUBLISHED), text="\n".join(schemas.PUBLISHED))
        if json_schema not in schemas.PUBLISHED:
            raise JfiError(
                "unknown_format",
                f"no format {json_schema!r}; one of: {', '.join(schemas.PUBLISHED)}",
                field="--json-schema",
                exit_code=3,
            )
        published = schemas.published(json_schema)
        return Outcome(0, published, text=json.dumps(published, ensure_ascii=False, indent=1))
    from . import querying

    return querying.schema(json_out, section, include_all)


def arguments(args: list[str]) -> list[str]:
    """The command line as the app reads it: --plan anywhere before `--` is the root's option."""
    end = args.index("--") if "--" in args else len(args)
    if "--plan" not in args[:end]:
        return args
    return ["--plan", *(a for a in args[:end] if a != "--plan"), *args[end:]]


# A command holds many objects at once (a fetch of 260,000 rows, a parsed document, a workbook), almost none of them in
# a reference cycle: with Python's default thresholds (a collection every 700 new objects, and of every older object
# whenever ten of those passed) the collector spent half the time of building such structures walking them. Young
# collections come 140 times less often here, and cycles are still collected (a capture runs for hours).
GC_THRESHOLD = (100_000, 50, 100)


def main() -> None:
    gc.set_threshold(*GC_THRESHOLD)
    app(args=arguments(sys.argv[1:]), prog_name="jfi")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
