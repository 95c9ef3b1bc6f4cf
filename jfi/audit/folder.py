"""An audit folder: its inventory (inventory.jsonl, or a content-inventory/v1 inventory-run.json made
elsewhere) and the files the later steps read and write, loaded into one store."""
from __future__ import annotations

import hashlib
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import duckdb
import ijson
from ijson.common import ObjectBuilder

from ..errors import JfiError, refuse
from ..atomic import recover
from ..jsonl import line_columns, parse_json, sha256_and_lines, sha256_file
from ..paths import own_folder, regular_file
from ..store import Store


BUILD_THROUGH = 46  # the last rule file `build` reads from (46_audit_nav_consistency): units, batches, the 3.2.3 check


def units_head(path: Path) -> dict:
    """The fields of judgment-units.json before its units list (read as a stream: the units are not parsed)."""
    fields: dict = {}
    try:
        with open(path, "rb") as fh:
            builder, key = None, None
            for prefix, event, value in ijson.parse(fh, use_float=True):
                if prefix == "" and event == "map_key":
                    if builder is not None:
                        fields[key] = builder.value
                    if value == "units":
                        return fields
                    key, builder = value, ObjectBuilder()
                elif prefix == "" and event == "end_map":
                    if builder is not None:
                        fields[key] = builder.value
                    return fields
                elif builder is not None:
                    builder.event(event, value)
    except (ijson.JSONError, ijson.IncompleteJSONError, ValueError):
        return fields  # the readers that parse it whole name the problem
    return fields


@dataclass
class AuditFolder:
    root: Path

    def __post_init__(self):
        self.root = Path(self.root)
        if not self.root.is_dir():
            raise JfiError("no_audit", f"{self.root} is not a folder; `jfi audit inventory --out` makes an audit folder",
                           source=str(self.root))
        if not any(regular_file(self.root / name) for name in ("inventory.jsonl", "inventory-run.json", "judgment-units.json")):
            raise JfiError("no_audit", f"no audit in {self.root} (no inventory.jsonl, inventory-run.json or "
                           "judgment-units.json)", source=str(self.root))
        recover(self.root)  # a commit interrupted by a kill is finished before anything reads the folder

    @property
    def units_path(self) -> Path:
        return self.root / "judgment-units.json"

    def require_built(self) -> Path:
        """judgment-units.json, or the refusal that says to build first: none is there, or it was built by jfi from
        another inventory than the folder's (a capture replaced since)."""
        if not regular_file(self.units_path):
            raise JfiError("not_built", f"no judgment-units.json in {self.root}; run `jfi audit build` first",
                           source=str(self.units_path))
        head = units_head(self.units_path)
        inventory = next((p for p in (self.inventory_jsonl, self.manifest) if regular_file(p)), None)
        if inventory is not None and head.get("jfi_version") and isinstance(head.get("inventory_sha256"), str) \
                and head["inventory_sha256"] != sha256_file(inventory):
            raise JfiError("not_built", f"judgment-units.json was built from another inventory than {inventory.name} "
                           f"(captured again since); run `jfi audit build --inventory {self.root}` again",
                           source=str(self.units_path))
        return self.units_path

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
        if regular_file(self.inventory_jsonl):
            numbers, texts = line_columns(self.inventory_jsonl)
            return str(self.inventory_jsonl), numbers, texts, self.inventory_jsonl.read_bytes()
        if regular_file(self.manifest):
            from .import_inventory import read_manifest
            run = read_manifest(self.manifest)
            texts = [json.dumps(v, ensure_ascii=False) for v in run["views"]]
            return str(self.manifest), list(range(1, len(texts) + 1)), texts, self.manifest.read_bytes()
        raise JfiError("no_inventory", f"no inventory.jsonl or inventory-run.json in {self.root}; "
                       "run `jfi audit inventory --out` there first", source=str(self.root))

    def load_inventory(self, store: Store, *, whole: bool = True) -> tuple[str, bool]:
        """Put the inventory into a store that is not built yet; returns (its sha256, whether it was read whole).

        An inventory.jsonl goes whole through DuckDB's JSON reader when it can (every line an object of the
        expected types, no blank line, so the reader's row order gives the line numbers; the file is hashed and
        its lines counted meanwhile); otherwise, or with whole=False, it is read line by line with exact numbers."""
        if whole and regular_file(self.inventory_jsonl):
            with ThreadPoolExecutor(1) as pool:
                reading = pool.submit(store.load_inventory_file, str(self.inventory_jsonl))
                sha, lines, utf8 = sha256_and_lines(self.inventory_jsonl)
                try:
                    rows = reading.result()
                except duckdb.Error:
                    rows = None
            if rows == lines and utf8:
                return sha, True
            store.con.execute("DELETE FROM raw_inventory")
        source, numbers, texts, data = self.inventory_source()
        store.add_lines("inventory", source, numbers, texts)
        return hashlib.sha256(data).hexdigest(), False

    def store(self, *, batch_size: int = 90) -> tuple[Store, str, dict]:
        """A built store with the inventory loaded; refuses a broken inventory, naming each problem by its exact
        line (a file read whole is read again line by line for that). Returns (store, sha256, run header)."""
        store, sha, whole, bad = self._built(batch_size, whole=True)
        if bad and whole:
            store.close()
            store, sha, whole, bad = self._built(batch_size, whole=False)
        if bad:
            store.close()
        refuse(bad, "invalid_inventory", "problem(s) in the inventory listed above; nothing written")
        if regular_file(self.inventory_jsonl):
            return store, sha, self._jsonl_header()
        return store, sha, {k: v for k, v in parse_json(self.manifest.read_bytes(), self.manifest).items() if k != "views"}

    def _built(self, batch_size: int, *, whole: bool) -> tuple[Store, str, bool, list[dict]]:
        """(built store, sha256, whether read whole, the inventory's violations)."""
        store = Store(sections=("audit",), through=BUILD_THROUGH)
        try:
            store.set_batch_size(batch_size)
            sha, whole = self.load_inventory(store, whole=whole)
            return store, sha, whole, store.build().rows("SELECT * FROM audit_inventory_violations")
        except BaseException:
            store.close()
            raise

    def _jsonl_header(self) -> dict:
        with open(self.inventory_jsonl, encoding="utf-8-sig", errors="replace") as fh:
            first = fh.readline().strip()
        try:
            record = json.loads(first) if first.startswith("{") else {}
        except ValueError:
            return {}
        except RecursionError:
            raise JfiError("invalid_json", "nested too deeply to read", source=str(self.inventory_jsonl), line=1) from None
        return record if record.get("record") == "run" else {}
