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
    for given in (tmp_path / "secret.txt", project / ".." / "secret.txt", project / "site" / "link.txt",
                  "/proc/self/environ", project / "site"):
        r = jfi("verify", "snapshot", str(given))
        assert r.exit_code == 2 and "unsafe_path" in r.stderr, (given, r.stderr)
        assert snapshot(project) == before
    (project / "site" / "link.txt").unlink()
    assert jfi("verify", "snapshot", str(project / "site")).exit_code == 0


def test_every_bad_line_of_a_views_file_is_reported_at_once(tmp_path):
    views = tmp_path / "views.txt"
    views.write_text("a,p,/x\nbad line, only two\nb,p,ftp://x\n# a comment\na,p,/y\nc,p,/z,12x\n")
    r = Jfi(tmp_path)("audit", "inventory", "--urls-file", str(views), "--serve", str(tmp_path), "--out",
                      str(tmp_path / "out"))
    assert r.exit_code == 2 and not (tmp_path / "out").exists()
    for line, code in ((2, "invalid_view"), (3, "invalid_url"), (5, "duplicate_view"), (6, "invalid_view")):
        assert f"{views}:{line}: " in r.stderr and code in r.stderr
    assert "is also on line 1" in r.stderr and "4 problem(s)" in r.stderr
