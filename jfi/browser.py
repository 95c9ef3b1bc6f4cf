"""Finding and starting Chromium for Playwright: its own browser first, then JFI_CHROMIUM, then Debian's."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import JfiError

DEBIAN_CHROMIUM = "/usr/lib/chromium/chromium"
# Quiet, closed-network-friendly flags: no background traffic, no sandbox (containers run as root).
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
