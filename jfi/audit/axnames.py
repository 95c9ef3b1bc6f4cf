"""The browser's own accessible names: every captured heading, link, image and field is looked up in Chromium's
accessibility tree (DevTools protocol, Accessibility domain), matched through its backend node id; nothing is
written into the page. Each element gets `ax`: the computed name, where it came from, the computed role and whether
the element is exposed to assistive technology at all."""
from __future__ import annotations

import asyncio
import json

KINDS = ("headings", "links", "images", "fields")
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
            return {"labelfor": "label", "labelwrapped": "label", "figcaption": "caption", "tablecaption": "caption",
                    "legend": "legend", "title": "title"}.get(native, native or "related")
        return kind  # contents, placeholder, title
    return None


def describe(node: dict | None) -> dict:
    """What assistive technology is told about one element (None: not in the accessibility tree at all)."""
    if node is None or node.get("ignored"):
        role = (node or {}).get("role", {}).get("value")
        return {"name": "", "name_source": None, "role": role if role not in (None, "none") else None,
                "exposed": False}
    name = node.get("name", {})
    return {"name": " ".join(str(name.get("value", "")).split()), "name_source": name_source(name),
            "role": node.get("role", {}).get("value"), "exposed": True}


async def capture(page, script: str, caps: dict) -> tuple[dict, list[str]]:
    """Run the page script through the DevTools protocol and give every captured element its `ax` entry.
    Returns the inventory and the environment notes of the pass (why names stayed approximations, if they did)."""
    try:
        cdp = await page.context.new_cdp_session(page)
    except Exception:  # not Chromium: the DOM approximation alone, and rows say so (no `ax`)
        return await page.evaluate(script, caps), ["accessibility tree not available; names are the DOM approximation"]
    try:
        expression = f"({script})({json.dumps({**caps, 'with_elements': True})})"
        result = await cdp.send("Runtime.evaluate", {"expression": expression, "objectGroup": "jfi",
                                                     "returnByValue": False})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text") or "page script failed"
            raise RuntimeError(text.splitlines()[0])
        handle = result["result"]["objectId"]
        data = await _value(cdp, handle, "function () { return this.data; }")
        size = await _value(cdp, handle, "function () { return document.getElementsByTagName('*').length; }")
        if size > AX_MAX_ELEMENTS:
            await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": "jfi"})
            return data, [f"accessibility tree not read: the page has {size:,} elements (more than {AX_MAX_ELEMENTS:,}); "
                          "names are the DOM approximation"]
        tree = await cdp.send("Accessibility.getFullAXTree")
        nodes = {n["backendDOMNodeId"]: n for n in tree.get("nodes", []) if n.get("backendDOMNodeId") is not None}
        for kind in KINDS:
            refs = await cdp.send("Runtime.callFunctionOn", {"objectId": handle, "objectGroup": "jfi",
                                                             "functionDeclaration": f"function () {{ return this.elements.{kind}; }}"})
            props = await cdp.send("Runtime.getProperties", {"objectId": refs["result"]["objectId"], "ownProperties": True})
            elements = {int(p["name"]): p["value"]["objectId"] for p in props["result"]
                        if p["name"].isdigit() and p.get("value", {}).get("objectId")}
            described = await asyncio.gather(*(cdp.send("DOM.describeNode", {"objectId": oid}) for oid in elements.values()))
            backend = dict(zip(elements, (d["node"]["backendNodeId"] for d in described)))
            for i, element in enumerate(data[kind]):
                element["ax"] = describe(nodes.get(backend.get(i)))
        await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": "jfi"})
        return data, []
    finally:  # a page whose script never yields must not hold the capture: detaching is bounded too
        try:
            await asyncio.wait_for(cdp.detach(), timeout=2)
        except BaseException:
            pass


async def _value(cdp, handle: str, function: str):
    result = await cdp.send("Runtime.callFunctionOn", {"objectId": handle, "functionDeclaration": function,
                                                       "returnByValue": True})
    return result["result"]["value"]
