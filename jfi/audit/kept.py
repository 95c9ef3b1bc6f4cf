"""The store kept beside an audit folder (`.jfi/audit.duckdb`): what the commands after `build` load and derive
from the folder (built units, batches, judged files, ledger, spot checks, standards), kept in a DuckDB file.

It is keyed by the bytes of every input (and jfi's version, the rulebook, the folder's path): a command whose
inputs are unchanged opens it and runs no load and no rulebook; one whose inputs changed builds a new store,
taking each unchanged file's rows from the old one instead of reading and checking the file again, then runs the
rulebook. A new store replaces the old only when the command that built it succeeds, so a refused command leaves
the folder as it was. Deleting `.jfi/` changes no output; a store that cannot be opened, or whose key does not
match, is rebuilt, never trusted. Any DuckDB client can open it (`duckdb .jfi/audit.duckdb`).
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import secrets
from pathlib import Path

import duckdb

from .. import __version__
from ..jsonl import sha256_file
from ..store import Store, sql_string

DIR = ".jfi"
FORMAT = "kept-store/1"
RAW_TABLES = ("raw_files", "raw_lines", "raw_json_problems")  # the rows of one input file, by its source path
TEMP_GLOB = ".*.tmp.duckdb*"
THROUGH = 79  # the commands after build read no view past 72_audit_unit_places (the eval's views are for eval and queries)

_pending: list["KeptStore"] = []


def input_files(root: Path, inventory: bool) -> list[Path]:
    """Every file a command after `build` reads from the folder, present or not (a new file changes the key)."""
    batches = sorted((root / "batches").glob("*.jsonl")) if (root / "batches").is_dir() else []
    return [*([root / "inventory.jsonl", root / "inventory-run.json"] if inventory else []),
            root / "ratifications.jsonl", root / "judgment-units.json", root / "standards.jsonl", *batches,
            root / "spot-checks.jsonl"]


class KeptStore:
    """One folder's kept store for one kind of load (with or without the inventory)."""

    def __init__(self, root: Path, inventory: bool):
        self.dir = root / DIR
        self.path = self.dir / ("audit-inventory.duckdb" if inventory else "audit.duckdb")
        self.shas = {str(p): sha256_file(p) for p in input_files(root, inventory) if p.is_file()}
        # what read the files: rows are taken only from a store made by the same jfi with the same rules
        self.reader = json.dumps([FORMAT, __version__, Store.digest(("audit",), THROUGH), str(root)])
        self.key = hashlib.sha256(json.dumps([self.reader, inventory, sorted(self.shas.items())]).encode()).hexdigest()
        self.temp: Path | None = None
        self.store: Store | None = None
        self.before: dict[str, str] = {}  # source -> sha256 of the files the old kept store holds
        self.attached = False
        self.taken: list[str] = []

    def reuse(self) -> tuple[Store, dict, str] | None:
        """(store, the built units' header, their sha256) when the kept store matches the inputs."""
        if not self.path.is_file():
            return None
        try:
            store = Store(self.path, sections=("audit",), reopen=True, through=THROUGH)
        except duckdb.Error:  # corrupt, another DuckDB version, or held by another process: build anew
            return None
        try:
            key, head, units_sha = store.con.execute("SELECT key, head, units_sha256 FROM jfi_kept").fetchone()
        except (duckdb.Error, TypeError):
            key = None
        if key != self.key:
            store.close()
            return None
        return store, json.loads(head), units_sha

    def new_store(self) -> Store:
        """An empty store in a temp file beside the kept one, the old kept store attached to take unchanged files
        from."""
        self.dir.mkdir(exist_ok=True)
        for leftover in self.dir.glob(TEMP_GLOB):  # of a command killed before it finished (we hold the folder's lock)
            leftover.unlink(missing_ok=True)
        self.temp = self.dir / f".{self.path.stem}.{os.getpid()}-{secrets.token_hex(4)}.tmp.duckdb"
        self.store = Store(self.temp, sections=("audit",), through=THROUGH)
        if self.path.is_file():
            try:
                self.store.con.execute(f"ATTACH {sql_string(str(self.path))} AS kept_before (READ_ONLY)")
                self.attached = True
                if self.store.scalar("SELECT reader FROM kept_before.jfi_kept") == self.reader:
                    self.before = dict(self.store.con.execute("SELECT source, sha256 FROM kept_before.jfi_kept_files")
                                       .fetchall())
            except duckdb.Error:  # not a kept store of this jfi: every file is read
                self.before = {}
            if not self.before:
                self._detach()
        return self.store

    def take(self, source: Path) -> bool:
        """Whether a file is unchanged since the old kept store, its rows to be copied from there (`copy_taken`)
        instead of read; False when it must be read."""
        src = str(source)
        if src not in self.shas or self.before.get(src) != self.shas[src]:
            return False
        self.taken.append(src)
        return True

    def copy_taken(self) -> None:
        """The rows of every file taken, copied from the old kept store in one statement per table."""
        if self.taken:
            for table in RAW_TABLES:
                self.store.con.execute(f"INSERT INTO {table} SELECT * FROM kept_before.{table} "
                                       "WHERE source IN (SELECT unnest(?::VARCHAR[]))", [self.taken])
            self.taken = []

    def seal(self, head: dict, units_sha: str) -> None:
        """Record the key and the files it covers, once the store is built and its inputs passed every rule; the
        store replaces the kept one when the command succeeds (`commits`)."""
        self._detach()
        con = self.store.con
        con.execute("CREATE TABLE jfi_kept AS SELECT ? AS key, ? AS reader, ? AS head, ? AS units_sha256",
                    [self.key, self.reader, json.dumps(head, ensure_ascii=False), units_sha])
        con.execute("CREATE TABLE jfi_kept_files AS SELECT unnest(?::VARCHAR[]) AS source, unnest(?::VARCHAR[]) AS sha256",
                    [list(self.shas), list(self.shas.values())])
        _pending.append(self)

    def _detach(self) -> None:
        if self.attached:
            self.store.con.execute("DETACH kept_before")
            self.attached = False
        self.before = {}

    def discard(self) -> None:
        if self.store is not None:
            self.store.close()
        for path in self.dir.glob(f"{self.temp.name}*") if self.temp else ():
            path.unlink(missing_ok=True)
        if self.dir.is_dir() and not any(self.dir.iterdir()):
            self.dir.rmdir()

    def commit(self) -> None:
        self.store.close()  # checkpointed: the file holds everything, with no write-ahead log beside it
        Path(f"{self.path}.wal").unlink(missing_ok=True)  # a log of the old file must never replay onto the new
        os.replace(self.temp, self.path)
        ignore = self.dir / ".gitignore"  # an audit folder kept in git never takes its store along
        if not ignore.exists():
            ignore.write_text("*\n")


def commits(command):
    """A command whose new kept store (if it built one) replaces the old only when it returns; a refusal or an error
    removes it, leaving the folder byte-identical."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            result = command(*args, **kwargs)
        except BaseException:
            while _pending:
                _pending.pop().discard()
            raise
        while _pending:
            _pending.pop().commit()
        return result
    return wrapper
