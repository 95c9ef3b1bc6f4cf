"""report.html in real Chromium: filters change what is shown and stay in the URL, every crop loads, no console
error, and jfi's own audit of the report finds no objective defect."""
import asyncio
import json
import shutil
from pathlib import Path

import pytest

from conftest import Jfi

SITE = Path(__file__).resolve().parent.parent / "corpus" / "example-site"
OBJECTIVE = {"title_empty", "heading_empty", "link_empty_name", "img_missing_alt_attr", "functional_image_no_name",
             "svg_unnamed_not_hidden", "field_unlabeled_none", "image_no_accessible_name", "link_no_accessible_name",
             "field_no_accessible_name", "heading_no_accessible_name"}


@pytest.fixture(scope="module")
def reported(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    jfi = Jfi(root)
    audit = root / "audit"
    r = jfi("audit", "inventory", "--urls-file", str(SITE / "views.txt"), "--serve", str(SITE), "--out", str(audit),
            "--settle", "0")
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
        browser = await p.chromium.launch(**launch_options())
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
                "() => Array.from(document.querySelectorAll('.row')).filter((r) => !r.hidden).map((r) => r.dataset.type)")
            await page.goto(page_url + "?type=link")  # a shared URL opens on its filter
            reopened = (await page.evaluate(visible), await page.locator("#f-type").input_value())
            crops = await page.evaluate("""async () => {
                const out = [];
                for (const crop of document.querySelectorAll('.crop')) {
                    const url = getComputedStyle(crop).backgroundImage.slice(5, -2);
                    const img = new Image();
                    const ok = await new Promise((done) => { img.onload = () => done(img.naturalWidth > 0); img.onerror = () => done(false); img.src = url; });
                    out.push(ok);
                }
                return out;
            }""")
            return {"errors": errors, "total": total, "before": before, "images": images, "kept": kept, "both": both,
                    "shown_types": shown_types, "reopened": reopened, "crops": crops}
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
    r = jfi("audit", "inventory", "--urls-file", str(site / "views.txt"), "--serve", str(site), "--out",
            str(tmp_path / "self"), "--settle", "0", "--no-screenshots")
    assert r.exit_code == 0, r.stderr
    assert jfi("audit", "build", "--inventory", str(tmp_path / "self")).exit_code == 0
    units = json.loads((tmp_path / "self" / "judgment-units.json").read_text())["units"]
    found = {(u["id"], f) for u in units for f in u["flags"] if f in OBJECTIVE}
    assert found == set()
    assert any(u["type"] == "field" for u in units)  # the filters were audited as fields, and are labelled
