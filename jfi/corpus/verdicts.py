"""`jfi corpus apply-verdicts --round N`: a review round's verdicts become item statuses, all or nothing."""

from __future__ import annotations

from ..errors import JfiError
from ..jsonl import update_records, writer_lock
from ..output import Outcome
from .guard import refuse_on_violations
from .project import CorpusProject, display_path


def apply(project: CorpusProject, round_no: int, *, dry_run: bool = False) -> Outcome:
    lines: list[str] = []  # what it tells its user (the command line prints them)
    project.require_profile("round-v1", "round-v2")
    review = project.round_path(round_no, "review.jsonl")
    if not review.is_file():
        raise JfiError("no_review_file", f"round {round_no} has no review file", source=display_path(review))
    if not project.corpus_path.is_file():
        raise JfiError(
            "no_corpus",
            "no corpus file here yet; it is created on the first round",
            source=display_path(project.corpus_path),
        )
    with writer_lock(project.root):
        store = project.store(hash_images=True)
        try:
            refuse_on_violations(store, [display_path(project.corpus_path), display_path(review)], f"round {round_no}")
            blockers = store.rows(
                "SELECT item_id, review_line, reason FROM corpus_verdict_blockers WHERE round = ?", [round_no]
            )
            updates = store.rows(
                "SELECT item_id, item_line, current_status, new_status FROM corpus_verdicts "
                "WHERE round = ? ORDER BY item_line",
                [round_no],
            )
        finally:
            store.close()
        if blockers:
            items = sorted({b["item_id"] for b in blockers})
            raise JfiError(
                "round_refused",
                f"round {round_no} refused: {len(items)} accept(s) cannot be applied "
                f"({', '.join(items)}); nothing written",
                problems=[
                    f"{display_path(review)}:{b['review_line']}: {b['item_id']}: accept_refused: {b['reason']}"
                    for b in blockers
                ],
            )
        changes = [u for u in updates if u["current_status"] != u["new_status"]]
        verb = "would change" if dry_run else "changed"
        for u in changes:
            lines.append(f"{u['item_id']}: {u['current_status']} -> {u['new_status']}")
        lines.append(
            f"round {round_no}: {len(updates)} verdict(s), {len(changes)} status(es) {verb}, "
            f"{len(updates) - len(changes)} already applied"
        )
        if changes and not dry_run:
            update_records(
                project.corpus_path,
                [(u["item_line"], lambda rec, status=u["new_status"]: rec.update(status=status)) for u in changes],
            )
    report = {
        "round": round_no,
        "verdicts": len(updates),
        "changes": [{"item_id": u["item_id"], "from": u["current_status"], "to": u["new_status"]} for u in changes],
        "dry_run": dry_run,
    }
    return Outcome(0 if changes else 1, report, lines=lines, printed=False)  # nothing to change is "nothing to do"
