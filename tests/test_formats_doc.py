"""docs/formats.md: each file a person writes by hand has a complete example there, and each example is read by jfi
as it is written (no error); the field tables there are the rulebook's own field_specs, row for row.

`python tests/test_formats_doc.py` prints the tables as the rulebook has them, to paste after a field rule changes."""

import json
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import REPO, Jfi  # noqa: E402

DOC = REPO / "docs" / "formats.md"
# (table title in the doc, profile or "audit", field_specs kind)
TABLES = [
    ("round-v1 item", "round-v1", "item"),
    ("round-v2 item", "round-v2", "item"),
    ("harvest item", "harvest", "item"),
    ("review verdict", "round-v1", "review"),
    ("second-pass answer", "round-v1", "second_pass"),
    ("harvest review batch", "harvest", "batch"),
    ("judged batch line", "audit", "judged"),
    ("spot check", "audit", "spot_check"),
    ("ratification record", "audit", "ratification"),
]
SPEC_SQL = (
    "SELECT field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning "
    "FROM field_specs WHERE kind = '{kind}' ORDER BY field = '*', rowid"
)


def examples() -> dict[str, str]:
    """The doc's examples by name: a fenced block whose info string is `LANG example=NAME`."""
    return dict(re.findall(r"```\w+ example=([\w-]+)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S))


def _rule(row: dict) -> str:
    parts = []
    if row["allowed"]:
        parts.append("one of " + ", ".join(f"`{v}`" if v else '`""`' for v in row["allowed"]))
    if row["pattern"]:
        parts.append(f"matches `{row['pattern']}`")
    if row["format"]:
        parts.append(row["format"])
    if row["min_len"] is not None or row["max_len"] is not None:
        parts.append(f"length {row['min_len'] or 0}–{row['max_len'] if row['max_len'] is not None else '∞'}")
    if row["min_int"] is not None and row["max_int"] is not None:
        parts.append(f"from {row['min_int']} to {row['max_int']}")
    elif row["min_int"] is not None or row["max_int"] is not None:
        parts.append(f"at least {row['min_int']}" if row["min_int"] is not None else f"at most {row['max_int']}")
    return "; ".join(parts)


def table_text(rows: list[dict]) -> str:
    lines = ["| field | required | type | values | meaning |", "|---|---|---|---|---|"]
    for r in rows:
        field = "any other key" if r["field"] == "*" else f"`{r['field']}`"
        lines.append(
            f"| {field} | {'yes' if r['required'] else 'no'} | {' or '.join(r['types'] or [])} | "
            f"{_rule(r).replace('|', '&#124;')} | {(r['meaning'] or '').replace('|', '&#124;')} |"
        )
    return "\n".join(lines) + "\n"


def specs(tmp: Path, profile: str, kind: str) -> list[dict]:
    jfi = Jfi(tmp / profile)
    if profile == "audit":
        from inventories import view, write

        folder = write(tmp / "audit-folder", [view("home")])
        r = jfi("query", "--inventory", str(folder), SPEC_SQL.format(kind=kind), "--format", "json")
    else:
        if not (tmp / profile).exists():
            assert jfi("corpus", "init", "--profile", profile).exit_code == 0
        r = jfi("query", SPEC_SQL.format(kind=kind), "--format", "json")
    assert r.exit_code == 0, r.stderr
    return r.json


def test_the_field_tables_are_the_rulebooks(tmp_path):
    doc = DOC.read_text(encoding="utf-8")
    for title, profile, kind in TABLES:
        expected = table_text(specs(tmp_path, profile, kind))
        assert f"**{title}**" in doc, title
        after = doc[doc.index(f"**{title}**") :]
        assert expected in after[: len(expected) + 400], f"the {title} table differs from field_specs:\n{expected}"


def _project(tmp: Path, profile: str, items: str) -> Jfi:
    jfi = Jfi(tmp / profile)
    assert jfi("corpus", "init", "--profile", profile).exit_code == 0
    jfi.write_corpus(items)
    return jfi


def _clean(r) -> None:
    assert r.json["errors"] == [], r.json["errors"]


def test_the_round_examples_are_read_without_an_error(tmp_path):
    ex = examples()
    jfi = _project(tmp_path, "round-v1", ex["round-v1-item"])
    jfi.write_round(1, "review.jsonl", ex["review-verdict"])
    _clean(jfi("corpus", "validate", "--json"))
    assert jfi("corpus", "second-pass", "extract", "--round", "1").exit_code == 0
    jfi.write_round(1, "second-pass.jsonl", ex["second-pass-answer"])
    _clean(jfi("corpus", "validate", "--json"))
    assert jfi("corpus", "second-pass", "apply", "--round", "1").exit_code == 0
    assert (jfi.project / "rounds" / "round-01-report.md").write_text(ex["round-report"]) and jfi(
        "corpus", "validate", "--json"
    ).json["errors"] == []
    v2 = _project(tmp_path, "round-v2", ex["round-v2-item"])
    _clean(v2("corpus", "validate", "--json"))
    assert json.loads(ex["round-v2-item"])["accessible_name"]


def test_the_harvest_examples_are_read_without_an_error(tmp_path):
    ex = examples()
    jfi = _project(tmp_path, "harvest", ex["harvest-item"])
    _clean(jfi("corpus", "validate", "--json"))
    batch = jfi.project / "review" / "batch-01.jsonl"
    batch.parent.mkdir(parents=True, exist_ok=True)
    batch.write_text(ex["harvest-review-batch"])
    r = jfi("corpus", "apply-review", "--batch", "1", "--dry-run")
    assert r.exit_code == 0, r.stderr


def test_the_audit_examples_are_read_as_written(tmp_path):
    """The views file and audit.toml drive a capture of the bundled example site; a judged batch line, a spot check
    and a ledger record written as the doc shows are merged, and the row is ratified."""
    ex = examples()
    site = tmp_path / "site"
    shutil.copytree(REPO / "corpus" / "example-site", site)
    (site / "views.txt").write_text(ex["views"])
    folder = tmp_path / "audit"
    folder.mkdir()
    (folder / "audit.toml").write_text(ex["audit-toml"])
    jfi = Jfi(tmp_path)
    r = jfi(
        "audit",
        "inventory",
        "--urls-file",
        str(site / "views.txt"),
        "--serve",
        str(site),
        "--out",
        str(folder),
        "--settle",
        "0",
        "--no-axe",
    )
    assert r.exit_code == 0, r.stderr
    header = json.loads((folder / "inventory.jsonl").read_text().splitlines()[0])
    assert [v["width"] for v in header.get("viewports", [header["viewport"]])] == [1440]
    assert jfi("audit", "build", "--inventory", str(folder)).exit_code == 0
    assert jfi("audit", "judge-kit", "--inventory", str(folder)).exit_code == 0
    (folder / "batches" / "harbor-title-01.judged.jsonl").write_text(ex["judged-batch"])
    (folder / "spot-checks.jsonl").write_text(ex["spot-checks"])
    (folder / "ratifications.jsonl").write_text(ex["ratification-hand"] + ex["ratification-pinned"])
    r = jfi("audit", "merge", "--inventory", str(folder))
    assert r.exit_code == 0, r.stderr
    rows = {row["id"]: row for row in json.loads((folder / "draft-judgments.json").read_text())["rows"]}
    for line in (ex["ratification-hand"] + ex["ratification-pinned"]).splitlines():
        record = json.loads(line)
        assert rows[record["id"]]["status"] == "RATIFIED", rows[record["id"]]


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for title, profile, kind in TABLES:
            print(f"**{title}**\n\n{table_text(specs(Path(tmp), profile, kind))}")
