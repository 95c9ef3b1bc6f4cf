"""jfi's capture of each conformance site, served at the reference origin, against the reference capture."""
import json

import pytest
from typer.testing import CliRunner

from jfi.cli import app

SITES = ["clean-control", "headings-fields-labels", "identification-across-views", "images-role-routing",
         "link-purpose-cards", "page-titles-shared"]
TIMINGS = {"load_ms"}
# jfi adds a key the reference does not have; everything else must be equal
ADDED = {("capped", "navs")}
ADDED_EVERYWHERE = {"ax"}  # the browser's own name, role and exposure of each element (Accessibility domain)


def diff(ref, got, path=()):
    if isinstance(ref, dict) and isinstance(got, dict):
        out = []
        for key in sorted(set(ref) | set(got)):
            if key in TIMINGS or (path[-1:] + (key,)) in ADDED or key in ADDED_EVERYWHERE:
                continue
            if key not in ref or key not in got:
                out.append((path + (key,), "missing on one side"))
            else:
                out += diff(ref[key], got[key], path + (key,))
        return out
    if isinstance(ref, list) and isinstance(got, list):
        out = [(path, f"length {len(ref)} != {len(got)}")] if len(ref) != len(got) else []
        for i, (a, b) in enumerate(zip(ref, got)):
            out += diff(a, b, path + (i,))
        return out
    return [] if ref == got else [(path, f"{ref!r} != {got!r}")]


@pytest.fixture(scope="module")
def captures(conformance, tmp_path_factory):
    out = {}
    for site in SITES:
        folder = conformance / "audit" / "sites" / site
        dest = tmp_path_factory.mktemp(site)
        r = CliRunner().invoke(app, ["audit", "inventory", "--urls-file", str(folder / "views.txt"), "--serve", str(folder),
                                     "--port", "8765", "--out", str(dest), "--settle", "300", "--no-screenshots"])
        assert r.exit_code == 0, r.stderr
        out[site] = json.loads((dest / "inventory-run.json").read_text())
    return out


@pytest.mark.parametrize("site", SITES)
def test_capture_matches_reference(conformance, captures, site):
    ref = json.loads((conformance / "audit" / "reference" / site / "inventory-run.json").read_text())
    got = captures[site]
    assert [v["view_id"] for v in got["views"]] == [v["view_id"] for v in ref["views"]]
    for a, b in zip(ref["views"], got["views"]):
        for key in ("product", "url", "viewport", "nav_error", "final_url", "stayed_on_route_host"):
            assert a[key] == b[key], (site, a["view_id"], key)
        assert diff(a["inventory"], b["inventory"]) == [], (site, a["view_id"])
    assert got["caps"] == ref["caps"] and got["viewport"] == ref["viewport"] and got["schema"] == ref["schema"]


def test_added_nav_cap_flag_is_the_only_extra(captures):
    for run in captures.values():
        for view in run["views"]:
            assert set(view["inventory"]["capped"]) == {"headings", "links", "images", "fields", "navs"}
