"""Strict line-numbered reading, byte-preserving rewrites, atomic writes and the writer lock."""

import json
import os
from pathlib import Path

import pytest
from conftest import dump, item

from jfi.errors import JfiError
from jfi.jsonl import AtomicFiles, JsonlDocument, atomic_write, line_columns, read_lines, writer_lock


def test_truncated_object_on_line_3_is_reported_at_line_3(jfi):
    text = dump([item(id="fi-0001"), item(id="fi-0002")]) + '{"id":"fi-0003","status":\n' + dump([item(id="fi-0004")])
    jfi.write_corpus(text)
    r = jfi("corpus", "validate", "--json")
    assert r.exit_code == 2
    assert [(e["line"], e["code"]) for e in r.json["errors"]] == [(3, "invalid_json")]
    assert "functional-images.jsonl:3: invalid_json" in r.stderr


@pytest.mark.parametrize(
    "bad",
    [
        lambda line: line[:-1] + ",}",  # a trailing comma
        lambda line: line[:-1] + ', "n": NaN}',  # NaN is no JSON number
        lambda line: line[:-1] + ', "n": -Infinity}',
        lambda line: line.replace('"gear"', '"gear\\ud800"', 1),  # half a character
        lambda line: line.replace('"gear"', '"\\udc00gear"', 1),
    ],
)
def test_what_a_strict_json_parser_refuses_is_refused_at_its_line(jfi, bad):
    """RFC 8259, as every JSONL reader of jfi reads it: DuckDB's own JSON functions take these, jfi does not."""
    lines = [json.dumps(item(id="fi-0001")), json.dumps(item(id="fi-0002"))]
    lines[1] = bad(lines[1])
    jfi.write_corpus("\n".join(lines) + "\n")
    r = jfi("corpus", "validate", "--json")
    assert r.exit_code == 2, r.stderr
    assert [(e["line"], e["code"]) for e in r.json["errors"]] == [(2, "invalid_json")]
    assert jfi("corpus", "export").exit_code == 2


def test_an_escaped_backslash_before_u_and_a_surrogate_pair_are_fine(jfi):
    line = json.dumps(item(provenance_note="a backslash then u: \\ud800, a face: \U0001f600"))  # ASCII-escaped
    assert "\\\\ud800" in line and "\\ud83d\\ude00" in line
    jfi.write_corpus(line + "\n")
    assert jfi("corpus", "validate", "--json").json["errors"] == []


def test_crlf_with_bom_blank_lines_and_no_final_newline(jfi):
    body = "\r\n".join([json.dumps(item(id="fi-0001")), "", "  ", json.dumps(item(id="fi-0002")), "[1]"])
    jfi.corpus.parent.mkdir(parents=True)
    jfi.corpus.write_bytes(b"\xef\xbb\xbf" + body.encode())
    r = jfi("corpus", "validate", "--json")
    assert [(e["line"], e["code"]) for e in r.json["errors"]] == [(5, "not_an_object")]
    assert r.json["counts"]["items"] == 2
    numbers, texts = line_columns(jfi.corpus)
    assert numbers == [1, 4, 5] and not texts[0].startswith("\ufeff") and not texts[1].endswith("\r")
    assert [ln.number for ln in read_lines(jfi.corpus)] == [1, 4, 5]


def test_an_object_after_white_space_is_an_object(jfi):
    # RFC 8259 allows white space before a value: a tab-indented record is a record, a tab-indented list is not one
    jfi.write_corpus("\t" + json.dumps(item(id="fi-0001")) + "\n \t[1]\n")
    r = jfi("corpus", "validate", "--json")
    assert [(e["line"], e["code"]) for e in r.json["errors"]] == [(2, "not_an_object")]
    assert r.json["counts"]["items"] == 1


def test_an_empty_object_misses_each_required_field_and_has_no_field_without_a_name(jfi):
    # its shape has no keys: each required field is missing, and no "unknown field" row comes without a field
    jfi.write_corpus(json.dumps(item(id="fi-0001")) + "\n{}\n")
    errors = [e for e in jfi("corpus", "validate", "--json").json["errors"] if e["line"] == 2]
    assert {(e["field"], e["code"]) for e in errors} >= {("id", "missing_field"), ("gold_alt", "missing_field")}
    assert all(e["field"] and e["message"] for e in errors), errors


def test_rewrite_keeps_unchanged_bytes_and_key_order(tmp_path):
    path = tmp_path / "x.jsonl"
    lines = [b'{"b": 1, "a": "x"}\r\n', b"\r\n", b'{"z":1,"y":2}\r\n', b'{"k":"\xc3\xa9"}']
    path.write_bytes(b"\xef\xbb\xbf" + b"".join(lines))
    doc = JsonlDocument.load(path)
    rec = doc.record(3)
    rec["y"] = 3
    doc.replace(3, rec)
    out = doc.to_bytes()
    assert out == b"\xef\xbb\xbf" + lines[0] + lines[1] + b'{"z":1,"y":3}\r\n' + lines[3]
    # a record whose value does not change is not re-serialised, even in another style
    doc.replace(1, doc.record(1))
    assert doc.to_bytes() == out


def test_atomic_write_leaves_old_bytes_on_failure(tmp_path, monkeypatch):
    path = tmp_path / "f.txt"
    path.write_text("old")
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("disk full")))
    with pytest.raises(OSError):
        atomic_write(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_second_writer_is_refused(tmp_path):
    with writer_lock(tmp_path):
        with pytest.raises(JfiError) as e:
            with writer_lock(tmp_path):
                pass
    assert e.value.code == "locked"
    with writer_lock(tmp_path):  # released after the first
        pass


def test_locked_project_refuses_command_with_exit_2(example):
    with writer_lock(example.project):
        r = example("corpus", "apply-verdicts", "--round", "1")
    assert r.exit_code == 2 and "locked" in r.stderr


def test_a_group_of_files_is_renamed_only_when_every_one_was_written(tmp_path):
    (tmp_path / "a.txt").write_text("old a")
    with pytest.raises(RuntimeError):
        with AtomicFiles() as files:
            files.write(tmp_path / "a.txt", "new a")
            with files.open(tmp_path / "b.txt") as fh:
                fh.write(b"half of b")
                raise RuntimeError("the query behind b failed")
    assert (tmp_path / "a.txt").read_text() == "old a"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
    with AtomicFiles() as files:
        files.write(tmp_path / "a.txt", "new a")
        files.write(tmp_path / "b.txt", b"b")
    assert (tmp_path / "a.txt").read_text() == "new a" and (tmp_path / "b.txt").read_text() == "b"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_memory_limit_comes_from_the_environment_and_a_bad_one_is_refused(tmp_path, monkeypatch):
    from conftest import Jfi

    monkeypatch.setenv("JFI_MEMORY_LIMIT", "300MB")
    (tmp_path / "rounds").mkdir()
    r = Jfi(tmp_path)(
        "query",
        "SELECT current_setting('memory_limit') AS m, current_setting('temp_directory') AS t",
        "--format",
        "json",
    )
    assert r.exit_code == 0, r.stderr
    [row] = r.json
    assert row["m"].startswith("286") and "jfi-duckdb-" in row["t"]  # 300 MB is 286 MiB; spills never go to ./.tmp
    monkeypatch.setenv("JFI_MEMORY_LIMIT", "lots")
    r = Jfi(tmp_path)("query", "SELECT 1")
    assert r.exit_code == 2 and "invalid_memory_limit" in r.stderr and "Traceback" not in r.stderr


def test_a_store_spills_to_a_private_folder_made_only_when_it_spills_and_gone_on_close(monkeypatch):
    """A process killed before it spills leaves no temp folder behind; one that spills cleans up on close."""
    from jfi.store import Store

    monkeypatch.setenv("JFI_MEMORY_LIMIT", "64MB")
    store = Store(sections=("verify",))
    spill = Path(store.scalar("SELECT current_setting('temp_directory')"))
    assert not spill.exists() and oct(spill.parent.stat().st_mode & 0o777) == "0o700"
    store.con.execute("SET threads = 1")
    store.scalar("SELECT count(*) FROM (SELECT md5(i::VARCHAR) AS s FROM range(2000000) t(i) ORDER BY s)")
    assert spill.is_dir() and any(spill.iterdir())  # it spilled there
    store.close()
    assert not spill.exists()


def test_a_line_duckdb_alone_passes_is_one_the_strict_reader_passes():
    """plainly_strict_json spares the Python reader only lines it would pass: random texts made of JSON's pieces
    (repeated keys, nested objects, trailing commas, NaN, escapes) never pass the macro and fail the reader."""
    import random

    from jfi.jsonl import json_problems
    from jfi.store import Store

    rng = random.Random(7)
    pieces = [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        '"a"',
        '"b"',
        "1",
        "NaN",
        "-Infinity",
        "true",
        "null",
        '"\\u00e9"',
        '"\\ud800"',
        "1e5",
        "01",
        '"x\\ty"',
        '{"a":1}',
        '"a":1',
        '"a":2',
        ",]",
    ]
    texts = [
        "{"
        + ",".join(
            rng.choice(['"a":1', '"b":[1,2]', '"a":"x"', '"c":{}', '"d":NaN', '"e":[1,]'])
            for _ in range(rng.randrange(1, 4))
        )
        + "}"
        for _ in range(3000)
    ]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randrange(1, 9))) for _ in range(3000)]
    store = Store(sections=())
    passed = [
        t
        for t, (ok,) in zip(
            texts,
            store.con.execute(
                "SELECT plainly_strict_json(t) FROM "
                "(SELECT unnest(?::VARCHAR[]) AS t, generate_subscripts(?::VARCHAR[], 1) AS k) "
                "ORDER BY k",
                [texts, texts],
            ).fetchall(),
        )
        if ok
    ]
    store.close()
    assert len(passed) > 300  # the screen does pass the plain lines
    assert json_problems("f", list(range(len(passed))), passed) == []
    assert any('"a":1' in t and t.count('"a"') > 1 for t in texts)  # the repeated keys are there to be caught


def test_lines_go_into_the_store_in_chunks_with_the_same_rows_and_problems(monkeypatch):
    """Python holds at most FLUSH_ROWS waiting lines; a store filled in chunks equals one filled at once, whether the
    rows go in through Arrow or as list parameters (few rows, pyarrow not loaded: LIST_ROWS)."""
    import jfi.store
    from jfi.store import Gathered, Store

    files = {"a.jsonl": ['{"id": "a"}', '{"id": 1, "id": 2}', "not json"], "b.jsonl": ['{"x": NaN}', '{"y": []}']}
    ways = []

    def filled(flush_rows, arrow):
        monkeypatch.setattr(jfi.store, "FLUSH_ROWS", flush_rows)
        monkeypatch.setattr(Gathered, "through_arrow", lambda self: arrow)
        monkeypatch.setattr(Gathered, "table", lambda self, table=Gathered.table: ways.append(arrow) or table(self))
        store = Store(sections=("verify",))
        for name, texts in files.items():
            store.add_file("claims", name, texts, round_no=None if name == "a.jsonl" else 2)
            waiting = store._pending["raw_lines"].rows if "raw_lines" in store._pending else 0
            assert waiting < flush_rows
        store.build()
        out = [store.rows(f"SELECT * FROM {t} ORDER BY ALL") for t in ("raw_files", "raw_lines", "raw_json_problems")]
        assert not store.con.execute("SELECT 1 FROM duckdb_tables() WHERE table_name = '_jfi_batch'").fetchall()
        store.close()
        return out

    whole = filled(1_000, True)
    assert ways == [True, True]  # raw_files and raw_lines, each through Arrow
    assert filled(2, True) == whole and filled(2, False) == filled(1_000, False) == whole
    assert ways.count(False) == 0  # no Arrow table was made for the rows that went in as lists
    assert len(whole[0]) == 2 and {r["round"] for r in whole[0]} == {None, 2} and all(r["present"] for r in whole[0])
    assert len(whole[1]) == 5 and len(whole[2]) == 3


def test_a_spill_folder_open_to_others_is_not_used(tmp_path, monkeypatch):
    import tempfile

    from jfi.store import _spill_home, spill_folder

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    shared = tmp_path / f"jfi-duckdb-{os.getuid()}"
    assert spill_folder().parent == shared and oct(shared.stat().st_mode & 0o777) == "0o700"
    assert spill_folder().parent == shared and spill_folder() != spill_folder()  # one folder each, in the same home
    shared.chmod(0o755)  # readable by others: spilled rows would be too
    _spill_home.cache_clear()  # as in a new process: the home is checked once per process
    elsewhere = spill_folder().parent
    assert elsewhere != shared and elsewhere.parent == tmp_path and oct(elsewhere.stat().st_mode & 0o777) == "0o700"
    assert spill_folder().parent == elsewhere  # one fallback folder for the process, not one per store


def test_a_store_about_to_be_deleted_writes_nothing_back_on_closing(tmp_path):
    """A refused command's copy of the kept store is deleted: closing it does not checkpoint (its log stays, to be
    deleted with it); a store that is kept is checkpointed whole, with no log beside it."""
    from jfi.store import Store

    for keep in (True, False):
        path = tmp_path / f"{keep}.duckdb"
        store = Store(path, sections=("verify",))
        store.con.execute("CREATE TABLE t AS SELECT range AS i FROM range(1000)")
        store.con.execute("INSERT INTO t SELECT i FROM t")
        store.close(keep=keep)
        assert Path(f"{path}.wal").exists() is (not keep)


@pytest.mark.parametrize(
    "reader",
    ["bindings", "review return", "shard"],
)
def test_every_reader_of_a_persons_json_is_the_strict_one(tmp_path, reader):
    """NaN, Infinity or a lone surrogate escape is refused wherever jfi reads JSON a person or another tool wrote
    (a lax json.loads beside the strict reader took them): invalid_json, naming the file."""
    from jfi.errors import JfiError

    if reader == "bindings":
        from jfi.verify.measure import read_bindings

        path = tmp_path / "bindings.jsonl"
        path.write_text('{"region": "hero", "selector": "#h", "box": [0, 0, NaN, 10]}\n')
        call = lambda: read_bindings(path)  # noqa: E731
    elif reader == "review return":
        from jfi.audit.review import _read_json

        path = tmp_path / "return.json"
        path.write_text('{"bundle_id": "x", "decisions": [], "n": Infinity}\n')
        call = lambda: _read_json(path)  # noqa: E731
    else:
        from jfi.capture.shards import _read

        (tmp_path / "shard").mkdir()
        path = tmp_path / "shard" / "inventory.jsonl"
        path.write_text('{"record": "run", "schema": "content-inventory/v1", "x": NaN}\n')
        call = lambda: _read(tmp_path / "shard")  # noqa: E731
    with pytest.raises(JfiError) as e:
        call()
    assert e.value.code == "invalid_json" and e.value.source == str(path)


@pytest.mark.parametrize("n", [1, 7, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 << 20])
def test_a_files_start_is_known_by_its_sha256_and_newlines_in_one_read(tmp_path, n):
    """sha256_with_prefix: the file's sha256 and size, and for its first n bytes (when the file is longer and they end
    a line) their sha256 and the newlines in them, wherever n falls against the chunks it is read in."""
    import hashlib

    from jfi.jsonl import sha256_with_prefix

    line = b'{"id": "x", "note": "' + "é".encode() * 40 + b'"}\n'
    data = (line * ((3 << 20) // len(line) + 2))[: (3 << 20) + 100]
    path = tmp_path / "ledger.jsonl"
    path.write_bytes(body := data[: n - 1] + b"\n" + data[n:])  # its first n bytes end a line
    assert sha256_with_prefix(path, n) == (
        hashlib.sha256(body).hexdigest(),
        len(body),
        (hashlib.sha256(body[:n]).hexdigest(), body[:n].count(b"\n")),
    )
    path.write_bytes(body[: n - 1] + b"x" + body[n:])  # a line goes on past them
    assert sha256_with_prefix(path, n)[2] is None
    path.write_bytes(body[:n])  # nothing after them
    assert sha256_with_prefix(path, n) == (hashlib.sha256(body[:n]).hexdigest(), n, None)
