"""Every expectation in ../shared/conformance/corpus/expected.json, against jfi."""

import hashlib
import json

import pytest
from typer.testing import CliRunner

from jfi.cli import app
from tests.conformance.conftest import writable_copy


def run(project, *args):
    r = CliRunner().invoke(app, ["--project", str(project), *args], catch_exceptions=False)
    return r


def tree_hashes(root):
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != ".jfi.lock"
    }


@pytest.fixture(scope="module")
def expected(conformance):
    return json.loads((conformance / "corpus" / "expected.json").read_text())


def test_fixture_corpora(conformance, expected, tmp_path):
    checked = 0
    for case in expected["fixtures"]:
        if "corpus" not in case:
            continue
        want = case["expect"]
        r = run(tmp_path, "corpus", "validate", "--json", "--corpus", str(conformance / "corpus" / case["corpus"]))
        got = json.loads(r.stdout)
        assert r.exit_code == want["exit"], case["corpus"]
        if "errors" in want:
            assert len(got["errors"]) == want["errors"], got["errors"]
        if "min_errors" in want:
            assert len(got["errors"]) >= want["min_errors"]
        if "counts_by_status" in want:
            assert got["counts"]["by_status"] == want["counts_by_status"]
        found = {(e["line"], e["field"], e["code"]) for e in got["errors"]}
        for m in want.get("must_include", []):
            assert (m["line"], m["field"], m["code"]) in found, m
        checked += 1
    assert checked == 2


def test_valid_review_fixture_beside_a_corpus_with_its_ids(conformance, expected, tmp_path):
    case = next(c for c in expected["fixtures"] if "reviews_only" in c)
    item = json.loads((conformance / "corpus" / "fixtures" / "valid-item.jsonl").read_text().splitlines()[0])
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "functional-images.jsonl").write_text(
        "".join(json.dumps({**item, "id": f"fi-000{i}"}) + "\n" for i in (1, 2, 3))
    )
    (tmp_path / "rounds").mkdir()
    (tmp_path / "rounds" / "round-01-review.jsonl").write_bytes(
        (conformance / "corpus" / case["reviews_only"]).read_bytes()
    )
    got = json.loads(run(tmp_path, "corpus", "validate", "--json").stdout)
    assert [e for e in got["errors"] if "review" in e["source"]] == []
    assert got["errors"] == []


def test_real_project_validate(conformance, expected):
    want = expected["real_project"]["validate"]
    r = run(conformance / "corpus" / "real", "corpus", "validate", "--json")
    got = json.loads(r.stdout)
    assert r.exit_code == want["exit"]
    assert len(got["errors"]) == want["errors"], got["errors"]
    assert got["counts"]["by_status"] == want["counts_by_status"]
    assert got["counts"]["accepted"] == want["accepted"]
    assert got["counts"]["domains"] == want["domains"]


def test_real_project_apply_verdicts_round_1_is_refused(conformance, expected, tmp_path):
    want = expected["real_project"]["apply_verdicts_round_1"]
    project = writable_copy(conformance / "corpus" / "real", tmp_path / "real")
    before = tree_hashes(project)
    r = run(project, "corpus", "apply-verdicts", "--round", "1")
    assert r.exit_code == want["exit"]
    refused = sorted({line.split(": ")[1] for line in r.stderr.splitlines() if "accept_refused" in line})
    assert refused == sorted(want["refused_items"])
    if want["corpus_file_unchanged"]:
        assert tree_hashes(project) == before


def test_real_project_second_pass_extract_round_2(conformance, expected, tmp_path):
    want = expected["real_project"]["second_pass_extract_round_2"]
    project = writable_copy(conformance / "corpus" / "real", tmp_path / "real")
    r = run(project, "corpus", "second-pass", "extract", "--round", "2")
    assert r.exit_code == want["exit"]
    records = [
        json.loads(x) for x in (project / "rounds" / "round-02-second-pass-input.jsonl").read_text().splitlines()
    ]
    assert [x["item_id"] for x in records] == want["items"]
    for rec in records:
        assert not set(rec) & set(want["forbidden_fields"])


def test_real_project_fetch_images_verify(conformance, expected):
    want = expected["real_project"]["fetch_images_verify"]
    r = run(conformance / "corpus" / "real", "corpus", "fetch-images", "--verify")
    assert r.exit_code == want["exit"]
    missing = sorted(
        line.split("missing_copy: ")[1].split(" ")[0] for line in r.stderr.splitlines() if "missing_copy" in line
    )
    assert missing == sorted(want["missing"])


def test_real_project_targets(conformance, expected):
    for n, want in expected["real_project"]["targets"].items():
        got = json.loads(run(conformance / "corpus" / "real", "corpus", "validate", "--json", "--target", n).stdout)
        t = got["targets"]
        assert {k: t[k] for k in want} == want, n
