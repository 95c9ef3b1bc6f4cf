"""axe-core in the capture: every view checked in the page state jfi inventoried, its nodes deduplicated into finding
rows like units (one per product, rule and element fingerprint), compared with jfi's own flags, and handed to the
ratifier's tools; drafts are never verdicts here either."""

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from conftest import Jfi

pytestmark = pytest.mark.slow  # real Chromium

SITE = Path(__file__).resolve().parent.parent / "corpus" / "example-site"
PAGES = Path(__file__).resolve().parent / "pages_ax"


def capture(jfi, views: Path, serve: Path, out: Path, *extra):
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(views),
        "--serve",
        str(serve),
        "--out",
        str(out),
        "--settle",
        "0",
        "--no-screenshots",
        *extra,
    )
    assert r.exit_code == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    root = tmp_path_factory.mktemp("axe")
    jfi = Jfi(root)
    out = capture(jfi, SITE / "views.txt", SITE, root / "audit")
    assert jfi("audit", "build", "--inventory", str(out)).exit_code == 0
    return jfi, out


def query(jfi, folder, sql):
    r = jfi("query", "--inventory", str(folder), "--format", "json", sql)
    assert r.exit_code == 0, r.stderr
    return r.json


def test_each_view_records_what_axe_core_found_there(example):
    _, out = example
    views = [json.loads(x) for x in (out / "inventory.jsonl").read_text().splitlines()[1:]]
    assert all(v["axe"]["engine"].startswith("axe-core 4.") and v["axe"]["options"]["type"] == "tag" for v in views)
    results = [r for v in views for r in v["axe"]["results"]]
    assert {r["outcome"] for r in results} <= {"violation", "incomplete"} and results
    for r in results:
        assert r["rule"] and r["impact"] and r["help_url"].startswith("https://") and "wcag2a" in r["tags"] + ["wcag2a"]
        for n in r["nodes"]:
            assert (
                isinstance(n["target"], list)
                and n["html"].startswith("<")
                and set(n["box"]) == {"x", "y", "width", "height"}
            )
    assert any(r["rule"] == "link-name" for r in results)  # the alerts link holds an image with alt=""


def test_every_node_is_in_exactly_one_row_and_a_repeated_component_is_one(example):
    jfi, out = example
    [n] = query(jfi, out, "SELECT count(*) AS nodes FROM audit_axe_nodes")
    rows = query(jfi, out, "SELECT id, occurrences, view_count FROM audit_units WHERE type = 'finding'")
    assert sum(r["occurrences"] for r in rows) == n["nodes"] and len(rows) < n["nodes"]
    [per_node] = query(
        jfi,
        out,
        """SELECT max(k) AS most, min(k) AS least FROM (
        SELECT f.pos, f.i, count(DISTINCT u.id) AS k FROM audit_finding_facts AS f
        JOIN audit_units AS u ON u.type = f.type AND u.product = f.product AND u.unit_key = f.unit_key GROUP BY ALL)""",
    )
    assert per_node == {"most": 1, "least": 1}
    views = len((out / "inventory.jsonl").read_text().splitlines()) - 1
    assert any(r["view_count"] == views for r in rows)  # the header's links, on every page: one row each
    summary = json.loads((out / "judgment-units.json").read_text())["axe"]
    assert summary["nodes"] == n["nodes"] and summary["rows"] == len(rows) and summary["dedupe_ratio"] > 1


def test_where_jfi_and_axe_core_agree_the_row_says_both_and_where_they_differ_it_says_so(example, tmp_path):
    jfi, out = example
    [link] = query(jfi, out, "SELECT id, flags FROM audit_units WHERE type = 'finding' AND detail LIKE '%link-name'")
    assert link["flags"] == ["axe_violation", "jfi_agrees"]
    # the same capture with axe's link-name node taken out: jfi's flag stands alone, and says axe did not report it
    folder = tmp_path / "copy"
    shutil.copytree(out, folder, ignore=shutil.ignore_patterns(".jfi", "judgment-units.json", "batches"))
    lines = (folder / "inventory.jsonl").read_text().splitlines()
    for k, line in enumerate(lines[1:], 1):
        rec = json.loads(line)
        rec["axe"]["results"] = [r for r in rec["axe"]["results"] if r["rule"] != "link-name"]
        lines[k] = json.dumps(rec)
    (folder / "inventory.jsonl").write_text("\n".join(lines) + "\n")
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    flagged = query(jfi, folder, "SELECT type, flags FROM audit_units WHERE list_contains(flags, 'axe_disagrees')")
    assert [f["type"] for f in flagged] == ["link"] and "link_no_accessible_name" in flagged[0]["flags"]


def test_findings_reach_the_ratifiers_tools_and_count_only_once_ratified(example, tmp_path):
    jfi, out = example
    folder = tmp_path / "copy"
    shutil.copytree(out, folder, ignore=shutil.ignore_patterns(".jfi"))
    assert not [b for b in (folder / "batches").iterdir() if "-finding-" in b.name]  # no judge drafts a finding
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    rows = list(csv.DictReader(io.StringIO((folder / "draft-judgments.csv").read_text())))
    findings = [r for r in rows if r["type"] == "finding"]
    assert findings and all(r["status"] == "DRAFT_NOT_RATIFIED" and r["draft_judgment"] == "" for r in findings)
    families = query(jfi, folder, "SELECT family_id, kind, units FROM audit_worklist_families WHERE type = 'finding'")
    assert families and all(f["kind"] == "names" for f in families)  # a family per rule, never across rules
    family = max(families, key=lambda f: f["units"])
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--family",
        family["family_id"],
        "--ruling",
        "R-9",
        "--sentence",
        "Checked in a browser: the targets are too small.",
        "--by",
        "Ana Ruiz",
        "--judgment",
        "no",
    )
    assert r.exit_code == 0, r.stderr
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert jfi("audit", "receipts", "--inventory", str(folder)).exit_code == 0
    receipts = [json.loads(x) for x in (folder / "receipts.jsonl").read_text().splitlines()]
    assert len(receipts) == family["units"] and all(x["type"] == "finding" for x in receipts)
    assert all(x["href"].startswith("https://dequeuniversity.com/rules/axe/") and x["views"] for x in receipts)
    assert jfi("audit", "review", "export", "--inventory", str(folder), "--out", str(tmp_path / "b")).exit_code == 0
    tasks = json.loads((tmp_path / "b" / "bundle.json").read_text())["tasks"]
    assert any(t["type"] == "finding" and t["question"].startswith("axe-core says:") for t in tasks)


def test_no_axe_and_the_rules_an_audit_chooses(tmp_path):
    jfi = Jfi(tmp_path)
    views = tmp_path / "views.txt"
    views.write_text("".join(x + "\n" for x in (SITE / "views.txt").read_text().splitlines()[:2]))
    out = capture(jfi, views, SITE, tmp_path / "off", "--no-axe")
    assert all("axe" not in json.loads(x) for x in (out / "inventory.jsonl").read_text().splitlines()[1:])
    (tmp_path / "chosen").mkdir()
    (tmp_path / "chosen" / "audit.toml").write_text('[axe]\nrules = ["link-name"]\n')
    out = capture(jfi, views, SITE, tmp_path / "chosen")
    found = {
        r["rule"]
        for x in (out / "inventory.jsonl").read_text().splitlines()[1:]
        for r in json.loads(x)["axe"]["results"]
    }
    assert found == {"link-name"}
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "audit.toml").write_text('[axe]\nrule = ["link-name"]\n')
    r = jfi("audit", "inventory", "--urls-file", str(views), "--serve", str(SITE), "--out", str(tmp_path / "bad"))
    assert r.exit_code == 2 and "invalid_config" in r.stderr and "rule" in r.stderr


def test_axe_core_leaves_nothing_the_next_view_can_see(tmp_path):
    shutil.copy(PAGES / "axe-probe.html", tmp_path / "probe.html")
    (tmp_path / "views.txt").write_text("first,lab,/probe.html\nsecond,lab,/probe.html\n")
    jfi = Jfi(tmp_path)
    out = capture(jfi, tmp_path / "views.txt", tmp_path, tmp_path / "out", "--workers", "1")
    records = [json.loads(x) for x in (out / "inventory.jsonl").read_text().splitlines()[1:]]
    assert all(r["axe"]["results"] for r in records)  # axe ran on both
    seen = {r["view_id"]: [h["text"] for h in r["inventory"]["headings"] if h["level"] == 2] for r in records}
    assert seen == {"first": ["axe is undefined"], "second": ["axe is undefined"]}
