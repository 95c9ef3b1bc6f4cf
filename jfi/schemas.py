"""JSON Schemas (draft 2020-12) of the record kinds the rulebook checks field by field, made from its field_specs
rows: the one definition of each format's fields, so a schema and the rulebook cannot drift. A schema says what a
single record may hold; what spans records (ids twice, lines left out, word limits) stays with the rulebook."""

from __future__ import annotations

from .store import Store

TYPES = {
    "string": "string",
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
    "array": "array",
    "object": "object",
    "null": "null",
}
FORMATS = {  # the named formats of field_specs, in JSON Schema's words (the rulebook's test is the exact one)
    "nonblank": {"pattern": r"\S"},
    "http_url": {"pattern": r"^[Hh][Tt][Tt][Pp][Ss]?://\S+$"},
    "date": {"pattern": r"^\d{4}-\d{2}-\d{2}$"},
    "person": {"pattern": r"^$|[^\W_]"},  # empty, or showing a letter or digit (patterns are ECMA-262 and Python re)
}
SECTIONS = ("audit", "corpus", "verify")


# the formats people and programs write, by their published name: (field_specs kind, corpus profile)
PUBLISHED = {
    "corpus-item-round-v1": ("item", "round-v1"),
    "corpus-item-round-v2": ("item", "round-v2"),
    "corpus-item-harvest": ("item", "harvest"),
    "review-verdict": ("review", "round-v1"),
    "second-pass": ("second_pass", "round-v1"),
    "harvest-review-batch": ("batch", "harvest"),
    "judged-line": ("judged", None),
    "spot-check": ("spot_check", None),
    "ratification": ("ratification", None),
    "eval-expectation": ("expectation", None),
    "eval-override": ("override", None),
    "verify-claim": ("verify_claim", None),
    "inventory-view": (None, None),
    "inventory-run": (None, "run"),
}
SQL_TYPES = {"VARCHAR": "string", "INTEGER": "integer", "BIGINT": "integer", "DOUBLE": "number", "BOOLEAN": "boolean"}


def _specs(sections=SECTIONS, profile: str | None = None) -> list[dict]:
    store = (
        Store(sections=sections, needs=("field_specs",), profile=profile)
        if profile
        else Store(sections=sections, needs=("field_specs",))
    )
    try:
        return store.build().rows("SELECT * FROM field_specs ORDER BY kind, rowid")
    finally:
        store.close()


def kinds(profile: str | None = None) -> list[str]:
    return sorted({s["kind"] for s in _specs(profile=profile)})


def of_rows(kind: str, rows: list[dict]) -> dict:
    """The schema of one kind from its field_specs rows."""
    props, required, open_ = {}, [], False
    for s in rows:
        if s["field"] == "*":
            open_ = True
            continue
        types = [TYPES[t] for t in s["types"] or []]
        prop: dict = {"description": s["meaning"] or ""}
        if types:
            prop["type"] = types[0] if len(types) == 1 else types
        strings = [{}]
        if s["allowed"] is not None:
            strings[0]["enum"] = list(s["allowed"])
        if s["pattern"] is not None:
            strings[0]["pattern"] = f"^(?:{s['pattern']})$"
        if s["format"] in FORMATS:
            strings.append(FORMATS[s["format"]])
        if s["min_len"] is not None:
            strings[0]["minLength"] = s["min_len"]
        if s["max_len"] is not None:
            strings[0]["maxLength"] = s["max_len"]
        if s["min_int"] is not None:
            prop["minimum"] = s["min_int"]
        if s["max_int"] is not None:
            prop["maximum"] = s["max_int"]
        rules = [r for r in strings if r]
        if rules:  # string rules apply to strings only (a field may also be null)
            if types == ["string"]:
                prop.update(rules[0]) if len(rules) == 1 else prop.setdefault("allOf", rules)
            else:
                prop["if"] = {"type": "string"}
                prop["then"] = {"allOf": rules}
        props[s["field"]] = prop
        if s["required"]:
            required.append(s["field"])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:jfi:schema:{kind}",
        "title": kind,
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": open_,
    }


def schema(kind: str, profile: str | None = None) -> dict | None:
    rows = [s for s in _specs(profile=profile) if s["kind"] == kind]
    return of_rows(kind, rows) if rows else None


def _of_structure(shape) -> dict:
    """A json_transform structure (DuckDB's typed shape of a JSON value) as a JSON Schema: every field may be
    absent or null, as the reader takes it."""
    if isinstance(shape, dict):
        return {"type": ["object", "null"], "properties": {k: _of_structure(v) for k, v in shape.items()}}
    if isinstance(shape, list):
        return {"type": ["array", "null"], "items": _of_structure(shape[0]) if shape else {}}
    kind = SQL_TYPES.get(shape)
    return {"type": [kind, "null"]} if kind else {}


def inventory_view() -> dict:
    """A view record of inventory.jsonl (content-inventory/v1): the fields the rulebook requires and checks
    (audit_inventory_violations) and the inventory's typed shape (audit_inventory_structure)."""
    import json

    store = Store(sections=("audit",), needs=("audit_inventory_structure",))
    try:
        shape = json.loads(store.build().con.execute("SELECT audit_inventory_structure()").fetchone()[0])
    finally:
        store.close()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:jfi:schema:inventory-view",
        "title": "inventory-view",
        "type": "object",
        "required": ["view_id", "product", "url"],
        "properties": {
            "record": {"enum": ["view"], "description": "the record kind (absent or view)"},
            "view_id": {
                "type": "string",
                "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]*$",
                "maxLength": 100,
                "description": "view id (it names files)",
            },
            "product": {
                "type": "string",
                "pattern": "^[^\\W_][^/\\\\\\x00-\\x1f\\x7f]*$",
                "maxLength": 100,
                "description": "the product the view belongs to (it names files)",
            },
            "url": {"type": "string", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://", "description": "the page asked for"},
            "final_url": {"type": ["string", "null"]},
            "nav_error": {"type": ["string", "null"]},
            "viewport": {"type": ["string", "null"]},
            "stayed_on_route_host": {"type": ["boolean", "null"]},
            "environment_notes": {"type": "array", "items": {"type": "string"}},
            "inventory": _of_structure(shape),
        },
        "additionalProperties": True,
    }


def inventory_run() -> dict:
    """The run header on line 1 of inventory.jsonl (audit_inventory_violations: once, on line 1)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["record", "schema"],
        "properties": {
            "record": {"const": "run", "description": "the run header's kind"},
            "schema": {"const": "content-inventory/v1", "description": "the format"},
            "viewport": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "width": {"type": "integer"}, "height": {"type": "integer"}},
            },
            "caps": {"type": "object", "additionalProperties": {"type": "integer"}},
            "view_count": {"type": "integer", "minimum": 0},
            "jfi_version": {"type": "string"},
        },
        "additionalProperties": True,
    }


def published(name: str) -> dict:
    """The JSON Schema of a published format (see PUBLISHED)."""
    kind, profile = PUBLISHED[name]
    doc = (inventory_run() if profile == "run" else inventory_view()) if kind is None else schema(kind, profile)
    return {**doc, "$id": f"urn:jfi:schema:{name}", "title": name}
