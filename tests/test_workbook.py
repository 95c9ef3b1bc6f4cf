"""Workbooks for people: draft-judgments.xlsx beside the merge's CSV, corpus.xlsx beside the corpus export's CSVs.
Their cells are the CSVs' (without the CSV's formula guard) and never a formula."""

import csv
import io
import json
import zipfile

import openpyxl
import pytest
from conftest import Jfi
from inventories import link, view, write

from jfi.workbook import Sheet, workbook_bytes

FORMULAS = ["=1+1", "@SUM(1)", "+1", "-1", "\t=1", '=HYPERLINK("http://evil.example")', "plain"]


def cells(ws):
    return [[c.value for c in row] for row in ws.iter_rows()]


def csv_cells(path):
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def same(workbook_cell, csv_cell) -> bool:
    if isinstance(workbook_cell, bool):  # a real boolean in the workbook, spelled in the CSV
        return csv_cell == ("true" if workbook_cell else "false")
    text = "" if workbook_cell is None else str(workbook_cell)
    return csv_cell in (text, "'" + text) or csv_cell.replace("\r\n", "\n") in (text, "'" + text)


@pytest.mark.parametrize("payload", FORMULAS)
def test_a_cell_is_never_a_formula(payload):
    data = workbook_bytes([Sheet("T", ["a", "b"], [(payload, 1)])])
    ws = openpyxl.load_workbook(io.BytesIO(data))["T"]
    assert ws["A2"].value == payload and ws["A2"].data_type == "s" and ws["B2"].value == 1
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert "<f>" not in z.read("xl/worksheets/sheet1.xml").decode()


@pytest.fixture
def merged(tmp_path):
    links = [link(f"Go {k}", f"/p{k}") for k in range(len(FORMULAS))]
    folder = write(tmp_path / "audit", [view("home", title="=1+1 Harbor", links=links)])
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    for batch in sorted((folder / "batches").glob("*.jsonl")):
        lines = []
        for k, line in enumerate(batch.read_text().splitlines()):
            payload = FORMULAS[k % len(FORMULAS)]
            lines.append(
                json.dumps(
                    {
                        "id": json.loads(line)["id"],
                        "judgment": "no",
                        "confidence": "high",
                        "rationale": payload,
                        "fix": payload,
                        "needs_human": False,
                        "drafted_by": "j",
                    }
                )
            )
        batch.with_name(batch.name.replace(".jsonl", ".judged.jsonl")).write_text("\n".join(lines) + "\n")
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    return folder


def test_the_merge_workbook_holds_the_csv_rows_as_text(merged):
    wb = openpyxl.load_workbook(merged / "draft-judgments.xlsx")
    assert wb.sheetnames == ["Draft judgments", "Worklist", "Navigation 3.2.3", "Rules", "Columns"]
    rules = {r[0]: r for r in cells(wb["Rules"])[1:]}  # every flag and question with its criteria and help page
    assert rules["question-link"][3] == "2.4.4" and rules["question-link"][4] == "5effbb"
    assert all(r[8].startswith("https://www.w3.org/WAI/WCAG22/Understanding/") for r in rules.values() if r[3])
    ws = wb["Draft judgments"]
    got, want = cells(ws), csv_cells(merged / "draft-judgments.csv")
    # the CSV's columns (the reference's), and beside the ratification the fix the ratifier asks for
    assert sorted(got[0]) == sorted(want[0] + ["ratified_fix"]) and len(got) == len(want)
    assert got[0][:8] == ["status", "type", "name", "flags", "draft_judgment", "confidence", "rationale", "fix"]
    at = {name: want[0].index(name) for name in got[0] if name in want[0]}
    for g, w in zip(got[1:], want[1:]):
        assert all(same(a, w[at[name]]) for a, name in zip(g, got[0]) if name in at), (g, w)
    for row in ws.iter_rows(min_row=2):
        for c in row:
            assert c.data_type in ("s", "n", "b", "inlineStr"), (c.coordinate, c.value)
    needs_human = ws.cell(row=2, column=got[0].index("needs_human") + 1).value
    assert needs_human is False  # a real boolean, not the text "false"
    machine, readable = got[0].index("selector") + 1, got[0].index("rationale") + 1  # grouped, collapsed at the right
    assert any(d.hidden and d.outline_level == 1 and d.min <= machine <= d.max for d in ws.column_dimensions.values())
    assert not any(d.hidden and d.min <= readable <= d.max for d in ws.column_dimensions.values())
    assert ws.page_setup.orientation == "landscape" and ws.page_setup.fitToWidth == 1
    assert ws.sheet_properties.pageSetUpPr.fitToPage and ws.print_title_rows == "$1:$1"
    rationales = {r[got[0].index("rationale")] for r in got[1:]}
    assert {"=1+1", "@SUM(1)", "+1", "-1", "\t=1"} <= rationales  # the text itself, not a guarded copy
    assert ws.freeze_panes == "B2" and ws.auto_filter.ref
    assert ws["A2"].fill.start_color.rgb.endswith("FFEB9C")  # DRAFT_NOT_RATIFIED
    meanings = {r[1]: r[2] for r in cells(wb["Columns"])[1:] if r[0] == "Draft judgments"}
    assert meanings["status"] and meanings["needs_human"]


def test_the_corpus_workbook_holds_the_export_tables(example, tmp_path):
    out = tmp_path / "exports"
    assert example("corpus", "export", "--format", "csv", "--out", str(out)).exit_code == 0
    wb = openpyxl.load_workbook(out / "corpus.xlsx")
    assert wb.sheetnames == ["Items", "Criteria", "Concentration", "Pending", "Columns"]
    for sheet, name in (("Items", "corpus-items"), ("Criteria", "corpus-criteria")):
        got, want = cells(wb[sheet]), csv_cells(out / f"{name}.csv")
        assert got[0] == want[0] and len(got) == len(want)
        for g, w in zip(got[1:], want[1:]):
            assert all(same(a, b) or (isinstance(a, (int, float)) and float(b) == a) for a, b in zip(g, w)), (g, w)


def test_a_merge_too_long_for_a_desk_writes_no_workbook(merged, monkeypatch):
    from conftest import Jfi

    import jfi.audit.judging as judging

    assert (merged / "draft-judgments.xlsx").is_file()
    monkeypatch.setattr(judging, "WORKBOOK_MAX_ROWS", 3)
    r = Jfi(merged.parent)("audit", "merge", "--inventory", str(merged))
    assert r.exit_code == 0 and "draft-judgments.xlsx not written" in r.stderr
    assert not (merged / "draft-judgments.xlsx").exists() and (merged / "draft-judgments.csv").is_file()
    next_step = next(x for x in r.stderr.splitlines() if x.startswith("next:"))
    assert "draft-judgments.xlsx" not in next_step and "report.html" in next_step  # the hint names what was written
