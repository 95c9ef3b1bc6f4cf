"""Capture is read-only in fact, and a served folder needs no port: requests are routed, never served."""

import json

import pages
import pytest
from conftest import Jfi

HOSTILE = """<!doctype html><html lang="en"><head><title>Caf\u00e9 hostile</title></head><body>
<main><h1>Caf\u00e9</h1><p>Menu</p>
<img src="http://127.0.0.1:{port}/tracker.png" alt="tracker">
<a href="/menu.html">Menu</a>
<script>
  fetch('/api/order', {{method: 'POST', body: 'x'}}).catch(() => {{}});
  fetch('http://127.0.0.1:{port}/beacon').catch(() => {{}});
  for (let i = 0; i < 5; i++) window.open('/popup.html?' + i);
  navigator.sendBeacon && navigator.sendBeacon('/beacon', 'x');
</script>
</main></body></html>"""


@pytest.fixture(scope="module")
def live():
    httpd, origin = pages.start()
    yield httpd, origin
    httpd.shutdown()


@pytest.fixture(scope="module")
def served(live, tmp_path_factory):
    httpd, origin = live
    port = httpd.server_address[1]
    site = tmp_path_factory.mktemp("site")
    (site / "index.html").write_bytes(HOSTILE.format(port=port).encode("utf-8"))  # no <meta charset>
    (site / "popup.html").write_text("<title>Popup</title><img src='/popup-loaded.png'>")
    (site / "views.txt").write_text("home,cafe,/\nmissing,cafe,/nope.html\n")
    pages.SEEN.clear()
    outs = []
    for n in range(2):
        out = site.parent / f"out{n}"
        r = Jfi(site)(
            "audit",
            "inventory",
            "--urls-file",
            str(site / "views.txt"),
            "--serve",
            str(site),
            "--out",
            str(out),
            "--settle",
            "300",
            "--no-screenshots",
            "--nav-timeout",
            "5000",
        )
        outs.append((r, [json.loads(x) for x in (out / "inventory.jsonl").read_text().splitlines()]))
    return site, outs


def test_a_served_folder_needs_no_port_and_gives_the_same_ids_every_run(served):
    site, outs = served
    (r0, lines0), (r1, lines1) = outs
    home0, home1 = lines0[1], lines1[1]
    assert home0["url"] == home1["url"] == "http://127.0.0.1:8766/"
    assert home0["inventory"]["links"][0]["href"] == "http://127.0.0.1:8766/menu.html"
    assert lines0[2]["nav_error"].startswith("HTTP 404")
    jfi = Jfi(site)
    ids = []
    for n in range(2):
        assert jfi("audit", "build", "--inventory", str(site.parent / f"out{n}")).exit_code == 0
        ids.append(
            [u["id"] for u in json.loads((site.parent / f"out{n}" / "judgment-units.json").read_text())["units"]]
        )
    assert ids[0] == ids[1] and ids[0]


def test_a_page_without_meta_charset_is_read_as_utf8(served):
    _, outs = served
    home = outs[0][1][1]
    assert home["inventory"]["meta"]["title"] == "Caf\u00e9 hostile"
    assert home["inventory"]["meta"]["h1"] == ["Caf\u00e9"]


def test_capture_blocks_writes_other_origins_and_popups(served):
    _, outs = served
    home = outs[0][1][1]
    notes = " | ".join(home["environment_notes"])
    assert "non-GET request(s) blocked" in notes
    assert "request(s) to another origin blocked" in notes
    assert "5 popup(s) closed unloaded" in notes, notes
    assert home["inventory"] is not None  # blocked requests are notes, not a lost view
    assert not [s for s in pages.SEEN if s[2] in ("/tracker.png", "/beacon")], pages.SEEN
    assert not any(s[0] == "POST" for s in pages.SEEN)


def test_an_off_host_redirect_is_not_followed(live, tmp_path):
    httpd, origin = live
    pages.SEEN.clear()
    views = tmp_path / "views.txt"
    views.write_text(f"away,lab,{origin}/away\nplain,lab,{origin}/plain.html\n")
    r = Jfi(tmp_path)(
        "audit",
        "inventory",
        "--urls-file",
        str(views),
        "--out",
        str(tmp_path / "out"),
        "--settle",
        "0",
        "--no-screenshots",
        "--nav-timeout",
        "5000",
    )
    assert r.exit_code == 1
    lines = [json.loads(x) for x in (tmp_path / "out" / "inventory.jsonl").read_text().splitlines()]
    away = lines[1]
    assert away["inventory"] is None and away["stayed_on_route_host"] is False
    assert away["final_url"].startswith("http://localhost:") and "not followed" in away["nav_error"]
    assert not [s for s in pages.SEEN if s[1].startswith("localhost")], pages.SEEN  # the target was never asked for
    assert lines[2]["inventory"] is not None and lines[2]["environment_notes"] == []


def test_origin_options_are_checked(tmp_path):
    (tmp_path / "views.txt").write_text("a,p,/\n")
    r = Jfi(tmp_path)(
        "audit",
        "inventory",
        "--urls-file",
        str(tmp_path / "views.txt"),
        "--serve",
        str(tmp_path),
        "--origin",
        "ftp://x",
        "--out",
        str(tmp_path / "o"),
    )
    assert r.exit_code == 3 and "invalid_origin" in r.stderr
    r = Jfi(tmp_path)(
        "audit",
        "inventory",
        "--urls-file",
        str(tmp_path / "views.txt"),
        "--origin",
        "http://a.test",
        "--out",
        str(tmp_path / "o"),
    )
    assert r.exit_code == 3
    assert not (tmp_path / "o").exists()


@pytest.mark.slow
def test_a_huge_page_is_captured_capped_and_flagged_within_its_budget(tmp_path):
    """30,000 links and 6,000 images, past every cap and past the size whose accessibility tree is read
    (axnames.AX_MAX_ELEMENTS): the caps bound the work (at most the cap is read, the rest only counted)."""
    from jfi.capture.axnames import AX_MAX_ELEMENTS

    assert 36_000 > AX_MAX_ELEMENTS
    links = "".join(f'<a href="/p{i}">Link {i}</a> ' for i in range(30_000))
    images = "".join(f'<img src="/i{i % 50}.png" alt="Picture {i}">' for i in range(6_000))
    (tmp_path / "index.html").write_text(
        f"<!doctype html><meta charset=utf-8><title>Huge</title><main><h1>Huge</h1>"
        f"<p>Intro text.</p>{links}{images}</main>"
    )
    (tmp_path / "views.txt").write_text("huge,big,/\n")
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
        "0",
        "--no-screenshots",
        "--view-budget",
        "120",
        "--nav-timeout",
        "100000",
    )  # loading the page alone takes 5-15 s on a loaded 2-core machine
    assert r.exit_code == 0, r.stderr
    view = json.loads((tmp_path / "out" / "inventory.jsonl").read_text().splitlines()[1])
    inv = view["inventory"]
    assert view["nav_error"] is None and inv is not None
    assert len(inv["links"]) == 500 and inv["counts"]["links_total"] == 30_000
    assert len(inv["images"]) == 250 and inv["counts"]["images_total"] == 6_000
    assert inv["capped"]["links"] and inv["capped"]["images"]
    assert "ax" not in inv["links"][0] and "accessibility tree not read" in " ".join(view["environment_notes"])
    assert inv["links"][499]["selector"].endswith("main > a:nth-of-type(500)")
    assert inv["images"][0]["selector"].endswith("main > img:nth-of-type(1)")


class Listener:
    """A server on another loopback port that counts every connection made to it (what a page must never reach)."""

    def __init__(self):
        import socket
        import threading

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port, self.hits = self.sock.getsockname()[1], []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(1)
            try:
                self.hits.append(conn.recv(200).split(b"\r\n")[0])
            except OSError:
                self.hits.append(b"")
            conn.close()


BENEATH = """<!doctype html><title>Beneath</title><main><h1>Beneath</h1><a href="/other.html">Other</a></main>
<script type="speculationrules">{{"prefetch": [{{"source": "list", "urls": ["http://127.0.0.1:{port}/prefetch?q=1"]}}],
 "prerender": [{{"source": "list", "urls": ["http://127.0.0.1:{port}/prerender?q=2"]}}]}}</script>
<img src="/redirect.png" alt="moved">
<script>
const code = "new WebSocket('ws://127.0.0.1:{port}/socket'); fetch('http://127.0.0.1:{port}/worker').catch(() => {{}});";
new Worker(URL.createObjectURL(new Blob([code], {{type: 'text/javascript'}})));
new Worker('data:text/javascript,' + encodeURIComponent(code));
try {{ new SharedWorker(URL.createObjectURL(new Blob([code], {{type: 'text/javascript'}}))); }} catch (e) {{}}
</script>"""


def test_nothing_beneath_the_routing_reaches_another_port(live, tmp_path):
    """Speculation rules, workers' sockets and fetches (dedicated, shared, blob, data) and a subresource redirected to
    another port reach no server, served or live, and are counted in the view's notes."""
    httpd, origin = live
    other = Listener()
    page = BENEATH.format(port=other.port)
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(page)
    (site / "views.txt").write_text("home,p,/\n")
    pages.ROUTES["/beneath.html"] = ("Beneath", page.split("</title>", 1)[1])
    pages.REDIRECTS["/redirect.png"] = f"http://127.0.0.1:{other.port}/redirected.png"
    (tmp_path / "live.txt").write_text(f"home,p,{origin}/beneath.html\n")
    jfi = Jfi(tmp_path)
    for out, args in (
        ("served", ["--serve", str(site), "--urls-file", str(site / "views.txt")]),
        ("live", ["--urls-file", str(tmp_path / "live.txt")]),
    ):
        r = jfi("audit", "inventory", *args, "--out", str(tmp_path / out), "--settle", "1200")
        assert r.exit_code in (0, 1), r.stderr
        rec = json.loads((tmp_path / out / "inventory.jsonl").read_text().splitlines()[1])
        assert rec["inventory"] is not None, (out, rec["nav_error"])
        assert any("beneath the page's routing refused" in n for n in rec["environment_notes"]), (out, rec)
    assert other.hits == [], other.hits
