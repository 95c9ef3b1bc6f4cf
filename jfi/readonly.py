"""`jfi query` is read-only in fact: sqlglot accepts one read statement, and the DuckDB connection is locked
down (no file access, no extensions, configuration frozen) before the statement runs."""

from __future__ import annotations

import logging
import re

import sqlglot
from sqlglot import exp

from .errors import JfiError

# Statement kinds that only read. EXPLAIN and SHOW reach sqlglot as commands and are checked by their text.
READ_STATEMENTS = (
    exp.Select,
    exp.SetOperation,
    exp.Subquery,
    exp.Values,
    exp.Describe,
    exp.Show,
    exp.Summarize,
    exp.Pivot,
)
# Nodes that write, reach outside the store or change the connection, wherever they appear in a statement.
FORBIDDEN_NODES = (
    exp.DML,
    exp.Create,
    exp.Drop,
    exp.Alter,
    exp.Copy,
    exp.Attach,
    exp.Detach,
    exp.Command,
    exp.Set,
    exp.Pragma,
    exp.Use,
    exp.Install,
    exp.Transaction,
    exp.Commit,
    exp.Rollback,
    exp.Merge,
)
# Table functions that read files (DuckDB refuses them on the locked connection too; this names the refusal early).
FILE_FUNCTION = re.compile(
    r"(?i)^(read_\w+|\w+_scan|glob|sniff_csv|parquet_\w+|load_\w+|iceberg_\w+|delta_\w+"
    r"|sqlite_\w+|postgres_\w+|mysql_\w+|duckdb_extensions|install_\w+|getenv)$"
)
FILE_NAME = re.compile(r"[/\\:]|\.\w{1,10}$|^~")
COMMAND_PREFIX = re.compile(r"(?is)^\s*(EXPLAIN(\s+ANALYZE)?|SHOW)\b\s*(.*)$")

logging.getLogger("sqlglot").setLevel(logging.ERROR)


def refuse(why: str) -> JfiError:
    return JfiError("read_only", why, source="query", exit_code=2)


def check(sql: str) -> frozenset[str] | None:
    """Raise read_only unless `sql` is exactly one statement that only reads. Returns the names it reads (tables,
    views and functions the parser does not know, such as the rulebook's macros, lower-cased), or None when that is
    not known (SHOW)."""
    try:
        statements = [s for s in sqlglot.parse(sql, read="duckdb") if s is not None]
    except sqlglot.errors.SqlglotError as e:
        raise refuse(f"not a statement jfi can read as a query ({str(e).splitlines()[0][:120]})") from None
    if len(statements) != 1:
        raise refuse(f"one statement at a time, got {len(statements)}")
    return _check_statement(statements[0])


def _check_statement(stmt: exp.Expression) -> frozenset[str] | None:
    if isinstance(stmt, exp.Command):
        rest = stmt.expression.this if isinstance(stmt.expression, exp.Expression) else (stmt.expression or "")
        m = COMMAND_PREFIX.match(f"{stmt.this} {rest}")
        if not m:
            raise refuse(f"{str(stmt.this).upper()} is not a read statement")
        rest = m.group(3).strip()
        if m.group(1).upper().startswith("SHOW"):
            if re.fullmatch(r"[\w\".]*", rest):  # SHOW <table> / SHOW ALL TABLES style
                return None
            raise refuse("SHOW takes a table name only")
        return check(rest)  # EXPLAIN [ANALYZE] <read statement>
    if not isinstance(stmt, READ_STATEMENTS):
        what = stmt.sql() if isinstance(stmt, exp.Column) else stmt.key.upper()
        raise refuse(
            f"{what} is not a read statement; query accepts SELECT, WITH, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN or PIVOT"
        )
    names = set()
    for node in stmt.walk():
        if isinstance(node, FORBIDDEN_NODES):
            raise refuse(f"{node.key.upper()} inside a query is not allowed")
        if isinstance(node, exp.Func):
            name = node.name if isinstance(node, exp.Anonymous) else node.sql_name()
            if FILE_FUNCTION.match(name or ""):
                raise refuse(f"{name}() reads outside the store")
            if isinstance(node, exp.Anonymous):
                names.add(name.lower())
        if isinstance(node, exp.Table):
            if FILE_NAME.search(node.name or ""):  # FROM 'file.csv' reads a file
                raise refuse(f"reading the file {node.name!r} is not allowed")
            names.add(node.name.lower())
    return frozenset(names)


LOCKDOWN = [
    "SET enable_external_access = false",
    "SET autoinstall_known_extensions = false",
    "SET autoload_known_extensions = false",
    "SET allow_community_extensions = false",
    "SET allow_unsigned_extensions = false",
    "SET lock_configuration = true",
]


def lock_down(con) -> None:
    """After the inputs are loaded: no file access, no extension installing or loading, configuration locked."""
    for statement in LOCKDOWN:
        con.execute(statement)
