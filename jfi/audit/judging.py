"""Loading what judges and checkers return (batches/*.judged.jsonl, spot-checks.jsonl) beside the built units,
and the two commands that read them: `jfi audit sample` and `jfi audit merge`."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from .. import __version__
from ..errors import JfiError, refuse
from ..jsonl import AtomicFiles, atomic_write, line_columns, parse_json, split_lines, writer_lock
from ..output import csv_lines, csv_text, utc_now, write_json_document
from ..store import Store
from .canonical import decision_id, digest
from .folder import AuditFolder

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
    present = path.is_file() or texts_from is not None
    store.append("raw_files", {"kind": [kind], "source": [str(path)], "round": [round_no], "present": [present]})
    if texts_from is None and present:
        numbers, texts_from = line_columns(path)
    if texts_from:
        store.add_lines(kind, str(path), numbers, texts_from, round_no=round_no)


def load_folder(folder: AuditFolder, seed: str = "", *, strict: bool = True,
                ledger_bytes: bytes | None = None, before_build=None, inventory: bool = False) -> tuple[Store, dict, bytes]:
    """A store with the inventory (when present), the built units, the batches, what judges returned and the
    spot checks. Strict: refuses bad input, listing every problem; otherwise loads what is there (for queries)."""
    units_path = folder.root / "judgment-units.json"
    built, data = {}, b""
    if units_path.is_file():
        data = units_path.read_bytes()
        built = parse_json(data, units_path)
        if built.get("schema") != "judgment-units/v1" or not isinstance(built.get("units"), list):
            raise JfiError("invalid_units", "schema must be judgment-units/v1 with a units list", source=str(units_path))
    elif strict:
        folder.require_built()
    store = Store(sections=("audit",))
    store.set_sample_seed(seed)
    if not strict or inventory:  # queries and the report read the inventory too, when it is there and readable
        try:
            folder.load_inventory(store)
        except JfiError:
            pass
    ledger = folder.root / "ratifications.jsonl"
    ledger_ids = set()
    if ledger_bytes is not None or ledger.is_file():
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
    ledger_ids.discard(None)
    if built.get("units"):  # entry N of the units list is line N of kind unit
        store.append("raw_files", {"kind": ["unit"], "source": [str(units_path)], "round": [None], "present": [True]})
        store.con.execute("INSERT INTO raw_lines SELECT 'unit', ?, NULL, line, text FROM audit_built_units_file(?, ?)",
                          [str(units_path), str(units_path), len(data) + 1]).fetchall()
        pins = [(u["id"], digest(u)) for u in built["units"] if isinstance(u, dict) and u.get("id") in ledger_ids]
        store.append("unit_pins", {"id": [p[0] for p in pins], "unit_sha256": [p[1] for p in pins]})
    standards = folder.root / "standards.jsonl"
    if standards.is_file():
        _add_file(store, "standard", standards)
    if folder.batches.is_dir():
        for path in sorted(folder.batches.glob("*.jsonl")):
            _add_file(store, "judged" if path.name.endswith(".judged.jsonl") else "batch", path)
    spot = folder.root / "spot-checks.jsonl"
    if spot.is_file():
        _add_file(store, "spot_check", spot)
    if before_build is not None:
        before_build(store)
    elif not strict:  # a query sees the views of the folder's last eval as well
        from .evaluation import load_saved
        load_saved(store, folder.root)
    store.build()
    # ledger errors read `ratifications.jsonl:LINE: code: message`, without the field
    bad = store.rows("SELECT * FROM audit_violations UNION ALL SELECT * FROM audit_standards_violations UNION ALL "
                     "SELECT source, line, record_id, NULL, code, message FROM ratification_violations") if strict else []
    if bad:
        store.close()
    refuse(bad, "invalid_judgments", "problem(s) listed above; nothing written")
    return store, built, data



def sample(folder: AuditFolder, seed: str) -> int:
    with writer_lock(folder.root):
        store, _, _ = load_folder(folder, seed)
        try:
            rows = store.rows("SELECT * EXCLUDE (ord) FROM audit_spot_check_sample")
            judged = store.scalar("SELECT count(DISTINCT id) FROM audit_judgments")
        finally:
            store.close()
        if not judged:
            print("no judged batches yet (batches/*.judged.jsonl); nothing to sample")
            return 1
        atomic_write(folder.root / "spot-check-sample.jsonl",
                     "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    by_reason: dict[str, int] = {}
    for r in rows:
        by_reason[r["reason"]] = by_reason.get(r["reason"], 0) + 1
    print(json.dumps({"judged": judged, "sampled": len(rows), "by_reason": by_reason, "seed": seed}))
    return 0


def _cell(value):
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return value


def merge(folder: AuditFolder) -> int:
    with writer_lock(folder.root):
        store, built, data = load_folder(folder)
        try:
            rows = store.rows("SELECT * EXCLUDE (sort_ord) FROM audit_draft_rows")
            from .worklist import worklist_parts
            worklist_table = worklist_parts(store)[3] if len(rows) <= WORKBOOK_MAX_ROWS else []
            rulebook = store.rulebook_sha256
            ledger_summary = store.rows("SELECT * FROM ratification_import")[0]
            calibration = store.rows("SELECT * FROM audit_calibration")
            ledger_summary["diagnostics"] = store.rows(
                "SELECT scope, id, state, diagnostic FROM ratification_effective WHERE diagnostic <> '' ORDER BY scope, id")
        finally:
            store.close()
        for r in rows:
            for col in CSV_COLUMNS:
                r.setdefault(col, "")
        nav = built.get("nav_consistency", [])

        header, lines = csv_lines(CSV_COLUMNS, [tuple(_cell(r[c]) for c in CSV_COLUMNS) for r in rows])
        outputs = {"draft-judgments.csv": header + "".join(lines),
                   "nav-consistency.csv": csv_text(NAV_COLUMNS, [tuple(n.get(c) for c in NAV_COLUMNS) for n in nav])}
        for product in dict.fromkeys(r["product"] for r in rows):
            outputs[f"draft-judgments-{re.sub(r'[^a-zA-Z0-9.-]', '_', product)}.csv"] = header + "".join(
                line for r, line in zip(rows, lines) if r["product"] == product)
        tally: dict[str, dict] = {}
        for r in rows:
            t = tally.setdefault(f"{r['product']}|{r['type']}", {"yes": 0, "no": 0, "unsure": 0, "missing": 0,
                                                                  "needs_human": 0, "spot_checked": 0, "overturned": 0})
            t[r["session_draft_judgment"] or "missing"] += 1
            t["needs_human"] += r["needs_human"] == "true"
            t["spot_checked"] += bool(r["spot_check"])
            t["overturned"] += r["spot_check"].startswith("overturn")
            t["ratified"] = t.get("ratified", 0) + (r["status"] == "RATIFIED")
        ratified = sum(1 for r in rows if r["status"] == "RATIFIED")
        status = "RATIFIED" if rows and ratified == len(rows) else "PARTIALLY_RATIFIED" if ratified else "DRAFT_NOT_RATIFIED"
        document = {
            "schema": "draft-judgments/v1", "built_utc": utc_now(), "units_sha256": hashlib.sha256(data).hexdigest(),
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
            "tally": tally, "calibration": calibration, "missing": sum(1 for r in rows if not r["draft_judgment"]),
        }
        with AtomicFiles() as files:
            for name, text in outputs.items():
                files.write(folder.root / name, text)
            if len(rows) <= WORKBOOK_MAX_ROWS:
                files.write(folder.root / "draft-judgments.xlsx", draft_workbook(rows, worklist_table))
            else:  # a workbook this long is no desk (and takes minutes to write); the CSV and JSON hold every row
                from ..output import err
                err(f"draft-judgments.xlsx not written: {len(rows):,} rows (a workbook is written up to "
                    f"{WORKBOOK_MAX_ROWS:,}); read draft-judgments.csv, the worklist and report.html")
                if (folder.root / "draft-judgments.xlsx").exists():
                    files.remove(folder.root / "draft-judgments.xlsx")  # never a workbook of an older merge
            with files.open(folder.root / "draft-judgments.json") as fh:  # one row and one nav row per line
                write_json_document(fh, document, {"rows": (json.dumps(r, ensure_ascii=False) for r in rows),
                                                   "nav_consistency": (json.dumps(n, ensure_ascii=False) for n in nav)})
            files.write(folder.root / "calibration.json", json.dumps(
                {"schema": "calibration/v1", "built_utc": document["built_utc"], "units_sha256": document["units_sha256"],
                 "rulebook_sha256": rulebook, "per_product_type": calibration}, ensure_ascii=False, indent=1) + "\n")
    print(json.dumps({"rows": len(rows), "missing": document["missing"], "status": document["status"],
                      "files": [*outputs, *(["draft-judgments.xlsx"] if len(rows) <= WORKBOOK_MAX_ROWS else []),
                                "draft-judgments.json", "calibration.json"]},
                     ensure_ascii=False))
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
