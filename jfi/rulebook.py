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


def rulebook_sha256() -> str:
    return load()[1]


def meanings() -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    objects: dict[str, str] = {}
    columns: dict[str, dict[str, str]] = {}
    for f in load()[0]:
        objects.update(f.objects)
        columns.update(f.columns)
    return objects, columns
