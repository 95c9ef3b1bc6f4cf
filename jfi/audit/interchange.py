"""The audit's results in the formats other tools read, written from audit_results and audit_rule_metadata:
SARIF 2.1.0 (code-scanning viewers, CI annotations), JUnit XML (every CI's test tab) and W3C EARL in JSON-LD (the
ACT Rules implementation report shape). Drafts are never verdicts: a question is cantTell (EARL), review (SARIF) or
skipped (JUnit) until a named person ratifies it."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from ..version import __version__

INFO_URI = "https://github.com/jfi-project/jfi"
FILES = {"sarif": "audit.sarif", "junit": "audit-junit.xml", "earl": "audit-earl.jsonld"}
RESULTS_SQL = "SELECT * FROM audit_results ORDER BY product, id, kind DESC, rule, flag"
RULES_SQL = "SELECT * FROM audit_rule_metadata"
PAGES_SQL = ("SELECT view_id, any_value(coalesce(final_url, url) ORDER BY pos) AS url FROM audit_views GROUP BY view_id")


def _level(r: dict) -> tuple[str, str]:
    """SARIF (kind, level) of a result: a failure is an error; what needs a person is for review; a pass passes."""
    if r["outcome"] == "failed":
        return "fail", "error"
    if r["outcome"] == "passed":
        return "pass", "none"
    return ("review", "none") if r["decisive"] else ("informational", "none")


def sarif(results: list[dict], rules: list[dict], pages: dict[str, str]) -> dict:
    """One run of jfi: a rule per flag and question (help URL, WCAG and ACT tags), a result per unit and rule that
    says something about it, its views as locations and its fingerprint as the partial fingerprint."""
    index = {r["rule"]: k for k, r in enumerate(rules)}
    driver = {"name": "jfi", "version": __version__, "informationUri": INFO_URI, "rules": [
        {"id": r["rule"], "name": r["rule"], "shortDescription": {"text": r["meaning"].replace("{name}", "…")},
         **({"helpUri": r["help_url"]} if r["help_url"] else {}),
         "properties": {"tags": r["tags"], "kind": r["kind"], "objective": r["objective"],
                        **({"act_rule": r["act_rule"]} if r["act_rule"] else {})}} for r in rules]}
    out = []
    for r in results:
        kind, level = _level(r)
        words = (r["meaning"].replace("{name}", r["name"] or "(no name)") if r["kind"] == "question"
                 else f'{r["meaning"]} ({r["flag"]})')
        state = (f" Ratified {r['outcome']} by {r['ratified_by']}." if r["mode"] == "manual" else
                 " Not ratified: a draft is never a verdict." if r["kind"] == "question" else "")
        out.append({
            "ruleId": r["rule"], "ruleIndex": index[r["rule"]], "kind": kind, "level": level,
            "message": {"text": f'{r["id"]} "{r["name"] or ""}": {words}.{state}'},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": pages.get(v, v)}},
                           **({"logicalLocations": [{"fullyQualifiedName": r["selector"], "kind": "element"}]}
                              if r["selector"] else {})} for v in r["views"] or []],
            "partialFingerprints": {"jfiResult/v1": r["fingerprint"], "jfiUnit/v1": r["id"]},
            "properties": {"unit": r["id"], "type": r["type"], "product": r["product"], "outcome": r["outcome"],
                           **({"ratified_by": r["ratified_by"], "decision_id": r["decision_id"]}
                              if r["mode"] == "manual" else {})},
        })
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [{"tool": {"driver": driver}, "results": out}]}


def junit(results: list[dict], *, flags_fail: bool) -> bytes:
    """A test suite per product, a test case per unit question: failed when ratified no (and, with flags_fail, when
    an objective flag fires), skipped while not ratified, passed when ratified yes."""
    root = ET.Element("testsuites", name="jfi audit")
    by_unit: dict[str, list[dict]] = {}
    for r in results:
        by_unit.setdefault(r["id"], []).append(r)
    suites: dict[str, ET.Element] = {}
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for unit, rows in by_unit.items():
        question = next(r for r in rows if r["kind"] == "question")
        suite = suites.get(question["product"])
        if suite is None:
            suite = suites[question["product"]] = ET.SubElement(root, "testsuite", name=question["product"])
        case = ET.SubElement(suite, "testcase", classname=f'{question["product"]}.{question["type"]}',
                             name=f'{unit} {question["name"] or "(no name)"}')
        failing = [r for r in rows if r["outcome"] == "failed" and (r["kind"] == "question" or flags_fail)]
        if failing:
            for r in failing:
                text = (f'ratified no by {r["ratified_by"]} ({r["decision_id"]})' if r["kind"] == "question"
                        else r["meaning"])
                ET.SubElement(case, "failure", message=f'{r["rule"]}: {text}', type=r["rule"]).text = \
                    "\n".join(f"view: {v}" for v in r["views"] or [])
        elif question["outcome"] == "cantTell":
            ET.SubElement(case, "skipped", message="not ratified: a draft is never a verdict")
        for key, hit in (("failures", bool(failing)), ("skipped", not failing and question["outcome"] == "cantTell")):
            suite.set(key, str(int(suite.get(key, "0")) + hit))
            totals[key] += hit
        suite.set("tests", str(int(suite.get("tests", "0")) + 1))
        totals["tests"] += 1
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


EARL_CONTEXT = {
    "@vocab": "http://www.w3.org/ns/earl#",
    "earl": "http://www.w3.org/ns/earl#",
    "sch": "https://schema.org/",
    "dct": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "ptr": "http://www.w3.org/2009/pointers#",
    "WCAG22": "https://www.w3.org/TR/WCAG22/#",
    "WebPage": "sch:WebPage",
    "source": {"@id": "dct:source", "@type": "@id"},
    "title": "dct:title",
    "description": "dct:description",
    "date": "dct:date",
    "assertions": {"@reverse": "earl:subject"},
    "assertedBy": {"@type": "@id"},
    "outcome": {"@type": "@id"},
    "mode": {"@type": "@id"},
    "test": {"@type": "@id"},
    "isPartOf": {"@id": "dct:isPartOf", "@type": "@id", "@container": "@set"},
    "pointer": "earl:pointer",
    "expression": "ptr:expression",
    "name": "foaf:name",
    "version": "sch:softwareVersion",
}


def earl(results: list[dict], pages: dict[str, str]) -> dict:
    """One WebPage per view with its assertions: flags asserted by jfi (automatic), questions cantTell until a person
    ratifies them (then passed or failed, manual, asserted by that person, with the ruling or decision id)."""
    jfi = {"@id": "https://github.com/jfi-project/jfi#" + __version__, "@type": ["earl:Assertor", "earl:Software"],
           "name": "jfi", "version": __version__}
    by_view: dict[str, list[dict]] = {}
    for r in results:
        if r["kind"] == "flag" and not r["decisive"]:
            continue  # an informational flag asserts nothing
        for v in r["views"] or []:
            person = ({"@type": ["earl:Assertor", "foaf:Person"], "name": r["ratified_by"]}
                      if r["mode"] == "manual" else None)
            result = {"@type": "TestResult", "outcome": "earl:" + r["outcome"],
                      "description": (r["meaning"].replace("{name}", r["name"] or "(no name)") if r["kind"] == "question"
                                      else f'{r["meaning"]} ({r["flag"]})')}
            if r["selector"]:
                result["pointer"] = {"@type": "ptr:CSSSelectorPointer", "expression": r["selector"]}
            if r["mode"] == "manual":
                result["date"] = r["ratified_utc"]
                result["source"] = "urn:jfi:decision:" + (r["decision_id"] or r["ruling"] or r["fingerprint"])
            test = {"@id": "urn:jfi:rule:" + r["rule"], "@type": "TestCase", "title": r["rule"],
                    "isPartOf": ["WCAG22:" + w for w in r["wcag_ids"] or []]
                                + (["https://act-rules.github.io/rules/" + r["act_rule"]] if r["act_rule"] else [])}
            by_view.setdefault(v, []).append({
                "@type": "Assertion", "assertedBy": person or jfi,
                "mode": "earl:manual" if r["mode"] == "manual" else "earl:automatic", "test": test, "result": result})
    graph = [{"@type": "WebPage", "@id": pages.get(v, "urn:jfi:view:" + v), "source": pages.get(v, "urn:jfi:view:" + v),
              "title": v, "assertions": a} for v, a in by_view.items()]
    return {"@context": EARL_CONTEXT, "@graph": graph}


def documents(store, fmt: str, *, flags_fail: bool = False) -> dict[str, bytes]:
    """{file name: bytes} of one format, from a loaded store."""
    results = store.rows(RESULTS_SQL)
    pages = {row["view_id"]: row["url"] for row in store.rows(PAGES_SQL)}
    if fmt == "sarif":
        return {FILES[fmt]: (json.dumps(sarif(results, store.rows(RULES_SQL), pages), indent=1, ensure_ascii=False)
                             + "\n").encode()}
    if fmt == "junit":
        return {FILES[fmt]: junit(results, flags_fail=flags_fail)}
    if fmt == "earl":
        return {FILES[fmt]: (json.dumps(earl(results, pages), indent=1, ensure_ascii=False) + "\n").encode()}
    raise ValueError(fmt)


def write(files, out: Path, docs: dict[str, bytes]) -> list[Path]:
    for name, data in docs.items():
        files.write(out / name, data)
    return [out / name for name in docs]
