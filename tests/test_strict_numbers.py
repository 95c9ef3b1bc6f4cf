"""Numbers and addresses are bounded where they are read: out of range, in other scripts' digits or of another
scheme, each is refused there with its code, and nothing is written."""
import pytest

from conftest import Jfi, snapshot

HUGE = "99999999999999999999"


@pytest.fixture
def project(tmp_path):
    jfi = Jfi(tmp_path)
    assert jfi("corpus", "init").exit_code == 0
    return jfi, tmp_path


@pytest.mark.parametrize("args, code, needle", [
    (["corpus", "target", HUGE + "999"], 2, "invalid_target"),
    (["corpus", "target", "24"], 2, "invalid_target"),
    (["corpus", "second-pass", "extract", "--round", "-1"], 3, "--round"),
    (["corpus", "second-pass", "extract", "--round", "0"], 3, "--round"),
    (["corpus", "second-pass", "extract", "--round", HUGE], 3, "--round"),
    (["corpus", "apply-verdicts", "--round", HUGE], 3, "--round"),
    (["audit", "build", "--inventory", ".", "--batch", HUGE], 3, "--batch"),
    (["audit", "inventory", "https://example.org/", "--out", "x", "--shard", f"{HUGE}/{HUGE}"], 3, "invalid_shard"),
    (["audit", "inventory", "https://example.org/", "--out", "x", "--shard", "2/2"], 3, "invalid_shard"),
    (["audit", "inventory", "https://example.org/", "--out", "x", "--shard", "１/２"], 3, "invalid_shard"),
    (["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "local:١"], 3, "invalid_cluster"),
    (["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "inproc://x"], 3, "invalid_cluster"),
    (["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "ucx://host:1"], 3, "invalid_cluster"),
    (["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "tls://host:1"], 3, "invalid_cluster"),
    (["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "tcp://localhost:1/../x"], 3, "invalid_cluster"),
    (["audit", "inventory", "https://example.org/", "--out", "x", "--cluster", "tcp://localhost:99999"], 3, "invalid_cluster"),
])
def test_a_number_or_address_out_of_bounds_is_refused_where_it_is_read(project, args, code, needle):
    jfi, root = project
    before = snapshot(root)
    r = jfi(*args)
    assert r.exit_code == code and needle in r.stderr + r.stdout and "Traceback" not in r.stderr
    assert snapshot(root) == before
