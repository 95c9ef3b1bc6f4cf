"""The browser's own accessible names: every captured heading, link, image and field is looked up in Chromium's
accessibility tree (DevTools protocol, Accessibility domain), matched through its backend node id; nothing is
written into the page. Each element gets `ax`: the computed name, where it came from, the computed role and whether
the element is exposed to assistive technology at all. Same-origin frames are read too, each through its own
tree."""

from __future__ import annotations

import asyncio
import json

KINDS = ("headings", "links", "images", "fields")
# The page script cuts names to these lengths (an alt is kept whole); the browser's names are cut the same way
NAME_LIMITS = {"headings": 200, "links": 160, "fields": 160}


def cut(text: str, limit: int | None) -> str:
    """The page script's cut: spaces squashed, and past the limit the first limit-1 characters and an ellipsis."""
    text = " ".join(text.split())
    return text[: limit - 1] + "\u2026" if limit and len(text) > limit else text


# Past this many elements Chromium takes minutes to build its accessibility tree (500,000 nodes for a page with
# 100,000 links took 100 s here): such a page keeps the DOM approximation, and the view says so.
AX_MAX_ELEMENTS = 25_000


def name_source(name: dict) -> str | None:
    """The protocol's winning name source in jfi's words: aria-labelledby, aria-label, alt, title, placeholder,
    label, caption, legend, contents, value or default."""
    for source in name.get("sources", []):
        if source.get("superseded") or not str(source.get("value", {}).get("value") or "").strip():
            continue
        kind = source.get("type")
        if kind == "attribute":
            attribute = source.get("attribute")
            return "default" if attribute == "type" else attribute
        if kind == "relatedElement":
            if source.get("attribute"):
                return source["attribute"]
            native = source.get("nativeSource") or ""
            return {
                "labelfor": "label",
                "labelwrapped": "label",
                "figcaption": "caption",
                "tablecaption": "caption",
                "legend": "legend",
                "title": "title",
            }.get(native, native or "related")
        return kind  # contents, placeholder, title
    return None


# Roles whose name Chromium never takes from contents although their fallback content is what a screen reader reads
FALLBACK_ROLES = {"PluginObject", "Canvas"}


def describe(node: dict | None, nodes_by_id: dict | None = None) -> dict:
    """What assistive technology is told about one element (None: not in the accessibility tree at all).
    An object or canvas with no name of its own is announced by its exposed fallback content: that text is its
    name (source `contents`)."""
    if node is None or node.get("ignored"):
        role = (node or {}).get("role", {}).get("value")
        return {"name": "", "name_source": None, "role": role if role not in (None, "none") else None, "exposed": False}
    name = node.get("name", {})
    out = {
        "name": " ".join(str(name.get("value", "")).split()),
        "name_source": name_source(name),
        "role": node.get("role", {}).get("value"),
        "exposed": True,
    }
    if not out["name"] and out["role"] in FALLBACK_ROLES and nodes_by_id:
        text = " ".join(" ".join(_exposed_text(node, nodes_by_id)).split())
        if text:
            out.update(name=text, name_source="contents")
    return out


def _exposed_text(node: dict, nodes_by_id: dict) -> list[str]:
    """The text of a node's exposed descendants, in tree order."""
    out = []
    for child_id in node.get("childIds", []):
        child = nodes_by_id.get(child_id)
        if child is None:
            continue
        if not child.get("ignored") and child.get("role", {}).get("value") == "StaticText":
            out.append(str(child.get("name", {}).get("value", "")))
        else:
            out += _exposed_text(child, nodes_by_id)
    return out


def area_from_its_image(area: dict, image_ax: dict) -> dict:
    """An image map's area is in Chromium's tree only while its image is loaded: one whose image did not load is
    described as Chromium describes it on a loaded image (a link named by aria-labelledby, aria-label or alt), and
    is exposed when its image is."""
    if "name_source" in area:  # a link record: the DOM approximation already follows that order
        text, source = area.get("name") or "", area["name_source"]
    else:
        text, source = next(
            (
                (" ".join(str(v or "").split()), s)
                for s, v in (
                    ("aria-labelledby", area.get("aria_labelledby_text")),
                    ("aria-label", area.get("aria_label")),
                    ("alt", area.get("alt")),
                )
                if str(v or "").strip()
            ),
            ("", None),
        )
    return {"name": text, "name_source": source if text else None, "role": "link", "exposed": image_ax["exposed"]}


async def _all_frames_tree(cdp) -> list[dict]:
    """The accessibility tree of the page and of every frame Chromium lets this session read."""
    nodes = (await cdp.send("Accessibility.getFullAXTree")).get("nodes", [])
    frames, stack = [], [(await cdp.send("Page.getFrameTree"))["frameTree"]]
    while stack:
        tree = stack.pop()
        stack += tree.get("childFrames", [])
        frames += [child["frame"]["id"] for child in tree.get("childFrames", [])]
    for frame_id in frames:
        try:
            nodes += (await cdp.send("Accessibility.getFullAXTree", {"frameId": frame_id})).get("nodes", [])
        except Exception:  # a frame of another origin (its own process): its content is not captured either
            pass
    return nodes


async def capture(page, script: str, caps: dict) -> tuple[dict, list[str]]:
    """Run the page script through the DevTools protocol and give every captured element its `ax` entry.
    Returns the inventory and the environment notes of the pass (why names stayed approximations, if they did)."""
    try:
        cdp = await page.context.new_cdp_session(page)
    except Exception:  # not Chromium: the DOM approximation alone, and rows say so (no `ax`)
        return await page.evaluate(script, caps), ["accessibility tree not available; names are the DOM approximation"]
    try:
        expression = f"({script})({json.dumps({**caps, 'with_elements': True})})"
        result = await cdp.send(
            "Runtime.evaluate", {"expression": expression, "objectGroup": "jfi", "returnByValue": False}
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text") or "page script failed"
            raise RuntimeError(text.splitlines()[0])
        handle = result["result"]["objectId"]
        data = await _value(cdp, handle, "function () { return this.data; }")
        size = await _value(cdp, handle, "function () { return document.getElementsByTagName('*').length; }")
        if size > AX_MAX_ELEMENTS:
            await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": "jfi"})
            return data, [
                f"accessibility tree not read: the page has {size:,} elements (more than {AX_MAX_ELEMENTS:,}); "
                "names are the DOM approximation"
            ]
        all_nodes = await _all_frames_tree(cdp)
        by_id = {n["nodeId"]: n for n in all_nodes}
        nodes = {n["backendDOMNodeId"]: n for n in all_nodes if n.get("backendDOMNodeId") is not None}
        for kind in KINDS:
            backend = await _backend_ids(cdp, handle, f"elements.{kind}")
            for i, element in enumerate(data[kind]):
                element["ax"] = describe(nodes.get(backend.get(i)), by_id)
                element["ax"]["name"] = cut(element["ax"]["name"], NAME_LIMITS.get(kind))
            if kind in ("links", "images"):  # areas whose image did not load
                missing = {i for i, b in backend.items() if b not in nodes}
                images = await _backend_ids(cdp, handle, f"map_images.{kind}") if missing else {}
                for i in missing & set(images):
                    data[kind][i]["ax"] = area_from_its_image(data[kind][i], describe(nodes.get(images[i])))
        await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": "jfi"})
        return data, []
    finally:  # a page whose script never yields must not hold the capture: detaching is bounded too
        try:
            await asyncio.wait_for(cdp.detach(), timeout=2)
        except BaseException:
            pass


async def _backend_ids(cdp, handle: str, path: str) -> dict[int, int]:
    """The backend node id of each element of a list the page script returned, by its index (the page is not
    changed); an empty slot has none."""
    refs = await cdp.send(
        "Runtime.callFunctionOn",
        {"objectId": handle, "objectGroup": "jfi", "functionDeclaration": f"function () {{ return this.{path}; }}"},
    )
    props = await cdp.send("Runtime.getProperties", {"objectId": refs["result"]["objectId"], "ownProperties": True})
    elements = {
        int(p["name"]): p["value"]["objectId"]
        for p in props["result"]
        if p["name"].isdigit() and p.get("value", {}).get("objectId")
    }
    described = await asyncio.gather(*(cdp.send("DOM.describeNode", {"objectId": oid}) for oid in elements.values()))
    return dict(zip(elements, (d["node"]["backendNodeId"] for d in described)))


async def _value(cdp, handle: str, function: str):
    result = await cdp.send(
        "Runtime.callFunctionOn", {"objectId": handle, "functionDeclaration": function, "returnByValue": True}
    )
    return result["result"]["value"]
