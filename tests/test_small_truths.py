"""Small things a user meets: what a command says when it does nothing, what it names, what it will not record."""

import os

from conftest import Jfi, snapshot
from inventories import link, view, write


def test_sample_with_nothing_judged_says_so_on_stderr(tmp_path):
    folder = write(tmp_path / "audit", [view("home", links=[link("Fares", "/f")])])
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    r = jfi("audit", "sample", "--inventory", str(folder))
    assert r.exit_code == 1 and "nothing to sample" in r.stderr


def test_a_report_of_the_current_folder_is_titled_with_its_name(tmp_path):
    folder = write(tmp_path / "harbor-2026", [view("home", links=[link("Fares", "/f")])])
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    here = os.getcwd()
    os.chdir(folder)
    try:
        assert jfi("audit", "report", "--inventory", ".").exit_code == 0
    finally:
        os.chdir(here)
    assert "<title>Content-judgment report — harbor-2026</title>" in (folder / "report.html").read_text()


def test_a_snapshot_pins_only_regular_files_inside_the_project(tmp_path):
    project = tmp_path / "project"
    (project / "site").mkdir(parents=True)
    (project / "site" / "index.html").write_text("<title>x</title>")
    (tmp_path / "secret.txt").write_text("not the project's")
    (project / "site" / "link.txt").symlink_to(tmp_path / "secret.txt")
    jfi = Jfi(project)
    before = snapshot(project)
    for given in (
        tmp_path / "secret.txt",
        project / ".." / "secret.txt",
        project / "site" / "link.txt",
        "/proc/self/environ",
        project / "site",
    ):
        r = jfi("verify", "snapshot", str(given))
        assert r.exit_code == 2 and "unsafe_path" in r.stderr, (given, r.stderr)
        assert snapshot(project) == before
    (project / "site" / "link.txt").unlink()
    assert jfi("verify", "snapshot", str(project / "site")).exit_code == 0


def test_every_bad_line_of_a_views_file_is_reported_at_once(tmp_path):
    views = tmp_path / "views.txt"
    views.write_text("a,p,/x\nbad line, only two\nb,p,ftp://x\n# a comment\na,p,/y\nc,p,/z,12x\n")
    r = Jfi(tmp_path)(
        "audit", "inventory", "--urls-file", str(views), "--serve", str(tmp_path), "--out", str(tmp_path / "out")
    )
    assert r.exit_code == 2 and not (tmp_path / "out").exists()
    for line, code in ((2, "invalid_view"), (3, "invalid_url"), (5, "duplicate_view"), (6, "invalid_view")):
        assert f"{views}:{line}: " in r.stderr and code in r.stderr
    assert "is also on line 1" in r.stderr and "4 problem(s)" in r.stderr


def _manifest(views) -> str:
    import json

    return json.dumps({"schema": "content-inventory/v1", "views": views})


def test_a_manifest_of_nonsense_structure_is_refused_and_leaves_no_folder(tmp_path):
    import json

    view = {
        "view_id": "home",
        "product": "p",
        "url": "https://x.test/",
        "viewport": "desktop-1440",
        "nav_error": None,
        "final_url": "https://x.test/",
        "stayed_on_route_host": True,
        "inventory": None,
    }
    cases = {
        "five.json": '{"schema": "content-inventory/v1", "views": 5}',
        "empty.json": _manifest([]),
        "twice.json": _manifest([view, view]),
        "null-id.json": _manifest([{**view, "view_id": None}]),
        "views-twice.json": _manifest([view])[:-1] + ', "views": ' + json.dumps([{**view, "view_id": "b"}]) + "}",
        "schema-twice.json": '{"schema": "content-inventory/v1", ' + _manifest([view])[1:],
        "views-apart-twice.json": _manifest([view])[:-1]
        + ', "engagement": "x", "views": '
        + json.dumps([{**view, "view_id": "b"}])
        + ', "caps": {}}',
    }
    jfi = Jfi(tmp_path)
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        r = jfi("audit", "import-inventory", str(tmp_path / name), "--out", str(tmp_path / "out"))
        assert r.exit_code == 2 and "invalid_manifest" in r.stderr, (name, r.stderr)
        assert not name.endswith("-twice.json") or "appears more than once" in r.stderr, (name, r.stderr)
        assert not (tmp_path / "out").exists(), name
    r = jfi("audit", "import-inventory", "/dev/zero", "--out", str(tmp_path / "out"))
    assert r.exit_code == 2 and "not a regular file" in r.stderr and not (tmp_path / "out").exists()
    # one view at two viewports is two records, not a repeat
    (tmp_path / "two.json").write_text(_manifest([view, {**view, "viewport": "phone-390"}]))
    assert jfi("audit", "import-inventory", str(tmp_path / "two.json"), "--out", str(tmp_path / "out")).exit_code == 0
    assert len((tmp_path / "out" / "inventory.jsonl").read_text().splitlines()) == 3
    assert json.loads((tmp_path / "out" / "inventory.jsonl").read_text().splitlines()[0])["record"] == "run"


def test_an_inventory_without_its_run_header_or_with_two_is_refused(tmp_path):
    folder = write(tmp_path / "audit", [view("home", links=[link("Fares", "/f")])])
    lines = (folder / "inventory.jsonl").read_text().splitlines()
    jfi = Jfi(tmp_path)
    for text, code, line in (
        ("\n".join(lines[1:]), "missing_header", 1),
        ("\n".join(lines + lines[:1]), "misplaced_header", 3),
    ):
        (folder / "inventory.jsonl").write_text(text + "\n")
        r = jfi("audit", "build", "--inventory", str(folder))
        assert r.exit_code == 2 and f"inventory.jsonl:{line}: record: {code}" in r.stderr
        assert not (folder / "judgment-units.json").exists()


def test_audit_toml_is_read_strictly(tmp_path):
    folder = write(tmp_path / "audit", [view("home", links=[link("Fares", "/f")])])
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    for text, needle in (
        ('products = "x"\n', "products must be a table"),
        ("[products.harbor]\nnote = 5\n", "note"),
        ('[products.harbor]\nnote = "a"\nnotes = "b"\n', "note"),
        ('[product.harbor]\nnote = "a"\n', "unknown"),
    ):
        (folder / "audit.toml").write_text(text)
        r = jfi("audit", "judge-kit", "--inventory", str(folder))
        assert r.exit_code == 2 and "invalid_config" in r.stderr and needle in r.stderr and "Traceback" not in r.stderr
        assert not (folder / "judge-kit").exists()


def test_one_audit_folder_names_one_rulebook(tmp_path):
    import json

    import pyarrow.parquet as pq

    folder = write(tmp_path / "audit", [view("home", links=[link("Fares", "/f")])])
    jfi = Jfi(tmp_path)
    for command in ("build", "merge", "export"):
        assert jfi("audit", command, "--inventory", str(folder)).exit_code == 0
    hashes = {
        json.loads((folder / "judgment-units.json").read_text())["rulebook_sha256"],
        json.loads((folder / "draft-judgments.json").read_text())["rulebook_sha256"],
    }
    hashes |= {pq.read_schema(p).metadata[b"rulebook_sha256"].decode() for p in folder.glob("**/*.parquet")}
    assert len(hashes) == 1 and next(iter(hashes))


def test_the_analysts_store_answers_every_documented_view(tmp_path):
    import duckdb

    folder = write(
        tmp_path / "audit",
        [
            view("home", links=[link("Learn more", "/a"), link("Learn more", "/b")]),
            view("fares", links=[link("Learn more", "/a")]),
        ],
    )
    jfi = Jfi(tmp_path)
    for command in ("build", "merge", "export"):
        assert jfi("audit", command, "--inventory", str(folder)).exit_code == 0
    con = duckdb.connect(str(folder / "audit.duckdb"), read_only=True)
    try:
        for name in (
            "audit_units",
            "audit_links",
            "audit_flags",
            "audit_views",
            "audit_draft_rows",
            "audit_nav_consistency",
            "audit_batches",
            "audit_worklist_families",
        ):
            assert con.execute(f"SELECT count(*) FROM {name}").fetchone()[0] > 0, name
    finally:
        con.close()


def test_hints_name_what_the_command_wrote_and_what_comes_next(tmp_path):
    jfi = Jfi(tmp_path)
    assert jfi("corpus", "init").exit_code == 0
    r = jfi("corpus", "export", "--format", "csv", "--out", str(tmp_path / "e"))
    assert r.exit_code in (0, 1) and "next:" in r.stderr and "jfi.duckdb" not in r.stderr
    assert not (tmp_path / "e" / "jfi.duckdb").exists()
    r = jfi("corpus", "target", "30")
    assert r.exit_code == 0 and "next: `jfi corpus validate`" in r.stderr
    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_text("<title>A</title><h1>A</h1>")
    (site / "views.txt").write_text("a,p,/a.html\nb,p,/a.html\n")
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(site / "views.txt"),
        "--serve",
        str(site),
        "--out",
        str(tmp_path / "slice"),
        "--shard",
        "1/2",
        "--settle",
        "0",
        "--no-screenshots",
        "--no-axe",
    )
    assert r.exit_code == 0 and "jfi audit combine" in r.stderr and "audit build" not in r.stderr


def test_the_names_rule_capture_checks_is_the_one_the_build_applies(tmp_path):
    """A view id or product name is checked before any store exists (a views file, a manifest being imported:
    jfi.manifest.name_problem) and again by the build (audit_inventory_violations): the two say the same of each."""
    from inventories import view, write

    import jfi
    from jfi.manifest import name_problem

    ids = ["home", "a.b-c_d", "-x", "a b", "é", "a/b", "x" * 101, "9"]
    products = ["harbor", "Ünïcode", "a/b", "a\\b", "_x", "a\u200bb", "1st", "p" * 101]
    views = [view(f"v{k}", product=p) for k, p in enumerate(products)] + [view(i, product="harbor") for i in ids]
    rows = jfi.open_audit(write(tmp_path / "audit", views)).query(
        "SELECT record_id, field FROM audit_inventory_violations WHERE field IN ('view_id', 'product')"
    )
    refused = {(r["field"], r["record_id"]) for r in rows}
    for k, p in enumerate(products):
        assert (name_problem("product", p) is not None) == (("product", f"v{k}") in refused), p
    for i in ids:
        assert (name_problem("view_id", i) is not None) == (("view_id", i[:100]) in refused), i
