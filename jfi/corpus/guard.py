"""Shared refusal for commands that write: an invalid corpus (or input file) is never written to."""

from __future__ import annotations

from ..errors import refuse
from ..store import Store


def refuse_on_violations(store: Store, sources: list[str], what: str) -> None:
    """Print every violation in the given files and refuse (exit 2) when there is any."""
    marks = ", ".join("?" for _ in sources)
    rows = store.rows(f"SELECT * FROM corpus_violations WHERE source IN ({marks})", sources)
    refuse(rows, "invalid_input", f"violation(s) listed above; {what} refused, nothing written")
