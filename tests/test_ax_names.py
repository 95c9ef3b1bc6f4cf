"""Every captured heading, link, image and field carries what Chromium itself exposes (Accessibility domain):
the computed name, where it came from, the role and whether it is exposed at all."""
import json
import shutil
from pathlib import Path

import pytest

from conftest import Jfi
from jfi.audit.axnames import describe, name_source

PAGES = Path(__file__).with_name("pages_ax")


@pytest.fixture(scope="module")
def elements(tmp_path_factory):
    site = tmp_path_factory.mktemp("ax")
    shutil.copy(PAGES / "names.html", site / "index.html")
    (site / "views.txt").write_text("names,lab,/\n")
    r = Jfi(site)("audit", "inventory", "--urls-file", str(site / "views.txt"), "--serve", str(site),
                  "--out", str(site / "out"), "--settle", "0", "--no-screenshots")
    assert r.exit_code == 0, r.stderr
    view = json.loads((site / "out" / "inventory.jsonl").read_text().splitlines()[1])
    assert view["environment_notes"] == []
    inv = view["inventory"]
    return {(kind, e["selector"]): e for kind in ("headings", "links", "images", "fields") for e in inv[kind]}


def ax(elements, kind, selector):
    return elements[(kind, selector)]["ax"]


@pytest.mark.parametrize("kind,selector,name,source,role", [
    ("links", "#lb-hidden", "Hidden label", "aria-labelledby", "link"),  # aria-labelledby may point at hidden text
    ("images", "#img-aria", "Aria words", "aria-label", "image"),      # aria-label wins over alt
    ("images", "#img-title", "W3C logo", "title", "image"),           # a title alone names an image
    ("images", "#inimg-alt", "Go", "alt", "button"),
    ("images", "#inimg-none", "Submit", "default", "button"),         # input type=image with no alt
    ("images", "#roleimg", "Five stars", "aria-label", "image"),
    ("images", "#svgt", "Chart title", "title", "image"),             # svg named by its <title> child
    ("links", "#link-img-aria", "Search", "contents", "link"),        # a link named by its image's aria-label
    ("links", "#link-img-title", "Timetables", "contents", "link"),
    ("fields", "#f-lab", "Email", "label", "textbox"),
    ("fields", "#f-ph", "Search the site", "placeholder", "textbox"),  # the source says it is only a placeholder
])
def test_names_are_the_browsers_own(elements, kind, selector, name, source, role):
    got = ax(elements, kind, selector)
    assert got == {"name": name, "name_source": source, "role": role, "exposed": True}


def test_the_approximation_is_kept_beside_the_computed_name(elements):
    link = elements[("links", "#lb-hidden")]
    assert link["name"] == "Hidden label" and link["ax"]["name"] == "Hidden label"
    image = elements[("images", "#img-aria")]
    assert image["alt"] == "alt words" and image["ax"]["name"] == "Aria words"
    heading = elements[("headings", "#h-hidden")]
    assert heading["text"] == "Only hidden" and heading["ax"] == {"name": "", "name_source": None, "role": "heading",
                                                                   "exposed": True}


@pytest.mark.parametrize("kind,selector", [
    ("links", "#l-none"), ("links", "#l-vis"), ("links", "#l-aria"),       # display:none, visibility, aria-hidden
    ("images", "#deco-empty"), ("images", "#deco-role"),                   # alt="" and role=presentation
])
def test_hidden_and_decorative_elements_are_not_exposed(elements, kind, selector):
    assert ax(elements, kind, selector)["exposed"] is False
    assert ax(elements, kind, selector)["name"] == ""


def test_unnamed_images_are_exposed_with_an_empty_name(elements):
    assert ax(elements, "images", "#roleimg-none") == {"name": "", "name_source": None, "role": "image", "exposed": True}
    assert ax(elements, "images", "#alt-space") == {"name": "", "name_source": None, "role": "image", "exposed": True}


def test_protocol_nodes_in_jfis_words():
    assert describe(None) == {"name": "", "name_source": None, "role": None, "exposed": False}
    assert describe({"ignored": True, "role": {"value": "none"}})["exposed"] is False
    node = {"role": {"value": "textbox"}, "name": {"value": " Email  address ", "sources": [
        {"type": "relatedElement", "attribute": "aria-labelledby"},
        {"type": "relatedElement", "nativeSource": "labelfor", "value": {"value": "Email address"}}]}}
    assert describe(node) == {"name": "Email address", "name_source": "label", "role": "textbox", "exposed": True}
    assert name_source({"sources": [{"type": "attribute", "attribute": "alt", "value": {"value": "x"},
                                     "superseded": True}, {"type": "contents", "value": {"value": "y"}}]}) == "contents"


@pytest.fixture(scope="module")
def units(tmp_path_factory):
    site = tmp_path_factory.mktemp("axunits")
    shutil.copy(PAGES / "names.html", site / "index.html")
    (site / "views.txt").write_text("names,lab,/\n")
    jfi = Jfi(site)
    assert jfi("audit", "inventory", "--urls-file", str(site / "views.txt"), "--serve", str(site), "--out",
               str(site / "out"), "--settle", "0", "--no-screenshots").exit_code == 0
    assert jfi("audit", "build", "--inventory", str(site / "out")).exit_code == 0
    built = json.loads((site / "out" / "judgment-units.json").read_text())["units"]
    return {u["selector"]: u for u in built}



def objective(unit):
    return [f for f in unit["flags"] if f.endswith("_no_accessible_name")]


@pytest.mark.parametrize("selector,flag", [
    ("#roleimg-none", "image_no_accessible_name"),
    ("#alt-space", "image_no_accessible_name"),
    ("#empty-link", "link_no_accessible_name"),
    ("#f-none", "field_no_accessible_name"),
    ("#h-hidden", "heading_no_accessible_name"),
])
def test_objective_flags_come_from_the_computed_name(units, selector, flag):
    assert objective(units[selector]) == [flag]


@pytest.mark.parametrize("selector", ["#img-title", "#img-aria", "#inimg-none", "#svgt", "#roleimg", "#link-img-aria",
                                      "#link-img-title", "#lb-hidden", "#f-lab", "#f-ph"])
def test_named_elements_get_no_objective_flag(units, selector):
    assert objective(units[selector]) == []


@pytest.mark.parametrize("selector", ["#hidden-generic", "#hidden-noalt", "#ariahidden-noalt", "#l-none", "#l-vis",
                                      "#l-aria", "#deco-empty", "#deco-role"])
def test_hidden_and_decorative_elements_get_no_flag_that_counts(units, selector):
    from jfi.store import Store
    store = Store(sections=("audit",)).build()
    try:
        informational = {r[0] for r in store.con.execute(
            "SELECT pattern FROM audit_flag_rules WHERE informational").fetchall()}
    finally:
        store.close()
    import re
    counted = [f for f in units[selector]["flags"] if not any(re.match(p, f) for p in informational)]
    assert counted == [], (selector, units[selector]["flags"])


def test_aria_fields_pseudo_links_areas_and_open_shadow_roots_are_captured(tmp_path):
    shutil.copy(PAGES / "kinds.html", tmp_path / "index.html")
    (tmp_path / "views.txt").write_text("kinds,lab,/\n")
    r = Jfi(tmp_path)("audit", "inventory", "--urls-file", str(tmp_path / "views.txt"), "--serve", str(tmp_path),
                      "--out", str(tmp_path / "out"), "--settle", "0", "--no-screenshots")
    assert r.exit_code == 0, r.stderr
    inv = json.loads((tmp_path / "out" / "inventory.jsonl").read_text().splitlines()[1])["inventory"]
    fields = {f["selector"]: f for f in inv["fields"]}
    assert fields["#tb"]["type"] == "textbox" and fields["#tb"]["ax"]["name"] == "Notes"
    assert fields["#cb"]["type"] == "checkbox" and fields["#cb"]["ax"]["role"] == "checkbox"
    assert fields["#sw"]["ax"]["name"] == "Dark mode" and fields["#ce"]["type"] == "contenteditable"
    assert fields["#sf"]["ax"] == {"name": "Shadow field", "name_source": "label", "role": "textbox", "exposed": True}
    links = {x["selector"]: x for x in inv["links"]}
    assert links["#rl"]["ax"]["role"] == "link" and links["#rl"]["ax"]["name"] == "Pseudo link"
    assert links["#sl"]["ax"]["name"] == "Inside the shadow"
    assert "#area" in links and "#area" in {m["selector"] for m in inv["images"]}
    assert "Shadow heading" in [h["text"] for h in inv["headings"]]
