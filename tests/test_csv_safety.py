"""Every CSV jfi writes round-trips through a strict reader, and no cell can start a spreadsheet formula."""

import csv
import io
import json
import re
import unicodedata

import pytest
from conftest import Jfi, item
from inventories import link, view, write

from jfi.canonical import digest
from jfi.output import csv_lines

PAYLOADS = [
    "=1+1",
    "@SUM(1)",
    "+1",
    "-1",
    "\t=1",
    "\r=1",
    "\n=1",
    "a\r=1",
    "x\r\n=2",
    " =3",
    "\u3000=4",
    "\x00=5",
    "\u200b=6",
    "\uff1d7",
    "\uff0b8",
    "\uff0d9",
    "\uff2010",
    'q"uote,comma',
    "plain text",
]
NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")
DANGER = set("=+-@\t\r\uff1d\uff0b\uff0d\uff20")


def unguarded(cell: str) -> bool:
    """A cell a spreadsheet would run (a plain number, a negative one included, is a number)."""
    return not NUMBER.fullmatch(cell) and starts_formula(cell)


def starts_formula(cell: str) -> bool:
    """Its first character after whitespace and controls starts a formula."""
    if cell[:1] in ("\t", "\r"):
        return True
    for ch in cell:
        if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            continue
        return ch in DANGER
    return False


def strict_rows(text: str) -> list[list[str]]:
    """Parse as RFC 4180 with a strict reader; every row has the header's width and no cell is a live formula."""
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    assert rows, "empty CSV"
    width = len(rows[0])
    for n, row in enumerate(rows):
        assert len(row) == width, f"row {n} has {len(row)} cells, header has {width}: {row!r}"
        for cell in row:
            assert not unguarded(cell), f"row {n}: unguarded formula cell {cell!r}"
    return rows


@pytest.mark.parametrize("payload", PAYLOADS)
def test_every_payload_is_one_guarded_cell(payload):
    header, lines = csv_lines(["a", "b", "c"], [(payload, 5, -3)])
    rows = strict_rows(header + "".join(lines))
    assert len(rows) == 2
    cell = rows[1][0]
    assert cell in (payload, "'" + payload)
    assert (cell == "'" + payload) == starts_formula(payload)
    assert rows[1][1:] == ["5", "-3"]  # numbers stay numbers, a negative one included


def test_many_cells_are_guarded_as_few_are_in_their_order():
    from jfi.output import ARROW_CELLS

    rows = [(PAYLOADS[n % len(PAYLOADS)] + str(n), n, n % 2 == 0, None) for n in range(ARROW_CELLS // 4 + 10)]
    header, many = csv_lines(["a", "b", "c", "d"], rows)  # more cells than ARROW_CELLS: one table for them all
    few = [line for k in range(0, len(rows), 500) for line in csv_lines(["a", "b", "c", "d"], rows[k : k + 500])[1]]
    assert len(rows) * 4 > ARROW_CELLS and many == few
    assert strict_rows(header + "".join(many))[1:] == strict_rows(header + "".join(few))[1:]


def test_guard_leaves_ordinary_text_alone():
    texts = ["Harbor Transit — Home", "3 items", "e-mail", "Learn more", ""]
    assert csv_lines(["a", "b"], [(t, "x") for t in texts])[1] == [f"{t},x\n" for t in texts]


def test_corpus_export_csvs_are_strict_and_guarded(jfi):
    records = []
    for k, payload in enumerate(PAYLOADS):
        records.append(
            item(
                id=f"fi-{k + 1:04d}", surrounding_text=payload, provenance_note=payload, destination="Opens " + payload
            )
        )
    jfi.write_corpus(records)
    r = jfi("corpus", "export", "--format", "csv")
    assert r.exit_code == 0, r.stderr
    csvs = sorted((jfi.project / "exports").glob("*.csv"))
    assert csvs
    for path in csvs:
        strict_rows(path.read_bytes().decode("utf-8"))
    rows = list(
        csv.DictReader(io.StringIO((jfi.project / "exports" / "corpus-items.csv").read_bytes().decode(), newline=""))
    )
    assert len(rows) == len(PAYLOADS)
    assert {r["surrounding_text"].removeprefix("'") for r in rows} == set(PAYLOADS)


def test_audit_csvs_are_strict_and_guarded(tmp_path):
    links = [link(f"Go {k}", f"/p{k}") for k in range(len(PAYLOADS))]
    folder = write(tmp_path / "audit", [view("home", title='\r=HYPERLINK("x")', links=links)])
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    units = json.loads((folder / "judgment-units.json").read_text())["units"]
    for batch in sorted((folder / "batches").glob("*.jsonl")):
        lines = []
        for k, line in enumerate(batch.read_text().splitlines()):
            uid = json.loads(line)["id"]
            payload = PAYLOADS[k % len(PAYLOADS)]
            lines.append(
                json.dumps(
                    {
                        "id": uid,
                        "judgment": "no",
                        "confidence": "high",
                        "rationale": payload,
                        "fix": payload,
                        "needs_human": False,
                        "drafted_by": payload.strip() or "x",
                    }
                )
            )
        batch.with_name(batch.name.replace(".jsonl", ".judged.jsonl")).write_text("\n".join(lines) + "\n")
    ledger = []
    for k, unit in enumerate(units):
        payload = PAYLOADS[k % len(PAYLOADS)]
        # a signing name shows no control or invisible character (the ledger refuses one): the payload's visible part
        ledger.append(
            {
                "id": unit["id"],
                "ratified_by": "Ana " + "".join(ch for ch in payload if ch.isprintable()).strip(),
                "ratified_judgment": "no",
                "ratifier_note": payload,
                "ratified_utc": "2026-11-30T10:00:00Z",
                "unit_sha256": digest(unit),
            }
        )
    (folder / "ratifications.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ledger))
    for command in (["merge"], ["receipts"], ["worklist"]):
        r = jfi("audit", *command, "--inventory", str(folder))
        assert r.exit_code in (0, 1), (command, r.stderr)
    r = jfi("audit", "review", "export", "--inventory", str(folder), "--out", str(tmp_path / "bundle"), "--all")
    assert r.exit_code == 0, r.stderr
    written = sorted(folder.rglob("*.csv")) + sorted((tmp_path / "bundle").rglob("*.csv"))
    names = {p.name for p in written}
    assert {"draft-judgments.csv", "receipts.csv", "worklist.csv", "review-tasks.csv", "nav-consistency.csv"} <= names
    for path in written:
        rows = strict_rows(path.read_bytes().decode("utf-8"))
        assert len(rows) >= 1
    merged = list(csv.DictReader(io.StringIO((folder / "draft-judgments.csv").read_bytes().decode(), newline="")))
    assert {r["rationale"].removeprefix("'") for r in merged} <= set(PAYLOADS)
    assert any(r["rationale"] == "'\r=1" for r in merged)


def test_query_csv_is_strict_and_guarded(jfi):
    jfi.write_corpus([item(surrounding_text="\r=1")])
    r = jfi("query", "SELECT surrounding_text, -1 AS n FROM corpus_items", "--format", "csv")
    assert r.exit_code == 0
    rows = strict_rows(r.stdout)
    assert rows[1] == ["'\\u000d=1", "-1"]  # guarded, and the carriage return shown, never sent to the terminal


def test_sql_rendered_csv_lines_are_the_python_writers_bytes():
    """merge renders its CSV lines in SQL (csv_cell, csv_plain): the same bytes csv_lines makes, for every hostile
    text in every position, lists, booleans, numbers and NULLs."""
    from jfi.output import sql_csv_line
    from jfi.store import Store

    texts = PAYLOADS + [
        "",
        "é=1",
        "ü",
        "\u2028=1",
        "\x85-2",
        "a,b",
        'x"',
        "line\nbreak",
        "'=already",
        "1,5",
        "\u00a0@x",
    ]
    store = Store(sections=("audit",))
    try:
        store.con.execute("CREATE TABLE t (a VARCHAR, l VARCHAR[], b BOOLEAN, n BIGINT)")
        rows = [
            (t, [t, "x"] if i % 2 else [], i % 3 == 0 if i % 4 else None, -i if i % 2 else i)
            for i, t in enumerate(texts)
        ] + [(None, None, None, None)]
        store.con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", rows)
        types = {"a": "VARCHAR", "l": "VARCHAR[]", "b": "BOOLEAN", "n": "BIGINT"}
        select, line = sql_csv_line(["a", "l", "b", "n"], types)
        got = [
            r[0]
            for r in store.con.execute(f"SELECT {line} FROM (SELECT rowid AS k, {select} FROM t) ORDER BY k").fetchall()
        ]
    finally:
        store.close()
    expected = csv_lines(
        ["a", "l", "b", "n"], [(a, "; ".join(ls) if ls is not None else None, b, n) for a, ls, b, n in rows]
    )[1]
    assert [g + "\n" for g in got] == expected
