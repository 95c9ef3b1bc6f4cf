"""`jfi audit export`: the audit's views for analysts: audit.duckdb (every view people query, materialised with its
meaning as a comment; any DuckDB client opens it) and Parquet files of the units, flags, nav rows, judgments,
ratifications, draft rows and receipts."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .. import audit_toml
from ..errors import JfiError
from ..jsonl import AtomicFiles, writer_lock
from ..output import Outcome
from ..rulebook import internal, meanings, sections_of
from ..store import STORAGE_VERSION, Store, sql_ident
from ..store import sql_string as _quote
from ..version import __version__
from . import formats
from .evaluation import load_saved
from .folder import AuditFolder
from .kept import commits
from .worklist import families_once

# Parquet file -> the view whose column meanings its fields carry
MEANINGS = {
    "audit-units": "audit_built_units",
    "audit-flags": "audit_built_units",
    "audit-nav": "audit_nav_consistency",
    "audit-judgments": "audit_judgments",
    "audit-ratifications": "ratification_records",
    "audit-draft-rows": "audit_draft_rows",
    "audit-receipts": "audit_receipts",
}
BOOLEAN_TEXT = ("needs_human",)  # columns the CSVs spell true/false (empty while unjudged): booleans in Parquet


def typed(con, sql: str) -> str:
    """The query with its columns typed for Parquet: a time (a *_utc column) a TIMESTAMPTZ, a true/false column a
    BOOLEAN (NULL where empty), where the CSVs they share their views with carry text."""
    cols = con.execute(f"DESCRIBE ({sql})").fetchall()
    out = []
    for name, kind, *_ in cols:
        q = sql_ident(name)
        if kind == "VARCHAR" and name.endswith("_utc"):
            out.append(f"TRY_CAST(NULLIF({q}, '') AS TIMESTAMPTZ) AS {q}")
        elif kind == "VARCHAR" and name in BOOLEAN_TEXT:
            out.append(f"CASE {q} WHEN 'true' THEN true WHEN 'false' THEN false END AS {q}")
        else:
            out.append(q)
    return f"SELECT {', '.join(out)} FROM ({sql})"


# Parquet file -> the query that makes it
PARQUET = {
    "audit-units": "SELECT * EXCLUDE (unit), CAST(unit AS VARCHAR) AS unit_json FROM audit_built_units ORDER BY ord",
    "audit-flags": "SELECT id, type, product, unnest(flags) AS flag FROM audit_built_units ORDER BY ord",
    "audit-nav": "SELECT * FROM audit_nav_consistency",
    "audit-judgments": "SELECT * FROM audit_judgments ORDER BY id",
    "audit-ratifications": "SELECT * FROM ratification_records",
    "audit-draft-rows": "SELECT * FROM audit_draft_rows ORDER BY sort_ord",
    "audit-receipts": "SELECT * FROM audit_receipts",
}


@commits
def export(
    folder: AuditFolder,
    out: Path | None,
    fmt: str = "duckdb",
    *,
    flags_fail: bool = False,
    max_results: int = formats.CODE_SCANNING,
) -> Outcome:
    """Write the analysts' store and Parquet files (fmt duckdb), or the results in a format other tools read
    (sarif, junit, earl, openacr: one module each in jfi.audit.formats); SARIF holds at most `max_results` results
    (0: every one)."""
    out = Path(out) if out else folder.root
    folder.require_built()
    if fmt != "duckdb":
        return _interchange(folder, out, fmt, flags_fail, max_results)
    with writer_lock(folder.root):
        store = folder.load_for_reading(before_build=lambda s: load_saved(s, folder.root))[0]
        try:
            where = sections_of()
            names = [
                name
                for (name,) in store.con.execute(
                    "SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' UNION ALL "
                    "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY 1"
                ).fetchall()
                if where.get(name) in ("audit", "core") and not internal(name)
            ]
            with AtomicFiles() as files:
                target = files.temp_path(out / "audit.duckdb")
                store.con.execute(f"ATTACH {_quote(str(target))} AS analyst (STORAGE_VERSION '{STORAGE_VERSION}')")
                try:
                    families_once(store)  # read by the decisions and the worklist's views: computed once, not per view
                    for name in names:  # each read as a query names it (a family table made just now shadows its view)
                        store.con.execute(f"CREATE TABLE analyst.{name} AS SELECT * FROM {name}")
                    store.comment({name: "TABLE" for name in names}, within="analyst")
                finally:
                    store.con.execute("DETACH analyst")
                _, columns = meanings()
                for stem, sql in PARQUET.items():
                    table = store.con.sql(typed(store.con, sql)).to_arrow_table()
                    said = columns.get(MEANINGS[stem], {})
                    table = table.cast(
                        pa.schema(
                            [
                                f.with_metadata({b"description": said[f.name].encode()}) if f.name in said else f
                                for f in table.schema
                            ]
                        )
                    )
                    meta = {b"jfi_version": __version__.encode(), b"rulebook_sha256": store.rulebook_sha256.encode()}
                    pq.write_table(table.replace_schema_metadata(meta), files.temp_path(out / f"{stem}.parquet"))
                written = [path for _, path in files.pending]
        finally:
            store.close()
    return Outcome(
        0,
        lines=[
            *map(str, written),
            f"{len(names)} table(s) in audit.duckdb, {len(PARQUET)} Parquet file(s); open audit.duckdb in any DuckDB "
            "client, or query the folder with `jfi query --inventory`",
        ],
    )


def _results_store(folder: AuditFolder) -> Store:
    """The store the formats read: the one kept with the inventory (report and gate read it too: taken as it is when
    the folder's files are unchanged, else made and kept for the next), the folder checked as theirs is; a folder with
    a bad line is read as a query reads it, the line left out."""
    try:
        return folder.load_with_inventory()[0]
    except JfiError:
        return folder.load_for_reading()[0]


def _interchange(folder: AuditFolder, out: Path, fmt: str, flags_fail: bool, max_results: int) -> Outcome:
    with writer_lock(folder.root):
        config_path = folder.root / "audit.toml"
        config = audit_toml.read(config_path) if formats.module(fmt).CONFIG else None
        store = _results_store(folder)
        try:
            docs, notes = formats.documents(
                store, fmt, flags_fail=flags_fail, max_results=max_results, config=config, config_path=config_path
            )
        finally:
            store.close()
        with AtomicFiles() as files:
            written = formats.write(files, out, docs)
    paths = [str(path) for path in written]
    return Outcome(0, {"files": paths}, lines=paths, notes=notes, printed=False)
