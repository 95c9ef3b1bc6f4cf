"""The rulebook: every `sql/**/*.sql` file, in a defined order, hashed, with its header meanings.

Order: the number that starts each file name, then the path relative to `sql/`. A file may only use
views created by files before it. The header of a file is its leading `--` comment block:

    -- view_name: one line saying what a row of the view means
    --   column: one line saying what the column holds   (optional, indented)
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

# The corpus rules are a shared core (sql/corpus/*.sql) plus the folders of one profile: one per era of the upstream
# format. A folder shared by two profiles holds the rules they share, once.
PROFILES = {
    "round-v1": ("round",),                       # upstream e14ac527: rounds, blind second passes
    "round-v2": ("round", "named", "round-v2"),   # upstream f8931af7: + accessible_name, accessible_name_source
    "harvest": ("named", "harvest"),              # upstream 67edd7e9: harvested, reviewed in batches
}
DEFAULT_PROFILE = "round-v1"
OBJECT_LINE = re.compile(r"^-- ([a-z_][a-z0-9_]*): (.+)$")
INPUT_LAYER_BELOW = 5
COLUMN_LINE = re.compile(r"^--\s{2,}([a-z_][a-z0-9_]*): (.+)$")


def sql_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "sql", here.parent / "sql"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the sql/ rulebook is missing from this installation")


@dataclass
class RuleFile:
    path: Path
    rel: str
    text: str
    objects: dict[str, str] = field(default_factory=dict)            # name -> meaning
    columns: dict[str, dict[str, str]] = field(default_factory=dict)  # name -> column -> meaning

    @property
    def input_layer(self) -> bool:
        """Files numbered below 05 define input tables and macros; the rest derive from loaded data."""
        return _order_key(self.rel)[0] < INPUT_LAYER_BELOW


def _order_key(rel: str) -> tuple[int, str]:
    m = re.match(r"(\d+)", rel.rsplit("/", 1)[-1])
    return (int(m.group(1)) if m else 10**6, rel)


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


@lru_cache(maxsize=4)
def load(root: str | None = None) -> tuple[tuple[RuleFile, ...], str]:
    """All rule files in order and `rulebook_sha256` over their relative paths and bytes."""
    base = Path(root) if root else sql_dir()
    files = []
    digest = hashlib.sha256()
    for rel in sorted((p.relative_to(base).as_posix() for p in base.rglob("*.sql")), key=_order_key):
        path = base / rel
        data = path.read_bytes()
        digest.update(rel.encode() + b"\0" + data + b"\0")
        objects, columns = parse_header(data.decode("utf-8"))
        files.append(RuleFile(path, rel, data.decode("utf-8"), objects, columns))
    return tuple(files), digest.hexdigest()


def rulebook_sha256(sections: tuple[str, ...] | None = None, profile: str | None = None) -> str:
    """The hash a store built with these sections (all by default) and this corpus profile records."""
    corpus = sections is None or "corpus" in sections
    return digest_of(in_use(load()[0], sections, profile), (profile or DEFAULT_PROFILE) if corpus else None)


def in_use(files: tuple[RuleFile, ...], sections: tuple[str, ...] | None, profile: str | None,
           through: int | None = None) -> tuple[RuleFile, ...]:
    """The rule files a store runs: sql/core, the sections asked for (all by default) and, in the corpus section, the
    shared core plus the folders of the profile; with `through`, only files numbered up to it (the order is the
    dependency order, so a command that needs no later view runs no later file)."""
    folders = PROFILES[profile or DEFAULT_PROFILE]
    out = []
    for f in files:
        if through is not None and _order_key(f.rel)[0] > through:
            continue
        parts = f.rel.split("/")
        if sections is not None and parts[0] not in ("core", *sections):
            continue
        if parts[0] == "corpus" and len(parts) > 2 and parts[1] not in folders:
            continue
        out.append(f)
    return tuple(out)


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
INTERNAL_PREFIXES = ("raw_", "jsonl_", "field_", "ledger_", "unit_pins", "image_copies", "audit_inventory_",
                     "audit_occurrences", "audit_batch_lines")


def internal(name: str) -> bool:
    return name.startswith(INTERNAL_PREFIXES)


def sections_of() -> dict[str, str]:
    """Each object's rulebook section (corpus, audit, verify; core for the shared plumbing)."""
    out = {}
    for f in load()[0]:
        for name in f.objects:
            out.setdefault(name, f.rel.split("/")[0])
    return out
