"""Purpose-built pages for the capture tests, one per capture rule, served on 127.0.0.1 by the suite."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head><body>{body}</body></html>'
)

NAMES = """
<main>
<span id="lb1">Labelled by span</span><span id="lb2">and more</span>
<a id="l-lb" href="/a" aria-labelledby="lb1 lb2" aria-label="ignored label">text ignored</a>
<a id="l-al" href="/b" aria-label="Aria label wins">visible text</a>
<a id="l-content" href="/c">  Plain   content  </a>
<a id="l-img" href="/d"><img src="/x.png" alt="Image alt name"></a>
<a id="l-title" href="/e" title="Title only name"></a>
<a id="l-none" href="/f"></a>
<div role="heading" aria-level="3">Role heading</div>
<h2><img src="/y.png" alt="Heading from alt"></h2>
<h4></h4>
<input id="f-lb" aria-labelledby="lb1" aria-label="Aria label field">
<input id="f-al" aria-label="Aria label field">
<label for="f-for">For label</label><input id="f-for" type="email">
<label>Wrapping label <input id="f-wrap" type="text"></label>
<input id="f-ph" placeholder="Placeholder only">
<input id="f-title" title="Title only">
<input id="f-none" type="number" required>
<input type="hidden" name="h"><input type="submit"><input type="image" src="/go.png" alt="Go">
<textarea id="f-ta" aria-describedby="help"></textarea><p id="help">Plain words please.</p>
<fieldset><legend>Delivery</legend><select id="f-sel" aria-label="Speed"><option>Fast</option></select></fieldset>
</main>
"""

IMAGES = """
<main>
<img id="no-alt" src="/n.png">
<img id="empty-alt" src="/e.png?v=2" alt="">
<img id="with-alt" src="/dir/w.png" alt="A harbor at dusk">
<a href="/home"><img id="in-link" src="/logo.png" alt="Home"></a>
<a href="/about">About <img id="in-link-text" src="/i.png" alt=""></a>
<button><img id="in-button" src="/b.png" alt="Search"></button>
<span role="link" tabindex="0"><img id="in-role-link" src="/r.png" alt="Next"></span>
<svg id="outer" width="20" height="20" aria-label="Chart"><title>Sales chart</title><svg id="inner" width="10" height="10">
</svg></svg>
<svg id="hidden-svg" aria-hidden="true" width="10" height="10"></svg>
<figure><img id="fig" src="/f.png" alt="Figure"><figcaption>A caption</figcaption></figure>
<div aria-hidden="true"><img id="under-hidden" src="/u.png" alt="u"></div>
<div role="img" aria-label="Role image"></div>
<canvas id="cv" width="10" height="10"></canvas>
<img src="data:image/png;base64,iVBORw0KGgo=" alt="data">
</main>
"""

SKIP = """
<a href="#1bad">Skip to content</a>
<a href="#main">Skip navigation</a>
<a href="#">Skip to top</a>
<main id="main"><h1>Skip links</h1></main>
"""


def caps_page():
    links = "".join(f'<a href="/p{i}">Link {i}</a>' for i in range(600))
    fields = "".join(f'<input aria-label="Field {i}">' for i in range(130))
    return f"<main><h1>Many</h1>{links}{fields}</main>"


ROUTES = {
    "/names.html": ("Names", NAMES),
    "/images.html": ("Images", IMAGES),
    "/skip.html": ("Skip", SKIP),
    "/caps.html": ("Caps", caps_page()),
    "/plain.html": (
        "Plain",
        "<header><nav><a href='/'>Home</a><a href='/x'>X</a></nav></header><main><h1>Plain</h1><p>Hello.</p></main>",
    ),
}


SEEN: list[tuple[str, str, str]] = []  # (method, Host header, path) of every request the server received
REDIRECTS: dict[str, str] = {}  # path -> where a 302 sends it


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_POST(self):
        SEEN.append(("POST", self.headers.get("Host", ""), self.path))
        self.send_response(204)
        self.end_headers()

    def do_GET(self):
        SEEN.append(("GET", self.headers.get("Host", ""), self.path))
        path = self.path.split("?")[0]
        if path in REDIRECTS:
            self.send_response(302)
            self.send_header("Location", REDIRECTS[path])
            self.end_headers()
            return
        if path == "/away":
            self.send_response(302)
            host, port = self.server.server_address[:2]
            self.send_header("Location", f"http://localhost:{port}/plain.html")
            self.end_headers()
            return
        if path == "/never":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<!doctype html><html><head><title>Never</title></head><body><p>still loading")
            self.wfile.flush()
            time.sleep(15)  # bounded, so the test server can stop
            return
        if path in ROUTES:
            title, body = ROUTES[path]
            data = PAGE.format(title=title, body=body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
        else:
            data = b"<html><body>not found</body></html>"
            self.send_response(404)
            self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def start():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


ROUTES["/busy.html"] = ("Busy", "<p>busy</p><script>setTimeout(() => { for (;;) {} }, 100)</script>")
