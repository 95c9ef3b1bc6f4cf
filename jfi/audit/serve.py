"""Serving a folder of pages on 127.0.0.1, so a capture can run against a local site."""
from __future__ import annotations

import functools
import threading
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

from ..errors import JfiError


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the capture reports; the server stays silent
        pass


@contextmanager
def serve_folder(folder, port: int = 0):
    """Yield the origin (http://127.0.0.1:PORT) of a read-only static server for `folder`."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    try:
        httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as e:
        raise JfiError("port_unavailable", f"cannot serve {folder} on 127.0.0.1:{port}: {e.strerror}") from None
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
