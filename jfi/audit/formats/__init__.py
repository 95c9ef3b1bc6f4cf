"""The published formats `jfi audit export --format` writes, one module each (its FILE and its `document(store,
...)`): a format is its module and its line here. A module is imported only when its format is asked for."""

from __future__ import annotations

import importlib
from pathlib import Path

FORMATS = {  # --format name -> its module
    "sarif": "jfi.audit.formats.sarif",
    "junit": "jfi.audit.formats.junit",
    "earl": "jfi.audit.formats.earl",
    "openacr": "jfi.audit.formats.openacr",
}


def module(fmt: str):
    """The format's module: FILE (the file it writes), CONFIG (whether it reads audit.toml), document(store, ...)."""
    return importlib.import_module(FORMATS[fmt])


def documents(store, fmt: str, **options) -> dict[str, bytes]:
    """{file name: bytes} of one format, from a loaded store (options: flags_fail, config, config_path)."""
    found = module(fmt)
    return {found.FILE: found.document(store, **options)}


def write(files, out: Path, docs: dict[str, bytes]) -> list[Path]:
    for name, data in docs.items():
        files.write(out / name, data)
    return [out / name for name in docs]
