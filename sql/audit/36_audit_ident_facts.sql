-- audit_ident_variants: per product, each distinct link name that leads to a destination reached by two or more names (links with a name, not same-page nor a permalink, never a pseudo-destination such as javascript:, # or void(0))
--   product: product
--   dest: the destination (dest(href))
--   n: the normalised name
--   name: the name as first seen
--   landmark: landmark of the first occurrence
--   views: views where the name leads there, in view order
--   view_count: number of those views
--   signature: the sorted view ids, to compare variants
--   first_occ: first occurrence (view position, link index)
-- audit_ident_facts: one row per destination that carries two or more names across a product's views, except the paired-table pattern (every name on the identical set of views, inside main)
--   type: ident
--   sc: WCAG success criterion judged (3.2.4)
--   product: product
--   pos: position of the first view where the destination appears
--   i: index of the first link to it in that view
--   unit_key: the destination
--   variants: number of names
--   exposed: NULL (names of links across views, not one element)
CREATE OR REPLACE TABLE audit_ident_variants AS
WITH named AS MATERIALIZED (
    SELECT product, dest, name_norm AS n, name, landmark, pos, i, view_id
    FROM audit_link_facts
    WHERE name <> '' AND NOT same_page AND NOT permalink
        AND NOT matches_i(href_raw, '^(javascript:|#?$|void\(0\))')
        AND NOT matches_i(coalesce(href, ''), '^(javascript:|#?$|void\(0\))')
),
several AS (SELECT product, dest FROM named GROUP BY product, dest HAVING count(DISTINCT n) >= 2)
SELECT product, dest, n, first(name ORDER BY pos, i) AS name,
    first(landmark ORDER BY pos, i) AS landmark,
    list_transform(list_sort(list_distinct(list({'p': pos, 'v': view_id}))), lambda x: x.v) AS views,
    count(DISTINCT view_id) AS view_count,
    array_to_string(list_sort(list_distinct(list(view_id))), ',') AS signature,
    min({'p': pos, 'i': i}) AS first_occ
FROM named SEMI JOIN several USING (product, dest)
GROUP BY product, dest, n;

CREATE OR REPLACE TABLE audit_ident_facts AS
SELECT 'ident' AS type, '3.2.4' AS sc, product, min(first_occ).p AS pos, min(first_occ).i AS i, dest AS unit_key,
    count(*) AS variants, CAST(NULL AS BOOLEAN) AS exposed
FROM audit_ident_variants
GROUP BY product, dest
HAVING count(*) >= 2
    AND NOT (count(DISTINCT signature) = 1 AND bool_and(landmark IS NULL OR landmark = '' OR starts_with(landmark,
        'main')));
