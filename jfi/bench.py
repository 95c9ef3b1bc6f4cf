"""`make bench`: speed and memory, reported as ratios against a baseline measured in the same run.

- fixed cost: `jfi --version` and a small `corpus validate` as whole processes, against a bare interpreter.
- audit: synthetic inventories of 1,000, 10,000 and 30,000 views; the workflow a user runs (import the manifest,
  build, merge, every batch judged, then sample, merge, worklist, receipts; sample again unchanged; a ruling on the
  largest family, another appended to the ledger, and the worklist after them), each command as
  its own process with its time, peak memory and ratios to a bare DuckDB parse of the same inventory and to the
  interpreter's and DuckDB's start-up, measured in the same run; the whole workflow's time; then 100,000 views
  through the whole workflow under JFI_MEMORY_LIMIT=2GB, and the growth.
- inventory: 200 views of the conformance sites captured with one page at a time, the default, and a local Dask
  cluster of two worker processes (views per minute; the outputs must be identical apart from timings).
- corpus: `jfi corpus validate` on a synthetic corpus against a bare DuckDB scan of the same file
  (ratio validate / scan; peak resident memory of the process), for each profile.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

from .corpus import validate
from .corpus.project import CorpusProject
from .rulebook import PROFILES

SUBTYPES = [
    ("linked-standalone-logo", 1),
    ("standalone-navigational-link", 1),
    ("form-control-or-image-button", 2),
    ("action-or-toggle-icon", 2),
    ("functional-non-unicode-emoji", 3),
    ("linked-complex-graphic-or-image-map", 4),
    ("structural-break-or-reader-control", 5),
]


def synthetic_item(i: int, rng: random.Random) -> dict:
    sub, cat = SUBTYPES[i % len(SUBTYPES)]
    domain = f"site{rng.randrange(5000)}.example"
    alt = rng.choice(["Settings", "Search", "Home", "", "Next page", "Share this article"])
    return {
        "id": f"fi-{i:04d}" if i < 10000 else f"fi-{i % 10000:04d}",
        "status": rng.choice(["candidate", "needs-revision", "rejected"]),
        "round_added": 1 + i % 9,
        "category": cat,
        "subtype": sub,
        "page_url": f"https://www.{domain}/page/{i}",
        "domain": domain,
        "image_url": f"https://{domain}/img/{i}.png",
        "image_file": None,
        "image_sha256": None,
        "implementation": "img",
        "element_role": "link",
        "element_html": f'<a href="/p/{i}"><img src="/img/{i}.png" alt=""></a>',
        "surrounding_text": "",
        "destination": f"https://{domain}/p/{i}",
        "observed_alt": "",
        "observed_alt_verdict": "empty-inappropriate",
        "gold_alt": alt,
        "gold_alt_rationale": "Names the destination of the link rather than the picture shown in it.",
        "gold_alt_passes": [{"author": "pass-a", "alt": alt, "rationale": "Destination over appearance."}],
        "adjudication": None,
        "difficulty": rng.choice(["trivial", "standard", "ambiguous"]),
        "dual_purpose": rng.random() < 0.1,
        "leakage_check": "The file name is a number and reveals nothing.",
        "leaky": False,
        "retrieved": "2026-11-20",
        "provenance_note": "Synthetic benchmark item on a reserved domain.",
    }


def synthetic_item_in(profile: str, i: int, rng: random.Random) -> dict:
    """A synthetic item in the shape of a profile: round-v1, round-v2 (+ names) or harvest."""
    item = synthetic_item(i, rng)
    if profile == "round-v1":
        return item
    named = {**item, "accessible_name": f"Page {i}", "accessible_name_source": "aria-label"}
    if profile == "round-v2":
        return named
    status = rng.choice(["unreviewed", "dropped", "dropped"])
    reviewed = status != "unreviewed"
    return {
        "id": f"fi-{i:05d}",
        "status": status,
        "page_url": item["page_url"],
        "domain": item["domain"],
        "sector": rng.choice(["government", "education", "news"]),
        "image_url": item["image_url"],
        "image_coord_space": None,
        "image_svg": None,
        "image_file": None,
        "image_sha256": None,
        "implementation": "img",
        "element_role": "link",
        "element_html": item["element_html"],
        "surrounding_text": "",
        "observed_alt": "",
        "accessible_name": f"Page {i}",
        "accessible_name_source": "aria-label",
        "category": item["category"],
        "subtype": item["subtype"],
        "retrieved": "2026-11-20",
        "review_verdict": "drop" if reviewed else None,
        "review_reason": "The alt is empty although the link has no other text." if reviewed else None,
        "alt_quality": "wrong" if reviewed else None,
    }


def write_corpus(root: Path, n: int, profile: str = "round-v1") -> Path:
    rng = random.Random(1234)
    path = root / "corpus" / "functional-images.jsonl"
    path.parent.mkdir(parents=True)
    with open(path, "w") as fh:
        for i in range(1, n + 1):
            fh.write(json.dumps(synthetic_item_in(profile, i, rng), separators=(",", ":")) + "\n")
    return path


def timed(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def capture_views(sites_root: Path, n: int) -> Path:
    """A views file of n views cycling through the conformance sites' views, all served from the sites' folder."""
    base = []
    for site in sorted(p for p in sites_root.iterdir() if (p / "views.txt").is_file()):
        for line in (site / "views.txt").read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                view_id, product, url = line.split(",")[:3]
                base.append((view_id, product, f"/{site.name}{url}"))
    path = Path(tempfile.mkdtemp(prefix="jfi-bench-views-")) / "views.txt"
    path.write_text("".join(f"{v}-{i},{p},{u}\n" for i, (v, p, u) in ((i, base[i % len(base)]) for i in range(n))))
    return path


def bench_inventory(sites_root: Path, n: int = 200) -> None:
    """n views (the conformance sites' views over and over, served from their folder, settle 300 ms, screenshots)
    captured with one page at a time, with the default number, and on a local Dask cluster of two worker processes,
    each as `jfi audit inventory` in its own process; the outputs must be identical apart from timings."""
    from .capture import browse as capture

    views, settle = capture_views(sites_root, n), 300
    common = ["audit", "inventory", "--urls-file", str(views), "--serve", str(sites_root), "--settle", str(settle)]
    outputs, took = {}, {}
    for label, extra in (
        ("1 page at a time", ["--workers", "1"]),
        (f"default ({capture.default_workers(n, settle)} pages at once)", []),
        ("local cluster, 2 worker processes", ["--cluster", "local:2"]),
    ):
        out = views.parent / f"out-{len(outputs)}"
        err: list[str] = []
        seconds, peak = command([*common, *extra, "--out", str(out)], {**os.environ, "JFI_PROFILE": "1"}, err)
        took[label] = seconds
        outputs[label] = [
            {k: v for k, v in json.loads(line).items() if k not in ("load_ms", "run_started_utc", "run_finished_utc")}
            for line in (out / "inventory.jsonl").read_text().splitlines()
        ]
        print(
            f"capture, {n} views, {label}: {seconds:.1f} s = {n / seconds * 60:.0f} views/minute "
            f"(the whole command, Chromium's start included); peak {peak:.0f} MB (the jfi process)"
        )
        if spent := [(name, t) for name, t in phase_times(err[0]) if name.startswith("capture: ")]:
            print(
                "  by phase, summed over views (pages captured at once overlap): "
                + ", ".join(f"{name[len('capture: ') :]} {t:.1f} s ({t / n * 1000:.0f} ms a view)" for name, t in spent)
            )
    first = next(iter(outputs.values()))
    print(f"outputs identical apart from timings: {all(o == first for o in outputs.values())}")
    # what axe-core costs: the default capture again without it, and how many rows its nodes became
    out = views.parent / "out-no-axe"
    without, _ = command([*common, "--no-axe", "--out", str(out)])
    with_axe = views.parent / "out-1"  # the default capture's folder
    command(["audit", "build", "--inventory", str(with_axe)])
    summary = json.loads((with_axe / "judgment-units.json").read_text()).get("axe") or {}
    default = list(took.values())[1]
    print(
        f"axe-core: the default capture takes {default:.1f} s with it, {without:.1f} s without "
        f"({default / without:.2f}x); its {summary.get('nodes', 0)} node(s) became {summary.get('rows', 0)} "
        f"finding row(s) (dedupe ratio {summary.get('dedupe_ratio') or 0})"
    )
    shutil.rmtree(views.parent, ignore_errors=True)


def synthetic_inventory(path: Path, n_views: int) -> None:
    """Views with shared chrome (header, nav, footer on every view) plus page-specific content."""
    chrome_links = [
        ("Home", "/"),
        ("Routes", "/routes"),
        ("Fares", "/fares"),
        ("Contact", "/contact"),
        ("About", "/about"),
    ]
    with open(path, "w") as fh:
        fh.write(json.dumps({"record": "run", "schema": "content-inventory/v1"}) + "\n")
        for v in range(n_views):
            links = [
                {
                    "i": 0,
                    "name": n,
                    "name_source": "content",
                    "text": n,
                    "title": None,
                    "href": f"http://s.example{h}",
                    "href_raw": h,
                    "same_page": False,
                    "external": False,
                    "target": None,
                    "download": False,
                    "file_ext": None,
                    "has_img": False,
                    "img_alt": None,
                    "icon_only": False,
                    "empty_name": False,
                    "visible": True,
                    "aria_hidden": False,
                    "landmark": "nav",
                    "selector": "nav > a",
                    "context": "",
                }
                for n, h in chrome_links
            ]
            links += [
                {
                    **links[0],
                    "name": f"Story {v}-{k}",
                    "text": f"Story {v}-{k}",
                    "href": f"http://s.example/p/{v}/{k}",
                    "href_raw": f"/p/{v}/{k}",
                    "landmark": "main",
                    "context": f"Paragraph {k} of page {v}.",
                }
                for k in range(20)
            ]
            for i, link in enumerate(links):
                link["i"] = i
            headings = [
                {
                    "i": k,
                    "level": 2,
                    "text": f"Section {k} of {v}",
                    "name_source": "content",
                    "selector": "h2",
                    "visible": True,
                    "aria_hidden": False,
                    "landmark": "main",
                    "section_preview": "Text.",
                }
                for k in range(5)
            ]
            images = [
                {
                    "i": 0,
                    "tag": "img",
                    "src": "/logo.png",
                    "src_basename": "logo.png",
                    "alt": "Site home",
                    "alt_present": True,
                    "alt_empty": False,
                    "role": None,
                    "aria_label": None,
                    "aria_labelledby_text": None,
                    "aria_hidden": False,
                    "title": None,
                    "svg_title": None,
                    "in_control": {"tag": "a", "name": "Site home", "href": "/", "control_has_text": False},
                    "figcaption": None,
                    "width": 120,
                    "height": 30,
                    "visible": True,
                    "landmark": "header",
                    "selector": "header img",
                    "adjacent_text": "",
                }
            ]
            navs = [
                {
                    "role": "nav",
                    "label": None,
                    "selector": "nav",
                    "visible": True,
                    "item_count": 5,
                    "items": [{"name": n, "href": h, "tag": "a"} for n, h in chrome_links],
                }
            ]
            inv = {
                "meta": {"title": f"Page {v}", "h1": [f"Page {v}"], "h1_count": 1, "meta_description": None},
                "counts": {},
                "headings": headings,
                "links": links,
                "images": images,
                "fields": [],
                "navs": navs,
                "capped": {},
            }
            fh.write(
                json.dumps(
                    {
                        "record": "view",
                        "view_id": f"v{v}",
                        "product": "site",
                        "url": f"http://s.example/p/{v}",
                        "final_url": f"http://s.example/p/{v}",
                        "nav_error": None,
                        "stayed_on_route_host": True,
                        "inventory": inv,
                    }
                )
                + "\n"
            )


def _peak_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# the command's own peak, written by the command's process as it exits: the kernel's maximum resident size of a child
# (wait4) counts the pages it shared with this process between fork and exec, so a bench holding 5 GB saw every
# command peak at 5 GB; VmHWM starts again at exec
PEAK_AT_EXIT = (
    "import atexit, os, sys, runpy\n"
    "def peak():\n"
    "    try:\n"
    "        hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]\n"
    "        open(os.environ['JFI_BENCH_PEAK'], 'w').write(hwm)\n"
    "    except (OSError, IndexError):\n"
    "        pass\n"
    "atexit.register(peak)\n"
    "sys.argv[0] = 'jfi'\n"
    "runpy.run_module('jfi.cli', run_name='__main__')\n"
)


def command(argv: list[str], env: dict | None = None, stderr: list | None = None) -> tuple[float, float]:
    """One jfi command as its own process, as people run it: (wall seconds, the process's peak resident MB); its
    standard error appended to `stderr` when given."""
    with tempfile.TemporaryDirectory() as tmp:
        peak_file = Path(tmp) / "peak"
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", PEAK_AT_EXIT, *argv],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**(env or os.environ), "JFI_BENCH_PEAK": str(peak_file)},
        )
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        if proc.returncode not in (0, 1):
            raise RuntimeError(f"jfi {' '.join(argv)} exited {proc.returncode}: {err[-500:]}")
        peak_kb = int(peak_file.read_text()) if peak_file.is_file() else usage.ru_maxrss
    if stderr is not None:
        stderr.append(err)
    return elapsed, peak_kb / 1024


PROFILED = ("build", "sample (every batch came back judged)")  # the steps whose rule files the bench breaks down
PROFILE_TOP = 8


def rule_times(err: str) -> list[tuple[str, float]]:
    """The rule files a command ran with JFI_PROFILE=1 and their seconds, slowest first (a file run twice, summed)."""
    times: dict[str, float] = {}
    for line in err.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "profile:" and parts[2] == "s":
            times[parts[3]] = times.get(parts[3], 0.0) + float(parts[1])
    return sorted(times.items(), key=lambda kv: -kv[1])


def phase_times(err: str) -> list[tuple[str, float]]:
    """The phases a command went through with JFI_PROFILE=1 (jfi.phases) and their seconds, in the order they ran (a
    phase inside another is listed on its own: the kept store's, inside build's last)."""
    times: dict[str, float] = {}
    for line in err.splitlines():
        if line.startswith("profile:") and "  phase: " in line:
            seconds, name = line[len("profile:") :].split(" s  phase: ", 1)
            times[name] = times.get(name, 0.0) + float(seconds)
    return list(times.items())


def judge_all(folder: Path) -> None:
    """Every batch judged (one unit in five no, the rest yes), as a judge would return them."""
    for batch in sorted((folder / "batches").glob("*.jsonl")):
        if batch.name.endswith(".judged.jsonl"):
            continue
        lines = []
        for n, line in enumerate(batch.read_text().splitlines()):
            uid = json.loads(line)["id"]
            no = n % 5 == 0
            lines.append(
                json.dumps(
                    {
                        "id": uid,
                        "judgment": "no" if no else "yes",
                        "confidence": "high",
                        "rationale": "Says where it goes.",
                        "fix": "Name the destination." if no else "",
                        "needs_human": False,
                        "drafted_by": "bench-judge",
                    }
                )
            )
        batch.with_name(batch.name[: -len(".jsonl")] + ".judged.jsonl").write_text("\n".join(lines) + "\n")


def write_manifest(inventory: Path, manifest: Path) -> None:
    """The views of an inventory.jsonl as a content-inventory/v1 manifest made elsewhere."""
    with open(inventory) as src, open(manifest, "w") as fh:
        src.readline()
        fh.write('{"schema": "content-inventory/v1", "views": [\n')
        sep = ""
        for line in src:
            view = {k: v for k, v in json.loads(line).items() if k != "record"} | {"viewport": "d"}
            fh.write(sep + json.dumps(view))
            sep = ",\n"
        fh.write("\n]}\n")


STEPS = (
    "import",
    "build",
    "merge (nothing judged yet)",
    "sample (every batch came back judged)",
    "merge (judged)",
    "worklist",
    "receipts",
    "sample (nothing changed)",
    "rule (the largest family: the first ruling)",
    "rule (the next family: appended to the ledger)",
    "worklist (after the rulings)",
)
# the workflow a user runs, each step the first after its inputs changed: what the reference scripts are measured on
WORKFLOW = ("import", "build", "sample (every batch came back judged)", "merge (judged)")


def startup_s(repeat: int = 3) -> float:
    """The interpreter's start-up plus DuckDB's (import, connect, one query), as a process: what any command pays."""
    import statistics

    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", "import duckdb; duckdb.connect().execute('SELECT 1').fetchall()"], check=True
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def audit_once(n: int, steps: tuple[str, ...] = STEPS) -> dict:
    """One size: the baselines (a bare DuckDB parse of the inventory and DuckDB's typed load of it, in this process;
    the interpreter's and DuckDB's start-up as a process), then each command as its own process with its wall time and
    peak memory: import (the manifest in the reference's format), build, merge before any judging, every batch judged,
    then sample, merge, worklist and receipts (each the first after the judged files came back), and sample again with
    nothing changed."""
    from .store import Store

    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "audit"
        folder.mkdir()
        inventory = folder / "inventory.jsonl"
        synthetic_inventory(inventory, n)
        path = str(inventory)

        def parse():
            con = duckdb.connect()
            con.execute(
                "SELECT count(*), sum(json_array_length(json, '$.inventory.links')) "
                "FROM read_ndjson_objects(?) AS t(json)",
                [path],
            ).fetchall()
            con.close()

        shape = Store(sections=("audit",))  # only for the typed shape jfi reads: the timing covers DuckDB's read alone

        def load():
            shape.con.execute("CREATE OR REPLACE TABLE inventory AS SELECT * FROM audit_inventory_file(?)", [path])
            shape.con.execute("DROP TABLE inventory")

        result = {
            "views": n,
            "mb": inventory.stat().st_size / 1e6,
            "parse_s": timed(parse, 2),
            "load_s": timed(load, 2),
            "startup_s": startup_s(),
            "memory_limit": env.get("JFI_MEMORY_LIMIT", "DuckDB's default (80% of RAM)"),
            "steps": {},
        }
        shape.close()
        for step in steps:
            if step == "import":
                manifest = Path(tmp) / "inventory-run.json"
                write_manifest(inventory, manifest)
                result["manifest_mb"] = manifest.stat().st_size / 1e6
                argv = ["audit", "import-inventory", str(manifest), "--out", str(Path(tmp) / "imported")]
            else:
                if "came back judged" in step:
                    judge_all(folder)
                    # the judged files on disk before the command starts, as files a judge returned earlier are: the
                    # harness's own writing is not flushed inside the timed command (by its first fsync)
                    os.sync()
                argv = ["audit", step.split()[0], "--inventory", str(folder)]
                if step.startswith("rule"):  # the ratifier settles the largest family not ruled yet, with one answer
                    csv.field_size_limit(1 << 30)  # a family's unit ids are one cell
                    with open(folder / "worklist.csv", newline="") as fh:  # as the worklist step wrote it
                        families = [row for row in csv.DictReader(fh) if row["section"] == "family"]
                    families.sort(key=lambda row: -int(row["units"]))
                    family = families[sum(s.startswith("rule") for s in result["steps"])]["key"]
                    argv += ["--family", family, "--ruling", f"R-{family}", "--sentence", "One answer holds for all."]
                    argv += ["--by", "Bench Ratifier", "--judgment", "yes"]
            err: list[str] = []
            result["steps"][step] = command(argv, {**env, "JFI_PROFILE": "1"} if step in PROFILED else env, err)
            if step in PROFILED:
                result.setdefault("profile", {})[step] = rule_times(err[0])
                result.setdefault("phases", {})[step] = phase_times(err[0])
            if step == "build":
                result["units"] = json.loads((folder / "judgment-units.json").read_text())["unit_count"]
        return result


def bench_audit(
    sizes: tuple[int, ...] = (1_000, 10_000, 30_000),
    large: int = 100_000,
    large_limits: tuple[str, ...] = ("2GB", "4GB"),
) -> None:
    """Each size in a fresh process: every command after its baselines; then the large size under a DuckDB memory
    limit, the whole workflow (under the next limit when one is too low), with the growth from 10,000 views."""
    runs = [(n, None, STEPS) for n in sizes] + [(large, limit, WORKFLOW) for limit in large_limits if large]
    results = {}
    for n, limit, steps in runs:
        if n in results:  # the large size already went through under a lower limit
            continue
        env = {**os.environ, **({"JFI_MEMORY_LIMIT": limit} if limit else {})}
        done = subprocess.run(
            [sys.executable, "-m", "jfi.bench", "--audit-once", str(n), "--steps", ",".join(steps)],
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:  # e.g. the memory limit too low for the size: a finding, not a crash of the bench
            print(
                f"audit, {n:,} views, memory limit {limit or 'default'}: failed: "
                f"{(done.stderr.strip().splitlines() or ['?'])[-1][:300]}"
            )
            continue
        r = json.loads(done.stdout.strip().splitlines()[-1])
        results[n] = r
        print(
            f"audit, {r['views']:,} views ({r['mb']:.0f} MB inventory, {r.get('units', 0):,} units), memory limit "
            f"{r['memory_limit']}; baselines: bare DuckDB parse {r['parse_s']:.2f} s, typed load {r['load_s']:.2f} s"
        )
        print(f"  (start-up of the interpreter and DuckDB as a process: {r['startup_s']:.2f} s)")
        for step, (seconds, peak) in r["steps"].items():
            print(
                f"  {step:<47} {seconds:7.2f} s  {seconds / r['parse_s']:6.1f}x the parse  "
                f"{seconds / r['startup_s']:5.1f}x the start-up  peak {peak:6.0f} MB"
            )
        for step, times in r.get("phases", {}).items():
            print(f"  {step}, by phase: " + ", ".join(f"{name} {t:.2f} s" for name, t in times))
        for step, times in r.get("profile", {}).items():
            ruled = sum(t for _, t in times)
            print(
                f"  {step}: {ruled:.2f} s in the rulebook, slowest files: "
                + ", ".join(f"{name} {t:.2f} s" for name, t in times[:PROFILE_TOP])
            )
        if all(step in r["steps"] for step in WORKFLOW):
            total = sum(r["steps"][step][0] for step in WORKFLOW)
            print(
                f"  whole workflow ({' + '.join(WORKFLOW)}): {total:.2f} s, peak "
                f"{max(r['steps'][step][1] for step in WORKFLOW):.0f} MB"
            )
    if 10_000 in results and large in results:
        small, big = results[10_000]["steps"]["build"], results[large]["steps"]["build"]
        print(
            f"growth 10,000 -> {large:,} views (x{large // 10_000}): build time x{big[0] / small[0]:.1f}, "
            f"peak memory x{big[1] / small[1]:.1f} (the large size under JFI_MEMORY_LIMIT="
            f"{results[large]['memory_limit']})"
        )


def bench_fixed_cost(repeat: int = 3) -> None:
    """What every command pays before its work: a new interpreter, the imports, DuckDB and the rulebook. Measured as
    whole processes (median of three), against `python -c pass` in the same run."""
    import statistics

    def median_s(argv: list[str]) -> float:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run(argv, capture_output=True, check=False)
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    example = Path(__file__).resolve().parent.parent / "corpus" / "example-project"
    bare = median_s([sys.executable, "-c", "pass"])
    version = median_s([sys.executable, "-m", "jfi.cli", "--version"])
    line = f"fixed cost: bare interpreter {bare:.2f} s; jfi --version {version:.2f} s ({version / bare:.1f}x)"
    if example.is_dir():
        validate_s = median_s(
            [sys.executable, "-m", "jfi.cli", "--project", str(example), "corpus", "validate", "--json"]
        )
        line += f"; corpus validate on the 16-item example {validate_s:.2f} s ({validate_s / bare:.1f}x)"
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=["corpus", "inventory", "build", "fixed"])
    parser.add_argument("--sites", type=Path, default=Path("..") / "shared" / "conformance" / "audit" / "sites")
    parser.add_argument("--audit-once", type=int, metavar="VIEWS", help=argparse.SUPPRESS)
    parser.add_argument("--steps", default=",".join(STEPS), help=argparse.SUPPRESS)
    parser.add_argument("--sizes", default="1000,10000,30000", help="Audit sizes in views (comma-separated).")
    parser.add_argument(
        "--large", type=int, default=100_000, help="The size built under JFI_MEMORY_LIMIT=2GB (0: none)."
    )
    args = parser.parse_args()
    if args.audit_once:
        print(json.dumps(audit_once(args.audit_once, tuple(args.steps.split(",")))))
        return
    if args.only in (None, "fixed"):
        bench_fixed_cost()
    if args.only == "fixed":
        return
    if args.only in (None, "build"):
        bench_audit(tuple(int(s) for s in args.sizes.split(",")), args.large)
    if args.only == "build":
        return
    if args.only != "corpus":
        if args.sites.is_dir():
            bench_inventory(args.sites)
        else:
            print(f"inventory: skipped, no conformance sites at {args.sites}")
    if args.only == "inventory":
        return
    for profile in PROFILES:
        bench_corpus(profile, args.items, args.repeat)


def bench_corpus(profile: str, items: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = write_corpus(root, items, profile)
        size_mb = path.stat().st_size / 1e6

        def scan():
            con = duckdb.connect()
            con.execute(
                "SELECT count(*), count(DISTINCT json_extract_string(j, '$.id')) FROM read_ndjson_objects(?) AS t(j)",
                [str(path)],
            ).fetchall()
            con.close()

        project = CorpusProject.at(root, profile=profile)
        result: dict = {}

        def run_validate():
            result["report"], result["code"] = validate.report(project, 250)

        scan_s = timed(scan, repeat)
        validate_s = timed(run_validate, repeat)
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"corpus ({profile}): {items} items, {size_mb:.1f} MB")
        print(f"bare DuckDB scan (baseline): {scan_s:.3f} s")
        print(
            f"jfi corpus validate:         {validate_s:.3f} s  "
            f"({len(result['report']['errors'])} errors, exit {result['code']})"
        )
        print(f"ratio validate/scan:         {validate_s / scan_s:.2f}x  (aim: within 5x)")
        print(f"peak resident memory:        {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
