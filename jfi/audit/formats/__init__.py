"""The published formats `jfi audit export --format` writes, one module each (its FILE and its `document(store,
...)`): a format is its module and its line here. A module is imported only when its format is asked for."""

from __future__ import annotations

import importlib
from pathlib import Path

CODE_SCANNING = 25_000  # the most results a SARIF run may hold for GitHub's code scanning, which rejects a run of more
FORMATS = {  # --format name -> its module
    "sarif": "jfi.audit.formats.sarif",
    "junit": "jfi.audit.formats.junit",
    "earl": "jfi.audit.formats.earl",
    "openacr": "jfi.audit.formats.openacr",
}


def module(fmt: str):
    """The format's module: FILE (the file it writes), CONFIG (whether it reads audit.toml), document(store, ...)
    (its bytes, and what it tells its user)."""
    return importlib.import_module(FORMATS[fmt])


def documents(store, fmt: str, **options) -> tuple[dict[str, bytes], list[str]]:
    """({file name: bytes}, what it tells its user) of one format, from a loaded store (options: flags_fail,
    max_results, config, config_path)."""
    found = module(fmt)
    data, notes = found.document(store, **options)
    return {found.FILE: data}, notes


def write(files, out: Path, docs: dict[str, bytes]) -> list[Path]:
    for name, data in docs.items():
        files.write(out / name, data)
    return [out / name for name in docs]
