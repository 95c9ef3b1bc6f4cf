"""`jfi audit build`: judgment units, flags, the navigation-order check and judge batches, from SQL views.
Units and batch lines stream from DuckDB to the files in chunks, so memory does not grow with the inventory."""
from __future__ import annotations

import json
from itertools import groupby

from .. import __version__
from ..jsonl import atomic_writer, writer_lock
from ..output import utc_now
from .folder import AuditFolder

CHUNK = 10_000


def _stream(con, sql: str):
    """The rows of a query, fetched a chunk at a time."""
    cur = con.execute(sql)
    while rows := cur.fetchmany(CHUNK):
        yield from rows


def _write_units(con, fh, head: dict, nav: list[dict]) -> None:
    # one unit per line: the units come out of SQL as JSON text, and diffs stay readable
    fh.write((json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "units": [').encode("utf-8"))
    sep = "\n  "
    for (unit,) in _stream(con, "SELECT unit_json FROM audit_units ORDER BY unit_ord"):
        fh.write((sep + unit).encode("utf-8"))
        sep = ",\n  "
    fh.write(('\n ],\n "nav_consistency": ' + json.dumps(nav, ensure_ascii=False, indent=1) + "\n}\n").encode("utf-8"))


def _write_batches(con, folder: AuditFolder) -> dict[str, int]:
    """Each batch file written whole (atomically) from the batch lines, which come grouped by file."""
    counts: dict[str, int] = {}
    for name, rows in groupby(_stream(con, "SELECT batch, line FROM audit_batches"), key=lambda r: r[0]):
        with atomic_writer(folder.batches / name) as fh:
            for _, line in rows:
                fh.write((line + "\n").encode("utf-8"))
                counts[name] = counts.get(name, 0) + 1
    for stale in folder.batches.glob("*.jsonl"):
        if not stale.name.endswith(".judged.jsonl") and stale.name not in counts:
            stale.unlink()
    return counts


def run(folder: AuditFolder, batch_size: int) -> int:
    with writer_lock(folder.root):
        store, inventory_sha, header = folder.store(batch_size=batch_size)
        try:
            con = store.con
            views_ok = store.scalar("SELECT count(*) FROM audit_views WHERE ok")
            if not views_ok:
                print("no view of the inventory has content (every view has only an environment note); nothing written")
                return 1
            skipped = store.rows("SELECT view_id, nav_error FROM audit_views WHERE NOT ok ORDER BY pos")
            by_type = dict(con.execute("SELECT type, count(*) FROM audit_units GROUP BY type ORDER BY min(unit_ord)").fetchall())
            flagged = store.scalar("SELECT count(*) FROM audit_units WHERE len(flags) > 0")
            nav = store.rows("SELECT * FROM audit_nav_consistency")
            head = {
                "schema": "judgment-units/v1", "built_utc": utc_now(), "inventory_sha256": inventory_sha,
                "rulebook_sha256": store.rulebook_sha256, "jfi_version": __version__, "views_ok": views_ok,
                "views_skipped": skipped, "viewport": header.get("viewport"), "caps": header.get("caps"),
                "unit_count": sum(by_type.values()),
            }
            batches = _write_batches(con, folder)
            with atomic_writer(folder.root / "judgment-units.json") as fh:
                _write_units(con, fh, head, nav)
        finally:
            store.close()
    print(json.dumps({"views_ok": views_ok, "skipped": skipped, "unit_count": head["unit_count"], "by_type": by_type,
                      "flagged": flagged, "nav_rows": len(nav),
                      "nav_order_violations": sum(1 for r in nav if not r["order_consistent"]),
                      "batches": batches, "rulebook_sha256": store.rulebook_sha256}, indent=1))
    return 0
