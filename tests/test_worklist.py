"""Worklist sections, family rulings fanned out as pinned ledger records, receipts and calibration."""

import csv
import io
import json

from conftest import Jfi, snapshot
from inventories import field, image, link, made, view, write


def setup(tmp_path):
    cards = [link("Learn more", f"/p{k}", context=f"Card {k} text about a program.") for k in range(3)]
    views = [
        view(
            "home",
            title="Harbor home",
            h1=["Harbor home"],
            links=cards + [link("", "/x", empty_name=True), link("Weekly passes", "/passes", context="")],
            images=[image(alt=None)],
            fields=[field("", "none")],
        )
    ]
    folder = made(tmp_path, views, ("build",), in_place=True)  # built once per test process, restored for each test
    jfi = Jfi(tmp_path)
    units = json.loads((folder / "judgment-units.json").read_text())["units"]
    lines = {}
    for p in (folder / "batches").glob("*.jsonl"):
        ids = [json.loads(x)["id"] for x in p.read_text().splitlines()]
        judged = []
        for uid in ids:
            j = "unsure" if uid.startswith("TITLE") else "no"
            judged.append(
                json.dumps(
                    {
                        "id": uid,
                        "judgment": j,
                        "confidence": "medium",
                        "rationale": "Short reason.",
                        "fix": "" if j == "yes" else "Say more.",
                        "needs_human": False,
                        "drafted_by": "j",
                    }
                )
            )
        lines[p.name] = judged
    for name, judged in lines.items():
        (folder / "batches" / name.replace(".jsonl", ".judged.jsonl")).write_text("\n".join(judged) + "\n")
    return jfi, folder, units


def test_worklist_sections(tmp_path):
    jfi, folder, units = setup(tmp_path)
    r = jfi("audit", "worklist", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO((folder / "worklist.csv").read_text())))
    sections = [x["section"] for x in rows]
    assert (
        sections == sorted(sections, key=["decisions", "family", "look", "fact"].index) and sections[0] == "decisions"
    )
    assert rows[0]["detail"].endswith(f"settle {len(units)} row(s) not yet ratified")
    card_ids = [u["id"] for u in units if u["name"] == "Learn more"]
    fam = next(x for x in rows if x["section"] == "family" and set(x["unit_ids"].split("; ")) == set(card_ids))
    assert (
        fam["units"] == "3"
        and fam["kind"] == "flags"
        and "link_generic_text" in fam["detail"]
        and "drafted no" in fam["detail"]
    )
    looks = {x["key"]: x["kind"] for x in rows if x["section"] == "look"}
    title = next(u["id"] for u in units if u["type"] == "title")
    assert looks[title] == "unsure"
    assert all(looks.get(c) == "no-without-fact-class" for c in card_ids)
    facts = {x["key"]: int(x["units"]) for x in rows if x["section"] == "fact"}
    assert facts == {"empty link name": 1, "missing alt attribute": 1, "unlabeled field": 1}
    assert "## 1. Family decisions" in (folder / "worklist.md").read_text()


def test_family_ruling_fans_out_and_receipts_follow(tmp_path):
    jfi, folder, units = setup(tmp_path)
    r = jfi(
        "query",
        "--inventory",
        str(folder),
        "SELECT family_id FROM audit_worklist_families WHERE kind = 'flags' AND type = 'link'",
        "--format",
        "json",
    )
    family = r.json[0]["family_id"]
    asked = jfi(  # what the ruling will write, asked of the rulebook before it is made
        "query",
        "--inventory",
        str(folder),
        f"SELECT * EXCLUDE (n) FROM audit_ruling_records('{family}', NULL, 'R-7', 'Card links must carry their card''s "
        "name', 'Ana Ruiz', 'no', '2026-11-30T09:00:00Z', NULL)",
        "--format",
        "json",
    ).json
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--family",
        family,
        "--ruling",
        "R-7",
        "--sentence",
        "Card links must carry their card's name",
        "--by",
        "Ana Ruiz",
        "--judgment",
        "no",
        "--utc",
        "2026-11-30T09:00:00Z",
    )
    assert r.exit_code == 0, r.stderr
    ledger = [json.loads(x) for x in (folder / "ratifications.jsonl").read_text().splitlines()]
    assert len(ledger) == 3 and all(x["ruling"] == "R-7" and x["unit_sha256"].startswith("sha256:") for x in ledger)
    assert [{k: v for k, v in x.items() if v is not None} for x in asked] == [
        {k: v for k, v in x.items() if k not in ("unit_sha256", "decision_id")} for x in ledger
    ]
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    rows = {x["id"]: x for x in csv.DictReader(io.StringIO((folder / "draft-judgments.csv").read_text()))}
    for rec in ledger:
        assert rows[rec["id"]]["status"] == "RATIFIED" and rows[rec["id"]]["ruling"] == "R-7"
        assert rows[rec["id"]]["ratifier_note"] == "Card links must carry their card's name"
    assert jfi("audit", "receipts", "--inventory", str(folder)).exit_code == 0
    found = [json.loads(x) for x in (folder / "receipts.jsonl").read_text().splitlines()]
    assert sorted(f["id"] for f in found) == sorted(x["id"] for x in ledger)
    assert all(f["drafted_by"] == "j" and f["decision_id"].startswith("sha256:") for f in found)
    # re-running the completed ruling is nothing to do; a second ruling on the now-settled family is refused
    before = snapshot(folder)
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--family",
        family,
        "--ruling",
        "R-7",
        "--sentence",
        "Card links must carry their card's name",
        "--by",
        "Ana Ruiz",
        "--judgment",
        "no",
    )
    assert r.exit_code == 1 and "nothing to do" in r.stdout and snapshot(folder) == before
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--family",
        family,
        "--ruling",
        "R-8",
        "--sentence",
        "x",
        "--by",
        "Bo",
        "--judgment",
        "yes",
    )
    assert r.exit_code == 2 and snapshot(folder) == before
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--family",
        family,
        "--ruling",
        "R-8",
        "--sentence",
        " ",
        "--by",
        "Bo",
        "--judgment",
        "yes",
    )
    assert r.exit_code == 3


def test_a_ruling_id_keeps_its_sentence_and_a_bad_option_is_said_once_not_once_a_record(tmp_path):
    jfi, folder, _ = setup(tmp_path)
    family = jfi(
        "query", "--inventory", str(folder), "SELECT family_id FROM audit_worklist_families", "--format", "json"
    ).json[0]["family_id"]

    def rule(*what, ruling="R-7", sentence="Card links must carry their card's name", judgment="no"):
        common = ["--ruling", ruling, "--sentence", sentence, "--by", "Ana Ruiz", "--judgment", judgment]
        return jfi("audit", "rule", "--inventory", str(folder), *what, *common)

    # a --utc that is no timestamp refuses the three records the ruling would add with one line, naming their lines
    before = snapshot(folder)
    r = rule("--family", family, "--utc", "yesterday")
    assert r.exit_code == 2 and snapshot(folder) == before
    said = [x for x in r.stderr.splitlines() if "invalid_timestamp" in x]
    assert len(said) == 1 and "in 3 of the 3 records this ruling would add, lines 1-3" in said[0], r.stderr
    assert rule("--family", family).exit_code == 0
    # the same ruling may settle another decision; its id with another sentence or judgment is refused
    before = snapshot(folder)
    r = rule("--fact-class", "empty link name", sentence="Another sentence")
    assert r.exit_code == 2 and "ruling_conflict" in r.stderr and "ratifications.jsonl:1: ruling:" in r.stderr
    assert rule("--fact-class", "empty link name", judgment="yes").exit_code == 2 and snapshot(folder) == before
    assert rule("--fact-class", "empty link name").exit_code == 0
    ledger = [json.loads(x) for x in (folder / "ratifications.jsonl").read_text().splitlines()]
    assert len(ledger) == 4 and {x["ruling"] for x in ledger} == {"R-7"}


def test_unratified_rows_never_become_receipts(tmp_path):
    jfi, folder, units = setup(tmp_path)
    uid = next(u["id"] for u in units if u["type"] == "link")
    (folder / "ratifications.jsonl").write_text(
        json.dumps({"id": uid, "ratified_by": "Ana", "ratified_judgment": "no"}) + "\n"
    )
    assert jfi("audit", "receipts", "--inventory", str(folder)).exit_code == 0
    assert (folder / "receipts.jsonl").read_text() == ""


def test_calibration_record_per_merge(tmp_path):
    jfi, folder, units = setup(tmp_path)
    link_id = next(u["id"] for u in units if u["name"] == "Learn more")
    (folder / "spot-checks.jsonl").write_text(json.dumps({"id": link_id, "spot_check": "agree"}) + "\n")
    (folder / "ratifications.jsonl").write_text(
        json.dumps(
            {"id": link_id, "ratified_by": "Ana", "ratified_judgment": "yes", "ratified_utc": "2026-11-30T09:00:00Z"}
        )
        + "\n"
    )
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    cal = {
        (c["product"], c["type"]): c for c in json.loads((folder / "calibration.json").read_text())["per_product_type"]
    }
    links = cal[("harbor", "link")]
    assert links["spot_checked"] == 1 and links["second_reader_agreement"] == 1.0
    assert links["ratified"] == 1 and links["ratifier_overturn_rate"] == 1.0
    assert cal[("harbor", "title")]["unsure_rate"] == 1.0
    assert links["clean_but_no_rate"] == 0.2  # "Weekly passes" carries no flag, and was judged no: 1 of 5 links
    assert links["flagged_but_yes_rate"] == 0.0


def test_a_unit_is_in_one_family_at_most_the_most_specific(tmp_path):
    """Five skip links share a name, an element path and a destination in their own page: one family (links into the
    page) holds them, not three; the nav's links share a container pattern."""
    skips = [link("Skip to main content", f"/home.html#main{k}", selector="html > body > a") for k in range(5)]
    nav = [
        link(n, f"/{n.lower()}", selector=f"html > body > nav > a:nth-of-type({k + 1})")
        for k, n in enumerate(["Fares", "Routes", "Contact"])
    ]
    folder = write(tmp_path / "audit", [view("home", links=skips + nav)])
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert jfi("audit", "worklist", "--inventory", str(folder)).exit_code == 0
    families = [
        x for x in csv.DictReader(io.StringIO((folder / "worklist.csv").read_text())) if x["section"] == "family"
    ]
    members = [uid for f in families for uid in f["unit_ids"].split("; ")]
    assert len(members) == len(set(members))
    kinds = {f["kind"]: f for f in families}
    assert kinds["in_page_links"]["units"] == "5" and "Skip to main content" in kinds["in_page_links"]["detail"]
    assert kinds["shapes"]["units"] == "3" and '"Fares", "Routes", "Contact"' in kinds["shapes"]["detail"]


def test_a_fact_class_is_signed_with_one_command(tmp_path):
    jfi, folder, units = setup(tmp_path)
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--fact-class",
        "img_missing_alt_attr",
        "--ruling",
        "F-1",
        "--sentence",
        "An img with no alt attribute fails 1.1.1.",
        "--by",
        "Ana Ruiz",
        "--judgment",
        "no",
        "--utc",
        "2026-11-30T12:00:00Z",
    )
    assert r.exit_code == 0, r.stderr
    records = [json.loads(x) for x in (folder / "ratifications.jsonl").read_text().splitlines()]
    image_id = next(u["id"] for u in units if u["type"] == "image")
    assert [x["id"] for x in records] == [image_id] and records[0]["ruling"] == "F-1"
    before = snapshot(folder)
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--fact-class",
        "no such class",
        "--ruling",
        "F-2",
        "--sentence",
        "x",
        "--by",
        "Ana Ruiz",
        "--judgment",
        "no",
    )
    assert r.exit_code == 2 and "unknown_fact_class" in r.stderr and snapshot(folder) == before
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--ruling",
        "F-3",
        "--sentence",
        "x",
        "--by",
        "Ana",
        "--judgment",
        "no",
    )
    assert r.exit_code == 3


def test_every_row_not_ratified_is_settled_by_exactly_one_decision(tmp_path):
    """audit_decisions: a family's rows are one decision, a fact class's rows (in no family) one, every other row its
    own; the worklist leads with the count, and the count is what the query says."""
    jfi, folder, units = setup(tmp_path)
    r = jfi("audit", "worklist", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    rows = jfi("query", "--inventory", str(folder), "--format", "json", "SELECT * FROM audit_decisions").json
    assert sorted(x["id"] for x in rows) == sorted(u["id"] for u in units)  # nothing ratified yet: every row, once
    cards = {x["decision"] for x in rows if x["id"] in {u["id"] for u in units if u["name"] == "Learn more"}}
    assert len(cards) == 1 and next(iter(cards)).startswith("FAM-")  # the three cards: one family, one decision
    assert {x["kind"] for x in rows if x["decision"].startswith("FACT:")} <= {"fact_class"}
    alone = [x for x in rows if x["kind"] == "row"]
    assert all(x["decision"] == x["id"] for x in alone)
    decisions = len({x["decision"] for x in rows})
    assert decisions < len(rows)
    assert (
        json.loads(r.stdout)["decisions"] == decisions
        and f"{decisions} decision(s) settle {len(rows)} row(s)" in (folder / "worklist.md").read_text()
    )
