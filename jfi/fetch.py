"""GET over http(s) with bounds, for what jfi takes from the web (image copies, sitemaps): http(s) only, redirects
only to http(s) and at most MAX_REDIRECTS of them, a timeout, and a size limit."""
from __future__ import annotations

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
    """(bytes, content type) of an http(s) URL; ValueError for another scheme or a body over max_bytes, OSError
    (urllib's errors) when it cannot be fetched."""
    if urllib.parse.urlsplit(url).scheme.lower() not in ("http", "https"):
        raise ValueError("only http(s) URLs are fetched")
    opener = urllib.request.build_opener(_LimitedRedirects())
    request = urllib.request.Request(url, headers={"User-Agent": agent, "Accept": accept})
    with opener.open(request, timeout=timeout_s) as resp:
        data = resp.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise ValueError(f"larger than {max_bytes // (1024 * 1024)} MiB")
        return data, resp.headers.get("Content-Type", "")
