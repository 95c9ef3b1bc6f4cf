"""The command-line contract: usage errors exit 3, help has examples, bad input never gives a traceback."""

import subprocess
import sys

import pytest
from conftest import REPO


def test_usage_error_is_exit_3(jfi):
    assert jfi("corpus", "validate", "--no-such-flag").exit_code == 3
    assert jfi("corpus", "apply-verdicts").exit_code == 3
    assert jfi("corpus", "target", "many").exit_code == 3


@pytest.mark.parametrize(
    "command",
    [
        ["corpus", "validate"],
        ["corpus", "target"],
        ["corpus", "apply-verdicts"],
        ["corpus", "second-pass", "extract"],
        ["corpus", "second-pass", "apply"],
        ["corpus", "fetch-images"],
        ["corpus", "export"],
        ["query"],
        ["schema"],
        ["audit", "inventory"],
        ["audit", "import-inventory"],
        ["audit", "build"],
        ["audit", "judge-kit"],
        ["audit", "sample"],
        ["audit", "merge"],
        ["audit", "review", "export"],
        ["audit", "review", "apply"],
        ["audit", "worklist"],
        ["audit", "rule"],
        ["audit", "receipts"],
        ["verify", "snapshot"],
        ["verify", "checkpoint"],
        ["verify", "import"],
        ["verify", "measure"],
        ["verify", "gate"],
    ],
)
def test_every_command_has_help_with_an_example(jfi, command):
    r = jfi(*command, "--help")
    assert r.exit_code == 0 and "Example: jfi" in r.stdout


def test_console_script_runs_outside_the_test_runner(tmp_path):
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "functional-images.jsonl").write_text('{"id":\n')
    r = subprocess.run(
        [sys.executable, "-c", "from jfi.cli import main; main()", "--project", str(tmp_path), "corpus", "validate"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert r.returncode == 2
    assert "functional-images.jsonl:1: invalid_json" in r.stderr
    assert "Traceback" not in r.stderr


def test_unwritable_output_is_an_error_not_a_traceback(tmp_path):
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "functional-images.jsonl").write_text("")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "from jfi.cli import main; main()",
            "--project",
            str(tmp_path),
            "corpus",
            "export",
            "--out",
            str(blocker / "sub"),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert r.returncode == 2 and "io_error" in r.stderr and "Traceback" not in r.stderr


def test_version_and_help_import_neither_duckdb_nor_playwright():
    code = (
        "import sys\nfrom jfi.cli import main\nsys.argv = ['jfi', '{arg}']\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('duckdb', 'playwright', 'pyarrow') if m in sys.modules))"
    )
    for arg in ("--version", "--help"):
        r = subprocess.run([sys.executable, "-c", code.format(arg=arg)], capture_output=True, text=True, cwd=REPO)
        assert r.returncode == 0 and r.stdout.strip().splitlines()[-1] == "[]", (arg, r.stdout, r.stderr)
