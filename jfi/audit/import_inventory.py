"""`jfi audit import-inventory FILE.json --out DIR`: take in a content-inventory/v1 manifest made elsewhere."""
from __future__ import annotations

from pathlib import Path

from ..errors import JfiError, clip
from ..jsonl import parse_json
from .capture import SCHEMA, write_outputs

VIEW_KEYS = ("view_id", "product", "url", "viewport", "nav_error", "final_url", "stayed_on_route_host", "inventory")
INVENTORY_KEYS = ("meta", "counts", "headings", "links", "images", "fields", "navs")


def read_manifest(path: Path) -> dict:
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise JfiError("unreadable_manifest", f"cannot read: {e.strerror}", source=source) from None
    run = parse_json(data[3:] if data.startswith(b"\xef\xbb\xbf") else data, source)
    if not isinstance(run, dict) or run.get("schema") != SCHEMA:
        raise JfiError("invalid_manifest", f"schema must be {SCHEMA!r}", source=source, field="schema")
    views = run.get("views")
    if not isinstance(views, list):
        raise JfiError("invalid_manifest", "views must be a list", source=source, field="views")
    seen = set()
    for n, view in enumerate(views):
        where = f"views[{n}]"
        if not isinstance(view, dict):
            raise JfiError("invalid_manifest", f"{where} must be an object", source=source, field=where)
        for key in VIEW_KEYS:
            if key not in view:
                raise JfiError("invalid_manifest", f"{where} lacks {key}", source=source, field=f"{where}.{key}")
        if view["view_id"] in seen:
            raise JfiError("invalid_manifest", f"view id {view['view_id']!r} appears twice", source=source,
                           field=f"{where}.view_id")
        seen.add(view["view_id"])
        inv = view["inventory"]
        if isinstance(inv, dict) and "error" in inv and any(k not in inv for k in INVENTORY_KEYS):
            # what the reference writes when its page script threw: a view with an environment note, not a refusal
            view["inventory"] = None
            view["nav_error"] = view.get("nav_error") or f"capture failed: {clip(inv['error'], 200)}"
            continue
        if inv is not None and (not isinstance(inv, dict) or any(k not in inv for k in INVENTORY_KEYS)):
            raise JfiError("invalid_manifest", f"{where}.inventory must hold {', '.join(INVENTORY_KEYS)}",
                           source=source, field=f"{where}.inventory")
    return run


def run(path: Path, out: Path) -> int:
    manifest = read_manifest(path)
    manifest.setdefault("view_count", len(manifest["views"]))
    write_outputs(Path(out), manifest)
    noted = sum(1 for v in manifest["views"] if v["inventory"] is None)
    print(f"{Path(out) / 'inventory.jsonl'}: {len(manifest['views'])} view(s) imported, {noted} with environment notes only")
    return 0
