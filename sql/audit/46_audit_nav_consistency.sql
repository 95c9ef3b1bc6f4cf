-- audit_nav_consistency: WCAG 3.2.3 decided in SQL: per product, host and viewport (a phone's menu is compared with the phone's), the navigation items (nav and role=navigation only, names normalised, deduplicated in DOM order) found on at least max(2, ceil(views/2)) views form the shared set, ordered by mean position; one row per view saying whether the shared items it carries keep that relative order
--   product: product
--   host: host of the views
--   view_id: view id
--   views_in_group: inventoried views of the product on this host
--   shared_items: size of the shared set
--   present_shared: shared items on this view
--   missing_shared: shared items absent here (informational)
--   extra_items: navigation items here outside the shared set (informational)
--   order_consistent: whether the shared items keep the shared relative order
--   first_order_violation: the first pair out of order, "a" before "b"
--   note: the verdict in words (single views and hosts without shared items are noted, not judged)
--   viewport: the viewport the views were captured at
CREATE OR REPLACE VIEW audit_nav_consistency AS
WITH views AS (SELECT pos, view_id, product, host, coalesce(viewport, '') AS viewport FROM audit_views WHERE ok),
groups AS (SELECT product, host, viewport, count(*) AS n, min(pos) AS group_pos FROM views GROUP BY product, host,
    viewport),
items AS (
    SELECT pos, norm_text(name) AS k, min({'nav': nav_i, 'item': item_i}) AS first_at
    FROM audit_nav_items
    WHERE regexp_matches(role, '^(nav|navigation)') AND norm_text(name) <> ''
    GROUP BY pos, norm_text(name)
),
names AS (SELECT pos, k, row_number() OVER (PARTITION BY pos ORDER BY first_at) - 1 AS p FROM items),
freq AS (
    SELECT v.product, v.host, v.viewport, n.k, count(*) AS f, avg(n.p) AS mean_p, min({'pos': n.pos,
        'p': n.p}) AS first_seen
    FROM names AS n JOIN views AS v USING (pos)
    GROUP BY v.product, v.host, v.viewport, n.k
),
shared AS (
    SELECT f.product, f.host, f.viewport, f.k,
        row_number() OVER (PARTITION BY f.product, f.host, f.viewport ORDER BY f.mean_p, f.first_seen) - 1 AS rank
    FROM freq AS f JOIN groups AS g USING (product, host, viewport)
    WHERE f.f >= greatest(2, ceil(g.n / 2))
),
present AS (
    SELECT n.pos, n.k, n.p, s.rank,
        lag(n.k) OVER (PARTITION BY n.pos ORDER BY n.p) AS prev_k,
        lag(s.rank) OVER (PARTITION BY n.pos ORDER BY n.p) AS prev_rank
    FROM names AS n JOIN views AS v USING (pos)
    JOIN shared AS s ON s.product = v.product AND s.host = v.host AND s.viewport = v.viewport AND s.k = n.k
),
per_view AS (
    SELECT v.pos, v.view_id, v.product, v.host, v.viewport, g.n, g.group_pos,
        (SELECT count(*) FROM shared AS s WHERE s.product = v.product AND s.host = v.host
            AND s.viewport = v.viewport) AS shared_items,
        (SELECT count(*) FROM present AS x WHERE x.pos = v.pos) AS present_shared,
        (SELECT count(*) FROM names AS x WHERE x.pos = v.pos) AS all_items,
        (SELECT arg_min('"' || x.prev_k || '" before "' || x.k || '"', x.p) FROM present AS x
         WHERE x.pos = v.pos AND x.rank < x.prev_rank) AS first_order_violation
    FROM views AS v JOIN groups AS g USING (product, host, viewport)
)
SELECT product, host, view_id, n AS views_in_group, shared_items, present_shared,
    shared_items - present_shared AS missing_shared, all_items - present_shared AS extra_items,
    first_order_violation IS NULL AS order_consistent, first_order_violation,
    CASE WHEN n = 1 THEN 'single view on this host; no comparison possible'
         WHEN shared_items = 0 THEN 'no shared navigation items on this host (map/app shells)'
         WHEN first_order_violation IS NOT NULL
             THEN 'shared navigation items appear in a different relative order here: ' || first_order_violation
         WHEN shared_items > present_shared THEN 'same relative order; ' || (shared_items - present_shared)
             || ' shared item(s) absent on this view (informational)'
         ELSE 'shared navigation items present in the same relative order' END AS note,
    viewport
FROM per_view
ORDER BY group_pos, pos;
