"""Capture past one machine without a cluster: `--shard K/N` captures every N-th view (positions K-1, K-1+N, ... of
the views file, so slow and fast views spread evenly) and records the slice; `jfi audit combine` joins the slices
into one audit folder whose inventory.jsonl is, timings aside, the one a single run writes."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ..errors import JfiError
from ..jsonl import strict_loads, writer_lock
from ..output import Outcome
from ..paths import inside, png_bytes, regular_file
from .capture import write_outputs
from .views import View

SHARD = re.compile(r"^([0-9]{1,6})/([0-9]{1,6})$")  # ASCII digits, and no more slices than views could fill
# header fields of a run that every slice of one capture shares
SAME = ("schema", "engagement", "what_this_is", "method_boundary", "urls_source", "viewport", "viewports", "caps")


def parse_shard(text: str) -> tuple[int, int]:
    m = SHARD.match(text.strip())
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise JfiError("invalid_shard", f"--shard takes K/N with 1 <= K <= N, e.g. 2/4; got {text!r}", exit_code=3)
    return int(m.group(1)), int(m.group(2))


def views_digest(views: list[View]) -> str:
    """What identifies the whole views list a slice was cut from."""
    text = "\n".join(f"{v.view_id}\t{v.product}\t{v.url}\t{v.settle_ms}" for v in views)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def slice_of(views: list[View], k: int, n: int) -> tuple[list[View], dict]:
    """Slice K of N and the record of it that goes in the run header; more slices than views is refused (a slice
    with no view would capture nothing and look done)."""
    if n > len(views):
        raise JfiError(
            "invalid_shard",
            f"--shard {k}/{n}: the views file has {len(views)} view(s), so at most {len(views)} slices",
            field="--shard",
            exit_code=3,
        )
    return views[k - 1 :: n], {"k": k, "n": n, "views_total": len(views), "views_sha256": views_digest(views)}


def _read(folder: Path) -> tuple[dict, list[dict]]:
    path = folder / "inventory.jsonl"
    if not regular_file(path):
        raise JfiError("not_a_shard", f"no inventory.jsonl in {folder}", source=str(path))
    lines = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            lines.append(strict_loads(text))
        except (ValueError, RecursionError):
            raise JfiError("invalid_json", "not a JSON line", source=str(path), line=number) from None
    if not lines or not all(isinstance(x, dict) for x in lines):
        raise JfiError("not_a_shard", f"{folder} holds no capture of JSON objects", source=str(path))
    header, views = lines[0], lines[1:]
    if header.get("record") != "run" or not isinstance(header.get("shard"), dict):
        raise JfiError(
            "not_a_shard",
            f"{folder} is not a slice of a sharded capture (no shard in its run header)",
            source=str(path),
            line=1,
        )
    return header, views


def combine(folders: list[Path], out: Path, *, replace: bool = False) -> Outcome:
    out = Path(out)
    if (out / "inventory.jsonl").exists() and not replace:
        raise JfiError("capture_exists", f"{out} already holds a capture (or pass --replace)", source=str(out))
    slices = [(folder, *_read(Path(folder))) for folder in folders]
    first = slices[0][1]
    n, total, digest = first["shard"]["n"], first["shard"]["views_total"], first["shard"]["views_sha256"]
    per = len(first.get("viewports") or [first.get("viewport")])  # records per view: one per viewport
    seen: dict[int, Path] = {}
    for folder, header, views in slices:
        s = header["shard"]
        if (s.get("n"), s.get("views_total"), s.get("views_sha256")) != (n, total, digest) or any(
            header.get(k) != first.get(k) for k in SAME
        ):
            raise JfiError(
                "foreign_shard",
                f"{folder} is a slice of another capture (other views, shard count or settings)",
                source=str(folder),
            )
        if s["k"] in seen:
            raise JfiError(
                "overlapping_shards", f"{folder} and {seen[s['k']]} are both slice {s['k']}/{n}", source=str(folder)
            )
        expected = len(range(s["k"] - 1, total, n)) * per
        if len(views) != expected:
            raise JfiError(
                "incomplete_shard",
                f"{folder} holds {len(views)} view record(s); slice {s['k']}/{n} has {expected}",
                source=str(folder),
            )
        seen[s["k"]] = Path(folder)
    missing = sorted(set(range(1, n + 1)) - set(seen))
    if missing:
        raise JfiError("missing_shards", f"slice(s) {', '.join(f'{k}/{n}' for k in missing)} missing; nothing written")
    by_k = {header["shard"]["k"]: (folder, views) for folder, header, views in slices}
    records, shots = [], {}
    for position, j in ((p, j) for p in range(total) for j in range(per)):
        folder, views = by_k[position % n + 1]
        rec = {k: v for k, v in views[position // n * per + j].items() if k != "record"}
        reveals = rec.get("reveals") if isinstance(rec.get("reveals"), list) else []
        for shot in [rec["screenshot"]] + reveals if rec.get("screenshot") else []:
            # a PNG inside the slice's screenshots/, never a symlink out of it
            source = str(Path(folder) / "inventory.jsonl")
            if not isinstance(shot, str):
                raise JfiError("incomplete_shard", "reveals must list screenshot paths", source=source, field="reveals")
            data = png_bytes(
                inside(Path(folder), shot, under="screenshots", source=source, field="screenshot"), source=source
            )
            if data is None:
                raise JfiError("incomplete_shard", f"{folder} lacks its screenshot {shot}", source=source)
            shots[shot] = data
        records.append(rec)
    run = {k: first[k] for k in ("schema", "engagement")}
    run["run_started_utc"] = min(h["run_started_utc"] for _, h, _ in slices)
    run["run_finished_utc"] = max(h["run_finished_utc"] for _, h, _ in slices)
    run.update(
        {
            k: first[k]
            for k in ("what_this_is", "method_boundary", "urls_source", "viewport", "viewports", "caps")
            if k in first
        }
    )
    run["view_count"], run["views"] = len(records), records
    out.mkdir(parents=True, exist_ok=True)
    with writer_lock(out):
        write_outputs(out, run, shots, replace=replace)
    return Outcome(
        1 if any(r.get("inventory") is None for r in records) else 0,
        lines=[f"{out / 'inventory.jsonl'}: {total} view(s) from {n} slice(s)"],
    )
