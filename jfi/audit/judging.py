"""Loading what judges and checkers return (batches/*.judged.jsonl, spot-checks.jsonl) beside the built units,
and the two commands that read them: `jfi audit sample` and `jfi audit merge`."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from .. import __version__
from ..errors import JfiError, refuse
from ..jsonl import AtomicFiles, atomic_write, line_columns, parse_json, sha256_file, split_lines, writer_lock
from ..paths import own_folder, regular_file
from ..output import csv_lines, csv_text, sql_csv_line, sql_json_object, utc_now, write_json_document
from ..store import Store
from .canonical import decision_id, digest
from .folder import AuditFolder
from .kept import THROUGH, KeptStore, commits

CSV_COLUMNS = [
    "status", "id", "product", "type", "sc", "view_count", "views", "name", "detail", "href", "context", "landmark",
    "selector", "visible", "flags", "draft_judgment", "confidence", "rationale", "fix", "needs_human", "drafted_by",
    "spot_check", "session_draft_judgment",
    "ratified_by", "ratified_judgment", "ratifier_note", "ratified_utc", "ruling", "ratification_state",
    "ratification_decision_id", "ratification_unit_sha256", "ratification_pin_status", "ratification_date_precision",
    "ratification_diagnostic", "client_rules", "client_result", "client_note", "client_ratified_by",
    "client_ratified_result", "client_ratified_rules", "client_ratifier_note", "client_ratification_state",
    "client_ratification_decision_id", "client_ratification_unit_sha256", "client_ratification_pin_status",
    "client_ratification_date_precision", "client_ratification_diagnostic",
]
NAV_COLUMNS = ["product", "host", "view_id", "views_in_group", "shared_items", "present_shared", "missing_shared",
               "extra_items", "order_consistent", "first_order_violation", "note"]
RUBRIC_FILE = "judgment-rubric.md"


def _add_file(store: Store, kind: str, path: Path, texts_from: list[str] | None = None, numbers: list[int] | None = None,
              round_no: int | None = None):
    present = texts_from is not None or regular_file(path)
    store.append("raw_files", {"kind": [kind], "source": [str(path)], "round": [round_no], "present": [present]})
    if texts_from is None and present:
        numbers, texts_from = line_columns(path)
    if texts_from:
        store.add_lines(kind, str(path), numbers, texts_from, round_no=round_no)


class BuiltUnits(dict):
    """The header of judgment-units.json (its nav rows included); the units list is parsed when first asked for."""

    def __init__(self, head: dict, path: Path):
        super().__init__(head)
        self._path = path

    def __getitem__(self, key):
        if key == "units" and not dict.__contains__(self, "units"):
            self["units"] = parse_json(self._path.read_bytes(), self._path)["units"] if self._path.is_file() else []
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        return self[key] if key == "units" else dict.get(self, key, default)


def load_folder(folder: AuditFolder, seed: str = "", *, strict: bool = True,
                ledger_bytes: bytes | None = None, before_build=None, inventory: bool = False) -> tuple[Store, BuiltUnits, str]:
    """A store with the inventory (when asked for, or for queries), the built units, the batches, what judges returned
    and the spot checks; returns (store, the built units' header, their sha256). Strict: refuses bad input, listing
    every problem; otherwise loads what is there (for queries). A strict load of the folder's own files starts from
    the store kept beside the audit (jfi.audit.kept) and, when it built one, leaves it to the command to keep."""
    units_path = folder.units_path
    if strict:
        folder.require_built()
    kept = KeptStore(folder.root, inventory) if strict and ledger_bytes is None and before_build is None else None
    if kept is not None and (hit := kept.reuse()):
        store, head, units_sha = hit
        store.set_sample_seed(seed)
        return store, BuiltUnits(head, units_path), units_sha
    store = kept.new_store() if kept is not None else Store(
        sections=("audit",), through=THROUGH if strict and before_build is None else None)
    try:
        head, units_sha = _load(folder, store, kept, strict=strict, ledger_bytes=ledger_bytes, inventory=inventory)
        store.set_sample_seed(seed)
        if before_build is not None:
            before_build(store)
        elif not strict:  # a query sees the views of the folder's last eval as well
            from .evaluation import load_saved
            load_saved(store, folder.root)
        store.build()
        # ledger errors read `ratifications.jsonl:LINE: code: message`, without the field
        bad = store.rows("SELECT * FROM audit_violations UNION ALL SELECT * FROM audit_standards_violations UNION ALL "
                         "SELECT source, line, record_id, NULL, code, message FROM ratification_violations") if strict else []
        refuse(bad, "invalid_judgments", "problem(s) listed above; nothing written")
        if kept is not None:
            kept.seal(head, units_sha)
    except BaseException:
        kept.discard() if kept is not None else store.close()
        raise
    return store, BuiltUnits(head, units_path), units_sha


def _load(folder: AuditFolder, store: Store, kept: KeptStore | None, *, strict: bool, ledger_bytes: bytes | None,
          inventory: bool) -> tuple[dict, str]:
    """Put the folder's files into a store not built yet (each unchanged file from the kept store when there is
    one); returns (the built units' header, their sha256)."""
    units_path = folder.units_path
    if not strict or inventory:  # queries and the report read the inventory too, when it is there and readable
        try:
            folder.load_inventory(store)
        except JfiError:
            pass
    ledger = folder.root / "ratifications.jsonl"
    ledger_ids = set()
    if ledger_bytes is not None or regular_file(ledger):
        if ledger_bytes is None:
            numbers, texts = line_columns(ledger)
        else:  # a ledger about to be written, checked whole before it is
            lines = [ln for ln in split_lines(ledger_bytes, ledger)[1] if ln.text.strip()]
            numbers, texts = [ln.number for ln in lines], [ln.text for ln in lines]
        _add_file(store, "ratification", ledger, texts, numbers)
        digests = []
        for number, text in zip(numbers, texts):
            try:
                record = json.loads(text)
            except (ValueError, RecursionError):
                continue  # the rules report the line (invalid JSON, or nesting too deep to read)
            if isinstance(record, dict):
                try:
                    digests.append((number, decision_id(record)))
                except RecursionError:
                    continue
                if isinstance(record.get("id"), str):
                    ledger_ids.add(record["id"])
        store.append("ledger_digests", {"source": [str(ledger)] * len(digests), "line": [d[0] for d in digests],
                                        "decision_id": [d[1] for d in digests]})
    head, units_sha = {}, hashlib.sha256(b"").hexdigest()
    if regular_file(units_path):
        units_sha = kept.shas[str(units_path)] if kept is not None else sha256_file(units_path)
        if kept is not None and kept.take(units_path):
            kept.copy_taken()  # now: the pins below are read from its rows
            head = json.loads(store.scalar("SELECT head FROM kept_before.jfi_kept"))
        else:
            built = parse_json(units_path.read_bytes(), units_path)
            if built.get("schema") != "judgment-units/v1" or not isinstance(built.get("units"), list):
                raise JfiError("invalid_units", "schema must be judgment-units/v1 with a units list",
                               source=str(units_path))
            head = {k: v for k, v in built.items() if k != "units"}
            if built["units"]:  # entry N of the units list is line N of kind unit
                store.append("raw_files", {"kind": ["unit"], "source": [str(units_path)], "round": [None],
                                           "present": [True]})
                store.con.execute("INSERT INTO raw_lines SELECT 'unit', ?, NULL, line, text FROM "
                                  "audit_built_units_file(?, ?)",
                                  [str(units_path), str(units_path), units_path.stat().st_size + 1]).fetchall()
            del built
        # the pins of the units the ledger names: each its entry's canonical digest
        pins = [(u["id"], digest(u)) for (text,) in store.con.execute(
            "SELECT text FROM raw_lines WHERE kind = 'unit' AND json_extract_string(text, '$.id') IN "
            "(SELECT unnest(?::VARCHAR[]))", [sorted(ledger_ids)]).fetchall() if isinstance(u := json.loads(text), dict)]
        store.append("unit_pins", {"id": [p[0] for p in pins], "unit_sha256": [p[1] for p in pins]})
    standards = folder.root / "standards.jsonl"
    if regular_file(standards) and not (kept is not None and kept.take(standards)):
        _add_file(store, "standard", standards)
    if own_folder(folder.batches):
        for path in sorted(folder.batches.glob("*.jsonl")):
            if not (kept is not None and kept.take(path)):
                _add_file(store, "judged" if path.name.endswith(".judged.jsonl") else "batch", path)
    spot = folder.root / "spot-checks.jsonl"
    if regular_file(spot) and not (kept is not None and kept.take(spot)):
        _add_file(store, "spot_check", spot)
    if kept is not None:
        kept.copy_taken()
    return head, units_sha


@commits
def sample(folder: AuditFolder, seed: str) -> int:
    with writer_lock(folder.root):
        store, _, _ = load_folder(folder, seed)
        try:  # each sampled row's JSON text is rendered by SQL
            store.pin("audit_spot_check_sample")
            columns = [c for (c,) in store.con.execute("SELECT column_name FROM (DESCRIBE audit_spot_check_sample)")
                       .fetchall() if c != "ord"]
            lines = [t for (t,) in store.con.execute(
                f"SELECT {sql_json_object(columns)} FROM audit_spot_check_sample ORDER BY ord").fetchall()]
            by_reason = dict(store.con.execute("SELECT reason, count(*) FROM audit_spot_check_sample GROUP BY reason "
                                               "ORDER BY min(ord)").fetchall())
            judged = store.scalar("SELECT count(DISTINCT id) FROM audit_judgments")
        finally:
            store.close()
        if not judged:
            print("no judged batches yet (batches/*.judged.jsonl); nothing to sample")
            return 1
        atomic_write(folder.root / "spot-check-sample.jsonl", "".join(line + "\n" for line in lines))
    print(json.dumps({"judged": judged, "sampled": len(lines), "by_reason": by_reason, "seed": seed}))
    return 0


def _cell(value):
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return value


def _merge_rows(con) -> int:
    """The draft rows into a temp table, each with its CSV line and its JSON text rendered by SQL; returns the count."""
    types = dict(con.execute("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM audit_draft_rows)").fetchall())
    texts, line = sql_csv_line(CSV_COLUMNS, types)
    con.execute(f"CREATE TEMP TABLE merge_rows AS SELECT sort_ord, _product AS product, {line} AS csv_line, json_line FROM "
                f"(SELECT sort_ord, product AS _product, {sql_json_object([c for c in types if c != 'sort_ord'])} "
                f"AS json_line, {texts} FROM audit_draft_rows) ORDER BY sort_ord")
    return con.execute("SELECT count(*) FROM merge_rows").fetchone()[0]


def _lines(con, column: str, sep: str, product: str | None = None, size: int = 5_000):
    """A column of merge_rows in row order (of one product, or all), a few thousand lines joined by `sep` at a
    time (memory stays flat: one large aggregate would hold every row at once)."""
    cur = con.execute(f"SELECT {column} FROM merge_rows WHERE ? IS NULL OR product = ? ORDER BY sort_ord",
                      [product, product])
    while chunk := cur.fetchmany(size):
        yield sep.join(line for (line,) in chunk)


@commits
def merge(folder: AuditFolder) -> int:
    """draft-judgments.csv (and one per product), .json, .xlsx, nav-consistency.csv and calibration.json. The rows'
    CSV lines and JSON texts are rendered by SQL and streamed to the files."""
    with writer_lock(folder.root):
        store, built, units_sha = load_folder(folder)
        try:
            con = store.con
            store.pin("audit_draft_rows")  # read by the lines, the tally, the calibration and the worklist
            n_rows = _merge_rows(con)
            products = [p for (p,) in con.execute("SELECT product FROM merge_rows GROUP BY product ORDER BY min(sort_ord)")
                        .fetchall()]
            ratified, missing = con.execute(
                "SELECT count(*) FILTER (WHERE status = 'RATIFIED'), count(*) FILTER (WHERE coalesce(draft_judgment, '') = '') "
                "FROM audit_draft_rows").fetchone()
            tally = {f"{t.pop('product')}|{t.pop('type')}": t for t in store.rows("SELECT * FROM audit_draft_tally")}
            workbook = None
            if n_rows <= WORKBOOK_MAX_ROWS:
                from .worklist import worklist_parts
                workbook = draft_workbook(store.rows("SELECT * EXCLUDE (sort_ord) FROM audit_draft_rows ORDER BY sort_ord"),
                                          worklist_parts(store)[3])
            rulebook = store.rulebook_sha256
            ledger_summary = store.rows("SELECT * FROM ratification_import")[0]
            calibration = store.rows("SELECT * FROM audit_calibration")
            ledger_summary["diagnostics"] = store.rows(
                "SELECT scope, id, state, diagnostic FROM ratification_effective WHERE diagnostic <> '' ORDER BY scope, id")
            nav = built.get("nav_consistency", [])
            status = ("RATIFIED" if n_rows and ratified == n_rows else "PARTIALLY_RATIFIED" if ratified
                      else "DRAFT_NOT_RATIFIED")
            document = {
                "schema": "draft-judgments/v1", "built_utc": utc_now(), "units_sha256": units_sha,
                "rubric": RUBRIC_FILE, "rulebook_sha256": rulebook, "jfi_version": __version__,
                "status": status, "ratified_rows": ratified, "ratification_import": ledger_summary,
                "coverage_basis": {
                    "views_inventoried": built.get("views_ok"), "views_skipped": built.get("views_skipped", []),
                    "viewport": built.get("viewport"), "caps": built.get("caps"),
                    "activation": "none — read-only capture, one viewport",
                    "rule": "a yes row is evidence of no defect in the captured sample only; it never supports a criterion outcome",
                },
                "what_this_is": "Per-row content judgments with deterministic heuristic flags. Each row's status says whether "
                                "it is agent-drafted work or a named human ratification; no row is itself a criterion outcome.",
                "tally": tally, "calibration": calibration, "missing": missing,
            }
            header = csv_lines(CSV_COLUMNS, [])[0]
            names = ["draft-judgments.csv", "nav-consistency.csv",
                     *(f"draft-judgments-{re.sub(r'[^a-zA-Z0-9.-]', '_', p)}.csv" for p in products)]
            with AtomicFiles() as files:
                for name, product in zip([names[0], *names[2:]], [None, *products]):
                    with files.open(folder.root / name) as fh:
                        fh.write(header.encode("utf-8"))
                        for lines in _lines(con, "csv_line", "\n", product):
                            fh.write((lines + "\n").encode("utf-8"))
                files.write(folder.root / names[1], csv_text(NAV_COLUMNS, [tuple(n.get(c) for c in NAV_COLUMNS) for n in nav]))
                if workbook is not None:
                    files.write(folder.root / "draft-judgments.xlsx", workbook)
                else:  # a workbook this long is no desk (and takes minutes to write); the CSV and JSON hold every row
                    from ..output import err
                    err(f"draft-judgments.xlsx not written: {n_rows:,} rows (a workbook is written up to "
                        f"{WORKBOOK_MAX_ROWS:,}); read draft-judgments.csv, the worklist and report.html")
                    if (folder.root / "draft-judgments.xlsx").exists():
                        files.remove(folder.root / "draft-judgments.xlsx")  # never a workbook of an older merge
                with files.open(folder.root / "draft-judgments.json") as fh:  # one row and one nav row per line
                    write_json_document(fh, document, {
                        "rows": _lines(con, "json_line", ",\n  "),
                        "nav_consistency": (json.dumps(n, ensure_ascii=False) for n in nav)})
                files.write(folder.root / "calibration.json", json.dumps(
                    {"schema": "calibration/v1", "built_utc": document["built_utc"], "units_sha256": units_sha,
                     "rulebook_sha256": rulebook, "per_product_type": calibration}, ensure_ascii=False, indent=1) + "\n")
        finally:
            store.close()
    print(json.dumps({"rows": n_rows, "missing": missing, "status": status,
                      "files": [*names, *(["draft-judgments.xlsx"] if workbook is not None else []),
                                "draft-judgments.json", "calibration.json"]}, ensure_ascii=False))
    return 0


# Rows up to which merge writes draft-judgments.xlsx (about 10 s of openpyxl at the limit; a desk, not an archive)
WORKBOOK_MAX_ROWS = 10_000


def draft_workbook(rows: list[dict], worklist_table: list[tuple]) -> bytes:
    """draft-judgments.xlsx for the ratifier: the rows (cells as the CSV's, without its formula guard: a workbook
    cell is text, never a formula), the worklist, and what each column means."""
    from .. import rulebook
    from ..workbook import Sheet, workbook_bytes
    from .worklist import WORKLIST_COLUMNS
    meanings = rulebook.meanings()[1]
    return workbook_bytes([
        Sheet("Draft judgments", CSV_COLUMNS, [tuple(_cell(r[c]) for c in CSV_COLUMNS) for r in rows],
              meanings.get("audit_draft_rows", {}), "status"),
        Sheet("Worklist", WORKLIST_COLUMNS, worklist_table, {
            "section": "family (one answer settles every row), look (a row to look at) or fact (a fact class to sign once)",
            "key": "the family, row or fact class", "kind": "what the family shares, or why the row needs a look",
            "type": "unit type", "units": "rows it covers", "unit_ids": "the unit ids", "detail": "what a person sees"}),
    ])


RECEIPT_COLUMNS = ["id", "product", "type", "sc", "name", "selector", "href", "views", "fix", "ratifier_note", "ruling",
                   "ratified_by", "ratified_utc", "decision_id", "drafted_by"]


@commits
def receipts(folder: AuditFolder) -> int:
    """Ratified no rows become findings; a row that is not RATIFIED is never an input."""
    with writer_lock(folder.root):
        store, _, _ = load_folder(folder)
        try:
            rows = store.rows("SELECT * FROM audit_receipts")
        finally:
            store.close()
        with AtomicFiles() as files:
            files.write(folder.root / "receipts.csv",
                        csv_text(RECEIPT_COLUMNS, [tuple(_cell(r[c]) for c in RECEIPT_COLUMNS) for r in rows]))
            files.write(folder.root / "receipts.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"{folder.root / 'receipts.csv'}: {len(rows)} finding(s) from rows ratified as no")
    return 0
