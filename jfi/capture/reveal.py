"""Pictures for elements the view's screenshot does not show, so that each has a crop: further down the page than the
screenshot reaches (a whole book on one page) and scrolled out of view inside their containers (a sidebar link below
the sidebar's fold). The first are photographed in tiles of the page as tall as the screenshot, from the first such
element down; the others are brought into view in their containers a screenful at a time and the viewport is
photographed. Each picture is `<view>__<viewport>__N.png`, listed in the view record's `reveals`; an element records
which picture shows it and its box there (`revealed`: {shot: N, box}). The scroll positions are put back afterwards."""
from __future__ import annotations

from pathlib import Path

from ..manifest import SHOT_MAX_HEIGHT

KINDS = ("headings", "links", "images", "fields")
MAX_SHOTS = 6         # screenfuls per view at most: a long sidebar takes a few
MAX_TILES = 12        # tiles below the screenshot per view at most: 12 x 10,000 px of page
MAX_ELEMENTS = 2000   # elements looked for per view at most
SCRIPT = Path(__file__).with_name("reveal.js").read_text(encoding="utf-8")


def _elements(inventory: dict) -> list[dict]:
    return [e for kind in KINDS for e in (inventory.get(kind) or [])
            if isinstance(e, dict) and isinstance(e.get("box"), dict) and e["box"].get("height", 0) > 0
            and e["box"].get("width", 0) > 0 and not e.get("frame") and not e.get("undrawn")][:MAX_ELEMENTS]


async def reveal(page, rec: dict, shots: dict, width: int, height: int, page_height: int) -> None:
    """Photograph the view's elements its screenshot (`width` x `height` px of a page `page_height` px tall) does not
    show; `shots` gets each picture's bytes."""
    elements = _elements(rec["inventory"])
    base, files = rec["screenshot"].removesuffix(".png"), []

    def add(data: bytes) -> int:
        files.append(f"{base}__{len(files) + 1}.png")
        shots[files[-1]] = data
        return len(files)

    below = sorted((e for e in elements if not e.get("clipped") and e["box"]["y"] + e["box"]["height"] > height),
                   key=lambda e: e["box"]["y"])
    tiles = 0
    while below and tiles < MAX_TILES and page_height > height:
        top = max(0, min(below[0]["box"]["y"] - 100, page_height - 1))
        bottom = min(page_height, top + SHOT_MAX_HEIGHT)
        n = add(await page.screenshot(full_page=True, clip={"x": 0, "y": top, "width": width, "height": bottom - top}))
        tiles += 1
        for e in below:
            if e["box"]["y"] + e["box"]["height"] <= bottom:
                e["revealed"] = {"shot": n, "box": {**e["box"], "y": e["box"]["y"] - top}}
        below = [e for e in below[1:] if "revealed" not in e]  # the first goes even when taller than a tile
    pending = [e for e in elements if e.get("clipped") and e.get("selector")]
    if pending:
        try:
            await page.evaluate(SCRIPT, {"targets": [{"selector": e["selector"], "box": e["box"]} for e in pending]})
            left, screens = list(range(len(pending))), 0
            while left and screens < MAX_SHOTS:
                shown = await page.evaluate(SCRIPT, {"next": left})
                if shown:
                    n = add(await page.screenshot())
                    screens += 1
                    for s in shown:
                        pending[s["i"]]["revealed"] = {"shot": n, "box": s["box"]}
                done = {s["i"] for s in shown} | {left[0]}  # the first goes even when nothing could show it
                left = [i for i in left if i not in done]
        finally:
            await page.evaluate(SCRIPT, {"restore": True})
    if files:
        rec["reveals"] = files
