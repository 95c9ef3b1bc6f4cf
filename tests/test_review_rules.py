"""Review-record rules, each removed rule makes one case fail."""

import pytest
from conftest import item

GOOD = {
    "item_id": "fi-0001",
    "round": 1,
    "verdict": "revise",
    "reason_codes": ["NO-SECOND-PASS"],
    "evidence": "Only one pass exists for this item.",
    "required_change": "Run a blind second pass.",
    "blocking": True,
}


def review_codes(jfi, records, round_no=1):
    jfi.write_corpus([item()])
    jfi.write_round(round_no, "review.jsonl", records)
    r = jfi("corpus", "validate", "--json")
    return r, {(e["line"], e["field"], e["code"]) for e in r.json["errors"]}


def test_good_review_is_clean(jfi):
    r, found = review_codes(jfi, [GOOD])
    assert found == set() and r.exit_code == 1


CASES = [
    (dict(extra=1), "extra", "unknown_field"),
    (dict(evidence=None), "evidence", "invalid_type"),
    (dict(item_id="fi-0002"), "item_id", "unknown_item"),
    (dict(round=2), "round", "round_mismatch"),
    (dict(verdict="maybe"), "verdict", "invalid_value"),
    (dict(reason_codes=[]), "reason_codes", "invalid_value"),
    (dict(reason_codes=["NOT-A-CODE"]), "reason_codes", "invalid_value"),
    (dict(reason_codes="CLEAN"), "reason_codes", "invalid_type"),
    (dict(evidence="short"), "evidence", "too_short"),
    (
        dict(verdict="accept", reason_codes=["CLEAN", "LEAKAGE"], required_change=None, blocking=False),
        "reason_codes",
        "clean_mismatch",
    ),
    (dict(reason_codes=["CLEAN"]), "reason_codes", "clean_mismatch"),
    (dict(required_change=None), "required_change", "required_change_mismatch"),
    (dict(verdict="reject", reason_codes=["LEAKAGE"]), "required_change", "required_change_mismatch"),
    (
        dict(verdict="accept", reason_codes=["CLEAN"], required_change=None, blocking=True),
        "blocking",
        "accept_blocking",
    ),
    (dict(blocking="yes"), "blocking", "invalid_type"),
]


@pytest.mark.parametrize("changes,field,code", CASES, ids=[c[2] + ":" + c[1] for c in CASES])
def test_review_rule(jfi, changes, field, code):
    r, found = review_codes(jfi, [{**GOOD, **changes}])
    assert (1, field, code) in found, found
    assert r.exit_code == 2


def test_round_number_comes_from_file_name_numerically(jfi):
    r, found = review_codes(jfi, [{**GOOD, "round": 10}], round_no=10)
    assert found == set()
    jfi.write_round(
        9,
        "review.jsonl",
        [{**GOOD, "round": 9, "verdict": "reject", "reason_codes": ["LEAKAGE"], "required_change": None}],
    )
    r = jfi("query", "SELECT round, verdict FROM corpus_reviews WHERE is_latest", "--format", "json")
    assert r.json == [{"round": 10, "verdict": "revise"}]
