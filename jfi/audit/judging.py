"""Judging: `jfi audit sample` (what to spot-check), `jfi audit merge` (the draft rows beside the built units,
with what judges and checkers returned) and `jfi audit receipts`; the folder's files come through its door
(AuditFolder.load and its other named loads)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from ..jsonl import AtomicFiles, atomic_write, parse_json, read_lines, writer_lock
from ..output import (
    Outcome,
    csv_lines,
    csv_text,
    note,
    sql_csv_line,
    sql_json_object,
    utc_now,
    write_json_document,
)
from ..paths import regular_file
from ..version import __version__
from . import history
from .folder import AuditFolder
from .kept import commits

# the workbook opens on what a ratifier reads first; the machine columns follow, grouped and collapsed
READ_FIRST = [
    "status",
    "type",
    "name",
    "flags",
    "draft_judgment",
    "confidence",
    "rationale",
    "fix",
    "needs_human",
    "ratification_state",
    "ratified_by",
    "ratified_judgment",
    "ratifier_note",
    "ratified_fix",
    "ratified_utc",
    "id",
    "views",
    "context",
]


def csv_columns(con) -> list[str]:
    """The columns of draft-judgments.csv, in the reference's order (the view audit_draft_csv says them)."""
    return [c for (c,) in con.execute("SELECT column_name FROM (DESCRIBE SELECT * FROM audit_draft_csv)").fetchall()]


def workbook_columns(csv: list[str]) -> list[str]:
    """The workbook's columns: what a ratifier reads first (the ratifier's fix beside the ratification), then the
    CSV's other columns."""
    return READ_FIRST + [c for c in csv if c not in READ_FIRST]


NAV_COLUMNS = [
    "product",
    "host",
    "view_id",
    "views_in_group",
    "shared_items",
    "present_shared",
    "missing_shared",
    "extra_items",
    "order_consistent",
    "first_order_violation",
    "note",
]
RUBRIC_FILE = "judgment-rubric.md"


@commits
def sample(folder: AuditFolder, seed: str) -> Outcome:
    with writer_lock(folder.root):
        store, _, _ = folder.load(seed)
        try:  # each sampled row's JSON text is rendered by SQL, in one pass over the sample with its reason
            columns = [
                c
                for (c,) in store.con.execute("SELECT column_name FROM (DESCRIBE audit_spot_check_sample)").fetchall()
                if c != "ord"
            ]
            rows = store.con.execute(
                f"SELECT reason, {sql_json_object(columns)} FROM audit_spot_check_sample ORDER BY ord"
            ).fetchall()
            judged = store.scalar("SELECT count(DISTINCT id) FROM audit_judgments")
        finally:
            store.close()
        if not judged:
            return Outcome(1, notes=["no judged batches yet (batches/*.judged.jsonl); nothing to sample"])
        atomic_write(folder.root / "spot-check-sample.jsonl", "".join(line + "\n" for _, line in rows))
    by_reason = dict(Counter(reason for reason, _ in rows))  # in the order each reason first comes
    return Outcome(0, {"judged": judged, "sampled": len(rows), "by_reason": by_reason, "seed": seed})


def _cell(value):
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return value


def _book_cell(column: str, value):
    """A workbook cell: as the CSV's, but a yes/no a person filters on is a real boolean."""
    if column == "needs_human" and value in ("true", "false"):
        return value == "true"
    return _cell(value)


def _merge_rows(con, columns: list[str]) -> int:
    """The draft rows into a temp table, each with its CSV line and its JSON text rendered by SQL; returns the count."""
    types = dict(
        con.execute("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM audit_draft_rows)").fetchall()
    )
    texts, line = sql_csv_line(columns, types)
    con.execute(
        f"CREATE TEMP TABLE merge_rows AS SELECT sort_ord, _product AS product, {line} AS csv_line, json_line FROM "
        f"(SELECT sort_ord, product AS _product, {sql_json_object([c for c in types if c != 'sort_ord'])} "
        f"AS json_line, {texts} FROM audit_draft_rows) ORDER BY sort_ord"
    )
    return con.execute("SELECT count(*) FROM merge_rows").fetchone()[0]


def _lines(con, column: str, sep: str, product: str | None = None, size: int = 5_000):
    """A column of merge_rows in row order (of one product, or all), a few thousand lines joined by `sep` at a
    time (memory stays flat: one large aggregate would hold every row at once)."""
    cur = con.execute(
        f"SELECT {column} FROM merge_rows WHERE ? IS NULL OR product = ? ORDER BY sort_ord", [product, product]
    )
    while chunk := cur.fetchmany(size):
        yield sep.join(line for (line,) in chunk)


def judge_runs(root: Path) -> list[dict]:
    """The last record of each batch `jfi audit judge` drafted or failed (judge-runs.jsonl): its model, the model id
    the endpoint reported, tokens and latency, for the calibration record."""
    path = root / "judge-runs.jsonl"
    last: dict[str, dict] = {}
    for line in read_lines(path) if regular_file(path) else []:
        rec = parse_json(line.text, path, line.number)
        if isinstance(rec, dict) and isinstance(rec.get("batch"), str):
            last[rec["batch"]] = {
                k: rec.get(k)
                for k in ("batch", "utc", "model", "drafted_by", "outcome", "cached", "sent_back", "usage", "latency_s")
            }
    return [last[k] for k in sorted(last)]


@commits
def merge(folder: AuditFolder) -> Outcome:
    """draft-judgments.csv (and one per product), .json, .xlsx, nav-consistency.csv and calibration.json. The rows'
    CSV lines and JSON texts are rendered by SQL and streamed to the files."""
    with writer_lock(folder.root):
        store, built, units_sha = folder.load()
        try:
            con = store.con
            store.pin("audit_draft_rows")  # read by the lines, the tally, the calibration and the worklist
            columns = csv_columns(con)
            n_rows = _merge_rows(con, columns)
            products = [
                p
                for (p,) in con.execute(
                    "SELECT product FROM merge_rows GROUP BY product ORDER BY min(sort_ord)"
                ).fetchall()
            ]
            summary = store.rows("SELECT ratified_rows, missing, status FROM audit_merge_summary")[0]
            tally = {f"{t.pop('product')}|{t.pop('type')}": t for t in store.rows("SELECT * FROM audit_draft_tally")}
            workbook = None
            if n_rows <= WORKBOOK_MAX_ROWS:
                from .worklist import worklist_parts

                workbook = draft_workbook(
                    store.rows("SELECT * EXCLUDE (sort_ord) FROM audit_draft_rows ORDER BY sort_ord"),
                    worklist_parts(store)[3],
                    built.get("nav_consistency", []),
                    store.rows(RULES_SQL),
                    workbook_columns(columns),
                )
            rulebook = store.rulebook_sha256
            ledger_summary = store.rows("SELECT * FROM ratification_import")[0]
            calibration = store.rows("SELECT * FROM audit_calibration")
            ledger_summary["diagnostics"] = store.rows(
                "SELECT scope, id, state, diagnostic FROM ratification_effective WHERE diagnostic <> '' ORDER BY scope, id"
            )
            nav = built.get("nav_consistency", [])
            document = {
                "schema": "draft-judgments/v1",
                "built_utc": utc_now(),
                "units_sha256": units_sha,
                "rubric": RUBRIC_FILE,
                "rulebook_sha256": rulebook,
                "jfi_version": __version__,
                "status": summary["status"],
                "ratified_rows": summary["ratified_rows"],
                "ratification_import": ledger_summary,
                "coverage_basis": {
                    "views_inventoried": built.get("views_ok"),
                    "views_skipped": built.get("views_skipped", []),
                    "viewport": built.get("viewport"),
                    "caps": built.get("caps"),
                    "caps_hit": built.get("caps_hit", []),
                    "views_folded": built.get("views_folded", []),
                    "activation": "none — read-only capture, "
                    + (
                        f"{len(built['viewports'])} viewports ("
                        + ", ".join(str(v.get("id")) for v in built["viewports"] if isinstance(v, dict))
                        + ")"
                        if isinstance(built.get("viewports"), list)
                        else "one viewport"
                    ),
                    "rule": "a yes row is evidence of no defect in the captured sample only; "
                    "it never supports a criterion outcome",
                },
                "what_this_is": "Per-row content judgments with deterministic heuristic flags. Each row's status says whether "
                "it is agent-drafted work or a named human ratification; no row is itself a criterion outcome.",
                "tally": tally,
                "calibration": calibration,
                "missing": summary["missing"],
            }
            header = csv_lines(columns, [])[0]
            names = [
                "draft-judgments.csv",
                "nav-consistency.csv",
                *(f"draft-judgments-{re.sub(r'[^a-zA-Z0-9.-]', '_', p)}.csv" for p in products),
            ]
            with AtomicFiles() as files:
                for name, product in zip([names[0], *names[2:]], [None, *products]):
                    with files.open(folder.root / name) as fh:
                        fh.write(header.encode("utf-8"))
                        for lines in _lines(con, "csv_line", "\n", product):
                            fh.write((lines + "\n").encode("utf-8"))
                files.write(
                    folder.root / names[1], csv_text(NAV_COLUMNS, [tuple(n.get(c) for c in NAV_COLUMNS) for n in nav])
                )
                if workbook is not None:
                    files.write(folder.root / "draft-judgments.xlsx", workbook)
                else:  # a workbook this long is no desk (and takes minutes to write); the CSV and JSON hold every row
                    note(
                        f"draft-judgments.xlsx not written: {n_rows:,} rows (a workbook is written up to "
                        f"{WORKBOOK_MAX_ROWS:,}); read draft-judgments.csv, the worklist and report.html"
                    )
                    if (folder.root / "draft-judgments.xlsx").exists():
                        files.remove(folder.root / "draft-judgments.xlsx")  # never a workbook of an older merge
                with files.open(folder.root / "draft-judgments.json") as fh:  # one row and one nav row per line
                    write_json_document(
                        fh,
                        document,
                        {
                            "rows": _lines(con, "json_line", ",\n  "),
                            "nav_consistency": (json.dumps(n, ensure_ascii=False) for n in nav),
                        },
                    )
                files.write(
                    folder.root / "calibration.json",
                    json.dumps(
                        {
                            "schema": "calibration/v1",
                            "built_utc": document["built_utc"],
                            "units_sha256": units_sha,
                            "rulebook_sha256": rulebook,
                            "per_product_type": calibration,
                            "judge_runs": judge_runs(folder.root),
                        },
                        ensure_ascii=False,
                        indent=1,
                    )
                    + "\n",
                )
                history.record(
                    files,
                    folder.root,
                    store,
                    document["built_utc"],
                    {
                        "rows": n_rows,
                        "ratified": summary["ratified_rows"],
                        "missing": summary["missing"],
                        "status": summary["status"],
                    },
                )
        finally:
            store.close()
    return Outcome(
        0,
        {
            "rows": n_rows,
            "missing": summary["missing"],
            "status": summary["status"],
            "files": [
                *names,
                *(["draft-judgments.xlsx"] if workbook is not None else []),
                "draft-judgments.json",
                "calibration.json",
            ],
        },
        ascii=False,
    )


# Rows up to which merge writes draft-judgments.xlsx (about 10 s of openpyxl at the limit; a desk, not an archive)
WORKBOOK_MAX_ROWS = 10_000


RULE_COLUMNS = ["rule", "kind", "type", "sc", "act_rule", "level", "objective", "informational", "help_url", "meaning"]
RULES_SQL = (
    "SELECT rule, kind, type, array_to_string(sc, ', ') AS sc, act_rule, level, objective, informational, "
    "help_url, meaning FROM audit_rule_metadata"
)


def draft_workbook(
    rows: list[dict], worklist_table: list[tuple], nav: list[dict], rules: list[dict], columns: list[str]
) -> bytes:
    """draft-judgments.xlsx for the ratifier: the rows (cells as the CSV's, without its formula guard: a workbook
    cell is text, never a formula), the worklist, the 3.2.3 navigation-order check, every flag and question with its
    criteria, ACT rule and help page, and what each column means."""
    from .. import rulebook
    from ..workbook import Sheet, workbook_bytes
    from .worklist import WORKLIST_COLUMNS

    meanings = rulebook.meanings()[1]
    return workbook_bytes(
        [
            Sheet(
                "Draft judgments",
                columns,
                [tuple(_book_cell(c, r[c]) for c in columns) for r in rows],
                meanings.get("audit_draft_rows", {}),
                "status",
                grouped_from=columns[len(READ_FIRST)],
            ),
            Sheet(
                "Worklist",
                WORKLIST_COLUMNS,
                worklist_table,
                {
                    "section": "family (one answer settles every row), look (a row to look at) "
                    "or fact (a fact class to sign once)",
                    "key": "the family, row or fact class",
                    "kind": "what the family shares, or why the row needs a look",
                    "type": "unit type",
                    "units": "rows it covers",
                    "unit_ids": "the unit ids",
                    "detail": "what a person sees",
                },
            ),
            Sheet(
                "Navigation 3.2.3",
                NAV_COLUMNS,
                [tuple(_cell(n.get(c)) for c in NAV_COLUMNS) for n in nav or []],
                meanings.get("audit_nav_consistency", {}),
            ),
            Sheet(
                "Rules",
                RULE_COLUMNS,
                [tuple(r.get(c) for c in RULE_COLUMNS) for r in rules or []],
                meanings.get("audit_rule_metadata", {}),
            ),
        ]
    )


RECEIPT_COLUMNS = [
    "id",
    "product",
    "type",
    "sc",
    "name",
    "selector",
    "href",
    "views",
    "fix",
    "ratifier_note",
    "ruling",
    "ratified_by",
    "ratified_utc",
    "decision_id",
    "drafted_by",
]


@commits
def receipts(folder: AuditFolder) -> Outcome:
    """Ratified no rows become findings; a row that is not RATIFIED is never an input."""
    with writer_lock(folder.root):
        store, _, _ = folder.load()
        try:
            rows = store.rows("SELECT * FROM audit_receipts")
        finally:
            store.close()
        with AtomicFiles() as files:
            files.write(
                folder.root / "receipts.csv",
                csv_text(RECEIPT_COLUMNS, [tuple(_cell(r[c]) for c in RECEIPT_COLUMNS) for r in rows]),
            )
            files.write(folder.root / "receipts.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return Outcome(
        0,
        {"findings": rows, "files": [str(folder.root / "receipts.csv"), str(folder.root / "receipts.jsonl")]},
        lines=[f"{folder.root / 'receipts.csv'}: {len(rows)} finding(s) from rows ratified as no"],
        printed=False,
    )
