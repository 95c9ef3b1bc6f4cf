"""Verification checkpoints: measurement in a real Chromium, pinned claims, checkpoint states, the gate."""

import hashlib
import json
import os

import pytest
from conftest import Jfi

STYLE = (
    "body{margin:0;font-family:sans-serif} .hero{margin:0;position:absolute;left:100px;top:80px;width:400px;height:60px}"
    " .label{position:absolute;left:100px;top:200px;width:300px;height:20px;overflow:hidden;white-space:nowrap}"
    " .side{position:absolute;left:600px;top:80px;width:100px;height:100px}"
)
BINDINGS = [
    {
        "region": "title",
        "selector": ".hero",
        "box": {"x": 100, "y": 80, "width": 400, "height": 60},
        "significant": True,
    },
    {
        "region": "label",
        "selector": ".label",
        "box": {"x": 100, "y": 200, "width": 300, "height": 20},
        "significant": True,
    },
    {
        "region": "side",
        "selector": ".side",
        "box": {"x": 600, "y": 80, "width": 100, "height": 100},
        "significant": True,
    },
]


def page(root, extra_style="", label="Short label", body_extra=""):
    site = root / "site"
    site.mkdir(exist_ok=True)
    (site / "index.html").write_text(
        f"<!doctype html><html><head><style>{STYLE} {extra_style}</style></head><body>"
        f"<h1 class='hero'>Harbor</h1><div class='label'>{label}</div><div class='side'>x</div>"
        f"{body_extra}</body></html>"
    )
    return site / "index.html"


def measure(jfi, root, bindings=BINDINGS, out="out"):
    (root / "bindings.jsonl").write_text("".join(json.dumps(b) + "\n" for b in bindings))
    r = jfi(
        "verify",
        "measure",
        "--url",
        str(root / "site" / "index.html"),
        "--bindings",
        str(root / "bindings.jsonl"),
        "--out",
        str(root / out),
    )
    lines = (
        [json.loads(x) for x in (root / out / "measurements.jsonl").read_text().splitlines()]
        if r.exit_code in (0, 1)
        else []
    )
    return r, {x["region"]: x for x in lines}


def test_matching_page_passes(tmp_path):
    page(tmp_path)
    r, got = measure(Jfi(tmp_path), tmp_path)
    assert r.exit_code == 0, r.stdout + r.stderr
    assert all(x["result"] == "PASS" for x in got.values())
    assert got["title"]["box"] == {"x": 100, "y": 80, "width": 400, "height": 60}
    assert (
        got["title"]["screenshot"]["sha256"]
        == hashlib.sha256((tmp_path / "out" / "candidate.png").read_bytes()).hexdigest()
    )


def test_six_pixel_shift_fails_naming_the_edge(tmp_path):
    page(tmp_path, ".hero{left:106px}")
    r, got = measure(Jfi(tmp_path), tmp_path)
    assert r.exit_code == 1 and got["title"]["result"] == "FAIL"
    assert (
        "left edge drifts +6.0 px" in got["title"]["evidence"]
        and "right edge drifts +6.0 px" in got["title"]["evidence"]
    )
    assert got["title"]["drift"]["left"] == 6 and got["label"]["result"] == "PASS"


def test_four_pixel_shift_passes(tmp_path):
    page(tmp_path, ".hero{top:84px}")
    r, got = measure(Jfi(tmp_path), tmp_path)
    assert got["title"]["result"] == "PASS" and got["title"]["drift"]["top"] == 4


def test_clipped_text_overlap_and_escape_fail(tmp_path):
    page(
        tmp_path,
        ".side{left:1400px} .hero{width:560px}",
        label="A label far too long to fit in three hundred pixels of width",
    )
    r, got = measure(Jfi(tmp_path), tmp_path, bindings=[dict(BINDINGS[0], significant=False), BINDINGS[1], BINDINGS[2]])
    assert got["label"]["result"] == "FAIL" and got["label"]["clipped"] and "clipped" in got["label"]["evidence"]
    assert got["side"]["result"] == "FAIL" and got["side"]["escapes"]
    assert got["title"]["result"] == "PASS"  # not significant: its drift is reported, not failed
    page(tmp_path, ".hero{width:560px}")
    r, got = measure(Jfi(tmp_path), tmp_path, bindings=[dict(BINDINGS[0], significant=False), BINDINGS[2]], out="o2")
    assert got["title"]["overlaps"] == ["side"] and got["title"]["result"] == "FAIL"


def test_missing_ambiguous_or_invalid_selector_is_insufficient(tmp_path):
    page(tmp_path, body_extra="<p class='dup'>a</p><p class='dup'>b</p>")
    bindings = [
        dict(BINDINGS[0], selector=".nope"),
        dict(BINDINGS[1], selector=".dup"),
        dict(BINDINGS[2], selector="#1bad"),
    ]
    r, got = measure(Jfi(tmp_path), tmp_path, bindings=bindings)
    assert r.exit_code == 1
    assert [got[k]["result"] for k in ("title", "label", "side")] == ["INSUFFICIENT"] * 3
    assert "matches 2 elements" in got["label"]["evidence"] and "never a pass" in got["title"]["evidence"]


def test_bad_bindings_are_refused(tmp_path):
    (tmp_path / "b.jsonl").write_text('{"region": "a", "selector": ".x"}\n')
    r = Jfi(tmp_path)(
        "verify",
        "measure",
        "--url",
        "http://127.0.0.1:9/",
        "--bindings",
        str(tmp_path / "b.jsonl"),
        "--out",
        str(tmp_path / "o"),
    )
    assert r.exit_code == 2 and "b.jsonl:1" in r.stderr and not (tmp_path / "o").exists()


def visual(root, result="PASS", shot="out/candidate.png", claim="The title sits on one line in the hero region"):
    sha = hashlib.sha256((root / shot).read_bytes()).hexdigest()
    path = root / f"visual-{result}.jsonl"
    path.write_text(
        json.dumps(
            {
                "claim": claim,
                "kind": "visual",
                "inputs": [{"role": "candidate screenshot", "path": shot, "sha256": sha}],
                "verifier": "vision-model-x",
                "result": result,
                "evidence": "Compared with the reference mock-up.",
            }
        )
        + "\n"
    )
    return path.name


@pytest.fixture
def workdir(tmp_path):
    old = os.getcwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(old)


def verified(root):
    jfi = Jfi(root)
    page(root)
    r, _ = measure(jfi, root)
    (root / "bindings.jsonl").write_text("".join(json.dumps(b) + "\n" for b in BINDINGS))
    assert jfi("verify", "snapshot", "site", "out", "bindings.jsonl").exit_code == 0
    assert jfi("verify", "checkpoint", "--screenshot", "out/candidate.png", "--changes", "first build").exit_code == 0
    assert jfi("verify", "import", "out/measurements.jsonl").exit_code == 0
    return jfi


def gate_rows(r):
    return {line.split("  ")[0].strip(): ("  yes  " in line) for line in r.stdout.splitlines()[3:13]}


def test_gate_needs_spatial_and_external_visual_then_passes(workdir):
    jfi = verified(workdir)
    r = jfi("verify", "gate")
    assert r.exit_code == 1 and not gate_rows(r)["visual verification by an external verifier ran"]
    assert jfi("verify", "import", visual(workdir)).exit_code == 0
    r = jfi("verify", "gate")
    assert r.exit_code == 0, r.stdout
    assert all(gate_rows(r).values()) and "spatial result: 3 PASS" in r.stdout and "ACCEPTED" in r.stdout


def test_editing_after_verification_makes_evidence_stale(workdir):
    jfi = verified(workdir)
    jfi("verify", "import", visual(workdir))
    assert jfi("verify", "gate").exit_code == 0
    page(workdir, ".hero{left:101px}")
    r = jfi("verify", "gate")
    assert r.exit_code == 1 and "edited since the last snapshot: site/index.html" in r.stdout
    assert jfi("verify", "snapshot", "site", "out", "bindings.jsonl").exit_code == 0
    r = jfi("verify", "gate")
    assert r.exit_code == 1 and "has no checkpoint" in r.stdout
    # a new checkpoint on the new code: the old screenshot and claims verify nothing
    assert jfi("verify", "checkpoint", "--screenshot", "out/candidate.png").exit_code == 0
    r = jfi("verify", "gate")  # the old measurements pinned the old page: they verify nothing now
    assert r.exit_code == 1 and "0 spatial claim(s) count" in r.stdout
    assert "no claim that counts ties the checkpoint's screenshot to this code" in r.stdout


def test_external_fail_keeps_checkpoint_rejected_until_a_later_one_passes(workdir):
    jfi = verified(workdir)
    assert jfi("verify", "import", visual(workdir, "FAIL")).exit_code == 0
    assert (
        jfi("verify", "import", visual(workdir, "PASS", claim="The label is readable beside the title")).exit_code == 0
    )
    r = jfi("verify", "gate")
    assert r.exit_code == 1 and "state REJECTED" in r.stdout
    page(workdir, ".label{color:#333}")
    r, _ = measure(jfi, workdir)
    (workdir / "bindings.jsonl").write_text("".join(json.dumps(b) + "\n" for b in BINDINGS))
    jfi("verify", "snapshot", "site", "out", "bindings.jsonl")
    jfi("verify", "checkpoint", "--screenshot", "out/candidate.png", "--changes", "label colour fixed")
    r = jfi("verify", "gate")
    assert "state REJECTED" not in r.stdout  # the old FAIL pinned the old screenshot and does not count here
    jfi("verify", "import", "out/measurements.jsonl")
    jfi("verify", "import", visual(workdir, "PASS"))
    r = jfi("verify", "gate")
    assert r.exit_code == 0 and "state ACCEPTED" in r.stdout


@pytest.mark.parametrize(
    "claim,code",
    [
        ({"claim": "looks good"}, "broad_claim"),
        ({"claim": "The page is correct"}, "broad_claim"),
        ({"inputs": []}, "inputs: invalid_value"),
        ({"inputs": [{"role": "vibes", "path": "x", "sha256": "0" * 64}]}, "inputs: invalid_value"),
        ({"result": "OK"}, "result: invalid_value"),
        ({"evidence": ""}, "evidence: invalid_value"),
        ({"verifier": None}, "verifier: invalid_type"),
    ],
)
def test_claims_are_refused_when_broad_or_malformed(tmp_path, claim, code):
    good = {
        "claim": "DOM element .hero-title corresponds to the main-title region",
        "kind": "spatial",
        "inputs": [{"role": "DOM", "path": "site/index.html", "sha256": "0" * 64}],
        "verifier": "model-y",
        "result": "PASS",
        "evidence": "Bounding boxes align within 2 px.",
    }
    (tmp_path / "c.jsonl").write_text(json.dumps({**good, **claim}) + "\n")
    r = Jfi(tmp_path)("verify", "import", str(tmp_path / "c.jsonl"))
    assert r.exit_code == 2 and code in r.stderr and "c.jsonl:1" in r.stderr
    assert not (tmp_path / "verification" / "claims.jsonl").exists()


def test_query_a_verification_folder(workdir):
    jfi = verified(workdir)
    r = jfi(
        "query", "--verify", "verification", "SELECT state, claims FROM verify_checkpoint_states", "--format", "json"
    )
    assert r.exit_code == 0, r.stderr
    assert r.json == [{"state": "CANDIDATE", "claims": 3}]
    assert jfi("query", "--verify", "verification", "--inventory", ".", "SELECT 1").exit_code == 3


def test_a_checkpoints_screenshot_is_a_png_image_and_a_regular_file(workdir):
    jfi = Jfi(workdir)
    (workdir / "site").mkdir()
    (workdir / "site" / "index.html").write_text("<h1>Fares</h1>\n")
    assert jfi("verify", "snapshot", "site").exit_code == 0
    before = (workdir / "verification").joinpath("artifacts.jsonl").read_bytes()
    (workdir / "shot.png").symlink_to(workdir / "site" / "index.html")
    for shot in ("site/index.html", "shot.png"):  # a page is no picture; a link is never followed
        r = jfi("verify", "checkpoint", "--screenshot", shot)
        assert r.exit_code == 2 and shot.split("/")[-1] in r.stderr, r.stderr
    assert sorted(p.name for p in (workdir / "verification").iterdir()) == ["artifacts.jsonl"]
    assert (workdir / "verification" / "artifacts.jsonl").read_bytes() == before
    (workdir / "real.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 16)
    assert jfi("verify", "checkpoint", "--screenshot", "real.png").exit_code == 0


@pytest.mark.slow
def test_the_readme_worked_example_runs_from_a_copy_of_the_bundled_folder(tmp_path, monkeypatch):
    """corpus/example-verify as shipped, visual.jsonl included: measure, snapshot, checkpoint, import both, gate."""
    import shutil
    from pathlib import Path

    work = tmp_path / "example-verify"
    shutil.copytree(Path(__file__).resolve().parent.parent / "corpus" / "example-verify", work)
    monkeypatch.chdir(work)
    jfi = Jfi(work)
    assert (
        jfi("verify", "measure", "--url", "site/index.html", "--bindings", "bindings.jsonl", "--out", "out").exit_code
        == 0
    )
    assert jfi("verify", "snapshot", "site", "out", "bindings.jsonl").exit_code == 0
    assert (
        jfi("verify", "checkpoint", "--screenshot", "out/candidate.png", "--changes", "fares page rebuilt").exit_code
        == 0
    )
    assert jfi("verify", "import", "out/measurements.jsonl").exit_code == 0
    before = jfi("verify", "gate")
    assert before.exit_code == 1 and "not shown: no external visual claim counts" in before.stdout
    r = jfi("verify", "import", "visual.jsonl")
    assert r.exit_code == 0, r.stderr
    r = jfi("verify", "gate")
    assert r.exit_code == 0, r.stdout
    assert "visual result: 1 PASS" in r.stdout and "spatial result: 3 PASS" in r.stdout
