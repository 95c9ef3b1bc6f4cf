"""A folder from someone else is safe to open: what a planted file names is checked before jfi reads, writes,
renames or removes anything, and a refusal touches nothing."""

import base64
import json
import os
import shutil
import socket
import threading
import time

import duckdb
import pytest
from conftest import Jfi, snapshot
from inventories import link, made, view, write

from jfi import atomic
from jfi.audit.folder import AuditFolder

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def refused(r, *needles):
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    for n in needles:
        assert n in r.stderr, (n, r.stderr)


def built(tmp_path, name="audit", views=None):
    return made(
        tmp_path,
        views or [view("home", links=[link()]), view("fares", links=[link("Fares", "/f")])],
        ("build",),
        name=name,
    )


def outside(tmp_path):
    out = tmp_path / "outside"
    out.mkdir(exist_ok=True)
    (out / "victim.txt").write_text("keep me")
    (out / "src.txt").write_text("planted")
    (out / "dst.txt").write_text("original")
    return out


# 1. a planted commit journal


@pytest.mark.parametrize("where", ["", "batches"])
@pytest.mark.parametrize(
    "journal",
    [
        {"renames": [["../../outside/src.txt", "../../outside/dst.txt"]], "removals": []},
        {"renames": [], "removals": ["VICTIM"]},
        {"renames": [[".x.jfi-1-aa.tmp", "../outside/dst.txt"]], "removals": []},
        {"renames": [["SRC", "inventory.jsonl"]], "removals": []},
        "not json",
    ],
)
def test_a_planted_journal_is_refused_and_touches_nothing(tmp_path, where, journal):
    folder = built(tmp_path)
    out = outside(tmp_path)
    text = (
        json.dumps(journal).replace("VICTIM", str(out / "victim.txt")).replace("SRC", str(out / "src.txt"))
        if isinstance(journal, dict)
        else journal
    )
    (folder / where / ".jfi-commit-1-aa.json").write_text(text)
    before, kept = snapshot(folder), snapshot(out)
    for command in (["query", "--inventory", str(folder), "select 1"], ["audit", "merge", "--inventory", str(folder)]):
        refused(Jfi(tmp_path)(*command), "unsafe_journal", ".jfi-commit-1-aa.json")
        assert snapshot(out) == kept and snapshot(folder) == before


def test_a_planted_journal_in_a_corpus_project_is_refused(example, tmp_path):
    out = outside(tmp_path)
    rounds = example.project / "rounds"
    (rounds / ".jfi-commit-9-bb.json").write_text(json.dumps({"renames": [], "removals": [str(out / "victim.txt")]}))
    refused(example("corpus", "validate"), "unsafe_journal")
    assert (out / "victim.txt").read_text() == "keep me"


def test_a_journal_jfi_wrote_is_still_rolled_forward(tmp_path):
    """A real interrupted commit (temp file of the journal's own group, target beside it) is finished."""
    folder = built(tmp_path)
    tmp = folder / ".report.html.jfi-77-cc.tmp"
    tmp.write_text("new")
    (folder / "batches" / ".old.jsonl.jfi-77-cc.tmp").write_text("x")
    (folder / ".jfi-commit-77-cc.json").write_text(
        json.dumps(
            {
                "renames": [[tmp.name, "report.html"], ["batches/.old.jsonl.jfi-77-cc.tmp", "batches/old.jsonl"]],
                "removals": ["batches/old.jsonl"],
            }
        )
    )
    atomic.recover(folder)
    assert (folder / "report.html").read_text() == "new" and not tmp.exists()
    assert not (folder / "batches" / "old.jsonl").exists()
    assert not list(folder.glob(".jfi-commit-*"))


def test_a_staged_folder_is_put_in_place_only_onto_nothing_and_a_left_one_goes_without_following_links(tmp_path):
    """A journal may rename a staged folder (.<name>.jfi-<token>.tmp/) onto a name that does not exist, nothing else;
    a staged folder left by a killed writer is removed by the next one, links inside it removed, never followed."""
    folder = built(tmp_path)
    out = outside(tmp_path)
    staged = folder / ".batches.jfi-5-dd.tmp"
    staged.mkdir()
    (staged / "a.jsonl").write_text("new\n")
    (folder / ".jfi-commit-5-dd.json").write_text(json.dumps({"renames": [[staged.name, "batches"]]}))
    before = snapshot(folder)
    refused(Jfi(tmp_path)("query", "--inventory", str(folder), "select 1"), "unsafe_journal", "which exists")
    assert snapshot(folder) == before
    shutil.rmtree(folder / "batches")  # the same journal onto nothing: rolled forward
    atomic.recover(folder)
    assert (folder / "batches" / "a.jsonl").read_text() == "new\n" and not staged.exists()
    left = folder / ".batches.jfi-6-ee.tmp"
    left.mkdir()
    (left / "victim.txt").symlink_to(out / "victim.txt")
    (left / "away").symlink_to(out)
    (folder / ".spare.jfi-7-ff.tmp").symlink_to(out)
    assert Jfi(tmp_path)("audit", "build", "--inventory", str(folder)).exit_code == 0
    assert not left.exists() and not (folder / ".spare.jfi-7-ff.tmp").is_symlink()
    assert (out / "victim.txt").read_text() == "keep me" and (out / "src.txt").read_text() == "planted"


# 2. products that would name files outside the folder


@pytest.mark.parametrize(
    "product", ["../../../outside/x", "/abs/x", "", "..", "a\nb", "a\x00b", "\u202eevil", ".hidden"]
)
def test_a_product_that_cannot_name_a_file_is_refused_at_build(tmp_path, product):
    folder = write(tmp_path / "audit", [view("home", product=product, links=[link()])])
    before = snapshot(tmp_path)
    refused(Jfi(tmp_path)("audit", "build", "--inventory", str(folder)), "product")
    assert snapshot(tmp_path) == before and not (tmp_path / "outside").exists()


@pytest.mark.parametrize(
    "line,needle",
    [
        ("V-001,../../../outside/x,/index.html", "product"),
        ("V-001,..,/index.html", "product"),
        ("../x,harbor,/index.html", "invalid_view"),
    ],
)
def test_a_product_or_id_that_cannot_name_a_file_is_refused_before_capture(tmp_path, line, needle):
    (tmp_path / "views.txt").write_text(line + "\n")
    r = Jfi(tmp_path)(
        "audit",
        "inventory",
        "--urls-file",
        str(tmp_path / "views.txt"),
        "--serve",
        str(tmp_path),
        "--out",
        str(tmp_path / "o"),
    )
    refused(r, "views.txt:1", needle)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("key,value", [("product", "/abs/x"), ("product", "a\u0000b"), ("view_id", "../v")])
def test_a_manifest_product_or_id_that_cannot_name_a_file_is_refused_at_import(tmp_path, key, value):
    v = view("home")
    v[key] = value
    manifest = tmp_path / "run.json"
    manifest.write_text(json.dumps({"schema": "content-inventory/v1", "views": [v]}))
    refused(
        Jfi(tmp_path)("audit", "import-inventory", str(manifest), "--out", str(tmp_path / "imp")), f"views[0].{key}"
    )
    assert not (tmp_path / "imp" / "inventory.jsonl").exists()


# 3. screenshots are PNGs inside screenshots/


def _with_screenshot(tmp_path, shot):
    folder = built(tmp_path)
    lines = (folder / "inventory.jsonl").read_text().splitlines()
    rec = json.loads(lines[1])
    rec["screenshot"] = shot
    lines[1] = json.dumps(rec)
    (folder / "inventory.jsonl").write_text("\n".join(lines) + "\n")
    assert Jfi(tmp_path)("audit", "build", "--inventory", str(folder)).exit_code == 0
    return folder


@pytest.mark.parametrize(
    "shot",
    [
        "/etc/passwd",
        "screenshots/../../outside/secret.png",
        "../outside/secret.png",
        "inventory.jsonl",
        "screenshots/link.png",
        "screenshots/text.png",
    ],
)
def test_the_report_embeds_only_png_screenshots_inside_the_folder(tmp_path, shot):
    out = outside(tmp_path)
    (out / "secret.png").write_bytes(PNG + b"SECRET")
    folder = tmp_path / "audit"
    (folder / "screenshots").mkdir(parents=True)
    (folder / "screenshots" / "link.png").symlink_to(out / "secret.png")
    (folder / "screenshots" / "text.png").write_text("SECRET, not a picture")
    folder = _with_screenshot(tmp_path, shot)
    before = snapshot(folder)
    refused(Jfi(tmp_path)("audit", "report", "--inventory", str(folder)), "screenshot")
    assert snapshot(folder) == before and not (folder / "report.html").exists()


def test_a_png_inside_screenshots_is_shown(tmp_path):
    folder = tmp_path / "audit"
    (folder / "screenshots").mkdir(parents=True)
    (folder / "screenshots" / "home.png").write_bytes(PNG)
    folder = _with_screenshot(tmp_path, "screenshots/home.png")
    assert Jfi(tmp_path)("audit", "report", "--inventory", str(folder)).exit_code == 0
    [picture] = (folder / "report-files").iterdir()
    assert (
        picture.read_bytes()[8:12] == b"WEBP" and f"report-files/{picture.name}" in (folder / "report.html").read_text()
    )


def test_combine_refuses_a_slice_whose_screenshot_is_a_symlink(tmp_path):
    out = outside(tmp_path)
    (out / "secret.png").write_bytes(PNG + b"SECRET")
    header = {
        "record": "run",
        "schema": "content-inventory/v1",
        "engagement": None,
        "what_this_is": "",
        "method_boundary": [],
        "urls_source": "v",
        "viewport": {"id": "d"},
        "caps": {},
        "run_started_utc": "a",
        "run_finished_utc": "b",
        "shard": {"k": 1, "n": 1, "views_total": 1, "views_sha256": "sha256:x"},
    }
    rec = {"record": "view", **view("home"), "screenshot": "screenshots/home.png"}
    part = tmp_path / "part"
    (part / "screenshots").mkdir(parents=True)
    (part / "screenshots" / "home.png").symlink_to(out / "secret.png")
    (part / "inventory.jsonl").write_text(json.dumps(header) + "\n" + json.dumps(rec) + "\n")
    refused(Jfi(tmp_path)("audit", "combine", str(part), "--out", str(tmp_path / "whole")), "unsafe_path", "symlink")
    assert not (tmp_path / "whole" / "inventory.jsonl").exists()


# 4. a kept store is sealed for its user; its SQL never runs


def _merged(tmp_path):
    folder = built(tmp_path)
    assert Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)).exit_code == 0
    return folder, (folder / "draft-judgments.csv").read_bytes()


def test_an_edited_kept_store_is_rebuilt_and_its_sql_never_runs(tmp_path):
    folder, csv = _merged(tmp_path)
    out = outside(tmp_path)
    store = folder / ".jfi" / "audit.duckdb"
    con = duckdb.connect(str(store))
    [(sql,)] = con.execute("SELECT sql FROM duckdb_views() WHERE view_name = 'audit_draft_rows'").fetchall()
    body = sql[sql.index(" AS ") + 4 :].rstrip().rstrip(";")
    con.execute(
        f"CREATE OR REPLACE VIEW audit_draft_rows AS SELECT * REPLACE "
        f"((SELECT content FROM read_text('{out / 'victim.txt'}')) AS name) FROM ({body})"
    )
    assert "keep me" in str(con.execute("SELECT name FROM audit_draft_rows").fetchall())  # the edit works
    con.close()
    (folder / "draft-judgments.csv").unlink()
    assert Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert (folder / "draft-judgments.csv").read_bytes() == csv
    assert b"keep me" not in b"".join(
        p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.suffix != ".duckdb"
    )


def test_a_macro_planted_in_a_kept_store_this_process_checked_before_is_found(tmp_path):
    """The digest of a kept store's functions is remembered by this process per file (jfi.audit.kept); a macro
    planted in that very file afterwards (one shadowing a rule's own, and one shadowing a DuckDB built-in) still makes
    it a store to build anew, never one to reuse."""
    folder, csv = _merged(tmp_path)
    assert Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)).exit_code == 0  # the file checked and remembered
    store = folder / ".jfi" / "audit.duckdb"
    for planted in ("CREATE OR REPLACE MACRO jstr(doc, path) AS 'keep me'", "CREATE MACRO lower(x) AS 'keep me'"):
        con = duckdb.connect(str(store))
        con.execute(planted)
        con.close()
        (folder / "draft-judgments.csv").unlink()
        assert Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)).exit_code == 0
        assert (folder / "draft-judgments.csv").read_bytes() == csv
        con = duckdb.connect(str(store), read_only=True)
        try:  # the store was made anew, without the macro
            assert con.execute(
                "SELECT count(*) FROM duckdb_functions() WHERE function_name = 'lower' AND NOT internal"
            ).fetchone() == (0,)
            assert "keep me" not in str(
                con.execute("SELECT macro_definition FROM duckdb_functions() WHERE function_name = 'jstr'").fetchall()
            )
        finally:
            con.close()


def test_a_small_kept_store_is_read_copied_and_updated_on_one_connection(tmp_path, monkeypatch):
    """A command whose inputs changed reads the old kept store, then copies it and updates the copy on the connection
    it read it on (one DuckDB started, not two); the outputs are those of a store made from nothing."""
    import jfi.store

    folder, csv = _merged(tmp_path)
    (folder / "spot-checks.jsonl").write_text("")  # a new input: the kept store is copied and updated
    (folder / "draft-judgments.csv").unlink()
    started = []
    connect = duckdb.connect
    monkeypatch.setattr(jfi.store.duckdb, "connect", lambda *a, **k: started.append(a) or connect(*a, **k))
    assert Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)).exit_code == 0
    monkeypatch.undo()
    assert started == [(":memory:",)]  # one DuckDB, the store's files attached to it in turn
    assert (folder / "draft-judgments.csv").read_bytes() == csv  # the outputs of the store _merged made from nothing


CATALOG_FUNCTIONS = ("duckdb_tables", "duckdb_views", "duckdb_sequences", "duckdb_indexes", "duckdb_types")


@pytest.mark.parametrize("change", [False, True], ids=["inputs unchanged", "an input changed"])
def test_a_kept_store_that_plants_table_macros_named_as_duckdbs_catalog_is_found(tmp_path, change):
    """A store can hold table macros named as DuckDB's own catalog functions (duckdb_tables(), duckdb_functions(),
    ...), which an unqualified call in that store would run instead of DuckDB's: these return the store's catalog as
    jfi sealed it, hiding a planted macro. jfi reads the catalog through DuckDB's own functions (system.main), so the
    planted macro and the impostors are seen: the store is made anew, whether it would be reused or updated."""
    folder, csv = _merged(tmp_path)
    store = folder / ".jfi" / "audit.duckdb"
    con = duckdb.connect(str(store))
    for name in (*CATALOG_FUNCTIONS, "duckdb_functions"):  # each impostor answers with the rows jfi sealed
        con.execute(
            f"CREATE TEMP TABLE {name}_rows AS "
            f"SELECT * FROM system.main.{name}() WHERE database_name = current_database()"
        )
    for name in (*CATALOG_FUNCTIONS, "duckdb_functions"):
        con.execute(f"CREATE TABLE sealed_{name} AS SELECT * FROM temp.{name}_rows")
    for name in (*CATALOG_FUNCTIONS, "duckdb_functions"):
        con.execute(
            f"CREATE MACRO {name}() AS TABLE SELECT * REPLACE (current_database() AS database_name) FROM sealed_{name}"
        )
    con.execute("CREATE MACRO lower(x) AS 'keep me'")
    assert con.execute("SELECT count(*) FROM duckdb_functions()").fetchone() != (  # the impostor answers
        con.execute("SELECT count(*) FROM system.main.duckdb_functions()").fetchone()
    )
    con.close()
    (folder / "draft-judgments.csv").unlink()
    if change:
        (folder / "spot-checks.jsonl").write_text("")
    assert Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert (folder / "draft-judgments.csv").read_bytes() == csv
    con = duckdb.connect(str(store), read_only=True)
    try:  # made anew: neither the macro nor the impostors are in it
        assert con.execute(
            "SELECT list(function_name ORDER BY function_name) FROM system.main.duckdb_functions() "
            "WHERE database_name = current_database() AND function_name IN ('lower', 'duckdb_tables', 'duckdb_functions')"
        ).fetchone() == (None,)
    finally:
        con.close()


def test_a_new_process_takes_the_noted_digest_of_a_stores_functions_only_for_that_very_file(tmp_path, monkeypatch):
    """The command that puts a kept store in place notes the digest of its functions beside it, sealed with this
    user's key: a new process reuses the store without listing DuckDB's functions. A note not sealed with this user's
    key is not taken, and a macro planted in the store since (a new file key, which the note does not cover) is found:
    the store is made anew."""
    from jfi.audit import kept

    folder, csv = _merged(tmp_path)
    store, note = folder / ".jfi" / "audit.duckdb", folder / ".jfi" / "audit.duckdb.functions"
    noted = json.loads(note.read_text())
    assert noted["key"] == list(kept.file_key(store))
    listed = []
    real = kept._functions
    monkeypatch.setattr(kept, "_functions", lambda con, db: listed.append(db) or real(con, db))

    def merge_in_a_new_process():
        kept._SEEN_FUNCTIONS.clear()  # what a new process knows: nothing but the files
        kept._MADE_FUNCTIONS.clear()
        (folder / "draft-judgments.csv").unlink()
        assert Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)).exit_code == 0
        assert (folder / "draft-judgments.csv").read_bytes() == csv

    merge_in_a_new_process()
    assert listed == []  # reused, its functions' digest taken from the note
    note.write_text(json.dumps({**noted, "mac": "0" * 64}))
    merge_in_a_new_process()
    assert len(listed) == 1  # a note sealed with another key: the functions listed again (the store is still sound)
    note.write_text(json.dumps(noted))
    con = duckdb.connect(str(store))
    con.execute("CREATE MACRO lower(x) AS 'keep me'")
    con.close()
    listed.clear()
    merge_in_a_new_process()
    assert listed  # the planted store's functions listed, and found
    con = duckdb.connect(str(store), read_only=True)
    try:  # the store was made anew, without the macro
        assert con.execute(
            "SELECT count(*) FROM duckdb_functions() WHERE function_name = 'lower' AND NOT internal"
        ).fetchone() == (0,)
    finally:
        con.close()
    assert json.loads(note.read_text())["key"] == list(kept.file_key(store))  # noted anew for the new store


def test_a_kept_store_from_another_user_is_not_reused(tmp_path, monkeypatch):
    folder, csv = _merged(tmp_path)
    spy = []
    from jfi.audit import kept

    real = kept.KeptStore.reuse
    monkeypatch.setattr(kept.KeptStore, "reuse", lambda self: spy.append(r := real(self)) or r)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "someone-else"))
    assert Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert spy == [None] and (folder / "draft-judgments.csv").read_bytes() == csv
    spy.clear()
    assert Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert spy and spy[0] is not None  # sealed anew for this user: reused from now on


# 5. capture reaches no other local port (WebSocket, WebRTC)


class Listener:
    """A TCP and a UDP socket on loopback that record whatever reaches them."""

    def __init__(self):
        self.tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(8)
        self.port = self.tcp.getsockname()[1]
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", self.port))
        self.seen: list[str] = []
        for target in (self._accept, self._receive):
            threading.Thread(target=target, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.tcp.accept()
            except OSError:
                return
            self.seen.append("tcp")
            conn.close()

    def _receive(self):
        while True:
            try:
                self.udp.recvfrom(2048)
            except OSError:
                return
            self.seen.append("udp")

    def close(self):
        self.tcp.close()
        self.udp.close()


RTC = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sockets</title></head><body><main>
<h1>Sockets</h1><p id="out">waiting</p><script>
const port = {port};
try {{ const ws = new WebSocket('ws://127.0.0.1:' + port + '/'); ws.onopen = () => ws.send('hello'); }} catch (e) {{}}
function rtc(w) {{
  try {{
    const pc = new w.RTCPeerConnection({{iceServers: [{{urls: 'stun:127.0.0.1:' + port}},
      {{urls: 'turn:127.0.0.1:' + port + '?transport=tcp', username: 'u', credential: 'p'}},
      {{urls: 'turn:127.0.0.1:' + port + '?transport=udp', username: 'u', credential: 'p'}}]}});
    pc.createDataChannel('x');
    pc.createOffer().then(o => pc.setLocalDescription(o));
  }} catch (e) {{ document.getElementById('out').textContent = 'no rtc'; }}
}}
rtc(window);
const f = document.createElement('iframe'); document.body.appendChild(f); rtc(f.contentWindow);
</script></main></body></html>"""


@pytest.mark.slow
def test_capture_reaches_no_local_port_by_websocket_or_webrtc(tmp_path):
    listener = Listener()
    try:
        (tmp_path / "index.html").write_text(RTC.format(port=listener.port))
        (tmp_path / "views.txt").write_text("home,lab,/\n")
        r = Jfi(tmp_path)(
            "audit",
            "inventory",
            "--urls-file",
            str(tmp_path / "views.txt"),
            "--serve",
            str(tmp_path),
            "--out",
            str(tmp_path / "out"),
            "--settle",
            "2500",
            "--no-screenshots",
        )
        assert r.exit_code == 0, r.stderr
        time.sleep(1)
        assert listener.seen == []
        rec = json.loads((tmp_path / "out" / "inventory.jsonl").read_text().splitlines()[1])
        assert "1 WebSocket(s) closed unconnected" in rec["environment_notes"]
    finally:
        listener.close()


# 6. symlinks and odd files


def test_a_symlinked_batches_folder_is_refused(tmp_path):
    folder = built(tmp_path)
    out = outside(tmp_path)
    (out / "precious.jsonl").write_text("{}\n")
    for p in (folder / "batches").iterdir():
        p.unlink()
    (folder / "batches").rmdir()
    (folder / "batches").symlink_to(out)
    kept = snapshot(out)
    refused(Jfi(tmp_path)("audit", "build", "--inventory", str(folder)), "batches")
    assert snapshot(out) == kept


def test_a_dangling_gitignore_symlink_in_the_store_folder_is_not_followed(tmp_path):
    folder = built(tmp_path)
    shutil.rmtree(folder / ".jfi")  # the store build kept: this case plants its own
    (folder / ".jfi").mkdir()
    target = tmp_path / "outside" / "created.txt"
    (folder / ".jfi" / ".gitignore").symlink_to(target)
    assert Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)).exit_code == 0
    assert not target.exists() and not (tmp_path / "outside").exists()


def test_a_symlinked_store_folder_is_not_used(tmp_path):
    folder = built(tmp_path)
    shutil.rmtree(folder / ".jfi")  # the store build kept: this case plants its own
    out = outside(tmp_path)
    (folder / ".jfi").symlink_to(out)
    kept = snapshot(out)
    r = Jfi(tmp_path)("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 0 and ".jfi" in r.stderr
    assert snapshot(out) == kept and (folder / "draft-judgments.csv").is_file()


def test_export_into_the_store_folder_is_refused(tmp_path):
    folder, _ = _merged(tmp_path)
    before = snapshot(folder)
    refused(Jfi(tmp_path)("audit", "export", "--inventory", str(folder), "--out", str(folder / ".jfi")), "unsafe_path")
    assert snapshot(folder) == before


@pytest.mark.parametrize("name", ["ratifications.jsonl", "spot-checks.jsonl"])
def test_an_input_that_is_a_folder_is_refused_not_read_as_empty(tmp_path, name):
    folder, _ = _merged(tmp_path)
    (folder / name).mkdir()
    before = snapshot(folder)
    refused(Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)), name, "unsafe_path")
    assert snapshot(folder) == before


def test_a_symlinked_input_is_refused(tmp_path):
    folder, _ = _merged(tmp_path)
    out = outside(tmp_path)
    (folder / "ratifications.jsonl").symlink_to(out / "victim.txt")
    refused(Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)), "ratifications.jsonl", "symlink")


# 7. a damaged kept store is rebuilt, never a dead end


def test_a_kept_store_that_fails_on_read_is_rebuilt(tmp_path):
    folder, csv = _merged(tmp_path)
    store = folder / ".jfi" / "audit.duckdb"
    data = bytearray(store.read_bytes())
    for at in range(len(data) // 2, len(data), 4096):  # blocks past the header and catalog
        data[at : at + 64] = os.urandom(64)
    store.write_bytes(bytes(data))
    (folder / "draft-judgments.csv").unlink()
    r = Jfi(tmp_path)("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    assert (folder / "draft-judgments.csv").read_bytes() == csv


def test_a_kept_store_that_is_a_folder_is_not_used_and_leaves_nothing(tmp_path):
    folder = built(tmp_path)
    shutil.rmtree(folder / ".jfi")  # the store build kept: this case plants its own
    (folder / ".jfi" / "audit-inventory.duckdb").mkdir(parents=True)
    r = Jfi(tmp_path)("audit", "report", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    assert ".jfi" in r.stderr and (folder / "report.html").is_file()
    assert sorted(p.name for p in (folder / ".jfi").iterdir()) == ["audit-inventory.duckdb"]


def test_a_store_folder_that_is_a_file_is_not_used_and_left_as_it_is(tmp_path):
    """A file where `.jfi` goes: every command runs without a kept store (saying so) and without the report's
    picture cache, and the file stays as it was."""
    folder = built(tmp_path)
    shutil.rmtree(folder / ".jfi")  # the store build kept: this case plants a file in its place
    (folder / ".jfi").write_bytes(b"not a folder")
    for command in ("merge", "report"):
        r = Jfi(tmp_path)("audit", command, "--inventory", str(folder))
        assert r.exit_code == 0, r.stderr
        assert ".jfi" in r.stderr
    assert (folder / "report.html").is_file() and (folder / ".jfi").read_bytes() == b"not a folder"


# 8. a re-capture leaves no derived file of the old one


def test_units_built_from_another_inventory_are_not_used(tmp_path):
    folder = built(tmp_path)
    write(folder, [view("home", links=[link("Changed", "/c")])])
    before = snapshot(folder)
    refused(Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)), "not_built", "another inventory")
    assert snapshot(folder) == before


@pytest.mark.slow
def test_a_recapture_with_replace_removes_what_the_old_capture_derived(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_text(
        "<!doctype html><html lang=en><title>A</title><main><h1>A</h1><a href='/b.html'>B</a></main>"
    )
    (site / "b.html").write_text("<!doctype html><html lang=en><title>B</title><main><h1>B</h1></main>")
    (site / "views.txt").write_text("a,lab,/a.html\nb,lab,/b.html\n")
    jfi, out = Jfi(tmp_path), tmp_path / "out"
    args = [
        "audit",
        "inventory",
        "--urls-file",
        str(site / "views.txt"),
        "--serve",
        str(site),
        "--out",
        str(out),
        "--settle",
        "0",
    ]
    assert jfi(*args).exit_code == 0
    assert jfi("audit", "build", "--inventory", str(out)).exit_code == 0
    assert jfi("audit", "merge", "--inventory", str(out)).exit_code == 0
    (out / "ratifications.jsonl").write_text("")
    (site / "views.txt").write_text("a,lab,/a.html\n")
    assert jfi(*args, "--replace").exit_code == 0
    for gone in (
        "judgment-units.json",
        "draft-judgments.csv",
        "nav-consistency.csv",
        "screenshots/b__desktop-1440.png",
    ):
        assert not (out / gone).exists(), gone
    assert not list((out / "batches").glob("*.jsonl")) and not list(out.glob(".jfi/*.duckdb"))
    assert (out / "ratifications.jsonl").exists() and (out / "screenshots" / "a__desktop-1440.png").exists()
    refused(jfi("audit", "merge", "--inventory", str(out)), "not_built")


# 9. text that reaches a terminal is shown, not obeyed


_RULED: dict[str, str] = {}


@pytest.mark.parametrize("name", ["\x1b]0;pwned\x07Ann", "Ann\u202e", "\u00a0\u200b", "Ann\x1b[2J"])
def test_a_ruling_by_an_invisible_or_control_character_name_is_refused(tmp_path, name):
    views = [view("home", links=[link("Click here", "/a")]), view("fares", links=[link("Click here", "/b")])]
    folder = made(tmp_path, views, ("build",), in_place=True)  # the kept store as build left it
    jfi = Jfi(tmp_path)
    if "family" not in _RULED:  # the same folder for every name: its family asked for once
        _RULED["family"] = jfi(
            "query", "--inventory", str(folder), "SELECT family_id FROM audit_worklist_families", "--format", "json"
        ).json[0]["family_id"]
    family = _RULED["family"]
    before = snapshot(folder)
    r = jfi(
        "audit",
        "rule",
        "--inventory",
        str(folder),
        "--family",
        family,
        "--ruling",
        "R1",
        "--sentence",
        "Vague.",
        "--by",
        name,
        "--judgment",
        "no",
    )
    refused(r, "ratifications.jsonl", "is not a person's name")
    assert "\x1b" not in r.stderr and "\u202e" not in r.stderr and "\x07" not in r.stderr
    assert snapshot(folder) == before


def test_control_characters_in_stored_text_are_shown_escaped_when_printed(tmp_path):
    folder = built(tmp_path, views=[view("home", title="T\x1b[2J\x07\u202eitle", links=[link()])])
    jfi = Jfi(tmp_path)
    for fmt in ("table", "csv", "json"):
        r = jfi(
            "query",
            "--inventory",
            str(folder),
            "--format",
            fmt,
            "SELECT name FROM audit_built_units WHERE type = 'title'",
        )
        assert r.exit_code == 0, r.stderr
        assert "\x1b" not in r.stdout and "\x07" not in r.stdout and "\u202e" not in r.stdout
        assert "\\u001b" in r.stdout and "\\u202e" in r.stdout
    got = json.loads(
        jfi(
            "query",
            "--inventory",
            str(folder),
            "--format",
            "json",
            "SELECT name FROM audit_built_units WHERE type = 'title'",
        ).stdout
    )
    assert got[0]["name"] == "T\x1b[2J\x07\u202eitle"  # printed JSON still means the same text


# 10. only the lock holder rolls a journal forward


def test_a_reader_does_not_finish_a_commit_while_its_writer_holds_the_lock(tmp_path, monkeypatch):
    folder = built(tmp_path)
    tmp = folder / ".report.html.jfi-5-dd.tmp"
    tmp.write_text("new")
    (folder / ".jfi-commit-5-dd.json").write_text(json.dumps({"renames": [[tmp.name, "report.html"]], "removals": []}))
    monkeypatch.setattr(atomic, "RECOVER_WAIT_S", 0.5)
    with _held(folder):
        with pytest.raises(Exception) as e:
            AuditFolder(folder)
        assert getattr(e.value, "code", None) == "locked"
        assert tmp.exists() and not (folder / "report.html").exists()  # the writer's commit is its own
    AuditFolder(folder)  # the lock is free: the interrupted commit is finished
    assert (folder / "report.html").read_text() == "new"


class _held:
    """The folder's writer lock held by someone else (as another process would)."""

    def __init__(self, folder):
        from filelock import FileLock

        self.lock = FileLock(str(folder / atomic.LOCK_NAME), timeout=0, is_singleton=False)

    def __enter__(self):
        self.lock.acquire()

    def __exit__(self, *exc):
        self.lock.release()
