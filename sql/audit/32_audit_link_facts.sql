-- audit_link_keys: each link's dedupe-key inputs, narrow (a temp table the facts are made from)
--   pos: the view's position
--   view_id: view id
--   i: the link's index in the page
--   dest: destination identity
--   permalink: whether it links to its own section
--   n: its normalised name
--   shown: whether a person meets it (drawn and exposed)
--   own_key: its own dedupe key
-- audit_link_units: each link's unit key after its twins (a temp table)
--   pos: the view's position
--   i: the link's index in the page
--   n: its normalised name
--   hrefs_for_name: distinct documents in the page that shown links of its name lead to
--   unit_key: the key its unit takes
-- audit_link_facts: one row per captured link, with its dedupe key and the facts its flags test
--   type: link
--   sc: WCAG success criterion judged (2.4.4)
--   product: product
--   pos: the view's position
--   view_id: view id
--   i: the link's index in the page
--   unit_key: dedupe key norm(name)|dest(href)|first 8 hex of sha256(first 120 chars of norm(context)); a link that is not shown takes the key of a shown twin on its view (same name and destination), and twins shown one at a time at every viewport share the first shown one's key
--   name: accessible name: the browser's when it exposes the link, else the DOM approximation
--   detail: name source, icon-only alt, file type, external, new window and title, as text
--   context: the enclosing text block
--   landmark: enclosing landmark
--   selector: CSS path
--   visible: whether it was rendered
--   href: absolute href
--   name_source: where the name came from: the approximation's word (content, img-alt, ...) where the browser agrees with it, else the browser's source
--   text: text content
--   title: title attribute
--   href_raw: href as written
--   same_page: whether the href starts with #
--   target: target attribute
--   file_ext: file extension the href points at
--   icon_only: whether an image is its only content
--   img_alt: alt of the image inside
--   empty_name: whether it has no name
--   hrefs_for_name: distinct documents in the page that links with the same normalised name lead to, counting only links a person meets (drawn and exposed) and leaving permalinks aside: a fragment of the same document is the same destination
--   permalink: whether it links to the heading or section it sits in (never a "same name, different destination" case)
--   name_norm: the normalised name norm(name)
--   dest: the destination identity dest(href)
--   exposed: whether the browser exposes it to assistive technology (NULL when the capture has no accessibility tree)
--   dom_name: the name the DOM approximation gives (the name itself when the capture has no accessibility tree)
--   needs_human: whether the name is only the DOM approximation (no accessibility tree): a person must check it in a browser
--   frame: the CSS path of the iframe it sits in (NULL in the top document)
--   undrawn: whether it is not drawn at all (display:none, visibility:hidden, also through an ancestor)
--   ax_name: the accessible name the browser computed (NULL without the tree)
--   ax_name_source: where the browser took that name from
--   ax_role: the role the browser computed
-- the key of every link, from a narrow projection (a table of its own, so the grouping below never carries the
-- links' wide rows)
CREATE OR REPLACE TEMP TABLE audit_link_keys AS
WITH k AS (
    SELECT pos, view_id, i, dest, coalesce(permalink, false) AS permalink,
        norm_text(CASE WHEN ax.exposed THEN coalesce(ax.name, '') ELSE name END) AS n, context,
        coalesce(visible, false) AND ax.exposed IS NOT FALSE AS shown
    FROM audit_links
)
SELECT pos, view_id, i, dest, permalink, n, shown,
    n || '|' || dest || '|' || substr(sha256(substr(norm_text(context), 1, 120)), 1, 8) AS own_key
FROM k;

CREATE OR REPLACE TEMP TABLE audit_link_units AS
-- destinations of one name that a person meets: documents (a fragment of the same document is the same place), links
-- drawn and exposed, permalinks aside
WITH per_name AS (SELECT pos, n, count(DISTINCT without_fragment(dest)) FILTER (WHERE NOT permalink
    AND shown) AS hrefs_for_name
                  FROM audit_link_keys GROUP BY ALL),
-- a hidden twin (same name and destination on the view, e.g. a mobile-only copy of a visible link) is the same thing a
-- person meets: it takes the unit of the first shown twin; and where a view's twins are shown one at a time (the wide
-- arrow at desktop width, the mobile arrow on a phone), at every viewport, they are all one unit: the first shown one's
twins AS (SELECT pos, view_id, n, dest, arg_min(own_key, i) FILTER (WHERE shown) AS shown_key,
                 min(i) FILTER (WHERE shown) AS first_shown_i, count(*) FILTER (WHERE shown) AS shown_here
          FROM audit_link_keys GROUP BY ALL),
across AS (SELECT view_id, n, dest, max(shown_here) AS most_shown,
                  arg_min(shown_key, {'p': pos,
                      'i': first_shown_i}) FILTER (WHERE shown_key IS NOT NULL) AS first_shown_key
           FROM twins GROUP BY ALL)
SELECT k.pos, k.i, k.n, p.hrefs_for_name,
    CASE WHEN a.most_shown = 1 THEN a.first_shown_key
         WHEN k.shown THEN k.own_key ELSE coalesce(t.shown_key, k.own_key) END AS unit_key
FROM audit_link_keys AS k JOIN per_name AS p ON p.pos = k.pos AND p.n = k.n
JOIN twins AS t ON t.pos = k.pos AND t.n = k.n AND t.dest IS NOT DISTINCT FROM k.dest
JOIN across AS a ON a.view_id = k.view_id AND a.n = k.n AND a.dest IS NOT DISTINCT FROM k.dest;

CREATE OR REPLACE TABLE audit_link_facts AS
WITH l AS (
    SELECT * REPLACE (CASE WHEN ax.exposed THEN coalesce(ax.name, '') ELSE name END AS name,
                      CASE WHEN ax.exposed AND ax.name <> coalesce(name, '') THEN coalesce(ax.name_source, 'none')
                           ELSE name_source END AS name_source),
        name AS dom_name
    FROM audit_links
)
SELECT 'link' AS type, '2.4.4' AS sc, l.product, l.pos, l.view_id, l.i, u.unit_key,
    coalesce(l.name, '') AS name,
    l.name_source
        || CASE WHEN l.icon_only THEN '; icon-only alt=' || coalesce(CAST(to_json(l.img_alt) AS VARCHAR), 'null')
            ELSE '' END
        || CASE WHEN coalesce(l.file_ext, '') <> '' THEN '; file ' || l.file_ext ELSE '' END
        || CASE WHEN l.external THEN '; external' ELSE '' END
        || CASE WHEN l.target = '_blank' THEN '; new window' ELSE '' END
        || CASE WHEN coalesce(l.title, '') <> '' THEN '; title=' || CAST(to_json(l.title) AS VARCHAR)
            ELSE '' END AS detail,
    coalesce(l.context, '') AS context, l.landmark, l.selector, coalesce(l.visible, false) AS visible, l.href,
    l.name_source, coalesce(l.text, '') AS text, l.title, coalesce(l.href_raw, '') AS href_raw,
    coalesce(l.same_page, false) AS same_page, l.target, l.file_ext, coalesce(l.icon_only, false) AS icon_only,
    l.img_alt, coalesce(l.empty_name, false) AS empty_name, u.hrefs_for_name, u.n AS name_norm, l.dest,
    l.ax.exposed AS exposed, l.ax.name AS ax_name, l.ax.name_source AS ax_name_source, l.ax.role AS ax_role,
    coalesce(l.dom_name, '') AS dom_name, l.ax.exposed IS NULL AS needs_human, l.frame, coalesce(l.undrawn,
        false) AS undrawn,
    coalesce(l.permalink, false) AS permalink
FROM l JOIN audit_link_units AS u USING (pos, i);
