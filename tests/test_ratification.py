"""The ratification ledger: pins, decision ids, chains, drafts, client scope, and what merge makes of them."""

import csv
import io
import json

import pytest
from conftest import Jfi, snapshot
from inventories import link, made, view, write

from jfi.canonical import decision_id, digest


def _audit(root):
    folder = made(
        root, [view("home", links=[link("Learn more", "/a"), link("Fares", "/f")])], ("build",), in_place=True
    )
    units = {u["id"]: u for u in json.loads((folder / "judgment-units.json").read_text())["units"]}
    return Jfi(root), folder, units


@pytest.fixture
def audit(tmp_path):
    return _audit(tmp_path)


def ledger(folder, *records):
    (folder / "ratifications.jsonl").write_text(
        "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)
    )


def signed(unit, **kw):
    rec = {
        "id": unit["id"],
        "ratified_by": "Ana Ruiz",
        "ratified_judgment": "no",
        "ratifier_note": "Vague.",
        "ratified_utc": "2026-11-30T10:00:00Z",
        "unit_sha256": digest(unit),
    }
    rec.update(kw)
    return {k: v for k, v in rec.items() if v is not None}


def replacing(previous, unit, **kw):
    return signed(unit, supersedes=decision_id(previous), supersession_reason="Re-read with the card text.", **kw)


def merge(jfi, folder):
    r = jfi("audit", "merge", "--inventory", str(folder))
    rows = {}
    if r.exit_code == 0:
        rows = {row["id"]: row for row in csv.DictReader(io.StringIO((folder / "draft-judgments.csv").read_text()))}
    return r, rows


def chain(jfi, folder):
    r = jfi(
        "query",
        "--inventory",
        str(folder),
        "SELECT scope, id, line, change FROM ratification_chain",
        "--format",
        "json",
    )
    return [(x["line"], x["change"]) for x in r.json]


def test_decision_ids_are_content_digests():
    rec = {"id": "X", "ratified_by": "A", "ratified_judgment": "yes", "ratified_utc": "2026-01-01T00:00:00Z"}
    assert decision_id(rec) == decision_id({**rec, "scope": "wcag"}) == decision_id(dict(reversed(list(rec.items()))))
    assert decision_id(rec) == decision_id({**rec, "supersedes": "sha256:" + "0" * 64, "supersession_reason": "r"})
    assert decision_id(rec) != decision_id({**rec, "ratified_judgment": "no"})
    assert decision_id(rec).startswith("sha256:") and len(decision_id(rec)) == 71


def test_signed_pinned_decision_ratifies_the_row(audit):
    jfi, folder, units = audit
    unit = next(iter(units.values()))
    rec = signed(unit, decision_id=None)
    ledger(folder, {**rec, "decision_id": decision_id(rec)})
    r, rows = merge(jfi, folder)
    assert r.exit_code == 0, r.stderr
    row = rows[unit["id"]]
    assert row["status"] == "RATIFIED" and row["ratification_state"] == "RATIFIED"
    assert row["ratification_pin_status"] == "pinned" and row["ratification_decision_id"] == decision_id(rec)
    assert row["ratification_unit_sha256"] == digest(unit) and row["ratification_date_precision"] == "timestamp"
    doc = json.loads((folder / "draft-judgments.json").read_text())
    assert doc["status"] == "PARTIALLY_RATIFIED" and doc["ratified_rows"] == 1
    ledger(folder, *[signed(u) for u in units.values()])
    merge(jfi, folder)
    assert json.loads((folder / "draft-judgments.json").read_text())["status"] == "RATIFIED"


def test_legacy_day_record_and_name_only_draft(audit):
    jfi, folder, units = audit
    a, b = list(units.values())[:2]
    ledger(
        folder,
        {"id": a["id"], "ratified_by": "Bo", "ratified_judgment": "yes", "ratified_utc": "2026-11-01"},
        {"id": b["id"], "ratified_by": "Cy"},
    )
    r, rows = merge(jfi, folder)
    assert r.exit_code == 0, r.stderr
    assert rows[a["id"]]["status"] == "RATIFIED" and rows[a["id"]]["ratification_pin_status"] == "legacy_unpinned"
    assert rows[a["id"]]["ratification_date_precision"] == "day" and rows[a["id"]]["ratified_utc"] == "2026-11-01"
    assert rows[b["id"]]["status"] == "DRAFT_NOT_RATIFIED" and rows[b["id"]]["ratification_state"] == "DRAFT"
    assert rows[b["id"]]["ratification_diagnostic"] == "draft: missing ratified_judgment, ratified_utc"
    summary = json.loads((folder / "draft-judgments.json").read_text())["ratification_import"]
    assert (
        summary["records"],
        summary["drafts"],
        summary["unpinned_legacy"],
        summary["legacy_day_precision_records"],
    ) == (2, 1, 2, 1)


def test_client_scope_never_touches_wcag_columns(audit):
    jfi, folder, units = audit
    unit = next(iter(units.values()))
    ledger(
        folder,
        {
            "id": unit["id"],
            "scope": "client",
            "ratified_by": "Dee",
            "ratified_client_result": "pass",
            "ratified_utc": "2026-11-30T11:00:00.250Z",
            "unit_sha256": digest(unit),
        },
    )
    (folder / "standards.jsonl").write_text(
        json.dumps({"id": unit["id"], "epa_rules": ["R1", "R2"], "epa_result": "pass", "epa_note": "Meets R1."}) + "\n"
    )
    r, rows = merge(jfi, folder)
    row = rows[unit["id"]]
    assert row["status"] == "DRAFT_NOT_RATIFIED" and row["ratified_by"] == "" and row["ratification_state"] == ""
    assert (row["client_rules"], row["client_result"], row["client_note"]) == ("R1 R2", "pass", "Meets R1.")
    assert (row["client_ratified_by"], row["client_ratified_result"], row["client_ratification_state"]) == (
        "Dee",
        "pass",
        "RATIFIED",
    )
    assert row["client_ratified_rules"] == "R1 R2"
    assert json.loads((folder / "draft-judgments.json").read_text())["status"] == "DRAFT_NOT_RATIFIED"


def test_retry_supersession_withdrawal_and_completion(audit):
    jfi, folder, units = audit
    unit = next(iter(units.values()))
    first = signed(unit)
    second = replacing(first, unit, ratified_judgment="yes")
    withdrawn = signed(
        unit,
        ratified_judgment="",
        ratified_utc="",
        supersedes=decision_id(second),
        supersession_reason="Needs a live check.",
    )
    ledger(folder, first, first, second, withdrawn)
    r, rows = merge(jfi, folder)
    assert r.exit_code == 0, r.stderr
    assert chain(jfi, folder) == [(1, "first"), (2, "retry"), (3, "supersession"), (4, "withdrawal")]
    assert rows[unit["id"]]["status"] == "DRAFT_NOT_RATIFIED" and rows[unit["id"]]["ratification_state"] == "DRAFT"
    completed = signed(
        unit, ratified_judgment="yes", supersedes=decision_id(withdrawn), supersession_reason="Checked live."
    )
    ledger(folder, first, first, second, withdrawn, completed)
    r, rows = merge(jfi, folder)
    assert rows[unit["id"]]["status"] == "RATIFIED" and rows[unit["id"]]["ratified_judgment"] == "yes"
    summary = json.loads((folder / "draft-judgments.json").read_text())["ratification_import"]
    assert summary["identical_retries"] == 1 and summary["supersessions"] == 3


def test_pinned_decision_supersedes_a_legacy_one(audit):
    jfi, folder, units = audit
    unit = next(iter(units.values()))
    legacy = {"id": unit["id"], "ratified_by": "Bo", "ratified_judgment": "yes", "ratified_utc": "2026-11-01"}
    ledger(folder, legacy, replacing(legacy, unit))
    r, rows = merge(jfi, folder)
    assert r.exit_code == 0, r.stderr
    assert rows[unit["id"]]["ratification_pin_status"] == "pinned" and rows[unit["id"]]["ratified_judgment"] == "no"


def refused(jfi, folder, *records):
    """The stderr of a merge refusing a ledger of these records, which leaves every merge output as a merge without a
    ledger made it (made once per folder: a refused merge, each checked here, changes nothing)."""
    (folder / "ratifications.jsonl").unlink(missing_ok=True)
    if not (folder / "draft-judgments.csv").exists():
        assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    before = snapshot(folder)
    ledger(folder, *records)
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 2
    after = snapshot(folder)
    after.pop("ratifications.jsonl")
    before.pop("ratifications.jsonl", None)
    assert after == before  # every merge output byte-identical
    return r.stderr


def test_chain_errors(audit):
    jfi, folder, units = audit
    unit = next(iter(units.values()))
    first = signed(unit)
    other = signed(unit, ratified_judgment="yes")
    err = refused(jfi, folder, replacing(first, unit))
    assert "ratifications.jsonl:1: orphan_supersession:" in err
    err = refused(jfi, folder, first, other)
    assert "ratifications.jsonl:2: conflicting_decision:" in err
    err = refused(
        jfi,
        folder,
        first,
        signed(unit, ratified_judgment="yes", supersedes="sha256:" + "1" * 64, supersession_reason="Wrong ref."),
    )
    assert "ratifications.jsonl:2: invalid_supersession:" in err and "not the decision in force" in err
    third = replacing(other, unit, ratified_judgment="unsure")
    err = refused(jfi, folder, first, replacing(third, unit, ratified_judgment="yes"), third)
    assert "ratifications.jsonl:2: invalid_supersession: supersedes names a later decision" in err
    err = refused(
        jfi,
        folder,
        first,
        signed(unit, ratified_judgment="yes", supersedes=decision_id(first), supersession_reason=" "),
    )
    assert "ratifications.jsonl:2: invalid_supersession: a supersession needs a non-blank supersession_reason" in err


RECORD_ERRORS = [
    ("not json", "invalid_json"),
    ('["a"]', "invalid_record"),
    ({"ratified_by": "A"}, "invalid_record"),
    ({"id": "@", "ratified_by": 5}, "invalid_type"),
    ({"id": "@", "reviewer": "A"}, "unknown_field"),
    ({"id": "@", "scope": "internal"}, "invalid_scope"),
    ({"id": "@", "scope": "client", "ratified_judgment": "yes"}, "scope_field_mismatch"),
    ({"id": "@", "ratified_client_result": "pass"}, "scope_field_mismatch"),
    ({"id": "LINK-XX-0000000000"}, "unknown_id"),
    ({"id": "@", "ratified_judgment": "maybe"}, "invalid_enum"),
    ({"id": "@", "ratified_utc": "2026-02-30T10:00:00Z"}, "invalid_timestamp"),
    ({"id": "@", "ratified_utc": "2026-11-30T24:00:00Z"}, "invalid_timestamp"),
    ({"id": "@", "ratified_utc": "2026-11-30T10:00:00+01:00"}, "invalid_timestamp"),
    ({"id": "@", "ratified_utc": "2026-11-30", "unit_sha256": "PIN"}, "invalid_timestamp"),
    ({"id": "@", "unit_sha256": "sha256:abc"}, "invalid_unit_revision"),
    ({"id": "@", "unit_sha256": "sha256:" + "0" * 64}, "unit_revision_mismatch"),
    ({"id": "@", "ratified_by": "A", "decision_id": "sha256:" + "0" * 64}, "decision_id_mismatch"),
]


@pytest.fixture(scope="module")
def every_record_error(tmp_path_factory):
    """One ledger holding every broken record of RECORD_ERRORS, line N the N-th: one refused merge lists them all."""
    jfi, folder, units = _audit(tmp_path_factory.mktemp("ledger"))
    unit = next(iter(units.values()))
    records = [
        {k: (unit["id"] if v == "@" else digest(unit) if v == "PIN" else v) for k, v in record.items()}
        if isinstance(record, dict)
        else record
        for record, _ in RECORD_ERRORS
    ]
    return refused(jfi, folder, *records)


@pytest.mark.parametrize("n", range(len(RECORD_ERRORS)), ids=[f"{c}-{i}" for i, (_, c) in enumerate(RECORD_ERRORS)])
def test_record_errors_refuse_the_merge(every_record_error, n):
    """Each broken record is refused on its own line, with its own code, whatever the lines around it."""
    assert f"ratifications.jsonl:{n + 1}: {RECORD_ERRORS[n][1]}:" in every_record_error, every_record_error


def test_stale_unit_after_an_edit_is_refused(audit):
    jfi, folder, units = audit
    unit = next(u for u in units.values() if u["name"] == "Learn more")
    ledger(folder, signed(unit))
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    # the same link (same id: name, destination and context) now sits in the footer: the unit changed
    write(folder, [view("home", links=[link("Learn more", "/a", landmark="footer"), link("Fares", "/f")])])
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    rebuilt = {u["id"]: u for u in json.loads((folder / "judgment-units.json").read_text())["units"]}
    assert unit["id"] in rebuilt and digest(rebuilt[unit["id"]]) != digest(unit)
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 2 and "ratifications.jsonl:1: unit_revision_mismatch:" in r.stderr


def test_formula_is_inert_in_csv_and_intact_in_json(audit):
    jfi, folder, units = audit
    unit = next(iter(units.values()))
    ledger(folder, signed(unit, ratifier_note="=1+1"))
    r, rows = merge(jfi, folder)
    assert rows[unit["id"]]["ratifier_note"] == "'=1+1"
    doc = json.loads((folder / "draft-judgments.json").read_text())
    assert next(x for x in doc["rows"] if x["id"] == unit["id"])["ratifier_note"] == "=1+1"


def test_standards_are_validated(audit):
    jfi, folder, units = audit
    unit = next(iter(units.values()))
    (folder / "standards.jsonl").write_text(
        json.dumps({"id": unit["id"], "epa_rules": 5, "epa_result": "x", "epa_note": ""})
        + "\n"
        + json.dumps({"id": unit["id"], "a_rules": [], "b_result": "x", "a_note": ""})
        + "\n"
    )
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 2 and "standards.jsonl:1: epa_rules: invalid_type" in r.stderr
    assert "standards.jsonl:2: invalid_record" in r.stderr


def test_a_name_alone_never_shows_as_a_ratifier(audit):
    jfi, folder, units = audit
    unit = next(iter(units.values()))
    ledger(folder, {"id": unit["id"], "ratified_by": "Ana Ruiz"})
    r, rows = merge(jfi, folder)
    assert r.exit_code == 0, r.stderr
    row = rows[unit["id"]]
    assert row["status"] == "DRAFT_NOT_RATIFIED"
    assert row["ratified_by"] == "" and row["ratified_judgment"] == "" and row["ratified_utc"] == ""
    assert "missing" in row["ratification_diagnostic"]
    got = jfi(
        "query", "--inventory", str(folder), "SELECT state, ratified_by FROM ratification_effective", "--format", "json"
    )
    assert got.json == [{"state": "DRAFT", "ratified_by": ""}]
