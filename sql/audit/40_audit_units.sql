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
counted AS (SELECT type, product, unit_key, count(*) AS occurrences FROM audit_occurrences GROUP BY ALL),
single_units AS (  -- most units occur once: no aggregation needed
    SELECT o.type, o.sc, o.product, o.unit_key, [o.view_id] AS views, 1 AS occurrences, o.name, o.detail, o.context,
        o.landmark, o.selector, o.visible, o.href, {'p': o.pos, 'i': o.i} AS first_occ
    FROM audit_occurrences AS o SEMI JOIN counted AS c
        ON c.type = o.type AND c.product = o.product AND c.unit_key = o.unit_key AND c.occurrences = 1
),
repeated_units AS (
    SELECT type, any_value(sc) AS sc, product, unit_key,
        list_transform(list_sort(list_distinct(list({'p': pos, 'v': view_id}))), lambda x: x.v) AS views,
        count(*) AS occurrences,
        arg_min({'name': name, 'detail': detail, 'context': context, 'landmark': landmark, 'selector': selector, 'href': href},
            {'p': pos, 'i': i}) AS first,
        CASE WHEN type = 'heading' THEN coalesce(arg_min(context, {'p': pos, 'i': i}) FILTER (WHERE context <> ''), '') END AS heading_context,
        bool_or(visible) AS visible,
        min({'p': pos, 'i': i}) AS first_occ
    FROM audit_occurrences AS o SEMI JOIN counted AS c
        ON c.type = o.type AND c.product = o.product AND c.unit_key = o.unit_key AND c.occurrences > 1
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
all_units AS (
    SELECT * FROM single_units
    UNION ALL
    SELECT type, sc, product, unit_key, views, occurrences, first.name, first.detail,
        coalesce(heading_context, first.context) AS context, first.landmark, first.selector, visible, first.href, first_occ
    FROM repeated_units
    UNION ALL
    SELECT u.type, u.sc, u.product, u.unit_key, w.views, len(w.views), u.name, u.detail, '', NULL, NULL, true, u.unit_key,
        u.first_occ
    FROM ident_units AS u JOIN ident_views AS w USING (product, unit_key)
),
flags AS (
    SELECT type, product, unit_key, list(flag ORDER BY first_fired, ord) AS flags
    FROM (SELECT type, product, unit_key, flag, min({'p': pos, 'i': i}) AS first_fired, min(ord) AS ord
          FROM audit_flags GROUP BY type, product, unit_key, flag)
    GROUP BY type, product, unit_key
),
units AS (
    SELECT row_number() OVER (ORDER BY list_position(['title', 'heading', 'link', 'image', 'field', 'ident'], u.type),
            CASE WHEN u.type IN ('title', 'ident') THEN p.product_pos ELSE 0 END, u.first_occ) AS unit_ord,
        unit_id(u.type, u.product, u.unit_key) AS id, u.type, u.sc, u.product, u.unit_key, u.views, len(u.views) AS view_count,
        u.occurrences, u.name, u.detail, u.context, u.landmark, u.selector, u.visible, u.href,
        coalesce(f.flags, []) AS flags
    FROM all_units AS u JOIN products AS p USING (product)
    LEFT JOIN flags AS f ON f.type = u.type AND f.product = u.product AND f.unit_key = u.unit_key
)
SELECT *, CAST(json_object('id', id, 'type', type, 'sc', sc, 'product', product, 'views', views, 'view_count', view_count,
        'occurrences', occurrences, 'name', name, 'detail', detail, 'context', context, 'landmark', landmark,
        'selector', selector, 'visible', visible, 'href', href, 'flags', flags) AS VARCHAR) AS unit_json
FROM units;
