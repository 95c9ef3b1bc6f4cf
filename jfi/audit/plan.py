"""`--plan`: what an audit command will run, and why, before it runs anything.

A command after `build` queries the objects of `NEEDS` (with the inventory: report, gate, export); build queries
`BUILD_NEEDS` over the inventory. Its store runs the rule files making those objects and what they read, in
dependency order (rulebook.in_use). Which of them run again follows from the store kept beside the folder
(jfi.audit.kept), as the store decides it (Store._stale): none when the kept store matches every input file; when
some file changed, was added or removed, the files making tables from an input kind that changed (their inputs,
through every view they read, are rulebook.inputs_read); every one when there is no kept store to start from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import rulebook
from ..store import CARRIED, input_moved
from .folder import BUILD_NEEDS, AuditFolder, kind_of
from .kept import APPENDED_TO, NEEDS, UNITS, WITH_INVENTORY, Keeping, KeptStore

# the commands whose store holds the inventory beside the folder's files (export: in the formats for other tools)
WITH_THE_INVENTORY = ("report", "gate", "export")


@dataclass
class RulePlan:
    file: str
    makes: list[str]
    reads: list[str]  # the input kinds (or input tables) its rows come from
    runs: bool
    why: str


@dataclass
class Plan:
    command: str
    kept_store: str | None
    changed: list[dict] = field(default_factory=list)  # {file, kind, change: new, changed or removed}
    rules: list[RulePlan] = field(default_factory=list)

    @property
    def running(self) -> list[RulePlan]:
        return [r for r in self.rules if r.runs]

    def lines(self) -> list[str]:
        out = [f"plan: jfi audit {self.command}: {len(self.running)} of {len(self.rules)} rule file(s) run"]
        out.append(f"  kept store: {self.kept_store or 'none (every rule file runs)'}")
        out += [f"  {c['change']}: {c['file']} ({c['kind']})" for c in self.changed]
        for r in self.rules:
            out.append(f"  {'run ' if r.runs else 'keep'}  {r.file}  reads {', '.join(r.reads) or 'nothing'}: {r.why}")
        return out


def _reads(pairs) -> list[str]:
    return sorted({kind if kind is not None else table for table, kind in pairs})


def plan(folder: AuditFolder, command: str) -> Plan:
    """What `jfi audit <command> --inventory <folder>` would run, computed without running it."""
    if command == "build":
        files = rulebook.in_use(rulebook.load()[0], ("audit",), None, BUILD_NEEDS)
        inputs = rulebook.inputs_read(files)
        return Plan(
            command,
            None,
            rules=[
                RulePlan(f.rel, sorted(f.creates), _reads(inputs[f.rel]), True, "build derives every unit anew")
                for f in files
                if not f.input_layer
            ],
        )
    inventory = command in WITH_THE_INVENTORY
    needs = NEEDS + (WITH_INVENTORY if inventory else ())
    files = rulebook.in_use(rulebook.load()[0], ("audit",), None, needs)
    inputs = rulebook.inputs_read(files)
    kept = KeptStore(folder.root, inventory, Keeping())
    try:
        before, now, sealed, appended = dict(kept.before), dict(kept.shas), kept.opened is not None, set(kept.appended)
        same = sealed and kept.opened[1][0] == kept.key
        path = str(kept.path) if sealed else None
    finally:
        kept.discard()
    changed = []
    held = set(now) | {s for s in before if inventory or kind_of(folder.root, s) != "inventory"}  # what it loads
    units_moved = any(before.get(s) != now.get(s) for s in held if s.endswith(UNITS))
    for source in sorted(held):
        change = "new" if source not in before else "removed" if source not in now else None
        if change is None and before[source] != now[source]:
            change = "lines appended" if source in appended and not units_moved else "changed"
        elif change is None and Path(source).name in APPENDED_TO and units_moved:
            change = "read again"  # its pins are of the units, built anew
        if change and sealed and not same:
            changed.append({"file": source, "kind": kind_of(folder.root, source), "change": change})
    kinds = {c["kind"] for c in changed}

    rules = []
    for f in files:
        if f.input_layer:
            continue
        reads = _reads(inputs[f.rel])
        if not sealed:
            runs, why = True, "no kept store to start from"
        elif same:
            runs, why = False, "the kept store matches every input file"
        elif not (f.made or f.adds):
            runs, why = False, "views only: bound when a query reads them"
        elif hit := sorted({k or t for t, k in inputs[f.rel] if input_moved(t, k, kinds)}):
            carried = f.creates & set(CARRIED)
            runs, why = (
                True,
                ("derives the lines of the files that changed: " if carried else "reads what changed: ")
                + ", ".join(hit),
            )
        else:
            runs, why = False, "reads nothing that changed"
        rules.append(RulePlan(f.rel, sorted(f.creates), reads, runs, why))
    return Plan(command, path, changed, rules)
