"""Pictures for elements the view's screenshot does not show, so that each has a crop: further down the page than the
screenshot reaches (a whole book on one page) and scrolled out of view inside their containers (a sidebar link below
the sidebar's fold). The first are photographed in tiles of the page as tall as the screenshot, from the first such
element down; the others are brought into view in their containers a screenful at a time and the viewport is
photographed. The screenfuls come first (a viewport's picture is cheap, a tile of a long page is not: on a loaded
machine the tiles alone can spend the time). Each picture is `<view>__<viewport>__N.png`, listed in the view record's
`reveals`; an element records which picture shows it and its box there (`revealed`: {shot: N, box}). Every box is
measured in the state its picture shows (see shoot). The viewport and scroll positions are put back afterwards.
Elements left without a picture when the view's time for pictures ran out are counted in a note for the view's
environment notes."""

from __future__ import annotations

import time
from pathlib import Path

from ..manifest import SHOT_MAX_HEIGHT
from . import shoot

KINDS = ("headings", "links", "images", "fields")
MAX_SHOTS = 6  # screenfuls per view at most: a long sidebar takes a few
MAX_TILES = 12  # tiles below the screenshot per view at most: 12 x 10,000 px of page
MAX_ELEMENTS = 2000  # elements looked for per view at most
BUDGET_S = 15  # seconds of pictures per view at most (a 10,000 px tile takes about 2 s); also within the view's own
SCRIPT = Path(__file__).with_name("reveal.js").read_text(encoding="utf-8")


def elements(inventory: dict) -> list[tuple[dict, str | None, bool]]:
    """(element, selector, scrolled out of view in a container) for each drawn element of the inventory."""
    return [
        (e, e.get("selector"), bool(e.get("clipped")))
        for kind in KINDS
        for e in (inventory.get(kind) or [])
        if isinstance(e, dict) and _drawn(e.get("box")) and not e.get("frame") and not e.get("undrawn")
    ][:MAX_ELEMENTS]


def axe_nodes(axe: dict | None) -> list[tuple[dict, str | None, bool]]:
    """The same for axe-core's nodes in the top document; a node whose box lies above or left of the page is taken
    as scrolled out of view in a container (axe gives no more)."""
    nodes = [n for r in (axe or {}).get("results") or [] for n in r.get("nodes") or []]
    return [
        (n, n["target"][0], n["box"]["y"] + n["box"]["height"] <= 0 or n["box"]["x"] + n["box"]["width"] <= 0)
        for n in nodes
        if _drawn(n.get("box"))
        and isinstance(n.get("target"), list)
        and len(n["target"]) == 1
        and isinstance(n["target"][0], str)
    ][:MAX_ELEMENTS]


def _drawn(box) -> bool:
    return isinstance(box, dict) and box.get("width", 0) > 0 and box.get("height", 0) > 0


async def pictures(
    page,
    rec: dict,
    shots: dict,
    shot: str,
    things: list[tuple[dict, str | None, bool]],
    width: int,
    page_height: int,
    deadline: float,
) -> list[str]:
    """The view's screenshot (`shot`: the page from the top, as far down as SHOT_MAX_HEIGHT) and pictures of the
    things (see elements, axe_nodes) it does not show, while time is left (BUDGET_S, and until `deadline` on the
    monotonic clock): `shots` gets each picture's bytes, the view record its `screenshot` and `reveals`. Every box is
    the one the picture shows (shoot: measured in the picture's own page state); the notes say where that differed
    from the page as read, and what was left without a picture."""
    files = rec.setdefault("reveals", [])
    base = shot.removesuffix(".png")
    viewport = page.viewport_size or {"width": width, "height": 720}
    height = min(page_height, SHOT_MAX_HEIGHT)
    notes, moved, unsure = [], 0, 0

    def add(data: bytes) -> int:
        files.append(f"{base}__{len(files) + 1}.png")
        shots[files[-1]] = data
        return len(files)

    try:
        await shoot.mark(page, [selector for _, selector, _ in things])
        data, deltas, _ = await shoot.picture(page, width, 0, height)
        shots[shot], rec["screenshot"] = data, shot
        read = [t["box"] for t, _, _ in things]
        below = []
        for k, ((t, _, clipped), delta) in enumerate(zip(things, deltas)):
            box = shoot.moved(t["box"], delta)
            if box is None:
                unsure += 1
                continue
            moved += box["x"] != t["box"]["x"] or box["y"] != t["box"]["y"]
            t["box"] = box  # where the screenshot shows it (in the page's pixels: the screenshot starts at its top)
            if not clipped and box["y"] + box["height"] > height:
                below.append((k, t))  # with its place among the things: its box as read, its move in each picture
        below.sort(key=lambda kt: kt[1]["box"]["y"])
        deadline = min(deadline, time.monotonic() + BUDGET_S)
        tiles = 0
        while below and tiles < MAX_TILES and page_height > height and time.monotonic() < deadline:
            top = max(0, min(below[0][1]["box"]["y"] - 100, page_height - 1))
            tile = min(SHOT_MAX_HEIGHT, max(page_height - top, viewport["height"]))  # never shorter than the viewport
            data, deltas, top = await shoot.picture(page, width, top, tile)
            n = add(data)
            for k, t in below:
                box = shoot.moved(read[k], deltas[k])
                if box is not None and box["y"] >= 0 and box["y"] + box["height"] <= tile:
                    t["revealed"] = {"shot": n, "box": box}
            tiles += 1
            below = [(k, t) for k, t in below[1:] if "revealed" not in t]  # the first goes even when taller than a tile
    finally:
        await shoot.done(page, viewport["width"], viewport["height"])
    pending = [(t, selector) for t, selector, clipped in things if clipped and selector]
    try:
        if pending and time.monotonic() < deadline:
            await _screenfuls(page, pending, add, deadline)
    finally:
        if not files:
            rec.pop("reveals")
    if moved:
        notes.append(
            f"{moved} element(s) drawn elsewhere in the screenshot than when the page was read (its layout "
            "changes with the viewport or on scroll): their boxes are where the screenshot shows them"
        )
    if unsure:
        notes.append(
            f"{unsure} element(s) moved while photographed or are drawn nowhere in the screenshot: their "
            "crops may miss them"
        )
    left = sum("revealed" not in t for t, _ in pending) + sum(t["box"]["y"] < page_height for _, t in below)
    if left and time.monotonic() >= deadline:
        notes.append(
            f"{left} element(s) out of the screenshot's view left without a picture: the view's time for "
            "pictures ran out"
        )
    return notes


async def _screenfuls(page, pending: list[tuple[dict, str]], add, deadline: float) -> None:
    try:
        await page.evaluate(SCRIPT, {"targets": [{"selector": sel, "box": t["box"]} for t, sel in pending]})
        left, screens = list(range(len(pending))), 0
        while left and screens < MAX_SHOTS and time.monotonic() < deadline:
            shown = await page.evaluate(SCRIPT, {"next": left})
            if shown:
                n = add(await page.screenshot())
                screens += 1
                for s in shown:
                    pending[s["i"]][0]["revealed"] = {"shot": n, "box": s["box"]}
            done = {s["i"] for s in shown} | {left[0]}  # the first goes even when nothing could show it
            left = [i for i in left if i not in done]
    finally:
        await page.evaluate(SCRIPT, {"restore": True})
