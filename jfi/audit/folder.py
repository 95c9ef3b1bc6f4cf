"""An audit folder: its inventory (inventory.jsonl, or a content-inventory/v1 inventory-run.json made
elsewhere) and the files the later steps read and write, loaded into one store."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import JfiError, refuse
from ..jsonl import line_columns
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
        """A built store with the inventory loaded; refuses a broken inventory. Returns (store, sha256, run header)."""
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
            first = json.loads(texts[0]) if texts[0].lstrip().startswith("{") else {}
            header = first if first.get("record") == "run" else {}
        return store, hashlib.sha256(data).hexdigest(), header
