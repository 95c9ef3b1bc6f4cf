"""The merges' history: each merge records its run and rows; `jfi audit diff` and audit_merge_changes say what moved
between two merges, with the records that moved it."""

import hashlib
import json

from conftest import Jfi, snapshot
from inventories import link, made, view


def _folder(tmp_path):
    views = [view("home", links=[link("Learn more", "/a"), link("Fares", "/f")])]
    folder = made(tmp_path, views, ("build",), in_place=True)  # built once per test process, restored for each test
    jfi = Jfi(tmp_path)
    units = {
        u["name"]: u["id"]
        for u in json.loads((folder / "judgment-units.json").read_text())["units"]
        if u["type"] == "link"
    }
    return jfi, folder, units


def _judge(folder, judgment):
    batch = next((folder / "batches").glob("harbor-link-*.jsonl"))
    lines = [
        json.dumps(
            {
                "id": json.loads(x)["id"],
                "judgment": judgment,
                "confidence": "high",
                "rationale": "Reason.",
                "fix": "",
                "needs_human": False,
                "drafted_by": f"judge-{judgment}",
            }
        )
        for x in batch.read_text().splitlines()
    ]
    batch.with_name(batch.stem + ".judged.jsonl").write_text("\n".join(lines) + "\n")


def test_diff_names_what_moved_between_two_merges_and_the_records_that_moved_it(tmp_path):
    jfi, folder, units = _folder(tmp_path)
    r = jfi("audit", "diff", "--inventory", str(folder))
    assert r.exit_code == 1 and "a diff needs two" in r.stdout
    _judge(folder, "yes")
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    # a judge changes its mind and a person ratifies Learn more as no
    _judge(folder, "no")
    learn = units["Learn more"]
    (folder / "ratifications.jsonl").write_text(
        json.dumps(
            {
                "id": learn,
                "ratified_by": "Ana Ruiz",
                "ratified_judgment": "no",
                "ratifier_note": "Vague.",
                "ratified_utc": "2026-11-30T16:20:00Z",
            }
        )
        + "\n"
    )
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    runs = [json.loads(x) for x in (folder / "history" / "merges.jsonl").read_text().splitlines()]
    assert [r["run"] for r in runs] == [1, 2] and runs[1]["counts"]["ratified"] == 1
    assert (
        runs[1]["inputs"]["ratifications.jsonl"]
        == hashlib.sha256((folder / "ratifications.jsonl").read_bytes()).hexdigest()
    )
    assert "ratifications.jsonl" not in runs[0]["inputs"]
    r = jfi("audit", "diff", "--inventory", str(folder), "--json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    moves = {(c["id"], c["what"]): c for c in doc["changes"]}
    assert (doc["from_run"], doc["to_run"]) == (1, 2)
    assert moves[(learn, "status")]["old"] == "DRAFT_NOT_RATIFIED" and moves[(learn, "status")]["new"] == "RATIFIED"
    assert moves[(learn, "ratification")]["ratified_by"] == "Ana Ruiz" and moves[(learn, "ratification")]["decision_id"]
    assert {(c["old"], c["new"], c["drafted_by"]) for (_, what), c in moves.items() if what == "draft"} == {
        ("yes", "no", "judge-no")
    }
    assert (units["Fares"], "status") not in moves  # nothing ratified it
    rows = jfi(
        "query",
        "--inventory",
        str(folder),
        "--format",
        "json",
        "SELECT id, what FROM audit_merge_changes ORDER BY id, what",
    ).json
    assert sorted((c["id"], c["what"]) for c in doc["changes"]) == [(x["id"], x["what"]) for x in rows]
    text = jfi("audit", "diff", "--inventory", str(folder), "--from", "1", "--to", "2")
    assert text.exit_code == 0 and f"{learn}  status: DRAFT_NOT_RATIFIED → RATIFIED" in text.stdout


def test_a_refused_merge_records_nothing_and_an_unknown_run_is_refused(tmp_path):
    jfi, folder, _ = _folder(tmp_path)
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    (folder / "ratifications.jsonl").write_text('{"id": "LINK-XX-0000000000", "ratified_judgment": "maybe"}\n')
    before = snapshot(folder)
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 2
    assert snapshot(folder) == before
    r = jfi("audit", "diff", "--inventory", str(folder), "--from", "1", "--to", "7")
    assert r.exit_code == 2 and "unknown_run" in r.stderr


def test_a_planted_merge_with_a_ratification_no_one_signed_is_refused(tmp_path):
    """A merge record added by hand, showing a row RATIFIED by someone who never signed the ledger, is refused by
    diff (untrusted_history), never reported as a change."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    jfi, folder, units = _folder(tmp_path)
    _judge(folder, "yes")
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert jfi("audit", "diff", "--inventory", str(folder)).exit_code == 0
    rows = pq.read_table(folder / "history" / "merge-0002.parquet").to_pylist()
    learn = units["Learn more"]
    for row in rows:
        if row["id"] == learn:
            row.update(
                status="RATIFIED",
                ratification_state="RATIFIED",
                ratified_judgment="yes",
                ratified_by="Mallory",
                decision_id="sha256:" + "0" * 64,
            )
    pq.write_table(pa.Table.from_pylist(rows), folder / "history" / "merge-0003.parquet")
    index = folder / "history" / "merges.jsonl"
    last = json.loads(index.read_text().splitlines()[-1])
    index.write_text(
        index.read_text() + json.dumps({**last, "run": 3, "rows_file": "history/merge-0003.parquet"}) + "\n"
    )
    before = snapshot(folder)
    r = jfi("audit", "diff", "--inventory", str(folder))
    assert r.exit_code == 2 and "untrusted_history" in r.stderr and "Mallory" in r.stderr, (r.stdout, r.stderr)
    assert snapshot(folder) == before
