"""Conformance data lives in ../shared/conformance (never copied into the project)."""

import os
import shutil
import stat
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2].parent / "shared" / "conformance"


@pytest.fixture(scope="session")
def conformance() -> Path:
    if not ROOT.is_dir():
        if os.environ.get("JFI_REQUIRE_CONFORMANCE") == "1":
            pytest.fail(f"conformance data missing at {ROOT} and JFI_REQUIRE_CONFORMANCE=1")
        pytest.skip(f"conformance data not found at {ROOT}; these tests run where ../shared/conformance exists")
    return ROOT


def writable_copy(src: Path, dest: Path) -> Path:
    """A scratch copy for commands that write (the conformance folder itself is read-only)."""
    shutil.copytree(src, dest, copy_function=shutil.copyfile)
    for p in [dest, *dest.rglob("*")]:
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    return dest
