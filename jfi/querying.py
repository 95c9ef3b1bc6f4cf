"""`jfi query` and `jfi schema`: SQL over the project's views, and what each view means."""

from __future__ import annotations

import os
import re
import threading

import duckdb

from . import readonly
from .errors import JfiError
from .output import Outcome, csv_text, dumps, table
from .rulebook import internal, made_of, sections_of
from .store import Store

# A query that can show the meanings of columns (it names DuckDB's catalog: duckdb_columns(), information_schema,
# pg_catalog; or DESCRIBE, SHOW, SUMMARIZE): its store gets them as comments. Any other goes without (they cost most of
# a second per query); the meanings of views and tables are always there.
SEES_COMMENTS = re.compile(r"(?i)duckdb_|information_schema|pg_|\b(describe|show|summarize)\b")


def open_project_store(
    project, inventory=None, verify=None, sql: str | None = None, names: frozenset[str] | None = None
) -> Store:
    """The store a query reads, with the meanings of its views (and, for a query `sql` that can see them, of their
    columns) as DuckDB comments. `names`: what the query reads (readonly.check); only the rule files making those
    (and what they read) run, unless the query reads the catalog, which shows every object."""
    columns = sql is None or bool(SEES_COMMENTS.search(sql))
    whole = columns or names is None

    def needs(sections: tuple[str, ...], profile: str | None = None) -> tuple[str, ...] | None:
        return None if whole else made_of(names, sections, profile)

    if verify is not None:
        from .verify.claims import VerifyFolder

        if not verify.is_dir():
            raise JfiError("no_verification", f"{verify} is not a folder", source=str(verify))
        return VerifyFolder(verify).store(needs=needs(("verify",))).describe(columns)
    if inventory is not None:
        from .audit.evaluation import load_saved
        from .audit.folder import AuditFolder
        from .audit.kept import for_query

        folder = AuditFolder(inventory)  # the folder's last eval is queryable too
        if not whole and (kept := for_query(folder.root, needs(("audit",)))) is not None:
            return kept  # the folder's files as the kept store holds them (no comment: the statement reads no catalog)
        return folder.load_for_reading(before_build=lambda s: load_saved(s, folder.root), needs=needs(("audit",)))[
            0
        ].describe(columns)
    return project.store(goal=project.resolve_goal(None), needs=needs(("corpus",), project.profile)).describe(columns)


TIMEOUT_S = 60.0  # a query's time limit unless raised (--timeout)
MEMORY_LIMIT = "2GB"  # its memory limit unless raised (--memory-limit) or JFI_MEMORY_LIMIT sets every store's
MEMORY = re.compile(r"^[0-9]{1,6}(\.[0-9]+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$", re.IGNORECASE)


def rows(
    project, sql: str, inventory=None, verify=None, *, timeout_s: float = TIMEOUT_S, memory_limit: str | None = None
) -> tuple[list[str], list[tuple]]:
    """(columns, rows) of one read statement over the project's store (or an audit or verification folder's), within
    a time limit (the query is interrupted, `query_timeout`) and a memory limit (`query_memory`)."""
    names = readonly.check(sql)
    if not 0 < timeout_s <= 86_400:
        raise JfiError(
            "invalid_option", f"--timeout takes 0 to 86400 seconds, got {timeout_s}", field="--timeout", exit_code=3
        )
    if memory_limit is None and not os.environ.get("JFI_MEMORY_LIMIT"):
        memory_limit = MEMORY_LIMIT
    if memory_limit is not None and not MEMORY.match(memory_limit.strip()):
        raise JfiError(
            "invalid_option",
            f"--memory-limit takes a size such as 2GB or 512MB, got {memory_limit[:40]!r}",
            field="--memory-limit",
            exit_code=3,
        )
    store = open_project_store(project, inventory, verify, sql, names)
    timer = threading.Timer(timeout_s, store.con.interrupt)
    try:
        if memory_limit is not None:  # else JFI_MEMORY_LIMIT, as the store set it
            store.con.execute(f"SET memory_limit = '{memory_limit.strip()}'")
        readonly.lock_down(store.con)
        # in a transaction rolled back whatever happens: nothing the statement did could stay in the store
        store.con.execute("BEGIN TRANSACTION")
        timer.start()
        try:
            cur = store.con.execute(sql)
            result = ([d[0] for d in cur.description], cur.fetchall()) if cur.description is not None else ([], [])
        except duckdb.PermissionException as e:
            raise readonly.refuse(str(e).splitlines()[0]) from None
        except duckdb.InterruptException:
            raise JfiError(
                "query_timeout",
                f"the query ran longer than {timeout_s:g} s and was stopped; raise the limit with --timeout SECONDS",
                field="--timeout",
            ) from None
        except duckdb.OutOfMemoryException as e:
            limit = memory_limit or f"JFI_MEMORY_LIMIT={os.environ.get('JFI_MEMORY_LIMIT')}"
            raise JfiError(
                "query_memory",
                f"the query needs more memory than {limit} ({str(e).splitlines()[0][:120]});"
                " raise the limit with --memory-limit",
                field="--memory-limit",
            ) from None
        except duckdb.Error as e:
            raise JfiError("invalid_query", str(e).splitlines()[0]) from None
        return result
    finally:
        timer.cancel()
        try:
            store.con.execute("ROLLBACK")
        except duckdb.Error:
            pass  # none begun (a refused setting), or one the interrupt ended
        store.close(keep=False)  # a query writes nothing back (the kept store it may have read stays as it was)


def run(project, sql: str, fmt: str, inventory=None, verify=None, **limits) -> Outcome:
    """The query's rows (the report: a dict per row) and their text: a table for people, CSV or JSON for programs."""
    columns, rows_ = rows(project, sql, inventory, verify, **limits)
    if not columns:
        return Outcome(0)
    return Outcome(0, [dict(zip(columns, r)) for r in rows_], text=render(columns, rows_, fmt))


def render(columns: list[str], rows: list[tuple], fmt: str) -> str:
    if fmt == "csv":
        return csv_text(columns, rows)
    if fmt == "json":
        return dumps([dict(zip(columns, r)) for r in rows]) + "\n"
    shown = [tuple(readable(c, v) for c, v in zip(columns, r)) for r in rows]
    return table(columns, shown) + f"\n({len(rows)} row{'s' if len(rows) != 1 else ''})\n"


SHARE_COLUMN = ("share", "rate", "recall", "agreement")


def readable(column: str, value):
    """A value as a person reads it in a table: a share as a percentage (22.2%), other fractions to four significant
    digits; CSV and JSON keep full precision."""
    if isinstance(value, float):
        if any(word in column.lower() for word in SHARE_COLUMN) and 0 <= value <= 1:
            return f"{value:.1%}"
        return f"{value:.4g}"
    return value


SCHEMA_SQL = """
SELECT o.name, o.type, c.column_name, c.data_type
FROM (SELECT view_name AS name, 'view' AS type FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'
      UNION ALL
      SELECT table_name, 'table' FROM duckdb_tables() WHERE schema_name = 'main') AS o
JOIN duckdb_columns() AS c ON c.table_name = o.name AND c.schema_name = 'main'
ORDER BY o.type DESC, o.name, c.column_index
"""


def schema_rows(store: Store) -> list[dict]:
    """Each object of the store with its columns and their types, and the meanings its rule files' headers give (what
    Store.describe writes as comments: read from the files, not written into the store and read back)."""
    meanings, column_meanings = store.meanings()
    objects: dict[str, dict] = {}
    for name, kind, col, dtype in store.con.execute(SCHEMA_SQL).fetchall():
        obj = objects.setdefault(name, {"name": name, "type": kind, "meaning": meanings.get(name, ""), "columns": []})
        obj["columns"].append({"name": col, "type": dtype, "meaning": column_meanings.get(name, {}).get(col, "")})
    return list(objects.values())


# The store's plumbing: input tables and the long forms rules are made from. `jfi schema` lists them under --all only,
# and `audit export` leaves them out.
SECTIONS = ("corpus", "audit", "verify")


def schema(as_json: bool, section: str | None = None, include_all: bool = False) -> Outcome:
    """The views people query, grouped by section (corpus, audit, verify); the internal tables too with --all."""
    if section is not None and section not in SECTIONS:
        raise JfiError("unknown_section", f"{section!r} is not a section; sections: {', '.join(SECTIONS)}", exit_code=3)
    store = Store(sections=(section,) if section else None).build()
    try:
        objects = schema_rows(store)
    finally:
        store.close()
    where = sections_of()
    groups: dict[str, list[dict]] = {}
    for o in objects:
        o["section"] = where.get(o["name"], "core")
        if (include_all or not internal(o["name"])) and (section is None or o["section"] in (section, "core")):
            groups.setdefault(o["section"], []).append(o)
    order = [s for s in (*SECTIONS, "core") if s in groups]
    listed = [o for s in order for o in groups[s]]
    if as_json:
        return Outcome(0, listed, text=dumps(listed))
    out = []
    for s in order:
        out += [f"## {s}", ""]
        for o in groups[s]:
            out.append(f"{o['name']} ({o['type']}): {o['meaning']}")
            out += [f"    {c['name']} {c['type']}: {c['meaning']}" for c in o["columns"]]
            out.append("")
    if not include_all:
        out.append("(internal tables and views, such as raw_lines and jsonl_values, are listed with --all)")
    return Outcome(0, listed, text="\n".join(out) + "\n")
