"""The third hostile pass: outputs never replace inputs, nothing beyond the page's origin is reached, no traceback or
lost work on odd text, the API held to the command line's contract, bounded reads, no silent acceptance."""
import json

import pytest

from conftest import Jfi, snapshot
from inventories import link, made, view


def refused(r, *needles):
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    for n in needles:
        assert n in r.stderr, (n, r.stderr)


VIEWS = [view("home", links=[link("", "/x"), link("Fares", "/fares")]), view("fares", title="Fares")]


def test_the_gate_never_writes_its_baseline_over_an_input_or_a_stranger(tmp_path):
    folder = made(tmp_path, VIEWS, ("build",))
    (folder / "ratifications.jsonl").write_text("")
    (tmp_path / "notes.txt").write_text("mine\n")
    jfi = Jfi(tmp_path)
    batch = sorted((folder / "batches").glob("*.jsonl"))[0]
    cases = {folder / "inventory.jsonl": "output_is_input", folder / "ratifications.jsonl": "output_is_input",
             batch: "output_is_input", folder / "judgment-units.json": "output_is_input",
             tmp_path / "notes.txt": "would_overwrite", folder: "unsafe_path"}
    for target, code in cases.items():
        before = snapshot(tmp_path)
        refused(jfi("audit", "gate", "--inventory", str(folder), "--write-baseline", str(target)), code)
        assert snapshot(tmp_path) == before, target
    # named through another path to the same file: still the input
    refused(jfi("audit", "gate", "--inventory", str(folder), "--write-baseline",
                str(folder / "batches" / ".." / "inventory.jsonl")), "output_is_input")
    # a new file, then the same baseline again, are written
    base = tmp_path / "baseline.json"
    assert jfi("audit", "gate", "--inventory", str(folder), "--write-baseline", str(base)).exit_code == 0
    assert jfi("audit", "gate", "--inventory", str(folder), "--write-baseline", str(base)).exit_code == 0
    assert json.loads(base.read_text())["fail_on"] == "objective"


def test_a_baseline_with_a_repeated_key_or_of_another_level_is_refused(tmp_path):
    folder = made(tmp_path, VIEWS, ("build",))
    jfi = Jfi(tmp_path)
    base = tmp_path / "baseline.json"
    assert jfi("audit", "gate", "--inventory", str(folder), "--write-baseline", str(base)).exit_code == 0
    assert jfi("audit", "gate", "--inventory", str(folder), "--baseline", str(base)).exit_code == 0
    refused(jfi("audit", "gate", "--inventory", str(folder), "--baseline", str(base), "--fail-on", "decisive"),
            "baseline_level", "--fail-on objective")
    doc = json.loads(base.read_text())
    base.write_text('{"schema": "jfi-gate-baseline/v1", "fail_on": "objective", "fingerprints": [], "fingerprints": '
                    + json.dumps(doc["fingerprints"]) + "}")
    refused(jfi("audit", "gate", "--inventory", str(folder), "--baseline", str(base)), "invalid_json",
            "appears more than once")


def test_the_report_picture_never_replaces_a_screenshot_and_a_non_png_is_refused_first(tmp_path):
    folder = made(tmp_path, VIEWS, ("build",))
    shots = folder / "screenshots"
    shots.mkdir()
    (shots / "home.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"0" * 20)
    (tmp_path / "notes.txt").write_text("mine\n")
    jfi = Jfi(tmp_path)
    for target, code in {shots / "home.png": "output_is_input", tmp_path / "picture.txt": "not_png",
                         tmp_path / "notes.png": "would_overwrite"}.items():
        if target.name == "notes.png":
            target.write_text("not a picture")
        before = snapshot(tmp_path)
        refused(jfi("audit", "report", "--inventory", str(folder), "--screenshot", str(target)), code)
        assert snapshot(tmp_path) == before, target
        assert not (folder / "report.html").exists()


def test_import_inventory_never_replaces_an_audit_without_replace(tmp_path):
    folder = made(tmp_path, VIEWS, ("build",))
    manifest = tmp_path / "run.json"
    lines = [json.loads(x) for x in (folder / "inventory.jsonl").read_text().splitlines()]
    head = {k: v for k, v in lines[0].items() if k != "record"}
    manifest.write_text(json.dumps({**head, "views": [{k: v for k, v in r.items() if k != "record"}
                                                      for r in lines[1:2]]}))
    jfi = Jfi(tmp_path)
    before = snapshot(tmp_path)
    refused(jfi("audit", "import-inventory", str(manifest), "--out", str(folder)), "capture_exists", "--replace")
    assert snapshot(tmp_path) == before
    assert jfi("audit", "import-inventory", str(manifest), "--out", str(folder), "--replace").exit_code == 0
    assert len((folder / "inventory.jsonl").read_text().splitlines()) == 2
    assert not (folder / "judgment-units.json").exists()  # derived from the capture it replaced
