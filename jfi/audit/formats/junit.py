"""JUnit XML (every CI's test tab): `audit-junit.xml`, a suite per product and a case per unit question, as
Jenkins' junit-10 schema states it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from .common import RESULTS_SQL, named, sarif_rule_id

CONFIG = False  # whether it reads audit.toml
FILE = "audit-junit.xml"


def junit(results: list[dict], *, flags_fail: bool) -> bytes:
    """A test suite per product, a test case per unit question: failed when ratified no (and, with flags_fail, when
    an objective flag fires), skipped while not ratified, passed when ratified yes. The shape Jenkins' junit-10
    schema states: totals on each suite (tests, failures, errors, skipped, time) and on the whole (no skipped
    there), and each failure's text saying what failed, where and why."""
    root = ET.Element("testsuites", name="jfi audit")
    by_unit: dict[str, list[dict]] = {}
    for r in results:
        by_unit.setdefault(r["id"], []).append(r)
    suites: dict[str, ET.Element] = {}
    totals = {"tests": 0, "failures": 0}
    for unit, rows in by_unit.items():
        question = next(r for r in rows if r["kind"] == "question")
        suite = suites.get(question["product"])
        if suite is None:
            suite = suites[question["product"]] = ET.SubElement(
                root, "testsuite", name=question["product"], tests="0", failures="0", errors="0", skipped="0", time="0"
            )
        case = ET.SubElement(
            suite,
            "testcase",
            name=f"{unit} {named(question).strip(chr(34))}",
            classname=f"{question['product']}.{question['type']}",
            time="0",
        )
        failing = [r for r in rows if r["outcome"] == "failed" and (r["kind"] == "question" or flags_fail)]
        where = ", ".join(question["views"] or []) or "no view"
        for r in failing:
            rule = sarif_rule_id(r, {})
            said = (
                f"ratified no by {r['ratified_by']} (decision {r['decision_id']}): "
                + r["meaning"].replace("{name}", r["name"] or "(no name)")
                if r["kind"] == "question"
                else r["meaning"]
            )
            failure = ET.SubElement(case, "failure", message=f"{rule}: {said}"[:300], type=rule)
            failure.text = f"{question['type'].capitalize()} {named(question)} ({unit}) on {where}: {said}." + (
                f" Element: {r['selector']}." if r["selector"] else ""
            )
        if not failing and question["outcome"] == "cantTell":
            ET.SubElement(case, "skipped", message="not ratified: a draft is never a verdict")
        for key, hit in (("failures", bool(failing)), ("skipped", not failing and question["outcome"] == "cantTell")):
            suite.set(key, str(int(suite.get(key, "0")) + hit))
            if key == "failures":  # the whole carries no skipped total (junit-10 has none there)
                totals[key] += hit
        suite.set("tests", str(int(suite.get("tests", "0")) + 1))
        totals["tests"] += 1
    root.set("tests", str(totals["tests"]))
    root.set("failures", str(totals["failures"]))
    root.set("errors", "0")
    root.set("time", "0")
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


def document(store, *, flags_fail: bool = False, **_) -> tuple[bytes, list[str]]:
    return junit(store.rows(RESULTS_SQL), flags_fail=flags_fail), []
