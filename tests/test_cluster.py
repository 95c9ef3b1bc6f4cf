"""--cluster: the address is checked before any browser starts, and views are cut into consecutive runs that keep
the views file's order (the capture itself on a two-worker cluster: tests/conformance)."""

from conftest import Jfi

from jfi.capture.cluster import runs_of
from jfi.capture.views import View


def test_runs_cover_every_view_once_in_order_and_evenly():
    views = [View(f"v{i}", "p", f"http://x.example/{i}", 0) for i in range(11)]
    for tasks in (1, 2, 3, 4, 11, 50):
        runs = runs_of(views, tasks)
        assert [v for run in runs for v in run] == views
        assert len(runs) == min(tasks, len(views)) and all(runs)
        assert max(map(len, runs)) - min(map(len, runs)) <= 1


def test_a_bad_cluster_address_is_a_usage_error_and_writes_nothing(tmp_path):
    jfi = Jfi(tmp_path)
    for address in ("localhost", "local:0", "local:many", "http://scheduler:8786"):
        r = jfi("audit", "inventory", "http://x.example/", "--cluster", address, "--out", str(tmp_path / "out"))
        assert r.exit_code == 3 and "invalid_cluster" in r.stderr, (address, r.stderr)
        assert not (tmp_path / "out").exists()


def test_an_unreachable_scheduler_is_refused_with_exit_2(tmp_path, monkeypatch):
    monkeypatch.setenv("JFI_CLUSTER_TIMEOUT", "2")
    jfi = Jfi(tmp_path)
    r = jfi("audit", "inventory", "http://x.example/", "--cluster", "tcp://127.0.0.1:9", "--out", str(tmp_path / "out"))
    assert r.exit_code == 2 and "cluster_unreachable" in r.stderr, r.stderr
    assert not (tmp_path / "out").exists()
