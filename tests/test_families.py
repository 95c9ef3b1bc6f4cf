"""Families by structure (sql/audit/70_audit_family_*.sql): each pattern gathers the rows it names and leaves the rows
it must not take, run through the library on one folder per pattern. A row is in one decision at most, and rows
drafted yes and no are never one family."""

from pathlib import Path

import pytest
from inventories import heading, link, view, write

import jfi


def decisions(tmp_path, views):
    """Each unit's name (type:name) -> (family kind or None, family id or the row itself), after build: nothing is
    judged, so the decisions are those of the store build left."""
    audit = jfi.open_audit(write(tmp_path / "audit", views))
    assert audit.build().ok
    rows = audit.query(
        "SELECT d.decision, d.kind AS settled_by, f.kind, u.type, u.name FROM audit_decisions AS d "
        "JOIN audit_built_units AS u USING (id) LEFT JOIN audit_worklist_families AS f ON f.family_id = d.decision"
    )
    out: dict[str, list] = {}
    for r in rows:
        out.setdefault(f"{r['type']}:{r['name']}", []).append((r["kind"], r["decision"]))
    return out


def kinds(found, key):
    return {k for k, _ in found[key]}


def test_links_into_their_own_page_are_one_family_and_links_elsewhere_are_not(tmp_path):
    toc = [
        link(
            n, f"/guide.html#{n.lower()}", selector="main > nav > ul > li > a", landmark="main", context="On this page"
        )
        for n in ("Fares", "Routes", "Tickets")
    ]
    other = [link("Price list", "/prices.html#fares", selector="main > nav > ul > li > a", context="On this page")]
    found = decisions(tmp_path, [view("guide", links=toc + other)])
    assert all(kinds(found, f"link:{n}") == {"in_page_links"} for n in ("Fares", "Routes", "Tickets"))
    assert len({d for n in ("Fares", "Routes", "Tickets") for _, d in found[f"link:{n}"]}) == 1
    assert "in_page_links" not in kinds(found, "link:Price list")  # another document, though the same list


def test_links_named_after_their_destination_form_one_family(tmp_path):
    pages = ["Fares", "Routes", "Timetables"]
    sidebar = [
        link(
            p,
            f"/{p.lower()}.html",
            selector=f"nav > ol > li:nth-of-type({k + 1}) > a",
            landmark="nav[Sidebar]",
            context=" ".join(pages),
        )
        for k, p in enumerate(pages)
    ]
    stray = [link("Buy now", "/fares.html", selector="aside > a", landmark="complementary", context="Offers")]
    views = [view(p.lower(), title=f"{p} - Harbor", h1=[p], links=sidebar + stray) for p in pages]
    found = decisions(tmp_path, views)
    assert all(kinds(found, f"link:{p}") == {"destination_links"} for p in pages)
    assert len({d for p in pages for _, d in found[f"link:{p}"]}) == 1
    assert "destination_links" not in kinds(found, "link:Buy now")  # its name is not its destination's title


def test_per_item_links_of_one_name_are_one_family_only_when_they_lead_to_different_places(tmp_path):
    cards = [
        link(
            "Story page",
            f"/story-{k}.html",
            selector=f"main > article:nth-of-type({k + 1}) > a",
            context=f"Story {k} about the harbour.",
        )
        for k in range(3)
    ]
    same = [
        link(
            "Details",
            "/passes.html",
            selector=f"main > section > div:nth-of-type({k + 1}) > a",
            context=f"Pass {k} details.",
        )
        for k in range(2)
    ]
    found = decisions(tmp_path, [view("news", links=cards + same)])
    assert kinds(found, "link:Story page") == {"item_links"} and len({d for _, d in found["link:Story page"]}) == 1
    assert "item_links" not in kinds(found, "link:Details")  # one destination: the same link twice, not per item


def test_chrome_on_nearly_every_view_is_one_family(tmp_path):
    chrome = [
        link("Privacy", "/privacy.html", selector="footer > a", landmark="contentinfo", context="Footer"),
        link("Terms", "/terms.html", selector="footer > a", landmark="contentinfo", context="Footer"),
    ]
    once = [link("Winter schedule", "/winter.html", selector="footer > a", landmark="contentinfo", context="Footer")]
    views = [view(f"p{k}", links=chrome + (once if k == 0 else [])) for k in range(5)]
    found = decisions(tmp_path, views)
    assert kinds(found, "link:Privacy") == kinds(found, "link:Terms") == {"chrome_links"}
    assert kinds(found, "link:Winter schedule") != {"chrome_links"}  # on one view of five


def test_links_of_one_container_shape_are_one_family_and_a_lone_shape_is_a_row(tmp_path):
    text = [
        link(
            n,
            f"https://elsewhere.example/{n}",
            selector=f"main > p:nth-of-type({k + 1}) > a",
            context=f"Read about {n} in the manual.",
        )
        for k, n in enumerate(["alpha", "beta", "gamma"])
    ]
    lone = [
        link(
            "Contact the editors",
            "https://elsewhere.example/mail",
            selector="main > blockquote > em > a",
            context="Write to us.",
        )
    ]
    found = decisions(tmp_path, [view("doc", links=text + lone)])
    assert {kinds(found, f"link:{n}") == {"shapes"} for n in ("alpha", "beta", "gamma")} == {True}
    assert found["link:Contact the editors"] == [(None, found["link:Contact the editors"][0][1])]
    assert found["link:Contact the editors"][0][1].startswith("LINK-")  # a decision of its own: the row itself


def test_headings_of_one_level_are_one_family_and_a_flagged_heading_is_not_in_it(tmp_path):
    hs = [heading(t, 2, selector=f"#s{k}") for k, t in enumerate(["Buying a pass", "Refunds", "Lost cards"])]
    generic = [heading("More", 2, selector="#more")]  # heading_generic: a flag, never a structural family
    found = decisions(tmp_path, [view("help", headings=hs + generic)])
    assert all(kinds(found, f"heading:{t}") == {"heading_levels"} for t in ("Buying a pass", "Refunds", "Lost cards"))
    assert "heading_levels" not in kinds(found, "heading:More")


def test_titles_of_one_template_are_one_family_and_a_title_of_its_own_is_not(tmp_path):
    views = [view(v, title=f"{v.title()} - Harbor Ferries", h1=[v.title()]) for v in ("fares", "routes", "tickets")]
    views.append(view("landing", title="Welcome aboard", h1=["Welcome aboard"]))
    found = decisions(tmp_path, views)
    assert all(
        kinds(found, f"title:{v.title()} - Harbor Ferries") == {"title_templates"}
        for v in ("fares", "routes", "tickets")
    )
    assert "title_templates" not in kinds(found, "title:Welcome aboard")


@pytest.mark.parametrize(
    "other, flagged",
    [
        (link("Fares", "/fares.html#top", context="Top of fares"), False),  # the same document
        (link("Fares", "/prices.html", context="Hidden copy", visible=False), False),  # not drawn
        (link("Fares", "/prices.html", context="Another fares page"), True),
    ],
)
def test_same_name_different_hrefs_counts_documents_a_person_meets(tmp_path, other, flagged):
    audit = jfi.open_audit(write(tmp_path / "audit", [view("home", links=[link("Fares", "/fares.html"), other])]))
    assert audit.build().ok
    flags = audit.query(
        "SELECT list_contains(flags, 'same_name_different_hrefs_in_page') AS f FROM audit_units "
        "WHERE type = 'link' AND href LIKE '%/fares.html'"
    )
    assert flags and all(f["f"] is flagged for f in flags)


def axe_view(view_id, nodes):
    """A view whose axe-core run found these (rule, html, box) nodes, with a screenshot of its own."""
    rec = view(view_id)
    results = {}
    for rule, html, box in nodes:
        results.setdefault(rule, []).append(
            {
                "target": [f"#{view_id}-{len(results.get(rule, []))}"],
                "html": html,
                "summary": "Fix this.",
                "impact": "serious",
                "box": box,
            }
        )
    rec["axe"] = {
        "engine": "axe-core 4.12.1",
        "error": None,
        "nodes_total": len(nodes),
        "capped": False,
        "options": {"type": "tag", "values": ["wcag2a"]},
        "results": [
            {
                "rule": r,
                "outcome": "violation",
                "impact": "serious",
                "tags": ["wcag2a", "wcag143"],
                "help": f"Help for {r}",
                "help_url": f"https://dequeuniversity.com/rules/axe/4.12/{r}",
                "nodes": ns,
            }
            for r, ns in results.items()
        ],
    }
    rec["screenshot"] = f"screenshots/{view_id}__desktop-1440.png"
    return rec


def test_axe_findings_fold_by_component_and_the_report_shows_more_of_it(tmp_path):
    """Every entry of one sidebar (its own href, text and number) is one component; a button is another; the report
    shows a finding's first crop and up to two more from other views."""
    from PIL import Image

    box = {"x": 10, "y": 40, "width": 120, "height": 20}
    entry = '<a href="../{0}/index.html" tabindex="0"><strong aria-hidden="true">{1}</strong> {1}</a>'
    words = [
        "intro",
        "hardware",
        "tooling",
        "install",
        "panics",
        "registers",
        "memory",
        "exceptions",
        "semihosting",
        "interrupts",
        "concurrency",
        "collections",
    ]
    views = [
        axe_view(
            f"p{v}",
            [
                ("color-contrast", entry.format(words[v * 4 + k], words[v * 4 + k].title()), {**box, "y": 40 + 30 * k})
                for k in range(4)
            ]
            + [("color-contrast", f'<button id="b{v}" class="theme">Theme {v}</button>', {**box, "y": 300})],
        )
        for v in range(3)
    ]
    folder = write(tmp_path / "audit", views)
    (folder / "screenshots").mkdir()
    for v in views:
        Image.new("RGB", (1440, 900), "white").save(folder / v["screenshot"])
    audit = jfi.open_audit(folder)
    assert audit.build().ok and audit.merge().ok
    found = audit.query(
        "SELECT id, occurrences, view_count FROM audit_units WHERE type = 'finding' ORDER BY occurrences"
    )
    assert [(r["occurrences"], r["view_count"]) for r in found] == [
        (3, 3),
        (12, 3),
    ]  # the buttons; the sidebar's entries
    report = audit.report()
    assert report.ok and Path(report.data["report"]).is_file() and report.data["rows"] > 0
    page = (folder / "report.html").read_text()
    assert page.count("More of this component (2 other view(s))") == 2
