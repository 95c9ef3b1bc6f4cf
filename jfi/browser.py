"""Finding and starting Chromium for Playwright: its own browser first, then JFI_CHROMIUM, then Debian's."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .errors import JfiError

DEBIAN_CHROMIUM = "/usr/lib/chromium/chromium"
# Quiet, closed-network-friendly flags: no background traffic, no sandbox (containers run as root).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage",
                 "--force-webrtc-ip-handling-policy=disable_non_proxied_udp"]
INSTALL_HINT = ("install one with `python -m playwright install chromium`, or on Debian `apt-get install -y chromium`, "
                "or point JFI_CHROMIUM at a Chromium executable")


def playwright_chromium() -> str | None:
    """The browser `python -m playwright install chromium` put in place, if any."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a dependency
        return None
    try:
        with sync_playwright() as p:
            path = p.chromium.executable_path
    except Exception:
        return None
    return path if path and Path(path).is_file() else None


def find_chromium() -> str | None:
    """None means Playwright's own browser is installed and needs no path; else a path, or an error."""
    if playwright_chromium():
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


def launch_options() -> dict:
    """Keyword arguments for `chromium.launch`: the executable and an environment whose HOME is a
    throw-away folder, so that Chromium never writes into the user's home."""
    executable = find_chromium()
    home = tempfile.mkdtemp(prefix="jfi-chromium-home-")
    env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": home, "XDG_CACHE_HOME": home}
    options = {"headless": True, "args": CHROMIUM_ARGS, "env": env}
    if executable:
        options["executable_path"] = executable
    return options


def main() -> int:
    """`python -m jfi.browser`: print the Chromium jfi would use; exit 1 when there is none."""
    try:
        path = find_chromium()
    except JfiError as e:
        print(e.message)
        return 1
    print(path or "Playwright's own Chromium")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
