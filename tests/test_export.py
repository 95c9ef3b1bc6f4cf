"""Exports: formula-safe CSV, JSONL, Parquet with the rulebook hash, and a jfi.duckdb any client opens."""

import csv
import json
import shutil

import duckdb
import pyarrow.parquet as pq
import pytest
from conftest import REPO, Jfi, item, snapshot

from jfi import rulebook
from jfi.output import csv_lines


def test_a_csv_cell_neutralises_formulas_only_in_text():
    texts = ("=SUM(A1)", "+1", "-cmd", "@x", "\tx", "\rx")
    assert [line.split(",")[0] for line in csv_lines(["t"], [(t,) for t in texts])[1]] == [
        "'" + t + "\n" if t[0] not in "\r" else "\"'" + t + '"\n' for t in texts
    ]
    assert csv_lines(["a", "b", "c", "d", "e"], [("plain", -3, 2.5, None, True)])[1] == ["plain,-3,2.5,,true\n"]


def test_export_writes_every_format_with_the_rulebook_hash(example, tmp_path):
    out = tmp_path / "exports"
    corpus = [json.loads(x) for x in example.corpus.read_text().splitlines()]
    corpus[0]["gold_alt_rationale"] = '=HYPERLINK("http://evil.example") ' + "x" * 40
    example.write_corpus(corpus)
    r = example("corpus", "export", "--out", str(out))
    assert r.exit_code == 0, r.stderr
    sha = rulebook.rulebook_sha256(("corpus",), "round-v1")
    for name in ("corpus-items", "corpus-criteria", "corpus-concentration", "corpus-pending"):
        for ext in ("csv", "jsonl", "parquet"):
            assert (out / f"{name}.{ext}").is_file(), (name, ext)
    rows = list(csv.DictReader((out / "corpus-items.csv").open(newline="")))
    assert rows[0]["gold_alt_rationale"].startswith("'=HYPERLINK")
    assert {r["rulebook_sha256"] for r in rows} == {sha} and {r["profile"] for r in rows} == {"round-v1"}
    jsonl = [json.loads(x) for x in (out / "corpus-items.jsonl").read_text().splitlines()]
    assert jsonl[0]["gold_alt_rationale"].startswith("=HYPERLINK")  # JSON keeps the original text
    assert len(jsonl) == len(corpus)
    table = pq.read_table(out / "corpus-criteria.parquet")
    assert table.schema.metadata[b"rulebook_sha256"].decode() == sha
    assert table.schema.metadata[b"profile"] == b"round-v1"
    assert "met" in table.column_names


def test_duckdb_store_opens_in_any_client(example, tmp_path):
    out = tmp_path / "exports"
    assert example("corpus", "export", "--out", str(out)).exit_code == 0
    con = duckdb.connect(str(out / "jfi.duckdb"), read_only=True)
    try:
        n = con.execute("SELECT count(*) FROM corpus_items").fetchone()[0]
        assert n == len(example.corpus.read_text().splitlines())
        assert con.execute("SELECT count(*) FROM corpus_violations").fetchone()[0] == 0
        assert con.execute("SELECT rulebook_sha256 FROM jfi_run").fetchone()[0] == rulebook.rulebook_sha256(
            ("corpus",), "round-v1"
        )
        comment = con.execute("SELECT comment FROM duckdb_views() WHERE view_name = 'corpus_criteria'").fetchone()[0]
        assert comment and "criterion" in comment
    finally:
        con.close()
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_single_format_and_refusal_on_invalid_corpus(jfi, tmp_path):
    out = tmp_path / "exports"
    jfi.write_corpus([item()])
    assert jfi("corpus", "export", "--format", "csv", "--out", str(out)).exit_code == 0
    assert sorted(p.suffix for p in out.iterdir()) == [".csv"] * 4 + [".xlsx"]
    jfi.write_corpus([item(status="bogus")])
    before = snapshot(tmp_path)
    r = jfi("corpus", "export", "--out", str(out))
    assert r.exit_code == 2 and "status: invalid_value" in r.stderr
    assert snapshot(tmp_path) == before


def _duckdb14():
    import os

    path = REPO / ".venv" / "duckdb-1.4" / "bin" / "python"
    if not path.is_file():
        if os.environ.get("JFI_REQUIRE_CONFORMANCE"):
            raise AssertionError(f"{path} is missing: `make test` installs DuckDB 1.4 there")
        pytest.skip("DuckDB 1.4 is not installed beside the project (make test installs it)")
    return path


def test_exported_stores_open_in_duckdb_1_4_with_their_meanings(tmp_path):
    """jfi.duckdb and an exported audit.duckdb are written in a storage format DuckDB 1.4 LTS reads: every table and
    view answers there, and the meanings are kept as comments."""
    import subprocess

    from inventories import link, made, view

    python = _duckdb14()
    corpus = tmp_path / "corpus"
    shutil.copytree(REPO / "corpus" / "example-project", corpus)
    assert Jfi(corpus)("corpus", "export", "--out", str(tmp_path / "out")).exit_code == 0
    folder = made(tmp_path, [view("home", links=[link("", "/x"), link("Fares", "/f")])], ("build",), ("merge",))
    assert Jfi(tmp_path)("audit", "export", "--inventory", str(folder)).exit_code == 0
    script = (
        "import duckdb, sys\n"
        "c = duckdb.connect(sys.argv[1], read_only=True)\n"
        'names = [r[0] for r in c.execute("SELECT table_name FROM duckdb_tables() UNION ALL SELECT view_name '
        'FROM duckdb_views() WHERE NOT internal").fetchall()]\n'
        "for n in names: c.execute(f'SELECT count(*) FROM {n}').fetchall()\n"
        'said = c.execute("SELECT count(*) FROM duckdb_tables() WHERE comment IS NOT NULL").fetchone()[0]\n'
        "print(duckdb.__version__, len(names), said)\n"
    )
    for store in (tmp_path / "out" / "jfi.duckdb", folder / "audit.duckdb"):
        done = subprocess.run([str(python), "-c", script, str(store)], capture_output=True, text=True)
        assert done.returncode == 0, (store, done.stderr[-800:])
        version, names, said = done.stdout.split()
        assert version.startswith("1.4") and int(names) > 10 and int(said) > 0, (store, done.stdout)


def test_parquet_has_real_booleans_and_times_and_says_what_each_column_means(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    from inventories import link, made, view

    folder = made(tmp_path, [view("home", links=[link("", "/x"), link("Fares", "/f")])], ("build",), ("merge",))
    (folder / "ratifications.jsonl").write_text(
        '{"id": "x", "ratified_by": "Ana Ruiz", "ratified_judgment": "yes", "ratified_utc": "2026-11-30T16:20:00Z"}\n'
    )
    assert Jfi(tmp_path)("audit", "export", "--inventory", str(folder)).exit_code == 0
    rows = pq.read_table(folder / "audit-draft-rows.parquet")
    assert rows.schema.field("needs_human").type == pa.bool_()
    assert pa.types.is_timestamp(rows.schema.field("ratified_utc").type)
    assert rows.schema.field("id").metadata[b"description"]
    ledger = pq.read_table(folder / "audit-ratifications.parquet")
    assert pa.types.is_timestamp(ledger.schema.field("ratified_utc").type)
    assert ledger.column("ratified_utc").to_pylist()[0].year == 2026
