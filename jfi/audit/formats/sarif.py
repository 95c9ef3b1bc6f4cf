"""SARIF 2.1.0 (code-scanning viewers, CI annotations): `audit.sarif`, one run, a rule per flag, question and
axe-core rule, a result per finding; a page mapped to its source file where audit.toml's [sarif.sources] says so."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import groupby

from ...output import json_lines
from ...version import __version__
from . import CODE_SCANNING
from .common import DEQUE, INFORMATION_URI, NO_NAME, PAGES_SQL, RESULTS_SQL, RULES_SQL, named, sarif_rule_id

LONG = frozenset({"results", "rules"})  # the lists written one item per line
CONFIG = True  # whether it reads audit.toml
LEVELS = {"error": 0, "warning": 1, "note": 2, "none": 3}  # what is kept first when results are left out
FILE = "audit.sarif"


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


def _artifact(url: str, sources: list[tuple[str, str]]) -> dict:
    """A page as code scanning shows it: the product's source file where audit.toml's [sarif.sources] maps the page's
    URL prefix to a folder (the longest prefix first), else the page's URL."""
    for prefix, folder in sources:
        if url.startswith(prefix):
            rest = url[len(prefix) :].split("#", 1)[0].split("?", 1)[0]
            page = rest if rest and not rest.endswith("/") else rest + "index.html"
            return {"uri": folder.rstrip("/") + "/" + page, "uriBaseId": "%SRCROOT%"}
    return {"uri": url}


def _locations(artifacts: list[dict], r: dict) -> list[dict]:
    """Where a result is: each of its pages (their artifacts, made once per page), the element's CSS path as the
    region's snippet."""
    region = {"startLine": 1, "snippet": {"text": r["selector"] or r["name"] or r["type"]}}
    logical = {"logicalLocations": [{"fullyQualifiedName": r["selector"], "kind": "element"}]} if r["selector"] else {}
    return [{"physicalLocation": {"artifactLocation": a, "region": region}, **logical} for a in artifacts]


def sarif(
    results: Iterable[dict],
    rules: list[dict],
    pages: dict[str, str],
    units: dict[str, dict] | None = None,
    sources: dict[str, str] | None = None,
    max_results: int = 0,
) -> dict:
    """One run of jfi for code scanning: one result per finding (a jfi flag that counts, a question's draft or
    ratification, an axe-core finding under axe-core's own rule), each rule described in full; locations code
    scanning can show; fingerprints from unit ids. Beyond `max_results` (0: no limit), the lowest levels are left out
    first (a pass, then a note, then a warning; an error last), and the run's notification says how many: the rows
    are read once (`results` may be a stream, a unit's rows together as RESULTS_SQL orders them), and no more than
    twice `max_results` of them are held at a time."""
    units = units or {}
    ordered = sorted((sources or {}).items(), key=lambda kv: -len(kv[0]))
    artifacts: dict[str, dict] = {}  # a page's artifact, by its view: one dict however many results name it

    def artifact(view: str) -> dict:
        if view not in artifacts:
            artifacts[view] = _artifact(pages.get(view, view), ordered)
        return artifacts[view]

    meta = {r["rule"]: r for r in rules}
    described: dict[str, dict] = {}
    found: list[tuple] = []  # (position, row, its unit, kind, level, rule id) of the results kept so far
    levels: Counter[str] = Counter()  # every result's level
    for position, r in enumerate(_one_per_finding(results)):
        unit = units.get(r["id"], {})
        kind_level = _sarif_result(r, unit)
        if kind_level is None:
            continue
        rule_id = sarif_rule_id(r, unit)
        if rule_id not in described:
            described[rule_id] = _descriptor(rule_id, r, unit, meta.get(r["rule"], {}))
        levels[kind_level[1]] += 1
        found.append((position, r, unit, *kind_level, rule_id))
        if max_results and len(found) >= 2 * max_results:
            found = _best(found, max_results)
    found = _best(found, max_results)  # only the results kept are made
    left_out = {level: levels[level] - sum(f[4] == level for f in found) for level in sorted(levels, key=LEVELS.get)}
    left_out = {level: n for level, n in left_out.items() if n}
    index = {rid: k for k, rid in enumerate(described)}
    out = [_result(r, unit, kind, level, rule, index[rule], artifact) for _, r, unit, kind, level, rule in found]
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
                **({"invocations": [_left_out_notice(left_out, len(out))]} if left_out else {}),
            }
        ],
    }


def _result(r: dict, unit: dict, kind: str, level: str, rule_id: str, rule_index: int, artifact) -> dict:
    """One result as code scanning reads it: what it says (a draft is never a verdict), where, its fingerprints."""
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
    return {
        "ruleId": rule_id,
        "kind": kind,
        "level": level,
        "message": {"text": text},
        "locations": _locations([artifact(v) for v in (r["views"] or [])[:10]], r),
        "partialFingerprints": {"jfiResult/v1": f"{r['id']}|{rule_id}", "jfiUnit/v1": r["id"]},
        "properties": {
            "unit": r["id"],
            "type": r["type"],
            "product": r["product"],
            "outcome": r["outcome"],
            "views": r["views"] or [],
            **({"flag": r["flag"]} if r["flag"] else {}),
            **({"ratified_by": r["ratified_by"], "decision_id": r["decision_id"]} if r["mode"] == "manual" else {}),
            **({"draft": r["draft_judgment"]} if r["kind"] == "question" and r["draft_judgment"] else {}),
        },
        "ruleIndex": rule_index,
    }


def _one_per_finding(results: Iterable[dict]) -> Iterator[dict]:
    """The rows that are results: an axe-core finding is one, what a person ratified, else what axe-core reported (a
    unit's rows come together)."""
    for _, group in groupby(results, key=lambda r: r["id"]):
        rows = list(group)
        decided = any(r["type"] == "finding" and r["kind"] == "question" and r["mode"] == "manual" for r in rows)
        yield from (r for r in rows if r["type"] != "finding" or (r["kind"] == "question") == decided)


def _best(found: list[tuple], max_results: int) -> list[tuple]:
    """Of (position, row, unit, kind, level, rule id) tuples, the max_results (0: every one) of the highest levels, the
    first of a level first; in their order."""
    if not max_results or len(found) <= max_results:
        return found
    return sorted(sorted(found, key=lambda f: (LEVELS[f[4]], f[0]))[:max_results], key=lambda f: f[0])


def _left_out_notice(left_out: dict[str, int], kept: int) -> dict:
    said = ", ".join(f"{n} {level if level != 'none' else 'pass'}(s)" for level, n in left_out.items())
    text = (
        f"{sum(left_out.values())} of {kept + sum(left_out.values())} results left out ({said}): at most {kept} "
        f"results a run, the lowest levels left out first (code scanning rejects a run of more than {CODE_SCANNING:,}); "
        "`jfi audit export --format sarif --max-results 0` writes every one, and the audit's own files hold them all."
    )
    return {
        "executionSuccessful": True,
        "toolExecutionNotifications": [
            {"descriptor": {"id": "results-left-out"}, "level": "warning", "message": {"text": text}}
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


def document(store, *, config: dict | None = None, max_results: int = CODE_SCANNING, **_) -> tuple[bytes, list[str]]:
    pages = {row["view_id"]: row["url"] for row in store.rows(PAGES_SQL)}
    units = {  # what an axe-core finding says of itself (no other result reads its unit's row)
        u["id"]: u for u in store.rows("SELECT id, name, detail, href FROM audit_draft_rows WHERE type = 'finding'")
    }
    sources = (config or {}).get("sarif", {}).get("sources", {})
    doc = sarif(store.stream(RESULTS_SQL), store.rows(RULES_SQL), pages, units, sources, max_results)
    notices = doc["runs"][0].get("invocations", [{}])[0].get("toolExecutionNotifications", [])
    return (json_lines(doc, LONG) + "\n").encode(), [f"jfi: {FILE}: {n['message']['text']}" for n in notices]
