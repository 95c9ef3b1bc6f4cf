"""`jfi audit report`: report.html to look at (no server, no network), with report-files/ beside it holding each
view's screenshot once (WebP, only the parts a crop shows): a summary, how to record decisions, the worklist as
counts that filter the rows, the 3.2.3 finding, then every row with its question, a crop of its view around the
element, outlined, the evidence, the draft and the ratification in force. Filters keep their choice in the URL."""

from __future__ import annotations

import html
import io
import json
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..errors import JfiError
from ..jsonl import AtomicFiles, atomic_write, writer_lock
from ..manifest import SHOT_MAX_HEIGHT
from ..output import say
from ..paths import PNG_SIGNATURE, inside, output_file, own_folder, png_bytes, regular_file
from ..version import __version__
from .folder import AuditFolder, load_folder
from .kept import commits, report_inputs
from .worklist import worklist_parts

CROP_W, CROP_H, PAD = 480, 180, 24  # the crop window, and the margin kept around the element


def esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


@dataclass
class Shot:
    """A view's screenshot: its path in the folder (relative), its bytes, and its size in CSS pixels."""

    path: str
    data: bytes
    width: int
    height: int


def _screenshots(folder: AuditFolder) -> dict[tuple, Shot]:
    """(view id, viewport, N) -> a picture of the view, from the inventory's view records: N = 0 its screenshot, N > 0
    its Nth reveal (taken with elements scrolled into view in their containers). A picture must be a PNG image inside
    screenshots/ (no absolute path, no .., no symlink): anything else is refused, never read."""
    out = {}
    source = folder.inventory_jsonl if regular_file(folder.inventory_jsonl) else None
    if source is None:
        return out
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if not (isinstance(rec, dict) and isinstance(rec.get("screenshot"), str) and rec.get("view_id")):
            continue
        reveals = rec.get("reveals") if isinstance(rec.get("reveals"), list) else []
        for n, shot in enumerate([rec["screenshot"], *reveals]):
            if not isinstance(shot, str):
                continue
            path = inside(
                folder.root,
                shot,
                under="screenshots",
                source=str(source),
                line=number,
                field="screenshot" if n == 0 else "reveals",
            )
            data = png_bytes(path, source=str(source), line=number)
            if data is not None and len(data) >= 24:
                out[(rec["view_id"], rec.get("viewport"), n)] = Shot(
                    shot, data, int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
                )
    return out


def _union(a: dict, b: dict | None) -> dict:
    if not b or b["width"] <= 0 or b["height"] <= 0:
        return a
    x0, y0 = min(a["x"], b["x"]), min(a["y"], b["y"])
    x1, y1 = max(a["x"] + a["width"], b["x"] + b["width"]), max(a["y"] + a["height"], b["y"] + b["height"])
    return {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}


def _window(row: dict, place: dict | None, shots: dict[tuple, Shot]) -> dict | str:
    """Where the crop of a row sits on its view's screenshot: the window's corner and scale (a field with its label
    in the window; something larger than the window scaled down to fit); or, as words, why there is none."""
    if row["type"] == "ident":
        return (
            "this row compares the names one destination is given across the site; each is a link row with its own crop"
        )
    view = (place["view_id"], place.get("viewport"), place.get("shot") or 0) if place else None
    if not place or not place.get("box") or view not in shots:
        return "the capture has no screenshot or no position for this element"
    box = place["box"]
    if row["type"] != "title" and (box["width"] <= 0 or box["height"] <= 0):
        return "the element is not drawn (hidden or of zero size)"
    if box["y"] >= SHOT_MAX_HEIGHT:
        return f"the element is {box['y']} px down the page, below the screenshot"
    if row["type"] != "title" and (
        place.get("clipped") or box["y"] + box["height"] <= 0 or box["x"] + box["width"] <= 0
    ):
        return "the element lies outside the page as drawn (scrolled out of view inside its container) wherever it was captured"
    shown = _union(box, place.get("label_box")) if row["type"] == "field" else box
    scale = (
        1.0
        if row["type"] == "title"
        else min(1.0, CROP_W / (shown["width"] + 2 * PAD), CROP_H / (shown["height"] + 2 * PAD))
    )
    left = max(0, round(shown["x"] * scale) - PAD)
    top = (
        0 if row["type"] == "title" else max(0, round((shown["y"] + shown["height"] / 2) * scale) - CROP_H // 2)
    )  # the element mid-height
    return {"view": view, "box": box, "scale": scale, "left": left, "top": top}


# what a picture of its own shows: the element scrolled into view in its container, the page further down than the
# view's screenshot reaches (a tile), or either (the capture does not say which, as for an axe-core node)
SHOT_WORDS = {
    True: ", scrolled to show it in its container",
    False: ", further down the page than its screenshot",
    None: ", in a picture of its own",
}


def _crop(row: dict, place: dict | None, shots: dict[tuple, Shot], view_names: dict[tuple, str], role: str = "") -> str:
    """A window on the view's screenshot around the element, the element outlined; or why there is none."""
    w = _window(row, place, shots)
    if isinstance(w, str):
        return f'<p class="nocrop">No crop: {esc(w)}.</p>'
    box, scale, left, top, view = w["box"], w["scale"], w["left"], w["top"], w["view"]
    seen = view[0] + (f" at {view[1]}" if view[1] else "") + (SHOT_WORDS[place.get("scrolled")] if view[2] else "")
    # the outline in the window's pixels (kept inside it where rounding a heavily scaled box would step out)
    ox, oy = max(0, round(box["x"] * scale) - left), max(0, round(box["y"] * scale) - top)
    ow, oh = (
        min(max(1, round(box["width"] * scale)), CROP_W - ox),
        min(max(1, round(box["height"] * scale)), CROP_H - oy),
    )
    outline = (
        ""
        if row["type"] == "title"
        else (f'<span class="outline" style="left:{ox}px;top:{oy}px;width:{ow}px;height:{oh}px"></span>')
    )
    what = f'{role or row["type"]} "{row["name"]}"' if row["name"] else f"{role or row['type']} with no name"
    label = f"Screenshot of view {seen}" + (
        ""
        if row["type"] == "title"
        else f" around the {what}, outlined" + (f" (scaled to {scale:.0%})" if scale < 1 else "")
    )
    size = "" if scale == 1 else f";background-size:{round(shots[view].width * scale)}px auto"
    return (
        f'<div class="crop shot-{view_names[view]}" role="img" aria-label="{esc(label)}" '
        f'style="width:{CROP_W}px;height:{CROP_H}px;background-position:-{left}px -{top}px{size}">{outline}</div>'
        f'<p class="whole"><a href="{esc(shots[view].path)}">The whole view {esc(seen)}</a></p>'
    )


def crop_png(row: dict, place: dict | None, shots: dict[tuple, Shot]) -> bytes | None:
    """The crop the report shows of a row as a PNG image of its own (the element outlined in red), for a judge that
    reads images; None where the report has no crop."""
    w = _window(row, place, shots)
    if isinstance(w, str):
        return None
    from PIL import Image, ImageDraw, UnidentifiedImageError

    box, scale, left, top = w["box"], w["scale"], w["left"], w["top"]
    try:
        with Image.open(io.BytesIO(shots[w["view"]].data)) as image:
            page = image.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return None
    if scale < 1:
        page = page.resize((max(1, round(page.width * scale)), max(1, round(page.height * scale))))
    window = page.crop((left, top, left + CROP_W, top + CROP_H))
    if row["type"] != "title":
        x, y = round(box["x"] * scale) - left, round(box["y"] * scale) - top
        ImageDraw.Draw(window).rectangle(
            (x, y, x + max(1, round(box["width"] * scale)), y + max(1, round(box["height"] * scale))),
            outline=(200, 0, 0),
            width=2,
        )
    out = io.BytesIO()
    window.save(out, "PNG")
    return out.getvalue()


def crops(folder: AuditFolder, ids: set[str]) -> dict[str, bytes]:
    """{unit id: PNG} of the crops of these rows, from the folder's screenshots (for judge-kit --images)."""
    store, _, _ = load_folder(folder, inventory=True)
    try:
        rows = {
            r["id"]: r
            for r in store.rows(
                "SELECT id, type, name FROM audit_draft_rows WHERE id IN (SELECT unnest(?::VARCHAR[]))", [sorted(ids)]
            )
        }
        places = {
            p["id"]: p
            for p in store.rows(
                "SELECT * FROM audit_unit_places WHERE id IN (SELECT unnest(?::VARCHAR[]))", [sorted(ids)]
            )
        }
    finally:
        store.close()
    shots = _screenshots(folder)
    out = {}
    for uid, row in rows.items():
        data = crop_png(row, places.get(uid), shots)
        if data is not None:
            out[uid] = data
    return out


FILES = "report-files"  # beside report.html: each view's screenshot once, as much of it as the crops show
WEBP_MAX = 16383  # px: the largest side a WebP image may have (a wider screenshot is kept as PNG)


def _regions(rows: list[dict], places: dict[str, dict], shots: dict[tuple, Shot]) -> dict[tuple, list[tuple]]:
    """(view id, viewport, N) -> the rectangles of its picture (in its own pixels) that some crop shows."""
    out: dict[str, list[tuple]] = {}
    for r in rows:
        w = _window(r, places.get(r["id"]), shots)
        if not isinstance(w, str):
            s = w["scale"]
            out.setdefault(w["view"], []).append(
                (
                    int(w["left"] / s),
                    int(w["top"] / s),
                    int((w["left"] + CROP_W) / s) + 1,
                    int((w["top"] + CROP_H) / s) + 1,
                )
            )
    return out


def _picture(shot: Shot, regions: list[tuple]) -> tuple[str, bytes] | None:
    """(extension, bytes) of a view's picture for the report: the screenshot where a crop shows it, blank elsewhere,
    in WebP (lossy, fine for reading text); None when the screenshot cannot be read."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(shot.data)) as image:
            image.load()
            page = Image.new("RGB", image.size, "white")
            source = image.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return None
    for x0, y0, x1, y1 in regions:
        box = (max(0, x0), max(0, y0), min(page.width, x1), min(page.height, y1))
        if box[0] < box[2] and box[1] < box[3]:
            page.paste(source.crop(box), box[:2])
    out = io.BytesIO()
    if max(page.size) > WEBP_MAX:
        page.save(out, format="PNG", optimize=True)
        return "png", out.getvalue()
    page.save(out, format="WEBP", quality=80, method=4)
    return "webp", out.getvalue()


def pictures(rows: list[dict], places: dict[str, dict], shots: dict[tuple, Shot]) -> dict[tuple, tuple[str, bytes]]:
    """(view id, viewport, N) -> (file name in report-files/, bytes) for every picture a crop shows."""
    regions = _regions(rows, places, shots)
    with ThreadPoolExecutor(2) as pool:  # Pillow decodes and encodes outside the interpreter's lock
        made = dict(zip(regions, pool.map(lambda v: _picture(shots[v], regions[v]), regions)))
    names = view_names(shots)
    return {v: (f"{names[v]}.{p[0]}", p[1]) for v, p in made.items() if p is not None}


STYLE = """
body{font-family:system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff;line-height:1.4}
header,main{max-width:70rem;margin:0 auto;padding:0 1rem}
h1{font-size:1.6rem} h2{font-size:1.3rem;margin-top:2rem} h3{font-size:1.05rem;margin:0 0 .4rem}
table{border-collapse:collapse} th,td{border:1px solid #bbb;padding:.2rem .5rem;text-align:left}
.filters{display:flex;flex-wrap:wrap;gap:1rem;align-items:end;padding:.8rem 0}
.filters label{display:flex;flex-direction:column;font-weight:600}
select{font:inherit;padding:.2rem}
.row{border:1px solid #999;border-radius:4px;padding:.8rem;margin:.8rem 0}
.row[hidden]{display:none}
.status{display:inline-block;padding:0 .4rem;border-radius:3px;font-weight:600}
.st-RATIFIED{background:#c6efce;color:#0b4f1e} .st-DRAFT_NOT_RATIFIED{background:#ffeb9c;color:#5b4200}
.crop{position:relative;overflow:hidden;border:1px solid #666;background-repeat:no-repeat;max-width:100%}
.outline{position:absolute;outline:3px solid #c00000;outline-offset:2px}
.nocrop{font-style:italic} .found{white-space:pre-line} .whole{margin:.2rem 0 0;font-size:.9rem}
summary{cursor:pointer;font-weight:600;margin:.4rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.5rem 0}
dt{font-weight:600} dd{margin:0}
progress{width:16rem;height:1rem}
a{color:#0b57a4}
"""

SCRIPT = """
(() => {
  const form = document.getElementById('filters');
  const rows = Array.from(document.querySelectorAll('.row'));
  const count = document.getElementById('shown');
  const keys = ['status', 'type', 'flag', 'product', 'family', 'draft', 'look', 'q'];
  const has = (list, value) => (list || '').split(' ').includes(value);
  const wanted = () => Object.fromEntries(keys.map((k) => [k, form.elements[k].value.trim()]));
  const show = (want) => {
    const words = want.q.toLowerCase();
    let shown = 0;
    for (const row of rows) {
      const d = row.dataset;
      const ok = (!want.status || d.status === want.status) && (!want.type || d.type === want.type)
        && (!want.product || d.product === want.product) && (!want.flag || has(d.flags, want.flag))
        && (!want.family || has(d.families, want.family)) && (!want.draft || d.draft === want.draft)
        && (!want.look || d.look === 'yes') && (!words || row.textContent.toLowerCase().includes(words));
      row.hidden = !ok;
      if (ok) shown += 1;
    }
    count.textContent = `${shown} of ${rows.length} rows shown`;
  };
  const url = (want) => {
    const params = new URLSearchParams();
    for (const k of keys) if (want[k]) params.set(k, want[k]);
    const query = params.toString();
    return (query ? `?${query}` : location.pathname) + location.hash;
  };
  const read = () => {  // the filters the URL names (a shared link, the back button)
    const params = new URLSearchParams(location.search);
    for (const k of keys) {
      const el = form.elements[k];
      const value = params.get(k) || '';
      el.value = el.tagName === 'SELECT' && !Array.from(el.options).some((o) => o.value === value) ? '' : value;
    }
    show(wanted());
  };
  const reveal = () => {  // a fragment naming a row: shown (whatever the filters) and scrolled to
    let id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { /* a malformed escape: the fragment as it is */ }
    const row = id && document.getElementById(id);
    if (row && row.classList.contains('row')) { row.hidden = false; row.scrollIntoView(); }
  };
  form.addEventListener('change', () => { history.pushState(null, '', url(wanted())); show(wanted()); });
  form.addEventListener('input', (e) => {
    if (e.target.name === 'q') { history.replaceState(null, '', url(wanted())); show(wanted()); }
  });
  form.addEventListener('submit', (e) => e.preventDefault());
  window.addEventListener('popstate', () => { read(); reveal(); });
  window.addEventListener('hashchange', reveal);
  window.addEventListener('load', reveal, { once: true });  // again once the pictures are in: nothing moves it after
  read();
  reveal();
})();
"""


RECORDING = """<section aria-labelledby="s-record"><h2 id="s-record">How to record decisions</h2>
<p>This page is for reading; decisions go into the folder's ledger (<code>ratifications.jsonl</code>) by command, each
signed by a named person, then this report is written again:</p>
<ol>
<li>Decision by decision: <code>jfi audit review export --inventory {folder} --out review</code> writes
<code>review/review-tasks.xlsx</code>, one task per decision (a family's answer is each of its rows'); fill its
<code>decision</code> column (yes, no or unsure: an unsure settles nothing; a blank task stays pending) and return it with
<code>jfi audit review apply --inventory {folder} --bundle review --responses review/review-tasks.xlsx</code>.</li>
<li>A whole worklist family or fact class at once: <code>jfi audit rule --inventory {folder} --family FAM-… --ruling R-1
--sentence "…" --by "Your Name" --judgment no</code>.</li>
<li>Then <code>jfi audit merge --inventory {folder}</code> and <code>jfi audit report --inventory {folder}</code>.</li>
</ol></section>"""


def _worklist(families: list[dict], looks: list[dict], facts: list[dict]) -> str:
    """The worklist collapsed to its counts; each family and fact class a link that filters the rows to it."""
    if not (families or looks or facts):
        return "<p>Nothing open.</p>"
    parts = []
    if families:
        rows = sum(f["units"] for f in families)
        parts.append(
            f"<details><summary>{len(families)} family decision(s) covering {rows} row(s)</summary>"
            "<table><caption>One answer settles every row of a family</caption><thead><tr>"
            '<th scope="col">family</th><th scope="col">rows</th><th scope="col">type</th>'
            '<th scope="col">its one question</th><th scope="col">what they share</th></tr></thead><tbody>'
            + "".join(
                f'<tr><td><a href="?family={esc(f["family_id"])}#s-rows">{esc(f["family_id"])}</a></td>'
                f"<td>{f['units']}</td><td>{esc(f['type'])}</td><td>{esc(f.get('question') or '')}</td>"
                f"<td>{esc(f['shows'])} ({esc(f['kind'])} <code>{esc(f['key'])}</code>)</td></tr>"
                for f in families
            )
            + "</tbody></table></details>"
        )
    if looks:
        parts.append(
            f"<details><summary>{len(looks)} row(s) that need a look</summary>"
            f'<p><a href="?look=yes#s-rows">Show only these rows</a></p><ul>'
            + "".join(
                f'<li><a href="#{esc(r["id"])}">{esc(r["id"])}</a> ({esc(r["reason"])}): {esc(r["name"])}</li>'
                for r in looks
            )
            + "</ul></details>"
        )
    if facts:
        parts.append(
            f"<details><summary>{len(facts)} fact class(es) to sign once</summary><ul>"
            + "".join(
                f'<li><a href="?flag={esc(f["fact_class"])}#s-rows">{esc(f["fact_class"])}</a>: {f["units"]} row(s), '
                f"{esc(f['meaning'])}</li>"
                for f in facts
            )
            + "</ul></details>"
        )
    return "".join(parts)


def _ratification(r: dict) -> str:
    """The ratification in force (who, what, when, the note and the ruling or decision id), or why a ledger record
    is not in force."""
    state = r["ratification_state"]
    if not state:
        return "none: nobody has decided this row"
    if state != "RATIFIED":
        why = (r["ratification_diagnostic"] or "the record is incomplete").replace(
            "draft: missing ", "the record lacks "
        )
        return f"{esc(state)}, not in force: {esc(why)}"
    out = f"RATIFIED by {esc(r['ratified_by'])}: {esc(r['ratified_judgment'])}, {esc(r['ratified_utc'])}"
    out += f"; ruling {esc(r['ruling'])}" if r["ruling"] else f"; decision {esc(r['ratification_decision_id'])}"
    out += f". Note: {esc(r['ratifier_note'])}" if r["ratifier_note"] else ""
    return out + (f". Fix asked: {esc(r['ratified_fix'])}" if r.get("ratified_fix") else "")


def _select(name: str, label: str, values: list[str]) -> str:
    options = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
    return (
        f'<label for="f-{name}">{esc(label)}<select id="f-{name}" name="{name}"><option value="">all</option>'
        f"{options}</select></label>"
    )


def view_names(shots: dict) -> dict[tuple, str]:
    """(view id, viewport, N) -> a name for its CSS class and its file in report-files/."""
    return {
        v: re.sub(r"[^a-zA-Z0-9_-]", "_", "-".join(str(p) for p in v if p))[:80] + f"-{k}"
        for k, v in enumerate(sorted(shots, key=lambda v: (v[0], v[1] or "", v[2])))
    }


def render(
    rows: list[dict],
    places: dict[str, dict],
    units: dict[str, dict],
    meanings: dict[str, dict],
    worklist: tuple,
    shots: dict[tuple, Shot],
    files: dict[tuple, str],
    summary: dict,
) -> str:
    """report.html's text; `files` names each view's picture in report-files/ (a view without one has no crops)."""
    shots = {v: s for v, s in shots.items() if v in files}
    names = view_names(shots)
    shot_css = "".join(f'.shot-{names[v]}{{background-image:url("{FILES}/{files[v]}")}}\n' for v in names)

    def question(r: dict) -> str:
        return summary.get("questions", {}).get(r["type"], "").replace("{name}", r["name"] or "(no name)")

    def flag_item(flag: str) -> str:
        """A flag with its meaning, its WCAG criteria and ACT rule, and its help page."""
        r = meanings.get(flag, {})
        where = ", ".join(
            [f"WCAG {sc}" for sc in r.get("sc") or []] + ([f"ACT {r['act_rule']}"] if r.get("act_rule") else [])
        )
        link = (
            f' <a href="{esc(r["help_url"])}">Understanding {esc((r.get("sc") or [""])[0])}</a>'
            if r.get("help_url")
            else ""
        )
        return (
            f"<li><code>{esc(flag)}</code>: {esc(r.get('meaning', ''))}"
            + (f" ({esc(where)}){link}" if where else "")
            + "</li>"
        )

    families, looks, facts, _, _ = worklist
    ratified = sum(1 for r in rows if r["status"] == "RATIFIED")
    by_type: dict[str, dict[str, int]] = {}
    for r in rows:
        t = by_type.setdefault(r["type"], {"rows": 0, "flagged": 0, "ratified": 0})
        t["rows"] += 1
        t["flagged"] += r["id"] in summary["decisive"]
        t["ratified"] += r["status"] == "RATIFIED"
    flags_all = sorted({f for r in rows for f in r["flags"]})
    out = [
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta name="jfi-inputs" content="{esc(summary["inputs"])}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Content-judgment report — {esc(summary['folder'])}</title>",
        f"<style>{STYLE}{shot_css}</style>",
        "</head>",
        "<body>",
        "<header>",
        "<h1>Content-judgment report</h1>",
        f"<p>{esc(summary['folder'])}: {summary['views']} view(s), {len(rows)} row(s). Drafts are never verdicts: "
        "a row counts only once a named person ratifies it.</p>",
        "</header>",
        "<main>",
        '<section aria-labelledby="s-summary">',
        '<h2 id="s-summary">Summary</h2>',
        f'<p><label for="progress">Ratified: {ratified} of {len(rows)} rows</label> '
        f'<progress id="progress" max="{max(len(rows), 1)}" value="{ratified}">{ratified} of {len(rows)}</progress></p>',
        f"<p><strong>{summary['decisions'][0]} decision(s) settle {summary['decisions'][1]} row(s)</strong> not yet "
        "ratified (see the worklist: a family or a fact class is one answer for many rows).</p>",
        _sampled(summary),
        "<table><caption>Rows, flagged rows (a flag that is not informational) and ratified rows by type</caption>",
        '<thead><tr><th scope="col">type</th><th scope="col">rows</th><th scope="col">flagged</th>'
        '<th scope="col">ratified</th></tr></thead><tbody>',
    ]
    out += [
        f'<tr><th scope="row">{esc(t)}</th><td>{v["rows"]}</td><td>{v["flagged"]}</td><td>{v["ratified"]}</td></tr>'
        for t, v in sorted(by_type.items())
    ]
    out += [
        "</tbody></table>",
        "</section>",
        RECORDING.format(folder=esc(summary["inventory"])),
        '<section aria-labelledby="s-worklist">',
        '<h2 id="s-worklist">Worklist</h2>',
    ]
    out.append(_worklist(families, looks, facts))
    nav = summary.get("nav", [])
    broken = [n for n in nav if n.get("order_consistent") is False]
    out += [
        "</section>",
        '<section aria-labelledby="s-nav">',
        '<h2 id="s-nav">Navigation order (WCAG 3.2.3)</h2>',
        (
            f"<p>{len(broken)} view(s) change the relative order of the navigation their product shares:</p><ul>"
            + "".join(
                f"<li>{esc(n['product'])}, view {esc(n['view_id'])}: {esc(n['first_order_violation'])} "
                f"({esc(n['note'])})</li>"
                for n in broken
            )
            + "</ul>"
        )
        if broken
        else f"<p>No view changes the order of the shared navigation ({len(nav)} view(s) checked).</p>",
    ]
    out += [
        "</section>",
        '<section aria-labelledby="s-rows">',
        '<h2 id="s-rows">Rows</h2>',
        '<form id="filters" class="filters" aria-label="Filter the rows">',
        _select("status", "Status", sorted({r["status"] for r in rows})),
        _select("type", "Type", sorted({r["type"] for r in rows})),
        _select("flag", "Flag", flags_all),
        _select("product", "Product", sorted({r["product"] for r in rows})),
        _select("family", "Family", [f["family_id"] for f in families]),
        _select("draft", "Draft judgment", sorted({r["session_draft_judgment"] or "not judged" for r in rows})),
        _select("look", "Needs a look", ["yes"]),
        '<label for="f-q">Search<input id="f-q" name="q" type="search"></label>',
        "</form>",
        '<p id="shown" role="status" aria-live="polite"></p>',
    ]
    family_of: dict[str, list[str]] = {}
    for f in families:
        for uid in f["unit_ids"]:
            family_of.setdefault(uid, []).append(f["family_id"])
    look_ids = {r["id"] for r in looks}
    for r in rows:
        unit = units.get(r["id"], {})
        facts_list = "".join(flag_item(f) for f in r["flags"])
        source = unit.get("name_source") or ""
        role = unit.get("role") or ""
        out += [
            f'<article class="row" id="{esc(r["id"])}" aria-labelledby="h-{esc(r["id"])}" data-status="{esc(r["status"])}" '
            f'data-type="{esc(r["type"])}" data-product="{esc(r["product"])}" data-flags="{esc(" ".join(r["flags"]))}" '
            f'data-families="{esc(" ".join(family_of.get(r["id"], [])))}" '
            f'data-draft="{esc(r["session_draft_judgment"] or "not judged")}" '
            f'data-look="{"yes" if r["id"] in look_ids else "no"}">',
            f'<h3 id="h-{esc(r["id"])}">{esc(r["type"])}: {esc(r["name"] or "(no name)")}</h3>',
            f'<p class="question">{esc(question(r))}</p>',
            f'<p><span class="status st-{esc(r["status"])}">{esc(r["status"])}</span> {esc(r["id"])}, WCAG {esc(r["sc"])}</p>',
            _crop(r, places.get(r["id"]), shots, names, role),
            *(
                [
                    f"<details><summary>More of this component ({len(_examples(r['id'], places))} other view(s))</summary>"
                    + "".join(_crop(r, places[k], shots, names, role) for k in _examples(r["id"], places))
                    + "</details>"
                ]
                if r["type"] == "finding" and _examples(r["id"], places)
                else []
            ),
            "<dl>",
            f"<dt>Name source</dt><dd>{esc(source or '-')}</dd>",
            f"<dt>Role</dt><dd>{esc(role or '-')}</dd>",
            f"<dt>Detail</dt><dd>{esc(r['detail'] or '-')}</dd>",
            (
                f"<dt>Destination</dt><dd>{esc(r['href'] or '-')}</dd><dt>Context</dt><dd>{esc(r['context'] or '-')}</dd>"
                if r["type"] in ("link", "image", "field", "heading")
                else ""
            ),
            (
                f"<dt>Element</dt><dd><code>{esc(r['selector'])}</code></dd><dt>What axe-core found</dt>"
                f'<dd class="found">{esc(r["context"] or "-")}</dd><dt>Rule</dt><dd>'
                + (
                    f'<a href="{esc(web_url(r["href"]))}">axe-core\'s help for this rule</a>'
                    if web_url(r["href"])
                    else f"axe-core's help for this rule: {esc(r['href'] or '-')} (not a web address; not a link)"
                )
                + "</dd>"
                if r["type"] == "finding"
                else ""
            ),
            f"<dt>Views</dt><dd>{esc(r['views'] if isinstance(r['views'], str) else ', '.join(r['views']))}</dd>",
            f"<dt>Draft</dt><dd>{esc(r['session_draft_judgment'] or 'not judged')}"
            + (f": {esc(r['rationale'])}" if r["rationale"] else "")
            + "</dd>",
            f"<dt>Ratification</dt><dd>{_ratification(r)}</dd>",
            "</dl>",
            (f"<h4>Flags</h4><ul>{facts_list}</ul>" if facts_list else "<p>No flags.</p>"),
            "</article>",
        ]
    out += [
        "</section>",
        "</main>",
        f"<footer><p>jfi {esc(__version__)}, rulebook {esc(summary['rulebook'][:12])}</p></footer>",
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(out) + "\n"


EXAMPLE = "~example-"  # a finding's further crops are keyed by its id and this


def _examples(uid: str, places: dict) -> list[str]:
    """The keys of a finding row's further examples among the places (audit_finding_examples)."""
    return [k for k in (f"{uid}{EXAMPLE}1", f"{uid}{EXAMPLE}2") if k in places]


def _sampled(summary: dict) -> str:
    """What the capture did not read: the views folded into others (one page, one view) and the caps hit."""
    folded, caps = summary.get("folded") or [], summary.get("caps_hit") or []
    if not folded and not caps:
        return "<p>Every view is a page of its own, and no view reached a capture cap.</p>"
    out = []
    if folded:
        out.append(
            f"<p>{len(folded)} view(s) are another view's page (a redirect, an alias or a copy) and were counted "
            "once: "
            + ", ".join(f"{esc(v['view_id'])} ({esc(v['url'])}) as {esc(v['folded_into'])}" for v in folded)
            + ".</p>"
        )
    if caps:
        out.append(
            f"<p>{len(caps)} cap(s) were hit: what the page holds beyond them was not read or judged: "
            + "; ".join(
                f"{esc(c['view_id'])} read {c['read'] if c['read'] is not None else 'the cap of'} "
                f"{esc(c['kind'])}" + (f" of {c['total']}" if c["total"] is not None else "")
                for c in caps
            )
            + ".</p>"
        )
    return "".join(out)


def web_url(url) -> str | None:
    """A URL from the capture that may become a link in a page people open: http(s) only (a `javascript:` or
    `data:` address a page planted is shown as text, never made clickable)."""
    if isinstance(url, str) and re.match(r"https?://[^\s]", url.strip(), re.I):
        return url.strip()
    return None


def screenshot(page_path: Path, png: Path, query: str = "") -> None:
    """A picture of the report as a browser shows it (for the README), taken by Chromium."""
    import asyncio

    from playwright.async_api import async_playwright

    from ..browser import launch_options

    async def take():
        async with async_playwright() as p:
            with launch_options(p.chromium) as options:
                browser = await p.chromium.launch(**options)
                try:
                    page = await browser.new_page(viewport={"width": 1100, "height": 1500})
                    await page.goto(page_path.resolve().as_uri() + query)
                    return await page.screenshot()
                finally:
                    await browser.close()

    data = asyncio.run(take())
    png.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(png, data)


@commits
def report(folder: AuditFolder, shot: Path | None = None) -> int:
    folder.require_built(inventory=False)  # the rest when loading
    if shot is not None:  # checked before anything is written
        if Path(shot).suffix.lower() != ".png":
            raise JfiError("not_png", "the report's picture is a PNG file; name one ending in .png", source=str(shot))
        output_file(
            shot,
            reads=[folder],
            kind="PNG picture",
            same_kind=lambda p: p.read_bytes()[: len(PNG_SIGNATURE)] == PNG_SIGNATURE,
        )
    with writer_lock(folder.root):
        store, built, _ = load_folder(folder, inventory=True)
        try:
            rows = store.rows("SELECT * EXCLUDE (sort_ord) FROM audit_draft_rows ORDER BY sort_ord")
            try:
                places = {p["id"]: p for p in store.rows("SELECT * FROM audit_unit_places")}
                for e in store.rows("SELECT * FROM audit_finding_examples ORDER BY id, n"):  # a finding's other copies
                    places[f"{e['id']}{EXAMPLE}{e['n']}"] = {**e, "clipped": False, "scrolled": None, "label_box": None}
            except Exception:  # a folder without its inventory: no crops
                places = {}
            meanings = {
                m.pop("flag"): m
                for m in store.rows(
                    "SELECT DISTINCT ON (x.flag) x.flag, flag_meaning(f.flag, f.meaning, x.flag) AS meaning, m.sc, m.act_rule, "
                    "m.help_url FROM (SELECT DISTINCT unnest(flags) AS flag FROM audit_draft_rows) AS x "
                    "JOIN audit_flag_rules AS f ON regexp_full_match(x.flag, f.pattern) "
                    "JOIN audit_rule_metadata AS m ON m.rule = f.flag ORDER BY x.flag, f.ord"
                )
            }
            questions = dict(store.con.execute("SELECT type, question FROM audit_questions").fetchall())
            decisive = {i for (i,) in store.con.execute("SELECT id FROM audit_decisive_flags").fetchall()}
            worklist = worklist_parts(store)
            decisions = worklist[4]
            summary = {
                "folder": folder.root.resolve().name,
                "inventory": str(folder.root),
                "views": built.get("views_ok"),
                "rulebook": store.rulebook_sha256,
                "questions": questions,
                "nav": built.get("nav_consistency", []),
                "decisive": decisive,
                "decisions": decisions,
                "caps_hit": built.get("caps_hit", []),
                "folded": built.get("views_folded", []),
            }
        finally:
            store.close()
        units = {u["id"]: u for u in built.get("units", []) if isinstance(u, dict)}
        shots = _screenshots(folder)
        made = pictures(
            rows + [{**r, "id": k} for r in rows if r["type"] == "finding" for k in _examples(r["id"], places)],
            places,
            shots,
        )
        summary["inputs"] = report_inputs(folder.root)
        text = render(
            rows, places, units, meanings, worklist, shots, {v: name for v, (name, _) in made.items()}, summary
        )
        pictures_dir = folder.root / FILES
        with AtomicFiles() as files:
            files.write(folder.root / "report.html", text)
            for name, data in made.values():
                files.write(pictures_dir / name, data)
            if own_folder(pictures_dir):  # pictures of an earlier report that this one does not show
                kept = {name for name, _ in made.values()}
                for old in pictures_dir.iterdir():
                    if old.name not in kept and old.suffix in (".webp", ".png") and regular_file(old):
                        files.remove(old)
    path = folder.root / "report.html"
    if shot is not None:
        screenshot(path, shot)
        say(f"{shot}: a picture of the report")
    say(f"{path}: {len(rows)} row(s); open it in a browser (it needs no server)")
    return 0
