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
    cases = {
        folder / "inventory.jsonl": "output_is_input",
        folder / "ratifications.jsonl": "output_is_input",
        batch: "output_is_input",
        folder / "judgment-units.json": "output_is_input",
        tmp_path / "notes.txt": "would_overwrite",
        folder: "unsafe_path",
    }
    for target, code in cases.items():
        before = snapshot(tmp_path)
        refused(jfi("audit", "gate", "--inventory", str(folder), "--write-baseline", str(target)), code)
        assert snapshot(tmp_path) == before, target
    # the folder of batches is named a folder, not a file
    r = jfi("audit", "gate", "--inventory", str(folder), "--write-baseline", str(folder / "batches"))
    refused(r, "output_is_input")
    assert f"is a folder {folder} reads as input" in r.stderr, r.stderr
    # named through another path to the same file: still the input
    refused(
        jfi(
            "audit",
            "gate",
            "--inventory",
            str(folder),
            "--write-baseline",
            str(folder / "batches" / ".." / "inventory.jsonl"),
        ),
        "output_is_input",
    )
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
    refused(
        jfi("audit", "gate", "--inventory", str(folder), "--baseline", str(base), "--fail-on", "decisive"),
        "baseline_level",
        "--fail-on objective",
    )
    doc = json.loads(base.read_text())
    base.write_text(
        '{"schema": "jfi-gate-baseline/v1", "fail_on": "objective", "fingerprints": [], "fingerprints": '
        + json.dumps(doc["fingerprints"])
        + "}"
    )
    refused(
        jfi("audit", "gate", "--inventory", str(folder), "--baseline", str(base)),
        "invalid_json",
        "appears more than once",
    )


def test_the_report_picture_never_replaces_a_screenshot_and_a_non_png_is_refused_first(tmp_path):
    folder = made(tmp_path, VIEWS, ("build",))
    shots = folder / "screenshots"
    shots.mkdir()
    (shots / "home.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"0" * 20)
    (tmp_path / "notes.txt").write_text("mine\n")
    jfi = Jfi(tmp_path)
    for target, code in {
        shots / "home.png": "output_is_input",
        tmp_path / "picture.txt": "not_png",
        tmp_path / "notes.png": "would_overwrite",
    }.items():
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
    manifest.write_text(
        json.dumps({**head, "views": [{k: v for k, v in r.items() if k != "record"} for r in lines[1:2]]})
    )
    jfi = Jfi(tmp_path)
    before = snapshot(tmp_path)
    refused(jfi("audit", "import-inventory", str(manifest), "--out", str(folder)), "capture_exists", "--replace")
    assert snapshot(tmp_path) == before
    assert jfi("audit", "import-inventory", str(manifest), "--out", str(folder), "--replace").exit_code == 0
    assert len((folder / "inventory.jsonl").read_text().splitlines()) == 2
    assert not (folder / "judgment-units.json").exists()  # derived from the capture it replaced


class Drip:
    """An HTTP server on loopback that answers every request one byte at a time, `gap` seconds apart, and counts
    what it was asked."""

    def __init__(self, gap=0.5, body=b"<urlset>" + b" " * 200):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        drip = self
        self.requests = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                import time

                drip.requests.append(self.path)
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                for b in body:
                    try:
                        self.wfile.write(bytes([b]))
                        self.wfile.flush()
                    except OSError:
                        return
                    time.sleep(gap)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"


def urlset(*locs):
    return (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + "".join(f"<url><loc>{u}</loc></url>" for u in locs)
        + "</urlset>"
    )


def index(*locs):
    return (
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in locs)
        + "</sitemapindex>"
    )


def test_a_served_sitemap_index_reaches_nothing_outside_the_folder(tmp_path, monkeypatch):
    from jfi.capture import sitemap
    from jfi.capture.routing import FolderSite

    other = Drip(gap=0)
    site = tmp_path / "site"
    (site / "maps").mkdir(parents=True)
    (site / "maps" / "pages.xml").write_text(urlset("http://127.0.0.1:8766/a.html"))
    (site / "pages.xml").write_text(urlset("http://127.0.0.1:8766/b.html"))
    # outside the served folder, in the working folder: a relative loc must not read it
    (tmp_path / "outside.xml").write_text(urlset("http://127.0.0.1:8766/outside.html"))
    monkeypatch.chdir(tmp_path)
    (site / "index.xml").write_text(index(f"{other.url}/maps/pages.xml", "pages.xml"))
    views = sitemap.views("/index.xml", site=FolderSite(site))
    assert [v.url for v in views] == ["http://127.0.0.1:8766/a.html", "http://127.0.0.1:8766/b.html"]
    assert other.requests == []  # taken by its path in the folder, never fetched
    (site / "index.xml").write_text(index("outside.xml"))
    with pytest.raises(sitemap.JfiError) as e:
        sitemap.views("/index.xml", site=FolderSite(site))
    assert e.value.code == "unreadable_sitemap"


def test_a_fetched_sitemap_lists_only_its_own_origin(tmp_path):
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from jfi.capture import sitemap

    other = Drip(gap=0)
    docs = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            body = docs.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    here = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        docs["/pages.xml"] = urlset(f"{here}/a.html", f"{other.url}/secret?token=1")
        with pytest.raises(sitemap.JfiError) as e:
            sitemap.views(f"{here}/pages.xml")
        assert e.value.code == "off_origin" and e.value.source == f"{here}/pages.xml"
        docs["/index.xml"] = index(f"{other.url}/pages.xml")
        with pytest.raises(sitemap.JfiError) as e:
            sitemap.views(f"{here}/index.xml")
        assert e.value.code == "off_origin"
        docs["/good.xml"] = urlset(f"{here}/a.html", f"{here}/a-2.html", f"{here}/a/")
        assert [v.view_id for v in sitemap.views(f"{here}/good.xml")] == ["a", "a-2", "a-3"]
        assert other.requests == []
    finally:
        httpd.shutdown()


def test_a_dripping_server_is_cut_off_when_the_whole_time_is_up(monkeypatch):
    import time

    from jfi import fetch

    drip = Drip(gap=0.4)
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        fetch.get(drip.url + "/slow", max_bytes=10_000, timeout_s=1.5, accept="*/*", agent="test")
    assert time.monotonic() - started < 3  # each byte came within the socket's timeout; the whole did not


def test_sigterm_ends_fetch_images_with_no_lock_left(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from conftest import dump, item

    drip = Drip(gap=1.0)
    project = tmp_path / "p"
    (project / "corpus").mkdir(parents=True)
    (project / "rounds").mkdir()
    (project / "corpus" / "functional-images.jsonl").write_text(dump([item(image_url=drip.url + "/i.png")]))
    before = snapshot(project)
    jfi = os.path.join(os.path.dirname(sys.executable), "jfi")
    proc = subprocess.Popen(
        [jfi, "--project", str(project), "corpus", "fetch-images"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    for _ in range(200):
        if drip.requests:
            break
        time.sleep(0.05)
    assert drip.requests, "the fetch never started"
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 130 and "Traceback" not in stderr and "interrupted" in stderr, stderr
    assert not (project / ".jfi.lock").exists()
    assert snapshot(project) == before


def test_half_characters_never_cost_a_capture_nor_pass_silently(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(
        "<!doctype html><title>x</title><main><h1 id=h>Fine</h1><a href='/b'>B</a></main>"
        "<script>document.title = 'Caf\\ud800'; h.textContent = 'Half \\udc00 here';</script>"
    )
    (site / "views.txt").write_text("home,p,/\n")
    jfi = Jfi(tmp_path)
    r = jfi(
        "audit",
        "inventory",
        "--serve",
        str(site),
        "--urls-file",
        str(site / "views.txt"),
        "--out",
        str(tmp_path / "out"),
        "--settle",
        "0",
        "--no-axe",
    )
    assert r.exit_code in (0, 1) and "Traceback" not in r.stderr, r.stderr
    rec = json.loads((tmp_path / "out" / "inventory.jsonl").read_text(encoding="utf-8").splitlines()[1])
    assert rec["inventory"]["meta"]["title"] == "Caf\ufffd"
    assert any("lone surrogate" in n for n in rec["environment_notes"]), rec["environment_notes"]
    assert (tmp_path / "out" / rec["screenshot"]).is_file()
    # in the ledger: refused with its line, no traceback
    folder = made(tmp_path / "m", VIEWS, ("build",))
    (folder / "ratifications.jsonl").write_text('{"id": "X", "ratified_by": "A\\ud800", "ratified_judgment": "no"}\n')
    before = snapshot(folder)
    refused(
        Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)),
        "ratifications.jsonl:1: invalid_json",
        "lone surrogate",
    )
    assert snapshot(folder) == before


def _manifest(folder, **change):
    lines = [json.loads(x) for x in (folder / "inventory.jsonl").read_text().splitlines()]
    views = [{k: v for k, v in r.items() if k != "record"} for r in lines[1:]]
    views[0].update(change)
    return {**{k: v for k, v in lines[0].items() if k != "record"}, "views": views}


@pytest.mark.parametrize(
    "mutate, needle",
    [
        (
            lambda t: t.replace('"view_id": "home"', '"view_id": "home", "view_id": "fares"', 1),
            "appears more than once",
        ),
        (lambda t: t.replace('"title": "Fares"', '"title": "Fa\\ud800res"', 1), "lone surrogate"),
        (
            lambda t: t.replace('"url": "http://site.example/home.html"', '"url": "javascript:alert(1)"', 1),
            "not an http(s) URL",
        ),
        (
            lambda t: t.replace('"url": "http://site.example/home.html"', '"url": "file:///etc/passwd"', 1),
            "not an http(s) URL",
        ),
        (
            lambda t: t.replace('"links": [{', '"links": [[{', 1).replace('}], "images"', '}]], "images"', 1),
            "array of objects",
        ),
    ],
)
def test_a_manifest_that_says_two_things_or_names_no_web_page_is_refused(tmp_path, mutate, needle):
    folder = made(tmp_path, VIEWS)
    text = json.dumps(_manifest(folder))
    changed = mutate(text)
    assert changed != text
    (tmp_path / "run.json").write_text(changed)
    refused(
        Jfi(tmp_path)("audit", "import-inventory", str(tmp_path / "run.json"), "--out", str(tmp_path / "imp")),
        "invalid_manifest",
        needle,
    )
    assert not (tmp_path / "imp").exists()


def test_an_inventory_naming_no_web_page_is_refused_by_build(tmp_path):
    from inventories import write

    folder = write(tmp_path / "audit", [view("home", links=[link("A", "/a")]), view("x")])
    text = (
        (folder / "inventory.jsonl")
        .read_text()
        .replace('"url": "http://site.example/x.html"', '"url": "javascript:alert(1)"')
    )
    (folder / "inventory.jsonl").write_text(text)
    before = snapshot(folder)
    refused(Jfi(tmp_path)("audit", "build", "--inventory", str(folder)), "inventory.jsonl:3: url: invalid_url")
    assert snapshot(folder) == before


def test_the_api_is_held_to_the_command_lines_contract(tmp_path):
    import jfi

    folder = made(tmp_path, VIEWS, ("build",))
    audit = jfi.open_audit(folder)
    (tmp_path / "a-file").write_text("mine\n")
    calls = {
        "batch=-1": (lambda: audit.build(batch=-1), "invalid_argument"),
        "batch=0": (lambda: audit.build(0), "invalid_argument"),
        "batch=10**30": (lambda: audit.build(10**30), "invalid_argument"),
        "batch='9'": (lambda: audit.build("9"), "invalid_argument"),
        "batch=True": (lambda: audit.build(True), "invalid_argument"),
        "seed=5": (lambda: audit.sample(seed=5), "invalid_argument"),
        "out=7": (lambda: audit.export(out=7), "invalid_argument"),
        "sql=5": (lambda: audit.query(5), "invalid_argument"),
        "folder=5": (lambda: jfi.open_audit(5), "invalid_argument"),
        "out=a file": (lambda: jfi.import_inventory(folder / "inventory.jsonl", tmp_path / "a-file"), "not_a_folder"),
    }
    before = snapshot(tmp_path)
    for name, (call, code) in calls.items():
        with pytest.raises(jfi.JfiError) as e:
            call()
        assert e.value.code == code, (name, e.value.code, e.value.message)
        assert snapshot(tmp_path) == before, name
    assert audit.build(batch=5).code == 0  # within the range the command line declares


def test_an_out_folder_that_is_a_file_is_refused_before_any_capture(tmp_path, monkeypatch):
    monkeypatch.setenv("JFI_CHROMIUM", "/nonexistent/chromium")  # a browser start would fail differently
    (tmp_path / "out").write_text("mine\n")
    (tmp_path / "views.txt").write_text("home,p,http://x.example/\n")
    refused(
        Jfi(tmp_path)("audit", "inventory", "--urls-file", str(tmp_path / "views.txt"), "--out", str(tmp_path / "out")),
        "not_a_folder",
    )
    assert (tmp_path / "out").read_text() == "mine\n"


def test_deep_nesting_costs_no_memory_and_leaves_no_lock(tmp_path):
    import resource

    folder = made(tmp_path, VIEWS, ("build",))
    (folder / "judgment-units.json").write_text("[" * 100_000 + "]" * 100_000)
    before = snapshot(folder)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    refused(Jfi(tmp_path)("audit", "merge", "--inventory", str(folder)), "judgment-units.json", "nested too deeply")
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 500_000  # KiB: no more than half a GB grown
    assert snapshot(folder) == before and not (folder / ".jfi.lock").exists()
    manifest = tmp_path / "run.json"
    manifest.write_text('{"schema": "content-inventory/v1", "views": [' + "[" * 100_000 + "]" * 100_000 + "]}")
    refused(
        Jfi(tmp_path)("audit", "import-inventory", str(manifest), "--out", str(tmp_path / "imp")), "nested more than"
    )
    assert not (tmp_path / "imp").exists()


def test_a_view_with_more_elements_than_any_capture_is_refused(tmp_path):
    from inventories import write

    folder = write(tmp_path / "audit", [view("home", links=[link(f"L{i}", f"/p{i}") for i in range(5001)]), view("b")])
    before = snapshot(folder)
    refused(Jfi(tmp_path)("audit", "build", "--inventory", str(folder)), "inventory.jsonl:2: inventory.links: too_many")
    assert snapshot(folder) == before


def test_a_huge_sparse_file_in_a_served_folder_is_not_read(tmp_path):
    import resource

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(
        "<!doctype html><title>Big</title><main><h1>Big</h1><img src='/huge.png' alt='huge'></main>"
    )
    with open(site / "huge.png", "wb") as fh:
        fh.truncate(1_500_000_000)  # sparse: no bytes on disk
    (site / "views.txt").write_text("home,p,/\n")
    r = Jfi(tmp_path)(
        "audit",
        "inventory",
        "--serve",
        str(site),
        "--urls-file",
        str(site / "views.txt"),
        "--out",
        str(tmp_path / "out"),
        "--settle",
        "0",
        "--no-axe",
        "--no-screenshots",
    )
    assert r.exit_code in (0, 1), r.stderr
    rec = json.loads((tmp_path / "out" / "inventory.jsonl").read_text().splitlines()[1])
    assert rec["inventory"] is not None and any("not served" in n for n in rec["environment_notes"]), rec
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 2_000_000  # KiB: the file was never read


@pytest.mark.parametrize("edit", ["flags emptied", "unit removed", "count stale"])
def test_the_gate_refuses_a_units_file_edited_after_build(tmp_path, edit):
    folder = made(tmp_path, VIEWS, ("build",))
    jfi = Jfi(tmp_path)
    assert jfi("audit", "gate", "--inventory", str(folder)).exit_code == 1  # the example's findings, as built
    doc = json.loads((folder / "judgment-units.json").read_text())
    flagged = next(u for u in doc["units"] if u["flags"])
    if edit == "flags emptied":
        flagged["flags"] = []
    elif edit == "unit removed":
        doc["units"].remove(flagged)
        doc["unit_count"] -= 1
    else:
        doc["unit_count"] += 3
    (folder / "judgment-units.json").write_text(json.dumps(doc))
    before = snapshot(folder)
    refused(jfi("audit", "gate", "--inventory", str(folder)), "units_edited")
    assert snapshot(folder) == before


def test_page_text_never_becomes_markup_a_link_or_broken_xml(tmp_path):
    """What a page wrote reaches people's files as text: a help URL that is javascript: is no link in report.html,
    HTML and Markdown in names are escaped in worklist.md and review-tasks.md, control characters leave JUnit
    well-formed, [acr] values with control characters are refused, and a screenshot replaced after the report
    makes it stale."""
    import xml.etree.ElementTree as ET

    from jfi.audit.report import web_url
    from jfi.output import md_text

    assert web_url("javascript:alert(1)") is None and web_url(" data:text/html,x") is None
    assert web_url("https://dequeuniversity.com/rules/axe/4.12/link-name") is not None
    assert (
        md_text("<img src=x onerror=alert(1)> [x](javascript:y)\n## h")
        == "\\<img src=x onerror=alert(1)\\> \\[x\\](javascript:y) \\#\\# h"
    )
    assert md_text("a\r\n\r\nb\rc\n") == "a b c " and md_text(None) == "" and md_text(3) == "3"
    evil = "Go <img src=x onerror=alert(1)> \x01\x1b"
    folder = made(tmp_path, [view("home", links=[link(evil, "/a"), link(evil, "/b")])], ("build",), ("merge",))
    jfi = Jfi(tmp_path)
    assert jfi("audit", "worklist", "--inventory", str(folder)).exit_code in (0, 1)
    assert jfi("audit", "review", "export", "--inventory", str(folder), "--out", str(tmp_path / "b")).exit_code == 0
    for md in (folder / "worklist.md", tmp_path / "b" / "review-tasks.md"):
        import re

        assert not re.search(r"(?<!\\)<img", md.read_text()) and "\\<img" in md.read_text(), md
    assert jfi("audit", "export", "--inventory", str(folder), "--format", "junit").exit_code == 0
    ET.parse(folder / "audit-junit.xml")  # well-formed
    (folder / "audit.toml").write_text('[acr]\nauthor = "Ana\\u0007 Ruiz"\nemail = "ana@example.org"\n')
    refused(jfi("audit", "export", "--inventory", str(folder), "--format", "openacr"), "acr.author", "U+0007")
    (folder / "audit.toml").unlink()
    shots = folder / "screenshots"
    shots.mkdir(exist_ok=True)
    (shots / "home.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"1" * 20)
    assert jfi("audit", "report", "--inventory", str(folder)).exit_code == 0
    r = jfi("audit", "worklist", "--inventory", str(folder))
    assert "report.html shows the folder as it was" not in r.stderr
    (shots / "home.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"2" * 20)
    r = jfi("audit", "worklist", "--inventory", str(folder))
    assert "report.html shows the folder as it was" in r.stderr, r.stderr
