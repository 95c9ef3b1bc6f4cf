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
