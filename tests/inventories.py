"""Builders for synthetic inventories (the content-inventory/v1 view shape), for tests that need no browser."""

import atexit
import json
import shutil
import tempfile
from pathlib import Path

ORIGIN = "http://site.example"


def heading(text="Section", level=2, **kw):
    return {
        "i": 0,
        "level": level,
        "text": text,
        "name_source": "content",
        "selector": "main > h2",
        "visible": True,
        "aria_hidden": False,
        "landmark": "main",
        "section_preview": "Some words follow.",
        **kw,
    }


def link(name="Timetables", href="/timetables", **kw):
    rec = {
        "i": 0,
        "name": name,
        "name_source": "content",
        "text": name,
        "title": None,
        "href": href if href.startswith(("http", "javascript", "mailto")) else ORIGIN + href,
        "href_raw": href,
        "same_page": href.startswith("#"),
        "external": False,
        "target": None,
        "download": False,
        "file_ext": None,
        "has_img": False,
        "img_alt": None,
        "icon_only": False,
        "empty_name": not name,
        "visible": True,
        "aria_hidden": False,
        "landmark": "main",
        "selector": "main > p > a",
        "context": "Plan a trip with the timetables.",
    }
    rec.update(kw)
    return rec


def image(src="/img/photo.png", alt="Ferry at the north pier", **kw):
    return {
        "i": 0,
        "tag": "img",
        "src": src,
        "src_basename": src.split("?")[0].split("/")[-1],
        "alt": alt,
        "alt_present": alt is not None,
        "alt_empty": alt == "",
        "role": None,
        "aria_label": None,
        "aria_labelledby_text": None,
        "aria_hidden": False,
        "title": None,
        "svg_title": None,
        "in_control": None,
        "figcaption": None,
        "width": 300,
        "height": 200,
        "visible": True,
        "landmark": "main",
        "selector": "main > img",
        "adjacent_text": "",
        **kw,
    }


def field(label="Email address", source="label[for]", **kw):
    return {
        "i": 0,
        "type": "email",
        "name_attr": "email",
        "id": "email",
        "label": label,
        "label_source": source,
        "placeholder": None,
        "required": False,
        "describedby_text": None,
        "fieldset_legend": None,
        "visible": True,
        "landmark": "main",
        "selector": "#email",
        **kw,
    }


def nav(*names, role="nav", label=None):
    return {
        "role": role,
        "label": label,
        "selector": role,
        "visible": True,
        "item_count": len(names),
        "items": [{"name": n, "href": "/" + n.lower().replace(" ", "-"), "tag": "a"} for n in names],
    }


def view(
    view_id,
    product="harbor",
    title=None,
    h1=None,
    headings=(),
    links=(),
    images=(),
    fields=(),
    navs=(),
    url=None,
    host="site.example",
    **meta,
):
    def numbered(items):
        return [{**x, "i": k} for k, x in enumerate(items)]

    h1 = ["Welcome"] if h1 is None else h1
    inv = {
        "meta": {
            "lang": "en",
            "title": title if title is not None else f"Harbor — {view_id}",
            "h1": h1,
            "h1_count": len(h1),
            "meta_description": None,
            "main_count": 1,
            "search_landmark": False,
            "skip_links": [],
            **meta,
        },
        "counts": {},
        "headings": numbered(headings),
        "links": numbered(links),
        "images": numbered(images),
        "fields": numbered(fields),
        "navs": list(navs),
        "capped": {},
    }
    url = url or f"http://{host}/{view_id}.html"
    return {
        "view_id": view_id,
        "product": product,
        "url": url,
        "viewport": "desktop-1440",
        "nav_error": None,
        "final_url": url,
        "stayed_on_route_host": True,
        "load_ms": 1,
        "inventory": inv,
        "screenshot": None,
    }


def note(view_id, product="harbor"):
    url = f"http://site.example/{view_id}.html"
    return {
        "view_id": view_id,
        "product": product,
        "url": url,
        "viewport": "desktop-1440",
        "nav_error": "HTTP 500",
        "final_url": url,
        "stayed_on_route_host": True,
        "load_ms": 1,
        "inventory": None,
        "screenshot": None,
    }


def write(folder, views):
    folder.mkdir(parents=True, exist_ok=True)
    header = {
        "record": "run",
        "schema": "content-inventory/v1",
        "viewport": {"id": "desktop-1440", "width": 1440, "height": 900},
        "caps": {"headings": 250, "links": 500, "images": 250, "fields": 120, "nav_links": 120},
    }
    lines = [json.dumps(header)] + [json.dumps({"record": "view", **v}) for v in views]
    (folder / "inventory.jsonl").write_text("\n".join(lines) + "\n")
    return folder


_MADE: dict[str, tuple[Path, Path]] = {}  # what made() made: the folder's pristine copy and the place it was made at
_HANDED: dict[str, Path] = {}  # the dest each kind of folder was last handed out for, in place


def made(dest: Path, views, *commands, name="audit", in_place=False, files: dict[str, str] | None = None) -> Path:
    """An audit folder written from these views (and `files`, name -> text, beside them) and run through these
    `jfi audit` commands (each a tuple of its arguments; `--inventory` is added at the end, `{root}` names the folder
    above it), made once per test process.
    Each test gets it as it was made: as `dest/name`, a copy (whose kept store names another folder: the next command
    makes it anew, as it does for a folder moved elsewhere); or, `in_place`, restored at the place it was made, not
    under dest, where its kept store is taken as it is, as a command after build finds it (a second one of the same
    kind for one dest is a copy under dest)."""
    key = json.dumps([name, views, commands, files], sort_keys=True)
    if key not in _MADE:
        from conftest import Jfi  # the test runner, imported late: this module is also used outside tests

        base = Path(tempfile.mkdtemp(prefix="jfi-made-"))
        atexit.register(shutil.rmtree, base, True)
        root = base / "place"
        folder = write(root / name, views)
        for file, text in (files or {}).items():
            (folder / file).write_text(text)
        for args in commands:
            args = [a.replace("{root}", str(root)) for a in args]
            r = Jfi(root)("audit", *args, "--inventory", str(folder))
            assert r.exit_code in (0, 1), (args, r.stderr)
        shutil.copytree(root, base / "pristine", symlinks=True)
        _MADE[key] = (base / "pristine", root)
    pristine, root = _MADE[key]
    if not in_place or _HANDED.get(key) == dest:
        shutil.copytree(pristine, dest, dirs_exist_ok=True, symlinks=True)
        return dest / name
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(pristine, root, symlinks=True)
    _HANDED[key] = dest
    return root / name
