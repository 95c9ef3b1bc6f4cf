"""The merges' history: each merge records its run in history/merges.jsonl (when, the digests of the files it read,
its counts) and the rows it wrote in history/merge-NNNN.parquet, in the same all-or-nothing commit as its other
files; `jfi audit diff` (and the views audit_merge_runs, audit_merge_changes and the macro audit_merge_diff) say what
moved between two merges: rows whose draft, status or ratification changed, with the records that moved them."""

from __future__ import annotations

import json
from pathlib import Path

from ..canonical import decision_id
from ..errors import JfiError, clip
from ..jsonl import append_records, parse_json, read_lines, sha256_file, strict_loads
from ..output import Outcome
from ..paths import inside, regular_file
from ..store import Store
from ..version import __version__

INDEX = Path("history") / "merges.jsonl"
ROWS_SQL = (
    "SELECT id, status, draft_judgment, drafted_by, spot_check, ratification_state, ratified_judgment, ratified_by, "
    "ruling, ratification_decision_id AS decision_id FROM audit_draft_rows ORDER BY id"
)
INPUTS = ("judgment-units.json", "ratifications.jsonl", "spot-checks.jsonl", "standards.jsonl")


def _runs(root: Path) -> list[tuple[int, dict]]:
    """(line, record) of each recorded merge; a broken index is refused at its line."""
    path = root / INDEX
    if not regular_file(path):
        return []
    out = []
    for line in read_lines(path):
        rec = parse_json(line.text, path, line.number)
        if (
            not isinstance(rec, dict)
            or not isinstance(rec.get("run"), int)
            or not isinstance(rec.get("rows_file"), str)
        ):
            raise JfiError(
                "invalid_history",
                "a merge record holds run (a number) and rows_file",
                source=str(path),
                line=line.number,
            )
        out.append((line.number, rec))
    return out


def record(files, root: Path, store, utc: str, counts: dict) -> None:
    """Add this merge to the history, inside the merge's group of files."""
    runs = _runs(root)
    run = max((r["run"] for _, r in runs), default=0) + 1
    rows_file = f"history/merge-{run:04d}.parquet"
    import pyarrow.parquet as pq  # only when a merge records its rows

    table = (
        store.con.sql(ROWS_SQL)
        .to_arrow_table()
        .replace_schema_metadata(
            {b"jfi_version": __version__.encode(), b"rulebook_sha256": store.rulebook_sha256.encode()}
        )
    )
    pq.write_table(table, files.temp_path(root / rows_file))
    inputs = {name: sha256_file(root / name) for name in INPUTS if regular_file(root / name)}
    inputs.update(
        {
            f"batches/{p.name}": sha256_file(p)
            for p in sorted((root / "batches").glob("*.judged.jsonl"))
            if regular_file(p)
        }
    )
    index = root / INDEX
    old = index.read_bytes() if regular_file(index) else b""
    files.write(
        index,
        append_records(old, [{"run": run, "utc": utc, "inputs": inputs, "counts": counts, "rows_file": rows_file}]),
    )


def load(root: Path, store) -> int:
    """Put the recorded merges into a store not built yet; returns how many there are."""
    runs = _runs(root)
    for number, rec in runs:
        path = inside(root, rec["rows_file"], under="history", source=str(root / INDEX), line=number, field="rows_file")
        if not regular_file(path):
            raise JfiError("invalid_history", f"{rec['rows_file']} is missing", source=str(root / INDEX), line=number)
        store.con.execute("INSERT INTO raw_merge_runs VALUES (?, ?, ?)", [rec["run"], rec.get("utc"), json.dumps(rec)])
        store.con.execute(
            "INSERT INTO raw_merge_rows SELECT ? AS run, id, status, draft_judgment, drafted_by, spot_check, "
            "ratification_state, ratified_judgment, ratified_by, ruling, decision_id FROM read_parquet(?)",
            [rec["run"], str(path)],
        )
    return len(runs)


def _vouched(root: Path, store, runs: tuple[int, int]) -> None:
    """Every ratification a recorded merge shows must stand in the ledger, which is append-only: its decision id on a
    ledger line, signed by the same person. A merge record planted by hand (a RATIFIED row no one signed) is refused,
    never reported as a change."""
    ledger = root / "ratifications.jsonl"
    signed: dict[str, str] = {}
    for line in read_lines(ledger) if regular_file(ledger) else []:
        try:
            rec = strict_loads(line.text)
        except (ValueError, RecursionError):
            continue  # the ledger's own checks name a broken line
        if isinstance(rec, dict):
            try:
                signed[decision_id(rec)] = rec.get("ratified_by")
            except (TypeError, ValueError, RecursionError):
                continue
    rows = store.con.execute(
        "SELECT run, id, decision_id, ratified_by FROM raw_merge_rows WHERE run IN (?, ?) AND "
        "coalesce(decision_id, '') <> '' ORDER BY run, id",
        list(runs),
    ).fetchall()
    for run, uid, did, by in rows:
        if did not in signed or (by or None) != (signed[did] or None):
            raise JfiError(
                "untrusted_history",
                f"merge {run} shows {uid} ratified by {clip(by, 60)!r} under decision "
                f"{clip(did, 80)}, which {'no ledger line holds' if did not in signed else 'the ledger signs by another name'}: "
                "the history was changed by hand",
                source=str(root / INDEX),
            )


def diff(root: Path, frm: int | None, to: int | None, as_json: bool) -> Outcome:
    """What moved between two merges (default: the last two); exit 1 when fewer than two merges are recorded."""
    store = Store(sections=("audit",), needs=("audit_merge_runs", "audit_merge_changes"))
    try:
        load(root, store)
        store.build()
        runs = [r for (r,) in store.con.execute("SELECT run FROM audit_merge_runs").fetchall()]
        if len(runs) < 2 and frm is None:
            return Outcome(1, lines=[f"{len(runs)} merge(s) recorded in {root / INDEX}; a diff needs two"])
        to = runs[-1] if to is None else to
        frm = (runs[runs.index(to) - 1] if to in runs and runs.index(to) > 0 else to - 1) if frm is None else frm
        for r in (frm, to):
            if r not in runs:
                raise JfiError(
                    "unknown_run",
                    f"no merge {r} is recorded (runs: {', '.join(map(str, runs))})",
                    source=str(root / INDEX),
                )
        _vouched(root, store, (frm, to))
        changes = store.rows("SELECT * FROM audit_merge_diff(?, ?)", [frm, to])
    finally:
        store.close()
    if as_json:
        return Outcome(0, {"from_run": frm, "to_run": to, "changes": changes}, indent=1, ascii=False)
    lines = [f"merge {frm} → merge {to}: {len(changes)} change(s)"]
    for c in changes:
        why = ", ".join(
            f"{k} {c[k]}" for k in ("ratified_by", "ruling", "decision_id", "drafted_by", "spot_check") if c.get(k)
        )
        lines.append(
            f"{c['id']}  {c['what']}: {c['old'] or '(empty)'} → {c['new'] or '(empty)'}" + (f"  [{why}]" if why else "")
        )
    return Outcome(0, {"from_run": frm, "to_run": to, "changes": changes}, lines=lines, printed=False)
