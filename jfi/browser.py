"""Finding and starting Chromium for Playwright: its own browser first, then JFI_CHROMIUM, then Debian's.

Capture, the report's picture and verify's measurement run their coroutines with `run` and take their browser from
`chromium()`: a Chromium of their own, started and closed around the work. Inside `shared()` (a process that
captures many times: a notebook, a test session) one Playwright driver and one Chromium stay up on an event loop of
their own thread and every `run` uses them; each piece of work still opens its own browser contexts (cookies,
storage, cache, routes) and closes them. Starting the driver and Chromium costs about 0.6 s, which `shared()` pays
once."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import threading
from contextlib import ExitStack, asynccontextmanager, contextmanager
from pathlib import Path
from typing import AsyncIterator, Iterator

from .errors import JfiError

DEBIAN_CHROMIUM = "/usr/lib/chromium/chromium"
# Quiet, closed-network-friendly flags: no background traffic, no sandbox (containers run as root), no site isolation
# (a capture's context reaches one origin, and a reused tab keeps its renderer: docs/choices.md).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--disable-site-isolation-trials",
]
INSTALL_HINT = (
    "install one with `python -m playwright install chromium`, or on Debian `apt-get install -y chromium`, "
    "or point JFI_CHROMIUM at a Chromium executable"
)


def playwright_chromium() -> str | None:
    """The browser `python -m playwright install chromium` put in place, if any (starts Playwright's driver: for
    `python -m jfi.browser`; a command asks the Playwright it runs, `launch_options(pw.chromium)`)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a dependency
        return None
    try:
        with sync_playwright() as p:
            return own_browser(p.chromium)
    except Exception:
        return None


def own_browser(chromium) -> str | None:
    """The executable of Playwright's own Chromium (`chromium`: a started Playwright's BrowserType) when installed."""
    try:
        path = chromium.executable_path
    except Exception:
        return None
    return path if path and Path(path).is_file() else None


def find_chromium(own: str | None) -> str | None:
    """None means Playwright's own browser (`own`, its executable when installed) is used and needs no path; else a
    path, or an error."""
    if own:
        return None
    env = os.environ.get("JFI_CHROMIUM")
    if env:
        if Path(env).is_file() and os.access(env, os.X_OK):
            return env
        raise JfiError("no_browser", f"JFI_CHROMIUM={env} is not an executable file; {INSTALL_HINT}")
    for candidate in (DEBIAN_CHROMIUM, shutil.which("chromium") or "", shutil.which("chromium-browser") or ""):
        if candidate and Path(candidate).is_file():
            return candidate
    raise JfiError("no_browser", f"no Chromium found; {INSTALL_HINT}")


@contextmanager
def launch_options(chromium) -> Iterator[dict]:
    """Keyword arguments for `chromium.launch` (`chromium`: the started Playwright's BrowserType): the executable and
    an environment whose HOME is a throw-away folder, so that Chromium never writes into the user's home. The folder
    is removed when the block ends (close the browser inside it)."""
    executable = find_chromium(own_browser(chromium))
    home = tempfile.mkdtemp(prefix="jfi-chromium-home-")
    try:
        env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": home, "XDG_CACHE_HOME": home}
        options = {"headless": True, "args": CHROMIUM_ARGS, "env": env}
        if executable:
            options["executable_path"] = executable
        yield options
    finally:
        shutil.rmtree(home, ignore_errors=True)


async def _launch(chromium, options: dict):
    try:
        return await chromium.launch(**options)
    except Exception as e:
        raise JfiError("browser_failed", f"Chromium did not start: {str(e).splitlines()[0][:200]}") from None


class _Shared:
    """One Playwright driver and one Chromium on an event loop running in a thread of its own, started on first use
    (again if Chromium went away) and stopped by `close`."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="jfi-chromium", daemon=True)
        self.thread.start()
        self.playwright = self.browser = None
        self.home = ExitStack()  # launch_options' block (Chromium's throw-away HOME), left open till close
        self.options: dict = {}
        self.starting = asyncio.Lock()  # one start at a time

    def run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    async def get(self):
        async with self.starting:
            if self.browser is None or not self.browser.is_connected():
                from playwright.async_api import async_playwright

                if self.playwright is None:
                    self.playwright = await async_playwright().start()
                if not self.options:  # made once (a Chromium not found is asked for again next time)
                    self.options = self.home.enter_context(launch_options(self.playwright.chromium))
                self.browser = await _launch(self.playwright.chromium, self.options)
            return self.browser

    async def _stop(self) -> None:
        try:
            if self.browser is not None:
                await self.browser.close()
        finally:
            if self.playwright is not None:
                await self.playwright.stop()
            self.home.close()

    def close(self) -> None:
        try:
            self.run(self._stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join()
            self.loop.close()


_SHARED: _Shared | None = None  # the browser `shared()` keeps up, while it is entered


@contextmanager
def shared() -> Iterator[None]:
    """Within this block every capture, report picture and verify measurement of this process uses one Chromium,
    started on first use and closed when the block ends (a block entered inside another keeps the outer one's)."""
    global _SHARED
    if _SHARED is not None:
        yield
        return
    _SHARED = keeper = _Shared()
    try:
        yield
    finally:
        _SHARED = None
        keeper.close()


def run(coro):
    """Run a coroutine that takes its browser from `chromium()`: on the shared browser's loop inside `shared()`, else
    in an event loop of its own (`asyncio.run`)."""
    keeper = _SHARED
    return asyncio.run(coro) if keeper is None else keeper.run(coro)


@asynccontextmanager
async def chromium() -> AsyncIterator:
    """A started Chromium: the shared one inside `shared()` (left running), else one of its own, closed at the end."""
    keeper = _SHARED
    if keeper is not None and asyncio.get_running_loop() is keeper.loop:
        yield await keeper.get()
        return
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        with launch_options(pw.chromium) as options:
            browser = await _launch(pw.chromium, options)
            try:
                yield browser
            finally:
                await browser.close()


def main() -> int:
    """`python -m jfi.browser`: print the Chromium jfi would use; exit 1 when there is none."""
    try:
        path = find_chromium(playwright_chromium())
    except JfiError as e:
        print(e.message)
        return 1
    print(path or "Playwright's own Chromium")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
