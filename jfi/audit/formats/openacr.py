"""OpenACR (GSA's machine-readable VPAT 2.5 conformance report, YAML): `audit-openacr.yaml`, every WCAG 2.2
criterion of the catalogue by the workflow's rule (a finding travels; a yes never supports a criterion)."""

from __future__ import annotations

import unicodedata
from datetime import datetime, timezone
from pathlib import Path

import yaml

from ...errors import JfiError
from ...version import __version__

CONFIG = True  # whether it reads audit.toml
FILE = "audit-openacr.yaml"
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
                f'add [acr] author = "Name", email = "name@example.org", undecided = "partially-supports" '
                f"(what an A/AA criterion without a finding reads as: {', '.join(ACR_UNDECIDED)})",
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


def document(store, *, config: dict | None = None, config_path: Path | None = None, **_) -> tuple[bytes, list[str]]:
    settings = acr_settings(config, config_path)
    products = [p for (p,) in store.con.execute("SELECT DISTINCT product FROM audit_results ORDER BY 1").fetchall()]
    today = datetime.now(timezone.utc).date().isoformat()
    views = store.rows(
        "SELECT count(DISTINCT view_id) AS n, list(DISTINCT viewport ORDER BY viewport) AS at FROM audit_views WHERE ok"
    )[0]
    sample = (
        f"Sampled: {views['n']} captured view(s) at viewport(s) {', '.join(v for v in views['at'] or [] if v)}, "
        "each page as loaded (nothing activated: no menus opened, no forms sent), counts capped per view."
    )
    doc = openacr(store.rows("SELECT * FROM audit_acr"), settings, products, today, sample)
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100).encode(), []
