"""The review loop: export a pinned bundle, apply signed returns, all or nothing."""

import csv
import fcntl
import io
import json

import pytest
from conftest import Jfi, snapshot
from inventories import link, made, view, write

# a decision is stamped within its bundle's life: after the export, not in the future
_NOW = __import__("datetime").datetime.now(__import__("datetime").timezone.utc).replace(microsecond=0)
STAMP = _NOW.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def merged(tmp_path):
    folder = made(
        tmp_path,
        [view("home", links=[link("Learn more", "/a"), link("Fares", "/f")])],
        ("build",),
        ("merge",),
        in_place=True,
    )
    return Jfi(tmp_path), folder, tmp_path


def export(jfi, folder, out, *extra):
    return jfi("audit", "review", "export", "--inventory", str(folder), "--out", str(out), *extra)


def fill(bundle, answers, path):
    template = json.loads((bundle / "return-template.json").read_text())
    for d in template["decisions"]:
        d.update(answers.get(d["id"], {}))
    path.write_text(json.dumps(template))
    return path


def signed(judgment="no", **kw):
    return {
        "ratified_by": "Ana Ruiz",
        "ratified_judgment": judgment,
        "ratifier_note": "Checked in a browser.",
        "ratified_utc": STAMP,
        **kw,
    }


def apply(jfi, folder, bundle, responses):
    return jfi(
        "audit", "review", "apply", "--inventory", str(folder), "--bundle", str(bundle), "--responses", str(responses)
    )


def rows(folder):
    return {r["id"]: r for r in csv.DictReader(io.StringIO((folder / "draft-judgments.csv").read_text()))}


def test_export_apply_retry_merge(merged):
    jfi, folder, tmp = merged
    r = export(jfi, folder, tmp / "b1")
    assert r.exit_code == 0, r.stderr
    bundle = json.loads((tmp / "b1" / "bundle.json").read_text())
    ids = [t["id"] for t in bundle["tasks"]]
    assert len(ids) == 3 and all(t["unit_sha256"].startswith("sha256:") for t in bundle["tasks"])
    assert "Observation:" in (tmp / "b1" / "review-tasks.md").read_text()
    responses = fill(tmp / "b1", {ids[0]: signed("no"), ids[1]: signed("yes")}, tmp / "r1.json")
    r = apply(jfi, folder, tmp / "b1", responses)
    assert r.exit_code == 0, r.stderr
    assert "2 row decision(s) recorded, 1 row(s) still pending" in r.stdout
    once = (folder / "ratifications.jsonl").read_bytes()
    r = apply(jfi, folder, tmp / "b1", responses)  # identical retry adds nothing: nothing to do
    assert r.exit_code == 1 and (folder / "ratifications.jsonl").read_bytes() == once
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    got = rows(folder)
    assert got[ids[0]]["status"] == "RATIFIED" and got[ids[0]]["ratified_judgment"] == "no"
    assert got[ids[2]]["status"] == "DRAFT_NOT_RATIFIED"  # the partial return leaves the rest pending
    r = export(jfi, folder, tmp / "b2")
    assert [t["id"] for t in json.loads((tmp / "b2" / "bundle.json").read_text())["tasks"]] == [ids[2]]


def test_one_bad_decision_blocks_the_whole_return(merged):
    jfi, folder, tmp = merged
    export(jfi, folder, tmp / "b1")
    ids = [t["id"] for t in json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"]]
    for bad in (
        {"ratified_by": "Ana"},
        signed(ratified_utc="2026-11-30"),
        signed(ratified_utc="2026-11-31T10:00:00Z"),
        signed(ratified_utc="2026-11-30T10:00:61Z"),
        signed(ratifier_note=" "),
        signed(ratified_judgment="maybe"),
        signed(scope="client"),
    ):
        responses = fill(tmp / "b1", {ids[0]: signed(), ids[1]: bad}, tmp / "r.json")
        before = snapshot(folder)
        r = apply(jfi, folder, tmp / "b1", responses)
        assert r.exit_code == 2, bad
        assert snapshot(folder) == before
        if "ratified_utc" in bad and bad["ratified_utc"] != STAMP:
            assert "decision 2: ratified_utc: incomplete_decision" in r.stderr


def test_concurrent_contrary_return_is_refused(merged):
    jfi, folder, tmp = merged
    export(jfi, folder, tmp / "b1")
    export(jfi, folder, tmp / "b2")
    uid = json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"][0]["id"]
    assert apply(jfi, folder, tmp / "b1", fill(tmp / "b1", {uid: signed("no")}, tmp / "r1.json")).exit_code == 0
    before = snapshot(folder)
    r = apply(jfi, folder, tmp / "b2", fill(tmp / "b2", {uid: signed("yes", ratified_by="Bo")}, tmp / "r2.json"))
    assert (
        r.exit_code == 2 and "concurrent_decision" in r.stderr and "Ana Ruiz: no" in r.stderr and "says yes" in r.stderr
    )
    assert snapshot(folder) == before


def test_stale_and_tampered_bundles_and_stale_merge(merged):
    jfi, folder, tmp = merged
    export(jfi, folder, tmp / "b1")
    uid = json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"][0]["id"]
    responses = fill(tmp / "b1", {uid: signed()}, tmp / "r.json")
    tampered = json.loads((tmp / "b1" / "bundle.json").read_text())
    tampered["tasks"][0]["name"] = "Something else"
    (tmp / "b1" / "bundle.json").write_text(json.dumps(tampered))
    r = apply(jfi, folder, tmp / "b1", responses)
    assert r.exit_code == 2 and "tampered_bundle" in r.stderr
    export(jfi, folder, tmp / "b2")
    responses = fill(tmp / "b2", {uid: signed()}, tmp / "r2.json")
    write(folder, [view("home", links=[link("Learn more", "/a", landmark="footer"), link("Fares", "/f")])])
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    r = apply(jfi, folder, tmp / "b2", responses)
    assert r.exit_code == 2 and "stale_bundle" in r.stderr
    r = export(jfi, folder, tmp / "b3")
    assert r.exit_code == 2 and "stale_merge" in r.stderr and not (tmp / "b3").exists()


def test_existing_folder_and_outstanding_lock_are_refused(merged):
    jfi, folder, tmp = merged
    (tmp / "taken").mkdir()
    assert export(jfi, folder, tmp / "taken").exit_code == 2
    export(jfi, folder, tmp / "b1")
    uid = json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"][0]["id"]
    responses = fill(tmp / "b1", {uid: signed()}, tmp / "r.json")
    with open(folder / ".jfi.lock", "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        r = apply(jfi, folder, tmp / "b1", responses)
    assert r.exit_code == 2 and "locked" in r.stderr
    assert (folder / ".jfi.lock").exists()  # never removes another's lock
    assert not (folder / "ratifications.jsonl").exists()


def test_cli_refuses_incomplete_options(merged):
    jfi, folder, tmp = merged
    assert jfi("audit", "review", "export", "--inventory", str(folder)).exit_code == 3
    assert jfi("audit", "review", "apply", "--inventory", str(folder), "--bundle", str(tmp)).exit_code == 3
    assert (
        jfi(
            "audit", "review", "apply", "--inventory", str(folder), "--bundle", str(tmp), "--responses", "x", "--all"
        ).exit_code
        == 3
    )


def fill_sheet(bundle, answers, path):
    """review-tasks.csv or .xlsx filled as a person would: observation, decision, reviewer, utc."""
    table = list(csv.reader(io.StringIO((bundle / "review-tasks.csv").read_text(encoding="utf-8"), newline="")))
    header = table[0]
    for row in table[1:]:
        for column, value in answers.get(row[header.index("id")], {}).items():
            row[header.index(column)] = value
    if path.suffix == ".xlsx":
        import openpyxl

        wb = openpyxl.load_workbook(bundle / "review-tasks.xlsx")
        ws = wb.worksheets[0]
        for r, row in enumerate(table[1:], start=2):
            for c, value in enumerate(row, start=1):
                if header[c - 1] in ("observation", "decision", "reviewer", "utc", "supersession_reason", "fix"):
                    ws.cell(row=r, column=c).value = value or None
        wb.save(path)
    else:
        with path.open("w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(table)
    return path


def person(decision="no", **kw):
    return {"observation": "Checked in a browser.", "decision": decision, "reviewer": "Ana Ruiz", "utc": STAMP, **kw}


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_filled_spreadsheet_returns_like_the_json_template(merged, suffix):
    jfi, folder, tmp = merged
    assert export(jfi, folder, tmp / "b1").exit_code == 0
    assert (tmp / "b1" / "judgment-rubric.md").read_text().strip()  # the rubric review-tasks.md refers to
    ids = [t["id"] for t in json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"]]
    r = apply(jfi, folder, tmp / "b1", fill_sheet(tmp / "b1", {ids[0]: person("no")}, tmp / f"filled{suffix}"))
    assert r.exit_code == 0, r.stderr
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    got = rows(folder)
    assert got[ids[0]]["status"] == "RATIFIED" and got[ids[0]]["ratified_by"] == "Ana Ruiz"
    assert got[ids[0]]["ratifier_note"] == "Checked in a browser." and got[ids[1]]["status"] == "DRAFT_NOT_RATIFIED"


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_bad_spreadsheet_row_is_refused_with_its_row_and_column(merged, suffix):
    jfi, folder, tmp = merged
    export(jfi, folder, tmp / "b1")
    ids = [t["id"] for t in json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"]]
    responses = fill_sheet(tmp / "b1", {ids[0]: person(), ids[1]: person(decision="maybe")}, tmp / f"bad{suffix}")
    before = snapshot(folder)
    r = apply(jfi, folder, tmp / "b1", responses)
    assert r.exit_code == 2 and snapshot(folder) == before
    assert f"{responses}:3: decision: incomplete_decision" in r.stderr  # the second task is row 3 (row 1: header)
    responses = fill_sheet(tmp / "b1", {ids[0]: person(utc="30/11/2026")}, tmp / f"bad2{suffix}")
    r = apply(jfi, folder, tmp / "b1", responses)
    assert r.exit_code == 2 and f"{responses}:2: utc: incomplete_decision" in r.stderr


def test_a_spreadsheet_from_another_bundle_is_refused(merged):
    jfi, folder, tmp = merged
    export(jfi, folder, tmp / "b1")
    ids = [t["id"] for t in json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"]]
    path = fill_sheet(tmp / "b1", {ids[0]: person()}, tmp / "r.csv")
    path.write_text(
        path.read_text().replace(
            json.loads((tmp / "b1" / "bundle.json").read_text())["bundle_id"], "sha256:" + "0" * 64
        )
    )
    r = apply(jfi, folder, tmp / "b1", path)
    assert r.exit_code == 2 and "wrong_bundle" in r.stderr


def test_tasks_carry_the_evidence_and_every_column_says_what_it_means(merged):
    import openpyxl

    jfi, folder, tmp = merged
    assert export(jfi, folder, tmp / "b1").exit_code == 0
    tasks = json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"]
    link = next(t for t in tasks if t["type"] == "link")
    assert link["question"].startswith('Does "') and link["name_source"] and "role" in link
    # the evidence is a working link from where the sheet is to the row in the audit's report
    assert (tmp / "b1" / link["evidence"].split("#")[0]).resolve() == (folder / "report.html").resolve()
    assert link["evidence"].endswith(f"report.html#{link['id']}") and isinstance(link["flags"], list)
    book = openpyxl.load_workbook(tmp / "b1" / "review-tasks.xlsx")
    header = [c.value for c in book["Review tasks"][1]]
    row = next(r for r in book["Review tasks"].iter_rows(min_row=2) if r[header.index("id")].value == link["id"])
    assert row[header.index("evidence")].hyperlink.target == link["evidence"]
    for column in ("question", "name_source", "flags", "draft", "rationale", "evidence", "fix"):
        assert column in header
    meanings = {row[1]: row[2] for row in book["Columns"].iter_rows(min_row=2, values_only=True)}
    assert set(meanings) == set(header) and all(meanings.values())
    [dv] = book["Review tasks"].data_validations.dataValidation
    letter = openpyxl.utils.get_column_letter(header.index("decision") + 1)
    assert (
        dv.type == "list"
        and dv.formula1 == '"yes,no,unsure"'
        and str(dv.sqref) == f"{letter}2:{letter}{len(tasks) + 1}"
    )


def test_a_sheet_filled_as_people_type_goes_back_in(merged):
    """`Yes`, `No ` (a trailing space) and a date-and-time cell in utc are what they show; a fix reaches the
    receipts."""
    import datetime

    import openpyxl

    jfi, folder, tmp = merged
    assert export(jfi, folder, tmp / "b1").exit_code == 0
    ids = [t["id"] for t in json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"]]
    book = openpyxl.load_workbook(tmp / "b1" / "review-tasks.xlsx")
    ws = book["Review tasks"]
    col = {c.value: c.column for c in ws[1]}
    later = (_NOW + datetime.timedelta(minutes=5)).replace(second=0, tzinfo=None)
    typed = {2: ("Yes", STAMP), 3: ("No ", later)}
    for row, (decision, when) in typed.items():
        ws.cell(row=row, column=col["decision"]).value = decision
        ws.cell(row=row, column=col["observation"]).value = "Checked."
        ws.cell(row=row, column=col["reviewer"]).value = " Ana Ruiz "
        cell = ws.cell(row=row, column=col["utc"])
        cell.value = when
        if isinstance(when, datetime.datetime):
            cell.number_format = "yyyy-mm-dd hh:mm"
    ws.cell(row=3, column=col["fix"]).value = "Name the link after its destination."
    book.save(tmp / "filled.xlsx")
    r = apply(jfi, folder, tmp / "b1", tmp / "filled.xlsx")
    assert r.exit_code == 0, r.stderr
    ledger = [json.loads(x) for x in (folder / "ratifications.jsonl").read_text().splitlines()]
    assert [(d["id"], d["ratified_judgment"], d["ratified_utc"], d["ratified_by"]) for d in ledger] == [
        (ids[0], "yes", STAMP, "Ana Ruiz"),
        (ids[1], "no", later.strftime("%Y-%m-%dT%H:%M:00Z"), "Ana Ruiz"),
    ]
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert jfi("audit", "receipts", "--inventory", str(folder)).exit_code == 0
    receipts = [json.loads(x) for x in (folder / "receipts.jsonl").read_text().splitlines()]
    assert [(x["id"], x["fix"]) for x in receipts] == [(ids[1], "Name the link after its destination.")]


def test_a_refusal_names_the_value_it_found_and_what_it_expected(merged):
    import datetime

    import openpyxl

    jfi, folder, tmp = merged
    export(jfi, folder, tmp / "b1")
    book = openpyxl.load_workbook(tmp / "b1" / "review-tasks.xlsx")
    ws = book["Review tasks"]
    col = {c.value: c.column for c in ws[1]}
    for name, value in (
        ("decision", "maybe"),
        ("observation", "Checked."),
        ("reviewer", "Ana Ruiz"),
        ("utc", datetime.datetime(2026, 11, 30)),
    ):
        ws.cell(row=2, column=col[name]).value = value
    ws.cell(row=2, column=col["utc"]).number_format = "yyyy-mm-dd"  # a day without its time
    book.save(tmp / "bad.xlsx")
    before = snapshot(folder)
    r = apply(jfi, folder, tmp / "b1", tmp / "bad.xlsx")
    assert r.exit_code == 2 and snapshot(folder) == before
    assert 'decision: found "maybe", expected yes, no or unsure' in r.stderr
    assert 'utc: found "2026-11-30", expected a UTC time such as' in r.stderr


@pytest.mark.parametrize("split", [["--reviewers", "2"], ["--by", "type"]])
def test_a_bundle_split_between_reviewers_goes_back_part_by_part(merged, split):
    jfi, folder, tmp_path = merged
    r = export(jfi, folder, tmp_path / "out", "--by", "reviewer")  # no such split: a usage error, nothing made
    assert r.exit_code == 3 and "--by must be one of product, type" in r.stderr and not (tmp_path / "out").exists()
    assert export(jfi, folder, tmp_path / "out", *split).exit_code == 0
    parts = sorted(p for p in (tmp_path / "out").iterdir())
    assert len(parts) == 2 and all((p / "review-tasks.xlsx").is_file() for p in parts)
    tasks = [[t["id"] for t in json.loads((p / "bundle.json").read_text())["tasks"]] for p in parts]
    assert sorted(sum(tasks, [])) == sorted(
        {u["id"] for u in json.loads((folder / "judgment-units.json").read_text())["units"]}
    )
    bad = fill_sheet(parts[0], {tasks[0][0]: person(), tasks[0][-1]: person(decision="maybe")}, tmp_path / "bad.csv")
    before = snapshot(folder)
    assert apply(jfi, folder, parts[0], bad).exit_code == 2 and snapshot(folder) == before  # all or nothing
    for part, ids in zip(parts, tasks):
        r = apply(jfi, folder, part, fill_sheet(part, {i: person() for i in ids}, tmp_path / f"{part.name}.csv"))
        assert r.exit_code == 0, r.stderr
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert {r["status"] for r in rows(folder).values()} == {"RATIFIED"}


def test_each_refused_decision_is_named_with_its_place_and_code(merged):
    jfi, folder, tmp = merged
    export(jfi, folder, tmp / "b1")
    ids = [t["id"] for t in json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"]]
    template = json.loads((tmp / "b1" / "return-template.json").read_text())
    template["decisions"] = [
        {"id": "LINK-XX-0000000000", **signed()},
        {"id": ids[0], **signed()},
        {"id": ids[0], **signed("yes")},
        {"id": ids[1], **signed(scope="client", extra="x")},
        {"id": ids[2], **signed(ratified_by=5)},
        "a decision",
    ]
    (tmp / "r.json").write_text(json.dumps(template))
    before = snapshot(folder)
    r = apply(jfi, folder, tmp / "b1", tmp / "r.json")
    assert r.exit_code == 2 and snapshot(folder) == before
    where = f"{tmp / 'r.json'}: decision"
    for expected in (
        f"{where} 1: unknown_task: LINK-XX-0000000000 is not a task of this bundle",
        f"{where} 3: duplicate_decision: {ids[0]} is answered twice (also {where} 2)",
        f"{where} 4: unknown_field: extra, scope (a review return carries wcag decisions only)",
        f"{where} 5: invalid_type: every field is a string",
        f'{where} 6: unknown_task: "a decision" is not a task of this bundle',
    ):
        assert expected in r.stderr
    assert f"{where} 2:" not in r.stderr  # the first of two answers is itself fine


def test_a_decision_is_replaced_only_with_a_reason_and_pins_what_it_replaces(merged):
    jfi, folder, tmp = merged
    export(jfi, folder, tmp / "b1")
    uid = json.loads((tmp / "b1" / "bundle.json").read_text())["tasks"][0]["id"]
    assert apply(jfi, folder, tmp / "b1", fill(tmp / "b1", {uid: signed("no")}, tmp / "r1.json")).exit_code == 0
    [first] = [json.loads(x) for x in (folder / "ratifications.jsonl").read_text().splitlines()]
    assert export(jfi, folder, tmp / "b2", "--all").exit_code == 0
    [task] = [t for t in json.loads((tmp / "b2" / "bundle.json").read_text())["tasks"] if t["id"] == uid]
    assert task["base_decision_id"] == first["decision_id"]
    before = snapshot(folder)
    r = apply(
        jfi, folder, tmp / "b2", fill(tmp / "b2", {uid: signed("yes", supersession_reason="\u00a0 ")}, tmp / "r2.json")
    )
    assert r.exit_code == 2 and snapshot(folder) == before
    assert f"supersession_reason: missing_reason: {uid} replaces {first['decision_id']}" in r.stderr
    r = apply(
        jfi,
        folder,
        tmp / "b2",
        fill(
            tmp / "b2",
            {uid: signed(" YES\u2003", ratified_by="\u00a0Bo Li ", supersession_reason="Seen again on a phone.")},
            tmp / "r3.json",
        ),
    )
    assert r.exit_code == 0, r.stderr
    second = json.loads((folder / "ratifications.jsonl").read_text().splitlines()[1])
    assert (
        second["ratified_by"] == "Bo Li" and second["ratified_judgment"] == "yes"
    )  # blank around a value is no part of it
    assert second["supersedes"] == first["decision_id"] and second["supersession_reason"] == "Seen again on a phone."
    assert list(second) == [
        "id",
        "scope",
        "ratified_by",
        "ratified_judgment",
        "ratifier_note",
        "ratified_utc",
        "ruling",
        "unit_sha256",
        "supersedes",
        "supersession_reason",
        "decision_id",
    ]
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert rows(folder)[uid]["ratified_judgment"] == "yes"


def test_an_export_time_edited_into_no_time_at_all_is_refused_not_a_traceback(merged):
    """bundle.json's export time lies outside its digest; edited into a value no column of one kind holds (a list of a
    number and a text), the return is read row by row where it is not read in one insert, and refused by what it
    found, with the ledger unchanged."""
    jfi, folder, tmp = merged
    assert export(jfi, folder, tmp / "b1").exit_code == 0
    bundle_json = tmp / "b1" / "bundle.json"
    bundle = json.loads(bundle_json.read_text())
    bundle_json.write_text(json.dumps({**bundle, "created_utc": {"at": [1, "noon"]}}))
    ids = [t["id"] for t in bundle["tasks"]]
    before = snapshot(folder)
    r = apply(jfi, folder, tmp / "b1", fill(tmp / "b1", {ids[0]: signed("no")}, tmp / "r.json"))
    assert r.exit_code == 2 and "expected a time between the bundle's export ({'at': [1, noon]}) and now" in r.stderr
    assert snapshot(folder) == before


@pytest.mark.parametrize("damage", ["cut short", "not JSON", "another units digest"])
def test_export_reads_the_merges_header_only_and_refuses_one_not_of_these_units(merged, damage):
    """review export asks the merge's draft-judgments.json which units it was made from (its header, not its rows): a
    file cut off after its header still says; one that does not say, or names other units, is refused as stale."""
    jfi, folder, tmp = merged
    draft = folder / "draft-judgments.json"
    text = draft.read_text()
    if damage == "cut short":
        draft.write_text(text[: text.index('"rows"') + 10])
        assert export(jfi, folder, tmp / "b1").exit_code == 0
        return
    draft.write_text(
        "{not json" if damage == "not JSON" else text.replace('"units_sha256": "', '"units_sha256": "x', 1)
    )
    r = export(jfi, folder, tmp / "b1")
    assert r.exit_code == 2 and "stale_merge" in r.stderr and not (tmp / "b1").exists()
