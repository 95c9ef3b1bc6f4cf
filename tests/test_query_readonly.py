"""`jfi query` is read-only in fact: every write, file read, attach and extension statement is refused."""

import json

import pytest
from conftest import Jfi, dump, snapshot

REFUSED = [
    "COPY (SELECT 'x') TO 'corpus/functional-images.jsonl' (FORMAT csv)",
    "COPY corpus_items TO 'out.csv'",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT content FROM read_blob('/etc/passwd')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_json_auto('corpus/functional-images.jsonl')",
    "SELECT * FROM '/etc/passwd'",
    "ATTACH 'other.duckdb' AS o",
    "DETACH memory",
    "EXPORT DATABASE 'dump'",
    "IMPORT DATABASE 'dump'",
    "CREATE TABLE t AS SELECT 1",
    "CREATE VIEW v AS SELECT 1",
    "DROP TABLE corpus_items",
    "DELETE FROM corpus_items",
    "UPDATE corpus_items SET status = 'accepted'",
    "INSERT INTO raw_lines VALUES ('item', 'x', NULL, 1, '{}')",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "PRAGMA enable_profiling",
    "CALL pragma_version()",
    "CHECKPOINT",
    "SELECT 1; COPY corpus_items TO 'x.csv'",
    "SELECT 1; SELECT 2",
    "EXPLAIN DELETE FROM corpus_items",
    "WITH d AS (DELETE FROM corpus_items RETURNING *) SELECT * FROM d",
    "SELECT getenv('HOME')",
]


@pytest.mark.parametrize("sql", REFUSED)
def test_query_refuses_writes_reads_attaches_and_extensions(example, sql):
    before = snapshot(example.project)
    r = example("query", sql)
    assert r.exit_code == 2, (sql, r.stdout, r.stderr)
    assert "query: read_only:" in r.stderr or "read_only:" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert snapshot(example.project) == before
    assert not (example.project / "out.csv").exists() and not (example.project / "dump").exists()


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT status, count(*) FROM corpus_items GROUP BY status",
        "WITH a AS (SELECT 1 AS x) SELECT * FROM a",
        "DESCRIBE corpus_items",
        "SHOW TABLES",
        "SUMMARIZE corpus_items",
        "EXPLAIN SELECT * FROM corpus_items",
        "PIVOT corpus_items ON status USING count(*) GROUP BY domain",
        "FROM corpus_items LIMIT 1",
    ],
)
def test_query_accepts_read_statements(example, sql):
    r = example("query", sql)
    assert r.exit_code == 0, (sql, r.stderr)


def test_lockdown_holds_even_past_the_parser(example):
    """A statement the parser lets through still cannot touch a file: the connection itself refuses."""
    import duckdb

    from jfi import readonly
    from jfi.corpus.project import CorpusProject

    store = CorpusProject.at(example.project).store()
    try:
        readonly.lock_down(store.con)
        for statement in (
            "COPY corpus_items TO 'x.csv'",
            "SELECT * FROM read_text('/etc/passwd')",
            "ATTACH 'x.duckdb'",
            "SET enable_external_access = true",
            "LOAD httpfs",
        ):
            with pytest.raises(duckdb.Error):
                store.con.execute(statement)
        assert store.scalar("SELECT count(*) FROM corpus_items") > 0
    finally:
        store.close()


def test_a_query_has_a_time_and_a_memory_limit(example):
    before = snapshot(example.project)
    r = example("query", "SELECT count(*) FROM range(1000000000000)", "--timeout", "1")
    assert r.exit_code == 2 and "query_timeout" in r.stderr and "--timeout" in r.stderr
    r = example("query", "SELECT list(range) FROM range(100000000)", "--memory-limit", "50MB")
    assert r.exit_code == 2 and "query_memory" in r.stderr
    assert example("query", "SELECT 1", "--memory-limit", "lots").exit_code == 3
    assert example("query", "SELECT 1", "--timeout", "0").exit_code == 3
    assert snapshot(example.project) == before
    assert example("query", "SELECT count(*) AS n FROM range(1000)", "--timeout", "30").exit_code == 0


def test_a_command_out_of_memory_names_the_limit_and_writes_nothing(example, monkeypatch):
    monkeypatch.setenv("JFI_MEMORY_LIMIT", "4MB")
    before = snapshot(example.project)
    r = example("corpus", "export", "--format", "csv")
    assert r.exit_code == 2 and r.stderr.startswith("out_of_memory: ") and "JFI_MEMORY_LIMIT=4MB" in r.stderr
    monkeypatch.setenv("JFI_MEMORY_LIMIT", "64MB")
    r = example("query", "SELECT list(range) FROM range(100000000)")
    assert r.exit_code == 2 and "query_memory" in r.stderr and "than JFI_MEMORY_LIMIT=64MB" in r.stderr
    assert snapshot(example.project) == before


AUDIT_QUERIES = [
    "SELECT 1 AS one",
    "SELECT id, type FROM audit_units ORDER BY id",
    'SELECT b.batch, count(*) FROM "audit_batch_lines" AS b JOIN audit_built_units AS u USING (id) GROUP BY ALL ORDER BY 1',
    "WITH t AS (SELECT * FROM audit_units WHERE type = 'link') SELECT count(*) FROM t",
    "SELECT (SELECT count(*) FROM audit_hidden_units) AS hidden, is_decisive('link_no_accessible_name') AS decisive",
    "SELECT type, count(*) FROM audit_draft_rows GROUP BY ALL ORDER BY ALL",
    "SELECT * FROM audit_worklist_rows ORDER BY ALL",
    "SELECT kind, count(*) FROM raw_lines GROUP BY ALL ORDER BY ALL",
    "SELECT count(*) FROM raw_merge_runs",
    "EXPLAIN SELECT * FROM audit_units",
]


@pytest.fixture(scope="module")
def audit_folder(tmp_path_factory):
    """A built and merged audit folder, and how many views and tables a store of the whole rulebook holds."""
    from inventories import image, link, made, nav, view

    from jfi import querying

    folder = made(
        tmp_path_factory.mktemp("query"),
        [
            view(
                "home",
                links=[link("Fares", "/f"), link("Learn more", "/a")],
                images=[image()],
                navs=[nav("Home", "Fares")],
            ),
            view("fares", navs=[nav("Fares", "Home")]),
        ],
        ("build",),
    )
    for batch in sorted((folder / "batches").glob("*.jsonl")):  # every batch judged, then merged here: the kept store
        ids = [json.loads(x)["id"] for x in batch.read_text().splitlines()]  # is this folder's own
        batch.with_name(batch.name.replace(".jsonl", ".judged.jsonl")).write_text(
            dump(
                [
                    {
                        "id": i,
                        "judgment": "no",
                        "confidence": "high",
                        "rationale": "Vague.",
                        "fix": "Name it.",
                        "needs_human": False,
                        "drafted_by": "judge-a",
                    }
                    for i in ids
                ]
            )
        )
    for command in ("merge", "report"):  # the stores kept without and with the inventory are this folder's own
        assert Jfi(folder.parent)("audit", command, "--inventory", str(folder)).exit_code == 0
    return folder, querying.rows(None, OBJECTS, folder)[1][0][0]


OBJECTS = "SELECT (SELECT count(*) FROM duckdb_views() WHERE NOT internal) + (SELECT count(*) FROM duckdb_tables())"


@pytest.fixture(scope="module")
def whole_answers(audit_folder):
    """Every query of AUDIT_QUERIES answered by one store of every rule (a query whose names are not known gets one)."""
    from jfi import querying

    folder, _ = audit_folder
    store = querying.open_project_store(None, folder, sql="SELECT 1", names=None)
    try:
        answers = {}
        for sql in AUDIT_QUERIES:
            cur = store.con.execute(sql)
            answers[sql] = ([d[0] for d in cur.description], cur.fetchall())
        return answers
    finally:
        store.close(keep=False)


@pytest.mark.parametrize("sql", AUDIT_QUERIES)
def test_a_query_runs_only_the_rules_it_names_and_answers_as_the_whole_rulebook_does(audit_folder, whole_answers, sql):
    """A query's store runs the rule files making what it names (and what they read); the same query over a store of
    every rule answers the same."""
    from jfi import querying

    folder, _ = audit_folder
    columns, rows = querying.rows(None, sql, folder)
    whole = whole_answers[sql]
    if sql.startswith("EXPLAIN"):
        assert columns == whole[0] and rows
    else:
        assert (columns, rows) == whole


def test_a_query_naming_one_view_gets_a_store_without_the_others(audit_folder):
    from jfi import querying, readonly

    folder, every = audit_folder
    sql = "SELECT count(*) FROM audit_batch_lines"
    store = querying.open_project_store(None, folder, sql=sql, names=readonly.check(sql))
    try:
        assert store.scalar(OBJECTS) < every * 0.6
        made = {
            r[0]
            for r in store.con.execute(
                "SELECT view_name FROM duckdb_views() UNION SELECT table_name FROM duckdb_tables()"
            ).fetchall()
        }
        assert not made & {
            "audit_views",
            "audit_units",
            "audit_link_facts",
            "audit_axe_nodes",
        }  # the capture's rules never ran
        assert store.scalar(sql) == querying.rows(None, sql + " -- information_schema", folder)[1][0][0] > 0
    finally:
        store.close()


def test_a_query_reads_the_inventory_only_when_what_it_names_derives_from_it(audit_folder, monkeypatch):
    """The captured views are the largest file of a folder: a query of the judged, merged or built rows does not
    read them; one of the units derived from the capture does."""
    from jfi import querying
    from jfi.audit.folder import AuditFolder

    folder, _ = audit_folder
    import jfi.audit.kept

    monkeypatch.setattr(jfi.audit.kept, "for_query", lambda root, needs: None)  # a load of the folder, every time
    read = []
    real = AuditFolder.load_inventory
    monkeypatch.setattr(AuditFolder, "load_inventory", lambda self, *a, **k: (read.append(1), real(self, *a, **k))[1])
    assert querying.rows(None, "SELECT count(*) FROM audit_batch_lines", folder)[1][0][0] > 0 and not read
    assert querying.rows(None, "SELECT count(*) FROM audit_draft_rows", folder)[1][0][0] > 0 and not read
    assert querying.rows(None, "SELECT count(*) FROM audit_units", folder)[1][0][0] > 0 and read


def test_a_query_of_what_the_kept_store_holds_reads_it_as_it_is_and_writes_nothing(audit_folder, monkeypatch):
    """The judged, merged and built rows of a folder whose files are as the kept store was made from: the query reads
    that store (no load of the folder), answers as a load of the folder does, and leaves every file, the store's
    included, byte-identical. A changed file: the folder is loaded, and the answer is the new one."""
    import jfi.audit.folder
    from jfi import querying

    folder, _ = audit_folder
    sql = "SELECT id, draft_judgment, status FROM audit_draft_rows ORDER BY id"
    whole = querying.rows(None, sql + " -- information_schema", folder)
    loads = []
    real = jfi.audit.folder.load_folder
    monkeypatch.setattr(jfi.audit.folder, "load_folder", lambda *a, **k: (loads.append(1), real(*a, **k))[1])
    before = snapshot(folder)
    assert (folder / ".jfi" / "audit.duckdb").is_file()
    assert querying.rows(None, sql, folder) == whole and not loads
    units = "SELECT id, type, flags FROM audit_units ORDER BY id"  # from the store the report kept with the inventory
    assert (folder / ".jfi" / "audit-inventory.duckdb").is_file()
    assert querying.rows(None, units, folder) == querying.rows(None, units + " -- information_schema", folder)
    assert len(loads) == 1 and snapshot(folder) == before
    judged = next((folder / "batches").glob("*.judged.jsonl"))
    text = judged.read_text()
    try:
        judged.write_text(text.replace('"judgment":"no"', '"judgment":"yes"', 1))
        changed = querying.rows(None, sql, folder)
        assert loads and changed != whole and changed == querying.rows(None, sql + " -- information_schema", folder)
    finally:
        judged.write_text(text)
