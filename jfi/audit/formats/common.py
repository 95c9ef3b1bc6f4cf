"""What every published format of the audit's results shares: how a result is named and said, the queries the
formats read, and the tool's identity. Drafts are never verdicts: a question is cantTell (EARL), review (SARIF),
skipped (JUnit) or not counted (OpenACR) until a named person ratifies it."""

from __future__ import annotations

import re

from ...version import __version__

TOOL_IRI = "urn:jfi:tool:" + __version__  # jfi has no web home to point at; the assertor is named by its version
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
