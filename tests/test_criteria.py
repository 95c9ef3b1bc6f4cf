"""Goals, scaled count targets, shares, concentration, quiet rounds and the exit codes of validate."""

import pytest
from conftest import Jfi, item


@pytest.mark.parametrize(
    "n,cat,sub,dom",
    [
        (25, 4, 3, 3),
        (50, 6, 4, 3),
        (100, 12, 8, 3),
        (150, 18, 12, 5),
        (200, 24, 16, 6),
        (250, 30, 20, 8),
        (1000, 120, 80, 32),
        (31, 4, 3, 3),
        (60, 7, 5, 3),
        (175, 21, 14, 6),
    ],
)
def test_targets_scale_with_halves_rounded_up(jfi, n, cat, sub, dom):
    jfi.write_corpus([item()])
    t = jfi("corpus", "validate", "--json", "--target", str(n)).json["targets"]
    assert (t["goal"], t["per_category"], t["per_subtype"], t["domains_per_subtype"]) == (n, cat, sub, dom)


def test_goal_from_target_file_and_its_errors(jfi):
    jfi.write_corpus([item()])
    target = jfi.project / "corpus" / "target.txt"
    target.write_text("# goal\n\n  100  \n")
    assert jfi("corpus", "validate", "--json").json["goal"] == 100
    assert jfi("corpus", "validate", "--json", "--target", "40").json["goal"] == 40
    target.write_text("# only comments\n\n")
    r = jfi("corpus", "validate")
    assert r.exit_code == 3 and "invalid_target" in r.stderr
    target.write_text("100 items\n")
    r = jfi("corpus", "validate")
    assert r.exit_code == 3 and "target.txt:1" in r.stderr
    target.unlink()
    assert jfi("corpus", "validate", "--json").json["goal"] == 250
    r = jfi("corpus", "validate", "--target", "24")
    assert r.exit_code == 2 and "invalid_target" in r.stderr


def test_target_command_writes_a_commented_file(jfi):
    assert jfi("corpus", "target", "100").exit_code == 2  # not a corpus project yet: nothing is created
    assert not (jfi.project / "corpus").exists()
    assert jfi("corpus", "init").exit_code == 0
    r = jfi("corpus", "target", "100")
    assert r.exit_code == 0
    text = (jfi.project / "corpus" / "target.txt").read_text()
    assert text.startswith("#") and text.rstrip().endswith("100")
    jfi.write_corpus([item()])
    assert jfi("corpus", "validate", "--json").json["goal"] == 100
    assert jfi("corpus", "target", "10").exit_code == 2
    assert (jfi.project / "corpus" / "target.txt").read_text() == text


def test_no_corpus_file_is_exit_2_and_says_it_comes_with_the_first_round(jfi):
    (jfi.project / "rounds").mkdir()  # a project folder whose corpus file is still to come
    r = jfi("corpus", "validate", "--json")
    assert r.exit_code == 2
    assert r.json["exists"] is False
    assert "first round" in r.stderr


def test_a_folder_that_is_not_a_project_is_refused_and_nothing_is_created(jfi, tmp_path):
    nowhere = tmp_path / "nope"
    for args in (
        ["corpus", "validate"],
        ["corpus", "export"],
        ["corpus", "target", "100"],
        ["query", "SELECT 1"],
        ["corpus", "apply-verdicts", "--round", "1"],
        ["corpus", "second-pass", "extract", "--round", "1"],
        ["corpus", "fetch-images"],
    ):
        for project in (nowhere, jfi.project):
            r = Jfi(project)(*args)
            assert r.exit_code == 2 and "no_project" in r.stderr, (args, r.stderr)
    for args in (
        ["query", "--inventory", str(nowhere), "SELECT 1"],
        ["audit", "merge", "--inventory", str(nowhere)],
        ["audit", "build", "--inventory", str(nowhere)],
        ["audit", "worklist", "--inventory", str(jfi.project)],
    ):
        r = Jfi(jfi.project)(*args)
        assert r.exit_code == 2 and "no_audit" in r.stderr, (args, r.stderr)
    r = Jfi(jfi.project)("query", "--verify", str(nowhere), "SELECT 1")
    assert r.exit_code == 2 and "no_verification" in r.stderr
    assert not nowhere.exists() and list(jfi.project.iterdir()) == []


def test_init_makes_a_project_once(jfi):
    r = jfi("corpus", "init", "--target", "100")
    assert r.exit_code == 0, r.stderr
    assert jfi.corpus.read_bytes() == b"" and (jfi.project / "rounds").is_dir()
    assert jfi("corpus", "validate", "--json").json["goal"] == 100
    before = jfi.corpus.stat().st_mtime_ns
    assert jfi("corpus", "init").exit_code == 1 and jfi.corpus.stat().st_mtime_ns == before
    assert not (jfi.project / ".jfi.lock").exists()


def accepted(i, domain, **kw):
    base = dict(
        id=f"fi-{i:04d}",
        status="accepted",
        image_url=None,
        implementation="inline-svg",
        page_url=f"https://{domain}/p{i}",
        domain=domain,
        gold_alt_passes=[
            {"author": "pass-a", "alt": "Settings", "rationale": "r"},
            {"author": "pass-b", "alt": "Settings", "rationale": "rationale of the pass b"},
        ],
    )
    base.update(kw)
    return item(**base)


def criteria(jfi, records, target=25):
    jfi.write_corpus(records)
    r = jfi("corpus", "validate", "--json", "--target", str(target))
    return r, {c["criterion"]: c for c in r.json["criteria"]}


def test_shares_and_concentration(jfi):
    # 20 accepted items on 20 domains: 4 empty alts (20%), 1 dual purpose (5%), 5 ambiguous (25%)
    recs = []
    for i in range(1, 21):
        kw = {}
        if i <= 4:
            kw.update(
                gold_alt="",
                gold_alt_passes=[
                    {"author": "pass-a", "alt": "", "rationale": "r"},
                    {"author": "pass-b", "alt": "", "rationale": "rationale of the pass b"},
                ],
            )
        if i == 5:
            kw["dual_purpose"] = True
        if 6 <= i <= 10:
            kw["difficulty"] = "ambiguous"
        recs.append(accepted(i, f"d{i}.example", **kw))
    r, c = criteria(jfi, recs)
    assert c["empty gold alt share"]["actual"] == pytest.approx(0.20) and c["empty gold alt share"]["met"]
    assert c["dual-purpose share"]["actual"] == pytest.approx(0.05) and not c["dual-purpose share"]["met"]
    assert c["ambiguous share"]["met"]
    assert c["largest domain share (concentration limit)"]["actual"] == pytest.approx(0.05)
    assert c["largest domain share (concentration limit)"]["met"]
    assert not any(d["over_limit"] for d in r.json["concentration"])
    # one more on d1 pushes d1 over 5%
    r, c = criteria(jfi, recs + [accepted(21, "d1.example")])
    assert not c["largest domain share (concentration limit)"]["met"]
    over = [d["domain"] for d in r.json["concentration"] if d["over_limit"]]
    assert over == ["d1.example"]
    assert "OVER" in jfi("corpus", "validate", "--target", "25").stdout


def test_counts_per_category_subtype_and_domains(jfi):
    recs = [accepted(i, f"d{i % 2}.example") for i in range(1, 5)]
    r, c = criteria(jfi, recs)
    assert c["category 2 accepted"]["actual"] == 4 and c["category 2 accepted"]["met"]
    assert c["category 1 accepted"]["actual"] == 0 and not c["category 1 accepted"]["met"]
    assert c["sub-type action-or-toggle-icon accepted"]["met"]
    assert c["sub-type action-or-toggle-icon distinct domains"]["actual"] == 2
    assert not c["sub-type action-or-toggle-icon distinct domains"]["met"]
    assert c["accepted items"]["actual"] == 4 and c["accepted items"]["target"] == 25


def test_non_blocking_share_needs_a_round_and_quiet_needs_two_reports(jfi):
    recs = [accepted(1, "a.example"), accepted(2, "b.example")]
    r, c = criteria(jfi, recs)
    assert c["latest review not blocking share"]["actual"] is None
    assert not c["latest review not blocking share"]["met"]
    ok = {
        "verdict": "accept",
        "reason_codes": ["CLEAN"],
        "evidence": "Checked the page and the markup.",
        "required_change": None,
        "blocking": False,
    }
    jfi.write_round(
        1, "review.jsonl", [{"item_id": "fi-0001", "round": 1, **ok}, {"item_id": "fi-0002", "round": 1, **ok}]
    )
    r, c = criteria(jfi, recs)
    assert c["latest review not blocking share"]["actual"] == 1.0 and c["latest review not blocking share"]["met"]
    assert c["latest rounds quiet (new-blocking-findings=no)"]["actual"] == 0
    jfi.write_round(1, "report.md", "# Round 1\nSTATUS: new-blocking-findings=no\n")
    r, c = criteria(jfi, recs)
    assert c["latest rounds quiet (new-blocking-findings=no)"]["actual"] == 1
    assert not c["latest rounds quiet (new-blocking-findings=no)"]["met"]
    jfi.write_round(2, "report.md", "STATUS: new-blocking-findings=no\n")
    r, c = criteria(jfi, recs)
    assert c["latest rounds quiet (new-blocking-findings=no)"]["met"]
    jfi.write_round(10, "report.md", "STATUS: new-blocking-findings=yes\n")
    r, c = criteria(jfi, recs)
    assert c["latest rounds quiet (new-blocking-findings=no)"]["actual"] == 1  # rounds 10 and 2 are the last two


def test_complete_corpus_exits_0(jfi):
    subtypes = [
        ("linked-standalone-logo", 1),
        ("standalone-navigational-link", 1),
        ("form-control-or-image-button", 2),
        ("action-or-toggle-icon", 2),
        ("functional-non-unicode-emoji", 3),
        ("linked-complex-graphic-or-image-map", 4),
        ("structural-break-or-reader-control", 5),
    ]
    recs, reviews, n = [], [], 0
    for sub, cat in subtypes:
        for k in range(5):
            n += 1
            empty = n % 5 == 0
            alt = "" if empty else "Settings"
            recs.append(
                accepted(
                    n,
                    f"d{n}.example",
                    category=cat,
                    subtype=sub,
                    dual_purpose=n % 4 == 0,
                    difficulty="ambiguous" if n % 3 == 0 else "standard",
                    gold_alt=alt,
                    gold_alt_passes=[
                        {"author": "pass-a", "alt": alt, "rationale": "r"},
                        {"author": "pass-b", "alt": alt, "rationale": "rationale of the pass b"},
                    ],
                )
            )
            reviews.append(
                {
                    "item_id": f"fi-{n:04d}",
                    "round": 2,
                    "verdict": "accept",
                    "reason_codes": ["CLEAN"],
                    "evidence": "Checked the page and the markup.",
                    "required_change": None,
                    "blocking": False,
                }
            )
    jfi.write_round(2, "review.jsonl", reviews)
    jfi.write_round(1, "report.md", "STATUS: new-blocking-findings=no\n")
    jfi.write_round(2, "report.md", "STATUS: new-blocking-findings=no\n")
    jfi.write_round(2, "second-pass-input.jsonl", [{"item_id": r["id"]} for r in recs])
    jfi.write_round(
        2,
        "second-pass.jsonl",
        [{"item_id": r["id"], "alt": r["gold_alt"], "rationale": "rationale of the pass b"} for r in recs],
    )
    r, c = criteria(jfi, recs, target=25)
    assert [k for k, v in c.items() if not v["met"]] == []
    assert r.json["goals_met"] and r.exit_code == 0 and r.json["warnings"] == []
    r, c = criteria(jfi, recs, target=40)
    assert r.exit_code == 1 and not c["accepted items"]["met"]
