"""The rulebook: every `sql/**/*.sql` file, in dependency order, hashed, with its header meanings.

Order: what each file creates and reads, as sqlglot parses it (a view or table it creates or inserts into, the
tables, views and macros it reads), gives the order: a file runs after every file that creates or adds to what it
reads; a cycle or a read of something no file creates is refused (RulebookError). Among files free to go in either
order, the number that starts the file name, then the path, decides. A file whose statements are only `CREATE TABLE
IF NOT EXISTS` and macros that read no table is the input layer, run when a store opens; the rest (a table macro over
derived tables too) derive from loaded data. Which files a command runs follows from the objects it queries
(`needs`). The header of a file is its leading `--` comment block:

    -- view_name: one line saying what a row of the view means
    --   column: one line saying what the column holds   (optional, indented)

Flag files (a folder a rule file reads through `flag_rules('...')` and `flag_files('...')`, such as sql/audit/flags/)
are parts, not rule files: each is one flag, and the calls stand for their rows and the union of their conditions
(jfi/flagbook.py), expanded before the text is parsed, hashed into `rulebook_sha256` with the file that reads them.

The parse (about 0.7 s for the whole rulebook) is kept in the user's cache folder, keyed by the files' bytes.

What DuckDB runs (`RuleFile.sql`) is the file's text with each view created unbound (DuckDB's `WITH
(DEFER_BINDING)`): DuckDB binds a view when a query first reads it, not when it is created, where a view over a chain of
views was bound again with the whole chain under it (about 0.6 s of every store's build). A view a query reads is
bound then, with the same errors; the files stay the portable SQL sqlglot reads.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from jfi import flagbook

# The corpus rules are a shared core (sql/corpus/*.sql) plus the folders of one profile: one per era of the upstream
# format. A folder shared by two profiles holds the rules they share, once.
PROFILES = {
    "round-v1": ("round",),  # upstream e14ac527: rounds, blind second passes
    "round-v2": ("round", "named", "round-v2"),  # upstream f8931af7: + accessible_name, accessible_name_source
    "harvest": ("named", "harvest"),  # upstream 67edd7e9: harvested, reviewed in batches
}
DEFAULT_PROFILE = "round-v1"
OBJECT_LINE = re.compile(r"^-- ([a-z_][a-z0-9_]*): (.+)$")
COLUMN_LINE = re.compile(r"^--\s{2,}([a-z_][a-z0-9_]*): (.+)$")
ANALYSIS = "4"  # the shape and rules of analyse()'s answer: a cache of another is parsed again
VIEW_HEAD = re.compile(r"^(CREATE OR REPLACE (?:TEMP )?VIEW [a-z_][a-z0-9_]*) AS\b", re.I | re.M)


def sql_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "sql", here.parent / "sql"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the sql/ rulebook is missing from this installation")


class RulebookError(Exception):
    """The rulebook cannot be ordered: a cycle, or a file reading what no file creates."""


@dataclass
class RuleFile:
    path: Path
    rel: str
    text: str
    objects: dict[str, str] = field(default_factory=dict)  # name -> meaning
    columns: dict[str, dict[str, str]] = field(default_factory=dict)  # name -> column -> meaning
    creates: frozenset = frozenset()  # tables, views and macros it creates
    adds: frozenset = frozenset()  # tables it inserts into, updates or deletes from
    reads: frozenset = frozenset()  # tables, views and macros it reads (names no file creates: built-in functions)
    table_reads: frozenset = frozenset()  # of those, the ones read as tables or views (each must be created)
    input_layer: bool = False  # only CREATE TABLE IF NOT EXISTS and macros reading no table: run when a store opens
    kinds: dict = field(default_factory=dict)  # table read -> the input kinds it keeps (None: every kind)
    made: frozenset = frozenset()  # the tables (not views, not temp objects) it creates
    sql: str = ""  # what DuckDB runs: the text, its views created unbound (bound when read)


def _order_key(rel: str) -> tuple[int, str]:
    m = re.match(r"(\d+)", rel.rsplit("/", 1)[-1])
    return (int(m.group(1)) if m else 10**6, rel)


def analyse(text: str) -> tuple[list[str], list[str], list[str], list[str], bool, dict[str, list | None], list[str]]:
    """(creates, adds, reads, table reads, input layer, kinds read, tables made) of a rule file, from sqlglot's parse.
    Kinds read: for each table read, the input kinds a `kind = '...'` or `kind IN (...)` filter beside it keeps
    (None: every kind, also wherever the filter is not plainly that). Tables made: the tables (not views, not temp
    objects) it creates."""
    import sqlglot
    from sqlglot import exp

    creates, adds, reads, tables, ctes, made = set(), set(), set(), set(), set(), set()
    kinds: dict[str, set | None] = {}
    input_layer = True
    for st in sqlglot.parse(text, read="duckdb"):
        if isinstance(st, exp.Create):
            target = st.this.this if isinstance(st.this, (exp.Schema, exp.UserDefinedFunction)) else st.this
            creates.add(target.name)
            kind = st.args.get("kind")
            input_layer &= kind in ("MACRO", "FUNCTION") or (kind == "TABLE" and bool(st.args.get("exists")))
            if kind in ("MACRO", "FUNCTION") and {
                t.name for t in st.expression.find_all(exp.Table) if t.name and not isinstance(t.this, exp.Anonymous)
            } - {c.alias_or_name for c in st.find_all(exp.CTE)}:
                input_layer = False  # a table macro over derived tables is derived with them
            temp = any(isinstance(p, exp.TemporaryProperty) for p in st.find_all(exp.TemporaryProperty))
            if kind == "TABLE" and not temp:
                made.add(target.name)
        elif isinstance(st, (exp.Insert, exp.Update, exp.Delete)):
            adds.add(st.this.find(exp.Table).name if not isinstance(st.this, exp.Table) else st.this.name)
            input_layer = False
        else:
            input_layer = False
        ctes |= {c.alias_or_name for c in st.find_all(exp.CTE)}
        for t in st.find_all(exp.Table):
            if t.name and not isinstance(t.this, exp.Anonymous):
                tables.add(t.name)
                found = _kinds_beside(t)
                kinds[t.name] = (
                    None
                    if found is None or (t.name in kinds and kinds[t.name] is None)
                    else found | kinds.get(t.name, set())
                )
        reads |= {f.name for f in st.find_all(exp.Anonymous)}
    tables -= ctes | creates | adds
    reads = (reads | tables) - creates
    return (
        sorted(creates),
        sorted(adds),
        sorted(reads),
        sorted(tables),
        input_layer,
        {n: (sorted(k) if k is not None else None) for n, k in sorted(kinds.items()) if n in tables},
        sorted(made),
    )


def _kinds_beside(table) -> set[str] | None:
    """The kinds a `kind` filter keeps in the WHERE of the SELECT that reads `table` as its only source; None when
    there is no such plain filter (every kind)."""
    from sqlglot import exp

    select = table.parent
    while select is not None and not isinstance(select, exp.Select):
        if isinstance(select, (exp.Subquery, exp.Union)):
            return None
        select = select.parent
    if select is None or select.args.get("joins") or not select.args.get("where"):
        return None
    cond = select.args["where"].this
    terms = list(cond.flatten()) if isinstance(cond, exp.And) else [cond]
    for term in terms:
        col = term.this if isinstance(term, (exp.EQ, exp.In)) else None
        if not isinstance(col, exp.Column) or col.name != "kind" or col.table not in ("", table.alias_or_name):
            continue
        values = [term.expression] if isinstance(term, exp.EQ) else term.expressions
        if values and all(isinstance(v, exp.Literal) and v.is_string for v in values):
            return {v.this for v in values}
    return None


def _cache_path(digest: str, name: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "jfi" / f"{name}-{digest[:20]}.json"


def cached(name: str, digest: str, compute, valid=lambda value: True):
    """compute()'s answer (JSON), kept in the user's cache folder under `name` and the rulebook's digest; computed
    again when the cache is absent, unreadable or not `valid`."""
    path = _cache_path(digest, name)
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
        if valid(value):
            return value
    except (OSError, ValueError):
        pass
    value = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(value), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # no cache folder: computed each time
    return value


def _analysed(texts: dict[str, str], parts: set[str], flag_texts: dict[str, str], digest: str) -> dict:
    """What the rule files say once parsed, kept in the user's cache folder by the rulebook's digest (worked out again
    when absent; `parts`: the flag folders the files read): {"expanded": the text of each file reading a flag folder,
    its calls expanded (the other files are run as written), "files": rel -> [*analyse(text), objects, columns] of
    each rule file}. Flag files are checked before anything is parsed."""

    def compute():
        try:
            flags = {folder: flagbook.load(flag_texts, folder) for folder in sorted(parts)}  # each folder read once
            flagbook.check(flags)
        except flagbook.FlagError as e:
            raise RulebookError(str(e)) from None
        expanded = {rel: flagbook.expand(text, flags) for rel, text in texts.items() if flagbook.CALL.search(text)}
        files = {}
        for rel, text in texts.items():
            text = expanded.get(rel, text)
            files[rel] = [*analyse(text), *parse_header(text)]
        return {"expanded": expanded, "files": files}

    return cached(
        f"rulebook-{ANALYSIS}",
        digest,
        compute,
        valid=lambda value: (
            isinstance(value, dict)
            and isinstance(value.get("expanded"), dict)
            and isinstance(value.get("files"), dict)
            and set(value["files"]) == set(texts)
        ),
    )


def ordered(files: tuple[RuleFile, ...] | list[RuleFile]) -> tuple[RuleFile, ...]:
    """The files in dependency order (ties by number, then path); RulebookError on a cycle or a missing object."""
    creator: dict[str, RuleFile] = {}
    adders: dict[str, list[RuleFile]] = {}
    for f in files:
        for name in f.creates:
            creator[name] = f
        for name in f.adds:
            adders.setdefault(name, []).append(f)
    after: dict[str, set[str]] = {}
    why: dict[tuple[str, str], str] = {}  # (file, a file it waits on) -> the object between them
    for f in files:
        before = set()
        for name in sorted(f.reads | f.adds):
            if name in creator:
                before.add(creator[name].rel)
                why.setdefault((f.rel, creator[name].rel), name)
            elif name in f.adds:
                raise RulebookError(f"{f.rel} adds to {name}, which no rule file in use creates")
            if name in f.reads:
                before |= {a.rel for a in adders.get(name, ())}
                for a in adders.get(name, ()):
                    why.setdefault((f.rel, a.rel), name)
        for name in f.table_reads:
            if name not in creator:
                raise RulebookError(f"{f.rel} reads {name}, which no rule file in use creates")
        after[f.rel] = before - {f.rel}
    by_rel = {f.rel: f for f in files}
    out, done = [], set()
    waiting = sorted(by_rel, key=_order_key)
    while waiting:
        ready = next((rel for rel in waiting if after[rel] <= done), None)
        if ready is None:
            raise RulebookError("a cycle: " + _cycle(waiting, after, why))
        waiting.remove(ready)
        done.add(ready)
        out.append(by_rel[ready])
    return tuple(out)


def _cycle(waiting: list[str], after: dict[str, set[str]], why: dict[tuple[str, str], str]) -> str:
    """The path of one cycle among the files left waiting: each file, what it reads and the file that makes it."""
    left = set(waiting)
    path, at = [], waiting[0]
    while at not in path:
        path.append(at)
        at = sorted(after[at] & left)[0]
    loop = path[path.index(at) :] + [at]
    return " → ".join(f"{a} reads {why[(a, b)]} ({b})" for a, b in zip(loop, loop[1:]))


def parse_header(text: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    objects: dict[str, str] = {}
    columns: dict[str, dict[str, str]] = {}
    current = None
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        if m := COLUMN_LINE.match(line):
            if current:
                columns.setdefault(current, {})[m.group(1)] = m.group(2).strip()
        elif m := OBJECT_LINE.match(line):
            current = m.group(1)
            objects[current] = m.group(2).strip()
    return objects, columns


def _read(base: Path):
    """Each .sql file under `base` by its path relative to it, in load order (number, then path), and the sha256 of
    their paths and bytes."""
    rels = []
    for folder, _, names in os.walk(base):
        at = os.path.relpath(folder, base).replace(os.sep, "/")
        rels += [name if at == "." else f"{at}/{name}" for name in names if name.endswith(".sql")]
    texts, digest = {}, hashlib.sha256()
    for rel in sorted(rels, key=_order_key):
        with open(os.path.join(base, rel), "rb") as fh:
            data = fh.read()
        digest.update(rel.encode() + b"\0" + data + b"\0")
        texts[rel] = data.decode("utf-8")
    return texts, digest


@lru_cache(maxsize=4)
def load(root: str | None = None) -> tuple[tuple[RuleFile, ...], str]:
    """All rule files, each with what it creates and reads, and `rulebook_sha256` over their relative paths and
    bytes. Files are listed by number then path; `in_use` orders the ones a store runs by their dependencies."""
    base = Path(root) if root else sql_dir()
    texts, digest = _read(base)
    parts = flagbook.folders(texts)  # flag files: parts of the rule file that reads their folder, not rule files
    flag_texts = {rel: texts.pop(rel) for rel in list(texts) if rel.rsplit("/", 1)[0] in parts}
    parsed = _analysed(texts, parts, flag_texts, digest.hexdigest())
    files = []
    for rel, text in texts.items():
        text = parsed["expanded"].get(rel, text)
        creates, adds, reads, tables, input_layer, kinds, made, objects, columns = parsed["files"][rel]
        files.append(
            RuleFile(
                base / rel,
                rel,
                text,
                objects,
                columns,
                frozenset(creates),
                frozenset(adds),
                frozenset(reads),
                frozenset(tables),
                input_layer,
                kinds,
                frozenset(made),
                unbound(text),
            )
        )
    return tuple(files), digest.hexdigest()


def unbound(text: str) -> str:
    """A rule file's text with each view it creates left unbound until a query reads it."""
    return VIEW_HEAD.sub(r"\1 WITH (DEFER_BINDING) AS", text)


def text_of(name: str) -> str:
    """The text of the rule file that creates `name`: for rules a command runs on its own, over rows it puts in temp
    tables (a returned review's decisions), beside a store that does not keep them."""
    [f] = [f for f in load()[0] if name in f.creates]
    return f.sql


def rulebook_sha256(sections: tuple[str, ...] | None = None, profile: str | None = None) -> str:
    """The hash a store built with these sections (all by default) and this corpus profile records."""
    corpus = sections is None or "corpus" in sections
    return digest_of(in_use(load()[0], sections, profile), (profile or DEFAULT_PROFILE) if corpus else None)


def in_use(
    files: tuple[RuleFile, ...],
    sections: tuple[str, ...] | None,
    profile: str | None,
    needs: tuple[str, ...] | None = None,
) -> tuple[RuleFile, ...]:
    """The rule files a store runs, in dependency order: sql/core, the sections asked for (all by default) and, in the
    corpus section, the shared core plus the folders of the profile; with `needs`, only the files that make those
    objects and what they read, so a command runs no rule it does not query."""
    folders = PROFILES[profile or DEFAULT_PROFILE]
    out = []
    for f in files:
        parts = f.rel.split("/")
        if sections is not None and parts[0] not in ("core", *sections):
            continue
        if parts[0] == "corpus" and len(parts) > 2 and parts[1] not in folders:
            continue
        out.append(f)
    if needs is not None:
        out = closure(out, needs)
    return ordered(out)


def made_of(names, sections: tuple[str, ...] | None, profile: str | None = None) -> tuple[str, ...]:
    """Those of `names` that a rule file of these sections (and profile) creates or adds rows to: the `needs` of a
    store for a query naming them (a name no rule makes is DuckDB's, a CTE's or unknown, and DuckDB says so)."""
    made = {n for f in in_use(load()[0], sections, profile) for n in f.creates | f.adds}
    return tuple(sorted(n for n in names if n in made))


def closure(files: list[RuleFile], needs: tuple[str, ...]) -> list[RuleFile]:
    """The files that create or add to the needed objects, and, transitively, to everything those read."""
    makers: dict[str, list[RuleFile]] = {}
    for f in files:
        for name in f.creates | f.adds:
            makers.setdefault(name, []).append(f)
    missing = [n for n in needs if n not in makers]
    if missing:
        raise RulebookError(f"no rule file creates {', '.join(missing)}")
    chosen: dict[str, RuleFile] = {}
    todo = list(needs)
    while todo:
        for f in makers.get(todo.pop(), ()):
            if f.rel not in chosen:
                chosen[f.rel] = f
                todo += [*f.reads, *f.adds]
    return [f for f in files if f.rel in chosen or f.input_layer]


# objects whose rows each belong to one input file's line, with that file's kind in their `kind` column: a filter on
# kind read from one of them keeps to the inputs of those kinds all the way down
KINDED = frozenset(
    {
        "raw_lines",
        "raw_files",
        "raw_json_problems",
        "jsonl_records",
        "jsonl_values",
        "jsonl_line_violations",
        "field_violations",
    }
)


def inputs_read(files: tuple[RuleFile, ...]) -> dict[str, frozenset]:
    """For each file, the input-layer tables its rows come from, through every view and table it reads, each as
    (table, kind) with kind None for every kind: what must change for the file's tables to change."""
    makers: dict[str, list[RuleFile]] = {}
    for f in files:
        for name in f.creates | f.adds:
            makers.setdefault(name, []).append(f)
    memo: dict[tuple, frozenset] = {}

    def of_file(f: RuleFile, within: frozenset | None, skip: str = "") -> frozenset:
        out = set()
        for name in f.table_reads - {skip}:
            kept = f.kinds.get(name)
            kept = frozenset(kept) if kept is not None else None
            if name in KINDED and within is not None:
                kept = within if kept is None else kept & within
            if kept is None or kept:
                out |= of_object(name, kept if name in KINDED else None)
        return frozenset(out)

    def of_object(name: str, kinds: frozenset | None) -> frozenset:
        key = (name, kinds)
        if key not in memo:
            memo[key] = frozenset()  # a file adding to what it reads (raw_inventory) ends there
            out = set()
            for m in makers.get(name, ()):
                if m.input_layer:
                    out |= {(name, k) for k in kinds} if kinds is not None else {(name, None)}
                else:
                    out |= of_file(m, kinds, skip=name if name in m.adds else "")
            memo[key] = frozenset(out)
        return memo[key]

    return {f.rel: of_file(f, None) for f in files}


def digest_of(files: tuple[RuleFile, ...], profile: str | None = None) -> str:
    """`rulebook_sha256` of the rules in use: their relative paths and bytes, and the corpus profile when there is one."""
    digest = hashlib.sha256()
    if profile:
        digest.update(b"profile\0" + profile.encode() + b"\0")
    for f in files:
        digest.update(f.rel.encode() + b"\0" + f.text.encode("utf-8") + b"\0")
    return digest.hexdigest()


def meanings() -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    objects: dict[str, str] = {}
    columns: dict[str, dict[str, str]] = {}
    for f in load()[0]:
        objects.update(f.objects)
        columns.update(f.columns)
    return objects, columns


# objects analysts do not query: raw inputs and the plumbing between them and the views people read
INTERNAL_PREFIXES = (
    "raw_",
    "jsonl_",
    "field_",
    "ledger_",
    "unit_pins",
    "image_copies",
    "audit_inventory_",
    "audit_occurrences",
    "audit_batch_lines",
    "audit_judged_lines",
)


def internal(name: str) -> bool:
    return name.startswith(INTERNAL_PREFIXES)


def sections_of() -> dict[str, str]:
    """Each object's rulebook section (corpus, audit, verify; core for the shared plumbing)."""
    out = {}
    for f in load()[0]:
        for name in f.objects:
            out.setdefault(name, f.rel.split("/")[0])
    return out
