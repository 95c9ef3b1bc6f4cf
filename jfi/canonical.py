"""Content digests: canonical JSON (keys sorted recursively, no spaces, UTF-8) hashed as sha256:<hex>."""

from __future__ import annotations

import hashlib
import json

DECISION_EXCLUDED = ("decision_id", "supersedes", "supersession_reason")


def digest(obj) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def decision_id(record: dict) -> str:
    """The id of a ratification decision: its content with scope defaulted to wcag and without the
    decision id itself and the supersession fields."""
    body = {k: v for k, v in record.items() if k not in DECISION_EXCLUDED}
    if not body.get("scope"):
        body["scope"] = "wcag"
    return digest(body)
