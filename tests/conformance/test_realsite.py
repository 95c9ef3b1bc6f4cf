"""The whole flow on a real site nobody here wrote (The Embedded Rust Book, ../shared/realsite): a row per thing a
person meets. Eight of its pages (every kind of page the book has: chapter indexes, a glossary, code-heavy pages)
are captured, built and merged."""

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jfi.cli import app

pytestmark = pytest.mark.slow  # real Chromium

SITE = Path(__file__).resolve().parents[2].parent / "shared" / "realsite"
PAGES = 8


def jfi(*args):
    r = CliRunner().invoke(app, list(args))
    assert r.exit_code == 0, r.stderr
    return r


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    if not (SITE / "embedded-book").is_dir():
        if os.environ.get("JFI_REQUIRE_CONFORMANCE") == "1":
            pytest.fail(f"the real site is missing at {SITE}")
        pytest.skip(f"the real site is not at {SITE}")
    tmp = tmp_path_factory.mktemp("book")
    views = tmp / "views.txt"
    views.write_text("".join((SITE / "embedded-book-views.txt").read_text().splitlines(keepends=True)[:PAGES]))
    out = tmp / "audit"
    jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(views),
        "--serve",
        str(SITE / "embedded-book"),
        "--out",
        str(out),
        "--settle",
        "200",
    )
    jfi("audit", "build", "--inventory", str(out))
    jfi("audit", "merge", "--inventory", str(out))
    jfi("audit", "report", "--inventory", str(out))
    inventory = [json.loads(x) for x in (out / "inventory.jsonl").read_text().splitlines()[1:]]
    units = json.loads((out / "judgment-units.json").read_text())["units"]
    return out, inventory, units


def query(folder, sql):
    return json.loads(jfi("query", "--inventory", str(folder), "--format", "json", sql).stdout)


def test_no_icon_inside_a_named_control_is_an_image_row(book):
    _, inventory, units = book
    inside = [
        m for v in inventory for m in v["inventory"]["images"] if "presentational" in (m.get("not_applicable") or "")
    ]
    assert inside, "the book's theme button and chapter arrows hold icons"
    image_selectors = {u["selector"] for u in units if u["type"] == "image"}
    assert not image_selectors & {m["selector"] for m in inside}
    assert not [
        u
        for u in units
        if u["type"] == "image"
        and "image_no_accessible_name" in u["flags"]
        and re.search(r"button|nav-chapters|mobile-nav", u["selector"] or "")
    ]


def test_every_row_is_something_a_person_meets(book):
    folder, _, units = book
    for u in units:
        if u["type"] in ("heading", "link", "image", "field"):
            assert u["visible"] or u["exposed"], u
    hidden = query(folder, "SELECT count(*) AS n FROM audit_hidden_units")[0]["n"]
    assert hidden > 0  # the hidden theme menu and the like: captured, queryable, no rows


def test_the_mobile_chapter_arrows_fold_into_the_visible_ones(book):
    _, _, units = book
    arrows = [u for u in units if u["type"] == "link" and re.search(r"(Previous|Next) chapter", u["name"] or "")]
    assert arrows
    per_destination = {}
    for u in arrows:
        per_destination.setdefault((u["name"], u["href"]), []).append(u["id"])
    assert all(len(ids) == 1 for ids in per_destination.values()), per_destination


def test_no_permalink_is_a_same_name_different_destination_case(book):
    folder, _, _ = book
    [row] = query(folder, "SELECT count(*) FILTER (WHERE permalink) AS permalinks FROM audit_link_facts")
    assert row["permalinks"] > 0  # every heading of the book links to itself
    flagged = query(
        folder,
        "SELECT count(*) AS n FROM audit_flags AS f JOIN audit_link_facts AS l USING (pos, i) "
        "WHERE f.type = 'link' AND f.rule = 'same_name_different_hrefs_in_page' AND l.permalink",
    )
    assert flagged[0]["n"] == 0


def test_no_context_holds_script_or_hidden_text(book):
    _, inventory, units = book
    contexts = [u["context"] for u in units if u["type"] in ("link", "image")]
    contexts += [
        x.get("context") or x.get("adjacent_text") or ""
        for v in inventory
        for x in v["inventory"]["links"] + v["inventory"]["images"]
    ]
    for text in contexts:
        assert not re.search(r"localStorage|path_to_root|var \w+ =|function\s*\(", text), text
        assert "Light Rust Coal Navy Ayu" not in text, text  # the theme menu, hidden until opened


def test_every_crop_contains_its_outline_and_comes_from_an_occurrence_in_view(book):
    from jfi.audit.report import CROP_H, CROP_W

    folder, inventory, _ = book
    page = (folder / "report.html").read_text()
    outlines = re.findall(r'class="outline" style="left:(-?\d+)px;top:(-?\d+)px;width:(\d+)px;height:(\d+)px"', page)
    assert len(outlines) > 100
    for left, top, width, height in (map(int, o) for o in outlines):
        assert 0 <= left and left + width <= CROP_W and 0 <= top and top + height <= CROP_H
    clipped = [x for v in inventory for x in v["inventory"]["links"] if x.get("clipped")]
    assert clipped, "the book's sidebar scrolls: links above and below its fold are scrolled out of view"
    # a sidebar link is cropped where the sidebar shows it: no place is clipped while another occurrence is not
    [row] = query(
        folder,
        """
        WITH occ AS (
            SELECT u.id, p.clipped AS place_clipped, coalesce(l.clipped, false) AS clipped,
                l.box.width > 0 AND l.box.y + l.box.height > 0 AS drawn
            FROM audit_unit_places AS p JOIN audit_units AS u USING (id)
            JOIN audit_occurrences AS o ON o.type = u.type AND o.product = u.product AND o.unit_key = u.unit_key
            JOIN audit_links AS l ON l.pos = o.pos AND l.i = o.i
            WHERE u.type = 'link')
        SELECT count(DISTINCT id) FILTER (WHERE place_clipped AND NOT clipped AND drawn) AS wrong,
            (SELECT count(*) FROM (SELECT id FROM occ GROUP BY id HAVING bool_or(clipped) AND bool_or(NOT clipped))) AS mixed
        FROM occ""",
    )
    assert row["mixed"] > 0 and row["wrong"] == 0
    # a link scrolled out of view in the sidebar on every page is cropped from its picture scrolled into view, unless
    # the view's time for pictures ran out (a loaded machine), which the view's environment notes then say
    late = {
        (v["view_id"], v["viewport"])
        for v in inventory
        if any("time for pictures ran out" in n for n in v["environment_notes"])
    }
    places = query(folder, "SELECT view_id, viewport, clipped, shot FROM audit_unit_places")
    assert [p for p in places if p["shot"] > 0]
    assert not [p for p in places if p["clipped"] and (p["view_id"], p["viewport"]) not in late]
    if not late:
        assert "scrolled out of view inside its container) wherever" not in page
    assert (folder / "report-files").is_dir() and "data:image" not in page
