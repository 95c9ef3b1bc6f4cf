// In-page spatial measurement of bound regions: for each binding, the element its selector matches
// (exactly one, or no reliable correspondence), its box in page CSS pixels, whether its content is
// clipped by overflow, and whether it escapes the page. Read-only.
(bindings) => {
  const out = [];
  for (const b of bindings) {
    let found = [];
    try { found = Array.from(document.querySelectorAll(b.selector)); } catch (e) { found = null; }
    if (found === null || found.length !== 1) {
      out.push({ region: b.region, matches: found === null ? -1 : found.length });
      continue;
    }
    const el = found[0];
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const hides = (v) => v === 'hidden' || v === 'clip';
    const clipped = (hides(style.overflowX) && el.scrollWidth > el.clientWidth + 1) ||
      (hides(style.overflowY) && el.scrollHeight > el.clientHeight + 1) ||
      (style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1);
    const box = { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
    const pageWidth = document.documentElement.clientWidth;
    const escapes = box.x < 0 || box.y < 0 || box.x + box.width > pageWidth + 0.5;
    out.push({ region: b.region, matches: 1, box, clipped, escapes });
  }
  return out;
}
