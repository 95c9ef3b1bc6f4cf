"""`jfi audit build`: judgment units, flags, the navigation-order check and judge batches, from SQL views."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from .. import __version__
from ..jsonl import atomic_write, writer_lock
from .folder import AuditFolder

UNIT_FIELDS = ("id", "type", "sc", "product", "views", "view_count", "occurrences", "name", "detail", "context",
               "landmark", "selector", "visible", "href", "flags")


def utc_now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def run(folder: AuditFolder, batch_size: int) -> int:
    with writer_lock(folder.root):
        store, inventory_sha, header = folder.store(batch_size=batch_size)
        try:
            units = [{k: u[k] for k in UNIT_FIELDS} for u in store.rows("SELECT * FROM audit_units")]
            nav = store.rows("SELECT * FROM audit_nav_consistency")
            batches = store.rows("SELECT batch, line FROM audit_batches")
            views_ok = store.scalar("SELECT count(*) FROM audit_views WHERE ok")
            skipped = store.rows("SELECT view_id, nav_error FROM audit_views WHERE NOT ok ORDER BY pos")
            flagged = store.scalar("SELECT count(*) FROM audit_units WHERE len(flags) > 0")
            rulebook = store.rulebook_sha256
        finally:
            store.close()
        if not views_ok:
            print("no view of the inventory has content (every view has only an environment note); nothing written")
            return 1
        document = {
            "schema": "judgment-units/v1", "built_utc": utc_now(), "inventory_sha256": inventory_sha,
            "rulebook_sha256": rulebook, "jfi_version": __version__, "views_ok": views_ok, "views_skipped": skipped,
            "viewport": header.get("viewport"), "caps": header.get("caps"), "unit_count": len(units),
            "units": units, "nav_consistency": nav,
        }
        files: dict[str, list[str]] = {}
        for b in batches:
            files.setdefault(b["batch"], []).append(b["line"])
        folder.batches.mkdir(parents=True, exist_ok=True)
        for name, lines in files.items():
            atomic_write(folder.batches / name, "\n".join(lines) + "\n")
        for stale in folder.batches.glob("*.jsonl"):
            if not stale.name.endswith(".judged.jsonl") and stale.name not in files:
                stale.unlink()
        atomic_write(folder.root / "judgment-units.json", json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    by_type: dict[str, int] = {}
    for u in units:
        by_type[u["type"]] = by_type.get(u["type"], 0) + 1
    print(json.dumps({"views_ok": views_ok, "skipped": skipped, "unit_count": len(units), "by_type": by_type,
                      "flagged": flagged, "nav_rows": len(nav),
                      "nav_order_violations": sum(1 for r in nav if not r["order_consistent"]),
                      "batches": {k: len(v) for k, v in files.items()}, "rulebook_sha256": rulebook}, indent=1))
    return 0
