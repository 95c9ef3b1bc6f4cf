"""The rulebook: parsed by sqlglot, loaded in a defined order, hashed, documented."""
import re

import sqlglot
from sqlglot import exp

from jfi import rulebook
from jfi.querying import schema_rows
from jfi.store import Store

RAW = {"raw_lines", "raw_files", "jfi_run", "field_specs", "image_copies"}
TABLE_FUNCTIONS = {"json_each"}


def test_every_file_parses_with_sqlglot_and_uses_only_earlier_objects():
    files, _ = rulebook.load()
    assert files, "rulebook is empty"
    known = set()
    for f in files:
        statements = sqlglot.parse(f.text, read="duckdb")
        assert statements, f.rel
        created = set()
        for st in statements:
            assert not isinstance(st, exp.Command), f"{f.rel}: sqlglot could not parse: {st.sql()[:80]}"
            if isinstance(st, exp.Create):
                target = st.this.this if isinstance(st.this, (exp.Schema, exp.UserDefinedFunction)) else st.this
                created.add(target.name)
        ctes = {c.alias_or_name for st in statements for c in st.find_all(exp.CTE)}
        for st in statements:
            for table in st.find_all(exp.Table):
                name = table.name
                if not name or name in ctes or name in TABLE_FUNCTIONS or isinstance(table.this, exp.Anonymous):
                    continue
                assert name in known | created | RAW, f"{f.rel} uses {name} before it is created"
        known |= created
        if "audit_flag_rules" in created:  # the flags view is assembled from that table's rows
            known.add("audit_flags")


def test_generated_flag_view_parses_and_covers_every_rule():
    from jfi.audit.flags import flag_view_sql
    store = Store().build()
    try:
        rules = store.con.execute("SELECT ord, flag, type, condition, flag_name, informational FROM audit_flag_rules "
                                  "ORDER BY ord").fetchall()
        statement = sqlglot.parse_one(flag_view_sql(rules), read="duckdb")
        assert not isinstance(statement, exp.Command)
        branches = list(statement.find_all(exp.Select))
        assert len(branches) >= len(rules)
        for _, flag, typ, condition, _, _ in rules:
            sqlglot.parse_one(f"SELECT 1 FROM audit_{typ}_facts WHERE {condition}", read="duckdb")
    finally:
        store.close()


def test_load_order_is_numeric_then_path():
    files, _ = rulebook.load()
    keys = [(int(re.match(r"\d+", f.path.name).group()), f.rel) for f in files]
    assert keys == sorted(keys)


def test_hash_covers_paths_and_bytes(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "10_x.sql").write_text("-- x: a view\nCREATE VIEW x AS SELECT 1 AS one;\n")
    _, h1 = rulebook.load(str(tmp_path))
    (tmp_path / "a" / "10_x.sql").write_text("-- x: a view\nCREATE VIEW x AS SELECT 2 AS one;\n")
    rulebook.load.cache_clear()
    _, h2 = rulebook.load(str(tmp_path))
    (tmp_path / "a" / "10_x.sql").rename(tmp_path / "a" / "11_x.sql")
    rulebook.load.cache_clear()
    _, h3 = rulebook.load(str(tmp_path))
    rulebook.load.cache_clear()
    assert len({h1, h2, h3}) == 3


def test_every_file_has_a_header_and_every_view_and_column_a_meaning():
    files, _ = rulebook.load()
    for f in files:
        assert f.text.startswith("-- "), f"{f.rel} has no header comment"
    store = Store().build().describe()
    try:
        for obj in schema_rows(store):
            assert obj["meaning"], f"{obj['name']} has no meaning"
            for col in obj["columns"]:
                assert col["meaning"], f"{obj['name']}.{col['name']} has no meaning"
    finally:
        store.close()
