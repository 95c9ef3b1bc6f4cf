"""`make bench`: speed and memory, reported as ratios against a baseline measured in the same run.

- corpus: `jfi corpus validate` on a synthetic corpus against a bare DuckDB scan of the same file
  (ratio validate / scan; peak resident memory of the process).
- inventory: the six conformance sites captured with one worker and with the default number of
  workers (views per minute for both; the outputs must be identical apart from timings).
"""
from __future__ import annotations

import argparse
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

SUBTYPES = [("linked-standalone-logo", 1), ("standalone-navigational-link", 1), ("form-control-or-image-button", 2),
            ("action-or-toggle-icon", 2), ("functional-non-unicode-emoji", 3),
            ("linked-complex-graphic-or-image-map", 4), ("structural-break-or-reader-control", 5)]


def synthetic_item(i: int, rng: random.Random) -> dict:
    sub, cat = SUBTYPES[i % len(SUBTYPES)]
    domain = f"site{rng.randrange(5000)}.example"
    alt = rng.choice(["Settings", "Search", "Home", "", "Next page", "Share this article"])
    return {
        "id": f"fi-{i:04d}" if i < 10000 else f"fi-{i % 10000:04d}",
        "status": rng.choice(["candidate", "needs-revision", "rejected"]), "round_added": 1 + i % 9,
        "category": cat, "subtype": sub, "page_url": f"https://www.{domain}/page/{i}", "domain": domain,
        "image_url": f"https://{domain}/img/{i}.png", "image_file": None, "image_sha256": None,
        "implementation": "img", "element_role": "link",
        "element_html": f"<a href=\"/p/{i}\"><img src=\"/img/{i}.png\" alt=\"\"></a>", "surrounding_text": "",
        "destination": f"https://{domain}/p/{i}", "observed_alt": "", "observed_alt_verdict": "empty-inappropriate",
        "gold_alt": alt, "gold_alt_rationale": "Names the destination of the link rather than the picture shown in it.",
        "gold_alt_passes": [{"author": "pass-a", "alt": alt, "rationale": "Destination over appearance."}],
        "adjudication": None, "difficulty": rng.choice(["trivial", "standard", "ambiguous"]),
        "dual_purpose": rng.random() < 0.1, "leakage_check": "The file name is a number and reveals nothing.",
        "leaky": False, "retrieved": "2026-11-20", "provenance_note": "Synthetic benchmark item on a reserved domain.",
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
    return {"id": f"fi-{i:05d}", "status": status, "page_url": item["page_url"], "domain": item["domain"],
            "sector": rng.choice(["government", "education", "news"]), "image_url": item["image_url"],
            "image_coord_space": None, "image_svg": None, "image_file": None, "image_sha256": None,
            "implementation": "img", "element_role": "link", "element_html": item["element_html"],
            "surrounding_text": "", "observed_alt": "", "accessible_name": f"Page {i}",
            "accessible_name_source": "aria-label", "category": item["category"], "subtype": item["subtype"],
            "retrieved": "2026-11-20", "review_verdict": "drop" if reviewed else None,
            "review_reason": "The alt is empty although the link has no other text." if reviewed else None,
            "alt_quality": "wrong" if reviewed else None}


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


def bench_inventory(sites_root: Path) -> None:
    from .audit import capture
    from .audit import views as views_mod
    from .audit.routing import FolderSite

    sites = sorted(p for p in sites_root.iterdir() if (p / "views.txt").is_file())
    results = {}
    default = capture.default_workers()
    for workers, tree in ((1, True), (default, False), (default, True)):
        records, elapsed = [], 0.0
        for site in sites:
            served = FolderSite(site, "http://127.0.0.1:8765")
            views = views_mod.parse(site / "views.txt", [], settle_ms=300, base=served.origin)
            opts = capture.Options(workers=workers, screenshots=False, site=served, accessibility_tree=tree)
            start = time.perf_counter()
            recs, _ = capture.asyncio.run(capture._capture_all(views, opts))
            elapsed += time.perf_counter() - start
            records += [{k: v for k, v in r.items() if k != "load_ms"} for r in recs]
        results[workers, tree] = (records, elapsed)
        print(f"inventory, {workers} worker(s), {'with' if tree else 'without'} the accessibility tree: "
              f"{len(records)} views in {elapsed:.1f} s = {len(records) / elapsed * 60:.0f} views/minute")
    (one, t1), (many, tn) = results[1, True], results[default, True]
    print(f"speed-up with {default} workers: {t1 / tn:.2f}x; outputs identical apart from timings: {one == many}")
    print(f"cost of the accessibility tree: {tn / results[default, False][1]:.2f}x the capture time without it")


def synthetic_inventory(path: Path, n_views: int) -> None:
    """Views with shared chrome (header, nav, footer on every view) plus page-specific content."""
    chrome_links = [("Home", "/"), ("Routes", "/routes"), ("Fares", "/fares"), ("Contact", "/contact"), ("About", "/about")]
    with open(path, "w") as fh:
        fh.write(json.dumps({"record": "run", "schema": "content-inventory/v1"}) + "\n")
        for v in range(n_views):
            links = [{"i": 0, "name": n, "name_source": "content", "text": n, "title": None, "href": f"http://s.example{h}",
                      "href_raw": h, "same_page": False, "external": False, "target": None, "download": False,
                      "file_ext": None, "has_img": False, "img_alt": None, "icon_only": False, "empty_name": False,
                      "visible": True, "aria_hidden": False, "landmark": "nav", "selector": "nav > a", "context": ""}
                     for n, h in chrome_links]
            links += [{**links[0], "name": f"Story {v}-{k}", "text": f"Story {v}-{k}", "href": f"http://s.example/p/{v}/{k}",
                       "href_raw": f"/p/{v}/{k}", "landmark": "main", "context": f"Paragraph {k} of page {v}."}
                      for k in range(20)]
            for i, link in enumerate(links):
                link["i"] = i
            headings = [{"i": k, "level": 2, "text": f"Section {k} of {v}", "name_source": "content", "selector": "h2",
                         "visible": True, "aria_hidden": False, "landmark": "main", "section_preview": "Text."} for k in range(5)]
            images = [{"i": 0, "tag": "img", "src": "/logo.png", "src_basename": "logo.png", "alt": "Site home",
                       "alt_present": True, "alt_empty": False, "role": None, "aria_label": None,
                       "aria_labelledby_text": None, "aria_hidden": False, "title": None, "svg_title": None,
                       "in_control": {"tag": "a", "name": "Site home", "href": "/", "control_has_text": False},
                       "figcaption": None, "width": 120, "height": 30, "visible": True, "landmark": "header",
                       "selector": "header img", "adjacent_text": ""}]
            navs = [{"role": "nav", "label": None, "selector": "nav", "visible": True, "item_count": 5,
                     "items": [{"name": n, "href": h, "tag": "a"} for n, h in chrome_links]}]
            inv = {"meta": {"title": f"Page {v}", "h1": [f"Page {v}"], "h1_count": 1, "meta_description": None},
                   "counts": {}, "headings": headings, "links": links, "images": images, "fields": [], "navs": navs,
                   "capped": {}}
            fh.write(json.dumps({"record": "view", "view_id": f"v{v}", "product": "site", "url": f"http://s.example/p/{v}",
                                 "final_url": f"http://s.example/p/{v}", "nav_error": None,
                                 "stayed_on_route_host": True, "inventory": inv}) + "\n")


def _peak_reset() -> None:
    """Start a new peak-memory measurement (Linux: clear the process's high-water mark)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def _peak_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build_once(n: int, repeat: int = 2) -> dict:
    """One size, in this process: the two baselines, then the build, with its own peak memory."""
    import contextlib
    import io

    from .audit import build
    from .audit.folder import AuditFolder
    from .store import Store

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = str(folder / "inventory.jsonl")
        synthetic_inventory(folder / "inventory.jsonl", n)

        def parse():
            con = duckdb.connect()
            con.execute("SELECT count(*), sum(json_array_length(json, '$.inventory.links')) "
                        "FROM read_ndjson_objects(?) AS t(json)", [path]).fetchall()
            con.close()

        shape = Store()  # only for the typed shape jfi reads: the timing covers DuckDB's read alone

        def load():
            shape.con.execute("CREATE OR REPLACE TABLE inventory AS SELECT * FROM audit_inventory_file(?)", [path])
            shape.con.execute("DROP TABLE inventory")

        def run_build():
            with contextlib.redirect_stdout(io.StringIO()):
                build.run(AuditFolder(folder), 90)

        parse_s, load_s = timed(parse, repeat), timed(load, repeat)
        shape.close()
        _peak_reset()
        build_s = timed(run_build, repeat)
        peak_mb = _peak_mb()  # before anything else runs in this process
        # the same views as a content-inventory/v1 manifest made elsewhere, imported view by view
        lines = (folder / "inventory.jsonl").read_text().splitlines()
        manifest = folder / "manifest" / "inventory-run.json"
        manifest.parent.mkdir()
        with open(manifest, "w") as fh:
            fh.write('{"schema": "content-inventory/v1", "views": [\n')
            fh.write(",\n".join(json.dumps({k: v for k, v in json.loads(x).items() if k != "record"} | {"viewport": "d"})
                                 for x in lines[1:]))
            fh.write("\n]}\n")
        del lines
        from .audit import import_inventory

        def run_import():
            with contextlib.redirect_stdout(io.StringIO()):
                import_inventory.run(manifest, folder / "imported")
            shutil.rmtree(folder / "imported")
        _peak_reset()
        base_mb = _peak_mb()
        import_s = timed(run_import, 1)
        import_mb = _peak_mb() - base_mb
        from .audit import judging, worklist
        after = {}
        commands = () if os.environ.get("JFI_MEMORY_LIMIT") else (  # the limited run measures the build's memory
            ("merge", judging.merge), ("worklist", worklist.worklist), ("receipts", judging.receipts))
        for name, command in commands:
            def step(command=command):
                with contextlib.redirect_stdout(io.StringIO()):
                    command(AuditFolder(folder))
            after[f"{name}_s"] = timed(step, 1)
        return {**after, "views": n, "mb": (folder / "inventory.jsonl").stat().st_size / 1e6, "import_s": import_s,
                "import_peak_mb": import_mb, "manifest_mb": manifest.stat().st_size / 1e6,
                "units": json.loads((folder / "judgment-units.json").read_text())["unit_count"],
                "parse_s": parse_s, "load_s": load_s, "build_s": build_s, "peak_mb": peak_mb,
                "memory_limit": os.environ.get("JFI_MEMORY_LIMIT", "DuckDB's default (80% of RAM)")}


def bench_build(sizes: tuple[int, ...] = (1_000, 10_000), limited: str = "512MB") -> None:
    """Each size in a fresh process (so its peak memory is its own); the largest once more under a lower DuckDB
    memory limit, to show the limit, not the input, bounds the memory."""
    runs = [(n, None) for n in sizes] + [(max(sizes), limited)]
    for n, limit in runs:
        env = {**os.environ, **({"JFI_MEMORY_LIMIT": limit} if limit else {})}
        out = subprocess.run([sys.executable, "-m", "jfi.bench", "--build-once", str(n)], env=env,
                             capture_output=True, text=True, check=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        print(f"audit build, {r['views']} views ({r['mb']:.0f} MB, {r['units']} units), memory limit {r['memory_limit']}: "
              f"build {r['build_s']:.2f} s; {r['build_s'] / r['parse_s']:.1f}x the bare JSON parse ({r['parse_s']:.2f} s), "
              f"{r['build_s'] / r['load_s']:.1f}x DuckDB loading it into typed rows ({r['load_s']:.2f} s); "
              f"peak memory {r['peak_mb']:.0f} MB; import of the same views as a {r['manifest_mb']:.0f} MB manifest "
              f"{r['import_s']:.2f} s ({r['import_s'] / r['parse_s']:.1f}x the parse), memory above the process's "
              f"{r['import_peak_mb']:.0f} MB"
              + (f"; then merge {r['merge_s']:.2f} s, worklist {r['worklist_s']:.2f} s, receipts {r['receipts_s']:.2f} s "
                 f"(unjudged: {r['merge_s'] / r['parse_s']:.1f}x, {r['worklist_s'] / r['parse_s']:.1f}x, "
                 f"{r['receipts_s'] / r['parse_s']:.1f}x the parse)" if "merge_s" in r else ""))


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
        validate_s = median_s([sys.executable, "-m", "jfi.cli", "--project", str(example), "corpus", "validate", "--json"])
        line += f"; corpus validate on the 16-item example {validate_s:.2f} s ({validate_s / bare:.1f}x)"
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=["corpus", "inventory", "build", "fixed"])
    parser.add_argument("--sites", type=Path, default=Path("..") / "shared" / "conformance" / "audit" / "sites")
    parser.add_argument("--build-once", type=int, metavar="VIEWS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build_once:
        print(json.dumps(build_once(args.build_once)))
        return
    if args.only in (None, "fixed"):
        bench_fixed_cost()
    if args.only == "fixed":
        return
    if args.only in (None, "build"):
        bench_build()
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
            con.execute("SELECT count(*), count(DISTINCT json_extract_string(j, '$.id')) FROM "
                        "read_ndjson_objects(?) AS t(j)", [str(path)]).fetchall()
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
        print(f"jfi corpus validate:         {validate_s:.3f} s  "
              f"({len(result['report']['errors'])} errors, exit {result['code']})")
        print(f"ratio validate/scan:         {validate_s / scan_s:.2f}x  (aim: within 5x)")
        print(f"peak resident memory:        {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
