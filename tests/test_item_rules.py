"""Every item rule, one mutation each: the rule's (field, code) must appear, and a valid item has none."""

import json

import pytest
from conftest import item


def codes(jfi, records, *extra):
    jfi.write_corpus(records)
    r = jfi("corpus", "validate", "--json", "--target", "25", *extra)
    return r, {(e["line"], e["field"], e["code"]) for e in r.json["errors"]}


def test_valid_item_has_no_violation(jfi):
    r, found = codes(jfi, [item()])
    assert found == set()
    assert r.exit_code == 1


CASES = [
    ("unknown_field", dict(extra=1), "extra", "unknown_field"),
    ("missing", dict(gold_alt=...), "gold_alt", "missing_field"),
    ("notes optional", dict(notes=...), None, None),
    ("id pattern", dict(id="fi-12"), "id", "invalid_value"),
    ("status enum", dict(status="done"), "status", "invalid_value"),
    ("round_added >= 1", dict(round_added=0), "round_added", "invalid_value"),
    ("round_added integer", dict(round_added=1.5), "round_added", "invalid_type"),
    ("round_added not string", dict(round_added="1"), "round_added", "invalid_type"),
    ("category range", dict(category=6), "category", "invalid_value"),
    ("subtype enum", dict(subtype="logo"), "subtype", "invalid_value"),
    ("subtype category", dict(subtype="linked-standalone-logo"), "subtype", "category_subtype_mismatch"),
    ("page_url http", dict(page_url="ftp://example.com/x"), "page_url", "invalid_value"),
    ("page_url relative", dict(page_url="/inbox"), "page_url", "invalid_value"),
    ("domain agrees", dict(domain="example.org"), "domain", "domain_mismatch"),
    ("domain keeps subdomain", dict(page_url="https://mail.example.com/x"), "domain", "domain_mismatch"),
    ("image_url url", dict(image_url="not a url"), "image_url", "invalid_value"),
    ("image_url required", dict(image_url=None), "image_url", "image_url_required"),
    (
        "image_file own id",
        dict(image_file="corpus/images/fi-0002.svg", image_sha256="a" * 64),
        "image_file",
        "image_file_mismatch",
    ),
    (
        "image_file folder",
        dict(image_file="images/fi-0001.svg", image_sha256="a" * 64),
        "image_file",
        "image_file_mismatch",
    ),
    (
        "image_file ext",
        dict(image_file="corpus/images/fi-0001.exe", image_sha256="a" * 64),
        "image_file",
        "image_file_mismatch",
    ),
    (
        "sha256 hex",
        dict(image_file="corpus/images/fi-0001.svg", image_sha256="A" * 64),
        "image_sha256",
        "invalid_value",
    ),
    ("pair file only", dict(image_file="corpus/images/fi-0001.svg"), "image_sha256", "image_pair_mismatch"),
    ("pair hash only", dict(image_sha256="a" * 64), "image_file", "image_pair_mismatch"),
    ("implementation enum", dict(implementation="canvas"), "implementation", "invalid_value"),
    ("element_role enum", dict(element_role="widget"), "element_role", "invalid_value"),
    ("element_html nonblank", dict(element_html="  "), "element_html", "invalid_value"),
    ("destination nonblank", dict(destination=""), "destination", "invalid_value"),
    ("provenance nonblank", dict(provenance_note=""), "provenance_note", "invalid_value"),
    ("surrounding_text string", dict(surrounding_text=None), "surrounding_text", "invalid_type"),
    ("observed_alt type", dict(observed_alt=3), "observed_alt", "invalid_type"),
    ("verdict enum", dict(observed_alt_verdict="ok"), "observed_alt_verdict", "invalid_value"),
    ("missing needs null", dict(observed_alt_verdict="missing"), "observed_alt_verdict", "alt_verdict_mismatch"),
    ("null needs missing", dict(observed_alt=None), "observed_alt_verdict", "alt_verdict_mismatch"),
    (
        "gold_alt length",
        dict(gold_alt="x" * 126, gold_alt_passes=[{"author": "pass-a", "alt": "x" * 126, "rationale": "r"}]),
        "gold_alt",
        "too_long",
    ),
    (
        "starter",
        dict(
            gold_alt="Icon for settings",
            gold_alt_passes=[{"author": "pass-a", "alt": "Icon for settings", "rationale": "r"}],
        ),
        "gold_alt",
        "redundant_starter",
    ),
    (
        "starter case",
        dict(
            gold_alt="GO TO LINK settings",
            gold_alt_passes=[{"author": "pass-a", "alt": "GO TO LINK settings", "rationale": "r"}],
        ),
        "gold_alt",
        "redundant_starter",
    ),
    (
        "starter whole words",
        dict(
            gold_alt="Icon formatting",
            gold_alt_passes=[{"author": "pass-a", "alt": "Icon formatting", "rationale": "r"}],
        ),
        None,
        None,
    ),
    ("gold in passes", dict(gold_alt="Preferences"), "gold_alt", "gold_alt_not_in_passes"),
    ("adjudication excuses gold", dict(gold_alt="Preferences", adjudication="Settled by the editor."), None, None),
    ("rationale length", dict(gold_alt_rationale="x" * 39), "gold_alt_rationale", "too_short"),
    ("passes non-empty", dict(gold_alt_passes=[]), "gold_alt_passes", "invalid_value"),
    ("passes array", dict(gold_alt_passes={"author": "pass-a"}), "gold_alt_passes", "invalid_type"),
    ("pass shape", dict(gold_alt_passes=[{"author": "pass-a", "alt": "Settings"}]), "gold_alt_passes", "invalid_value"),
    (
        "pass extra key",
        dict(gold_alt_passes=[{"author": "pass-a", "alt": "Settings", "rationale": "r", "x": 1}]),
        "gold_alt_passes",
        "invalid_value",
    ),
    (
        "pass string types",
        dict(gold_alt_passes=[{"author": "pass-a", "alt": "Settings", "rationale": 5}]),
        "gold_alt_passes",
        "invalid_value",
    ),
    ("pass object", dict(gold_alt_passes=["Settings"]), "gold_alt_passes", "invalid_value"),
    ("adjudication type", dict(adjudication=5), "adjudication", "invalid_type"),
    ("difficulty enum", dict(difficulty="hard"), "difficulty", "invalid_value"),
    ("dual_purpose bool", dict(dual_purpose="no"), "dual_purpose", "invalid_type"),
    ("leaky bool", dict(leaky=0), "leaky", "invalid_type"),
    ("leakage_check length", dict(leakage_check="x" * 19), "leakage_check", "too_short"),
    ("retrieved calendar", dict(retrieved="2026-02-30"), "retrieved", "invalid_value"),
    ("retrieved format", dict(retrieved="2026-8-27"), "retrieved", "invalid_value"),
    ("notes type", dict(notes=1), "notes", "invalid_type"),
    (
        "accepted leaky",
        dict(status="accepted", leaky=True, image_url=None, implementation="inline-svg"),
        "leaky",
        "accepted_leaky",
    ),
    (
        "accepted two passes",
        dict(status="accepted", image_url=None, implementation="inline-svg"),
        "gold_alt_passes",
        "accepted_without_two_passes",
    ),
    (
        "accepted disagreeing",
        dict(
            status="accepted",
            image_url=None,
            implementation="inline-svg",
            gold_alt_passes=[
                {"author": "pass-a", "alt": "Settings", "rationale": "r"},
                {"author": "pass-b", "alt": "Options", "rationale": "r"},
            ],
        ),
        "gold_alt_passes",
        "accepted_disagreeing_passes",
    ),
    (
        "accepted image copy",
        dict(status="accepted", adjudication="Editor settled it."),
        "image_file",
        "accepted_without_image_copy",
    ),
]


def _own_id(value, new_id: str):
    """A case's item under its own id (file names that follow the id follow it)."""
    if isinstance(value, str):
        return value.replace("fi-0001", new_id)
    if isinstance(value, list):
        return [_own_id(v, new_id) for v in value]
    if isinstance(value, dict):
        return {k: _own_id(v, new_id) for k, v in value.items()}
    return value


@pytest.fixture(scope="module")
def every_case(tmp_path_factory):
    """Every case's item on its own line (case N on line N, with its own id) of one corpus, validated once through
    the library: an item rule reads its own line (the cross-item rules have their own tests below)."""
    from conftest import Jfi

    import jfi

    root = tmp_path_factory.mktemp("cases")
    Jfi(root).write_corpus(
        [_own_id(item(**changes), f"fi-{1001 + n:04d}") for n, (_, changes, _, _) in enumerate(CASES)]
    )
    result = jfi.open_corpus(root).validate(target=25)
    found: dict[int, set] = {}
    for e in result.data["errors"]:
        found.setdefault(e["line"], set()).add((e["field"], e["code"]))
    return result, found


@pytest.mark.parametrize("n", range(len(CASES)), ids=[c[0] for c in CASES])
def test_rule(every_case, n):
    result, found = every_case
    _, _, field, code = CASES[n]
    assert result.code == 2  # some case breaks a rule
    if code is None:
        assert found.get(n + 1, set()) == set(), found.get(n + 1)
    else:
        assert (field, code) in found.get(n + 1, set()), found.get(n + 1)


def test_accepted_item_with_everything_is_clean(jfi):
    good = item(
        status="accepted",
        image_url=None,
        implementation="inline-svg",
        gold_alt_passes=[
            {"author": "pass-a", "alt": "Settings", "rationale": "r"},
            {"author": "pass-b", "alt": "Settings", "rationale": "Settings is what it opens."},
        ],
    )
    jfi.write_round(
        1, "second-pass.jsonl", [{"item_id": "fi-0001", "alt": "Settings", "rationale": "Settings is what it opens."}]
    )
    jfi.write_round(1, "second-pass-input.jsonl", [{"item_id": "fi-0001"}])
    r, found = codes(jfi, [good])
    assert found == set()
    assert r.json["warnings"] == []


def test_duplicate_id_names_first_line(jfi):
    r, found = codes(jfi, [item(), item(domain="example.com")])
    assert (2, "id", "duplicate_id") in found
    assert "line 1" in [e for e in r.json["errors"] if e["code"] == "duplicate_id"][0]["message"]


def test_unrecorded_second_pass_is_a_warning_only(jfi):
    passes = [
        {"author": "pass-a", "alt": "Settings", "rationale": "r"},
        {"author": "pass-b", "alt": "Settings", "rationale": "s"},
    ]
    r, found = codes(jfi, [item(gold_alt_passes=passes)])
    assert found == set() and r.exit_code == 1
    assert [w["code"] for w in r.json["warnings"]] == ["unrecorded_second_pass"]
    assert any(p["work"] == "unrecorded_second_pass" for p in r.json["pending"])
    # recorded with a different rationale is still unrecorded
    jfi.write_round(
        2, "second-pass.jsonl", [{"item_id": "fi-0001", "alt": "Settings", "rationale": "other words here"}]
    )
    jfi.write_round(2, "second-pass-input.jsonl", [{"item_id": "fi-0001"}])
    r, _ = codes(jfi, [item(gold_alt_passes=passes)])
    assert [w["code"] for w in r.json["warnings"]] == ["unrecorded_second_pass"]


def test_duplicate_key_in_one_object_is_invalid_json(jfi):
    text = json.dumps(item())[:-1] + ', "status": "accepted"}\n'
    jfi.write_corpus(text)
    r = jfi("corpus", "validate", "--json")
    assert (1, "status", "invalid_json") in {(e["line"], e["field"], e["code"]) for e in r.json["errors"]}


def test_a_key_given_twice_is_checked_for_each_type_it_was_given_each_problem_once(jfi):
    text = json.dumps(item(notes="n"))[:-1] + ', "notes": 1, "extra": 1, "extra": 2}\n'
    jfi.write_corpus(text)
    errors = jfi("corpus", "validate", "--json").json["errors"]
    [typed] = [e for e in errors if e["field"] == "notes" and e["code"] == "invalid_type"]
    assert typed["message"].endswith("got integer")  # the second value's type, not a merged "object"
    assert [e["code"] for e in errors if e["field"] == "extra"].count("unknown_field") == 1
