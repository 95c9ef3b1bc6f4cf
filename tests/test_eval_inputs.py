"""`audit eval` reads its bar and its expectations as strictly as JSONL: known keys, typed values in range, no
alias bomb, no repeated key, no unknown key in a row, one run per folder; each refusal names file, line and key."""

import shutil
from pathlib import Path

import pytest
from conftest import Jfi, snapshot

SITE = Path(__file__).resolve().parent.parent / "corpus" / "example-site"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("eval")
    jfi = Jfi(root)
    shutil.copytree(SITE, root / "site")
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(root / "site" / "views.txt"),
        "--serve",
        str(root / "site"),
        "--out",
        str(root / "audit"),
        "--settle",
        "0",
        "--no-screenshots",
        "--no-axe",
    )
    assert r.exit_code == 0, r.stderr
    assert jfi("audit", "build", "--inventory", str(root / "audit")).exit_code == 0
    return jfi, root


def run_eval(jfi, root, expectations, *runs):
    before = snapshot(root / "audit")
    args = [a for label, folder in runs for a in ("--run", f"{label}={folder}")]
    r = jfi("audit", "eval", "--inventory", str(root / "audit"), "--expectations", str(expectations), *args)
    assert "Traceback" not in r.stderr
    if r.exit_code >= 2:
        assert snapshot(root / "audit") == before
    return r


@pytest.mark.parametrize(
    "text, needle",
    [
        ("recall_min = -5\n", "recall_min must be a number from 0 to 1"),
        ("recall_min = nan\n", "recall_min"),
        ("recall_min = inf\n", "recall_min"),
        ("recall_min = 1e308\n", "recall_min"),
        ("inventions_max = 99999999999999999999\n", "inventions_max"),
        ("promotion = 'recall_min'\n", "promotion must be a table"),
        ("promotion = true\n", "promotion must be a table"),
        ("promotion = [1, 2]\n", "promotion must be a table"),
        ("recal_min = 0.9\n", "unknown key(s) recal_min"),
        ("[promotion]\nrecall_min = 0.5\nfalse_alarm = 0.1\n", "unknown key(s) false_alarm"),
    ],
)
def test_a_bar_that_could_promote_anything_is_refused(built, tmp_path, text, needle):
    jfi, root = built
    shutil.copy(SITE / "eval" / "expectations.yaml", tmp_path / "expectations.yaml")
    (tmp_path / "eval.toml").write_text(text)
    r = run_eval(jfi, root, tmp_path / "expectations.yaml")
    assert r.exit_code == 2 and "invalid_toml" in r.stderr and needle in r.stderr and "eval.toml" in r.stderr


def test_an_eval_toml_that_is_a_folder_is_refused(built, tmp_path):
    jfi, root = built
    shutil.copy(SITE / "eval" / "expectations.yaml", tmp_path / "expectations.yaml")
    (tmp_path / "eval.toml").mkdir()
    r = run_eval(jfi, root, tmp_path / "expectations.yaml")
    assert r.exit_code == 2 and "regular file" in r.stderr


def test_hostile_or_ambiguous_expectations_are_refused_at_their_line(built, tmp_path):
    jfi, root = built
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi")
    )
    row = "- view: home\n  type: link\n  locator: {text: Fares}\n  expected: yes\n  tier: must\n"
    cases = {
        "bomb.yaml": (bomb, "aliases"),
        "repeated.yaml": (row + "  expected: no\n", "appears twice"),
        "unknown.yaml": (row + "  expectd: no\n", "unknown_field"),
    }
    for name, (text, needle) in cases.items():
        (tmp_path / name).write_text(text)
        r = run_eval(jfi, root, tmp_path / name)
        assert r.exit_code == 2 and needle in r.stderr and name in r.stderr, (name, r.stderr)
    (tmp_path / "repeated.yaml").write_text(row + "  expected: no\n")
    assert ":6:" in run_eval(jfi, root, tmp_path / "repeated.yaml").stderr  # the repeated key's line


def test_one_run_folder_under_two_labels_is_refused(built):
    jfi, root = built
    run = SITE / "eval" / "runs" / "example-1"
    r = run_eval(jfi, root, SITE / "eval" / "expectations.yaml", ("a/1", run), ("a/2", run))
    assert r.exit_code == 3 and "under two labels" in r.stderr
