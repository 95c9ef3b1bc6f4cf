"""`jfi audit build`: units, keys, fan-out, every flag, identification, navigation order, batches."""

import hashlib
import json
import os

import pytest
from conftest import Jfi
from inventories import field, heading, image, link, nav, note, view, write


def build(tmp_path, views, *args):
    folder = write(tmp_path / "audit", views)
    r = Jfi(tmp_path)("audit", "build", "--inventory", str(folder), *args)
    doc = json.loads((folder / "judgment-units.json").read_text()) if r.exit_code == 0 else None
    return r, doc, folder


def units(doc, type_=None):
    return [u for u in doc["units"] if type_ is None or u["type"] == type_]


def test_unit_ids_keys_and_distinct_fan_out(cases):
    [u] = of(cases, "harbor", "link")
    key = "contact us|site.example/contact|" + hashlib.sha256(b"").hexdigest()[:8]
    assert u["id"] == "LINK-HA-" + hashlib.sha256(f"link|harbor|{key}".encode()).hexdigest()[:10]
    assert u["views"] == ["home", "fares"] and u["view_count"] == 2 and u["occurrences"] == 3
    titles = of(cases, "harbor", "title")
    assert [t["id"] for t in titles] == [
        "TITLE-HA-" + hashlib.sha256(f"title|harbor|{v}".encode()).hexdigest()[:10] for v in ("home", "fares", "about")
    ]


def test_query_strings_and_fragments_are_part_of_identity(cases):
    got = sorted(u["href"] for u in of(cases, "query", "link"))
    assert len(got) == 4  # /t/ and /t share a destination (one trailing slash removed)


def test_skipped_views_are_environment_notes(tmp_path):
    r, doc, _ = build(tmp_path, [view("home"), note("broken")])
    assert doc["views_ok"] == 1 and doc["views_skipped"] == [{"view_id": "broken", "nav_error": "HTTP 500"}]
    r, doc, _ = build(tmp_path / "x", [note("broken")])
    assert r.exit_code == 1


FLAG_CASES = [
    # title flags
    ("title", dict(title=""), "title_empty"),
    ("title", dict(title="Harbor", h1=["Ferry timetables"]), "title_shares_no_word_with_h1"),
    ("title", dict(h1=[]), "no_h1"),
    ("title", dict(h1=["One", "Two"]), "h1_count_2"),
    ("title", dict(h1=[""]), "empty_h1"),
    ("title", dict(title="x" * 121), "title_over_120"),
    # heading flags
    ("heading", dict(headings=[heading("")]), "heading_empty"),
    ("heading", dict(headings=[heading("Overview")]), "heading_generic"),
    ("heading", dict(headings=[heading("2026")]), "heading_numeric_only"),
    ("heading", dict(headings=[heading("x" * 121)]), "heading_over_120"),
    ("heading", dict(headings=[heading("Fares"), heading("Fares")]), "heading_repeated_in_page"),
    ("heading", dict(headings=[heading("Top", level=1), heading("Deep", level=4)]), "level_skip_h1_to_h4"),
    ("heading", dict(headings=[heading("Named", name_source="aria-label")]), "name_from_aria-label"),
    # link flags
    ("link", dict(links=[link("", empty_name=True)]), "link_empty_name"),
    ("link", dict(links=[link("Learn more")]), "link_generic_text"),
    ("link", dict(links=[link("https://site.example/x", "/x")]), "link_name_is_url"),
    ("link", dict(links=[link("Fare table", "/f.pdf", file_ext="pdf", context="")]), "file_pdf_not_indicated"),
    ("link", dict(links=[link("Portal", "/p", target="_blank")]), "new_window_not_indicated"),
    (
        "link",
        dict(
            links=[link("arrow", "/n", name_source="img-alt", text="", icon_only=True, has_img=True, img_alt="arrow")]
        ),
        "icon_only_link_weak_alt",
    ),
    ("link", dict(links=[link("Fares", "/a"), link("Fares", "/b")]), "same_name_different_hrefs_in_page"),
    ("link", dict(links=[link("Fares", "/a", title="Fares")]), "title_duplicates_text"),
    ("link", dict(links=[link("Fares", "/a", name_source="title", text="")]), "name_from_title_only"),
    ("link", dict(links=[link("Top", "#")]), "href_hash_only"),
    # image flags
    ("image", dict(images=[image(alt=None)]), "img_missing_alt_attr"),
    ("image", dict(images=[image(alt="Image")]), "alt_generic"),
    ("image", dict(images=[image(src="/i/ferry_01.png", alt="ferry_01")]), "alt_is_filename"),
    ("image", dict(images=[image(alt="scan.JPG")]), "alt_is_filename"),
    ("image", dict(images=[image(alt="x" * 151)]), "alt_over_150"),
    (
        "image",
        dict(images=[image(alt="", in_control={"tag": "a", "name": "", "href": "/x", "control_has_text": False})]),
        "functional_image_no_name",
    ),
    (
        "image",
        dict(
            images=[
                image(
                    alt="Search", in_control={"tag": "button", "name": "Search", "href": None, "control_has_text": True}
                )
            ]
        ),
        "alt_duplicates_control_text",
    ),
    (
        "image",
        dict(images=[image(alt="Ferries", adjacent_text="Ferries leave every hour")]),
        "alt_repeats_adjacent_text",
    ),
    ("image", dict(images=[image(tag="svg", src="(inline svg)", alt=None)]), "svg_unnamed_not_hidden"),
    ("image", dict(images=[image(src="/route-map.png", alt="Map")]), "complex_image_short_alt"),
    ("image", dict(images=[image(tag="canvas", src="", alt=None)]), "complex_image_short_alt"),
    ("image", dict(images=[image(alt="Info", width=16, height=16)]), "tiny_image_with_alt"),
    # field flags
    ("field", dict(fields=[field("", "placeholder-only", placeholder="Email")]), "field_unlabeled_placeholder-only"),
    ("field", dict(fields=[field("", "none")]), "field_unlabeled_none"),
    ("field", dict(fields=[field("Input")]), "label_generic"),
    ("field", dict(fields=[field("Email", required=True)]), "required_not_in_label"),
]


FOOTER = link("Contact us", "/contact", landmark="footer", context="")
MAIN_NAV = ["Home", "Routes", "Fares", "Contact"]
HEADER_HOME = link("Harbor home", "/", landmark="header", context="")
NAV_HOME = link("Home", "/", landmark="nav", context="")
PAIRED = [
    link("R1", "/routes/r1", landmark="main", context=""),
    link("Harborfront Loop", "/routes/r1", landmark="main", context=""),
]
FIXED_NAMED = link(
    "Renew your card", "/renew", name_source="aria-label", text="", icon_only=True, has_img=True, img_alt=""
)


def _ax(name):
    return {"name": name, "name_source": "aria-label", "role": "image", "exposed": True}


# The rule cases of this module, each its own product (a second product of a case is "<case>.other") with view ids
# "<case>-<id>": units, flags, identification and the 3.2.3 groups are per product, so the cases never meet, and all
# are built once, in one inventory, with every flag case (`cases`). "harbor" keeps the ids its unit ids hash.
RULE_CASES = {
    "harbor": [
        view("home", links=[FOOTER, FOOTER]),
        view("fares", links=[FOOTER]),
        view("about", links=[]),
    ],
    "query": [
        view(
            "home",
            links=[
                link("Timetable", "/t?route=1", context=""),
                link("Timetable", "/t?route=2", context=""),
                link("Timetable", "/t#north", context=""),
                link("Timetable", "/t/", context=""),
                link("Timetable", "/t", context=""),
            ],
        )
    ],
    "clean": [
        view(
            "home",
            title="Harbor Transit — Fares",
            h1=["Fares and passes"],
            headings=[heading("Fares and passes", level=1), heading("Weekly passes")],
            links=[link("Weekly pass prices")],
            images=[image()],
            fields=[field()],
        )
    ],
    "titles": [view("a", title="Harbor"), view("b", title=" harbor "), view("c", title="Harbor", product="other")],
    "fixed": [
        view(
            "home",
            links=[FIXED_NAMED],
            images=[
                image(
                    alt="Search", in_control={"tag": "button", "name": "Search", "href": None, "control_has_text": True}
                ),
                image(
                    src="/i/b.png",
                    alt="Magnifier",
                    in_control={"tag": "button", "name": "Search", "href": None, "control_has_text": True},
                ),
            ],
        )
    ],
    "skip": [view("home", headings=[heading("A", level=2), heading("B", level=3), heading("C", level=5)])],
    "ident": [
        view(
            "home",
            links=[
                HEADER_HOME,
                NAV_HOME,
                link("Print", "javascript:void(0)", context=""),
                link("Print page", "javascript:void(0)", context=""),
                link("Top", "#", context=""),
                link("Back to top", "#", context=""),
                *PAIRED,
            ],
        ),
        view("fares", links=[HEADER_HOME, NAV_HOME, *PAIRED]),
    ],
    "paired": [view("routes", links=PAIRED), view("home", links=[PAIRED[1]])],
    "navorder": [
        view("a", navs=[nav(*MAIN_NAV)]),
        view("b", navs=[nav(*MAIN_NAV)]),
        view("c", navs=[nav("Home", "Fares", "Routes", "Contact")]),
    ],
    "navextra": [
        view("a", navs=[nav(*MAIN_NAV)]),
        view("b", navs=[nav(*MAIN_NAV), nav("Weekday", "Weekend", label="Sub")]),
        view("c", navs=[nav("Home", "Fares", "Contact")]),
        view("d", navs=[nav(*MAIN_NAV), nav("Skip", role="header")]),
    ],
    "navgroups": [
        view("a", navs=[nav("Home", "Fares")]),
        view("b", navs=[nav("Fares", "Home")]),
        view("solo", product="other", navs=[nav("Home")]),
        view("m1", product="maps", navs=[]),
        view("m2", product="maps", navs=[nav("Layer")]),
    ],
    "navhosts": [
        view("a", navs=[nav("Home", "Fares")]),
        view("b", host="other.example", navs=[nav("Fares", "Home")]),
    ],
    "axnames": [
        view(
            "home",
            images=[
                image(
                    "/img/logo.png",
                    "image",
                    aria_label="Harbor Ferries logo",
                    ax=_ax("Harbor Ferries logo"),
                    selector="#a",
                ),
                image("/img/pier.png", None, aria_label="pier.png", ax=_ax("pier.png"), selector="#b"),
                image("/img/pier2.png", "image", selector="#c"),  # no tree: the alt is all there is
            ],
        )
    ],
}


def _own(name: str, v: dict) -> dict:
    """A case's view as its own: its product and view id the case's (the unit-id case keeps its own)."""
    if name == "harbor":
        return v
    product = name if v["product"] == "harbor" else f"{name}.{v['product']}"
    view_id = f"{name}-{v['view_id']}"
    page = v["url"].removesuffix(f"/{v['view_id']}.html") + f"/{view_id}.html"  # its own page on the same host
    return {**v, "product": product, "view_id": view_id, "url": page, "final_url": page}


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    """Every rule case and every flag case built once, each case its own product (units, batches and counts never
    cross products)."""
    views = [_own(name, v) for name, vs in RULE_CASES.items() for v in vs]
    views += [view(f"case{k}", product=f"case{k}", **content) for k, (_, content, _) in enumerate(FLAG_CASES)]
    r, doc, _ = build(tmp_path_factory.mktemp("cases"), views)
    assert r.exit_code == 0, r.stderr
    return doc


def _of_case(product: str, name: str) -> bool:
    return product == name or product.startswith(name + ".")


def of(doc, name, type_=None):
    """The units of one case."""
    return [u for u in units(doc, type_) if _of_case(u["product"], name)]


def nav_of(doc, name):
    """The 3.2.3 rows of one case, by the case's own view ids."""
    return {
        row["view_id"].removeprefix(f"{name}-"): row for row in doc["nav_consistency"] if _of_case(row["product"], name)
    }


@pytest.mark.parametrize("k", range(len(FLAG_CASES)), ids=[c[2] + "-" + str(k) for k, c in enumerate(FLAG_CASES)])
def test_each_flag_fires(cases, k):
    type_, _, flag = FLAG_CASES[k]
    fired = [f for u in units(cases, type_) if u["product"] == f"case{k}" for f in u["flags"]]
    assert flag in fired, fired


def test_clean_elements_carry_no_flags(cases):
    assert of(cases, "clean") and {u["id"]: u["flags"] for u in of(cases, "clean") if u["flags"]} == {}


def test_title_shared_by_views_counts_per_product(cases):
    flags = {u["views"][0].removeprefix("titles-"): u["flags"] for u in of(cases, "titles", "title")}
    assert "title_shared_by_2_views" in flags["a"] and "title_shared_by_2_views" in flags["b"]
    assert not any(f.startswith("title_shared") for f in flags["c"])


def test_fixed_flags(cases):
    """The two reference defects: an aria-label names an icon link; alt repeating control text fires."""
    assert of(cases, "fixed", "link")[0]["flags"] == []
    flags = {u["name"]: u["flags"] for u in of(cases, "fixed", "image")}
    assert "alt_duplicates_control_text" in flags["Search"]
    assert "alt_duplicates_control_text" not in flags["Magnifier"]


def test_heading_level_skip_uses_the_last_heading_with_a_level(cases):
    assert [f for u in of(cases, "skip", "heading") for f in u["flags"] if f.startswith("level_skip")] == [
        "level_skip_h3_to_h5"
    ]


def test_ident_groups_names_by_destination_with_exclusions(cases):
    idents = of(cases, "ident", "ident")
    assert [u["href"] for u in idents] == ["site.example"]
    assert idents[0]["name"] == '"Harbor home" (2 views, header) | "Home" (2 views, nav)'
    assert idents[0]["flags"] == ["same_href_multiple_names"] and idents[0]["view_count"] == 2


def test_ident_paired_table_only_when_variants_share_every_view(cases):
    assert [u["href"] for u in of(cases, "paired", "ident")] == ["site.example/routes/r1"]


def test_nav_order_change_is_the_signal(cases):
    rows = nav_of(cases, "navorder")
    assert rows["a"]["order_consistent"] and rows["b"]["order_consistent"]
    assert rows["c"]["order_consistent"] is False
    assert rows["c"]["first_order_violation"] == '"fares" before "routes"'


def test_nav_missing_extra_and_subnavigation_are_informational(cases):
    rows = nav_of(cases, "navextra")
    assert len(rows) == 4 and all(r["order_consistent"] for r in rows.values())
    assert rows["b"]["extra_items"] == 2 and rows["c"]["missing_shared"] == 1
    assert "absent on this view" in rows["c"]["note"]
    assert rows["d"]["extra_items"] == 0  # header containers are not navigation


def test_nav_two_view_groups_single_views_and_app_shells(cases):
    rows = nav_of(cases, "navgroups")
    assert rows["b"]["order_consistent"] is False or rows["a"]["order_consistent"] is False
    assert rows["solo"]["note"].startswith("single view")
    assert rows["m1"]["note"].startswith("no shared navigation items") and rows["m1"]["order_consistent"]


def test_nav_groups_by_host(cases):
    rows = nav_of(cases, "navhosts")
    assert rows["a"]["views_in_group"] == 1 and rows["b"]["host"] == "other.example"


def test_batches_split_and_stale_ones_go_but_judged_files_stay(tmp_path):
    links = [link(f"Route {k}", f"/r{k}", context="") for k in range(5)]
    folder = write(tmp_path / "audit", [view("home", links=links)])
    (folder / "batches").mkdir()
    (folder / "batches" / "harbor-link-09.jsonl").write_text("stale\n")
    (folder / "batches" / "harbor-link-01.judged.jsonl").write_text("kept\n")
    r = Jfi(tmp_path)("audit", "build", "--inventory", str(folder), "--batch", "2")
    assert r.exit_code == 0, r.stderr
    names = {p.name for p in (folder / "batches").iterdir()}
    assert names == {
        "harbor-title-01.jsonl",
        "harbor-link-01.jsonl",
        "harbor-link-02.jsonl",
        "harbor-link-03.jsonl",
        "harbor-link-01.judged.jsonl",
    }
    lines = [json.loads(x) for x in (folder / "batches" / "harbor-link-01.jsonl").read_text().splitlines()]
    assert len(lines) == 2 and list(lines[0]) == [
        "id",
        "type",
        "sc",
        "name",
        "detail",
        "href",
        "context",
        "landmark",
        "visible",
        "views",
        "flags",
        "other_hrefs",
    ]
    assert (folder / "batches" / "harbor-link-01.judged.jsonl").read_text() == "kept\n"


def test_a_first_build_puts_its_batches_in_place_whole_and_a_build_again_leaves_unchanged_ones_alone(
    tmp_path, monkeypatch
):
    """Item 3 of the build's own writing: no batch file is renamed into place one by one when batches/ is new (the
    staged folder is, once), and a build again rewrites only the batch files whose bytes change."""
    import jfi.atomic

    renames = []
    real_replace = jfi.atomic.os.replace
    monkeypatch.setattr(
        jfi.atomic.os, "replace", lambda a, b: (renames.append((str(a), str(b))), real_replace(a, b))[1]
    )
    links = [link(f"Route {k}", f"/r{k}", context="") for k in range(7)]
    folder = write(tmp_path / "audit", [view("home", links=links)])
    assert Jfi(tmp_path)("audit", "build", "--inventory", str(folder), "--batch", "2").exit_code == 0
    batches = folder / "batches"
    assert [b for a, b in renames if b.startswith(str(batches))] == [str(batches)]  # one rename: the folder
    assert not [n for n in os.listdir(folder) if n.startswith(".batches")]
    first = {p.name: (p.stat().st_ino, p.read_bytes()) for p in batches.iterdir()}
    assert len(first) == 5  # a title batch and four link batches
    # the same inventory but the last route renamed: only the last link batch changes
    renames.clear()
    write(folder, [view("home", links=links[:6] + [link("Route six", "/r6", context="")])])
    assert Jfi(tmp_path)("audit", "build", "--inventory", str(folder), "--batch", "2").exit_code == 0
    again = {p.name: (p.stat().st_ino, p.read_bytes()) for p in batches.iterdir()}
    changed = {n for n in first if first[n] != again[n]}
    assert changed == {"harbor-link-04.jsonl"} and again["harbor-link-04.jsonl"][0] != first["harbor-link-04.jsonl"][0]
    assert [b for a, b in renames if b.startswith(str(batches))] == [str(batches / "harbor-link-04.jsonl")]
    # and the files are those of a build from nothing
    fresh = write(
        tmp_path / "fresh" / "audit", [view("home", links=links[:6] + [link("Route six", "/r6", context="")])]
    )
    assert Jfi(tmp_path)("audit", "build", "--inventory", str(fresh), "--batch", "2").exit_code == 0
    assert {p.name: p.read_bytes() for p in (fresh / "batches").iterdir()} == {n: b for n, (_, b) in again.items()}
    # a query after the build again reads the batch lines the folder now holds
    r = Jfi(tmp_path)(
        "query", "--inventory", str(folder), "--format", "json", "SELECT count(*) AS n FROM audit_batch_lines"
    )
    assert r.exit_code == 0 and r.json == [{"n": 8}], r.stderr


def test_broken_inventory_is_refused_with_file_and_line(tmp_path):
    folder = write(tmp_path / "audit", [view("home"), view("home")])
    with open(folder / "inventory.jsonl", "a") as fh:
        fh.write("{broken\n")
    r = Jfi(tmp_path)("audit", "build", "--inventory", str(folder))
    assert r.exit_code == 2
    assert "inventory.jsonl:3: view_id: duplicate_view" in r.stderr and "inventory.jsonl:4: invalid_json" in r.stderr
    assert not (folder / "judgment-units.json").exists() and not (folder / "batches").exists()


def test_a_broken_inventory_is_refused_before_the_rest_of_the_rulebook_runs(tmp_path, monkeypatch):
    """Build checks the inventory with only the rule files its violations view needs; the others run once it passed,
    each once (a refused build pays for its check, not for units it will never write)."""
    from jfi import store as store_module
    from jfi.audit.folder import BUILD_NEEDS, AuditFolder

    monkeypatch.setenv("JFI_PROFILE", "1")
    for views, broken in (([view("home"), view("home")], True), ([view("home"), view("fares")], False)):
        folder = write(tmp_path / str(broken), views)
        store = store_module.Store(sections=("audit",), needs=BUILD_NEEDS)
        store_module.RULE_TIMES.clear()
        try:
            AuditFolder(folder).load_inventory(store)
            bad = store.rows_before_build("audit_inventory_violations")
            assert [v["code"] for v in bad] == (["duplicate_view"] if broken else [])
            first = [rel for rel, _ in store_module.RULE_TIMES]
            assert first and len(first) < len(store.files) / 3  # the check's files alone
            assert not store.rows("SELECT * FROM duckdb_tables() WHERE table_name = 'audit_units'")
            store.build()
            ran = [rel for rel, _ in store_module.RULE_TIMES]
            assert len(ran) == len(set(ran)) and set(first) < set(ran)  # each file once, the check's first
            assert store.scalar("SELECT count(*) FROM audit_units") > 0
        finally:
            store.close()
            store_module.RULE_TIMES.clear()


def test_flag_rules_are_listed_by_schema(tmp_path):
    folder = write(tmp_path / "audit", [view("home")])
    r = Jfi(tmp_path)(
        "query",
        "--inventory",
        str(folder),
        "SELECT flag, type, sc, informational, meaning FROM audit_flag_rules ORDER BY ord",
        "--format",
        "json",
    )
    rules = r.json
    assert {x["flag"] for x in rules} >= {"title_empty", "icon_only_link_weak_alt", "same_href_multiple_names"}
    assert all(x["meaning"] for x in rules)
    schema = {o["name"] for o in Jfi(tmp_path)("schema", "--json").json}
    assert {"audit_units", "audit_flags", "audit_flag_rules", "audit_nav_consistency", "audit_batches"} <= schema


def test_batch_numbers_keep_counting_past_99(tmp_path):
    links = [link(f"Route {k}", f"/r{k}", context="") for k in range(101)]
    folder = write(tmp_path / "audit", [view("home", links=links)])
    r = Jfi(tmp_path)("audit", "build", "--inventory", str(folder), "--batch", "1")
    assert r.exit_code == 0, r.stderr
    names = sorted(p.name for p in (folder / "batches").glob("harbor-link-*.jsonl"))
    assert len(names) == 101 and {"harbor-link-09.jsonl", "harbor-link-100.jsonl", "harbor-link-101.jsonl"} <= set(
        names
    )
    assert all(len((folder / "batches" / n).read_text().splitlines()) == 1 for n in names)


def _doc_without_time(folder):
    doc = json.loads((folder / "judgment-units.json").read_text())
    doc.pop("built_utc")
    doc.pop("inventory_sha256")
    return doc


def test_line_by_line_reading_builds_the_same_units_as_the_whole_file_reading(tmp_path):
    """A blank line sends the inventory through the exact line-by-line path; the units must not change."""
    views = [
        view(
            "home",
            links=[link("Fares", "/fares", title="Fares")],
            headings=[heading("Routes", level=3)],
            images=[image(alt=None)],
            fields=[field("", source="placeholder-only")],
            navs=[nav("Home", "Fares")],
        ),
        view("fares", links=[link("Fares", "/fares?x=1#y")], navs=[nav("Fares", "Home")]),
        note("down"),
    ]
    whole = write(tmp_path / "whole", views)
    spaced = write(tmp_path / "spaced", views)
    text = (spaced / "inventory.jsonl").read_text().splitlines()
    (spaced / "inventory.jsonl").write_text("\n".join(text[:2] + ["", "   "] + text[2:]) + "\n")
    for folder in (whole, spaced):
        r = Jfi(tmp_path)("audit", "build", "--inventory", str(folder))
        assert r.exit_code == 0, r.stderr
    assert _doc_without_time(whole) == _doc_without_time(spaced)
    assert _doc_without_time(whole)["views_skipped"] == [{"view_id": "down", "nav_error": "HTTP 500"}]


def test_a_value_of_an_unexpected_type_is_read_leniently_as_before(tmp_path):
    """DuckDB's JSON reader refuses a heading level of "two"; the line-by-line path reads it as unknown (null)."""
    folder = write(tmp_path / "audit", [view("home", headings=[heading("Routes", level="two")])])
    r = Jfi(tmp_path)("audit", "build", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    [h] = units(json.loads((folder / "judgment-units.json").read_text()), "heading")
    assert h["detail"] == "hnull" and h["name"] == "Routes"


def test_a_problem_found_after_reading_whole_is_named_by_the_exact_line_reading(tmp_path):
    """A line `null` passes DuckDB's JSON reader as an empty row; the refusal must still say what the line is."""
    folder = write(tmp_path / "audit", [view("home"), view("fares")])
    text = (folder / "inventory.jsonl").read_text().splitlines()
    (folder / "inventory.jsonl").write_text("\n".join(text[:2] + ["null"] + text[2:]) + "\n")
    r = Jfi(tmp_path)("audit", "build", "--inventory", str(folder))
    assert r.exit_code == 2
    assert "inventory.jsonl:3: not_an_object" in r.stderr and "missing_field" not in r.stderr
    assert not (folder / "judgment-units.json").exists()


def test_image_judgment_flags_read_the_name_the_browser_gives(cases):
    """alt_generic, alt_is_filename and the other judgment flags read Chromium's name where the capture has it."""
    got = {u["selector"]: u["flags"] for u in of(cases, "axnames", "image")}
    assert "alt_generic" not in got["#a"] and "alt_is_filename" in got["#b"] and "alt_generic" in got["#c"]


@pytest.mark.parametrize("lax", [",}", ', "n": NaN}', ', "n": -Infinity}', ', "n": [1,]}'])
def test_an_inventory_line_a_strict_json_parser_refuses_is_refused_at_its_line(tmp_path, lax):
    """DuckDB's reader, which reads an inventory whole, takes these; RFC 8259 does not, and neither does jfi."""
    folder = write(tmp_path / "audit", [view("home"), view("fares")])
    lines = (folder / "inventory.jsonl").read_text().splitlines()
    lines[2] = lines[2][:-1] + lax
    (folder / "inventory.jsonl").write_text("\n".join(lines) + "\n")
    r = Jfi(tmp_path)("audit", "build", "--inventory", str(folder))
    assert r.exit_code == 2 and "inventory.jsonl:3: invalid_json" in r.stderr, r.stderr
    assert not (folder / "judgment-units.json").exists()


def test_a_build_under_a_memory_limit_writes_and_keeps_what_one_without_does(tmp_path, monkeypatch):
    """Under JFI_MEMORY_LIMIT, build's own store goes to disk while it hands its lines to the kept store (the two
    stores hold the bound together): the batch files, and the lines the kept store holds, are those of a build
    without a limit."""
    import duckdb

    links = [link(f"Route {k}", f"/r{k}", context="") for k in range(30)]
    folders = {}
    for name, limit in (("free", None), ("bound", "64MB")):
        if limit:
            monkeypatch.setenv("JFI_MEMORY_LIMIT", limit)
        folder = write(tmp_path / name / "audit", [view("home", links=links), view("about", links=links[:5])])
        assert Jfi(tmp_path)("audit", "build", "--inventory", str(folder)).exit_code == 0
        folders[name] = folder

    def kept_lines(folder):
        con = duckdb.connect(str(folder / ".jfi" / "audit.duckdb"), read_only=True)
        try:
            rows = con.execute("SELECT kind, source, line, text FROM raw_lines").fetchall()
        finally:
            con.close()
        return sorted((kind, source.replace(str(folder), ""), line, text) for kind, source, line, text in rows)

    free, bound = folders["free"], folders["bound"]
    assert {k for k, *_ in kept_lines(free)} == {"unit", "batch"}
    assert kept_lines(free) == kept_lines(bound)
    names = sorted(p.name for p in (free / "batches").iterdir())
    assert names and names == sorted(p.name for p in (bound / "batches").iterdir())
    assert all((free / "batches" / n).read_bytes() == (bound / "batches" / n).read_bytes() for n in names)


def test_a_small_folders_kept_store_shares_its_rows_out_in_small_row_groups(tmp_path):
    """A kept store of a small folder holds its tables in row groups of SMALL_ROW_GROUP rows (DuckDB's threads share
    a table's rows by row group: the 20,000 judged lines of a small folder in one group were read on one thread)."""
    import duckdb

    from jfi.bench import judge_all, synthetic_inventory
    from jfi.store import SMALL_ROW_GROUP

    folder = tmp_path / "audit"
    folder.mkdir()
    synthetic_inventory(folder / "inventory.jsonl", 700)  # about 18,000 units: more than a small row group holds
    run = Jfi(tmp_path)
    assert run("audit", "build", "--inventory", str(folder)).exit_code == 0
    judge_all(folder)
    assert run("audit", "sample", "--inventory", str(folder)).exit_code == 0
    con = duckdb.connect(str(folder / ".jfi" / "audit.duckdb"), read_only=True)
    try:
        for table in ("raw_lines", "jsonl_records", "audit_judged_lines"):
            groups = con.execute(
                f"SELECT row_group_id, max(\"count\") FROM pragma_storage_info('{table}') GROUP BY ALL"
            ).fetchall()
            assert len(groups) > 1 and max(n for _, n in groups) <= SMALL_ROW_GROUP, (table, groups)
    finally:
        con.close()
