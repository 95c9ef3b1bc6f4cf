"""A returned review sheet is read with limits and cross-checked against the bundle it answers: a broken or hostile
workbook, an oversized file, a row moved by a one-column sort, a column twice, a row twice, a time outside the
bundle's life, a blank bundle id, a number for a name, cells beyond the header: each is refused with its row and
column, never a traceback, and the ledger stays as it was."""

import csv
import datetime
import io
import zipfile

import openpyxl
import pytest
from conftest import Jfi, snapshot
from inventories import link, made, view

STAMP = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def bundle(tmp_path):
    folder = made(
        tmp_path,
        [view("home", links=[link("Learn more", "/a"), link("Fares", "/f")])],
        ("build",),
        ("merge",),
        ("review", "export", "--out", "{root}/b"),
    )
    return Jfi(tmp_path), folder, tmp_path / "b"


def apply(jfi, folder, bundle_dir, path):
    before = snapshot(folder)
    r = jfi(
        "audit", "review", "apply", "--inventory", str(folder), "--bundle", str(bundle_dir), "--responses", str(path)
    )
    assert "Traceback" not in r.stderr
    if r.exit_code != 0:
        assert snapshot(folder) == before
    return r


def filled_book(bundle_dir):
    book = openpyxl.load_workbook(bundle_dir / "review-tasks.xlsx")
    ws = book["Review tasks"]
    col = {c.value: c.column for c in ws[1]}
    for row in (2, 3):
        for name, value in (("decision", "no"), ("observation", "Checked."), ("reviewer", "Ana Ruiz"), ("utc", STAMP)):
            ws.cell(row=row, column=col[name]).value = value
    return book, ws, col


def test_a_filled_sheet_goes_back_in(bundle, tmp_path):
    jfi, folder, b = bundle
    book, _, _ = filled_book(b)
    book.save(tmp_path / "ok.xlsx")
    assert apply(jfi, folder, b, tmp_path / "ok.xlsx").exit_code == 0


def _rewrite(src, dst, change):
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
        for info in z.infolist():
            data = change(info.filename, z.read(info.filename))
            if data is not None:
                out.writestr(info.filename, data)
        extra = change("", b"")
        if extra:
            out.writestr("xl/extra.bin", extra)


BOMB = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;">'
    b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><worksheet>&lol3;</worksheet>'
)
EXTERNAL = (
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY ext SYSTEM "file:///etc/passwd">]>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>&ext;</sheetData></worksheet>'
)


@pytest.mark.parametrize("kind", ["cut", "no-sheet", "styles", "entities", "external", "inflates"])
def test_a_broken_or_hostile_workbook_is_refused(bundle, tmp_path, kind):
    jfi, folder, b = bundle
    book, _, _ = filled_book(b)
    book.save(tmp_path / "ok.xlsx")
    bad = tmp_path / f"{kind}.xlsx"
    if kind == "cut":
        bad.write_bytes((tmp_path / "ok.xlsx").read_bytes()[:2000])
    else:

        def change(name, data):
            if kind == "no-sheet" and name == "xl/worksheets/sheet1.xml":
                return None
            if kind == "styles" and name == "xl/styles.xml":
                return b"<styleSheet><broken"
            if kind == "entities" and name == "xl/worksheets/sheet1.xml":
                return BOMB
            if kind == "external" and name == "xl/worksheets/sheet1.xml":
                return EXTERNAL
            if kind == "inflates" and name == "":
                return bytes(30_000_000)  # 30 MB of zeros: a few kB in the zip
            return data if name else None

        _rewrite(tmp_path / "ok.xlsx", bad, change)
    r = apply(jfi, folder, b, bad)
    assert r.exit_code == 2 and str(bad) in r.stderr
    assert "invalid_workbook" in r.stderr or (kind == "no-sheet" and "invalid_responses" in r.stderr)


def test_a_csv_of_a_million_rows_is_refused_not_read_into_memory(bundle, tmp_path):
    jfi, folder, b = bundle
    header, first = (b / "review-tasks.csv").read_text().splitlines()[:2]
    big = tmp_path / "big.csv"
    with big.open("w") as fh:
        fh.write(header + "\n" + (first + "\n") * 200_000)
    r = apply(jfi, folder, b, big)
    assert r.exit_code == 2 and "rows" in r.stderr


def test_a_row_moved_by_a_one_column_sort_is_refused(bundle, tmp_path):
    jfi, folder, b = bundle
    book, ws, col = filled_book(b)
    a, c = ws.cell(row=2, column=col["id"]), ws.cell(row=3, column=col["id"])
    a.value, c.value = c.value, a.value  # the ids sorted, the rest of the rows not
    book.save(tmp_path / "sorted.xlsx")
    r = apply(jfi, folder, b, tmp_path / "sorted.xlsx")
    assert r.exit_code == 2 and "moved_row" in r.stderr and f"{tmp_path / 'sorted.xlsx'}:2: task:" in r.stderr


def _csv(b, edit):
    table = list(csv.reader(io.StringIO((b / "review-tasks.csv").read_text(), newline="")))
    header = table[0]
    for row in table[1:3]:
        for name, value in (("decision", "no"), ("observation", "Checked."), ("reviewer", "Ana Ruiz"), ("utc", STAMP)):
            row[header.index(name)] = value
    edit(table, header)
    out = io.StringIO()
    csv.writer(out).writerows(table)
    return out.getvalue()


@pytest.mark.parametrize(
    "case, needle",
    [
        ("two decision columns", "decision twice"),
        ("row twice", "duplicate_row"),
        ("utc 2999", "expected a time between"),
        ("utc 1970", "expected a time between"),
        ("blank bundle", "missing_bundle"),
        ("reviewer number", 'reviewer: found "12345", expected a person\'s name'),
        ("cells beyond", "beyond the header"),
    ],
)
def test_an_ambiguous_row_is_refused_with_its_row_and_column(bundle, tmp_path, case, needle):
    jfi, folder, b = bundle

    def edit(table, header):
        d = header.index("decision")
        if case == "two decision columns":
            header.append("decision")
            for row in table[1:]:
                row.append("yes")
        elif case == "row twice":
            table.insert(2, list(table[1]))
        elif case.startswith("utc"):
            table[1][header.index("utc")] = "2999-01-01T00:00:00Z" if "2999" in case else "1970-01-01T00:00:00Z"
        elif case == "blank bundle":
            table[1][header.index("bundle_id")] = ""
        elif case == "reviewer number":
            table[1][header.index("reviewer")] = "12345"
        elif case == "cells beyond":
            table[1].append("stray")
        assert d >= 0

    path = tmp_path / "r.csv"
    path.write_text(_csv(b, edit))
    r = apply(jfi, folder, b, path)
    assert r.exit_code == 2 and needle in r.stderr, r.stderr
    assert not (folder / "ratifications.jsonl").exists()


def test_a_hidden_sheet_or_a_formula_never_speaks_for_the_reviewer(bundle, tmp_path):
    """The sheet jfi wrote is read by its name: a hidden sheet put first that says "no" while the visible one says
    "yes" is refused, and so is a formula in a decision cell (its cached value is not what a person typed)."""
    jfi, folder, b = bundle
    book, ws, col = filled_book(b)
    for row in (2, 3):
        ws.cell(row=row, column=col["decision"]).value = "yes"
    decoy = book.copy_worksheet(ws)
    decoy.title = "Decoy"
    for row in (2, 3):
        decoy.cell(row=row, column=col["decision"]).value = "no"
    decoy.sheet_state = "hidden"
    book.move_sheet(decoy, offset=-book.index(decoy))
    book.save(tmp_path / "decoy-first.xlsx")
    r = apply(jfi, folder, b, tmp_path / "decoy-first.xlsx")
    assert r.exit_code == 0, r.stderr  # the visible sheet jfi wrote is the answer: yes
    assert '"ratified_judgment": "yes"' in (folder / "ratifications.jsonl").read_text()
    assert '"ratified_judgment": "no"' not in (folder / "ratifications.jsonl").read_text()

    jfi2, folder2, b2 = (
        Jfi(tmp_path / "two"),
        *(lambda f: (f, f.parent / "b"))(
            made(
                tmp_path / "two",
                [view("home", links=[link("Learn more", "/a"), link("Fares", "/f")])],
                ("build",),
                ("merge",),
                ("review", "export", "--out", "{root}/b"),
            )
        ),
    )
    book, ws, col = filled_book(b2)
    ws.sheet_state = "hidden"
    book.create_sheet("Other")
    book.save(tmp_path / "hidden.xlsx")
    r = apply(jfi2, folder2, b2, tmp_path / "hidden.xlsx")
    assert r.exit_code == 2 and "is hidden" in r.stderr, r.stderr
    book, ws, col = filled_book(b2)
    ws.cell(row=2, column=col["decision"]).value = '=IF(1,"no","yes")'
    book.save(tmp_path / "formula.xlsx")
    r = apply(jfi2, folder2, b2, tmp_path / "formula.xlsx")
    assert r.exit_code == 2 and "holds a formula" in r.stderr, r.stderr
    book, ws, col = filled_book(b2)
    ws.title = "Renamed"
    book.save(tmp_path / "renamed.xlsx")
    r = apply(jfi2, folder2, b2, tmp_path / "renamed.xlsx")
    assert r.exit_code == 2 and "no sheet named" in r.stderr, r.stderr


def test_a_bundle_rewritten_with_its_id_recomputed_is_refused(bundle, tmp_path):
    import json

    from jfi.canonical import digest

    jfi, folder, b = bundle
    doc = json.loads((b / "bundle.json").read_text())
    doc["tasks"][0]["question"] = "Is this fine? (answer yes)"
    doc["tasks"][0]["name"] = "Something else"
    body = {k: v for k, v in doc.items() if k not in ("bundle_id", "created_utc")}
    doc["bundle_id"] = digest(body)
    (b / "bundle.json").write_text(json.dumps(doc))
    book, ws, col = filled_book(b)
    for row in (2, 3):
        ws.cell(row=row, column=col["bundle_id"]).value = doc["bundle_id"]
    ws.cell(row=2, column=col["name"]).value = "Something else"
    book.save(tmp_path / "forged.xlsx")
    r = apply(jfi, folder, b, tmp_path / "forged.xlsx")
    assert r.exit_code == 2 and "unknown_bundle" in r.stderr, r.stderr
