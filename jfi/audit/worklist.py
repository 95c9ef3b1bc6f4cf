"""`jfi audit worklist` hands the ratifier questions, not rows; `jfi audit rule` fans one family ruling
out over its rows as ordinary pinned ledger records."""

from __future__ import annotations

import json

from .. import rulebook
from ..canonical import decision_id, digest
from ..errors import JfiError
from ..jsonl import AtomicFiles, append_lines, atomic_write, record_lines, writer_lock
from ..output import Outcome, csv_text, utc_now
from ..store import sql_ident
from ..templating import render
from .folder import AuditFolder
from .kept import commits

WORKLIST_COLUMNS = ["section", "key", "kind", "type", "units", "unit_ids", "detail"]


FAMILY_VIEWS = ("audit_family_rows", "audit_worklist_families")  # what the decisions are made of, in that order


def families_once(store) -> None:
    """The families, made once for this command: they are views over the rows not yet ratified (sample, which never
    reads them, pays nothing), read several times by a command that does (the worklist, the decisions, the report);
    each is kept as a temporary table of the same name, which the views reading it then see."""
    kept = {
        t for (t,) in store.con.execute("SELECT table_name FROM system.main.duckdb_tables() WHERE temporary").fetchall()
    }
    db = store.database
    for name in FAMILY_VIEWS:
        if name not in kept:
            store.con.execute(f"CREATE TEMP TABLE {name} AS SELECT * FROM {sql_ident(db)}.main.{name}")


def decisions_of(store) -> tuple[int, int]:
    """(decisions, the rows not yet ratified they settle)."""
    families_once(store)
    return store.con.execute("SELECT count(DISTINCT decision), count(*) FROM audit_decisions").fetchone()


def _once_per_ruling(refused: JfiError, first: int, count: int) -> JfiError:
    """A ledger refused for the records one ruling would add: a problem the same in each of them (one value of the
    command line, such as --utc) said once, with the lines the records would take, not once a record."""
    added = [p for p in refused.problems if isinstance(p, dict) and (p.get("line") or 0) >= first]
    if count < 2 or not added:
        return refused
    kept = [p for p in refused.problems if not (isinstance(p, dict) and (p.get("line") or 0) >= first)]
    seen: dict[tuple, list] = {}
    for p in added:
        seen.setdefault((p.get("field"), p.get("code"), p.get("message")), []).append(p)
    for group in seen.values():
        lines = [p["line"] for p in group]
        said = f" (in {len(group)} of the {count} records this ruling would add, lines {min(lines)}-{max(lines)})"
        kept.append({**group[0], "message": f"{group[0]['message']}{said}" if len(group) > 1 else group[0]["message"]})
    return JfiError(refused.code, f"{len(kept)} problem(s) listed above; nothing written", problems=kept)


def worklist_parts(store) -> tuple[list[dict], list[dict], list[dict], list[tuple], tuple[int, int]]:
    """Families, rows that need a look, fact classes, the three as one table (WORKLIST_COLUMNS) led by the count of
    decisions and the rows they settle, and that count (decisions, rows)."""
    decisions, settled = decisions_of(store)
    families = store.rows("SELECT * FROM audit_worklist_families")
    rows = store.rows("SELECT * FROM audit_worklist_rows")
    facts = store.rows("SELECT * FROM audit_worklist_facts")
    table = [
        ("decisions", "", "", "", settled, "", f"{decisions} decision(s) settle {settled} row(s) not yet ratified")
    ]
    table += [
        (
            "family",
            f["family_id"],
            f["kind"],
            f["type"],
            f["units"],
            "; ".join(f["unit_ids"]),
            f"{f['question']} {f['shows']} — {f['kind']} {f['key']} (drafts: {f['judgments']})",
        )
        for f in families
    ]
    table += [
        ("look", r["id"], r["reason"], r["type"], 1, r["id"], f"{r['name']} (draft {r['session_draft_judgment']})")
        for r in rows
    ]
    table += [
        ("fact", f["fact_class"], "fact class", "", f["units"], "; ".join(f["unit_ids"]), f["meaning"]) for f in facts
    ]
    return families, rows, facts, table, (decisions, settled)


@commits
def worklist(folder: AuditFolder) -> Outcome:
    with writer_lock(folder.root):
        store, _, _ = folder.load()
        try:
            families, rows, facts, table, (decisions, settled) = worklist_parts(store)
        finally:
            store.close()
        text = render("worklist.md", decisions=decisions, settled=settled, families=families, rows=rows, facts=facts)
        with AtomicFiles() as files:
            files.write(folder.root / "worklist.md", text)
            files.write(folder.root / "worklist.csv", csv_text(WORKLIST_COLUMNS, table))
    return Outcome(
        0,
        {
            "decisions": decisions,
            "rows": settled,
            "families": len(families),
            "rows_to_look_at": len(rows),
            "fact_classes": len(facts),
        },
        notes=[f"{decisions} decision(s) settle {settled} row(s)"],
    )


@commits
def rule(
    folder: AuditFolder,
    family: str | None,
    ruling: str,
    sentence: str,
    by: str,
    judgment: str,
    when: str | None = None,
    fact_class: str | None = None,
    fix: str | None = None,
) -> Outcome:
    """Append one pinned record per row of the family (or of the fact class: its name, or a flag of it), each naming
    the ruling and carrying its sentence."""
    if (family is None) == (fact_class is None):
        raise JfiError("usage", "give exactly one of --family and --fact-class", exit_code=3)
    if not (ruling.strip() and sentence.strip() and by.strip()):
        raise JfiError(
            "incomplete_ruling", "a ruling needs --ruling, --sentence and --by, none of them blank", exit_code=3
        )
    with writer_lock(folder.root):
        store, _, _ = folder.load()
        try:
            families_once(store)
            store.con.execute(rulebook.text_of("audit_ruling_records"))  # a rule of this command's own (a temp macro)
            stamp = when or utc_now("seconds")
            found = store.rows(
                "SELECT * EXCLUDE (n) FROM audit_ruling_records(?, ?, ?, ?, ?, ?, ?, ?)",
                [family, fact_class, ruling, sentence, by, judgment, stamp, fix],
            )
            recorded = store.con.execute(  # the records of this ruling id already in the ledger
                "SELECT line, ratified_judgment, ratified_by, ratifier_note FROM ratification_records WHERE ruling = ? "
                "ORDER BY line",
                [ruling],
            ).fetchall()
            # each unit the ruling settles, its entry's text as judgment-units.json holds it (what its pin digests)
            entries = store.con.execute(
                "SELECT b.id, r.text FROM audit_built_units AS b JOIN raw_lines AS r ON r.kind = 'unit' AND r.line = "
                "b.ord WHERE b.id IN (SELECT unnest(?::VARCHAR[]))",
                [[row["id"] for row in found]],
            ).fetchall()
        finally:
            store.close()
        # the ruling id recorded before with another sentence, person or judgment
        other = next((r for r in recorded if (r[3], r[2], r[1]) != (sentence, by, judgment)), None)
        if other:
            line, was, who, said = other
            raise JfiError(
                "ruling_conflict",
                f"ruling {ruling} is recorded already as {was} by {who} ({said!r}); one ruling keeps one sentence, "
                "judgment and person: give this one another --ruling",
                source=str(folder.root / "ratifications.jsonl"),
                line=line,
                field="ruling",
            )
        if not found and recorded:  # re-running a completed ruling (every record of it says what this one says)
            return Outcome(1, lines=[f"ruling {ruling} is already recorded and its family is closed; nothing to do"])
        if not found and fact_class:
            raise JfiError(
                "unknown_fact_class",
                f"no open fact class {fact_class!r} in the worklist (its name, e.g. "
                '"missing alt attribute", or one of its flags, e.g. img_missing_alt_attr)',
            )
        if not found:
            raise JfiError("unknown_family", f"no open family {family} in the worklist (run `jfi audit worklist`)")
        family = family or fact_class
        pins = {uid: digest(json.loads(text)) for uid, text in entries}
        records = []
        for row in found:  # the records audit_ruling_records made, each pinned to its unit and named by its digest
            rec = {k: v for k, v in row.items() if v is not None}
            rec["unit_sha256"] = pins[rec["id"]]
            rec["decision_id"] = decision_id(rec)
            records.append(rec)
        ledger = folder.root / "ratifications.jsonl"
        old = ledger.read_bytes() if ledger.exists() else b""
        lines = record_lines(records)
        new = append_lines(old, lines)
        try:  # the whole resulting ledger must validate first (the digests just computed are not computed again)
            folder.check_ledger(
                new, {line: (r["decision_id"], r["id"], r["unit_sha256"]) for line, r in zip(lines, records)}
            )
        except JfiError as e:
            first = old.count(b"\n") + (1 if old and not old.endswith(b"\n") else 0) + 1  # the first line added
            raise _once_per_ruling(e, first, len(records)) from None
        atomic_write(ledger, new)
    return Outcome(
        0,
        {"ruling": ruling, "family": family, "judgment": judgment, "by": by, "records": records},
        lines=[f"ruling {ruling}: {len(records)} row(s) of {family} recorded as {judgment} by {by}"],
        printed=False,
    )
