-- audit_occurrences: every captured title, heading, link, image, field and axe-core node with its unit's dedupe key (audit_raw_occurrences with audit_element_keys applied)
--   type: unit type
--   sc: WCAG success criterion
--   product: product
--   pos: the view's position
--   view_id: view id
--   i: element index in the page
--   unit_key: dedupe key
--   name: name as captured
--   detail: detail as captured
--   context: context as captured
--   landmark: enclosing landmark
--   selector: CSS path
--   visible: whether it was rendered
--   href: href or src
--   evidence: what the browser exposes beside the DOM approximation (dom_name, name_source, role, exposed, needs_human, frame, undrawn); NULL for a title
-- audit_raw_occurrences: every occurrence of every element, as its type's facts view keys it (before the keys of one element at several viewports are made one)
--   type: unit type
--   sc: WCAG success criterion
--   product: product
--   pos: the view's position (one per view and viewport)
--   view_id: view id
--   i: element index in the page
--   unit_key: dedupe key from the facts view
--   name: name
--   detail: detail
--   context: context
--   landmark: landmark
--   selector: CSS path
--   visible: whether it was rendered
--   href: href or src
--   evidence: what the browser exposes (NULL for a title or finding)
-- audit_element_keys: where a view is captured at several viewports, the occurrences of one element (type and CSS path on a view, a path unique in each page) whose key differs from the key of its first occurrence a person meets (drawn or exposed): that key replaces theirs, so an element hidden at one width and shown at another is one unit
--   type: unit type
--   pos: the occurrence's view position
--   i: element index
--   unit_key: the key it takes
-- audit_units: one row per thing to judge, deduplicated per product across views, in build order (computed once when the store is built); a heading, link, image or field that is not drawn (display:none, visibility:hidden) and not exposed to assistive technology at any occurrence is no row (audit_hidden_units)
--   unit_ord: build order (titles, headings, fields... as the judgment-units file lists them)
--   id: unit id TYPE-PR-<first 10 hex of sha256("type|product|key")>
--   type: title, heading, link, image, field, ident, or finding (an axe-core result, deduplicated by rule and element fingerprint)
--   sc: WCAG success criterion judged
--   product: product
--   unit_key: the dedupe key the id hashes
--   views: the distinct views it appears on, in view order
--   view_count: number of distinct views
--   occurrences: number of occurrences (an element repeated in one view counts each time)
--   name: name (the first occurrence a person meets, else the first)
--   detail: detail (the first occurrence a person meets, else the first)
--   context: context (the first occurrence a person meets, drawn and exposed, else the first; for a heading, the first non-empty section preview)
--   landmark: landmark (the first occurrence a person meets, else the first)
--   selector: CSS path (the first occurrence a person meets, else the first)
--   visible: whether any occurrence was rendered
--   href: href or src (first occurrence)
--   flags: the flags that fired, in the order they first fired
--   dom_name: heading, link, image, field: the DOM approximation's name, beside the browser's (NULL for a title or ident)
--   name_source: where the name came from (the browser's source when it exposes the element)
--   role: the role the browser computed (NULL without the accessibility tree)
--   exposed: whether the browser exposes the element (NULL without the accessibility tree)
--   needs_human: true when the name is only the DOM approximation: a person must check it in a browser
--   frame: the CSS path of the iframe the element sits in (NULL in the top document)
--   unit_json: the unit as written to judgment-units.json
CREATE OR REPLACE VIEW audit_raw_occurrences AS
SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href,
    CAST(NULL AS STRUCT(dom_name VARCHAR, name_source VARCHAR, role VARCHAR, exposed BOOLEAN, needs_human BOOLEAN,
        frame VARCHAR, undrawn BOOLEAN)) AS evidence
FROM audit_title_facts
UNION ALL SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href,
    {'dom_name': dom_name, 'name_source': name_source, 'role': ax_role, 'exposed': exposed, 'needs_human': needs_human,
    'frame': frame, 'undrawn': undrawn} AS evidence FROM audit_heading_facts
UNION ALL SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href,
    {'dom_name': dom_name, 'name_source': name_source, 'role': ax_role, 'exposed': exposed, 'needs_human': needs_human,
    'frame': frame, 'undrawn': undrawn} AS evidence FROM audit_link_facts
UNION ALL SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href,
    {'dom_name': dom_name, 'name_source': name_source, 'role': ax_role, 'exposed': exposed, 'needs_human': needs_human,
    'frame': frame, 'undrawn': undrawn} AS evidence FROM audit_image_facts
UNION ALL SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href,
    {'dom_name': dom_name, 'name_source': name_source, 'role': ax_role, 'exposed': exposed, 'needs_human': needs_human,
    'frame': frame, 'undrawn': undrawn} AS evidence FROM audit_field_facts
UNION ALL SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href,
    NULL AS evidence FROM audit_finding_facts;

-- one element at several viewports: its first occurrence a person meets gives its unit key at every viewport
CREATE OR REPLACE TABLE audit_element_keys AS
WITH multi AS (SELECT 1 AS yes WHERE (SELECT count(DISTINCT viewport) FROM audit_views WHERE ok) > 1),
elements AS (  -- a CSS path names one element only where it is unique in each of the view's pages
    SELECT type, view_id, selector,
        arg_min(unit_key, {'p': pos, 'i': i}) FILTER (WHERE NOT (coalesce(evidence.undrawn, false)
            AND evidence.exposed IS FALSE)) AS met_key
    FROM audit_raw_occurrences
    WHERE type IN ('heading', 'link', 'image', 'field') AND selector IS NOT NULL AND EXISTS (SELECT yes FROM multi)
    GROUP BY type, view_id, selector
    HAVING count(*) = count(DISTINCT pos)
)
SELECT o.type, o.pos, o.i, e.met_key AS unit_key
FROM audit_raw_occurrences AS o JOIN elements AS e USING (type, view_id, selector)
WHERE e.met_key IS NOT NULL AND e.met_key <> o.unit_key;

CREATE OR REPLACE TABLE audit_occurrences AS
SELECT o.* REPLACE (coalesce(k.unit_key, o.unit_key) AS unit_key)
FROM audit_raw_occurrences AS o LEFT JOIN audit_element_keys AS k USING (type, pos, i);

CREATE OR REPLACE TABLE audit_units AS
WITH products AS (SELECT product, min(pos) AS product_pos FROM audit_views WHERE ok GROUP BY product),
counted AS (SELECT type, product, unit_key, count(*) AS occurrences FROM audit_occurrences GROUP BY ALL),
single_units AS (  -- most units occur once: no aggregation needed
    SELECT o.type, o.sc, o.product, o.unit_key, [o.view_id] AS views, 1 AS occurrences, o.name, o.detail, o.context,
        o.landmark, o.selector, o.visible, o.href, {'p': o.pos, 'i': o.i} AS first_occ, o.evidence,
        NOT (coalesce(o.evidence.undrawn, false) AND o.evidence.exposed IS FALSE) AS met
    FROM audit_occurrences AS o SEMI JOIN counted AS c
        ON c.type = o.type AND c.product = o.product AND c.unit_key = o.unit_key AND c.occurrences = 1
),
view_order AS (SELECT view_id, min(pos) AS view_pos FROM audit_views GROUP BY view_id),
    -- a view's place, whatever viewport
repeated_units AS (
    SELECT type, arg_min(sc, {'p': pos, 'i': i}) AS sc, product, unit_key,  -- the first occurrence's, as every field
        list_transform(list_sort(list_distinct(list({'p': w.view_pos, 'v': o.view_id}))), lambda x: x.v) AS views,
        count(*) AS occurrences,
        arg_min({'name': name, 'detail': detail, 'context': context, 'landmark': landmark, 'selector': selector,
            'href': href,
                 'evidence': evidence},
                     -- what a person meets: the first shown occurrence (drawn and exposed), else the first
            {'hidden': NOT (coalesce(visible, false) AND coalesce(evidence.exposed, true)), 'p': pos, 'i': i}) AS first,
        CASE WHEN type = 'heading' THEN coalesce(arg_min(context, {'p': pos, 'i': i}) FILTER (WHERE context <> ''),
            '') END AS heading_context,
        bool_or(visible) AS visible, bool_or(NOT (coalesce(evidence.undrawn, false)
            AND evidence.exposed IS FALSE)) AS met,
        min({'p': pos, 'i': i}) AS first_occ
    FROM audit_occurrences AS o JOIN view_order AS w USING (view_id) SEMI JOIN counted AS c
        ON c.type = o.type AND c.product = o.product AND c.unit_key = o.unit_key AND c.occurrences > 1
    GROUP BY type, product, unit_key
),
ident_units AS (
    SELECT 'ident' AS type, '3.2.4' AS sc, f.product, f.unit_key,
        string_agg('"' || v.name || '" (' || v.view_count || ' views' || coalesce(', ' || nullif(v.landmark, ''), '')
            || ')',
            ' | ' ORDER BY v.first_occ) AS name,
        count(*) || ' names for one destination' AS detail,
        min(v.first_occ) AS first_occ
    FROM audit_ident_facts AS f JOIN audit_ident_variants AS v ON v.product = f.product AND v.dest = f.unit_key
    GROUP BY f.product, f.unit_key
),
ident_views AS (
    -- the union of the variants' views: variant by variant, each in view order; a view keeps its first place
    SELECT product, unit_key, list(view_id ORDER BY first_place) AS views
    FROM (SELECT v.product, v.dest AS unit_key, x.view_id, min({'variant': v.first_occ, 'k': x.k}) AS first_place
          FROM audit_ident_variants AS v
          CROSS JOIN LATERAL (SELECT unnest(v.views) AS view_id, generate_subscripts(v.views, 1) AS k) AS x
          SEMI JOIN audit_ident_facts AS f ON f.product = v.product AND f.unit_key = v.dest
          GROUP BY v.product, v.dest, x.view_id)
    GROUP BY product, unit_key
),
all_units AS (
    SELECT * FROM single_units
    UNION ALL
    SELECT type, sc, product, unit_key, views, occurrences, first.name, first.detail,
        coalesce(heading_context, first.context) AS context, first.landmark, first.selector, visible, first.href,
            first_occ,
        first.evidence, met
    FROM repeated_units
    UNION ALL
    SELECT u.type, u.sc, u.product, u.unit_key, w.views, len(w.views), u.name, u.detail, '', NULL, NULL, true,
        u.unit_key,
        u.first_occ, NULL, true
    FROM ident_units AS u JOIN ident_views AS w USING (product, unit_key)
),
flags AS (
    SELECT type, product, unit_key, list(flag ORDER BY first_fired, ord) AS flags
    FROM (SELECT type, product, unit_key, flag, min({'p': pos, 'i': i}) AS first_fired, min(ord) AS ord
          FROM (SELECT f.* REPLACE (coalesce(k.unit_key, f.unit_key) AS unit_key)
                FROM (SELECT * FROM audit_flags UNION ALL SELECT * FROM audit_axe_flags) AS f
                LEFT JOIN audit_element_keys AS k USING (type, pos, i))
          GROUP BY type, product, unit_key, flag)
    GROUP BY type, product, unit_key
),
units AS (
    SELECT row_number() OVER (ORDER BY list_position(['title', 'heading', 'link', 'image', 'field', 'ident', 'finding'],
        u.type),
            CASE WHEN u.type IN ('title', 'ident') THEN p.product_pos ELSE 0 END, u.first_occ) AS unit_ord,
        unit_id(u.type, u.product, u.unit_key) AS id, u.type, u.sc, u.product, u.unit_key, u.views,
            len(u.views) AS view_count,
        u.occurrences, u.name, u.detail, u.context, u.landmark, u.selector, u.visible, u.href,
        coalesce(f.flags, []) AS flags, u.evidence.dom_name AS dom_name, u.evidence.name_source AS name_source,
        u.evidence.role AS role, u.evidence.exposed AS exposed, u.evidence.needs_human AS needs_human,
            u.evidence.frame AS frame
    FROM all_units AS u JOIN products AS p USING (product)
    LEFT JOIN flags AS f ON f.type = u.type AND f.product = u.product AND f.unit_key = u.unit_key
    WHERE u.met OR u.type = 'title'  -- neither drawn nor exposed anywhere: nothing a person meets (audit_hidden_units)
)
SELECT *, CAST(CASE WHEN type IN ('title', 'ident', 'finding') THEN
        json_object('id', id, 'type', type, 'sc', sc, 'product', product, 'views', views, 'view_count', view_count,
        'occurrences', occurrences, 'name', name, 'detail', detail, 'context', context, 'landmark', landmark,
        'selector', selector, 'visible', visible, 'href', href, 'flags', flags)
    ELSE json_object('id', id, 'type', type, 'sc', sc, 'product', product, 'views', views, 'view_count', view_count,
        'occurrences', occurrences, 'name', name, 'detail', detail, 'context', context, 'landmark', landmark,
        'selector', selector, 'visible', visible, 'href', href, 'flags', flags, 'name_source', name_source, 'role',
            role,
        'exposed', exposed, 'dom_name', dom_name, 'needs_human', needs_human, 'frame',
            frame) END AS VARCHAR) AS unit_json
FROM units;
