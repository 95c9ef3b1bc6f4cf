"""Judge kit, strict judged import, the spot-check sample and the merge."""

import csv
import io
import json

import pytest
from conftest import Jfi, snapshot
from inventories import field, heading, image, link, made, view, write

import jfi as api


def _built(root, *more_views):
    views = [
        view(
            "home",
            title="Harbor — Home",
            h1=["Harbor home"],
            headings=[heading("Overview")],
            links=[link("Learn more", "/a", context=""), link("Weekly passes", "/passes", context="")],
            images=[image()],
            fields=[field()],
        ),
        view("fares", title="Harbor — Fares", h1=["Fares"], links=[link("Weekly passes", "/passes", context="")]),
        *more_views,
    ]
    return Jfi(root), made(root, views, ("build", "--batch", "3"), in_place=True)


@pytest.fixture
def built(tmp_path):
    return _built(tmp_path)


def batch_ids(folder):
    out = {}
    for p in sorted((folder / "batches").glob("*.jsonl")):
        if not p.name.endswith(".judged.jsonl"):
            out[p.name] = [json.loads(x)["id"] for x in p.read_text().splitlines()]
    return out


def judge(folder, decide=lambda uid: "yes", overrides=None):
    overrides = overrides or {}
    for name, ids in batch_ids(folder).items():
        lines = []
        for uid in ids:
            j = decide(uid)
            rec = {
                "id": uid,
                "judgment": j,
                "confidence": "high",
                "rationale": "Tells a rider where it goes.",
                "fix": "" if j == "yes" else "Name the destination.",
                "needs_human": False,
                "drafted_by": "judge-a",
            }
            rec.update(overrides.get(uid, {}))
            lines.append(json.dumps(rec))
        (folder / "batches" / name.replace(".jsonl", ".judged.jsonl")).write_text("\n".join(lines) + "\n")


def units(folder):
    return json.loads((folder / "judgment-units.json").read_text())["units"]


def test_commands_after_build_refuse_an_unbuilt_folder_alike(tmp_path):
    folder = write(tmp_path / "audit", [view("home")])
    jfi = Jfi(tmp_path)
    for command in ("judge-kit", "merge", "sample", "worklist", "receipts"):
        r = jfi("audit", command, "--inventory", str(folder))
        assert r.exit_code == 2 and "not_built" in r.stderr, (command, r.exit_code, r.stderr)


def test_judge_kit_needs_a_product_note(built):
    jfi, folder = built
    r = jfi("audit", "judge-kit", "--inventory", str(folder))
    assert r.exit_code == 2 and "audit.toml" in r.stderr
    (folder / "audit.toml").write_text('[products.other]\nnote = "x"\n')
    r = jfi("audit", "judge-kit", "--inventory", str(folder))
    assert r.exit_code == 2 and "harbor" in r.stderr
    (folder / "audit.toml").write_text('[products.harbor]\nnote = "Riders planning a ferry trip on phones."\n')
    r = jfi("audit", "judge-kit", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    for name in batch_ids(folder):
        kit = folder / "judge-kit" / name[:-6]
        assert sorted(p.name for p in kit.iterdir()) == ["batch.jsonl", "instructions.md", "product.md", "rubric.md"]
        assert "Riders planning a ferry trip" in (kit / "product.md").read_text()
        assert (kit / "batch.jsonl").read_text() == (folder / "batches" / name).read_text()
        assert f"{name[:-6]}.judged.jsonl" in (kit / "instructions.md").read_text()
    assert "F84" in (folder / "judgment-rubric.md").read_text()


BAD = [
    ({"judgment": "maybe"}, "judgment: invalid_value"),
    ({"confidence": None}, "confidence: invalid_type"),
    ({"rationale": " ".join(["word"] * 26)}, "rationale: too_long"),
    ({"fix": " ".join(["word"] * 21), "judgment": "no"}, "fix: too_long"),
    ({"fix": "Do something."}, "fix: fix_on_yes"),
    ({"needs_human": "no"}, "needs_human: invalid_type"),
    ({"drafted_by": ""}, "drafted_by: invalid_value"),
    ({"extra": 1}, "extra: unknown_field"),
    ({"id": "LINK-HA-0000000000"}, "id: unknown_id"),
]


@pytest.fixture(scope="module")
def every_bad_line(tmp_path_factory):
    """Every change of BAD made to its own judged line (the N-th unit across the batches takes the N-th change);
    one merge refuses them all and writes nothing. Returns (its stderr, where each change went: file name and line)."""
    jfi, folder = _built(
        tmp_path_factory.mktemp("bad"),
        view(
            "times",
            title="Harbor — Times",
            h1=["Times"],
            links=[link("North pier", "/north", context=""), link("South pier", "/south", context="")],
        ),
    )
    places = [
        (name.replace(".jsonl", ".judged.jsonl"), n, uid)
        for name, ids in batch_ids(folder).items()
        for n, uid in enumerate(ids, 1)
    ]
    assert len(places) >= len(BAD)
    judge(folder, overrides={uid: change for (_, _, uid), (change, _) in zip(places, BAD)})
    before = snapshot(folder)
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 2 and snapshot(folder) == before
    return r.stderr, places


@pytest.mark.parametrize("k", range(len(BAD)), ids=[b[1] for b in BAD])
def test_judged_lines_are_validated_strictly(every_bad_line, k):
    stderr, places = every_bad_line
    name, line, _ = places[k]
    assert f"{name}:{line}: {BAD[k][1]}:" in stderr, stderr


def test_missing_and_duplicate_judged_lines(built):
    jfi, folder = built
    judge(folder)
    name, ids = next((n, i) for n, i in batch_ids(folder).items() if len(i) >= 2)
    path = folder / "batches" / name.replace(".jsonl", ".judged.jsonl")
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], lines[0]] + lines[2:]) + "\n")
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 2 and "missing_judgment" in r.stderr
    judged = path.name
    # the repeat is the fault, on the line that repeats: the first judgment of the unit stands
    assert f"{judged}:2: id: duplicate_id:" in r.stderr and f"{judged}:1: id: duplicate_id:" not in r.stderr, r.stderr


def test_sample_reasons_and_reproducibility(built):
    jfi, folder = built
    us = units(folder)
    flagged_yes = next(u["id"] for u in us if "link_generic_text" in u["flags"])
    clean_no = next(u["id"] for u in us if not u["flags"] and u["type"] == "link")
    info_only_yes = (
        next(u["id"] for u in us if u["flags"] and all(f.startswith("name_from") for f in u["flags"]))
        if any(u["flags"] and all(f.startswith("name_from") for f in u["flags"]) for u in us)
        else None
    )
    unsure = next(u["id"] for u in us if u["type"] == "title")
    decisions = {clean_no: "no", unsure: "unsure"}
    judge(folder, decide=lambda uid: decisions.get(uid, "yes"))
    r = jfi("audit", "sample", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    rows = [json.loads(x) for x in (folder / "spot-check-sample.jsonl").read_text().splitlines()]
    reasons = {x["id"]: x["reason"] for x in rows}
    assert reasons[flagged_yes] == "flagged-but-yes"
    assert reasons[clean_no] == "clean-but-no"
    assert reasons[unsure] == "unsure"
    if info_only_yes:
        assert reasons.get(info_only_yes) in (None, "random")
    # the summary counts the file's rows by reason, each reason in the order it first comes in the file
    in_file = [x["reason"] for x in rows]
    assert list(r.json["by_reason"].items()) == [(k, in_file.count(k)) for k in dict.fromkeys(in_file)]
    assert r.json["sampled"] == len(rows) and len(r.json["by_reason"]) >= 3
    first = (folder / "spot-check-sample.jsonl").read_bytes()
    assert jfi("audit", "sample", "--inventory", str(folder)).exit_code == 0
    assert (folder / "spot-check-sample.jsonl").read_bytes() == first
    assert set(rows[0]) >= {"reason", "id", "draft", "flags", "rationale"}


def test_random_draw_is_about_ten_percent_and_seeded(tmp_path):
    links = [link(f"Route {k} timetable", f"/r{k}", context="") for k in range(400)]
    folder = write(tmp_path / "audit", [view("home", title="Harbor routes", h1=["Harbor routes"], links=links)])
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    judge(folder)
    jfi("audit", "sample", "--inventory", str(folder))
    plain = [json.loads(x)["id"] for x in (folder / "spot-check-sample.jsonl").read_text().splitlines()]
    jfi("audit", "sample", "--inventory", str(folder), "--seed", "round-2")
    seeded = [json.loads(x)["id"] for x in (folder / "spot-check-sample.jsonl").read_text().splitlines()]
    assert 20 <= len(plain) <= 65 and 20 <= len(seeded) <= 65
    assert plain != seeded


def test_merge_columns_sort_status_and_overturns(built):
    jfi, folder = built
    us = units(folder)
    link_ids = [u["id"] for u in us if u["type"] == "link"]
    decisions = {link_ids[0]: "no"}
    judge(folder, decide=lambda uid: decisions.get(uid, "yes"))
    (folder / "spot-checks.jsonl").write_text(
        json.dumps({"id": link_ids[1], "spot_check": "overturn", "judgment": "unsure", "note": "=check live"}) + "\n"
    )
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    text = (folder / "draft-judgments.csv").read_text()
    rows = list(csv.DictReader(io.StringIO(text)))
    [first] = api.open_audit(folder).query("SELECT * FROM audit_draft_csv LIMIT 1")
    assert list(rows[0]) == list(first) and rows[0]["id"] == first["id"]  # the header is the view's columns
    assert all(r["status"] == "DRAFT_NOT_RATIFIED" for r in rows)
    order = [r["type"] for r in rows]
    assert order == sorted(order, key=["title", "heading", "field", "link", "image", "ident"].index)
    links = [r for r in rows if r["type"] == "link"]
    assert [r["session_draft_judgment"] for r in links][:2] == ["no", "unsure"]
    over = next(r for r in rows if r["id"] == link_ids[1])
    assert over["draft_judgment"] == "yes" and over["spot_check"] == "overturn→unsure: =check live"
    assert (folder / "draft-judgments-harbor.csv").read_text() == text
    doc = json.loads((folder / "draft-judgments.json").read_text())
    assert doc["status"] == "DRAFT_NOT_RATIFIED" and doc["coverage_basis"]["activation"].startswith("none")
    assert doc["tally"]["harbor|link"]["overturned"] == 1 and doc["rubric"] == "judgment-rubric.md"
    assert "never supports a criterion outcome" in doc["coverage_basis"]["rule"]


def test_csv_cells_are_formula_safe(tmp_path):
    folder = write(
        tmp_path / "audit", [view("home", title='=HYPERLINK("x")', h1=["@home"], links=[link("-1 day", "/d")])]
    )
    jfi = Jfi(tmp_path)
    jfi("audit", "build", "--inventory", str(folder))
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    rows = list(csv.DictReader(io.StringIO((folder / "draft-judgments.csv").read_text())))
    assert rows[0]["name"] == '\'=HYPERLINK("x")' and rows[0]["detail"] == "h1: @home"
    assert any(r["name"] == "'-1 day" for r in rows)
    doc = json.loads((folder / "draft-judgments.json").read_text())
    assert doc["rows"][0]["name"] == '=HYPERLINK("x")'


def test_spot_checks_are_validated(built):
    jfi, folder = built
    judge(folder)
    (folder / "spot-checks.jsonl").write_text(
        '{"id": "NOPE", "spot_check": "agree"}\n{"id": "x", "spot_check": "overturn"}\nnot json\n'
    )
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 2
    assert (
        "spot-checks.jsonl:1: id: unknown_id" in r.stderr and "spot-checks.jsonl:2: judgment: missing_field" in r.stderr
    )
    assert "spot-checks.jsonl:3: invalid_json" in r.stderr


def test_query_an_audit_folder(built):
    jfi, folder = built
    r = jfi(
        "query",
        "--inventory",
        str(folder),
        "SELECT flag FROM audit_flags WHERE flag = 'heading_generic'",
        "--format",
        "json",
    )
    assert r.exit_code == 0, r.stderr
    assert r.json == [{"flag": "heading_generic"}]
    r = jfi("query", "--inventory", str(folder), "SELECT count(*) AS n FROM audit_built_units", "--format", "json")
    assert r.json[0]["n"] == len(units(folder))


def test_approximated_names_need_a_browser_check(tmp_path):
    icon = link(
        "arrow", "/n", name_source="img-alt", text="", icon_only=True, has_img=True, img_alt="arrow", context=""
    )
    plain = link("Weekly passes", "/passes", context="")
    folder = write(tmp_path / "audit", [view("home", title="Harbor routes", h1=["Harbor routes"], links=[icon, plain])])
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    judge(folder)
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO((folder / "draft-judgments.csv").read_text()))}
    assert rows["arrow"]["needs_human"] == "true" and rows["Weekly passes"]["needs_human"] == "false"


def test_a_name_the_browser_gave_needs_no_browser_check(tmp_path):
    """The same image-named link, captured with the accessibility tree: its name is Chromium's, so only the judge
    can ask for a person."""
    ax = {"name": "arrow", "name_source": "contents", "role": "link", "exposed": True}
    icon = link(
        "arrow", "/n", name_source="img-alt", text="", icon_only=True, has_img=True, img_alt="arrow", context="", ax=ax
    )
    asked = link("Fares", "/fares", context="", ax={**ax, "name": "Fares"})
    folder = write(tmp_path / "audit", [view("home", title="Harbor routes", h1=["Harbor routes"], links=[icon, asked])])
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    assert {u["name"]: u["needs_human"] for u in units(folder) if u["type"] == "link"} == {
        "arrow": False,
        "Fares": False,
    }
    fares = next(u["id"] for u in units(folder) if u["name"] == "Fares")
    judge(folder, overrides={fares: {"needs_human": True}})
    assert jfi("audit", "merge", "--inventory", str(folder)).exit_code == 0
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO((folder / "draft-judgments.csv").read_text()))}
    assert rows["arrow"]["needs_human"] == "false" and rows["Fares"]["needs_human"] == "true"
