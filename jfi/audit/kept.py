"""The store kept beside an audit folder (`.jfi/audit.duckdb`): what the commands after `build` load and derive
from the folder (built units, batches, judged files, ledger, spot checks, standards), kept in a DuckDB file.

It is keyed by the bytes of every input (and jfi's version, the rulebook, the folder's path): a command whose
inputs are unchanged opens it and runs no load and no rulebook; one whose inputs changed updates a copy of it: the
rows of every changed or vanished file are removed, each unchanged file's rows stay (its lines and what was derived
from them line by line: parsed records, the long form, the built units), only the changed files are read and
derived, then the rest of the rulebook runs. A file is known unchanged by the key the store recorded for it (path,
device, inode, size, mtime and ctime) and hashed again only when that key changed. A new store replaces the old only
when the command that made it succeeds, so a refused command leaves the folder as it was. Deleting `.jfi/` changes no
output; a store that cannot be opened, or whose key does not match, is rebuilt, never trusted. Any DuckDB client can open
it (`duckdb .jfi/audit.duckdb`).

A store is trusted only when it was made by jfi for this user: its key and the definitions of everything in it
(tables, views, macros: DuckDB's catalog) are sealed with a keyed hash (HMAC) whose key is a secret kept in the
user's state folder, never in the audit folder. A store from anyone else, or one edited with any DuckDB client, does
not match and is rebuilt; its SQL never runs. A reused store is opened with external access off. A `.jfi` or a
store that is a symlink, a folder or another special file is never used: the command runs without keeping a store
and says so.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import os
import re
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from .. import rulebook
from ..atomic import PRIVATE
from ..errors import JfiError
from ..jsonl import file_key, known_hashes, known_sha, sha256_file, sha256_with_prefix
from ..output import note
from ..paths import bytes_of, own_folder, regular_file
from ..store import CARRIED, SMALL_BLOCK, Store, of_inventory, sql_ident
from ..version import __version__

DIR = PRIVATE
FORMAT = "kept-store/2"
RAW_TABLES = ("raw_files", "raw_lines", "raw_json_problems")  # the rows of one input file, by its source path
TEMP_GLOB = ".*.tmp.duckdb*"
# files only ever appended to (the ledger): when the file read before is the start of the file now, its rows stay and
# only the lines after it are read (the ledger's records are parsed in Python for their digests and pins)
LEDGER = "ratifications.jsonl"
APPENDED_TO = (LEDGER,)
UNITS = "judgment-units.json"
INVENTORY_FILES = ("inventory.jsonl", "inventory-run.json")  # the inventory, in the form capture or import left it
# what the commands after build (sample, merge, worklist, receipts, report, rule, review) query: their store runs the
# rule files that make these and nothing else (the eval's views are for eval and queries)
NEEDS = (
    "audit_draft_rows",
    "audit_draft_csv",
    "audit_draft_tally",
    "audit_calibration",
    "audit_receipts",
    "audit_spot_check_sample",
    "audit_results",
    "audit_gate_findings",
    "audit_merge_summary",
    "audit_rule_metadata",
    "audit_judgments",
    "audit_built_units",
    "audit_worklist_families",
    "audit_worklist_facts",
    "audit_worklist_rows",
    "audit_fact_classes",
    "audit_flag_rules",
    "audit_unit_places",
    "audit_finding_examples",
    "audit_violations",
    "audit_standards_violations",
    "ratification_effective",
    "ratification_records",
    "ratification_violations",
    "ratification_import",
    "audit_questions",
    "audit_decisions",
)
# what a store kept with the inventory answers besides: the gate's check, and what the exports for other tools read
# (jfi.audit.formats: the pages' addresses, the ACT rules' outcomes, the ACR's rows)
WITH_INVENTORY = ("audit_units_drift", "audit_views", "audit_act_outcomes", "audit_act_requirements", "audit_acr")


@dataclass
class Keeping:
    """One command's dealings with the stores kept beside its folder: the new stores waiting to replace the old ones
    when it succeeds, the stores it took as they were (should reading one fail, the command runs again and builds it
    anew), and the stores that failed while read (never taken again by this command). `commits` begins one for each
    command on its folder (`AuditFolder.keeping`); a command that keeps a store beside its own writing (build) begins
    its own with `begun`."""

    pending: list["KeptStore"] = field(default_factory=list)
    reused: list[Path] = field(default_factory=list)
    distrusted: set[Path] = field(default_factory=set)

    def keep(self) -> None:
        """Replace the kept stores made so far by their new ones."""
        while self.pending:
            self.pending.pop().commit()

    def drop(self) -> None:
        """Remove the new stores made so far; the old ones stay as they were."""
        while self.pending:
            self.pending.pop().discard()


@contextlib.contextmanager
def begun(folder):
    """A command's own Keeping on `folder` for the block (`folder.keeping`; the one before it comes back after, so a
    command run inside another keeps its stores apart)."""
    before, folder.keeping = folder.keeping, Keeping()
    try:
        yield folder.keeping
    finally:
        folder.keeping = before


# DuckDB's catalog of one database: every object and its definition (read from metadata; no stored SQL runs). Every
# catalog function is named in DuckDB's own catalog (system.main): a store may hold table macros named duckdb_tables()
# and the like, which an unqualified call in that store runs instead, answering what the store was sealed with. Its
# functions apart: listing them lists DuckDB's three thousand built-in ones too (about 20 ms), and a store updated in
# place makes none, so its seal takes them from the store it was copied from
CATALOG = """
SELECT 'table' AS kind, schema_name, table_name AS name, sql AS definition
FROM system.main.duckdb_tables() WHERE database_name = $db
UNION ALL SELECT 'view', schema_name, view_name, sql
FROM system.main.duckdb_views() WHERE database_name = $db AND NOT internal
UNION ALL SELECT 'sequence', schema_name, sequence_name, sql
FROM system.main.duckdb_sequences() WHERE database_name = $db
UNION ALL SELECT 'index', schema_name, index_name, sql FROM system.main.duckdb_indexes() WHERE database_name = $db
UNION ALL SELECT 'type', schema_name, type_name, logical_type
FROM system.main.duckdb_types() WHERE database_name = $db AND NOT internal
ORDER BY ALL"""
FUNCTIONS = """
SELECT schema_name, function_name, function_type, macro_definition, CAST(parameters AS VARCHAR)
FROM system.main.duckdb_functions() WHERE database_name = $db AND NOT internal ORDER BY ALL"""
KEPT_TABLE = 'CREATE TABLE jfi_kept("key" VARCHAR, reader VARCHAR, head VARCHAR, units_sha256 VARCHAR, mac VARCHAR);'


def _secret() -> bytes | None:
    """This user's key for sealing kept stores ($XDG_STATE_HOME/jfi/kept-store.key, made on first use, readable by
    the user only); None when it cannot be had (then no store is ever reused)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    path = Path(base) / "jfi" / "kept-store.key"
    try:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(secrets.token_bytes(32))
            try:
                os.link(tmp, path)  # the first writer wins; the others read its key
            except FileExistsError:
                pass
            finally:
                tmp.unlink()
        data = path.read_bytes()
    except OSError:
        return None
    return data if len(data) >= 32 else None


def user_mac(data: bytes) -> str | None:
    """A keyed hash of these bytes under this user's secret (the kept store's): what jfi makes only when run by this
    user. None when the secret cannot be had."""
    secret = _secret()
    return hmac.new(secret, data, hashlib.sha256).hexdigest() if secret else None


def _mac(key: str, catalog: str) -> str | None:
    return user_mac(f"{key}\n{catalog}".encode())


def _functions(con, db: str) -> str:
    return hashlib.sha256(repr(con.execute(FUNCTIONS, {"db": db}).fetchall()).encode()).hexdigest()


# The digest of a store's functions is read from DuckDB's list of every function (about 3,000, built-ins included:
# 15 to 20 ms, whatever the store holds). This process remembers it for the kept stores it made (by the rule files
# that made them) and for the files it placed or checked (by file key: an edit gives a new ctime, a new file a new
# inode), so that one process running command after command (a notebook, the API) reads it once per store; and the
# command that puts a store in place notes it beside the store, sealed, for the next process (_note_functions).
_MADE_FUNCTIONS: dict[tuple, str] = {}  # (files_sha256, DuckDB version) of a store made anew -> its functions' digest
_SEEN_FUNCTIONS: dict[tuple, str] = {}  # file key of a kept store placed or checked -> the digest of its functions


def _note_of(path: Path) -> Path:
    return path.with_name(f"{path.name}.functions")


def _noted_functions(path: Path, key: tuple) -> str | None:
    """The digest of a kept store's functions noted beside it (`<store>.functions`) by the command that put it in
    place, for a new process: only when the store is still that very file (its file key) and the note is sealed with
    this user's key for the DuckDB running now; None otherwise (the functions are listed again)."""
    try:
        fd = os.open(_note_of(path), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as fh:
            noted = json.loads(fh.read(4096))
        found, version, functions, mac = noted["key"], noted["duckdb"], noted["functions"], noted["mac"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(found, list) or tuple(found) != key or version != duckdb.__version__:
        return None
    expected = user_mac(json.dumps([found, version, functions]).encode())
    return functions if expected and isinstance(mac, str) and hmac.compare_digest(mac, expected) else None


def _note_functions(path: Path, key: tuple, functions: str) -> None:
    """Note the digest of a store's functions beside the store just put in place, with its file key (a cache: written
    without waiting for the disk; a torn or foreign note is not read)."""
    key = list(key)
    mac = user_mac(json.dumps([key, duckdb.__version__, functions]).encode())
    if mac is None:
        return
    note_path = _note_of(path)
    tmp = note_path.with_name(f".{note_path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "w") as fh:
            json.dump({"key": key, "duckdb": duckdb.__version__, "functions": functions, "mac": mac}, fh)
        os.replace(tmp, note_path)  # a symlink planted at the note's name is replaced, never followed
    except OSError:
        tmp.unlink(missing_ok=True)


def _remember(key: tuple, functions: str) -> None:
    if len(_SEEN_FUNCTIONS) >= 1024:
        _SEEN_FUNCTIONS.clear()
    _SEEN_FUNCTIONS[key] = functions


def _catalog(con, db: str, functions: str) -> str:
    return hashlib.sha256(repr(con.execute(CATALOG, {"db": db}).fetchall()).encode()).hexdigest() + functions


def _files(con, db: str) -> str:
    """A digest of the store's list of input files (sources, sha256s, file keys): sealed with the catalog, so what it
    says about the folder's files is jfi's own record."""
    if not con.execute(
        "SELECT 1 FROM system.main.duckdb_tables() WHERE database_name = ? AND table_name = 'jfi_kept_files' AND "
        "schema_name = 'main'",
        [db],
    ).fetchall():
        return ""
    rows = con.execute(
        f"SELECT source, sha256, file_key, bytes FROM {sql_ident(db)}.main.jfi_kept_files ORDER BY ALL"
    ).fetchall()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def _row_counts(con) -> tuple[int, int]:
    """(rows the store's tables hold, deleted ones included; rows not deleted) of a store's own database."""
    sizes = con.execute(
        "SELECT table_name, estimated_size FROM system.main.duckdb_tables() "
        "WHERE database_name = system.main.current_database() AND schema_name = 'main'"
    ).fetchall()
    if not sizes:
        return 0, 0
    live = con.execute("SELECT " + " + ".join(f'(SELECT count(*) FROM main."{t}")' for t, _ in sizes)).fetchall()
    return sum(n for _, n in sizes), live[0][0]


def sealed(con, db: str, functions: str | None = None) -> tuple[str, str, str, str, str] | None:
    """(key, reader, head, units_sha256, digest of its functions) of a kept store attached as `db` when jfi sealed it
    for this user and nothing in it changed since; None otherwise. Its jfi_kept table is read only once the catalog
    shows it is the plain table jfi makes. `functions`: the digest of its functions, when known for this very file."""
    kept = con.execute(
        "SELECT sql FROM system.main.duckdb_tables() "
        "WHERE database_name = ? AND schema_name = 'main' AND table_name = 'jfi_kept'",
        [db],
    ).fetchall()
    if kept != [(KEPT_TABLE,)]:
        return None
    rows = con.execute(f"SELECT key, reader, head, units_sha256, mac FROM {sql_ident(db)}.main.jfi_kept").fetchall()
    if len(rows) != 1:
        return None
    key, reader, head, units_sha, mac = rows[0]
    functions = functions or _functions(con, db)
    expected = _mac(key or "", _catalog(con, db, functions) + _files(con, db))
    if expected is None or not isinstance(mac, str) or not hmac.compare_digest(mac, expected):
        return None
    return key, reader, head, units_sha, functions


def input_files(root: Path, inventory: bool) -> list[Path]:
    """Every file a command after `build` reads from the folder, present or not (a new file changes the key)."""
    batches = sorted((root / "batches").glob("*.jsonl"), key=str) if own_folder(root / "batches") else []
    return [
        *([root / name for name in INVENTORY_FILES] if inventory else []),
        root / "ratifications.jsonl",
        root / "judgment-units.json",
        root / "standards.jsonl",
        *batches,
        root / "spot-checks.jsonl",
    ]


# what the kept store holds every row of, as a load of the folder for a query would: the lines of these kinds of file,
# and the input tables made from them (the store kept with the inventory, for the report, holds it too)
KEPT_KINDS = frozenset({"unit", "batch", "judged", "ratification", "spot_check", "standard"})
KEPT_TABLES = frozenset({"ledger_digests", "unit_pins", "field_specs"})


def for_query(root: Path, needs: tuple[str, ...]) -> Store | None:
    """A store kept beside the folder, as it is, for a query of `needs` (opened with external access off, never
    written: close it with keep=False), when it matches the folder's files as they are, holds the rules making those
    objects, and those rules read only what it holds (not the merges' history or the last eval, which a query's own
    load adds; the inventory only from the store kept with it). None otherwise: the query loads the folder itself."""
    files = rulebook.in_use(rulebook.load()[0], ("audit",), None, needs)
    inputs = rulebook.inputs_read(files)  # each file's inputs through everything it reads, kinds kept
    read = set()
    for f in files:
        if named := f.creates & set(needs):  # an input table named itself (raw_inventory, eval_settings, ...) is read
            read |= {(name, None) for name in named} if f.input_layer else inputs[f.rel]
    inventory = any(map(of_inventory, read))  # the report's store, kept with the inventory
    kinds, tables = (
        (KEPT_KINDS | {"inventory"}, KEPT_TABLES | {"raw_inventory"}) if inventory else (KEPT_KINDS, KEPT_TABLES)
    )
    if not all(kind in kinds if table in rulebook.KINDED else table in tables for table, kind in read):
        return None
    return _kept_as_it_is(root, inventory, {f.rel for f in files})


def _kept_as_it_is(root: Path, inventory: bool, rules: set[str]) -> Store | None:
    """The store kept with (or without) the inventory, when it matches the folder's files and ran these rule files."""
    if not (root / DIR / ("audit-inventory.duckdb" if inventory else "audit.duckdb")).is_file():
        return None
    try:
        kept = KeptStore(root, inventory, Keeping())  # a query's, not a command's: nothing to rebuild should it fail
    except (JfiError, OSError):  # a file that cannot be read: the query's own load says which
        return None
    hit = kept.reuse()
    if hit is None:
        kept._close_opened()
        return None
    store = hit[0]
    if not rules <= {f.rel for f in store.files}:
        store.close(keep=False)
        return None
    return store


class KeptStore:
    """One folder's kept store for one kind of load (with or without the inventory)."""

    def __init__(
        self,
        root: Path,
        inventory: bool,
        keeping: Keeping,
        provided: "Provided | None" = None,
        ledger: bytes | None = None,
    ):
        """`keeping`: the running command's dealings with the folder's stores (what it reused, distrusts, will keep).
        `provided`: files a command just wrote (build), whose sha256s it gives and whose rows it puts in the store
        itself (`Provided.put`) instead of their being read. `ledger`: the ledger a command is about to write (checked
        in the store before it is written): the store holds these bytes as the folder's ledger."""
        self.provided, self.inventory, self.keeping, self.ledger = provided, inventory, keeping, ledger
        self.dir = root / DIR
        self.path = self.dir / ("audit-inventory.duckdb" if inventory else "audit.duckdb")
        # what read the files: rows are taken only from a store made by the same jfi with the same rules
        self.reader = json.dumps([FORMAT, __version__, Store.digest(("audit",), NEEDS), str(root)])
        self.temp: Path | None = None
        self.store: Store | None = None
        self.before: dict[str, str] = {}  # source -> sha256 of the files the old kept store holds
        self.before_bytes: dict[str, int] = {}  # source -> the size of those files, where it was recorded
        self.appended: dict[str, tuple[int, int]] = {}  # source -> (bytes, lines) of the file the old store holds,
        # for a file (APPENDED_TO) that starts with those bytes: its rows stay, the lines after them are read
        self.before_head: dict | None = None  # the old store's built-units header
        self.units_head: dict | None = None  # the header of the built units whose rows are in the store (taken)
        self.unchanged: set[str] = set()  # the files whose rows the store updated in place keeps
        self.taken: list[str] = []
        self.opened: tuple[Store, tuple] | None = None  # the old kept store, open until reused or closed
        self.before_key: tuple | None = None  # the old kept store's file key when it was read
        self.before_functions: str | None = None  # the digest of the old kept store's functions, when it was sealed
        self.functions: str | None = None  # the digest of the new store's functions, once sealed
        self.usable = self._usable()
        self.files = [p for p in input_files(root, inventory) if regular_file(p) or (ledger and p.name == LEDGER)]
        self.input_bytes = bytes_of(self.files)  # what the store's rows come from: its threads follow it
        # its blocks follow the capture's size, which the folder's other files grow from: the files build writes and
        # the judged files that come back later do not move a folder across the line, so its store is updated in place
        self.capture_bytes = bytes_of([root / name for name in INVENTORY_FILES]) or self.input_bytes
        self._read_before()
        try:
            self._hash_files(root, inventory)
        except BaseException:
            self.discard()
            raise
        self.key = hashlib.sha256(json.dumps([self.reader, inventory, sorted(self.shas.items())]).encode()).hexdigest()

    def _hash_files(self, root: Path, inventory: bool) -> None:
        self.shas, self.keys, self.sizes = {}, {}, {}
        for path in self.files:  # a file's key (and size) is recorded only when it did not change while it was hashed
            src = str(path)
            if self.provided is not None and src in self.provided.shas:  # hashed as they were written; their
                # key is recorded when they are still as they were put in place
                placed = self.provided.keys.get(src)
                self.shas[src] = self.provided.shas[src]
                self.keys[src] = json.dumps(placed) if placed and file_key(path) == placed else None
                continue
            if self.ledger is not None and path.name == LEDGER:  # the ledger about to be written, not the file (whose
                # key is recorded by the next command, once it is in place)
                data, n = memoryview(self.ledger), self.before_bytes.get(src) or 0
                sha = hashlib.sha256(data[:n])  # its start hashed once, for both digests
                head = sha.hexdigest()
                sha.update(data[n:])
                self.shas[src], self.keys[src], self.sizes[src] = sha.hexdigest(), None, len(data)
                if 0 < n < len(data) and data[n - 1] == ord("\n") and head == self.before[src]:
                    self.appended[src] = (n, self.ledger.count(b"\n", 0, n))
                continue
            if (known := known_sha(path)) is not None:  # not read: its key is the one its sha256 was recorded with
                self.shas[src], key = known
                self.keys[src], self.sizes[src] = json.dumps(key), key[3]
                continue
            before = file_key(path)
            if path.name in APPENDED_TO and self.before_bytes.get(src):  # read once: is it the file read before,
                # with lines appended?
                self.shas[src], size, head = sha256_with_prefix(path, self.before_bytes[src])
                if head is not None and head[0] == self.before[src]:
                    self.appended[src] = (self.before_bytes[src], head[1])
            else:
                self.shas[src], size = sha256_file(path), before[3]
            still = file_key(path) == before
            self.keys[src], self.sizes[src] = (json.dumps(before), size) if still else (None, None)
            if not still:
                self.appended.pop(src, None)

    def _store(self, path: Path | str = ":memory:", *, reopen: bool = False) -> Store:
        """A store of the rules the commands after build run (a new one, or the file at `path` reopened)."""
        return Store(
            path,
            sections=("audit",),
            reopen=reopen,
            needs=NEEDS + (WITH_INVENTORY if self.inventory else ()),
            inventory=self.inventory,
            small_blocks=Store.small(self.capture_bytes),
            cache=True,
        ).fit_threads(self.input_bytes)

    def _usable(self) -> bool:
        """Whether a store can be kept here: `.jfi` and the store are real, or absent. Otherwise the command runs
        without keeping one, and says so."""
        try:
            own_folder(self.dir)
            regular_file(self.path)
            return True
        except JfiError as e:
            note(
                f"jfi: {e.source}: {e.message.split(';')[0]}; the store kept in {DIR}/ is not used or replaced "
                f"(remove {self.dir} to keep one again)"
            )
            return False

    def _read_before(self) -> None:
        """What the old kept store, when jfi sealed it for this user with the same rules, says of the files it was
        made from: their sha256s (files whose key is unchanged are not hashed again) and the built units' header.
        The store stays open for `reuse` (opened once per command), or is closed by `new_store`."""
        if not self.usable or self.path in self.keeping.distrusted or not self.path.is_file():
            return
        try:
            self.before_key = file_key(self.path)  # a copy made while the file still has it holds what was read here
            store = self._store(self.path, reopen=True)
        except Exception:  # corrupt, another DuckDB version, or held by another process: build anew
            return
        try:  # its catalog read through DuckDB's own functions: nothing the file holds runs before it is found sealed
            db = store.database
            remembered = _SEEN_FUNCTIONS.get(self.before_key) or _noted_functions(self.path, self.before_key)
            found = sealed(store.con, db, remembered)
            still = file_key(self.path) == self.before_key
            if found is not None and remembered and not still:  # the file changed as it was opened: what this process
                found = sealed(store.con, db)  # remembered of it may not be what was read; read its functions
            if found is not None and still:
                _remember(self.before_key, found[4])
            if found is not None and found[1] == self.reader:
                rows = store.con.execute("SELECT source, sha256, file_key, bytes FROM jfi_kept_files").fetchall()
                known_hashes((json.loads(k), sha) for _, sha, k, _ in rows if k)
                self.before = {source: sha for source, sha, _, _ in rows}
                self.before_bytes = {source: n for source, _, _, n in rows if n is not None}
                self.before_head = json.loads(found[2])
                self.before_functions = found[4]
                self.opened = store, found
                return
        except Exception:
            self.before = {}
        store.close()

    def reuse(self) -> tuple[Store, dict, str] | None:
        """(store, the built units' header, their sha256) when the kept store matches the inputs and was sealed by
        jfi for this user. Anything else (absent, corrupt, edited, foreign, unreadable) is None: build anew."""
        if self.opened is None:
            return None
        store, found = self.opened
        if found[0] != self.key:
            return None
        store.con.execute("SET enable_external_access = false")  # whatever the file holds reads no other file
        self.opened = None
        self.keeping.reused.append(self.path)
        return store, self.before_head, found[3]

    def new_store(self) -> Store:
        """The store to load into, in a temp file beside the kept one: a copy of the old kept store when jfi sealed
        it with the same rules, the rows of every changed or vanished file removed from it (each unchanged file's
        rows stay, derived once); otherwise an empty one. Where no store can be kept, an in-memory one."""
        held, self.opened = (self.opened[0] if self.opened else None), None  # the old kept store, read before: its
        # file copied below, never reused as it is; its connection (one attached) is pointed at the copy
        try:
            return self._new_store(held)
        finally:
            if held is not None and held is not self.store:
                held.close()

    def _new_store(self, held: Store | None) -> Store:
        if not self.usable:
            self.store = self._store()
            return self.store
        self.dir.mkdir(exist_ok=True)
        for leftover in self.dir.glob(TEMP_GLOB):  # of a command killed before it finished (we hold the folder's lock);
            # this process's own are stores still open (a command may keep two, or one waiting to be kept)
            if regular_file(leftover) and f".{os.getpid()}-" not in leftover.name:
                leftover.unlink(missing_ok=True)
        self.temp = self.dir / f".{self.path.stem}.{os.getpid()}-{secrets.token_hex(4)}.tmp.duckdb"
        if self.before and self._update_copy(held):
            return self.store
        self.before, self.unchanged, self.appended = {}, set(), {}
        self.store = self._store(self.temp)
        return self.store

    def _update_copy(self, held: Store | None) -> bool:
        """The old kept store copied to the temp file and opened for an update (on `held`, the connection it was read
        on, when that one attached it: one DuckDB started per command, not two); False (nothing left behind) when the
        file changed since it was read and found sealed (its file key differs before or after the copy: a rename
        gives a new inode, a write in place a new ctime), so the copy holds the very bytes checked."""
        try:
            if file_key(self.path) != self.before_key:
                raise ValueError("not the store read before")
            if held is not None and held.attached:
                held.detach()  # let go before it is copied
            shutil.copyfile(self.path, self.temp)
            if file_key(self.path) != self.before_key:
                raise ValueError("not the store read before")
            if held is not None and held.attached:
                held.attach(self.temp)
                store = held
            else:
                store = self._store(self.temp, reopen=True)
        except Exception:
            self.temp.unlink(missing_ok=True)
            return False
        if (store.block_size() == SMALL_BLOCK) != Store.small(self.capture_bytes):
            # the folder's capture crossed SMALL_INPUT since the store was made: one made anew has the blocks that fit
            store.close(keep=False)
            self.temp.unlink(missing_ok=True)
            return False
        try:
            self.unchanged = {
                s
                for s, sha in self.before.items()
                if self.shas.get(s) == sha and not (self.provided and s in self.provided.shas)
            }
            if not any(s.endswith(UNITS) for s in self.unchanged):  # the ledger's pins are of the built units: with
                # units built anew, the ledger is read whole and pinned again
                self.unchanged = {s for s in self.unchanged if Path(s).name not in APPENDED_TO}
                self.appended = {}
            store.loading()
            con = store.con
            con.execute("DROP TABLE jfi_kept; DROP TABLE jfi_kept_files")
            # the rows of an unchanged file stay, and those of the lines a file had before lines were appended to it
            con.execute(
                "CREATE OR REPLACE TEMP TABLE jfi_unchanged AS SELECT unnest(?::VARCHAR[]) AS source",
                [[*sorted(self.unchanged), *sorted(self.appended)]],
            )
            store.removed_kinds = store.kinds_outside(sorted(self.unchanged))
            for table in store.with_source((*RAW_TABLES, "raw_inventory", "ledger_digests", *CARRIED)):
                con.execute(f"DELETE FROM {table} WHERE source NOT IN (SELECT source FROM jfi_unchanged)")
            if not any(Path(s).name in APPENDED_TO for s in [*self.unchanged, *self.appended]):
                con.execute("DELETE FROM unit_pins")  # made anew from a ledger read whole (those kept: units unchanged)
            if not any(s.endswith(UNITS) for s in self.unchanged):
                con.execute("DELETE FROM audit_built_units")
            con.execute("DROP TABLE temp.jfi_unchanged")
            # DuckDB's checkpoint vacuums: it rewrites the row groups an update appended to, with their neighbours
            # (about 0.5 s for each table of 500,000 rows that took new rows: new judged files in raw_lines and
            # jsonl_records), which reclaims space only where rows were deleted. While the rows deleted, by this
            # update and the ones before it, are under a quarter of the store's (DuckDB's own bar for merging row
            # groups), the row groups are left as they are; build makes the store anew, compact.
            held, live = _row_counts(con)
            if 4 * (held - live) < held:
                con.execute("SET max_vacuum_tasks = 0")
        except Exception:
            store.close()
            for path in self.dir.glob(f"{self.temp.name}*"):
                path.unlink(missing_ok=True)
            return False
        self.store = store
        return True

    def take(self, source: Path) -> bool:
        """Whether a file is unchanged since the old kept store: its rows are in the store already and it is not
        read; False when it must be read."""
        src = str(source)
        if self.provided is not None and src in self.provided.shas:
            self.provided.put(self.store)
            self.units_head = self.provided.head if src.endswith("judgment-units.json") else self.units_head
            return True
        if src not in self.unchanged:
            return False
        if src.endswith("judgment-units.json"):
            self.units_head = self.before_head
        self.taken.append(src)
        return True

    def tail(self, source: Path) -> tuple[int, int] | None:
        """(bytes, lines) of the start of a file the store holds the rows of, when the file is that start with lines
        appended: only the lines after it are read (numbered from lines + 1)."""
        return self.appended.get(str(source))

    def carried(self) -> list[str] | None:
        """The sources whose rows the store holds already, for Store.build to derive the others only."""
        return sorted(self.unchanged) if self.unchanged else None

    def carried_lines(self) -> dict[str, int]:
        """The sources whose first lines (up to the number) the store holds, lines having been appended to them."""
        return {source: lines for source, (_, lines) in self.appended.items()}

    def seal(self, head: dict, units_sha: str) -> None:
        """Record the key and the files it covers, once the store is built and its inputs passed every rule, sealed
        with this user's key over the key and the store's catalog; the store replaces the kept one when the command
        succeeds (`commits`)."""
        if not self.usable:
            return
        con = self.store.con
        con.execute(
            "CREATE TABLE jfi_kept AS SELECT ? AS key, ? AS reader, ? AS head, ? AS units_sha256, "
            "CAST(NULL AS VARCHAR) AS mac",
            [self.key, self.reader, json.dumps(head, ensure_ascii=False), units_sha],
        )
        # the files of the key; and the inventory, when this store does not load it and the command knew its sha256
        # (build read it, or the built units were checked against it): recorded beside them, outside the key, so that
        # the next command's check of the built units against it reads nothing
        files = {source: (sha, self.keys[source], self.sizes.get(source)) for source, sha in self.shas.items()}
        files.update(
            {
                str(path): (found[0], json.dumps(found[1]), found[1][3])
                for path in (self.dir.parent / n for n in INVENTORY_FILES)
                if str(path) not in files and (found := known_sha(path))
            }
        )
        con.execute(
            "CREATE TABLE jfi_kept_files AS SELECT unnest(?::VARCHAR[]) AS source, unnest(?::VARCHAR[]) AS sha256, "
            "unnest(?::VARCHAR[]) AS file_key, unnest(?::BIGINT[]) AS bytes",
            [list(files), *([f[i] for f in files.values()] for i in range(3))],
        )
        db = self.store.database
        # a store updated in place (self.before stays only then) has the functions of the store it was copied from:
        # no rule it runs makes one
        if self.before:
            functions = self.before_functions
        else:
            made = self.store.files_sha256, duckdb.__version__
            functions = _MADE_FUNCTIONS.get(made) or _MADE_FUNCTIONS.setdefault(made, _functions(con, db))
        self.functions = functions
        con.execute("UPDATE jfi_kept SET mac = ?", [_mac(self.key, _catalog(con, db, functions) + _files(con, db))])
        for earlier in [k for k in self.keeping.pending if k.path == self.path]:  # made before this one by the same
            self.keeping.pending.remove(earlier)  # command (a ledger checked after the folder was loaded): superseded
            earlier.discard()
        self.keeping.pending.append(self)

    def _close_opened(self) -> None:
        if self.opened is not None:
            self.opened[0].close()
            self.opened = None

    def discard(self) -> None:
        self._close_opened()
        if self.store is not None:
            self.store.close(keep=self.temp is None)  # the temp file and its log are deleted below
        for path in self.dir.glob(f"{self.temp.name}*") if self.temp else ():
            path.unlink(missing_ok=True)
        if self.usable and self.dir.is_dir() and not any(self.dir.iterdir()):
            self.dir.rmdir()

    def commit(self) -> None:
        self.store.close()  # checkpointed: the file holds everything, with no write-ahead log beside it
        Path(f"{self.path}.wal").unlink(missing_ok=True)  # a log of the old file must never replay onto the new
        os.replace(self.temp, self.path)
        placed = file_key(self.path)
        _remember(placed, self.functions)
        _note_functions(self.path, placed, self.functions)
        ignore = self.dir / ".gitignore"  # an audit folder kept in git never takes its store along
        if not os.path.lexists(ignore):  # a symlink planted there is never followed
            try:
                fd = os.open(ignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
            except FileExistsError:
                return
            with os.fdopen(fd, "w") as fh:
                fh.write("*\n")


class Provided:
    """The files `build` just wrote (the built units and the batches), with their sha256s and their lines, taken from
    the build's own store: the kept store is made from them without reading the files back."""

    def __init__(self, head: dict, shas: dict[str, str], lines, keys: dict[str, tuple] | None = None, done=None):
        """`lines`: gives a stream (an Arrow record batch reader) of every line written (kind, source, line, text),
        read once; `done`: called once they are in the store (build closes its own store then, before the kept store's
        rules run). `keys`: the file keys the files had when they were put in place (AtomicFiles.placed)."""
        self.head, self.shas, self.keys = head, shas, keys or {}
        self.lines, self.done = lines, done
        self.put_in: Store | None = None

    def put(self, store: Store) -> None:
        """Every written file's lines into the store, once (one insert for them all, a record batch at a time)."""
        if self.put_in is store:
            return
        self.put_in = store
        store.append(
            "raw_files",
            {
                "kind": ["unit" if s.endswith("judgment-units.json") else "batch" for s in self.shas],
                "source": list(self.shas),
                "round": [None] * len(self.shas),
                "present": [True] * len(self.shas),
            },
        )
        store.con.register("_jfi_provided", self.lines())
        try:
            store.con.execute("INSERT INTO raw_lines SELECT kind, source, NULL, line, text FROM _jfi_provided")
        finally:
            store.con.unregister("_jfi_provided")
        if self.done is not None:
            self.done()


REPORT_INPUTS = re.compile(rb'<meta name="jfi-inputs" content="([0-9a-f]{64})"')


def report_inputs(root: Path) -> str:
    """One digest of every file report.html shows (the built units, batches, judgments, spot checks, standards, the
    ledger and the screenshots its crops are cut from): a report carries the digest of the files it was written
    from."""
    files = [p for p in input_files(root, False) if regular_file(p)]
    shots = root / "screenshots"
    if shots.is_dir() and not shots.is_symlink():
        files += sorted(p for p in shots.iterdir() if p.suffix == ".png" and p.is_file() and not p.is_symlink())
    return hashlib.sha256(
        json.dumps(sorted((p.relative_to(root).as_posix(), sha256_file(p)) for p in files)).encode()
    ).hexdigest()


def stale_report(root: Path) -> bool:
    """Whether the folder's report.html was written from other files than the folder holds now."""
    report = root / "report.html"
    if not regular_file(report):
        return False
    with open(report, "rb") as fh:
        found = REPORT_INPUTS.search(fh.read(4096))
    return found is None or found[1].decode() != report_inputs(root)


def commits(command):
    """A command on an audit folder (its first argument) whose new kept store (if it built one) replaces the old only
    when it returns; a refusal or an error removes it, leaving the folder byte-identical. A kept store taken as it was
    that fails while read (a damaged block) is distrusted and the command runs once more, building it anew."""

    @functools.wraps(command)
    def wrapper(folder, *args, **kwargs):
        with begun(folder) as kept:
            for attempt in (1, 2):
                kept.reused.clear()
                try:
                    result = command(folder, *args, **kwargs)
                except BaseException as e:
                    kept.drop()
                    if attempt == 1 and kept.reused and isinstance(e, duckdb.Error):
                        note(
                            f"jfi: the store kept in {kept.reused[0].parent} could not be read "
                            f"({str(e).splitlines()[0][:120]}); building it anew"
                        )
                        kept.distrusted.update(kept.reused)
                        continue
                    raise
                kept.keep()
                break
        if stale_report(folder.root):  # any command on the folder says so, `report` itself never
            note(
                f"jfi: {folder.root / 'report.html'} shows the folder as it was before its files changed; "
                f"run `jfi audit report --inventory {folder.root}` again"
            )
        return result

    return wrapper
