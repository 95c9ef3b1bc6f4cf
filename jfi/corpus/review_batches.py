"""`jfi corpus apply-review --batch N` (harvest): a review batch's verdicts become item statuses and review fields,
all or nothing (keep + good becomes ready, anything else dropped)."""

from __future__ import annotations

from ..errors import JfiError
from ..jsonl import update_records, writer_lock
from ..output import Outcome
from .guard import refuse_on_violations
from .project import CorpusProject, display_path

FIELDS = ("review_verdict", "review_reason", "alt_quality", "subtype", "category")


def apply(project: CorpusProject, batch: int, *, dry_run: bool = False) -> Outcome:
    lines: list[str] = []  # what it tells its user (the command line prints them)
    project.require_profile("harvest")
    path = project.batch_path(batch)
    if not path.is_file():
        raise JfiError("no_review_file", f"batch {batch} has no file", source=display_path(path))
    with writer_lock(project.root):
        store = project.store()
        try:
            refuse_on_violations(store, [display_path(project.corpus_path), display_path(path)], f"batch {batch}")
            updates = store.rows(
                "SELECT * FROM corpus_review_updates WHERE source = ? ORDER BY item_line", [display_path(path)]
            )
        finally:
            store.close()
        blocked = [u for u in updates if u["blocker"]]
        if blocked:
            raise JfiError(
                "batch_refused",
                f"batch {batch} refused: {len(blocked)} verdict(s) cannot be applied "
                f"({', '.join(u['item_id'] for u in blocked)}); nothing written",
                problems=[
                    f"{display_path(path)}:{u['batch_line']}: {u['item_id']}: verdict_refused: {u['blocker']}"
                    for u in blocked
                ],
            )
        changes = [u for u in updates if not u["applied"]]
        verb = "would change" if dry_run else "changed"
        for u in changes:
            lines.append(
                f"{u['item_id']}: {u['current_status']} -> {u['new_status']} ({u['review_verdict']}/{u['alt_quality']})"
            )
        lines.append(
            f"batch {batch}: {len(updates)} verdict(s), {len(changes)} item(s) {verb}, "
            f"{len(updates) - len(changes)} already applied"
        )
        if changes and not dry_run:
            update_records(project.corpus_path, [(u["item_line"], _setter(u)) for u in changes])
    report = {
        "batch": batch,
        "verdicts": len(updates),
        "changes": [{"item_id": u["item_id"], "from": u["current_status"], "to": u["new_status"]} for u in changes],
        "dry_run": dry_run,
    }
    return Outcome(0 if changes else 1, report, lines=lines, printed=False)


def _setter(update: dict):
    def change(record: dict) -> None:
        record["status"] = update["new_status"]
        for field in FIELDS:
            if field in ("subtype", "category") and update[field] is None:
                continue
            record[field] = update[field]

    return change
