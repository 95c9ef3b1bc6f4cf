"""Every flag's examples, both polarities: each flag file (sql/audit/flags/, sql/audit/axe_flags/) has beside it the
elements it must flag and the elements it must not (`NN_<rule>.yaml`), all run through the library in one store. A flag
without examples of either kind fails, as does a flag file that does not say what a flag file must (jfi/flagbook.py)."""

import copy

import pytest
import yaml
from inventories import field, heading, image, link, view, write

import jfi
from jfi import flagbook, rulebook

FOLDERS = ("audit/flags", "audit/axe_flags")
BUILDERS = {"headings": heading, "links": link, "images": image, "fields": field}
KIND = {"headings": "heading", "links": "link", "images": "image", "fields": "field"}
AXE = {
    "engine": "axe-core 4.10.2",
    "error": None,
    "capped": False,
    "options": {"type": "tag", "values": ["wcag2a", "wcag2aa", "best-practice"]},
}


def flag_files():
    base = rulebook.sql_dir()
    return [p for folder in FOLDERS for p in sorted((base / folder).glob("*.sql"))]


FLAGS = {p.stem.split("_", 1)[1]: p for p in flag_files()}


def examples(rule):
    path = FLAGS[rule].with_suffix(".yaml")
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}


def _view(view_id, product, spec):
    spec = copy.deepcopy(spec)
    for key in ("why", "at", "type"):
        spec.pop(key, None)
    elements = {k: [BUILDERS[k](**e) for e in spec.pop(k, [])] for k in BUILDERS}
    axe = spec.pop("axe", None)
    v = view(view_id, product=product, **spec, **elements)
    if axe is not None:
        v["axe"] = {**AXE, **axe, "nodes_total": sum(len(r["nodes"]) for r in axe.get("results", []))}
    return v


@pytest.fixture(scope="module")
def flagged(tmp_path_factory):
    """(rule, polarity, k) -> whether the flag fired on the example's element, from one store of every example."""
    views, targets = [], {}
    for rule in FLAGS:
        types = flagbook.parse(FLAGS[rule].name, FLAGS[rule].read_text(encoding="utf-8")).types
        for polarity in ("flags", "passes"):
            for k, case in enumerate(examples(rule).get(polarity) or []):
                product = f"p{len(targets)}"
                specs = case.get("views", [case])
                views += [_view(f"{product}-{j}", product, s) for j, s in enumerate(specs)]
                targets[(rule, polarity, k)] = (product, case.get("type", types[0]), case.get("at"))
    audit = jfi.open_audit(write(tmp_path_factory.mktemp("flags") / "audit", views))
    assert audit.build().ok
    fired = {
        (r["product"], r["type"], r["view_id"], r["i"], r["rule"])
        for r in audit.query(
            "SELECT f.product, f.type, v.view_id, f.i, f.rule FROM (SELECT * FROM audit_flags UNION ALL "
            "SELECT * FROM audit_axe_flags) AS f JOIN audit_views AS v USING (pos)"
        )
    }
    first = {}
    for r in audit.query(
        "SELECT o.product, o.type, v.view_id, min(o.i) AS i FROM audit_raw_occurrences AS o "
        "JOIN audit_views AS v USING (pos) GROUP BY ALL"
    ):
        first[(r["product"], r["type"], r["view_id"])] = r["i"]
    out = {}
    for (rule, polarity, k), (product, typ, at) in targets.items():
        if typ == "ident":  # a destination's names across the product's views: the product's ident row
            out[(rule, polarity, k)] = any(p == product and t == typ and f == rule for p, t, _, _, f in fired)
            continue
        home = f"{product}-0"
        i = at if at is not None else first.get((product, typ, home))
        assert i is not None, f"{rule} {polarity} {k}: the example has no {typ} in its first view"
        out[(rule, polarity, k)] = (product, typ, home, i, rule) in fired
    return out


@pytest.mark.parametrize("rule", sorted(FLAGS))
def test_every_flag_has_examples_it_must_flag_and_examples_it_must_not(rule):
    given = examples(rule)
    assert given.get("flags"), f"{FLAGS[rule].with_suffix('.yaml').name}: no element the flag must flag"
    assert given.get("passes"), f"{FLAGS[rule].with_suffix('.yaml').name}: no element the flag must leave alone"


@pytest.mark.parametrize("rule", sorted(FLAGS))
def test_each_flag_fires_on_its_examples_and_on_nothing_it_must_pass(flagged, rule):
    for polarity, want in (("flags", True), ("passes", False)):
        for k, case in enumerate(examples(rule).get(polarity) or []):
            assert flagged[(rule, polarity, k)] is want, (polarity, k, case.get("why"), case)


def test_the_rule_table_is_the_flag_files(tmp_path):
    """audit_flag_rules lists every flag file once per type it names, in the files' order, with the files' words."""
    files = {p.stem.split("_", 1)[1]: flagbook.parse(p.name, p.read_text(encoding="utf-8")) for p in flag_files()}
    audit = jfi.open_audit(write(tmp_path / "audit", [view("home")]))
    assert audit.build().ok
    rows = audit.query(
        "SELECT ord, flag, type, informational, act_rule, act_check, fact_class, meaning FROM audit_flag_rules "
        "ORDER BY ord, flag, type"
    )
    want = sorted(
        (f.ord, f.rule, t, f.informational, f.act_rule, f.act_check, f.fact_class, f.meaning)
        for f in files.values()
        for t in f.types
    )
    assert sorted(tuple(r.values()) for r in rows) == want


@pytest.mark.parametrize(
    "name, text, says",
    [
        ("01_x.sql", "-- y: wrong id\n--   type: link\nSELECT * FROM audit_link_facts\n", "line 1"),
        ("x.sql", "-- x: no order\n--   type: link\nSELECT * FROM audit_link_facts\n", "NN_<rule>.sql"),
        ("01_x.sql", "-- x: no type\nSELECT * FROM audit_link_facts\n", "type:"),
        (
            "01_x.sql",
            "-- x: a key it does not know\n--   type: link\n--   colour: red\nSELECT * FROM audit_link_facts\n",
            "line 3",
        ),
        ("01_x.sql", "-- x: two columns\n--   type: link\nSELECT name, href FROM audit_link_facts\n", "AS flag"),
        ("01_x.sql", "-- x: not a select\n--   type: link\nDELETE FROM audit_link_facts\n", "one SELECT"),
    ],
)
def test_a_flag_file_that_does_not_say_what_it_must_is_refused_with_its_path(tmp_path, name, text, says):
    (tmp_path / "audit" / "flags").mkdir(parents=True)
    (tmp_path / "audit" / "flags" / name).write_text(text)
    (tmp_path / "audit" / "39_f.sql").write_text(
        "-- f: the flags\nCREATE VIEW f AS SELECT * FROM flag_files('audit/flags');\n"
    )
    with pytest.raises(rulebook.RulebookError, match=says) as e:
        rulebook.load.__wrapped__(str(tmp_path))
    assert name in str(e.value)


def test_the_assembly_keeps_a_decisive_flag_off_what_the_browser_leaves_out(tmp_path):
    """The guard is the assembly's, once: the same condition fires on an unexposed element only when informational."""
    (tmp_path / "audit" / "flags").mkdir(parents=True)
    (tmp_path / "audit" / "flags" / "01_a.sql").write_text("-- a: decisive\n--   type: link\nSELECT * FROM facts\n")
    (tmp_path / "audit" / "flags" / "02_b.sql").write_text(
        "-- b: informs\n--   type: link\n--   informational: true\nSELECT 'b_' || i AS flag FROM facts\n"
    )
    (tmp_path / "audit" / "10_facts.sql").write_text(
        "-- facts: two links\nCREATE TABLE facts AS SELECT * FROM (VALUES ('link', 'p', 0, 0, 'k0', true), "
        "('link', 'p', 0, 1, 'k1', false)) AS t(type, product, pos, i, unit_key, exposed);\n"
    )
    (tmp_path / "audit" / "39_f.sql").write_text(
        "-- f: the flags\nCREATE TABLE f AS SELECT * FROM flag_files('audit/flags');\n"
    )
    import duckdb

    con = duckdb.connect()
    for f in rulebook.ordered(rulebook.load.__wrapped__(str(tmp_path))[0]):
        con.execute(f.sql)
    assert con.execute("SELECT flag, i FROM f ORDER BY ord, i").fetchall() == [("a", 0), ("b_0", 0), ("b_1", 1)]
