"""What a capture lets through: every request of a view passes here (Playwright request routing).

- A served folder is answered from disk under a fixed origin, with no server and no port: unit ids, which hash the
  URL, are the same on every run.
- Capture is read-only in fact: non-GET requests, requests to another origin than the view's, anything a popup
  asks for and every WebSocket are blocked and counted; a top-level navigation (a redirect included) to another
  origin is not followed.
- Beneath the routing, each browser context talks to the network only through its own Sink: a proxy on loopback
  that lets nothing through. What the routing never sees (speculation-rules prefetch and prerender, a worker's
  WebSocket or fetch, a redirect a subresource was answered with) reaches no server: the attempt is refused there
  and counted in the view's notes. Only a live view's own origin bypasses it (a served folder needs no network).
"""

from __future__ import annotations

import asyncio
import mimetypes
import re
import urllib.parse
from pathlib import Path

DEFAULT_ORIGIN = "http://127.0.0.1:8766"
TEXT_TYPES = (
    "text/",
    "application/javascript",
    "application/json",
    "application/xml",
    "image/svg+xml",
    "application/xhtml+xml",
    "application/manifest+json",
)


def origin_of(url: str) -> str:
    """scheme://host[:port] of a URL, lower-cased, the default port left out."""
    parts = urllib.parse.urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    port = parts.port
    if port is None or (scheme, port) in (("http", 80), ("https", 443)):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def content_type(path: Path) -> str:
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if kind.startswith(TEXT_TYPES):
        kind += "; charset=utf-8"  # a page without <meta charset> is still read as UTF-8
    return kind


SERVE_MAX = 64 * 1024 * 1024  # bytes of one file a served folder answers with (a larger one is not read)


class TooLarge(Exception):
    """A file of the served folder larger than SERVE_MAX: answered as an error, never read."""


class FolderSite:
    """A folder answered under an origin: /a/b.html is ROOT/a/b.html, a folder's index.html, else 404; a file over
    SERVE_MAX raises TooLarge (its size is read, not its bytes: a sparse file of gigabytes costs nothing)."""

    def __init__(self, root: Path, origin: str = DEFAULT_ORIGIN):
        self.root, self.origin = Path(root).resolve(), origin_of(origin)

    def answer(self, url: str) -> tuple[int, str, bytes]:
        path = urllib.parse.unquote(urllib.parse.urlsplit(url).path)
        target = (self.root / path.lstrip("/")).resolve()
        if target != self.root and self.root not in target.parents:
            return 404, "text/plain; charset=utf-8", b"not found"
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            return 404, "text/html; charset=utf-8", b"<!doctype html><title>Not found</title><p>not found</p>"
        if target.stat().st_size > SERVE_MAX:
            raise TooLarge(path)
        with open(target, "rb") as fh:
            data = fh.read(SERVE_MAX + 1)
        if len(data) > SERVE_MAX:  # grew since
            raise TooLarge(path)
        return 200, content_type(target), data


async def _quietly(awaitable) -> None:
    """A routing call whose page may be closing meanwhile."""
    try:
        await awaitable
    except Exception:
        pass


class Guard:
    """The route handler of one view's browser context, with what it blocked."""

    def __init__(self, view_url: str, site: FolderSite | None = None):
        self.origin, self.site = origin_of(view_url), site
        self.main_page = None
        self.blocked = {"non_get": 0, "other_origin": 0, "popups": 0, "websockets": 0, "network": 0, "too_large": 0}
        self.off_host: str | None = None  # where a top-level navigation tried to go
        self.extra_notes: list[str] = []  # notes of the capture itself (e.g. names left to the DOM approximation)

    def notes(self) -> list[str]:
        """The environment notes of what was blocked, one per kind that happened."""
        words = {
            "non_get": "non-GET request(s) blocked",
            "other_origin": "request(s) to another origin blocked",
            "popups": "popup(s) closed unloaded",
            "websockets": "WebSocket(s) closed unconnected",
            "too_large": f"file(s) of the served folder over {SERVE_MAX // 2**20} MiB not served",
            "network": "connection(s) beneath the page's routing refused (prefetch, prerender, a worker's "
            "socket or fetch, a redirect)",
        }
        out = [f"{n} {words[k]}" for k, n in self.blocked.items() if n]
        if self.off_host:
            out.append(f"navigation to another origin not followed: {self.off_host[:200]}")
        return out + self.extra_notes

    async def on_page(self, page) -> None:
        """A page other than the view's own (window.open, target=_blank) is closed before it loads anything."""
        if page is not self.main_page:
            self.blocked["popups"] += 1
            try:
                await page.close()
            except Exception:
                pass

    async def on_web_socket(self, ws) -> None:
        """A WebSocket is answered by the capture and closed: it never connects to any server."""
        self.blocked["websockets"] += 1
        await _quietly(ws.close(code=1008, reason="blocked by the capture"))

    async def handle(self, route, request) -> None:
        try:
            await self._handle(route, request)
        except Exception:  # the view's context closed while the request was in flight
            await _quietly(route.abort("failed"))

    async def _handle(self, route, request) -> None:
        try:
            page = request.frame.page
        except Exception:
            page = None
        if self.main_page is not None and page is not None and page is not self.main_page:
            await route.abort("blockedbyclient")  # a popup's requests: counted when the popup is closed
            return
        if request.method not in ("GET", "HEAD"):
            self.blocked["non_get"] += 1
            await route.abort("blockedbyclient")
            return
        url = request.url
        top_level = request.is_navigation_request() and page is not None and request.frame == page.main_frame
        if origin_of(url) != self.origin:
            if top_level:
                self.off_host = self.off_host or url
            else:
                self.blocked["other_origin"] += 1
            await route.abort("blockedbyclient")
            return
        if self.site is not None and origin_of(url) == self.site.origin:
            try:
                status, kind, body = self.site.answer(url)
            except TooLarge:
                self.blocked["too_large"] += 1
                status, kind, body = 500, "text/plain; charset=utf-8", b"too large to serve"
            await route.fulfill(status=status, headers={"content-type": kind}, body=body)
            return
        if top_level:  # fetched here so that a redirect to another origin is seen before it is followed
            try:
                response = await route.fetch(max_redirects=0)
            except Exception as e:  # the browser reports it as it would its own failure
                text = str(e)
                await _quietly(
                    route.abort(
                        "connectionrefused" if "ECONNREFUSED" in text else "timedout" if "imeout" in text else "failed"
                    )
                )
                return
            location = response.headers.get("location")
            if 300 <= response.status < 400 and location:
                target = urllib.parse.urljoin(url, location)
                if origin_of(target) != self.origin:
                    self.off_host = self.off_host or target
                    await route.abort("blockedbyclient")
                    return
            await route.fulfill(response=response)
            return
        await route.continue_()


# the browser's own calls home (form-field predictions to content-autofill.googleapis.com, hints): refused like
# everything, but not counted against a page, which did not make them (and whose count would vary from run to run)
BROWSER_OWN = re.compile(
    r"^(?:https?://)?[^/:]*\.(?:googleapis|google|gstatic|gvt1|googleusercontent)\.com(?::\d+)?(?:/|$)"
)


class Sink:
    """The proxy of one browser context: every connection the browser opens through it is refused (403) and counted
    against the view the context is capturing (`guard`), never passed on."""

    def __init__(self):
        self.server, self.port, self.guard = None, None, None
        self.targets: list[str] = []  # what each refused connection asked for (its request line's target)

    async def start(self) -> "Sink":
        self.server = await asyncio.start_server(self._refuse, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    def proxy(self, bypass: str | None = None) -> dict:
        """Playwright's proxy option for a context whose network is this sink (`bypass`: an origin let through)."""
        option = {"server": f"http://127.0.0.1:{self.port}"}
        if bypass:
            parts = urllib.parse.urlsplit(bypass)
            option["bypass"] = (
                f"{parts.hostname}:{parts.port or (443 if parts.scheme == 'https' else 80)},.{parts.hostname}"
            )
        return option

    async def _refuse(self, reader, writer) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), timeout=5)
            parts = line.decode("latin-1").split()
            if len(parts) < 2:  # a connection opened ahead of need (a preconnect) that asked for nothing
                return
            self.targets.append(parts[1][:200])
            if self.guard is not None and not BROWSER_OWN.match(parts[1]):
                self.guard.blocked["network"] += 1
            writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            await writer.drain()
        except Exception:
            pass
        finally:
            writer.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
