"""jfi: JSONL sources of truth, versioned SQL rules in DuckDB, and exports back out."""
__version__ = "0.1.0"
