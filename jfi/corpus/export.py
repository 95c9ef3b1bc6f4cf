"""`jfi corpus export`: items, criteria, concentration and pending work as CSV, JSONL and Parquet, plus jfi.duckdb."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .. import __version__
from ..jsonl import atomic_write, writer_lock
from ..output import csv_text, to_jsonable
from .guard import refuse_on_violations
from .project import CorpusProject, display_path

# export name -> the query that makes it; every row also carries jfi_version and rulebook_sha256
TABLES = {
    "corpus-items": "SELECT * EXCLUDE (types) FROM corpus_items ORDER BY line",
    "corpus-criteria": "SELECT * FROM corpus_criteria",
    "corpus-concentration": "SELECT * FROM corpus_concentration",
    "corpus-pending": "SELECT * FROM corpus_pending",
}


def run(project: CorpusProject, out: Path, fmt: str, goal: int) -> int:
    out = Path(out)
    formats = ("csv", "jsonl", "parquet") if fmt == "all" else (fmt,)
    with writer_lock(project.root):
        store = project.store(goal=goal)
        try:
            refuse_on_violations(store, [display_path(project.corpus_path)], "export")
            written = []
            for name, sql in TABLES.items():
                wrapped = (f"SELECT q.*, '{__version__}' AS jfi_version, (SELECT rulebook_sha256 FROM jfi_run) "
                           f"AS rulebook_sha256 FROM ({sql}) AS q")
                arrow = store.con.sql(wrapped).to_arrow_table()
                if "csv" in formats:
                    rows = [tuple(r.values()) for r in arrow.to_pylist()]
                    written.append(_write(out / f"{name}.csv", csv_text(arrow.column_names, rows)))
                if "jsonl" in formats:
                    text = "".join(json.dumps(to_jsonable(r), ensure_ascii=False) + "\n" for r in arrow.to_pylist())
                    written.append(_write(out / f"{name}.jsonl", text))
                if "parquet" in formats:
                    meta = {b"jfi_version": __version__.encode(), b"rulebook_sha256": store.rulebook_sha256.encode()}
                    written.append(_write_parquet(out / f"{name}.parquet", arrow.replace_schema_metadata(meta)))
            rulebook = store.rulebook_sha256
        finally:
            store.close()
        if fmt == "all":
            written.append(write_duckdb(project, out / "jfi.duckdb", goal))
    for path in written:
        print(display_path(path))
    print(f"{len(written)} file(s) written; rulebook {rulebook[:12]}")
    return 0


def _write(path: Path, text: str) -> Path:
    atomic_write(path, text)
    return path


def _write_parquet(path: Path, table: pa.Table) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        pq.write_table(table, tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def write_duckdb(project: CorpusProject, path: Path, goal: int) -> Path:
    """A store any DuckDB client opens: raw tables plus every rulebook view, built aside and renamed in."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    for leftover in (tmp, Path(str(tmp) + ".wal")):
        if leftover.exists():
            leftover.unlink()
    try:
        store = project.store(goal=goal, path=str(tmp)).describe()
        store.con.execute("CHECKPOINT")
        store.close()
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, Path(str(tmp) + ".wal")):
            if leftover.exists():
                leftover.unlink()
    return path
