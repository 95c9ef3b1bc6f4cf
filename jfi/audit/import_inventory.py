"""`jfi audit import-inventory FILE.json --out DIR`: take in a content-inventory/v1 manifest made elsewhere. The
manifest is read view by view (a streaming JSON parser), so memory stays flat whatever the file's size."""
from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

import ijson
from ijson.common import ObjectBuilder

from ..errors import JfiError, clip
from ..jsonl import AtomicFiles, writer_lock
from .capture import SCHEMA
from .views import name_problem

VIEW_KEYS = ("view_id", "product", "url", "viewport", "nav_error", "final_url", "stayed_on_route_host", "inventory")
INVENTORY_KEYS = ("meta", "counts", "headings", "links", "images", "fields", "navs")


def _open(path: Path):
    try:
        fh = open(path, "rb")
    except OSError as e:
        raise JfiError("unreadable_manifest", f"cannot read: {e.strerror}", source=str(path)) from None
    if fh.read(3) != b"\xef\xbb\xbf":
        fh.seek(0)
    return fh


def _bad_json(path: Path, e: Exception) -> JfiError:
    return JfiError("invalid_json", f"not a JSON manifest: {clip(str(e), 200)}", source=str(path))


def _views_last(path: Path) -> bool:
    """Whether the file ends with the views array (as every content-inventory/v1 writer puts it): then the fields
    before it are all the header."""
    with open(path, "rb") as fh:
        fh.seek(max(0, path.stat().st_size - 64))
        return re.search(rb"\]\s*\}\s*$", fh.read()) is not None


def header_of(path: Path) -> dict:
    """The manifest's fields other than its views (streamed; the views themselves are skipped when they come last)."""
    fields: dict = {}
    builder, key = None, None
    views_last = _views_last(path)
    with _open(path) as fh:
        try:
            for prefix, event, value in ijson.parse(fh, use_float=True):
                if prefix == "":
                    if event == "map_key":
                        if builder is not None:
                            fields[key] = builder.value
                        key, builder = value, (None if value == "views" else ObjectBuilder())
                        if value == "views" and views_last:
                            break
                    elif event == "end_map" and builder is not None:
                        fields[key], builder = builder.value, None
                    continue
                if builder is not None:
                    builder.event(event, value)
        except (ijson.JSONError, ijson.IncompleteJSONError, ValueError) as e:
            raise _bad_json(path, e) from None
    return fields


def views_of(path: Path) -> Iterator[dict]:
    """Each view of the manifest, checked, one at a time (a view whose page script threw becomes a view with an
    environment note, as the reference writes it)."""
    source, seen = str(path), set()
    with _open(path) as fh:
        try:
            for n, view in enumerate(ijson.items(fh, "views.item", use_float=True)):
                where = f"views[{n}]"
                if not isinstance(view, dict):
                    raise JfiError("invalid_manifest", f"{where} must be an object", source=source, field=where)
                for key in VIEW_KEYS:
                    if key not in view:
                        raise JfiError("invalid_manifest", f"{where} lacks {key}", source=source, field=f"{where}.{key}")
                for key in ("view_id", "product"):
                    if problem := name_problem("id" if key == "view_id" else key, view[key]):
                        raise JfiError("invalid_manifest", problem, source=source, field=f"{where}.{key}")
                if view["view_id"] in seen:
                    raise JfiError("invalid_manifest", f"view id {view['view_id']!r} appears twice", source=source,
                                   field=f"{where}.view_id")
                seen.add(view["view_id"])
                inv = view["inventory"]
                if isinstance(inv, dict) and "error" in inv and any(k not in inv for k in INVENTORY_KEYS):
                    view["inventory"] = None
                    view["nav_error"] = view.get("nav_error") or f"capture failed: {clip(inv['error'], 200)}"
                elif inv is not None and (not isinstance(inv, dict) or any(k not in inv for k in INVENTORY_KEYS)):
                    raise JfiError("invalid_manifest", f"{where}.inventory must hold {', '.join(INVENTORY_KEYS)}",
                                   source=source, field=f"{where}.inventory")
                yield view
        except (ijson.JSONError, ijson.IncompleteJSONError) as e:
            raise _bad_json(path, e) from None


def checked_header(path: Path) -> dict:
    fields = header_of(path)
    if fields.get("schema") != SCHEMA:
        raise JfiError("invalid_manifest", f"schema must be {SCHEMA!r}", source=str(path), field="schema")
    return fields


def read_manifest(path: Path) -> dict:
    """The whole manifest (for a folder that holds only inventory-run.json)."""
    return {**checked_header(path), "views": list(views_of(path))}


def run(path: Path, out: Path) -> int:
    """inventory.jsonl (the run header, then a line per view) and inventory-run.json: the manifest itself when no
    view had to change, else the manifest with the changed views (both written as the views stream by)."""
    from .. import __version__
    fields = checked_header(path)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    total = noted = 0
    with writer_lock(out), AtomicFiles() as files, tempfile.TemporaryFile(dir=out) as body, \
            tempfile.TemporaryFile(dir=out) as copy:
        # the views go to scratch files; the run header (it needs their count) is written first at the end
        head = {k: v for k, v in fields.items() if k != "view_count"}
        copy.write(json.dumps(head, ensure_ascii=False)[:-1].encode("utf-8") + (b", " if head else b"") + b'"views": [\n')
        for view in views_of(path):
            text = json.dumps(view, ensure_ascii=False)
            copy.write(((",\n" if total else "") + text).encode("utf-8"))
            body.write(b'{"record": "view", ' + text[1:].encode("utf-8") + b"\n" if len(text) > 2 else
                       b'{"record": "view"}\n')
            total += 1
            noted += view["inventory"] is None
        copy.write(f'\n], "view_count": {fields.get("view_count", total)}}}\n'.encode("utf-8"))
        header = {"record": "run", "jfi_version": __version__, **head, "view_count": fields.get("view_count", total)}
        with files.open(out / "inventory.jsonl") as fh:
            fh.write(json.dumps(header, ensure_ascii=False).encode("utf-8") + b"\n")
            body.seek(0)
            shutil.copyfileobj(body, fh, 1 << 20)
        with files.open(out / "inventory-run.json") as fh:
            if noted == 0 and "view_count" in fields:  # nothing changed: the manifest as it came
                with open(path, "rb") as src:
                    shutil.copyfileobj(src, fh, 1 << 20)
            else:
                copy.seek(0)
                shutil.copyfileobj(copy, fh, 1 << 20)
    print(f"{out / 'inventory.jsonl'}: {total} view(s) imported, {noted} with environment notes only")
    return 0
