"""The store kept beside an audit (.jfi/audit.duckdb): every command after build gives the same bytes from it as
without it — when it is reused whole, when only some files changed, when it was deleted or is corrupt — and a
refused command leaves it (and every other file) as it was. On a conformance site's reference inventory."""

import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest
from conftest import Jfi, snapshot

from jfi.audit import folder as folder_module
from jfi.audit import kept
from jfi.canonical import decision_id, digest
from jfi.store import Store

SITE = "link-purpose-cards"
OUTPUTS = [
    "draft-judgments.csv",
    "draft-judgments-library.csv",
    "draft-judgments.json",
    "draft-judgments.xlsx",
    "nav-consistency.csv",
    "calibration.json",
    "worklist.csv",
    "worklist.md",
    "receipts.csv",
    "receipts.jsonl",
    "spot-check-sample.jsonl",
    "report.html",
]
STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


@pytest.fixture
def audit(conformance, tmp_path):
    """The site's reference manifest imported and built, every batch judged, one spot check, two ratifications."""
    jfi = Jfi(tmp_path)
    folder = tmp_path / "audit"
    manifest = conformance / "audit" / "reference" / SITE / "inventory-run.json"
    assert jfi("audit", "import-inventory", str(manifest), "--out", str(folder)).exit_code == 0
    assert jfi("audit", "build", "--inventory", str(folder), "--batch", "4").exit_code == 0
    units = json.loads((folder / "judgment-units.json").read_text())["units"]
    for batch in sorted((folder / "batches").glob("*.jsonl")):
        ids = [json.loads(x)["id"] for x in batch.read_text().splitlines()]
        batch.with_name(batch.name.replace(".jsonl", ".judged.jsonl")).write_text(
            "".join(
                json.dumps(
                    {
                        "id": uid,
                        "judgment": "no" if n % 3 == 0 else "yes",
                        "confidence": "high",
                        "rationale": "Says where it goes.",
                        "fix": "Name the destination." if n % 3 == 0 else "",
                        "needs_human": False,
                        "drafted_by": "judge-a",
                    }
                )
                + "\n"
                for n, uid in enumerate(ids)
            )
        )
    (folder / "spot-checks.jsonl").write_text(
        json.dumps({"id": units[1]["id"], "spot_check": "overturn", "judgment": "unsure", "note": "Ambiguous."}) + "\n"
    )
    records = []
    for unit, judgment in ((units[0], "yes"), (units[2], "no")):
        rec = {
            "id": unit["id"],
            "scope": "wcag",
            "ratified_by": "Ana Ruiz",
            "ratified_judgment": judgment,
            "ratifier_note": "Checked in the browser.",
            "ratified_utc": "2026-11-30T16:20:00Z",
            "ruling": "",
            "unit_sha256": digest(unit),
        }
        records.append(json.dumps({**rec, "decision_id": decision_id(rec)}) + "\n")
    (folder / "ratifications.jsonl").write_text("".join(records))
    return jfi, folder


def run_all(jfi: Jfi, folder) -> dict[str, bytes]:
    """Every command after build that reads the folder, and what it wrote (timestamps masked)."""
    for command in ("sample", "merge", "worklist", "receipts", "report"):
        r = jfi("audit", command, "--inventory", str(folder))
        assert r.exit_code == 0, (command, r.stderr)
    return {name: STAMP.sub(b"<time>", (folder / name).read_bytes()) for name in OUTPUTS if (folder / name).exists()}


def tables(path) -> dict[str, list]:
    """Every table of a kept store but its seal, rows sorted."""
    import duckdb

    con = duckdb.connect(str(path), read_only=True)
    try:
        names = [
            t
            for (t,) in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE NOT starts_with(table_name, 'jfi_kept')"
            ).fetchall()
        ]
        return {t: sorted(map(repr, con.execute(f"SELECT * FROM {t}").fetchall())) for t in names}
    finally:
        con.close()


def test_build_leaves_the_store_every_later_command_uses(conformance, tmp_path, monkeypatch):
    """build keeps the store itself (made from its own rows, not read back), so the first command after it loads
    nothing; the store equals one made from the files, table by table, and gives the same outputs."""
    jfi = Jfi(tmp_path)
    folder = tmp_path / "audit"
    manifest = conformance / "audit" / "reference" / SITE / "inventory-run.json"
    assert jfi("audit", "import-inventory", str(manifest), "--out", str(folder)).exit_code == 0
    assert jfi("audit", "build", "--inventory", str(folder), "--batch", "4").exit_code == 0
    left = tables(folder / ".jfi" / "audit.duckdb")

    def no_new_store(self):
        raise AssertionError("build left the store: the first command after it must reuse it")

    with monkeypatch.context() as m:
        m.setattr(kept.KeptStore, "new_store", no_new_store)
        r = jfi("audit", "merge", "--inventory", str(folder))
        assert r.exit_code == 0, r.stderr
    outputs = {name: STAMP.sub(b"<time>", (folder / name).read_bytes()) for name in OUTPUTS if (folder / name).exists()}
    shutil.rmtree(folder / ".jfi")
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert tables(folder / ".jfi" / "audit.duckdb") == left
    assert {name: STAMP.sub(b"<time>", (folder / name).read_bytes()) for name in outputs} == outputs
    assert text_compressions(folder / ".jfi" / "audit.duckdb") == {"ZSTD"}  # the kept lines' text, as either keeps it


def text_compressions(path) -> set[str]:
    """How the text of a kept store's lines is compressed on disk, segment by segment."""
    import duckdb

    con = duckdb.connect(str(path), read_only=True)
    try:
        return {
            c
            for (c,) in con.execute(
                "SELECT DISTINCT compression FROM pragma_storage_info('raw_lines') "
                "WHERE column_name = 'text' AND segment_type = 'VARCHAR'"
            ).fetchall()
        }
    finally:
        con.close()


def test_the_files_build_wrote_are_not_read_back_by_the_next_command(audit, monkeypatch):
    """build records the key of each file it put in place with the sha256 of the bytes it wrote, and the key of the
    inventory it read: the first command after the judged files came back hashes those, never the units, the batches
    or the inventory again."""
    import hashlib

    jfi, folder = audit
    read = []
    digest_of = hashlib.file_digest

    def spy(fh, name):
        read.append(Path(fh.name).name)
        return digest_of(fh, name)

    with monkeypatch.context() as m:
        m.setattr(hashlib, "file_digest", spy)
        r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    judged = {p.name for p in (folder / "batches").glob("*.judged.jsonl")}
    batches = {p.name for p in (folder / "batches").glob("*.jsonl")} - judged
    assert judged and batches and judged <= set(read)
    assert not (batches | {"judgment-units.json", "inventory.jsonl"}) & set(read), read
    # a store made without build (deleted here) learns the inventory's sha256 when the built units are checked against
    # it, and the command after reads it no more
    shutil.rmtree(folder / ".jfi")
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    (folder / "spot-checks.jsonl").write_text("")
    read.clear()
    with monkeypatch.context() as m:
        m.setattr(hashlib, "file_digest", spy)
        r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    assert read == ["spot-checks.jsonl"], read


def test_outputs_are_the_same_with_the_kept_store_reused_whole_or_deleted(audit, monkeypatch):
    jfi, folder = audit
    first = run_all(jfi, folder)  # builds the kept stores
    assert len(first) == len(OUTPUTS)
    assert (folder / ".jfi" / "audit.duckdb").is_file() and (folder / ".jfi" / "audit-inventory.duckdb").is_file()

    def no_new_store(self):
        raise AssertionError("inputs unchanged: the kept store must be reused, not rebuilt")

    with monkeypatch.context() as m:
        m.setattr(kept.KeptStore, "new_store", no_new_store)
        assert run_all(jfi, folder) == first
    shutil.rmtree(folder / ".jfi")
    assert run_all(jfi, folder) == first  # deleting it changes no output


def test_a_changed_input_takes_the_unchanged_files_from_the_kept_store(audit, monkeypatch):
    jfi, folder = audit
    run_all(jfi, folder)
    # a judge revises one batch, and a second spot check comes in
    judged = sorted((folder / "batches").glob("*.judged.jsonl"))[0]
    lines = judged.read_text().splitlines()
    lines[0] = json.dumps({**json.loads(lines[0]), "judgment": "unsure", "rationale": "Cannot tell from the page."})
    judged.write_text("\n".join(lines) + "\n")
    with open(folder / "spot-checks.jsonl", "a") as fh:
        fh.write(json.dumps({"id": json.loads(lines[1])["id"], "spot_check": "agree", "note": "Right."}) + "\n")
    taken = []
    original = kept.KeptStore.take

    def spy(self, source):
        if original(self, source):
            taken.append(str(source))
            return True
        return False

    with monkeypatch.context() as m:
        m.setattr(kept.KeptStore, "take", spy)
        partly = run_all(jfi, folder)
    assert str(folder / "judgment-units.json") in taken and str(judged) not in taken
    assert str(folder / "ratifications.jsonl") in taken  # the ledger, its digests and pins are not read again
    assert str(folder / "spot-checks.jsonl") not in taken
    assert any(name.endswith(".jsonl") and "batches" in name for name in taken)
    updated = {name: tables(folder / ".jfi" / name) for name in ("audit.duckdb", "audit-inventory.duckdb")}
    shutil.rmtree(folder / ".jfi")
    assert run_all(jfi, folder) == partly
    # the stores updated in place hold the rows stores made from nothing hold, table by table (the inventory's line
    # numbers included)
    assert {name: tables(folder / ".jfi" / name) for name in updated} == updated
    assert b"Cannot tell from the page." in partly["draft-judgments.csv"]


def test_a_changed_input_derives_again_only_the_tables_that_read_it(audit, monkeypatch):
    """A new ratification: the kept stores updated in place run again the rules whose tables read the ledger (the fact
    classes), not those of the inventory or of the rule metadata alone, nor any file making views only; the stores
    still hold, table by table, what stores made from nothing hold, and the outputs are the same."""
    jfi, folder = audit
    run_all(jfi, folder)
    with open(folder / "ratifications.jsonl", "a") as fh:
        fh.write(_ledger_record(folder, 3))
    ran = []
    original = Store._stale

    def spy(self, carried):
        out = original(self, carried)
        ran.append({f.rel for f in out if not f.input_layer})
        return out

    tails = []
    original_tail = folder_module.tail_columns

    def tail_spy(path, offset, lines_before, whole=None):
        tails.append((Path(path).name, lines_before))
        return original_tail(path, offset, lines_before, whole)

    with monkeypatch.context() as m:
        m.setattr(Store, "_stale", spy)
        m.setattr(folder_module, "tail_columns", tail_spy)
        partly = run_all(jfi, folder)
    assert len(ran) == 2  # the kept store and the report's (with the inventory), each updated once
    assert tails == [("ratifications.jsonl", 2)] * 2  # each store read the appended record alone, as line 3
    made_views_only = {
        f.rel
        for f in Store(sections=("audit",), needs=kept.NEEDS).files
        if not f.input_layer and not f.made and not f.adds
    }
    for files in ran:
        assert "audit/70_audit_worklist.sql" in files  # its fact classes read the ledger
        assert not files & {
            "audit/21_audit_elements.sql",
            "audit/40_audit_units.sql",
            "audit/38_audit_flag_rules.sql",
            "audit/65_audit_questions.sql",
            "audit/13_judged_field_specs.sql",
        }
        assert not files & made_views_only
    updated = {name: tables(folder / ".jfi" / name) for name in ("audit.duckdb", "audit-inventory.duckdb")}
    assert updated["audit-inventory.duckdb"]["audit_units"]  # the inventory's tables kept their rows
    shutil.rmtree(folder / ".jfi")
    assert run_all(jfi, folder) == partly
    assert {name: tables(folder / ".jfi" / name) for name in updated} == updated


def test_a_corrupt_or_foreign_kept_store_is_rebuilt_never_trusted(audit):
    jfi, folder = audit
    first = run_all(jfi, folder)
    store = folder / ".jfi" / "audit.duckdb"
    store.write_bytes(b"not a database at all" * 100)
    assert run_all(jfi, folder) == first
    assert store.read_bytes()[:100] != b"not a database at all" * 5
    # a valid DuckDB file under the name, but not this folder's store
    import duckdb

    store.unlink()
    con = duckdb.connect(str(store))
    con.execute("CREATE TABLE jfi_kept AS SELECT 'someone else' AS key, '{}' AS head, '' AS units_sha256")
    con.close()
    assert run_all(jfi, folder) == first


def test_a_kept_store_replaced_after_it_was_read_is_not_updated_in_place(audit, monkeypatch):
    """The store is checked when it is read, then copied for the update: a file put in its place between the two (a
    new inode, here one whose rows were edited) is not the store checked, and nothing is taken from it."""
    import duckdb

    jfi, folder = audit
    first = run_all(jfi, folder)
    store = folder / ".jfi" / "audit.duckdb"
    edited = folder / ".jfi" / "edited.duckdb"
    shutil.copyfile(store, edited)
    con = duckdb.connect(str(edited))
    con.execute("UPDATE raw_lines SET text = replace(text, 'Says where it goes.', 'Planted.')")
    con.execute(
        "UPDATE jsonl_records SET doc = CAST(replace(CAST(doc AS VARCHAR), 'Says where it goes.', 'Planted.') AS JSON)"
    )
    con.close()
    with open(folder / "spot-checks.jsonl", "a") as fh:  # a change, so that the store is copied and updated
        fh.write(
            json.dumps(
                {
                    "id": json.loads(first["spot-check-sample.jsonl"].splitlines()[0])["id"],
                    "spot_check": "agree",
                    "note": "Right.",
                }
            )
            + "\n"
        )
    read_before = kept.KeptStore._read_before

    def swap_after_reading(self):
        read_before(self)
        if self.path == store and edited.exists():
            edited.replace(store)

    with monkeypatch.context() as m:
        m.setattr(kept.KeptStore, "_read_before", swap_after_reading)
        r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    assert not edited.exists()
    csv = STAMP.sub(b"<time>", (folder / "draft-judgments.csv").read_bytes())
    assert b"Says where it goes." in csv and b"Planted." not in csv
    shutil.rmtree(folder / ".jfi")
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert STAMP.sub(b"<time>", (folder / "draft-judgments.csv").read_bytes()) == csv


def test_a_refused_command_leaves_the_folder_and_its_kept_store_byte_identical(audit):
    jfi, folder = audit
    run_all(jfi, folder)
    judged = sorted((folder / "batches").glob("*.judged.jsonl"))[0]
    judged.write_text(judged.read_text() + '{"id": "broken", \n')
    before = snapshot(folder)
    for command in ("merge", "sample", "worklist", "receipts", "report"):
        r = jfi("audit", command, "--inventory", str(folder))
        assert r.exit_code == 2 and "invalid_json" in r.stderr, (command, r.stderr)
        assert snapshot(folder) == before, command
    # the same refusal on a folder that never had a kept store writes none
    shutil.rmtree(folder / ".jfi")
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 2 and not (folder / ".jfi").exists()


def _rejudged(folder, round_no: int, every: int = 1) -> None:
    """The judged files come back with a new rationale (every one, or one in `every`, a different share each round)."""
    for judged in sorted((folder / "batches").glob("*.judged.jsonl"))[round_no % every :: every]:
        lines = [json.loads(x) for x in judged.read_text().splitlines()]
        judged.write_text(
            "".join(json.dumps({**d, "rationale": f"Read again, round {round_no}."}) + "\n" for d in lines)
        )


def _held_and_live(folder) -> tuple[int, int]:
    """(rows the kept store's tables hold, deleted ones included; rows not deleted)."""
    import duckdb

    con = duckdb.connect(str(folder / ".jfi" / "audit.duckdb"), read_only=True)
    try:
        names = [t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        held = con.execute("SELECT sum(estimated_size) FROM duckdb_tables()").fetchall()[0][0]
        return held, sum(con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in names)
    finally:
        con.close()


def test_rows_replaced_in_place_are_reclaimed_once_they_are_a_quarter_of_the_store(audit):
    """An update that only adds rows leaves the store's row groups as they are (no rewrite at the checkpoint); the
    rows replaced files leave behind stay until they are a quarter of the store's rows, then are reclaimed: a folder
    whose judged files come back again and again keeps a store of bounded size."""
    jfi, folder = audit
    assert jfi("audit", "sample", "--inventory", str(folder)).exit_code == 0
    held, live = _held_and_live(folder)
    assert held == live  # nothing was deleted: the judged files' rows were added
    left = []
    for n in range(1, 5):  # half the judged files at a time (all at once are past a quarter from the first round)
        _rejudged(folder, n, every=2)
        assert jfi("audit", "sample", "--inventory", str(folder)).exit_code == 0
        held, live = _held_and_live(folder)
        assert 4 * (held - live) <= held, n  # never past a quarter
        left.append(held - live)
    assert left[0] > 0  # the first round's replaced rows were left in place
    assert any(b < a for a, b in zip(left, left[1:])), left  # and reclaimed later


def _ledger_record(folder, n: int) -> str:
    """A ratification of the folder's nth unit, pinned, as a ledger line."""
    unit = json.loads((folder / "judgment-units.json").read_text())["units"][n]
    rec = {
        "id": unit["id"],
        "scope": "wcag",
        "ratified_by": "Bo Lind",
        "ratified_judgment": "no",
        "ratifier_note": "Vague.",
        "ratified_utc": "2026-11-30T17:00:00Z",
        "ruling": "",
        "unit_sha256": digest(unit),
    }
    return json.dumps({**rec, "decision_id": decision_id(rec)}) + "\n"


def test_a_ruling_checks_only_its_own_records_and_leaves_the_kept_store_holding_the_new_ledger(audit, monkeypatch):
    """`jfi audit rule` on a folder whose ledger the kept store holds: the ledger it would write is checked from the
    kept store, only the records it appends read (a bad one refused, the folder and the store byte-identical); once
    written, the next command finds the store matching every file and loads nothing, and every output is what a store
    made from nothing gives."""
    jfi, folder = audit
    run_all(jfi, folder)
    family = next(
        line.split(",")[1] for line in (folder / "worklist.csv").read_text().splitlines() if line.startswith("family,")
    )
    tails, loads = [], []
    original_tail, original_update = folder_module.tail_columns, kept.KeptStore._update_copy

    def tail_spy(path, offset, lines_before, whole=None):
        tails.append((Path(path).name, lines_before, whole is not None))
        return original_tail(path, offset, lines_before, whole)

    def update_spy(self, held):
        loads.append(self.path.name)
        return original_update(self, held)

    args = ("audit", "rule", "--inventory", str(folder), "--family", family, "--ruling", "R-1", "--sentence", "Fine.")
    before = snapshot(folder)
    with monkeypatch.context() as m:
        m.setattr(folder_module, "tail_columns", tail_spy)
        r = jfi(*args, "--by", "Ana Ruiz", "--judgment", "yes", "--utc", "yesterday")
        assert r.exit_code == 2 and "invalid_timestamp" in r.stderr, r.stderr
        assert snapshot(folder) == before  # the kept store too
        assert tails == [("ratifications.jsonl", 2, True)]  # the two records before it were not read again
        tails.clear()
        r = jfi(*args, "--by", "Ana Ruiz", "--judgment", "yes")
        assert r.exit_code == 0, r.stderr
        assert tails == [("ratifications.jsonl", 2, True)]
        m.setattr(kept.KeptStore, "_update_copy", update_spy)
        partly = run_all(jfi, folder)
    assert "audit.duckdb" not in loads  # the store the ruling kept holds the ledger it wrote
    ruled = tables(folder / ".jfi" / "audit.duckdb")
    shutil.rmtree(folder / ".jfi")
    assert run_all(jfi, folder) == partly
    assert tables(folder / ".jfi" / "audit.duckdb") == ruled  # its digests and pins as a load of the files makes them


@pytest.mark.parametrize("edit", ["a line before the records", "no newline after the last record"])
def test_a_ledger_changed_otherwise_than_by_appending_is_read_whole(audit, monkeypatch, edit):
    """Only a ledger that starts with every byte the kept store read, up to a line's end, has its new lines read
    alone; any other change (lines moved down, a ledger read before without its last newline) reads it whole, and the
    outputs are what a store made from nothing gives."""
    jfi, folder = audit
    ledger = folder / "ratifications.jsonl"
    if edit == "no newline after the last record":
        ledger.write_bytes(ledger.read_bytes().rstrip(b"\n"))
    run_all(jfi, folder)
    if edit == "a line before the records":
        ledger.write_text("\n" + ledger.read_text() + _ledger_record(folder, 3))
    else:
        ledger.write_text(ledger.read_text() + "\n" + _ledger_record(folder, 3))

    def tail_read(*args, **kwargs):
        raise AssertionError(f"the ledger was read from its tail: {args[1:]}")

    monkeypatch.setattr(folder_module, "tail_columns", tail_read)
    partly = run_all(jfi, folder)
    shutil.rmtree(folder / ".jfi")
    assert run_all(jfi, folder) == partly


def test_the_judged_checks_read_the_new_files_alone_unless_the_batches_changed(audit, tmp_path, monkeypatch):
    """A kept store updated for changed judged files checks those files alone (the others were sealed without a
    problem) and finds in them what a store made from nothing finds; when a batch changed instead, the judged files the
    store carries are checked again, whole, and their problems found."""
    jfi, folder = audit
    assert jfi("audit", "sample", "--inventory", str(folder)).exit_code == 0
    narrowed = []
    real = Store.new_rows_only

    def spied(self, tables):  # the checks' narrowing (the carried tables' derivation narrows too)
        if tables == folder_module.NEW_ROWS:
            narrowed.append(tables)
        return real(self, tables)

    monkeypatch.setattr(Store, "new_rows_only", spied)

    def refusal_from_nothing() -> str:
        aside = tmp_path / "aside"
        shutil.rmtree(aside, ignore_errors=True)
        shutil.copytree(folder, aside, ignore=shutil.ignore_patterns(".jfi"))
        r = jfi("audit", "sample", "--inventory", str(aside))
        assert r.exit_code == 2
        return r.stderr.replace(str(aside), str(folder))

    judged = sorted((folder / "batches").glob("*.judged.jsonl"))
    original = judged[1].read_bytes()
    lines = [json.loads(x) for x in original.decode().splitlines()]
    lines[0] = {**lines[0], "judgment": "yes", "fix": "Say more."}  # a fix on a yes
    judged[1].write_text("".join(json.dumps(d) + "\n" for d in lines[:-1]))  # and its batch's last line unjudged
    before = snapshot(folder)
    r = jfi("audit", "sample", "--inventory", str(folder))
    assert r.exit_code == 2 and "fix_on_yes" in r.stderr and "missing_judgment" in r.stderr
    assert narrowed, "only judged files changed: the check reads them alone"
    assert r.stderr == refusal_from_nothing() and snapshot(folder) == before
    # the judged file as it was, its batch changed instead: the judged file is carried, and checked again
    judged[1].write_bytes(original)
    batch = judged[2].with_name(judged[2].name.replace(".judged.jsonl", ".jsonl"))
    batch.write_text("\n".join(batch.read_text().splitlines()[1:]) + "\n")  # its first unit taken out
    narrowed.clear()
    r = jfi("audit", "sample", "--inventory", str(folder))
    assert r.exit_code == 2 and "unknown_id" in r.stderr and judged[2].name in r.stderr
    assert not narrowed and r.stderr == refusal_from_nothing()


@pytest.mark.parametrize("changed", [False, True], ids=["taken as it was", "copied and updated"])
def test_a_kept_store_with_a_damaged_block_is_made_anew(audit, changed):
    """The kept store is a cache written without waiting for the disk: a block a crash of the machine left torn fails
    DuckDB's checksum when read, and the command builds the store anew, whether it took the store as it was or copied
    it to take a changed file in; its outputs are those of a folder without a kept store."""
    jfi, folder = audit
    run_all(jfi, folder)
    if changed:
        unit = json.loads((folder / "judgment-units.json").read_text())["units"][3]
        with open(folder / "spot-checks.jsonl", "a") as fh:
            fh.write(json.dumps({"id": unit["id"], "spot_check": "agree"}) + "\n")
    aside = folder.parent / "aside" / folder.name
    shutil.copytree(folder, aside, ignore=shutil.ignore_patterns(".jfi"))
    expected = {k: v.replace(str(aside).encode(), b"<folder>") for k, v in run_all(jfi, aside).items()}
    store = folder / ".jfi" / "audit.duckdb"
    data = bytearray(store.read_bytes())
    for start in range(len(data) // 4, len(data) - 4096, len(data) // 8):  # zeros across the data blocks
        data[start : start + 4096] = bytes(4096)
    store.write_bytes(bytes(data))
    with pytest.raises(duckdb.Error):  # the damage is real: reading the store's rows fails
        tables(store)
    got = {k: v.replace(str(folder).encode(), b"<folder>") for k, v in run_all(jfi, folder).items()}
    assert got == expected
