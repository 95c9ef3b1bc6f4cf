"""Exports: formula-safe CSV, JSONL, Parquet with the rulebook hash, and a jfi.duckdb any client opens."""
import csv
import json

import duckdb
import pyarrow.parquet as pq

from conftest import item, snapshot
from jfi import rulebook
from jfi.output import csv_lines


def test_a_csv_cell_neutralises_formulas_only_in_text():
    texts = ("=SUM(A1)", "+1", "-cmd", "@x", "\tx", "\rx")
    assert [line.split(",")[0] for line in csv_lines(["t"], [(t,) for t in texts])[1]] == \
        ["'" + t + "\n" if t[0] not in "\r" else '"\'' + t + '"\n' for t in texts]
    assert csv_lines(["a", "b", "c", "d", "e"], [("plain", -3, 2.5, None, True)])[1] == ["plain,-3,2.5,,true\n"]


def test_export_writes_every_format_with_the_rulebook_hash(example, tmp_path):
    out = tmp_path / "exports"
    corpus = [json.loads(x) for x in example.corpus.read_text().splitlines()]
    corpus[0]["gold_alt_rationale"] = "=HYPERLINK(\"http://evil.example\") " + "x" * 40
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
        assert con.execute("SELECT rulebook_sha256 FROM jfi_run").fetchone()[0] == \
            rulebook.rulebook_sha256(("corpus",), "round-v1")
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
