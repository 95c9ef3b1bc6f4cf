"""`jfi corpus validate`: violations, acceptance criteria, concentration and pending work in one report."""

from __future__ import annotations

from ..errors import MESSAGE_MAX, clip
from ..output import table
from ..version import __version__
from .project import CorpusProject, display_path


def counted(rows: list[tuple], order: list[str] | None = None) -> dict:
    """Counts by name: the known names in their order (those present), then any other name by count; nothing is
    left out of a count for being unknown."""
    found = dict(rows)
    known = [k for k in (order or []) if found.get(k)]
    rest = sorted((k for k in found if k not in known), key=lambda k: (-found[k], str(k)))
    return {k: found[k] for k in known + rest}


def report(project: CorpusProject, goal: int) -> tuple[dict, int]:
    """The validation report and its exit code: 0 clean and complete, 1 clean but incomplete, 2 errors. A harvest
    project reports coverage and never gates on it (as upstream's validator): 0 clean, 1 empty, 2 errors."""
    exists = project.corpus_path.is_file()
    profile = project.profile
    mismatch = project.profile_mismatch()
    if mismatch:  # another profile's data: one error saying so, not one per field and line
        result = {
            "corpus": display_path(project.corpus_path),
            "exists": exists,
            "profile": profile,
            "goal": goal,
            "errors": [mismatch],
            "warnings": [],
            "counts": {},
            "criteria": [],
            "goals_met": False,
        }
        return result, 2
    store = project.store(goal=goal)
    try:
        errors = store.rows("SELECT * FROM corpus_violations")
        for e in errors:  # a value a user sent may be megabytes long: messages carry a clipped copy
            e["message"] = clip(e["message"], MESSAGE_MAX)
        if not exists:
            errors.insert(
                0,
                {
                    "source": display_path(project.corpus_path),
                    "line": None,
                    "record_id": None,
                    "field": None,
                    "code": "no_corpus",
                    "message": "no corpus file here yet; it is created on the first round",
                },
            )
        statuses = store.scalar("SELECT allowed FROM field_specs WHERE kind = 'item' AND field = 'status'")
        by_status = counted(
            store.con.execute(
                "SELECT status, count(*) FROM corpus_items WHERE status IS NOT NULL GROUP BY status"
            ).fetchall(),
            statuses,
        )
        counts = {"items": store.scalar("SELECT count(*) FROM corpus_items"), "by_status": by_status}
        if profile == "harvest":
            for key, column, order in (
                ("by_sector", "sector", "SELECT list(sector) FROM corpus_sectors"),
                ("by_subtype", "subtype", "SELECT list(subtype) FROM corpus_subtypes"),
                ("by_domain", "domain", None),
            ):
                counts[key] = counted(
                    store.con.execute(
                        f"SELECT {column}, count(*) FROM corpus_items WHERE {column} IS NOT NULL GROUP BY ALL"
                    ).fetchall(),
                    store.scalar(order) if order else None,
                )
            counts["ready"] = by_status.get("ready", 0)
        else:
            counts["accepted"] = by_status.get("accepted", 0)
        counts["domains"] = store.scalar("SELECT count(DISTINCT domain) FROM corpus_items")
        counts["batches" if profile == "harvest" else "rounds"] = store.scalar("SELECT count(*) FROM corpus_rounds")
        criteria = store.rows("SELECT criterion, actual, target, unit, comparison, met FROM corpus_criteria")
        result = {
            "corpus": display_path(project.corpus_path),
            "exists": exists,
            "profile": profile,
            "goal": goal,
            "targets": store.rows("SELECT * FROM corpus_targets")[0],
            "errors": errors,
            "warnings": store.rows("SELECT * FROM corpus_warnings"),
            "counts": counts,
            "criteria": criteria,
            "concentration": store.rows(
                "SELECT * EXCLUDE (limit_share) FROM corpus_concentration"
                if profile != "harvest"
                else "SELECT * FROM corpus_concentration"
            ),
            "pending": store.rows("SELECT item_id, status, work, detail FROM corpus_pending"),
            "goals_met": all(c["met"] for c in criteria),
            "rulebook_sha256": store.rulebook_sha256,
            "jfi_version": __version__,
        }
    finally:
        store.close()
    if profile == "harvest":
        code = 2 if errors else (1 if not counts["items"] else 0)
    else:
        code = 2 if errors else (0 if result["goals_met"] else 1)
    return result, code


def _show(value, unit) -> str:
    if value is None:
        return "-"
    return f"{value:.1%}" if unit == "share" else str(int(value))


def render(result: dict) -> str:
    """The progress report a maintainer reads after a round."""
    c = result["counts"]
    if not c:  # refused before anything was counted (another profile's data)
        return (
            f"{result['corpus']}: profile {result['profile']}; {len(result['errors'])} error(s): the corpus is refused"
        )
    harvest = result["profile"] == "harvest"
    statuses = ", ".join(f"{n} {s}" for s, n in c["by_status"].items()) or "no items"
    done = f"{c['ready']} ready" if harvest else f"{c['accepted']} accepted"
    rounds = f"{c['batches']} review batch(es)" if harvest else f"{c['rounds']} round(s)"
    out = [
        f"{result['corpus']}: {c['items']} items ({statuses}); {done} from {c['domains']} domains; {rounds}; "
        f"goal {result['goal']}; profile {result['profile']}",
        "",
    ]
    out.append(
        table(
            ["criterion", "actual", "target", "met"],
            [
                (
                    r["criterion"],
                    _show(r["actual"], r["unit"]),
                    f"{r['comparison']} {_show(r['target'], r['unit'])}",
                    "yes" if r["met"] else "no",
                )
                for r in result["criteria"]
            ],
            title="Coverage (reported, never gating)" if harvest else "Acceptance criteria",
        )
    )
    out.append("")
    conc = result["concentration"]
    kept = "ready" if harvest else "accepted"
    limit = (
        f"at most {result['targets']['domain_max']} items a domain"
        if harvest
        else f"limit {result['targets']['max_domain_share']:.0%} of accepted"
    )
    out.append(
        table(
            ["domain", "items", kept, "share", "limit"],
            [
                (r["domain"], r["items"], r[kept], _show(r["share"], "share"), "OVER" if r["over_limit"] else "ok")
                for r in conc
            ],
            title=f"Concentration ({limit})",
        )
        if conc
        else "Concentration: no items yet"
    )
    out.append("")
    pending = result["pending"]
    out.append(
        table(
            ["item", "status", "work", "detail"],
            [(p["item_id"], p["status"], p["work"], p["detail"]) for p in pending],
            title="Pending work",
        )
        if pending
        else "Pending work: none"
    )
    out.append("")
    met = sum(1 for r in result["criteria"] if r["met"])
    if result["errors"]:
        verdict = f"{len(result['errors'])} error(s): the corpus is refused until they are fixed"
    elif harvest:
        verdict = f"clean; coverage {met} of {len(result['criteria'])} bars met"
    elif result["goals_met"]:
        verdict = "clean and complete: every criterion is met"
    else:
        verdict = f"clean, {met} of {len(result['criteria'])} criteria met"
    out += _warnings(result["warnings"])
    out.append(f"{verdict}; {len(result['warnings'])} warning(s); rulebook {result['rulebook_sha256'][:12]}")
    return "\n".join(out)


WARNINGS_SHOWN = 3  # lines shown per warning code in text mode (--json lists every one)


def _warnings(warnings: list[dict]) -> list[str]:
    """The warnings grouped by code, each with its count and its first lines (`--json` lists them all)."""
    if not warnings:
        return []
    codes: dict[str, list[dict]] = {}
    for w in warnings:
        codes.setdefault(w["code"], []).append(w)
    out = [f"Warnings ({len(warnings)}; they never change the exit status):"]
    for code, rows in sorted(codes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        out.append(f"  {code}: {len(rows)}")
        out += [
            "    "
            + f"{w['source']}:{w['line']}: "
            + " ".join(x for x in (w["record_id"], w["field"]) if x)
            + f": {w['message']}"
            for w in rows[:WARNINGS_SHOWN]
        ]
        if len(rows) > WARNINGS_SHOWN:
            out.append(f"    … and {len(rows) - WARNINGS_SHOWN} more (`jfi corpus validate --json` lists every one)")
    return out + [""]
