"""The browser's part of a capture: each view loaded in Chromium, read-only, in a reused tab, and inventoried into
the content-inventory/v1 view shape (records and screenshots, in the views' order)."""

from __future__ import annotations

import asyncio
import os
import re
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from .. import audit_toml, phases
from ..browser import chromium
from ..errors import JfiError
from ..progress import Progress
from . import axe, axnames, reveal
from .routing import FolderSite, Guard, Sink, origin_of
from .views import View

CAPS = {"headings": 250, "links": 500, "images": 250, "fields": 120, "nav_links": 120}
NETWORK_IDLE_MS = 8000
# a served folder's page is still once it has loaded and no request of it has been open for this long: the routing
# answers every request at once, where Playwright's network idle (500 ms without a connection) waits for a network
QUIET_MS = 100
WHAT_THIS_IS = (
    "Content inventory (title, headings, links in context, images with alternatives, form labels, "
    "navigation link maps) for each listed URL at each listed viewport. Nothing was activated. Substrate for the "
    "draft-judgment pass; it is not coverage, not a scan result, and never a criterion outcome."
)
METHOD_BOUNDARY = [
    "Accessible names and roles are Chromium's own (DevTools protocol, Accessibility domain); a DOM approximation in "
    "one order (aria-labelledby > aria-label > native label or alt > text content > title) is kept beside them as "
    "dom_name and stands only where the tree is unavailable (marked needs_human); name_source records which won.",
    "Link context is the nearest enclosing text block (p/li/td/dd/label/section/div) clipped to 220 chars; heading "
    "section_preview is the next sibling text clipped to 200 chars.",
    "Per-view caps: headings 250, links 500, images 250, fields 120, nav items 120 per landmark; capped views are "
    "flagged in `capped` and the true totals are recorded.",
    "Each view at the viewports listed in the run header (one record per view and viewport); an element hidden at one "
    "width and shown at another is one unit with both occurrences. Surfaces hidden at a width share the same DOM and "
    "are captured with visible:false there.",
    "Pictures: the screenshot (the page from the top, at most 10,000 px) and pictures of what it does not show are "
    "each taken in a viewport of their own size, once the page is still; every element's box is measured in the "
    "state its picture shows (a header that compacts, a layout that changes with the viewport) and the view's notes "
    "say how many moved from where the page was read.",
    "axe-core (the version axe-playwright-python ships) checks each view after the inventory and before the pictures, for "
    "the WCAG 2.x A and AA rules unless audit.toml chooses; its violations and incomplete results are recorded per "
    "view under `axe` (up to 500 nodes; the rest counted).",
    "Read-only: only GETs to the view's own origin are let through (other requests are blocked and counted in "
    "environment_notes; beneath the routing the browser's only network is a proxy that refuses everything but a "
    "live view's own origin, so prefetches, prerenders, workers' sockets and redirects reach no other host or port "
    "and are counted too), popups are closed unloaded; reducedMotion=reduce; a per-view time budget; a navigation "
    "error, an HTTP error page or a navigation to another origin (never followed) is an environment note, never "
    "product evidence.",
]
PAGE_SCRIPT = (Path(__file__).with_name("inventory.js")).read_text(encoding="utf-8")
ANY_URL = re.compile(".*")
# WebRTC reaches hosts and ports by UDP and TCP outside request routing: gone from every frame before a page script
# runs (Chromium also runs with non-proxied UDP off, see jfi.browser)
NO_WEBRTC = """(() => { for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel",
  "RTCIceCandidate", "RTCSessionDescription", "RTCRtpSender", "RTCRtpReceiver", "RTCRtpTransceiver",
  "RTCIceTransport", "RTCDtlsTransport", "RTCSctpTransport", "RTCCertificate", "RTCEncodedAudioFrame",
  "RTCEncodedVideoFrame", "RTCRtpScriptTransform"]) {
  try { Object.defineProperty(globalThis, name, {value: undefined, writable: false, configurable: false}); } catch (e) {}
} })();"""


def viewport_id(size: tuple[int, int]) -> str:
    """A viewport's name: its class by width (phone below 600 px, tablet below 1024, desktop) and its width."""
    kind = "phone" if size[0] < 600 else "tablet" if size[0] < 1024 else "desktop"
    return f"{kind}-{size[0]}"


@dataclass
class Options:
    viewports: tuple[tuple[int, int], ...] = ((1440, 900),)  # each view is captured at each, in this order
    workers: int | None = 1  # None: default_workers() for the pages to capture and their settle
    screenshots: bool = True
    nav_timeout_ms: int = 30000
    engagement: str | None = None
    urls_source: str = "argv"
    view_budget_s: float | None = None
    site: FolderSite | None = None  # a folder answered under a fixed origin, with no server
    accessibility_tree: bool = True  # ask Chromium for each element's computed name (off only to measure its cost)
    axe: dict | None = None  # axe-core's run options (jfi.capture.axe.options); None: axe does not run

    @property
    def viewport(self) -> tuple[int, int]:
        return self.viewports[0]

    @property
    def viewport_id(self) -> str:
        return viewport_id(self.viewport)

    def budget_s(self, view: View) -> float:
        """The most one view may take: navigation, network idle, settle, and time to read the page."""
        if self.view_budget_s:
            return self.view_budget_s
        return (self.nav_timeout_ms + NETWORK_IDLE_MS + view.settle_ms) / 1000 + 30


VIEWS_PER_TAB = 4  # a tab's first page pays for its renderer's start: with short waits, each tab takes this many pages
SHORT_SETTLE_MS = 500  # a settle shorter than this is a short wait (a longer one is better waited in another tab)


def default_workers(pages: int, settle_ms: float = 0) -> int:
    """Pages captured at once: three per core, at most eight (200 views on 2 cores with tabs reused: 99 views/min with
    2 at once, 143 with 3, 156 with 4, 165 with 6, 161 with 8). When the pages wait little (`settle_ms`, their mean
    settle, under SHORT_SETTLE_MS), no more tabs than give each VIEWS_PER_TAB pages, as a tab's start costs more than
    it saves (2 cores, 5 small pages: settle 0, 3.95 s with 1 tab and 5.00 with 5; settle 300, 3.95 s with 2 and 4.91
    with 5; 13 real pages, settle 200: 14.3 s with 3, 16.1 with 6); pages that wait longer are waited for side by side
    (settle 800: 5.14 s with 2, 4.88 with 5; settle 2600, the default: 10.77 s with 2, 5.95 with 5)."""
    most = max(1, min(8, 3 * (os.cpu_count() or 1)))
    return max(1, min(most, pages if settle_ms >= SHORT_SETTLE_MS else -(-pages // VIEWS_PER_TAB)))


def parse_viewport(text: str, source: str | None = None) -> tuple[int, int]:
    try:
        if not re.fullmatch(r"[0-9]{3,5}x[0-9]{3,5}", text.lower().strip()):
            raise ValueError
        w, h = (int(x) for x in text.lower().strip().split("x"))
        if w < 100 or h < 100 or w > 10000 or h > 10000:
            raise ValueError
    except ValueError:
        what = "a viewport" if source else "--viewport"
        raise JfiError(
            "invalid_viewport",
            f"{what} must be WIDTHxHEIGHT in pixels, 100 to 10000 (e.g. 1440x900), got {text!r}",
            source=source,
            exit_code=2 if source else 3,
        ) from None
    return w, h


MAX_VIEWPORTS = 4


def _strings(table: dict, key: str, where: str | None, example: str) -> list[str] | None:
    value = table.get(key)
    if value is not None and (
        not isinstance(value, list)
        or not value
        or not all(isinstance(t, str) and t.strip() for t in value)
        or len(value) > 200
    ):
        raise JfiError("invalid_config", f"{key} must be a list of strings, such as {example}", source=where, field=key)
    return value


def axe_of(off: bool, config: Path) -> dict | None:
    """axe-core's run options for a capture: off with --no-axe or `[axe] enabled = false`; the rules or tags
    audit.toml's [axe] table chooses (`rules = ["image-alt"]` or `tags = ["wcag2a"]`), else WCAG 2.x A and AA."""
    table, where = audit_toml.table(config, "axe")
    unknown = sorted(set(table) - {"enabled", "tags", "rules"})
    if unknown:
        raise JfiError(
            "invalid_config",
            f"[axe] has unknown key(s) {', '.join(unknown)} (enabled, tags, rules)",
            source=where,
            field=unknown[0],
        )
    if "enabled" in table and not isinstance(table["enabled"], bool):
        raise JfiError("invalid_config", "[axe] enabled must be true or false", source=where, field="enabled")
    tags = _strings(table, "tags", where, '["wcag2a", "wcag2aa"]')
    rules = _strings(table, "rules", where, '["image-alt", "link-name"]')
    if tags and rules:
        raise JfiError("invalid_config", "[axe] chooses tags or rules, not both", source=where, field="rules")
    if off or table.get("enabled") is False:
        return None
    return axe.options(tags, rules)


def viewports_of(texts: list[str] | None, config: Path) -> tuple[tuple[int, int], ...]:
    """The viewports a capture uses: those given (--viewport, repeatable), else audit.toml's `[capture] viewports`
    in the audit folder, else one desktop viewport, 1440x900. Each must have its own width (its id names files)."""
    source, where = "--viewport", None
    if not texts:
        table, where = audit_toml.table(config, "capture")
        texts, source = _strings(table, "viewports", where, '["1440x900", "390x844"]'), "viewports"
    sizes = tuple(parse_viewport(t, source=where) for t in texts or ["1440x900"])
    ids = [viewport_id(v) for v in sizes]
    if len(sizes) > MAX_VIEWPORTS or len(set(ids)) < len(ids):
        raise JfiError(
            "invalid_viewport",
            f"{source}: at most {MAX_VIEWPORTS} viewports, each of its own width (got {', '.join(ids)})",
            source=where,
            field=source,
            exit_code=2 if where else 3,
        )
    return sizes


def describe(rec: dict) -> str:
    if rec["inventory"] is None:
        return f"environment note: {rec['nav_error'] or 'left the route host for ' + rec['final_url']}"
    c = rec["inventory"]["counts"]
    return (
        f"headings {c['headings']}, links {c['links']}/{c['links_total']}, images {c['images']}/{c['images_total']}, "
        f"fields {c['fields']}, navs {c['navs']}"
    )


# Read once the page's fonts are loaded (a box measured in a fallback font differs from one in the page's own, and
# which one a view gets must not depend on the views captured before it in the same tab) and two frames are drawn.
SETTLED = """() => Promise.race([
    document.fonts.ready.then(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))),
    new Promise(done => setTimeout(done, %d))])"""
FONTS_MAX_MS = 5000


class Requests:
    """The requests a page has open, as its events say (a served folder's: each answered or refused by the routing)."""

    def __init__(self, page):
        self.page, self.open, self.last = page, set(), time.monotonic()
        self.events = {"request": self._opened, "requestfinished": self._closed, "requestfailed": self._closed}
        for event, listener in self.events.items():
            page.on(event, listener)

    def _opened(self, request) -> None:
        self.open.add(request)
        self.last = time.monotonic()

    def _closed(self, request) -> None:
        self.open.discard(request)
        self.last = time.monotonic()

    def close(self) -> None:
        for event, listener in self.events.items():
            self.page.remove_listener(event, listener)

    async def quiet(self, timeout_ms: int) -> None:
        """Once the page has loaded and no request has been open for QUIET_MS."""
        await self.page.wait_for_load_state("load", timeout=timeout_ms)
        end = time.monotonic() + timeout_ms / 1000
        while time.monotonic() < end:
            if not self.open and time.monotonic() - self.last >= QUIET_MS / 1000:
                return
            await asyncio.sleep(0.02)


async def _still(page, requests: Requests | None) -> None:
    """Until the page is still: Playwright's network idle, or (a served folder) its requests quiet, whichever comes
    first; a page that never is, NETWORK_IDLE_MS at most (it is captured after the settle time all the same)."""
    waits = [asyncio.ensure_future(page.wait_for_load_state("networkidle", timeout=NETWORK_IDLE_MS))]
    if requests is not None:
        waits.append(asyncio.ensure_future(requests.quiet(NETWORK_IDLE_MS)))
    _, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for wait in pending:
        wait.cancel()
    # how each wait ended (a timeout, the page gone, cancelled here) says nothing: the page is read as it is; the view
    # itself cancelled (its time budget) still ends here, as gather passes its own cancellation on
    await asyncio.gather(*waits, return_exceptions=True)


async def _settled(page) -> None:
    try:
        await page.evaluate(SETTLED % FONTS_MAX_MS)
    except Exception:
        pass  # a page that navigated away or threw is read as it is; the capture below says what went wrong


async def _visit(
    context, page, view: View, opts: Options, rec: dict, shots: dict, guard: Guard, deadline: float
) -> None:
    clock = time.perf_counter()

    def lap(name: str) -> None:  # the view's time so far, added to a phase (JFI_PROFILE)
        nonlocal clock
        now = time.perf_counter()
        phases.add(f"capture: {name}", now - clock)
        clock = now

    requests = Requests(page) if opts.site is not None else None  # heard from before the first request
    try:
        try:
            response = await page.goto(view.url, wait_until="domcontentloaded", timeout=opts.nav_timeout_ms)
            if response is not None and response.status >= 400:
                rec["nav_error"] = f"HTTP {response.status} {response.status_text}".strip()
        except Exception as e:  # Playwright raises its own error types for every navigation failure
            rec["nav_error"] = str(e).splitlines()[0][:200]
        if rec["nav_error"] is None:
            await _still(page, requests)
    finally:
        if requests is not None:
            requests.close()
    if rec["nav_error"] is None:
        lap("page load (until still)")
        await page.wait_for_timeout(view.settle_ms)
        await _settled(page)
        lap("settle (--settle, fonts, two frames)")
    rec["final_url"] = page.url
    rec["stayed_on_route_host"] = urllib.parse.urlsplit(page.url).netloc == urllib.parse.urlsplit(view.url).netloc
    if guard.off_host:  # a redirect or script navigation toward another origin was stopped, never followed
        rec["final_url"], rec["stayed_on_route_host"] = guard.off_host, False
        rec["nav_error"] = "navigation to another origin not followed"
    if rec["nav_error"] is None and rec["stayed_on_route_host"]:
        try:
            if opts.accessibility_tree:
                rec["inventory"], notes = await axnames.capture(page, PAGE_SCRIPT, CAPS)
                guard.extra_notes += notes
            else:
                rec["inventory"] = await page.evaluate(PAGE_SCRIPT, CAPS)
        except Exception as e:
            rec["nav_error"] = f"capture failed: {str(e).splitlines()[0][:180]}"
            return
        lap("inventory script and accessibility tree")
        if opts.axe is not None:  # before the pictures: its nodes' boxes are measured in each picture's state too
            rec["axe"] = await axe.check_within(page, opts.axe, axnames.AX_MAX_ELEMENTS, deadline - time.monotonic())
            lap("axe-core")
        if opts.screenshots:
            shot = f"screenshots/{view.view_id}__{rec['viewport']}.png"
            # the page as far down as SHOT_MAX_HEIGHT, so that a report can crop around elements below the fold, with
            # pictures of what it does not show; a page too large for the accessibility tree gets the viewport alone
            # (drawing it whole takes minutes)
            height, size = await page.evaluate(
                "() => [Math.max(document.documentElement.scrollHeight, innerHeight), "
                "document.getElementsByTagName('*').length]"
            )
            width = page.viewport_size["width"] if page.viewport_size else 1280
            try:
                if size > axnames.AX_MAX_ELEMENTS:
                    shots[shot] = await page.screenshot()
                    rec["screenshot"] = shot
                else:
                    things = reveal.elements(rec["inventory"]) + reveal.axe_nodes(rec.get("axe"))
                    guard.extra_notes += await reveal.pictures(
                        page, rec, shots, shot, things, width, height, deadline - 10
                    )
            except Exception as e:  # the inventory stands; the view has what pictures were taken, and says why not more
                guard.extra_notes.append(
                    f"no screenshot: {str(e).splitlines()[0][:160]}"
                    if not rec.get("screenshot")
                    else f"pictures of what the screenshot does not show stopped: {str(e).splitlines()[0][:160]}"
                )
            lap("screenshot and pictures of what it does not show")


class Tabs:
    """Browser tabs reused from view to view, one per page captured at once. A new context and tab per view start a
    renderer process each time, which cost more CPU than the capture itself (200 views on 2 cores: 74 views/min with
    a new tab each, see README); a tab navigated from view to view keeps its renderer. Between views a tab is emptied:
    its routes and listeners removed, popups closed, everything the view's origin stored (cookies, localStorage,
    sessionStorage, IndexedDB, cache storage) cleared through the DevTools protocol, permissions reset, and the tab
    sent to about:blank with an empty window.name — the guard lets no other origin load, so the next view starts as
    in a new context. A tab that does not empty cleanly is closed with its context; the next view gets a new one."""

    def __init__(self, browser, opts: Options):
        self.browser, self.opts, self.free = browser, opts, []
        self.sinks: dict = {}  # each context -> its Sink (jfi.capture.routing): its only way to the network

    async def take(self, origin: str):
        """A tab for a view of `origin`: a free one whose context may reach that origin, else a new context, whose
        network is a Sink letting through only that origin when the view is live (nothing when served)."""
        reach = None if self.opts.site is not None else origin
        for n, (context, page, allowed) in enumerate(self.free):
            if allowed == reach:
                del self.free[n]
                return context, page, allowed
        sink = await Sink().start()
        try:
            context = await self.browser.new_context(
                viewport={"width": self.opts.viewport[0], "height": self.opts.viewport[1]},
                locale="en-US",
                reduced_motion="reduce",
                service_workers="block",
                proxy=sink.proxy(reach),
            )
        except BaseException:
            await sink.close()
            raise
        self.sinks[context] = sink
        await context.add_init_script(NO_WEBRTC)
        return context, await context.new_page(), reach

    def watch(self, tab, guard: Guard) -> None:
        """What the tab's sink refuses counts against this view."""
        self.sinks[tab[0]].guard = guard

    async def close(self) -> None:
        """Every context still open closed with its sink (a shared browser outlives this capture)."""
        for context, sink in self.sinks.items():
            try:
                await asyncio.wait_for(context.close(), timeout=10)
            except Exception:
                pass
            await sink.close()
        self.sinks, self.free = {}, []

    async def give_back(self, tab, guard: Guard, *, reuse: bool = True) -> None:
        """The tab emptied for the next view; closed with its context when it does not empty cleanly, or when `reuse`
        is False (a view that ran out of its time budget: its page may still be running a script, which would hold
        the emptying up to its own time limit)."""
        if reuse:
            try:
                if tab[0] in self.sinks:
                    self.sinks[tab[0]].guard = None
                await asyncio.wait_for(self._empty(*tab[:2], guard), timeout=10)
                self.free.append(tab)
                return
            except Exception:
                pass
        try:
            await asyncio.wait_for(tab[0].close(), timeout=10)
        except Exception:
            pass
        sink = self.sinks.pop(tab[0], None)
        if sink is not None:
            await sink.close()

    @staticmethod
    async def _empty(context, page, guard: Guard) -> None:
        await context.unroute_all(behavior="ignoreErrors")
        for other in context.pages:
            if other is not page:
                await other.close()
        cdp = await context.new_cdp_session(page)
        try:
            await cdp.send("Storage.clearDataForOrigin", {"origin": guard.origin, "storageTypes": "all"})
        finally:
            await cdp.detach()
        await page.goto("about:blank")
        await page.evaluate("window.name = ''")
        await context.clear_cookies()
        await context.clear_permissions()


async def _capture_view(
    tabs: Tabs, view: View, opts: Options, shots: dict, size: tuple[int, int] | None = None
) -> dict:
    size = size or opts.viewport
    rec = {
        "view_id": view.view_id,
        "product": view.product,
        "url": view.url,
        "viewport": viewport_id(size),
        "nav_error": None,
        "final_url": None,
        "stayed_on_route_host": False,
        "load_ms": None,
        "inventory": None,
        "screenshot": None,
        "environment_notes": [],
    }
    started = time.monotonic()
    tab = await tabs.take(origin_of(view.url))
    context, page = tab[:2]
    if page.viewport_size != {"width": size[0], "height": size[1]}:
        await page.set_viewport_size({"width": size[0], "height": size[1]})
    guard = Guard(view.url, opts.site)
    guard.main_page = page
    tabs.watch(tab, guard)
    await context.route("**/*", guard.handle)
    await context.route_web_socket(ANY_URL, guard.on_web_socket)  # answered here: no socket reaches any server
    context.on("page", guard.on_page)  # any other page is a popup
    over_budget = False
    try:
        await asyncio.wait_for(
            _visit(context, page, view, opts, rec, shots, guard, started + opts.budget_s(view)),
            timeout=opts.budget_s(view),
        )
    except asyncio.TimeoutError:
        over_budget = True
        rec["nav_error"] = f"view time budget of {opts.budget_s(view):.0f} s exceeded"
        rec["inventory"], rec["screenshot"] = None, None
    finally:
        rec["load_ms"] = round((time.monotonic() - started) * 1000)
        rec["environment_notes"] = guard.notes()
        context.remove_listener("page", guard.on_page)
        with phases.phase("capture: emptying the tab for the next view"):
            await tabs.give_back(tab, guard, reuse=not over_budget)
    if rec["inventory"] is None and rec["screenshot"]:
        for name in [rec["screenshot"], *rec.pop("reveals", [])]:
            shots.pop(name, None)
        rec["screenshot"] = None
    return rec


async def _capture_all(views: list[View], opts: Options, *, progress: bool = True) -> tuple[list[dict], dict]:
    """Every view's record, in the views' order, and the screenshots; `progress`: shown on stderr (a cluster's worker
    leaves it to the machine that asked)."""
    shown = Progress(len(views) * len(opts.viewports), "views", "environment note(s)") if progress else None
    shots: dict[str, bytes] = {}
    async with chromium() as browser:
        pages = len(views) * len(opts.viewports)
        settle = sum(v.settle_ms for v in views) / len(views) if views else 0
        gate = asyncio.Semaphore(max(1, opts.workers or default_workers(pages, settle)))
        tabs = Tabs(browser, opts)

        async def one(view: View, size: tuple[int, int]) -> dict:
            async with gate:
                rec = await _capture_view(tabs, view, opts, shots, size)
                if shown is not None:
                    at = f" at {rec['viewport']}" if len(opts.viewports) > 1 else ""
                    shown.step(rec["inventory"] is not None, f"{rec['view_id']}{at}: {describe(rec)}")
                return rec

        try:
            records = await asyncio.gather(*(one(v, size) for v in views for size in opts.viewports))
        finally:
            await tabs.close()
    return list(records), shots
