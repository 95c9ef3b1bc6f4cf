"""`make bench`'s own measurements: a command's peak memory is the command's, not the bench's."""

import sys

import pytest


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_commands_peak_memory_is_its_own_not_the_bench_processs():
    """The kernel's maximum resident size of a child counts what it shared with its parent before exec: a bench
    holding 600 MB saw every command peak at 600 MB or more. The command's own VmHWM is taken."""
    from jfi.bench import command

    held = bytearray(600 * 1024 * 1024)
    for i in range(0, len(held), 4096):  # resident, not only reserved
        held[i] = 1
    seconds, peak_mb = command(["--version"])
    assert 0 < peak_mb < 200 and seconds > 0
    del held


def test_a_profiled_command_says_what_each_rule_file_took(tmp_path):
    """JFI_PROFILE=1: every rule file a command runs is timed on stderr; the bench sums them per file."""
    import os

    from inventories import link, view, write

    from jfi.bench import command, phase_times, rule_times

    folder = write(tmp_path / "audit", [view("home", links=[link("Fares", "/f")])])
    err: list[str] = []
    seconds, _ = command(["audit", "build", "--inventory", str(folder)], {**os.environ, "JFI_PROFILE": "1"}, err)
    times = dict(rule_times(err[0]))
    assert "audit/40_audit_units.sql" in times and "audit/70_audit_worklist.sql" in times  # the decisions, counted
    assert 0 < sum(times.values()) < seconds
    assert rule_times("profile:    0.500 s  a.sql\nprofile:    0.250 s  a.sql\nnoise\n") == [("a.sql", 0.75)]
    # and the phases it went through, each once, in the order they ran, within the command's time
    phases = dict(phase_times(err[0]))
    assert list(phases)[0] == "start-up: interpreter, imports, arguments"
    for name in (
        "inventory: read by DuckDB, hashed and scanned beside it",
        "rulebook: build's rule files",
        "build: writing batches and units",
        "build: the kept store made, the decisions counted",
        "inputs: hashing, the kept store read",
        "store: close (a file's checkpoint)",
    ):
        assert 0 < phases[name] < seconds, name
    assert phases["rulebook: build's rule files"] < phases["build: the inventory read, its rule files"]
