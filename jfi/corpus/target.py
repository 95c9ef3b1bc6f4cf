"""`jfi corpus target N`: write the corpus goal to corpus/target.txt."""
from __future__ import annotations

from ..jsonl import atomic_write, writer_lock
from .project import CorpusProject, display_path

HEADER = """# Accepted-item goal N for this corpus. `jfi corpus validate` scales its count targets from it
# (k = N/250): per category max(4, round(30k)), per sub-type max(3, round(20k)), distinct domains
# per sub-type max(3, round(8k)). The first line that is not blank or a comment is the goal.
"""


def write(project: CorpusProject, n: int) -> int:
    goal = project.resolve_goal(n)
    with writer_lock(project.root):
        atomic_write(project.target_file, f"{HEADER}{goal}\n")
    print(f"{display_path(project.target_file)}: goal {goal}")
    return 0
