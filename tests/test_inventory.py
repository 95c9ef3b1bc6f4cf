"""`jfi audit inventory` against a real Chromium and purpose-built pages served on 127.0.0.1."""

import json
import os
import socket
from pathlib import Path
from unittest import mock

import pages
import pytest
from conftest import Jfi


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def site():
    httpd, origin = pages.start()
    yield origin
    httpd.shutdown()


@pytest.fixture(scope="module")
def capture(site, tmp_path_factory):
    root = tmp_path_factory.mktemp("capture")
    views = root / "views.txt"
    closed = free_port()
    views.write_text(
        "# purpose-built pages\n\n"
        + "\n".join(
            [
                f"names,lab,{site}/names.html",
                f"images,lab,{site}/images.html",
                f"skip\t{site}/skip.html",
                f"caps,lab,{site}/caps.html,50",
                f"away,lab,{site}/away",
                f"missing,lab,{site}/missing.html",
                f"closed,lab,http://127.0.0.1:{closed}/",
                f"plain,lab,{site}/plain.html",
            ]
        )
        + "\n"
    )
    with mock.patch.dict(os.environ, {"JFI_PROFILE": "1"}):  # the capture's phases timed too (make bench reads them)
        r = Jfi(root)(
            "audit",
            "inventory",
            "--urls-file",
            str(views),
            "--out",
            str(root / "out"),
            "--settle",
            "0",
            "--workers",
            "3",
            "--nav-timeout",
            "5000",
        )
    lines = [json.loads(x) for x in (root / "out" / "inventory.jsonl").read_text().splitlines()]
    return r, lines, root


def views_of(capture):
    return {v["view_id"]: v for v in capture[1][1:]}


def by_selector(items, sel):
    return next(x for x in items if x["selector"] == sel)


def test_exit_1_with_environment_notes_and_order_kept(capture):
    r, lines, root = capture
    assert r.exit_code == 1
    assert lines[0]["record"] == "run" and lines[0]["viewport"]["width"] == 1440
    assert [v["view_id"] for v in lines[1:]] == [
        "names",
        "images",
        "skip",
        "caps",
        "away",
        "missing",
        "closed",
        "plain",
    ]
    assert (
        lines[3]["product"] == "127.0.0.1:" + lines[3]["url"].split(":")[2].split("/")[0]
    )  # id<TAB>url: product = host
    manifest = json.loads((root / "out" / "inventory-run.json").read_text())
    assert manifest["schema"] == "content-inventory/v1" and manifest["view_count"] == 8
    assert [v["view_id"] for v in manifest["views"]] == [v["view_id"] for v in lines[1:]]


def test_a_profiled_capture_says_where_its_time_went(capture):
    from jfi.bench import phase_times

    spent = dict(phase_times(capture[0].stderr))
    for name in (
        "page load (until still)",
        "settle (--settle, fonts, two frames)",
        "inventory script and accessibility tree",
        "axe-core",
        "screenshot and pictures of what it does not show",
        "emptying the tab for the next view",
    ):
        assert spent[f"capture: {name}"] > 0, name


def test_environment_notes_are_never_product_evidence(capture):
    v = views_of(capture)
    assert v["away"]["stayed_on_route_host"] is False and v["away"]["final_url"].startswith("http://localhost:")
    assert v["missing"]["nav_error"].startswith("HTTP 404")
    assert v["closed"]["nav_error"] and "ERR_CONNECTION_REFUSED" in v["closed"]["nav_error"]
    for name in ("away", "missing", "closed"):
        assert v[name]["inventory"] is None and v[name]["screenshot"] is None
    assert v["plain"]["inventory"]["meta"]["title"] == "Plain" and v["plain"]["stayed_on_route_host"]


def test_screenshots_only_for_inventoried_views(capture):
    _, lines, root = capture
    shots = sorted(p.name for p in (root / "out" / "screenshots").iterdir())
    assert "plain__desktop-1440.png" in shots and not any(s.startswith(("away", "missing", "closed")) for s in shots)
    assert (root / "out" / "screenshots" / "plain__desktop-1440.png").read_bytes()[:4] == b"\x89PNG"


def test_names_follow_one_documented_order(capture):
    inv = views_of(capture)["names"]["inventory"]
    got = {k["selector"]: (k["name"], k["name_source"]) for k in inv["links"]}
    assert got["#l-lb"] == ("Labelled by span and more", "aria-labelledby")
    assert got["#l-al"] == ("Aria label wins", "aria-label")
    assert got["#l-content"] == ("Plain content", "content")
    assert got["#l-img"] == ("Image alt name", "img-alt")
    assert got["#l-title"] == ("Title only name", "title")
    assert got["#l-none"] == ("", "none")
    assert by_selector(inv["links"], "#l-none")["empty_name"] is True
    heads = inv["headings"]
    assert (heads[0]["level"], heads[0]["text"]) == (3, "Role heading")
    assert (heads[1]["text"], heads[1]["name_source"]) == ("Heading from alt", "img-alt")
    assert (heads[2]["text"], heads[2]["name_source"]) == ("", "none")
    fields = {f["id"]: f for f in inv["fields"]}
    assert (fields["f-lb"]["label"], fields["f-lb"]["label_source"]) == ("Labelled by span", "aria-labelledby")
    assert fields["f-al"]["label_source"] == "aria-label"
    assert (fields["f-for"]["label"], fields["f-for"]["label_source"], fields["f-for"]["type"]) == (
        "For label",
        "label[for]",
        "email",
    )
    assert fields["f-wrap"]["label_source"] == "wrapping-label"
    assert (fields["f-ph"]["label"], fields["f-ph"]["label_source"]) == ("", "placeholder-only")
    assert fields["f-title"]["label_source"] == "title-only"
    assert fields["f-none"]["label_source"] == "none" and fields["f-none"]["required"] is True
    assert fields["f-ta"]["describedby_text"] == "Plain words please."
    assert fields["f-sel"]["fieldset_legend"] == "Delivery" and fields["f-sel"]["type"] == "select"
    assert len(inv["fields"]) == 9  # hidden, submit and image inputs are not fields
    assert inv["counts"]["fields_unlabeled"] == 4  # placeholder, title, none, and the bare textarea


def test_alt_null_versus_empty_and_control_detection(capture):
    imgs = {i["selector"]: i for i in views_of(capture)["images"]["inventory"]["images"]}
    assert (imgs["#no-alt"]["alt"], imgs["#no-alt"]["alt_present"]) == (None, False)
    assert (imgs["#empty-alt"]["alt"], imgs["#empty-alt"]["alt_empty"], imgs["#empty-alt"]["src_basename"]) == (
        "",
        True,
        "e.png",
    )
    assert imgs["#with-alt"]["src_basename"] == "w.png"
    assert imgs["#in-link"]["in_control"] == {"tag": "a", "name": "Home", "href": "/home", "control_has_text": False}
    assert imgs["#in-link-text"]["in_control"]["control_has_text"] is True
    assert imgs["#in-button"]["in_control"]["tag"] == "button"
    assert imgs["#in-role-link"]["in_control"]["tag"] == "span"
    assert imgs["#with-alt"]["in_control"] is None
    assert imgs["#fig"]["figcaption"] == "A caption"
    assert imgs["#under-hidden"]["aria_hidden"] is True and imgs["#hidden-svg"]["aria_hidden"] is True
    assert imgs["#outer"]["svg_title"] == "Sales chart" and imgs["#outer"]["aria_label"] == "Chart"
    counts = views_of(capture)["images"]["inventory"]["counts"]
    assert counts["images_missing_alt"] == 1


def test_nested_svg_is_part_of_its_outer_image(capture):
    imgs = views_of(capture)["images"]["inventory"]["images"]
    selectors = [i["selector"] for i in imgs]
    assert "#outer" in selectors and "#inner" not in selectors
    tags = [i["tag"] for i in imgs]
    assert tags.count("svg") == 2 and "canvas" in tags and "div" in tags
    assert any(i["src"] == "data:\u2026" for i in imgs)


def test_invalid_skip_link_target_is_not_found_never_a_lost_view(capture):
    v = views_of(capture)["skip"]
    skips = {s["href"]: s["target_exists"] for s in v["inventory"]["meta"]["skip_links"]}
    assert skips == {"#1bad": False, "#main": True, "#": True}


def test_caps_say_so_and_keep_true_totals(capture):
    inv = views_of(capture)["caps"]["inventory"]
    assert len(inv["links"]) == 500 and inv["counts"]["links_total"] == 600 and inv["capped"]["links"] is True
    assert len(inv["fields"]) == 120 and inv["capped"]["fields"] is True
    assert inv["capped"]["images"] is False


def test_hostile_pages_are_stopped_by_the_time_budget(site, tmp_path):
    r = Jfi(tmp_path)(
        "audit",
        "inventory",
        f"{site}/never",
        f"{site}/busy.html",
        f"{site}/plain.html",
        "--out",
        str(tmp_path / "out"),
        "--settle",
        "0",
        "--nav-timeout",
        "1500",
        "--view-budget",
        "3",  # the busy page spins a core until its budget ends; a plain page takes well under a second
        "--no-screenshots",
        "--workers",
        "1",
    )
    assert r.exit_code == 1
    v = [json.loads(x) for x in (tmp_path / "out" / "inventory.jsonl").read_text().splitlines()][1:]
    assert [x["view_id"] for x in v] == ["V-001", "V-002", "V-003"]
    assert v[0]["inventory"] is None and v[0]["nav_error"]
    assert v[1]["inventory"] is None and "budget" in v[1]["nav_error"]
    assert v[2]["inventory"] is not None
    assert not (tmp_path / "out" / "screenshots").exists()


def test_a_tab_whose_view_ran_out_of_time_is_closed_not_emptied_for_the_next():
    """A page over its budget may still run a script that would hold the emptying of its tab up to its time limit:
    its context is closed at once and the next view gets a new tab; a view within budget gives its tab back."""
    import asyncio

    from jfi.capture.browse import Tabs

    class Stub:
        def __init__(self):
            self.calls = []

        def __getattr__(self, name):
            async def call(*args, **kwargs):
                self.calls.append(name)
                return Stub()  # a DevTools session, when asked for one

            return call

    for reuse in (False, True):
        context, page = Stub(), Stub()
        context.pages = [page]
        tabs = Tabs(browser=None, opts=None)
        asyncio.run(
            tabs.give_back((context, page, None), type("Guard", (), {"origin": "http://x.example"})(), reuse=reuse)
        )
        assert (
            (context.calls == ["close"] and tabs.free == [])
            if not reuse
            else ("close" not in context.calls and tabs.free == [(context, page, None)])
        )


def captured(tmp_path, out, *args) -> list[dict]:
    """The view records of a capture without screenshots or settle time, each but for its load time."""
    r = Jfi(tmp_path)("audit", "inventory", *args, "--out", str(out), "--settle", "0", "--no-screenshots")
    assert r.exit_code == 0, r.stderr
    recs = [json.loads(x) for x in (out / "inventory.jsonl").read_text().splitlines()][1:]
    for rec in recs:
        rec.pop("load_ms")
    return recs


def test_workers_do_not_change_the_output(site, tmp_path):
    pages = [f"{site}/{name}.html" for name in ("names", "images", "plain", "skip")]
    assert captured(tmp_path, tmp_path / "w1", *pages, "--workers", "1") == captured(
        tmp_path, tmp_path / "w3", *pages, "--workers", "3"
    )


def test_a_capture_that_waits_little_takes_few_tabs_and_one_that_waits_long_many(site, tmp_path, monkeypatch):
    from jfi.capture import browse

    monkeypatch.setattr(browse.os, "cpu_count", lambda: 2)
    assert browse.default_workers(1000, 500) == 6  # three per core at most
    # a short settle: four views to a tab at least (a tab's first view pays for its renderer)
    assert [browse.default_workers(n) for n in (1, 4, 5, 12, 200)] == [1, 1, 2, 3, 6]
    assert browse.default_workers(12, 499) == 3
    # a settle of half a second or more is waited side by side, as many tabs as views, six at most
    assert [browse.default_workers(n, 500) for n in (1, 5, 200)] == [1, 5, 6]
    asked = []
    chosen = browse.default_workers
    monkeypatch.setattr(browse, "default_workers", lambda *a: asked.append(a) or chosen(*a))
    captured(tmp_path, tmp_path / "out", *(f"{site}/{name}.html" for name in ("names", "plain")))
    assert asked == [(2, 0.0)]  # the capture asks with its pages and their mean settle (no --workers given)


def test_a_shared_chromium_starts_once_and_changes_no_capture(site, tmp_path, monkeypatch):
    import jfi.browser

    launched = []
    launch = jfi.browser._launch

    async def counted(chromium, options):
        launched.append(options)
        return await launch(chromium, options)

    monkeypatch.setattr(jfi.browser, "_launch", counted)

    def capture(name):
        return captured(tmp_path, tmp_path / name, f"{site}/names.html")

    monkeypatch.setattr(jfi.browser, "_SHARED", None)
    alone = capture("alone")
    assert len(launched) == 1  # a capture of its own: its own Chromium
    with jfi.browser.shared():
        first, second = capture("first"), capture("second")
        assert jfi.browser._SHARED.browser.is_connected()  # left running for the next capture
    assert len(launched) == 2  # one more start for both captures in the block
    assert alone == first == second
    assert jfi.browser._SHARED is None  # closed with its block


@pytest.mark.parametrize(
    "text,where",
    [
        ("home,prod\n", "views.txt:1"),
        ("# c\n\nhome,prod,/x.html\n", "views.txt:3"),
        ("a,b,http://x.example/,soon\n", "views.txt:1"),
        ("ftp://x.example/\n", "views.txt:1"),
        ("a\tb\tc\n", "views.txt:1"),
        ("a,p,http://x.example/\na,p,http://y.example/\n", "duplicate_view"),
    ],
)
def test_malformed_views_are_refused_before_any_browser(tmp_path, text, where, monkeypatch):
    monkeypatch.setenv("JFI_CHROMIUM", "/nonexistent/chromium")  # a browser start would fail differently
    (tmp_path / "views.txt").write_text(text)
    r = Jfi(tmp_path)("audit", "inventory", "--urls-file", str(tmp_path / "views.txt"), "--out", str(tmp_path / "o"))
    assert r.exit_code == 2 and where in r.stderr, r.stderr
    assert not (tmp_path / "o").exists()


def test_no_views_names_both_ways(tmp_path):
    r = Jfi(tmp_path)("audit", "inventory", "--out", str(tmp_path / "o"))
    assert r.exit_code == 2 and "--urls-file" in r.stderr and "URLs as arguments" in r.stderr


def test_missing_browser_is_a_clear_error(tmp_path, monkeypatch):
    import jfi.browser

    monkeypatch.setattr(jfi.browser, "_SHARED", None)  # a capture that starts its own Chromium, as a command does
    monkeypatch.setattr(jfi.browser, "own_browser", lambda chromium: None)
    monkeypatch.setattr(jfi.browser, "DEBIAN_CHROMIUM", "/nonexistent")
    monkeypatch.setattr(jfi.browser.shutil, "which", lambda name: None)
    monkeypatch.delenv("JFI_CHROMIUM", raising=False)
    r = Jfi(tmp_path)("audit", "inventory", "http://127.0.0.1:9/", "--out", str(tmp_path / "o"))
    assert r.exit_code == 2 and "no_browser" in r.stderr and "apt-get install -y chromium" in r.stderr


def test_playwrights_own_browser_is_asked_of_the_running_playwright_and_home_is_removed(tmp_path, monkeypatch):
    """Inside a command the Playwright already started says where its own Chromium is (a second driver cannot be
    started inside its event loop); Chromium's throw-away home goes when the block ends, even on an error."""
    import types

    from jfi.browser import launch_options

    own = tmp_path / "chrome"
    own.write_text("")
    monkeypatch.setenv("JFI_CHROMIUM", "/nonexistent/chromium")
    with launch_options(types.SimpleNamespace(executable_path=str(own))) as options:
        home = Path(options["env"]["HOME"])
        assert "executable_path" not in options and home.is_dir()
    assert not home.exists()
    other = tmp_path / "other-chromium"
    other.write_text("")
    other.chmod(0o755)
    monkeypatch.setenv("JFI_CHROMIUM", str(other))
    with pytest.raises(RuntimeError):
        with launch_options(types.SimpleNamespace(executable_path=str(tmp_path / "not-installed"))) as options:
            home = Path(options["env"]["HOME"])
            assert options["executable_path"] == str(other)
            raise RuntimeError("the browser failed")
    assert not home.exists()


def test_existing_capture_is_kept_unless_replaced(capture):
    _, _, root = capture
    before = (root / "out" / "inventory.jsonl").read_bytes()
    r = Jfi(root)("audit", "inventory", "http://127.0.0.1:9/", "--out", str(root / "out"))
    assert r.exit_code == 2 and "capture_exists" in r.stderr
    assert (root / "out" / "inventory.jsonl").read_bytes() == before


def test_import_gives_back_the_same_views(capture, tmp_path):
    _, lines, root = capture
    r = Jfi(tmp_path)(
        "audit", "import-inventory", str(root / "out" / "inventory-run.json"), "--out", str(tmp_path / "imp")
    )
    assert r.exit_code == 0, r.stderr
    again = [json.loads(x) for x in (tmp_path / "imp" / "inventory.jsonl").read_text().splitlines()]
    assert again[1:] == lines[1:]
    (tmp_path / "bad.json").write_text('{"schema": "other"}')
    r = Jfi(tmp_path)("audit", "import-inventory", str(tmp_path / "bad.json"), "--out", str(tmp_path / "imp2"))
    assert r.exit_code == 2 and "schema" in r.stderr and not (tmp_path / "imp2").exists()


def test_progress_bar_on_a_terminal_and_plain_lines_otherwise(monkeypatch):
    import io

    from jfi.capture.browse import describe
    from jfi.progress import Progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    done = {
        "view_id": "a",
        "inventory": {
            "counts": {
                "headings": 1,
                "links": 2,
                "links_total": 2,
                "images": 0,
                "images_total": 0,
                "fields": 0,
                "navs": 1,
            }
        },
    }
    noted = {"view_id": "b", "inventory": None, "nav_error": "HTTP 500", "final_url": "http://x/"}

    def run(stream, note=True):
        monkeypatch.setattr("sys.stderr", stream)
        p = Progress(2, "views", "environment note(s)")
        for rec in (done, noted):
            p.step(rec["inventory"] is not None, f"{rec['view_id']}: {describe(rec)}" if note else None)
        return stream.getvalue()

    tty = run(Tty())
    assert "2/2" in tty and "1 environment note(s)" in tty and "━" in tty  # rich's bar, finished
    assert "b: environment note" not in tty  # on a terminal the bar says it; the notes are on record
    plain = run(io.StringIO())
    assert plain.splitlines()[1].startswith("b: environment note: HTTP 500") and "\r" not in plain
    assert run(io.StringIO(), note=False) == ""  # steps without a note (image fetching) print nothing on a pipe


def test_a_manifest_view_whose_page_script_threw_imports_as_a_note(tmp_path):
    from inventories import view as make_view

    good, bad = make_view("home"), make_view("broken")
    bad["inventory"] = {"error": "TypeError: cannot read properties of null (reading 'matches')"}
    manifest = {
        "schema": "content-inventory/v1",
        "viewport": {"id": "desktop-1440", "width": 1440, "height": 900},
        "caps": {"headings": 250, "links": 500, "images": 250, "fields": 120, "nav_links": 120},
        "views": [good, bad],
    }
    (tmp_path / "run.json").write_text(json.dumps(manifest))
    jfi = Jfi(tmp_path)
    r = jfi("audit", "import-inventory", str(tmp_path / "run.json"), "--out", str(tmp_path / "imp"))
    assert r.exit_code == 0, r.stderr
    lines = [json.loads(x) for x in (tmp_path / "imp" / "inventory.jsonl").read_text().splitlines()]
    broken = next(v for v in lines[1:] if v["view_id"] == "broken")
    assert broken["inventory"] is None and broken["nav_error"].startswith("capture failed: TypeError")
    assert jfi("audit", "build", "--inventory", str(tmp_path / "imp")).exit_code == 0
    units = json.loads((tmp_path / "imp" / "judgment-units.json").read_text())
    assert [v["view_id"] for v in units["views_skipped"]] == ["broken"]


REMEMBERS = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Visit</title></head><body><main>
<h1 id="visit">first visit</h1><div id="marks"></div>
<script>
  const marks = [];
  if (document.cookie.includes("seen=1")) marks.push("cookie");
  if (localStorage.getItem("seen")) marks.push("localStorage");
  if (sessionStorage.getItem("seen")) marks.push("sessionStorage");
  if (window.name === "seen") marks.push("window.name");
  if (history.state && history.state.seen) marks.push("history.state");
  document.cookie = "seen=1; max-age=3600; path=/";
  localStorage.setItem("seen", "1"); sessionStorage.setItem("seen", "1"); window.name = "seen";
  history.replaceState({seen: 1}, "");
  const open = indexedDB.open("visits", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("v");
  open.onsuccess = () => {
    const store = open.result.transaction("v", "readwrite").objectStore("v");
    const get = store.get("seen");
    get.onsuccess = () => {
      if (get.result) marks.push("indexedDB");
      store.put(1, "seen");
      if (marks.length) document.getElementById("visit").textContent = "returning visitor: " + marks.join(", ");
    };
  };
</script></main></body></html>"""


@pytest.mark.slow
def test_a_reused_tab_forgets_everything_the_last_view_stored(tmp_path):
    """Tabs are reused from view to view: a page that remembers a visit in a cookie, localStorage, sessionStorage,
    IndexedDB, window.name or history state finds none of them on the next view (the same page, captured again in the
    same tab) — every view is captured as in a new browser context."""
    served = tmp_path / "site"
    served.mkdir()
    (served / "visit.html").write_text(REMEMBERS)
    (served / "other.html").write_text(REMEMBERS.replace("Visit", "Other"))
    (tmp_path / "views.txt").write_text(
        "one,p,/visit.html\ntwo,p,/visit.html\nthree,p,/other.html\nfour,p,/visit.html\n"
    )
    r = Jfi(tmp_path)(
        "audit",
        "inventory",
        "--urls-file",
        str(tmp_path / "views.txt"),
        "--serve",
        str(served),
        "--out",
        str(tmp_path / "out"),
        "--settle",
        "300",
        "--workers",
        "1",
        "--no-screenshots",
    )
    assert r.exit_code == 0, r.stderr
    recs = [json.loads(x) for x in (tmp_path / "out" / "inventory.jsonl").read_text().splitlines()][1:]
    headings = [[h["text"] for h in rec["inventory"]["headings"]] for rec in recs]
    assert headings == [["first visit"]] * 4, headings


def test_an_imported_view_reads_back_equal_to_the_manifests(tmp_path):
    """Views are written compact (through orjson): every value reads back equal, text beyond ASCII, escapes, floats
    and the 64-bit extremes included."""
    from inventories import view as make_view

    plain, other = make_view("home"), make_view("other")
    plain["inventory"]["meta"]["title"] = "Ünïcode – “quoted” \u2028 and \\ back"
    other["inventory"]["extra"] = {"low": -(2**63) + 1, "high": 2**63 - 1, "ratio": 0.1, "tiny": 5e-324}
    manifest = {
        "schema": "content-inventory/v1",
        "viewport": {"id": "desktop-1440", "width": 1440, "height": 900},
        "views": [plain, other],
    }
    (tmp_path / "run.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    r = Jfi(tmp_path)("audit", "import-inventory", str(tmp_path / "run.json"), "--out", str(tmp_path / "imp"))
    assert r.exit_code == 0, r.stderr
    lines = (tmp_path / "imp" / "inventory.jsonl").read_text(encoding="utf-8").rstrip("\n").split("\n")
    views = [json.loads(x) for x in lines[1:]]
    assert [{k: v for k, v in x.items() if k != "record"} for x in views] == [plain, other]
    assert all(x.startswith('{"record":"view",') for x in lines[1:])
