"""`jfi query` and `jfi schema`: SQL over the project's views, and what each view means."""
from __future__ import annotations

import duckdb

from . import readonly
from .errors import JfiError
from .output import csv_text, dumps, table
from .store import Store


def open_project_store(project, inventory=None, verify=None) -> Store:
    """The store a query reads, with the meanings of its views as DuckDB comments."""
    if verify is not None:
        from .verify.claims import VerifyFolder
        if not verify.is_dir():
            raise JfiError("no_verification", f"{verify} is not a folder", source=str(verify))
        return VerifyFolder(verify).store().describe()
    if inventory is not None:
        from .audit.folder import AuditFolder
        from .audit.judging import load_folder
        return load_folder(AuditFolder(inventory), strict=False)[0].describe()
    return project.store(goal=project.resolve_goal(None)).describe()


def run(project, sql: str, fmt: str, inventory=None, verify=None) -> str:
    readonly.check(sql)
    store = open_project_store(project, inventory, verify)
    try:
        readonly.lock_down(store.con)
        try:
            cur = store.con.execute(sql)
        except duckdb.PermissionException as e:
            raise readonly.refuse(str(e).splitlines()[0]) from None
        except duckdb.Error as e:
            raise JfiError("invalid_query", str(e).splitlines()[0]) from None
        if cur.description is None:
            return ""
        columns = [d[0] for d in cur.description]
        rows = cur.fetchall()
    finally:
        store.close()
    if fmt == "csv":
        return csv_text(columns, rows)
    if fmt == "json":
        return dumps([dict(zip(columns, r)) for r in rows]) + "\n"
    return table(columns, rows) + f"\n({len(rows)} row{'s' if len(rows) != 1 else ''})\n"


SCHEMA_SQL = """
SELECT o.name, o.type, o.comment, c.column_name, c.data_type, c.comment AS column_comment
FROM (SELECT view_name AS name, 'view' AS type, comment FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'
      UNION ALL
      SELECT table_name, 'table', comment FROM duckdb_tables() WHERE schema_name = 'main') AS o
JOIN duckdb_columns() AS c ON c.table_name = o.name AND c.schema_name = 'main'
ORDER BY o.type DESC, o.name, c.column_index
"""


def schema_rows(store: Store) -> list[dict]:
    objects: dict[str, dict] = {}
    for name, kind, comment, col, dtype, col_comment in store.con.execute(SCHEMA_SQL).fetchall():
        obj = objects.setdefault(name, {"name": name, "type": kind, "meaning": comment or "", "columns": []})
        obj["columns"].append({"name": col, "type": dtype, "meaning": col_comment or ""})
    return list(objects.values())


def schema(as_json: bool) -> str:
    store = Store().build().describe()
    try:
        objects = schema_rows(store)
    finally:
        store.close()
    if as_json:
        return dumps(objects) + "\n"
    out = []
    for o in objects:
        out.append(f"{o['name']} ({o['type']}): {o['meaning']}")
        for c in o["columns"]:
            out.append(f"    {c['name']} {c['type']}: {c['meaning']}")
        out.append("")
    return "\n".join(out)
