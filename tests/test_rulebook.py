"""The rulebook: parsed by sqlglot, loaded in a defined order, hashed, documented."""

import pytest
import sqlglot
from sqlglot import exp

from jfi import rulebook
from jfi.querying import schema_rows
from jfi.store import Store

RAW = {"raw_lines", "raw_files", "jfi_run", "field_specs", "image_copies"}
TABLE_FUNCTIONS = {"json_each"}


@pytest.mark.parametrize("profile", sorted(rulebook.PROFILES))
def test_every_file_parses_with_sqlglot_and_uses_only_earlier_objects(profile):
    files = rulebook.in_use(rulebook.load()[0], None, profile)
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


def test_files_run_after_everything_they_read_and_numbers_only_break_ties():
    files = rulebook.in_use(rulebook.load()[0], None, None)
    made = {}
    for k, f in enumerate(files):
        for name in f.creates | f.adds:
            made.setdefault(name, []).append(k)
    for k, f in enumerate(files):
        for name in f.reads:
            assert all(m < k for m in made.get(name, []) if m != k), f"{f.rel} runs before a maker of {name}"


def _rulebook(tmp_path, files: dict[str, str]):
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    rulebook.load.cache_clear()
    try:
        return rulebook.load(str(tmp_path))[0]
    finally:
        rulebook.load.cache_clear()


def test_the_order_follows_dependencies_not_numbers(tmp_path):
    files = _rulebook(
        tmp_path,
        {
            "core/00_in.sql": "-- t: input\nCREATE TABLE IF NOT EXISTS t (a INT);\n",
            "core/10_late.sql": "-- b: reads a\nCREATE VIEW b AS SELECT * FROM a;\n",
            "core/90_early.sql": "-- a: reads t\nCREATE VIEW a AS SELECT * FROM t;\n",
        },
    )
    assert [f.rel for f in rulebook.in_use(files, None, None)] == [
        "core/00_in.sql",
        "core/90_early.sql",
        "core/10_late.sql",
    ]
    assert [f.rel for f in rulebook.in_use(files, None, None, needs=("a",))] == ["core/00_in.sql", "core/90_early.sql"]
    assert [f.input_layer for f in files] == [True, False, False]


@pytest.mark.parametrize(
    "files,words",
    [
        (
            {
                "core/10_a.sql": "-- a: x\nCREATE VIEW a AS SELECT * FROM b;\n",
                "core/20_b.sql": "-- b: x\nCREATE VIEW b AS SELECT * FROM a;\n",
            },
            r"a cycle: core/10_a.sql reads b \(core/20_b.sql\) → core/20_b.sql reads a \(core/10_a.sql\)$",
        ),
        ({"core/10_a.sql": "-- a: x\nCREATE VIEW a AS SELECT * FROM nowhere;\n"}, "nowhere"),
    ],
)
def test_a_cycle_or_a_missing_object_is_refused(tmp_path, files, words):
    loaded = _rulebook(tmp_path, files)
    with pytest.raises(rulebook.RulebookError, match=words):
        rulebook.in_use(loaded, None, None)


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


@pytest.mark.parametrize("profile", sorted(rulebook.PROFILES))
def test_every_file_has_a_header_and_every_view_and_column_a_meaning(profile):
    files, _ = rulebook.load()
    for f in files:
        assert f.text.startswith("-- "), f"{f.rel} has no header comment"
    store = Store(profile=profile).build().describe()
    try:
        for obj in schema_rows(store):
            assert obj["meaning"], f"{obj['name']} has no meaning"
            for col in obj["columns"]:
                assert col["meaning"], f"{obj['name']}.{col['name']} has no meaning"
    finally:
        store.close()


def test_each_profile_runs_the_corpus_core_and_its_own_folders_and_hashes_only_those():
    files = rulebook.load()[0]
    used = {p: {f.rel for f in rulebook.in_use(files, ("corpus",), p)} for p in rulebook.PROFILES}
    for profile, rels in used.items():
        assert "corpus/30_corpus_items.sql" in rels and not any(r.startswith("audit/") for r in rels)
        folders = {r.split("/")[1] for r in rels if r.startswith("corpus/") and r.count("/") == 2}
        assert folders == set(rulebook.PROFILES[profile])
    assert used["round-v1"] < used["round-v2"]  # round-v2 is round-v1 and its additions
    assert not any("/round/" in r for r in used["harvest"])
    hashes = {rulebook.rulebook_sha256(("corpus",), p) for p in rulebook.PROFILES}
    assert len(hashes) == 3
    store = Store(sections=("corpus",), profile="harvest")
    try:
        assert store.rulebook_sha256 == rulebook.rulebook_sha256(("corpus",), "harvest")
    finally:
        store.close()


@pytest.mark.parametrize(
    "sql,kinds",
    [
        ("CREATE OR REPLACE TABLE t AS SELECT * FROM raw_lines WHERE kind = 'judged' AND line > 1", ["judged"]),
        (
            "CREATE OR REPLACE TABLE t AS SELECT * FROM raw_lines AS r WHERE r.kind IN ('batch', 'unit')",
            ["batch", "unit"],
        ),
        ("CREATE OR REPLACE TABLE t AS SELECT * FROM raw_lines WHERE kind = 'judged' OR line = 1", None),
        (
            "CREATE OR REPLACE TABLE t AS SELECT * FROM raw_lines JOIN raw_files USING (source) WHERE kind = 'judged'",
            None,
        ),
        ("CREATE OR REPLACE TABLE t AS SELECT * FROM (SELECT * FROM raw_lines) WHERE kind = 'judged'", None),
        ("CREATE OR REPLACE TABLE t AS SELECT * FROM raw_lines WHERE kind = lower('JUDGED')", None),
    ],
)
def test_the_input_kinds_a_table_read_keeps_are_read_only_from_a_plain_filter(sql, kinds):
    """A table's rows come from the input kinds a plain `kind` filter beside the read keeps; anything less plain counts
    as every kind (the table is derived again whenever any input changes), never fewer."""
    creates, _, _, _, _, read, made = rulebook.analyse(sql)
    assert made == ["t"] and read["raw_lines"] == kinds


def test_a_tables_inputs_follow_its_reads_through_views_down_to_the_input_layer():
    files = rulebook.in_use(rulebook.load()[0], ("audit",), None, None)
    inputs = rulebook.inputs_read(files)
    units = inputs["audit/40_audit_units.sql"]
    assert ("raw_inventory", None) in units and ("raw_lines", "inventory") in units
    assert not {kind for table, kind in units if table == "raw_lines"} - {"inventory"}  # no judged file moves it
    assert ("raw_lines", "ratification") in inputs["audit/70_audit_worklist.sql"]
    assert inputs["audit/38_audit_flag_rules.sql"] == frozenset()  # rows the rule file writes itself


def test_a_store_that_never_holds_an_inventory_leaves_out_the_rules_of_the_inventory_alone():
    """The commands after build keep a store without the inventory: the files deriving from it alone do not run, and
    every object the store has still reads (none of them reads what was left out)."""
    from jfi.audit.kept import NEEDS

    full, bare = Store(sections=("audit",), needs=NEEDS), Store(sections=("audit",), needs=NEEDS, inventory=False)
    left = {f.rel for f in full.files} - {f.rel for f in bare.files}
    assert {"audit/21_audit_elements.sql", "audit/39_audit_flags.sql", "audit/40_audit_units.sql"} <= left
    assert not any(f.input_layer for f in full.files if f.rel in left)
    assert not left & {
        "audit/50_audit_built_units.sql",
        "audit/38_audit_flag_rules.sql",
        "audit/66_audit_draft_rows.sql",
    }
    bare.build()
    try:
        names = bare.con.execute(
            "SELECT table_name FROM duckdb_tables() UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal"
        ).fetchall()
        assert len(names) > 40 and "audit_units" not in {n for (n,) in names}
        for (name,) in names:
            bare.con.execute(f"SELECT count(*) FROM {name}").fetchall()
    finally:
        bare.close()
        full.close()


def test_the_item_specs_kept_in_the_cache_are_the_rule_files_own(tmp_path, monkeypatch):
    """What the corpus profiles' field specs say is kept beside the rulebook's parse, keyed by its digest; a cache
    that does not name every profile is computed again."""
    import json

    from jfi.corpus.project import PROFILES, _item_specs, item_specs

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    item_specs.cache_clear()
    try:
        first = item_specs()
        [kept] = (tmp_path / "jfi").glob("item-specs-*.json")
        assert json.loads(kept.read_text()) == _item_specs() == first and set(first) == set(PROFILES)
        kept.write_text('{"round-v1": {}}')
        item_specs.cache_clear()
        assert item_specs() == first and json.loads(kept.read_text()) == first
    finally:
        item_specs.cache_clear()
