"""fetch-images against a real HTTP server on localhost; --verify re-hashes every copy."""

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import item, snapshot

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108020000009077") + b"\x00" * 20
GIF = b"GIF89a" + b"\x00" * 20
SVG = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'


class Handler(BaseHTTPRequestHandler):
    requests: list = []

    def log_message(self, *a):
        pass

    def do_GET(self):
        Handler.requests.append(self.path)
        routes = {
            "/ok.png": (200, "image/png", PNG),
            "/ok-no-type.svg": (200, "application/octet-stream", SVG),
            "/gif-by-type": (200, "image/gif; charset=binary", GIF),
            "/error.png": (200, "text/html", b"<html><body>Not found</body></html>"),
            "/lying.png": (200, "image/png", b"<html><body>error</body></html>"),
            "/missing.png": (404, "text/html", b"<html>404</html>"),
            "/big.png": (200, "image/png", PNG + b"\x00" * (8 * 1024 * 1024)),
        }
        if self.path.startswith("/hop/"):
            n = int(self.path.rsplit("/", 1)[1])
            self.send_response(302)
            self.send_header("Location", f"/hop/{n - 1}" if n > 0 else "/ok.png")
            self.end_headers()
            return
        status, ctype, body = routes.get(self.path, (404, "text/plain", b"no"))
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def records(jfi):
    return {d["id"]: d for d in map(json.loads, jfi.corpus.read_text().splitlines())}


def test_fetch_archives_checks_types_and_keeps_going(jfi, server):
    urls = {
        "fi-0001": "/ok.png",
        "fi-0002": "/ok-no-type.svg",
        "fi-0003": "/gif-by-type",
        "fi-0004": "/error.png",
        "fi-0005": "/lying.png",
        "fi-0006": "/missing.png",
        "fi-0007": "/hop/4",
        "fi-0008": "/hop/5",
        "fi-0009": "/big.png",
    }
    jfi.write_corpus(
        [item(id=i, image_url=server + u) for i, u in urls.items()]
        + [item(id="fi-0010", status="rejected", image_url=server + "/ok.png")]
    )
    r = jfi("corpus", "fetch-images")
    assert r.exit_code == 1, r.stderr
    recs = records(jfi)
    images = jfi.project / "corpus" / "images"
    assert recs["fi-0001"]["image_file"] == "corpus/images/fi-0001.png"
    assert recs["fi-0001"]["image_sha256"] == hashlib.sha256(PNG).hexdigest()
    assert (images / "fi-0001.png").read_bytes() == PNG
    assert recs["fi-0002"]["image_file"] == "corpus/images/fi-0002.svg"
    assert recs["fi-0003"]["image_file"] == "corpus/images/fi-0003.gif"
    assert recs["fi-0007"]["image_file"] == "corpus/images/fi-0007.png"  # 5 redirects allowed
    for failed in ("fi-0004", "fi-0005", "fi-0006", "fi-0008", "fi-0009", "fi-0010"):
        assert recs[failed]["image_file"] is None, failed
    for failed in ("fi-0004", "fi-0005", "fi-0006", "fi-0008", "fi-0009"):
        assert f"{failed}:" in r.stderr and "fetch_failed" in r.stderr
    assert sorted(p.name for p in images.iterdir()) == ["fi-0001.png", "fi-0002.svg", "fi-0003.gif", "fi-0007.png"]
    assert jfi("corpus", "validate", "--json").json["errors"] == []
    assert jfi("corpus", "fetch-images", "--verify").exit_code == 0


def test_existing_copy_is_adopted_without_a_request(jfi, server):
    jfi.write_corpus([item(id="fi-0001", image_url=server + "/adopt-me.gif")])
    (jfi.project / "corpus" / "images").mkdir(parents=True)
    (jfi.project / "corpus" / "images" / "fi-0001.gif").write_bytes(GIF)
    Handler.requests.clear()
    r = jfi("corpus", "fetch-images")
    assert r.exit_code == 0, r.stderr
    assert Handler.requests == []
    assert records(jfi)["fi-0001"]["image_sha256"] == hashlib.sha256(GIF).hexdigest()


def test_dry_run_writes_nothing(jfi, server):
    jfi.write_corpus([item(id="fi-0001", image_url=server + "/ok.png")])
    before = snapshot(jfi.project)
    Handler.requests.clear()
    r = jfi("corpus", "fetch-images", "--dry-run")
    assert r.exit_code == 0 and "would fetch" in r.stdout
    assert snapshot(jfi.project) == before and Handler.requests == []


def test_verify_reports_missing_mismatched_and_orphans(example):
    assert example("corpus", "fetch-images", "--verify").exit_code == 0
    images = example.project / "corpus" / "images"
    (images / "fi-0001.png").write_bytes(b"changed")
    (images / "fi-0003.gif").unlink()
    (images / "stray.png").write_bytes(PNG)
    r = example("corpus", "fetch-images", "--verify")
    assert r.exit_code == 2
    assert "hash_mismatch: corpus/images/fi-0001.png" in r.stderr
    assert "missing_copy: corpus/images/fi-0003.gif" in r.stderr
    assert "orphan:" in r.stdout and "stray.png" in r.stdout


def test_a_harvest_project_archives_its_images_exactly_as_pinned(jfi, server):
    import base64

    from test_profiles import harvest_item

    pinned = hashlib.sha256(PNG).hexdigest()
    jfi.write_corpus(
        [
            harvest_item(1, image_url=server + "/ok.png", image_file="pool/images/fi-0001.png", image_sha256=pinned),
            harvest_item(2, image_url=server + "/ok.png", image_file="pool/images/fi-0002.png", image_sha256="0" * 64),
            harvest_item(3, image_url="data:image/gif;base64," + base64.b64encode(GIF).decode()),
            harvest_item(
                4,
                status="dropped",
                review_verdict="drop",
                review_reason="The alt is the file name.",
                alt_quality="wrong",
                image_url=server + "/ok.png",
            ),
            harvest_item(5, image_url=server + "/ok.png", image_file="../outside.png", image_sha256=pinned),
        ]
    )
    r = jfi("corpus", "fetch-images")
    assert r.exit_code in (1, 2), r.stderr
    if r.exit_code == 2:  # an image_file leaving the project is refused before anything is fetched
        assert "unsafe_path" in r.stderr and not (jfi.project / "pool").exists()
        lines = jfi.corpus.read_text().splitlines()
        jfi.corpus.write_text("\n".join(lines[:-1]) + "\n")
        r = jfi("corpus", "fetch-images")
    assert r.exit_code == 1, r.stderr  # fi-0002's bytes do not hash as pinned
    pool = jfi.project / "pool" / "images"
    assert (pool / "fi-0001.png").read_bytes() == PNG and not (pool / "fi-0002.png").exists()
    assert "fi-0002" in r.stderr and "not the 000000000000" in r.stderr
    recs = records(jfi)
    assert recs["fi-0003"]["image_file"] == "pool/images/fi-0003.gif" and (pool / "fi-0003.gif").read_bytes() == GIF
    assert recs["fi-0001"]["image_sha256"] == pinned and recs["fi-0004"]["image_file"] is None
    assert sorted(p.name for p in pool.iterdir()) == ["fi-0001.png", "fi-0003.gif"]
