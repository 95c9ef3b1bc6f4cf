"""Pictures whose boxes come from the state the picture shows. A page's layout may change between reading it and
photographing it: a full-page picture lays the page out in a viewport as tall as the picture (`100vh` sections,
`min-height` media queries, headers that compact, lazy images taking their place), and a tile further down is taken
scrolled there (a sticky header that compacts on scroll moves everything under it). So each picture is taken in a
viewport of its own size, scrolled to where it starts, once the page is still; every element's position is measured
in that state just before and just after the picture, and its box in the picture is the box read moved by as much as
the element moved. An element that moved while the picture was taken, or that is drawn nowhere in it, is said so."""

from __future__ import annotations

from pathlib import Path

SCRIPT = Path(__file__).with_name("shoot.js").read_text(encoding="utf-8")
STILL_MS = 600  # the longest wait for the marked elements to stop moving before a picture


async def mark(page, selectors: list[str | None]) -> None:
    """Keep each element's position as the page was read (the state its box was measured in)."""
    await page.evaluate(SCRIPT, {"mark": selectors})


async def picture(page, width: int, top: int, height: int) -> tuple[bytes, list, int]:
    """(PNG bytes of the page from `top`, `width` x `height` px; each marked element's move since it was read, in
    the picture's pixels [dx, dy] or None; the top the page could scroll to). An element that moved between the
    measures before and after the picture has None: no box in the picture can be trusted for it."""
    await page.set_viewport_size({"width": width, "height": height})
    top = await page.evaluate("(y) => { window.scrollTo(0, y); return Math.round(scrollY); }", top)
    await page.evaluate(SCRIPT, {"still": STILL_MS})
    before = await page.evaluate(SCRIPT, {"measure": True})
    data = await page.screenshot()
    after = await page.evaluate(SCRIPT, {"measure": True})
    return data, [b if b == a else None for b, a in zip(before or [], after or [])], top


async def done(page, width: int, height: int) -> None:
    """The marks dropped, the viewport and the scroll as they were."""
    await page.evaluate(SCRIPT, {"done": True})
    await page.set_viewport_size({"width": width, "height": height})
    await page.evaluate("() => window.scrollTo(0, 0)")


def moved(box: dict, delta) -> dict | None:
    """The box read, where the picture shows it (None: not to be trusted in it)."""
    if delta is None or not isinstance(box, dict):
        return None
    return {**box, "x": box["x"] + delta[0], "y": box["y"] + delta[1]}
