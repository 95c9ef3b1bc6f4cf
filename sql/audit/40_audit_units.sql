-- audit_occurrences: every captured title, heading, link, image and field with its unit's dedupe key
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
-- audit_units: one row per thing to judge, deduplicated per product across views, in build order (computed once when the store is built)
--   unit_ord: build order (titles, headings, fields... as the judgment-units file lists them)
--   id: unit id TYPE-PR-<first 10 hex of sha256("type|product|key")>
--   type: title, heading, link, image, field or ident
--   sc: WCAG success criterion judged
--   product: product
--   unit_key: the dedupe key the id hashes
--   views: the distinct views it appears on, in view order
--   view_count: number of distinct views
--   occurrences: number of occurrences (an element repeated in one view counts each time)
--   name: name (first occurrence)
--   detail: detail (first occurrence)
--   context: context (first occurrence; for a heading, the first non-empty section preview)
--   landmark: landmark (first occurrence)
--   selector: CSS path (first occurrence)
--   visible: whether any occurrence was rendered
--   href: href or src (first occurrence)
--   flags: the flags that fired, in the order they first fired
--   unit_json: the unit as written to judgment-units.json
CREATE OR REPLACE VIEW audit_occurrences AS
SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href FROM audit_title_facts
UNION ALL SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href FROM audit_heading_facts
UNION ALL SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href FROM audit_link_facts
UNION ALL SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href FROM audit_image_facts
UNION ALL SELECT type, sc, product, pos, view_id, i, unit_key, name, detail, context, landmark, selector, visible, href FROM audit_field_facts;

CREATE OR REPLACE TABLE audit_units AS
WITH products AS (SELECT product, min(pos) AS product_pos FROM audit_views WHERE ok GROUP BY product),
element_units AS (
    SELECT type, any_value(sc) AS sc, product, unit_key,
        list_transform(list_sort(list_distinct(list({'p': pos, 'v': view_id}))), lambda x: x.v) AS views,
        count(DISTINCT view_id) AS view_count, count(*) AS occurrences,
        first(name ORDER BY pos, i) AS name, first(detail ORDER BY pos, i) AS detail,
        CASE WHEN type = 'heading' THEN coalesce(first(context ORDER BY pos, i) FILTER (WHERE context <> ''), '')
             ELSE first(context ORDER BY pos, i) END AS context,
        first(landmark ORDER BY pos, i) AS landmark, first(selector ORDER BY pos, i) AS selector,
        bool_or(visible) AS visible, first(href ORDER BY pos, i) AS href,
        min({'p': pos, 'i': i}) AS first_occ, min(pos) AS first_pos
    FROM audit_occurrences
    GROUP BY type, product, unit_key
),
ident_units AS (
    SELECT 'ident' AS type, '3.2.4' AS sc, f.product, f.unit_key,
        string_agg('"' || v.name || '" (' || v.view_count || ' views' || coalesce(', ' || nullif(v.landmark, ''), '') || ')',
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
idents AS (
    SELECT u.type, u.sc, u.product, u.unit_key, w.views, len(w.views) AS view_count, len(w.views) AS occurrences,
        u.name, u.detail, '' AS context, CAST(NULL AS VARCHAR) AS landmark, CAST(NULL AS VARCHAR) AS selector,
        true AS visible, u.unit_key AS href, u.first_occ, u.first_occ.p AS first_pos
    FROM ident_units AS u JOIN ident_views AS w USING (product, unit_key)
),
all_units AS (SELECT * FROM element_units UNION ALL SELECT * FROM idents),
flags AS (
    SELECT type, product, unit_key, list(flag ORDER BY first_fired, ord) AS flags
    FROM (SELECT type, product, unit_key, flag, min({'p': pos, 'i': i}) AS first_fired, min(ord) AS ord
          FROM audit_flags GROUP BY type, product, unit_key, flag)
    GROUP BY type, product, unit_key
)
SELECT row_number() OVER (ORDER BY list_position(['title', 'heading', 'link', 'image', 'field', 'ident'], u.type),
        CASE WHEN u.type IN ('title', 'ident') THEN p.product_pos ELSE 0 END, u.first_occ) AS unit_ord,
    unit_id(u.type, u.product, u.unit_key) AS id, u.type, u.sc, u.product, u.unit_key, u.views, u.view_count,
    u.occurrences, u.name, u.detail, u.context, u.landmark, u.selector, u.visible, u.href,
    coalesce(f.flags, []) AS flags,
    CAST(json_object('id', unit_id(u.type, u.product, u.unit_key), 'type', u.type, 'sc', u.sc, 'product', u.product,
        'views', u.views, 'view_count', u.view_count, 'occurrences', u.occurrences, 'name', u.name, 'detail', u.detail,
        'context', u.context, 'landmark', u.landmark, 'selector', u.selector, 'visible', u.visible, 'href', u.href,
        'flags', coalesce(f.flags, [])) AS VARCHAR) AS unit_json
FROM all_units AS u JOIN products AS p USING (product)
LEFT JOIN flags AS f ON f.type = u.type AND f.product = u.product AND f.unit_key = u.unit_key
ORDER BY unit_ord;
