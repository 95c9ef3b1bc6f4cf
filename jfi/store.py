"""DuckDB store: raw input tables, the rulebook's views over them, and helpers to read results."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import secrets
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb

from . import rulebook
from .errors import JfiError
from .jsonl import json_problems, line_columns
from .paths import regular_file
from .phases import phase
from .version import __version__


def sql_string(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def sql_ident(name: str) -> str:
    """A SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'


# Tables computed line by line from raw_lines: a row belongs to one input file, so a kept store updated in place keeps
# the rows of its unchanged files (and of the lines a file had before lines were appended to it) and derives only the
# others' (Store.build); the built units all come from the one judgment-units.json.
CARRIED = ("jsonl_records", "audit_built_units", "audit_batch_lines", "audit_judged_lines", "ratification_records")
# Input tables without a kind column, and the input kinds their rows come from (none: rows the rulebook itself adds,
# the same in every build). Any other input table without a kind column (jfi_run, ...) counts as changed in every build.
INPUT_KINDS = {
    "raw_inventory": ("inventory",),
    "ledger_digests": ("ratification",),
    "unit_pins": ("ratification", "unit"),
    "field_specs": (),
}
FLUSH_ROWS = 100_000  # the rows gathered in Python before they go into DuckDB
SCAN_ROWS = 16_384  # the rows of each record batch they go in as
# Fewer rows than this go in as DuckDB list parameters while pyarrow is not loaded yet: importing it (40-80 ms) costs
# more than Arrow saves on so few rows (each value of a list is converted on its own: 26,000 judged lines took 80 ms
# longer as lists than through Arrow, the import included)
LIST_ROWS = 5_000
# A store whose input files hold fewer bytes than this runs on one thread: on small inputs DuckDB's second thread
# costs more in scheduling than it brings (docs/choices.md, "One thread for small inputs")
SMALL_INPUT = 16 * 2**20
# A file of a store of small inputs is made of blocks of this size, not DuckDB's 256 kB: every table takes at least a
# block, so the kept store of five views (160 tables) was a 5 MB file, all of it written and flushed by its checkpoint
SMALL_BLOCK = 16_384
SMALL_ROW_GROUP = 16_384  # the rows of a row group of a store of small inputs (DuckDB's default: 122,880)


STORAGE_VERSION = "v1.4.0"  # the on-disk format of every .duckdb file jfi writes: DuckDB 1.4 LTS and newer read it


def spill_folder() -> Path:
    """A folder of its own for one store's spilled data, inside this process's private temp folder (`_spill_home`).
    DuckDB makes it only when it spills and removes it on close, so a process killed before spilling leaves nothing."""
    return _spill_home(tempfile.gettempdir()) / f"{os.getpid()}-{secrets.token_hex(6)}"


@functools.cache
def _spill_home(temp: str) -> Path:
    """The user's private `jfi-duckdb-<uid>` temp folder, checked once per process; where it is not this user's alone
    (made by someone else, a symlink, readable by others), a new private temp folder instead."""
    private = Path(temp) / f"jfi-duckdb-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    try:
        private.mkdir(mode=0o700)
    except OSError:
        pass
    try:
        info = os.lstat(private)
        uid = os.getuid() if hasattr(os, "getuid") else info.st_uid
        own = stat.S_ISDIR(info.st_mode) and not info.st_mode & 0o077 and info.st_uid == uid
    except OSError:
        own = False
    return private if own else Path(tempfile.mkdtemp(prefix="jfi-duckdb-", dir=temp))


def input_moved(table: str, kind: str | None, changed: set[str]) -> bool:
    """Whether an input a rule file reads (rulebook.inputs_read: table, kind) changed, when the input kinds in
    `changed` took rows anew or lost some (a kept store updated in place; jfi.audit.plan asks the same)."""
    if table in rulebook.KINDED:
        return bool(changed) if kind is None else kind in changed
    return table not in INPUT_KINDS or bool(changed & set(INPUT_KINDS[table]))


def of_inventory(pair: tuple) -> bool:
    """Whether an input a rule file reads (rulebook.inputs_read: table, kind) is the audit inventory."""
    return INPUT_KINDS.get(pair[0]) == ("inventory",) or pair[1] == "inventory"


def without_inventory(files: tuple) -> tuple:
    """The rule files without those whose every input is the audit inventory (the captured views and what derives
    from them): in a store that never holds one, their tables are empty. All of them stay when a file making tables
    from other inputs also reads the inventory (it needs the empty tables to exist)."""
    # what each file reads besides the rows the rulebook adds itself (field specs: the same in every store)
    inputs = {
        rel: [p for p in read if INPUT_KINDS.get(p[0]) != ()] for rel, read in rulebook.inputs_read(files).items()
    }
    left_out = {f.rel for f in files if not f.input_layer and inputs[f.rel] and all(map(of_inventory, inputs[f.rel]))}
    if any(f.rel not in left_out and (f.made or f.adds) and any(map(of_inventory, inputs[f.rel])) for f in files):
        return files
    return tuple(f for f in files if f.rel not in left_out)


_PLANS: dict[tuple, tuple] = {}  # what _plan found, by its arguments, for the rulebook it was found in


def _plan(
    sections, profile: str, needs: tuple[str, ...] | None, inventory: bool, *, whole: bool = True
) -> tuple[tuple, str, str]:
    """(the rule files a store runs, in order; rulebook_sha256; the sha256 of those files): a store's part of the
    rulebook, found once per process for each kind of store (the rulebook is read once too). `rulebook_sha256` is one
    hash for a workflow's whole rulebook (its sections and profile), whichever of its files a command runs: every
    output of one audit folder names the same rules. With whole=False, the third is the sha256 of the files alone
    (no profile: Store.digest)."""
    loaded = rulebook.load()[0]
    sections = tuple(sections) if sections is not None else None
    needs = tuple(needs) if needs is not None else None
    key = (sections, profile, needs, inventory, whole)
    found = _PLANS.get(key)
    if found is None or found[0] is not loaded:
        corpus = sections is None or "corpus" in sections
        named = profile if corpus and whole else None
        files = rulebook.in_use(loaded, sections, profile, needs)
        if not inventory:
            files = without_inventory(files)
        found = _PLANS[key] = (
            loaded,
            files,
            rulebook.digest_of(rulebook.in_use(loaded, sections, profile, None), named),
            rulebook.digest_of(files, named),
        )
    return found[1:]


# with JFI_PROFILE set, every rule file a store of this process ran and its seconds, in order (make bench's breakdown;
# the command line prints them)
RULE_TIMES: list[tuple[str, float]] = []


class Gathered:
    """A raw table's rows waiting in Python, column by column as they were appended. A text column holding one value
    in a whole append (the kind and source of a file's lines) is kept as that value and a count, and goes to DuckDB
    dictionary-encoded: a file's name is not made into an Arrow string once per line."""

    def __init__(self, names: list[str]):
        self.names, self.rows = names, 0
        self.chunks: dict[str, list] = {name: [] for name in names}

    def add(self, columns: dict[str, list]) -> None:
        n = len(next(iter(columns.values())))
        for name, values in columns.items():
            first = values[0]
            same = isinstance(first, str) and values.count(first) == n
            self.chunks[name].append((first, n) if same else list(values))
        self.rows += n

    def through_arrow(self) -> bool:
        """Whether the rows go to DuckDB as an Arrow table (many rows, or pyarrow loaded already) rather than as list
        parameters (LIST_ROWS)."""
        return self.rows >= LIST_ROWS or "pyarrow" in sys.modules

    def column(self, name: str) -> list:
        whole: list = []
        for c in self.chunks[name]:
            whole += [c[0]] * c[1] if isinstance(c, tuple) else c
        return whole

    def table(self):
        import pyarrow as pa  # only when many rows are loaded: a command on an unchanged kept store never needs it

        columns = {}
        for name, chunks in self.chunks.items():
            if all(isinstance(c, tuple) for c in chunks):
                values: dict[str, int] = {}
                indices: list[int] = []
                for value, n in chunks:
                    indices += [values.setdefault(value, len(values))] * n
                columns[name] = pa.DictionaryArray.from_arrays(pa.array(indices, pa.int32()), pa.array(list(values)))
            else:
                columns[name] = pa.array(self.column(name))
        # in record batches DuckDB scans in parallel (one batch of every row is scanned by one thread)
        table = pa.table(columns)
        return pa.Table.from_batches(table.to_batches(max_chunksize=SCAN_ROWS), schema=table.schema)


class Store:
    """One DuckDB database (in memory or a file) with the whole rulebook applied.

    The rulebook's input layer (input tables and macros) runs when the store opens; the rest derive from the loaded
    data and run in `build()`, once the inputs are in (tables they create are computed once per build, views stay
    live, bound when a query reads them).
    """

    def __init__(
        self,
        path: str | Path = ":memory:",
        sections: tuple[str, ...] | None = None,
        profile: str | None = None,
        *,
        reopen: bool = False,
        needs: tuple[str, ...] | None = None,
        inventory: bool = True,
        portable: bool = False,
        small_blocks: bool = False,
        cache: bool = False,
    ):
        """`sections`: the rulebook folders this store needs besides sql/core (corpus, audit, verify); all by default.
        `profile`: the corpus profile whose rule folders join the corpus core (round-v1 by default). A command builds
        only its own part of the rulebook; `rulebook_sha256` covers the whole rulebook of its sections (and the profile),
        the same for every command of a workflow, and `files_sha256` the files it ran.
        `needs`: the objects the command queries; only the rule files that make them (and what they read) run.
        `reopen`: the file at `path` is a store built before with the same sections (raises duckdb.Error when it
        cannot be opened); nothing is loaded or run again.
        `inventory=False`: the store never holds an audit inventory; the rule files deriving from it alone are left
        out (`without_inventory`): their tables would be empty, and DuckDB plans each query all the same.
        `small_blocks`: a store of small inputs: its row groups hold SMALL_ROW_GROUP rows, and a new file is made of
        SMALL_BLOCK blocks.
        `cache`: the file is a cache jfi can always make again (a kept store): written without waiting for the disk
        (no fsync); a file a crash of the machine left torn fails DuckDB's block checksums and is made anew."""
        # a store made for people (`portable`: an exported jfi.duckdb) is one any DuckDB 1.x client opens (DuckDB 2's
        # own format needs DuckDB 2); the stores jfi keeps for itself stay in the format of the DuckDB it runs
        config = {}
        if portable and str(path) != ":memory:":
            config["storage_compatibility_version"] = STORAGE_VERSION
        self.attached = small_blocks and str(path) != ":memory:"  # its file attached as `kept` (detach, attach)
        if self.attached:
            # a store of small inputs is attached with small row groups (DuckDB's threads share a table's rows by row
            # group: 26,000 judged lines in one group of DuckDB's 122,880 were read on one thread; sample at 1,000
            # views 0.92 -> 0.85 s), and a new file made of small blocks (one opened again keeps its own). A large
            # store is opened as it was: attached, it spilled more slowly under a memory limit (sample and merge at
            # 10,000 views under 500 MB, 6-8% slower)
            self.con = duckdb.connect(":memory:", config=config)
            self.attach(path, new=not reopen)
        else:
            self.con = duckdb.connect(str(path), config=config)
        # the database the store's tables are in (asked once: 0.5 ms a question in a kept store)
        self.database: str = self.scalar("SELECT system.main.current_database()")
        # DuckDB spills what exceeds its memory limit to a temp folder of this store (its default, .tmp, would land
        # in the user's working directory); JFI_MEMORY_LIMIT (DuckDB's syntax, e.g. 2GB) lowers the limit.
        self.con.execute(f"SET temp_directory = {sql_string(str(spill_folder()))}")
        # no automatic checkpoints compressing tables mid-build: a file-backed store is checkpointed once, on close
        self.con.execute("SET checkpoint_threshold = '1TB'")
        if str(path) != ":memory:" and not portable:  # a store jfi keeps: its text compressed with zstd (the lines
            # and JSON it holds; numbers keep DuckDB's own), a quarter of the size and quicker to write (docs/choices.md)
            self.con.execute("SET force_compression = 'zstd'")
        if cache:
            self.con.execute("SET fsync_mode = 'none'")
        if limit := os.environ.get("JFI_MEMORY_LIMIT"):
            try:
                self.con.execute(f"SET memory_limit = {sql_string(limit)}")
            except duckdb.Error as e:
                self.close()
                raise JfiError(
                    "invalid_memory_limit",
                    f"JFI_MEMORY_LIMIT={limit!r} is not a DuckDB memory size "
                    f"such as 2GB or 512MB ({str(e).splitlines()[0]})",
                ) from None
        self._pending: dict[str, Gathered] = {}
        self.removed_kinds: set[str] = set()  # input kinds a kept store updated in place lost rows of (its keeper says)
        self._changed: set[str] | None = None  # the input kinds a kept store updated in place took anew (None: all)
        self._inputs: dict | None = None  # each rule file's inputs (rulebook.inputs_read), when first asked for
        self._ran: set[str] = set()  # the rule files a check ran before the build (`rows_before_build`)
        self._built = reopen
        self.profile = profile or rulebook.DEFAULT_PROFILE
        corpus = sections is None or "corpus" in sections
        self.files, self.rulebook_sha256, self.files_sha256 = _plan(sections, self.profile, needs, inventory)
        if reopen:
            return
        for f in self.files:
            if f.input_layer:
                self.con.execute(f.sql)
        self.con.execute(
            "INSERT INTO jfi_run VALUES (?, ?, NULL, 90, '', ?)",
            [__version__, self.rulebook_sha256, self.profile if corpus else None],
        )

    @staticmethod
    def digest(sections: tuple[str, ...], needs: tuple[str, ...] | None = None) -> str:
        """The rulebook_sha256 of a store of these sections (without the corpus), without opening one."""
        return _plan(tuple(sections), rulebook.DEFAULT_PROFILE, needs, True, whole=False)[2]

    def build(self, carried: list[str] | None = None, appended: dict[str, int] | None = None) -> "Store":
        """Run the rulebook over the loaded inputs.

        `carried`: the sources whose rows the store holds already, the CARRIED tables' derived rows included (a kept
        store updated in place). Those tables are then derived for the other sources only and added to; of the other
        rules, only those making tables from an input that changed run again (`_stale`). `appended`: sources (not
        carried) whose lines up to this number the store holds with their CARRIED rows: only their later lines are
        derived."""
        self._flush()
        self._built = True
        run = [f for f in (self.files if not carried else self._stale(carried)) if f.rel not in self._ran]
        if carried:
            appended = appended or {}
            self.con.execute(
                "CREATE OR REPLACE TEMP TABLE jfi_carried AS SELECT unnest(?::VARCHAR[]) AS source, "
                "unnest(?::INTEGER[]) AS upto",
                [[*carried, *appended], [None] * len(carried) + list(appended.values())],
            )
            added = sorted({t for f in run if not f.input_layer for t in f.adds})
            sourced = set(self.with_source(added))
            for table in (t for t in added if t not in sourced):  # rows the rulebook adds (field specs): added anew
                self.con.execute(f"DELETE FROM {table}")  # below
        self._run(run, carried)
        return self

    def rows_before_build(self, view: str) -> list[dict]:
        """The rows of `view` (a check whose rows refuse the inputs) with only the rule files making it, and what it
        reads, run: a refused command pays for its check, not for the rest of the rulebook; `build()` then runs the
        other files."""
        self._flush()
        first = [f for f in rulebook.closure(list(self.files), (view,)) if f.rel not in self._ran]
        self._run(first)
        self._ran |= {f.rel for f in first}
        return self.rows(f"SELECT * FROM {view}")

    def _run(self, files: list, carried: list[str] | None = None) -> None:
        timed = bool(os.environ.get("JFI_PROFILE"))  # each rule file's time, for the command line to say
        for f in files:
            if f.input_layer:
                continue
            start = time.perf_counter()
            if carried and f.creates & set(CARRIED):
                self._add_to_carried(f)
            else:
                self.con.execute(f.sql)
            if timed:
                RULE_TIMES.append((f.rel, time.perf_counter() - start))

    def _stale(self, carried: list[str]) -> list:
        """The rule files a kept store updated in place runs again: those making tables or adding rows from an input
        kind that changed: rows of a source loaded now or removed (a file making CARRIED tables derives the lines of
        the sources not carried). A file making only views runs no more (its views are in the store, bound when read),
        nor one whose tables come from unchanged inputs only (their rows are in the store)."""
        self._changed = self.removed_kinds | self.kinds_outside(carried)
        return [f for f in self.files if f.input_layer or ((f.made or f.adds) and self._moved(f))]

    def reads_inventory(self) -> bool:
        """Whether a rule file this store runs takes rows from the audit inventory (the captured views)."""
        if self._inputs is None:
            self._inputs = rulebook.inputs_read(self.files)
        return any(of_inventory(pair) for f in self.files if not f.input_layer for pair in self._inputs[f.rel])

    def kinds_outside(self, sources: list[str]) -> set[str]:
        """The input kinds of the rows of every source but these ('inventory' for the inventory read whole)."""
        return {
            k
            for (k,) in self.con.execute(
                "SELECT kind FROM raw_files WHERE source NOT IN (SELECT unnest(?::VARCHAR[])) UNION "
                "SELECT kind FROM raw_lines WHERE source NOT IN (SELECT unnest(?::VARCHAR[])) UNION "
                "SELECT 'inventory' FROM raw_inventory WHERE source NOT IN (SELECT unnest(?::VARCHAR[]))",
                [sources] * 3,
            ).fetchall()
        }

    def kinds_present(self) -> set[str]:
        """The kinds of the input files the store holds rows of (a file read, whatever its lines)."""
        self._flush()
        return {k for (k,) in self.con.execute("SELECT DISTINCT kind FROM raw_files").fetchall()}

    def _moved(self, f, besides: tuple[str, ...] = ()) -> bool:
        """Whether an input a rule file's rows come from changed in this build (always, in a build from nothing);
        `besides`: an input of another kind than these."""
        if self._changed is None:
            return True
        if self._inputs is None:
            self._inputs = rulebook.inputs_read(self.files)
        return any(input_moved(t, k, self._changed) for t, k in self._inputs[f.rel] if k is None or k not in besides)

    def may_differ(self, name: str, besides: tuple[str, ...] = ()) -> bool:
        """Whether an object's rows may differ from those of the kept store this one updated in place: some input it
        reads changed (always true of a store built from nothing). A rule's violations from unchanged inputs are the
        ones the kept store was sealed with: none. `besides`: some input other than the rows of these kinds."""
        return any(self._moved(f, besides) for f in self.files if name in f.creates)

    def carries(self, kinds: tuple[str, ...]) -> bool:
        """Whether this store, a kept store updated in place, carries the rows of a file of these kinds."""
        return self._changed is not None and bool(
            self.scalar(
                "SELECT count(*) FROM raw_files WHERE kind IN (SELECT unnest(?::VARCHAR[])) "
                "AND source IN (SELECT source FROM jfi_carried)",
                [list(kinds)],
            )
        )

    @contextlib.contextmanager
    def new_rows_only(self, tables: tuple[str, ...]):
        """While inside, these tables (those the store holds, with a source column) show only the rows of the sources a
        kept store updated in place did not carry, and of a source appended to only its new lines: temp views of the
        same names shadow them."""
        db = self.database
        columns = {t: self.columns_of(t) for t in tables}
        shadows = [t for t in tables if "source" in columns[t]]
        for table in shadows:  # every line of a carried source, and the first lines of one appended to, left out
            shown = "t.line > c.upto" if "line" in columns[table] else "c.upto IS NOT NULL"
            self.con.execute(
                f"CREATE OR REPLACE TEMP VIEW {table} AS SELECT t.* FROM {sql_ident(db)}.main.{table} AS t "
                f"LEFT JOIN jfi_carried AS c ON c.source = t.source WHERE c.source IS NULL OR {shown}"
            )
        try:
            yield
        finally:
            for table in shadows:
                self.con.execute(f"DROP VIEW temp.{table}")

    def _add_to_carried(self, f) -> None:
        """Run a file making CARRIED tables over the lines of the sources not carried (raw_lines and the other
        carried tables seen through temp views of those sources only), its rows inserted into the kept tables (not
        made in a temp table first and copied: the rule files of a sample after 260,000 judged lines 0.84 -> 0.75 s)."""
        db, present = self.database, self.tables()
        made = [t for t in CARRIED if t in f.creates and t in present]
        sql = f.sql
        for table in made:  # the new rows go straight into the kept table
            sql, n = re.subn(
                rf"\bCREATE OR REPLACE TABLE {table} AS\b", f"INSERT INTO {sql_ident(db)}.main.{table}", sql
            )
            if n != 1:
                raise ValueError(f"{f.rel}: expected one CREATE OR REPLACE TABLE {table} AS")
        with self.new_rows_only(tuple(t for t in ("raw_lines", *CARRIED) if t not in f.creates)):
            self.con.execute(sql)

    def tables(self) -> set[str]:
        """The tables of the store's own database."""
        return {
            t
            for (t,) in self.con.execute(
                "SELECT table_name FROM system.main.duckdb_tables() WHERE database_name = ? AND schema_name = 'main'",
                [self.database],
            ).fetchall()
        }

    def has_source(self, table: str) -> bool:
        """Whether a table of the store has a source column (its rows belong to input files)."""
        return "source" in self.columns_of(table)

    def with_source(self, tables) -> list[str]:
        """Those of these tables (or views) that have a source column, in their order: the store's tables asked in one
        statement (each asked alone took about half a millisecond, twenty of them a command)."""
        db, present = self.database, self.tables()
        tables = list(dict.fromkeys(tables))
        asked = [t for t in tables if t in present]
        found = (
            {
                t
                for (t,) in self.con.execute(
                    " UNION ALL ".join(
                        f"SELECT {sql_string(t)} FROM system.main.pragma_table_info("
                        f"{sql_string(f'{sql_ident(db)}.main.{sql_ident(t)}')}) WHERE name = 'source'"
                        for t in asked
                    )
                ).fetchall()
            }
            if asked
            else set()
        )
        return [t for t in tables if (t in found if t in present else self.has_source(t))]

    def columns_of(self, table: str) -> set[str]:
        """The columns of a table (or view) of the store's own database, none when it holds no such object: asked of
        that one object (duckdb_columns() lists every view's columns, 20-50 ms a call in a kept store)."""
        return set(self.column_types(table))

    def column_types(self, table: str) -> dict[str, str]:
        """The columns of a table (or view) of the store's own database and their types (as columns_of)."""
        db = self.database
        try:
            return dict(
                self.con.execute(
                    "SELECT name, type FROM "
                    f"system.main.pragma_table_info({sql_string(f'{sql_ident(db)}.main.{sql_ident(table)}')})"
                ).fetchall()
            )
        except duckdb.CatalogException:
            return {}

    def detach(self) -> None:
        """An attached store's file let go (it was only read): the connection stays, its settings kept, for `attach`."""
        self.con.execute("USE memory")
        self.con.execute("DETACH kept")

    def attach(self, path, *, new: bool = False) -> None:
        """A store's file attached as `kept` with small row groups (`new`: a file made now, of small blocks; one opened
        again keeps its own): when the store opens, or in place of the one let go (`detach`), a kept store's copy on
        the connection its original was read on."""
        options = f"ROW_GROUP_SIZE {SMALL_ROW_GROUP}" + (f", BLOCK_SIZE {SMALL_BLOCK}" if new else "")
        self.con.execute(f"ATTACH {sql_string(str(path))} AS kept ({options})")
        self.con.execute("USE kept")

    def loading(self) -> "Store":
        """A reopened store takes inputs again until `build()` (a kept store updated in place)."""
        self._built = False
        return self

    def meanings(self) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
        """The meaning of each object of this store's rule files and of each of its columns, from their headers (a
        later file's word on an object or column replaces an earlier one's, as a later comment would)."""
        objects: dict[str, str] = {}
        columns: dict[str, dict[str, str]] = {}
        for f in self.files:
            objects.update(f.objects)
            for name, cols in f.columns.items():
                columns.setdefault(name, {}).update(cols)
        return objects, columns

    def describe(self, columns: bool = True) -> "Store":
        """Header meanings become DuckDB comments, so any DuckDB client sees them (duckdb_views(), duckdb_columns()).
        Done for stores people read (queries, the schema, the exported jfi.duckdb), not for one a command only
        writes files from. `columns=False`: the objects' meanings only (a comment on each of a thousand columns costs
        most of a second; a query that cannot see them goes without)."""
        kinds = dict(
            self.con.execute(
                "SELECT table_name, CASE table_type WHEN 'VIEW' THEN 'VIEW' ELSE 'TABLE' END FROM information_schema.tables"
            ).fetchall()
        )
        return self.comment(kinds, columns=columns)

    def comment(self, kinds: dict[str, str], *, columns: bool = True, within: str = "") -> "Store":
        """The meanings of the objects named (name -> TABLE or VIEW) and of their columns, from the rule files'
        headers, as DuckDB comments on them in this store, or `within` a database attached under that name; in one
        transaction (each statement alone would be a commit of its own)."""
        objects, object_columns = self.meanings()
        at = f"{within}." if within else ""
        statements = [
            f"COMMENT ON {kinds[name]} {at}{name} IS {sql_string(m)}" for name, m in objects.items() if name in kinds
        ]
        # a table macro's columns have nothing to hold a comment
        for name, cols in object_columns.items() if columns else ():
            statements += [
                f"COMMENT ON COLUMN {at}{name}.{col} IS {sql_string(m)}" for col, m in cols.items() if name in kinds
            ]
        if statements:
            self.con.execute("BEGIN TRANSACTION")
            try:
                self.con.execute(";\n".join(statements))
            except BaseException:
                self.con.execute("ROLLBACK")
                raise
            self.con.execute("COMMIT")
        return self

    def pin(self, view: str) -> None:
        """Compute a view once for the rest of this connection: a temp table of the same name shadows it, so every
        view that reads it (and every query) reads the rows computed now. For a command reading one costly view
        several times; the store's own view is untouched."""
        self.con.execute(f"CREATE OR REPLACE TEMP TABLE {view} AS SELECT * FROM main.{view}")

    def block_size(self) -> int:
        """The size of this store's blocks (DuckDB's default, or SMALL_BLOCK for a file of small inputs)."""
        return self.scalar(
            "SELECT block_size FROM system.main.pragma_database_size() WHERE database_name = system.main.current_database()"
        )

    @staticmethod
    def small(input_bytes: int) -> bool:
        """Whether input files of this many bytes are a small input (SMALL_INPUT)."""
        return input_bytes < SMALL_INPUT

    def fit_threads(self, input_bytes: int) -> "Store":
        """One thread for a store whose input files hold fewer than SMALL_INPUT bytes, DuckDB's default otherwise."""
        self.con.execute("SET threads = 1" if self.small(input_bytes) else "RESET threads")
        return self

    def set_goal(self, goal: int) -> None:
        self.con.execute("UPDATE jfi_run SET goal = ?", [goal])

    def set_batch_size(self, size: int) -> None:
        self.con.execute("UPDATE jfi_run SET batch_size = ?", [size])

    def set_sample_seed(self, seed: str) -> None:
        self.con.execute("UPDATE jfi_run SET sample_seed = ?", [seed])

    def append(self, table: str, columns: dict[str, list]) -> None:
        """Bulk-append parallel column lists to a raw table. Before `build()` the rows are gathered and go in with
        one insert per table (through Arrow, not row by row) when the build starts or FLUSH_ROWS rows wait (what
        Python holds stays bounded, whatever the size of the folder); after it, at once."""
        if not columns or not len(next(iter(columns.values()))):
            return
        pending = self._pending.setdefault(table, Gathered(list(columns)))
        if pending.names != list(columns):
            raise ValueError(f"append to {table}: columns {list(columns)} differ from {pending.names}")
        pending.add(columns)
        if self._built or pending.rows >= FLUSH_ROWS:
            self._flush()

    def _flush(self) -> None:
        for table, pending in self._pending.items():
            types = {} if pending.through_arrow() else self.column_types(table)
            arrow = not set(pending.names) <= set(types)
            if arrow:
                self.con.register("_jfi_batch", pending.table())
            else:  # a temp table of the lists, each cast to its column's type
                self.con.execute(
                    "CREATE TEMP TABLE _jfi_batch AS SELECT "
                    + ", ".join(f"unnest(?::{types[n]}[]) AS {sql_ident(n)}" for n in pending.names),
                    [pending.column(n) for n in pending.names],
                )
            try:
                names = ", ".join(pending.names)
                self.con.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM _jfi_batch")
                if table == "raw_lines":
                    self._screen()
            finally:
                if arrow:
                    self.con.unregister("_jfi_batch")
                else:
                    self.con.execute("DROP TABLE temp._jfi_batch")
        self._pending = {}

    def _screen(self) -> None:
        """raw_json_problems for the lines just added: the lines DuckDB alone shows to be strict JSON
        (plainly_strict_json) pass; every other line is read by the strict line reader, which names its problem."""
        doubtful = self.con.execute(
            "SELECT kind, source, line, text FROM _jfi_batch WHERE NOT coalesce(plainly_strict_json(text), false)"
        ).fetchall()
        problems = [(kind, p) for kind, source, line, text in doubtful for p in json_problems(source, [line], [text])]
        if problems:
            import pyarrow as pa

            self.con.register(
                "_jfi_problems",
                pa.table(
                    {
                        "kind": [k for k, _ in problems],
                        "source": [p["source"] for _, p in problems],
                        "line": [p["line"] for _, p in problems],
                        "field": [p["field"] for _, p in problems],
                        "message": [p["message"] for _, p in problems],
                    }
                ),
            )
            try:
                self.con.execute(
                    "INSERT INTO raw_json_problems (kind, source, line, field, message) "
                    "SELECT kind, source, line, field, message FROM _jfi_problems"
                )
            finally:
                self.con.unregister("_jfi_problems")

    def add_file(
        self,
        kind: str,
        path,
        texts: list[str] | None = None,
        numbers: list[int] | None = None,
        round_no: int | None = None,
    ) -> None:
        """A file of this kind into raw_files (whether it is there) and its numbered lines into raw_lines: read from
        `path`, or the lines given (`texts`, numbered `numbers`, default 1..n) for a file about to be written."""
        present = texts is not None or regular_file(path)
        self.append("raw_files", {"kind": [kind], "source": [str(path)], "round": [round_no], "present": [present]})
        if texts is None and present:
            numbers, texts = line_columns(path)
        if texts:
            self.add_lines(kind, str(path), numbers or list(range(1, len(texts) + 1)), texts, round_no=round_no)

    def add_lines(
        self, kind: str, source: str, numbers: list[int], texts: list[str], round_no: int | None = None
    ) -> None:
        """Put a file's numbered lines into raw_lines (what SQL cannot see in a line goes to raw_json_problems when
        they go in)."""
        n = len(numbers)
        self.append(
            "raw_lines",
            {"kind": [kind] * n, "source": [source] * n, "round": [round_no] * n, "line": numbers, "text": texts},
        )

    def load_inventory_file(self, path: str) -> int:
        """Read an inventory.jsonl whole with DuckDB's JSON reader into raw_inventory, numbering the lines in the
        order the reader keeps; returns the number of rows. Raises duckdb.Error on a line it refuses."""
        self.con.execute("INSERT INTO raw_inventory SELECT * FROM audit_inventory_file(?)", [path]).fetchall()
        # the rows just read are the last appended, in the reader's order (row ids go on after rows a kept store
        # updated in place deleted, so they are counted from the first new one)
        first = self.scalar("SELECT min(rowid) FROM raw_inventory WHERE line IS NULL")
        self.con.execute("UPDATE raw_inventory SET line = rowid - ? + 1 WHERE line IS NULL", [first]).fetchall()
        return self.scalar("SELECT count(*) FROM raw_inventory")

    def cursor(self):
        """A connection of its own to this store (its own temporary objects), reading the store's database as this one
        does (a kept store is a database attached to the connection, which a new cursor would not be using)."""
        cur = self.con.cursor()
        cur.execute(f"USE {sql_ident(self.database)}")
        return cur

    def rows(self, sql: str, params: list | None = None) -> list[dict]:
        cur = self.con.execute(sql, params or [])
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]

    def stream(self, sql: str, size: int = 10_000) -> Iterator[dict]:
        """As `rows`, a few thousand fetched at a time: what Python holds stays bounded, whatever the rows' count."""
        cur = self.con.execute(sql)
        names = [d[0] for d in cur.description]
        while chunk := cur.fetchmany(size):
            yield from (dict(zip(names, r)) for r in chunk)

    def scalar(self, sql: str, params: list | None = None):
        rows = self.con.execute(sql, params or []).fetchall()  # fetched to the end: DuckDB wants results finished
        return rows[0][0] if rows else None

    def close(self, *, keep: bool = True) -> None:
        """`keep=False`: the store's file is about to be deleted, so nothing is written back to it on closing (a
        refused command's copy of the kept store: its checkpoint took 0.5 s at 10,000 views, for nothing)."""
        if not keep:
            try:
                self.con.execute("PRAGMA disable_checkpoint_on_shutdown")
            except duckdb.Error:
                pass  # a connection an error left unusable: closing it is all that is left to do
        with phase("store: close (a file's checkpoint)"):
            self.con.close()
