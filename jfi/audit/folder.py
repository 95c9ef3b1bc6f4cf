"""An audit folder: its inventory (inventory.jsonl, or a content-inventory/v1 inventory-run.json made
elsewhere) and the files the later steps read and write, loaded into one store."""
from __future__ import annotations

import hashlib
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ..errors import JfiError, refuse
from ..jsonl import line_columns, sha256_and_lines
from ..store import Store


@dataclass
class AuditFolder:
    root: Path

    @property
    def inventory_jsonl(self) -> Path:
        return self.root / "inventory.jsonl"

    @property
    def manifest(self) -> Path:
        return self.root / "inventory-run.json"

    @property
    def batches(self) -> Path:
        return self.root / "batches"

    def inventory_source(self) -> tuple[str, list[int], list[str], bytes]:
        """(source, line numbers, texts, bytes) of the inventory, whichever form the folder holds."""
        if self.inventory_jsonl.is_file():
            numbers, texts = line_columns(self.inventory_jsonl)
            return str(self.inventory_jsonl), numbers, texts, self.inventory_jsonl.read_bytes()
        if self.manifest.is_file():
            from .import_inventory import read_manifest
            run = read_manifest(self.manifest)
            texts = [json.dumps(v, ensure_ascii=False) for v in run["views"]]
            return str(self.manifest), list(range(1, len(texts) + 1)), texts, self.manifest.read_bytes()
        raise JfiError("no_inventory", f"no inventory.jsonl or inventory-run.json in {self.root}; "
                       "run `jfi audit inventory --out` there first", source=str(self.root))

    def store(self, *, batch_size: int = 90) -> tuple[Store, str, dict]:
        """A built store with the inventory loaded; refuses a broken inventory. Returns (store, sha256, run header).

        An inventory.jsonl goes whole through DuckDB's JSON reader when it can (every line an object of the
        expected types, no blank line, so the reader's row order gives the line numbers); otherwise, and
        whenever the rules find a problem, it is read line by line so each problem is named by its exact line."""
        if self.inventory_jsonl.is_file():
            store, sha = self._read_whole(batch_size)
            if store is not None:
                if not store.scalar("SELECT count(*) FROM audit_inventory_violations"):
                    return store, sha, self._jsonl_header()
                store.close()
        source, numbers, texts, data = self.inventory_source()
        store = Store()
        store.set_batch_size(batch_size)
        store.add_lines("inventory", source, numbers, texts)
        store.build()
        bad = store.rows("SELECT * FROM audit_inventory_violations")
        if bad:
            store.close()
        refuse(bad, "invalid_inventory", "problem(s) in the inventory listed above; nothing written")
        header = {}
        if source.endswith(".json"):
            header = {k: v for k, v in json.loads(data).items() if k != "views"}
        elif texts:
            header = self._jsonl_header()
        return store, hashlib.sha256(data).hexdigest(), header

    def _read_whole(self, batch_size: int) -> tuple[Store | None, str]:
        """(built store, sha256) from DuckDB's JSON reader, or (None, sha256) when the file needs the exact path.
        The file is hashed and its lines counted while DuckDB reads it."""
        path = self.inventory_jsonl
        store = Store()
        store.set_batch_size(batch_size)
        try:
            with ThreadPoolExecutor(1) as pool:
                reading = pool.submit(store.load_inventory_file, str(path))
                sha, lines = sha256_and_lines(path)
                try:
                    rows = reading.result()
                except duckdb.Error:
                    rows = None
        except BaseException:
            store.close()
            raise
        if rows != lines:
            store.close()
            return None, sha
        return store.build(), sha

    def _jsonl_header(self) -> dict:
        with open(self.inventory_jsonl, encoding="utf-8-sig", errors="replace") as fh:
            first = fh.readline().strip()
        try:
            record = json.loads(first) if first.startswith("{") else {}
        except json.JSONDecodeError:
            return {}
        return record if record.get("record") == "run" else {}
