"""`jfi audit judge --second-reader MODEL`: the spot-check sample (spot-check-sample.jsonl, written by `sample`) read
by another model, which agrees with each draft or overturns it with its own judgment; its answers are checked by
the rulebook's spot-check rules and appended to spot-checks.jsonl (checked_by: the model id the endpoint reports),
which merge renders as it renders a person's. A row already spot-checked is never asked about again."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import JfiError, clip, format_location
from ..jsonl import AtomicFiles, append_records, line_columns, parse_json, read_lines
from ..output import Outcome
from ..paths import regular_file
from ..schemas import schema
from ..store import Store
from .asking import Asker, parse_lines
from .client import EndpointError

KIT = "judge-kit"

SAMPLE, CHECKS = "spot-check-sample.jsonl", "spot-checks.jsonl"
CHUNK = 30  # sampled rows per request
ASKED = ("id", "spot_check", "judgment", "note")
INSTRUCTIONS = """You are the second reader of an accessibility audit. Each row below is a unit a first judge has
drafted (its `draft`, `confidence`, `rationale` and `fix`). Read the row against the rubric and decide whether the
draft holds: `agree`, or `overturn` with the judgment (`yes`, `no` or `unsure`) that replaces it. Judge what the row
says a person receives. Answer with a JSON object {"checks": [...]}: one object per row, in the rows' order, each
{"id": the row's id, "spot_check": "agree" or "overturn", "judgment": your judgment when you overturn, "note": why, in
at most 25 words}."""


def _format() -> dict:
    whole = schema("spot_check")
    item = {
        "type": "object",
        "additionalProperties": False,
        "required": ["id", "spot_check", "note"],
        "properties": {k: v for k, v in whole["properties"].items() if k in ASKED},
    }
    return {
        "type": "json_schema",
        "json_schema": {
            "name": "spot_checks",
            "strict": False,
            "schema": {
                "type": "object",
                "additionalProperties": False,
                "required": ["checks"],
                "properties": {"checks": {"type": "array", "items": item}},
            },
        },
    }


def _problems(root: Path, texts: list[str]) -> list[str]:
    """The rulebook's spot-check rules over the folder's spot checks with these lines after them."""
    store = Store(sections=("audit",), needs=("audit_violations",), inventory=False)
    checks = root / CHECKS
    try:
        units = root / "judgment-units.json"
        built = [json.dumps(u, ensure_ascii=False) for u in parse_json(units.read_bytes(), units).get("units", [])]
        store.add_lines("unit", str(units), list(range(1, len(built) + 1)), built)
        numbers, old = line_columns(checks) if regular_file(checks) else ([], [])
        start = (numbers[-1] if numbers else 0) + 1
        store.add_file("spot_check", checks, old + texts, numbers + list(range(start, start + len(texts))))
        store.build()
        rows = store.rows("SELECT * FROM audit_violations WHERE line >= ?", [start])
    finally:
        store.close()
    return [format_location(r["source"], r["line"], r["field"], r["code"], r["message"]) for r in rows]


def _product_notes(root: Path) -> dict[str, str]:
    """Each product's note as judge-kit wrote it (the first kit of the product)."""
    notes = {}
    for product_md in sorted((root / KIT).glob("*/product.md")):
        text = product_md.read_text(encoding="utf-8")
        notes.setdefault(text.splitlines()[0].lstrip("# ").strip(), text)
    return notes


def second_read(root: Path, asker: Asker, endpoint: str) -> Outcome:
    sample = root / SAMPLE
    if not regular_file(sample):
        raise JfiError(
            "not_sampled", f"no {SAMPLE} in {root}; run `jfi audit sample --inventory {root}` first", source=str(sample)
        )
    done = set()
    if regular_file(root / CHECKS):
        for line in read_lines(root / CHECKS):
            rec = parse_json(line.text, root / CHECKS, line.number)
            if isinstance(rec, dict):
                done.add(rec.get("id"))
    rows = [
        r
        for r in (parse_json(ln.text, sample, ln.number) for ln in read_lines(sample))
        if isinstance(r, dict) and r.get("draft") and r.get("id") not in done
    ]
    if not rows:
        return Outcome(1, lines=[f"every sampled row of {root} is spot-checked; nothing for a second reader"])
    rubric = (
        (root / "judgment-rubric.md").read_text(encoding="utf-8") if regular_file(root / "judgment-rubric.md") else ""
    )
    notes = _product_notes(root)
    records, failed = [], []
    for k in range(0, len(rows), CHUNK):
        chunk = rows[k : k + CHUNK]
        products = sorted({r.get("product") for r in chunk})
        msgs = [
            {"role": "system", "content": INSTRUCTIONS + "\n\n" + rubric},
            {
                "role": "user",
                "content": "\n\n".join(notes.get(p, f"# {p}") for p in products)
                + "\n\n# Rows\n\n"
                + "\n".join(json.dumps(r, ensure_ascii=False) for r in chunk)
                + "\n",
            },
        ]
        try:
            answer, _ = asker.ask(msgs)
        except EndpointError as e:
            failed.append(f"{endpoint}: {e}")
            continue
        lines = parse_lines(answer.text.replace('"checks"', '"lines"', 1))
        asked = {r["id"] for r in chunk}
        got = [
            {**{f: c[f] for f in ASKED if c.get(f) is not None}, "checked_by": answer.model or asker.model}
            for c in lines or []
            if isinstance(c, dict) and c.get("id") in asked
        ]
        if lines is None or {c["id"] for c in got} != asked:
            failed.append(
                f"{endpoint}: the second reader's answer does not check every row asked ({clip(answer.text, 120)!r})"
            )
            continue
        problems = _problems(root, [json.dumps(c, ensure_ascii=False) for c in records + got])
        if problems:
            failed += problems
            continue
        records += got
    if records:
        with AtomicFiles() as files:
            old = (root / CHECKS).read_bytes() if regular_file(root / CHECKS) else b""
            files.write(root / CHECKS, append_records(old, records))
    agree = sum(r["spot_check"] == "agree" for r in records)
    return Outcome(
        1 if failed else 0,
        {"checked": len(records), "agree": agree, "overturn": len(records) - agree, "problems": failed},
        text=f"{len(records)} sampled row(s) read by the second reader ({agree} agree, {len(records) - agree} "
        f"overturn); {len(failed)} problem(s)",
        notes=failed,
    )
