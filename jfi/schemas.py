"""JSON Schemas (draft 2020-12) of the record kinds the rulebook checks field by field, made from its field_specs
rows: the one definition of each format's fields, so a schema and the rulebook cannot drift. A schema says what a
single record may hold; what spans records (ids twice, lines left out, word limits) stays with the rulebook."""
from __future__ import annotations

from .store import Store

TYPES = {"string": "string", "integer": "integer", "number": "number", "boolean": "boolean", "array": "array",
         "object": "object", "null": "null"}
FORMATS = {  # the named formats of field_specs, in JSON Schema's words (the rulebook's test is the exact one)
    "nonblank": {"pattern": r"\S"},
    "http_url": {"pattern": r"^[Hh][Tt][Tt][Pp][Ss]?://\S+$"},
    "date": {"pattern": r"^\d{4}-\d{2}-\d{2}$"},
    "person": {"pattern": r"^$|[\p{L}\p{N}]"},
}
SECTIONS = ("audit", "corpus", "verify")


def _specs(sections=SECTIONS, profile: str | None = None) -> list[dict]:
    store = Store(sections=sections, needs=("field_specs",), profile=profile) if profile else \
        Store(sections=sections, needs=("field_specs",))
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
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"urn:jfi:schema:{kind}",
            "title": kind, "type": "object", "properties": props, "required": required,
            "additionalProperties": open_}


def schema(kind: str, profile: str | None = None) -> dict | None:
    rows = [s for s in _specs(profile=profile) if s["kind"] == kind]
    return of_rows(kind, rows) if rows else None
