// Elements scrolled out of view inside their containers (a sidebar link below the sidebar's fold), brought into view a
// screenful at a time for the report's crops. Called with {targets: [{selector, box}]} first: each target's box in the
// page as captured is kept. Then with {next: [indexes]}: the first of them is scrolled into view (its containers and
// the window), and every listed target now drawn inside the viewport and inside every clipping container around it
// is returned with its box in viewport pixels (the captured box moved by as much as the element moved). Then with
// {restore: true}: every scroll position changed is put back.
(args) => {
  const key = '__jfiReveal';
  if (args.restore) {
    const state = window[key];
    if (state) for (const [node, top, left] of state.saved) { node.scrollTop = top; node.scrollLeft = left; }
    window.scrollTo(0, 0);
    delete window[key];
    return [];
  }
  const pageRect = (el) => { const r = el.getBoundingClientRect(); return { x: r.left + scrollX, y: r.top + scrollY }; };
  if (args.targets) {
    const els = args.targets.map((t) => { try { return document.querySelector(t.selector); } catch (e) { return null; } });
    window[key] = { els, boxes: args.targets.map((t) => t.box), before: els.map((el) => (el ? pageRect(el) : null)), saved: [], seen: new Set() };
    return [];
  }
  const state = window[key];
  const first = state.els[args.next[0]];
  if (!first) return [];
  for (let n = first.parentElement; n; n = n.parentElement) {
    if (!state.seen.has(n)) { state.seen.add(n); state.saved.push([n, n.scrollTop, n.scrollLeft]); }
  }
  first.scrollIntoView({ block: 'start', inline: 'nearest' });
  const vw = document.documentElement.clientWidth || innerWidth, vh = document.documentElement.clientHeight || innerHeight;
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || r.top < 0 || r.left < 0 || r.bottom > vh || r.right > vw) return null;
    for (let n = el.parentElement; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const c = n.getBoundingClientRect();
      if (r.top < c.top - 1 || r.bottom > c.bottom + 1 || r.left < c.left - 1 || r.right > c.right + 1) return null;
    }
    return r;
  };
  const out = [];
  for (const i of args.next) {
    const el = state.els[i], before = state.before[i], box = state.boxes[i];
    const r = el && before && box && shown(el);
    if (!r) continue;
    // the captured box (a link's may be the image it holds) moved with the element
    const dx = r.left - before.x, dy = r.top - before.y;
    out.push({ i, box: { x: Math.round(box.x + dx), y: Math.round(box.y + dy), width: box.width, height: box.height } });
  }
  return out;
}
