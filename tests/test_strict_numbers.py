"""Numbers and addresses are bounded where they are read: out of range, in other scripts' digits or of another
scheme, each is refused there with its code, and nothing is written."""

import pytest
from conftest import Jfi, snapshot

HUGE = "99999999999999999999"


@pytest.fixture
def project(tmp_path):
    jfi = Jfi(tmp_path)
    assert jfi("corpus", "init").exit_code == 0
    return jfi, tmp_path


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (["corpus", "target", HUGE + "999"], 2, "invalid_target"),
        (["corpus", "target", "24"], 2, "invalid_target"),
        (["corpus", "second-pass", "extract", "--round", "-1"], 3, "--round"),
        (["corpus", "second-pass", "extract", "--round", "0"], 3, "--round"),
        (["corpus", "second-pass", "extract", "--round", HUGE], 3, "--round"),
        (["corpus", "apply-verdicts", "--round", HUGE], 3, "--round"),
        (["audit", "build", "--inventory", ".", "--batch", HUGE], 3, "--batch"),
        (["audit", "inventory", "https://example.org/", "--out", "x", "--shard", f"{HUGE}/{HUGE}"], 3, "invalid_shard"),
        (["audit", "inventory", "https://example.org/", "--out", "x", "--shard", "2/2"], 3, "invalid_shard"),
        (["audit", "inventory", "https://example.org/", "--out", "x", "--shard", "１/２"], 3, "invalid_shard"),
        (["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "local:١"], 3, "invalid_cluster"),
        (["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "inproc://x"], 3, "invalid_cluster"),
        (
            ["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "ucx://host:1"],
            3,
            "invalid_cluster",
        ),
        (
            ["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "tls://host:1"],
            3,
            "invalid_cluster",
        ),
        (
            ["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "tcp://localhost:1/../x"],
            3,
            "invalid_cluster",
        ),
        (
            ["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "tcp://localhost:99999"],
            3,
            "invalid_cluster",
        ),
    ],
)
def test_a_number_or_address_out_of_bounds_is_refused_where_it_is_read(project, args, code, needle):
    jfi, root = project
    before = snapshot(root)
    r = jfi(*args)
    assert r.exit_code == code and needle in r.stderr + r.stdout and "Traceback" not in r.stderr
    assert snapshot(root) == before


# upstream's validators decide these three of their own cases; jfi follows the validator of each profile

UPSTREAM = (
    __import__("pathlib").Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "corpus" / "upstream"
)


def _v2_project(tmp_path):
    import json

    jfi = Jfi(tmp_path)
    assert jfi("corpus", "init", "--profile", "round-v2").exit_code == 0
    items = [
        json.loads(x)
        for x in (UPSTREAM / "round-v2-f8931af7" / "tools" / "fixtures" / "valid-item.jsonl").read_text().splitlines()
    ]
    return jfi, items


def test_round_v2_an_accepted_item_without_its_copy_is_pending_not_an_error(tmp_path):
    import json

    jfi, items = _v2_project(tmp_path)
    accepted = next(i for i in items if i["status"] == "accepted")
    accepted["image_url"] = "https://example.org/logo.png"
    jfi.write_corpus("".join(json.dumps(i) + "\n" for i in items))
    r = jfi("corpus", "validate", "--json")
    got = json.loads(r.stdout)
    assert r.exit_code == 1 and got["errors"] == []
    assert any(p["item_id"] == accepted["id"] and p["work"] == "image_copy" for p in got["pending"])
    assert not next(c for c in got["criteria"] if "not copied" in c["criterion"])["met"]


def test_round_v2_a_report_without_its_status_line_is_an_error(tmp_path):
    import json

    jfi, items = _v2_project(tmp_path)
    jfi.write_corpus("".join(json.dumps(i) + "\n" for i in items))
    (tmp_path / "rounds" / "round-01-report.md").write_text("# Round 1\nNothing to say.\n")
    r = jfi("corpus", "validate", "--json")
    assert r.exit_code == 2 and "missing_status" in r.stdout
    (tmp_path / "rounds" / "round-01-report.md").write_text("# Round 1\nSTATUS: new-blocking-findings=no\n")
    assert "missing_status" not in jfi("corpus", "validate", "--json").stdout


def test_harvest_a_zero_dimension_coordinate_space_is_refused(tmp_path):
    import json
    import shutil

    shutil.copytree(UPSTREAM / "harvest-67edd7e9" / "corpus", tmp_path / "corpus")
    shutil.copytree(UPSTREAM / "harvest-67edd7e9" / "review", tmp_path / "review")
    for p in tmp_path.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    jfi = Jfi(tmp_path)
    lines = jfi.corpus.read_text().splitlines()
    k = next(n for n, x in enumerate(lines) if json.loads(x).get("image_coord_space"))
    item = json.loads(lines[k])
    item["image_coord_space"] = "0x296"
    lines[k] = json.dumps(item)
    jfi.corpus.write_text("\n".join(lines) + "\n")
    r = jfi("corpus", "validate", "--json")
    assert r.exit_code == 2 and "image_coord_space" in r.stdout
