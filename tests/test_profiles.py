"""Corpus profiles: the rules of each era of the upstream format (round-v1, round-v2, harvest), chosen by
corpus/profile.txt or the first record's keys; data of another era is one error; migration between eras."""

import json

import pytest
from conftest import dump, item, snapshot

from tests.test_verdicts import review, two_passes


def harvest_item(i=1, **changes):
    rec = {
        "id": f"fi-{i:04d}",
        "status": "unreviewed",
        "page_url": f"https://www.example.gov/p{i}",
        "domain": "example.gov",
        "sector": "government",
        "image_url": f"https://example.gov/i/{i}.png",
        "image_coord_space": None,
        "image_svg": None,
        "image_file": None,
        "image_sha256": None,
        "implementation": "img",
        "element_role": "link",
        "element_html": f'<a href="/p{i}"><img alt="Home"></a>',
        "surrounding_text": "",
        "observed_alt": "Home",
        "accessible_name": "Home",
        "accessible_name_source": "alt",
        "category": 1,
        "subtype": "linked-standalone-logo",
        "retrieved": "2026-08-28",
        "review_verdict": None,
        "review_reason": None,
        "alt_quality": None,
    }
    for k, v in changes.items():
        if v is ...:
            rec.pop(k, None)
        else:
            rec[k] = v
    return rec


def verdict(item_id, verdict="drop", quality="weak", subtype=None):
    return {
        "item_id": item_id,
        "verdict": verdict,
        "alt_quality": quality,
        "reason": "The alt names the brand but not where the link goes.",
        "subtype": subtype,
    }


def write_batch(jfi, n, records):
    path = jfi.project / "review" / f"batch-{n:02d}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump(records))
    return path


def codes(report):
    return sorted({(e["line"], e["field"], e["code"]) for e in report["errors"]})


@pytest.mark.parametrize(
    "record,profile",
    [
        (item(), "round-v1"),
        (item(accessible_name="Settings", accessible_name_source="alt"), "round-v2"),
        (harvest_item(), "harvest"),
    ],
)
def test_the_profile_is_detected_from_the_first_record(jfi, record, profile):
    jfi.write_corpus([record])
    r = jfi("corpus", "validate", "--json")
    assert r.json["profile"] == profile
    assert jfi("corpus", "profile").stdout.strip() == profile


def test_profile_txt_wins_and_data_of_another_profile_is_one_error(jfi):
    jfi.write_corpus([harvest_item(i) for i in range(1, 6)])
    (jfi.project / "corpus" / "profile.txt").write_text("round-v1\n")
    before = snapshot(jfi.project)
    r = jfi("corpus", "validate", "--json")
    assert r.exit_code == 2
    assert [(e["line"], e["code"]) for e in r.json["errors"]] == [(1, "profile_mismatch")]
    assert "line 1 has the keys of 'harvest'; this project is 'round-v1'" in r.json["errors"][0]["message"]
    r = jfi("corpus", "export", "--out", str(jfi.project / "exports"))
    assert r.exit_code == 2 and "profile_mismatch" in r.stderr
    assert snapshot(jfi.project) == before


def test_a_round_v1_record_in_a_round_v2_project_lists_the_missing_names(jfi):
    jfi.write_corpus([item()])
    r = jfi("corpus", "validate", "--json", "--profile", "round-v2")
    assert r.exit_code == 2
    assert codes(r.json) == [(1, "accessible_name", "missing_field"), (1, "accessible_name_source", "missing_field")]


def test_round_v2_name_rules(jfi):
    jfi.write_corpus(
        [
            item(id="fi-0001", accessible_name="Settings", accessible_name_source="alt"),  # alt "gear" != name
            item(id="fi-0002", accessible_name="Settings", accessible_name_source="control-text"),  # no text around
            item(id="fi-0003", accessible_name="gear", accessible_name_source="alt"),
            item(id="fi-0004", accessible_name=" ", accessible_name_source="svg"),
        ]
    )
    r = jfi("corpus", "validate", "--json")
    assert r.json["profile"] == "round-v2"
    assert codes(r.json) == [
        (1, "accessible_name_source", "name_source_mismatch"),
        (2, "accessible_name_source", "name_source_mismatch"),
        (4, "accessible_name", "invalid_value"),
        (4, "accessible_name_source", "invalid_value"),
    ]


def test_round_v2_refuses_to_accept_an_item_whose_control_has_no_name(jfi):
    named = dict(accessible_name="gear", accessible_name_source="alt")
    jfi.write_corpus([two_passes(id="fi-0001", **named), two_passes(id="fi-0002", **named)])
    (jfi.project / "corpus" / "profile.txt").write_text("round-v2\n")
    jfi.write_round(
        1,
        "review.jsonl",
        [review("fi-0001", "accept"), review("fi-0002", "reject", reason_codes=["NO-ACCESSIBLE-NAME"])],
    )
    assert jfi("corpus", "apply-verdicts", "--round", "1", "--dry-run").exit_code == 0  # the reason code is known
    records = [json.loads(x) for x in jfi.corpus.read_text().splitlines()]
    records[0]["accessible_name"] = ""
    jfi.write_corpus(records)
    before = snapshot(jfi.project)
    r = jfi("corpus", "apply-verdicts", "--round", "1")  # an item with no name is refused before any accept lands
    assert r.exit_code == 2 and "accessible_name: invalid_value" in r.stderr
    assert snapshot(jfi.project) == before
    jfi.write_corpus([item(id="fi-0001"), item(id="fi-0002")])
    (jfi.project / "corpus" / "profile.txt").write_text("round-v1\n")
    r = jfi("corpus", "validate", "--json")  # round-v1 has no such reason code
    assert any(e["code"] != "unknown_item" and "NO-ACCESSIBLE-NAME" in e["message"] for e in r.json["errors"])


def test_an_unknown_status_is_counted_under_its_own_name_and_refused(jfi):
    jfi.write_corpus([item(id="fi-0001"), item(id="fi-0002", status="maybe"), item(id="fi-0003", status="maybe")])
    r = jfi("corpus", "validate", "--json")
    assert r.json["counts"]["by_status"] == {"candidate": 1, "maybe": 2}
    assert (2, "status", "invalid_value") in codes(r.json) and (3, "status", "invalid_value") in codes(r.json)
    jfi.write_corpus([harvest_item(1), harvest_item(2, status="pending")])
    r = jfi("corpus", "validate", "--json")
    assert r.json["counts"]["by_status"] == {"unreviewed": 1, "pending": 1}


@pytest.mark.parametrize(
    "changes,field,code",
    [
        ({"id": "fi-12"}, "id", "invalid_value"),
        ({"status": "accepted"}, "status", "invalid_value"),
        ({"image_url": None}, "image_url", "image_url_required"),
        ({"image_url": "ftp://x/y.png"}, "image_url", "invalid_value"),
        ({"implementation": "inline-svg", "image_url": None}, "image_svg", "image_svg_required"),
        (
            {"implementation": "inline-svg", "image_url": None, "image_svg": "<svg><path/></svg>"},
            "image_svg",
            "invalid_value",
        ),
        ({"image_svg": '<svg xmlns="http://www.w3.org/2000/svg"/>'}, "image_svg", "image_svg_forbidden"),
        ({"image_coord_space": "370x296"}, "image_coord_space", "coord_space_not_area"),
        ({"image_coord_space": "big"}, "image_coord_space", "invalid_value"),
        ({"image_coord_space": ...}, "image_coord_space", "missing_field"),
        ({"element_html": "a link"}, "element_html", "invalid_value"),
        ({"element_role": "glyph"}, "element_role", "invalid_value"),
        ({"retrieved": "28 Aug 2026"}, "retrieved", "invalid_value"),
        ({"domain": "www.example.gov"}, "domain", "domain_mismatch"),
        ({"category": 2}, "subtype", "category_subtype_mismatch"),
        ({"sector": ""}, "sector", "invalid_value"),
        ({"accessible_name": ""}, "accessible_name", "invalid_value"),
        (
            {
                "status": "ready",
                "review_verdict": "keep",
                "review_reason": "Names the destination.",
                "alt_quality": "weak",
                "image_file": "pool/images/fi-0001.png",
                "image_sha256": "a" * 64,
            },
            "review_verdict",
            "ready_not_keep_good",
        ),
        (
            {
                "status": "ready",
                "review_verdict": "keep",
                "review_reason": "Names the destination.",
                "alt_quality": "good",
            },
            "image_file",
            "ready_without_image_file",
        ),
        (
            {"status": "dropped", "review_verdict": "drop", "alt_quality": "weak"},
            "review_reason",
            "review_field_missing",
        ),
        ({"review_verdict": "keep"}, "review_verdict", "review_field_unreviewed"),
    ],
)
def test_harvest_rules(jfi, changes, field, code):
    jfi.write_corpus([harvest_item(1, **changes)])
    r = jfi("corpus", "validate", "--json", "--profile", "harvest")
    assert r.exit_code == 2
    assert (1, field, code) in codes(r.json), r.json["errors"]


def test_harvest_takes_unknown_fields_and_its_readme_readings_are_warnings(jfi):
    jfi.write_corpus(
        [
            harvest_item(
                1,
                extra_note="kept as it comes",
                sector="hobby",
                page_url="https://example.gov/p1",
                surrounding_text="x" * 241,
            ),
            harvest_item(2, status="dropped", review_verdict="drop", review_reason="Too short", alt_quality="weak"),
        ]
    )
    r = jfi("corpus", "validate", "--json")
    assert r.exit_code == 0 and r.json["errors"] == []
    warned = {(w["line"], w["code"]) for w in r.json["warnings"]}
    assert {
        (1, "sector_unknown"),
        (1, "surrounding_text_long"),
        (2, "review_reason_short"),
        (2, "domain_not_literal_host"),
    } <= warned
    assert (1, "domain_not_literal_host") not in warned  # its page_url has no www.
    assert r.json["counts"]["by_sector"] == {"government": 1, "hobby": 1}


def test_harvest_coverage_reports_but_never_gates(jfi):
    jfi.write_corpus([harvest_item(i) for i in range(1, 4)])
    r = jfi("corpus", "validate", "--json", "--target", "25")
    assert r.exit_code == 0 and not r.json["goals_met"]
    unmet = {c["criterion"] for c in r.json["criteria"] if not c["met"]}
    assert "sector education at least" in unmet and "largest page (https://www.example.gov/p1)" not in unmet
    assert jfi("corpus", "validate").exit_code == 0
    jfi.write_corpus("")
    assert jfi("corpus", "validate", "--profile", "harvest").exit_code == 1  # empty


def test_apply_review_batches_all_or_nothing(jfi):
    keepable = dict(image_file="pool/images/fi-0002.png", image_sha256="b" * 64)
    jfi.write_corpus([harvest_item(1), harvest_item(2, **keepable), harvest_item(3)])
    write_batch(
        jfi,
        1,
        [
            verdict("fi-0001"),
            verdict("fi-0002", "keep", "good"),
            verdict("fi-0003", subtype="standalone-navigational-link"),
        ],
    )
    before = jfi.corpus.read_bytes()
    r = jfi("corpus", "apply-review", "--batch", "1", "--dry-run")
    assert r.exit_code == 0 and jfi.corpus.read_bytes() == before
    r = jfi("corpus", "apply-review", "--batch", "1")
    assert r.exit_code == 0, r.stderr
    got = [json.loads(x) for x in jfi.corpus.read_text().splitlines()]
    assert [g["status"] for g in got] == ["dropped", "ready", "dropped"]
    assert got[1]["review_verdict"] == "keep" and got[1]["alt_quality"] == "good"
    assert got[0]["review_reason"].startswith("The alt names")
    assert got[2]["subtype"] == "standalone-navigational-link" and got[2]["category"] == 1
    assert jfi("corpus", "validate").exit_code == 0
    after = jfi.corpus.read_bytes()
    assert jfi("corpus", "apply-review", "--batch", "1").exit_code == 1 and jfi.corpus.read_bytes() == after


@pytest.mark.parametrize(
    "records,message",
    [
        ([verdict("fi-0001", "keep", "weak")], "keep_not_good"),
        ([verdict("fi-0009")], "unknown_item"),
        ([verdict("fi-0001"), verdict("fi-0001")], "reviewed_twice"),
        ([verdict("fi-0001", "keep", "good")], "a ready item needs its archived copy"),
        ([verdict("fi-0002", "keep", "good")], "already reviewed"),
    ],
)
def test_a_batch_that_cannot_apply_writes_nothing(jfi, records, message):
    jfi.write_corpus(
        [
            harvest_item(1),
            harvest_item(
                2,
                status="dropped",
                review_verdict="drop",
                review_reason="The alt is the file name.",
                alt_quality="wrong",
            ),
        ]
    )
    write_batch(jfi, 2, records)
    before = snapshot(jfi.project)
    r = jfi("corpus", "apply-review", "--batch", "2")
    assert r.exit_code == 2 and message in r.stderr
    assert snapshot(jfi.project) == before


def test_round_commands_refuse_a_harvest_project_and_apply_review_a_round_one(jfi):
    jfi.write_corpus([harvest_item(1)])
    r = jfi("corpus", "apply-verdicts", "--round", "1")
    assert r.exit_code == 2 and "wrong_profile" in r.stderr
    assert jfi("corpus", "second-pass", "extract", "--round", "1").exit_code == 2
    jfi.write_corpus([item()])
    r = jfi("corpus", "apply-review", "--batch", "1")
    assert r.exit_code == 2 and "wrong_profile" in r.stderr


def test_init_and_profile_commands_write_profile_txt(tmp_path):
    from conftest import Jfi

    jfi = Jfi(tmp_path / "p")
    assert jfi("corpus", "init", "--profile", "harvest").exit_code == 0
    assert (tmp_path / "p" / "review").is_dir()
    assert jfi("corpus", "profile").stdout.strip() == "harvest"
    assert jfi("corpus", "profile", "harvest").exit_code == 1
    assert jfi("corpus", "profile", "round-v2").exit_code == 0
    assert jfi("corpus", "profile").stdout.strip() == "round-v2"
    assert jfi("corpus", "profile", "round-v9").exit_code == 3


def test_migrate_round_v1_to_round_v2_adds_blank_names_to_fill(jfi):
    jfi.write_corpus([item(id="fi-0001"), item(id="fi-0002")])
    r = jfi("corpus", "migrate", "--to", "round-v2")
    assert r.exit_code == 0, r.stderr
    first = json.loads(jfi.corpus.read_text().splitlines()[0])
    keys = list(first)
    assert keys[keys.index("observed_alt_verdict") + 1 : keys.index("observed_alt_verdict") + 3] == [
        "accessible_name",
        "accessible_name_source",
    ]
    assert first["accessible_name"] == "" and jfi("corpus", "profile").stdout.strip() == "round-v2"
    r = jfi("corpus", "validate", "--json")
    assert r.exit_code == 2 and {c for _, _, c in codes(r.json)} == {"invalid_value"}
    assert jfi("corpus", "migrate", "--to", "round-v2").exit_code == 1


def test_migrate_to_harvest_maps_what_it_can_and_lists_what_it_cannot(jfi):
    named = dict(accessible_name="gear", accessible_name_source="alt")
    jfi.write_corpus(
        [
            item(id="fi-0001", **named),
            item(id="fi-0002", status="accepted", **named),
            item(id="fi-0003", implementation="sprite", **named),
        ]
    )
    before = snapshot(jfi.project)
    r = jfi("corpus", "migrate", "--to", "harvest", "--sector", "government")
    assert r.exit_code == 2 and "fi-0002" in r.stderr and "fi-0003" in r.stderr and "fi-0001:" not in r.stderr
    assert snapshot(jfi.project) == before
    jfi.write_corpus([item(id="fi-0001", **named), item(id="fi-0002", status="needs-revision", **named)])
    assert jfi("corpus", "migrate", "--to", "harvest").exit_code == 2  # no sector
    r = jfi("corpus", "migrate", "--to", "harvest", "--sector", "government")
    assert r.exit_code == 0, r.stderr
    got = [json.loads(x) for x in jfi.corpus.read_text().splitlines()]
    assert [g["status"] for g in got] == ["unreviewed", "unreviewed"] and "gold_alt" not in got[0]
    assert (jfi.project / "corpus" / "functional-images.round-v2.jsonl").is_file()  # the round-era file is kept
    r = jfi("corpus", "validate", "--json")
    assert r.json["profile"] == "harvest" and r.exit_code == 0, r.json["errors"]


def test_a_harvest_export_names_its_profile_and_carries_its_own_fields(jfi, tmp_path):
    jfi.write_corpus([harvest_item(1), harvest_item(2)])
    r = jfi("corpus", "export", "--format", "csv", "--out", str(tmp_path / "out"))
    assert r.exit_code == 0, r.stderr
    import csv

    rows = list(csv.DictReader((tmp_path / "out" / "corpus-items.csv").open(newline="")))
    assert {row["profile"] for row in rows} == {"harvest"}
    assert (
        "sector" in rows[0] and "alt_quality" in rows[0] and "gold_alt" not in rows[0] and "pass_count" not in rows[0]
    )
    from jfi import rulebook

    assert {row["rulebook_sha256"] for row in rows} == {rulebook.rulebook_sha256(("corpus",), "harvest")}
