"""`jfi corpus export`: items, criteria, concentration and pending work as CSV, JSONL and Parquet, plus jfi.duckdb."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from ..jsonl import AtomicFiles, writer_lock
from ..output import Outcome, csv_text, to_jsonable
from ..version import __version__
from ..workbook import Sheet, workbook_bytes
from .guard import refuse_on_violations
from .project import CorpusProject, display_path

# export name -> the query that makes it; every row also carries jfi_version and rulebook_sha256
TABLES = {
    "corpus-items": "SELECT {item_columns} FROM corpus_items ORDER BY line",
    "corpus-criteria": "SELECT * FROM corpus_criteria",
    "corpus-concentration": "SELECT * FROM corpus_concentration",
    "corpus-pending": "SELECT * FROM corpus_pending",
}


# columns of corpus_items worked out from a field, exported when the profile has that field
DERIVED = {
    "pass_count": "gold_alt_passes",
    "pass_alts_agree": "gold_alt_passes",
    "has_pass_b": "gold_alt_passes",
    "adjudicated": "adjudication",
}


def _meanings(name: str, columns: list[str]) -> dict[str, str]:
    from .. import rulebook

    view = {
        "corpus-items": "corpus_items",
        "corpus-criteria": "corpus_criteria",
        "corpus-concentration": "corpus_concentration",
        "corpus-pending": "corpus_pending",
    }[name]
    known = rulebook.meanings()[1].get(view, {})
    extra = {
        "jfi_version": "version of jfi that wrote the export",
        "rulebook_sha256": "hash of the rules that made it",
        "profile": "the corpus profile whose rules made it",
    }
    return {c: known.get(c) or extra.get(c, "") for c in columns}


def item_columns(store) -> list[str]:
    """The item columns of the project's profile, in corpus_items' order: where and the profile's own fields."""
    fields = {r[0] for r in store.con.execute("SELECT field FROM field_specs WHERE kind = 'item'").fetchall()}
    columns = [r[0] for r in store.con.execute("DESCRIBE corpus_items").fetchall()]
    return [c for c in columns if c in ("source", "line") or c in fields or DERIVED.get(c) in fields]


def run(project: CorpusProject, out: Path, fmt: str, goal: int) -> Outcome:
    """Every file of one export lands together (one group of atomic renames) or not at all."""
    lines: list[str] = []  # what it tells its user (the command line prints them)
    out = Path(out)
    formats = ("csv", "jsonl", "parquet") if fmt == "all" else (fmt,)
    with writer_lock(project.root), AtomicFiles() as files:
        # with every format the store itself is an output (jfi.duckdb): the rulebook runs once, in that file
        kept = files.temp_path(out / "jfi.duckdb") if fmt == "all" else None
        store = project.store(goal=goal, path=str(kept) if kept else ":memory:", portable=True)
        try:
            refuse_on_violations(store, [display_path(project.corpus_path)], "export")
            sheets = []
            for name, sql in TABLES.items():
                sql = sql.format(item_columns=", ".join(item_columns(store)))
                wrapped = (
                    f"SELECT q.*, '{__version__}' AS jfi_version, (SELECT rulebook_sha256 FROM jfi_run) "
                    f"AS rulebook_sha256, (SELECT profile FROM jfi_run) AS profile FROM ({sql}) AS q"
                )
                arrow = store.con.sql(wrapped).to_arrow_table()
                if "csv" in formats:
                    rows = [tuple(r.values()) for r in arrow.to_pylist()]
                    files.write(out / f"{name}.csv", csv_text(arrow.column_names, rows))
                    sheets.append(
                        Sheet(
                            name.removeprefix("corpus-").capitalize(),
                            arrow.column_names,
                            rows,
                            _meanings(name, arrow.column_names),
                            "status",
                        )
                    )
                if "jsonl" in formats:
                    files.write(
                        out / f"{name}.jsonl",
                        "".join(json.dumps(to_jsonable(r), ensure_ascii=False) + "\n" for r in arrow.to_pylist()),
                    )
                if "parquet" in formats:
                    meta = {
                        b"jfi_version": __version__.encode(),
                        b"rulebook_sha256": store.rulebook_sha256.encode(),
                        b"profile": store.profile.encode(),
                    }
                    pq.write_table(arrow.replace_schema_metadata(meta), files.temp_path(out / f"{name}.parquet"))
            if sheets:  # the same tables as a workbook for people: text cells, never formulas
                files.write(out / "corpus.xlsx", workbook_bytes(sheets))
            rulebook = store.rulebook_sha256
            if kept:  # a store any DuckDB client opens: raw tables, every rulebook view and their meanings
                store.describe().con.execute("CHECKPOINT")
        finally:
            store.close()
        written = [path for _, path in files.pending if path != out / "jfi.duckdb"] + (
            [out / "jfi.duckdb"] if kept else []
        )
    for path in written:
        lines.append(display_path(path))
    lines.append(f"{len(written)} file(s) written; profile {project.profile}; rulebook {rulebook[:12]}")
    report = {"files": [str(path) for path in written], "profile": project.profile, "rulebook_sha256": rulebook}
    return Outcome(0, report, lines=lines, printed=False)
