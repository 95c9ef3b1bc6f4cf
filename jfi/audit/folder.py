"""The one door into an audit folder: it opens the folder (finishing interrupted commits), reads its inventory
(inventory.jsonl, or a content-inventory/v1 inventory-run.json made elsewhere) for `build`, and for every command
after it loads the folder's files into a built store, starting from the store kept beside the folder
(jfi.audit.kept). Commands take their store from here (`load_folder`) and never read the folder's inputs
themselves."""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import ijson

from ..atomic import recover
from ..canonical import decision_id, digest
from ..errors import JfiError, refuse
from ..jsonl import (
    bytes_columns,
    line_columns,
    parse_json,
    sha256_and_lines,
    sha256_file,
    strict_loads,
    tail_columns,
)
from ..manifest import fields_before, read_manifest
from ..paths import bytes_of, own_folder, regular_file
from ..phases import phase
from ..store import Store
from .kept import NEEDS, Keeping, KeptStore, input_files

# what `build` queries: its store runs the rule files that make these (units, batches, the 3.2.3 check) and no other
BUILD_NEEDS = (
    "audit_inventory_violations",
    "audit_views",
    "audit_units",
    "audit_batches",
    "audit_nav_consistency",
    "audit_hidden_units",
    "audit_axe_runs",
    "audit_axe_nodes",
    "audit_flag_rules",
    "audit_caps_hit",
)


# what an audit folder's commands read as input: no command writes over one of these except the command that owns it
INPUT_FILES = {
    "inventory.jsonl",
    "inventory-run.json",
    "judgment-units.json",
    "ratifications.jsonl",
    "spot-checks.jsonl",
    "standards.jsonl",
    "audit.toml",
    "spot-check-sample.jsonl",
    "draft-judgments.json",
    ".jfi.lock",
    "review-bundles.jsonl",
    "judge-runs.jsonl",
}
INPUT_FOLDERS = {"batches", "screenshots", "history", ".jfi", "report-files", "judge-kit", "judge-cache"}


def json_head(path: Path, rows: str) -> dict:
    """The fields of a JSON document jfi wrote before its list `rows` (judgment-units.json's units, draft-judgments.json's
    rows), read as a stream: the list is not parsed. What could be read of a broken file (the readers that parse it
    whole name the problem)."""
    fields: dict = {}
    try:
        with open(path, "rb") as fh:
            return fields_before(fh, rows, stop=True, fields=fields)
    except (ijson.JSONError, ijson.IncompleteJSONError, ValueError):
        return fields


def kind_of(root: Path, path: str) -> str:
    """The input kind of a file of the folder: what its lines are read as (load_folder gives each file this kind;
    jfi.audit.plan names the changed files by it)."""
    p = Path(path)
    if p.name in ("inventory.jsonl", "inventory-run.json"):
        return "inventory"
    if p.parent == root / "batches":
        return "judged" if p.name.endswith(".judged.jsonl") else "batch"
    return {
        "judgment-units.json": "unit",
        "ratifications.jsonl": "ratification",
        "standards.jsonl": "standard",
        "spot-checks.jsonl": "spot_check",
    }.get(p.name, "other")


@dataclass
class AuditFolder:
    root: Path
    # the running command's dealings with the stores kept beside the folder (each command begins its own: kept.commits)
    keeping: Keeping = field(default_factory=Keeping, compare=False, repr=False)

    def __post_init__(self):
        self.root = Path(self.root)
        if not self.root.is_dir():
            raise JfiError(
                "no_audit",
                f"{self.root} is not a folder; `jfi audit inventory --out` makes an audit folder",
                source=str(self.root),
            )
        if not any(
            regular_file(self.root / name) for name in ("inventory.jsonl", "inventory-run.json", "judgment-units.json")
        ):
            raise JfiError(
                "no_audit",
                f"no audit in {self.root} (no inventory.jsonl, inventory-run.json or judgment-units.json)",
                source=str(self.root),
            )
        recover(self.root)  # a commit interrupted by a kill is finished before anything reads the folder

    def reads(self, path: Path) -> bool:
        """Whether `path` is a file this folder's commands read as input (see INPUTS), wherever it is named from."""
        try:
            rel = Path(os.path.realpath(path)).relative_to(os.path.realpath(self.root))
        except ValueError:
            return False
        return bool(rel.parts) and (rel.as_posix() in INPUT_FILES or rel.parts[0] in INPUT_FOLDERS)

    @property
    def units_path(self) -> Path:
        return self.root / "judgment-units.json"

    def require_built(self, *, inventory: bool = True) -> Path:
        """judgment-units.json, or the refusal that says to build first: none is there, or it was built by jfi from
        another inventory than the folder's (a capture replaced since; `inventory=False`: checked later, by
        load_folder once the kept store said what it knows of the files)."""
        if not regular_file(self.units_path):
            raise JfiError(
                "not_built",
                f"no judgment-units.json in {self.root}; run `jfi audit build` first",
                source=str(self.units_path),
            )
        if not inventory:
            return self.units_path
        head = json_head(self.units_path, "units")
        inventory = next((p for p in (self.inventory_jsonl, self.manifest) if regular_file(p)), None)
        if (
            inventory is not None
            and head.get("jfi_version")
            and isinstance(head.get("inventory_sha256"), str)
            and head["inventory_sha256"] != sha256_file(inventory)
        ):
            raise JfiError(
                "not_built",
                f"judgment-units.json was built from another inventory than {inventory.name} "
                f"(captured again since); run `jfi audit build --inventory {self.root}` again",
                source=str(self.units_path),
            )
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
            run = read_manifest(self.manifest)
            texts = [json.dumps(v, ensure_ascii=False) for v in run["views"]]
            return str(self.manifest), list(range(1, len(texts) + 1)), texts, self.manifest.read_bytes()
        raise JfiError(
            "no_inventory",
            f"no inventory.jsonl or inventory-run.json in {self.root}; run `jfi audit inventory --out` there first",
            source=str(self.root),
        )

    def load_inventory(self, store: Store, *, whole: bool = True) -> tuple[str, bool]:
        """Put the inventory into a store that is not built yet; returns (its sha256, whether it was read whole).

        An inventory.jsonl goes whole through DuckDB's JSON reader when it can (every line an object of the
        expected types, no blank line, so the reader's row order gives the line numbers, nothing the reader takes
        that RFC 8259 refuses; the file is hashed, its lines counted and scanned meanwhile);
        otherwise, or with whole=False, it is read line by line with exact numbers."""
        if whole and regular_file(self.inventory_jsonl):
            with ThreadPoolExecutor(1) as pool:
                reading = pool.submit(store.load_inventory_file, str(self.inventory_jsonl))
                sha, lines, readable = sha256_and_lines(self.inventory_jsonl)
                try:
                    rows = reading.result()
                except duckdb.Error:
                    rows = None
            if rows == lines and readable:
                return sha, True
            store.con.execute("DELETE FROM raw_inventory")
        source, numbers, texts, data = self.inventory_source()
        store.add_lines("inventory", source, numbers, texts)
        return hashlib.sha256(data).hexdigest(), False

    # The folder's named loads: what a command's store reads, and how (`--plan` says what each then runs). Each
    # returns (store, the built units' header, their sha256); the store is the caller's to close.
    def load(self, seed: str = "") -> tuple[Store, "BuiltUnits", str]:
        """A command's store after build: every input file, refused whole when any is bad, started from the kept
        store where its files match (sample, merge, worklist, receipts, rule, review)."""
        return load_folder(self, seed)

    def load_with_inventory(self) -> tuple[Store, "BuiltUnits", str]:
        """As `load`, the inventory read too (report, gate, the exports for other tools): the store kept with it."""
        return load_folder(self, inventory=True)

    def check_ledger(self, ledger: bytes, written: dict[str, tuple[str, str, str]] | None = None) -> None:
        """The folder as it would be with this ledger in place, checked whole (refused when any record is bad) before
        the ledger is written. Started from the kept store (a ledger with records appended has only those read); the
        store made holds this ledger and replaces the kept one when the command succeeds, having written it.
        `written`: the lines the command made, each with (decision id, unit id, the unit's pin) as it computed them
        from the units as they are (never a pin a record only claims), not computed again."""
        load_folder(self, ledger_bytes=ledger, written=written)[0].close()

    def load_after_build(self, provided) -> tuple[Store, "BuiltUnits", str]:
        """The kept store made from what build just wrote (its rows handed over, not read again)."""
        return load_folder(self, provided=provided)

    def load_for_reading(
        self, *, before_build=None, needs: tuple[str, ...] | None = None
    ) -> tuple[Store, "BuiltUnits", str]:
        """What the folder holds, a bad line left out rather than refused (queries, exports, eval): no kept store;
        `before_build` adds rows of its own (the saved eval), `needs` keeps to the rule files making those objects."""
        return load_folder(self, strict=False, before_build=before_build, needs=needs)

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
        return (
            store,
            sha,
            {k: v for k, v in parse_json(self.manifest.read_bytes(), self.manifest).items() if k != "views"},
        )

    def _built(self, batch_size: int, *, whole: bool) -> tuple[Store, str, bool, list[dict]]:
        """(built store, sha256, whether read whole, the inventory's violations)."""
        store = Store(sections=("audit",), needs=BUILD_NEEDS).fit_threads(
            bytes_of([self.inventory_jsonl, self.manifest])
        )
        try:
            store.set_batch_size(batch_size)
            with phase("inventory: read by DuckDB, hashed and scanned beside it"):
                sha, whole = self.load_inventory(store, whole=whole)
            with phase("checks: the inventory's violations"):  # before the other rule files: a refusal costs little
                bad = store.rows_before_build("audit_inventory_violations")
            if not bad:
                with phase("rulebook: build's rule files"):
                    store.build()
            return store, sha, whole, bad
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
            raise JfiError(
                "invalid_json", "nested too deeply to read", source=str(self.inventory_jsonl), line=1
            ) from None
        return record if record.get("record") == "run" else {}


class BuiltUnits(dict):
    """The header of judgment-units.json (its nav rows included); the units list is parsed when first asked for."""

    def __init__(self, head: dict, path: Path):
        super().__init__(head)
        self._path = path

    def __getitem__(self, key):
        if key == "units" and not dict.__contains__(self, "units"):
            self["units"] = parse_json(self._path.read_bytes(), self._path)["units"] if self._path.is_file() else []
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        return self[key] if key == "units" else dict.get(self, key, default)


# the rules a strict load refuses on (a kept store updated in place asks only those whose inputs changed); ledger errors
# read `ratifications.jsonl:LINE: code: message`, without the field
VIOLATIONS = (  # each check, the kinds of file whose records it checks (none there: nothing to check), its query,
    # and whether its rows of a file come from that file's lines and inputs of other kinds alone (a check of judged
    # files: each file against the batches and the built units); such a check of a kept store updated in place, when
    # only files of its own kinds changed, reads the new files alone (the others' rows were sealed without a problem)
    ("audit_violations", ("judged", "spot_check"), "SELECT * FROM audit_violations", True),
    ("audit_standards_violations", ("standard",), "SELECT * FROM audit_standards_violations", False),
    (
        "ratification_violations",
        ("ratification",),
        "SELECT source, line, record_id, NULL AS field, code, message FROM ratification_violations",
        False,  # a record is checked against the records before it (the chains)
    ),
)
# what a check of new files alone sees of them only (the rows of the files it checks and what derives from them line by
# line; the batch lines and built units stay whole)
NEW_ROWS = ("raw_files", "raw_lines", "raw_json_problems", "jsonl_records", "audit_judged_lines")


def load_folder(
    folder: AuditFolder,
    seed: str = "",
    *,
    strict: bool = True,
    ledger_bytes: bytes | None = None,
    written: dict[str, tuple[str, str, str]] | None = None,
    before_build=None,
    inventory: bool = False,
    provided=None,
    needs: tuple[str, ...] | None = None,
) -> tuple[Store, BuiltUnits, str]:
    """A store with the inventory (when asked for, or for queries), the built units, the batches, what judges returned
    and the spot checks; returns (store, the built units' header, their sha256). Strict: refuses bad input, listing
    every problem; otherwise loads what is there (for queries). A strict load of the folder's own files starts from
    the store kept beside the audit (jfi.audit.kept) and, when it built one, leaves it to the command to keep.
    `provided`: the files build just wrote, put into the store from build's own rows (jfi.audit.kept.Provided).
    `needs`: for a lenient load (queries), only the rule files making these objects run."""
    units_path = folder.units_path
    if strict:
        folder.require_built(inventory=False)
    with phase("inputs: hashing, the kept store read"):
        kept = (
            KeptStore(folder.root, inventory, folder.keeping, provided, ledger_bytes)
            if strict and before_build is None
            else None
        )
    if strict:  # once the kept store said which files' sha256s it knows (the inventory is not read again for it)
        try:
            folder.require_built()
        except BaseException:
            if kept is not None:
                kept.discard()
            raise
    if kept is not None and provided is None and (hit := kept.reuse()):
        store, head, units_sha = hit
        store.set_sample_seed(seed)
        return store, BuiltUnits(head, units_path), units_sha
    store = (
        kept.new_store()
        if kept is not None
        else Store(
            sections=("audit",),
            needs=needs if not strict else NEEDS if before_build is None else None,
            inventory=not strict or inventory,
        ).fit_threads(bytes_of(input_files(folder.root, not strict or inventory)))
    )
    try:
        with phase("inputs: reading the files"):
            head, units_sha = _load(
                folder, store, kept, strict=strict, ledger_bytes=ledger_bytes, written=written, inventory=inventory
            )
        store.set_sample_seed(seed)
        if before_build is not None:
            before_build(store)
        with phase("rulebook: loading the rows, every rule file"):
            store.build(*((kept.carried(), kept.carried_lines()) if kept is not None else ()))
        with phase("checks: the violations views"):
            present = store.kinds_present()
            whole, new_only = [], []
            for name, kinds, query, by_file in VIOLATIONS if strict else ():
                if present.intersection(kinds) and store.may_differ(name):
                    narrow = by_file and store.carries(kinds) and not store.may_differ(name, kinds)
                    (new_only if narrow else whole).append(query)
            bad = store.rows(" UNION ALL ".join(whole)) if whole else []
            if new_only:
                with store.new_rows_only(NEW_ROWS):
                    bad += store.rows(" UNION ALL ".join(new_only))
        refuse(bad, "invalid_judgments", "problem(s) listed above; nothing written")
        if kept is not None:
            with phase("kept store: seal"):
                kept.seal(head, units_sha)
    except BaseException:
        kept.discard() if kept is not None else store.close()
        raise
    return store, BuiltUnits(head, units_path), units_sha


def _load(
    folder: AuditFolder,
    store: Store,
    kept: KeptStore | None,
    *,
    strict: bool,
    ledger_bytes: bytes | None,
    inventory: bool,
    written: dict[str, tuple[str, str, str]] | None = None,
) -> tuple[dict, str]:
    """Put the folder's files into a store not built yet (each unchanged file from the kept store when there is
    one); returns (the built units' header, their sha256)."""
    units_path = folder.units_path
    # queries and the report read the inventory too, when it is there and readable (a query whose rule files take
    # nothing from it does not)
    if (not strict or inventory) and store.reads_inventory():
        source = folder.inventory_jsonl if regular_file(folder.inventory_jsonl) else folder.manifest
        try:
            if not (kept is not None and kept.take(source)):
                folder.load_inventory(store)
        except JfiError:
            pass
    if not strict:  # queries see the merges' history
        from .history import load as load_history

        try:
            load_history(folder.root, store)
        except JfiError:
            pass
    ledger = folder.root / "ratifications.jsonl"
    ledger_ids, given = set(), {}  # the units the ledger names; the pins of those the command gave
    # a ledger the kept store holds keeps its rows, digests and pins; one with records appended to it since has only
    # those read (numbered on from the lines before them)
    tail = kept.tail(ledger) if kept is not None else None
    if not (kept is not None and kept.take(ledger)) and (ledger_bytes is not None or regular_file(ledger)):
        if tail:  # its first lines are in the store (raw_files says it is there)
            numbers, texts = tail_columns(ledger, *tail, whole=ledger_bytes)
            store.add_lines(kind_of(folder.root, ledger), str(ledger), numbers, texts)
        else:  # a ledger about to be written is checked whole before it is
            numbers, texts = bytes_columns(ledger_bytes, ledger) if ledger_bytes is not None else line_columns(ledger)
            store.add_file(kind_of(folder.root, ledger), ledger, texts, numbers)
        digests, known = [], written or {}
        for number, text in zip(numbers, texts):
            if (hit := known.get(text)) is not None:  # a line the command made: its digests as the command computed
                digests.append((number, hit[0]))
                ledger_ids.add(hit[1])
                given[hit[1]] = hit[2]
                continue
            try:
                record = strict_loads(text)
            except (ValueError, RecursionError):
                continue  # the rules report the line (invalid JSON, a lone surrogate, or nesting too deep to read)
            if isinstance(record, dict):
                try:
                    digests.append((number, decision_id(record)))
                except RecursionError:
                    continue
                if isinstance(record.get("id"), str):
                    ledger_ids.add(record["id"])
        store.append(
            "ledger_digests",
            {
                "source": [str(ledger)] * len(digests),
                "line": [d[0] for d in digests],
                "decision_id": [d[1] for d in digests],
            },
        )
    head, units_sha = {}, hashlib.sha256(b"").hexdigest()
    if regular_file(units_path):
        units_sha = kept.shas[str(units_path)] if kept is not None else sha256_file(units_path)
        # each unit's text by its id: from the units the kept store holds typed, else from the lines just read
        texts_of = (
            "SELECT text FROM raw_lines WHERE kind = 'unit' AND json_extract_string(text, '$.id') IN "
            "(SELECT unnest(?::VARCHAR[]))"
        )
        if kept is not None and kept.take(units_path):  # its rows are in the store: the pins below are read from them
            head = kept.units_head
            if str(units_path) in kept.unchanged:  # typed in the store already (build's own rows are typed later)
                texts_of = (
                    "SELECT CAST(unit AS VARCHAR) FROM audit_built_units WHERE id IN (SELECT unnest(?::VARCHAR[]))"
                )
        else:
            built = parse_json(units_path.read_bytes(), units_path)
            if built.get("schema") != "judgment-units/v1" or not isinstance(built.get("units"), list):
                raise JfiError(
                    "invalid_units", "schema must be judgment-units/v1 with a units list", source=str(units_path)
                )
            head = {k: v for k, v in built.items() if k != "units"}
            if built["units"]:  # entry N of the units list is line N of kind unit
                store.append(
                    "raw_files", {"kind": ["unit"], "source": [str(units_path)], "round": [None], "present": [True]}
                )
                store.con.execute(
                    "INSERT INTO raw_lines SELECT 'unit', ?, NULL, line, text FROM audit_built_units_file(?, ?)",
                    [str(units_path), str(units_path), units_path.stat().st_size + 1],
                ).fetchall()
            del built
        if ledger_ids and tail:  # the units pinned already keep their pins
            ledger_ids -= {i for (i,) in store.con.execute("SELECT id FROM unit_pins").fetchall()}
        # the pins of the units the ledger names: each its entry's canonical digest (given by the command that
        # computed it from the same entry)
        pins = [(i, given[i]) for i in sorted(ledger_ids & given.keys())] + [
            (u["id"], digest(u))
            for (text,) in store.con.execute(texts_of, [sorted(ledger_ids - given.keys())]).fetchall()
            if isinstance(u := json.loads(text), dict)
        ]
        store.append("unit_pins", {"id": [p[0] for p in pins], "unit_sha256": [p[1] for p in pins]})
    standards = folder.root / "standards.jsonl"
    if regular_file(standards) and not (kept is not None and kept.take(standards)):
        store.add_file(kind_of(folder.root, standards), standards)
    if own_folder(folder.batches):
        for path in sorted(folder.batches.glob("*.jsonl"), key=str):  # one folder: the names' order, compared as text
            if not (kept is not None and kept.take(path)):
                store.add_file(kind_of(folder.root, path), path)
    spot = folder.root / "spot-checks.jsonl"
    if regular_file(spot) and not (kept is not None and kept.take(spot)):
        store.add_file(kind_of(folder.root, spot), spot)
    return head, units_sha
