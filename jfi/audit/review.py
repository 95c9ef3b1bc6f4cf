"""`jfi audit review export|apply`: a pinned bundle of review tasks out, signed decisions back into the ledger."""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import JfiError
from ..jsonl import AtomicFiles, append_records, atomic_write, sha256_file, writer_lock
from ..output import csv_text, say, utc_now
from ..canonical import decision_id, digest
from .folder import AuditFolder, load_folder
from .kept import commits

TASK_COLUMNS = ["task", "id", "product", "type", "sc", "name", "detail", "href", "context", "views",
                "observation", "decision", "reviewer", "utc", "supersession_reason", "bundle_id"]
RETURN_FIELDS = ("id", "ratified_by", "ratified_judgment", "ratifier_note", "ratified_utc", "supersession_reason")
# the columns a person fills in review-tasks.csv / .xlsx, and the return fields they are
FILLED = {"reviewer": "ratified_by", "decision": "ratified_judgment", "observation": "ratifier_note",
          "utc": "ratified_utc", "supersession_reason": "supersession_reason"}
COLUMN_OF = {field: column for column, field in FILLED.items()}
RUBRIC = Path(__file__).resolve().parent / "kit" / "rubric.md"


def _sha(path: Path) -> str:
    return "sha256:" + sha256_file(path) if path.is_file() else ""


def _snapshot(folder: AuditFolder) -> dict:
    source = folder.inventory_jsonl if folder.inventory_jsonl.is_file() else folder.manifest
    return {"inventory_sha256": _sha(source), "units_sha256": _sha(folder.root / "judgment-units.json")}


@commits
def export(folder: AuditFolder, out: Path, include_all: bool) -> int:
    out = Path(out)
    if out.exists():
        raise JfiError("bundle_exists", f"{out} already exists; a bundle goes in a new folder", source=str(out))
    merged = folder.root / "draft-judgments.json"
    if not merged.is_file():
        raise JfiError("not_merged", "no draft-judgments.json yet; run `jfi audit merge` first", source=str(merged))
    units_sha = sha256_file(folder.root / "judgment-units.json")
    if json.loads(merged.read_text()).get("units_sha256") != units_sha:
        raise JfiError("stale_merge", "the units changed since the last merge; run `jfi audit merge` again",
                       source=str(merged))
    with writer_lock(folder.root):  # the folder's kept store is opened by one command at a time
        store, built, _ = load_folder(folder)
        try:
            current = {r["id"]: r for r in store.rows(
                "SELECT id, decision_id, state FROM ratification_effective WHERE scope = 'wcag'")}
        finally:
            store.close()
    tasks = []
    for unit in built["units"]:
        decided = current.get(unit["id"])
        if decided and decided["state"] == "RATIFIED" and not include_all:
            continue
        tasks.append({"task": len(tasks) + 1, "id": unit["id"], "product": unit["product"], "type": unit["type"],
                      "sc": unit["sc"], "name": unit["name"], "detail": unit["detail"], "href": unit["href"],
                      "context": unit["context"], "views": unit["views"], "unit_sha256": digest(unit),
                      "base_decision_id": decided["decision_id"] if decided else ""})
    if not tasks:
        say("every unit has a complete decision; nothing to review (use --all for a re-review)")
        return 1
    bundle = {"schema": "review-bundle/v1", "audit": str(folder.root), **_snapshot(folder), "tasks": tasks}
    bundle = {"bundle_id": digest(bundle), "created_utc": utc_now("seconds"), **bundle}
    md = [f"# Review tasks — bundle {bundle['bundle_id']}", "",
          "Judge what a person receives (see judgment-rubric.md). Fill every blank of a task you decide; leave a task "
          "untouched to keep it pending. Return the decisions in return-template.json.", ""]
    for t in tasks:
        md += [f"## Task {t['task']}: {t['id']} ({t['type']}, WCAG {t['sc']})", "",
               f"- Name: {t['name']}", f"- Detail: {t['detail']}", f"- Where: {t['href'] or '-'}",
               f"- Context: {t['context'] or '-'}", f"- Views: {', '.join(t['views'])}", "",
               "Observation: ____________________", "", "Decision (yes / no / unsure): ______", "",
               "Reviewer: ______________   UTC: ____-__-__T__:__:__Z", ""]
    template = {"bundle_id": bundle["bundle_id"],
                "decisions": [{"id": t["id"], "ratified_by": "", "ratified_judgment": "", "ratifier_note": "",
                               "ratified_utc": "", "supersession_reason": ""} for t in tasks]}
    rows = [tuple([t["task"], t["id"], t["product"], t["type"], t["sc"], t["name"], t["detail"], t["href"],
                   t["context"], "; ".join(t["views"]), "", "", "", "", "", bundle["bundle_id"]]) for t in tasks]
    from ..workbook import Sheet, workbook_bytes
    with AtomicFiles() as files:
        files.write(out / "bundle.json", json.dumps(bundle, ensure_ascii=False, indent=1) + "\n")
        files.write(out / "review-tasks.csv", csv_text(TASK_COLUMNS, rows))
        files.write(out / "review-tasks.xlsx", workbook_bytes([Sheet("Review tasks", TASK_COLUMNS, rows, {
            "observation": "what you saw (the ratifier's note)", "decision": "yes, no or unsure",
            "reviewer": "your name", "utc": "when you decided, a UTC timestamp such as 2026-12-01T10:00:00Z",
            "supersession_reason": "why, when the task replaces an earlier decision",
            "bundle_id": "the bundle these tasks belong to (leave as is)"})]))
        files.write(out / "judgment-rubric.md", RUBRIC.read_bytes())
        files.write(out / "review-tasks.md", "\n".join(md))
        files.write(out / "return-template.json", json.dumps(template, ensure_ascii=False, indent=1) + "\n")
    say(f"{out}: bundle {bundle['bundle_id']} with {len(tasks)} task(s)")
    return 0


def _refuse(problems: list[str]) -> None:
    raise JfiError("return_refused", f"{len(problems)} problem(s) listed above; the ledger is unchanged",
                   problems=problems)


def _read_json(path: Path):
    """A JSON document, or a refusal naming the file (and the line, for bad JSON)."""
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise JfiError("missing_file", f"cannot read {path}", source=str(path)) from None
    except UnicodeDecodeError as e:
        raise JfiError("invalid_utf8", f"not UTF-8 at byte {e.start}", source=str(path)) from None
    except RecursionError:
        raise JfiError("invalid_json", "nested too deeply", source=str(path)) from None
    except json.JSONDecodeError as e:
        raise JfiError("invalid_json", e.msg, source=str(path), line=e.lineno) from None


def _table_rows(path: Path) -> list[tuple[int, dict]]:
    """The rows of a filled review-tasks.csv or .xlsx as (row number, {column: text}), the header being row 1."""
    if path.suffix.lower() == ".xlsx":
        import zipfile
        import openpyxl
        try:
            ws = openpyxl.load_workbook(path, read_only=True, data_only=True).worksheets[0]
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as e:
            raise JfiError("invalid_workbook", f"cannot read the workbook ({e})", source=str(path)) from None
        table = [[("" if v is None else str(v)) for v in row] for row in ws.iter_rows(values_only=True)]
    else:
        import csv
        import io
        try:
            text = path.read_bytes().decode("utf-8-sig")
        except FileNotFoundError:
            raise JfiError("missing_file", f"cannot read {path}", source=str(path)) from None
        except UnicodeDecodeError as e:
            raise JfiError("invalid_utf8", f"not UTF-8 at byte {e.start}", source=str(path)) from None
        try:
            table = list(csv.reader(io.StringIO(text, newline="")))
        except csv.Error as e:
            raise JfiError("invalid_csv", str(e), source=str(path)) from None
    if not table or "id" not in table[0]:
        raise JfiError("invalid_responses", "the first row must be review-tasks' header (task, id, ..., observation, "
                       "decision, reviewer, utc)", source=str(path), line=1)
    header = table[0]
    missing = [c for c in ("observation", "decision", "reviewer", "utc") if c not in header]
    if missing:
        raise JfiError("invalid_responses", f"the header lacks {', '.join(missing)}", source=str(path), line=1)
    return [(n, dict(zip(header, row))) for n, row in enumerate(table[1:], start=2) if any(c.strip() for c in row)]


def _unguard(text: str) -> str:
    """A cell the export guarded against formulas (a leading ') reads as the text it guards."""
    return text[1:] if text.startswith("'") and len(text) > 1 and text[1] in "=+-@\t\r" else text


def read_responses(path: Path, bundle: dict) -> tuple[dict, callable, callable]:
    """The return as {bundle_id, decisions}, where each decision is (for messages), and a field's name as the
    file spells it: the JSON template's fields, or review-tasks' columns (a CSV or workbook row per task)."""
    if path.suffix.lower() not in (".csv", ".xlsx"):
        return _read_json(path), (lambda n: f"{path}: decision {n}"), (lambda field: field)
    rows = _table_rows(path)
    decisions, lines = [], {}
    for number, row in rows:
        lines[len(decisions) + 1] = number
        d = {"id": _unguard(row.get("id", "").strip())}
        d.update({field: _unguard(row.get(column, "")).strip() for column, field in FILLED.items()})
        decisions.append(d)
    others = {row.get("bundle_id", "").strip() for _, row in rows} - {"", bundle.get("bundle_id")}
    answer = {"bundle_id": bundle.get("bundle_id") if not others else sorted(others)[0], "decisions": decisions}
    return answer, (lambda n: f"{path}:{lines.get(n, n)}"), (lambda field: COLUMN_OF.get(field, field))


@commits
def apply(folder: AuditFolder, bundle_dir: Path, responses: Path) -> int:
    bundle_path = Path(bundle_dir) / "bundle.json"
    bundle = _read_json(bundle_path)
    answer, locate, column = read_responses(Path(responses), bundle)
    with writer_lock(folder.root):
        body = {k: v for k, v in bundle.items() if k not in ("bundle_id", "created_utc")}
        if digest(body) != bundle.get("bundle_id"):
            raise JfiError("tampered_bundle", "bundle.json does not match its bundle_id; it was changed after export",
                           source=str(bundle_path))
        snapshot = _snapshot(folder)
        for key, now in snapshot.items():
            if bundle.get(key) != now:
                raise JfiError("stale_bundle", f"the audit changed since the bundle was exported ({key}); export again",
                               source=str(bundle_path))
        if answer.get("bundle_id") != bundle["bundle_id"]:
            raise JfiError("wrong_bundle", "the responses name another bundle", source=str(responses))
        ledger = folder.root / "ratifications.jsonl"
        old = ledger.read_bytes() if ledger.exists() else b""
        store, built, _ = load_folder(folder)
        try:
            current = {r["id"]: r for r in store.rows(
                "SELECT id, decision_id, state, ratified_judgment, ratified_by FROM ratification_effective WHERE scope = 'wcag'")}
            # the ledger's own timestamp rule, asked per return so a bad one names its decision
            stamps = [d.get("ratified_utc") for d in answer.get("decisions", []) if isinstance(d, dict)]
            instants = {t for (t,) in store.con.execute(
                "SELECT t FROM unnest(?::VARCHAR[]) AS s(t) WHERE is_utc_instant(t)",
                [[t for t in stamps if isinstance(t, str)]]).fetchall()}
        finally:
            store.close()
        units = {u["id"]: u for u in built["units"]}
        tasks = {t["id"]: t for t in bundle["tasks"]}
        problems, records, pending = [], [], 0
        for n, d in enumerate(answer.get("decisions", []), 1):
            where = locate(n)
            if not isinstance(d, dict) or d.get("id") not in tasks:
                problems.append(f"{where}: unknown_task: {d.get('id') if isinstance(d, dict) else d!r} is not a task of this bundle")
                continue
            extra = set(d) - set(RETURN_FIELDS)
            if extra:
                problems.append(f"{where}: unknown_field: {', '.join(sorted(extra))} (a review return carries wcag decisions only)")
                continue
            values = {k: d.get(k, "") for k in RETURN_FIELDS}
            if any(not isinstance(v, str) for v in values.values()):
                problems.append(f"{where}: invalid_type: every field is a string")
                continue
            if not any(values[k].strip() for k in RETURN_FIELDS[1:]):
                pending += 1
                continue
            task, unit = tasks[d["id"]], units.get(d["id"])
            if unit is None or digest(unit) != task["unit_sha256"]:
                problems.append(f"{where}: unit_revision_mismatch: {d['id']} changed since export")
                continue
            missing = [column(k) for k in ("ratified_by", "ratifier_note") if not values[k].strip()]
            if values["ratified_judgment"] not in ("yes", "no", "unsure"):
                missing.append(f"{column('ratified_judgment')} (yes, no or unsure)")
            if values["ratified_utc"] not in instants:
                missing.append(f"{column('ratified_utc')} (a UTC timestamp ending in Z)")
            if missing:
                problems.append(f"{where}: {missing[0].split(' ')[0]}: incomplete_decision: {d['id']} needs "
                                f"{', '.join(missing)}")
                continue
            rec = {"id": d["id"], "scope": "wcag", "ratified_by": values["ratified_by"],
                   "ratified_judgment": values["ratified_judgment"], "ratifier_note": values["ratifier_note"],
                   "ratified_utc": values["ratified_utc"], "ruling": "", "unit_sha256": task["unit_sha256"]}
            now = current.get(d["id"])
            if now and now["decision_id"] == decision_id(rec):
                continue  # identical re-application adds nothing
            if (now["decision_id"] if now else "") != task["base_decision_id"]:
                problems.append(f"{where}: concurrent_decision: {d['id']} was decided meanwhile "
                                f"({now['ratified_by'] if now else 'withdrawn'}: {now['ratified_judgment'] if now else ''}); "
                                f"this return says {values['ratified_judgment']} — both are kept: the ledger as it is, "
                                "the return as sent")
                continue
            if task["base_decision_id"]:
                if not values["supersession_reason"].strip():
                    problems.append(f"{where}: {column('supersession_reason')}: missing_reason: {d['id']} replaces "
                                    f"{task['base_decision_id']} and needs a supersession_reason")
                    continue
                rec["supersedes"] = task["base_decision_id"]
                rec["supersession_reason"] = values["supersession_reason"]
            rec["decision_id"] = decision_id(rec)
            records.append(rec)
        if problems:
            _refuse(problems)
        if not records:
            say(f"nothing new to record ({pending} task(s) still pending)")
            return 1
        new = append_records(old, records)
        load_folder(folder, ledger_bytes=new)[0].close()  # the whole resulting ledger must validate
        if (ledger.read_bytes() if ledger.exists() else b"") != old \
                or _snapshot(folder) != snapshot:
            raise JfiError("changed_meanwhile", "the ledger or the audit changed while the return was checked; apply again")
        atomic_write(ledger, new)
    say(f"{len(records)} decision(s) recorded, {pending} task(s) still pending")
    return 0
