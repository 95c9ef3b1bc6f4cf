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
FILES = {
    "sarif": "audit.sarif",
    "junit": "audit-junit.xml",
    "earl": "audit-earl.jsonld",
    "openacr": "audit-openacr.yaml",
}
ACR_CATALOG = "2.5-edition-wcag-2.2-en"
ACR_CHAPTERS = {"A": "success_criteria_level_a", "AA": "success_criteria_level_aa", "AAA": "success_criteria_level_aaa"}
ACR_KEYS = {
    "author": True,
    "email": True,
    "product": False,
    "version": False,
    "company": False,
    "notes": False,
    "failing": False,
    "undecided": True,
}
# what the report's author may have a criterion say: with a finding (a row ratified no), and where nothing travels
ACR_FAILING = ("partially-supports", "does-not-support")
ACR_UNDECIDED = ("partially-supports", "does-not-support", "not-applicable")
RESULTS_SQL = "SELECT * FROM audit_results ORDER BY product, id, kind DESC, rule, flag"
RULES_SQL = "SELECT * FROM audit_rule_metadata"
PAGES_SQL = "SELECT view_id, any_value(coalesce(final_url, url) ORDER BY pos) AS url FROM audit_views GROUP BY view_id"


INFORMATION_URI = "https://www.w3.org/WAI/standards-guidelines/act/"  # jfi has no web home; its rules are ACT's
DEQUE = "https://dequeuniversity.com/rules/axe/"


NO_NAME = re.compile(r"^\((no alt attribute|no label; [^)]*|no name)\)$")  # jfi's markers where a name is missing


def named(r: dict) -> str:
    """How a row is called in a message: its name in quotes, or "with no name" where it has none (jfi's markers, such
    as "(no label; none)", are never shown as if they were a name)."""
    name = (r.get("name") or "").strip()
    return "with no name" if not name or NO_NAME.match(name) else f'"{name}"'


def _words(r: dict) -> str:
    """What a result says: its question with the row's name, or the flag's meaning and the flag as the unit has it."""
    return (
        r["meaning"].replace("{name}", r["name"] or "(no name)")
        if r["kind"] == "question"
        else f"{r['meaning']} ({r['flag']})"
    )


def sarif_rule_id(r: dict, unit: dict) -> str:
    """The rule a result is filed under: axe-core's own id for its findings (`axe/link-name`); a flag's concrete id,
    without a template's placeholders (`field_unlabeled_placeholder-only`, `title_shared_by_views`); a question's."""
    if r["type"] == "finding":
        return "axe/" + (unit.get("detail") or "").rsplit(";", 1)[-1].strip()
    if r["kind"] == "question":
        return r["rule"]
    if any(t in r["rule"] for t in ("SOURCE", "EXT")):
        return r["flag"]
    return re.sub(r"(_to)?_h?[NM](?=_|$)", "", r["rule"])


def _pascal(rule_id: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in re.split(r"[^A-Za-z0-9]+", rule_id) if w)


def _sarif_result(r: dict, unit: dict) -> tuple[str, str] | None:
    """(kind, level) of a result for code scanning, or None when it is no finding: a ratified no is an error, an
    objective flag or an axe-core violation a warning, a draft question or another decisive flag a note; a ratified
    yes is a pass (never an issue); an informational flag, a question nobody drafted or decided, are left out."""
    if r["kind"] == "question":
        if r["outcome"] == "failed":
            return "fail", "error"
        if r["outcome"] == "passed":
            return "pass", "none"
        return ("fail", "note") if r["draft_judgment"] else None
    if not r["decisive"]:
        return None
    if r["type"] == "finding":
        return (
            ("fail", "warning")
            if r["flag"] == "axe_violation"
            else ("fail", "note")
            if r["flag"] == "axe_needs_review"
            else None
        )
    return ("fail", "warning") if r["objective"] else ("fail", "note")


def _location(url: str, r: dict, sources: dict[str, str]) -> dict:
    """A page as code scanning shows it: the product's source file where audit.toml's [sarif.sources] maps the
    page's URL prefix to a folder, else the page's URL; the element's CSS path as the region's snippet."""
    uri, base = url, {}
    for prefix, folder in sorted(sources.items(), key=lambda kv: -len(kv[0])):
        if url.startswith(prefix):
            rest = url[len(prefix) :].split("#", 1)[0].split("?", 1)[0]
            uri, base = (
                folder.rstrip("/") + "/" + (rest if rest and not rest.endswith("/") else rest + "index.html"),
                {"uriBaseId": "%SRCROOT%"},
            )
            break
    snippet = r["selector"] or r["name"] or r["type"]
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": uri, **base},
            "region": {"startLine": 1, "snippet": {"text": snippet}},
        },
        **({"logicalLocations": [{"fullyQualifiedName": r["selector"], "kind": "element"}]} if r["selector"] else {}),
    }


def sarif(
    results: list[dict],
    rules: list[dict],
    pages: dict[str, str],
    units: dict[str, dict] | None = None,
    sources: dict[str, str] | None = None,
) -> dict:
    """One run of jfi for code scanning: one result per finding (a jfi flag that counts, a question's draft or
    ratification, an axe-core finding under axe-core's own rule), each rule described in full; locations code
    scanning can show; fingerprints from unit ids."""
    units, sources = units or {}, sources or {}
    meta = {r["rule"]: r for r in rules}
    described: dict[str, dict] = {}
    out = []
    # an axe-core finding is one result: what a person ratified, else what axe-core reported
    decided = {r["id"] for r in results if r["type"] == "finding" and r["kind"] == "question" and r["mode"] == "manual"}
    for r in results:
        unit = units.get(r["id"], {})
        if r["type"] == "finding" and (r["kind"] == "question") != (r["id"] in decided):
            continue
        kind_level = _sarif_result(r, unit)
        if kind_level is None:
            continue
        kind, level = kind_level
        rule_id = sarif_rule_id(r, unit)
        if rule_id not in described:
            described[rule_id] = _descriptor(rule_id, r, unit, meta.get(r["rule"], {}))
        name = r["name"] if r["name"] and not NO_NAME.match(r["name"]) else "(no name)"
        if r["type"] == "finding":
            words = f"axe-core: {unit.get('name') or r['meaning']} ({(unit.get('detail') or '').split(';')[0]})"
        elif r["kind"] == "question":
            words = r["meaning"].replace("{name}", name)
        else:
            words = r["meaning"]
        state = (
            f" Ratified {'no' if r['outcome'] == 'failed' else 'yes'} by {r['ratified_by']} ({r['decision_id']})."
            if r["mode"] == "manual"
            else f" Drafted {r['draft_judgment']}, not ratified: a draft is never a verdict."
            if r["kind"] == "question"
            else ""
        )
        text = f"{r['type'].capitalize()} {named(r)} ({r['id']}): {words.rstrip('.')}.{state}"
        out.append(
            {
                "ruleId": rule_id,
                "kind": kind,
                "level": level,
                "message": {"text": text},
                "locations": [_location(pages.get(v, v), r, sources) for v in (r["views"] or [])[:10]],
                "partialFingerprints": {"jfiResult/v1": f"{r['id']}|{rule_id}", "jfiUnit/v1": r["id"]},
                "properties": {
                    "unit": r["id"],
                    "type": r["type"],
                    "product": r["product"],
                    "outcome": r["outcome"],
                    "views": r["views"] or [],
                    **({"flag": r["flag"]} if r["flag"] else {}),
                    **(
                        {"ratified_by": r["ratified_by"], "decision_id": r["decision_id"]}
                        if r["mode"] == "manual"
                        else {}
                    ),
                    **({"draft": r["draft_judgment"]} if r["kind"] == "question" and r["draft_judgment"] else {}),
                },
            }
        )
    index = {rid: k for k, rid in enumerate(described)}
    for result in out:
        result["ruleIndex"] = index[result["ruleId"]]
    driver = {
        "name": "jfi",
        "fullName": "jfi content-judgment audit",
        "version": __version__,
        "semanticVersion": __version__,
        "informationUri": INFORMATION_URI,
        "rules": list(described.values()),
    }
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "columnKind": "utf16CodeUnits",
                "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "The product's source folder."}}},
                "results": out,
            }
        ],
    }


def _descriptor(rule_id: str, r: dict, unit: dict, meta: dict) -> dict:
    """A rule as code scanning lists it: a readable name, a short and a full description, help in text and Markdown,
    its help page and tags (WCAG criteria, ACT rule)."""
    sc = r["sc"] or []
    criteria = ", ".join(f"WCAG {c}" for c in sc) or "no WCAG criterion of its own"
    if r["type"] == "finding":
        axe_id = rule_id.split("/", 1)[1]
        short = unit.get("name") or f"axe-core rule {axe_id}"
        full = f"axe-core's rule {axe_id}: {short} ({criteria}). jfi groups its nodes by component; a person confirms."
        help_url = unit.get("href") or f"{DEQUE}{axe_id}"
        tags = [f"wcag{c.replace('.', '')}" for c in sc] + ["axe-core", "accessibility"]
    else:
        meaning = (r["meaning"] if r["kind"] != "question" else meta.get("meaning", r["meaning"])).replace(
            "{name}", "…"
        )
        short = meaning[:1].upper() + meaning[1:]
        full = (
            f"{short} ({criteria}"
            + (f"; ACT rule {r['act_rule']}" if r["act_rule"] else "")
            + "). "
            + (
                "A fact the browser's accessibility tree shows."
                if r["objective"]
                else "A question a person ratifies; a model's draft is never a verdict."
                if r["kind"] == "question"
                else "A sign that asks a person to look."
            )
        )
        help_url = r["help_url"] or "https://www.w3.org/WAI/WCAG22/Understanding/"
        tags = list(r["tags"] or []) + ["accessibility"]
    return {
        "id": rule_id,
        "name": _pascal(rule_id),
        "shortDescription": {"text": short.rstrip(".") + "."},
        "fullDescription": {"text": full},
        "helpUri": help_url,
        "help": {"text": f"{full} See {help_url}", "markdown": f"{full}\n\n[{criteria}: what it asks]({help_url})"},
        "properties": {
            "tags": tags,
            **({"act_rule": r["act_rule"]} if r["act_rule"] else {}),
            "objective": bool(r["objective"]),
            "precision": "high" if r["objective"] else "medium",
        },
    }


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


def acr_settings(config: dict | None, source: Path) -> dict:
    """audit.toml's [acr] table: who signs the report (author, email: required), and optionally the product's name
    and version, the author's company and notes."""
    table = (config or {}).get("acr", {})
    for key, required in ACR_KEYS.items():
        value = table.get(key)
        if (required and not (isinstance(value, str) and value.strip())) or (
            value is not None and not isinstance(value, str)
        ):
            raise JfiError(
                "invalid_config",
                f"[acr] {key} must be a string{' (required for a conformance report)' if required else ''}: "
                f'[acr] author = "Name", email = "name@example.org", undecided = "partially-supports" '
                f"(what an A/AA criterion no finding decides reads as: {', '.join(ACR_UNDECIDED)}; "
                f"failing = {' or '.join(ACR_FAILING)} for one with a finding)",
                source=str(source),
                field=f"acr.{key}",
            )
        if isinstance(value, str) and (
            bad := next((c for c in value if c not in "\n\t" and unicodedata.category(c) in ("Cc", "Cf", "Cs")), None)
        ):
            raise JfiError(
                "invalid_config",
                f"[acr] {key} holds the control or invisible character U+{ord(bad):04X}, "
                "which the report could not carry as written; remove it",
                source=str(source),
                field=f"acr.{key}",
            )
    unknown = sorted(set(table) - set(ACR_KEYS))
    if unknown:
        raise JfiError(
            "invalid_config",
            f"[acr] has unknown key(s) {', '.join(unknown)} ({', '.join(ACR_KEYS)})",
            source=str(source),
            field=f"acr.{unknown[0]}",
        )
    for key, allowed in (("failing", ACR_FAILING), ("undecided", ACR_UNDECIDED)):
        if key in table and table[key] not in allowed:
            why = (
                " (a ratified yes is evidence of no defect in the captured sample only: it never supports a criterion)"
                if table[key] == "supports"
                else ""
            )
            raise JfiError(
                "invalid_config",
                f"[acr] {key} is one of {', '.join(allowed)}{why}",
                source=str(source),
                field=f"acr.{key}",
            )
    return table


def openacr(rows: list[dict], settings: dict, products: list[str], today: str, sample: str = "") -> dict:
    """The report: every WCAG 2.2 criterion of the catalogue, web component, by the workflow's rule: a criterion with
    a finding (a row ratified no) reads as the author's `failing` term (partially-supports unless audit.toml says
    does-not-support) with the failing ids; any other A/AA criterion as the author's `undecided` term, never
    supports, with what was sampled; an AAA criterion without a finding is not evaluated."""
    name = settings.get("product") or ", ".join(products)
    chapters: dict[str, dict] = {}
    for r in rows:
        if r["state"] == "finding":
            level = settings.get("failing", ACR_FAILING[0])
        else:
            level = "not-evaluated" if r["level"] == "AAA" else settings["undecided"]
        notes = (
            r["notes"]
            + (f" {sample}" if r["state"] != "undecided" or r["evaluated"] else "")
            + ("" if r["state"] == "finding" or r["level"] == "AAA" else " The report's author decides its term.")
        )
        chapter = chapters.setdefault(ACR_CHAPTERS[r["level"]], {"criteria": []})
        chapter["criteria"].append(
            {"num": r["sc"], "components": [{"name": "web", "adherence": {"level": level, "notes": notes.strip()}}]}
        )
    author = {
        "name": settings["author"],
        "email": settings["email"],
        **({"company_name": settings["company"]} if settings.get("company") else {}),
    }
    return {
        "title": f"{name} Accessibility Conformance Report",
        "product": {"name": name, **({"version": settings["version"]} if settings.get("version") else {})},
        "author": author,
        "report_date": today,
        "last_modified_date": today,
        "notes": settings.get("notes")
        or (
            f"Written by jfi {__version__} from the audit's ratification ledger. Only "
            "a row a named person ratified no travels, as a finding with its receipt; "
            "a ratified yes is evidence of no defect in the captured sample only and "
            "never supports a criterion; drafts and flags count for nothing. " + sample
        ),
        "evaluation_methods_used": (
            "Read-only capture of each view in Chromium (accessible names from the browser), "
            "axe-core, deterministic flags, judge drafts, and ratification by named people "
            "through an append-only, pinned ledger."
        ),
        "catalog": ACR_CATALOG,
        "chapters": chapters,
    }


def documents(
    store, fmt: str, *, flags_fail: bool = False, config: dict | None = None, config_path: Path | None = None
) -> dict[str, bytes]:
    """{file name: bytes} of one format, from a loaded store (OpenACR reads audit.toml's [acr] too)."""
    if fmt == "openacr":
        settings = acr_settings(config, config_path)
        products = [p for (p,) in store.con.execute("SELECT DISTINCT product FROM audit_results ORDER BY 1").fetchall()]
        today = datetime.now(timezone.utc).date().isoformat()
        views = store.rows(
            "SELECT count(DISTINCT view_id) AS n, list(DISTINCT viewport ORDER BY viewport) AS at "
            "FROM audit_views WHERE ok"
        )[0]
        sample = (
            f"Sampled: {views['n']} captured view(s) at viewport(s) {', '.join(v for v in views['at'] or [] if v)}, "
            "each page as loaded (nothing activated: no menus opened, no forms sent), counts capped per view."
        )
        doc = openacr(store.rows("SELECT * FROM audit_acr"), settings, products, today, sample)
        return {FILES[fmt]: yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100).encode()}
    results = store.rows(RESULTS_SQL)
    pages = {row["view_id"]: row["url"] for row in store.rows(PAGES_SQL)}
    if fmt == "sarif":
        units = {u["id"]: u for u in store.rows("SELECT id, name, detail, href FROM audit_draft_rows")}
        sources = (config or {}).get("sarif", {}).get("sources", {})
        return {
            FILES[fmt]: (
                json.dumps(sarif(results, store.rows(RULES_SQL), pages, units, sources), indent=1, ensure_ascii=False)
                + "\n"
            ).encode()
        }
    if fmt == "junit":
        return {FILES[fmt]: junit(results, flags_fail=flags_fail)}
    if fmt == "earl":
        checks = store.rows(
            "SELECT o.*, q.wcag_ids FROM audit_act_outcomes AS o JOIN audit_act_requirements AS q "
            "USING (act_rule) ORDER BY o.view_id, o.rule"
        )
        return {FILES[fmt]: (json.dumps(earl(results, pages, checks), indent=1, ensure_ascii=False) + "\n").encode()}
    raise ValueError(fmt)


def write(files, out: Path, docs: dict[str, bytes]) -> list[Path]:
    for name, data in docs.items():
        files.write(out / name, data)
    return [out / name for name in docs]
