"""Blind second passes: hand out items without their answers, then take the answers in as pass-b."""

from __future__ import annotations

from ..errors import JfiError
from ..jsonl import atomic_write, update_records, writer_lock
from ..output import Outcome
from .guard import refuse_on_violations
from .project import CorpusProject, display_path


def extract(project: CorpusProject, round_no: int, *, replace: bool = False) -> Outcome:
    """Hand out the items owing a blind pass. A round's existing input file is kept unless --replace, and never
    replaced once answers for that round exist (they answer the items it handed out)."""
    project.require_profile("round-v1", "round-v2")
    out = project.round_path(round_no, "second-pass-input.jsonl")
    answers = project.round_path(round_no, "second-pass.jsonl")
    if answers.exists():
        raise JfiError(
            "round_answered",
            f"round {round_no} already has answers ({display_path(answers)}); its input "
            "file is final: hand out new items in a new round",
            source=display_path(out),
        )
    if out.exists() and not replace:
        raise JfiError(
            "input_exists",
            f"round {round_no} already handed out items; pass --replace to hand out the "
            "items due now instead, or use a new round",
            source=display_path(out),
        )
    with writer_lock(project.root):
        store = project.store()
        try:
            refuse_on_violations(store, [display_path(project.corpus_path)], "second-pass extract")
            due = store.rows("SELECT item_id, input_record FROM corpus_second_pass_due")
        finally:
            store.close()
        if not due:
            return Outcome(1, lines=["no item owes a second pass; nothing written"])
        atomic_write(out, "".join(d["input_record"] + "\n" for d in due))
    return Outcome(
        0,
        lines=[
            f"{display_path(out)}: {len(due)} item(s) for a blind second pass: {', '.join(d['item_id'] for d in due)}"
        ],
    )


def apply(project: CorpusProject, round_no: int, *, dry_run: bool = False) -> Outcome:
    lines: list[str] = []  # what it tells its user (the command line prints them)
    project.require_profile("round-v1", "round-v2")
    handed_out = project.round_path(round_no, "second-pass-input.jsonl")
    answers = project.round_path(round_no, "second-pass.jsonl")
    if not handed_out.is_file():
        raise JfiError(
            "no_second_pass_input",
            f"round {round_no} handed out no items; run extract first",
            source=display_path(handed_out),
            exit_code=1,
        )
    if not answers.is_file():
        raise JfiError(
            "no_second_pass",
            f"no answers for round {round_no} yet; nothing to apply",
            source=display_path(answers),
            exit_code=1,
        )
    with writer_lock(project.root):
        store = project.store()
        try:
            refuse_on_violations(
                store,
                [display_path(project.corpus_path), display_path(answers)],
                f"second-pass apply for round {round_no}",
            )
            rows = store.rows("SELECT * FROM corpus_second_pass_answers WHERE round = ? ORDER BY line", [round_no])
        finally:
            store.close()
        conflicts = [r for r in rows if r["action"] == "conflict"]
        if conflicts:
            raise JfiError(
                "conflicting_second_pass",
                f"{len(conflicts)} answer(s) conflict with a recorded pass-b; nothing written",
                problems=[
                    f"{display_path(answers)}:{r['line']}: item_id: conflicting_second_pass: "
                    f"{r['item_id']} already has a different pass-b"
                    for r in conflicts
                ],
            )
        new = [r for r in rows if r["action"] == "append"]
        for r in rows:
            if not r["agrees"]:
                lines.append(f'{r["item_id"]}: disagreement: pass-b "{r["alt"]}" vs {r["other_alts"]}')
        verb = "would append" if dry_run else "appended"
        lines.append(
            f"round {round_no}: {len(rows)} answer(s), {len(new)} pass-b {verb}, "
            f"{len(rows) - len(new)} already recorded, {sum(1 for r in rows if not r['agrees'])} disagreement(s)"
        )
        if new and not dry_run:
            update_records(
                project.corpus_path,
                [
                    (
                        r["item_line"],
                        lambda rec, p={"author": "pass-b", "alt": r["alt"], "rationale": r["rationale"]}: rec[
                            "gold_alt_passes"
                        ].append(p),
                    )
                    for r in new
                ],
            )
    report = {
        "round": round_no,
        "answers": len(rows),
        "appended": [r["item_id"] for r in new],
        "disagreements": sum(1 for r in rows if not r["agrees"]),
        "dry_run": dry_run,
    }
    return Outcome(0 if new else 1, report, lines=lines, printed=False)  # every answer already recorded: nothing to do
