"""jfi as an ACT implementation: the ACT Rules Community Group's test cases of the five rules jfi implements with an
objective check (23a2a8, c487ae, e086e5, ffd0e9, 2779a5) captured one view per case, exported as EARL and mapped by
the Community Group's own mapper (../shared/tools/act-tools/map.sh): every one of the five complete, with the
criteria the rule maps to."""

import json
import shutil
import subprocess

import pytest
from conftest import Jfi

OBJECTIVE = {"23a2a8", "c487ae", "e086e5", "ffd0e9", "2779a5"}


@pytest.mark.slow
def test_the_act_mapper_finds_the_five_objective_rules_complete(conformance, tmp_path):
    act = conformance / "act"
    mapper = conformance.parent / "tools" / "act-tools" / "map.sh"
    if shutil.which("npm") is None:
        pytest.skip("the ACT mapper needs Node.js and npm")
    cases = json.loads((act / "testcases.json").read_text())["testcases"]
    chosen = [c for c in cases if c["ruleId"] in OBJECTIVE]
    views = tmp_path / "views.txt"
    views.write_text(
        "".join(f"{c['ruleId']}-{c['testcaseId'][:12]},act,{c['url'].split('8766', 1)[1]}\n" for c in chosen)
    )
    folder = tmp_path / "audit"
    jfi = Jfi(tmp_path)
    r = jfi(
        "audit",
        "inventory",
        "--serve",
        str(act),
        "--urls-file",
        str(views),
        "--out",
        str(folder),
        "--settle",
        "0",
        "--no-axe",
        "--no-screenshots",
    )
    assert r.exit_code in (0, 1), r.stderr
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    assert jfi("audit", "export", "--inventory", str(folder), "--format", "earl").exit_code == 0
    done = subprocess.run(
        ["bash", str(mapper), str(folder / "audit-earl.jsonld"), str(act / "testcases.json")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    mapping = {m["ruleId"]: m for m in json.loads(done.stdout)["actRuleMapping"]}
    found = {rule: (mapping[rule].get("consistency"), mapping[rule].get("coverage")) for rule in OBJECTIVE}
    assert all(consistency == "complete" for consistency, _ in found.values()), found
    assert all(cov["untested"] == 0 and cov["covered"] == cov["testCaseTotal"] for _, cov in found.values()), found
