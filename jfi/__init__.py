"""jfi: JSONL sources of truth, versioned SQL rules in DuckDB, and exports back out.

`import jfi` is the Python API (jfi.api): open_corpus, open_audit, open_verification, import_inventory, capture,
query, every command of the command line, Result, JfiError. They are
loaded on first use, so the command line's --version and --help stay quick."""

from .version import __version__  # noqa: F401  (jfi.__version__)

_API = (
    "Audit",
    "Corpus",
    "JfiError",
    "Result",
    "Verification",
    "capture",
    "combine",
    "import_inventory",
    "init_corpus",
    "open_audit",
    "open_corpus",
    "open_verification",
    "query",
    "schema",
)


def __getattr__(name: str):
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'jfi' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_API])
