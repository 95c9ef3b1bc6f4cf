"""`jfi audit gate`: a CI gate over the audit's results. A finding is a result at or above the fail level (objective:
a flag that states a fact fails; decisive: any flag that counts; ratified-no: a question a person ratified no); the
gate passes (0) when every finding is in the baseline, fails (1) naming each new one, and refuses bad input (2). A
baseline records findings by their stable fingerprint (unit id | flag or question)."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import JfiError
from ..jsonl import atomic_write, parse_json, writer_lock
from ..output import Outcome
from ..paths import output_file, regular_file
from .folder import AuditFolder
from .formats.common import named
from .kept import commits

SCHEMA = "jfi-gate-baseline/v1"
LEVELS = ("objective", "decisive", "ratified-no")  # the --fail-on choices: audit_gate_levels says what each fails


def read_baseline(path: Path, fail_on: str | None = None) -> set[str]:
    """The fingerprints of a baseline; refused when it is not one (a key twice included), or was written at another
    fail level than the gate's (its findings would be compared with findings of another kind)."""
    if not regular_file(path):
        raise JfiError("no_baseline", "the baseline is not a file; write one with --write-baseline", source=str(path))
    doc = parse_json(Path(path).read_bytes(), path, keys_once=True)
    if (
        not isinstance(doc, dict)
        or doc.get("schema") != SCHEMA
        or not isinstance(doc.get("fingerprints"), list)
        or not all(isinstance(f, str) for f in doc["fingerprints"])
        or doc.get("fail_on", fail_on) not in LEVELS
    ):
        raise JfiError(
            "invalid_baseline",
            f'a baseline is {{"schema": "{SCHEMA}", "fail_on": LEVEL, "fingerprints": [strings]}}',
            source=str(path),
            field="fingerprints",
        )
    if fail_on is not None and doc.get("fail_on", fail_on) != fail_on:
        raise JfiError(
            "baseline_level",
            f"the baseline was written at --fail-on {doc['fail_on']}, the gate runs at "
            f"{fail_on}; pass --fail-on {doc['fail_on']} or write a baseline at {fail_on}",
            source=str(path),
            field="fail_on",
        )
    return set(doc["fingerprints"])


def is_baseline(path: Path) -> bool:
    try:
        read_baseline(path)
        return True
    except JfiError:
        return False


def _trusted(folder: AuditFolder, store, built) -> None:
    """The gate counts findings in judgment-units.json: refused when the file says other than its inventory makes
    (audit_units_drift: a unit removed, flags emptied, fields edited) or than its own header (unit_count). A file
    built by other rules, or by another tool, is not compared unit by unit: build it again to have it checked."""
    source = str(folder.units_path)
    count = store.con.execute("SELECT count(*) FROM audit_built_units").fetchone()[0]
    if isinstance(built.get("unit_count"), int) and built["unit_count"] != count:
        raise JfiError(
            "units_edited",
            f"the header says {built['unit_count']} unit(s), the file holds {count}; run `jfi audit build` again",
            source=source,
            field="unit_count",
        )
    if (
        built.get("jfi_version")
        and built.get("rulebook_sha256") == store.rulebook_sha256
        and store.con.execute("SELECT count(*) FROM raw_inventory").fetchone()[0]
    ):
        drift = store.rows("SELECT id, change FROM audit_units_drift ORDER BY id LIMIT 5")
        if drift:
            total = store.con.execute("SELECT count(*) FROM audit_units_drift").fetchone()[0]
            raise JfiError(
                "units_edited",
                f"{total} unit(s) differ from what the inventory makes (e.g. "
                + ", ".join(f"{d['id']} {d['change']}" for d in drift)
                + "): the file was changed after build; run `jfi audit build` again",
                source=source,
            )


@commits
def gate(folder: AuditFolder, baseline: Path | None, fail_on: str, write_baseline: Path | None) -> Outcome:
    folder.require_built(inventory=False)  # the rest when loading
    if write_baseline:
        output_file(write_baseline, reads=[folder], kind="gate baseline", same_kind=is_baseline)
    known = read_baseline(baseline, fail_on) if baseline else set()
    with writer_lock(folder.root):
        store, built, _ = folder.load_with_inventory()
        try:
            _trusted(folder, store, built)
            findings = store.rows(
                "SELECT fingerprint, rule, id, name, views FROM audit_gate_findings WHERE fail_on = ? ORDER BY fingerprint",
                [fail_on],
            )
        finally:
            store.close()
    current = {f["fingerprint"] for f in findings}
    if write_baseline:
        atomic_write(
            Path(write_baseline),
            json.dumps({"schema": SCHEMA, "fail_on": fail_on, "fingerprints": sorted(current)}, indent=1) + "\n",
        )
        return Outcome(
            0,
            {"fail_on": fail_on, "baseline": sorted(current)},
            lines=[f"{write_baseline}: {len(current)} finding(s) at {fail_on} recorded as the baseline"],
            printed=False,
        )
    new = [f for f in findings if f["fingerprint"] not in known]
    gone = len(known - current)
    return Outcome(
        1 if new else 0,
        {"fail_on": fail_on, "findings": findings, "new": new, "gone": gone},
        printed=False,
        lines=[f"NEW {f['fingerprint']}: {named(f)} on {', '.join(f['views'] or [])}" for f in new],
        notes=[
            f"gate at {fail_on}: {len(findings)} finding(s), {len(new)} new, {len(findings) - len(new)} in the baseline"
            + (f", {gone} in the baseline no longer found" if gone else "")
        ],
    )
