"""JSON Schemas of every format jfi reads or writes, made from the rulebook's own field rules: published in
docs/schemas/ as `jfi schema --json-schema KIND` prints them, each accepting its format's complete example (the
ones docs/formats.md shows, the bundled expectations, captured views) and refusing what the rulebook refuses."""

import copy
import json

import pytest
import yaml
from conftest import REPO, Jfi, item
from inventories import image, link, view
from jsonschema import Draft202012Validator
from test_formats_doc import examples

from jfi import schemas

DOCS = REPO / "docs" / "schemas"
EXAMPLES = {
    "round-v1-item": "corpus-item-round-v1",
    "round-v2-item": "corpus-item-round-v2",
    "harvest-item": "corpus-item-harvest",
    "review-verdict": "review-verdict",
    "second-pass-answer": "second-pass",
    "harvest-review-batch": "harvest-review-batch",
    "judged-batch": "judged-line",
    "spot-checks": "spot-check",
    "ratification-hand": "ratification",
    "ratification-pinned": "ratification",
}


def validator(name):
    return Draft202012Validator(schemas.published(name))


def records(text):
    text = text.strip()
    try:
        return [json.loads(text)]
    except ValueError:
        return [json.loads(x) for x in text.splitlines() if x.strip()]


def test_the_published_schemas_are_what_jfi_prints_and_valid_schemas():
    assert sorted(p.name for p in DOCS.glob("*.schema.json")) == sorted(f"{n}.schema.json" for n in schemas.PUBLISHED)
    for name in schemas.PUBLISHED:
        doc = json.loads((DOCS / f"{name}.schema.json").read_text())
        assert doc == schemas.published(name), (
            f"docs/schemas/{name}.schema.json is stale: run `jfi schema --json-schema {name}`"
        )
        Draft202012Validator.check_schema(doc)
    r = Jfi(REPO)("schema", "--json-schema", "judged-line")
    assert r.exit_code == 0 and json.loads(r.stdout) == schemas.published("judged-line")
    assert Jfi(REPO)("schema", "--json-schema", "nope").exit_code == 3


@pytest.mark.parametrize("example, name", sorted(EXAMPLES.items()))
def test_each_formats_complete_example_is_accepted(example, name):
    v = validator(name)
    for rec in records(examples()[example]):
        assert not list(v.iter_errors(rec)), (example, [e.message for e in v.iter_errors(rec)])


def test_the_bundled_expectations_and_captured_views_are_accepted():
    v = validator("eval-expectation")
    rows = yaml.safe_load((REPO / "corpus" / "example-site" / "eval" / "expectations.yaml").read_text())
    for row in rows:
        assert not list(v.iter_errors(row)), [e.message for e in v.iter_errors(row)]
    v = validator("inventory-view")
    for rec in (view("home", links=[link()], images=[image()]), {**view("b"), "record": "view"}):
        assert not list(v.iter_errors(rec)), [e.message for e in v.iter_errors(rec)]
    assert list(v.iter_errors({**view("c"), "url": "javascript:alert(1)"}))  # build refuses it: invalid_url
    assert list(v.iter_errors({**view("c"), "view_id": "a/b"}))
    import tempfile
    from pathlib import Path

    from inventories import write

    header = json.loads(
        (write(Path(tempfile.mkdtemp()) / "a", [view("d")]) / "inventory.jsonl").read_text().splitlines()[0]
    )
    assert not list(validator("inventory-run").iter_errors(header))


# what the rulebook refuses, refused by the schema too: (format, change to a valid record, the rulebook's code)
REFUSED = [
    ("judged-line", {"judgment": "maybe"}, "invalid_value"),
    ("judged-line", {"confidence": None}, "invalid_type"),
    ("judged-line", {"id": "  "}, "invalid_value"),
    ("judged-line", {"extra": 1}, "unknown_field"),
    ("judged-line", {"needs_human": ...}, "missing_field"),
    ("spot-check", {"spot_check": "maybe"}, "invalid_value"),
    ("ratification", {"ratified_judgment": "perhaps"}, "invalid_value"),
    ("ratification", {"ratified_by": "\u200b"}, "invalid_value"),
    ("corpus-item-round-v1", {"status": "unheard-of"}, "invalid_value"),
    ("corpus-item-round-v1", {"page_url": "ftp://x.example/"}, "invalid_value"),
    ("corpus-item-round-v1", {"gold_alt": ...}, "missing_field"),
]


@pytest.mark.parametrize("name, change, code", REFUSED)
def test_what_the_rulebook_refuses_the_schema_refuses(tmp_path, name, change, code):
    base = {
        "judged-line": records(examples()["judged-batch"])[0],
        "spot-check": records(examples()["spot-checks"])[0],
        "ratification": records(examples()["ratification-hand"])[0],
        "corpus-item-round-v1": item(),
    }[name]
    rec = copy.deepcopy(base)
    for k, v in change.items():
        if v is ...:
            rec.pop(k)
        else:
            rec[k] = v
    assert list(validator(name).iter_errors(rec)), (name, change)
    # and the rulebook says so, with the same record
    if name == "corpus-item-round-v1":
        jfi = Jfi(tmp_path)
        jfi.write_corpus([rec])
        jfi.write_round(1, "review.jsonl", [])
        found = {e["code"] for e in jfi("corpus", "validate", "--json").json["errors"]}
    else:
        from jfi.store import Store

        kind = {"judged-line": "judged", "spot-check": "spot_check", "ratification": "ratification"}[name]
        store = Store(sections=("audit",), needs=("field_violations",), inventory=False)
        try:
            store.append("raw_files", {"kind": [kind], "source": ["x.jsonl"], "round": [None], "present": [True]})
            store.add_lines(kind, "x.jsonl", [1], [json.dumps(rec)])
            found = {r["code"] for r in store.build().rows("SELECT code FROM field_violations")}
        finally:
            store.close()
    assert code in found, (name, change, found)
