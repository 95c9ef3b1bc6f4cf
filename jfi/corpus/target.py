"""`jfi corpus target N`: write the corpus goal to corpus/target.txt."""

from __future__ import annotations

from ..jsonl import atomic_write, writer_lock
from ..output import Outcome
from .project import TARGET_HEADER as HEADER
from .project import CorpusProject, display_path


def write(project: CorpusProject, n: int) -> Outcome:
    goal = project.resolve_goal(n)
    with writer_lock(project.root):
        atomic_write(project.target_file, f"{HEADER}{goal}\n")
    return Outcome(0, {"goal": goal}, lines=[f"{display_path(project.target_file)}: goal {goal}"], printed=False)
