"""The version of jfi, recorded in every output beside rulebook_sha256."""

__version__ = "0.1.0"
