"""`jfi audit review export|apply`: a pinned bundle of review tasks out, signed decisions back into the ledger."""

from __future__ import annotations

import datetime
import json
import os
import re
from pathlib import Path

from .. import rulebook
from ..canonical import decision_id, digest
from ..errors import JfiError, clip
from ..jsonl import AtomicFiles, append_records, atomic_write, parse_json, read_lines, sha256_file, writer_lock
from ..output import Outcome, csv_rules, csv_text, utc_now
from ..paths import regular_file
from ..templating import render
from .folder import AuditFolder, json_head
from .kept import commits
from .report import crops
from .worklist import families_once

TASK_COLUMNS = [
    "task",
    "id",
    "kind",
    "rows",
    "product",
    "type",
    "sc",
    "question",
    "name",
    "name_source",
    "role",
    "flags",
    "draft",
    "rationale",
    "evidence",
    "crop",
    "detail",
    "href",
    "context",
    "views",
    "decision",
    "observation",
    "fix",
    "reviewer",
    "utc",
    "supersession_reason",
    "bundle_id",
]
TASK_MEANINGS = {
    "task": "the task's number in this bundle",
    "id": "the decision (leave as is): a family (FAM-...) or fact class (FACT:...) whose answer is every row's, or a unit id",
    "kind": "family (one answer for many rows), fact_class (signed once) or row",
    "rows": "how many rows this one answer settles",
    "product": "the product it belongs to",
    "type": "title, heading, link, image, field or ident",
    "sc": "the WCAG success criterion the question is about",
    "question": "what to decide, in words",
    "name": "the accessible name the browser computed",
    "name_source": "where the name comes from (aria-label, content, alt, title, ...)",
    "role": "the role the browser exposes",
    "flags": "what jfi's rules found, semicolon-separated (see the report for each meaning)",
    "draft": "the judge's draft judgment (never a verdict)",
    "rationale": "the judge's reason for the draft",
    "evidence": "a link to the row in the audit's report.html (`jfi audit report`), with the crop of the page around it",
    "crop": "a link to a picture of the element, outlined, in this bundle (crops/; for a family, its first row's)",
    "detail": "how the name was made, sizes and sources",
    "href": "where a link goes, or an image's source",
    "context": "the text a person reads around it",
    "views": "the views it appears on",
    "decision": "fill in: yes, no or unsure (any case; spaces around are ignored)",
    "observation": "fill in: what you saw (the ratifier's note; optional on a yes)",
    "fix": "fill in when it needs one: the fix you ask for (it reaches the receipts)",
    "reviewer": "fill in: your name",
    "utc": "fill in: when you decided, UTC, such as 2026-12-01T10:00:00Z "
    "(a date-and-time cell is read as the UTC time it shows)",
    "supersession_reason": "fill in when the task replaces an earlier decision: why",
    "bundle_id": "the bundle these tasks belong to (leave as is)",
}
DECISIONS = ("yes", "no", "unsure")
RETURN_FIELDS = (
    "id",
    "ratified_by",
    "ratified_judgment",
    "ratifier_note",
    "ratified_utc",
    "supersession_reason",
    "fix",
)
# the columns a person fills in review-tasks.csv / .xlsx, and the return fields they are
FILLED = {
    "reviewer": "ratified_by",
    "decision": "ratified_judgment",
    "observation": "ratifier_note",
    "utc": "ratified_utc",
    "supersession_reason": "supersession_reason",
    "fix": "fix",
}
SPLITS = ("product", "type")  # what `review export --by` may split a bundle by
COLUMN_OF = {field: column for column, field in FILLED.items()}
RUBRIC = Path(__file__).resolve().parent / "kit" / "rubric.md"


def _sha(path: Path) -> str:
    return "sha256:" + sha256_file(path) if path.is_file() else ""


def _snapshot(folder: AuditFolder) -> dict:
    source = folder.inventory_jsonl if folder.inventory_jsonl.is_file() else folder.manifest
    return {"inventory_sha256": _sha(source), "units_sha256": _sha(folder.root / "judgment-units.json")}


@commits
def export(folder: AuditFolder, out: Path, include_all: bool, reviewers: int = 1, by: str | None = None) -> Outcome:
    """One pinned bundle of review tasks in `out`; or, split between reviewers (`reviewers` parts of consecutive
    tasks, or one part per product or type with `by`), one bundle per part in out/<part>/, each returned alone."""
    out = Path(out)
    if not 1 <= reviewers <= 1000:  # options a command line would not take: usage errors, as Typer's own (exit 3)
        raise JfiError(
            "invalid_option", f"--reviewers must be 1 to 1000, got {reviewers}", field="--reviewers", exit_code=3
        )
    if by is not None and by not in SPLITS:
        raise JfiError(
            "invalid_option", f"--by must be one of {', '.join(SPLITS)}, got {by!r}", field="--by", exit_code=3
        )
    if out.exists():
        raise JfiError("bundle_exists", f"{out} already exists; a bundle goes in a new folder", source=str(out))
    merged = folder.root / "draft-judgments.json"
    if not merged.is_file():
        raise JfiError("not_merged", "no draft-judgments.json yet; run `jfi audit merge` first", source=str(merged))
    units_sha = sha256_file(folder.root / "judgment-units.json")
    if json_head(merged, "rows").get("units_sha256") != units_sha:  # its header: its rows are not read
        raise JfiError(
            "stale_merge", "the units changed since the last merge; run `jfi audit merge` again", source=str(merged)
        )
    with writer_lock(folder.root):  # the folder's kept store is opened by one command at a time
        store, built, _ = folder.load()
        try:
            current = {
                r["id"]: r
                for r in store.rows("SELECT id, decision_id, state FROM ratification_effective WHERE scope = 'wcag'")
            }
            drafts = {
                r["id"]: r
                for r in store.rows(
                    "SELECT id, status, flags, session_draft_judgment AS draft, rationale FROM audit_draft_rows"
                )
            }
            questions = dict(store.con.execute("SELECT type, question FROM audit_questions").fetchall())
            families_once(store)
            settles = (
                {}
                if include_all
                else {
                    r["id"]: (r["decision"], r["kind"])
                    for r in store.rows("SELECT id, decision, kind FROM audit_decisions")
                }
            )
            asked = dict(store.con.execute("SELECT family_id, question FROM audit_worklist_families").fetchall())
            asked.update(
                store.con.execute("SELECT 'FACT:' || fact_class, meaning FROM audit_worklist_facts").fetchall()
            )
        finally:
            store.close()
        rows, kinds = _decided(built, drafts, settles, include_all)
        tasks = [
            _task(k, decision, kinds[decision], members, drafts, current, questions, asked)
            for k, (decision, members) in enumerate(rows.items(), 1)
        ]
        shown = {x["id"] for t in tasks for x in t.get("sample") or [t]}  # what a task shows a picture of
        pictured = _pictures(folder, shown) if tasks and (folder.root / "screenshots").is_dir() else {}
    if not tasks:
        return Outcome(1, lines=["every unit has a complete decision; nothing to review (use --all for a re-review)"])
    parts = _parts(tasks, reviewers, by)
    issued = folder.root / ISSUED
    with AtomicFiles() as files:
        made = [
            (name, _write_bundle(folder, out / name if name else out, part, files, pictured)) for name, part in parts
        ]
        old = issued.read_bytes() if regular_file(issued) else b""
        files.write(
            issued,
            append_records(
                old,
                [
                    {
                        "bundle_id": b["bundle_id"],
                        "created_utc": b["created_utc"],
                        "tasks": len(b["tasks"]),
                        "out": str(out / name if name else out),
                    }
                    for name, b in made
                ],
            ),
        )
    return Outcome(
        0,
        lines=[
            f"{out / name if name else out}: bundle {bundle['bundle_id']} with {len(bundle['tasks'])} task(s)"
            for name, bundle in made
        ],
    )


def _pictures(folder: AuditFolder, ids: set[str]) -> dict[str, bytes]:
    """The crops of these rows (none when the folder's inventory cannot be read: the tasks still link the report)."""
    try:
        return crops(folder, ids)
    except JfiError:
        return {}


def _decided(built: dict, drafts: dict, settles: dict, include_all: bool) -> tuple[dict, dict]:
    """(decision -> its rows in build order, decision -> kind) of the rows not yet ratified (every row with --all,
    each its own decision)."""
    rows: dict[str, list[dict]] = {}
    kinds = {}
    for unit in built["units"]:
        if not include_all and drafts.get(unit["id"], {}).get("status") == "RATIFIED":
            continue
        decision, kind = settles.get(unit["id"], (unit["id"], "row"))
        rows.setdefault(decision, []).append(unit)
        kinds[decision] = kind
    return rows, kinds


SAMPLE = 5  # rows a family's task shows (with their evidence), beside its count


def _task(
    k: int, decision: str, kind: str, members: list[dict], drafts: dict, current: dict, questions: dict, asked: dict
) -> dict:
    """One task per decision: a row alone, or a family or fact class whose one answer fans out to every row it
    settles (each pinned by its digest and the decision in force for it at export)."""
    first = members[0]
    draft = drafts.get(first["id"], {})
    units = [
        {
            "id": u["id"],
            "unit_sha256": digest(u),
            "base_decision_id": current[u["id"]]["decision_id"] if u["id"] in current else "",
        }
        for u in members
    ]
    evidence = f"#{first['id']}"
    if kind == "row":
        return {
            "task": k,
            "id": first["id"],
            "kind": "row",
            "rows": 1,
            "product": first["product"],
            "type": first["type"],
            "sc": first["sc"],
            "question": questions.get(first["type"], "").replace("{name}", first["name"] or "(no name)"),
            "name": first["name"],
            "name_source": first.get("name_source") or "",
            "role": first.get("role") or "",
            "flags": list(draft.get("flags") or []),
            "draft": draft.get("draft") or "",
            "rationale": draft.get("rationale") or "",
            "evidence": evidence,
            "detail": first["detail"],
            "href": first["href"],
            "context": first["context"],
            "views": first["views"],
            "unit_sha256": units[0]["unit_sha256"],
            "base_decision_id": units[0]["base_decision_id"],
            "units": units,
        }
    sample = members[:SAMPLE]
    values = lambda key: sorted({str(u.get(key)) for u in members if u.get(key)})  # noqa: E731
    judged = sorted({drafts.get(u["id"], {}).get("draft") or "unjudged" for u in members})
    views = list(dict.fromkeys(v for u in members for v in u["views"]))
    return {
        "task": k,
        "id": decision,
        "kind": kind,
        "rows": len(members),
        "product": "; ".join(values("product")),
        "type": "; ".join(values("type")),
        "sc": "; ".join(values("sc")),
        "question": asked.get(decision, ""),
        "name": "; ".join(f'"{u["name"] or "(no name)"}"' for u in sample)
        + (f" and {len(members) - len(sample)} more" if len(members) > len(sample) else ""),
        "name_source": "",
        "role": "",
        "flags": sorted({f for u in members for f in drafts.get(u["id"], {}).get("flags") or []}),
        "draft": ", ".join(judged),
        "rationale": "",
        "evidence": evidence,
        "detail": f"one answer for {len(members)} rows",
        "href": "; ".join(str(u["href"] or "") for u in sample),
        "context": " | ".join(u["context"] for u in sample if u["context"]),
        "views": views[:20],
        "sample": [
            {"id": u["id"], "name": u["name"], "href": u["href"], "context": u["context"], "evidence": f"#{u['id']}"}
            for u in sample
        ],
        "units": units,
    }


ISSUED = "review-bundles.jsonl"  # in the audit folder: every bundle jfi exported from it, by its id


def _issued(folder: AuditFolder) -> set[str]:
    """The ids of the bundles exported from this audit folder (a return is taken only for one of them)."""
    path = folder.root / ISSUED
    if not regular_file(path):
        return set()
    ids = set()
    for line in read_lines(path):
        record = parse_json(line.text, path, line.number)
        if isinstance(record, dict) and isinstance(record.get("bundle_id"), str):
            ids.add(record["bundle_id"])
    return ids


def _parts(tasks: list[dict], reviewers: int, by: str | None) -> list[tuple[str, list[dict]]]:
    """(folder name under --out, tasks) per part: the whole bundle in --out itself; split by product or type, a
    part per value; split between N reviewers, N parts of consecutive tasks (a family's rows stay together as the
    sort keeps them), each as even as can be."""
    if by:
        parts, names = [], set()
        for v in sorted({t[by] for t in tasks}):
            name = f"{by}-{re.sub(r'[^A-Za-z0-9_-]', '_', v)[:60] or 'none'}"
            name = name if name not in names else f"{name}-{len(parts) + 1}"  # two values that read alike
            names.add(name)
            parts.append((name, [t for t in tasks if t[by] == v]))
        return parts
    if reviewers == 1:
        return [("", tasks)]
    n = min(reviewers, len(tasks))
    size, extra = divmod(len(tasks), n)
    out, start = [], 0
    for k in range(n):
        end = start + size + (k < extra)
        out.append((f"part-{k + 1}-of-{n}", tasks[start:end]))
        start = end
    return out


def _write_bundle(
    folder: AuditFolder, out: Path, tasks: list[dict], files: AtomicFiles, pictured: dict[str, bytes] | None = None
) -> dict:
    """Write one bundle (bundle.json, the task sheets, the template, the rubric, crops/ with a picture of each element
    a task shows) into the group of files."""
    report = Path(
        os.path.relpath(folder.root / "report.html", out)
    ).as_posix()  # evidence links from where the sheet is
    pictured = pictured or {}
    crop = lambda uid: f"crops/{uid}.png" if uid in pictured else ""  # noqa: E731
    tasks = [
        {
            **t,
            "task": k,
            "evidence": report + t["evidence"],
            "crop": crop(t["sample"][0]["id"] if t.get("sample") else t["id"]),
            **(
                {"sample": [{**x, "evidence": report + x["evidence"], "crop": crop(x["id"])} for x in t["sample"]]}
                if "sample" in t
                else {}
            ),
        }
        for k, t in enumerate(tasks, 1)
    ]
    for uid in sorted({x["id"] for t in tasks for x in t.get("sample") or [t]} & set(pictured)):
        files.write(out / "crops" / f"{uid}.png", pictured[uid])
    bundle = {"schema": "review-bundle/v1", "audit": str(folder.root), **_snapshot(folder), "tasks": tasks}
    bundle = {"bundle_id": digest(bundle), "created_utc": utc_now("seconds"), **bundle}
    md = render("review-tasks.md", bundle_id=bundle["bundle_id"], tasks=tasks)
    template = {
        "bundle_id": bundle["bundle_id"],
        "decisions": [
            {
                "id": t["id"],
                "ratified_by": "",
                "ratified_judgment": "",
                "ratifier_note": "",
                "ratified_utc": "",
                "supersession_reason": "",
                "fix": "",
            }
            for t in tasks
        ],
    }
    shown = {"flags": lambda t: "; ".join(t["flags"]), "views": lambda t: "; ".join(t["views"])}
    rows = [
        tuple(
            shown[c](t) if c in shown else ("" if c in FILLED else bundle["bundle_id"] if c == "bundle_id" else t[c])
            for c in TASK_COLUMNS
        )
        for t in tasks
    ]
    from ..workbook import Sheet, workbook_bytes

    files.write(out / "bundle.json", json.dumps(bundle, ensure_ascii=False, indent=1) + "\n")
    files.write(out / "review-tasks.csv", csv_text(TASK_COLUMNS, rows))
    files.write(
        out / "review-tasks.xlsx",
        workbook_bytes(
            [
                Sheet(
                    SHEET,
                    TASK_COLUMNS,
                    rows,
                    TASK_MEANINGS,
                    choices={"decision": list(DECISIONS)},
                    links=("evidence", "crop"),
                )
            ]
        ),
    )
    files.write(out / "judgment-rubric.md", RUBRIC.read_bytes())
    files.write(out / "review-tasks.md", md)
    files.write(out / "return-template.json", json.dumps(template, ensure_ascii=False, indent=1) + "\n")
    return bundle


def _refuse(problems: list[str]) -> None:
    raise JfiError(
        "return_refused", f"{len(problems)} problem(s) listed above; the ledger is unchanged", problems=problems
    )


def _read_json(path: Path):
    """A JSON document, or a refusal naming the file (and the line, for bad JSON)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise JfiError("missing_file", f"cannot read {path}", source=str(path)) from None
    return parse_json(data, path)  # the one strict reader: bad JSON, bad UTF-8, NaN, nesting, with file and line


RETURN_MAX_BYTES = 20_000_000  # a returned sheet (or its parts, inflated) larger than this is refused, never read
RETURN_MAX_ROWS = 100_000


SHEET = "Review tasks"  # the sheet jfi writes the tasks on; a return is read from it, by name, and from nothing else


def _workbook_table(path: Path) -> list[list[str]]:
    """The sheet jfi wrote (SHEET, by name) of a returned workbook as text cells, read with limits: its parts inflate
    to at most RETURN_MAX_BYTES, its XML is parsed with entity declarations refused (openpyxl uses defusedxml), and
    anything it cannot read is a refusal naming the file, never a traceback. The sheet missing or hidden is refused
    (a hidden sheet is not what the person who signed saw), and so is a formula in any cell: its cached value is
    what a program last computed, not what a person wrote."""
    import zipfile

    import openpyxl

    try:
        with zipfile.ZipFile(path) as z:
            inflated = sum(i.file_size for i in z.infolist())
            if inflated > RETURN_MAX_BYTES or len(z.infolist()) > 10_000:
                raise JfiError(
                    "invalid_workbook",
                    f"the workbook inflates to {inflated:,} bytes; a review sheet is at most {RETURN_MAX_BYTES:,}",
                    source=str(path),
                )
        book = openpyxl.load_workbook(path, read_only=True, data_only=False)
        try:
            if SHEET not in book.sheetnames:
                raise JfiError(
                    "invalid_workbook",
                    f"no sheet named {SHEET!r}; return the workbook jfi exported, with its sheet as it is named",
                    source=str(path),
                )
            ws = book[SHEET]
            if ws.sheet_state != "visible":
                raise JfiError(
                    "invalid_workbook",
                    f"the sheet {SHEET!r} is hidden; a return is read from the sheet a person sees",
                    source=str(path),
                )
            table = []
            for row in ws.iter_rows():
                formula = next((c for c in row if getattr(c, "data_type", None) == "f"), None)
                if formula is not None:
                    raise JfiError(
                        "invalid_workbook",
                        f"cell {formula.coordinate} holds a formula "
                        f"({clip(formula.value, 60)!r}); type the decision itself",
                        source=str(path),
                        line=formula.row,
                        field=formula.coordinate,
                    )
                table.append([_cell_text(c) for c in row])
                if len(table) > RETURN_MAX_ROWS:
                    raise JfiError(
                        "invalid_workbook",
                        f"more than {RETURN_MAX_ROWS:,} rows; a review sheet has one per task",
                        source=str(path),
                    )
            return table
        finally:
            book.close()
    except JfiError:
        raise
    except Exception as e:  # a cut or broken part, an entity declaration, a missing sheet: openpyxl raises many kinds
        raise JfiError(
            "invalid_workbook", f"cannot read the workbook ({type(e).__name__}: {clip(str(e), 160)})", source=str(path)
        ) from None


def _table_rows(path: Path) -> list[tuple[int, dict]]:
    """The rows of a filled review-tasks.csv or .xlsx as (row number, {column: text}), the header being row 1. A
    header naming a column twice, or a row with cells beyond the header, is refused with its row."""
    if not path.is_file():
        raise JfiError("missing_file", f"cannot read {path}", source=str(path))
    if path.stat().st_size > RETURN_MAX_BYTES:
        raise JfiError(
            "invalid_responses",
            f"{path.stat().st_size:,} bytes; a returned sheet is at most {RETURN_MAX_BYTES:,}",
            source=str(path),
        )
    if path.suffix.lower() == ".xlsx":
        table = _workbook_table(path)
    else:
        import csv
        import io

        try:
            text = path.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise JfiError("invalid_utf8", f"not UTF-8 at byte {e.start}", source=str(path)) from None
        try:
            table = list(csv.reader(io.StringIO(text, newline="")))
        except csv.Error as e:
            raise JfiError("invalid_csv", str(e), source=str(path)) from None
        if len(table) > RETURN_MAX_ROWS:
            raise JfiError(
                "invalid_responses",
                f"more than {RETURN_MAX_ROWS:,} rows; a review sheet has one per task",
                source=str(path),
            )
    while table and not any(c.strip() for c in table[-1]):
        table.pop()
    if not table or "id" not in table[0]:
        raise JfiError(
            "invalid_responses",
            "the first row must be review-tasks' header (task, id, ..., observation, decision, reviewer, utc)",
            source=str(path),
            line=1,
        )
    header = [c.strip() for c in table[0]]
    while header and not header[-1]:
        header.pop()
    missing = [c for c in ("observation", "decision", "reviewer", "utc") if c not in header]
    if missing:
        raise JfiError("invalid_responses", f"the header lacks {', '.join(missing)}", source=str(path), line=1)
    twice = sorted({c for c in header if c and header.count(c) > 1})
    if twice:
        raise JfiError(
            "invalid_responses",
            f"the header names {', '.join(twice)} twice; which one holds the answer cannot be told",
            source=str(path),
            line=1,
            field=twice[0],
        )
    rows = []
    for n, row in enumerate(table[1:], start=2):
        if any(c.strip() for c in row[len(header) :]):
            raise JfiError(
                "invalid_responses",
                f"row {n} has values beyond the header's {len(header)} columns "
                f"({clip(next(c for c in row[len(header) :] if c.strip()), 60)!r}); nothing was applied",
                source=str(path),
                line=n,
            )
        if any(c.strip() for c in row):
            rows.append((n, dict(zip(header, row))))
    return rows


def _cell_text(cell) -> str:
    """A workbook cell as the text a person sees: a date-and-time cell is the UTC time it shows (the utc column says
    UTC), a date-only cell the day it shows; a whole number without its .0."""
    v = getattr(cell, "value", None)
    if v is None:
        return ""
    if isinstance(v, datetime.datetime):
        shows_time = re.search(r"[hs]", re.sub(r"\[[^\]]*\]|\"[^\"]*\"", "", (cell.number_format or "").lower()))
        return v.strftime("%Y-%m-%dT%H:%M:%SZ") if shows_time else v.strftime("%Y-%m-%d")
    if isinstance(v, (datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _unguarder(rows: list[tuple[int, dict]]):
    """A cell the export guarded against formulas (a leading ') reads as the text it guards: the core rulebook's
    csv_unguarded, applied at once to every cell of the return (as read, and stripped)."""
    texts = sorted({t for _, row in rows for cell in row.values() for t in (cell, cell.strip())})
    read = dict(zip(texts, csv_rules("csv_unguarded(t)", texts)))
    return lambda text: read.get(text, text)


def read_responses(path: Path, bundle: dict) -> tuple[dict, callable, callable]:
    """The return as {bundle_id, decisions}, where each decision is (for messages), and a field's name as the
    file spells it: the JSON template's fields, or review-tasks' columns (a CSV or workbook row per task)."""
    if path.suffix.lower() not in (".csv", ".xlsx"):
        return _read_json(path), (lambda n: f"{path}: decision {n}"), (lambda field: field)
    rows = _table_rows(path)
    _unguard = _unguarder(rows)
    decisions, lines = [], {}
    for number, row in rows:
        lines[len(decisions) + 1] = number
        d = {"id": _unguard(row.get("id", "").strip())}
        d.update({field: _unguard(row.get(column, "")).strip() for column, field in FILLED.items()})
        decisions.append(d)
    others = {row.get("bundle_id", "").strip() for _, row in rows} - {"", bundle.get("bundle_id")}
    if not others and (misplaced := _misplaced(path, rows, bundle, _unguard)):
        _refuse(misplaced)
    answer = {"bundle_id": bundle.get("bundle_id") if not others else sorted(others)[0], "decisions": decisions}
    return answer, (lambda n: f"{path}:{lines.get(n, n)}"), (lambda field: COLUMN_OF.get(field, field))


def _misplaced(path: Path, rows: list[tuple[int, dict]], bundle: dict, _unguard) -> list[str]:
    """Rows that do not hold the task the bundle pinned under their id: a blank bundle_id, a task number, name or
    detail that belongs to another task (a one-column sort in a spreadsheet moves one column and not the others),
    or one id on two rows."""
    tasks = {t["id"]: t for t in bundle.get("tasks", []) if isinstance(t, dict)}
    problems, first_row = [], {}
    for number, row in rows:
        uid = _unguard(row.get("id", "").strip())
        where = f"{path}:{number}"
        if not row.get("bundle_id", "").strip():
            problems.append(
                f"{where}: bundle_id: missing_bundle: found nothing, expected {bundle.get('bundle_id')} "
                "(leave the column as exported)"
            )
        if uid in first_row:
            problems.append(f"{where}: id: duplicate_row: {uid} is also on row {first_row[uid]}; one row per task")
        first_row.setdefault(uid, number)
        task = tasks.get(uid)
        if task is None:
            continue  # an unknown id is named by the checks of the decisions
        pinned = {"task": str(task["task"]), "name": task.get("name") or "", "detail": task.get("detail") or ""}
        for column, want in pinned.items():
            got = _unguard(row[column].strip()) if column in row else None
            if got is not None and got != want.strip():
                problems.append(
                    f"{where}: {column}: moved_row: the bundle pinned {column} {clip(want, 60)!r} for "
                    f"{uid}, the row says {clip(got, 60)!r} (were the rows sorted by one column?)"
                )
    return problems


def _rows_of(task: dict) -> list[dict]:
    """The rows a task settles ({id, unit_sha256, base_decision_id} each): a decision's, or (a bundle of one task per
    row) the task's own."""
    units = task.get("units")
    if isinstance(units, list) and units and all(isinstance(u, dict) and isinstance(u.get("id"), str) for u in units):
        return units
    return [
        {"id": task.get("id"), "unit_sha256": task.get("unit_sha256"), "base_decision_id": task.get("base_decision_id")}
    ]


def _missing(bundle: dict, answer: dict, source: Path) -> list[str]:
    """Tasks of the bundle the return does not hold at all (a row deleted from the sheet, a decision taken out of the
    template): named, never read as pending."""
    decisions = answer.get("decisions") if isinstance(answer.get("decisions"), list) else []
    there = {d.get("id") for d in decisions if isinstance(d, dict)}
    return [
        f"{source}: id: missing_task: task {t.get('task')} ({t.get('id')}) is not in the return; leave a task "
        "blank to keep it pending, never delete it"
        for t in bundle.get("tasks", [])
        if isinstance(t, dict) and t.get("id") not in there
    ]


RECORD_FIELDS = (
    "id",
    "scope",
    "ratified_by",
    "ratified_judgment",
    "ratifier_note",
    "ratified_utc",
    "ruling",
    "unit_sha256",
    "fix",
    "supersedes",
    "supersession_reason",
    "decision_id",
)  # a ledger record's, in order


def _checked(store, answer: dict, bundle: dict, built, locate, column) -> tuple[list[str], list[dict], int]:
    """(problems, the ledger records to append, tasks still pending) of a return: the rules of
    sql/audit/77_review_return_problems.sql over the returned decisions, the bundle's tasks and the units as built now,
    beside the ledger's decisions in force. Only the decision ids are computed here, as the ledger's are."""
    con = store.cursor()
    con.execute(rulebook.text_of("review_return_problems"))

    def put(table: str, rows: list[list]) -> None:
        """The rows into a table in one insert, through Arrow (row by row, a return of 100,000 rows took 85 s); row
        by row only when a column's values are of kinds Arrow keeps apart (what DuckDB then makes of each, as before)."""
        if not rows:
            return
        import pyarrow as pa

        try:
            data = pa.table({f"c{i}": pa.array(column) for i, column in enumerate(zip(*rows))})
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
            return
        con.register("_jfi_put", data)
        try:
            con.execute(f"INSERT INTO {table} SELECT * FROM _jfi_put")
        finally:
            con.unregister("_jfi_put")

    decisions = answer.get("decisions") if isinstance(answer.get("decisions"), list) else []
    tasks = [t for t in bundle.get("tasks", []) if isinstance(t, dict)]
    settles = {t.get("id"): _rows_of(t) for t in tasks}
    returned = []  # a family's or fact class's answer is each of its rows' answer, at the place it was written
    for n, d in enumerate(decisions, 1):
        rows = settles.get(d.get("id")) if isinstance(d, dict) and isinstance(d.get("id"), str) else None
        fanned = rows and (len(rows) > 1 or rows[0]["id"] != d["id"])
        returned += [(locate(n), {**d, "id": u["id"]}) for u in rows] if fanned else [(locate(n), d)]
    put("review_returned", [[n, place, json.dumps(d, ensure_ascii=False)] for n, (place, d) in enumerate(returned, 1)])
    put(
        "review_return_tasks",
        [
            [
                u["id"],
                u.get("unit_sha256"),
                u.get("base_decision_id") or "",
                t.get("id") if t.get("kind") not in (None, "row") else "",
            ]
            for t in tasks
            for u in settles[t.get("id")]
        ],
    )
    ids = {u["id"] for rows in settles.values() for u in rows}
    put("review_return_units", [[u["id"], digest(u)] for u in built["units"] if u["id"] in ids])
    put("review_return_context", [[bundle.get("created_utc"), utc_now()]])
    put("review_return_names", [[f, column(f)] for f in RETURN_FIELDS])
    candidates = con.execute("SELECT * FROM review_return_records ORDER BY n").fetchall()
    names = [d[0] for d in con.description]
    put(
        "review_return_digests",
        [[row[0], decision_id({k: v for k, v in zip(names[1:], row[1:]) if v is not None})] for row in candidates],
    )
    problems = [
        f"{place}: {message}"
        for place, message in con.execute("SELECT place, message FROM review_return_problems ORDER BY n").fetchall()
    ]
    rows = con.execute(f"SELECT {', '.join(RECORD_FIELDS)} FROM review_return_new ORDER BY n").fetchall()
    records = [{k: v for k, v in zip(RECORD_FIELDS, row) if v is not None} for row in rows]
    pending = con.execute("SELECT count(*) FROM review_return_rows WHERE pending").fetchone()[0]
    return problems, records, pending


@commits
def apply(folder: AuditFolder, bundle_dir: Path, responses: Path) -> Outcome:
    bundle_path = Path(bundle_dir) / "bundle.json"
    bundle = _read_json(bundle_path)
    answer, locate, column = read_responses(Path(responses), bundle)
    with writer_lock(folder.root):
        body = {k: v for k, v in bundle.items() if k not in ("bundle_id", "created_utc")}
        if digest(body) != bundle.get("bundle_id"):
            raise JfiError(
                "tampered_bundle",
                "bundle.json does not match its bundle_id; it was changed after export",
                source=str(bundle_path),
            )
        if bundle.get("bundle_id") not in _issued(folder):  # its bytes agree with themselves; were they jfi's?
            raise JfiError(
                "unknown_bundle",
                f"bundle {clip(bundle.get('bundle_id'), 80)} was not exported from this "
                f"audit ({ISSUED} does not list it): its tasks may have been rewritten; export again",
                source=str(bundle_path),
            )
        snapshot = _snapshot(folder)
        for key, now in snapshot.items():
            if bundle.get(key) != now:
                raise JfiError(
                    "stale_bundle",
                    f"the audit changed since the bundle was exported ({key}); export again",
                    source=str(bundle_path),
                )
        if not isinstance(answer, dict):
            raise JfiError(
                "invalid_return",
                "the responses are not a JSON object with bundle_id and decisions",
                source=str(responses),
            )
        if answer.get("bundle_id") != bundle["bundle_id"]:
            raise JfiError("wrong_bundle", "the responses name another bundle", source=str(responses))
        ledger = folder.root / "ratifications.jsonl"
        old = ledger.read_bytes() if ledger.exists() else b""
        store, built, _ = folder.load()
        try:
            problems, records, pending = _checked(store, answer, bundle, built, locate, column)
        finally:
            store.close()
        problems = _missing(bundle, answer, Path(responses)) + problems
        if problems:
            _refuse(problems)
        if not records:
            return Outcome(1, lines=[f"nothing new to record ({pending} row(s) still pending)"])
        new = append_records(old, records)
        folder.check_ledger(new)  # the whole resulting ledger must validate
        if (ledger.read_bytes() if ledger.exists() else b"") != old or _snapshot(folder) != snapshot:
            raise JfiError(
                "changed_meanwhile", "the ledger or the audit changed while the return was checked; apply again"
            )
        atomic_write(ledger, new)
    return Outcome(
        0,
        {"recorded": records, "pending": pending},
        lines=[f"{len(records)} row decision(s) recorded, {pending} row(s) still pending"],
        printed=False,
    )
