"""W3C EARL in JSON-LD (the ACT Rules implementation report shape): `audit-earl.jsonld`, a WebPage per view with
its assertions."""

from __future__ import annotations

from ...output import json_lines
from ...version import __version__
from .common import PAGES_SQL, RESULTS_SQL, TOOL_IRI, _words, sarif_rule_id

LONG = frozenset({"assertions"})  # the lists written one item per line
CONFIG = False  # whether it reads audit.toml
FILE = "audit-earl.jsonld"

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


def earl(results: list[dict], pages: dict[str, str], checks: list[dict] | None = None) -> dict:
    """An ACT implementation report: one WebPage per view with its assertions. The objective checks that implement
    an ACT rule (audit_act_outcomes) say passed, failed or inapplicable on every view, as their applicability says;
    other flags are asserted by jfi where they fire; questions are cantTell until a person ratifies them (then
    passed or failed, manual, asserted by that person, with the decision id). A test is part of the criteria its
    ACT rule maps to."""
    jfi = {"@id": TOOL_IRI, "@type": ["earl:Assertor", "earl:Software"], "name": "jfi", "version": __version__}
    checks = checks or []
    checked = {c["rule"] for c in checks}
    by_view: dict[str, list[dict]] = {}

    def test(rule: str, wcag_ids, act_rule) -> dict:
        return {
            "@id": "urn:jfi:rule:" + rule,
            "@type": "TestCase",
            "title": rule,
            "isPartOf": ["WCAG22:" + w for w in wcag_ids or []]
            + (["https://act-rules.github.io/rules/" + act_rule] if act_rule else []),
        }

    for c in checks:
        result = {
            "@type": "TestResult",
            "outcome": "earl:" + c["outcome"],
            "description": f"{c['rule']}: {c['outcome']} on this page",
        }
        if c["selector"]:
            result["pointer"] = {"@type": "ptr:CSSSelectorPointer", "expression": c["selector"]}
        by_view.setdefault(c["view_id"], []).append(
            {
                "@type": "Assertion",
                "assertedBy": jfi,
                "mode": "earl:automatic",
                "test": test(c["rule"], c["wcag_ids"], c["act_rule"]),
                "result": result,
            }
        )
    for r in results:
        if r["kind"] == "flag" and (not r["decisive"] or r["rule"] in checked):
            continue  # an informational flag asserts nothing; a check is asserted on every page above
        person = (
            {"@type": ["earl:Assertor", "foaf:Person"], "name": r["ratified_by"]} if r["mode"] == "manual" else None
        )
        result = {"@type": "TestResult", "outcome": "earl:" + r["outcome"], "description": _words(r)}
        if r["selector"]:
            result["pointer"] = {"@type": "ptr:CSSSelectorPointer", "expression": r["selector"]}
        if r["mode"] == "manual":
            result["date"] = r["ratified_utc"]
            result["source"] = "urn:jfi:decision:" + (r["decision_id"] or r["ruling"] or r["fingerprint"])
        rule_id = r["rule"] if r["type"] == "finding" else sarif_rule_id(r, {})  # no template placeholder
        assertion = {
            "@type": "Assertion",
            "assertedBy": person or jfi,
            "mode": "earl:manual" if r["mode"] == "manual" else "earl:automatic",
            "test": test(rule_id, r["wcag_ids"], r["act_rule"]),
            "result": result,
        }
        for v in r["views"] or []:  # the same assertion about each view the unit appears on
            by_view.setdefault(v, []).append(assertion)
    graph = [
        {
            "@type": "WebPage",
            "@id": pages.get(v, "urn:jfi:view:" + v),
            "source": pages.get(v, "urn:jfi:view:" + v),
            "title": v,
            "assertions": a,
        }
        for v, a in by_view.items()
    ]
    return {"@context": EARL_CONTEXT, "@graph": graph}


def document(store, **_) -> tuple[bytes, list[str]]:
    results = store.rows(RESULTS_SQL)
    pages = {row["view_id"]: row["url"] for row in store.rows(PAGES_SQL)}
    checks = store.rows(
        "SELECT o.*, q.wcag_ids FROM audit_act_outcomes AS o JOIN audit_act_requirements AS q "
        "USING (act_rule) ORDER BY o.view_id, o.rule"
    )
    return (json_lines(earl(results, pages, checks), LONG) + "\n").encode(), []
