"""`jfi audit report`: report.html to look at (no server, no network), with report-files/ beside it holding each
view's screenshot once (WebP, only the parts a crop shows): a summary, how to record decisions, the worklist as
counts that filter the rows, the 3.2.3 finding, then every row with its question, a crop of its view around the
element, outlined, the evidence, the draft and the ratification in force. Filters keep their choice in the URL."""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..atomic import PRIVATE
from ..errors import JfiError
from ..jsonl import AtomicFiles, atomic_write, strict_loads, writer_lock
from ..manifest import SHOT_MAX_HEIGHT
from ..output import Outcome
from ..paths import PNG_SIGNATURE, inside, output_file, own_folder, png_bytes, regular_file
from ..templating import macro, static
from ..templating import render as render_template
from ..version import __version__
from .folder import AuditFolder
from .kept import commits, report_inputs, user_mac
from .worklist import worklist_parts

CROP_W, CROP_H, PAD = 480, 180, 24  # the crop window, and the margin kept around the element


@dataclass
class Shot:
    """A view's screenshot: its path in the folder (relative), its bytes, and its size in CSS pixels."""

    path: str
    data: bytes
    width: int
    height: int


def _screenshots(folder: AuditFolder) -> dict[tuple, Shot]:
    """(view id, viewport, N) -> a picture of the view, from the inventory's view records: N = 0 its screenshot, N > 0
    its Nth reveal (taken with elements scrolled into view in their containers). A picture must be a PNG image inside
    screenshots/ (no absolute path, no .., no symlink): anything else is refused, never read."""
    out = {}
    source = folder.inventory_jsonl if regular_file(folder.inventory_jsonl) else None
    if source is None:
        return out
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        try:
            rec = strict_loads(line)
        except ValueError:
            continue
        if not (isinstance(rec, dict) and isinstance(rec.get("screenshot"), str) and rec.get("view_id")):
            continue
        reveals = rec.get("reveals") if isinstance(rec.get("reveals"), list) else []
        for n, shot in enumerate([rec["screenshot"], *reveals]):
            if not isinstance(shot, str):
                continue
            path = inside(
                folder.root,
                shot,
                under="screenshots",
                source=str(source),
                line=number,
                field="screenshot" if n == 0 else "reveals",
            )
            data = png_bytes(path, source=str(source), line=number)
            if data is not None and len(data) >= 24:
                out[(rec["view_id"], rec.get("viewport"), n)] = Shot(
                    shot, data, int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
                )
    return out


def _union(a: dict, b: dict | None) -> dict:
    if not b or b["width"] <= 0 or b["height"] <= 0:
        return a
    x0, y0 = min(a["x"], b["x"]), min(a["y"], b["y"])
    x1, y1 = max(a["x"] + a["width"], b["x"] + b["width"]), max(a["y"] + a["height"], b["y"] + b["height"])
    return {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}


def _window(row: dict, place: dict | None, shots: dict[tuple, Shot]) -> dict | str:
    """Where the crop of a row sits on its view's screenshot: the window's corner and scale (a field with its label
    in the window; something larger than the window scaled down to fit); or, as words, why there is none."""
    if row["type"] == "ident":
        return (
            "this row compares the names one destination is given across the site; each is a link row with its own crop"
        )
    view = (place["view_id"], place.get("viewport"), place.get("shot") or 0) if place else None
    if not place or not place.get("box") or view not in shots:
        return "the capture has no screenshot or no position for this element"
    box = place["box"]
    if row["type"] != "title" and (box["width"] <= 0 or box["height"] <= 0):
        return "the element is not drawn (hidden or of zero size)"
    if box["y"] >= SHOT_MAX_HEIGHT:
        return f"the element is {box['y']} px down the page, below the screenshot"
    if row["type"] != "title" and (
        place.get("clipped") or box["y"] + box["height"] <= 0 or box["x"] + box["width"] <= 0
    ):
        return "the element lies outside the page as drawn (scrolled out of view inside its container) wherever it was captured"
    shown = _union(box, place.get("label_box")) if row["type"] == "field" else box
    scale = (
        1.0
        if row["type"] == "title"
        else min(1.0, CROP_W / (shown["width"] + 2 * PAD), CROP_H / (shown["height"] + 2 * PAD))
    )
    left = max(0, round(shown["x"] * scale) - PAD)
    top = (
        0 if row["type"] == "title" else max(0, round((shown["y"] + shown["height"] / 2) * scale) - CROP_H // 2)
    )  # the element mid-height
    return {"view": view, "box": box, "scale": scale, "left": left, "top": top}


# what a picture of its own shows: the element scrolled into view in its container, the page further down than the
# view's screenshot reaches (a tile), or either (the capture does not say which, as for an axe-core node)
SHOT_WORDS = {
    True: ", scrolled to show it in its container",
    False: ", further down the page than its screenshot",
    None: ", in a picture of its own",
}


def _crop(
    row: dict, place: dict | None, shots: dict[tuple, Shot], view_names: dict[tuple, str], role: str = ""
) -> dict:
    """A window on the view's screenshot around the element, the element outlined (what the report's crop macro
    shows); or why there is none ({"none": the reason})."""
    w = _window(row, place, shots)
    if isinstance(w, str):
        return {"none": w}
    box, scale, left, top, view = w["box"], w["scale"], w["left"], w["top"], w["view"]
    seen = view[0] + (f" at {view[1]}" if view[1] else "") + (SHOT_WORDS[place.get("scrolled")] if view[2] else "")
    # the outline in the window's pixels (kept inside it where rounding a heavily scaled box would step out)
    ox, oy = max(0, round(box["x"] * scale) - left), max(0, round(box["y"] * scale) - top)
    ow, oh = (
        min(max(1, round(box["width"] * scale)), CROP_W - ox),
        min(max(1, round(box["height"] * scale)), CROP_H - oy),
    )
    what = f'{role or row["type"]} "{row["name"]}"' if row["name"] else f"{role or row['type']} with no name"
    label = f"Screenshot of view {seen}" + (
        ""
        if row["type"] == "title"
        else f" around the {what}, outlined" + (f" (scaled to {scale:.0%})" if scale < 1 else "")
    )
    size = "" if scale == 1 else f";background-size:{round(shots[view].width * scale)}px auto"
    return {
        "none": None,
        "shot": view_names[view],
        "label": label,
        "style": f"width:{CROP_W}px;height:{CROP_H}px;background-position:-{left}px -{top}px{size}",
        "outline": None if row["type"] == "title" else f"left:{ox}px;top:{oy}px;width:{ow}px;height:{oh}px",
        "path": shots[view].path,
        "seen": seen,
    }


def crop_html(
    row: dict, place: dict | None, shots: dict[tuple, Shot], view_names: dict[tuple, str], role: str = ""
) -> str:
    """The crop as the report shows it (jfi/templates/crop.html)."""
    return str(macro("crop.html", "crop")(_crop(row, place, shots, view_names, role)))


def crop_png(row: dict, place: dict | None, shots: dict[tuple, Shot], decoded: dict | None = None) -> bytes | None:
    """The crop the report shows of a row as a PNG image of its own (the element outlined in red), for a judge that
    reads images; None where the report has no crop. `decoded`: the last picture decoded (one at a time, a full page
    can be tens of megabytes), for rows of the same view given one after another."""
    w = _window(row, place, shots)
    if isinstance(w, str):
        return None
    from PIL import Image, ImageDraw, UnidentifiedImageError

    box, scale, left, top = w["box"], w["scale"], w["left"], w["top"]
    decoded = {} if decoded is None else decoded
    if w["view"] not in decoded:
        decoded.clear()
        try:
            with Image.open(io.BytesIO(shots[w["view"]].data)) as image:
                decoded[w["view"]] = image.convert("RGB")
        except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
            decoded[w["view"]] = None
    page = decoded[w["view"]]
    if page is None:
        return None
    if scale < 1:  # the window of the page scaled down, its pixels resampled from the page itself (`box`): only the
        # window is computed, not the whole page (a 1440x10000 screenshot took 46 ms to scale, the window 5 ms)
        width, height = max(1, round(page.width * scale)), max(1, round(page.height * scale))
        right, bottom = min(left + CROP_W, width), min(top + CROP_H, height)
        window = Image.new("RGB", (CROP_W, CROP_H))  # black beyond the page, as a crop past its edge is
        if left < right and top < bottom:
            sx, sy = page.width / width, page.height / height
            region = (left * sx, top * sy, right * sx, bottom * sy)
            window.paste(page.resize((right - left, bottom - top), box=region), (0, 0))
    else:
        window = page.crop((left, top, left + CROP_W, top + CROP_H))
    if row["type"] != "title":
        x, y = round(box["x"] * scale) - left, round(box["y"] * scale) - top
        ImageDraw.Draw(window).rectangle(
            (x, y, x + max(1, round(box["width"] * scale)), y + max(1, round(box["height"] * scale))),
            outline=(200, 0, 0),
            width=2,
        )
    out = io.BytesIO()
    window.save(out, "PNG")
    return out.getvalue()


def crops(folder: AuditFolder, ids: set[str]) -> dict[str, bytes]:
    """{unit id: PNG} of the crops of these rows, from the folder's screenshots (for judge-kit --images)."""
    store, _, _ = folder.load_with_inventory()
    try:
        rows = {
            r["id"]: r
            for r in store.rows(
                "SELECT id, type, name FROM audit_draft_rows WHERE id IN (SELECT unnest(?::VARCHAR[]))", [sorted(ids)]
            )
        }
        places = {
            p["id"]: p
            for p in store.rows(
                "SELECT * FROM audit_unit_places WHERE id IN (SELECT unnest(?::VARCHAR[]))", [sorted(ids)]
            )
        }
    finally:
        store.close()
    shots = _screenshots(folder)

    def view_of(uid: str) -> str:  # the rows of one view one after another: its picture is decoded once
        w = _window(rows[uid], places.get(uid), shots)
        return "" if isinstance(w, str) else json.dumps(w["view"])

    out, decoded = {}, {}
    for uid in sorted(rows, key=lambda u: (view_of(u), u)):
        data = crop_png(rows[uid], places.get(uid), shots, decoded)
        if data is not None:
            out[uid] = data
    return out


FILES = "report-files"  # beside report.html: each view's screenshot once, as much of it as the crops show
WEBP_MAX = 16383  # px: the largest side a WebP image may have (a wider screenshot is kept as PNG)


def _regions(rows: list[dict], places: dict[str, dict], shots: dict[tuple, Shot]) -> dict[tuple, list[tuple]]:
    """(view id, viewport, N) -> the rectangles of its picture (in its own pixels) that some crop shows."""
    out: dict[str, list[tuple]] = {}
    for r in rows:
        w = _window(r, places.get(r["id"]), shots)
        if not isinstance(w, str):
            s = w["scale"]
            out.setdefault(w["view"], []).append(
                (
                    int(w["left"] / s),
                    int(w["top"] / s),
                    int((w["left"] + CROP_W) / s) + 1,
                    int((w["top"] + CROP_H) / s) + 1,
                )
            )
    return out


def _picture(shot: Shot, regions: list[tuple]) -> tuple[str, bytes] | None:
    """(extension, bytes) of a view's picture for the report: the screenshot where a crop shows it, blank elsewhere,
    in WebP (lossy, fine for reading text); None when the screenshot cannot be read."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(shot.data)) as image:
            image.load()
            page = Image.new("RGB", image.size, "white")
            source = image.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return None
    for x0, y0, x1, y1 in regions:
        box = (max(0, x0), max(0, y0), min(page.width, x1), min(page.height, y1))
        if box[0] < box[2] and box[1] < box[3]:
            page.paste(source.crop(box), box[:2])
    out = io.BytesIO()
    if max(page.size) > WEBP_MAX:
        page.save(out, format="PNG", optimize=True)
        return "png", out.getvalue()
    page.save(out, format="WEBP", quality=80, method=2)
    return "webp", out.getvalue()


class PictureCache:
    """The report's pictures kept between runs in `.jfi/pictures/` (beside the kept store; deleting it changes no
    output): each under a keyed hash, with this user's secret, of what it is made from (its screenshot's bytes, the
    regions its crops show, how it is encoded), its bytes sealed by a second keyed hash. A picture whose seal does not
    match (edited, planted, cut short) is made again. The folder changes only once the report is written (`keep`),
    which also removes the pictures the report no longer shows; where no store can be kept, nothing is cached."""

    MADE_BY = b"report-picture/1: webp quality 80 method 2, png beyond WEBP_MAX"  # changes when _picture does

    def __init__(self, root: Path):
        self.dir = root / PRIVATE / "pictures"
        self.new: dict[str, bytes] = {}
        self.used: set[str] = set()
        private = root / PRIVATE
        try:  # only where jfi keeps its stores (`.jfi` a real folder, the stores regular files, build's there),
            # nothing in `pictures`' place but a folder, and a secret to seal with: a symlink, file or folder in the
            # wrong one of those places refuses (JfiError), and nothing is cached
            self.usable = own_folder(private)  # first: the paths inside `.jfi` are looked at only when it is a folder
            if self.usable:
                regular_file(private / "audit-inventory.duckdb")
                own_folder(self.dir)
                self.usable = regular_file(private / "audit.duckdb") and user_mac(b"") is not None
        except JfiError:
            self.usable = False

    def key(self, shot: Shot, regions: list[tuple]) -> str | None:
        if not self.usable:
            return None
        return user_mac(self.MADE_BY + b"\n" + hashlib.sha256(shot.data).digest() + json.dumps(regions).encode())

    def get(self, key: str | None) -> tuple[str, bytes] | None:
        """The picture kept under this key, when its seal holds."""
        path = self.dir / key if key else None
        try:
            if path is None or not _plain_file(path):
                return None
            seal, _, rest = path.read_bytes().partition(b"\n")
        except OSError:
            return None
        ext, _, data = rest.partition(b"\n")
        if ext not in (b"webp", b"png") or not hmac.compare_digest(seal, self._seal(key, rest)):
            return None
        self.used.add(key)
        return ext.decode(), data

    def put(self, key: str | None, picture: tuple[str, bytes] | None) -> None:
        if key and picture is not None:
            rest = picture[0].encode() + b"\n" + picture[1]
            self.new[key] = self._seal(key, rest) + b"\n" + rest

    @staticmethod
    def _seal(key: str, rest: bytes) -> bytes:
        """The keyed hash of a kept picture's name and bytes (its extension, a newline, the picture)."""
        return (user_mac(key.encode() + rest) or "").encode()

    def keep(self) -> None:
        """The pictures made now written (temp file and rename: a cut-short one fails its seal), those the report does
        not show removed, leftovers of a killed run with them. A cache: what cannot be written is made next time."""
        if not self.usable:
            return
        try:
            self.dir.mkdir(exist_ok=True)
            for key, data in self.new.items():
                tmp = self.dir / f".{key}.{os.getpid()}.tmp"
                tmp.write_bytes(data)
                os.replace(tmp, self.dir / key)
            for old in self.dir.iterdir():  # a folder or symlink planted there is never read, nor followed here
                if old.name not in self.used and old.name not in self.new and _plain_file(old):
                    old.unlink()
        except OSError:
            pass


def _plain_file(path: Path) -> bool:
    try:
        return regular_file(path)
    except JfiError:
        return False


def pictures(
    rows: list[dict], places: dict[str, dict], shots: dict[tuple, Shot], cache: PictureCache | None = None
) -> dict[tuple, tuple[str, bytes]]:
    """(view id, viewport, N) -> (file name in report-files/, bytes) for every picture a crop shows; those a cache
    holds taken from it, the others made (and handed to it)."""
    regions = _regions(rows, places, shots)
    keys = {v: cache.key(shots[v], regions[v]) for v in regions} if cache else {}
    made = {v: p for v in regions if (p := cache.get(keys[v]) if cache else None) is not None}
    missing = [v for v in regions if v not in made]
    with ThreadPoolExecutor(2) as pool:  # Pillow decodes and encodes outside the interpreter's lock
        for v, p in zip(missing, pool.map(lambda v: _picture(shots[v], regions[v]), missing)):
            made[v] = p
            if cache:
                cache.put(keys[v], p)
    names = view_names(shots)
    return {v: (f"{names[v]}.{made[v][0]}", made[v][1]) for v in regions if made[v] is not None}


def _ratification(r: dict) -> str:
    """The ratification in force (who, what, when, the note and the ruling or decision id), or why a ledger record
    is not in force."""
    state = r["ratification_state"]
    if not state:
        return "none: nobody has decided this row"
    if state != "RATIFIED":
        why = (r["ratification_diagnostic"] or "the record is incomplete").replace(
            "draft: missing ", "the record lacks "
        )
        return f"{state}, not in force: {why}"
    out = f"RATIFIED by {r['ratified_by']}: {r['ratified_judgment']}, {r['ratified_utc']}"
    out += f"; ruling {r['ruling']}" if r["ruling"] else f"; decision {r['ratification_decision_id']}"
    out += f". Note: {r['ratifier_note']}" if r["ratifier_note"] else ""
    return out + (f". Fix asked: {r['ratified_fix']}" if r.get("ratified_fix") else "")


def view_names(shots: dict) -> dict[tuple, str]:
    """(view id, viewport, N) -> a name for its CSS class and its file in report-files/."""
    return {
        v: re.sub(r"[^a-zA-Z0-9_-]", "_", "-".join(str(p) for p in v if p))[:80] + f"-{k}"
        for k, v in enumerate(sorted(shots, key=lambda v: (v[0], v[1] or "", v[2])))
    }


def render(
    rows: list[dict],
    places: dict[str, dict],
    units: dict[str, dict],
    meanings: dict[str, dict],
    worklist: tuple,
    shots: dict[tuple, Shot],
    files: dict[tuple, str],
    summary: dict,
) -> str:
    """report.html's text (jfi/templates/report.html); `files` names each view's picture in report-files/ (a view
    without one has no crops)."""
    shots = {v: s for v, s in shots.items() if v in files}
    names = view_names(shots)
    families, looks, facts, _, _ = worklist
    family_of: dict[str, list[str]] = {}
    for f in families:
        for uid in f["unit_ids"]:
            family_of.setdefault(uid, []).append(f["family_id"])
    look_ids = {r["id"] for r in looks}
    by_type: dict[str, dict] = {}
    for r in rows:
        t = by_type.setdefault(r["type"], {"type": r["type"], "rows": 0, "flagged": 0, "ratified": 0})
        t["rows"] += 1
        t["flagged"] += r["id"] in summary["decisive"]
        t["ratified"] += r["status"] == "RATIFIED"

    def flag_item(flag: str) -> dict:
        """A flag with its meaning, its WCAG criteria and ACT rule, and its help page."""
        m = meanings.get(flag, {})
        where = ", ".join(
            [f"WCAG {sc}" for sc in m.get("sc") or []] + ([f"ACT {m['act_rule']}"] if m.get("act_rule") else [])
        )
        return {
            "flag": flag,
            "meaning": m.get("meaning", ""),
            "where": where,
            "help_url": m.get("help_url"),
            "sc": (m.get("sc") or [""])[0],
        }

    def shown(r: dict) -> dict:
        unit = units.get(r["id"], {})
        role = unit.get("role") or ""
        examples = _examples(r["id"], places) if r["type"] == "finding" else []
        return {
            **r,
            "families": family_of.get(r["id"], []),
            "draft": r["session_draft_judgment"] or "not judged",
            "look": r["id"] in look_ids,
            "question": summary.get("questions", {}).get(r["type"], "").replace("{name}", r["name"] or "(no name)"),
            "crop": _crop(r, places.get(r["id"]), shots, names, role),
            "examples": [_crop(r, places[k], shots, names, role) for k in examples],
            "source": unit.get("name_source") or "",
            "role": role,
            "help_url": web_url(r["href"]) if r["type"] == "finding" else None,
            "views": r["views"] if isinstance(r["views"], str) else ", ".join(r["views"]),
            "ratification": _ratification(r),
            "flag_items": [flag_item(f) for f in r["flags"]],
        }

    nav = summary.get("nav", [])
    return render_template(
        "report.html",
        style=static("report.css"),
        script=static("report.js"),
        shot_styles=[{"name": names[v], "url": f"{FILES}/{files[v]}"} for v in names],
        inputs=summary["inputs"],
        folder=summary["folder"],
        inventory=summary["inventory"],
        views=summary["views"],
        rows=[shown(r) for r in rows],
        ratified=sum(1 for r in rows if r["status"] == "RATIFIED"),
        decisions=summary["decisions"],
        folded=summary.get("folded") or [],
        caps_hit=summary.get("caps_hit") or [],
        by_type=[by_type[t] for t in sorted(by_type)],
        families=families,
        looks=looks,
        facts=facts,
        broken=[n for n in nav if n.get("order_consistent") is False],
        nav_checked=len(nav),
        filters=[
            ("status", "Status", sorted({r["status"] for r in rows})),
            ("type", "Type", sorted({r["type"] for r in rows})),
            ("flag", "Flag", sorted({f for r in rows for f in r["flags"]})),
            ("product", "Product", sorted({r["product"] for r in rows})),
            ("family", "Family", [f["family_id"] for f in families]),
            ("draft", "Draft judgment", sorted({r["session_draft_judgment"] or "not judged" for r in rows})),
            ("look", "Needs a look", ["yes"]),
        ],
        version=__version__,
        rulebook=summary["rulebook"],
    )


EXAMPLE = "~example-"  # a finding's further crops are keyed by its id and this


def _examples(uid: str, places: dict) -> list[str]:
    """The keys of a finding row's further examples among the places (audit_finding_examples)."""
    return [k for k in (f"{uid}{EXAMPLE}1", f"{uid}{EXAMPLE}2") if k in places]


def web_url(url) -> str | None:
    """A URL from the capture that may become a link in a page people open: http(s) only (a `javascript:` or
    `data:` address a page planted is shown as text, never made clickable)."""
    if isinstance(url, str) and re.match(r"https?://[^\s]", url.strip(), re.I):
        return url.strip()
    return None


def screenshot(page_path: Path, png: Path, query: str = "") -> None:
    """A picture of the report as a browser shows it (for the README), taken by Chromium."""
    from ..browser import chromium, run

    async def take():
        async with chromium() as browser:
            context = await browser.new_context(viewport={"width": 1100, "height": 1500})
            try:
                page = await context.new_page()
                await page.goto(page_path.resolve().as_uri() + query)
                return await page.screenshot()
            finally:
                await context.close()

    data = run(take())
    png.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(png, data)


@commits
def report(folder: AuditFolder, shot: Path | None = None) -> Outcome:
    folder.require_built(inventory=False)  # the rest when loading
    if shot is not None:  # checked before anything is written
        if Path(shot).suffix.lower() != ".png":
            raise JfiError("not_png", "the report's picture is a PNG file; name one ending in .png", source=str(shot))
        output_file(
            shot,
            reads=[folder],
            kind="PNG picture",
            same_kind=lambda p: p.read_bytes()[: len(PNG_SIGNATURE)] == PNG_SIGNATURE,
        )
    with writer_lock(folder.root):
        store, built, _ = folder.load_with_inventory()
        try:
            rows = store.rows("SELECT * EXCLUDE (sort_ord) FROM audit_draft_rows ORDER BY sort_ord")
            try:
                places = {p["id"]: p for p in store.rows("SELECT * FROM audit_unit_places")}
                for e in store.rows("SELECT * FROM audit_finding_examples ORDER BY id, n"):  # a finding's other copies
                    places[f"{e['id']}{EXAMPLE}{e['n']}"] = {**e, "clipped": False, "scrolled": None, "label_box": None}
            except Exception:  # a folder without its inventory: no crops
                places = {}
            meanings = {
                m.pop("flag"): m
                for m in store.rows(
                    "SELECT DISTINCT ON (x.flag) x.flag, flag_meaning(f.flag, f.meaning, x.flag) AS meaning, m.sc, m.act_rule, "
                    "m.help_url FROM (SELECT DISTINCT unnest(flags) AS flag FROM audit_draft_rows) AS x "
                    "JOIN audit_flag_rules AS f ON regexp_full_match(x.flag, f.pattern) "
                    "JOIN audit_rule_metadata AS m ON m.rule = f.flag ORDER BY x.flag, f.ord"
                )
            }
            questions = dict(store.con.execute("SELECT type, question FROM audit_questions").fetchall())
            decisive = {i for (i,) in store.con.execute("SELECT id FROM audit_decisive_flags").fetchall()}
            worklist = worklist_parts(store)
            decisions = worklist[4]
            summary = {
                "folder": folder.root.resolve().name,
                "inventory": str(folder.root),
                "views": built.get("views_ok"),
                "rulebook": store.rulebook_sha256,
                "questions": questions,
                "nav": built.get("nav_consistency", []),
                "decisive": decisive,
                "decisions": decisions,
                "caps_hit": built.get("caps_hit", []),
                "folded": built.get("views_folded", []),
            }
        finally:
            store.close()
        units = {u["id"]: u for u in built.get("units", []) if isinstance(u, dict)}
        shots = _screenshots(folder)
        cache = PictureCache(folder.root)
        made = pictures(
            rows + [{**r, "id": k} for r in rows if r["type"] == "finding" for k in _examples(r["id"], places)],
            places,
            shots,
            cache,
        )
        summary["inputs"] = report_inputs(folder.root)
        text = render(
            rows, places, units, meanings, worklist, shots, {v: name for v, (name, _) in made.items()}, summary
        )
        pictures_dir = folder.root / FILES
        with AtomicFiles() as files:
            files.write(folder.root / "report.html", text)
            for name, data in made.values():
                files.write(pictures_dir / name, data)
            if own_folder(pictures_dir):  # pictures of an earlier report that this one does not show
                kept = {name for name, _ in made.values()}
                for old in pictures_dir.iterdir():
                    if old.name not in kept and old.suffix in (".webp", ".png") and regular_file(old):
                        files.remove(old)
        cache.keep()  # once the report is in place
    path = folder.root / "report.html"
    lines = []
    if shot is not None:
        screenshot(path, shot)
        lines.append(f"{shot}: a picture of the report")
    lines.append(f"{path}: {len(rows)} row(s); open it in a browser (it needs no server)")
    return Outcome(0, {"report": str(path), "rows": len(rows), "shot": shot and str(shot)}, lines=lines, printed=False)
