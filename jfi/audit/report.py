"""`jfi audit report`: one self-contained report.html to look at (no server, no network): a summary, the worklist,
then every row with a crop of its view's screenshot around the element, outlined, and what jfi knows about it.
Filters by status, type, flag and product keep their choice in the URL."""
from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

from ..version import __version__
from ..jsonl import AtomicFiles, writer_lock
from ..paths import inside, png_bytes, regular_file
from ..manifest import SHOT_MAX_HEIGHT
from ..output import say
from .folder import AuditFolder, load_folder
from .kept import commits
from .worklist import worklist_parts

CROP_W, CROP_H, PAD = 480, 180, 24  # the crop window, and the margin kept around the element


def esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _screenshots(folder: AuditFolder) -> dict[str, bytes]:
    """view id -> its screenshot's bytes, from the inventory's view records. A screenshot must be a PNG image inside
    screenshots/ (no absolute path, no .., no symlink): anything else is refused, never embedded."""
    out = {}
    source = folder.inventory_jsonl if regular_file(folder.inventory_jsonl) else None
    if source is None:
        return out
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("screenshot") and rec.get("view_id"):
            path = inside(folder.root, rec["screenshot"], under="screenshots", source=str(source), line=number,
                          field="screenshot")
            data = png_bytes(path, source=str(source), line=number)
            if data is not None:
                out[rec["view_id"]] = data
    return out


def _png_width(data: bytes) -> int:
    """The width of a PNG image, from its header (the screenshot's width in CSS pixels)."""
    return int.from_bytes(data[16:20], "big")


def _union(a: dict, b: dict | None) -> dict:
    if not b or b["width"] <= 0 or b["height"] <= 0:
        return a
    x0, y0 = min(a["x"], b["x"]), min(a["y"], b["y"])
    x1, y1 = max(a["x"] + a["width"], b["x"] + b["width"]), max(a["y"] + a["height"], b["y"] + b["height"])
    return {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}


def _crop(row: dict, place: dict | None, shots: dict[str, bytes], view_names: dict[str, str], role: str = "") -> str:
    """A window on the view's screenshot around the element, the element outlined (a field with its label in the
    window; something larger than the window scaled down to fit); or why there is none."""
    if not place or not place.get("box") or place["view_id"] not in shots:
        return '<p class="nocrop">No crop: the capture has no screenshot or no position for this element.</p>'
    box = place["box"]
    if row["type"] != "title" and (box["width"] <= 0 or box["height"] <= 0):
        return '<p class="nocrop">No crop: the element is not drawn (hidden or of zero size).</p>'
    if box["y"] >= SHOT_MAX_HEIGHT:
        return f'<p class="nocrop">No crop: the element is {box["y"]} px down the page, below the screenshot.</p>'
    if box["y"] + box["height"] <= 0 or box["x"] + box["width"] <= 0:
        return ('<p class="nocrop">No crop: the element lies outside the page as drawn (scrolled out of view inside '
                'its container).</p>')
    shown = _union(box, place.get("label_box")) if row["type"] == "field" else box
    scale = 1.0 if row["type"] == "title" else min(1.0, CROP_W / (shown["width"] + 2 * PAD),
                                                     CROP_H / (shown["height"] + 2 * PAD))
    left = max(0, round(shown["x"] * scale) - PAD)
    top = 0 if row["type"] == "title" else \
        max(0, round((shown["y"] + shown["height"] / 2) * scale) - CROP_H // 2)  # the element mid-height
    outline = "" if row["type"] == "title" else (
        f'<span class="outline" style="left:{round(box["x"] * scale) - left}px;top:{round(box["y"] * scale) - top}px;'
        f'width:{round(box["width"] * scale)}px;height:{round(box["height"] * scale)}px"></span>')
    what = f'{role or row["type"]} "{row["name"]}"' if row["name"] else f'{role or row["type"]} with no name'
    label = (f"Screenshot of view {place['view_id']}" + ("" if row["type"] == "title" else
             f" around the {what}, outlined" + (f" (scaled to {scale:.0%})" if scale < 1 else "")))
    size = "" if scale == 1 else f";background-size:{round(_png_width(shots[place['view_id']]) * scale)}px auto"
    return (f'<div class="crop shot-{view_names[place["view_id"]]}" role="img" aria-label="{esc(label)}" '
            f'style="width:{CROP_W}px;height:{CROP_H}px;background-position:-{left}px -{top}px{size}">{outline}</div>')


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
.nocrop{font-style:italic}
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
    const row = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (row && row.classList.contains('row')) { row.hidden = false; row.scrollIntoView(); }
  };
  form.addEventListener('change', () => { history.pushState(null, '', url(wanted())); show(wanted()); });
  form.addEventListener('input', (e) => { if (e.target.name === 'q') { history.replaceState(null, '', url(wanted())); show(wanted()); } });
  form.addEventListener('submit', (e) => e.preventDefault());
  window.addEventListener('popstate', () => { read(); reveal(); });
  window.addEventListener('hashchange', reveal);
  read();
  reveal();
})();
"""


def _select(name: str, label: str, values: list[str]) -> str:
    options = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
    return (f'<label for="f-{name}">{esc(label)}<select id="f-{name}" name="{name}"><option value="">all</option>'
            f'{options}</select></label>')


def render(rows: list[dict], places: dict[str, dict], units: dict[str, dict], meanings: list[tuple[str, str, str]],
           worklist: tuple, shots: dict[str, bytes], summary: dict) -> str:
    view_names = {v: re.sub(r"[^a-zA-Z0-9_-]", "_", v) + f"-{k}" for k, v in enumerate(sorted(shots))}
    shot_css = "".join(f'.shot-{view_names[v]}{{background-image:url("data:image/png;base64,'
                       f'{base64.b64encode(p).decode()}")}}\n' for v, p in sorted(shots.items()))

    def question(r: dict) -> str:
        return summary.get("questions", {}).get(r["type"], "").replace("{name}", r["name"] or "(no name)")

    def meaning(flag: str) -> str:
        return next((m for pattern, _, m in meanings if re.match(pattern, flag)), "")
    families, looks, facts, _ = worklist
    ratified = sum(1 for r in rows if r["status"] == "RATIFIED")
    by_type: dict[str, dict[str, int]] = {}
    for r in rows:
        t = by_type.setdefault(r["type"], {"rows": 0, "flagged": 0, "ratified": 0})
        t["rows"] += 1
        t["flagged"] += bool(r["flags"])
        t["ratified"] += r["status"] == "RATIFIED"
    flags_all = sorted({f for r in rows for f in r["flags"]})
    out = ['<!doctype html>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f'<title>Content-judgment report — {esc(summary["folder"])}</title>',
           f'<style>{STYLE}{shot_css}</style>', '</head>', '<body>',
           '<header>', '<h1>Content-judgment report</h1>',
           f'<p>{esc(summary["folder"])}: {summary["views"]} view(s), {len(rows)} row(s). Drafts are never verdicts: '
           'a row counts only once a named person ratifies it.</p>', '</header>', '<main>',
           '<section aria-labelledby="s-summary">', '<h2 id="s-summary">Summary</h2>',
           f'<p><label for="progress">Ratified: {ratified} of {len(rows)} rows</label> '
           f'<progress id="progress" max="{max(len(rows), 1)}" value="{ratified}">{ratified} of {len(rows)}</progress></p>',
           '<table><caption>Rows, flagged rows and ratified rows by type</caption>',
           '<thead><tr><th scope="col">type</th><th scope="col">rows</th><th scope="col">flagged</th>'
           '<th scope="col">ratified</th></tr></thead><tbody>']
    out += [f'<tr><th scope="row">{esc(t)}</th><td>{v["rows"]}</td><td>{v["flagged"]}</td><td>{v["ratified"]}</td></tr>'
            for t, v in sorted(by_type.items())]
    out += ['</tbody></table>', '</section>',
            '<section aria-labelledby="s-worklist">', '<h2 id="s-worklist">Worklist</h2>']
    out.append("<ul>" + "".join(
        f'<li><a href="?family={esc(f["family_id"])}#s-rows">{esc(f["family_id"])}</a>: {f["units"]} {esc(f["type"])} '
        f'rows, {esc(f["shows"])} (they share {esc(f["kind"])} <code>{esc(f["key"])}</code>)</li>' for f in families)
        + "".join(f'<li><a href="#{esc(r["id"])}">{esc(r["id"])}</a> needs a look ({esc(r["reason"])}): {esc(r["name"])}</li>'
                  for r in looks)
        + "".join(f'<li>Fact class <strong>{esc(f["fact_class"])}</strong>: {f["units"]} row(s), {esc(f["meaning"])}</li>'
                  for f in facts) + "</ul>" if (families or looks or facts) else "<p>Nothing open.</p>")
    nav = summary.get("nav", [])
    broken = [n for n in nav if n.get("order_consistent") is False]
    out += ['</section>', '<section aria-labelledby="s-nav">', '<h2 id="s-nav">Navigation order (WCAG 3.2.3)</h2>',
            (f'<p>{len(broken)} view(s) change the relative order of the navigation their product shares:</p><ul>'
             + "".join(f'<li>{esc(n["product"])}, view {esc(n["view_id"])}: {esc(n["first_order_violation"])} '
                       f'({esc(n["note"])})</li>' for n in broken) + '</ul>') if broken else
            f'<p>No view changes the order of the shared navigation ({len(nav)} view(s) checked).</p>']
    out += ['</section>', '<section aria-labelledby="s-rows">', '<h2 id="s-rows">Rows</h2>',
            '<form id="filters" class="filters" aria-label="Filter the rows">',
            _select("status", "Status", sorted({r["status"] for r in rows})),
            _select("type", "Type", sorted({r["type"] for r in rows})),
            _select("flag", "Flag", flags_all),
            _select("product", "Product", sorted({r["product"] for r in rows})),
            _select("family", "Family", [f["family_id"] for f in families]),
            _select("draft", "Draft judgment", sorted({r["session_draft_judgment"] or "not judged" for r in rows})),
            _select("look", "Needs a look", ["yes"]),
            '<label for="f-q">Search<input id="f-q" name="q" type="search"></label>',
            '</form>', '<p id="shown" role="status" aria-live="polite"></p>']
    family_of: dict[str, list[str]] = {}
    for f in families:
        for uid in f["unit_ids"]:
            family_of.setdefault(uid, []).append(f["family_id"])
    look_ids = {r["id"] for r in looks}
    for r in rows:
        unit = units.get(r["id"], {})
        facts_list = "".join(f'<li><code>{esc(f)}</code>: {esc(meaning(f))}</li>' for f in r["flags"])
        source = unit.get("name_source") or ""
        role = unit.get("role") or ""
        out += [f'<article class="row" id="{esc(r["id"])}" aria-labelledby="h-{esc(r["id"])}" data-status="{esc(r["status"])}" '
                f'data-type="{esc(r["type"])}" data-product="{esc(r["product"])}" data-flags="{esc(" ".join(r["flags"]))}" '
                f'data-families="{esc(" ".join(family_of.get(r["id"], [])))}" '
                f'data-draft="{esc(r["session_draft_judgment"] or "not judged")}" '
                f'data-look="{"yes" if r["id"] in look_ids else "no"}">',
                f'<h3 id="h-{esc(r["id"])}">{esc(r["type"])}: {esc(r["name"] or "(no name)")}</h3>',
                f'<p class="question">{esc(question(r))}</p>',
                f'<p><span class="status st-{esc(r["status"])}">{esc(r["status"])}</span> {esc(r["id"])}, WCAG {esc(r["sc"])}</p>',
                _crop(r, places.get(r["id"]), shots, view_names, role),
                '<dl>',
                f'<dt>Name source</dt><dd>{esc(source or "-")}</dd>', f'<dt>Role</dt><dd>{esc(role or "-")}</dd>',
                f'<dt>Detail</dt><dd>{esc(r["detail"] or "-")}</dd>',
                f'<dt>Views</dt><dd>{esc(r["views"] if isinstance(r["views"], str) else ", ".join(r["views"]))}</dd>',
                f'<dt>Draft</dt><dd>{esc(r["session_draft_judgment"] or "not judged")}'
                + (f': {esc(r["rationale"])}' if r["rationale"] else "") + '</dd>',
                f'<dt>Ratification</dt><dd>{esc(r["ratification_state"] or "none")}'
                + (f' by {esc(r["ratified_by"])}: {esc(r["ratified_judgment"])}' if r["ratified_by"] else "") + '</dd>',
                '</dl>',
                (f'<h4>Flags</h4><ul>{facts_list}</ul>' if facts_list else '<p>No flags.</p>'),
                '</article>']
    out += ['</section>', '</main>', f'<footer><p>jfi {esc(__version__)}, rulebook {esc(summary["rulebook"][:12])}</p></footer>',
            f'<script>{SCRIPT}</script>', '</body>', '</html>']
    return "\n".join(out) + "\n"


def screenshot(page_path: Path, png: Path, query: str = "") -> None:
    """A picture of the report as a browser shows it (for the README), taken by Chromium."""
    import asyncio
    from playwright.async_api import async_playwright
    from ..browser import launch_options

    async def take():
        async with async_playwright() as p:
            browser = await p.chromium.launch(**launch_options())
            try:
                page = await browser.new_page(viewport={"width": 1100, "height": 1500})
                await page.goto(page_path.resolve().as_uri() + query)
                await page.screenshot(path=str(png))
            finally:
                await browser.close()
    png.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(take())


@commits
def report(folder: AuditFolder, shot: Path | None = None) -> int:
    folder.require_built()
    with writer_lock(folder.root):
        store, built, _ = load_folder(folder, inventory=True)
        try:
            rows = store.rows("SELECT * EXCLUDE (sort_ord) FROM audit_draft_rows ORDER BY sort_ord")
            try:
                places = {p["id"]: p for p in store.rows("SELECT * FROM audit_unit_places")}
            except Exception:  # a folder without its inventory: no crops
                places = {}
            meanings = [(p, f, m) for p, f, m in store.con.execute(
                "SELECT pattern, flag, meaning FROM audit_flag_rules ORDER BY ord").fetchall()]
            questions = dict(store.con.execute("SELECT type, question FROM audit_questions").fetchall())
            worklist = worklist_parts(store)
            summary = {"folder": folder.root.name, "views": built.get("views_ok"), "rulebook": store.rulebook_sha256,
                       "questions": questions, "nav": built.get("nav_consistency", [])}
        finally:
            store.close()
        units = {u["id"]: u for u in built.get("units", []) if isinstance(u, dict)}
        text = render(rows, places, units, meanings, worklist, _screenshots(folder), summary)
        with AtomicFiles() as files:
            files.write(folder.root / "report.html", text)
    path = folder.root / "report.html"
    if shot is not None:
        screenshot(path, shot)
        say(f"{shot}: a picture of the report")
    say(f"{path}: {len(rows)} row(s); open it in a browser (it needs no server)")
    return 0
