"""`jfi corpus validate`: violations, acceptance criteria, concentration and pending work in one report."""
from __future__ import annotations

from .. import __version__
from ..errors import MESSAGE_MAX, clip
from ..output import table
from .project import CorpusProject, display_path

STATUSES = ("candidate", "accepted", "needs-revision", "rejected")


def report(project: CorpusProject, goal: int) -> tuple[dict, int]:
    """The validation report and its exit code: 0 clean and complete, 1 clean but incomplete, 2 errors."""
    exists = project.corpus_path.is_file()
    store = project.store(goal=goal)
    try:
        errors = store.rows("SELECT * FROM corpus_violations")
        for e in errors:  # a value a user sent may be megabytes long: messages carry a clipped copy
            e["message"] = clip(e["message"], MESSAGE_MAX)
        if not exists:
            errors.insert(0, {"source": display_path(project.corpus_path), "line": None, "record_id": None,
                              "field": None, "code": "no_corpus",
                              "message": "no corpus file here yet; it is created on the first round"})
        by_status = dict(store.con.execute(
            "SELECT status, count(*) FROM corpus_items WHERE status IS NOT NULL GROUP BY status").fetchall())
        counts = {
            "items": store.scalar("SELECT count(*) FROM corpus_items"),
            "by_status": {s: by_status.get(s, 0) for s in STATUSES if by_status.get(s)},
            "accepted": by_status.get("accepted", 0),
            "domains": store.scalar("SELECT count(DISTINCT domain) FROM corpus_items"),
            "rounds": store.scalar("SELECT count(*) FROM corpus_rounds"),
        }
        criteria = store.rows("SELECT criterion, actual, target, unit, comparison, met FROM corpus_criteria")
        result = {
            "corpus": display_path(project.corpus_path),
            "exists": exists,
            "goal": goal,
            "targets": store.rows("SELECT * FROM corpus_targets")[0],
            "errors": errors,
            "warnings": store.rows("SELECT * FROM corpus_warnings"),
            "counts": counts,
            "criteria": criteria,
            "concentration": store.rows("SELECT domain, items, accepted, share, over_limit FROM corpus_concentration"),
            "pending": store.rows("SELECT item_id, status, work, detail FROM corpus_pending"),
            "goals_met": all(c["met"] for c in criteria),
            "rulebook_sha256": store.rulebook_sha256,
            "jfi_version": __version__,
        }
    finally:
        store.close()
    code = 2 if errors else (0 if result["goals_met"] else 1)
    return result, code


def _show(value, unit) -> str:
    if value is None:
        return "-"
    return f"{value:.1%}" if unit == "share" else str(int(value))


def render(result: dict) -> str:
    """The progress report a maintainer reads after a round."""
    c = result["counts"]
    statuses = ", ".join(f"{n} {s}" for s, n in c["by_status"].items()) or "no items"
    out = [f"{result['corpus']}: {c['items']} items ({statuses}); {c['accepted']} accepted from "
           f"{c['domains']} domains; {c['rounds']} round(s); goal {result['goal']}", ""]
    out.append(table(["criterion", "actual", "target", "met"],
                     [(r["criterion"], _show(r["actual"], r["unit"]),
                       f"{r['comparison']} {_show(r['target'], r['unit'])}", "yes" if r["met"] else "no")
                      for r in result["criteria"]], title="Acceptance criteria"))
    out.append("")
    conc = result["concentration"]
    out.append(table(["domain", "items", "accepted", "share", "limit"],
                     [(r["domain"], r["items"], r["accepted"], _show(r["share"], "share"),
                       "OVER" if r["over_limit"] else "ok") for r in conc],
                     title=f"Concentration (limit {result['targets']['max_domain_share']:.0%} of accepted)")
               if conc else "Concentration: no items yet")
    out.append("")
    pending = result["pending"]
    out.append(table(["item", "status", "work", "detail"],
                     [(p["item_id"], p["status"], p["work"], p["detail"]) for p in pending], title="Pending work")
               if pending else "Pending work: none")
    out.append("")
    met = sum(1 for r in result["criteria"] if r["met"])
    if result["errors"]:
        verdict = f"{len(result['errors'])} error(s): the corpus is refused until they are fixed"
    elif result["goals_met"]:
        verdict = "clean and complete: every criterion is met"
    else:
        verdict = f"clean, {met} of {len(result['criteria'])} criteria met"
    out.append(f"{verdict}; {len(result['warnings'])} warning(s); rulebook {result['rulebook_sha256'][:12]}")
    return "\n".join(out)
