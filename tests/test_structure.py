"""The import graph of jfi/ as the design draws it: no cycle; the shared layer imports only itself; each workflow
(capture, audit, corpus, verify) imports only itself and the shared layer, so capture and audit meet through the
inventory files, never through imports; only the command line and the query and bench front ends sit above them."""

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "jfi"
SHARED = {
    "jfi.version",
    "jfi.atomic",
    "jfi.errors",
    "jfi.output",
    "jfi.jsonl",
    "jfi.store",
    "jfi.rulebook",
    "jfi.flagbook",
    "jfi.templating",
    "jfi.phases",
    "jfi.readonly",
    "jfi.canonical",
    "jfi.paths",
    "jfi.manifest",
    "jfi.progress",
    "jfi.workbook",
    "jfi.browser",
    "jfi.audit_toml",
    "jfi.fetch",
    "jfi.schemas",
}
WORKFLOWS = ("jfi.capture", "jfi.audit", "jfi.corpus", "jfi.verify", "jfi.judge")
FRONT = {"jfi", "jfi.cli", "jfi.api", "jfi.querying", "jfi.bench"}  # jfi: the package's door to its API


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


@functools.lru_cache(maxsize=None)  # read once per test process: the files do not change while the tests run
def imports() -> dict[str, set[str]]:
    """Every module's imports of other jfi modules, those inside functions included."""
    mods = modules()
    graph = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                submodules = {f"{target}.{a.name}" for a in node.names} & set(mods)
                found |= submodules
                if len(submodules) < len(node.names) and target in mods:  # a name of the module itself
                    found.add(target)
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name in mods}
        graph[name] = found - {name}
    return graph


def layer(name: str) -> str:
    if name in SHARED:
        return "shared"
    if name in FRONT:
        return "front"
    return next((w for w in WORKFLOWS if name == w or name.startswith(w + ".")), "unknown")


def test_every_module_has_a_place_in_the_design():
    assert [m for m in modules() if layer(m) == "unknown"] == []


def test_no_import_cycle():
    graph, state, cycles = imports(), {}, []

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []


@pytest.mark.parametrize("name", sorted(modules()))
def test_arrows_run_down_only(name):
    mine = layer(name)
    if mine == "front":
        return
    allowed = {"shared"} | ({mine} if mine != "shared" else set())
    assert sorted(t for t in imports()[name] if layer(t) not in allowed) == []
