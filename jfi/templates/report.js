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
