"""A store's DuckDB threads follow the bytes of the files it reads: one thread below SMALL_INPUT (on small inputs a
second thread costs more than it brings), DuckDB's default above it. Build's own store, the kept store, a query's
store, a corpus store and a verify folder's store alike."""

import duckdb
import pytest
from inventories import link, made, view

from jfi import store as store_module
from jfi.audit.folder import AuditFolder
from jfi.corpus.project import CorpusProject
from jfi.verify.claims import VerifyFolder

VIEWS = [view("home", links=[link("Learn more", "/a")], title="Home"), view("fares", title="Fares")]
DEFAULT = duckdb.connect().execute("SELECT current_setting('threads')").fetchone()[0]


def threads(store) -> int:
    try:
        return store.scalar("SELECT current_setting('threads')")
    finally:
        store.close()


@pytest.mark.parametrize("small_input, expected", [(None, 1), (10, DEFAULT)])
def test_threads_follow_the_bytes_a_store_reads(tmp_path, monkeypatch, example, small_input, expected):
    if small_input is not None:  # the folder's files hold more than this: a large input
        monkeypatch.setattr(store_module, "SMALL_INPUT", small_input)
    copied = AuditFolder(made(tmp_path, VIEWS, ("build",)))  # its kept store names another folder: made anew
    assert threads(copied.store()[0]) == expected  # build's own store
    assert threads(copied.load()[0]) == expected
    in_place = AuditFolder(made(tmp_path, VIEWS, ("build",), in_place=True))
    assert threads(in_place.load()[0]) == expected and in_place.keeping.reused  # the kept store, taken as it is
    assert threads(copied.load_for_reading()[0]) == expected  # a query's store
    assert threads(CorpusProject.at(example.project).store()) == expected
    verify = VerifyFolder(tmp_path / "verify")
    verify.root.mkdir()
    verify.claims.write_text('{"x": 1}\n' * 4)
    assert threads(verify.store()) == expected


@pytest.mark.parametrize("small_input, expected", [(None, store_module.SMALL_BLOCK), (10, 262_144)])
def test_a_kept_store_of_small_inputs_is_a_file_of_small_blocks(tmp_path, monkeypatch, small_input, expected):
    """Every table takes a block at least: the kept stores of a small folder are made of SMALL_BLOCK blocks (a file a
    tenth of the size, written and flushed by every checkpoint), those of a large one of DuckDB's own."""
    if small_input is not None:
        monkeypatch.setattr(store_module, "SMALL_INPUT", small_input)
    views = [*VIEWS, view(f"blocks-{expected}")]  # a folder of this test's own: its kept store made under the patch
    folder = AuditFolder(made(tmp_path, views, ("build",), in_place=True))
    assert (folder.root / ".jfi" / "audit.duckdb").stat().st_size < 100 * expected  # not a block per table and more
    for store in (folder.load()[0], folder.load_with_inventory()[0]):  # the kept store and the one with the inventory
        try:
            assert (
                store.con.execute(
                    "SELECT block_size FROM pragma_database_size() WHERE database_name = current_database()"
                ).fetchone()[0]
                == expected
            )
        finally:
            store.close()


def _blocks(path) -> int:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute(
            "SELECT block_size FROM pragma_database_size() WHERE database_name = current_database()"
        ).fetchone()[0]
    finally:
        con.close()


def test_a_kept_store_whose_capture_crossed_the_line_is_made_anew_in_the_blocks_that_fit(tmp_path, monkeypatch):
    """An update in place copies the kept store, blocks and all: once the folder's capture is no longer small (or no
    longer large), the command makes the store anew instead, in the blocks a new one of that capture gets."""
    from conftest import Jfi

    folder = made(tmp_path, [*VIEWS, view("crossing")], ("build",), in_place=True)
    kept = folder / ".jfi" / "audit.duckdb"
    assert _blocks(kept) == store_module.SMALL_BLOCK
    (folder / "ratifications.jsonl").write_text("")  # a changed input: the next command updates the kept store
    assert Jfi(folder.parent)("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert _blocks(kept) == store_module.SMALL_BLOCK  # updated in place, as it was
    monkeypatch.setattr(store_module, "SMALL_INPUT", 10)  # the folder's inputs are now a large input
    (folder / "ratifications.jsonl").write_text("\n")
    assert Jfi(folder.parent)("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert _blocks(kept) == 262_144


def test_an_absent_file_a_symlink_and_a_folder_count_nothing(tmp_path):
    from jfi.paths import bytes_of

    (tmp_path / "a.jsonl").write_bytes(b"x" * 7)
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "a.jsonl")
    (tmp_path / "dir").mkdir()
    assert bytes_of([tmp_path / "a.jsonl", tmp_path / "link.jsonl", tmp_path / "dir", tmp_path / "none"]) == 7


def test_files_that_grow_from_a_small_capture_keep_its_kept_store_in_small_blocks_updated_in_place(
    tmp_path, monkeypatch
):
    """The blocks follow the capture's size, not the folder's other files: the units and batches build writes and the
    judged files that come back later hold more bytes than the inventory, yet the store built of a small capture stays
    in small blocks and is updated in place (made anew at each crossing, a 1,000-view sample took 1.6 s, not 0.9 s)."""
    from conftest import Jfi

    folder = made(tmp_path, [*VIEWS, view("growing")], ("build",), in_place=True)
    monkeypatch.setattr(store_module, "SMALL_INPUT", (folder / "inventory.jsonl").stat().st_size + 1)
    assert Jfi(folder.parent)("audit", "build", "--inventory", str(folder)).exit_code == 0  # made under the patch
    kept = folder / ".jfi" / "audit.duckdb"
    assert _blocks(kept) == store_module.SMALL_BLOCK
    grown = [folder / "judgment-units.json", *(folder / "batches").iterdir()]
    assert sum(p.stat().st_size for p in grown) > store_module.SMALL_INPUT  # the store's input files: past the line
    (folder / "ratifications.jsonl").write_text("")  # a changed input: the next command updates the kept store
    assert Jfi(folder.parent)("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert _blocks(kept) == store_module.SMALL_BLOCK
