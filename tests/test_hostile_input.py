"""Hostile and careless input: refused with file:line:code and exit 2, never a traceback, nothing written."""

import json

import pytest
from conftest import Jfi, dump, item, snapshot
from inventories import link, made, view, write

from jfi.canonical import digest


def refused(r, *needles):
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    for n in needles:
        assert n in r.stderr, (n, r.stderr)


@pytest.mark.parametrize("bad", [b"\xff\xfe", b"\x80", b"\xed\xa0\x80", b"\xc3"])
@pytest.mark.parametrize(
    "command", [["corpus", "validate"], ["corpus", "export"], ["corpus", "apply-verdicts", "--round", "1"]]
)
def test_invalid_utf8_in_the_corpus_is_refused_with_its_line(jfi, bad, command):
    text = dump([item(id="fi-0001"), item(id="fi-0002")]).encode()
    jfi.write_round(1, "review.jsonl", [])
    jfi.write_corpus("")
    jfi.corpus.write_bytes(text.replace(b'"fi-0002"', b'"fi-0002' + bad + b'"'))
    before = snapshot(jfi.project)
    refused(jfi(*command), "functional-images.jsonl:2: invalid_utf8")
    assert snapshot(jfi.project) == before


def test_invalid_utf8_in_an_inventory_is_refused_with_its_line(tmp_path):
    folder = write(tmp_path / "audit", [view("home"), view("fares", title="Fares")])
    data = (folder / "inventory.jsonl").read_bytes().replace(b"Fares", b"Fa\xffres")
    (folder / "inventory.jsonl").write_bytes(data)
    before = snapshot(folder)
    refused(Jfi(tmp_path)("audit", "build", "--inventory", str(folder)), "inventory.jsonl:3: invalid_utf8")
    assert snapshot(folder) == before


@pytest.mark.parametrize(
    "old,new,field",
    [
        ('"product": "harbor"', '"product": "harbor", "product": "other"', "product"),
        ('"title": "Harbor \\u2014 fares"', '"title": "x", "title": "Harbor \\u2014 fares"', "title"),
        ('"href_raw": "/a"', '"href_raw": "/a", "href_raw": "/b"', "href_raw"),
    ],
)
def test_duplicate_keys_in_an_inventory_are_invalid_json(tmp_path, old, new, field):
    folder = write(tmp_path / "audit", [view("home"), view("fares", links=[link("A", "/a")])])
    lines = (folder / "inventory.jsonl").read_text().splitlines()
    assert old in lines[2], lines[2][:300]
    lines[2] = lines[2].replace(old, new, 1)
    (folder / "inventory.jsonl").write_text("\n".join(lines) + "\n")
    before = snapshot(folder)
    refused(
        Jfi(tmp_path)("audit", "build", "--inventory", str(folder)),
        f"inventory.jsonl:3: {field}: invalid_json",
        "appears more than once",
    )
    assert snapshot(folder) == before


def test_duplicate_keys_in_a_nested_corpus_object_are_invalid_json(jfi):
    text = dump([item()]).replace('"author":"pass-a"', '"author":"pass-a","author":"pass-b"')
    jfi.write_corpus(text)
    refused(jfi("corpus", "validate"), "functional-images.jsonl:1: author: invalid_json")


@pytest.fixture
def built(tmp_path):
    views = [view("home", links=[link("Learn more", "/a"), link("Fares", "/f")])]
    folder = made(tmp_path, views, ("build",), in_place=True)  # built once per test process, restored for each test
    jfi = Jfi(tmp_path)
    units = json.loads((folder / "judgment-units.json").read_text())["units"]
    return jfi, folder, units


@pytest.mark.parametrize("command", ["merge", "sample", "worklist", "receipts"])
def test_an_unhashable_id_in_the_ledger_is_a_located_refusal(built, command):
    jfi, folder, units = built
    (folder / "ratifications.jsonl").write_text(json.dumps({"id": [], "ratified_by": "A"}) + "\n")
    before = snapshot(folder)
    refused(jfi("audit", command, "--inventory", str(folder)), "ratifications.jsonl:1")
    assert snapshot(folder) == before


DEEP = "[" * 10_000 + "]" * 10_000


@pytest.mark.parametrize("command", ["merge", "sample", "worklist"])
def test_a_deeply_nested_ledger_value_is_a_located_refusal(built, command):
    jfi, folder, units = built
    good = {
        "id": units[0]["id"],
        "ratified_by": "A",
        "ratified_judgment": "no",
        "ratifier_note": "n",
        "ratified_utc": "2026-11-30T10:00:00Z",
        "unit_sha256": digest(units[0]),
    }
    (folder / "ratifications.jsonl").write_text(
        json.dumps(good) + "\n" + json.dumps(good)[:-1] + ', "ruling": ' + DEEP + "}\n"
    )
    before = snapshot(folder)
    refused(jfi("audit", command, "--inventory", str(folder)), "ratifications.jsonl:2", "invalid_json")
    assert snapshot(folder) == before


def test_a_deeply_nested_inventory_header_is_a_located_refusal(tmp_path):
    folder = write(tmp_path / "audit", [view("home")])
    lines = (folder / "inventory.jsonl").read_text().splitlines()
    lines[0] = lines[0][:-1] + ', "caps2": ' + DEEP + "}"
    (folder / "inventory.jsonl").write_text("\n".join(lines) + "\n")
    before = snapshot(folder)
    refused(Jfi(tmp_path)("audit", "build", "--inventory", str(folder)), "inventory.jsonl:1", "invalid_json")
    assert snapshot(folder) == before


def test_a_huge_value_is_clipped_in_messages(jfi):
    jfi.write_corpus([item(status="x" * 5_000_000)])
    r = jfi("corpus", "validate", "--json")
    refused(r, "functional-images.jsonl:1: status: invalid_value")
    assert len(r.stderr) < 2_000 and "characters)" in r.stderr
    assert all(len(e["message"]) < 400 for e in r.json["errors"])


def test_a_view_id_too_long_for_a_file_name_is_invalid_value(tmp_path):
    views = tmp_path / "views.txt"
    views.write_text("home,harbor,http://127.0.0.1:1/a\n" + "v" * 300 + ",harbor,http://127.0.0.1:1/b\n")
    refused(
        Jfi(tmp_path)("audit", "inventory", "--urls-file", str(views), "--out", str(tmp_path / "out")),
        "views.txt:2: id: invalid_value",
    )
    assert not (tmp_path / "out").exists()
    folder = write(tmp_path / "audit", [view("v" * 300)])
    refused(Jfi(tmp_path)("audit", "build", "--inventory", str(folder)), "inventory.jsonl:2: view_id: invalid_value")
