"""Flags as files: each deterministic flag is one file of its own, which the rulebook assembles.

A flag file, `sql/<section>/<folder>/NN_<rule>.sql`, says everything about its flag in one place:

    -- title_shared_by_N_views: N views of the product share this title      (the rule id, then its meaning)
    --   type: title                  the unit type(s) it applies to, space-separated (required)
    --   informational: true          it only informs: never counts as flagged (default false)
    --   act_rule: 2779a5             the ACT rule it implements (optional)
    --   act_check: true              it implements that ACT rule on its own, an objective check (default false)
    --   fact_class: empty link name  the fact class a ratifier signs once (optional: a flag stating a fact)
    SELECT 'title_shared_by_' || title_views || '_views' AS flag     (or SELECT *: the flag is named as its rule)
    FROM audit_title_facts                                            its facts: type, product, pos, i, unit_key, exposed
    WHERE title_views > 1                                             its condition

NN is its order (a unit's flags are listed in the order they first fired, then by this). Its examples, elements it
must flag and elements it must not, are data beside it (`NN_<rule>.yaml`), run through the library by the tests.

A rule file reads a folder of flags through two calls the rulebook expands before anything else reads the text:
`flag_rules('audit/flags')`, the folder's headers as rows (ord, flag, type, informational, act_rule, act_check,
fact_class, meaning; one row per type), and `flag_files('audit/flags')`, the union of the folder's conditions, each
row in audit_flags' shape (type, product, pos, i, unit_key, flag, ord, rule) and each flag that is not informational
kept off elements the browser does not expose (`exposed IS NOT FALSE`: the guard is written here once)."""

from __future__ import annotations

import re
from dataclasses import dataclass

CALL = re.compile(r"\bflag_(rules|files)\('([a-z_/]+)'\)")
NAME = re.compile(r"^(\d+)_([A-Za-z0-9_]+)\.sql$")
HEAD = re.compile(r"^-- ([A-Za-z0-9_]+): (.+)$")
KEY = re.compile(r"^--\s{2,}([a-z_]+): (.+)$")
KEYS = {"type", "informational", "act_rule", "act_check", "fact_class"}
TYPES = {"title", "heading", "link", "image", "field", "ident", "finding"}
COLUMNS = "ord, flag, type, informational, act_rule, act_check, fact_class, meaning"


class FlagError(Exception):
    """A flag file that does not say what a flag file must (its path and what is wrong)."""


@dataclass(frozen=True)
class Flag:
    rel: str
    ord: int
    rule: str
    meaning: str
    types: tuple[str, ...]
    informational: bool
    act_rule: str | None
    act_check: bool
    fact_class: str | None
    body: str  # the SELECT, as written


def folders(texts: dict[str, str]) -> set[str]:
    """The flag folders the rule files read (the files in them are parts, not rule files)."""
    return {m.group(2) for text in texts.values() if "flag_" in text for m in CALL.finditer(text)}


def parse(rel: str, text: str) -> Flag:
    name = NAME.match(rel.rsplit("/", 1)[-1])
    if not name:
        raise FlagError(f"{rel}: a flag file is named NN_<rule>.sql")
    lines = text.splitlines()
    head = HEAD.match(lines[0]) if lines else None
    if not head or head.group(1) != name.group(2):
        raise FlagError(f"{rel}: line 1 must be `-- {name.group(2)}: what the flag says`")
    keys: dict[str, str] = {}
    n = 1
    while n < len(lines) and lines[n].startswith("--"):
        m = KEY.match(lines[n])
        if not m or m.group(1) not in KEYS:
            raise FlagError(f"{rel}: line {n + 1}: expected `--   key: value` with a key of {', '.join(sorted(KEYS))}")
        keys[m.group(1)] = m.group(2).strip()
        n += 1
    types = tuple(keys.get("type", "").split())
    if not types or set(types) - TYPES:
        raise FlagError(f"{rel}: `type:` names the unit types it applies to, of {', '.join(sorted(TYPES))}")
    for key in ("informational", "act_check"):
        if keys.get(key, "false") not in ("true", "false"):
            raise FlagError(f"{rel}: `{key}:` is true or false")
    body = "\n".join(lines[n:]).strip().rstrip(";").strip()
    return Flag(
        rel,
        int(name.group(1)),
        name.group(2),
        head.group(2).strip(),
        types,
        keys.get("informational") == "true",
        keys.get("act_rule"),
        keys.get("act_check") == "true",
        keys.get("fact_class"),
        body,
    )


def check(folders: dict[str, list[Flag]]) -> None:
    """Each flag's condition parsed (sqlglot): one SELECT of `*` or of one expression `AS flag`. The rulebook checks
    it when it parses the rule files (once per rulebook: the parse is cached)."""
    for flags in folders.values():
        for f in flags:
            _check_body(f.rel, f.body)


def _check_body(rel: str, body: str) -> None:
    import sqlglot
    from sqlglot import exp

    try:
        statements = sqlglot.parse(body, read="duckdb")
    except sqlglot.errors.ParseError as e:
        raise FlagError(f"{rel}: {str(e).splitlines()[0]}") from None
    if len(statements) != 1 or not isinstance(statements[0], exp.Select):
        raise FlagError(f"{rel}: a flag's condition is one SELECT")
    cols = statements[0].expressions
    star = len(cols) == 1 and isinstance(cols[0], exp.Star)
    named = len(cols) == 1 and isinstance(cols[0], exp.Alias) and cols[0].alias == "flag"
    if not (star or named):
        raise FlagError(f"{rel}: a flag selects `*` (named as its rule) or one expression `AS flag`")


def load(texts: dict[str, str], folder: str) -> list[Flag]:
    flags = [parse(rel, text) for rel, text in sorted(texts.items()) if rel.rsplit("/", 1)[0] == folder]
    if not flags:
        raise FlagError(f"{folder}: no flag files")
    seen: dict[int, str] = {}
    for f in flags:
        if f.ord in seen:
            raise FlagError(f"{f.rel}: order {f.ord} is also {seen[f.ord]}'s")
        seen[f.ord] = f.rel
    return sorted(flags, key=lambda f: f.ord)


def _literal(value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def rules_sql(flags: list[Flag]) -> str:
    values = [
        (f.ord, f.rule, t, f.informational, f.act_rule, f.act_check, f.fact_class, f.meaning)
        for f in flags
        for t in f.types
    ]
    rows = [f"({', '.join(_literal(v) for v in row)})" for row in values]
    return f"(VALUES {', '.join(rows)}) AS flag_rules({COLUMNS})"


def files_sql(flags: list[Flag]) -> str:
    branches = []
    for f in flags:
        inner = re.sub(r"^SELECT\s+\*", f"SELECT *, {_literal(f.rule)} AS flag", f.body, count=1, flags=re.I)
        if inner == f.body:
            inner = re.sub(r"^SELECT\s+", "SELECT *, ", f.body, count=1, flags=re.I)
        guard = "" if f.informational else "\nWHERE exposed IS NOT FALSE"
        branches.append(
            f"-- {f.ord} {f.rule}\nSELECT type, product, pos, i, unit_key, flag, {f.ord} AS ord, "
            f"{_literal(f.rule)} AS rule\nFROM (\n{inner}\n) AS {f.rule.lower()}{guard}"
        )
    return "(\n" + "\nUNION ALL\n".join(branches) + "\n) AS flag_files"


def expand(text: str, folders: dict[str, list[Flag]]) -> str:
    """A rule file's text with each flag_rules(...) and flag_files(...) call replaced by what it stands for (the
    flags of each folder, as `load` read them)."""

    def one(m: re.Match) -> str:
        flags = folders[m.group(2)]
        return rules_sql(flags) if m.group(1) == "rules" else files_sql(flags)

    return CALL.sub(one, text)
