"""Review by decision: one task per decision (a family's answer fans out to its rows, pinned each), a yes without a
note, an unsure that settles nothing, a ruling's fix that reaches the rows, and a task deleted from a return named.
One page, one view; a row shows the occurrence a person meets."""

import csv
import io
import json

from conftest import Jfi, snapshot
from inventories import heading, link, made, view, write
from test_review import STAMP, apply, export, fill, signed

VIEWS = [
    view(
        "home",
        title="Home - Harbor",
        h1=["Home"],
        headings=[heading(t, 2, selector=f"#h{k}") for k, t in enumerate(["Ferries", "Buses", "Trams"])],
        links=[link("Timetables", "/t")],
    )
]


def rows(folder):
    return {r["id"]: r for r in csv.DictReader(io.StringIO((folder / "draft-judgments.csv").read_text()))}


def test_a_family_is_one_task_and_its_answer_is_every_rows_answer(tmp_path):
    folder = made(tmp_path, VIEWS, ("build",), ("merge",), in_place=True)
    jfi = Jfi(tmp_path)
    assert export(jfi, folder, tmp_path / "b").exit_code == 0
    tasks = json.loads((tmp_path / "b" / "bundle.json").read_text())["tasks"]
    decisions = jfi(
        "query",
        "--inventory",
        str(folder),
        "--format",
        "json",
        "SELECT count(DISTINCT decision) AS n, count(*) AS rows FROM audit_decisions",
    ).json[0]
    assert len(tasks) == decisions["n"] < decisions["rows"]  # one task per decision, fewer than rows
    family = next(t for t in tasks if t["kind"] == "family" and t["type"] == "heading")
    assert family["rows"] == 3 == len(family["units"]) and family["id"].startswith("FAM-")
    assert family["question"].startswith("Does each of these h2 headings") and len(family["sample"]) == 3
    assert all(x["crop"] == "" or (tmp_path / "b" / x["crop"]).is_file() for x in family["sample"])
    sheet = list(csv.DictReader(io.StringIO((tmp_path / "b" / "review-tasks.csv").read_text())))
    assert [r["id"] for r in sheet] == [t["id"] for t in tasks] and sheet[[r["id"] for r in sheet].index(family["id"])][
        "rows"
    ] == "3"
    # what is wrong with the family's answer is said once, naming the family and its rows, not once a row
    before = snapshot(folder)
    r = apply(
        jfi,
        folder,
        tmp_path / "b",
        fill(tmp_path / "b", {family["id"]: signed("maybe")}, tmp_path / "r.json"),
    )
    said = [x for x in r.stderr.splitlines() if "incomplete_decision" in x]
    assert r.exit_code == 2 and snapshot(folder) == before
    assert len(said) == 1 and f"incomplete_decision: {family['id']} (3 rows): " in said[0], r.stderr
    # a yes needs no note; the family's answer is each of its rows', with the family as the ruling
    r = apply(
        jfi,
        folder,
        tmp_path / "b",
        fill(tmp_path / "b", {family["id"]: signed("yes", ratifier_note="")}, tmp_path / "r.json"),
    )
    assert r.exit_code == 0, r.stderr
    ledger = [json.loads(x) for x in (folder / "ratifications.jsonl").read_text().splitlines()]
    assert sorted(x["id"] for x in ledger) == sorted(u["id"] for u in family["units"])
    assert all(
        x["ruling"] == family["id"] and x["ratified_judgment"] == "yes" and x["unit_sha256"] == u["unit_sha256"]
        for x, u in zip(sorted(ledger, key=lambda x: x["id"]), sorted(family["units"], key=lambda u: u["id"]))
    )
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert all(rows(folder)[u["id"]]["status"] == "RATIFIED" for u in family["units"])


def test_a_no_still_needs_its_note(tmp_path):
    folder = made(tmp_path, VIEWS, ("build",), ("merge",), in_place=True)
    jfi = Jfi(tmp_path)
    assert export(jfi, folder, tmp_path / "b").exit_code == 0
    task = json.loads((tmp_path / "b" / "bundle.json").read_text())["tasks"][0]
    before = snapshot(folder)
    r = apply(
        jfi,
        folder,
        tmp_path / "b",
        fill(tmp_path / "b", {task["id"]: signed("no", ratifier_note="")}, tmp_path / "r.json"),
    )
    assert r.exit_code == 2 and "incomplete_decision" in r.stderr and snapshot(folder) == before


def test_a_task_deleted_from_a_returned_sheet_is_named_and_nothing_is_applied(tmp_path):
    folder = made(tmp_path, VIEWS, ("build",), ("merge",), in_place=True)
    jfi = Jfi(tmp_path)
    assert export(jfi, folder, tmp_path / "b").exit_code == 0
    lines = (tmp_path / "b" / "review-tasks.csv").read_text().splitlines(keepends=True)
    header, first, dropped = lines[0], lines[1], lines[2]
    sheet = list(csv.reader([header]))[0]
    cells = list(csv.reader([first]))[0]
    for column, value in (("decision", "yes"), ("reviewer", "Ana Ruiz"), ("utc", STAMP)):
        cells[sheet.index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(cells)
    path = tmp_path / "return.csv"
    path.write_text(header + out.getvalue() + "".join(lines[3:]))
    before = snapshot(folder)
    r = apply(jfi, folder, tmp_path / "b", path)
    missing_id = list(csv.reader([dropped]))[0][1]
    assert r.exit_code == 2 and "missing_task" in r.stderr and missing_id in r.stderr and snapshot(folder) == before


def test_an_unsure_settles_nothing_and_a_rulings_fix_reaches_the_rows(tmp_path):
    folder = made(tmp_path, VIEWS, ("build",), ("merge",), ("worklist",), in_place=True)
    jfi = Jfi(tmp_path)
    family = jfi(
        "query",
        "--inventory",
        str(folder),
        "--format",
        "json",
        "SELECT family_id, unit_ids FROM audit_worklist_families WHERE type = 'heading'",
    ).json[0]
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--family",
        family["family_id"],
        "--ruling",
        "R-1",
        "--sentence",
        "Not sure these say enough.",
        "--by",
        "Ana Ruiz",
        "--judgment",
        "unsure",
    )
    assert r.exit_code == 0, r.stderr
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert all(rows(folder)[u]["status"] == "DRAFT_NOT_RATIFIED" for u in family["unit_ids"])  # never counted as done
    looks = jfi(
        "query", "--inventory", str(folder), "--format", "json", "SELECT id, reason FROM audit_worklist_rows"
    ).json
    assert {x["id"] for x in looks if x["reason"] == "ratified-unsure"} == set(family["unit_ids"])
    still = jfi("query", "--inventory", str(folder), "--format", "json", "SELECT id FROM audit_decisions").json
    assert set(family["unit_ids"]) <= {x["id"] for x in still}
    again = jfi(
        "query",
        "--inventory",
        str(folder),
        "--format",
        "json",
        "SELECT family_id FROM audit_worklist_families WHERE type = 'heading'",
    ).json[0]["family_id"]
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--family",
        again,
        "--ruling",
        "R-2",
        "--sentence",
        "Headings must name their sections.",
        "--by",
        "Ana Ruiz",
        "--judgment",
        "no",
        "--fix",
        "Name each section's topic.",
    )
    assert r.exit_code == 0, r.stderr
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    merged = rows(folder)
    fixes = {
        x["id"]: x["ratified_fix"]
        for x in jfi(
            "query", "--inventory", str(folder), "--format", "json", "SELECT id, ratified_fix FROM audit_draft_rows"
        ).json
    }
    assert all(
        merged[u]["status"] == "RATIFIED" and fixes[u] == "Name each section's topic." for u in family["unit_ids"]
    )
    import openpyxl

    sheet = openpyxl.load_workbook(folder / "draft-judgments.xlsx").worksheets[0]
    header = [c.value for c in sheet[1]]
    assert {
        r[header.index("ratified_fix")]
        for r in sheet.iter_rows(min_row=2, values_only=True)
        if r[header.index("id")] in family["unit_ids"]
    } == {"Name each section's topic."}
    assert jfi("audit", "report", "--inventory", str(folder)).exit_code == 0
    assert (
        "Fix asked: Name each section&#x27;s topic." in (folder / "report.html").read_text()
        or "Fix asked: Name each section&#39;s topic." in (folder / "report.html").read_text()
    )


def test_one_page_one_view_a_redirect_and_a_copy_fold_into_the_first(tmp_path):
    page = dict(
        title="Fares - Harbor", h1=["Fares"], headings=[heading("Single tickets", 2)], links=[link("Buy", "/buy")]
    )
    views = [
        view("fares", **page),
        view("fares-old", url="http://site.example/old-fares.html", **page),
        view("fares-copy", **page),
        view("routes", title="Routes - Harbor", h1=["Routes"]),
    ]
    views[1]["final_url"] = "http://site.example/fares.html"  # the browser was redirected to the first view's page
    folder = write(tmp_path / "audit", views)
    jfi = Jfi(tmp_path)
    r = jfi("audit", "build", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    head = json.loads((folder / "judgment-units.json").read_text())
    assert head["views_ok"] == 2 and {v["view_id"]: v["folded_into"] for v in head["views_folded"]} == {
        "fares-old": "fares",
        "fares-copy": "fares",
    }
    assert {v["url"] for v in head["views_folded"]} == {
        "http://site.example/old-fares.html",
        "http://site.example/fares-copy.html",
    }
    titles = [u for u in head["units"] if u["type"] == "title"]
    assert len(titles) == 2 and not any("title_shared_by_2_views" in u["flags"] for u in titles)


def test_a_row_shows_the_occurrence_a_person_meets(tmp_path):
    """A link hidden at its first occurrence (a collapsed menu) and shown at the next takes the shown one's place."""
    hidden = link("Fares", "/fares", selector="#mobile-menu > a", landmark="banner", context="Menu", visible=False)
    shown = link("Fares", "/fares", selector="main > nav > a", landmark="navigation", context="Menu")
    folder = write(tmp_path / "audit", [view("home", links=[hidden, shown]), view("about", links=[shown])])
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    units = [u for u in json.loads((folder / "judgment-units.json").read_text())["units"] if u["type"] == "link"]
    assert len(units) == 1 and units[0]["selector"] == "main > nav > a" and units[0]["landmark"] == "navigation"


def test_a_cap_that_was_hit_is_stated_in_the_build_summary_the_coverage_basis_and_the_report(tmp_path):
    page = view("long", links=[link(f"Item {k}", f"/i{k}") for k in range(3)])
    page["inventory"]["counts"] = {
        "links": 3,
        "links_total": 633,
        "headings": 0,
        "images": 0,
        "images_total": 0,
        "fields": 0,
    }
    page["inventory"]["capped"] = {"links": True, "headings": False, "images": False, "fields": False, "navs": False}
    folder = write(tmp_path / "audit", [page, view("short")])
    jfi = Jfi(tmp_path)
    r = jfi("audit", "build", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    hit = [{"view_id": "long", "viewport": "desktop-1440", "kind": "links", "read": 3, "total": 633}]
    assert json.loads(r.stdout)["caps_hit"] == hit and "decision(s) settle" in r.stderr
    assert json.loads((folder / "judgment-units.json").read_text())["caps_hit"] == hit
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert json.loads((folder / "draft-judgments.json").read_text())["coverage_basis"]["caps_hit"] == hit
    assert jfi("audit", "report", "--inventory", str(folder)).exit_code == 0
    assert "long read 3 links of 633" in (folder / "report.html").read_text()
