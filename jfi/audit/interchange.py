"""The audit's results in the formats other tools read, written from audit_results, audit_rule_metadata and
audit_acr: SARIF 2.1.0 (code-scanning viewers, CI annotations), JUnit XML (every CI's test tab), W3C EARL in JSON-LD
(the ACT Rules implementation report shape) and OpenACR (GSA's machine-readable VPAT 2.5 conformance report, YAML).
Drafts are never verdicts: a question is cantTell (EARL), review (SARIF), skipped (JUnit) or not counted (OpenACR)
until a named person ratifies it."""
from __future__ import annotations

import json
import re
import unicodedata
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path

import yaml

from ..errors import JfiError
from ..version import __version__

TOOL_IRI = "urn:jfi:tool:" + __version__  # jfi has no web home to point at; the assertor is named by its version
FILES = {"sarif": "audit.sarif", "junit": "audit-junit.xml", "earl": "audit-earl.jsonld", "openacr": "audit-openacr.yaml"}
ACR_CATALOG = "2.5-edition-wcag-2.2-en"
ACR_CHAPTERS = {"A": "success_criteria_level_a", "AA": "success_criteria_level_aa", "AAA": "success_criteria_level_aaa"}
ACR_KEYS = {"author": True, "email": True, "product": False, "version": False, "company": False, "notes": False}
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


def _words(r: dict) -> str:
    """What a result says: its question with the row's name, or the flag's meaning and the flag as the unit has it."""
    return (r["meaning"].replace("{name}", r["name"] or "(no name)") if r["kind"] == "question"
            else f'{r["meaning"]} ({r["flag"]})')


def sarif(results: list[dict], rules: list[dict], pages: dict[str, str]) -> dict:
    """One run of jfi: a rule per flag and question (help URL, WCAG and ACT tags), a result per unit and rule that
    says something about it, its views as locations and its fingerprint as the partial fingerprint."""
    index = {r["rule"]: k for k, r in enumerate(rules)}
    driver = {"name": "jfi", "version": __version__, "rules": [
        {"id": r["rule"], "name": r["rule"], "shortDescription": {"text": r["meaning"].replace("{name}", "…")},
         **({"helpUri": r["help_url"]} if r["help_url"] else {}),
         "properties": {"tags": r["tags"], "kind": r["kind"], "objective": r["objective"],
                        **({"act_rule": r["act_rule"]} if r["act_rule"] else {})}} for r in rules]}
    out = []
    for r in results:
        kind, level = _level(r)
        words = _words(r)
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
    for element in root.iter():  # text a page wrote may hold characters XML 1.0 cannot: written as visible escapes
        element.text = xml_text(element.text)
        for key, value in element.attrib.items():
            element.set(key, xml_text(value))
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text):
    """Text as XML 1.0 can hold it: a control character (or another it forbids) becomes its escape, \\u0001."""
    return NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if isinstance(text, str) else text


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
    jfi = {"@id": TOOL_IRI, "@type": ["earl:Assertor", "earl:Software"],
           "name": "jfi", "version": __version__}
    by_view: dict[str, list[dict]] = {}
    for r in results:
        if r["kind"] == "flag" and not r["decisive"]:
            continue  # an informational flag asserts nothing
        person = ({"@type": ["earl:Assertor", "foaf:Person"], "name": r["ratified_by"]}
                  if r["mode"] == "manual" else None)
        result = {"@type": "TestResult", "outcome": "earl:" + r["outcome"], "description": _words(r)}
        if r["selector"]:
            result["pointer"] = {"@type": "ptr:CSSSelectorPointer", "expression": r["selector"]}
        if r["mode"] == "manual":
            result["date"] = r["ratified_utc"]
            result["source"] = "urn:jfi:decision:" + (r["decision_id"] or r["ruling"] or r["fingerprint"])
        test = {"@id": "urn:jfi:rule:" + r["rule"], "@type": "TestCase", "title": r["rule"],
                "isPartOf": ["WCAG22:" + w for w in r["wcag_ids"] or []]
                            + (["https://act-rules.github.io/rules/" + r["act_rule"]] if r["act_rule"] else [])}
        assertion = {"@type": "Assertion", "assertedBy": person or jfi,
                     "mode": "earl:manual" if r["mode"] == "manual" else "earl:automatic", "test": test, "result": result}
        for v in r["views"] or []:  # the same assertion about each view the unit appears on
            by_view.setdefault(v, []).append(assertion)
    graph = [{"@type": "WebPage", "@id": pages.get(v, "urn:jfi:view:" + v), "source": pages.get(v, "urn:jfi:view:" + v),
              "title": v, "assertions": a} for v, a in by_view.items()]
    return {"@context": EARL_CONTEXT, "@graph": graph}


def acr_settings(config: dict | None, source: Path) -> dict:
    """audit.toml's [acr] table: who signs the report (author, email: required), and optionally the product's name
    and version, the author's company and notes."""
    table = (config or {}).get("acr", {})
    for key, required in ACR_KEYS.items():
        value = table.get(key)
        if (required and not (isinstance(value, str) and value.strip())) or (value is not None and not isinstance(value, str)):
            raise JfiError("invalid_config", f'[acr] {key} must be a string{" (required for a conformance report)" if required else ""}: '
                           f'[acr] author = "Name", email = "name@example.org"', source=str(source), field=f"acr.{key}")
        if isinstance(value, str) and (bad := next((c for c in value if c not in "\n\t" and
                                                    unicodedata.category(c) in ("Cc", "Cf", "Cs")), None)):
            raise JfiError("invalid_config", f"[acr] {key} holds the control or invisible character U+{ord(bad):04X}, "
                           "which the report could not carry as written; remove it", source=str(source),
                           field=f"acr.{key}")
    unknown = sorted(set(table) - set(ACR_KEYS))
    if unknown:
        raise JfiError("invalid_config", f"[acr] has unknown key(s) {', '.join(unknown)} ({', '.join(ACR_KEYS)})",
                       source=str(source), field=f"acr.{unknown[0]}")
    return table


def openacr(rows: list[dict], settings: dict, products: list[str], today: str) -> dict:
    """The report: every WCAG 2.2 criterion of the catalogue, web component, adherence from ratified rows only."""
    name = settings.get("product") or ", ".join(products)
    chapters: dict[str, dict] = {}
    for r in rows:
        chapter = chapters.setdefault(ACR_CHAPTERS[r["level"]], {"criteria": []})
        chapter["criteria"].append({"num": r["sc"], "components": [
            {"name": "web", "adherence": {"level": r["adherence"], "notes": r["notes"]}}]})
    author = {"name": settings["author"], "email": settings["email"],
              **({"company_name": settings["company"]} if settings.get("company") else {})}
    return {"title": f"{name} Accessibility Conformance Report", "product": {
                "name": name, **({"version": settings["version"]} if settings.get("version") else {})},
            "author": author, "report_date": today, "last_modified_date": today,
            "notes": settings.get("notes") or (f"Written by jfi {__version__} from the audit's ratification ledger. A "
                                               "criterion's adherence comes from the rows a named person ratified, never "
                                               "from drafts or flags; a criterion jfi asks nothing about, or whose rows no "
                                               "one has ratified yet, is not evaluated."),
            "evaluation_methods_used": ("Read-only capture of each view in Chromium (accessible names from the browser), "
                                        "axe-core, deterministic flags, judge drafts, and ratification by named people "
                                        "through an append-only, pinned ledger."),
            "catalog": ACR_CATALOG, "chapters": chapters}


def documents(store, fmt: str, *, flags_fail: bool = False, config: dict | None = None,
              config_path: Path | None = None) -> dict[str, bytes]:
    """{file name: bytes} of one format, from a loaded store (OpenACR reads audit.toml's [acr] too)."""
    if fmt == "openacr":
        settings = acr_settings(config, config_path)
        products = [p for (p,) in store.con.execute("SELECT DISTINCT product FROM audit_results ORDER BY 1").fetchall()]
        today = datetime.now(timezone.utc).date().isoformat()
        doc = openacr(store.rows("SELECT * FROM audit_acr"), settings, products, today)
        return {FILES[fmt]: yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100).encode()}
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
