"""`jfi audit eval` on the six conformance sites: planted judge runs written here (a perfect judge, an always-no
judge, an always-unsure judge, a judge splitting a pattern group, a judge inventing evidence, two draws that
disagree) scored against each site's expectations.yaml and overrides.yaml."""

import json
import re

import pytest
from typer.testing import CliRunner

from jfi.cli import app

SITES = [
    "clean-control",
    "headings-fields-labels",
    "identification-across-views",
    "images-role-routing",
    "link-purpose-cards",
    "page-titles-shared",
]


def jfi(*args):
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def sites(conformance, tmp_path_factory):
    """Each site built from the reference inventory, with its scored rows (from an eval with no model run)."""
    out = {}
    for site in SITES:
        folder = tmp_path_factory.mktemp(site)
        assert (
            jfi(
                "audit",
                "import-inventory",
                str(conformance / "audit" / "reference" / site / "inventory-run.json"),
                "--out",
                str(folder),
            )[0]
            == 0
        )
        assert jfi("audit", "build", "--inventory", str(folder))[0] == 0
        src = conformance / "audit" / "sites" / site
        args = ["--expectations", str(src / "expectations.yaml")]
        if (src / "overrides.yaml").is_file():
            args += ["--overrides", str(src / "overrides.yaml")]
        code, _, err = jfi("audit", "eval", "--inventory", str(folder), *args)
        assert code == 1, err  # no model run: no tier promoted
        rows = json.loads((folder / "eval.json").read_text())["eval_rows"]
        out[site] = (folder, args, rows)
    return out


def write_run(root, name, rows, decide):
    """A run folder: one judged line per matched, scored row; decide(row) -> (judgment, rationale) or None."""
    folder = root / name
    folder.mkdir()
    lines = []
    for r in rows:
        if r["unit_id"] is None or r["excluded"] or r["problem"]:
            continue
        got = decide(r)
        if got is None:
            continue
        judgment, rationale = got
        lines.append(
            json.dumps(
                {
                    "id": r["unit_id"],
                    "judgment": judgment,
                    "confidence": "high",
                    "rationale": rationale,
                    "fix": "" if judgment == "yes" else "Say where it goes.",
                    "needs_human": False,
                    "drafted_by": name,
                }
            )
        )
    (folder / "all.judged.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def perfect(r):
    return r["expected"], "Reads as " + "; ".join(r["evidence_contains"] or ["what the row shows"])


def evaluate(site_entry, tmp_path, runs):
    folder, args, _ = site_entry
    run_args = []
    for label, decide in runs:
        run_args += ["--run", f"{label}={write_run(tmp_path, label.replace('/', '-'), site_entry[2], decide)}"]
    code, out, err = jfi("audit", "eval", "--inventory", str(folder), *args, *run_args)
    assert code in (0, 1), err
    return code, json.loads((folder / "eval.json").read_text()), (folder / "eval.md").read_text()


def score(result, label, row_tier="must"):
    return next(s for s in result["eval_scores"] if s["label"] == label and s["row_tier"] == row_tier)


def verdict(result, tier):
    return next(v for v in result["eval_verdicts"] if v["tier"] == tier)


def test_every_expectation_is_matched_reported_or_excluded(sites):
    total = 0
    for site, (_, _, rows) in sites.items():
        for r in rows:
            assert (r["unit_id"] is None) == (r["problem"] is not None), (site, r)
        total += sum(1 for r in rows if r["row_key"].startswith("e"))
    assert total == 62  # every planted row is a row of the report, matched or not
    lpc = {r["row_key"]: r for r in sites["link-purpose-cards"][2]}
    ambiguous = [r for r in lpc.values() if r["problem"] == "ambiguous_expectation"]
    assert len(ambiguous) == 1 and len(ambiguous[0]["candidates"]) == 7
    assert sum(1 for r in lpc.values() if r["excluded"]) == 6  # the six invalid rows, disclosed not scored
    navs = [r for _, _, rows in sites.values() for r in rows if r["type"] == "nav"]
    assert navs and all(r["problem"] == "unmatched_expectation" for r in navs)  # not a judged unit


def test_a_perfect_judge_in_two_draws_is_promoted(sites, tmp_path):
    code, result, md = evaluate(sites["link-purpose-cards"], tmp_path, [("opus/1", perfect), ("opus/2", perfect)])
    assert code == 0 and verdict(result, "opus")["promoted"] and "| opus | opus/1, opus/2 | promoted |" in md
    s = score(result, "opus/1")
    assert s["recall"] == 1 and s["false_alarm_rate"] == 0 and s["inventions"] == 0
    assert s["missing"] == 1  # the ambiguous row counts as missed
    pair = next(a for a in result["eval_agreement"] if a["kind"] == "draws")
    assert pair["agreement"] == 1 and pair["disagree"] == []


def test_an_always_no_judge_finds_everything_and_alarms_on_everything(sites, tmp_path):
    code, result, _ = evaluate(sites["images-role-routing"], tmp_path, [("haiku/1", lambda r: ("no", "Vague."))])
    s = score(result, "haiku/1")
    assert s["missing"] == 0 and s["expected_no"] > 0 and s["expected_yes"] > 0
    assert s["recall"] == 1.0 and s["false_alarm_rate"] == 1.0 and s["false_alarms"] == s["expected_yes"]
    v = verdict(result, "haiku")
    assert code == 1 and not v["promoted"] and any("false-alarm rate 1.00 > 0.05" in x for x in v["reasons"])


def test_an_always_unsure_judge_counts_against_every_row_but_the_unsure_ok_ones(sites, tmp_path):
    site = sites["images-role-routing"]
    code, result, _ = evaluate(site, tmp_path, [("haiku/1", lambda r: ("unsure", "Cannot tell."))])
    for tier in ("must", "calibration"):
        rows = [r for r in site[2] if r["tier"] == tier and not r["excluded"] and not r["problem"]]
        s = score(result, "haiku/1", tier)
        assert s["unsure_against"] == sum(1 for r in rows if not r["unsure_ok"])
        assert s["found"] == sum(1 for r in rows if r["expected"] == "no" and r["unsure_ok"])
        assert s["false_alarms"] == 0
    assert code == 1


def test_a_judge_that_splits_a_pattern_group_is_reported_with_its_members(sites, tmp_path):
    site = sites["link-purpose-cards"]
    group = [r for r in site[2] if r["pattern_group"] == "card-learnmore" and r["unit_id"]]
    odd = group[2]["unit_id"]
    _, result, md = evaluate(
        site, tmp_path, [("opus/1", lambda r: ("yes", "Fine.") if r["unit_id"] == odd else perfect(r))]
    )
    split = [g for g in result["eval_pattern_groups"] if g["run"] == 1 and g["split"]]
    assert [g["pattern_group"] for g in split] == ["card-learnmore"]
    assert sorted(split[0]["members"]) == sorted(r["unit_id"] for r in group)
    assert dict(zip(split[0]["members"], split[0]["judgments"]))[odd] == "yes"
    assert "card-learnmore" in md and f"{odd} yes" in md


def test_a_rationale_naming_what_the_row_does_not_show_is_an_invention(sites, tmp_path):
    site = sites["link-purpose-cards"]
    target = next(r for r in site[2] if r["evidence_absent"] and r["unit_id"] and r["tier"] == "must")
    phrase = target["evidence_absent"][0]

    def inventive(r):
        return (r["expected"], f"The card is about {phrase}.") if r["row_key"] == target["row_key"] else perfect(r)

    code, result, md = evaluate(site, tmp_path, [("opus/1", inventive)])
    assert score(result, "opus/1")["inventions"] == 1 and code == 1
    v = verdict(result, "opus")
    assert not v["promoted"] and v["reasons"] == ["opus/1: 1 rationale(s) invent (name a phrase the row does not show)"]
    assert f"invents {phrase}" in md


def test_two_draws_that_disagree_on_three_rows(sites, tmp_path):
    site = sites["headings-fields-labels"]
    matched = [r for r in site[2] if r["unit_id"] and not r["excluded"]]
    flipped = {r["unit_id"] for r in matched[:3]}

    def other(r):
        judgment, why = perfect(r)
        return ({"yes": "no", "no": "yes"}[judgment], why) if r["unit_id"] in flipped else (judgment, why)

    _, result, md = evaluate(site, tmp_path, [("sonnet/1", perfect), ("sonnet/2", other), ("haiku/1", perfect)])
    draws = next(a for a in result["eval_agreement"] if a["kind"] == "draws")
    assert (draws["label_a"], draws["label_b"]) == ("sonnet/1", "sonnet/2")
    assert draws["both_judged"] == len(matched) and draws["agree"] == len(matched) - 3
    assert sorted(draws["disagree"]) == sorted(flipped)
    tiers = {(a["label_a"], a["label_b"]): a for a in result["eval_agreement"] if a["kind"] == "tiers"}
    assert (
        tiers[("sonnet/1", "haiku/1")]["agreement"] == 1 and tiers[("sonnet/2", "haiku/1")]["agree"] == len(matched) - 3
    )


def test_the_flags_baseline_scored_by_hand(sites, conformance):
    """The flags alone as a judge on link-purpose-cards, worked out here from the units' flags and the rule table."""
    folder, _, rows = sites["link-purpose-cards"]
    result = json.loads((folder / "eval.json").read_text())
    units = {u["id"]: u for u in json.loads((folder / "judgment-units.json").read_text())["units"]}
    from jfi.store import Store

    store = Store(sections=("audit",)).build()
    informational = [
        re.compile(p)
        for (p,) in store.con.execute("SELECT pattern FROM audit_flag_rules WHERE informational").fetchall()
    ]
    store.close()

    def counted(uid):
        return any(not any(p.match(f) for p in informational) for f in units[uid]["flags"])

    for tier in ("must", "calibration"):
        scored = [r for r in rows if r["tier"] == tier and not r["excluded"]]
        judged = [(r, "no" if counted(r["unit_id"]) else "yes") for r in scored if r["unit_id"]]
        s = score(result, "flags", tier)
        assert s["found"] == sum(1 for r, j in judged if r["expected"] == "no" and j == "no")
        assert s["false_alarms"] == sum(1 for r, j in judged if r["expected"] == "yes" and j == "no")
        assert s["missing"] == sum(1 for r in scored if not r["unit_id"])
    # by hand: the five card-grid "Learn more" links carry link_generic_text, so the flags say no to each
    assert score(result, "flags")["found"] == 7 and score(result, "flags")["false_alarms"] == 0


def test_the_bar_comes_from_eval_toml_beside_the_expectations(sites, tmp_path, conformance):
    folder, args, rows = sites["images-role-routing"]
    local = tmp_path / "exp"
    local.mkdir()
    src = conformance / "audit" / "sites" / "images-role-routing"
    (local / "expectations.yaml").write_bytes((src / "expectations.yaml").read_bytes())
    (local / "eval.toml").write_text("[promotion]\nrecall_min = 0.5\nfalse_alarm_max = 1.0\ninventions_max = 0\n")
    run = write_run(tmp_path, "no", rows, lambda r: ("no", "Vague."))
    code, out, _ = jfi(
        "audit",
        "eval",
        "--inventory",
        str(folder),
        "--expectations",
        str(local / "expectations.yaml"),
        "--overrides",
        str(src / "overrides.yaml"),
        "--run",
        f"haiku/1={run}",
    )
    assert code == 0 and "haiku: promoted" in out
    code, out, _ = jfi(
        "query", "--inventory", str(folder), "SELECT false_alarm_max FROM eval_settings", "--format", "json"
    )
    assert code == 0 and json.loads(out) == [{"false_alarm_max": 1.0}]


@pytest.mark.parametrize(
    "text,line,needle",
    [
        (
            '- view: home\n  type: link\n  locator: {text: Home}\n  expected: "no"\n  tier: must\n'
            "- view: home\n  type: link\n  locator: {text: Fares}\n  tier: must\n",
            6,
            "expected: missing_field",
        ),
        (
            "- view: home\n  type: banner\n  locator: {text: Home}\n  expected: maybe\n  tier: must\n",
            1,
            "invalid_value",
        ),
        ("- view: home\n  type: link\n  locator: [text, Home\n", 4, "invalid_yaml"),  # where the reader stopped
        ("view: home\n", 1, "invalid_expectations"),
    ],
)
def test_malformed_expectations_are_refused_at_their_line(sites, tmp_path, text, line, needle):
    folder = sites["clean-control"][0]
    path = tmp_path / "expectations.yaml"
    path.write_text(text)
    before = (folder / "eval.json").read_bytes()
    code, _, err = jfi("audit", "eval", "--inventory", str(folder), "--expectations", str(path))
    assert code == 2 and f"{path}:{line}:" in err and needle in err, err
    assert (folder / "eval.json").read_bytes() == before
