"""axe-core on a captured page: the same loaded page jfi inventoried, checked by axe-core (the version the
axe-playwright-python package ships, pinned with it), after the inventory and the screenshot are taken, so nothing axe
adds is seen by the capture, and the next view starts on a new document. Each result keeps what a ratifier needs:
rule, outcome (violation, or incomplete: "needs review"), impact, tags, help text and URL, and per node its target
(frames and shadow roots included), HTML snippet, failure summary and box in page pixels."""

from __future__ import annotations

import asyncio

from axe_playwright_python.base import AXE_SCRIPT

# what runs unless the audit chooses: WCAG 2.x A and AA rules
DEFAULT_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
MAX_NODES = 500  # per view (the rest is counted); a page can repeat one failing component thousands of times
SNIPPET_MAX = 300
TIMEOUT_S = 60  # one view's axe run; a page that takes longer gets a note instead of results

# axe.run in the page, then each node's box (target: selectors through frames, a list for shadow roots)
RUN = """async ([options, maxNodes, snippetMax]) => {
  const raw = await axe.run(document, options);
  const boxOf = (target) => {
    let doc = document, dx = scrollX, dy = scrollY, el = null;
    for (let k = 0; k < target.length; k += 1) {
      const part = target[k];
      el = null;
      let root = doc;
      for (const sel of (Array.isArray(part) ? part : [part])) {
        el = root.querySelector(sel);
        if (!el) return null;
        root = el.shadowRoot || el;
      }
      if (k < target.length - 1) {
        const f = el.getBoundingClientRect();
        dx += f.left; dy += f.top;
        doc = el.contentDocument;
        if (!doc) return null;
      }
    }
    const r = el.getBoundingClientRect();
    return { x: Math.round(r.left + dx), y: Math.round(r.top + dy), width: Math.round(r.width), height: Math.round(r.height) };
  };
  let kept = 0, total = 0;
  const results = [];
  for (const [outcome, list] of [['violation', raw.violations], ['incomplete', raw.incomplete]]) {
    for (const rule of list) {
      const nodes = [];
      for (const n of rule.nodes) {
        total += 1;
        if (kept >= maxNodes) continue;
        kept += 1;
        nodes.push({ target: n.target, html: (n.html || '').slice(0, snippetMax), summary: n.failureSummary || '',
          impact: n.impact || rule.impact || null, box: boxOf(n.target) });
      }
      if (nodes.length) results.push({ rule: rule.id, outcome, impact: rule.impact || null, tags: rule.tags,
        help: rule.help, help_url: rule.helpUrl, nodes });
    }
  }
  return { engine: 'axe-core ' + raw.testEngine.version, nodes_total: total, capped: total > kept, results };
}"""


def options(tags: list[str] | None = None, rules: list[str] | None = None) -> dict:
    """axe.run's options: the rules chosen (by id) or the tags (default: WCAG 2.x A and AA); violations and
    incomplete results only."""
    only = {"type": "rule", "values": list(rules)} if rules else {"type": "tag", "values": list(tags or DEFAULT_TAGS)}
    return {"runOnly": only, "resultTypes": ["violations", "incomplete"]}


async def check(page, run_options: dict) -> dict:
    """axe-core's results on the page as it is; axe goes into every same-origin frame so their nodes are checked."""
    for frame in page.frames:
        try:
            await frame.evaluate(AXE_SCRIPT)
        except Exception:  # a frame that went away or refuses scripts: axe reports what it could not reach
            pass
    found = await page.evaluate(RUN, [run_options, MAX_NODES, SNIPPET_MAX])
    found["options"] = run_options["runOnly"]
    return found


async def check_within(page, run_options: dict, max_elements: int, time_left_s: float) -> dict:
    """axe-core's results, or why there are none: a page larger than `max_elements` elements (axe would take minutes
    on it, as the accessibility tree would) or a run longer than TIMEOUT_S or than the view's time left is noted,
    never lost silently (the view keeps its inventory)."""
    limit = min(TIMEOUT_S, time_left_s - 2)
    if limit < 1:
        return {"error": "not run: the view's time budget was spent", "options": run_options["runOnly"]}
    try:
        size = await page.evaluate("() => document.getElementsByTagName('*').length")
        if size > max_elements:
            return {
                "error": f"not run: the page has {size} elements (axe-core runs on pages of up to {max_elements})",
                "options": run_options["runOnly"],
            }
        return await asyncio.wait_for(check(page, run_options), timeout=limit)
    except asyncio.TimeoutError:
        return {"error": f"axe-core did not finish within {limit:.0f} s", "options": run_options["runOnly"]}
    except Exception as e:  # the page went away or threw: the view keeps its inventory, axe's part says why
        return {"error": f"axe-core did not finish: {str(e).splitlines()[0][:180]}", "options": run_options["runOnly"]}
