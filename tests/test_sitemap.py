"""`audit inventory --sitemap`: views from a sitemap (an index followed, gzip read), filtered by globs and a count,
ids and products by the documented rule; hostile XML refused; a served folder's sitemap captured in Chromium."""

import gzip
import json
import shutil

import pytest
from conftest import REPO, Jfi

from jfi.capture import sitemap
from jfi.errors import JfiError


def urlset(*paths, host="https://www.harbor.example"):
    items = "".join(f"<url><loc>{host}{p}</loc><lastmod>2026-11-01</lastmod></url>" for p in paths)
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{items}</urlset>'


def test_an_index_is_followed_and_pages_become_views_by_the_documented_rule(tmp_path):
    (tmp_path / "pages.xml").write_text(urlset("/", "/guide/index.html", "/guide/intro.html", "/guide/intro.htm"))
    (tmp_path / "more.xml.gz").write_bytes(gzip.compress(urlset("/blog/2026/news.html", "/about.html").encode()))
    (tmp_path / "index.xml").write_text(
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{tmp_path / 'pages.xml'}</loc></sitemap><sitemap><loc>{tmp_path / 'more.xml.gz'}</loc></sitemap>"
        "</sitemapindex>"
    )
    views = sitemap.views(str(tmp_path / "index.xml"))
    assert [v.view_id for v in views] == ["home", "guide", "guide-intro", "guide-intro-2", "blog-2026-news", "about"]
    assert {v.product for v in views} == {"harbor.example"}
    assert views[2].url == "https://www.harbor.example/guide/intro.html"
    kept = sitemap.views(str(tmp_path / "index.xml"), include=["/guide/*", "/about*"], exclude=["*.htm"], max_views=2)
    assert [v.view_id for v in kept] == ["guide", "guide-intro"]


@pytest.mark.parametrize(
    "text, code",
    [
        (
            '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><urlset>&b;</urlset>',
            "invalid_sitemap",
        ),
        ("<urlset><url><loc>https://x.example/a</loc>", "invalid_sitemap"),
        ("<html><body>not a sitemap</body></html>", "invalid_sitemap"),
        (urlset("/a").replace("https://www.harbor.example/a", "/relative/only"), "invalid_sitemap"),
        ('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>', "no_views"),
    ],
)
def test_a_hostile_or_broken_sitemap_is_refused_with_its_code(tmp_path, text, code):
    (tmp_path / "s.xml").write_text(text)
    with pytest.raises(JfiError) as e:
        sitemap.views(str(tmp_path / "s.xml"))
    assert e.value.code == code


def test_a_served_folders_sitemap_is_captured_by_path_on_the_served_origin(tmp_path):
    site = tmp_path / "harbor"
    shutil.copytree(REPO / "corpus" / "example-site", site)
    (site / "sitemap.xml").write_text(urlset("/index.html", "/routes.html", "/fares.html", "/about.html"))
    jfi = Jfi(tmp_path)
    r = jfi(
        "audit",
        "inventory",
        "--serve",
        str(site),
        "--sitemap",
        "/sitemap.xml",
        "--exclude",
        "/about*",
        "--out",
        str(tmp_path / "out"),
        "--settle",
        "0",
        "--no-axe",
        "--no-screenshots",
    )
    assert r.exit_code == 0, r.stderr
    records = [json.loads(x) for x in (tmp_path / "out" / "inventory.jsonl").read_text().splitlines()]
    assert [(v["view_id"], v["product"]) for v in records[1:]] == [
        ("index", "harbor"),
        ("routes", "harbor"),
        ("fares", "harbor"),
    ]
    assert all(v["url"].startswith("http://127.0.0.1:8766/") and v["inventory"] for v in records[1:])
    assert records[0]["urls_source"] == "/sitemap.xml"
    r = jfi("audit", "inventory", "--serve", str(site), "--sitemap", "/../../etc/passwd", "--out", str(tmp_path / "x"))
    assert r.exit_code == 2 and not (tmp_path / "x").exists()
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(site / "views.txt"),
        "--serve",
        str(site),
        "--max-views",
        "2",
        "--out",
        str(tmp_path / "y"),
    )
    assert r.exit_code == 3 and not (tmp_path / "y").exists()
