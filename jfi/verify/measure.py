"""`jfi verify measure`: render a page in Chromium and measure bound regions against their reference boxes."""

from __future__ import annotations

import hashlib
import json
import urllib.parse
from pathlib import Path

from ..browser import chromium
from ..browser import run as run_browser
from ..errors import JfiError
from ..jsonl import AtomicFiles, parse_json, read_lines, sha256_file
from ..output import Outcome, utc_now
from ..store import Store

SCRIPT = Path(__file__).with_name("measure.js").read_text(encoding="utf-8")
EDGES = ("left", "top", "right", "bottom", "width", "height")


def read_bindings(path: Path) -> list[dict]:
    bindings, seen = [], set()
    for line in read_lines(path):
        where = dict(source=str(path), line=line.number)
        b = parse_json(line.text, path, line.number)
        if not isinstance(b, dict) or set(b) - {"region", "selector", "box", "significant"}:
            raise JfiError(
                "invalid_binding", "a binding is {region, selector, box: {x, y, width, height}, significant}", **where
            )
        box = b.get("box")
        if not (
            isinstance(b.get("region"), str)
            and b["region"].strip()
            and isinstance(b.get("selector"), str)
            and b["selector"].strip()
            and isinstance(box, dict)
            and set(box) == {"x", "y", "width", "height"}
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in box.values())
            and isinstance(b.get("significant", True), bool)
        ):
            raise JfiError(
                "invalid_binding", "a binding is {region, selector, box: {x, y, width, height}, significant}", **where
            )
        if b["region"] in seen:
            raise JfiError("duplicate_region", f"region {b['region']!r} is bound twice", **where, field="region")
        seen.add(b["region"])
        bindings.append({**b, "significant": b.get("significant", True)})
    if not bindings:
        raise JfiError("no_bindings", "the bindings file holds no binding", source=str(path))
    return bindings


def page_url(target: str) -> str:
    if urllib.parse.urlsplit(target).scheme in ("http", "https", "file"):
        return target
    path = Path(target)
    if not path.is_file():
        raise JfiError("invalid_url", f"{target} is neither an http(s) URL nor a local file")
    return path.resolve().as_uri()


def _overlap(a: dict, b: dict) -> bool:
    return (
        min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 0.5
        and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 0.5
    )


def drift_limit_px() -> float:
    """The drift limit, from the rulebook (sql/verify/05_verify_limits.sql), where the gate reads it too."""
    store = Store(sections=("verify",), needs=("drift_limit_px",))
    try:
        return float(store.scalar("SELECT drift_limit_px()"))
    finally:
        store.close()


def judge(bindings: list[dict], measured: list[dict], limit: float | None = None) -> list[dict]:
    """One claim-shaped line per binding: PASS, FAIL with the numbers, or INSUFFICIENT."""
    limit = drift_limit_px() if limit is None else limit
    by_region = {m["region"]: m for m in measured}
    lines = []
    for b in bindings:
        m = by_region[b["region"]]
        line = {
            "region": b["region"],
            "selector": b["selector"],
            "significant": b["significant"],
            "reference_box": b["box"],
        }
        if m["matches"] != 1:
            why = (
                "the selector is not valid CSS" if m["matches"] < 0 else f"the selector matches {m['matches']} elements"
            )
            lines.append(
                {
                    **line,
                    "result": "INSUFFICIENT",
                    "box": None,
                    "drift": None,
                    "clipped": None,
                    "overlaps": [],
                    "escapes": None,
                    "evidence": f"{why}; no reliable correspondence, never a pass",
                }
            )
            continue
        box, ref = m["box"], b["box"]
        drift = {
            "left": box["x"] - ref["x"],
            "top": box["y"] - ref["y"],
            "right": (box["x"] + box["width"]) - (ref["x"] + ref["width"]),
            "bottom": (box["y"] + box["height"]) - (ref["y"] + ref["height"]),
            "width": box["width"] - ref["width"],
            "height": box["height"] - ref["height"],
        }
        drift = {k: round(v, 2) for k, v in drift.items()}
        box = {k: round(v, 2) for k, v in box.items()}
        overlaps = sorted(
            o["region"]
            for o in bindings
            if o["region"] != b["region"]
            and by_region[o["region"]]["matches"] == 1
            and _overlap(m["box"], by_region[o["region"]]["box"])
            and not _overlap(ref, o["box"])
        )
        problems = []
        if b["significant"]:
            problems += [
                f"{edge} edge drifts {drift[edge]:+.1f} px (limit {limit:g})"
                for edge in ("left", "top", "right", "bottom")
                if abs(drift[edge]) >= limit
            ]
        if m["clipped"]:
            problems.append("text is clipped: its content is larger than its box with overflow hidden")
        if overlaps:
            problems.append(f"overlaps {', '.join(overlaps)}, which it does not overlap in the reference")
        if m["escapes"]:
            problems.append("escapes past the page bounds")
        evidence = (
            "; ".join(problems)
            if problems
            else (
                f"every edge within {limit:g} px of the reference (max drift "
                f"{max(abs(drift[e]) for e in ('left', 'top', 'right', 'bottom')):.1f} px); nothing clips, overlaps or escapes"
            )
        )
        lines.append(
            {
                **line,
                "result": "FAIL" if problems else "PASS",
                "box": box,
                "drift": drift,
                "clipped": m["clipped"],
                "overlaps": overlaps,
                "escapes": m["escapes"],
                "evidence": evidence,
            }
        )
    return lines


async def _render(url: str, viewport: tuple[int, int], bindings: list[dict]) -> tuple[list[dict], bytes]:
    async with chromium() as browser:
        context = await browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]}, reduced_motion="reduce", locale="en-US"
        )
        try:
            page = await context.new_page()
            try:
                await page.goto(url, wait_until="load", timeout=30000)
            except Exception as e:
                raise JfiError("navigation_failed", str(e).splitlines()[0][:200]) from None
            measured = await page.evaluate(
                SCRIPT, [{"region": b["region"], "selector": b["selector"]} for b in bindings]
            )
            shot = await page.screenshot(full_page=True)
            dom = await page.content()
        finally:
            await context.close()
    return measured, shot, dom


def run(target: str, bindings_path: Path, out: Path, viewport: tuple[int, int]) -> Outcome:
    bindings = read_bindings(bindings_path)
    url = page_url(target)
    measured, shot, dom = run_browser(_render(url, viewport, bindings))
    out = Path(out)
    shot_path, dom_path = out / "candidate.png", out / "dom.html"
    shot_sha = hashlib.sha256(shot).hexdigest()
    bindings_sha = sha256_file(bindings_path)
    # the evidence pins what was measured: the code (a local page), the DOM as rendered, the bindings, the screenshot
    pinned = [
        {"role": "binding", "path": str(bindings_path), "sha256": bindings_sha},
        {"role": "DOM", "path": str(dom_path), "sha256": hashlib.sha256(dom.encode("utf-8")).hexdigest()},
        {"role": "candidate screenshot", "path": str(shot_path), "sha256": shot_sha},
    ]
    if url.startswith("file:"):
        local = Path(urllib.parse.unquote(urllib.parse.urlsplit(url).path))
        pinned.insert(0, {"role": "code", "path": str(local), "sha256": sha256_file(local)})
    stamp = utc_now("seconds")
    lines, limit = [], drift_limit_px()
    for line in judge(bindings, measured, limit):
        lines.append(
            {
                **line,
                "claim": f"region {line['region']} ({line['selector']}) matches its reference box within "
                f"{limit:g} px and does not clip, overlap or escape",
                "kind": "spatial",
                "verifier": "jfi-measure",
                "url": url,
                "viewport": {"width": viewport[0], "height": viewport[1]},
                "inputs": pinned,
                "screenshot": {"path": str(shot_path), "sha256": shot_sha},
                "measured_utc": stamp,
            }
        )
    with AtomicFiles() as files:  # the screenshot, the DOM and the claims that pin them land together
        files.write(shot_path, shot)
        files.write(dom_path, dom)
        files.write(out / "measurements.jsonl", "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    said = [f"{x['region']}: {x['result']}: {x['evidence']}" for x in lines]  # what it tells its user
    return Outcome(0 if all(x["result"] == "PASS" for x in lines) else 1, {"claims": lines}, lines=said, printed=False)
