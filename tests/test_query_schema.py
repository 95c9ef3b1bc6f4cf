"""`jfi query` over every view and `jfi schema` listing views, columns and meanings."""

import csv
import io

from conftest import item


def test_query_formats(example):
    sql = "SELECT status, count(*) AS n FROM corpus_items GROUP BY status ORDER BY status"
    table = example("query", sql)
    assert table.exit_code == 0 and "accepted" in table.stdout and "rows)" in table.stdout
    rows = list(csv.DictReader(io.StringIO(example("query", sql, "--format", "csv").stdout)))
    as_json = example("query", sql, "--format", "json").json
    assert [(r["status"], int(r["n"])) for r in rows] == [(r["status"], r["n"]) for r in as_json]
    assert sum(r["n"] for r in as_json) == len(example.corpus.read_text().splitlines())


def test_query_error_is_exit_2_without_traceback(example):
    r = example("query", "SELECT nope FROM corpus_items")
    assert r.exit_code == 2 and "invalid_query" in r.stderr and "Traceback" not in r.stderr


def test_query_sees_violation_views(jfi):
    jfi.write_corpus([item(status="bogus")])
    r = jfi("query", "SELECT line, field, code FROM corpus_violations", "--format", "json")
    assert r.json == [{"line": 1, "field": "status", "code": "invalid_value"}]


def test_schema_lists_views_columns_and_meanings(jfi):
    r = jfi("schema", "--json")
    assert r.exit_code == 0
    objects = {o["name"]: o for o in r.json}
    assert objects["corpus_items"]["type"] == "table" and objects["corpus_items"]["meaning"]
    for view in (
        "corpus_violations",
        "corpus_criteria",
        "corpus_concentration",
        "corpus_pending",
        "corpus_warnings",
        "corpus_rounds",
    ):
        assert objects[view]["type"] == "view" and objects[view]["meaning"]
    cols = {c["name"]: c for c in objects["corpus_violations"]["columns"]}
    assert list(cols) == ["source", "line", "record_id", "field", "code", "message"]
    assert all(c["meaning"] for c in cols.values())
    text = jfi("schema").stdout
    assert "corpus_criteria (view):" in text


def test_schema_groups_the_views_people_query_and_hides_the_plumbing(jfi):
    audit = {o["name"]: o for o in jfi("schema", "audit", "--json").json}
    assert "audit_draft_rows" in audit and "ratification_effective" in audit and "eval_scores" in audit
    assert not any(name.startswith(("raw_", "jsonl_", "field_")) for name in audit)
    assert not any(o["section"] in ("corpus", "verify") for o in audit.values())
    everything = {o["name"] for o in jfi("schema", "audit", "--all", "--json").json}
    assert {"raw_lines", "jsonl_values", "ledger_digests"} <= everything
    text = jfi("schema").stdout
    assert text.index("## corpus") < text.index("## audit") < text.index("## verify") and "raw_lines (" not in text
    assert jfi("schema", "nonsense").exit_code == 3


def test_query_shows_shares_as_people_read_them_and_keeps_precision_in_csv(example):
    table = example("query", "SELECT share FROM corpus_concentration ORDER BY share DESC LIMIT 1").stdout
    csv_out = example(
        "query", "SELECT share FROM corpus_concentration ORDER BY share DESC LIMIT 1", "--format", "csv"
    ).stdout
    value = float(csv_out.splitlines()[1])
    assert f"{value:.1%}" in table and str(value) not in table and len(csv_out.splitlines()[1]) > 6


def test_a_query_of_the_catalog_sees_the_meanings_of_views_and_columns(example):
    sql = (
        "SELECT comment FROM duckdb_columns() WHERE table_name = 'corpus_violations' AND column_name = 'code' "
        "UNION ALL SELECT comment FROM duckdb_views() WHERE view_name = 'corpus_violations'"
    )
    column, view = [r["comment"] for r in example("query", sql, "--format", "json").json]
    assert column and view and column != view
    r = example(
        "query",
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'corpus_items' "
        "AND column_comment IS NOT NULL",
        "--format",
        "json",
    )
    assert r.exit_code == 0 and len(r.json) > 5
