"""report.html in real Chromium: filters change what is shown and stay in the URL, every crop loads, no console
error, and jfi's own audit of the report finds no objective defect."""

import asyncio
import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest
from conftest import Jfi

SITE = Path(__file__).resolve().parent.parent / "corpus" / "example-site"
OBJECTIVE = {
    "title_empty",
    "heading_empty",
    "link_empty_name",
    "img_missing_alt_attr",
    "functional_image_no_name",
    "svg_unnamed_not_hidden",
    "field_unlabeled_none",
    "image_no_accessible_name",
    "link_no_accessible_name",
    "field_no_accessible_name",
    "heading_no_accessible_name",
}


@pytest.fixture(scope="module")
def reported(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    jfi = Jfi(root)
    audit = root / "audit"
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(SITE / "views.txt"),
        "--serve",
        str(SITE),
        "--out",
        str(audit),
        "--settle",
        "0",
    )
    assert r.exit_code == 0, r.stderr
    assert jfi("audit", "build", "--inventory", str(audit)).exit_code == 0
    shutil.copy(SITE / "returns" / "harbor-title-01.judged.jsonl", audit / "batches")
    shutil.copy(SITE / "returns" / "ratifications.jsonl", audit / "ratifications.jsonl")
    assert jfi("audit", "merge", "--inventory", str(audit)).exit_code == 0
    r = jfi("audit", "report", "--inventory", str(audit))
    assert r.exit_code == 0, r.stderr
    return jfi, audit


async def _look(page_url: str):
    from playwright.async_api import async_playwright

    from jfi.browser import launch_options

    async with async_playwright() as p:
        with launch_options(p.chromium) as options:
            browser = await p.chromium.launch(**options)
            try:
                page = await browser.new_page()
                errors = []
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                await page.goto(page_url)
                visible = "() => Array.from(document.querySelectorAll('.row')).filter((r) => !r.hidden).length"
                total = await page.locator(".row").count()
                before = await page.evaluate(visible)
                await page.select_option("#f-type", "image")
                images = await page.evaluate(visible)
                kept = await page.evaluate("() => location.search")
                await page.select_option("#f-flag", "alt_is_filename")
                both = await page.evaluate(visible)
                shown_types = await page.evaluate(
                    "() => Array.from(document.querySelectorAll('.row')).filter((r) => !r.hidden).map((r) => r.dataset.type)"
                )
                await page.goto(page_url + "?type=link")  # a shared URL opens on its filter
                reopened = (await page.evaluate(visible), await page.locator("#f-type").input_value())
                crops = await page.evaluate("""async () => {
                    const out = [];
                    for (const crop of document.querySelectorAll('.crop')) {
                        const url = getComputedStyle(crop).backgroundImage.slice(5, -2);
                        const img = new Image();
                        const ok = await new Promise((done) => {
                            img.onload = () => done(img.naturalWidth > 0); img.onerror = () => done(false); img.src = url;
                        });
                        out.push(ok);
                    }
                    return out;
                }""")
                return {
                    "errors": errors,
                    "total": total,
                    "before": before,
                    "images": images,
                    "kept": kept,
                    "both": both,
                    "shown_types": shown_types,
                    "reopened": reopened,
                    "crops": crops,
                }
            finally:
                await browser.close()


@pytest.mark.slow
def test_the_report_in_chromium(reported):
    _, audit = reported
    got = asyncio.run(_look((audit / "report.html").resolve().as_uri()))
    assert got["errors"] == []
    assert got["before"] == got["total"] > got["images"] > 0 and got["kept"] == "?type=image"
    assert 0 < got["both"] < got["images"] and set(got["shown_types"]) == {"image"}
    assert got["reopened"][1] == "link" and 0 < got["reopened"][0] < got["total"]
    assert got["crops"] and all(got["crops"])


@pytest.mark.slow
def test_the_report_passes_jfis_own_audit(reported, tmp_path):
    jfi, audit = reported
    site = tmp_path / "site"
    site.mkdir()
    shutil.copy(audit / "report.html", site / "report.html")
    (site / "views.txt").write_text("report,jfi,/report.html\n")
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(site / "views.txt"),
        "--serve",
        str(site),
        "--out",
        str(tmp_path / "self"),
        "--settle",
        "0",
        "--no-screenshots",
    )
    assert r.exit_code == 0, r.stderr
    assert jfi("audit", "build", "--inventory", str(tmp_path / "self")).exit_code == 0
    units = json.loads((tmp_path / "self" / "judgment-units.json").read_text())["units"]
    found = {(u["id"], f) for u in units for f in u["flags"] if f in OBJECTIVE}
    assert found == set()
    assert any(u["type"] == "field" for u in units)  # the filters were audited as fields, and are labelled


def _png(width: int):
    from jfi.audit.report import Shot

    return Shot("screenshots/v.png", b"", width, 3000)


def _window(html: str) -> dict:
    import re as _re

    style = dict(
        _re.findall(r"(left|top|width|height):(-?\d+)px", _re.search(r'class="outline" style="([^"]*)"', html)[1])
    )
    pos = _re.search(r"background-position:-(\d+)px -(\d+)px", html)
    return {"outline": {k: int(v) for k, v in style.items()}, "left": int(pos[1]), "top": int(pos[2])}


def test_a_large_image_is_scaled_to_fit_its_crop_and_the_crop_names_what_it_outlines():
    from jfi.audit.report import CROP_H, CROP_W
    from jfi.audit.report import crop_html as _crop

    row = {"type": "image", "name": "Timer diagram"}
    place = {"view_id": "timers", "box": {"x": 300, "y": 900, "width": 750, "height": 427}}
    html = _crop(row, place, {("timers", None, 0): _png(1440)}, {("timers", None, 0): "timers-0"}, "image")
    o = _window(html)["outline"]
    assert 0 <= o["left"] and o["left"] + o["width"] <= CROP_W and 0 <= o["top"] and o["top"] + o["height"] <= CROP_H
    import html as _html

    assert (
        "background-size:" in html
        and 'view timers around the image "Timer diagram", outlined (scaled to' in _html.unescape(html)
    )
    small = _crop(
        row,
        {"view_id": "timers", "box": {"x": 10, "y": 20, "width": 40, "height": 30}},
        {("timers", None, 0): _png(1440)},
        {("timers", None, 0): "timers-0"},
        "image",
    )
    assert "background-size" not in small and "scaled" not in small


def test_a_fields_crop_holds_its_label_and_a_box_out_of_the_page_says_why():
    from jfi.audit.report import crop_html as _crop

    row = {"type": "field", "name": "Search"}
    place = {
        "view_id": "v",
        "box": {"x": 400, "y": 100, "width": 60, "height": 30},
        "label_box": {"x": 300, "y": 105, "width": 80, "height": 20},
    }
    w = _window(_crop(row, place, {("v", None, 0): _png(1440)}, {("v", None, 0): "v-0"}, "searchbox"))
    assert (
        w["left"] <= 300 and w["outline"]["left"] == 400 - w["left"]
    )  # the label is in the window, the field outlined
    gone = _crop(
        {"type": "link", "name": "Intro"},
        {"view_id": "v", "box": {"x": 10, "y": -300, "width": 80, "height": 20}},
        {("v", None, 0): _png(1440)},
        {("v", None, 0): "v-0"},
    )
    assert "scrolled out of view" in gone


async def _navigate(report: Path):
    from playwright.async_api import TimeoutError as PlaywrightTimeout
    from playwright.async_api import async_playwright

    from jfi.browser import launch_options

    visible = "() => Array.from(document.querySelectorAll('.row')).filter((r) => !r.hidden).map((r) => r.id)"
    async with async_playwright() as p:
        with launch_options(p.chromium) as options:
            browser = await p.chromium.launch(**options)
            try:
                page = await browser.new_page(viewport={"width": 1100, "height": 800})
                ids = await page.goto(report.resolve().as_uri()) and await page.evaluate(visible)
                last = ids[-1]
                await page.goto(report.resolve().as_uri() + f"?type=title#{last}")  # a fragment on load, under a filter
                seen = await page.evaluate(f"""() => {{ const r = document.getElementById('{last}').getBoundingClientRect();
                    return [r.top > -1 && r.top < innerHeight, location.hash, location.search]; }}""")
                await page.goto(report.resolve().as_uri())
                await page.locator("#s-worklist + details > summary").click()  # the worklist opens on its counts
                family = page.locator("a[href^='?family=']").first
                family_id = (await family.get_attribute("href")).split("=")[1].split("#")[0]
                async with page.expect_navigation():  # the rows read once the new page has loaded and filtered
                    await family.click()  # (a click returns once the navigation commits, with the page half parsed)
                in_family = await page.evaluate(visible)
                families = await page.evaluate(
                    "() => Array.from(document.querySelectorAll('.row')).filter((r) => !r.hidden)"
                    ".map((r) => r.dataset.families)"
                )
                await page.select_option("#f-type", "link")
                narrowed = await page.evaluate(visible)
                await page.go_back()
                with contextlib.suppress(PlaywrightTimeout):  # the state once the page went back (a busy machine
                    # may read it before the history's own event ran); what it is then, the assertion says
                    await page.wait_for_function(
                        f"(n) => ({visible})().length === n && document.getElementById('f-type').value === ''",
                        arg=len(in_family),
                        timeout=10_000,
                    )
                back = (await page.evaluate(visible), await page.locator("#f-type").input_value())
                await page.goto(report.resolve().as_uri())
                await page.fill("#f-q", ids[0])
                searched = await page.evaluate(visible)
                return {
                    "ids": ids,
                    "seen": seen,
                    "family_id": family_id,
                    "in_family": in_family,
                    "families": families,
                    "narrowed": narrowed,
                    "back": back,
                    "searched": searched,
                }
            finally:
                await browser.close()


@pytest.mark.slow
def test_the_report_is_navigable_by_fragment_family_link_back_button_and_search(reported):
    _, audit = reported
    got = asyncio.run(_navigate(audit / "report.html"))
    assert got["seen"][0] is True and got["seen"][1].endswith(got["ids"][-1]) and got["seen"][2] == "?type=title"
    assert 0 < len(got["in_family"]) < len(got["ids"]) and all(got["family_id"] in f.split() for f in got["families"])
    assert len(got["narrowed"]) <= len(got["in_family"])
    assert got["back"] == (got["in_family"], "")  # back undoes the last filter
    assert got["searched"] == [got["ids"][0]]


def test_rows_state_their_question_and_the_3_2_3_finding_reaches_report_and_workbook(reported):
    import html as _html

    import openpyxl

    _, audit = reported
    page = _html.unescape((audit / "report.html").read_text())
    nav = json.loads((audit / "judgment-units.json").read_text())["nav_consistency"]
    broken = [n for n in nav if n["order_consistent"] is False]
    assert broken, "the bundled example changes its navigation order on one view"
    assert "Navigation order (WCAG 3.2.3)" in page and broken[0]["first_order_violation"] in page
    assert page.count('class="question"') == page.count('class="row"') > 0
    assert "read with its context, say where the link goes" in page
    book = openpyxl.load_workbook(audit / "draft-judgments.xlsx", read_only=True)
    sheet = book["Navigation 3.2.3"]
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[0][:3] == ["product", "host", "view_id"] and len(values) == len(nav) + 1
    assert any(broken[0]["first_order_violation"] in [str(v) for v in row] for row in values[1:])


async def _axe(report: Path):
    from axe_playwright_python.async_playwright import Axe
    from playwright.async_api import async_playwright

    from jfi.browser import launch_options

    async with async_playwright() as p:
        with launch_options(p.chromium) as options:
            browser = await p.chromium.launch(**options)
            try:
                page = await browser.new_page()
                requests = []
                page.on("request", lambda r: requests.append(r.url))
                await page.goto(report.resolve().as_uri())
                opened = await page.evaluate(  # every disclosure opened, the worklist too
                    "() => { const all = [...document.querySelectorAll('details')]; "
                    "all.forEach(d => d.open = true); return all.length }"
                )
                assert opened > 0
                result = await Axe().run(
                    page,
                    options={
                        "runOnly": {
                            "type": "tag",
                            "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
                        }
                    },
                )
                return result.response["violations"], requests
            finally:
                await browser.close()


@pytest.mark.slow
def test_axe_core_finds_no_violation_in_the_report_and_it_needs_no_network(reported):
    _, audit = reported
    violations, requests = asyncio.run(_axe(audit / "report.html"))
    assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations] == []
    assert requests and all(u.startswith("file://") for u in requests)


def test_screenshots_are_stored_once_per_view_beside_the_report_as_far_as_crops_show_them(reported):
    from PIL import Image

    _, audit = reported
    page = (audit / "report.html").read_text()
    assert "data:image" not in page
    pictures = sorted((audit / "report-files").iterdir())
    views = {json.loads(x).get("view_id") for x in (audit / "inventory.jsonl").read_text().splitlines()[1:]}
    assert pictures and len(pictures) <= len(views) and all(p.suffix == ".webp" for p in pictures)
    assert all(f"report-files/{p.name}" in page for p in pictures)
    assert sum(p.stat().st_size for p in pictures) < sum(p.stat().st_size for p in (audit / "screenshots").iterdir())
    with Image.open(pictures[0]) as one:
        assert one.format == "WEBP" and one.width > 0


def test_a_picture_keeps_what_the_crops_show_and_blanks_the_rest():
    import io as _io

    from PIL import Image

    from jfi.audit.report import Shot, _picture

    page = Image.new("RGB", (600, 400), (20, 90, 160))
    data = io.BytesIO()
    page.save(data, format="PNG")
    ext, out = _picture(Shot("screenshots/v.png", data.getvalue(), 600, 400), [(100, 50, 300, 150)])
    with Image.open(_io.BytesIO(out)) as kept:
        kept = kept.convert("RGB")
        assert ext == "webp" and kept.size == (600, 400)
        inside, outside = kept.getpixel((200, 100)), kept.getpixel((500, 300))
    assert all(abs(a - b) < 12 for a, b in zip(inside, (20, 90, 160))) and outside == (255, 255, 255)
    assert _picture(Shot("screenshots/v.png", b"\x89PNG\r\n\x1a\nbroken" + bytes(20), 600, 400), []) is None


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_report_made_again_takes_its_pictures_from_the_cache_and_writes_the_same_files(
    reported, tmp_path, monkeypatch
):
    """The pictures are made once: a report made again with nothing changed encodes none (a copy of the folder takes
    the pictures along), and writes the same report.html and report-files/; deleting the cache changes no output."""
    from jfi.audit import report

    jfi, audit = reported
    folder = tmp_path / "audit"
    shutil.copytree(audit, folder)
    cached = folder / ".jfi" / "pictures"
    made = []
    real = report._picture
    monkeypatch.setattr(report, "_picture", lambda *a: made.append(1) or real(*a))
    assert jfi("audit", "report", "--inventory", str(folder)).exit_code == 0
    first = (_files(folder / "report-files"), (folder / "report.html").read_bytes())
    assert made == [] and len(list(cached.iterdir())) == len(first[0]) > 0
    shutil.rmtree(cached)
    assert jfi("audit", "report", "--inventory", str(folder)).exit_code == 0
    assert (
        len(made) == len(first[0]) and (_files(folder / "report-files"), (folder / "report.html").read_bytes()) == first
    )


def test_a_cached_picture_edited_or_planted_is_never_shown(reported, tmp_path, monkeypatch):
    """A cached picture whose bytes were changed (its seal kept) is made again; one planted under another name, or
    left by a killed run, is removed; a folder planted there is neither read nor followed; the report is the same."""
    from PIL import Image

    from jfi.audit import report

    jfi, audit = reported
    folder = tmp_path / "audit"
    shutil.copytree(audit, folder)
    first = _files(folder / "report-files")
    cached = folder / ".jfi" / "pictures"
    victim = sorted(cached.iterdir())[0]
    seal, _, rest = victim.read_bytes().partition(b"\n")
    ext, _, _ = rest.partition(b"\n")
    fake = io.BytesIO()
    Image.new("RGB", (64, 64), "red").save(fake, format="WEBP")
    victim.write_bytes(seal + b"\n" + ext + b"\n" + fake.getvalue())  # another picture under the old seal
    (cached / ("0" * 64)).write_bytes(seal + b"\n" + rest)  # a copy under a name no picture has
    (cached / f".{victim.name}.123.tmp").write_bytes(b"half")  # what a killed run leaves
    (cached / "planted").mkdir()
    made = []
    real = report._picture
    monkeypatch.setattr(report, "_picture", lambda *a: made.append(1) or real(*a))
    assert jfi("audit", "report", "--inventory", str(folder)).exit_code == 0
    assert len(made) == 1 and _files(folder / "report-files") == first
    assert sorted(p.name for p in cached.iterdir()) == sorted(
        [*(p.name for p in audit.joinpath(".jfi", "pictures").iterdir()), "planted"]
    )


@pytest.mark.parametrize(
    "box",
    [
        {"x": 300, "y": 900, "width": 750, "height": 427},  # scaled to 0.38, inside the page
        {"x": 1000, "y": 2300, "width": 1100, "height": 90},  # scaled to 0.42, the window runs past the page's edges
        {"x": 0, "y": 0, "width": 2000, "height": 1600},  # scaled to 0.11, at the page's corner
    ],
)
def test_a_scaled_crop_shows_what_the_page_scaled_whole_shows(box, monkeypatch):
    """A crop of an element larger than the window is the window of the page scaled down (resampled from the page
    itself, not from the page scaled whole first): the same picture (a pixel a few levels apart at a sharp edge),
    black past the page (the outline aside)."""
    import random

    from PIL import Image, ImageChops, ImageDraw

    from jfi.audit.report import CROP_H, CROP_W, Shot, _window, crop_png

    rng = random.Random(7)
    page = Image.new("RGB", (1440, 2400), "white")
    draw = ImageDraw.Draw(page)
    for _ in range(400):  # text-like strokes and blocks, so that resampling has edges to get right
        x, y = rng.randrange(1440), rng.randrange(2400)
        draw.rectangle(
            (x, y, x + rng.randrange(2, 90), y + rng.randrange(1, 14)), fill=tuple(rng.choices(range(256), k=3))
        )
    data = io.BytesIO()
    page.save(data, format="PNG")
    shots = {("v", None, 0): Shot("screenshots/v.png", data.getvalue(), 1440, 2400)}
    row, place = {"type": "image", "name": "Diagram"}, {"view_id": "v", "box": box}
    w = _window(row, place, shots)
    assert w["scale"] < 1
    monkeypatch.setattr(ImageDraw.ImageDraw, "rectangle", lambda *a, **k: None)  # no outline drawn
    with Image.open(io.BytesIO(crop_png(row, place, shots))) as got:
        got = got.convert("RGB")
    whole = page.resize((round(1440 * w["scale"]), round(2400 * w["scale"])))
    expected = whole.crop((w["left"], w["top"], w["left"] + CROP_W, w["top"] + CROP_H))
    assert got.size == expected.size == (CROP_W, CROP_H)
    # resampling weights are rounded per output pixel, so a sharp edge may come out a few levels apart
    off = [max(p) for p in ImageChops.difference(got, expected).get_flattened_data()]
    assert max(off) <= 16 and sum(o > 1 for o in off) <= len(off) // 100, max(off)


def test_rows_show_the_ratification_in_force_or_why_a_record_is_not(reported):
    import html as _html

    _, audit = reported
    page = _html.unescape((audit / "report.html").read_text())
    ledger = [json.loads(x) for x in (audit / "ratifications.jsonl").read_text().splitlines()]
    done = next(d for d in ledger if d.get("ratified_utc"))
    assert (
        f"RATIFIED by {done['ratified_by']}: {done['ratified_judgment']}, {done['ratified_utc']}; decision "
        f"{done['decision_id']}. Note: {done['ratifier_note']}"
    ) in page
    assert "DRAFT, not in force: the record lacks ratified_judgment, ratified_utc" in page
    assert "How to record decisions" in page and "jfi audit review export --inventory" in page
    assert "<details><summary>" in page and "family decision(s) covering" in page


def test_a_report_older_than_the_folders_files_is_said_to_be_so(reported, tmp_path):
    jfi, audit = reported
    folder = tmp_path / "copy"
    shutil.copytree(audit, folder, ignore=shutil.ignore_patterns(".jfi"))
    r = jfi("audit", "worklist", "--inventory", str(folder))
    assert r.exit_code == 0 and "report.html shows the folder as it was" not in r.stderr
    draft = next(x for x in (folder / "ratifications.jsonl").read_text().splitlines() if "ratified_utc" not in x)
    with (folder / "ratifications.jsonl").open("a") as fh:
        fh.write(draft + "\n")  # a new ledger line (an identical retry of a draft)
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 0 and "report.html shows the folder as it was before its files changed" in r.stderr
    assert jfi("audit", "report", "--inventory", str(folder)).exit_code == 0
    r = jfi("audit", "worklist", "--inventory", str(folder))
    assert "report.html shows the folder" not in r.stderr


def test_a_counted_flag_says_its_own_count(tmp_path):
    """The meaning beside a flag that carries a number says that number, not the rule's N."""
    from inventories import made, view

    folder = made(
        tmp_path,
        [view("home", title="Harbor", h1=["One", "Two", "Three"]), view("fares", title="Harbor")],
        ("build",),
        ("merge",),
    )
    assert Jfi(tmp_path)("audit", "report", "--inventory", str(folder)).exit_code == 0
    page = (folder / "report.html").read_text()
    assert "<code>h1_count_3</code>: the page has 3 h1 elements" in page
    assert "<code>title_shared_by_2_views</code>: 2 views of the product share this title" in page
    assert "has N h1" not in page and "N views" not in page


def test_crops_decode_each_picture_once_and_give_what_one_crop_at_a_time_gives(reported, monkeypatch):
    import PIL.Image

    from jfi.audit import report
    from jfi.audit.folder import AuditFolder

    _, audit = reported
    folder = AuditFolder(audit)
    ids = {json.loads(x)["id"] for b in (audit / "batches").glob("*-link-*.jsonl") for x in b.read_text().splitlines()}
    opened = []
    real_open = PIL.Image.open
    monkeypatch.setattr(PIL.Image, "open", lambda *a, **k: opened.append(1) or real_open(*a, **k))
    pictured = report.crops(folder, ids)
    store, _, _ = folder.load_with_inventory()
    try:
        places = {p["id"]: p for p in store.rows("SELECT * FROM audit_unit_places")}
        rows = {r["id"]: r for r in store.rows("SELECT id, type, name FROM audit_draft_rows")}
    finally:
        store.close()
    shots = report._screenshots(folder)
    views = {
        json.dumps(w["view"]) for i in pictured if not isinstance(w := report._window(rows[i], places[i], shots), str)
    }
    assert len(pictured) > len(views) > 1 and len(opened) == len(views)  # once per picture, not once per crop
    assert pictured == {i: report.crop_png(rows[i], places.get(i), shots) for i in pictured}
