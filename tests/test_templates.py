"""Every human-facing file is a template of jfi/templates/ (report.html, worklist.md, review-tasks.md, eval.md):
HTML escapes every value, Markdown passes every value through md_text, and no module escapes by hand."""

import re
from pathlib import Path

import pytest

from jfi import templating

PACKAGE = Path(__file__).resolve().parent.parent / "jfi"


def test_an_html_template_escapes_what_it_shows_and_a_markdown_one_neutralises_it(tmp_path, monkeypatch):
    (tmp_path / "t.html").write_text("<p title='{{ v }}'>{{ v }}</p>{{ m }}")
    (tmp_path / "t.md").write_text("- {{ v }}\n- {{ m }}\n")
    monkeypatch.setattr(templating, "TEMPLATES", tmp_path)
    templating._environment.cache_clear()
    try:
        hostile = "<img src=x onerror=alert(1)> [x](javascript:alert(1))\n## heading"
        html = templating.render("t.html", v=hostile, m=templating.Markup("<b>ours</b>"))
        assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html and "<b>ours</b>" in html
        md = templating.render("t.md", v=hostile, m=templating.Markup("[ours](crops/a.png)"))
        first, second = md.splitlines()
        assert "\\[x\\]" in first and "\\<img" in first and "\n" not in first[2:] and second == "- [ours](crops/a.png)"
        with pytest.raises(Exception, match="undefined"):
            templating.render("t.html", m="")  # a name the caller forgot is an error, never an empty string
    finally:
        templating._environment.cache_clear()


def test_no_module_builds_a_human_facing_file_by_hand():
    """Escaping belongs to the templates: no module of jfi/ but output.py (md_text itself) and templating.py calls
    html.escape or md_text, or writes an HTML element into a string."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in ("output.py", "templating.py"):
            continue
        text = path.read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            if re.search(r"html\.escape\(|\bmd_text\(|['\"]<(p|li|dt|dd|tr|td|article|section|details)[ >]", line):
                found.append(f"{path.relative_to(PACKAGE)}:{n}")
    assert found == []


def test_a_rows_keys_read_as_attributes_first_and_a_missing_one_is_an_error():
    import jinja2

    env = templating._environment(False)
    assert env.from_string("{{ r.name }}|{{ r.items is callable }}").render(r={"name": "<b>"}) == "&lt;b&gt;|True"
    assert env.from_string("{{ r.items }}").render(r={"items": 3}) == "3"  # a row's own key before a dict's method
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ r.nope }}").render(r={"name": "x"})
