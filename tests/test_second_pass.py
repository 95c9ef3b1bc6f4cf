"""Blind second passes: extract carries no answer; apply appends pass-b, all or nothing, idempotent."""

import json

from conftest import item, snapshot

BLIND = [
    "item_id",
    "page_url",
    "image_url",
    "image_file",
    "implementation",
    "element_role",
    "element_html",
    "surrounding_text",
    "destination",
]


def test_extract_hands_out_only_blind_fields_for_due_items(jfi):
    jfi.write_corpus(
        [
            item(id="fi-0001"),
            item(id="fi-0002", status="needs-revision"),
            item(id="fi-0003", leaky=True),
            item(id="fi-0004", adjudication="Settled by the editor."),
            item(id="fi-0005", status="rejected"),
            item(
                id="fi-0006",
                gold_alt_passes=[
                    {"author": "pass-a", "alt": "Settings", "rationale": "r"},
                    {"author": "pass-c", "alt": "Settings", "rationale": "r"},
                ],
            ),
        ]
    )
    r = jfi("corpus", "second-pass", "extract", "--round", "2")
    assert r.exit_code == 0, r.stderr
    lines = (jfi.project / "rounds" / "round-02-second-pass-input.jsonl").read_text().splitlines()
    records = [json.loads(x) for x in lines]
    assert [x["item_id"] for x in records] == ["fi-0001", "fi-0002"]
    for rec in records:
        assert list(rec) == BLIND
    text = "\n".join(lines)
    for answer in ("gold_alt", "observed_alt", "Settings", "rationale", "leak", "difficulty"):
        assert answer not in text


def test_extract_with_nothing_due_is_exit_1_and_writes_nothing(jfi):
    jfi.write_corpus([item(status="rejected")])
    r = jfi("corpus", "second-pass", "extract", "--round", "2")
    assert r.exit_code == 1
    assert not (jfi.project / "rounds").exists()


def answers(jfi, records, round_no=2):
    return jfi.write_round(round_no, "second-pass.jsonl", records)


def setup_round(jfi):
    jfi.write_corpus(
        [
            item(id="fi-0001"),
            item(
                id="fi-0002",
                gold_alt="Options",
                gold_alt_passes=[{"author": "pass-a", "alt": "Options", "rationale": "r"}],
            ),
            item(id="fi-0003", status="rejected"),
        ]
    )
    assert jfi("corpus", "second-pass", "extract", "--round", "2").exit_code == 0


def test_apply_appends_reports_disagreement_and_is_idempotent(jfi):
    setup_round(jfi)
    answers(
        jfi,
        [
            {"item_id": "fi-0001", "alt": "Settings", "rationale": "Names what the button opens."},
            {"item_id": "fi-0002", "alt": "Preferences", "rationale": "Opens the preference panel."},
        ],
    )
    r = jfi("corpus", "second-pass", "apply", "--round", "2")
    assert r.exit_code == 0, r.stderr
    assert "fi-0002: disagreement" in r.stdout and "fi-0001: disagreement" not in r.stdout
    recs = [json.loads(x) for x in jfi.corpus.read_text().splitlines()]
    assert recs[0]["gold_alt_passes"][-1] == {
        "author": "pass-b",
        "alt": "Settings",
        "rationale": "Names what the button opens.",
    }
    assert len(recs[1]["gold_alt_passes"]) == 2
    once = jfi.corpus.read_bytes()
    r = jfi("corpus", "second-pass", "apply", "--round", "2")
    assert r.exit_code == 1 and "0 pass-b appended" in r.stdout  # nothing to do
    assert jfi.corpus.read_bytes() == once
    v = jfi("corpus", "validate", "--json").json
    assert v["errors"] == [] and v["warnings"] == []
    assert [p["item_id"] for p in v["pending"] if p["work"] == "adjudication"] == ["fi-0002"]


def test_extract_never_overwrites_a_round_silently(jfi):
    setup_round(jfi)
    handed = jfi.project / "rounds" / "round-02-second-pass-input.jsonl"
    before = snapshot(jfi.project)
    r = jfi("corpus", "second-pass", "extract", "--round", "2")
    assert r.exit_code == 2 and "input_exists" in r.stderr and snapshot(jfi.project) == before
    assert jfi("corpus", "second-pass", "extract", "--round", "2", "--replace").exit_code == 0
    answers(jfi, [{"item_id": "fi-0001", "alt": "Settings", "rationale": "Names what the button opens."}])
    assert jfi("corpus", "second-pass", "apply", "--round", "2").exit_code == 0
    before = snapshot(jfi.project)
    for extra in ([], ["--replace"]):
        r = jfi("corpus", "second-pass", "extract", "--round", "2", *extra)
        assert r.exit_code == 2 and "round_answered" in r.stderr and snapshot(jfi.project) == before
    assert handed.is_file() and jfi("corpus", "validate", "--json").json["errors"] == []


def test_apply_refuses_bad_answers_all_or_nothing(jfi):
    setup_round(jfi)
    cases = [
        (
            {"item_id": "fi-0001", "alt": "Settings", "rationale": "Names what the button opens.", "gold_alt": "x"},
            "unknown_field",
        ),
        ({"item_id": "fi-0003", "alt": "Settings", "rationale": "Names what the button opens."}, "unknown_item"),
        ({"item_id": "fi-0001", "alt": "x" * 126, "rationale": "Names what the button opens."}, "too_long"),
        ({"item_id": "fi-0001", "alt": "Settings", "rationale": "too short"}, "too_short"),
        ({"item_id": "fi-0001", "alt": "Settings"}, "missing_field"),
    ]
    good = {"item_id": "fi-0002", "alt": "Options", "rationale": "Opens the option panel for you."}
    for bad, code in cases:
        answers(jfi, [good, bad])
        before = snapshot(jfi.project)
        r = jfi("corpus", "second-pass", "apply", "--round", "2")
        assert r.exit_code == 2, (code, r.stdout)
        assert "round-02-second-pass.jsonl:2: " in r.stderr and code in r.stderr
        assert snapshot(jfi.project) == before


def test_apply_refuses_a_conflicting_pass_b(jfi):
    setup_round(jfi)
    answers(jfi, [{"item_id": "fi-0001", "alt": "Settings", "rationale": "Names what the button opens."}])
    assert jfi("corpus", "second-pass", "apply", "--round", "2").exit_code == 0
    answers(jfi, [{"item_id": "fi-0001", "alt": "Gear", "rationale": "Another answer for the same item."}])
    before = snapshot(jfi.project)
    r = jfi("corpus", "second-pass", "apply", "--round", "2")
    assert r.exit_code == 2 and "conflicting_second_pass" in r.stderr
    assert snapshot(jfi.project) == before


def test_apply_without_input_or_answers_is_exit_1(jfi):
    jfi.write_corpus([item()])
    r = jfi("corpus", "second-pass", "apply", "--round", "3")
    assert r.exit_code == 1 and "run extract first" in r.stderr
    jfi.write_round(3, "second-pass-input.jsonl", [{"item_id": "fi-0001"}])
    r = jfi("corpus", "second-pass", "apply", "--round", "3")
    assert r.exit_code == 1 and "nothing to apply" in r.stderr
