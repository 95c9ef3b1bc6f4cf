// A picture and the boxes in it from one page state. Called with {mark: [selectors]} once, right after the page is
// read: each element's position in the page then (the state its box was measured in) is kept. Then, for each picture,
// with {still: ms}: resolves once the marked elements stop moving (two frames alike, at most ms: a header that
// compacts on scroll, lazy images taking their place), and with {measure: true}: each marked element's position now
// in viewport pixels (the picture's) minus its position when marked, as [dx, dy], or null when it is gone or drawn
// nowhere. Then with {done: true}: the marks dropped.
(args) => {
  const key = '__jfiShoot';
  const at = (el) => {
    if (!el || !el.isConnected) return null;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0 ? [r.left, r.top] : null;
  };
  if (args.mark) {
    const els = args.mark.map((s) => { try { return s ? document.querySelector(s) : null; } catch (e) { return null; } });
    window[key] = { els, before: els.map((el) => { const p = at(el); return p ? [p[0] + scrollX, p[1] + scrollY] : null; }) };
    return null;
  }
  const state = window[key];
  if (args.done) { delete window[key]; return null; }
  if (!state) return null;
  const now = () => state.els.map((el, i) => {
    const p = at(el), b = state.before[i];
    return p && b ? [Math.round(p[0] - b[0]), Math.round(p[1] - b[1])] : null;
  });
  if (args.still) {
    const sample = (xs) => JSON.stringify(xs.filter((_, i) => i % Math.max(1, Math.floor(xs.length / 200)) === 0));
    return new Promise((done) => {
      const end = performance.now() + args.still;
      let last = null;
      const tick = () => {
        const s = sample(now());
        if (s === last || performance.now() > end) { done(null); return; }
        last = s;
        requestAnimationFrame(() => requestAnimationFrame(tick));
      };
      tick();
    });
  }
  return now();
}
