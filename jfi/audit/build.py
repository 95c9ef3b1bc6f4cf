"""`jfi audit build`: judgment units, flags, the navigation-order check and judge batches, from SQL views."""
from __future__ import annotations

import json

from .. import __version__
from ..jsonl import atomic_write, writer_lock
from ..output import utc_now
from .folder import AuditFolder

def run(folder: AuditFolder, batch_size: int) -> int:
    with writer_lock(folder.root):
        store, inventory_sha, header = folder.store(batch_size=batch_size)
        try:
            units = [r[0] for r in store.con.execute("SELECT unit_json FROM audit_units ORDER BY unit_ord").fetchall()]
            by_type = dict(store.con.execute("SELECT type, count(*) FROM audit_units GROUP BY type "
                                             "ORDER BY min(unit_ord)").fetchall())
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
        head = {
            "schema": "judgment-units/v1", "built_utc": utc_now(), "inventory_sha256": inventory_sha,
            "rulebook_sha256": rulebook, "jfi_version": __version__, "views_ok": views_ok, "views_skipped": skipped,
            "viewport": header.get("viewport"), "caps": header.get("caps"), "unit_count": len(units),
        }
        # one unit per line: the units come out of SQL as JSON text, and diffs stay readable
        document = (json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "units": [\n  '
                    + ",\n  ".join(units) + '\n ],\n "nav_consistency": '
                    + json.dumps(nav, ensure_ascii=False, indent=1) + "\n}\n")
        files: dict[str, list[str]] = {}
        for b in batches:
            files.setdefault(b["batch"], []).append(b["line"])
        folder.batches.mkdir(parents=True, exist_ok=True)
        for name, lines in files.items():
            atomic_write(folder.batches / name, "\n".join(lines) + "\n")
        for stale in folder.batches.glob("*.jsonl"):
            if not stale.name.endswith(".judged.jsonl") and stale.name not in files:
                stale.unlink()
        atomic_write(folder.root / "judgment-units.json", document)
    print(json.dumps({"views_ok": views_ok, "skipped": skipped, "unit_count": len(units), "by_type": by_type,
                      "flagged": flagged, "nav_rows": len(nav),
                      "nav_order_violations": sum(1 for r in nav if not r["order_consistent"]),
                      "batches": {k: len(v) for k, v in files.items()}, "rulebook_sha256": rulebook}, indent=1))
    return 0
