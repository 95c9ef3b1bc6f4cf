"""`jfi audit judge` against a real HTTP server on 127.0.0.1 speaking the chat completions protocol: every batch
judged or reported, nothing half written, retries on 429/5xx honouring Retry-After, lines that break the contract
sent back once, a second run served from the cache, the judged rows merging as hand-written ones do."""

import json
import time

import pytest
from chat_server import ChatServer, completion, good, judged
from conftest import Jfi, snapshot
from inventories import link, made, view

VIEWS = [
    view("home", links=[link("Learn more", "/a"), link("Fares", "/f")], title="Harbor home"),
    view("fares", title="Fares", links=[link("Learn more", "/b")]),
]
TOML = '[products.harbor]\nnote = "Riders planning a trip."\n'


def folder(tmp_path, *build):
    return made(tmp_path, VIEWS, ("build", *build), ("judge-kit",), files={"audit.toml": TOML}, in_place=True)


def run(tmp_path, root, server, *more):
    return Jfi(tmp_path)("audit", "judge", "--inventory", str(root), "--endpoint", server.url, "--model", "m-1", *more)


def batches(root):
    return sorted(p.name[:-6] for p in (root / "batches").glob("*.jsonl") if not p.name.endswith(".judged.jsonl"))


def test_every_batch_is_judged_checked_and_merges_like_a_hand_written_one(tmp_path):
    root = folder(tmp_path)
    with ChatServer() as server:
        r = run(tmp_path, root, server, "--jobs", "2")
        assert r.exit_code == 0, r.stderr
        assert len(server.requests) == len(batches(root))
        sent = server.requests[0]
        assert sent["model"] == "m-1" and sent["response_format"]["type"] == "json_schema"
        assert [m["role"] for m in sent["messages"]] == ["system", "user"]
        assert "Riders planning a trip." in sent["messages"][1]["content"]  # the product note
        assert "Output contract" in sent["messages"][0]["content"]  # the instructions
    for name in batches(root):
        lines = [json.loads(x) for x in (root / "batches" / f"{name}.judged.jsonl").read_text().splitlines()]
        ids = [json.loads(x)["id"] for x in (root / "batches" / f"{name}.jsonl").read_text().splitlines()]
        assert [x["id"] for x in lines] == ids
        assert {x["drafted_by"] for x in lines} == {"scripted-judge-1"}  # the model id the endpoint reports
    runs = [json.loads(x) for x in (root / "judge-runs.jsonl").read_text().splitlines()]
    assert {r["outcome"] for r in runs} == {"judged"} and runs[0]["usage"]["total_tokens"] == 120
    assert Jfi(tmp_path)("audit", "merge", "--inventory", str(root)).exit_code == 0


def test_a_second_run_is_served_from_the_cache_and_no_cache_asks_again(tmp_path):
    root = folder(tmp_path)
    with ChatServer() as server:
        assert run(tmp_path, root, server).exit_code == 0
        first = {n: (root / "batches" / f"{n}.judged.jsonl").read_bytes() for n in batches(root)}
        sent = len(server.requests)
        assert run(tmp_path, root, server).exit_code == 1  # every batch judged: nothing to do
        for n in first:
            (root / "batches" / f"{n}.judged.jsonl").unlink()
        r = run(tmp_path, root, server)
        assert r.exit_code == 0 and len(server.requests) == sent and "0 request(s) sent" in r.stdout
        assert {n: (root / "batches" / f"{n}.judged.jsonl").read_bytes() for n in first} == first
        for n in first:
            (root / "batches" / f"{n}.judged.jsonl").unlink()
        assert run(tmp_path, root, server, "--no-cache").exit_code == 0
        assert len(server.requests) == 2 * sent


def test_rate_limits_and_server_errors_are_retried_honouring_retry_after(tmp_path, monkeypatch):
    from jfi.judge import client

    monkeypatch.setattr(client, "BACKOFF_S", 0.01)  # the 503's own wait: short, so only Retry-After takes a second
    root = folder(tmp_path)

    def script(n, request):
        if n == 1:
            return 429, {"Retry-After": "1"}, b'{"error": "slow down"}'
        if n == 2:
            return 503, {}, b"busy"
        return good(n, request)

    started = time.monotonic()
    with ChatServer(script) as server:
        r = run(tmp_path, root, server, "--jobs", "1", "--batch", batches(root)[0])
        assert r.exit_code == 0, r.stderr
        assert len(server.requests) == 3
    assert time.monotonic() - started >= 1  # it waited as Retry-After said


def test_lines_that_break_the_contract_are_sent_back_once_then_reported_never_written(tmp_path):
    root = folder(tmp_path)
    names = batches(root)

    def fixed_on_second(n, request):
        if len(request["messages"]) == 2:  # first ask: a bad judgment and a line left out
            lines = judged(request)
            lines[0]["judgment"] = "maybe"
            return completion(lines[:-1] if len(lines) > 1 else lines)
        assert "break the output contract" in request["messages"][-1]["content"]
        return good(n, request)

    with ChatServer(fixed_on_second) as server:
        r = run(tmp_path, root, server, "--batch", names[0])
        assert r.exit_code == 0, r.stderr
        assert len(server.requests) == 2
    for n in names[1:]:
        assert not (root / "batches" / f"{n}.judged.jsonl").exists()

    def always_bad(n, request):
        lines = judged(request)
        lines[0]["confidence"] = "certain"
        return completion(lines)

    with ChatServer(always_bad) as server:
        before = {n: (root / "batches" / f"{n}.judged.jsonl").exists() for n in names}
        r = run(tmp_path, root, server, "--batch", names[1])
        assert r.exit_code == 1 and f"{names[1]}.judged.jsonl:1: confidence" in r.stderr, r.stderr
        assert len(server.requests) == 2  # asked, then sent back once
        assert not (root / "batches" / f"{names[1]}.judged.jsonl").exists()
        assert {n: (root / "batches" / f"{n}.judged.jsonl").exists() for n in names} == before
    with ChatServer(lambda n, req: completion(None, as_text="I think they are all fine!")) as server:
        r = run(tmp_path, root, server, "--batch", names[1])
        assert r.exit_code == 1 and server.requests == []  # the same answers again, from the cache
        r = run(tmp_path, root, server, "--batch", names[1], "--no-cache")
        assert r.exit_code == 1 and "not JSON lines" in r.stderr


def test_a_run_that_failed_part_way_is_resumed_with_only_what_is_missing(tmp_path):
    root = folder(tmp_path)
    names = batches(root)
    broken = names[0]

    def down_for_one(n, request):
        if json.dumps(request).count(
            json.loads((root / "batches" / f"{broken}.jsonl").read_text().splitlines()[0])["id"]
        ):
            return 500, {}, b"down"
        return good(n, request)

    with ChatServer(down_for_one) as server:
        r = run(tmp_path, root, server, "--retries", "0")
        assert r.exit_code == 1 and "HTTP 500" in r.stderr
    assert not (root / "batches" / f"{broken}.judged.jsonl").exists()
    assert all((root / "batches" / f"{n}.judged.jsonl").exists() for n in names[1:])
    with ChatServer() as server:
        assert run(tmp_path, root, server).exit_code == 0
        assert len(server.requests) == 1  # only the missing batch


def test_dry_run_prints_the_requests_and_sends_nothing(tmp_path):
    root = folder(tmp_path)
    before = snapshot(root)
    with ChatServer() as server:
        r = run(tmp_path, root, server, "--dry-run")
        assert r.exit_code == 0 and server.requests == []
    printed = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
    assert len(printed) == len(batches(root)) and printed[0]["model"] == "m-1"
    assert snapshot(root) == before


def test_the_key_comes_from_the_named_variable_and_a_missing_one_is_refused(tmp_path, monkeypatch):
    root = folder(tmp_path)
    with ChatServer() as server:
        r = run(tmp_path, root, server, "--api-key-env", "JFI_TEST_KEY")
        assert r.exit_code == 2 and "no_api_key" in r.stderr and server.requests == []
        monkeypatch.setenv("JFI_TEST_KEY", "sk-test")
        assert run(tmp_path, root, server, "--api-key-env", "JFI_TEST_KEY").exit_code == 0
        assert {q["auth"] for q in server.requests} == {"Bearer sk-test"}


@pytest.mark.parametrize("endpoint", ["ftp://127.0.0.1/v1", "127.0.0.1:8000/v1", "http:///v1", "http://[::1/v1"])
def test_an_endpoint_that_is_no_http_url_is_refused_before_anything_is_sent(tmp_path, endpoint):
    root = folder(tmp_path)
    before = snapshot(root)
    for more in ((), ("--dry-run",), ("--second-reader", "strong-1")):
        args = ("--model", "m-1") if not more or more[0] == "--dry-run" else ()
        r = Jfi(tmp_path)("audit", "judge", "--inventory", str(root), "--endpoint", endpoint, *args, *more)
        assert r.exit_code == 3 and "invalid_endpoint" in r.stderr and "connection failed" not in r.stderr, r.stderr
    assert snapshot(root) == before


def test_a_stale_kit_is_refused(tmp_path):
    root = folder(tmp_path)
    name = batches(root)[0]
    kit = root / "judge-kit" / name / "batch.jsonl"
    kit.write_text(kit.read_text().splitlines()[0] + "\n")
    with ChatServer() as server:
        r = run(tmp_path, root, server)
        assert r.exit_code == 2 and "stale_kit" in r.stderr and server.requests == []


@pytest.mark.slow
def test_killed_mid_run_nothing_is_half_written_and_the_next_run_pays_only_for_what_is_missing(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    from chat_server import slow

    root = folder(tmp_path, "--batch", "1")
    names = batches(root)
    assert len(names) >= 3
    with ChatServer(slow(0.6)) as server:
        jfi = os.path.join(os.path.dirname(sys.executable), "jfi")
        proc = subprocess.Popen(
            [
                jfi,
                "audit",
                "judge",
                "--inventory",
                str(root),
                "--endpoint",
                server.url,
                "--model",
                "m-1",
                "--jobs",
                "1",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 30
        while len(server.requests) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.7)  # the first answer is in, the second under way
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 130 and "Traceback" not in err, err
        asked = len(server.requests)
    assert not list((root / "batches").glob("*.judged.jsonl"))  # all or nothing
    assert not list(root.rglob("*.tmp*")) and not (root / ".jfi.lock").exists()
    cached = len(list((root / "judge-cache").glob("*.json")))
    assert cached >= 1
    with ChatServer() as server:
        assert run(tmp_path, root, server).exit_code == 0
        assert len(server.requests) == len(names) - cached
    assert asked <= len(names)


def test_the_judge_sees_where_links_go_and_an_image_rows_crop(tmp_path):
    """A link flagged for sharing its name with links that go elsewhere carries those destinations; with --images,
    each image row's crop (from judge-kit --images) goes with the batch as a data URL."""
    import base64
    import io

    from inventories import image, write
    from PIL import Image

    home = view(
        "home",
        links=[link("Read more", "/a", context="Ferries"), link("Read more", "/b", context="Buses")],
        images=[image(alt="", box={"x": 40, "y": 30, "width": 120, "height": 80})],
    )
    home["screenshot"] = "screenshots/home.png"
    root = write(tmp_path / "audit", [home])
    (root / "screenshots").mkdir()
    picture = io.BytesIO()
    Image.new("RGB", (1440, 900), "white").save(picture, "PNG")
    (root / "screenshots" / "home.png").write_bytes(picture.getvalue())
    (root / "audit.toml").write_text(TOML)
    jfi = Jfi(tmp_path)
    assert jfi("audit", "build", "--inventory", str(root)).exit_code == 0
    lines = [json.loads(x) for x in (root / "batches" / "harbor-link-01.jsonl").read_text().splitlines()]
    assert {tuple(x["other_hrefs"]) for x in lines} == {("http://site.example/b",), ("http://site.example/a",)}
    r = jfi("audit", "judge-kit", "--inventory", str(root), "--images")
    assert r.exit_code == 0, r.stderr
    crops = list((root / "judge-kit" / "harbor-image-01" / "crops").glob("*.png"))
    assert len(crops) == 1 and Image.open(crops[0]).size == (480, 180)
    with ChatServer() as server:
        assert run(tmp_path, root, server, "--images").exit_code == 0, r.stderr
        sent = next(
            q
            for q in server.requests
            if "harbor-image" in json.dumps(q) or isinstance(q["messages"][1]["content"], list)
        )
        parts = sent["messages"][1]["content"]
        urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
        assert len(urls) == 1 and base64.b64decode(urls[0].split(",", 1)[1]) == crops[0].read_bytes()


def test_a_second_reader_spot_checks_the_sample_into_spot_checks_which_merge_renders(tmp_path):
    root = folder(tmp_path)
    jfi = Jfi(tmp_path)
    with ChatServer() as server:
        assert run(tmp_path, root, server).exit_code == 0
    assert jfi("audit", "sample", "--inventory", str(root), "--seed", "s").exit_code == 0
    sampled = [json.loads(x)["id"] for x in (root / "spot-check-sample.jsonl").read_text().splitlines()]
    assert sampled

    def reader(n, request):
        user = request["messages"][1]["content"].split("# Rows", 1)[1]
        rows = [json.loads(x) for x in user.splitlines() if x.startswith("{")]
        checks = [
            {"id": r["id"], "spot_check": "overturn" if k == 0 else "agree", "note": "Read it."}
            | ({"judgment": "no"} if k == 0 else {})
            for k, r in enumerate(rows)
        ]
        return completion(None, model="reader-9", as_text=json.dumps({"checks": checks}))

    with ChatServer(reader) as server:
        r = Jfi(tmp_path)(
            "audit", "judge", "--inventory", str(root), "--endpoint", server.url, "--second-reader", "strong-1"
        )
        assert r.exit_code == 0, r.stderr
        assert server.requests[0]["model"] == "strong-1"
    checks = [json.loads(x) for x in (root / "spot-checks.jsonl").read_text().splitlines()]
    assert [c["id"] for c in checks] == sampled and {c["checked_by"] for c in checks} == {"reader-9"}
    assert checks[0]["spot_check"] == "overturn" and checks[0]["judgment"] == "no"
    assert jfi("audit", "merge", "--inventory", str(root)).exit_code == 0
    merged = json.loads((root / "draft-judgments.json").read_text())
    assert json.dumps(merged).count("overturn") >= 1
    calibration = json.loads((root / "calibration.json").read_text())
    assert calibration["judge_runs"] and {r["outcome"] for r in calibration["judge_runs"]} == {"judged"}
    assert any(c["spot_checked"] for c in calibration["per_product_type"])
    with ChatServer(reader) as server:  # every sampled row is checked: nothing asked
        r = Jfi(tmp_path)(
            "audit", "judge", "--inventory", str(root), "--endpoint", server.url, "--second-reader", "strong-1"
        )
        assert r.exit_code == 1 and server.requests == []


def test_eval_runs_its_judges_itself_tier_by_draw_and_a_detector_never_drafts(tmp_path):
    root = folder(tmp_path)
    expectations = tmp_path / "expectations.yaml"
    expectations.write_text(
        '- view: home\n  type: link\n  locator: {text: "Learn more"}\n  expected: "no"\n  tier: must\n'
        '- view: home\n  type: link\n  locator: {text: "Fares"}\n  expected: "yes"\n  tier: must\n'
    )

    def by_model(n, request):
        return completion(judged(request, "no" if request["model"] == "sharp" else "yes"), model=request["model"])

    with ChatServer(by_model) as server:
        r = Jfi(tmp_path)(
            "audit",
            "eval",
            "--inventory",
            str(root),
            "--expectations",
            str(expectations),
            "--judge",
            "sharp",
            "--judge",
            "blunt",
            "--draws",
            "2",
            "--endpoint",
            server.url,
        )
        assert r.exit_code in (0, 1), r.stderr
        seeds = {(q["model"], q.get("seed")) for q in server.requests}
        assert seeds == {("sharp", 1), ("sharp", 2), ("blunt", 1), ("blunt", 2)}
    result = json.loads((root / "eval.json").read_text())
    tiers = {v["tier"] for v in result["eval_verdicts"]}
    assert {"sharp", "blunt"} <= tiers
    assert not list((root / "batches").glob("*.judged.jsonl"))  # eval runs are not drafts
    with ChatServer() as server:
        r = Jfi(tmp_path)(
            "audit",
            "judge",
            "--inventory",
            str(root),
            "--endpoint",
            server.url,
            "--model",
            "local-det",
            "--role",
            "detector",
        )
        assert r.exit_code == 0, r.stderr
    assert list((root / "detector" / "local-det").glob("*.judged.jsonl"))
    assert not list((root / "batches").glob("*.judged.jsonl"))


def test_a_slow_endpoint_is_cut_off_at_its_timeout_and_one_without_response_format_is_asked_without(
    tmp_path, monkeypatch
):
    from chat_server import slow

    from jfi.judge import client

    monkeypatch.setattr(client, "BACKOFF_S", 0.01)  # the wait between the two attempts: the timeouts are what counts
    root = folder(tmp_path)
    name = batches(root)[0]
    with ChatServer(slow(3)) as server:
        started = time.monotonic()
        r = run(tmp_path, root, server, "--batch", name, "--timeout", "1", "--retries", "1")
        assert r.exit_code == 1 and "timed out after 2 attempt(s)" in r.stderr, r.stderr
        assert time.monotonic() - started < 8
    assert not (root / "batches" / f"{name}.judged.jsonl").exists()

    def no_schema(n, request):
        if "response_format" in request:
            return 400, {}, b'{"error": {"message": "response_format json_schema is not supported"}}'
        return good(n, request)

    with ChatServer(no_schema) as server:
        assert run(tmp_path, root, server, "--batch", name).exit_code == 0
        assert [("response_format" in q) for q in server.requests] == [True, False]


def test_the_api_judges_as_the_command_line_does(tmp_path):
    import jfi

    root = folder(tmp_path)
    with ChatServer() as server:
        result = jfi.open_audit(root).judge(server.url, "m-1", jobs=2)
        assert result.code == 0 and len(server.requests) == len(batches(root))
        with pytest.raises(jfi.JfiError) as e:
            jfi.open_audit(root).judge(server.url, "m-1", jobs=0)
        assert e.value.code == "invalid_argument"
