"""audit.toml, the settings of an audit folder: one strict reader for the capture (its [capture] viewports and [axe]
rules) and the audit (each product's [products.NAME] note for judges). Known tables only; a symlink is not read (a
folder from someone else must not point jfi at another file)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from .errors import JfiError

TABLES = (
    "capture",
    "axe",
    "products",
    "acr",
    "sarif",
)  # capture and axe: read by the capture; products: by the judge kit; acr: by the conformance report


def read(path: Path) -> dict | None:
    """The whole file as tables, or None when the folder has no audit.toml (or only a symlink by that name)."""
    path = Path(path)
    if not path.is_file() or path.is_symlink():
        return None
    try:
        config = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise JfiError("invalid_config", f"not TOML: {e}", source=str(path)) from None
    unknown = sorted(set(config) - set(TABLES))
    if unknown:
        raise JfiError(
            "invalid_config",
            f"unknown key(s) {', '.join(unknown)}; audit.toml holds {', '.join(sorted(TABLES))}",
            source=str(path),
            field=unknown[0],
        )
    for name, table in config.items():
        if not isinstance(table, dict):
            raise JfiError("invalid_config", f"{name} must be a table ([{name}])", source=str(path), field=name)
    return config


def table(path: Path, name: str) -> tuple[dict, str | None]:
    """One table of the file (empty when there is none), and the file's path (None when there is no file)."""
    config = read(path)
    return ({}, None) if config is None else (config.get(name, {}), str(path))
