// In-page capture of one view: the text a person receives (title, headings, links, images, form
// fields, navigation). Read-only: nothing is clicked, typed or submitted. Called with the caps.
// Accessible names are a documented DOM approximation, the same order for every kind of element:
// aria-labelledby > aria-label > native (an image's alt, a field's label) > content > title; for
// links and headings with no text, the alt of an image inside is the content ("img-alt").
(caps) => {
  const squash = (s) => (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim();
  // The text of a node, reading at most `limit` characters of its text nodes (a page-sized block is not read whole).
  const TEXT_LIMIT = 4000;
  const textOf = (node, limit = TEXT_LIMIT) => {
    if (!node) return '';
    const walker = (node.ownerDocument || document).createTreeWalker(node, NodeFilter.SHOW_TEXT);
    let out = '';
    while (out.length < limit && walker.nextNode()) out += walker.currentNode.nodeValue;
    return out;
  };
  const cut = (s, n) => {
    const t = squash(s);
    return t.length > n ? `${t.slice(0, n - 1)}\u2026` : t;
  };
  const orNull = (s, n) => cut(s, n) || null;
  const isShown = (el) => {
    const box = el.getBoundingClientRect();
    const style = (el.ownerDocument.defaultView || window).getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  // where an element is drawn, in CSS pixels of the whole page (an element in a frame: of the top page), for crops
  const boxOf = (el) => {
    const r = el.getBoundingClientRect();
    let x = r.left + scrollX;
    let y = r.top + scrollY;
    for (let win = el.ownerDocument.defaultView; win && win !== window && win.frameElement; win = win.parent) {
      const f = win.frameElement.getBoundingClientRect();
      x += f.left;
      y += f.top;
    }
    return { x: Math.round(x), y: Math.round(y), width: Math.round(r.width), height: Math.round(r.height) };
  };
  // what a person looks at for an element: its own box when it holds text; else the union of the boxes of what it
  // holds (an image-only link is its image, not the text line box it sits on), in page pixels like boxOf
  const contentBoxOf = (el) => {
    const own = boxOf(el);
    if (squash(el.textContent)) return own;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const node of Array.from(el.querySelectorAll('*')).slice(0, 200)) {
      for (const r of node.getClientRects()) {
        if (r.width <= 0 || r.height <= 0) continue;
        x0 = Math.min(x0, r.left); y0 = Math.min(y0, r.top); x1 = Math.max(x1, r.right); y1 = Math.max(y1, r.bottom);
      }
    }
    if (x0 === Infinity) return own;
    const r = el.getBoundingClientRect();
    return { x: Math.round(own.x + x0 - r.left), y: Math.round(own.y + y0 - r.top),
      width: Math.round(x1 - x0), height: Math.round(y1 - y0) };
  };
  // scrolled out of view inside a container: the element's box lies outside what a scrolling or clipping ancestor
  // shows (a sidebar link below the sidebar's fold); written only then. Each ancestor's visible rect is read once.
  const clipRects = new Map();
  const clipRectOf = (node) => {
    if (clipRects.has(node)) return clipRects.get(node);
    const s = (node.ownerDocument.defaultView || window).getComputedStyle(node);
    const clips = (s.overflowX !== 'visible' || s.overflowY !== 'visible')
      && (node.scrollHeight > node.clientHeight || node.scrollWidth > node.clientWidth);
    const rect = clips ? node.getBoundingClientRect() : null;
    clipRects.set(node, rect);
    return rect;
  };
  const clipped = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return {};
    let node = el.parentElement || (el.getRootNode().host || null);
    for (let depth = 0; node && depth < 100; depth += 1) {
      const doc = node.ownerDocument;
      if (node === doc.body || node === doc.documentElement) break;
      const c = clipRectOf(node);
      if (c && (r.bottom <= c.top || r.top >= c.bottom || r.right <= c.left || r.left >= c.right)) return { clipped: true };
      node = node.parentElement || (node.getRootNode().host || null);
    }
    return {};
  };
  const underAriaHidden = (el) => el.closest('[aria-hidden="true"]') !== null;
  // not drawn at all (display:none, visibility:hidden, content-visibility, also through an ancestor): written only then
  const undrawn = (el) => (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })
    && (el.ownerDocument.defaultView || window).getComputedStyle(el).display !== 'contents' ? { undrawn: true } : {});
  // ids resolve in the element's own tree: its document, shadow root or frame
  const byId = (id, el) => {
    if (!id) return null;
    const root = el ? el.getRootNode() : document;
    return root.getElementById ? root.getElementById(id) : document.getElementById(id);
  };

  // nth-of-type of every child of a parent, worked out once per parent (a page may put 100,000 links in one list)
  const siblingCache = new Map();
  const siblingIndex = (parent, node) => {
    let info = siblingCache.get(parent);
    if (!info) {
      const index = new Map();
      const count = new Map();
      for (const child of parent.children) {
        const n = (count.get(child.tagName) || 0) + 1;
        count.set(child.tagName, n);
        index.set(child, n);
      }
      info = { index, count };
      siblingCache.set(parent, info);
    }
    return { index: info.index.get(node), count: info.count.get(node.tagName) };
  };
  // A short CSS path: an id ends it; otherwise up to six steps, nth-of-type where a tag repeats.
  const pathOf = (el) => {
    if (el.id) return `#${CSS.escape(el.id)}`;
    const steps = [];
    for (let node = el, depth = 0; node && node.nodeType === 1 && depth < 6; node = node.parentElement, depth++) {
      if (node.id) { steps.unshift(`#${CSS.escape(node.id)}`); break; }
      let step = node.tagName.toLowerCase();
      const parent = node.parentElement;
      if (parent) {
        const { index, count } = siblingIndex(parent, node);
        if (count > 1) step += `:nth-of-type(${index})`;
      }
      steps.unshift(step);
    }
    return steps.join(' > ');
  };

  const LANDMARKS = 'header,nav,main,footer,aside,form,[role=banner],[role=navigation],[role=main],' +
    '[role=contentinfo],[role=dialog],[role=search],[role=complementary]';
  const landmarkOf = (el) => {
    const mark = el.closest(LANDMARKS);
    if (!mark) return null;
    const role = mark.getAttribute('role') || mark.tagName.toLowerCase();
    const ref = mark.getAttribute('aria-labelledby');
    const label = (ref ? squash(byId(ref, mark)?.textContent) : '') || mark.getAttribute('aria-label');
    return label ? `${role}[${cut(label, 40)}]` : role;
  };

  const labelledByText = (el) => {
    const ids = el.getAttribute('aria-labelledby');
    if (!ids) return '';
    return squash(ids.split(/\s+/).map((id) => byId(id, el)).filter(Boolean).map((n) => n.textContent).join(' '));
  };
  const imageAltInside = (el) => {
    const img = el.querySelector('img[alt], svg[aria-label], [role=img][aria-label]');
    return img ? squash(img.getAttribute('alt') || img.getAttribute('aria-label')) : '';
  };
  const nameOf = (el) => {
    const candidates = [
      ['aria-labelledby', () => labelledByText(el)],
      ['aria-label', () => squash(el.getAttribute('aria-label'))],
      ['alt', () => (el.tagName === 'AREA' ? squash(el.getAttribute('alt')) : '')],
      ['content', () => squash(el.textContent)],
      ['img-alt', () => imageAltInside(el)],
      ['title', () => squash(el.getAttribute('title'))],
    ];
    for (const [source, read] of candidates) {
      const name = read();
      if (name) return { name, source };
    }
    return { name: '', source: 'none' };
  };

  // The text a person perceives in a node: never script, style, template or noscript source, nor text that is not
  // drawn (display:none, visibility:hidden, content-visibility) or sits under aria-hidden; at most `limit` characters.
  const UNSEEN = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT']);
  const perceivedTextOf = (node, limit = TEXT_LIMIT) => {
    if (!node) return '';
    const walker = (node.ownerDocument || document).createTreeWalker(node, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => {
        if (n.nodeType === 3) return NodeFilter.FILTER_ACCEPT;
        if (UNSEEN.has(n.tagName) || n.getAttribute('aria-hidden') === 'true') return NodeFilter.FILTER_REJECT;
        if (n.checkVisibility && !n.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })
            && (n.ownerDocument.defaultView || window).getComputedStyle(n).display !== 'contents') {
          return NodeFilter.FILTER_REJECT;
        }
        return NodeFilter.FILTER_SKIP;
      },
    });
    let out = '';
    while (out.length < limit && walker.nextNode()) if (walker.currentNode.nodeType === 3) out += walker.currentNode.nodeValue;
    return out;
  };
  // The text block around an element: the nearest block ancestor (within six steps) that says more
  // than the element itself, as a person perceives it.
  const BLOCKS = 'p,li,td,th,dd,dt,figcaption,h1,h2,h3,h4,h5,h6,blockquote,label,summary,article,section,div';
  const surroundingText = (el, n) => {
    const own = squash(perceivedTextOf(el)).length;
    let node = el.parentElement;
    for (let hops = 0; node && hops < 6; hops++, node = node.parentElement) {
      if (node.matches(BLOCKS)) {
        const text = squash(perceivedTextOf(node));
        if (text.length > own + 3) return cut(text, n);
      }
    }
    return '';
  };
  // What follows a heading: the next sibling with perceivable text (up to four), else the rest of its parent.
  const followingText = (el, n) => {
    let node = el.nextElementSibling;
    for (let hops = 0; node && hops < 4; hops++, node = node.nextElementSibling) {
      const text = squash(perceivedTextOf(node));
      if (text) return cut(text, n);
    }
    if (el.parentElement) {
      const rest = squash(perceivedTextOf(el.parentElement)).replace(squash(perceivedTextOf(el)), '').trim();
      if (rest) return cut(rest, n);
    }
    return '';
  };
  // A same-page link to the heading or section it sits in (or to the heading beside it): a permalink, not a
  // destination a person chooses among others.
  const isPermalink = (el, raw) => {
    if (!raw.startsWith('#') || raw.length < 2) return false;
    let id = raw.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { /* the raw fragment */ }
    const target = byId(id, el);
    if (!target) return false;
    if (target === el || target.contains(el)) return true;
    return /^H[1-6]$/.test(target.tagName) && target.parentElement === el.parentElement;
  };
  // Whether an image question applies (the accessibility rules' applicability); the reason when it does not.
  const PRESENTATIONAL_CHILDREN = new Set(['button', 'checkbox', 'img', 'menuitemcheckbox', 'menuitemradio', 'meter',
    'option', 'progressbar', 'radio', 'scrollbar', 'separator', 'slider', 'switch', 'tab']);
  const IMPLICIT_ROLE = { BUTTON: 'button', OPTION: 'option', PROGRESS: 'progressbar', METER: 'meter', HR: 'separator' };
  const roleOf = (node) => (node.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase()
    || IMPLICIT_ROLE[node.tagName] || (node.tagName === 'INPUT' && ['checkbox', 'radio'].includes(node.type) ? node.type : '');
  const GRAPHICS = new Set(['img', 'image', 'graphics-document', 'graphics-symbol']);
  const notApplicable = (el, tag) => {
    for (let node = el.parentElement; node; node = node.parentElement) {
      const role = roleOf(node);
      if (PRESENTATIONAL_CHILDREN.has(role)) return `inside a ${role === 'img' ? 'role=img element' : role}, whose children are presentational`;
    }
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
    if (tag === 'svg' && !GRAPHICS.has(role)) return 'an svg without an img or graphics role';
    if (tag === 'object' && ['presentation', 'none'].includes(role)) return 'a presentational object';
    if (tag === 'object' && Array.from(el.children).some((c) => c.getClientRects().length > 0)) {
      return 'an object showing its fallback content (the fallback is the image)';
    }
    return null;
  };
  // an element in a frame resolves against its frame's address
  const absolute = (raw, el) => {
    const base = el.ownerDocument === document ? location.href : el.ownerDocument.location.href;
    try { return new URL(raw, base).href; } catch (e) { return raw; }
  };
  const FILE_EXT = /\.(pdf|xlsx?|csv|docx?|pptx?|zip|json|xml|txt|sdf|mol|png|jpe?g|gif|svg|mp4)(?:$|[?#])/i;

  // The captured elements themselves, in step with the lists, for the browser's own accessible names (asked for
  // through the DevTools protocol when caps.with_elements is set; nothing is written into the page).
  const elementsOf = { headings: [], links: [], images: [], fields: [] };
  const mapImages = { links: [], images: [] };  // for each captured link and image: its map's image if an area
  // Elements inside open shadow roots and same-origin frames count too: the document's matches first, then each
  // shadow root's or frame document's, in the order their hosts appear (found once, however many selectors ask).
  // An element inside a frame records the frame: the CSS path of its iframe (frames within frames joined by >>>).
  const innerRoots = [];
  const frameOfDocument = new Map();
  const collectRoots = (root, frame) => {
    for (const host of root.querySelectorAll('*')) {
      if (host.shadowRoot) { innerRoots.push(host.shadowRoot); collectRoots(host.shadowRoot, frame); }
      if (host.tagName === 'IFRAME' || host.tagName === 'FRAME') {
        let doc = null;
        try { doc = host.contentDocument; } catch (e) { doc = null; }  // another origin: not this page's content
        if (doc && doc.documentElement && !frameOfDocument.has(doc)) {
          const path = (frame ? `${frame} >>> ` : '') + pathOf(host);
          frameOfDocument.set(doc, path);
          innerRoots.push(doc);
          collectRoots(doc, path);
        }
      }
    }
  };
  collectRoots(document, null);
  const deepAll = (selector) => {
    const found = Array.from(document.querySelectorAll(selector));
    for (const root of innerRoots) for (const el of root.querySelectorAll(selector)) found.push(el);
    return found;
  };
  // the frame key is written only for an element inside a frame, so a frameless page's records keep their shape
  const inFrame = (el) => {
    const frame = frameOfDocument.get(el.ownerDocument);
    return frame ? { frame } : {};
  };
  // the image an image map's area belongs to (an area is exposed only through a loaded image)
  const mapImageOf = (el) => {
    const map = el.closest('map');
    const name = map && (map.getAttribute('name') || map.id);
    return name ? el.getRootNode().querySelector(`img[usemap="#${CSS.escape(name)}"]`) : null;
  };
  const FIELDS = 'input:not([type=hidden]),select,textarea,[contenteditable=""],[contenteditable=true],' +
    '[role=textbox],[role=searchbox],[role=combobox],[role=listbox],[role=checkbox],[role=radio],[role=switch],' +
    '[role=slider],[role=spinbutton]';
  const headings = [];
  for (const el of deepAll('h1,h2,h3,h4,h5,h6,[role=heading]')) {
    if (headings.length >= caps.headings) break;
    const aria = el.getAttribute('aria-level');
    const level = aria ? Number(aria) : Number(el.tagName[1]) || null;
    const nm = nameOf(el);
    elementsOf.headings.push(el);
    headings.push({
      i: headings.length, level, text: cut(nm.name, 200), name_source: nm.source, selector: pathOf(el),
      visible: isShown(el), aria_hidden: underAriaHidden(el), landmark: landmarkOf(el),
      section_preview: followingText(el, 200), box: boxOf(el), ...inFrame(el), ...undrawn(el), ...clipped(el),
    });
  }

  const links = [];
  let linksTotal = 0;
  for (const el of deepAll('a[href],area[href],[role=link]')) {
    linksTotal++;
    if (links.length >= caps.links) continue;
    const raw = el.getAttribute('href') || '';
    const href = absolute(raw, el);
    const nm = nameOf(el);
    const text = squash(el.textContent);
    const img = el.querySelector('img,svg,[role=img]');
    let external = false;
    try { external = new URL(href).host !== location.host; } catch (e) { external = false; }
    const ext = href.match(FILE_EXT);
    elementsOf.links.push(el);
    mapImages.links.push(el.tagName === 'AREA' ? mapImageOf(el) : null);
    links.push({
      i: links.length, name: cut(nm.name, 160), name_source: nm.source, text: cut(text, 160),
      title: orNull(el.getAttribute('title'), 120), href: cut(href, 240), href_raw: cut(raw, 120),
      same_page: raw.startsWith('#'), external, target: el.getAttribute('target') || null,
      download: el.hasAttribute('download'), file_ext: ext ? ext[1].toLowerCase() : null,
      has_img: img !== null, img_alt: img ? (img.getAttribute('alt') ?? img.getAttribute('aria-label') ?? null) : null,
      icon_only: !text && img !== null, empty_name: !nm.name, visible: isShown(el),
      aria_hidden: underAriaHidden(el), landmark: landmarkOf(el), selector: pathOf(el),
      context: surroundingText(el, 220), box: contentBoxOf(el), ...inFrame(el), ...undrawn(el), ...clipped(el),
      ...(isPermalink(el, raw) ? { permalink: true } : {}),
    });
  }

  const images = [];
  let imagesTotal = 0;
  // a picture is its img; an object of any type is an image until the browser says otherwise
  const IMAGES = 'img,svg,[role=img],input[type=image],area,canvas,object,video';
  for (const el of deepAll(IMAGES)) {
    const tag = el.tagName.toLowerCase();
    // an svg drawn inside another svg is part of that image, not another one
    if (tag === 'svg' && el.parentElement && el.parentElement.closest('svg')) continue;
    imagesTotal++;
    if (images.length >= caps.images) continue;
    const alt = el.hasAttribute('alt') ? el.getAttribute('alt') : null;
    const control = el.closest('a[href],button,[role=button],[role=link]');
    const figure = el.closest('figure');
    const caption = figure ? squash(figure.querySelector('figcaption')?.textContent) : '';
    const box = el.getBoundingClientRect();
    // an object's source is its data; an area's, where it leads (a map's areas share their image's src)
    const src = el.getAttribute('src') || el.getAttribute('data-src') || (tag === 'object' ? el.getAttribute('data') : '')
      || (tag === 'area' ? el.getAttribute('href') : '') || (tag === 'svg' ? '(inline svg)' : '');
    let inControl = null;
    if (control) {
      const ownText = Array.from(control.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join(' ');
      inControl = {
        tag: control.tagName.toLowerCase(), name: cut(nameOf(control).name, 120),
        href: control.getAttribute('href') ? cut(control.getAttribute('href'), 120) : null,
        control_has_text: !!squash(ownText) || !!squash(control.textContent).replace(squash(el.textContent), ''),
      };
    }
    const whyNot = notApplicable(el, tag);
    elementsOf.images.push(el);
    mapImages.images.push(tag === 'area' ? mapImageOf(el) : null);
    images.push({
      i: images.length, tag, src: cut(src.startsWith('data:') ? 'data:\u2026' : src, 160),
      src_basename: cut(src.split('?')[0].split('/').pop() || '', 80),
      alt, alt_present: alt !== null, alt_empty: alt === '', role: el.getAttribute('role') || null,
      aria_label: orNull(el.getAttribute('aria-label'), 160), aria_labelledby_text: orNull(labelledByText(el), 160),
      aria_hidden: el.getAttribute('aria-hidden') === 'true' || underAriaHidden(el),
      title: orNull(el.getAttribute('title'), 120),
      svg_title: tag === 'svg' ? orNull(el.querySelector('title')?.textContent, 120) : null,
      in_control: inControl, figcaption: orNull(caption, 160),
      width: Math.round(box.width), height: Math.round(box.height), visible: isShown(el),
      landmark: landmarkOf(el), selector: pathOf(el), adjacent_text: surroundingText(el, 200), box: boxOf(el), ...inFrame(el), ...undrawn(el), ...clipped(el),
      ...(whyNot ? { not_applicable: whyNot } : {}),
    });
  }

  const fields = [];
  for (const el of deepAll(FIELDS)) {
    if (fields.length >= caps.fields) break;
    const type = el.tagName === 'INPUT' ? (el.getAttribute('type') || 'text').toLowerCase()
      : ['SELECT', 'TEXTAREA'].includes(el.tagName) ? el.tagName.toLowerCase()
        : (el.getAttribute('role') || (el.isContentEditable ? 'contenteditable' : el.tagName.toLowerCase()));
    if (['submit', 'button', 'reset', 'image'].includes(type)) continue;
    const forText = el.id
      ? squash(Array.from(el.getRootNode().querySelectorAll('label')).filter((l) => l.htmlFor === el.id).map((l) => l.textContent).join(' '))
      : '';
    const wrapping = el.closest('label') ? squash(el.closest('label').textContent) : '';
    const labelEl = (el.id ? Array.from(el.getRootNode().querySelectorAll('label')).find((l) => l.htmlFor === el.id) : null)
      || el.closest('label') || byId((el.getAttribute('aria-labelledby') || '').split(/\s+/)[0], el);
    const labelBox = labelEl && labelEl.getClientRects().length ? boxOf(labelEl) : null;
    // one order for every element kind: aria-labelledby > aria-label > label[for] > wrapping label;
    // a placeholder or title alone never counts as a label
    const sources = [
      ['aria-labelledby', labelledByText(el)], ['aria-label', squash(el.getAttribute('aria-label'))],
      ['label[for]', forText], ['wrapping-label', wrapping],
    ];
    const found = sources.find(([, text]) => text);
    const source = found ? found[0]
      : el.getAttribute('placeholder') ? 'placeholder-only' : el.getAttribute('title') ? 'title-only' : 'none';
    const described = (el.getAttribute('aria-describedby') || '').split(/\s+/).map((id) => byId(id, el)?.textContent).join(' ');
    elementsOf.fields.push(el);
    fields.push({
      i: fields.length, type, name_attr: el.getAttribute('name') || null, id: el.id || null,
      label: cut(found ? found[1] : '', 160), label_source: source,
      placeholder: orNull(el.getAttribute('placeholder'), 120),
      required: el.required || el.getAttribute('aria-required') === 'true',
      describedby_text: orNull(described, 160),
      fieldset_legend: orNull(el.closest('fieldset')?.querySelector('legend')?.textContent, 120),
      visible: isShown(el), landmark: landmarkOf(el), selector: pathOf(el), box: boxOf(el), ...inFrame(el), ...undrawn(el), ...clipped(el),
      ...(labelBox ? { label_box: labelBox } : {}),
    });
  }

  const navs = [];
  const NAVS = 'nav,[role=navigation],header,[role=banner],footer,[role=contentinfo],' +
    '[aria-label*="breadcrumb" i],.breadcrumb,.usa-breadcrumb';
  for (const el of document.querySelectorAll(NAVS)) {
    if (el.tagName === 'HEADER' && el.closest('nav')) continue;
    const items = Array.from(el.querySelectorAll('a[href],[role=link],button,[role=menuitem]'))
      .slice(0, caps.nav_links)
      .map((a) => ({ name: cut(nameOf(a).name, 80), href: a.getAttribute('href') ? cut(a.getAttribute('href'), 120) : null,
        tag: a.tagName.toLowerCase() }));
    navs.push({
      role: el.getAttribute('role') || el.tagName.toLowerCase(),
      label: orNull(squash(el.getAttribute('aria-label')) || labelledByText(el), 80),
      selector: pathOf(el), visible: isShown(el), item_count: items.length, items,
    });
  }

  // Skip links: a fragment that names no element (or is not a valid id at all) is "not found".
  const skipLinks = Array.from(document.querySelectorAll('a[href^="#"]'))
    .filter((a) => /skip/i.test(squash(a.textContent) + (a.getAttribute('aria-label') || '')))
    .map((a) => {
      const href = a.getAttribute('href');
      let exists = false;
      if (href === '#') exists = true;
      else {
        let id = href.slice(1);
        try { id = decodeURIComponent(id); } catch (e) { /* keep the raw fragment */ }
        exists = document.getElementById(id) !== null || document.getElementsByName(id).length > 0;
      }
      return { name: cut(nameOf(a).name, 80), href, target_exists: exists };
    });

  const h1s = Array.from(document.querySelectorAll('h1'));
  const meta = {
    lang: document.documentElement.getAttribute('lang'), title: document.title,
    h1: h1s.map((h) => cut(h.textContent, 160)), h1_count: h1s.length,
    meta_description: orNull(document.querySelector('meta[name=description]')?.getAttribute('content'), 200),
    main_count: document.querySelectorAll('main,[role=main]').length,
    search_landmark: document.querySelector('[role=search],search') !== null, skip_links: skipLinks,
  };
  const counts = {
    headings: headings.length, headings_visible: headings.filter((h) => h.visible).length,
    links: links.length, links_total: linksTotal, links_visible: links.filter((l) => l.visible).length,
    links_empty_name: links.filter((l) => l.empty_name).length,
    images: images.length, images_total: imagesTotal,
    images_missing_alt: images.filter((m) => m.tag === 'img' && !m.alt_present).length,
    images_empty_alt: images.filter((m) => m.alt_empty).length,
    fields: fields.length, fields_unlabeled: fields.filter((f) => !f.label).length, navs: navs.length,
  };
  const capped = {
    headings: headings.length >= caps.headings, links: linksTotal > caps.links,
    images: imagesTotal > caps.images, fields: fields.length >= caps.fields,
    navs: navs.some((n) => n.item_count >= caps.nav_links),
  };
  const data = { meta, counts, headings, links, images, fields, navs, capped };
  return caps.with_elements ? { data, elements: elementsOf, map_images: mapImages } : data;
}
