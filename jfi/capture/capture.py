"""`jfi audit inventory`: capture each view in Chromium (jfi.capture.browse, or on a cluster), then write the
audit folder's inventory.jsonl and inventory-run.json (content-inventory/v1) with the screenshots, in one commit."""

from __future__ import annotations

import json
from pathlib import Path

from ..browser import run as run_browser
from ..errors import JfiError
from ..jsonl import AtomicFiles, writer_lock
from ..manifest import SCHEMA
from ..output import Outcome, utc_now
from ..paths import out_folder
from ..version import __version__
from .browse import CAPS, METHOD_BOUNDARY, WHAT_THIS_IS, Options, _capture_all, viewport_id
from .views import View


def manifest(records: list[dict], opts: Options, started: str, finished: str, shard: dict | None = None) -> dict:
    return {
        "schema": SCHEMA,
        "engagement": opts.engagement,
        "run_started_utc": started,
        "run_finished_utc": finished,
        "what_this_is": WHAT_THIS_IS,
        "method_boundary": METHOD_BOUNDARY,
        "urls_source": opts.urls_source,
        "viewport": {"id": opts.viewport_id, "width": opts.viewport[0], "height": opts.viewport[1]},
        **(
            {"viewports": [{"id": viewport_id(v), "width": v[0], "height": v[1]} for v in opts.viewports]}
            if len(opts.viewports) > 1
            else {}
        ),
        "caps": CAPS,
        **({"shard": shard} if shard else {}),
        "view_count": len(records),
        "views": records,
    }


# What the steps after a capture derive from it (build, merge, sample, worklist, receipts, report, eval, export,
# judge-kit's rubric, the kept stores): a capture that replaces another removes them with it. What people wrote
# (judged batches, spot checks, standards, the ratification ledger, audit.toml) stays.
DERIVED = (
    "judgment-units.json",
    "nav-consistency.csv",
    "draft-judgments*.csv",
    "draft-judgments.json",
    "draft-judgments.xlsx",
    "calibration.json",
    "spot-check-sample.jsonl",
    "worklist.md",
    "worklist.csv",
    "receipts.jsonl",
    "receipts.csv",
    "report.html",
    "report-files/*",
    "eval.md",
    "eval.json",
    "audit.duckdb",
    "audit-*.parquet",
    "judgment-rubric.md",
    ".jfi/*.duckdb",
    ".jfi/*.duckdb.wal",
)


def derived_files(out: Path, shots: dict[str, bytes]) -> list[Path]:
    """The files of `out` derived from the capture it holds (see DERIVED): also every batch file made by build and
    every screenshot the new capture does not make."""
    found = [p for pattern in DERIVED for p in out.glob(pattern)]
    found += [p for p in out.glob("batches/*.jsonl") if not p.name.endswith(".judged.jsonl")]
    found += [p for p in out.glob("screenshots/*.png") if f"screenshots/{p.name}" not in shots]
    return sorted({p for p in found if p.is_symlink() or p.is_file()})


def _whole_characters(rec: dict) -> None:
    """A page's script can make text with half a character (a lone surrogate, as `document.title = "\\ud800"`), which
    no UTF-8 file can hold: each becomes U+FFFD, and the view's notes say how many."""
    count = 0

    def whole(value):
        nonlocal count
        if isinstance(value, str):
            fixed = value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
            count += fixed.count("\ufffd") - value.count("\ufffd")
            return fixed
        if isinstance(value, list):
            return [whole(v) for v in value]
        if isinstance(value, dict):
            return {whole(k): whole(v) for k, v in value.items()}
        return value

    rec.update(whole(rec))
    rec["environment_notes"] = [
        *(rec.get("environment_notes") or []),
        f"{count} half character(s) (lone surrogates) in the page's text read as U+FFFD",
    ]


def _line(view: dict) -> str:
    """A view's line of inventory.jsonl; a view whose text no UTF-8 file can hold is made whole first (in place, so
    the manifest written beside it says the same)."""
    line = json.dumps({"record": "view", **view}, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        _whole_characters(view)
        line = json.dumps({"record": "view", **view}, ensure_ascii=False)
    return line


def write_outputs(out: Path, run: dict, shots: dict[str, bytes] | None = None, *, replace: bool = False) -> None:
    """inventory.jsonl (a run header, then one view per line, in the views file's order) and inventory-run.json;
    replacing a capture, what was derived from the old one goes in the same commit."""
    header = {"record": "run", "jfi_version": __version__, **{k: v for k, v in run.items() if k != "views"}}
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [_line(v) for v in run["views"]]
    with AtomicFiles() as files:  # screenshots, inventory.jsonl, the manifest and the removals land together
        for rel, data in (shots or {}).items():
            files.write(out / rel, data)
        files.write(out / "inventory.jsonl", "\n".join(lines) + "\n")
        files.write(out / "inventory-run.json", json.dumps(run, ensure_ascii=False, indent=1) + "\n")
        for path in derived_files(out, shots or {}) if replace else ():
            files.remove(path)


def run(
    views: list[View],
    out: Path,
    opts: Options,
    *,
    replace: bool = False,
    shard: dict | None = None,
    cluster: str | None = None,
) -> Outcome:
    out = out_folder(out)
    if (out / "inventory.jsonl").exists() and not replace:
        raise JfiError(
            "capture_exists",
            f"{out} already holds a capture; new captures go in new folders (or pass --replace)",
            source=str(out),
        )
    started = utc_now()
    if cluster is not None:
        from .cluster import capture_on_cluster

        records, shots = capture_on_cluster(views, opts, cluster)
    else:
        records, shots = run_browser(_capture_all(views, opts))
    finished = utc_now()
    out.mkdir(parents=True, exist_ok=True)
    with writer_lock(out):
        write_outputs(out, manifest(records, opts, started, finished, shard), shots, replace=replace)
    noted = [r for r in records if r["inventory"] is None]
    return Outcome(
        1 if noted else 0,
        lines=[
            f"{out / 'inventory.jsonl'}: {len(records)} view(s), {len(records) - len(noted)} inventoried, "
            f"{len(noted)} with environment notes only"
        ],
    )
