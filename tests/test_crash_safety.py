"""A writer killed at any step leaves every file of its group old or new, never a mix; leftovers are cleaned."""

import hashlib
import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, item, snapshot

from jfi.atomic import recover


def run_jfi(project, *args, crash_at=0):
    env = {**os.environ, "JFI_CRASH_AT": str(crash_at)}
    return subprocess.run(
        [sys.executable, "-c", "from jfi.cli import main; main()", "--project", str(project), *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
    )


def copies_at_every_step(project, folder, into, *args):
    """One run of a command with the state of `folder` at each of its write steps copied (jfi.atomic.crash_point):
    the folders a kill at step 1, 2, ... would leave, in order; the run itself finishes."""
    env = {**os.environ, "JFI_CRASH_COPY": str(folder), "JFI_CRASH_INTO": str(into)}
    r = subprocess.run(
        [sys.executable, "-c", "from jfi.cli import main; main()", "--project", str(project), *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    return [into / str(n) for n in range(1, len(os.listdir(into)) + 1)]


def put_back(copy, folder):
    shutil.rmtree(folder)
    shutil.copytree(copy, folder, symlinks=True)


def generation(folder, old, new):
    """Which export each file of the folder belongs to: 'old', 'new' (or 'other'); hidden files are listed apart."""
    import duckdb

    out = {}
    for p in sorted(folder.iterdir()):
        if not p.is_file() or p.name.startswith("."):
            continue
        if p.suffix == ".duckdb":  # a DuckDB file's bytes differ run to run: tell it by its content
            with duckdb.connect(str(p), read_only=True) as con:
                key = con.execute("SELECT count(*) FROM corpus_items").fetchone()[0]
        else:
            key = hashlib.sha256(p.read_bytes()).hexdigest()
        if old.get(p.name) != new.get(p.name):  # files the two exports share say nothing about which is visible
            out[p.name] = "old" if old.get(p.name) == key else "new" if new.get(p.name) == key else "other"
    return out


def keys(folder, items):
    out = {}
    for p in sorted(folder.iterdir()):
        if p.is_file() and not p.name.startswith("."):
            out[p.name] = items if p.suffix == ".duckdb" else hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.mark.slow
def test_export_killed_at_every_step_is_old_or_new_as_a_whole(example, tmp_path):
    out, saved = example.project / "exports", tmp_path / "saved"
    records = example.corpus.read_text().splitlines()
    assert run_jfi(example.project, "corpus", "export").returncode == 0
    old = keys(out, len(records))
    shutil.copytree(out, saved)
    example.corpus.write_text("\n".join(records[:-1]) + "\n")  # the next export differs in every file
    assert run_jfi(example.project, "corpus", "export", "--out", str(tmp_path / "new")).returncode == 0
    new = keys(tmp_path / "new", len(records) - 1)
    assert set(old) == set(new) and sum(old[k] != new[k] for k in old) >= 3
    put_back(saved, out)
    steps, seen = copies_at_every_step(example.project, out, tmp_path / "steps", "corpus", "export"), set()
    assert set(generation(out, old, new).values()) == {"new"}  # the run went through
    for step, copy in enumerate(steps, 1):
        put_back(copy, out)  # the folder as a kill at this step leaves it
        labels = generation(out, old, new)
        journal = [n for n in os.listdir(out) if n.startswith(".jfi-commit-")]
        if not journal:
            assert set(labels.values()) == {"old"}, f"step {step}: {labels}"
        recover(example.project)  # what any later command does first: finish an interrupted commit
        labels = generation(out, old, new)
        assert len(set(labels.values())) == 1 and "other" not in labels.values(), f"step {step}: {labels}"
        seen |= set(labels.values())
    # a real kill leaves what the copy of its step shows; the next writer cleans its leftovers
    put_back(saved, out)
    assert run_jfi(example.project, "corpus", "export", crash_at=2).returncode == 137
    leftovers = sorted(n.split(".jfi-")[0] for n in os.listdir(out) if n.startswith("."))
    killed = generation(out, old, new)
    assert leftovers and leftovers == sorted(n.split(".jfi-")[0] for n in os.listdir(steps[1]) if n.startswith("."))
    assert run_jfi(example.project, "corpus", "export").returncode == 0
    assert not [n for n in os.listdir(out) if n.startswith(".")], os.listdir(out)
    put_back(steps[1], out)
    assert generation(out, old, new) == killed
    assert len(steps) > 10 and seen == {"old", "new"}, (len(steps), seen)


def test_leftovers_of_a_killed_writer_are_removed_by_the_next(example):
    out = example.project / "exports"
    assert run_jfi(example.project, "corpus", "export").returncode == 0
    (out / ".jfi.duckdb.4242.tmp.wal").write_bytes(b"x")
    (out / ".corpus-items.csv.jfi-4242-abcd1234.tmp").write_bytes(b"x")
    (out / ".corpus-items.csv.k2j3h4g5.tmp").write_bytes(b"x")
    assert run_jfi(example.project, "corpus", "export").returncode == 0
    assert not [n for n in os.listdir(out) if n.startswith(".")]


def test_lock_file_is_gone_after_a_writer_and_after_a_refusal(jfi):
    jfi.write_corpus([item()])
    assert jfi("corpus", "export").exit_code == 0
    assert not (jfi.project / ".jfi.lock").exists()
    jfi.write_corpus([item(status="bogus")])
    before = snapshot(jfi.project)
    assert jfi("corpus", "export").exit_code == 2
    assert snapshot(jfi.project) == before and not (jfi.project / ".jfi.lock").exists()


def test_a_second_writer_is_refused_while_the_first_holds_the_lock(jfi):
    from jfi.atomic import writer_lock

    jfi.write_corpus([item()])
    with writer_lock(jfi.project):
        r = jfi("corpus", "export")
        assert r.exit_code == 2 and "locked" in r.stderr
        assert (jfi.project / ".jfi.lock").exists()
    assert not (jfi.project / ".jfi.lock").exists()


def test_jsonl_module_imports_no_fcntl():
    import jfi.jsonl

    source = open(jfi.jsonl.__file__).read() + open(sys.modules["jfi.atomic"].__file__).read()
    assert "import fcntl" not in source


def visible_files(root):
    """sha256 of each file of an audit folder outside its hidden ones (the kept store in .jfi/ is a cache, temp files
    and journals are the commit's own); judgment-units.json without its build time."""
    return {
        str(p.relative_to(root)): hashlib.sha256(re.sub(rb'"built_utc": "[^"]*"', b"", p.read_bytes())).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    }


def killed_builds(tmp_path, folder, saved, *args):
    """`jfi audit build` on a fresh copy of `saved`, run once with every write step's state copied: puts back, in
    turn, the folder as a kill at its 1st, 2nd, ... write step leaves it, and yields that step; one step is killed for
    real too, leaving what its copy shows."""
    put_back(saved, folder)
    steps = copies_at_every_step(
        tmp_path, folder, tmp_path / "steps", "audit", "build", "--inventory", str(folder), *args
    )
    assert len(steps) < 60, "the build did not finish within 60 write steps"
    shutil.copytree(folder, tmp_path / "finished", symlinks=True)
    put_back(saved, folder)
    assert run_jfi(tmp_path, "audit", "build", "--inventory", str(folder), *args, crash_at=2).returncode == 137
    assert visible_files(folder) == visible_files(steps[1])
    for step, copy in enumerate(steps, 1):
        put_back(copy, folder)
        yield step
    put_back(tmp_path / "finished", folder)  # where the run that went through left it
    shutil.rmtree(tmp_path / "steps")
    shutil.rmtree(tmp_path / "finished")


@pytest.mark.slow
def test_a_first_build_killed_at_every_step_leaves_nothing_or_everything(tmp_path):
    """A first build writes its batches into a staged folder put in place whole: killed at any step, the folder
    has no built units and no batches/, or all of them; the next writer removes a staged folder left behind."""
    from inventories import link, view, write

    folder = write(tmp_path / "audit", [view("home", links=[link(f"Route {k}", f"/r{k}") for k in range(7)])])
    saved = tmp_path / "saved"
    shutil.copytree(folder, saved)
    old = visible_files(folder)
    assert run_jfi(tmp_path, "audit", "build", "--inventory", str(folder), "--batch", "2").returncode == 0
    new = visible_files(folder)
    assert {"judgment-units.json", "batches/harbor-link-04.jsonl"} <= set(new)
    seen = set()
    for step in killed_builds(tmp_path, folder, saved, "--batch", "2"):
        recover(folder)
        now = visible_files(folder)
        assert now in (old, new), f"step {step}: neither nothing nor everything: {sorted(now)}"
        seen.add("old" if now == old else "new")
        if "staged" not in seen and [n for n in os.listdir(folder) if n.startswith(".batches.jfi-")]:
            seen.add("staged")  # a killed writer's staged folder goes with the next writer
            assert run_jfi(tmp_path, "audit", "build", "--inventory", str(folder), "--batch", "2").returncode == 0
            assert visible_files(folder) == new and not [n for n in os.listdir(folder) if n.startswith(".batches")]
    assert visible_files(folder) == new and seen == {"old", "staged", "new"}, seen


@pytest.mark.slow
def test_build_killed_at_every_step_is_old_or_new_as_a_whole(tmp_path):
    """judgment-units.json, every batch file and the removal of batches no longer made land together."""
    from inventories import link, view, write

    folder = write(tmp_path / "audit", [view("home", links=[link(f"Route {k}", f"/r{k}") for k in range(7)])])
    assert run_jfi(tmp_path, "audit", "build", "--inventory", str(folder), "--batch", "2").returncode == 0
    saved = tmp_path / "saved"
    shutil.copytree(folder, saved)
    old = visible_files(folder)
    assert run_jfi(tmp_path, "audit", "build", "--inventory", str(folder), "--batch", "3").returncode == 0
    new = visible_files(folder)
    assert set(old) != set(new)  # batch files come and go, so removals are part of the group
    seen = set()
    for step in killed_builds(tmp_path, folder, saved, "--batch", "3"):
        if not [n for n in os.listdir(folder) if n.startswith(".jfi-commit-")]:
            assert visible_files(folder) == old, f"step {step}: a mix without a journal"
        recover(folder)
        now = visible_files(folder)
        assert now in (old, new), f"step {step}: neither old nor new"
        seen.add("old" if now == old else "new")
    assert visible_files(folder) == new and seen == {"old", "new"}, seen
