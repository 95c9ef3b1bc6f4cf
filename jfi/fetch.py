"""GET over http(s) with bounds, for what jfi takes from the web (image copies, sitemaps): http(s) only, redirects
only to http(s) and at most MAX_REDIRECTS of them, a size limit, and a timeout for the whole request: a server that
drips a byte now and then is cut off when the time is up, not when it falls silent."""

from __future__ import annotations

import threading
import urllib.error
import urllib.parse
import urllib.request

MAX_REDIRECTS = 5


class _LimitedRedirects(urllib.request.HTTPRedirectHandler):
    max_redirections = MAX_REDIRECTS

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if urllib.parse.urlsplit(newurl).scheme.lower() not in ("http", "https"):
            raise urllib.error.URLError(f"redirect to a non-http(s) URL: {newurl}")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def get(url: str, *, max_bytes: int, timeout_s: float, accept: str, agent: str) -> tuple[bytes, str]:
    """(bytes, content type) of an http(s) URL within timeout_s in all; ValueError for another scheme or a body over
    max_bytes, OSError (urllib's errors; TimeoutError when the time is up) when it cannot be fetched."""
    if urllib.parse.urlsplit(url).scheme.lower() not in ("http", "https"):
        raise ValueError("only http(s) URLs are fetched")
    done: dict = {}

    def fetch():
        try:
            done["value"] = _get(url, max_bytes, timeout_s, accept, agent)
        except BaseException as e:  # handed to the caller
            done["error"] = e

    worker = threading.Thread(target=fetch, daemon=True)  # left behind when the time is up: it holds no file
    worker.start()
    worker.join(timeout_s)
    if worker.is_alive():
        raise TimeoutError(f"no whole answer within {timeout_s:g} s")
    if "error" in done:
        raise done["error"]
    return done["value"]


def _get(url: str, max_bytes: int, timeout_s: float, accept: str, agent: str) -> tuple[bytes, str]:
    opener = urllib.request.build_opener(_LimitedRedirects())
    request = urllib.request.Request(url, headers={"User-Agent": agent, "Accept": accept})
    with opener.open(request, timeout=timeout_s) as resp:
        data = resp.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise ValueError(f"larger than {max_bytes // (1024 * 1024)} MiB")
        return data, resp.headers.get("Content-Type", "")
