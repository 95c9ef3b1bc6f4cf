"""`jfi audit import-inventory FILE.json --out DIR`: take in a content-inventory/v1 manifest made elsewhere. The
manifest is read view by view (a streaming JSON parser), so memory stays flat whatever the file's size."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import orjson

from ..errors import JfiError
from ..jsonl import AtomicFiles, writer_lock
from ..manifest import checked_header, views_of
from ..output import Outcome
from ..paths import out_folder
from .capture import derived_files

VIEW = b'{"record":"view",'  # how a view's line in inventory.jsonl starts, before the view's own keys


def _encoded(view: dict) -> bytes:
    """A view as compact JSON in UTF-8 (orjson: encoding the views with json.dumps was a third of an import); a value
    orjson does not take (a lone surrogate, an integer beyond 64 bits, should the parser ever hand one over) goes
    through json as before."""
    try:
        return orjson.dumps(view)
    except TypeError:
        return json.dumps(view, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def run(path: Path, out: Path, *, replace: bool = False) -> Outcome:
    """inventory.jsonl (the run header, then a line per view, written as the views stream by) and inventory-run.json:
    the manifest itself when no view had to change, else the manifest with the changed views (made from
    inventory.jsonl's lines)."""
    out = out_folder(out)
    held = [
        name for name in ("inventory.jsonl", "inventory-run.json", "judgment-units.json") if os.path.lexists(out / name)
    ]
    if held and not replace:
        raise JfiError(
            "capture_exists",
            f"{out} already holds an audit ({', '.join(held)}); new captures go in new folders (or pass --replace)",
            source=str(out),
        )
    fields = checked_header(path)
    made = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    try:
        return _write(path, out, fields, replace)
    except BaseException:
        if made:  # a refused import leaves no folder behind (only the lock file was ever made there)
            shutil.rmtree(out, ignore_errors=True)
        raise


def _write(path: Path, out: Path, fields: dict, replace: bool) -> Outcome:
    from ..version import __version__

    total = noted = 0
    with writer_lock(out), AtomicFiles() as files, tempfile.TemporaryFile(dir=out) as body:
        # the views go to a scratch file; the run header (it needs their count) is written first at the end
        head = {k: v for k, v in fields.items() if k != "view_count"}
        for view in views_of(path):
            text = _encoded(view)
            body.write(VIEW + text[1:] + b"\n")  # a view always has its keys (views_of checks them)
            total += 1
            noted += view["inventory"] is None
        count = fields.get("view_count", total)
        header = {"record": "run", "jfi_version": __version__, **head, "view_count": count}
        with files.open(out / "inventory.jsonl") as fh:
            fh.write(json.dumps(header, ensure_ascii=False).encode("utf-8") + b"\n")
            body.seek(0)
            shutil.copyfileobj(body, fh, 1 << 20)
        with files.open(out / "inventory-run.json") as fh:
            if noted == 0 and "view_count" in fields:  # nothing changed: the manifest as it came
                with open(path, "rb") as src:
                    shutil.copyfileobj(src, fh, 1 << 20)
            else:  # the views as written to inventory.jsonl, each line's text without its record key
                fh.write(
                    json.dumps(head, ensure_ascii=False)[:-1].encode("utf-8")
                    + (b", " if head else b"")
                    + b'"views": [\n'
                )
                body.seek(0)
                for n, line in enumerate(body):
                    fh.write((b",\n" if n else b"") + b"{" + line[len(VIEW) : -1])
                fh.write(f'\n], "view_count": {count}}}\n'.encode("utf-8"))
        for old in derived_files(out, {}) if replace else ():  # what was derived from the capture it replaces
            files.remove(old)
    return Outcome(
        0, lines=[f"{out / 'inventory.jsonl'}: {total} view(s) imported, {noted} with environment notes only"]
    )
