"""`jfi audit build`: judgment units, flags, the navigation-order check and judge batches, from SQL views.
Units and batch lines stream from DuckDB to the files in chunks, so memory does not grow with the inventory."""

from __future__ import annotations

import hashlib
import json
import os

from ..errors import JfiError
from ..jsonl import AtomicFiles, writer_lock
from ..output import Outcome, utc_now, write_json_document
from ..phases import phase
from ..store import sql_string
from ..version import __version__
from .folder import AuditFolder
from .kept import Provided, begun
from .worklist import decisions_of

UNITS_PER_CHUNK = 2_000
HANDOVER_MEMORY = "64MB"  # build's own store while it hands its lines over, under JFI_MEMORY_LIMIT
BATCHES_PER_QUERY = 500  # batch files joined by one query (45,000 lines at the default batch size)


def _unit_chunks(con):
    """The units as JSON text out of SQL, a few thousand joined per row fetched, so memory does not grow with the
    inventory."""
    total = con.execute("SELECT count(*) FROM audit_units").fetchall()[0][0]
    for start in range(1, total + 1, UNITS_PER_CHUNK):  # one small aggregate per chunk, never one over every unit
        yield con.execute(
            "SELECT string_agg(unit_json, ',\n  ' ORDER BY unit_ord) FROM audit_units WHERE unit_ord BETWEEN ? AND ?",
            [start, start + UNITS_PER_CHUNK - 1],
        ).fetchall()[0][0]


def _write_batches(con, folder: AuditFolder, files: AtomicFiles, shas: dict[str, str]) -> dict[str, int]:
    """Each batch file written whole (its sha256 into `shas`), its text joined by SQL. The batch lines are computed
    once, sorted by batch and line (a sort spills to disk under a memory limit), and joined a few hundred batches per
    query (one ordered aggregate over every line did not spill at 100,000 views): memory does not grow with the audit.
    A first build writes them into a staged batches/ folder put in place whole; a build again leaves each batch file
    whose bytes do not change as it is."""
    files.stage(folder.batches)
    # every later read of the batch lines (here, and the lines handed to the kept store) reads these rows
    con.execute("CREATE TEMP TABLE audit_batches AS SELECT * FROM main.audit_batches ORDER BY batch, line_no")
    counts = dict(
        con.execute("SELECT batch, count(*) FROM audit_batches GROUP BY batch ORDER BY min(unit_ord)").fetchall()
    )
    # the rows of a run of batches are a run of row ids (the table holds them in the order it was made in): each
    # query reads only those rows, whatever the size of the audit
    names = sorted(counts)  # as DuckDB orders text: by code point
    first = 0
    for start in range(0, len(names), BATCHES_PER_QUERY):
        chunk = names[start : start + BATCHES_PER_QUERY]
        rows = sum(counts[name] for name in chunk)
        joined = con.execute(
            "SELECT batch, count(*), string_agg(line, chr(10) ORDER BY line_no) FROM audit_batches "
            "WHERE rowid BETWEEN ? AND ? GROUP BY batch ORDER BY batch",
            [first, first + rows - 1],
        ).fetchall()
        first += rows
        if [(name, n) for name, n, _ in joined] != [(name, counts[name]) for name in chunk]:
            raise RuntimeError("the batch lines are not held in the order they were sorted in")
        for name, _, text in joined:
            data = (text + "\n").encode("utf-8")
            files.write(folder.batches / name, data, keep_same=True)
            shas[str(folder.batches / name)] = hashlib.sha256(data).hexdigest()
    return counts


class _Hashing:
    """A binary handle that hashes what is written through it."""

    def __init__(self, fh):
        self.fh, self.sha = fh, hashlib.sha256()

    def write(self, data: bytes) -> None:
        self.sha.update(data)
        self.fh.write(data)


def _written_lines(con, folder: AuditFolder):
    """The lines of the files build wrote (units and batches: kind, source, line, text), streamed out of the build's
    own store a few thousand at a time, for the kept store to take in one insert: nothing is written in between, and
    memory does not grow with the audit. The build's other tables are dropped first: the memory they held is the kept
    store's to use."""
    for (table,) in con.execute(
        "SELECT table_name FROM system.main.duckdb_tables() WHERE database_name = system.main.current_database() "
        "AND schema_name = 'main' AND table_name <> 'audit_units'"
    ).fetchall():
        con.execute(f'DROP TABLE main."{table}"')
    if os.environ.get("JFI_MEMORY_LIMIT"):  # a bound the user set holds for the two stores together: the rows left
        con.execute(f"SET memory_limit = '{HANDOVER_MEMORY}'")  # here go to disk as the kept store takes them
    return con.sql(
        f"SELECT 'unit' AS kind, {sql_string(str(folder.units_path))} AS source, unit_ord AS line, unit_json AS text "
        f"FROM audit_units UNION ALL SELECT 'batch', {sql_string(str(folder.batches) + '/')} || batch, line_no, line "
        "FROM audit_batches"
    ).to_arrow_reader(50_000)


def _keep_store(folder: AuditFolder, provided: Provided) -> tuple[tuple[int, int] | None, list[str]]:
    """The store kept beside the folder, made now from the build's own rows (the units and batch lines it wrote) and
    the folder's other files, so the commands after build find it ready. It is a cache keyed by the files' bytes:
    made after the build's files are in place (the build's own store closed first), and not made (said, not
    refused) when the judged files already there do not pass the rules; the next command then refuses them."""
    kept, decisions, said = False, None, []
    with begun(folder) as keeping:
        try:
            store = folder.load_after_build(provided)[0]
            try:  # what the ratifier faces: decisions, and the rows they settle
                decisions = decisions_of(store)
            finally:
                store.close()
            kept = True
        except JfiError as e:
            said.append(f"no store kept beside the audit: {e.message}")
        finally:
            keeping.keep() if kept else keeping.drop()
    return decisions, said


def run(folder: AuditFolder, batch_size: int) -> Outcome:
    with writer_lock(folder.root):
        with phase("build: the inventory read, its rule files"):
            store, inventory_sha, header = folder.store(batch_size=batch_size)
        try:
            con = store.con
            views_ok = store.scalar("SELECT count(DISTINCT view_id) FROM audit_views WHERE ok")
            if not views_ok:
                return Outcome(
                    1,
                    lines=[
                        "no view of the inventory has content (every view has only an environment note); nothing written"
                    ],
                )
            skipped = store.rows(
                "SELECT view_id, nav_error FROM audit_views WHERE NOT ok AND folded_into IS NULL ORDER BY pos"
            )
            caps_hit = store.rows("SELECT * FROM audit_caps_hit")
            folded = store.rows(
                "SELECT DISTINCT view_id, url, final_url, folded_into FROM audit_views "
                "WHERE folded_into IS NOT NULL ORDER BY view_id"
            )
            by_type = dict(
                con.execute("SELECT type, count(*) FROM audit_units GROUP BY type ORDER BY min(unit_ord)").fetchall()
            )
            # "flagged": a decisive (not informational) flag, as everywhere
            flagged = store.scalar(
                "SELECT count(DISTINCT id) FROM (SELECT id, unnest(flags) AS f FROM audit_units) WHERE is_decisive(f)"
            )
            hidden = store.scalar("SELECT count(*) FROM audit_hidden_units")
            nav = con.execute(
                "SELECT CAST(to_json(n) AS VARCHAR), order_consistent FROM audit_nav_consistency AS n"
            ).fetchall()
            axe = store.rows("""SELECT (SELECT count(*) FROM audit_axe_runs) AS views_checked,
                (SELECT count(*) FROM audit_axe_runs WHERE error IS NOT NULL) AS views_failed,
                (SELECT count(*) FROM audit_axe_nodes) AS nodes,
                (SELECT count(*) FROM audit_units WHERE type = 'finding') AS rows,
                (SELECT max(engine) FROM audit_axe_runs) AS engine""")[0]
            axe["dedupe_ratio"] = round(axe["nodes"] / axe["rows"], 2) if axe["rows"] else None
            head = {
                "schema": "judgment-units/v1",
                "built_utc": utc_now(),
                "inventory_sha256": inventory_sha,
                "rulebook_sha256": store.rulebook_sha256,
                "jfi_version": __version__,
                "views_ok": views_ok,
                "views_skipped": skipped,
                **({"views_folded": folded} if folded else {}),
                **({"caps_hit": caps_hit} if caps_hit else {}),
                "viewport": header.get("viewport"),
                "caps": header.get("caps"),
                **({"viewports": header["viewports"]} if header.get("viewports") else {}),
                "unit_count": sum(by_type.values()),
                **({"axe": axe} if axe["views_checked"] else {}),
            }
            shas: dict[str, str] = {}
            # nothing is renamed into place before every file is written
            if head["unit_count"] > UNITS_PER_CHUNK:  # the batch lines sorted and every file's text joined: bulk work
                # DuckDB's threads share even when the inventory is small enough for the rules to run on one (at 1,000
                # views: 0.32 -> 0.22 s); a smaller build stays on one thread
                con.execute("RESET threads")
            with phase("build: writing batches and units"), AtomicFiles() as files:
                batches = _write_batches(con, folder, files, shas)
                with files.open(folder.units_path) as fh:  # one unit and one nav row per line
                    hashing = _Hashing(fh)
                    write_json_document(
                        hashing, head, {"units": _unit_chunks(con), "nav_consistency": [t for t, _ in nav]}
                    )
                shas[str(folder.units_path)] = hashing.sha.hexdigest()
                for stale in folder.batches.glob("*.jsonl"):  # batch files this build no longer makes
                    if not stale.name.endswith(".judged.jsonl") and stale.name not in batches:
                        files.remove(stale)
            # the header as a command reads it back from the file (the units aside)
            read_back = json.loads(json.dumps({**head, "nav_consistency": [json.loads(t) for t, _ in nav]}))
            # the kept store takes the written lines straight from this store, which is closed once they are in
            provided = Provided(read_back, shas, lambda: _written_lines(con, folder), files.placed, store.close)
            with phase("build: the kept store made, the decisions counted"):
                decisions, said = _keep_store(folder, provided)
        finally:
            store.close()
    report = Outcome(
        0,
        {
            "views_ok": views_ok,
            "skipped": skipped,
            **({"folded": folded} if folded else {}),
            **({"caps_hit": caps_hit} if caps_hit else {}),
            **({"decisions": decisions[0], "rows": decisions[1]} if decisions else {}),
            "unit_count": head["unit_count"],
            "by_type": by_type,
            "hidden_units": hidden,
            **({"axe": axe} if axe["views_checked"] else {}),
            "flagged": flagged,
            "nav_rows": len(nav),
            "nav_order_violations": sum(1 for _, ok in nav if not ok),
            "batches": batches,
            "rulebook_sha256": store.rulebook_sha256,
        },
        indent=1,
    )
    report.lines += said
    if decisions:
        report.notes.append(f"{decisions[0]} decision(s) settle {decisions[1]} row(s)")
    return report
