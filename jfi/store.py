"""DuckDB store: raw input tables, the rulebook's views over them, and helpers to read results."""
from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa

from . import __version__, rulebook


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class Store:
    """One DuckDB database (in memory or a file) with the whole rulebook applied."""

    def __init__(self, path: str | Path = ":memory:"):
        self.con = duckdb.connect(str(path))
        files, self.rulebook_sha256 = rulebook.load()
        for f in files:
            self.con.execute(f.text)
        for f in files:
            for name, meaning in f.objects.items():
                kind = self._kind(name)
                if kind:
                    self.con.execute(f"COMMENT ON {kind} {name} IS {_quote(meaning)}")
            for name, cols in f.columns.items():
                for col, meaning in cols.items():
                    self.con.execute(f"COMMENT ON COLUMN {name}.{col} IS {_quote(meaning)}")
        self.con.execute("INSERT INTO jfi_run VALUES (?, ?, NULL)", [__version__, self.rulebook_sha256])

    def _kind(self, name: str) -> str | None:
        row = self.con.execute(
            "SELECT table_type FROM information_schema.tables WHERE table_name = ?", [name]).fetchone()
        if not row:
            return None
        return "VIEW" if row[0] == "VIEW" else "TABLE"

    def set_goal(self, goal: int) -> None:
        self.con.execute("UPDATE jfi_run SET goal = ?", [goal])

    def append(self, table: str, columns: dict[str, list]) -> None:
        """Bulk-append parallel column lists to a raw table (through Arrow, not row by row)."""
        if not columns or not len(next(iter(columns.values()))):
            return
        batch = pa.table(columns)
        self.con.register("_jfi_batch", batch)
        try:
            names = ", ".join(columns)
            self.con.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM _jfi_batch")
        finally:
            self.con.unregister("_jfi_batch")

    def rows(self, sql: str, params: list | None = None) -> list[dict]:
        cur = self.con.execute(sql, params or [])
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]

    def scalar(self, sql: str, params: list | None = None):
        row = self.con.execute(sql, params or []).fetchone()
        return row[0] if row else None

    def close(self) -> None:
        self.con.close()
