"""The Python API: the README's example runs as written, and calls return results instead of printing."""

import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO, snapshot

import jfi

MANIFEST = REPO.parent / "shared" / "conformance" / "audit" / "reference" / "clean-control" / "inventory-run.json"


def readme_python(section: str) -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    body = text[text.index(f"## {section}\n") :]
    body = body[: body.index("\n## ", 4)]
    return re.findall(r"```python\n(.*?)```", body, re.S)


@pytest.fixture
def repo_like(tmp_path, monkeypatch):
    """A folder laid out as the repository after `make`: the example corpus, and an audit folder in exports/."""
    if not MANIFEST.is_file():
        pytest.skip("conformance data not present")
    shutil.copytree(REPO / "corpus" / "example-project", tmp_path / "corpus" / "example-project")
    jfi.import_inventory(MANIFEST, tmp_path / "exports" / "audit").build()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_readme_example_runs_as_written(repo_like, capsys):
    [example] = readme_python("Python API")
    exec(compile(example, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    items = (repo_like / "corpus" / "example-project" / "corpus" / "functional-images.jsonl").read_text().splitlines()
    assert printed[0] == f"1 {len([x for x in items if x.strip()])}"
    assert "'status': 'accepted'" in printed[1]
    assert "'type': 'title'" in printed[2]
    assert printed[-1] == "refused: read_only"


def test_a_call_returns_what_it_said_and_prints_nothing(repo_like, capsys):
    audit = jfi.open_audit("exports/audit")
    result = audit.merge()
    assert capsys.readouterr() == ("", "")
    assert result.code == 0 and result.data["rows"] > 0 and "draft-judgments.csv" in result.data["files"]
    again = audit.build()
    assert again.ok and again.data["unit_count"] == result.data["rows"]


def test_a_refusal_raises_and_writes_nothing(repo_like):
    folder = Path("exports/audit")
    (folder / "spot-checks.jsonl").write_text('{"id": 1,}\n')
    before = snapshot(folder)
    with pytest.raises(jfi.JfiError) as e:
        jfi.open_audit(folder).merge()
    assert e.value.code == "invalid_judgments"
    assert any(p["code"] == "invalid_json" and p["line"] == 1 for p in e.value.problems)
    assert snapshot(folder) == before


def test_version_and_help_do_not_load_the_api():
    import subprocess
    import sys

    code = "import jfi, sys; jfi.__version__; print('duckdb' in sys.modules, 'jfi.api' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ}).stdout
    assert out.strip() == "False False"


def _commands():
    import typer.main

    from jfi.cli import app

    def walk(node, path=()):
        if hasattr(node, "commands"):
            for name, sub in sorted(node.commands.items()):
                yield from walk(sub, (*path, name))
        else:
            yield " ".join(path), [p.name for p in node.params]

    return dict(walk(typer.main.get_command(app)))


def test_every_command_has_a_call_and_every_option_a_parameter():
    import inspect

    from jfi.api import CALLS

    commands = _commands()
    assert sorted(commands) == sorted(CALLS), "a command without a call (or a call without a command)"
    for words, options in commands.items():
        call, held = CALLS[words]
        taken = set(inspect.signature(call).parameters) - {"self", "options"}
        missing = set(options) - taken - set(held)
        if "options" in inspect.signature(call).parameters:  # capture: every option by its name
            missing = set()
        assert not missing, f"jfi {words}: {sorted(missing)} have no parameter in {call.__qualname__}"


def test_the_calls_reach_every_format_and_refuse_as_the_command_line_does(repo_like, capsys):
    audit = jfi.open_audit("exports/audit")
    assert audit.merge().ok
    out = repo_like / "interchange"
    for fmt, name in (("sarif", "audit.sarif"), ("junit", "audit-junit.xml"), ("earl", "audit-earl.jsonld")):
        r = audit.export(out=out, fmt=fmt)
        assert r.code == 0 and (out / name).is_file(), (fmt, sorted(p.name for p in out.iterdir()))
        assert r.data["files"] == [str(out / name)] and r.said == r.data["files"]  # the words are the lines alone
    gate = audit.gate()
    assert gate.code in (0, 1) and capsys.readouterr() == ("", "")
    # a command whose words are its lines returns its report as objects too
    assert gate.data["fail_on"] and len(gate.data["new"]) == sum(x.startswith("NEW ") for x in gate.said)
    receipts = audit.receipts()
    written = [__import__("json").loads(x) for x in Path("exports/audit/receipts.jsonl").read_text().splitlines()]
    assert receipts.ok and receipts.data["findings"] == written and not receipts.said[0].startswith("{")
    corpus = jfi.open_corpus("corpus/example-project")
    assert corpus.target(40).data == {"goal": 40}
    import sys

    from jfi.output import Shown

    assert not isinstance(sys.stdout, Shown) and not isinstance(sys.stderr, Shown)  # a call leaves the streams be
    with pytest.raises(jfi.JfiError) as e:
        audit.export(out=out, fmt="pdf")  # not a format the command line takes
    assert e.value.code == "invalid_argument" and e.value.exit_code == 3
    before = snapshot(Path("exports/audit"))
    with pytest.raises(jfi.JfiError) as e:
        audit.review_apply(bundle=repo_like / "no-bundle", responses=repo_like / "none.json")
    assert e.value.exit_code == 2 and snapshot(Path("exports/audit")) == before
    rows = jfi.query("SELECT count(*) AS n FROM audit_units", inventory="exports/audit")
    assert rows.ok and rows.data[0]["n"] > 0
    # the rows are the objects whatever the printed form (never read back from a table or CSV text)
    as_csv = jfi.query("SELECT 1 AS one, DATE '2026-01-02' AS day", fmt="csv", inventory="exports/audit")
    assert as_csv.data == [{"one": 1, "day": __import__("datetime").date(2026, 1, 2)}] and "one,day" in as_csv.text
    views = jfi.schema("audit", json_out=False)
    assert views.data and "audit_units" in {o["name"] for o in views.data} and views.text.startswith("## audit")
