"""The audit's results for other tools — SARIF 2.1.0 (valid against the published schema), JUnit XML (read back with
junitparser), W3C EARL in JSON-LD (read back as triples with rdflib) — the rule metadata every reader needs, and the
CI gate with a baseline. Drafts never become passed or failed."""

import json
from pathlib import Path

import jsonschema
import pytest
import rdflib
from conftest import REPO, Jfi, snapshot
from inventories import image, link, made, view, write
from junitparser import JUnitXml

STANDARDS = REPO.parent / "shared" / "standards"
EARL = rdflib.Namespace("http://www.w3.org/ns/earl#")
OUTCOMES = {EARL.passed, EARL.failed, EARL.cantTell, EARL.inapplicable, EARL.untested}


def _views(extra_unnamed: bool = False):
    empty = [] if extra_unnamed else [link("", "/empty", selector="main > a.empty")]  # fixed when the other comes
    home = view(
        "home",
        links=[link("Learn more", "/a", selector="main > a.more"), link("Fares", "/f"), *empty],
        images=[image("/img/x.png", None, selector="main > img.x")],
    )
    views = [home, view("fares", links=[link("Fares", "/f")])]
    if extra_unnamed:
        views.append(view("about", links=[link("", "/blank", selector="main > a.blank")]))
    return views


def _ledger(folder: Path, rulings: dict[str, str]) -> None:
    lines = [
        json.dumps(
            {
                "id": uid,
                "ratified_by": "Ana Ruiz",
                "ratified_judgment": judgment,
                "ratifier_note": "Checked.",
                "ratified_utc": "2026-11-30T16:20:00Z",
            }
        )
        for uid, judgment in rulings.items()
    ]
    (folder / "ratifications.jsonl").write_text("\n".join(lines) + "\n")


@pytest.fixture
def audit(tmp_path):
    folder = made(tmp_path, _views(), ("build",), in_place=True)  # built once per test process, restored for each test
    jfi = Jfi(tmp_path)
    units = {(u["type"], u["name"]): u["id"] for u in json.loads((folder / "judgment-units.json").read_text())["units"]}
    # a judge drafted "no" for Fares: a draft, never a verdict; a person ratified Learn more no and the title yes
    batch = next((folder / "batches").glob("harbor-link-*.jsonl"))
    judged = []
    for line in batch.read_text().splitlines():
        unit = json.loads(line)
        judged.append(
            json.dumps(
                {
                    "id": unit["id"],
                    "judgment": "no",
                    "confidence": "high",
                    "rationale": "Vague.",
                    "fix": "Say more.",
                    "needs_human": False,
                    "drafted_by": "model",
                }
            )
        )
    batch.with_name(batch.stem + ".judged.jsonl").write_text("\n".join(judged) + "\n")
    title = next(uid for (t, _), uid in units.items() if t == "title" and uid)
    _ledger(folder, {units[("link", "Learn more")]: "no", title: "yes"})
    return jfi, folder, units


def _export(jfi, folder, fmt, *extra):
    r = jfi("audit", "export", "--inventory", str(folder), "--format", fmt, *extra)
    assert r.exit_code == 0, r.stderr
    return folder / {"sarif": "audit.sarif", "junit": "audit-junit.xml", "earl": "audit-earl.jsonld"}[fmt]


def test_every_flag_and_question_carries_its_criteria_act_rule_and_help_url(audit):
    jfi, folder, _ = audit
    rules = {
        r["rule"]: r
        for r in jfi("query", "--inventory", str(folder), "--format", "json", "SELECT * FROM audit_rule_metadata").json
    }
    expected = {
        "question-image": "qt1vmo",
        "question-link": "5effbb",
        "question-heading": "b49b2e",
        "question-title": "c4a8a4",
        "question-field": "cc0f0a",
        "image_no_accessible_name": "23a2a8",
    }
    assert {k: rules[k]["act_rule"] for k in expected} == expected
    assert (
        rules["question-link"]["help_url"] == "https://www.w3.org/WAI/WCAG22/Understanding/link-purpose-in-context.html"
    )
    assert rules["question-link"]["sc"] == ["2.4.4"] and "act:5effbb" in rules["question-link"]["tags"]
    assert len(rules) == len({r for r in rules})  # one row per rule, a flag over several types included
    assert all(r["help_url"] for r in rules.values() if r["sc"])


def test_sarif_is_valid_against_the_published_schema_and_keeps_drafts_apart(audit):
    """One result per finding, each rule described in full with a readable name; a ratified no is an error, an
    objective flag a warning, a draft a note, a ratified yes a pass (never an issue); an informational flag is no
    result; locations with a region; fingerprints from unit ids."""
    jfi, folder, units = audit
    doc = json.loads(_export(jfi, folder, "sarif").read_text())
    schema = json.loads((STANDARDS / "sarif-schema-2.1.0.json").read_text())
    jsonschema.validate(doc, schema)
    [run] = doc["runs"]
    assert run["tool"]["driver"]["informationUri"].startswith("https://")
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert rules["question-link"]["helpUri"].startswith("https://www.w3.org/WAI/WCAG22/Understanding/")
    for r in rules.values():
        assert r["name"] != r["id"] and r["fullDescription"]["text"] and r["help"]["text"] and r["help"]["markdown"]
        assert not any(t in r["id"] for t in ("SOURCE", "EXT", "_N_")), r["id"]
    results = run["results"]
    assert all(
        r["ruleId"] in rules and run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"] == r["ruleId"] for r in results
    )
    prints = [r["partialFingerprints"]["jfiResult/v1"] for r in results]
    assert len(prints) == len(set(prints))
    assert all(loc["physicalLocation"]["region"]["snippet"]["text"] for r in results for loc in r["locations"])
    by = {(r["properties"]["unit"], r["ruleId"]): r for r in results}
    learn = by[(units[("link", "Learn more")], "question-link")]
    assert (learn["kind"], learn["level"]) == ("fail", "error") and learn["properties"]["ratified_by"] == "Ana Ruiz"
    fares = by[(units[("link", "Fares")], "question-link")]
    assert (fares["kind"], fares["level"]) == ("fail", "note") and fares["properties"]["draft"] == "no"
    assert [loc["physicalLocation"]["artifactLocation"]["uri"] for loc in fares["locations"]] == [
        "http://site.example/home.html",
        "http://site.example/fares.html",
    ]
    title = next(u for (t, _), u in units.items() if t == "title")
    assert (by[(title, "question-title")]["kind"], by[(title, "question-title")]["level"]) == ("pass", "none")
    assert any((r["kind"], r["level"], r["ruleId"]) == ("fail", "warning", "link_empty_name") for r in results)
    informational = {
        r["rule"]
        for r in jfi(
            "query",
            "--inventory",
            str(folder),
            "--format",
            "json",
            "SELECT rule FROM audit_rule_metadata WHERE informational",
        ).json
    }
    assert not {r["properties"].get("flag") for r in results} & informational


def test_sarif_and_earl_write_each_rule_result_and_assertion_on_a_line_of_its_own(audit):
    """The long lists one compact item per line (a readable diff, and the C encoder's speed where an indented dump of
    every result is pure Python); the rest laid out as an indented dump would lay it out."""
    from jfi.output import json_lines

    jfi, folder, _ = audit
    for fmt, items in (
        ("sarif", lambda d: d["runs"][0]["tool"]["driver"]["rules"] + d["runs"][0]["results"]),
        ("earl", lambda d: [a for page in d["@graph"] for a in page["assertions"]]),
    ):
        text = _export(jfi, folder, fmt).read_text()
        doc = json.loads(text)
        whole = [
            json.loads(line.strip().removesuffix(","))
            for line in text.splitlines()
            if line.lstrip().startswith("{") and line.rstrip().removesuffix(",").endswith("}")
        ]
        assert whole == items(doc) and len(whole) > 2, fmt
        assert json_lines(doc) == json.dumps(doc, indent=1, ensure_ascii=False)


def test_an_export_keeps_the_store_the_gate_reads_and_a_folder_with_a_bad_line_still_exports(audit):
    """The formats read the store kept with the inventory: made by the first export, taken as it is by the next and by
    the gate (the same bytes written); a folder with a bad line is exported as a query reads it (the line left out),
    its kept store neither made from it nor replaced."""
    jfi, folder, _ = audit
    kept = folder / ".jfi" / "audit-inventory.duckdb"
    assert not kept.exists()
    first = _export(jfi, folder, "sarif").read_bytes()
    made = kept.stat()
    assert _export(jfi, folder, "sarif").read_bytes() == first
    jfi("audit", "gate", "--inventory", str(folder))
    assert (kept.stat().st_ino, kept.stat().st_mtime_ns) == (made.st_ino, made.st_mtime_ns)  # read, never made again
    judged = next((folder / "batches").glob("*.judged.jsonl"))
    judged.write_text(judged.read_text() + '{"id": "LINK-nope", "judgment": "perhaps"}\n')
    before = snapshot(folder / ".jfi")
    doc = json.loads(_export(jfi, folder, "sarif").read_text())
    assert json.loads(first)["runs"][0]["results"] == doc["runs"][0]["results"]  # the bad line left out
    assert snapshot(folder / ".jfi") == before


def test_sarif_maps_pages_to_the_products_sources_where_audit_toml_says(audit):
    jfi, folder, units = audit
    (folder / "audit.toml").write_text('[sarif.sources]\n"http://site.example/" = "site/pages"\n')
    doc = json.loads(_export(jfi, folder, "sarif").read_text())
    uris = {
        loc["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"] for loc in r["locations"]
    }
    assert uris == {"site/pages/home.html", "site/pages/fares.html"}


def _multitool():
    import os

    path = (
        REPO / ".venv" / "sarif-multitool" / "node_modules" / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool"
    )
    if not path.is_file():
        if os.environ.get("JFI_REQUIRE_CONFORMANCE"):
            raise AssertionError(f"{path} is missing: `make test` installs the SARIF Multitool there")
        pytest.skip("the SARIF Multitool is not installed beside the project (make test installs it)")
    return path


def test_sarif_passes_the_multitool_with_githubs_rules(audit, tmp_path):
    """Microsoft's SARIF Multitool, its SARIF and GitHub (code scanning) rule sets: no error, warning or note."""
    import subprocess

    jfi, folder, _ = audit
    report = _export(jfi, folder, "sarif")
    out = tmp_path / "validation.sarif"
    done = subprocess.run(
        [str(_multitool()), "validate", str(report), "--rule-kind", "Gh;Sarif", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.is_file(), done.stdout[-2000:]
    found = [
        (r["ruleId"], r.get("level", "warning"), r["message"].get("text", "")[:200])
        for r in json.loads(out.read_text())["runs"][0]["results"]
    ]
    assert found == [], found


def test_sarif_holds_at_most_max_results_the_lowest_levels_left_out_first_and_says_so(audit, tmp_path):
    """Code scanning rejects a run of more than 25,000 results: beyond --max-results, notes go before warnings and
    warnings before errors, the results kept stay in their order, the run's notification and the command say how
    many were left out, and the file still passes the SARIF Multitool with GitHub's rules."""
    import subprocess

    jfi, folder, _ = audit
    whole = json.loads(_export(jfi, folder, "sarif", "--max-results", "0").read_text())["runs"][0]
    assert "invocations" not in whole and json.loads(_export(jfi, folder, "sarif").read_text())["runs"][0] == whole
    rank = {"error": 0, "warning": 1, "note": 2, "none": 3}
    levels = sorted(rank[r["level"]] for r in whole["results"])
    n = next(i for i in range(1, len(levels)) if levels[i] > levels[i - 1])  # the highest level alone is kept
    r = jfi("audit", "export", "--inventory", str(folder), "--format", "sarif", "--max-results", str(n))
    assert r.exit_code == 0 and f"{len(levels) - n} of {len(levels)} results left out" in r.stderr
    run = json.loads((folder / "audit.sarif").read_text())["runs"][0]
    assert sorted(rank[x["level"]] for x in run["results"]) == levels[:n]
    order = [x["partialFingerprints"]["jfiResult/v1"] for x in whole["results"]]
    kept = [x["partialFingerprints"]["jfiResult/v1"] for x in run["results"]]
    assert kept == [p for p in order if p in kept]
    [notice] = run["invocations"][0]["toolExecutionNotifications"]
    assert notice["level"] == "warning" and f"{len(levels) - n} of {len(levels)}" in notice["message"]["text"]
    out = tmp_path / "validation.sarif"
    subprocess.run(
        [str(_multitool()), "validate", str(folder / "audit.sarif"), "--rule-kind", "Gh;Sarif", "-o", str(out)],
        capture_output=True,
        timeout=300,
    )
    assert json.loads(out.read_text())["runs"][0]["results"] == []


def test_junit_is_valid_against_the_junit_10_shape_with_totals_and_failures_that_say_why(audit):
    import xml.etree.ElementTree as ET

    import xmlschema

    jfi, folder, units = audit
    path = _export(jfi, folder, "junit", "--flags-fail")
    xmlschema.XMLSchema(str(REPO / "tests" / "schemas" / "junit-10.xsd")).validate(str(path))
    root = ET.parse(path).getroot()
    assert "skipped" not in root.attrib and root.get("errors") == "0"
    for suite in root:
        cases = list(suite)
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures")) == sum(any(x.tag == "failure" for x in c) for c in cases)
        assert int(suite.get("skipped")) == sum(any(x.tag == "skipped" for x in c) for c in cases)
    assert int(root.get("tests")) == sum(int(s.get("tests")) for s in root)
    learn = next(c for c in root.iter("testcase") if c.get("name").startswith(units[("link", "Learn more")]))
    [failure] = [x for x in learn if x.tag == "failure" and x.get("type") == "question-link"]
    assert "ratified no by Ana Ruiz" in failure.text and "on home" in failure.text and "Learn more" in failure.text
    assert not any("SOURCE" in (f.get("type") or "") for f in root.iter("failure"))


def test_junit_has_a_suite_per_product_and_fails_what_was_ratified_no(audit):
    jfi, folder, units = audit
    xml = JUnitXml.fromfile(str(_export(jfi, folder, "junit")))
    [suite] = list(xml)
    cases = {case.name.split()[0]: case for case in suite}
    assert suite.name == "harbor" and len(cases) == len(units)
    failed = {uid for uid, case in cases.items() if any(type(r).__name__ == "Failure" for r in case.result)}
    assert failed == {units[("link", "Learn more")]}  # the draft no for Fares fails nothing
    assert (
        cases[units[("link", "Fares")]].is_skipped
        and cases[next(u for (t, _), u in units.items() if t == "title")].is_passed
    )
    strict = JUnitXml.fromfile(str(_export(jfi, folder, "junit", "--flags-fail")))
    failed = {
        case.name.split()[0] for case in list(strict)[0] if any(type(r).__name__ == "Failure" for r in case.result)
    }
    assert units[("link", "")] in failed and units[("link", "Learn more")] in failed


def test_earl_reads_back_as_assertions_and_drafts_are_cant_tell(audit):
    jfi, folder, units = audit
    graph = rdflib.Graph().parse(str(_export(jfi, folder, "earl")), format="json-ld")
    assertions = list(graph.subjects(rdflib.RDF.type, EARL.Assertion))
    assert assertions
    outcomes = {}
    for a in assertions:
        assert graph.value(a, EARL.assertedBy) is not None and graph.value(a, EARL.subject) is not None
        test, result = graph.value(a, EARL.test), graph.value(a, EARL.result)
        assert test is not None and graph.value(result, EARL.outcome) in OUTCOMES
        pointer = graph.value(result, EARL.pointer)
        expression = (
            graph.value(pointer, rdflib.URIRef("http://www.w3.org/2009/pointers#expression")) if pointer else None
        )
        outcomes.setdefault(str(test).rsplit(":", 1)[1], []).append(
            (graph.value(result, EARL.outcome), graph.value(a, EARL.mode), str(expression))
        )
    links = outcomes["question-link"]
    assert (EARL.failed, EARL.manual, "main > a.more") in links
    assert all(o in (EARL.failed, EARL.cantTell) for o, _, _ in links)  # the drafted no for Fares is cantTell
    assert sum(o == EARL.failed for o, _, _ in links) == 1
    assert (EARL.passed, EARL.manual, "title") in outcomes["question-title"]
    assert all(o == EARL.failed and m == EARL.automatic for o, m, _ in outcomes["link_empty_name"])


def test_the_gate_passes_on_its_baseline_and_names_each_new_finding(audit, tmp_path):
    jfi, folder, units = audit
    base = tmp_path / "gate-baseline.json"
    r = jfi("audit", "gate", "--inventory", str(folder))
    assert r.exit_code == 1 and f"{units[('link', '')]}|link_empty_name" in r.stdout
    assert jfi("audit", "gate", "--inventory", str(folder), "--write-baseline", str(base)).exit_code == 0
    assert jfi("audit", "gate", "--inventory", str(folder), "--baseline", str(base)).exit_code == 0
    # the site changes: one unnamed link fixed, another added on a new page
    write(folder, _views(extra_unnamed=True))
    for judged in (folder / "batches").glob("*.judged.jsonl"):  # the judges' returns were for the old batches
        judged.unlink()
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    r = jfi("audit", "gate", "--inventory", str(folder), "--baseline", str(base))
    assert r.exit_code == 1
    new = [line for line in r.stdout.splitlines() if line.startswith("NEW ")]
    assert len(new) == 1 and "with no name on about" in new[0] and "1 in the baseline no longer found" in r.stderr
    # ratified-no findings are another level; a bad baseline is refused, nothing written
    assert jfi("audit", "gate", "--inventory", str(folder), "--fail-on", "ratified-no").exit_code == 1
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "jfi-gate-baseline/v1", "fingerprints": [1]}')
    before = snapshot(folder)
    r = jfi("audit", "gate", "--inventory", str(folder), "--baseline", str(bad))
    assert r.exit_code == 2 and "invalid_baseline" in r.stderr and snapshot(folder) == before


def test_openacr_is_valid_against_gsas_schema_and_counts_ratified_rows_only(audit):
    import yaml

    jfi, folder, units = audit
    before = snapshot(folder)
    r = jfi("audit", "export", "--inventory", str(folder), "--format", "openacr")
    assert r.exit_code == 2 and "[acr] author" in r.stderr and snapshot(folder) == before
    assert "characters)" not in r.stderr and "not-applicable)" in r.stderr  # the whole example, not clipped
    (folder / "audit.toml").write_text(
        '[acr]\nauthor = "Ana Ruiz"\nemail = "ana@example.org"\nproduct = "Harbor Transit"\n'
    )
    r = jfi("audit", "export", "--inventory", str(folder), "--format", "openacr")
    assert r.exit_code == 2 and "acr.undecided" in r.stderr  # the author says what an undecided criterion reads as
    for bad in ("supports", "not-evaluated"):
        (folder / "audit.toml").write_text(
            f'[acr]\nauthor = "Ana Ruiz"\nemail = "ana@example.org"\nundecided = "{bad}"\n'
        )
        r = jfi("audit", "export", "--inventory", str(folder), "--format", "openacr")
        assert r.exit_code == 2 and "acr.undecided" in r.stderr, r.stderr
    (folder / "audit.toml").write_text(
        '[acr]\nauthor = "Ana Ruiz"\nemail = "ana@example.org"\nproduct = "Harbor Transit"\n'
        'undecided = "partially-supports"\n'
    )
    r = jfi("audit", "export", "--inventory", str(folder), "--format", "openacr")
    assert r.exit_code == 0, r.stderr
    doc = yaml.safe_load((folder / "audit-openacr.yaml").read_text())
    jsonschema.validate(doc, json.loads((STANDARDS / "openacr-0.1.0.json").read_text()))
    catalog = yaml.safe_load((STANDARDS / "openacr-catalog-2.5-edition-wcag-2.2-en.yaml").read_text())
    terms = {t["id"] for t in catalog["terms"]}
    for chapter in catalog["chapters"][:3]:
        mine = doc["chapters"][chapter["id"]]["criteria"]
        assert [str(c["num"]) for c in mine] == [str(c["id"]) for c in chapter["criteria"]]
        assert all(c["components"][0]["adherence"]["level"] in terms for c in mine)
    level = {str(c["num"]): c["components"][0]["adherence"] for ch in doc["chapters"].values() for c in ch["criteria"]}
    # the title ratified yes: sample-scoped, never supports; the author's term, with what was sampled
    assert level["2.4.2"]["level"] == "partially-supports" and "no claim of support" in level["2.4.2"]["notes"]
    assert "Sampled: 2 captured view(s)" in level["2.4.2"]["notes"] and "nothing activated" in level["2.4.2"]["notes"]
    # Learn more ratified no: a finding, the author's failing term (partially-supports by default); Fares' draft counts not
    assert level["2.4.4"]["level"] == "partially-supports" and units[("link", "Learn more")] in level["2.4.4"]["notes"]
    assert level["1.4.3"]["level"] == "partially-supports" and "does not test" in level["1.4.3"]["notes"]
    assert level["1.4.6"]["level"] == "not-evaluated"  # AAA, nothing found
    assert all(
        c["components"][0]["adherence"]["level"] != "supports"
        for ch in doc["chapters"].values()
        for c in ch["criteria"]
    )
    assert doc["title"] == "Harbor Transit Accessibility Conformance Report"
    (folder / "audit.toml").write_text(
        '[acr]\nauthor = "Ana Ruiz"\nemail = "ana@example.org"\n'
        'undecided = "not-applicable"\nfailing = "does-not-support"\n'
    )
    assert jfi("audit", "export", "--inventory", str(folder), "--format", "openacr").exit_code == 0
    level = {
        str(c["num"]): c["components"][0]["adherence"]["level"]
        for ch in yaml.safe_load((folder / "audit-openacr.yaml").read_text())["chapters"].values()
        for c in ch["criteria"]
    }
    assert (level["2.4.4"], level["2.4.2"]) == ("does-not-support", "not-applicable")


def test_an_axe_core_finding_is_one_result_under_axe_cores_own_rule_and_help_page():
    from jfi.audit.formats.sarif import sarif

    base = {
        "id": "FINDING-HA-1",
        "type": "finding",
        "product": "p",
        "views": ["home"],
        "selector": "a.x",
        "name": "Links must have discernible text",
        "sc": ["2.4.4"],
        "act_rule": None,
        "help_url": None,
        "tags": [],
        "objective": False,
        "ratified_by": None,
        "decision_id": None,
        "draft_judgment": "",
        "mode": None,
        "outcome": "cantTell",
        "meaning": "m",
    }
    rows = [
        {**base, "kind": "flag", "flag": "axe_violation", "rule": "axe_violation", "decisive": True},
        {**base, "kind": "flag", "flag": "jfi_agrees", "rule": "jfi_agrees", "decisive": False},
        {**base, "kind": "question", "flag": None, "rule": "question-finding", "decisive": True},
    ]
    unit = {
        "FINDING-HA-1": {
            "name": base["name"],
            "detail": "violation; serious; link-name",
            "href": "https://dequeuniversity.com/rules/axe/4.12/link-name",
        }
    }
    doc = sarif(rows, [], {"home": "http://x.example/"}, unit)
    [result] = doc["runs"][0]["results"]
    [rule] = doc["runs"][0]["tool"]["driver"]["rules"]
    assert (result["ruleId"], result["kind"], result["level"]) == ("axe/link-name", "fail", "warning")
    assert (
        rule["helpUri"] == "https://dequeuniversity.com/rules/axe/4.12/link-name"
        and "wcag244" in rule["properties"]["tags"]
    )
    ratified = [
        {**r, "mode": "manual", "outcome": "passed", "ratified_by": "Ana Ruiz", "decision_id": "sha256:1"}
        if r["kind"] == "question"
        else r
        for r in rows
    ]
    [result] = sarif(ratified, [], {"home": "http://x.example/"}, unit)["runs"][0]["results"]
    assert (result["ruleId"], result["kind"], result["level"]) == ("axe/link-name", "pass", "none")


def test_a_format_is_one_module_and_one_line():
    """jfi.audit.formats: every module there but the shared one is a format of FORMATS (and --format's choices),
    each saying the file it writes, whether it reads audit.toml, and how its document is made from a store."""
    import pkgutil

    from jfi.audit import formats
    from jfi.cli import AuditFormat

    modules = {m.name for m in pkgutil.iter_modules(formats.__path__)} - {"common"}
    assert modules == set(formats.FORMATS) and [f.value for f in AuditFormat] == ["duckdb", *formats.FORMATS]
    for name in formats.FORMATS:
        module = formats.module(name)
        assert isinstance(module.FILE, str) and isinstance(module.CONFIG, bool) and callable(module.document)


def test_the_gates_levels_are_one_list(audit):
    """--fail-on's choices, the levels a baseline may name and the levels the rulebook defines findings for are the
    same three (the command line cannot import the gate's module at start-up, so each keeps its list; this holds them
    together)."""
    import jfi as api
    from jfi.audit.gate import LEVELS
    from jfi.cli import FailOn

    _, folder, _ = audit
    rows = api.open_audit(folder).query("SELECT fail_on FROM audit_gate_levels ORDER BY rowid")
    assert [f.value for f in FailOn] == list(LEVELS) == [r["fail_on"] for r in rows]
