"""The newer eras of the upstream corpus format (../shared/conformance/corpus/upstream): jfi's verdicts, in its own
codes and words, against what upstream's own validator of each commit said (expected.json): the same exit status,
problems on the same lines and fields, the same counts."""

import hashlib
import json

import pytest
from typer.testing import CliRunner

from jfi.cli import app
from tests.conformance.conftest import writable_copy

V2 = "round-v2-f8931af7"
HARVEST = "harvest-67edd7e9"


def validate(project, *args):
    r = CliRunner().invoke(
        app, ["--project", str(project), "corpus", "validate", "--json", *args], catch_exceptions=False
    )
    return r.exit_code, json.loads(r.stdout)


def at_fault(errors):
    return {(e["line"], e["field"]) for e in errors}


@pytest.fixture(scope="module")
def v2(conformance):
    return conformance / "corpus" / "upstream" / V2, json.loads(
        (conformance / "corpus" / "upstream" / V2 / "expected.json").read_text()
    )


@pytest.mark.parametrize("fixture", ["valid-item", "invalid-items"])
def test_round_v2_fixtures(v2, fixture, tmp_path):
    folder, expected = v2
    case = expected["fixtures"][fixture]
    code, got = validate(
        tmp_path, "--profile", "round-v2", "--corpus", str(folder / "tools" / "fixtures" / f"{fixture}.jsonl")
    )
    assert code == case["exit"]
    assert at_fault(got["errors"]) == at_fault(case["schema_errors"])
    assert got["counts"]["items"] == case["counts"]["items"]
    statuses = {s: n for s, n in case["counts"]["byStatus"].items() if n}
    assert {s: n for s, n in got["counts"]["by_status"].items() if s in case["counts"]["byStatus"]} == statuses


def test_round_v2_names_are_detected_without_a_profile_file(v2, tmp_path):
    folder, _ = v2
    _, got = validate(tmp_path, "--corpus", str(folder / "tools" / "fixtures" / "valid-item.jsonl"))
    assert got["profile"] == "round-v2" and got["errors"] == []


def test_round_v2_review_of_an_unknown_item(v2, tmp_path):
    folder, expected = v2
    case = expected["fixtures"]["valid-review"]
    (tmp_path / "rounds").mkdir()
    (tmp_path / "rounds" / "round-01-review.jsonl").write_bytes(
        (folder / "tools" / "fixtures" / "valid-review.jsonl").read_bytes()
    )
    code, got = validate(
        tmp_path, "--profile", "round-v2", "--corpus", str(folder / "tools" / "fixtures" / "valid-item.jsonl")
    )
    assert code == case["exit"] and len(got["errors"]) == case["schema_error_count"] == 1
    assert (
        got["errors"][0]["record_id"] == case["schema_errors"][0]["item_id"]
        and got["errors"][0]["code"] == "unknown_item"
    )


def test_the_round_v1_corpus_under_round_v2_rules(conformance, v2, tmp_path):
    folder, expected = v2
    case = expected["round_v1_corpus_under_this_validator"]
    code, got = validate(
        tmp_path,
        "--profile",
        "round-v2",
        "--corpus",
        str(conformance / "corpus" / "real" / "corpus" / "functional-images.jsonl"),
        "--rounds",
        str(folder / "rounds"),
    )
    assert code == case["exit"]
    assert at_fault(got["errors"]) == at_fault(case["schema_errors"])  # the two name fields on each of the 12 lines
    assert {s: n for s, n in got["counts"]["by_status"].items()} == {
        s: n for s, n in case["counts"]["byStatus"].items() if n
    }


@pytest.fixture(scope="module")
def harvest(conformance, tmp_path_factory):
    src = conformance / "corpus" / "upstream" / HARVEST
    root = tmp_path_factory.mktemp("harvest")
    writable_copy(src / "corpus", root / "corpus")
    writable_copy(src / "review", root / "review")
    return root, json.loads((src / "expected.json").read_text())


def test_the_newest_upstream_corpus_validates_as_upstream_says(harvest):
    root, expected = harvest
    code, got = validate(root)
    want = expected["corpus"]["validate_json"]
    assert got["profile"] == "harvest"
    assert code == want["exit"] == 0 and got["errors"] == [] and want["problems"] == []
    assert got["counts"]["items"] == want["items"]
    assert got["counts"]["by_status"] == expected["corpus"]["counts"]["by_status"]
    assert got["counts"]["by_sector"] == want["bySector"]
    assert got["counts"]["by_subtype"] == want["bySubtype"]
    assert got["counts"]["by_domain"] == want["byDomain"] and got["counts"]["domains"] == len(want["byDomain"])
    assert got["goal"] == want["goal"]
    targets = got["targets"]
    assert (
        targets["sector_min"],
        targets["sector_max"],
        targets["subtype_min"],
        targets["domain_max"],
        targets["per_page"],
    ) == tuple(want["caps"][k] for k in ("sectorMin", "sectorMax", "subtypeMin", "domainMax", "perPage"))


def test_its_coverage_gaps_are_upstreams_warnings(harvest):
    root, expected = harvest
    _, got = validate(root)
    unmet = {(c["criterion"], c["actual"], c["target"]) for c in got["criteria"] if not c["met"]}
    want = set()
    for text in expected["corpus"]["validate_json"]["warnings"]:  # "sector commerce holds 17, short of 20"
        kind, name, _, held, _, _, bar = text.replace(",", "").split()
        want.add((f"{kind} {name} at least" if kind == "sector" else f"{kind} {name}", int(held), int(bar)))
    assert unmet == want


def test_the_readme_readings_the_validator_leaves_out_are_warnings(harvest):
    root, expected = harvest
    _, got = validate(root)
    facts = expected["corpus"]["readme_rules_the_validator_does_not_check"]
    by_code = {}
    for w in got["warnings"]:
        by_code[w["code"]] = by_code.get(w["code"], 0) + 1
    assert by_code.get("domain_not_literal_host", 0) == facts["domain_equals_literal_host_of_page_url"]["differ"]
    for code in (
        "review_reason_short",
        "sector_unknown",
        "surrounding_text_long",
        "image_file_path",
        "dropped_keep_good",
    ):
        assert code not in by_code
    ready = expected["corpus"]["counts"]["by_status"]["ready"]
    assert by_code.get("ready_without_image_copy") == ready  # the image bytes are not in the data pack


def test_text_mode_shows_the_warnings_grouped_by_code(harvest):
    from conftest import Jfi

    root, _ = harvest
    _, got = validate(root)
    r = Jfi(root)("corpus", "validate")
    codes = {w["code"] for w in got["warnings"]}
    assert codes and f"Warnings ({len(got['warnings'])};" in r.stdout
    for code in codes:
        n = sum(1 for w in got["warnings"] if w["code"] == code)
        assert f"  {code}: {n}" in r.stdout
    first = got["warnings"][0]
    assert f"{first['source']}:{first['line']}:" in r.stdout


def test_its_review_batches_are_all_applied(harvest):
    root, expected = harvest
    before = hashlib.sha256((root / "corpus" / "functional-images.jsonl").read_bytes()).hexdigest()
    for path in sorted((root / "review").glob("batch-*.jsonl")):
        number = int(path.stem.split("-")[1])
        r = CliRunner().invoke(app, ["--project", str(root), "corpus", "apply-review", "--batch", str(number)])
        assert r.exit_code == 1, r.stdout + r.stderr  # every verdict already applied: nothing to do
    assert hashlib.sha256((root / "corpus" / "functional-images.jsonl").read_bytes()).hexdigest() == before
    assert expected["review_batches"]["records"] == expected["corpus"]["items"]


def test_unapplied_batches_rebuild_the_statuses(harvest, tmp_path):
    """Every item set back to unreviewed (review fields null): applying the nine batches gives the corpus again."""
    root, expected = harvest
    project = tmp_path / "p"
    writable_copy(root, project)
    corpus = project / "corpus" / "functional-images.jsonl"
    original = [json.loads(x) for x in corpus.read_text().splitlines()]
    batches = {}
    for path in sorted((project / "review").glob("batch-*.jsonl")):
        for line in path.read_text().splitlines():
            batches[json.loads(line)["item_id"]] = json.loads(line)
    reset = []
    for rec in original:
        rec = dict(rec, status="unreviewed", review_verdict=None, review_reason=None, alt_quality=None)
        if batches[rec["id"]]["subtype"]:  # undo the correction the batch carries
            rec["subtype"] = (
                "standalone-navigational-link"
                if rec["subtype"] != "standalone-navigational-link"
                else "linked-standalone-logo"
            )
            rec["category"] = 1
        reset.append(rec)
    corpus.write_text("".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in reset))
    for n in range(1, 10):
        r = CliRunner().invoke(app, ["--project", str(project), "corpus", "apply-review", "--batch", str(n)])
        assert r.exit_code == 0, r.stdout + r.stderr
    rebuilt = [json.loads(x) for x in corpus.read_text().splitlines()]
    assert [
        (r["id"], r["status"], r["subtype"], r["category"], r["review_verdict"], r["alt_quality"]) for r in rebuilt
    ] == [(r["id"], r["status"], r["subtype"], r["category"], r["review_verdict"], r["alt_quality"]) for r in original]
    code, got = validate(project)
    assert code == 0 and got["counts"]["by_status"] == expected["corpus"]["counts"]["by_status"]
