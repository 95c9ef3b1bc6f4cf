"""Every captured heading, link, image and field carries what Chromium itself exposes (Accessibility domain):
the computed name, where it came from, the role and whether it is exposed at all."""

import json
import shutil
from pathlib import Path

import pytest
from conftest import Jfi

from jfi.capture.axnames import describe, name_source

pytestmark = pytest.mark.slow  # real Chromium

PAGES = Path(__file__).with_name("pages_ax")


@pytest.fixture(scope="module")
def names_page(tmp_path_factory):
    """names.html captured once and built, for the elements as captured and the units built from them."""
    return captured(tmp_path_factory, "names.html")


@pytest.fixture(scope="module")
def elements(names_page):
    _, out = names_page
    view = json.loads((out / "inventory.jsonl").read_text().splitlines()[1])
    assert view["environment_notes"] == []
    inv = view["inventory"]
    return {(kind, e["selector"]): e for kind in ("headings", "links", "images", "fields") for e in inv[kind]}


def ax(elements, kind, selector):
    return elements[(kind, selector)]["ax"]


@pytest.mark.parametrize(
    "kind,selector,name,source,role",
    [
        ("links", "#lb-hidden", "Hidden label", "aria-labelledby", "link"),  # aria-labelledby may point at hidden text
        ("images", "#img-aria", "Aria words", "aria-label", "image"),  # aria-label wins over alt
        ("images", "#img-title", "W3C logo", "title", "image"),  # a title alone names an image
        ("images", "#inimg-alt", "Go", "alt", "button"),
        ("images", "#inimg-none", "Submit", "default", "button"),  # input type=image with no alt
        ("images", "#roleimg", "Five stars", "aria-label", "image"),
        ("images", "#svgt", "Chart title", "title", "image"),  # svg named by its <title> child
        ("links", "#link-img-aria", "Search", "contents", "link"),  # a link named by its image's aria-label
        ("links", "#link-img-title", "Timetables", "contents", "link"),
        ("fields", "#f-lab", "Email", "label", "textbox"),
        ("fields", "#f-ph", "Search the site", "placeholder", "textbox"),  # the source says it is only a placeholder
    ],
)
def test_names_are_the_browsers_own(elements, kind, selector, name, source, role):
    got = ax(elements, kind, selector)
    assert got == {"name": name, "name_source": source, "role": role, "exposed": True}


def test_the_approximation_is_kept_beside_the_computed_name(elements):
    link = elements[("links", "#lb-hidden")]
    assert link["name"] == "Hidden label" and link["ax"]["name"] == "Hidden label"
    image = elements[("images", "#img-aria")]
    assert image["alt"] == "alt words" and image["ax"]["name"] == "Aria words"
    heading = elements[("headings", "#h-hidden")]
    assert heading["text"] == "Only hidden" and heading["ax"] == {
        "name": "",
        "name_source": None,
        "role": "heading",
        "exposed": True,
    }


@pytest.mark.parametrize(
    "kind,selector",
    [
        ("links", "#l-none"),
        ("links", "#l-vis"),
        ("links", "#l-aria"),  # display:none, visibility, aria-hidden
        ("images", "#deco-empty"),
        ("images", "#deco-role"),  # alt="" and role=presentation
    ],
)
def test_hidden_and_decorative_elements_are_not_exposed(elements, kind, selector):
    assert ax(elements, kind, selector)["exposed"] is False
    assert ax(elements, kind, selector)["name"] == ""


def test_unnamed_images_are_exposed_with_an_empty_name(elements):
    assert ax(elements, "images", "#roleimg-none") == {
        "name": "",
        "name_source": None,
        "role": "image",
        "exposed": True,
    }
    assert ax(elements, "images", "#alt-space") == {"name": "", "name_source": None, "role": "image", "exposed": True}


def test_protocol_nodes_in_jfis_words():
    assert describe(None) == {"name": "", "name_source": None, "role": None, "exposed": False}
    assert describe({"ignored": True, "role": {"value": "none"}})["exposed"] is False
    node = {
        "role": {"value": "textbox"},
        "name": {
            "value": " Email  address ",
            "sources": [
                {"type": "relatedElement", "attribute": "aria-labelledby"},
                {"type": "relatedElement", "nativeSource": "labelfor", "value": {"value": "Email address"}},
            ],
        },
    }
    assert describe(node) == {"name": "Email address", "name_source": "label", "role": "textbox", "exposed": True}
    assert (
        name_source(
            {
                "sources": [
                    {"type": "attribute", "attribute": "alt", "value": {"value": "x"}, "superseded": True},
                    {"type": "contents", "value": {"value": "y"}},
                ]
            }
        )
        == "contents"
    )


def captured(tmp_path_factory, page: str) -> tuple[Jfi, Path]:
    """One test page captured in Chromium (served, no port) and built: (runner, audit folder)."""
    site = tmp_path_factory.mktemp(page.split(".")[0])
    shutil.copy(PAGES / page, site / "index.html")
    (site / "views.txt").write_text("page,lab,/\n")
    jfi = Jfi(site)
    assert (
        jfi(
            "audit",
            "inventory",
            "--urls-file",
            str(site / "views.txt"),
            "--serve",
            str(site),
            "--out",
            str(site / "out"),
            "--settle",
            "0",
            "--no-screenshots",
            "--no-axe",
        ).exit_code
        == 0
    )
    assert jfi("audit", "build", "--inventory", str(site / "out")).exit_code == 0
    return jfi, site / "out"


@pytest.fixture(scope="module")
def units(names_page):
    jfi, out_dir = names_page
    built = json.loads((out_dir / "judgment-units.json").read_text())["units"]
    out = Units({u["selector"]: u for u in built})
    out.hidden = {
        r["selector"]
        for r in jfi(
            "query", "--inventory", str(out_dir), "--format", "json", "SELECT selector FROM audit_hidden_units"
        ).json
    }
    return out


class Units(dict):
    """Units by selector; `hidden`: the selectors of what was captured but neither drawn nor exposed anywhere."""

    hidden: set


def objective(unit):
    return [f for f in unit["flags"] if f.endswith("_no_accessible_name")]


@pytest.mark.parametrize(
    "selector,flag",
    [
        ("#roleimg-none", "image_no_accessible_name"),
        ("#alt-space", "image_no_accessible_name"),
        ("#empty-link", "link_no_accessible_name"),
        ("#f-none", "field_no_accessible_name"),
        ("#h-hidden", "heading_no_accessible_name"),
        ("#inimg-none", "image_no_accessible_name"),  # Chromium's default "Submit" is no name an author gave
    ],
)
def test_objective_flags_come_from_the_computed_name(units, selector, flag):
    assert objective(units[selector]) == [flag]


@pytest.mark.parametrize(
    "selector",
    [
        "#img-title",
        "#img-aria",
        "#inimg-alt",
        "#roleimg",
        "#link-img-aria",
        "#link-img-title",
        "#lb-hidden",
        "#f-lab",
        "#f-ph",
    ],
)
def test_named_elements_get_no_objective_flag(units, selector):
    assert objective(units[selector]) == []


@pytest.mark.parametrize(
    "selector",
    [
        "#hidden-generic",
        "#hidden-noalt",
        "#ariahidden-noalt",
        "#l-none",
        "#l-vis",
        "#l-aria",
        "#deco-empty",
        "#deco-role",
    ],
)
def test_hidden_and_decorative_elements_get_no_flag_that_counts(units, selector):
    from jfi.store import Store

    store = Store(sections=("audit",)).build()
    try:
        informational = {
            r[0] for r in store.con.execute("SELECT pattern FROM audit_flag_rules WHERE informational").fetchall()
        }
    finally:
        store.close()
    import re

    if selector not in units:  # neither drawn nor exposed anywhere: no row at all, only queryable
        assert selector in units.hidden, selector
        return
    counted = [f for f in units[selector]["flags"] if not any(re.match(p, f) for p in informational)]
    assert counted == [], (selector, units[selector]["flags"])


def test_what_is_neither_drawn_nor_exposed_anywhere_is_no_judgment_row(units):
    assert {"#l-none", "#hidden-noalt"} <= units.hidden and not units.hidden & set(units)
    assert "#roleimg" in units  # drawn at no size, but exposed: a screen reader meets it


def test_aria_fields_pseudo_links_areas_and_open_shadow_roots_are_captured(tmp_path):
    shutil.copy(PAGES / "kinds.html", tmp_path / "index.html")
    (tmp_path / "views.txt").write_text("kinds,lab,/\n")
    r = Jfi(tmp_path)(
        "audit",
        "inventory",
        "--urls-file",
        str(tmp_path / "views.txt"),
        "--serve",
        str(tmp_path),
        "--out",
        str(tmp_path / "out"),
        "--settle",
        "0",
        "--no-screenshots",
        "--no-axe",
    )
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


@pytest.fixture(scope="module")
def frames(tmp_path_factory):
    """Same-origin frames (one inside another), a frame of another origin, objects, canvases, a picture, image
    maps whose image does not load, and a field inside a shadow root wrapped by a label outside it."""
    site = tmp_path_factory.mktemp("frames")
    for name in ("framed.html", "deeper.html", "shape.svg"):
        shutil.copy(PAGES / name, site / name)
    shutil.copy(PAGES / "frames.html", site / "index.html")
    (site / "views.txt").write_text("frames,lab,/\n")
    jfi = Jfi(site)
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(site / "views.txt"),
        "--serve",
        str(site),
        "--out",
        str(site / "out"),
        "--settle",
        "0",
        "--no-screenshots",
        "--no-axe",
    )
    assert r.exit_code == 0, r.stderr
    view = json.loads((site / "out" / "inventory.jsonl").read_text().splitlines()[1])
    assert jfi("audit", "build", "--inventory", str(site / "out")).exit_code == 0
    units = json.loads((site / "out" / "judgment-units.json").read_text())["units"]
    found = {
        (kind, e["selector"]): e for kind in ("headings", "links", "images", "fields") for e in view["inventory"][kind]
    }
    return view, found, units


@pytest.mark.parametrize(
    "kind,selector,frame,name",
    [
        ("headings", "#fh", "#fr", "Framed heading"),
        ("links", "#fl", "#fr", "Framed link"),
        ("images", "#fi", "#fr", "Framed image"),
        ("fields", "#ff", "#fr", "Framed field"),
        ("links", "#dl", "#fr >>> #deeper", "Deep link"),  # a frame inside a frame
    ],
)
def test_same_origin_frames_are_captured_with_their_frame(frames, kind, selector, frame, name):
    _, found, _ = frames
    element = found[(kind, selector)]
    assert element["frame"] == frame and element["ax"]["name"] == name and element["ax"]["exposed"] is True


def test_a_frame_of_another_origin_is_neither_loaded_nor_read(frames):
    view, found, _ = frames
    assert "1 request(s) to another origin blocked" in view["environment_notes"]
    assert all(e.get("frame") in (None, "#fr", "#fr >>> #deeper") for e in found.values())
    assert "frame" not in found[("headings", "html > body > main > h1")]  # top-document records keep their shape


@pytest.mark.parametrize(
    "selector,name,source,exposed",
    [
        ("#obj-fallback", "Annual report figures", "contents", True),  # an object that did not load reads its fallback
        ("#obj-svg", "", None, True),  # a loaded object with no name of its own
        ("#obj-aria", "Blue square", "aria-label", True),
        ("#cv-none", "", None, True),
        ("#cv-aria", "Sales chart", "aria-label", True),
        ("#pic-img", "Square picture", "alt", True),  # a picture is its img
        ("#area-alt", "North pier", "alt", True),  # the map's image did not load: named as Chromium would
        ("#area-none", "", None, True),
        ("#area-hidden", "", None, False),  # its image is display:none
    ],
)
def test_objects_canvases_pictures_and_areas(frames, selector, name, source, exposed):
    _, found, _ = frames
    got = found[("images", selector)]["ax"]
    assert (got["name"], got["name_source"], got["exposed"]) == (name, source, exposed)


def test_a_field_inside_a_shadow_root_wrapped_by_an_outer_label_gets_chromiums_name(frames):
    _, found, units = frames
    assert found[("fields", "#inner-field")]["ax"] == {
        "name": "",
        "name_source": None,
        "role": "textbox",
        "exposed": True,
    }
    unit = next(u for u in units if u["selector"] == "#inner-field")
    assert "field_no_accessible_name" in unit["flags"]


@pytest.mark.parametrize(
    "selector,flags",
    [
        ("#obj-svg", ["image_no_accessible_name"]),
        ("#cv-none", ["image_no_accessible_name"]),
        ("#area-none", ["image_no_accessible_name"]),
        ("#obj-fallback", []),
        ("#obj-aria", []),
        ("#cv-aria", []),
        ("#area-alt", []),
        ("#area-hidden", None),  # None: its image is display:none, so the area is no row at all
    ],
)
def test_one_flag_for_every_kind_of_unnamed_image(frames, selector, flags):
    _, _, units = frames
    unit = next((u for u in units if u["type"] == "image" and u["selector"] == selector), None)
    assert (None if unit is None else objective(unit)) == flags


def test_units_in_frames_say_so_and_unnamed_links_there_are_flagged(frames):
    _, _, units = frames
    link = next(u for u in units if u["selector"] == "#fl-empty")
    assert link["frame"] == "#fr" and objective(link) == ["link_no_accessible_name"]
    assert next(u for u in units if u["selector"] == "#area-none" and u["type"] == "link")["flags"] == [
        "link_no_accessible_name"
    ]


def test_units_carry_the_computed_name_with_the_approximation_beside_it(units):
    image = units["#img-aria"]
    assert (image["name"], image["dom_name"], image["name_source"], image["role"]) == (
        "Aria words",
        "alt words",
        "aria-label",
        "image",
    )
    assert units["#img-title"]["name"] == "W3C logo" and units["#img-title"]["dom_name"] == "(no alt attribute)"
    heading = units["#h-hidden"]
    assert heading["name"] == "" and heading["dom_name"] == "Only hidden"
    field = units["#f-ph"]
    assert field["name"] == "Search the site" and field["name_source"] == "placeholder"
    assert "field_unlabeled_placeholder-only" in field["flags"]  # a placeholder alone is still no label
    assert all(u["needs_human"] is False for u in units.values() if u["type"] != "title")
    assert "#l-none" not in units and "#l-none" in units.hidden  # display:none everywhere: no row


def test_names_from_the_tree_silence_the_approximations_false_alarms(units):
    assert "img_missing_alt_attr" not in units["#img-title"]["flags"]  # a title names it
    assert "link_empty_name" not in units["#link-img-aria"]["flags"]  # its image's aria-label names it
    assert units["#inimg-none"]["name"] == "(no alt attribute)"  # not Chromium's default "Submit"
    assert "heading_empty" not in units["#h-hidden"]["flags"]  # said once, by the tree's flag


def test_a_manifest_made_elsewhere_is_named_by_its_approximation_and_marked(tmp_path, units):
    """The same page captured without the tree (a content-inventory/v1 manifest): names and flags are the DOM
    approximation's, and every element unit says a person must check it."""
    from inventories import image, link, view, write

    write(
        tmp_path / "a",
        [
            view(
                "names",
                "lab",
                links=[link("", "/e", selector="#empty-link", name_source="none")],
                images=[image("/x.png", None, title="W3C logo", selector="#img-title")],
            )
        ],
    )
    r = Jfi(tmp_path)("audit", "build", "--inventory", str(tmp_path / "a"))
    assert r.exit_code == 0, r.stderr
    got = {u["selector"]: u for u in json.loads((tmp_path / "a" / "judgment-units.json").read_text())["units"]}
    assert got["#empty-link"]["needs_human"] is True and got["#empty-link"]["flags"] == ["link_empty_name"]
    assert got["#img-title"]["needs_human"] is True and got["#img-title"]["exposed"] is None
    assert got["#img-title"]["flags"][0] == "img_missing_alt_attr"  # the approximation cannot know better


@pytest.fixture(scope="module")
def applicability(tmp_path_factory):
    """The applicability page captured and built: (image records by selector, units by selector, link records)."""
    _, out = captured(tmp_path_factory, "applicability.html")
    view = json.loads((out / "inventory.jsonl").read_text().splitlines()[1])["inventory"]
    built = json.loads((out / "judgment-units.json").read_text())["units"]
    return (
        {m["selector"]: m for m in view["images"]},
        {u["selector"]: u for u in built},
        {ln["selector"]: ln for ln in view["links"]},
        {f["selector"]: f for f in view["fields"]},
    )


@pytest.mark.parametrize(
    "selector,why",
    [
        ("#btn-svg > svg", "inside a button"),
        ("#btn-img > img", "inside a button"),
        ("#link-arrow > svg", "without an img"),
        ("#bare-svg", "without an img"),
        ("#img-in-tab", "inside a tab"),
        ("#obj-pres", "presentational object"),
        ("#obj-fallback", "fallback"),
    ],
)
def test_no_image_question_applies_where_the_rules_say_none_does(applicability, selector, why):
    images, units, *_ = applicability
    assert why in images[selector]["not_applicable"], images[selector]
    assert selector not in units  # no image row: a screen reader says the control's name, never the icon


@pytest.mark.parametrize("selector", ["#svg-img-in-link", "#svg-roleimg", "#fallback-img", "#inimg-default"])
def test_an_image_question_applies_to_images_and_graphics_roles(applicability, selector):
    images, units, *_ = applicability
    assert "not_applicable" not in images[selector] and units[selector]["type"] == "image"


def test_the_browsers_default_name_of_an_image_button_is_no_name(applicability):
    _, units, *_ = applicability
    assert "image_no_accessible_name" in units["#inimg-default"]["flags"]


def test_a_permalink_is_never_a_same_name_different_destination_case(applicability):
    _, units, links, _ = applicability
    assert links["#permalink"]["permalink"] is True and "permalink" not in links["#side"]
    assert "permalink" not in links["#perm-target"]  # a link to a section from elsewhere is a choice, not a permalink
    for sel in ("#permalink", "#side"):
        assert "same_name_different_hrefs_in_page" not in units[sel]["flags"], units[sel]


def test_context_is_only_the_text_a_person_perceives(applicability):
    _, _, links, _ = applicability
    context = links["#ctx-link"]["context"]
    assert context == "Before the link after."
    for hidden in ("script words", "hidden words", "aria words", "none words", "secret"):
        assert hidden not in context


def test_an_image_only_link_is_boxed_around_its_image_and_a_field_records_its_label(applicability):
    images, _, links, fields = applicability
    assert links["#logo-link"]["box"] == images["#logo"]["box"]  # not the text line box it sits on
    field = fields["#q"]
    assert field["label_box"]["width"] > 0 and field["label_box"]["x"] < field["box"]["x"]


# Viewports: a view captured at each viewport the audit names; one unit per thing a person meets at any of them


@pytest.fixture(scope="module")
def responsive(tmp_path_factory):
    site = tmp_path_factory.mktemp("responsive")
    shutil.copy(PAGES / "responsive.html", site / "index.html")
    (site / "views.txt").write_text("page,lab,/\n")
    jfi = Jfi(site)
    (site / "out").mkdir()
    (site / "out" / "audit.toml").write_text('[capture]\nviewports = ["1440x900", "390x844"]\n')
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(site / "views.txt"),
        "--serve",
        str(site),
        "--out",
        str(site / "out"),
        "--settle",
        "0",
        "--no-axe",
    )
    assert r.exit_code == 0, r.stderr
    assert jfi("audit", "build", "--inventory", str(site / "out")).exit_code == 0
    return jfi, site / "out"


def test_each_view_is_captured_at_each_viewport_the_audit_names(responsive):
    _, out = responsive
    lines = [json.loads(x) for x in (out / "inventory.jsonl").read_text().splitlines()]
    assert [v["id"] for v in lines[0]["viewports"]] == ["desktop-1440", "phone-390"]
    assert [(r["view_id"], r["viewport"]) for r in lines[1:]] == [("page", "desktop-1440"), ("page", "phone-390")]
    assert sorted(p.name for p in (out / "screenshots").iterdir()) == ["page__desktop-1440.png", "page__phone-390.png"]


def test_an_element_shown_at_one_viewport_only_is_one_unit_with_both_occurrences(responsive):
    jfi, out = responsive
    units = json.loads((out / "judgment-units.json").read_text())["units"]
    links = {u["name"]: u for u in units if u["type"] == "link"}
    assert {"Guide", "Reference", "Download for desktop", "Get the app", "Next chapter"} == set(links)
    # the wide arrow and the phone's arrow, each shown at one width only: one unit with all four occurrences
    arrows = [u for u in units if u["type"] == "link" and u["name"] == "Next chapter"]
    assert len(arrows) == 1 and arrows[0]["occurrences"] == 4
    assert all(u["view_count"] == 1 and u["views"] == ["page"] for u in links.values())
    hidden = {
        r["name"]
        for r in jfi("query", "--inventory", str(out), "--format", "json", "SELECT name FROM audit_hidden_units").json
    }
    assert hidden == {"Never shown"}  # hidden at every viewport: captured, no row
    # the app link is met on a phone: its crop comes from the phone's screenshot
    place = jfi(
        "query",
        "--inventory",
        str(out),
        "--format",
        "json",
        f"SELECT viewport FROM audit_unit_places WHERE id = '{links['Get the app']['id']}'",
    ).json
    assert place == [{"viewport": "phone-390"}]
    assert jfi("audit", "merge", "--inventory", str(out)).exit_code == 0
    basis = json.loads((out / "draft-judgments.json").read_text())["coverage_basis"]
    assert basis["activation"] == "none — read-only capture, 2 viewports (desktop-1440, phone-390)"
    nav = jfi(
        "query",
        "--inventory",
        str(out),
        "--format",
        "json",
        "SELECT view_id, viewport FROM audit_nav_consistency ORDER BY viewport",
    ).json
    assert nav == [{"view_id": "page", "viewport": "desktop-1440"}, {"view_id": "page", "viewport": "phone-390"}]


def test_viewports_are_checked_where_they_are_read(tmp_path):
    jfi = Jfi(tmp_path)
    (tmp_path / "views.txt").write_text("page,lab,/\n")
    for given, code in ((["--viewport", "１４４０x900"], 3), (["--viewport", "1440x900", "--viewport", "1440x800"], 3)):
        r = jfi(
            "audit",
            "inventory",
            "--urls-file",
            str(tmp_path / "views.txt"),
            "--serve",
            str(tmp_path),
            "--out",
            str(tmp_path / "out"),
            *given,
        )
        assert r.exit_code == code and "invalid_viewport" in r.stderr and not (tmp_path / "out").exists()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "audit.toml").write_text('[capture]\nviewports = "390x844"\n')
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(tmp_path / "views.txt"),
        "--serve",
        str(tmp_path),
        "--out",
        str(tmp_path / "out"),
    )
    assert r.exit_code == 2 and "invalid_config" in r.stderr and "audit.toml" in r.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["audit.toml"]


# Crops of elements scrolled out of view inside their containers: photographed scrolled into view


def captured_page(tmp_path_factory, page: str, view: str):
    """(jfi, out): one test page captured as the view `view` of product book, served from a folder of its own."""
    site = tmp_path_factory.mktemp(page.split(".")[0])
    shutil.copy(PAGES / page, site / "index.html")
    (site / "views.txt").write_text(f"book,{view},/\n")
    jfi = Jfi(site)
    out = site / "out"
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(site / "views.txt"),
        "--serve",
        str(site),
        "--out",
        str(out),
        "--settle",
        "0",
        "--no-axe",
    )
    assert r.exit_code == 0, r.stderr
    return jfi, out


@pytest.fixture(scope="module")
def sidebar(tmp_path_factory):
    jfi, out = captured_page(tmp_path_factory, "sidebar.html", "lab")
    for step in ("build", "merge", "report"):
        assert jfi("audit", step, "--inventory", str(out)).exit_code == 0
    return jfi, out


def test_an_element_scrolled_out_of_view_in_its_container_is_photographed_scrolled_into_view(sidebar):
    from PIL import Image

    _, out = sidebar
    [rec] = [json.loads(x) for x in (out / "inventory.jsonl").read_text().splitlines()[1:]]
    chapters = [x for x in rec["inventory"]["links"] if x["name"].startswith("Chapter ")]
    below = [x for x in chapters if x.get("clipped")]
    assert len(chapters) == 60 and len(below) > 30  # about 22 fit above the sidebar's fold
    assert rec["reveals"] and all((out / shot).is_file() for shot in rec["reveals"])
    for link in below:
        seen = link["revealed"]
        box = seen["box"]
        assert 0 <= box["x"] and box["x"] + box["width"] <= 1440 and 0 <= box["y"] and box["y"] + box["height"] <= 900
        # the picture shows this link where its box says: its own background colour at the box's middle
        number = int(link["name"].split()[1])
        with Image.open(out / rec["reveals"][seen["shot"] - 1]) as shot:
            pixel = shot.convert("RGB").getpixel((box["x"] + 3, box["y"] + box["height"] // 2))
        assert pixel == ((number * 37) % 256, (number * 91) % 256, 200 - number), (link["name"], pixel)


def test_an_element_further_down_than_the_screenshot_reaches_is_photographed_in_a_tile(sidebar):
    from PIL import Image

    _, out = sidebar
    [rec] = [json.loads(x) for x in (out / "inventory.jsonl").read_text().splitlines()[1:]]
    [far] = [x for x in rec["inventory"]["links"] if x["name"] == "Far down the page"]
    assert far["box"]["y"] > 15000 and not far.get("clipped")
    box = far["revealed"]["box"]
    with Image.open(out / rec["reveals"][far["revealed"]["shot"] - 1]) as tile:
        assert tile.size[1] <= 10000
        assert tile.convert("RGB").getpixel((box["x"] + 1, box["y"] + 1)) == (1, 2, 3)  # its background, not a glyph


def test_a_unit_scrolled_out_of_view_everywhere_is_cropped_from_its_reveal(sidebar):
    jfi, out = sidebar
    places = jfi(
        "query",
        "--inventory",
        str(out),
        "--format",
        "json",
        """
        SELECT u.name, p.shot, p.clipped, p.scrolled FROM audit_unit_places AS p JOIN audit_units AS u USING (id)
        WHERE u.type = 'link'""",
    ).json
    by_name = {p["name"]: p for p in places}
    assert (
        by_name["Chapter 1"]["shot"] == 0
        and by_name["Chapter 60"]["shot"] > 0
        and by_name["Far down the page"]["shot"] > 0
    )
    assert not [p for p in places if p["clipped"]]  # every link has a picture that shows it
    # a screenful with the link scrolled into view in the sidebar, or a tile of the page further down: said as such
    assert by_name["Chapter 60"]["scrolled"] is True and by_name["Far down the page"]["scrolled"] is False
    assert by_name["Chapter 1"]["scrolled"] is False
    page = (out / "report.html").read_text()
    assert "scrolled out of view inside its container" not in page and "below the screenshot" not in page
    assert "scrolled to show it in its container" in page and "further down the page than its screenshot" in page


def test_elements_left_without_a_picture_when_time_runs_out_are_counted_in_the_views_notes(
    sidebar, tmp_path, monkeypatch
):
    from jfi.capture import reveal

    jfi, out = sidebar
    monkeypatch.setattr(reveal, "BUDGET_S", 0)
    again = tmp_path / "late"
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(out.parent / "views.txt"),
        "--serve",
        str(out.parent),
        "--out",
        str(again),
        "--settle",
        "0",
        "--no-axe",
    )
    assert r.exit_code == 0, r.stderr
    [rec] = [json.loads(x) for x in (again / "inventory.jsonl").read_text().splitlines()[1:]]
    from jfi.manifest import SHOT_MAX_HEIGHT

    things = [x for kind in reveal.KINDS for x in rec["inventory"][kind] if x["box"]["width"] and x["box"]["height"]]
    unseen = [x for x in things if x.get("clipped") or x["box"]["y"] + x["box"]["height"] > SHOT_MAX_HEIGHT]
    assert len(unseen) > 30 and not [x for x in things if x.get("revealed")]
    assert (
        f"{len(unseen)} element(s) out of the screenshot's view left without a picture: the view's time for "
        "pictures ran out" in rec["environment_notes"]
    )
    [done] = [json.loads(x) for x in (out / "inventory.jsonl").read_text().splitlines()[1:]]
    assert not [n for n in done["environment_notes"] if "time for pictures" in n]


# Boxes from the state each picture shows: a header that compacts (in a tall viewport, and on scroll)


@pytest.fixture(scope="module")
def compacting(tmp_path_factory):
    _, out = captured_page(tmp_path_factory, "compacting-header.html", "page")
    return out, json.loads((out / "inventory.jsonl").read_text().splitlines()[1])


@pytest.mark.parametrize(
    "name, colour", [("First mark", (250, 0, 250)), ("Second mark", (0, 250, 250)), ("Far mark", (250, 250, 0))]
)
def test_a_crop_is_on_its_element_when_the_header_compacts_for_the_picture(compacting, name, colour):
    """The picture is laid out in a tall viewport (the header compacts: 67 px less) and a tile further down is taken
    scrolled (the header compacts on scroll): each box is where its picture draws the element."""
    from PIL import Image

    out, rec = compacting
    [mark] = [x for x in rec["inventory"]["links"] if x["name"] == name]
    seen = mark.get("revealed") or {"shot": 0, "box": mark["box"]}
    picture = rec["screenshot"] if seen["shot"] == 0 else rec["reveals"][seen["shot"] - 1]
    box = seen["box"]
    with Image.open(out / picture) as shot:
        rgb = shot.convert("RGB")
        for x, y in ((box["x"] + 2, box["y"] + 2), (box["x"] + box["width"] - 3, box["y"] + box["height"] - 3)):
            assert rgb.getpixel((x, y)) == colour, (name, picture, box, rgb.getpixel((x, y)))


def test_the_views_notes_say_that_the_layout_moved_for_the_picture(compacting):
    _, rec = compacting
    [note] = [n for n in rec["environment_notes"] if "drawn elsewhere in the screenshot" in n]
    assert int(note.split()[0]) >= 3  # the marks (and whatever else sits under the header)


def test_a_review_bundle_carries_a_crop_of_every_element_its_tasks_show(sidebar, tmp_path):
    """One task per decision, each with a picture of the element (a family: of each row of its sample)."""
    from PIL import Image

    jfi, out = sidebar
    folder = tmp_path / "audit"
    shutil.copytree(out, folder, ignore=shutil.ignore_patterns(".jfi"))
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    r = jfi("audit", "review", "export", "--inventory", str(folder), "--out", str(tmp_path / "b"))
    assert r.exit_code == 0, r.stderr
    tasks = json.loads((tmp_path / "b" / "bundle.json").read_text())["tasks"]
    shown = [x for t in tasks for x in t.get("sample") or [t] if t["type"] != "title"]
    assert shown and all(x["crop"] for x in shown)
    for x in shown:
        with Image.open(tmp_path / "b" / x["crop"]) as crop:
            assert crop.format == "PNG" and crop.size[0] > 100
    assert "![crop of" in (tmp_path / "b" / "review-tasks.md").read_text()
