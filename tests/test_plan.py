"""`--plan` says what an audit command would run and why, before it runs anything: the rule files it runs are the
ones the command then runs (measured with JFI_PROFILE), and nothing is written."""

import json

from conftest import Jfi, snapshot
from inventories import link, made, view

import jfi


def ran(r) -> set[str]:
    from jfi.bench import rule_times

    return {name for name, _ in rule_times(r.stderr)}  # the rule files, not the phases


def planned(plan) -> set[str]:
    return {rule.file for rule in plan.running}


def test_the_plan_names_the_rule_files_the_command_then_runs_and_writes_nothing(tmp_path, monkeypatch):
    folder = made(tmp_path, [view("home", links=[link("Learn more", "/a"), link("Fares", "/f")])], ("build",))
    run = Jfi(tmp_path)
    assert run("audit", "merge", "--inventory", str(folder)).exit_code == 0
    # nothing changed since the kept store: nothing runs
    before = snapshot(folder)
    r = run("audit", "merge", "--inventory", str(folder), "--plan")
    assert r.exit_code == 0 and snapshot(folder) == before
    assert r.stdout.startswith("plan: jfi audit merge: 0 of ") and "the kept store matches every input file" in r.stdout
    assert planned(jfi.open_audit(folder).plan("merge")) == set()
    # a new spot-check file: the plan says what it changes, and the command runs just that
    [unit] = [u for u in json.loads((folder / "judgment-units.json").read_text())["units"] if u["name"] == "Fares"]
    (folder / "spot-checks.jsonl").write_text(json.dumps({"id": unit["id"], "spot_check": "agree"}) + "\n")
    before = snapshot(folder)
    r = run("--plan", "audit", "worklist", "--inventory", str(folder))
    assert r.exit_code == 0 and snapshot(folder) == before and "  new: " in r.stdout
    found = jfi.open_audit(folder).plan("worklist")
    assert {c["file"].rsplit("/", 1)[-1]: c["change"] for c in found.changed}["spot-checks.jsonl"] == "new"
    plan = planned(found)
    assert "core/05_jsonl_records.sql" in plan and "audit/21_audit_elements.sql" not in plan
    # the tables derived line by line from files that did not change (judged lines, built units) are not derived
    assert not plan & {"audit/51_audit_judged_lines.sql", "audit/50_audit_built_units.sql"}
    monkeypatch.setenv("JFI_PROFILE", "1")
    done = run("audit", "worklist", "--inventory", str(folder))
    assert done.exit_code == 0 and ran(done) == plan


def test_the_plan_in_words_and_through_the_api(tmp_path):
    folder = made(tmp_path, [view("home", links=[link("Fares", "/f")])], ("build",))
    r = Jfi(tmp_path)("audit", "report", "--inventory", str(folder), "--plan")
    assert r.exit_code == 0 and r.stdout.startswith("plan: jfi audit report: ")
    assert any(line.startswith("  run   audit/") for line in r.stdout.splitlines())
    p = jfi.open_audit(folder).plan("build")
    assert p.running and all(rule.why == "build derives every unit anew" for rule in p.rules)
    assert "audit/40_audit_units.sql" in {rule.file for rule in p.rules}


def test_a_plan_of_a_command_with_no_audit_folder_is_a_usage_error(tmp_path):
    r = Jfi(tmp_path)("corpus", "validate", "--plan")
    assert r.exit_code == 3 and "no_plan" in r.stderr
