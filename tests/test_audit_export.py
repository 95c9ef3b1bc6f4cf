"""`jfi audit export`: audit.duckdb and Parquet files an analyst opens with any DuckDB client."""

import json

import duckdb
import pyarrow.parquet as pq
from conftest import Jfi
from inventories import image, link, view, write


def test_audit_export_tables_equal_the_merge(tmp_path):
    folder = write(
        tmp_path / "audit",
        [view("home", links=[link("Learn more", "/a"), link("Fares", "/f")], images=[image("/img/x.png", "x.png")])],
    )
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    r = jfi("audit", "export", "--inventory", str(folder), "--out", str(tmp_path / "out"))
    assert r.exit_code == 0, r.stderr
    merged = json.loads((folder / "draft-judgments.json").read_text())["rows"]
    con = duckdb.connect(str(tmp_path / "out" / "audit.duckdb"), read_only=True)
    try:
        rows = con.execute("SELECT id, status, name, flags FROM audit_draft_rows ORDER BY sort_ord").fetchall()
        names = {n for (n,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        comment = con.execute("SELECT comment FROM duckdb_tables() WHERE table_name = 'audit_draft_rows'").fetchone()[0]
        comments = dict(con.execute("SELECT table_name, comment FROM duckdb_tables()").fetchall())
        column_comments = {
            (t, c): m
            for t, c, m in con.execute("SELECT table_name, column_name, comment FROM duckdb_columns()").fetchall()
        }
    finally:
        con.close()
    # every table and documented column carries its rule file's words, the tables a build keeps in memory included
    from jfi import rulebook

    meanings, column_meanings = rulebook.meanings()
    assert all(comments[t] == meanings[t] for t in comments if t in meanings) and comments["audit_link_keys"]
    assert all(column_comments[(t, c)] == m for t in comments for c, m in column_meanings.get(t, {}).items())
    assert [(r[0], r[1], r[2]) for r in rows] == [(m["id"], m["status"], m["name"]) for m in merged]
    assert "audit_units" in names and "raw_lines" not in names and "corpus_items" not in names and comment
    units = pq.read_table(tmp_path / "out" / "audit-units.parquet")
    assert units.num_rows == len(json.loads((folder / "judgment-units.json").read_text())["units"])
    flags = pq.read_table(tmp_path / "out" / "audit-flags.parquet").to_pylist()
    assert {"link_generic_text", "alt_is_filename"} <= {f["flag"] for f in flags}
    for stem in ("audit-nav", "audit-judgments", "audit-ratifications", "audit-draft-rows", "audit-receipts"):
        assert (tmp_path / "out" / f"{stem}.parquet").is_file()
