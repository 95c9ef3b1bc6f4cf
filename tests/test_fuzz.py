"""Seeded mutations of every JSONL kind, fed to the command that consumes it: never a traceback; every refusal is
exit 2 with file:line: code, and leaves every file of the folder byte-identical.

Each mutation is one of twelve kinds (a flipped byte, a deleted span, a hostile byte, a cut, lines repeated or
swapped, a key removed, an unexpected key, a repeated key, nesting too deep, a hostile value), taken in turn, so every
kind meets every file: JFI_FUZZ_N sets the mutations per file (default 12, each kind once;
`JFI_FUZZ_N=300 pytest tests/test_fuzz.py` runs a longer campaign with the same seeds)."""

import json
import os
import random
import re
import shutil

import pytest
from conftest import EXAMPLE, Jfi, dump, snapshot
from inventories import field, heading, image, link, made, nav, view

from jfi.canonical import digest

N = int(os.environ.get("JFI_FUZZ_N") or 12)
KINDS = 12
LOCATED = re.compile(r"^\S[^\n]*?:\d+: ([^\n]+?: )?[a-z_0-9]+: ", re.M)  # the field may hold spaces
UNSAID = re.compile(r"^\S[^\n]*?:\d+: ([^\n]+?: )?[a-z_0-9]+: (None)?$", re.M)  # a problem printed without its message
HOSTILE = [
    None,
    True,
    0,
    -1,
    1.5,
    10**30,
    "",
    " ",
    "=1+1",
    "\r=1",
    "x" * 20_000,
    "\u0000",
    "\U0001f600",
    [],
    {},
    [[[[[]]]]],
    {"a": {"b": {"c": []}}},
    "fi-0001",
    "2026-13-45",
    "http://",
    "../../etc/passwd",
]
BYTES = [b"\x00", b"\xff", b"\x80", b'"', b"{", b"}", b"[", b",", b"\n", b"\\", b"\r", b" ", b"\xef\xbb\xbf"]


def mutate(data: bytes, rng: random.Random, choice: int) -> bytes:
    lines = data.split(b"\n")
    if choice == 0:  # flip a byte
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
    if choice == 1:  # delete a span
        i = rng.randrange(len(data))
        return data[:i] + data[i + rng.randrange(1, 40) :]
    if choice == 2:  # insert a hostile byte
        i = rng.randrange(len(data) + 1)
        return data[:i] + rng.choice(BYTES) + data[i:]
    if choice == 3:  # truncate
        return data[: rng.randrange(len(data))]
    if choice == 4:  # duplicate or swap lines
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        if rng.random() < 0.5:
            lines.insert(a, lines[b])
        else:
            lines[a], lines[b] = lines[b], lines[a]
        return b"\n".join(lines)
    # a JSON-aware change on one record
    k = rng.randrange(len(lines))
    try:
        record = json.loads(lines[k])
    except ValueError:
        return data + b"\n{}"
    if not isinstance(record, dict) or not record:
        return b"\n".join(lines[:k] + [b"[]"] + lines[k + 1 :])
    key = rng.choice(list(record))
    target = record
    if isinstance(record[key], dict) and record[key] and rng.random() < 0.5:  # one level down
        target = record[key]
        key = rng.choice(list(target))
    if choice == 5:
        del target[key]
    elif choice == 6:
        target["unexpected_" + str(rng.randrange(99))] = rng.choice(HOSTILE)
    elif choice == 7:  # a key repeated in the same object
        text = json.dumps(record)
        lines[k] = text[:-1].encode() + b', "' + json.dumps(key)[1:-1].encode() + b'": 1}'
        return b"\n".join(lines)
    elif choice == 8:  # nesting too deep to read
        lines[k] = json.dumps(record)[:-1].encode() + b', "deep": ' + b"[" * 5000 + b"]" * 5000 + b"}"
        return b"\n".join(lines)
    else:
        target[key] = rng.choice(HOSTILE)
    lines[k] = json.dumps(record, ensure_ascii=rng.random() < 0.5).encode()
    return b"\n".join(lines)


def check(jfi: Jfi, folder, path, args, seed):
    original = path.read_bytes()
    rng = random.Random(seed)
    for n in range(N):
        path.write_bytes(mutate(original, rng, n % KINDS))
        before = snapshot(folder)
        r = jfi(*args)  # an exception here is a traceback a user would have seen
        assert r.exit_code in (0, 1, 2), (n, r.exit_code, r.stderr)
        assert "Traceback" not in r.stderr
        if r.exit_code == 2:
            assert LOCATED.search(r.stderr), (n, path.name, r.stderr[:500])
            assert not UNSAID.search(r.stderr), (n, path.name, UNSAID.search(r.stderr).group(0))
            assert snapshot(folder) == before, (n, path.name, r.stderr[:300])
        path.write_bytes(original)


@pytest.fixture
def corpus(tmp_path):
    dest = tmp_path / "project"
    shutil.copytree(EXAMPLE, dest)
    return Jfi(dest)


@pytest.mark.parametrize(
    "kind,args",
    [
        ("corpus/functional-images.jsonl", ["corpus", "export", "--format", "csv"]),
        ("rounds/round-01-review.jsonl", ["corpus", "apply-verdicts", "--round", "1"]),
        ("rounds/round-01-second-pass.jsonl", ["corpus", "second-pass", "apply", "--round", "1"]),
    ],
)
def test_fuzz_corpus_kinds(corpus, kind, args):
    check(corpus, corpus.project, corpus.project / kind, args, seed=kind)


@pytest.fixture
def audit(tmp_path):
    views = [
        view(
            "home",
            h1=["Harbor"],
            headings=[heading("Timetables")],
            links=[link("Learn more", "/a"), link("Fares", "/f")],
            images=[image()],
            fields=[field()],
            navs=[nav("Home", "Fares")],
        ),
        view("fares", links=[link("Fares", "/f")], navs=[nav("Home", "Fares")]),
    ]
    folder = made(tmp_path, views, ("build",), in_place=True)  # built once per test process, restored for each test
    jfi = Jfi(tmp_path)
    units = json.loads((folder / "judgment-units.json").read_text())["units"]
    for batch in sorted((folder / "batches").glob("*.jsonl")):
        ids = [json.loads(x)["id"] for x in batch.read_text().splitlines()]
        batch.with_name(batch.name.replace(".jsonl", ".judged.jsonl")).write_text(
            dump(
                [
                    {
                        "id": i,
                        "judgment": "no",
                        "confidence": "high",
                        "rationale": "Vague.",
                        "fix": "Name it.",
                        "needs_human": False,
                        "drafted_by": "judge-a",
                    }
                    for i in ids
                ]
            )
        )
    first = units[0]
    (folder / "ratifications.jsonl").write_text(
        dump(
            [
                {
                    "id": first["id"],
                    "ratified_by": "Ana Ruiz",
                    "ratified_judgment": "no",
                    "ratifier_note": "Vague.",
                    "ratified_utc": "2026-11-30T10:00:00Z",
                    "unit_sha256": digest(first),
                },
                {
                    "id": units[1]["id"],
                    "scope": "client",
                    "ratified_by": "Bo",
                    "ratified_client_result": "fail",
                    "ratifier_note": "House rule.",
                    "ratified_utc": "2026-11-30T11:00:00Z",
                    "unit_sha256": digest(units[1]),
                },
            ]
        )
    )
    (folder / "spot-checks.jsonl").write_text(dump([{"id": first["id"], "spot_check": "agree", "note": "ok"}]))
    (folder / "standards.jsonl").write_text(
        dump([{"id": first["id"], "client_rules": "R1", "client_result": "fail", "client_note": "n"}])
    )
    return jfi, folder


@pytest.mark.parametrize(
    "kind", ["inventory.jsonl", "judged", "ratifications.jsonl", "spot-checks.jsonl", "standards.jsonl"]
)
def test_fuzz_audit_kinds(audit, kind):
    jfi, folder = audit
    merged = jfi("audit", "merge", "--inventory", str(folder))
    assert merged.exit_code == 0, merged.stderr  # the unmutated folder is good
    if kind == "judged":
        path = next((folder / "batches").glob("*.judged.jsonl"))
    else:
        path = folder / kind
    args = ["audit", "build" if kind == "inventory.jsonl" else "merge", "--inventory", str(folder)]
    check(jfi, folder, path, args, seed=kind)


def test_fuzz_verification_claims(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<h1>x</h1>")
    jfi = Jfi(tmp_path)
    assert jfi("verify", "snapshot", str(site)).exit_code == 0
    sha = json.loads((tmp_path / "verification" / "artifacts.jsonl").read_text())["files"][0]["sha256"]
    claims = tmp_path / "claims.jsonl"
    claims.write_text(
        dump(
            [
                {
                    "claim": "DOM element h1 corresponds to the title region",
                    "kind": "visual",
                    "inputs": [{"role": "DOM", "path": str(site / "index.html"), "sha256": sha}],
                    "verifier": "model-y",
                    "result": "PASS",
                    "evidence": "Title present at the top.",
                }
            ]
        )
    )
    check(jfi, tmp_path, claims, ["verify", "import", str(claims)], seed="claims")
